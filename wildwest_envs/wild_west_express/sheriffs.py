"""Sheriffs: which sheriff moves and where it may go (spec §12).

Decisions where the spec is open: the sheriff procedure is the same for a
star landing and for Friend of the Law; ``END`` at SHERIFF_SPACE declines
even after a sheriff was chosen at SHERIFF_PIECE (the card is still spent).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import N_SHERIFFS, NO_SPACE
from .dynamite import remove_dynamite
from .eventlog import EV_SHERIFF_MOVED, REMOVED_BY_SHERIFF, emit_dynamite_removed
from .state import NOBODY


@njit(cache=True, inline="always")
def off_board_sheriff(state: np.void) -> int:
    """The lowest-indexed sheriff off the board, NOBODY if both are placed (§12 item 2)."""
    for k in range(N_SHERIFFS):
        if state["sheriff_pos"][k] == NO_SPACE:
            return k
    return NOBODY


@njit(cache=True, inline="always")
def sheriff_space_legal(state: np.void, k: int, s: int) -> bool:
    """Any space except the other sheriff's and this sheriff's own (§12 item 3)."""
    return state["sheriff_pos"][k] != s and state["sheriff_pos"][1 - k] != s


@njit(cache=True, inline="always")
def place_sheriff(state: np.void, k: int, s: int) -> None:
    """Sheriff k goes to s; dynamite there returns to the supply (§12 item 4)."""
    emit(state, EV_SHERIFF_MOVED, EVERYONE, state["active"], k, state["sheriff_pos"][k], s)
    state["sheriff_pos"][k] = s
    emit_dynamite_removed(state, s, np.int64(REMOVED_BY_SHERIFF))
    remove_dynamite(state, s)
