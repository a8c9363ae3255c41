"""Setup of a Way Out West game and the setup cowboy placement (spec §4).

Decisions where the spec is silent:

* The start player is drawn from the record's generator before the die queue
  is filled, so preset dice (option ``preset_dice``) never decide it (§13.3);
  option ``start_player`` fixes it.
* ``round`` is 1 during setup (the round marker starts on round 1, §4 step 3).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import start_record
from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below
from .data import (DEC_SETUP_PLACE_COWBOY, MAX_PLAYERS, N_BT, N_CATTLE, N_COWBOYS, N_PER_BT_TYPE,
                   PHASE_SETUP, SIDE_NONE, START_COWBOYS, START_MONEY)
from .eventlog import EV_SETUP_COWBOY
from .state import NO_BOX, NO_TARGET, NO_TOWN, NOBODY, STEP_ATTACKER


@njit(cache=True, inline="always")
def setup_game(state: np.void, seed: np.uint64, num_players: int, num_rounds: int, start_player: int,
               dice: np.ndarray, auto_forced: bool, max_decisions: int) -> None:
    """Components, money, start player and turn order of a fresh game (§4 steps 1-3, 5), on a record that holds
    the empty values (``state.EMPTY_VALUES``, copied over it by the ``init`` kernel, ``core.engine``)."""
    n = np.int64(num_players)
    start_record(state, np.uint64(seed), n, max_decisions)
    state["num_rounds"] = num_rounds
    state["auto_forced"] = auto_forced
    state["round"] = 1
    _deal_components(state, n)
    first = np.int64(start_player) if start_player >= 0 else draw_below(state, n)  # §4 step 2 (chance)
    state["start_player"] = first
    for i in range(MAX_PLAYERS):
        state["turn_order"][i] = (first + i) % n if i < n else NOBODY
    for i in range(dice.shape[0]):  # preset dice fill the die queue after the start player is drawn (§13.3)
        state["forced"][i] = dice[i] - 1
    state["n_forced"] = dice.shape[0]
    state["setup_placed"] = 0
    state["phase"] = PHASE_SETUP
    state["decision"] = DEC_SETUP_PLACE_COWBOY
    state["current"] = state["turn_order"][0]


@njit(cache=True, inline="always")
def _deal_components(state: np.void, n: int) -> None:
    """Each seat takes 9 cowboys, 9 cattle, 3 of each B&T type, a farmer and its starting money (§4 step 1; the
    board is empty, ``state.EMPTY_VALUES``: no piece on it, only San Antonia open for cattle, §4 step 5)."""
    for p in range(n):
        state["cash"][p] = START_MONEY[n]
        state["cowboy_supply"][p] = N_COWBOYS
        state["cattle_supply"][p] = N_CATTLE
        for k in range(N_BT):
            state["bt_supply"][p, k] = N_PER_BT_TYPE


@njit(cache=True, inline="always")
def clear_pending(state: np.void) -> None:
    """No action in progress: the pending choices and the gunfight context are empty (§13.2)."""
    state["pend_box"] = NO_BOX
    state["pend_town1"] = NO_TOWN
    state["pend_town2"] = NO_TOWN
    state["pend_target"] = NO_TARGET
    state["pend_defender"] = NOBODY
    state["gf_active"] = False
    state["gf_step"] = STEP_ATTACKER
    state["gf_volley"] = 0
    state["sheriff_side"] = SIDE_NONE
    state["a_cow"] = 0
    state["a_sher"] = 0
    state["d_cow"] = 0
    state["d_virt"] = 0
    state["d_sher"] = 0
    state["d_farm"] = 0
    state["gf_attacker"] = NOBODY
    state["gf_winner"] = NOBODY
    state["retreat_seat"] = NOBODY
    state["retreat_left"] = 0
    state["retreat_used"] = 0


@njit(cache=True, inline="always")
def place_setup_cowboy(state: np.void, t: int) -> bool:
    """The setup player puts one cowboy from his supply in town t, no payments; True after the last (§4 step 4)."""
    p = np.int64(state["current"])
    state["cowboys"][t, p] += 1
    state["cowboy_supply"][p] -= 1
    state["setup_placed"] += 1
    emit(state, EV_SETUP_COWBOY, EVERYONE, p, t, state["setup_placed"], 0)
    n = np.int64(state["num_players"])
    if state["setup_placed"] >= START_COWBOYS * n:
        return True
    state["current"] = state["turn_order"][np.int64(state["setup_placed"]) % n]  # three laps, same order
    return False
