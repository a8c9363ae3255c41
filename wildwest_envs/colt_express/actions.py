"""Stealin': positions, the marshal rule, neutral bullets and the six actions (spec §5, §6, §7).

The options of a Stealin' or event decision are computed as a *choice bit set*:
bit ``j`` stands for action id ``A_CAR + j`` (CAR(c) = bit c, BANDIT(r) = bit
7 + r, PURSE(i) = bit 13 + i, JEWEL = bit 31, STRONGBOX = bit 32). The same
bits give the legal mask, tell whether the card has no effect (no bit) and
whether the decision is forced (one bit, §11.4). Target sets of bandits are
bit sets over bandit ids.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .cards import receive_bullet
from .data import (A_BANDIT, A_CAR, A_JEWEL, A_PURSE, A_STRONGBOX, BELLE, CHEYENNE, DEC_FIRE_TARGET,
                   DEC_MARSHAL_DEST, DEC_MOVE_DEST, DEC_PICKPOCKET, DEC_PUNCH_DEST, DEC_PUNCH_LOOT,
                   DEC_PUNCH_TARGET, DEC_ROB_LOOT, DJANGO, GHOST, IN, MARSHAL, N_KINDS, N_PURSES, PURSE_ON_BANDIT,
                   ROOF, TUCO)
from .eventlog import (EV_FIRED, EV_LOOT_LOST, EV_LOOT_TAKEN, EV_MARSHAL_MOVED, EV_MOVED, EV_NEUTRAL_BULLETS,
                       EV_PUNCHED, MARSHAL_BY_CARD, MOVED_BY_DJANGO, MOVED_BY_FLOOR_CHANGE, MOVED_BY_MARSHAL,
                       MOVED_BY_MOVE, MOVED_BY_PUNCH, emit_loot)

BIT_BANDIT = A_BANDIT - A_CAR  # 7
BIT_PURSE = A_PURSE - A_CAR  # 13
BIT_JEWEL = A_JEWEL - A_CAR  # 31
BIT_STRONGBOX = A_STRONGBOX - A_CAR  # 32
MAX_ROOF_MOVE = 3  # §6.1

# decision posed by the card of each kind (FLOOR needs none, §6.2)
KIND_DECISION = np.array([DEC_MOVE_DEST, -1, DEC_FIRE_TARGET, DEC_PUNCH_TARGET, DEC_ROB_LOOT,
                          DEC_MARSHAL_DEST], dtype=np.int8)
KIND_DECISION.setflags(write=False)


# ---- bandits and seats (§0.2, §11.1) ------------------------------------------------
@njit(cache=True, inline="always")
def ego_index(state: np.void, seat: int, bandit: int) -> int:
    """Egocentric index of ``bandit`` seen from ``seat``: ((s - p) mod N) * BPS + slot (§11.1)."""
    bps = np.int64(state["bandits_per_seat"])
    n = np.int64(state["num_players"])
    return ((bandit // bps - seat) % n) * bps + bandit % bps


@njit(cache=True, inline="always")
def bandit_of_ego(state: np.void, seat: int, index: int) -> int:
    """The bandit id of egocentric index ``index`` seen from ``seat`` (§11.1)."""
    bps = np.int64(state["bandits_per_seat"])
    n = np.int64(state["num_players"])
    return ((seat + index // bps) % n) * bps + index % bps


@njit(cache=True, inline="always")
def card_bandit(state: np.void, owner: int, code: int) -> int:
    """Acting bandit of a card: its colour's bandit; a 2-player Marshal card names Ghost or slot 0 (§4.5, G36)."""
    bps = np.int64(state["bandits_per_seat"])
    if bps == 2 and code == MARSHAL and state["character"][2 * owner + 1] == GHOST:
        return 2 * owner + 1
    return owner * bps + code // N_KINDS


# ---- the marshal rule and neutral bullets (§5.2, §5.3) ---------------------------------
@njit(cache=True)
def hand_out_neutral(state: np.void, group: int) -> None:
    """One group of bandits (bit set) receives neutral bullets all or none; a shortage removes the supply (§5.3)."""
    k = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        k += (group >> b) & 1
    if k == 0 or state["supply_removed"]:
        return
    if state["neutral_supply"] >= k:
        state["neutral_supply"] -= k
        emit(state, EV_NEUTRAL_BULLETS, EVERYONE, group, k, state["neutral_supply"], 0)
        for b in range(np.int64(state["n_bandits"])):
            if (group >> b) & 1:
                receive_bullet(state, b)
    else:
        state["neutral_supply"] = 0
        state["supply_removed"] = True
        emit(state, EV_NEUTRAL_BULLETS, EVERYONE, group, 0, 0, 1)


