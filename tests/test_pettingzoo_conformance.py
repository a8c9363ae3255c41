"""PettingZoo's own test suite for every registered game at every player count."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from tests.conftest import GAME_NAMES, GAME_PLAYER_COUNTS
from wildwest_envs import make
from wildwest_envs.registry import get_game


@pytest.mark.parametrize("name,num_players", GAME_PLAYER_COUNTS)
def test_api_test(name, num_players):
    """PettingZoo ``api_test`` passes."""
    api_test(make(name, num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("name,num_players", GAME_PLAYER_COUNTS)
def test_seed_test(name, num_players):
    """PettingZoo ``seed_test``: two envs with one seed play the same game."""
    seed_test(lambda: make(name, num_players=num_players), num_cycles=500)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_render_test(name):
    """PettingZoo ``render_test`` for ansi, human and rgb_array."""
    render_test(lambda render_mode=None: make(name, render_mode=render_mode))


@pytest.mark.parametrize("name,num_players", GAME_PLAYER_COUNTS)
def test_full_games_end_with_rewards_for_everybody(name, num_players):
    """Random games end by the rules; rewards sum as the reward mode says; infos give the scores.

    A game with its own turn cap (e.g. Wild West Express's round cap, scored by VP) may end
    there as a truncation; the library's decision cap never cuts these games.
    """
    for seed in range(3):
        env = make(name, num_players=num_players)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                raw = env.unwrapped
                assert raw.states["done"].all(), "the decision cap cut a game"
                assert not truncated or (raw.game.capped_fn is not None and raw.game.capped_fn(raw.states).all())
                assert set(info["scores"]) == set(env.possible_agents)
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any()
            env.step(int(np.random.default_rng(steps).choice(np.flatnonzero(mask))))
            steps += 1
        assert env.agents == []
        if all(v == 0.0 for v in totals.values()):  # a draw: every seat tied, nobody wins or loses
            assert all(w in info["winners"] for w in env.possible_agents)
        else:
            assert max(totals.values()) == 1.0
            assert all(v in (1.0, -1.0) for v in totals.values())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_turn_cap_truncates_every_agent(name):
    """A game that reaches ``max_decisions`` is truncated for all agents with zero reward."""
    env = make(name, max_decisions=5)
    env.reset(seed=1)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0 and info["truncated"]
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
    assert decisions == 5


@pytest.mark.parametrize("name", GAME_NAMES)
def test_pettingzoo_registry_makes_the_game(name):
    """The game is in PettingZoo's own registry (when the installed PettingZoo has one)."""
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    env = pettingzoo.make("aec", f"wildwest_envs/{name.replace('_v', '-v')}")
    env.reset(seed=0)
    assert env.unwrapped.game is get_game(name)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_env_pickles(name):
    """Envs are picklable from their options alone (Ray RLlib, subprocess vector envs)."""
    import pickle

    env = make(name, num_players=get_game(name).max_players)
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=3)
    env.reset(seed=3)
    assert clone.unwrapped.states.tobytes() == env.unwrapped.states.tobytes()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_play_random_game_plays_legal_moves_to_the_end_and_counts_them(name):
    """``core.aec.play_random_game`` (the warm-up's and the AEC benchmark's loop) plays one whole game of legal
    moves, shows each decision's legal actions to ``on_decision`` first, and replays from the same seeds."""
    from wildwest_envs.core.aec import play_random_game

    def one_game():
        env = make(name)
        env.reset(seed=4)
        seen = []

        def check(legal):
            mask = env.observe(env.agent_selection)["action_mask"]
            assert len(legal) > 0 and np.array_equal(legal, np.flatnonzero(mask))
            seen.append(tuple(legal))

        decisions = play_random_game(env, np.random.default_rng(9), on_decision=check)
        assert not env.agents  # every agent was stepped out: the game is over
        return decisions, seen

    decisions, seen = one_game()
    assert decisions == len(seen) > 0
    assert one_game() == (decisions, seen)
