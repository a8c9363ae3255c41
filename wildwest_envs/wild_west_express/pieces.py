"""Small queries and updates of the pieces of one record: trains, cargo, stations, flags (spec §2.1, §4.1).

Every rule module uses these; they hold no rule of their own beyond the
counting rules of §2.1 (piece limits) and §4.1 (cargo slots).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .data import (CARGO_EMPTY, LIMIT_DESPERADOS, LIMIT_LARGE, LIMIT_SMALL, LIMIT_STATIONS, MAX_DESPERADOS,
                   MAX_TRAINS, N_CARGO, N_CITIES, PASSENGER_BASE)
from .state import NOBODY


# ---- money (§0.2): the bank is unlimited; every payment to or from it is booked in ``bank_paid`` -------------------
@njit(cache=True, inline="always")
def bank_pays(state: np.void, seat: int, amount: int) -> None:
    """The bank pays ``amount`` dollars to ``seat`` (sales, fares, loot, subsidies, bonuses, dividends)."""
    state["cash"][seat] += amount
    state["bank_paid"] += amount


@njit(cache=True, inline="always")
def pay_bank(state: np.void, seat: int, amount: int) -> None:
    """``seat`` pays ``amount`` dollars to the bank (purchases, taxes); the caller checked the cash."""
    state["cash"][seat] -= amount
    state["bank_paid"] -= amount


@njit(cache=True, inline="always")
def n_slots(state: np.void, seat: int, t: int) -> int:
    """Cargo slots of a train: 1 small, 2 large (§4.1)."""
    return 2 if state["train_large"][seat, t] else 1


@njit(cache=True, inline="always")
def n_tokens(state: np.void, seat: int, t: int) -> int:
    """Goods and passenger tokens on a train."""
    n = 0
    for j in range(N_CARGO):
        if state["train_cargo"][seat, t, j] != CARGO_EMPTY:
            n += 1
    return n


@njit(cache=True, inline="always")
def empty_slot(state: np.void, seat: int, t: int) -> int:
    """The lowest empty cargo slot of a train, or -1 when it is full (§6.3)."""
    for j in range(n_slots(state, seat, t)):
        if state["train_cargo"][seat, t, j] == CARGO_EMPTY:
            return j
    return -1


@njit(cache=True, inline="always")
def is_passenger(code: int) -> bool:
    """A cargo code of a passenger token (§4.4)."""
    return code >= PASSENGER_BASE


@njit(cache=True, inline="always")
def n_trains(state: np.void, seat: int, large: int) -> int:
    """Trains of one size (large = 1 or 0) of a seat in play; large = -1 counts both."""
    n = 0
    for t in range(MAX_TRAINS):
        if state["train_exists"][seat, t] and (large < 0 or state["train_large"][seat, t] == large):
            n += 1
    return n


@njit(cache=True, inline="always")
def free_train_slot(state: np.void, seat: int) -> int:
    """The lowest unused train slot, or -1 with 6 trains (§0.2)."""
    for t in range(MAX_TRAINS):
        if not state["train_exists"][seat, t]:
            return t
    return -1


@njit(cache=True, inline="always")
def n_stations(state: np.void, seat: int) -> int:
    """Stations the seat owns."""
    n = 0
    for c in range(N_CITIES):
        if state["city_owner"][c] == seat:
            n += 1
    return n


@njit(cache=True, inline="always")
def has_free_flag(state: np.void, seat: int) -> bool:
    """Fewer than 6 stations with component limits on; always true with them off (§2.1)."""
    return (not state["component_limits"]) or n_stations(state, seat) < LIMIT_STATIONS


@njit(cache=True, inline="always")
def has_free_small(state: np.void, seat: int) -> bool:
    """A free small-train piece: fewer than 4 small trains (limits on) (§2.1)."""
    return (not state["component_limits"]) or n_trains(state, seat, np.int64(0)) < LIMIT_SMALL


@njit(cache=True, inline="always")
def has_free_large(state: np.void, seat: int) -> bool:
    """A free large-train piece: fewer than 2 large trains (limits on) (§2.1)."""
    return (not state["component_limits"]) or n_trains(state, seat, np.int64(1)) < LIMIT_LARGE


@njit(cache=True, inline="always")
def desperado_cap(state: np.void) -> int:
    """Most desperados a player may have: 2 with component limits, 3 without (§15)."""
    return LIMIT_DESPERADOS if state["component_limits"] else MAX_DESPERADOS


@njit(cache=True, inline="always")
def set_train(state: np.void, seat: int, t: int, exists: int, large: int, space: int) -> None:
    """Train slot t of ``seat``: ``exists`` and ``large`` (0/1) at ``space``, free direction (-1), no cargo, no
    wait, debt or creditor, not moved, not armed (§6.3)."""
    state["train_exists"][seat, t] = exists
    state["train_large"][seat, t] = large
    state["train_pos"][seat, t] = space
    state["train_from"][seat, t] = -1
    for j in range(N_CARGO):
        state["train_cargo"][seat, t, j] = CARGO_EMPTY
    state["train_wait"][seat, t] = 0
    state["train_debt"][seat, t] = 0
    state["train_creditor"][seat, t] = NOBODY
    state["train_moved"][seat, t] = 0
    state["train_armed"][seat, t] = 0


@njit(cache=True)
def place_train(state: np.void, seat: int, city: int, large: int) -> int:
    """A new empty train in the lowest free slot, in ``city``, free direction, not yet moved (§6.3)."""
    t = free_train_slot(state, seat)
    set_train(state, seat, t, np.int64(1), large, city)
    return t


@njit(cache=True, inline="always")
def remove_passengers(state: np.void, seat: int, t: int) -> None:
    """Every passenger token leaves the train without fare (§11.2, §13.5 Quarantine)."""
    for j in range(N_CARGO):
        if is_passenger(state["train_cargo"][seat, t, j]):
            state["train_cargo"][seat, t, j] = CARGO_EMPTY


@njit(cache=True, inline="always")
def clear_cargo(state: np.void, seat: int, t: int) -> None:
    """Every token leaves the train (robbery §10.3)."""
    for j in range(N_CARGO):
        state["train_cargo"][seat, t, j] = CARGO_EMPTY
