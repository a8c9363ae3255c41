"""Desperados: their moves, rehiring, and the duels they fight with passing trains (spec §9, §10).

Decisions where the spec leaves the implementation open:

* Legal desperado paths (§9.2) are found by a depth-first search over
  (space, came_from, steps left) that never enters a sheriff's space. When no
  sheriff stands within the remaining steps, every first step has a completion
  (no space of this board has fewer than 2 neighbours; a data test checks it),
  so the search is skipped.
* Rehiring (§9.3): the nearest own station is found by the same search, with
  ``L = 0`` when the desperado stands in an own station. With one nearest
  station the targets are the other own stations; with a tie, every own
  station.
* Duels (§10.2) are rolled in the order of the spec (owners clockwise after
  the active player, then desperado index; train die first) and a 64-bit mask
  records who won, so no array is allocated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below
from .data import (DIE_SIDES, DISTANCE, IS_CITY, LOOT_PER_TOKEN, MAX_DEGREE, MAX_DESPERADOS, N_CITIES,
                   N_SHERIFFS, NEIGHBOURS, NO_SPACE)
from .dynamite import has_sheriff
from .eventlog import EV_DUEL, EV_ROBBED, LOST_ROBBERY, NO_DIE, emit_cargo_lost
from .pieces import bank_pays, clear_cargo, n_tokens

_FAR = 1000  # "unreachable" path length


# ---- paths (§9.2) ----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _sheriff_within(state: np.void, x: int, r: int) -> bool:
    """A sheriff stands within r steps of x, x itself excluded (it can only block a step)."""
    for k in range(N_SHERIFFS):
        s = np.int64(state["sheriff_pos"][k])
        if s >= 0 and s != x and DISTANCE[x, s] <= r:
            return True
    return False


_BITS = np.int64(3)  # bits per level of the choice code of _walk_search
_SEVEN = np.int64(7)


@njit(cache=True, inline="always")
def _replay(x: int, y: int, code: int, depth: int) -> tuple:
    """(space, came_from) after following the neighbour indices stored in ``code`` for ``depth`` steps."""
    for level in range(depth):
        i = (code >> (_BITS * np.int64(level))) & _SEVEN
        n = np.int64(NEIGHBOURS[x, i])
        y = x
        x = n
    return x, y


@njit(cache=True)
def _walk_search(state: np.void, x0: int, y0: int, r: int, c: int) -> int:
    """Depth-first search over legal desperado walks from x0 (came from y0) of at most r steps (§9.2).

    With ``c < 0``: 1 if some walk has exactly r steps, else 0. With a city
    ``c``: the fewest steps of a walk reaching c, or _FAR. The path is kept as
    3-bit neighbour indices in one integer and replayed, so nothing is
    allocated (numba's cache crashed on recursive kernels).
    """
    best = np.int64(_FAR)
    depth = np.int64(0)
    start = np.int64(0)
    code = np.int64(0)
    while True:
        x, y = _replay(x0, y0, code, depth)
        descend = True
        if c >= 0 and x == c:
            best = min(best, depth)
            descend = False
        elif depth == r:
            if c < 0:
                return 1
            descend = False
        if descend:
            chosen = -1
            for i in range(start, MAX_DEGREE):
                n = np.int64(NEIGHBOURS[x, i])
                if n >= 0 and n != y and not has_sheriff(state, n):
                    chosen = i
                    break
            if chosen >= 0:
                code |= np.int64(chosen) << (_BITS * np.int64(depth))
                depth += 1
                start = np.int64(0)
                continue
        # backtrack to the next untried neighbour of the parent
        if depth == 0:
            break
        depth -= 1
        shift = _BITS * np.int64(depth)
        start = ((code >> shift) & _SEVEN) + 1
        code &= ~(_SEVEN << shift)
    return best if c >= 0 else 0


@njit(cache=True)
def path_exists(state: np.void, x: int, y: int, r: int) -> bool:
    """A legal desperado path of exactly r steps leaves x (never back to y, never onto a sheriff) (§9.2)."""
    if r == 0:
        return True
    if not _sheriff_within(state, x, r):
        return True
    return _walk_search(state, x, y, r, np.int64(-1)) == 1


@njit(cache=True, inline="always")
def step_legal(state: np.void, x: int, y: int, n: int, r: int) -> bool:
    """Stepping from x to neighbour n keeps a legal path of the r steps left (§9.2, §17.2 DESPERADO_STEP)."""
    return n != y and not has_sheriff(state, n) and path_exists(state, n, x, r - 1)


# ---- rehiring (§9.3) -------------------------------------------------------------------------------------
@njit(cache=True)
def station_steps(state: np.void, x: int, c: int, d: int) -> int:
    """Length of the shortest legal desperado path from x to city c within d steps, _FAR if none (§9.3)."""
    if DISTANCE[x, c] > d:
        return _FAR
    if not _sheriff_within(state, x, d):
        return np.int64(DISTANCE[x, c])
    return _walk_search(state, x, np.int64(NO_SPACE), d, c)


@njit(cache=True)
def nearest_stations(state: np.void, seat: int, x: int, d: int) -> tuple:
    """(least L, number of own stations at L, the lowest such city); L = _FAR if none within d (§9.3)."""
    best = _FAR
    count = 0
    city = -1
    for c in range(N_CITIES):
        if state["city_owner"][c] == seat:
            steps = station_steps(state, x, c, d)
            if steps < best:
                best, count, city = steps, 1, c
            elif steps == best and steps < _FAR:
                count += 1
    return best, count, city


@njit(cache=True)
def can_rehire(state: np.void, seat: int, x: int, d: int) -> bool:
    """REHIRE is legal: an own station lies on a legal path of length 0..d (§9.3)."""
    best, _, _ = nearest_stations(state, seat, x, d)
    return best < _FAR


# ---- duels (§10) -------------------------------------------------------------------------------------------
@njit(cache=True)
def resolve_duels(state: np.void, seat: int, t: int, x: int) -> None:
    """A train of ``seat`` entering non-city x duels every opponent desperado there; any win robs it (§10)."""
    if IS_CITY[x] or n_tokens(state, seat, t) == 0:
        return
    n = np.int64(state["num_players"])
    armed = state["train_armed"][seat, t] != 0
    won = np.int64(0)
    n_duels = 0
    n_won = 0
    for i in range(1, n + 1):  # desperado owners clockwise after the active player (§10.2)
        p = (np.int64(state["active"]) + i) % n
        if p == seat:
            continue
        for k in range(MAX_DESPERADOS):
            if state["desp_pos"][p, k] == x:
                if not armed:
                    train_die = draw_below(state, np.int64(DIE_SIDES))
                    desp_die = draw_below(state, np.int64(DIE_SIDES))
                    emit(state, EV_DUEL, EVERYONE, p, k, train_die + 1, desp_die + 1)  # faces 1..6
                    if desp_die > train_die:  # strictly higher wins, ties to the train
                        won |= np.int64(1) << np.int64(n_duels)
                        n_won += 1
                else:
                    emit(state, EV_DUEL, EVERYONE, p, k, NO_DIE, NO_DIE)  # Armed Guards: no dice (§10.2)
                n_duels += 1
    if n_won == 0:
        return
    share = LOOT_PER_TOKEN * n_tokens(state, seat, t) // n_won  # remainder stays in the bank (§10.3)
    j = 0
    for i in range(1, n + 1):
        p = (np.int64(state["active"]) + i) % n
        if p == seat:
            continue
        for k in range(MAX_DESPERADOS):
            if state["desp_pos"][p, k] == x:
                if (won >> np.int64(j)) & 1:
                    bank_pays(state, p, share)
                    emit(state, EV_ROBBED, EVERYONE, p, seat, t, share)
                j += 1
    emit_cargo_lost(state, seat, t, np.int64(LOST_ROBBERY), np.bool_(False))
    clear_cargo(state, seat, t)
