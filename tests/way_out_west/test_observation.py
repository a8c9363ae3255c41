"""The Way Out West observation (spec §12): layout, egocentric seats, public bids, hidden chance.

Way Out West has no hidden information; the tests check that (a) the generator
and the die queue never reach an observation (two records differing only there
observe identically, and a control shows a visible change does change it), (b)
observations are egocentric: renaming every seat s to s + k leaves seat o's
observation equal to seat o + k's, and the rules commute with the renaming,
(c) fields hold what the layout says.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests import _observation as observation_checks
from tests._observation import assert_fields
from tests.way_out_west._random_states import random_states, rotate_seats
from tests.way_out_west._helpers import setup_done
from wildwest_envs.core.kernels import serial
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.way_out_west.data import (A_RAISE, BANK, DEC_AUCTION_BID, DEC_CHOOSE_ACTION, HOTEL,
                                             N_DECISION_TYPES)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.observation import (AUCTION_HIGH_BID, AUCTION_HIGH_BIDDER, BOX_FREE, BOX_INACTIVE,
                                                    BOX_TAKEN, MONEY_SCALE, OBS, OBS_SIZE, OWNER_COLUMNS,
                                                    SEAT_BID, SEAT_BIDDING, SEAT_CASH, SEAT_INCOME, SEAT_PRESENT,
                                                    SEAT_TURN_POSITION, SEAT_VP, TOWN_COWBOYS, TOWN_OWNER,
                                                    observe as observe_kernel)
from wildwest_envs.way_out_west.positions import ABILENE, DEADWOOD, box, play, position, town

EXPECTED_FIELDS = {"round": (12,), "rounds_left": (1,), "num_players": (3,), "decision": (23,),
                   "acting_seat": (5,), "lap": (2,), "frontier": (5,), "wanted_supply": (1,), "towns": (5, 52),
                   "seats": (5, 27), "boxes": (19, 7), "auction": (8,), "pending": (42,), "gunfight": (44,)}

observe = serial(observe_kernel)  # the build Game runs (core.kernels.serial): no parallel build of the tests' own
observe_all = partial(observation_checks.observe_all, observe, OBS_SIZE)  # (states, seat): all rows written


@pytest.fixture(scope="module")
def states() -> np.ndarray:
    return random_states(n_games=12, every=23)


def test_s12_layout_fields_in_order_and_size():
    """§12: the named slices of the module docstring tile the vector; 674 floats."""
    assert_fields(OBS, EXPECTED_FIELDS)
    assert OBS_SIZE == GAME.obs_size == 674


def test_s12_every_entry_is_written_and_finite(states):
    """Every entry of every observation is written and finite; one-hot groups hold at most one 1."""
    for seat in range(3):
        obs = observe_all(states, seat)
        assert np.isfinite(obs).all()
        assert (OBS.get(obs, "decision").sum(axis=1) <= 1).all()
        assert (OBS.get(obs, "round").sum(axis=1) == 1).all()


def test_s12_generator_and_die_queue_are_never_observed(states):
    """§12, §13.3: records differing only in the generator state and the die queue observe identically."""
    other = states.copy()
    other["rng"] ^= np.uint64(0xDEADBEEF12345)
    other["forced"] = (other["forced"] + 3) % 6
    other["n_forced"] = 40
    other["forced_pos"] = 7
    for seat in range(3):
        assert np.array_equal(observe_all(states, seat), observe_all(other, seat))


def test_s12_control_a_visible_change_changes_the_observation(states):
    """Control for the test above: a change of cash (public) changes every seat's observation."""
    other = states.copy()
    other["cash"][:, 1] += 1
    for seat in range(3):
        assert not np.array_equal(observe_all(states, seat), observe_all(other, seat))


@pytest.mark.parametrize("k", [1, 2])
def test_s12_observations_are_egocentric(states, k):
    """§12: renaming every seat s to s + k mod N gives seat o + k the observation seat o had."""
    for record in states[::3]:
        n = int(record["num_players"])
        rotated = rotate_seats(record, k)
        for o in range(n):
            assert np.array_equal(observe_all(np.array([record]), o), observe_all(rotated, (o + k) % n))


