"""Phase B actions other than the gunfight: executability, legal choices and effects (spec §7.2, §8.1-§8.6, §8.8).

Every predicate here is the single place its rule is decided; ``rules`` builds
the legal mask from them and the effects assume the choices were legal (money
is paid and counters placed when the last sub-decision is made, §13.2).

Decisions where the spec is silent: none beyond §8 (a hire of two cowboys
into the same town pays that town's stagecoach $2, one fare per cowboy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (ACT_BUILD, ACT_BUY_CATTLE, ACT_FARMER, ACT_GUNFIGHT, ACT_HIRE, ACT_MOVE_CATTLE,
                   ACT_MOVE_COWBOYS, BOX_ACTION, BOX_BT, BOX_MIN_PLAYERS, BT_PRICE, MAX_BUILT_PER_TOWN, N_TOWNS,
                   PRICE_CATTLE, PRICE_COWBOY)
from .eventlog import (EV_BUILT, EV_CATTLE_BOUGHT, EV_CATTLE_MOVED, EV_COWBOY_HIRED, EV_COWBOYS_MOVED,
                       EV_FARMER_PLACED)
from .gunfight import can_fight
from .pieces import (cowboys_on_board, free_corrals, free_spaces, owned_in_town, pay_bank, pay_stagecoach_fares,
                     update_frontier)
from .state import NO_TOWN, NOBODY


# ---- CHOOSE_ACTION (§7.2) -------------------------------------------------------------------------
@njit(cache=True, inline="always")
def box_legal(state: np.void, p: int, b: int) -> bool:
    """BOX_b is legal iff the box is free, active at this player count and its action executable (§7.2)."""
    if state["box_user"][b] != NOBODY or state["num_players"] < BOX_MIN_PLAYERS[b]:
        return False
    act = np.int64(BOX_ACTION[b])
    if act == ACT_BUY_CATTLE:
        return can_buy_cattle(state, p)
    if act == ACT_HIRE:
        return state["cash"][p] >= PRICE_COWBOY and state["cowboy_supply"][p] >= 1
    if act == ACT_MOVE_COWBOYS:
        return cowboys_on_board(state, p) >= 1
    if act == ACT_MOVE_CATTLE:
        return can_move_cattle(state, p)
    if act == ACT_BUILD:
        return can_build(state, p, np.int64(BOX_BT[b]))
    if act == ACT_FARMER:
        return state["farmer_used"][p] == 0
    if act == ACT_GUNFIGHT:
        return can_fight(state, p)
    return False


# ---- buy cattle (§8.1) --------------------------------------------------------------------------------
@njit(cache=True)
def is_cattle_town(state: np.void, p: int, t: int) -> bool:
    """A legal cattle town: open (t <= frontier), with a cowboy of p and a free corral (§8.1)."""
    return t <= state["frontier"] and state["cowboys"][t, p] >= 1 and free_corrals(state, t) >= 1


@njit(cache=True, inline="always")
def can_buy_cattle(state: np.void, p: int) -> bool:
    """Buy cattle is executable: cash >= $1, a cattle counter in supply and a legal cattle town (§7.2)."""
    if state["cash"][p] < PRICE_CATTLE or state["cattle_supply"][p] < 1:
        return False
    for t in range(N_TOWNS):
        if is_cattle_town(state, p, t):
            return True
    return False


@njit(cache=True, inline="always")
def buy_two_legal(state: np.void, p: int, t: int) -> bool:
    """COUNT_2: two free corrals in t, two cattle in supply and $2 (§8.1)."""
    return free_corrals(state, t) >= 2 and state["cattle_supply"][p] >= 2 and state["cash"][p] >= 2 * PRICE_CATTLE


@njit(cache=True, inline="always")
def buy_cattle(state: np.void, p: int, t: int, n: int) -> None:
    """Pay $1 per counter and put n cattle of p into corrals of t; then the frontier update (§8.1)."""
    emit(state, EV_CATTLE_BOUGHT, EVERYONE, p, t, n, PRICE_CATTLE * n)
    pay_bank(state, p, PRICE_CATTLE * n)
    state["cattle"][t, p] += n
    state["cattle_supply"][p] -= n
    update_frontier(state)


# ---- hire cowboys (§8.2) -------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def second_hire_legal(state: np.void, p: int) -> bool:
    """A second cowboy (any town) needs $2 and two cowboys in supply (§8.2)."""
    return state["cash"][p] >= 2 * PRICE_COWBOY and state["cowboy_supply"][p] >= 2


@njit(cache=True, inline="always")
def hire_cowboys(state: np.void, p: int, t1: int, t2: int) -> None:
    """Pay $1 per cowboy and place one in t1 and, unless t2 is NO_TOWN, one in t2, with stagecoach fares (§8.2)."""
    for t in (t1, t2):
        if t != NO_TOWN:
            emit(state, EV_COWBOY_HIRED, EVERYONE, p, t, PRICE_COWBOY, 0)
            pay_bank(state, p, PRICE_COWBOY)
            state["cowboys"][t, p] += 1
            state["cowboy_supply"][p] -= 1
            pay_stagecoach_fares(state, t, p, np.int64(1))


# ---- move cowboys (§8.3) --------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def move_cowboys(state: np.void, p: int, f: int, d: int, n: int) -> None:
    """Move n of p's cowboys from f to d (no adjacency); stagecoaches in f and in d earn $n each (§8.3, §8.8)."""
    state["cowboys"][f, p] -= n
    state["cowboys"][d, p] += n
    emit(state, EV_COWBOYS_MOVED, EVERYONE, p, f, d, n)
    pay_stagecoach_fares(state, f, p, n)
    pay_stagecoach_fares(state, d, p, n)


