"""Rule tests of setup (spec §4) and of the options that shape a game (§4, §13.2, §13.3)."""

from __future__ import annotations

import numpy as np
import pytest

from tests._empty_values import assert_clears_to_empty_values
from tests.way_out_west._helpers import setup_done
from wildwest_envs.way_out_west.data import (A_TOWN, DEC_AUCTION_BID, DEC_SETUP_PLACE_COWBOY, N_TOWNS,
                                             PHASE_AUCTION, PHASE_SETUP)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.options import parse_options
from wildwest_envs.way_out_west.positions import legal_actions, play, position, town


@pytest.mark.parametrize("n,money", [(3, 20), (4, 20), (5, 25)])
def test_s4_starting_money_and_components(n, money):
    """§4 step 1: $20 with 3-4 players, $25 with 5; 9 cowboys, 9 cattle, 3 of each B&T type, the farmer."""
    s = position(num_players=n, decision="setup")[0]
    assert s["cash"][:n].tolist() == [money] * n and not s["cash"][n:].any()
    assert s["cowboy_supply"][:n].tolist() == [9] * n and s["cattle_supply"][:n].tolist() == [9] * n
    assert (s["bt_supply"][:n] == 3).all() and not s["bt_supply"][n:].any()
    assert not s["farmer_used"].any() and s["wanted_supply"] == 13 and not s["wanted"].any()


def test_s4_round_marker_on_round_1_and_only_san_antonia_open():
    """§4 steps 3, 5: round 1, frontier 0 (only San Antonia open for cattle), empty board."""
    s = position(decision="setup")[0]
    assert s["round"] == 1 and s["frontier"] == 0
    assert not s["cowboys"].any() and not s["cattle"].any() and (s["bt_owner"] == -1).all()


@pytest.mark.parametrize("start", [0, 1, 2])
def test_s4_initial_turn_order_is_clockwise_from_the_start_player(start):
    """§4 step 2: start player in position 1, then the other seats clockwise."""
    s = position(num_players=3, start_player=start, decision="setup")[0]
    assert s["turn_order"][:3].tolist() == [start, (start + 1) % 3, (start + 2) % 3]
    assert s["current"] == start and s["start_player"] == start


def test_s4_start_player_is_uniform_random_without_the_option():
    """§4 step 2, §13.3: without ``start_player`` the seat is drawn at random, roughly uniformly."""
    states = GAME.init_batch(3000, seed=5, num_players=3)
    counts = np.bincount(states["start_player"], minlength=3)
    assert counts.min() > 900
    assert (states["current"] == states["start_player"]).all()


def test_s13_3_start_player_never_comes_from_the_die_queue():
    """§13.3: preset dice fill the queue after the start player is drawn; they are all still unused."""
    a = GAME.init_batch(50, seed=9, num_players=4)
    b = GAME.init_batch(50, seed=9, num_players=4, preset_dice=[6, 6, 6])
    assert (a["start_player"] == b["start_player"]).all()
    assert (b["n_forced"] == 3).all() and (b["forced_pos"] == 0).all() and (b["forced"][:, :3] == 5).all()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_s4_cowboy_placement_three_laps_in_turn_order_any_town(n):
    """§4 step 4: one cowboy at a time in turn order, three laps (no snake), any town, stacking allowed."""
    states = position(num_players=n, start_player=1, decision="setup")
    placers = []
    for k in range(3 * n):
        s = states[0]
        assert s["decision"] == DEC_SETUP_PLACE_COWBOY and s["phase"] == PHASE_SETUP
        assert legal_actions(states) == [A_TOWN + t for t in range(N_TOWNS)]
        placers.append(int(s["current"]))
        play(states, town(k % 2))
    order = [(1 + i) % n for i in range(n)]
    assert placers == order * 3
    s = states[0]
    assert s["cowboys"][:, :n].sum(axis=0).tolist() == [3] * n
    assert s["cowboy_supply"][:n].tolist() == [6] * n


def test_s4_setup_placement_pays_no_money_and_starts_the_round_1_auction():
    """§4 steps 4, 6: placements cost nothing; then round 1 begins with its auction."""
    states = setup_done(3)
    s = states[0]
    assert s["cash"][:3].tolist() == [20, 20, 20] and s["bank_in"] == 0 and s["bank_out"] == 0
    assert s["decision"] == DEC_AUCTION_BID and s["phase"] == PHASE_AUCTION and s["round"] == 1


@pytest.mark.parametrize("bad", [0, 1, 2, 4, 5, 7, 10, 11, 13, 24, 2.0, "12", True, None])
def test_s4_num_rounds_must_be_3_6_9_or_12(bad):
    """§4: any ``num_rounds`` other than 3, 6, 9 or 12 is rejected with an error."""
    with pytest.raises(ValueError, match="num_rounds"):
        parse_options(num_rounds=bad)


@pytest.mark.parametrize("rounds", [3, 6, 9, 12])
def test_s4_num_rounds_allowed_values(rounds):
    """§4: 3, 6, 9 and 12 rounds are accepted; 12 is the default."""
    assert parse_options(num_rounds=rounds)["num_rounds"] == rounds
    assert parse_options()["num_rounds"] == 12


@pytest.mark.parametrize("options,pattern", [
    ({"start_player": 3}, "start_player"), ({"start_player": -1}, "start_player"),
    ({"num_players": 5, "start_player": 5}, "start_player"), ({"preset_dice": [0]}, "preset_dice"),
    ({"preset_dice": [7]}, "preset_dice"), ({"preset_dice": [1] * 65}, "at most 64"),
    ({"preset_dice": "66"}, "preset_dice"), ({"preset_dice": [2.0]}, "preset_dice"),
    ({"auto_forced": 1}, "auto_forced"), ({"max_decisions": 0}, "max_decisions"),
])
def test_bad_options_are_rejected_clearly(options, pattern):
    """Out-of-range or mistyped options raise ValueError naming the option."""
    with pytest.raises(ValueError, match=pattern):
        parse_options(**options)


def test_s13_2_auto_forced_applies_single_option_decisions():
    """§13.2 ``auto_forced``: a decision with one legal id is applied automatically; default off."""
    plain = position(num_players=3, num_rounds=3, decision="setup")
    auto = position(num_players=3, num_rounds=3, auto_forced=True, decision="setup")
    assert not plain[0]["auto_forced"] and auto[0]["auto_forced"]
    rng = np.random.default_rng(0)
    for states in (plain, auto):
        while not states[0]["done"]:
            legal = legal_actions(states)
            if states is auto:
                assert len(legal) >= 2
            play(states, int(rng.choice(legal)))


def test_s13_2_an_ended_action_clears_its_pending_choices_to_their_declared_empty_values():
    """§13.2: ``clear_pending`` (when an action ends) empties the pending choices and the gunfight context: each
    field it writes takes the value ``state.EMPTY_VALUES`` declares, the one a new game starts with."""
    from wildwest_envs.way_out_west.setup import clear_pending
    from wildwest_envs.way_out_west.state import EMPTY_RECORD

    changed = assert_clears_to_empty_values(clear_pending, EMPTY_RECORD, at_least=18)
    assert {"pend_box", "pend_town1", "gf_active", "sheriff_side", "retreat_seat"} <= set(changed)
