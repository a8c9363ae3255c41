"""The Wild West Express observation: layout, egocentric seats, hidden information (spec §16).

The hidden-information tests build, from random-play records, pairs of records
that differ only in one thing a seat may not know (another player's held
personal cards with the same count and bound trains, the card another player
just drew, the order of never-drawn cards, the whole deck order, the generator
and the scripted-chance queue) and check that the seat's observations are
byte-identical (§16.3). The controls check that a change the seat may see
does change its observation.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests import _observation as observation_checks
from tests._observation import assert_fields, assert_rotating_seats_rotates_observations, variants
from tests.wild_west_express._view_states import (PLAYER_COUNTS, change_generator, permute_deck, position,
                                                  random_states, swap_drawn_card, swap_held_card)
from wildwest_envs.wild_west_express import rules
from wildwest_envs.wild_west_express.data import (DEC_TELEGRAM_DRAWN, IS_CITY, MAX_PLAYERS, N_SPACES, NO_SPACE,
                                                  SPACE_SPECIAL,
                                                  SPACE_TYPE, SPACE_ZONE, SPECIAL_STAR, SPECIAL_TELEGRAM,
                                                  SPACE_JUNCTION)
from wildwest_envs.wild_west_express.observation import (CARD_COUNT_SCALE, MONEY_SCALE, OBS, OBS_SIZE,
                                                         OTHER_TRAIN_BOUND_CARDS, OTHER_TRAIN_COLUMNS,
                                                         OWN_TRAIN_COLUMNS, SEAT_CARDS, SEAT_CASH, SEAT_COLUMNS,
                                                         SEAT_PRESENT, SEAT_VP, TRAIN_EXISTS, observe as observe_kernel)
from wildwest_envs.core.kernels import serial
from wildwest_envs.wild_west_express.state import NOBODY

EXPECTED_FIELDS = {  # name: shape; §16.4, with context and own_cards split as the module docstring says
    "decision_type": (17,), "move_train": (6,), "desperado": (3,), "steps_left": (1,), "first_step": (1,),
    "drawn_card": (52,), "card_left": (1,), "sheriff": (2,), "dice": (6,), "game": (6,), "seats": (5, 11),
    "city_owner": (26, 6), "space_static": (7, 314), "dynamite": (314,), "sheriffs": (2, 314),
    "desperados": (5, 314), "trains_small": (5, 314), "trains_large": (5, 314), "cargo_tokens": (5, 314),
    "own_trains": (6, 660), "other_trains": (4, 6, 36), "own_desperados": (3, 315), "own_cards": (52,),
    "own_card_trains": (6, 6), "competitions": (3, 53), "deck": (2,),
}
SEAT_MOVED_FIELDS = ("cash", "dynamite_bought", "hire_used", "n_desperados", "start_city", "train_exists",
                     "train_large", "train_pos", "train_from", "train_cargo", "train_wait", "train_debt",
                     "train_creditor", "train_moved", "train_armed", "desp_pos")  # first axis = seat

observe = serial(observe_kernel)  # the build Game runs (core.kernels.serial): no parallel build of the tests' own
observe_all = partial(observation_checks.observe_all, observe, OBS_SIZE)  # (states, seat): all rows written


# ---- layout ----------------------------------------------------------------------------------------------
def test_layout_fields_and_size():
    """§16.4, §17.7: the declared slices tile the vector in order; the total is 15,744."""
    assert_fields(OBS, EXPECTED_FIELDS)
    assert OBS_SIZE == OBS.size == sum(int(np.prod(s)) for s in EXPECTED_FIELDS.values()) == 15744
    assert (SEAT_COLUMNS, OWN_TRAIN_COLUMNS, OTHER_TRAIN_COLUMNS) == (11, 660, 36)


def test_docstring_field_table_matches_the_layout():
    """The field table of the module docstring lists the fields of ``OBS`` in order with their shapes."""
    import wildwest_envs.wild_west_express.observation as module

    table = module.__doc__.split("Fields (")[1].split("Cargo (")[0]
    rows = [line.split()[:2] for line in table.splitlines()[1:]
            if line.startswith("    ") and not line.startswith("     ") and not line.strip().startswith("--")]
    assert [name for name, _ in rows] == list(OBS.fields)
    for name, size in rows:
        assert tuple(int(x) for x in size.split("x")) == OBS.fields[name].shape, name


def test_space_static_planes_match_the_board():
    """§16.4 space_static: city, junction, telegram, star and zone one-hot planes of the board data."""
    planes = OBS.get(observe_all(position(3), 0), "space_static")[0]
    assert np.array_equal(planes[0], IS_CITY.astype(np.float32))
    assert np.array_equal(planes[1], (SPACE_TYPE == SPACE_JUNCTION).astype(np.float32))
    assert np.array_equal(planes[2], (SPACE_SPECIAL == SPECIAL_TELEGRAM).astype(np.float32))
    assert np.array_equal(planes[3], (SPACE_SPECIAL == SPECIAL_STAR).astype(np.float32))
    assert np.array_equal(np.argmax(planes[4:], axis=0), SPACE_ZONE) and (planes[4:].sum(axis=0) == 1).all()
    assert (planes[0].sum(), planes[2].sum(), planes[3].sum()) == (26, 30, 17)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observation_is_float32_finite_and_fully_overwritten(n):
    """Rows are float32, finite, non-negative and fully overwritten by ``observe``."""
    states = random_states(n)
    for seat in range(n):
        garbage = np.full((len(states), OBS_SIZE), 7.0, dtype=np.float32)
        observe(states, np.full(len(states), seat, dtype=np.int64), garbage)
        clean = observe_all(states, seat)
        assert np.array_equal(garbage, clean)
        assert np.isfinite(clean).all() and (clean >= 0).all()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_one_hot_groups_and_counts(n):
    """Decision one-hot until the end; one owner column per city; pieces counted once per seat offset."""
    states = random_states(n)
    for seat in range(n):
        obs = observe_all(states, seat)
        assert np.array_equal(OBS.get(obs, "decision_type").sum(axis=1), (~states["done"]).astype(np.float32))
        assert (OBS.get(obs, "city_owner").sum(axis=2) == 1).all()
        seats = OBS.get(obs, "seats")
        assert (seats[:, :n, SEAT_PRESENT] == 1).all() and (seats[:, n:] == 0).all()
        trains = OBS.get(obs, "trains_small").sum(axis=2) + OBS.get(obs, "trains_large").sum(axis=2)
        desperados = OBS.get(obs, "desperados").sum(axis=2)
        for other in range(n):
            offset = (other - seat) % n
            assert np.array_equal(trains[:, offset], states["train_exists"][:, other].sum(axis=1))
            assert np.array_equal(desperados[:, offset], (states["desp_pos"][:, other] != NO_SPACE).sum(axis=1))
        own = OBS.get(obs, "own_trains")
        assert np.array_equal(own[:, :, TRAIN_EXISTS], states["train_exists"][:, seat].astype(np.float32))
        assert np.array_equal(own[:, :, 6:6 + N_SPACES].sum(axis=2), own[:, :, TRAIN_EXISTS])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_seat_rows_and_own_cards_match_the_record(n):
    """§16.1: cash, VP and held card counts of every seat; §16.2: the observer's own card ids."""
    states = random_states(n)
    vp = np.zeros((len(states), MAX_PLAYERS), np.int32)
    rules.scores(states, vp)
    for seat in range(n):
        obs = observe_all(states, seat)
        seats = OBS.get(obs, "seats")
        for other in range(n):
            row = seats[:, (other - seat) % n]
            assert np.allclose(row[:, SEAT_CASH] * MONEY_SCALE, states["cash"][:, other], rtol=1e-6)
            assert np.allclose(row[:, SEAT_VP] * states["victory_target"], vp[:, other], rtol=1e-6)
            held = (states["card_holder"] == other).sum(axis=1)
            assert np.allclose(row[:, SEAT_CARDS] * CARD_COUNT_SCALE, held)
        assert np.array_equal(OBS.get(obs, "own_cards"), (states["card_holder"] == seat).astype(np.float32))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_other_trains_show_bound_card_counts(n):
    """§16.1, §16.4: each other train shows how many held cards are bound to it, never which."""
    states = random_states(n)
    seat = 0
    other_trains = OBS.get(observe_all(states, seat), "other_trains")
    for other in range(1, n):
        for t in range(6):
            count = ((states["card_holder"] == other) & (states["card_bound"] == t)).sum(axis=1)
            seen = other_trains[:, other - 1, t, OTHER_TRAIN_BOUND_CARDS] * CARD_COUNT_SCALE
            assert np.allclose(seen, count)
    assert (other_trains[:, n - 1:] == 0).all()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_drawn_card_is_shown_only_to_the_drawer(n):
    """§16.2: at TELEGRAM_DRAWN the drawer sees the card id; nobody else does."""
    states = random_states(n)
    drawn = states["decision"] == DEC_TELEGRAM_DRAWN
    assert drawn.any()
    for seat in range(n):
        field = OBS.get(observe_all(states, seat), "drawn_card")
        mine = drawn & (states["current"] == seat)
        assert (field[~mine] == 0).all()
        assert np.array_equal(np.argmax(field[mine], axis=1), states["drawn_card"][mine])
        assert (field[mine].sum(axis=1) == 1).all()


