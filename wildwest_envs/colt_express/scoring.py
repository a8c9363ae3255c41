"""End of game and scoring (spec §9).

Scores can be computed at any time from the record; they are final once
``done`` is set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .data import BULLETS_PER_BANDIT, GUNSLINGER_BONUS, JEWEL_VALUE, N_PURSES, PURSE_ON_BANDIT, RANSOM_VALUE, \
    STRONGBOX_VALUE


@njit(cache=True)
def loot_value(state: np.void, bandit: int) -> int:
    """Purses (true values) + $500 per jewel + $1000 per strongbox + ransoms of one bandit (§9.1)."""
    total = np.int64(0)
    for i in range(N_PURSES):
        if state["purse_location"][i] == PURSE_ON_BANDIT + bandit:
            total += np.int64(state["purse_value"][i])
    total += JEWEL_VALUE * np.int64(state["jewels_held"][bandit])
    total += STRONGBOX_VALUE * np.int64(state["strongboxes_held"][bandit])
    total += RANSOM_VALUE * np.int64(state["ransoms"][bandit])
    return total


@njit(cache=True)
def score_seats(state: np.void, out_row: np.ndarray) -> None:
    """Score of each seat: its bandits' loot, + $1000 to every most-shots seat with 3-6 players (§9.2-§9.3)."""
    n = np.int64(state["num_players"])
    bps = np.int64(state["bandits_per_seat"])
    most_shots = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        most_shots = max(most_shots, BULLETS_PER_BANDIT - np.int64(state["bullets_left"][b]))
    for s in range(out_row.shape[0]):
        out_row[s] = 0
    for s in range(n):
        total = np.int64(0)
        for k in range(bps):
            total += loot_value(state, s * bps + k)
        if bps == 1 and BULLETS_PER_BANDIT - np.int64(state["bullets_left"][s]) == most_shots:
            total += GUNSLINGER_BONUS
        out_row[s] = total


@njit(cache=True)
def tiebreak_seats(state: np.void, out_row: np.ndarray) -> None:
    """Tie-break key of each seat, higher is better: minus the bullet cards its bandits received (§9.4, G23)."""
    n = np.int64(state["num_players"])
    bps = np.int64(state["bandits_per_seat"])
    for s in range(out_row.shape[0]):
        out_row[s] = 0
    for s in range(n):
        total = np.int64(0)
        for k in range(bps):
            total += np.int64(state["bullets_received"][s * bps + k])
        out_row[s] = -total
