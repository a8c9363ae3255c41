"""The Way Out West heuristic (agents/heuristic_way_out_west.py, STYLE.md §14) and search on the game."""

from __future__ import annotations

import numpy as np
import pytest

from tests._agents import positions_against_random
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.heuristic_way_out_west import WayOutWestHeuristic
from wildwest_envs.agents.registry import HEURISTICS, make_agent
from wildwest_envs.way_out_west.observation import OBS
from wildwest_envs.way_out_west_v0 import GAME


def _snapshots(num_players: int, games: int = 16, every: int = 3, seed: int = 0) -> np.ndarray:
    """Live positions of games where seat 0 is the heuristic and the others play at random, to the end."""
    return positions_against_random(GAME, WayOutWestHeuristic(seed), num_players, games, every, seed)


def test_heuristic_is_registered():
    """``make_agent("heuristic", "way_out_west")`` builds it."""
    assert HEURISTICS["way_out_west_v0"] == ("wildwest_envs.agents.heuristic_way_out_west", "WayOutWestHeuristic")
    assert isinstance(make_agent("heuristic", "way_out_west", seed=2), WayOutWestHeuristic)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_heuristic_returns_legal_actions_at_every_decision_type(num_players):
    """Every action of the heuristic is legal, on positions covering most decision types (§13.2)."""
    states = _snapshots(num_players, seed=num_players)
    seats = GAME.current_player(states)
    obs, masks = GAME.observe(states, seats), GAME.legal_mask(states)
    actions = WayOutWestHeuristic(1).act_batch(obs, masks)
    assert (masks[np.arange(len(states)), actions] == 1).all()
    decisions = np.argmax(OBS.get(obs, "decision"), axis=1)
    assert len(np.unique(decisions)) >= 15


def test_heuristic_is_seeded_and_reads_only_the_observation():
    """Same seed, same choices; the game record is never needed (``states`` is not passed)."""
    states = _snapshots(3, games=4, seed=7)
    seats = GAME.current_player(states)
    obs, masks = GAME.observe(states, seats), GAME.legal_mask(states)
    a = WayOutWestHeuristic(3).act_batch(obs, masks)
    b = WayOutWestHeuristic(3).act_batch(obs.copy(), masks.copy())
    assert np.array_equal(a, b)


def test_heuristic_drops_out_of_auctions_and_builds_when_it_pays():
    """The documented strategy: drop out at once; a jail in a town of size 2 beats passing."""
    from tests.way_out_west._helpers import setup_done
    from wildwest_envs.way_out_west.data import A_BOX, A_PASS, JAIL, STORE
    from wildwest_envs.way_out_west.positions import position

    states = setup_done(3)
    agent = WayOutWestHeuristic(0)
    obs, mask = GAME.observe(states, 0)[0], GAME.legal_mask(states)[0]
    assert agent.act(obs, mask) == A_PASS
    states = position(3, turn=0, cash=3, buildings={4: {STORE: 1, JAIL: -1}})
    obs, mask = GAME.observe(states, 0)[0], GAME.legal_mask(states)[0]
    assert agent.act(obs, mask) == A_BOX + 14  # build the jail


@pytest.mark.slow
def test_heuristic_beats_two_random_players():
    """Heuristic against two random agents, 3 players, 60 games over all seats: well above the 1/3 share."""
    from wildwest_envs.training.tournament import evaluate_against

    _, results = evaluate_against("way_out_west", 3, WayOutWestHeuristic(0), [RandomAgent(1), RandomAgent(2)],
                                  60, seed=11)
    wins = sum(share for r in results for seat, share in enumerate(r.win_shares) if r.seating[seat] == 0)
    assert wins / len(results) >= 0.6


def test_ismcts_runs_on_the_reseed_only_determinizer():
    """The information-set MCTS agent plays legal moves through ``resample_hidden`` (no hidden state)."""
    agent = make_agent("mcts:8", "way_out_west", seed=0)
    states = GAME.init_batch(2, seed=5, num_players=3)
    for _ in range(6):
        seats = GAME.current_player(states)
        obs, masks = GAME.observe(states, seats), GAME.legal_mask(states)
        actions = agent.act_batch(obs, masks, states=states, seats=seats)
        assert (masks[np.arange(2), actions] == 1).all()
        GAME.step(states, actions)
