"""The Wild West Express heuristic (agents/heuristic_wild_west_express.py, STYLE.md §14)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from tests._agents import positions_against_random
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.heuristic_wild_west_express import WildWestExpressHeuristic
from wildwest_envs.agents.registry import HEURISTICS, make_agent
from wildwest_envs.registry import GAMES
from wildwest_envs.wild_west_express.data import NO_CARD
from wildwest_envs.wild_west_express.state import NOBODY
from wildwest_envs.wild_west_express_v0 import GAME


def _snapshots(num_players: int, games: int = 24, steps: int = 600, every: int = 5, seed: int = 0) -> np.ndarray:
    """Live positions of games where seat 0 is the heuristic and the others play at random."""
    return positions_against_random(GAME, WildWestExpressHeuristic(seed), num_players, games, every, seed, steps)


def _obs_masks(states: np.ndarray):
    seats = GAME.current_player(states)
    return GAME.observe(states, seats), GAME.legal_mask(states), seats


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_heuristic_returns_legal_actions(num_players):
    """Every action of the heuristic is legal, on many positions of every decision type."""
    states = _snapshots(num_players, seed=num_players)
    obs, masks, _ = _obs_masks(states)
    actions = WildWestExpressHeuristic(1).act_batch(obs, masks)
    assert actions.shape == (len(states),)
    assert (masks[np.arange(len(states)), actions] == 1).all()
    decisions = np.argmax(obs[:, :17], axis=1)
    assert len(np.unique(decisions)) >= 6  # the positions cover the main decisions


def _hide_differently(states: np.ndarray, seats: np.ndarray, seed: int) -> np.ndarray:
    """Copies that differ only in what ``seats`` cannot see: the generator, the deck order and the
    ids of other seats' held cards (swapped with deck cards)."""
    other = states.copy()
    rng = np.random.default_rng(seed)
    GAME.reseed(other, rng.integers(0, 2**63, len(other), dtype=np.uint64))
    for b in range(len(other)):
        size = int(other["deck_size"][b])
        deck = other["deck"][b]
        deck[:size] = rng.permutation(deck[:size])
        holder, bound = other["card_holder"][b], other["card_bound"][b]
        for k in range(len(holder)):
            if holder[k] in (NOBODY, seats[b]) or size == 0:
                continue
            pos = int(rng.integers(size))
            k2 = int(deck[pos])
            if k2 == NO_CARD or (k < 6) != (k2 < 6):  # keep the movement-card counts alike
                continue
            holder[k2], bound[k2] = holder[k], bound[k]
            holder[k], bound[k] = NOBODY, NOBODY
            deck[pos] = k
    return other


def test_heuristic_reads_only_the_observation():
    """Two records with the same observation for the seat give the same action with the same seed."""
    states = _snapshots(3, seed=11)
    seats = GAME.current_player(states)
    other = _hide_differently(states, seats, 4)
    assert (other["card_holder"] != states["card_holder"]).any()  # some hidden card ids did change
    obs_a, masks, _ = _obs_masks(states)
    obs_b, masks_b, _ = _obs_masks(other)
    same = (obs_a == obs_b).all(axis=1) & (masks == masks_b).all(axis=1)
    assert same.mean() > 0.9  # a changed hidden card may be playable or not: those rows are left out
    a = WildWestExpressHeuristic(7).act_batch(obs_a[same], masks[same], states[same], seats[same])
    b = WildWestExpressHeuristic(7).act_batch(obs_b[same], masks_b[same], other[same], seats[same])
    np.testing.assert_array_equal(a, b)


def test_registry_names_the_heuristic():
    """HEURISTICS maps the game to this class; make_agent builds it once the game is registered."""
    module_name, class_name = HEURISTICS["wild_west_express_v0"]
    agent = getattr(importlib.import_module(module_name), class_name)(3)
    assert isinstance(agent, WildWestExpressHeuristic) and agent.name == "heuristic"
    if "wild_west_express_v0" in GAMES:
        assert isinstance(make_agent("heuristic", "wild_west_express", seed=3), WildWestExpressHeuristic)


def _win_rate_vs_random(n_games: int, seed: int) -> float:
    """Two-player games, the heuristic in seat g % 2 of game g, against a random agent."""
    states = GAME.init_batch(n_games, seed=seed, num_players=2)
    heuristic, rand = WildWestExpressHeuristic(seed), RandomAgent(seed + 1)
    hero = np.arange(n_games) % 2
    while not GAME.finished(states).all():
        idx = np.flatnonzero(~GAME.finished(states))
        sub = states[idx]
        seats = GAME.current_player(sub)
        obs, masks = GAME.observe(sub, seats), GAME.legal_mask(sub)
        actions = rand.act_batch(obs, masks)
        mine = seats == hero[idx]
        if mine.any():
            actions[mine] = heuristic.act_batch(obs[mine], masks[mine])
        GAME.step(sub, actions, check=False)
        states[idx] = sub
    return float((GAME.returns(states)[np.arange(n_games), hero] > 0).mean())


def test_heuristic_beats_random_player():
    """Strength check with a loose bound: >= 60% of 100 two-player games against a random player
    (300 of 300 won when measured; seats alternate)."""
    assert _win_rate_vs_random(100, seed=21) >= 0.6


def test_ismcts_plays_full_games_with_the_determinizer():
    """``make_agent("mcts:50")`` searches Wild West Express through ``resample_hidden`` and plays legal moves
    to the end of the game (short games: ``max_rounds=2``, so that each rollout is short too)."""
    agent = make_agent("mcts:50", "wild_west_express", seed=0)
    rand = RandomAgent(1)
    for seed in (3, 4):
        states = GAME.init_batch(1, seed=seed, num_players=2, max_rounds=2)
        searched = 0
        while not states["done"][0]:
            seat = int(states["current"][0])
            obs, mask = GAME.observe(states, seat), GAME.legal_mask(states)
            if seat == seed % 2:
                action = agent.act_batch(obs, mask, states, np.array([seat]))
                searched += int(mask.sum() > 1)
            else:
                action = rand.act_batch(obs, mask)
            GAME.step(states, action)  # checked: an illegal action raises
        assert searched > 20 and GAME.finished(states).all()
