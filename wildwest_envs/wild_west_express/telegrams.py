"""Telegrams: the deck queue, competitions, public cards and personal-card playability (spec §13).

Decisions where the spec leaves the implementation open:

* The deck is a queue stored top first (``deck[0]`` drawn next); drawing shifts
  it up by one. ``never_drawn`` counts the cards at the top that were never
  drawn since the shuffle: every card sent to the bottom was revealed (§16.1).
* A competition posted with ``competition_expiry_rounds = 0`` keeps a
  countdown of 0 and never expires (§13.4).
* Sheriff's Round-up moves desperados in seat order, index order; the order
  has no effect since placement never interacts (§13.5).
* Mail Contract pays for the stations owned when the card is revealed.
* The bound of 12 extra moves in one turn (§13.3, §17.5) is enforced as a
  guard: a movement card is not playable once 12 extra moves were started in
  the turn. §13.3 shows legal play never gets there; the guard keeps the
  fixed-size counter in range whatever position is loaded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (CARD_AMOUNT, CARD_BONUS, CARD_CITY, CARD_CLASS, CARD_GOOD, CARD_TYPE, CLASS_COMPETITION,
                   CLASS_PUBLIC, DISTANCE, IS_CITY, MAX_TRAINS, MOUNTAIN_ZONE, N_CARDS, N_CITIES,
                   N_COMPETITION_SLOTS, NO_CARD, SPACE_ZONE, T_ARMY_ENGINEERS, T_BANK_DIVIDEND, T_BLIZZARD,
                   T_DELIVERY_CONTRACT, T_DYNAMITE_CRATE, T_LAND_GRANT,
                   T_MAIL_CONTRACT, T_MAIL_RACE, T_QUARANTINE, T_SHERIFF_ROUNDUP,
                   T_TERRITORIAL_TAX, T_TRACK_CREW, LAND_GRANT_PRICE, MAX_DESPERADOS, MAX_EXTRA_MOVES)
from .dynamite import any_dynamite, any_dynamite_space, remove_all_dynamite
from .eventlog import (DELAYED_BY_BLIZZARD, EV_CARD_PAYMENT, EV_CARD_TO_BOTTOM, EV_COMPETITION_EXPIRED,
                       EV_COMPETITION_POSTED, EV_COMPETITION_WON, EV_DESPERADO_PLACED, EV_TRAIN_DELAYED,
                       LOST_QUARANTINE, PLACED_ROUNDUP, emit_cargo_lost)
from .pieces import bank_pays, has_free_flag, n_stations, pay_bank, remove_passengers
from .state import NOBODY


# ---- the deck queue (§13.1) -------------------------------------------------------------------------------
@njit(cache=True)
def draw_card(state: np.void) -> int:
    """Take the top card of the deck; NO_CARD if the deck is empty (a guard only, §13.1)."""
    n = np.int64(state["deck_size"])
    if n == 0:
        return NO_CARD
    card = np.int64(state["deck"][0])
    for i in range(n - 1):
        state["deck"][i] = state["deck"][i + 1]
    state["deck"][n - 1] = NO_CARD
    state["deck_size"] = n - 1
    if state["never_drawn"] > 0:
        state["never_drawn"] -= 1
    return card


@njit(cache=True, inline="always")
def to_bottom(state: np.void, card: int) -> None:
    """A used, resolved, claimed, expired or turned-away card goes to the bottom (§13.1)."""
    emit(state, EV_CARD_TO_BOTTOM, EVERYONE, card, state["deck_size"], 0, 0)  # always a revealed card (§16.3)
    state["deck"][state["deck_size"]] = card
    state["deck_size"] += 1
    state["card_holder"][card] = NOBODY
    state["card_bound"][card] = NOBODY


# ---- competitions (§13.3, §13.4) ---------------------------------------------------------------------------
@njit(cache=True)
def post_competition(state: np.void, card: int) -> None:
    """The card takes the lowest free slot with its countdown, or goes to the bottom with no effect (§13.3)."""
    for i in range(N_COMPETITION_SLOTS):
        if state["comp_card"][i] == NO_CARD:
            state["comp_card"][i] = card
            state["comp_countdown"][i] = np.int64(state["expiry_rounds"]) * np.int64(state["num_players"])
            emit(state, EV_COMPETITION_POSTED, EVERYONE, card, i, state["comp_countdown"][i], 0)
            return
    emit(state, EV_COMPETITION_POSTED, EVERYONE, card, -1, 0, 0)  # no free slot: turned away
    to_bottom(state, card)


@njit(cache=True)
def claim_competitions(state: np.void, seat: int, kind: int, good: int, city: int) -> None:
    """Pay every active competition of this kind matching the event, in slot order; the cards go down (§13.4)."""
    for i in range(N_COMPETITION_SLOTS):
        card = np.int64(state["comp_card"][i])
        if card == NO_CARD or CARD_TYPE[card] != kind:
            continue
        if kind == T_DELIVERY_CONTRACT and (CARD_GOOD[card] != good or CARD_CITY[card] != city):
            continue
        if kind == T_MAIL_RACE and CARD_CITY[card] != city:
            continue
        bank_pays(state, seat, np.int64(CARD_BONUS[card]))
        emit(state, EV_COMPETITION_WON, EVERYONE, seat, card, i, CARD_BONUS[card])
        state["comp_card"][i] = NO_CARD
        state["comp_countdown"][i] = 0
        to_bottom(state, card)


@njit(cache=True)
def count_down_competitions(state: np.void) -> None:
    """End of turn: each countdown falls by 1; at 0 the card goes to the bottom, slot order (§6.7, §13.4)."""
    if state["expiry_rounds"] == 0:
        return
    for i in range(N_COMPETITION_SLOTS):
        card = np.int64(state["comp_card"][i])
        if card != NO_CARD:
            state["comp_countdown"][i] -= 1
            if state["comp_countdown"][i] <= 0:
                emit(state, EV_COMPETITION_EXPIRED, EVERYONE, card, i, 0, 0)
                state["comp_card"][i] = NO_CARD
                state["comp_countdown"][i] = 0
                to_bottom(state, card)


# ---- drawing (§13.2, §13.3) -------------------------------------------------------------------------------
@njit(cache=True)
def reveal_drawn(state: np.void, card: int) -> bool:
    """Resolve a public card or post a competition; True if the card is personal (TELEGRAM_DRAWN follows)."""
    cls = CARD_CLASS[card]
    if cls == CLASS_PUBLIC:
        resolve_public(state, card)
        to_bottom(state, card)
        return False
    if cls == CLASS_COMPETITION:
        post_competition(state, card)
        return False
    return True


# ---- public cards (§13.5) ---------------------------------------------------------------------------------
@njit(cache=True)
def resolve_public(state: np.void, card: int) -> None:
    """The effect of a public card on every player, no decisions (§13.5)."""
    kind = CARD_TYPE[card]
    n = np.int64(state["num_players"])
    amount = np.int64(CARD_AMOUNT[card])
    if kind == T_BLIZZARD:
        _blizzard(state)
    elif kind == T_MAIL_CONTRACT:
        for p in range(n):
            bank_pays(state, p, amount * n_stations(state, p))
            emit(state, EV_CARD_PAYMENT, EVERYONE, p, card, amount * n_stations(state, p), 0)
    elif kind == T_TERRITORIAL_TAX:
        for p in range(n):
            emit(state, EV_CARD_PAYMENT, EVERYONE, p, card, -min(np.int64(state["cash"][p]), amount), 0)
            pay_bank(state, p, min(np.int64(state["cash"][p]), amount))
    elif kind == T_ARMY_ENGINEERS:
        remove_all_dynamite(state)
    elif kind == T_SHERIFF_ROUNDUP:
        _round_up(state)
    elif kind == T_BANK_DIVIDEND:
        for p in range(n):
            bank_pays(state, p, amount)
            emit(state, EV_CARD_PAYMENT, EVERYONE, p, card, amount, 0)
    elif kind == T_QUARANTINE:
        for p in range(n):
            for t in range(MAX_TRAINS):
                if state["train_exists"][p, t]:
                    emit_cargo_lost(state, p, np.int64(t), np.int64(LOST_QUARANTINE), np.bool_(True))
                    remove_passengers(state, p, t)


@njit(cache=True)
def _blizzard(state: np.void) -> None:
    """Every train on a non-city Mountain space gets wait = max(wait, 1) (§13.5)."""
    for p in range(np.int64(state["num_players"])):
        for t in range(MAX_TRAINS):
            if state["train_exists"][p, t]:
                x = np.int64(state["train_pos"][p, t])
                if not IS_CITY[x] and SPACE_ZONE[x] == MOUNTAIN_ZONE and state["train_wait"][p, t] < 1:
                    state["train_wait"][p, t] = 1
                    emit(state, EV_TRAIN_DELAYED, EVERYONE, p, t, 1, DELAYED_BY_BLIZZARD)


@njit(cache=True)
def _round_up(state: np.void) -> None:
    """Every desperado goes to its owner's nearest station, ties to the lower city id, sheriffs ignored (§13.5)."""
    for p in range(np.int64(state["num_players"])):
        for k in range(MAX_DESPERADOS):
            x = np.int64(state["desp_pos"][p, k])
            if x < 0:
                continue
            best = -1
            for c in range(N_CITIES):
                if state["city_owner"][c] == p and (best < 0 or DISTANCE[x, c] < DISTANCE[x, best]):
                    best = c
            if best >= 0:
                state["desp_pos"][p, k] = best
                emit(state, EV_DESPERADO_PLACED, EVERYONE, p, k, best, PLACED_ROUNDUP)


