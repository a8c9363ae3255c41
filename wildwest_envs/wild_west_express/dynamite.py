"""Dynamite: placement legality, explosions and removal (spec §11).

Decisions where the spec leaves the implementation open:

* The group check of §11.1 walks the connected dynamite spaces from the
  candidate space, up to 3 steps (enough to decide "at most 3"). Dynamite
  never lies in a city, and on this board the non-city spaces form a forest
  (no route joins two junctions; a data test checks it), so a walk that never
  steps back counts every group space exactly once. (Loops, not recursion:
  numba's on-disk cache crashed on recursive kernels.)
* An explosion sets ``wait = 1`` (§11.2 "gets wait = 1"), not ``wait + 1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import CARGO_EMPTY, DYNAMITE_MAX_GROUP, DYNAMITE_SUPPLY, IS_CITY, MAX_DEGREE, N_CARGO, N_SHERIFFS, N_SPACES, NEIGHBOURS
from .eventlog import (DELAYED_BY_DYNAMITE, EV_CARGO_LOST, EV_DYNAMITE_EXPLODED, EV_TRAIN_DELAYED, LOST_EXPLOSION,
                       REMOVED_BY_ARMY_ENGINEERS, emit_dynamite_removed)
from .pieces import is_passenger


@njit(cache=True)
def group_size_if_placed(state: np.void, s: int) -> int:
    """Size of the dynamite group that would contain s after placing a token there, counted up to 3 steps away (§11.1).

    Nodes farther than 3 steps only exist in groups of 5 or more, and the
    nodes within 3 steps already number more than 3 then, so the count is
    exact whenever it matters (<= 3) and above 3 otherwise. The walk never
    steps back, which counts each node once on the forest of non-city spaces.
    """
    n = 1
    for i in range(MAX_DEGREE):
        a = np.int64(NEIGHBOURS[s, i])
        if a < 0 or not state["dynamite"][a]:
            continue
        n += 1
        for j in range(MAX_DEGREE):
            b = np.int64(NEIGHBOURS[a, j])
            if b < 0 or b == s or not state["dynamite"][b]:
                continue
            n += 1
            for k in range(MAX_DEGREE):
                c = np.int64(NEIGHBOURS[b, k])
                if c >= 0 and c != a and state["dynamite"][c]:
                    n += 1
    return n


@njit(cache=True, inline="always")
def has_sheriff(state: np.void, s: int) -> bool:
    """A sheriff stands on space s."""
    for k in range(N_SHERIFFS):
        if state["sheriff_pos"][k] == s:
            return True
    return False


@njit(cache=True)
def can_place_dynamite(state: np.void, s: int) -> bool:
    """A token from the supply may go on s: not a city, no dynamite, no sheriff, group <= 3 (§11.1)."""
    if state["dynamite_supply"] <= 0 or IS_CITY[s] or state["dynamite"][s] or has_sheriff(state, s):
        return False
    return group_size_if_placed(state, s) <= DYNAMITE_MAX_GROUP


@njit(cache=True)
def any_dynamite_space(state: np.void) -> bool:
    """Some space may take a dynamite token now (§13.5 Crate of Dynamite playability)."""
    for s in range(N_SPACES):
        if can_place_dynamite(state, s):
            return True
    return False


@njit(cache=True, inline="always")
def any_dynamite(state: np.void) -> bool:
    """Some dynamite lies on the board (§13.5 Track Crew playability)."""
    return state["dynamite_supply"] < DYNAMITE_SUPPLY  # tokens are conserved: board + supply = 18


@njit(cache=True, inline="always")
def place_dynamite(state: np.void, s: int) -> None:
    """A token from the supply goes on s (§11.1)."""
    state["dynamite"][s] = 1
    state["dynamite_supply"] -= 1


@njit(cache=True, inline="always")
def remove_dynamite(state: np.void, s: int) -> None:
    """The token on s (if any) returns to the supply (§11.3)."""
    if state["dynamite"][s]:
        state["dynamite"][s] = 0
        state["dynamite_supply"] += 1


@njit(cache=True)
def remove_all_dynamite(state: np.void) -> None:
    """Every token returns to the supply (§13.5 Army Engineers)."""
    for s in range(N_SPACES):
        emit_dynamite_removed(state, s, np.int64(REMOVED_BY_ARMY_ENGINEERS))
        remove_dynamite(state, s)


@njit(cache=True)
def explode(state: np.void, seat: int, t: int, s: int) -> None:
    """The train landing on dynamite: token to the supply, passengers lost (goods too under alt_dynamite), wait 1 (§11.2, §11.4)."""
    emit(state, EV_DYNAMITE_EXPLODED, EVERYONE, seat, t, s, 0)
    remove_dynamite(state, s)
    for j in range(N_CARGO):
        code = state["train_cargo"][seat, t, j]
        if code != CARGO_EMPTY and (is_passenger(code) or state["alt_dynamite"]):
            emit(state, EV_CARGO_LOST, EVERYONE, seat, t, code, LOST_EXPLOSION)
            state["train_cargo"][seat, t, j] = CARGO_EMPTY
    state["train_wait"][seat, t] = 1
    emit(state, EV_TRAIN_DELAYED, EVERYONE, seat, t, 1, DELAYED_BY_DYNAMITE)
