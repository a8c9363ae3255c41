"""Names of Wild West Express actions: ``action_to_string(state, action)`` (§17.1, §17.6), read-only.

Short, stable names of the 553 action ids; ``Game.string_to_action`` is their
inverse. Accepts one record (``states[b]``) or a batch of one (``states[b:b+1]``)
and never writes to it. Spaces are named as ``render``'s module docstring says;
the text board uses ``_label`` from here.

Decisions taken where the brief or the spec is silent:

* **Action names.** The id fixes the frame of the text (it always contains
  the id's own index: the space, train slot, good, city, card id, cargo slot,
  sheriff or desperado index), the pending decision picks the verb, and the
  state supplies only public names and prices. Two ids therefore never share
  a name in one state. Examples: ``draft Denver``, ``dynamite on 145``,
  ``step to 183 (toward Deming Junction)``, ``stop in Denver``,
  ``move train 1``, ``buy Gold on train 1 ($160)``, ``sell slot 0 (Gold $290 +
  $20 bonus)``, ``drop passengers slot 1 ($90)``, ``play Hideout (card 20)``,
  ``roll``, ``keep card``, ``decline sheriff``. An id outside its decision
  still gets a neutral name (``space 145``, ``train 3``, ``sheriff 1``).
"""

from __future__ import annotations

import numpy as np

from ..core.checks import record_and_action
from .arrival import fare
from .data import (A_BUY_DESPERADO, A_BUY_GOOD, A_BUY_LARGE_TRAIN, A_BUY_SMALL_TRAIN, A_BUY_STATION, A_DESPERADO, A_END,
                   A_HOLD, A_LOAD_PASSENGERS, A_PLAY_CARD, A_REHIRE, A_SHERIFF, A_SPACE, A_STOP, A_TRAIN, A_UNLOAD_SLOT,
                   A_UPGRADE_TRAIN, BUY_PRICE, CARD_NAMES, CARGO_EMPTY, CITY_NAMES, DEC_ARRIVAL, DEC_CARD_CITY,
                   DEC_CARD_DESPERADO, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE, DEC_CARD_HIDEOUT_CITY,
                   DEC_CARD_TRAIN, DEC_DESPERADO_STEP, DEC_DRAFT_CITY, DEC_PLACE_DESPERADO, DEC_PRE_ROLL,
                   DEC_REHIRE_TARGET, DEC_SELECT_TRAIN, DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN,
                   DEC_TRAIN_STEP, GOOD_NAMES, MAX_DESPERADOS, MAX_TRAINS, NO_SPACE, N_ACTIONS, N_CITIES, N_GOODS,
                   N_SPACES, PASSENGER_BASE, PURCHASE_PRICE, ROUTE_SPACES, SPACE_NAMES, SPACE_ROUTE)


# ---- reading a record --------------------------------------------------------------------------------

def _int(record: np.void, field: str) -> int:
    """A scalar field as a Python int."""
    return int(record[field])


def _label(space: int) -> str:
    """A city's or junction's name, a track space's id (§0.2)."""
    return SPACE_NAMES[space] if 0 <= space < N_SPACES else f"space {space}"


def _moving_piece(record: np.void) -> int:
    """The space of the piece that is moving: the active train or desperado, NO_SPACE otherwise."""
    seat, decision = _int(record, "active"), _int(record, "decision")
    if seat < 0:
        return NO_SPACE
    if decision == DEC_TRAIN_STEP and 0 <= _int(record, "move_train") < MAX_TRAINS:
        return int(record["train_pos"][seat, _int(record, "move_train")])
    if decision == DEC_DESPERADO_STEP and 0 <= _int(record, "desp_index") < MAX_DESPERADOS:
        return int(record["desp_pos"][seat, _int(record, "desp_index")])
    return NO_SPACE


# ---- action names (§17.1, §17.6) --------------------------------------------------------------------------

def _toward(origin: int, target: int) -> str:
    """`` (toward Denver)``: the endpoint a step from ``origin`` onto track space ``target`` heads for."""
    route = int(SPACE_ROUTE[target]) if 0 <= target < N_SPACES else -1
    if route < 0 or origin == NO_SPACE:
        return ""
    spaces = [int(s) for s in ROUTE_SPACES[route] if s >= 0]
    if origin not in spaces:
        return ""
    end = spaces[-1] if spaces.index(origin) < spaces.index(target) else spaces[0]
    return f" (toward {_label(end)})"


_SPACE_VERBS = {
    DEC_DRAFT_CITY: "draft {}", DEC_PLACE_DESPERADO: "place desperado in {}", DEC_PRE_ROLL: "dynamite on {}",
    DEC_SHERIFF_SPACE: "sheriff to {}", DEC_CARD_DYNAMITE_PLACE: "free dynamite on {}",
    DEC_CARD_DYNAMITE_REMOVE: "remove dynamite on {}", DEC_CARD_CITY: "land grant {}",
    DEC_CARD_HIDEOUT_CITY: "hide desperado in {}", DEC_REHIRE_TARGET: "rehire to {}",
}
_END_NAMES = {
    DEC_PRE_ROLL: "roll", DEC_ARRIVAL: "done trading", DEC_SHERIFF_PIECE: "decline sheriff",
    DEC_SHERIFF_SPACE: "decline sheriff", DEC_TELEGRAM_DRAWN: "keep card",
    DEC_CARD_DYNAMITE_PLACE: "stop placing dynamite", DEC_CARD_DYNAMITE_REMOVE: "stop removing dynamite",
}


