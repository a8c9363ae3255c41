"""Round start, Schemin' and the end of Schemin' (spec §4.2-§4.4, §7 Ghost and Doc, §11.3).

Progress through Schemin' is kept in ``turn`` (icon index), ``turn_position``
(seats that finished the turn) and ``play_in_turn`` (second play of a speed-up
turn); the seat to play follows from them (§2.7). KEEP decisions move each
DISCARD(k) card from ``hand`` to ``keep_aside`` and apply the result at once
when the decision ends (§4.4, G33).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .cards import can_draw, count_action_cards, count_cards, draw_cards, hand_target, put_on_deck, \
    shuffle_deck
from .data import (A_BULLETS_DISCARD, A_DISCARD, A_DRAW, A_KEEP_REST, A_PLAY_DOWN, A_PLAY_UP,
                   BULLET_CARD, DRAW_COUNT, GHOST, MARSHAL, MAX_TURNS, N_CARD_CODES, N_CARD_KINDS_HELD, N_KINDS,
                   ROUND_CARD_TURNS, TURN_NONE, TURN_SPEEDUP, TURN_SWITCH, TURN_TUNNEL)
from .eventlog import EV_BULLETS_DISCARDED, EV_CARD_PLAYED, EV_CARD_SET_ASIDE, EV_CARDS_KEPT, all_but, only
from .state import NOBODY


# ---- round start (§4.2) ---------------------------------------------------------------
@njit(cache=True)
def deal_hands(state: np.void) -> None:
    """Each seat, clockwise from the first player: standard shuffle and draw, or expert refill (§4.2 step 1)."""
    n = np.int64(state["num_players"])
    for j in range(n):
        seat = (np.int64(state["first_player"]) + j) % n
        target = hand_target(state, seat)
        if state["expert"]:
            missing = target - count_cards(state["hand"][seat])
            if missing > 0:
                draw_cards(state, seat, missing)
        else:
            if state["round"] > 0:  # round 0 uses the setup shuffle (§4.2, G32)
                shuffle_deck(state, seat)
            draw_cards(state, seat, target)


@njit(cache=True, inline="always")
def asked_bullets(state: np.void, seat: int) -> bool:
    """Expert BULLETS goes to every seat whose bandits have received a bullet card this game (§4.2 step 3, G33)."""
    bps = np.int64(state["bandits_per_seat"])
    for k in range(bps):
        if state["bullets_received"][seat * bps + k] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def apply_bullets(state: np.void, seat: int, action: int) -> None:
    """BULLETS_DISCARD moves all bullet cards of the hand to the discard pile (§4.2 step 3)."""
    if action == A_BULLETS_DISCARD:
        if state["hand"][seat, BULLET_CARD] > 0:  # discarding none looks like keeping (G33): not reported
            emit(state, EV_BULLETS_DISCARDED, EVERYONE, seat, state["hand"][seat, BULLET_CARD], 0, 0)
        state["discard"][seat, BULLET_CARD] += state["hand"][seat, BULLET_CARD]
        state["hand"][seat, BULLET_CARD] = 0


# ---- Schemin' (§4.3) -------------------------------------------------------------------
@njit(cache=True, inline="always")
def turn_icon(state: np.void) -> int:
    """Icon of the current turn of the current round card, TURN_NONE past the last (§2.6)."""
    turn = np.int64(state["turn"])
    if turn >= MAX_TURNS:
        return TURN_NONE
    return np.int64(ROUND_CARD_TURNS[np.int64(state["round_deck"][np.int64(state["round"])]), turn])


@njit(cache=True, inline="always")
def planning_seat(state: np.void) -> int:
    """Seat whose play it is: clockwise from the first player, counter-clockwise in a switching turn (§2.7)."""
    n = np.int64(state["num_players"])
    step = -1 if turn_icon(state) == TURN_SWITCH else 1
    return (np.int64(state["first_player"]) + step * np.int64(state["turn_position"])) % n


@njit(cache=True, inline="always")
def ghost_card(state: np.void, seat: int, code: int) -> bool:
    """The card is of Ghost's colour, incl. the 2-player Marshal card of a team with Ghost (§7, G13)."""
    bps = np.int64(state["bandits_per_seat"])
    if bps == 2 and code == MARSHAL:
        return state["character"][2 * seat] == GHOST or state["character"][2 * seat + 1] == GHOST
    return state["character"][seat * bps + code // N_KINDS] == GHOST


@njit(cache=True)
def plan_mask(state: np.void, seat: int, out_row: np.ndarray) -> None:
    """PLAN: a card face up (not in a tunnel) or down (tunnel, Ghost's first turn), or DRAW (§4.3, §7, §11.3)."""
    icon = turn_icon(state)
    first_turn = state["turn"] == 0
    for code in range(N_CARD_CODES):
        if state["hand"][seat, code] > 0:
            if icon != TURN_TUNNEL:
                out_row[A_PLAY_UP + code] = 1
            if icon == TURN_TUNNEL or (first_turn and ghost_card(state, seat, code)):
                out_row[A_PLAY_DOWN + code] = 1
    if can_draw(state, seat):
        out_row[A_DRAW] = 1


@njit(cache=True)
def apply_plan(state: np.void, seat: int, action: int) -> None:
    """Put the card on top of the pile, or draw 3 cards; then move on to the next play (§4.3)."""
    if action == A_DRAW:
        draw_cards(state, seat, np.int64(DRAW_COUNT))
    else:
        code = action % N_CARD_CODES
        i = np.int64(state["pile_size"])
        state["hand"][seat, code] -= 1
        state["pile_owner"][i] = seat
        state["pile_card"][i] = code
        state["pile_down"][i] = 1 if action >= A_PLAY_DOWN else 0
        state["pile_size"] = i + 1
        if action >= A_PLAY_DOWN:  # the face to its owner alone until Stealin' reveals it (§4.5, G22)
            emit(state, EV_CARD_PLAYED, only(seat), seat, code, 1, i)
            emit(state, EV_CARD_PLAYED, all_but(seat), seat, NOBODY, 1, i)
        else:
            emit(state, EV_CARD_PLAYED, EVERYONE, seat, code, 0, i)
    if turn_icon(state) == TURN_SPEEDUP and state["play_in_turn"] == 0:  # two plays in a row (§2.7, G21)
        state["play_in_turn"] = 1
        return
    state["play_in_turn"] = 0
    state["turn_position"] += 1
    if state["turn_position"] == state["num_players"]:
        state["turn_position"] = 0
        state["turn"] += 1


# ---- end of Schemin' (§4.4) -------------------------------------------------------------
@njit(cache=True)
def return_hands(state: np.void) -> None:
    """Standard rules: every card left in hand goes back on top of its owner's draw deck (§4.4)."""
    for seat in range(np.int64(state["num_players"])):
        for code in range(N_CARD_KINDS_HELD):
            for _ in range(np.int64(state["hand"][seat, code])):
                put_on_deck(state, seat, code)
            state["hand"][seat, code] = 0


@njit(cache=True)
def keep_mask(state: np.void, seat: int, out_row: np.ndarray) -> None:
    """KEEP: DISCARD(k) for each action card still in hand, KEEP_REST always (§4.4, §11.3)."""
    for code in range(N_CARD_CODES):
        if state["hand"][seat, code] > 0:
            out_row[A_DISCARD + code] = 1
    out_row[A_KEEP_REST] = 1


@njit(cache=True)
def apply_keep(state: np.void, seat: int, action: int) -> bool:
    """Set one card aside, or end the choice: set-aside and bullet cards go to the discard pile at once (§4.4, G33).

    Returns True when the seat's KEEP decision is over.
    """
    if action != A_KEEP_REST:
        code = action - A_DISCARD
        state["hand"][seat, code] -= 1
        state["keep_aside"][code] += 1
        emit(state, EV_CARD_SET_ASIDE, only(seat), seat, code, 0, 0)
        if count_action_cards(state["hand"][seat]) > 0:
            return False
    emit(state, EV_CARDS_KEPT, EVERYONE, seat, count_action_cards(state["hand"][seat]),
         count_cards(state["keep_aside"]) + np.int64(state["hand"][seat, BULLET_CARD]), 0)
    for code in range(N_CARD_KINDS_HELD):
        state["discard"][seat, code] += state["keep_aside"][code]
        state["keep_aside"][code] = 0
    state["discard"][seat, BULLET_CARD] += state["hand"][seat, BULLET_CARD]
    state["hand"][seat, BULLET_CARD] = 0
    return True