@njit(cache=True)
def marshal_rule(state: np.void, car: int) -> None:
    """Every bandit inside the marshal's car flees to its roof and the group gets neutral bullets (§5.2)."""
    group = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        if state["bandit_car"][b] == car and state["bandit_level"][b] == IN:
            state["bandit_level"][b] = ROOF
            group |= np.int64(1) << np.int64(b)
            emit(state, EV_MOVED, EVERYONE, b, car, ROOF, MOVED_BY_MARSHAL)
    hand_out_neutral(state, group)


@njit(cache=True, inline="always")
def place_bandit(state: np.void, bandit: int, car: int, level: int) -> None:
    """Put a bandit at (car, level); arriving inside the marshal's car triggers the marshal rule (§5.2)."""
    state["bandit_car"][bandit] = car
    state["bandit_level"][bandit] = level
    if level == IN and car == state["marshal_car"]:
        marshal_rule(state, car)


# ---- target sets (§6.3, §6.5, §7) -------------------------------------------------------
@njit(cache=True)
def belle_filter(state: np.void, actor: int, targets: int) -> int:
    """Belle leaves a Fire/Punch target set when another candidate remains (§6.3 step 2, G10)."""
    for b in range(np.int64(state["n_bandits"])):
        if state["character"][b] == BELLE and b != actor:
            bit = np.int64(1) << np.int64(b)
            if (targets & bit) and targets != bit:
                return targets & ~bit
    return targets


@njit(cache=True)
def fire_targets(state: np.void, actor: int) -> int:
    """Fire candidates: neighbouring insides, or the nearest occupied roof each way; Tuco's other level (§6.3)."""
    n_bandits = np.int64(state["n_bandits"])
    c = np.int64(state["bandit_car"][actor])
    level = np.int64(state["bandit_level"][actor])
    targets = np.int64(0)
    if level == IN:
        for b in range(n_bandits):
            x = np.int64(state["bandit_car"][b])
            if b != actor and state["bandit_level"][b] == IN and (x == c - 1 or x == c + 1):
                targets |= np.int64(1) << np.int64(b)
    else:
        front = -1
        back = np.int64(state["n_carriages"]) + 1
        for b in range(n_bandits):
            x = np.int64(state["bandit_car"][b])
            if b != actor and state["bandit_level"][b] == ROOF:
                if front < x < c:
                    front = x
                if c < x < back:
                    back = x
        for b in range(n_bandits):
            x = np.int64(state["bandit_car"][b])
            if b != actor and state["bandit_level"][b] == ROOF and (x == front or x == back):
                targets |= np.int64(1) << np.int64(b)
    if state["character"][actor] == TUCO:  # through the roof (§7)
        for b in range(n_bandits):
            if state["bandit_car"][b] == c and state["bandit_level"][b] != level:
                targets |= np.int64(1) << np.int64(b)
    return belle_filter(state, actor, targets)


@njit(cache=True)
def punch_targets(state: np.void, actor: int) -> int:
    """Punch candidates: the other bandits at the actor's location, Belle filtered (§6.5 step 1)."""
    targets = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        if (b != actor and state["bandit_car"][b] == state["bandit_car"][actor]
                and state["bandit_level"][b] == state["bandit_level"][actor]):
            targets |= np.int64(1) << np.int64(b)
    return belle_filter(state, actor, targets)


# ---- choice bits of each decision (§11.3) -----------------------------------------------
@njit(cache=True)
def _bandit_bits(state: np.void, seat: int, targets: int) -> int:
    """Choice bits BANDIT(r) of a bandit set, egocentric for ``seat`` (§11.1)."""
    bits = np.int64(0)
    for b in range(np.int64(state["n_bandits"])):
        if (targets >> b) & 1:
            bits |= np.int64(1) << np.int64(BIT_BANDIT + ego_index(state, seat, b))
    return bits


