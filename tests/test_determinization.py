"""Determinization for every registered game: ``Game.resample_hidden(states, seats, seeds)``.

A determinizer returns, for each game, a new full record consistent with
everything ``seats[b]`` has observed, with the hidden parts (hands, deck order,
secret values, held cards) redrawn and the chance generator reseeded. Search
agents (``agents.mcts``) plan on these records, never on the true ones, so every
registered game must provide one (a game whose only hidden information is
future chance may declare a reseed-only determinizer).

Checked here for every game, at random mid-game positions of every player
count and every observing seat:

* the seat's observation is byte-identical, and so are the seat to act, its
  legal actions when it is to act, the decision count and the end flags;
* the result is a valid state (``Game.validate`` and every invariant);
* the true states are untouched and the result shares no memory with them;
* chance is reseeded: no scripted outcome is left, one seed gives one record,
  and different seeds give different futures for the same actions;
* canonical form: redrawing from a determinization gives the same record as
  redrawing from the truth (same seat, same seed), so what comes out depends
  only on what the seat knows: the search cannot see the true hidden state;
* the ISMCTS agent plays every game through it, and plays the same move from
  the truth and from a determinization of it.

That every consistent hidden assignment can come out with the right
probability is a property of each game's rules: the chi-square tests live in
each game's own tests (``tests/colt_express/test_hidden_resampling.py``, ...).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wildwest_envs.agents.mcts import ISMCTSAgent
from tests._play import action_rngs, mid_game_states, play_to_end, without_rng
from tests.conftest import GAME_NAMES
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game

PER_COUNT = 12  # random positions per player count


def _has_determinizer(name: str) -> bool:
    """A game of imperfect information brings its own determinizer; one of perfect information needs none
    (``Game.resample_hidden`` reseeds copies)."""
    game = get_game(name)
    return game.resample_hidden_fn is not None or game.information == "perfect"


WITH_DETERMINIZER = [n for n in GAME_NAMES if _has_determinizer(n)]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_registered_game_has_a_determinizer(name):
    """Search agents need ``resample_hidden``; every registered game supports it."""
    assert _has_determinizer(name), (
        f"{name} has no resample_hidden_fn: give its Game a determinizer (or declare it of perfect information "
        f"if its only hidden information is future chance), so that ISMCTS and the tests below cover it")


@pytest.fixture(scope="module", params=WITH_DETERMINIZER)
def positions(request):
    """``(game, states, seats, seeds)``: random mid-game positions, each seen by every seat in turn."""
    game = get_game(request.param)
    states = mid_game_states(game, PER_COUNT, 314)
    counts = states["num_players"].astype(np.int64)
    states = np.repeat(states, counts)
    seats = np.concatenate([np.arange(n) for n in counts])
    return game, states, seats, game_seeds(2718, len(states))


def test_observation_of_the_seat_is_unchanged(positions):
    """The seat cannot tell the new record from the true one: same observation, turn, mask and counters."""
    game, states, seats, seeds = positions
    new = game.resample_hidden(states, seats, seeds)
    assert new.dtype == game.state_dtype and new.shape == states.shape
    np.testing.assert_array_equal(game.observe(new, seats), game.observe(states, seats))
    for field in ("current", "num_players", "n_decisions", "max_decisions", "done"):
        np.testing.assert_array_equal(new[field], states[field], err_msg=field)
    np.testing.assert_array_equal(game.terminal(new), game.terminal(states))
    np.testing.assert_array_equal(game.truncated(new), game.truncated(states))
    on_turn = game.current_player(states) == seats
    np.testing.assert_array_equal(game.legal_mask(new)[on_turn], game.legal_mask(states)[on_turn])


def test_result_is_a_valid_state(positions):
    """Every determinization passes ``Game.validate`` and every invariant of the game."""
    game, states, seats, seeds = positions
    new = game.resample_hidden(states, seats, seeds)
    assert not game.invariant_violations(new)
    game.validate(new)


def test_true_state_is_untouched(positions):
    """The true records are not modified, and the new ones are a separate array."""
    game, states, seats, seeds = positions
    before = states.tobytes()
    new = game.resample_hidden(states, seats, seeds)
    assert states.tobytes() == before
    assert not np.shares_memory(new, states)
    play_to_end(game, new, action_rngs(range(len(new))), max_steps=20)
    assert states.tobytes() == before


def test_chance_is_reseeded(positions):
    """No scripted outcome survives; one seed gives one record; other seeds give other futures."""
    game, states, seats, seeds = positions
    scripted = states.copy()
    scripted["n_forced"], scripted["forced_pos"] = 1, 0  # a pending scripted outcome must not survive
    a = game.resample_hidden(scripted, seats, seeds)
    assert (a["forced_pos"] >= a["n_forced"]).all()
    assert a.tobytes() == game.resample_hidden(scripted, seats, seeds).tobytes()
    b = game.resample_hidden(scripted, seats, seeds ^ np.uint64(0xFFFF))
    assert (a["rng"] != b["rng"]).mean() > 0.99
    end_a, end_b = a.copy(), b.copy()
    rngs = action_rngs(range(len(a)))
    play_to_end(game, end_a, rngs.copy(), stop=a["n_decisions"] + 200)
    play_to_end(game, end_b, rngs.copy(), stop=b["n_decisions"] + 200)
    differ = np.mean([without_rng(x) != without_rng(y) for x, y in zip(end_a, end_b)])
    assert differ > 0.5, f"only {differ:.0%} of futures differ between two determinization seeds"


def test_canonical_form_the_result_depends_only_on_what_the_seat_knows(positions):
    """Redrawing from a determinization gives byte-identically what redrawing from the truth gives."""
    game, states, seats, seeds = positions
    other_world = game.resample_hidden(states, seats, seeds ^ np.uint64(0x5555))
    from_truth = game.resample_hidden(states, seats, seeds)
    from_other = game.resample_hidden(other_world, seats, seeds)
    mismatched = [b for b in range(len(states)) if from_truth[b].tobytes() != from_other[b].tobytes()]
    assert not mismatched, f"{len(mismatched)} of {len(states)} redraws depend on the true hidden state"


# ---- the ISMCTS agent on every game ------------------------------------------------------------
def _decision_positions(game, n: int = 2) -> np.ndarray:
    """A few mid-game positions with at least two legal actions."""
    states = mid_game_states(game, 4, 77)
    masks = game.legal_mask(states)
    return states[masks.sum(axis=1) >= 2][:n]


@pytest.mark.parametrize("name", WITH_DETERMINIZER)
def test_mcts_plays_every_game_through_its_determinizer(name):
    """ISMCTS returns a legal action on every game, and only ever simulates determinized records."""
    game = get_game(name)
    calls = []

    def spy(states, seats, seeds):
        calls.append(len(states))
        return game.resample_hidden(states, seats, seeds)

    agent = ISMCTSAgent(dataclasses.replace(game, resample_hidden_fn=spy), simulations=8, wave=4, seed=1)
    states = _decision_positions(game)
    assert len(states)
    seats = game.current_player(states)
    masks = game.legal_mask(states)
    actions = agent.act_batch(game.observe(states, seats), masks, states, seats)
    assert masks[np.arange(len(states)), actions].all()
    assert sum(calls) == 8 * len(states)


@pytest.mark.parametrize("name", WITH_DETERMINIZER)
def test_mcts_plays_the_same_move_from_the_truth_and_from_a_determinization(name):
    """The search cannot tell the true record from another one consistent with the seat's information."""
    game = get_game(name)
    states = _decision_positions(game)
    seats = game.current_player(states)
    masks = game.legal_mask(states)
    other = game.resample_hidden(states, seats, game_seeds(5, len(states)))
    obs = game.observe(states, seats)
    a = ISMCTSAgent(game, simulations=8, wave=4, seed=9).act_batch(obs, masks, states, seats)
    b = ISMCTSAgent(game, simulations=8, wave=4, seed=9).act_batch(obs, masks, other, seats)
    np.testing.assert_array_equal(a, b)
