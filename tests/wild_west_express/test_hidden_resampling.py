"""``hidden.resample_hidden``: determinizations consistent with one seat's information (spec §13, §16).

Chi-square tests compute the statistic by hand (no scipy) and compare it with
the critical value at significance 0.001 for their degrees of freedom; the
seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from tests.wild_west_express._helpers import seat0_turn
from tests.wild_west_express._view_states import (PLAYER_COUNTS, change_generator, permute_deck, random_states,
                                                  swap_drawn_card, swap_held_card)
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.wild_west_express import hidden
from wildwest_envs.wild_west_express.data import CARD_CLASS, CLASS_PERSONAL, DEC_TELEGRAM_DRAWN, MAX_TRAINS, NO_CARD
from wildwest_envs.wild_west_express.game import GAME
from wildwest_envs.wild_west_express.positions import Train
from wildwest_envs.wild_west_express.state import NOBODY

CHI2_CRITICAL_0001 = {3: 16.266, 17: 40.790}  # upper 0.1% points


def _sample(num_players: int, n: int = 300, seed: int = 0):
    """Up to ``n`` random records with a random observer seat and a seed each."""
    states = np.array(random_states(num_players))
    rng = np.random.default_rng(seed)
    states = states[rng.permutation(len(states))[:n]]
    seats = rng.integers(0, num_players, len(states))
    return states, seats, game_seeds(seed, len(states))


def _others_hold(states: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Records where a seat other than the observer holds a personal card."""
    holders = states["card_holder"]
    return ((holders != NOBODY) & (holders != seats[:, None])).any(axis=1)


def _bound_counts(states: np.ndarray) -> np.ndarray:
    """``(B, 5, 6)``: held cards per seat and bound train (public, §16.1)."""
    out = np.zeros((len(states), 5, MAX_TRAINS), dtype=int)
    for b in range(len(states)):
        for k in np.flatnonzero(states["card_holder"][b] != NOBODY):
            out[b, states["card_holder"][b, k], states["card_bound"][b, k]] += 1
    return out