def _space_action(record: np.void, space: int) -> str:
    """SPACE(s): ``draft Denver``, ``step to 183 (toward Tucson)``, ``sheriff to 231``, ... (§17.2)."""
    decision = _int(record, "decision")
    if decision in (DEC_TRAIN_STEP, DEC_DESPERADO_STEP):
        return f"step to {_label(space)}" + _toward(_moving_piece(record), space)
    return _SPACE_VERBS.get(decision, "space {}").format(_label(space))


def _train_action(record: np.void, t: int) -> str:
    """TRAIN(t): ``move train 1`` (SELECT_TRAIN), ``arm train 1`` (Armed Guards), else ``train 1``."""
    verbs = {DEC_SELECT_TRAIN: "move train", DEC_CARD_TRAIN: "arm train"}
    return f"{verbs.get(_int(record, 'decision'), 'train')} {t}"


def _unload_action(record: np.void, j: int) -> str:
    """UNLOAD_SLOT(j) at ARRIVAL: ``sell slot 0 (Gold $290 + $20 bonus)`` / ``drop passengers slot 1 ($90)``."""
    seat, t, city = _int(record, "active"), _int(record, "move_train"), _int(record, "landing_space")
    if _int(record, "decision") != DEC_ARRIVAL or seat < 0 or not 0 <= t < MAX_TRAINS or not 0 <= city < N_CITIES:
        return f"unload slot {j}"
    code = int(record["train_cargo"][seat, t, j])
    if code == CARGO_EMPTY:
        return f"unload slot {j} (empty)"
    if code >= PASSENGER_BASE:
        return f"drop passengers slot {j} (${int(fare(city, code))})"
    price = int(BUY_PRICE[city, code])
    if price == 0:
        return f"sell slot {j} ({GOOD_NAMES[code]}, not bought here)"
    bonus = " + $20 bonus" if int(record["city_owner"][city]) == seat else ""  # owner bonus (§8.1)
    return f"sell slot {j} ({GOOD_NAMES[code]} ${price}{bonus})"


def _piece_action(record: np.void, action: int) -> str:
    """STOP, HOLD, REHIRE, SHERIFF(k), DESPERADO(k), with the place when the decision gives one."""
    decision, seat = _int(record, "decision"), _int(record, "active")
    here = _moving_piece(record)
    if action == A_STOP:
        return f"stop in {_label(here)}" if decision == DEC_TRAIN_STEP and here != NO_SPACE else "stop"
    if action == A_HOLD:
        return f"hold train {_int(record, 'move_train')}" if decision == DEC_TRAIN_STEP else "hold"
    if action == A_REHIRE:
        return f"rehire desperado {_int(record, 'desp_index')}" if decision == DEC_DESPERADO_STEP else "rehire"
    if action < A_DESPERADO:
        k = action - A_SHERIFF
        if decision == DEC_SHERIFF_PIECE:
            return f"move sheriff {k} (at {_label(int(record['sheriff_pos'][k]))})"
        return f"sheriff {k}"
    k = action - A_DESPERADO
    if decision == DEC_CARD_DESPERADO and seat >= 0 and record["desp_pos"][seat, k] != NO_SPACE:
        return f"hide desperado {k} (at {_label(int(record['desp_pos'][seat, k]))})"
    return f"desperado {k}"


def _purchase_action(action: int) -> str:
    """The pre-roll purchases: goods, passengers, stations, trains, upgrades, hires (§6.3)."""
    if action < A_LOAD_PASSENGERS:
        t, g = divmod(action - A_BUY_GOOD, N_GOODS)
        return f"buy {GOOD_NAMES[g]} on train {t} (${int(PURCHASE_PRICE[g])})"
    if action < A_BUY_STATION:
        return f"load passengers on train {action - A_LOAD_PASSENGERS}"
    if action < A_BUY_SMALL_TRAIN:
        return f"buy station {CITY_NAMES[action - A_BUY_STATION]}"
    if action < A_BUY_LARGE_TRAIN:
        return f"buy small train at {CITY_NAMES[action - A_BUY_SMALL_TRAIN]}"
    if action < A_UPGRADE_TRAIN:
        return f"buy large train at {CITY_NAMES[action - A_BUY_LARGE_TRAIN]}"
    if action < A_PLAY_CARD:
        return f"upgrade train {action - A_UPGRADE_TRAIN}"
    return f"hire desperado in {CITY_NAMES[action - A_BUY_DESPERADO]}"


def action_to_string(state: np.ndarray, action: int) -> str:
    """A short name of action id ``action`` (0..552) in ``state`` (§17.1, §17.6).

    The id decides the frame of the text, the pending decision the verb, and
    the state only public names and prices, so different ids always give
    different texts in one state. No hidden information is used.

    Raises:
        ValueError: if ``action`` is not in ``range(N_ACTIONS)``.
    """
    record, action = record_and_action(state, action, N_ACTIONS)
    if action < A_TRAIN:
        return _space_action(record, action - A_SPACE)
    if action < A_BUY_GOOD:
        return _train_action(record, action - A_TRAIN)
    if action < A_PLAY_CARD or A_BUY_DESPERADO <= action < A_END:
        return _purchase_action(action)
    if action < A_UNLOAD_SLOT:
        card = action - A_PLAY_CARD
        return f"play {CARD_NAMES[card]} (card {card})"
    if action < A_STOP:
        return _unload_action(record, action - A_UNLOAD_SLOT)
    if action < A_BUY_DESPERADO:
        return _piece_action(record, action)
    return _END_NAMES.get(_int(record, "decision"), "end")
