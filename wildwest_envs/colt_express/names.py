"""Names of Colt Express actions: ``action_to_string(state, action)`` (§11.2), read-only.

Short, stable names of the 73 action ids; ``Game.string_to_action`` is their
inverse. Accepts one record (``states[b]``) or a batch of one (``states[b:b+1]``)
and never writes to it. The text board (``render``) names cards, characters and
places with the helpers here.

Decisions taken where the brief or the spec is silent:

* **Action names.** The action id fixes the frame of the text, the pending
  decision picks the verb (``move to`` / ``marshal to`` / ``knock to`` for a
  car, ``shoot`` / ``punch`` for a bandit, ``take`` / ``knock loose`` for loot),
  and the state supplies only names. Ids that mean nothing in the decision
  still get a name (``car 3``, ``bandit 2``, ``purse 5``); card codes that do
  not exist in the game read ``card code k``. With 2 players a card names its
  bandit (``play Fire of Tuco (face down)``); the team's Marshal card (code 5)
  is Ghost's when the team has Ghost, otherwise the slot-0 bandit's (§3.3).
  Names never show purse values. Two ids never give the same text in one state.
* **Egocentric bandits.** ``BANDIT(r)`` names bandit
  ``(current * BPS + r) mod B`` (§11.1); with no current seat (game over) it is
  ``bandit r``.
"""

from __future__ import annotations

import numpy as np

from ..core.checks import record_and_action
from .data import (A_BANDIT, A_BULLETS_DISCARD, A_BULLETS_KEEP, A_CAR, A_DISCARD, A_DRAW, A_JEWEL, A_KEEP_REST,
                   A_PLAY_DOWN, A_PLAY_UP, A_PURSE, A_STRONGBOX, BULLET_CARD, CHARACTER_NAMES, DEC_FIRE_TARGET,
                   DEC_MARSHAL_DEST, DEC_MOVE_DEST, DEC_PICKPOCKET, DEC_PUNCH_DEST, DEC_PUNCH_LOOT,
                   DEC_PUNCH_TARGET, DEC_ROB_LOOT, GHOST, KIND_NAMES, MARSHAL, N_ACTIONS, N_KINDS)
from .state import NOBODY


# ---- reading a record --------------------------------------------------------------

def _int(record: np.void, field: str) -> int:
    """A scalar field as a Python int."""
    return int(record[field])


def _character(record: np.void, bandit: int) -> str:
    """The character name of a bandit id, or ``bandit i`` if it is absent."""
    if 0 <= bandit < _int(record, "n_bandits") and record["character"][bandit] >= 0:
        return CHARACTER_NAMES[int(record["character"][bandit])]
    return f"bandit {bandit}"


def _ego_bandit(record: np.void, r: int) -> int:
    """The bandit id of egocentric index r for the current seat, or NOBODY (§11.1)."""
    current, bps, n_bandits = _int(record, "current"), _int(record, "bandits_per_seat"), _int(record, "n_bandits")
    if current < 0 or n_bandits <= 0 or r >= n_bandits:
        return NOBODY
    return (current * bps + r) % n_bandits


# ---- card names -------------------------------------------------------------------

def _team_marshal_bandit(record: np.void, seat: int) -> int:
    """The bandit whose colour the 2-player Marshal card has: Ghost if in the team, else slot 0 (§3.3)."""
    first = 2 * seat
    if record["character"][first + 1] == GHOST:
        return first + 1
    return first


def _card_label(record: np.void, seat: int, code: int) -> str:
    """The name of card code ``code`` of ``seat``: ``Fire`` (3-6 players) or ``Fire of Tuco`` (2)."""
    if code == BULLET_CARD:
        return "bullet card"
    slot, kind = divmod(code, N_KINDS)
    bps = _int(record, "bandits_per_seat")
    if bps == 1:
        return KIND_NAMES[kind] if slot == 0 else f"card code {code}"
    if kind == MARSHAL:
        if slot == 1:
            return f"card code {code}"  # a team keeps one Marshal card, code 5 (§3.3)
        return f"Marshal of {_character(record, _team_marshal_bandit(record, seat))}" if seat >= 0 \
            else "Marshal"
    if seat < 0:
        return f"{KIND_NAMES[kind]} of slot {slot}"
    return f"{KIND_NAMES[kind]} of {_character(record, seat * bps + slot)}"


# ---- action names (§11.2) -------------------------------------------------------------

def _place(car: int) -> str:
    """``locomotive`` for car 0, ``car c`` otherwise (§0.2)."""
    return "locomotive" if car == 0 else f"car {car}"


_CAR_VERBS = {DEC_MOVE_DEST: "move to ", DEC_MARSHAL_DEST: "marshal to ", DEC_PUNCH_DEST: "knock to "}
_BANDIT_VERBS = {DEC_FIRE_TARGET: "shoot ", DEC_PUNCH_TARGET: "punch "}
_LOOT_VERBS = {DEC_ROB_LOOT: "take ", DEC_PICKPOCKET: "take ", DEC_PUNCH_LOOT: "knock loose "}
_FIXED_NAMES = {A_DRAW: "draw 3 cards", A_BULLETS_DISCARD: "discard bullet cards",
                A_BULLETS_KEEP: "keep bullet cards", A_KEEP_REST: "keep the rest"}


def _bandit_action(record: np.void, r: int) -> str:
    """BANDIT(r): ``shoot Django`` / ``punch Belle``, or ``bandit r`` outside a target decision."""
    verb = _BANDIT_VERBS.get(_int(record, "decision"))
    bandit = _ego_bandit(record, r)
    if verb is None or bandit == NOBODY:
        return f"bandit {r}"
    return verb + _character(record, bandit)


def _loot_action(record: np.void, token: str) -> str:
    """PURSE/JEWEL/STRONGBOX: ``take purse 7``, ``knock loose a jewel`` or the bare token."""
    verb = _LOOT_VERBS.get(_int(record, "decision"))
    if verb is None:
        return token.removeprefix("a ")
    return verb + token


def action_to_string(state: np.ndarray, action: int) -> str:
    """A short name of action id ``action`` (0..72) in ``state`` (§11.2).

    The id decides the frame of the text, the pending decision the verb, and the
    state only the names (characters, card bandits), so different ids always give
    different texts in one state. No hidden information is used.

    Raises:
        ValueError: if ``action`` is not in ``range(N_ACTIONS)``.
    """
    record, action = record_and_action(state, action, N_ACTIONS)
    current = _int(record, "current")
    if action in _FIXED_NAMES:
        return _FIXED_NAMES[action]
    if action < A_PLAY_DOWN:
        return f"play {_card_label(record, current, action - A_PLAY_UP)} (face up)"
    if action < A_DRAW:
        return f"play {_card_label(record, current, action - A_PLAY_DOWN)} (face down)"
    if action < A_BANDIT:
        return _CAR_VERBS.get(_int(record, "decision"), "") + _place(action - A_CAR)
    if action < A_PURSE:
        return _bandit_action(record, action - A_BANDIT)
    if action < A_JEWEL:
        return _loot_action(record, f"purse {action - A_PURSE}")
    if action == A_JEWEL:
        return _loot_action(record, "a jewel")
    if action == A_STRONGBOX:
        return _loot_action(record, "a strongbox")
    return f"discard {_card_label(record, current, action - A_DISCARD)}"