def test_s12_rules_commute_with_renaming_seats():
    """§12, §13.1: the same action ids (PLAYER_r relative) from renamed records give renamed records."""
    base = random_states(n_games=6, every=31, seed=4)[::4]
    sample = LegalSampler(len(base), 9)
    rotated = np.concatenate([rotate_seats(r, 1) for r in base])
    for _ in range(60):
        masks = GAME.legal_mask(base)
        assert np.array_equal(masks, GAME.legal_mask(rotated))
        actions = sample(masks)
        GAME.step(base, actions, check=False)
        GAME.step(rotated, actions, check=False)
        expected = np.concatenate([rotate_seats(r, 1) for r in base])
        assert expected.tobytes() == rotated.tobytes()


def test_s12_bids_are_public_as_the_auction_runs():
    """§6.1, §12: after a raise every seat sees the committed bid, the high bid and the high bidder."""
    states = setup_done(3)
    play(states, A_RAISE + 2)  # seat 0 raises by 3
    assert states[0]["decision"] == DEC_AUCTION_BID
    for o in range(3):
        obs = observe_all(states, o)[0]
        seats = OBS.get(obs, "seats")
        r = (0 - o) % 3
        assert seats[r, SEAT_BID] == pytest.approx(3 / MONEY_SCALE)
        assert seats[:3, SEAT_BIDDING].tolist() == [1.0, 1.0, 1.0]
        auction = OBS.get(obs, "auction")
        assert auction[AUCTION_HIGH_BID] == pytest.approx(3 / MONEY_SCALE)
        assert auction[AUCTION_HIGH_BIDDER + 1 + r] == 1.0


def test_s12_fields_hold_the_board_from_the_observer_point_of_view():
    """§12 items 1-4: acting seat, decision, cowboys, owners, cash, boxes, turn positions, all relative."""
    states = position(4, turn=2, cowboys={ABILENE: {3: 4}}, buildings={DEADWOOD: {BANK: 1}}, cash={3: 35})
    play(states, box(13), town(ABILENE))  # seat 2 builds a hotel in Abilene
    obs = observe_all(states, 1)[0]  # seen by seat 1: relative seat of seat s is (s - 1) mod 4
    towns = OBS.get(obs, "towns")
    assert towns[ABILENE, TOWN_COWBOYS + 2] == pytest.approx(4 / 9)
    assert towns[DEADWOOD, TOWN_OWNER + BANK * OWNER_COLUMNS + 1 + 0] == 1.0
    assert towns[ABILENE, TOWN_OWNER + HOTEL * OWNER_COLUMNS + 1 + 1] == 1.0
    seats = OBS.get(obs, "seats")
    assert seats[2, SEAT_CASH] == pytest.approx(35 / MONEY_SCALE) and seats[:4, SEAT_PRESENT].all()
    assert not seats[4].any()
    boxes = OBS.get(obs, "boxes")
    assert boxes[13, BOX_TAKEN + 1] == 1.0 and boxes[2, BOX_INACTIVE] == 1.0 and boxes[0, BOX_FREE] == 1.0
    s = states[0]
    acting = int(s["current"])
    assert OBS.get(obs, "acting_seat")[(acting - 1) % 4] == 1.0
    assert OBS.get(obs, "decision")[DEC_CHOOSE_ACTION] == 1.0 and OBS.get(obs, "decision").sum() == 1
    order = s["turn_order"][:4].tolist()
    for pos, seat in enumerate(order):
        assert seats[(seat - 1) % 4, SEAT_TURN_POSITION + pos] == 1.0


def test_s12_seat_vp_and_income_columns():
    """Derived public facts: VP if the game ended now and the income of the current board."""
    states = position(3, turn=0, cattle={ABILENE: {1: 2}})
    obs = observe_all(states, 0)[0]
    seats = OBS.get(obs, "seats")
    assert seats[1, SEAT_INCOME] == pytest.approx(4 / MONEY_SCALE)
    assert seats[1, SEAT_VP] == pytest.approx((2 + 1) / 50)  # 2 cattle VP + floor(5 / 3) richest (all $20)


def test_s12_no_decision_and_no_acting_seat_once_the_game_is_over():
    """§12: the decision one-hot is all zero once the game has ended."""
    states = GAME.init_batch(4, seed=3, num_players=3, num_rounds=3)
    sample = LegalSampler(4, 0)
    while not states["done"].all():
        GAME.step(states, sample(GAME.legal_mask(states)), check=False)
    obs = observe_all(states, 0)
    assert not OBS.get(obs, "decision").any() and not OBS.get(obs, "acting_seat").any()
    assert N_DECISION_TYPES == 23