# ---- move cattle (§8.4) ------------------------------------------------------------------------------------
@njit(cache=True)
def is_cattle_destination(state: np.void, p: int, f: int, d: int) -> bool:
    """d != f, open for cattle, with a cowboy of p and a free corral (§8.4)."""
    return d != f and is_cattle_town(state, p, d)


@njit(cache=True)
def is_cattle_source(state: np.void, p: int, f: int) -> bool:
    """p has cattle in f and they have a legal destination (§8.4)."""
    if state["cattle"][f, p] < 1:
        return False
    for d in range(N_TOWNS):
        if is_cattle_destination(state, p, f, d):
            return True
    return False


@njit(cache=True, inline="always")
def can_move_cattle(state: np.void, p: int) -> bool:
    """Move cattle is executable: some (from, to) pair is legal (§7.2)."""
    for f in range(N_TOWNS):
        if is_cattle_source(state, p, f):
            return True
    return False


@njit(cache=True, inline="always")
def move_two_cattle_legal(state: np.void, p: int, f: int, d: int) -> bool:
    """COUNT_2: two of p's cattle in f and two free corrals in d (§8.4)."""
    return state["cattle"][f, p] >= 2 and free_corrals(state, d) >= 2


@njit(cache=True, inline="always")
def move_cattle(state: np.void, p: int, f: int, d: int, n: int) -> None:
    """Move n of p's cattle from f to d; then the frontier update (§8.4)."""
    state["cattle"][f, p] -= n
    state["cattle"][d, p] += n
    emit(state, EV_CATTLE_MOVED, EVERYONE, p, f, d, n)
    update_frontier(state)


# ---- build (§8.5) -----------------------------------------------------------------------------------------
@njit(cache=True)
def is_build_town(state: np.void, p: int, k: int, t: int) -> bool:
    """A free space, no counter of type k yet, fewer than 2 counters of p there, supply and cash (§8.5)."""
    return (free_spaces(state, t) >= 1 and state["bt_owner"][t, k] == NOBODY
            and owned_in_town(state, t, p) < MAX_BUILT_PER_TOWN
            and state["bt_supply"][p, k] >= 1 and state["cash"][p] >= BT_PRICE[k])


@njit(cache=True, inline="always")
def can_build(state: np.void, p: int, k: int) -> bool:
    """Build k is executable: some town is a legal build town for k (§7.2)."""
    for t in range(N_TOWNS):
        if is_build_town(state, p, k, t):
            return True
    return False


@njit(cache=True)
def build(state: np.void, p: int, k: int, t: int) -> None:
    """Pay the price and put p's counter of type k into t; no cowboy needed (§8.5)."""
    emit(state, EV_BUILT, EVERYONE, p, k, t, BT_PRICE[k])
    pay_bank(state, p, np.int64(BT_PRICE[k]))
    state["bt_owner"][t, k] = p
    state["bt_supply"][p, k] -= 1


# ---- place farmer (§8.6) -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def place_farmer(state: np.void, p: int, t: int) -> None:
    """p's one farmer goes to town t and is neutral from now on (§8.6)."""
    state["farmers"][t] += 1
    state["farmer_used"][p] = 1
    emit(state, EV_FARMER_PLACED, EVERYONE, p, t, 0, 0)
