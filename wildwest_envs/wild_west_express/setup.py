"""Setup of one game record: start player, deck, draft, desperados, trains, money (spec §5, §17.4).

``setup_game`` sets up a record that holds the empty values (``state.EMPTY_VALUES``,
copied over it by the ``init`` kernel, ``core.engine``); the RNG is used exactly as §17.4 says: one
draw of the start seat, then one Fisher-Yates shuffle of the 52 card ids laid
out in id order. Then the draft (DRAFT_CITY decisions, snake order) and the
desperado placement (PLACE_DESPERADO) are asked; ``finish_setup`` gives the
trains and the money once every desperado is placed.

Decisions where the spec leaves the implementation open:

* Stations are owned from the moment of the pick (§5 item 2); trains and cash
  arrive after the last desperado is placed (§5 items 4-5).
* ``round`` is 0 during setup and 1 from the start player's first turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import start_record
from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below, shuffle_prefix
from .data import (N_CARDS, NO_CARD, NO_SPACE, OPT_ALLOW_HOLD_IN_CITY, OPT_ALT_DYNAMITE, OPT_ALT_EXTRA_GANG,
                   OPT_AUTO_FORCED, OPT_CAP_SCORING, OPT_CASH_VP_MODE, OPT_COMPETITION_EXPIRY_ROUNDS,
                   OPT_COMPONENT_LIMITS, OPT_DYNAMITE_PRICE_ALT, OPT_EXTRA_GANG_PRICE, OPT_MAX_DECISIONS,
                   OPT_MAX_ROUNDS, OPT_NUM_PLAYERS, OPT_TWO_PLAYER_EXTRA_DESPERADO, OPT_VICTORY_TARGET, START_CARGO,
                   START_CASH, START_DESPERADOS, START_DESPERADOS_TWO_PLAYER, VICTORY_TARGET)
from .eventlog import (EV_CARGO_LOADED, EV_CITY_DRAFTED, EV_DESPERADO_PLACED, EV_START_CASH, EV_TRAIN_PLACED,
                       PLACED_SETUP)
from .pieces import place_train
from .state import LANDING_NONE, NOBODY


@njit(cache=True)
def clear_procedures(state: np.void) -> None:
    """No move, landing, card, sheriff, queued move or desperado move in progress (§17.5 levels 2-4)."""
    state["move_active"] = False
    state["move_train"] = NOBODY
    state["move_steps"] = 0
    state["move_first"] = False
    state["move_dice"] = False
    state["move_backtrack"] = False
    state["move_card"] = NO_CARD
    state["move_return"] = 0
    state["landing_step"] = LANDING_NONE
    state["landing_space"] = NO_SPACE
    state["card_active"] = NO_CARD
    state["card_left"] = 0
    state["card_return"] = 0
    state["sel_desperado"] = NOBODY
    state["sel_sheriff"] = NOBODY
    state["sheriff_return"] = 0
    state["queue_train"] = NOBODY
    state["queue_steps"] = 0
    state["queue_backtrack"] = False
    state["queue_card"] = NO_CARD
    state["desp_index"] = NOBODY
    state["desp_from"] = NO_SPACE
    state["desp_steps"] = 0


@njit(cache=True)
def setup_game(state: np.void, seed: np.uint64, o: np.ndarray) -> None:
    """Options (the int64 vector ``o``, slots ``data.OPT_*``), start player and deck (the only chance of setup),
    then the draft begins (§5, §17.4)."""
    num_players = o[OPT_NUM_PLAYERS]
    start_record(state, seed, num_players, o[OPT_MAX_DECISIONS])
    state["victory_target"] = o[OPT_VICTORY_TARGET] if o[OPT_VICTORY_TARGET] > 0 else VICTORY_TARGET[num_players]
    state["cash_vp_mode"] = o[OPT_CASH_VP_MODE]
    alt_dynamite = o[OPT_ALT_DYNAMITE] != 0
    state["alt_dynamite"] = alt_dynamite
    state["alt_extra_gang"] = o[OPT_ALT_EXTRA_GANG] != 0
    state["dynamite_price"] = o[OPT_DYNAMITE_PRICE_ALT] if alt_dynamite else 20
    state["extra_gang_price"] = o[OPT_EXTRA_GANG_PRICE]
    state["component_limits"] = o[OPT_COMPONENT_LIMITS] != 0
    state["allow_hold"] = o[OPT_ALLOW_HOLD_IN_CITY] != 0
    state["expiry_rounds"] = o[OPT_COMPETITION_EXPIRY_ROUNDS]
    state["max_rounds"] = o[OPT_MAX_ROUNDS]
    state["cap_scoring"] = o[OPT_CAP_SCORING]
    state["auto_forced"] = o[OPT_AUTO_FORCED] != 0
    two_player_extra = num_players == 2 and o[OPT_TWO_PLAYER_EXTRA_DESPERADO] != 0
    n_desp = START_DESPERADOS_TWO_PLAYER if two_player_extra else START_DESPERADOS
    for p in range(num_players):
        state["n_desperados"][p] = n_desp
    state["start_player"] = draw_below(state, num_players)  # §5 item 1: the first use of the RNG
    shuffle_prefix(state, state["deck"], N_CARDS)  # §5 item 6
    state["active"] = draft_seat(state, np.int64(0))


@njit(cache=True)
def choose_start_player(state: np.void, seat: int) -> None:
    """Make ``seat`` the start player of a record just set up (the option ``start_player``, §5 item 1)."""
    state["start_player"] = seat
    state["active"] = draft_seat(state, np.int64(0))


@njit(cache=True)
def draft_seat(state: np.void, i: int) -> int:
    """Seat of pick i of the snake draft: s, s+1, ..., s+N-1, then back to s (§5 item 2)."""
    n = np.int64(state["num_players"])
    s = np.int64(state["start_player"])
    if i < n:
        return (s + i) % n
    return (s + 2 * n - 1 - i) % n


@njit(cache=True)
def n_placements(state: np.void) -> int:
    """Desperados placed during setup: one (or two) per player (§5 item 3)."""
    return np.int64(state["num_players"]) * np.int64(state["n_desperados"][0])


@njit(cache=True)
def placement_seat(state: np.void, j: int) -> int:
    """Seat of placement j: s, s+1, ... once per desperado round (§5 item 3)."""
    n = np.int64(state["num_players"])
    return (np.int64(state["start_player"]) + j % n) % n


@njit(cache=True)
def apply_draft(state: np.void, seat: int, c: int) -> None:
    """The seat picks city c and owns its station (§5 item 2)."""
    i = np.int64(state["setup_step"])
    state["start_city"][seat, 0 if i < np.int64(state["num_players"]) else 1] = c
    state["city_owner"][c] = seat
    emit(state, EV_CITY_DRAFTED, EVERYONE, seat, c, i, 0)
    state["setup_step"] = i + 1


@njit(cache=True)
def apply_placement(state: np.void, seat: int, c: int) -> None:
    """The seat's next desperado is placed in start city c (§5 item 3)."""
    j = np.int64(state["setup_step"]) - 2 * np.int64(state["num_players"])
    state["desp_pos"][seat, j // np.int64(state["num_players"])] = c
    emit(state, EV_DESPERADO_PLACED, EVERYONE, seat, j // np.int64(state["num_players"]), c, PLACED_SETUP)
    state["setup_step"] += 1


@njit(cache=True)
def finish_setup(state: np.void) -> None:
    """Each player: a small train with the free start cargo in each start city, and $450 (§5 items 4-5)."""
    for p in range(np.int64(state["num_players"])):
        for i in range(2):
            c = np.int64(state["start_city"][p, i])
            t = place_train(state, p, c, np.int64(0))
            emit(state, EV_TRAIN_PLACED, EVERYONE, p, t, c, 0)
            state["train_cargo"][p, t, 0] = START_CARGO[c]
            emit(state, EV_CARGO_LOADED, EVERYONE, p, t, START_CARGO[c], 0)  # free (§5 item 4)
        state["cash"][p] = START_CASH
        emit(state, EV_START_CASH, EVERYONE, p, START_CASH, 0, 0)