@njit(cache=True)
def _loot_bits(state: np.void, where: int, jewels: int, strongboxes: int) -> int:
    """Choice bits of a pile of loot: each purse token at purse location ``where``, a jewel if ``jewels``, a
    strongbox if ``strongboxes`` (a location's floor §6.4, §8.6, or a bandit's loot §6.5 step 3)."""
    bits = np.int64(0)
    for i in range(N_PURSES):
        if state["purse_location"][i] == where:
            bits |= np.int64(1) << np.int64(BIT_PURSE + i)
    if jewels > 0:
        bits |= np.int64(1) << np.int64(BIT_JEWEL)
    if strongboxes > 0:
        bits |= np.int64(1) << np.int64(BIT_STRONGBOX)
    return bits


@njit(cache=True)
def _car_bits(state: np.void, car: int, reach: int) -> int:
    """Choice bits CAR(car +- d), 1 <= d <= reach, inside the train (§5.1, §6.1, §6.5, §6.6)."""
    bits = np.int64(0)
    last = np.int64(state["n_carriages"])
    for d in range(1, reach + 1):
        if car - d >= 0:
            bits |= np.int64(1) << np.int64(car - d)
        if car + d <= last:
            bits |= np.int64(1) << np.int64(car + d)
    return bits


@njit(cache=True)
def choice_bits(state: np.void, decision: int) -> int:
    """Options of the pending Stealin'/event decision as choice bits; 0 means no effect (§6, §8.6, §11.3)."""
    a = np.int64(state["acting_bandit"])
    seat = a // np.int64(state["bandits_per_seat"])
    c = np.int64(state["bandit_car"][a])
    loc = c * 2 + np.int64(state["bandit_level"][a])
    if decision == DEC_MOVE_DEST:
        return _car_bits(state, c, np.int64(MAX_ROOF_MOVE if state["bandit_level"][a] == ROOF else 1))
    if decision == DEC_FIRE_TARGET:
        if state["bullets_left"][a] == 0:
            return 0
        return _bandit_bits(state, seat, fire_targets(state, a))
    if decision == DEC_ROB_LOOT:
        return _loot_bits(state, loc, np.int64(state["floor_jewels"][loc]), np.int64(state["floor_strongboxes"][loc]))
    if decision == DEC_PUNCH_TARGET:
        return _bandit_bits(state, seat, punch_targets(state, a))
    if decision == DEC_PUNCH_LOOT:
        v = np.int64(state["victim"])
        return _loot_bits(state, PURSE_ON_BANDIT + v, np.int64(state["jewels_held"][v]),
                          np.int64(state["strongboxes_held"][v]))
    if decision == DEC_PUNCH_DEST:
        return _car_bits(state, c, np.int64(1))
    if decision == DEC_MARSHAL_DEST:
        return _car_bits(state, np.int64(state["marshal_car"]), np.int64(1))
    if decision == DEC_PICKPOCKET:
        return _loot_bits(state, loc, np.int64(0), np.int64(0))  # purses only (§8.6)
    return 0


# ---- carrying out the choices (§6) -----------------------------------------------------------
@njit(cache=True, inline="always")
def take_purse(state: np.void, bandit: int, purse: int) -> None:
    """A purse goes onto a bandit's character card; its player learns its value (§10.3)."""
    state["purse_location"][purse] = PURSE_ON_BANDIT + bandit
    seat = bandit // np.int64(state["bandits_per_seat"])
    state["purse_known"][seat] = np.int64(state["purse_known"][seat]) | (np.int64(1) << np.int64(purse))
    emit_loot(state, EV_LOOT_TAKEN, bandit, purse)


@njit(cache=True, inline="always")
def resolve_floor(state: np.void, actor: int) -> None:
    """Floor change: to the other level of the same car; inside the marshal's car he flees back up (§6.2)."""
    emit(state, EV_MOVED, EVERYONE, actor, state["bandit_car"][actor], 1 - np.int64(state["bandit_level"][actor]),
         MOVED_BY_FLOOR_CHANGE)
    place_bandit(state, actor, np.int64(state["bandit_car"][actor]), 1 - np.int64(state["bandit_level"][actor]))


