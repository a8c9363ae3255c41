"""Rule tests of corners that random play rarely reaches (spec §6.3, §13.3, §13.5, §14.4, §15).

Each position is built in code, then saved and loaded through ``GAME.to_json`` /
``GAME.from_json`` (so it is also a valid saved state), and played through the
public kernels.
"""

from __future__ import annotations

import numpy as np

from tests.wild_west_express._helpers import deck_bottom, seat0_turn
from wildwest_envs.wild_west_express.data import (A_BUY_DESPERADO, A_DESPERADO, A_END, A_PLAY_CARD, A_SPACE,
                                                  DEC_CARD_DESPERADO, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_HIDEOUT_CITY,
                                                  DEC_PRE_ROLL, DYNAMITE_SUPPLY, FIRST_TRACK, MAX_EXTRA_MOVES,
                                                  MAX_TURN_DECISIONS, N_SPACES)
from wildwest_envs.wild_west_express.dynamite import can_place_dynamite
from wildwest_envs.wild_west_express.game import GAME
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play

SEATTLE, PORTLAND, DENVER = 0, 1, 12
GOLD = 1
FULL_STEAM, CRATE, HIDEOUT = 0, 10, 20


def _saved_and_loaded(states: np.ndarray) -> np.ndarray:
    """The position through JSON: validated field by field, byte-identical."""
    loaded = GAME.from_json(GAME.to_json(states[0]))
    assert loaded.tobytes() == states.tobytes()
    return loaded


# ---- the bound of 12 extra moves in one turn (§13.3, §17.5) --------------------------------------------------------
def test_s13_3_no_movement_card_is_playable_after_twelve_extra_moves():
    """§13.3, §17.5: a turn holds at most 12 extra moves; at 12 a movement card cannot be played, at 11 it can."""
    states = seat0_turn(trains={0: [Train(SEATTLE, cargo=[GOLD])]}, cards={0: {FULL_STEAM: 0}})
    states[0]["extra_moves"] = MAX_EXTRA_MOVES
    states = _saved_and_loaded(states)
    assert states[0]["decision"] == DEC_PRE_ROLL and A_PLAY_CARD + FULL_STEAM not in legal_actions(states)
    states[0]["extra_moves"] = MAX_EXTRA_MOVES - 1
    states = _saved_and_loaded(states)
    play(states, A_PLAY_CARD + FULL_STEAM)
    assert states[0]["extra_moves"] == MAX_EXTRA_MOVES


def test_s13_3_a_card_drawn_at_the_twelfth_extra_move_can_only_be_kept():
    """§13.3: a movement card drawn at a landing once 12 extra moves were made offers only END (keep)."""
    states = seat0_turn(trains={0: [Train(SEATTLE, cargo=[GOLD])]}, cards={0: {FULL_STEAM: 0}},
                        deck_top=[FULL_STEAM + 1])
    states[0]["extra_moves"] = MAX_EXTRA_MOVES - 1
    states = _saved_and_loaded(states)
    s = states[0]
    play(states, A_PLAY_CARD + FULL_STEAM)  # the 12th extra move: 35, 36, 37 (T) draws Full Steam Ahead
    play(states, A_SPACE + 35)
    assert s["drawn_card"] == FULL_STEAM + 1 and legal_actions(states) == [A_END]
    play(states, A_END)
    assert s["card_holder"][FULL_STEAM + 1] == 0 and s["decision"] == DEC_PRE_ROLL
    assert A_PLAY_CARD + FULL_STEAM + 1 not in legal_actions(states)


# ---- Hideout with two desperados (§13.5) ---------------------------------------------------------------------------
def test_s13_5_hideout_asks_which_desperado_when_there_are_two():
    """§13.5 Hideout: with two desperados CARD_DESPERADO offers both; the chosen one moves, the other stays."""
    states = seat0_turn(owners={SEATTLE: 0, PORTLAND: 0, DENVER: 0},
                        trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]},
                        desperados={0: [SEATTLE, 100]}, cards={0: {HIDEOUT: 0, HIDEOUT + 1: 0}})
    states = _saved_and_loaded(states)
    s = states[0]
    play(states, A_PLAY_CARD + HIDEOUT)
    assert s["decision"] == DEC_CARD_DESPERADO and legal_actions(states) == [A_DESPERADO, A_DESPERADO + 1]
    play(states, A_DESPERADO + 1)
    assert s["decision"] == DEC_CARD_HIDEOUT_CITY  # desperado 1 stands on track: every own station
    assert legal_actions(states) == [A_SPACE + SEATTLE, A_SPACE + PORTLAND, A_SPACE + DENVER]
    play(states, A_SPACE + DENVER)
    assert list(s["desp_pos"][0, :2]) == [SEATTLE, DENVER] and s["decision"] == DEC_PRE_ROLL
    play(states, A_PLAY_CARD + HIDEOUT + 1)
    play(states, A_DESPERADO + 0)  # desperado 0 stands in Seattle: the other own stations only
    assert legal_actions(states) == [A_SPACE + PORTLAND, A_SPACE + DENVER]
    play(states, A_SPACE + PORTLAND)
    assert list(s["desp_pos"][0, :2]) == [PORTLAND, DENVER]
    assert deck_bottom(states, 2) == [HIDEOUT, HIDEOUT + 1]


