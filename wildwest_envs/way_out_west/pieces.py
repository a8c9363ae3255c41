"""Counting helpers over the board of one record (spec §3, §8.1, §8.5, §8.8).

Small ``inline`` numba functions used by every rule module: town size, free
corrals and building spaces, counters a seat owns in a town, the cattle
frontier update and the stagecoach fares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import BUILDING_SPACES, CORRALS, JAIL, LAST_TOWN, N_BT, N_TOWNS, STAGECOACH, STAGECOACH_FARE
from .eventlog import EV_FARE_PAID, EV_FRONTIER_OPENED
from .state import NOBODY


@njit(cache=True, inline="always")
def town_size(state: np.void, t: int) -> int:
    """Town size: the number of B&T counters in town t, of any owner (§0.2)."""
    n = 0
    for k in range(N_BT):
        if state["bt_owner"][t, k] != NOBODY:
            n += 1
    return n


@njit(cache=True, inline="always")
def cattle_in_town(state: np.void, t: int) -> int:
    """Cattle counters of every seat in town t."""
    n = 0
    for p in range(state["num_players"]):
        n += state["cattle"][t, p]
    return n


@njit(cache=True, inline="always")
def free_corrals(state: np.void, t: int) -> int:
    """Corrals of town t not holding a cattle counter (§3)."""
    return np.int64(CORRALS[t]) - cattle_in_town(state, t)


@njit(cache=True, inline="always")
def free_spaces(state: np.void, t: int) -> int:
    """Building spaces of town t not holding a B&T counter (§3)."""
    return np.int64(BUILDING_SPACES[t]) - town_size(state, t)


@njit(cache=True, inline="always")
def owned_in_town(state: np.void, t: int, p: int) -> int:
    """B&T counters seat p owns in town t right now, however acquired (§8.5)."""
    n = 0
    for k in range(N_BT):
        if state["bt_owner"][t, k] == p:
            n += 1
    return n


@njit(cache=True, inline="always")
def cowboys_on_board(state: np.void, p: int) -> int:
    """Cowboys of seat p in all towns."""
    n = 0
    for t in range(N_TOWNS):
        n += state["cowboys"][t, p]
    return n


@njit(cache=True, inline="always")
def jail_owner(state: np.void, t: int) -> int:
    """Owner of the jail in town t (whose sheriff it is), NOBODY without a jail (§3, §9.3)."""
    return np.int64(state["bt_owner"][t, JAIL])


@njit(cache=True)
def update_frontier(state: np.void) -> None:
    """While the frontier town's corrals are all full, the next town opens; it never moves back (§8.1)."""
    while state["frontier"] < LAST_TOWN and free_corrals(state, np.int64(state["frontier"])) == 0:
        state["frontier"] += 1
        emit(state, EV_FRONTIER_OPENED, EVERYONE, state["frontier"], 0, 0, 0)


@njit(cache=True)
def pay_stagecoach_fares(state: np.void, t: int, mover: int, n: int) -> None:
    """n of mover's cowboys arrive in or leave town t: another player's stagecoach there earns $1 each (§8.8)."""
    owner = np.int64(state["bt_owner"][t, STAGECOACH])
    if owner != NOBODY and owner != mover and n > 0:
        fare = np.int64(STAGECOACH_FARE) * n
        state["cash"][owner] += fare
        state["bank_out"] += fare
        emit(state, EV_FARE_PAID, EVERYONE, owner, mover, t, fare)


@njit(cache=True, inline="always")
def pay_bank(state: np.void, p: int, amount: int) -> None:
    """Seat p pays ``amount`` dollars to the bank (prices, bids)."""
    state["cash"][p] -= amount
    state["bank_in"] += amount