@njit(cache=True)
def _resolve_fire(state: np.void, actor: int, target: int) -> None:
    """Fire: the top bullet card goes to the target's player; Django pushes the target away (§6.3, §7)."""
    state["bullets_left"][actor] -= 1
    emit(state, EV_FIRED, EVERYONE, actor, target, state["bullets_left"][actor], 0)
    receive_bullet(state, target)
    if state["character"][actor] == DJANGO:
        c = np.int64(state["bandit_car"][actor])
        x = np.int64(state["bandit_car"][target])
        dest = x + 1 if x > c else x - 1
        if 0 <= dest <= state["n_carriages"]:  # never off the train (§5.1)
            emit(state, EV_MOVED, EVERYONE, target, dest, state["bandit_level"][target], MOVED_BY_DJANGO)
            place_bandit(state, target, dest, np.int64(state["bandit_level"][target]))


@njit(cache=True)
def _resolve_rob(state: np.void, actor: int, action: int) -> None:
    """Rob: the chosen token at the actor's location goes onto his card (§6.4)."""
    loc = np.int64(state["bandit_car"][actor]) * 2 + np.int64(state["bandit_level"][actor])
    if action == A_JEWEL:
        state["floor_jewels"][loc] -= 1
        state["jewels_held"][actor] += 1
        emit_loot(state, EV_LOOT_TAKEN, actor, action - A_PURSE)
    elif action == A_STRONGBOX:
        state["floor_strongboxes"][loc] -= 1
        state["strongboxes_held"][actor] += 1
        emit_loot(state, EV_LOOT_TAKEN, actor, action - A_PURSE)
    else:
        take_purse(state, actor, action - A_PURSE)


@njit(cache=True)
def _resolve_punch_loot(state: np.void, actor: int, action: int) -> None:
    """Punch: the victim's chosen token falls at the punch location; Cheyenne keeps a purse (§6.5 step 3, §7)."""
    victim = np.int64(state["victim"])
    loc = np.int64(state["bandit_car"][actor]) * 2 + np.int64(state["bandit_level"][actor])
    emit_loot(state, EV_LOOT_LOST, victim, action - A_PURSE)  # before it moves: the victim's knowledge of it
    if action == A_JEWEL:
        state["jewels_held"][victim] -= 1
        state["floor_jewels"][loc] += 1
    elif action == A_STRONGBOX:
        state["strongboxes_held"][victim] -= 1
        state["floor_strongboxes"][loc] += 1
    elif state["character"][actor] == CHEYENNE:
        take_purse(state, actor, action - A_PURSE)
    else:
        state["purse_location"][action - A_PURSE] = loc


@njit(cache=True)
def apply_choice(state: np.void, decision: int, action: int) -> None:
    """Carry out the chosen option of a Stealin'/event decision (§6.1-§6.6, §8.6)."""
    a = np.int64(state["acting_bandit"])
    if decision == DEC_MOVE_DEST:
        emit(state, EV_MOVED, EVERYONE, a, action - A_CAR, state["bandit_level"][a], MOVED_BY_MOVE)
        place_bandit(state, a, action - A_CAR, np.int64(state["bandit_level"][a]))
    elif decision == DEC_FIRE_TARGET:
        _resolve_fire(state, a, bandit_of_ego(state, np.int64(state["current"]), action - A_BANDIT))
    elif decision == DEC_ROB_LOOT:
        _resolve_rob(state, a, action)
    elif decision == DEC_PUNCH_TARGET:
        state["victim"] = bandit_of_ego(state, np.int64(state["current"]), action - A_BANDIT)
        emit(state, EV_PUNCHED, EVERYONE, a, state["victim"], 0, 0)
    elif decision == DEC_PUNCH_LOOT:
        _resolve_punch_loot(state, a, action)
    elif decision == DEC_PUNCH_DEST:
        victim = np.int64(state["victim"])
        emit(state, EV_MOVED, EVERYONE, victim, action - A_CAR, state["bandit_level"][victim], MOVED_BY_PUNCH)
        place_bandit(state, victim, action - A_CAR, np.int64(state["bandit_level"][victim]))
    elif decision == DEC_MARSHAL_DEST:
        state["marshal_car"] = action - A_CAR
        emit(state, EV_MARSHAL_MOVED, EVERYONE, action - A_CAR, MARSHAL_BY_CARD, 0, 0)
        marshal_rule(state, action - A_CAR)
    elif decision == DEC_PICKPOCKET:
        take_purse(state, a, action - A_PURSE)

