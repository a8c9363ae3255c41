"""Train movement: the move procedure of §7.4 step by step, stopping, holding (spec §7).

The move record lives in the ``move_*`` fields (§17.5 level 2). A step is a
decision only when the train has a choice (§17.3); ``rules`` takes forced
steps itself.

Decisions where the spec leaves the implementation open:

* The TRAIN_STEP options are enumerated in neighbour order (sorted space ids).
* A train that is still on its first step of a Backtrack move with free
  direction may take any neighbour (§13.5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (BUY_PRICE, CARGO_EMPTY, FREE, IS_CITY, MAX_DEGREE, N_CARGO, NEIGHBOURS)
from .desperados import resolve_duels
from .eventlog import EV_MOVE_STARTED, EV_TRAIN_MOVED
from .pieces import empty_slot, is_passenger, n_tokens


@njit(cache=True, inline="always")
def stop_allowed(state: np.void, seat: int, t: int, c: int) -> bool:
    """STOP test of §7.3: an empty slot, a passenger, or a good that city c buys."""
    if empty_slot(state, seat, t) >= 0:
        return True
    for j in range(N_CARGO):
        code = np.int64(state["train_cargo"][seat, t, j])
        if code != CARGO_EMPTY and (is_passenger(code) or BUY_PRICE[c, code] > 0):
            return True
    return False


@njit(cache=True, inline="always")
def next_space_legal(state: np.void, seat: int, t: int, o: int) -> bool:
    """o is a legal next space of the moving train (§7.2, §7.4; Backtrack's first step §13.5)."""
    x = np.int64(state["train_pos"][seat, t])
    y = np.int64(state["train_from"][seat, t])
    if state["move_first"] and state["move_backtrack"] and y != FREE:
        return o == y
    if o == y:
        return False
    for i in range(MAX_DEGREE):
        if NEIGHBOURS[x, i] == o:
            return True
    return False


@njit(cache=True, inline="always")
def can_stop(state: np.void, seat: int, t: int) -> bool:
    """STOP is legal: a city entered during this move, and §7.3 allows it."""
    x = np.int64(state["train_pos"][seat, t])
    return (not state["move_first"]) and IS_CITY[x] and stop_allowed(state, seat, t, x)


@njit(cache=True, inline="always")
def can_hold(state: np.void, seat: int, t: int) -> bool:
    """HOLD is legal: first step of a dice move, an empty train in a city, option on (§7.1)."""
    return (state["move_first"] and state["move_dice"] and state["allow_hold"]
            and IS_CITY[np.int64(state["train_pos"][seat, t])] and n_tokens(state, seat, t) == 0)


@njit(cache=True, inline="always")
def start_move(state: np.void, t: int, steps: int, dice: bool, backtrack: bool, card: int, ret: int) -> None:
    """Open the move record for train t of the active player (§7.4)."""
    state["move_active"] = True
    state["move_train"] = t
    state["move_steps"] = steps
    state["move_first"] = True
    state["move_dice"] = dice
    state["move_backtrack"] = backtrack
    state["move_card"] = card
    state["move_return"] = ret
    emit(state, EV_MOVE_STARTED, EVERYONE, state["active"], t, steps, card)


@njit(cache=True)
def take_step(state: np.void, seat: int, t: int, o: int) -> None:
    """One step to o: position and came_from are stored at once; duels on entering a non-city space (§7.4, §7.6)."""
    emit(state, EV_TRAIN_MOVED, EVERYONE, seat, t, state["train_pos"][seat, t], o)
    state["train_from"][seat, t] = state["train_pos"][seat, t]
    state["train_pos"][seat, t] = o
    state["move_steps"] -= 1
    state["move_first"] = False
    resolve_duels(state, seat, t, o)