# ---- Crate of Dynamite with no legal space left (§13.5) ------------------------------------------------------------
def _fill_board_with_dynamite(states: np.ndarray, tokens: int) -> None:
    """Put ``tokens`` tokens from the supply on legal track spaces (lowest ids first)."""
    s = states[0]
    placed = 0
    for x in range(FIRST_TRACK, N_SPACES):
        if placed == tokens:
            break
        if can_place_dynamite(s, x):
            s["dynamite"][x] = 1
            s["dynamite_supply"] -= 1
            placed += 1
    assert placed == tokens


def test_s13_5_crate_of_dynamite_ends_when_no_legal_space_is_left():
    """§13.5 Crate of Dynamite: after one token the supply is empty, no space is legal: the card ends by itself."""
    states = seat0_turn(cash=0, trains={0: [Train(SEATTLE)]}, cards={0: {CRATE: 0}})
    _fill_board_with_dynamite(states, DYNAMITE_SUPPLY - 1)
    states = _saved_and_loaded(states)
    s = states[0]
    play(states, A_PLAY_CARD + CRATE)
    assert s["decision"] == DEC_CARD_DYNAMITE_PLACE
    free = [a for a in legal_actions(states) if a != A_END]
    assert free and A_END in legal_actions(states)
    play(states, free[0])  # the 18th token: nothing is left to place, no second CARD_DYNAMITE_PLACE
    assert s["decision"] == DEC_PRE_ROLL and s["dynamite_supply"] == 0 and s["card_active"] == -1
    assert int(s["dynamite"].sum()) == DYNAMITE_SUPPLY and deck_bottom(states, 1) == [CRATE]
    assert not any(A_SPACE <= a < A_SPACE + N_SPACES for a in legal_actions(states))  # no purchase either


# ---- hiring at the desperado cap (§6.3, §15) -----------------------------------------------------------------------
def test_s15_a_hire_is_refused_at_the_desperado_cap():
    """§6.3 BUY_DESPERADO, §2.1, §15: no hire with 2 desperados (limits on) or 3 (limits off), even unhired."""
    for limits, cap in ((True, 2), (False, 3)):
        below = [100 + 10 * k for k in range(cap - 1)]
        states = seat0_turn(alt_extra_gang=True, component_limits=limits, owners={SEATTLE: 0}, desperados={0: below})
        states = _saved_and_loaded(states)
        assert A_BUY_DESPERADO + SEATTLE in legal_actions(states), limits  # one below the cap: allowed
        place(states, desperados={0: below + [200]})
        states = _saved_and_loaded(states)
        assert states[0]["hire_used"][0] == 0 and states[0]["cash"][0] >= 250
        assert not any(A_BUY_DESPERADO <= a < A_END for a in legal_actions(states)), limits


# ---- the safety limit is exact (§14.4) -----------------------------------------------------------------------------
def test_s14_4_safety_limit_counts_the_decision_that_ends_the_turn():
    """§14.4: a turn's 1000th decision ends the game as truncated also when that decision ends the turn."""
    states = seat0_turn()  # seat 0 has no train and no desperado: END at PRE_ROLL ends its turn
    states[0]["turn_decisions"] = MAX_TURN_DECISIONS - 1
    states = _saved_and_loaded(states)
    s = states[0]
    play(states, A_END)  # the 1000th decision of the turn
    assert s["done"] and s["capped"] and s["turn_decisions"] == MAX_TURN_DECISIONS and s["active"] == 0
    assert legal_actions(states) == [] and GAME.truncated(states)[0] and not GAME.terminal(states)[0]
    states = seat0_turn()  # control: the 999th decision ends the turn and the next turn counts from 0
    states[0]["turn_decisions"] = MAX_TURN_DECISIONS - 2
    play(states, A_END)
    assert not states[0]["done"] and states[0]["active"] == 1 and states[0]["turn_decisions"] == 0


def test_s14_4_a_victory_at_the_safety_limit_stands():
    """§14.3, §14.4: when the 1000th decision ends a turn in which the target is reached, the victory stands."""
    states = seat0_turn(cash=6 * 1200)  # 12 VP from cash alone: at least the 3-player target of 10
    states[0]["turn_decisions"] = MAX_TURN_DECISIONS - 1
    states = _saved_and_loaded(states)
    play(states, A_END)
    assert states[0]["done"] and not states[0]["capped"] and GAME.terminal(states)[0]