def test_dice_are_zero_before_the_roll():
    """§6.2, §16.4: the dice read zero until this turn's roll."""
    states = position(4)
    assert (OBS.get(observe_all(states, 0), "dice") == 0).all()
    states[0]["dice"] = [6, 4, 1]
    dice = OBS.get(observe_all(states, 0), "dice")[0]
    assert np.allclose(dice, [1.0, 4 / 6, 1 / 6, 10 / 18, 11 / 18, 6 / 18])


def test_hand_position_planes():
    """The hand-placed pieces appear in the planes at their spaces, by seat offset (§16.4)."""
    states = position(4)
    obs = observe_all(states, 3)  # seat 1 is offset 2, seat 0 offset 1 seen from seat 3
    assert OBS.get(obs, "trains_large")[0, 2, 145] == 1 and OBS.get(obs, "cargo_tokens")[0, 2, 145] == 2
    assert OBS.get(obs, "desperados")[0, 1, 145] == 1
    assert OBS.get(obs, "dynamite")[0, 37] == 1 and OBS.get(obs, "dynamite")[0].sum() == 1
    assert OBS.get(obs, "sheriffs")[0, 0, 12] == 1 and OBS.get(obs, "sheriffs")[0, 1].sum() == 0
    own = OBS.get(observe_all(states, 1), "own_card_trains")[0]
    assert own[3, 0] == 1 and own.sum() == 1


