"""Income (spec §10.2), victory points (§11.2, §11.3) and the winner's tie-breaks (§11.4).

All of it is computed on the current board; ``victory_points`` is also what the
observation shows as "VP if the game ended now" and what the renderers print.

VP categories (columns of ``vp_by_category``)::

    VP_BT 0        B&T counters: the size of their town each
    VP_CATTLE 1    cattle: (2 with a train in town else 1) - (1 with a farmer in town)
    VP_CONTROL 2   town control: town size to the strict leader of B&T + cattle counters
    VP_RICHEST 3   most money: 5, floor(5 / k) each for k tied players
    VP_WANTED 4    most Wanted counters (at least 1): 5, floor(5 / k) each

Decisions where the spec is silent: the richest bonus has no minimum (with
everybody at $0 everybody ties for it, §11.3 names a minimum only for Wanted).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (BANK, BANK_PER_COUNTER, CATTLE_INCOME, CATTLE_INCOME_FARMER, HOTEL, HOTEL_PER_COWBOY,
                   MAX_PLAYERS, N_BT, N_TOWNS, RICHEST_BONUS, STORE, STORE_PER_CATTLE, STORE_PER_FARMER, TRAIN,
                   TRAIN_MULTIPLIER, WANTED_BONUS)
from .eventlog import EV_INCOME_PAID
from .pieces import town_size
from .state import NOBODY

VP_BT, VP_CATTLE, VP_CONTROL, VP_RICHEST, VP_WANTED = range(5)
N_VP_CATEGORIES = 5
VP_CATEGORY_NAMES = ("buildings", "cattle", "control", "richest", "wanted")
TIEBREAK_CASH_FACTOR = 100  # tie-break key = cash * 100 + B&T counters on board (at most 18 < 100)


# ---- income (§10.2) -----------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def cattle_rate(state: np.void, t: int) -> int:
    """Income of one cattle counter in town t: $2, $1 with a farmer; doubled with a train (§10.2)."""
    rate = CATTLE_INCOME_FARMER if state["farmers"][t] >= 1 else CATTLE_INCOME
    if state["bt_owner"][t, TRAIN] != NOBODY:
        rate *= TRAIN_MULTIPLIER
    return rate


@njit(cache=True)
def income_of(state: np.void, p: int) -> int:
    """Income of seat p: cattle + banks ($2 x town size) + stores + hotels (§10.2)."""
    n = np.int64(state["num_players"])
    total = 0
    for t in range(N_TOWNS):
        total += np.int64(state["cattle"][t, p]) * cattle_rate(state, t)
        if state["bt_owner"][t, BANK] == p:
            total += BANK_PER_COUNTER * town_size(state, t)  # the bank counts itself (§16 #35)
        if state["bt_owner"][t, STORE] == p:
            others = 0
            for q in range(n):
                if q != p:
                    others += state["cattle"][t, q]
            total += STORE_PER_CATTLE * others + STORE_PER_FARMER * np.int64(state["farmers"][t])
        if state["bt_owner"][t, HOTEL] == p:
            others = 0
            for q in range(n):
                if q != p:
                    others += state["cowboys"][t, q]
            total += HOTEL_PER_COWBOY * others  # sheriffs are not cowboys
    return total


@njit(cache=True, inline="always")
def pay_income(state: np.void) -> None:
    """The bank pays every player his income, all computed on the same board (§10.2: income reads the board
    only, so paying one seat changes nobody's income)."""
    for p in range(np.int64(state["num_players"])):
        amount = income_of(state, p)
        state["cash"][p] += amount
        state["bank_out"] += amount
        emit(state, EV_INCOME_PAID, EVERYONE, p, amount, state["round"], 0)


# ---- victory points (§11.2, §11.3) ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def cattle_vp_rate(state: np.void, t: int) -> int:
    """VP of one cattle counter in town t: 2 with a train else 1, minus 1 with a farmer (§11.2)."""
    vp = 2 if state["bt_owner"][t, TRAIN] != NOBODY else 1
    if state["farmers"][t] >= 1:
        vp -= 1
    return vp


@njit(cache=True)
def vp_by_category(state: np.void, out: np.ndarray) -> None:
    """``out[p, c]`` = VP of seat p in category c (module docstring), 0 for absent seats (§11.2, §11.3)."""
    n = np.int64(state["num_players"])
    out[:, :] = 0
    counts = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for t in range(N_TOWNS):
        size = town_size(state, t)
        counts[:] = 0
        for k in range(N_BT):
            owner = np.int64(state["bt_owner"][t, k])
            if owner != NOBODY:
                out[owner, VP_BT] += size
                counts[owner] += 1
        rate = cattle_vp_rate(state, t)
        for p in range(n):
            out[p, VP_CATTLE] += np.int64(state["cattle"][t, p]) * rate
            counts[p] += state["cattle"][t, p]
        leader = _strict_leader(counts, n)
        if leader != NOBODY:
            out[leader, VP_CONTROL] += size
    _split_bonus(state["cash"], n, np.int64(0), np.int64(RICHEST_BONUS), out[:, VP_RICHEST])
    _split_bonus(state["wanted"], n, np.int64(1), np.int64(WANTED_BONUS), out[:, VP_WANTED])


@njit(cache=True, inline="always")
def _strict_leader(counts: np.ndarray, n: int) -> int:
    """The seat with strictly more than every other (and at least 1), NOBODY on a tie (§11.3)."""
    best, leader, tied = 0, NOBODY, False
    for p in range(n):
        if counts[p] > best:
            best, leader, tied = counts[p], p, False
        elif counts[p] == best and best > 0:
            tied = True
    return NOBODY if tied else leader


@njit(cache=True, inline="always")  # called with int32 and int8 rows
def _split_bonus(values: np.ndarray, n: int, minimum: int, bonus: int, out_column: np.ndarray) -> None:
    """The seats with the most (at least ``minimum``) get floor(bonus / k) each for k tied seats (§11.3)."""
    best = -1
    for p in range(n):
        if values[p] > best:
            best = np.int64(values[p])
    if best < minimum:
        return
    k = 0
    for p in range(n):
        if values[p] == best:
            k += 1
    for p in range(n):
        if values[p] == best:
            out_column[p] += bonus // k


@njit(cache=True, inline="always")
def victory_points(state: np.void, out: np.ndarray) -> None:
    """``out[p]`` = total VP of seat p (§11.3 formula), 0 for absent seats."""
    by_category = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), dtype=np.int64)
    vp_by_category(state, by_category)
    for p in range(MAX_PLAYERS):
        out[p] = by_category[p].sum()


@njit(cache=True, inline="always")
def bt_on_board(state: np.void, p: int) -> int:
    """B&T counters seat p has on the board (the second tie-break, §11.4)."""
    n = 0
    for t in range(N_TOWNS):
        for k in range(N_BT):
            if state["bt_owner"][t, k] == p:
                n += 1
    return n


@njit(cache=True)
def tiebreak_seats(state: np.void, out: np.ndarray) -> None:
    """Tie-break key of each seat: most money, then most B&T counters on the board (§11.4)."""
    for p in range(MAX_PLAYERS):
        out[p] = 0
    for p in range(np.int64(state["num_players"])):
        out[p] = np.int64(state["cash"][p]) * TIEBREAK_CASH_FACTOR + bt_on_board(state, p)
