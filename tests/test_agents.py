"""Baseline agents: random, the Colt Express heuristic, ISMCTS and flat Monte Carlo (agents/, STYLE.md §14)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.heuristic_colt_express import ColtExpressHeuristic
from wildwest_envs.agents.flat_mc import FlatMonteCarloAgent
from wildwest_envs.agents.mcts import ISMCTSAgent, most_visited, play_randomly
from tests.colt_express._random_states import random_states
from wildwest_envs.colt_express.data import DEC_PLAN
from wildwest_envs.colt_express.game import GAME
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game

CONFIGS = [(2, True), (3, False), (3, True), (5, False)]


def _live_states(num_players: int, expert: bool, n: int, seed: int = 0) -> np.ndarray:
    states = np.array(random_states(num_players, expert))
    states = states[~states["done"]]
    return states[np.random.default_rng(seed).permutation(len(states))[:n]]


def _obs_masks(states: np.ndarray):
    seats = GAME.current_player(states)
    return GAME.observe(states, seats), GAME.legal_mask(states), seats


@pytest.mark.parametrize("config", CONFIGS)
def test_random_and_heuristic_return_legal_actions(config):
    """Every action of the random and heuristic agents is legal, on many random positions."""
    states = _live_states(*config, n=400)
    obs, masks, _ = _obs_masks(states)
    for agent in (RandomAgent(1), ColtExpressHeuristic(1)):
        actions = agent.act_batch(obs, masks)
        assert actions.shape == (len(states),)
        assert (masks[np.arange(len(states)), actions] == 1).all(), agent.name


@pytest.mark.parametrize("config", CONFIGS)
def test_mcts_returns_legal_actions(config):
    """ISMCTS (a small budget) answers every position with a legal action."""
    states = _live_states(*config, n=25)
    obs, masks, seats = _obs_masks(states)
    actions = ISMCTSAgent(GAME, simulations=6, wave=3, seed=2).act_batch(obs, masks, states, seats)
    assert (masks[np.arange(len(states)), actions] == 1).all()


def _indistinguishable(states: np.ndarray, seats: np.ndarray, seed: int) -> np.ndarray:
    """Records that the seats cannot tell apart from ``states`` (hidden parts redrawn)."""
    return GAME.resample_hidden(states, seats, game_seeds(seed, len(states)))


def test_heuristic_reads_only_the_observation():
    """Two records with the same observation for the seat give the same action with the same seed."""
    states = _live_states(3, True, n=300)
    seats = GAME.current_player(states)
    other = _indistinguishable(states, seats, 4)
    obs_a, masks, _ = _obs_masks(states)
    obs_b, masks_b, _ = _obs_masks(other)
    np.testing.assert_array_equal(obs_a, obs_b)
    np.testing.assert_array_equal(masks, masks_b)
    a = ColtExpressHeuristic(7).act_batch(obs_a, masks, states, seats)
    b = ColtExpressHeuristic(7).act_batch(obs_b, masks_b, other, seats)
    np.testing.assert_array_equal(a, b)


def test_mcts_determinizations_do_not_depend_on_the_hidden_state():
    """Spec: determinizations of two records the seat cannot tell apart have the same distribution.

    They are even byte-identical for the same agent seed, which implies it.
    """
    states = _live_states(3, True, n=20)
    seats = GAME.current_player(states)
    other = _indistinguishable(states, seats, 9)
    for k in range(len(states)):
        assert states[k].tobytes() != other[k].tobytes()
        da = ISMCTSAgent(GAME, seed=3).determinize(states[k], int(seats[k]), 30)
        db = ISMCTSAgent(GAME, seed=3).determinize(other[k], int(seats[k]), 30)
        assert da.tobytes() == db.tobytes()
        assert len({d.tobytes() for d in da}) > 1  # they do vary


def test_mcts_is_deterministic_and_blind_to_hidden_state():
    """A fixed seed gives the same moves; a record differing only in hidden parts gives the same moves too."""
    states = _live_states(3, False, n=12, seed=5)
    states = states[states["decision"] == DEC_PLAN]
    seats = GAME.current_player(states)
    obs, masks, _ = _obs_masks(states)
    other = _indistinguishable(states, seats, 11)
    a = ISMCTSAgent(GAME, simulations=20, wave=5, seed=8).act_batch(obs, masks, states, seats)
    b = ISMCTSAgent(GAME, simulations=20, wave=5, seed=8).act_batch(obs, masks, states, seats)
    c = ISMCTSAgent(GAME, simulations=20, wave=5, seed=8).act_batch(obs, masks, other, seats)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


def test_mcts_needs_a_determinizer_and_states():
    """A game of imperfect information without ``resample_hidden_fn`` cannot be bound (so no search runs on it);
    ``act_batch`` without states is refused."""
    with pytest.raises(ValueError, match="resample_hidden_fn"):
        ISMCTSAgent(dataclasses.replace(GAME, resample_hidden_fn=None))
    states = _live_states(3, False, n=2)
    obs, masks, _ = _obs_masks(states)
    with pytest.raises(ValueError, match="states"):
        ISMCTSAgent(GAME).act_batch(obs, masks)


def test_most_visited_breaks_ties_by_mean_return_then_prior_then_index():
    """The most visits win; equal visits go to the best mean return, then the highest prior, then the first."""
    legal = np.array([1, 2, 4, 6])
    visits = np.array([0, 3, 3, 0, 1, 0, 3.0])
    total = np.array([0, 0.3, 1.2, 0, 5.0, 0, 1.2])
    assert most_visited(legal, visits, total) == 2  # 2 and 6 tie on visits and mean: the first
    prior = np.array([0, 0.1, 0.2, 0, 0.6, 0, 0.3])
    assert most_visited(legal, visits, total, prior) == 6  # ... or the higher prior
    assert most_visited(np.array([1, 4]), visits, total) == 1  # visits before mean (4: one visit, mean 5)
    assert most_visited(np.array([3, 5]), visits, total) == 3  # none visited: the first


def test_mcts_with_fewer_simulations_than_moves_plays_the_best_tried_move():
    """With fewer simulations than legal actions each tried action has one visit; the move is the one whose
    rollout returned the most, not the lowest-numbered tried one (``agents.mcts`` module docstring)."""
    roots = []

    class Recording(ISMCTSAgent):
        def best_action(self, root, legal):
            roots.append((root, legal))
            return super().best_action(root, legal)

    states = _live_states(3, False, n=200)
    obs, masks, seats = _obs_masks(states)
    rows = np.flatnonzero(masks.sum(axis=1) >= 4)[:12]
    actions = Recording(GAME, simulations=3, wave=3, seed=5).act_batch(obs[rows], masks[rows], states[rows],
                                                                      seats[rows])
    assert len(roots) == len(rows) == 12
    first_tried_differs = 0
    for (root, legal), action in zip(roots, actions):
        tried = legal[root.visits[legal] > 0]
        means = root.total[tried] / root.visits[tried]
        assert root.visits[action] == root.visits[legal].max() == 1
        assert root.total[action] == means.max()
        first_tried_differs += int(action != tried[0])
    assert first_tried_differs > 0  # the positions tell the two rules apart


def _win_rate_vs_random(agent, n_games: int, seed: int, num_players: int = 3) -> float:
    """Share of games won by ``agent`` in one seat (rotating) against random players."""
    states = GAME.init_batch(n_games, seed=seed, num_players=num_players)
    seat_of_agent = np.arange(n_games) % num_players
    opponents = RandomAgent(seed + 1)
    actions = np.zeros(n_games, dtype=np.int64)
    while not states["done"].all():
        current = GAME.current_player(states)
        obs, masks = GAME.observe(states), GAME.legal_mask(states)
        mine = ~states["done"] & (current == seat_of_agent)
        theirs = ~states["done"] & ~mine
        actions[:] = 0
        if mine.any():  # a search agent needs the records and seats too (the heuristic ignores them)
            actions[mine] = agent.act_batch(obs[mine], masks[mine], states[mine], current[mine])
        if theirs.any():
            actions[theirs] = opponents.act_batch(obs[theirs], masks[theirs])
        GAME.step(states, actions, check=False)
    returns = GAME.returns(states, "win")
    return float((returns[np.arange(n_games), seat_of_agent] > 0).mean())


def test_heuristic_beats_random_players():
    """Strength check with a loose bound: the heuristic wins >= 45% of 3-player games against two random players
    (about 90% measured; a random seat wins about 33%)."""
    assert _win_rate_vs_random(ColtExpressHeuristic(3), n_games=300, seed=21) >= 0.45


@pytest.mark.parametrize("config", CONFIGS)
def test_flat_mc_returns_legal_actions(config):
    """Flat Monte Carlo (a few playouts) answers every position with a legal action; forced rows are answered as
    they are."""
    states = _live_states(*config, n=40)
    obs, masks, seats = _obs_masks(states)
    actions = FlatMonteCarloAgent(GAME, playouts=3, seed=2).act_batch(obs, masks, states, seats)
    assert (masks[np.arange(len(states)), actions] == 1).all()
    forced = masks.sum(axis=1) == 1
    np.testing.assert_array_equal(actions[forced], masks[forced].argmax(axis=1))


def test_flat_mc_values_do_not_depend_on_the_chunking():
    """The playouts of one decision share their determinizations and generators (common random numbers), so the
    values are the same however many records are played out at once."""
    states = _live_states(3, True, n=12, seed=3)
    _, masks, seats = _obs_masks(states)
    whole = FlatMonteCarloAgent(GAME, playouts=8, seed=5).action_values(states, seats, masks)
    chunked = FlatMonteCarloAgent(GAME, playouts=8, seed=5, max_rows=5).action_values(states, seats, masks)
    np.testing.assert_array_equal(whole, chunked)
    assert np.isnan(whole[masks == 0]).all() and not np.isnan(whole[masks == 1]).any()
    assert ((whole[masks == 1] >= -1) & (whole[masks == 1] <= 1)).all()  # mean rank returns


def test_flat_mc_is_deterministic_and_blind_to_hidden_state():
    """A fixed seed gives the same values; a record differing only in hidden parts gives the same values too."""
    states = _live_states(3, False, n=12, seed=5)
    seats = GAME.current_player(states)
    _, masks, _ = _obs_masks(states)
    other = _indistinguishable(states, seats, 11)
    a = FlatMonteCarloAgent(GAME, playouts=6, seed=8).action_values(states, seats, masks)
    b = FlatMonteCarloAgent(GAME, playouts=6, seed=8).action_values(other, seats, masks)
    np.testing.assert_array_equal(a, b)


def test_flat_mc_values_are_the_mean_of_its_playouts():
    """An action's value is the seat's mean rank return over the playouts: one playout per action is one
    determinization played out with that action first, which the test replays by hand."""
    states = _live_states(3, True, n=4, seed=7)
    _, masks, seats = _obs_masks(states)
    agent = FlatMonteCarloAgent(GAME, playouts=1, seed=9)
    rng = np.random.default_rng(9)  # the agent's draws, in its order: determinizations, then generators
    determinizations = rng.integers(0, 2**64 - 1, size=(4, 1), dtype=np.uint64, endpoint=True)
    generators = rng.integers(0, 2**64 - 1, size=(4, 1), dtype=np.uint64, endpoint=True)
    values = agent.action_values(states, seats, masks)
    for r in range(4):
        for a in np.flatnonzero(masks[r]):
            sim = GAME.resample_hidden(states[r:r + 1], seats[r:r + 1], determinizations[r])
            GAME.step(sim, np.array([a]))
            returns = play_randomly(GAME, sim, generators[r].copy(), "rank")
            assert values[r, a] == returns[0, seats[r]]


def test_flat_mc_refuses_bad_settings_and_missing_states():
    with pytest.raises(ValueError, match="positive"):
        FlatMonteCarloAgent(GAME, playouts=0)
    with pytest.raises(ValueError, match="reward_mode"):
        FlatMonteCarloAgent(GAME, reward_mode="money")
    states = _live_states(3, False, n=2)
    obs, masks, _ = _obs_masks(states)
    with pytest.raises(ValueError, match="states"):
        FlatMonteCarloAgent(GAME).act_batch(obs, masks)


def test_flat_mc_beats_random_players():
    """Strength check with a loose bound: ``mc:4`` wins >= 60% of 3-player games against two random players
    (a random seat wins about 33%)."""
    assert _win_rate_vs_random(FlatMonteCarloAgent(GAME, playouts=4, seed=3), n_games=60, seed=31) >= 0.6


@pytest.mark.parametrize("game_name", ["colt_express", "wild_west_express", "way_out_west", "rail"])
def test_flat_mc_plays_legal_actions_in_every_game(game_name):
    """One playout per action (Rail's and Wild West Express's wide masks too): legal moves, a few decisions into
    games of random play."""
    game = get_game(game_name)
    states = game.init(game_seeds(4, 3), num_players=3)
    random_player = RandomAgent(1)
    for _ in range(12):
        game.step(states, random_player.act_batch(game.observe(states), game.legal_mask(states)))
    seats = game.current_player(states)
    masks = game.legal_mask(states)
    actions = FlatMonteCarloAgent(game, playouts=1, seed=2).act_batch(game.observe(states), masks, states, seats)
    assert (masks[np.arange(3), actions] == 1).all()