# ---- egocentric seats ---------------------------------------------------------------------------------------
def rotate_seats(record: np.void, k: int) -> None:
    """Relabel seat s as (s + k) mod N everywhere in the record."""
    n = int(record["num_players"])
    old = record.copy()
    for name in SEAT_MOVED_FIELDS:
        for s in range(n):
            record[name][(s + k) % n] = old[name][s]
    for name in ("current", "active", "start_player"):
        if int(old[name]) != NOBODY:
            record[name] = (int(old[name]) + k) % n
    for name in ("city_owner", "card_holder"):
        values = old[name].astype(np.int64)
        record[name] = np.where(values >= 0, (values + k) % n, values)
    creditors = record["train_creditor"].astype(np.int64)
    record["train_creditor"] = np.where(creditors >= 0, (creditors + k) % n, creditors)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_rotating_seats_rotates_the_observation(n):
    """§16.4: relabelling every seat s as s + k gives seat p + k exactly seat p's old observation."""
    assert_rotating_seats_rotates_observations(observe_all, random_states(n), n, rotate_seats)


# ---- hidden information (§16.3) --------------------------------------------------------------------------------
check_pair = partial(observation_checks.check_pair, observe_all)  # (states, changed, applied, hidden_from, ...)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_other_players_held_cards_are_hidden(n):
    """§16.3: which personal cards another player holds (same number, same bound trains) is invisible."""
    states = random_states(n)
    for owner in range(n):
        changed, applied = variants(states, lambda r, g: swap_held_card(r, owner, g), seed=owner)
        check_pair(states, changed, applied, [p for p in range(n) if p != owner], visible_to=[owner])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_drawn_card_is_hidden_from_the_others(n):
    """§16.2: the card just drawn at TELEGRAM_DRAWN is the drawer's private knowledge."""
    states = random_states(n)
    changed, applied = variants(states, swap_drawn_card, seed=n)
    for drawer in range(n):
        rows = applied & (states["current"] == drawer)
        if rows.any():
            check_pair(states[rows], changed[rows], applied[rows], [p for p in range(n) if p != drawer],
                       visible_to=[drawer])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_deck_order_and_generator_are_hidden_from_everybody(n):
    """§16.3: the order of never-drawn cards (and here of the whole deck), the RNG and the forced queue."""
    states = random_states(n)
    everybody = list(range(n))
    changes = (lambda r, g: permute_deck(r, int(r["never_drawn"]), g),
               lambda r, g: permute_deck(r, int(r["deck_size"]), g),
               change_generator)
    for i, change in enumerate(changes):
        changed, applied = variants(states, change, seed=10 + i)
        check_pair(states, changed, applied, everybody)


def _move_cash(record: np.void, rng: np.random.Generator) -> bool:
    record["cash"][int(rng.integers(record["num_players"]))] += 1000
    return True


def _move_first_train(record: np.void, rng: np.random.Generator) -> bool:
    seat = int(rng.integers(record["num_players"]))
    if not record["train_exists"][seat, 0]:
        return False
    x = int(record["train_pos"][seat, 0])
    record["train_pos"][seat, 0] = (x + 1) % N_SPACES
    return True


def _toggle_dynamite(record: np.void, rng: np.random.Generator) -> bool:
    x = int(rng.integers(26, N_SPACES))
    record["dynamite"][x] = 1 - record["dynamite"][x]
    return True


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_public_changes_are_visible_to_everybody(n):
    """Controls (§16.1): cash, a train's position and dynamite change every seat's observation."""
    states = random_states(n)
    for i, change in enumerate((_move_cash, _move_first_train, _toggle_dynamite)):
        changed, applied = variants(states, change, seed=20 + i)
        check_pair(states, changed, applied, [], visible_to=list(range(n)))
