"""Pre-roll actions: buying goods, passengers, stations, trains, upgrades, dynamite, hiring (spec §6.3).

Each action has one legality test (``*_legal``) used by the mask and by the
auto-forced check, and one effect (``apply_pre_roll``). Playing a card is
started by ``rules`` (it may open a move or a card procedure).

Decisions where the spec leaves the implementation open:

* A hired desperado (alt_extra_gang) takes the lowest free desperado index.
* BUY_GOOD and LOAD_PASSENGERS are legal for a train with a wait or a debt
  (§6.3 note, G18).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (A_BUY_DESPERADO, A_BUY_GOOD, A_BUY_LARGE_TRAIN, A_BUY_SMALL_TRAIN, A_BUY_STATION, A_END,
                   A_LOAD_PASSENGERS, A_PLAY_CARD, A_SPACE, A_TRAIN, A_UPGRADE_TRAIN, CITY_ZONE, DYNAMITE_PER_TURN,
                   FIRST_JUNCTION, IS_CITY, MAX_TRAINS, N_CARDS, N_CITIES, N_GOODS, N_SPACES, PASSENGER_BASE, PRICE_LARGE_TRAIN,
                   PRICE_SMALL_TRAIN, PRICE_STATION, PRICE_UPGRADE, SELL_PRICE, T_LAND_BOOM, T_RAILROAD_EXPO)
from .dynamite import can_place_dynamite, place_dynamite
from .eventlog import (EV_CARGO_LOADED, EV_DESPERADO_HIRED, EV_DYNAMITE_PLACED, EV_STATION_BOUGHT, EV_TRAIN_BOUGHT,
                       EV_TRAIN_UPGRADED)
from .pieces import (desperado_cap, empty_slot, free_train_slot, has_free_flag, has_free_large, has_free_small,
                     n_trains, pay_bank, place_train)
from .state import NOBODY
from .telegrams import card_playable, claim_competitions

_CHEAPEST_PURCHASE = min(PRICE_STATION, PRICE_SMALL_TRAIN, PRICE_LARGE_TRAIN)  # station and train purchases


@njit(cache=True)
def buy_good_legal(state: np.void, seat: int, t: int, g: int) -> bool:
    """Own train t in a city selling g, with an empty slot, and cash for the price (§6.3)."""
    if not state["train_exists"][seat, t]:
        return False
    x = np.int64(state["train_pos"][seat, t])
    if not IS_CITY[x] or SELL_PRICE[x, g] == 0:
        return False
    return empty_slot(state, seat, t) >= 0 and state["cash"][seat] >= SELL_PRICE[x, g]


@njit(cache=True)
def load_legal(state: np.void, seat: int, t: int) -> bool:
    """Own train t in a city with an empty slot (§6.3, §4.4)."""
    return (state["train_exists"][seat, t] != 0 and IS_CITY[np.int64(state["train_pos"][seat, t])]
            and empty_slot(state, seat, t) >= 0)


@njit(cache=True)
def _own_train_in(state: np.void, seat: int, c: int) -> bool:
    for t in range(MAX_TRAINS):
        if state["train_exists"][seat, t] and state["train_pos"][seat, t] == c:
            return True
    return False


@njit(cache=True)
def buy_station_legal(state: np.void, seat: int, c: int) -> bool:
    """City c unowned, an own train there, $400, a free flag (§6.3)."""
    return (state["city_owner"][c] == NOBODY and state["cash"][seat] >= PRICE_STATION
            and _own_train_in(state, seat, c) and has_free_flag(state, seat))


@njit(cache=True)
def buy_train_legal(state: np.void, seat: int, c: int, large: bool) -> bool:
    """Own station c, fewer than 6 trains, a free piece of that size, the price (§6.3)."""
    if state["city_owner"][c] != seat or n_trains(state, seat, np.int64(-1)) >= MAX_TRAINS:
        return False
    if large:
        return has_free_large(state, seat) and state["cash"][seat] >= PRICE_LARGE_TRAIN
    return has_free_small(state, seat) and state["cash"][seat] >= PRICE_SMALL_TRAIN


@njit(cache=True)
def upgrade_legal(state: np.void, seat: int, t: int) -> bool:
    """Own small train t in a city whose station the player owns, a free large piece, $600 (§6.3)."""
    if not state["train_exists"][seat, t] or state["train_large"][seat, t]:
        return False
    x = np.int64(state["train_pos"][seat, t])
    return (IS_CITY[x] and state["city_owner"][x] == seat and has_free_large(state, seat)
            and state["cash"][seat] >= PRICE_UPGRADE)


@njit(cache=True)
def buy_dynamite_legal(state: np.void, seat: int, s: int) -> bool:
    """A legal dynamite space, fewer than 3 bought this turn, the price (§6.3, §11.1)."""
    return (state["dynamite_bought"][seat] < DYNAMITE_PER_TURN and state["cash"][seat] >= state["dynamite_price"]
            and can_place_dynamite(state, s))


@njit(cache=True)
def hire_legal(state: np.void, seat: int, c: int) -> bool:
    """alt_extra_gang: own station c, the price, no hire before, below the desperado cap (§6.3, §15)."""
    return (state["alt_extra_gang"] and state["city_owner"][c] == seat and not state["hire_used"][seat]
            and state["cash"][seat] >= state["extra_gang_price"] and state["n_desperados"][seat] < desperado_cap(state))


@njit(cache=True)
def play_card_legal(state: np.void, seat: int, k: int) -> bool:
    """The player holds personal card k and it is playable now (§6.3, §13.5)."""
    return state["card_holder"][k] == seat and card_playable(state, seat, k, np.int64(state["card_bound"][k]))


@njit(cache=True)
def pre_roll_legal(state: np.void, seat: int, a: int) -> bool:
    """Legality of any action at PRE_ROLL (§6.3, §17.2)."""
    if a < A_TRAIN:
        return buy_dynamite_legal(state, seat, a - A_SPACE)
    if a < A_BUY_GOOD:
        return False
    if a < A_LOAD_PASSENGERS:
        return buy_good_legal(state, seat, (a - A_BUY_GOOD) // N_GOODS, (a - A_BUY_GOOD) % N_GOODS)
    if a < A_BUY_STATION:
        return load_legal(state, seat, a - A_LOAD_PASSENGERS)
    if a < A_BUY_SMALL_TRAIN:
        return buy_station_legal(state, seat, a - A_BUY_STATION)
    if a < A_BUY_LARGE_TRAIN:
        return buy_train_legal(state, seat, a - A_BUY_SMALL_TRAIN, np.bool_(False))
    if a < A_UPGRADE_TRAIN:
        return buy_train_legal(state, seat, a - A_BUY_LARGE_TRAIN, np.bool_(True))
    if a < A_PLAY_CARD:
        return upgrade_legal(state, seat, a - A_UPGRADE_TRAIN)
    if a < A_PLAY_CARD + N_CARDS:
        return play_card_legal(state, seat, a - A_PLAY_CARD)
    if A_BUY_DESPERADO <= a < A_BUY_DESPERADO + N_CITIES:
        return hire_legal(state, seat, a - A_BUY_DESPERADO)
    return a == A_END


@njit(cache=True)
def any_pre_roll_option(state: np.void, seat: int) -> bool:
    """Some action other than END is legal at PRE_ROLL (auto-forced check, §17.3)."""
    count, _ = mark_pre_roll(state, seat, state["deck"][:0], np.bool_(True))
    return count > 1


@njit(cache=True, inline="always")
def _note(out: np.ndarray, a: int) -> None:
    if out.shape[0] > 0:  # an empty ``out`` only counts
        out[a] = 1


@njit(cache=True)
def mark_pre_roll(state: np.void, seat: int, out: np.ndarray, stop_at_first: bool) -> tuple:
    """Mark every action ``pre_roll_legal`` allows, in id order; return (count, A_END), END being the last marked.

    The fast form of ``for a: if pre_roll_legal(state, seat, a)`` (a test checks they
    agree): a range is skipped when a condition shared by all its actions fails,
    and dynamite is tried on non-city spaces only. END is always legal and
    counted; with ``stop_at_first`` the scan ends at the first other legal action.
    """
    count = 0
    if (state["dynamite_bought"][seat] < DYNAMITE_PER_TURN and state["cash"][seat] >= state["dynamite_price"]
            and state["dynamite_supply"] > 0):
        for x in range(FIRST_JUNCTION, N_SPACES):  # dynamite is never placed in a city (§11.1)
            if can_place_dynamite(state, x):
                _note(out, A_SPACE + x)
                count += 1
                if stop_at_first:
                    return count + 1, A_END
    for t in range(MAX_TRAINS):
        if state["train_exists"][seat, t] and IS_CITY[np.int64(state["train_pos"][seat, t])]:
            for g in range(N_GOODS):
                if buy_good_legal(state, seat, t, g):
                    _note(out, A_BUY_GOOD + N_GOODS * t + g)
                    count += 1
    for t in range(MAX_TRAINS):
        if load_legal(state, seat, t):
            _note(out, A_LOAD_PASSENGERS + t)
            count += 1
    if count > 0 and stop_at_first:
        return count + 1, A_END
    for base in (A_BUY_STATION, A_BUY_SMALL_TRAIN, A_BUY_LARGE_TRAIN):
        if state["cash"][seat] >= _CHEAPEST_PURCHASE:
            for c in range(N_CITIES):
                if pre_roll_legal(state, seat, base + c):
                    _note(out, base + c)
                    count += 1
    for a in range(A_UPGRADE_TRAIN, A_PLAY_CARD + N_CARDS):
        if a >= A_PLAY_CARD and state["card_holder"][a - A_PLAY_CARD] != seat:
            continue
        if pre_roll_legal(state, seat, a):
            _note(out, a)
            count += 1
    if state["alt_extra_gang"]:
        for c in range(N_CITIES):
            if hire_legal(state, seat, c):
                _note(out, A_BUY_DESPERADO + c)
                count += 1
    _note(out, A_END)
    return count + 1, A_END


@njit(cache=True)
def apply_pre_roll(state: np.void, seat: int, a: int) -> None:
    """The effect of a buy, load, upgrade, dynamite or hire action (§6.3); cards are played by ``rules``."""
    if a < A_TRAIN:
        pay_bank(state, seat, np.int64(state["dynamite_price"]))
        state["dynamite_bought"][seat] += 1
        place_dynamite(state, a - A_SPACE)
        emit(state, EV_DYNAMITE_PLACED, EVERYONE, seat, a - A_SPACE, state["dynamite_price"], 0)
    elif a < A_LOAD_PASSENGERS:
        t = (a - A_BUY_GOOD) // N_GOODS
        g = (a - A_BUY_GOOD) % N_GOODS
        pay_bank(state, seat, np.int64(SELL_PRICE[np.int64(state["train_pos"][seat, t]), g]))
        emit(state, EV_CARGO_LOADED, EVERYONE, seat, t, g, SELL_PRICE[np.int64(state["train_pos"][seat, t]), g])
        state["train_cargo"][seat, t, empty_slot(state, seat, t)] = g
    elif a < A_BUY_STATION:
        t = a - A_LOAD_PASSENGERS
        zone = np.int64(CITY_ZONE[np.int64(state["train_pos"][seat, t])])
        state["train_cargo"][seat, t, empty_slot(state, seat, t)] = PASSENGER_BASE + zone
        emit(state, EV_CARGO_LOADED, EVERYONE, seat, t, PASSENGER_BASE + zone, 0)  # free (§4.4)
    elif a < A_BUY_SMALL_TRAIN:
        buy_station(state, seat, a - A_BUY_STATION, np.int64(PRICE_STATION))
    elif a < A_BUY_LARGE_TRAIN:
        pay_bank(state, seat, np.int64(PRICE_SMALL_TRAIN))
        emit(state, EV_TRAIN_BOUGHT, EVERYONE, seat, free_train_slot(state, seat), a - A_BUY_SMALL_TRAIN,
             PRICE_SMALL_TRAIN)
        place_train(state, seat, a - A_BUY_SMALL_TRAIN, np.int64(0))
    elif a < A_UPGRADE_TRAIN:
        pay_bank(state, seat, np.int64(PRICE_LARGE_TRAIN))
        emit(state, EV_TRAIN_BOUGHT, EVERYONE, seat, free_train_slot(state, seat), a - A_BUY_LARGE_TRAIN,
             PRICE_LARGE_TRAIN)
        place_train(state, seat, a - A_BUY_LARGE_TRAIN, np.int64(1))
        claim_competitions(state, seat, np.int64(T_RAILROAD_EXPO), np.int64(-1), np.int64(-1))
    elif a < A_PLAY_CARD:
        t = a - A_UPGRADE_TRAIN
        pay_bank(state, seat, np.int64(PRICE_UPGRADE))
        state["train_large"][seat, t] = 1
        emit(state, EV_TRAIN_UPGRADED, EVERYONE, seat, t, PRICE_UPGRADE, 0)
        claim_competitions(state, seat, np.int64(T_RAILROAD_EXPO), np.int64(-1), np.int64(-1))
    elif A_BUY_DESPERADO <= a < A_BUY_DESPERADO + N_CITIES:
        pay_bank(state, seat, np.int64(state["extra_gang_price"]))
        state["hire_used"][seat] = 1
        k = np.int64(state["n_desperados"][seat])
        state["desp_pos"][seat, k] = a - A_BUY_DESPERADO
        state["n_desperados"][seat] = k + 1
        emit(state, EV_DESPERADO_HIRED, EVERYONE, seat, k, a - A_BUY_DESPERADO, state["extra_gang_price"])


@njit(cache=True)
def buy_station(state: np.void, seat: int, c: int, price: int) -> None:
    """Pay and own station c; Land Boom competitions are claimed (§6.3, §13.4)."""
    pay_bank(state, seat, price)
    state["city_owner"][c] = seat
    emit(state, EV_STATION_BOUGHT, EVERYONE, seat, c, price, 0)
    claim_competitions(state, seat, np.int64(T_LAND_BOOM), np.int64(-1), np.int64(-1))