def _chi2(observed: np.ndarray, expected_p: np.ndarray) -> float:
    expected = expected_p * observed.sum()
    return float(((observed - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_observation_of_the_seat_is_unchanged(num_players):
    """§16: the new record is indistinguishable for the seat: byte-identical observation."""
    states, seats, seeds = _sample(num_players)
    new = hidden.resample_hidden(states, seats, seeds)
    np.testing.assert_array_equal(GAME.observe(new, seats), GAME.observe(states, seats))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_new_records_are_valid_and_the_input_is_untouched(num_players):
    """Every invariant holds and ``validate`` accepts the new records; the originals are not modified."""
    states, seats, seeds = _sample(num_players)
    before = states.copy()
    new = hidden.resample_hidden(states, seats, seeds)
    assert GAME.invariant_violations(new) == []
    GAME.validate(new)
    assert states.tobytes() == before.tobytes()


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_hidden_parts_vary_and_public_facts_stay(num_players):
    """Others' held cards, the never-drawn order and the generator change; everything public stays (§16.1)."""
    states, seats, seeds = _sample(num_players)
    a = hidden.resample_hidden(states, seats, seeds)
    b = hidden.resample_hidden(states, seats, seeds + np.uint64(1))
    assert (a["rng"] != b["rng"]).all() and (a["n_forced"] == 0).all()
    deep = states["never_drawn"] >= 10
    assert (a["deck"] != b["deck"]).any(axis=1)[deep].mean() > 0.9
    held = _others_hold(states, seats)
    assert held.sum() >= 10 and (a["card_holder"] != b["card_holder"]).any(axis=1)[held].mean() > 0.5
    np.testing.assert_array_equal(_bound_counts(a), _bound_counts(states))
    rows = np.arange(len(states))
    own = states["card_holder"] == seats[:, None]
    np.testing.assert_array_equal(a["card_holder"] == seats[:, None], own)  # own cards: the same ids
    for name in ("deck_size", "never_drawn", "comp_card", "card_active", "move_card", "queue_card", "cash",
                 "train_pos", "train_cargo", "desp_pos", "dynamite", "decision", "current"):
        np.testing.assert_array_equal(a[name], states[name], err_msg=name)
    for r in rows:  # the deck below the never-drawn cards was all revealed: its order is public (§16.3)
        n = int(states["never_drawn"][r])
        np.testing.assert_array_equal(a["deck"][r, n:], states["deck"][r, n:])
    own_drawn = states["active"] == seats
    np.testing.assert_array_equal(a["drawn_card"][own_drawn], states["drawn_card"][own_drawn])


def test_same_seed_same_record():
    """Deterministic in the seed, also through the batched (parallel) build."""
    states, seats, seeds = _sample(3, n=600)
    a = hidden.resample_hidden(states, seats, seeds)
    one = np.concatenate([hidden.resample_hidden(states[i:i + 1], seats[i], seeds[i]) for i in range(50)])
    assert a[:50].tobytes() == one.tobytes()
    assert a.tobytes() == hidden.resample_hidden(states, seats, seeds).tobytes()


def test_another_seats_drawn_card_is_redrawn_among_personal_cards():
    """§16.2: at another seat's TELEGRAM_DRAWN the drawn card is hidden; it is redrawn, and always personal."""
    states, seats, seeds = _sample(4, n=2000)
    drawn = (states["decision"] == DEC_TELEGRAM_DRAWN) & (states["active"] != seats)
    assert drawn.sum() >= 5
    new = hidden.resample_hidden(states[drawn], seats[drawn], seeds[drawn])
    assert (new["drawn_card"] != NO_CARD).all() and (CARD_CLASS[new["drawn_card"]] == CLASS_PERSONAL).all()
    many = hidden.resample_hidden(np.repeat(states[drawn][:1], 200), seats[drawn][0], game_seeds(3, 200))
    assert len(np.unique(many["drawn_card"])) > 1


def _small_position() -> tuple[np.ndarray, list[int]]:
    """Three never-drawn cards (two personal, one public) and one card held by seat 1: the unknown pool of seat 0."""
    states = seat0_turn(trains={1: [Train(31, came_from=0)]}, owners={0: 1, 1: 1}, desperados={1: [0]},
                        cards={1: {20: 0}},  # Hideout, held by seat 1 bound to its train slot 0
                        deck_top=[0, 12, 22])
    pool = [0, 12, 22, 20]  # Full Steam Ahead, Armed Guards (personal), Blizzard (public); Hideout (held)
    states[0]["never_drawn"] = 3  # the rest of the deck counts as revealed: only these three are unknown
    GAME.validate(states)
    return states, pool


def test_every_consistent_assignment_comes_out_uniformly():
    """§16.3: with pool {A, B personal; C public; D held}, each of the 3 x 3! = 18 consistent assignments is equally
    likely (chi-square, 17 df): the held slot gets a personal card, the rest is the never-drawn deck in any order."""
    states, pool = _small_position()
    n_draws = 5400
    new = hidden.resample_hidden(np.repeat(states, n_draws), 0, game_seeds(21, n_draws))
    personal = [k for k in pool if CARD_CLASS[k] == CLASS_PERSONAL]
    outcomes = [(h, top) for h in personal for top in permutations([k for k in pool if k != h])]
    assert len(outcomes) == 18
    index = {o: i for i, o in enumerate(outcomes)}
    counts = np.zeros(len(outcomes))
    for r in new:
        held = [k for k in pool if r["card_holder"][k] == 1]
        assert len(held) == 1 and r["card_bound"][held[0]] == 0
        counts[index[(held[0], tuple(int(k) for k in r["deck"][:3]))]] += 1
    assert (counts > 0).all()
    assert _chi2(counts, np.full(len(outcomes), 1 / len(outcomes))) < CHI2_CRITICAL_0001[17]


def test_a_held_card_is_never_given_a_public_card():
    """§13.3: only personal cards are kept, so the public card of the pool never becomes a held card."""
    states, _ = _small_position()
    new = hidden.resample_hidden(np.repeat(states, 500), 0, game_seeds(22, 500))
    assert (new["card_holder"][:, 22] == NOBODY).all()
    held = new["card_holder"][:, [0, 12, 20]] == 1
    observed = held.sum(axis=0).astype(float)
    assert (held.sum(axis=1) == 1).all() and _chi2(observed, np.full(3, 1 / 3)) < CHI2_CRITICAL_0001[3]


def _hidden_variant(record: np.void, seat: int, rng: np.random.Generator) -> bool:
    """Change ``record`` only where ``seat`` cannot see (§16.3); True if something changed."""
    changed = False
    for q in range(int(record["num_players"])):
        if q != seat:
            changed |= swap_held_card(record, q, rng)
    if record["active"] != seat:
        changed |= swap_drawn_card(record, rng)
    changed |= permute_deck(record, int(record["never_drawn"]), rng)
    change_generator(record, rng)
    return changed


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_indistinguishable_states_give_the_same_resamplings(num_players):
    """Two records the seat cannot tell apart give byte-identical redraws for each seed (so one distribution).

    Control: a change the seat CAN see (its own held card swapped) changes the redraws.
    """
    states, seats, _ = _sample(num_players, n=80)
    rng = np.random.default_rng(num_players)
    tested = controls = 0
    for k in range(len(states)):
        seat = int(seats[k])
        a = states[k:k + 1].copy()
        b = a.copy()
        if not _hidden_variant(b[0], seat, rng):
            continue
        assert a.tobytes() != b.tobytes()
        np.testing.assert_array_equal(GAME.observe(a, seat), GAME.observe(b, seat))
        many = game_seeds(k, 10)
        ra = hidden.resample_hidden(np.repeat(a, 10), seat, many)
        rb = hidden.resample_hidden(np.repeat(b, 10), seat, many)
        assert ra.tobytes() == rb.tobytes()
        tested += 1
        c = a.copy()
        if swap_held_card(c[0], seat, rng):  # visible to the seat: its own card ids
            rc = hidden.resample_hidden(np.repeat(c, 10), seat, many)
            assert rc.tobytes() != ra.tobytes()
            controls += 1
    assert tested >= 20 and controls >= 1


def test_bad_observer_seat_is_rejected():
    """A seat outside 0..N-1 is a clear ValueError."""
    states, _ = _small_position()
    with pytest.raises(ValueError, match="out of range"):
        GAME.resample_hidden(states, 3, 1)
