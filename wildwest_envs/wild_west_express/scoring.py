"""Victory points, the victory check and tie-breaks (spec §14).

``scores`` gives §14.1 VP per seat; ``tiebreak`` gives cash (§14.3: the
qualifying player with most VP wins, ties go to more cash, then the win is
shared). Under ``cap_scoring = "draw"`` a capped game is a draw: the field
``capped`` and ``cap_scoring`` say so, and the environment layer gives every
player 0 (§14.5); the kernels still report VP and cash.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .data import (CASH_UNIT, CASH_VP_THRESHOLD, MAX_PLAYERS, VP_LARGE_TRAIN, VP_PER_CASH_UNIT, VP_SMALL_TRAIN,
                   VP_STATION)
from .pieces import n_stations, n_trains


@njit(cache=True)
def victory_points(state: np.void, seat: int) -> int:
    """VP = small trains + 2 large + stations + 2 per full $1200 (or 2 if cash >= $1200 under "threshold") (§14.1)."""
    cash = np.int64(state["cash"][seat])
    if state["cash_vp_mode"] == CASH_VP_THRESHOLD:
        cash_vp = VP_PER_CASH_UNIT if cash >= CASH_UNIT else 0
    else:
        cash_vp = VP_PER_CASH_UNIT * (cash // CASH_UNIT)
    return (VP_SMALL_TRAIN * n_trains(state, seat, np.int64(0)) + VP_LARGE_TRAIN * n_trains(state, seat, np.int64(1))
            + VP_STATION * n_stations(state, seat) + cash_vp)


@njit(cache=True)
def target_reached(state: np.void) -> bool:
    """Some player has at least the victory target (§14.3)."""
    for p in range(np.int64(state["num_players"])):
        if victory_points(state, p) >= state["victory_target"]:
            return True
    return False


@njit(cache=True)
def score_seats(state: np.void, out_row: np.ndarray) -> None:
    """VP per seat, 0 for absent seats (§14.1)."""
    for p in range(MAX_PLAYERS):
        out_row[p] = victory_points(state, p) if p < state["num_players"] else 0


@njit(cache=True)
def tiebreak_seats(state: np.void, out_row: np.ndarray) -> None:
    """Cash per seat (higher is better), 0 for absent seats (§14.3)."""
    for p in range(MAX_PLAYERS):
        out_row[p] = state["cash"][p] if p < state["num_players"] else 0
