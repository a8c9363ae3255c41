"""End-of-round events (spec §8).

All events but Pickpocketing need no decision and are applied by
``apply_event``. Pickpocketing asks each lone bandit standing with purses,
in the order of ``pickpocket_bandit`` (G17); the flow in ``rules`` walks that
order with the record's ``cursor``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .actions import hand_out_neutral, marshal_rule
from .data import (EV_ANGRY_MARSHAL, EV_BRAKING, EV_HOSTAGE, EV_MARSHALS_REVENGE, EV_REBELLION, EV_SWIVEL_ARM,
                   EV_TAKE_IT_ALL, IN, N_PURSES, PURSE_ON_BANDIT, PURSE_REMOVED, ROOF)
from .eventlog import (EV_LOOT_LOST, EV_LOOT_TAKEN, EV_MARSHAL_MOVED, EV_MOVED, EV_STRONGBOX_PLACED,
                       MARSHAL_BY_EVENT, MOVED_BY_BRAKING, MOVED_BY_SWIVEL_ARM, TOKEN_RANSOM, emit_loot)
from .state import NOBODY


@njit(cache=True)
def _bandits_at(state: np.void, car: int, level: int) -> int:
    """Bit set of the bandits at (car, level); car NOBODY means every car (§8)."""
    group = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        if state["bandit_level"][b] == level and (car == NOBODY or state["bandit_car"][b] == car):
            group |= np.int64(1) << np.int64(b)
    return group


@njit(cache=True)
def _angry_marshal(state: np.void) -> None:
    """Neutral bullets to the marshal's roof, then he steps towards the rear (§8.1, G16)."""
    m = np.int64(state["marshal_car"])
    hand_out_neutral(state, _bandits_at(state, m, np.int64(ROOF)))
    if m < state["n_carriages"]:
        state["marshal_car"] = m + 1
        emit(state, EV_MARSHAL_MOVED, EVERYONE, m + 1, MARSHAL_BY_EVENT, 0, 0)
        marshal_rule(state, m + 1)


@njit(cache=True)
def _marshals_revenge(state: np.void) -> None:
    """Each bandit on the marshal's roof loses his least valuable purse, lowest id on ties (§8.7, G18)."""
    m = np.int64(state["marshal_car"])
    for b in range(np.int64(state["n_bandits"])):
        if state["bandit_car"][b] != m or state["bandit_level"][b] != ROOF:
            continue
        lost = NOBODY
        for i in range(N_PURSES):
            if state["purse_location"][i] == PURSE_ON_BANDIT + b and (
                    lost == NOBODY or state["purse_value"][i] < state["purse_value"][lost]):
                lost = i
        if lost != NOBODY:
            state["purse_location"][lost] = PURSE_REMOVED
            emit_loot(state, EV_LOOT_LOST, b, lost)


@njit(cache=True)
def apply_event(state: np.void, event: int) -> None:
    """Apply a decision-free event of the round card (§8.1-§8.5, §8.7, §8.8)."""
    n_bandits = np.int64(state["n_bandits"])
    last = np.int64(state["n_carriages"])
    if event == EV_ANGRY_MARSHAL:
        _angry_marshal(state)
    elif event == EV_SWIVEL_ARM:  # §8.2
        for b in range(n_bandits):
            if state["bandit_level"][b] == ROOF:
                if state["bandit_car"][b] != last:
                    emit(state, EV_MOVED, EVERYONE, b, last, ROOF, MOVED_BY_SWIVEL_ARM)
                state["bandit_car"][b] = last
    elif event == EV_BRAKING:  # §8.3
        for b in range(n_bandits):
            if state["bandit_level"][b] == ROOF and state["bandit_car"][b] >= 1:
                emit(state, EV_MOVED, EVERYONE, b, np.int64(state["bandit_car"][b]) - 1, ROOF, MOVED_BY_BRAKING)
                state["bandit_car"][b] -= 1
    elif event == EV_TAKE_IT_ALL:  # §8.4
        state["floor_strongboxes"][np.int64(state["marshal_car"]) * 2 + IN] += 1
        state["second_strongbox_placed"] = True
        emit(state, EV_STRONGBOX_PLACED, EVERYONE, state["marshal_car"], 0, 0, 0)
    elif event == EV_REBELLION:  # §8.5
        hand_out_neutral(state, _bandits_at(state, np.int64(NOBODY), np.int64(IN)))
    elif event == EV_MARSHALS_REVENGE:
        _marshals_revenge(state)
    elif event == EV_HOSTAGE:  # §8.8
        for b in range(n_bandits):
            if state["bandit_car"][b] == 0:
                state["ransoms"][b] += 1
                emit_loot(state, EV_LOOT_TAKEN, b, TOKEN_RANSOM)


@njit(cache=True, inline="always")
def pickpocket_bandit(state: np.void, position: int) -> int:
    """Bandit at ``position`` of the Pickpocketing order: seats clockwise from the first player, slot 0 first (G17)."""
    bps = np.int64(state["bandits_per_seat"])
    seat = (np.int64(state["first_player"]) + position // bps) % np.int64(state["num_players"])
    return seat * bps + position % bps


@njit(cache=True, inline="always")
def is_alone(state: np.void, bandit: int) -> bool:
    """No other bandit stands at the same car and level (§8.6)."""
    return _bandits_at(state, np.int64(state["bandit_car"][bandit]),
                       np.int64(state["bandit_level"][bandit])) == (np.int64(1) << np.int64(bandit))