# ---- personal cards (§13.5) -------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def is_move_card(card: int) -> bool:
    """Full Steam Ahead, Express Schedule, Backtrack: the card makes an extra move."""
    return CARD_TYPE[card] <= 2


@njit(cache=True)
def card_playable(state: np.void, seat: int, card: int, train: int) -> bool:
    """Whether personal card ``card`` bound to ``train`` may be played by ``seat`` now (§13.5)."""
    kind = CARD_TYPE[card]
    if kind <= 2:
        if state["extra_moves"] >= MAX_EXTRA_MOVES:  # a guard: legal play stays within 12 (§13.3, §17.5)
            return False
        return state["train_wait"][seat, train] == 0 and state["train_debt"][seat, train] == 0
    if kind == T_DYNAMITE_CRATE:
        return any_dynamite_space(state)
    if kind == T_TRACK_CREW:
        return any_dynamite(state)
    if kind == T_LAND_GRANT:
        if state["cash"][seat] < LAND_GRANT_PRICE or not has_free_flag(state, seat):
            return False
        for c in range(N_CITIES):
            if state["city_owner"][c] == NOBODY:
                return True
        return False
    return True  # subsidies, Armed Guards, Friend of the Law, Hideout


@njit(cache=True)
def holds_personal_card(state: np.void, seat: int) -> bool:
    """The seat holds at least one personal card (§17.3: PRE_ROLL is then always asked)."""
    for k in range(N_CARDS):
        if state["card_holder"][k] == seat:
            return True
    return False
