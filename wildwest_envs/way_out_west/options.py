"""Way Out West options (spec §4, §13.2, §13.3), validated once with clear errors.

| option | values | default |
|---|---|---|
| ``num_players`` | 3-5 | 3 |
| ``num_rounds`` | 3, 6, 9 or 12 (§4) | 12 |
| ``start_player`` | None (drawn at random, §4 step 2) or a seat 0..N-1 | None |
| ``preset_dice`` | up to 64 die values 1..6, used before the generator (§13.3) | () |
| ``auto_forced`` | bool: apply decisions with exactly one legal id automatically (§13.2) | False |
| ``max_decisions`` | int >= 1: engine decision cap (core truncation) | 20,000 |

``reward_mode`` and ``render_mode`` belong to the environment layer and are
not options here. The default ``max_decisions`` lies above the longest game the
rules allow (12 rounds x (60 auction decisions + 10 action turns x 109
decisions) + 15 setup placements = 13,815), so it never cuts a game short.
"""

from __future__ import annotations

import numpy as np

from .data import ALLOWED_ROUNDS, DEFAULT_ROUNDS, DIE_SIDES, MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, N_DIE_QUEUE

OPTION_NAMES = ("num_players", "num_rounds", "start_player", "preset_dice", "auto_forced", "max_decisions")
RANDOM_START = -1  # kernel code of start_player=None


def parse_options(num_players: int = MIN_PLAYERS, num_rounds: int = DEFAULT_ROUNDS, start_player: int | None = None,
                  preset_dice=(), auto_forced: bool = False, max_decisions: int = MAX_DECISIONS,
                  **unknown) -> dict:
    """Validate Way Out West options and fill in the defaults (module docstring)."""
    if unknown:
        raise ValueError(f"unknown Way Out West option(s) {sorted(unknown)}; options are {list(OPTION_NAMES)}")
    num_players = _parse_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    if _not_int(num_rounds) or int(num_rounds) not in ALLOWED_ROUNDS:
        raise ValueError(f"num_rounds must be one of {list(ALLOWED_ROUNDS)} (a multiple of 3, §4), "
                         f"got {num_rounds!r}")
    if start_player is not None:
        start_player = _parse_int("start_player", start_player, 0, num_players - 1)
    return {
        "num_players": num_players,
        "num_rounds": int(num_rounds),
        "start_player": start_player,
        "preset_dice": _parse_dice(preset_dice),
        "auto_forced": _parse_bool("auto_forced", auto_forced),
        "max_decisions": _parse_int("max_decisions", max_decisions, 1, 2**31 - 1),
    }


def kernel_arguments(options: dict) -> tuple:
    """The parsed options as the arguments of ``rules.init`` after ``seeds`` (in order)."""
    start = RANDOM_START if options["start_player"] is None else options["start_player"]
    dice = np.array(options["preset_dice"], dtype=np.int64)
    return (options["num_players"], options["num_rounds"], start, dice, options["auto_forced"],
            options["max_decisions"])


def _not_int(value) -> bool:
    return isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))


def _parse_int(name: str, value, low: int, high: int) -> int:
    if _not_int(value) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def _parse_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _parse_dice(values) -> tuple:
    """At most 64 integers 1..6, as a tuple (hashable, picklable)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"preset_dice must be a sequence of die values 1..{DIE_SIDES}, got {values!r}")
    dice = tuple(values)
    if len(dice) > N_DIE_QUEUE:
        raise ValueError(f"preset_dice holds at most {N_DIE_QUEUE} dice (§13.3), got {len(dice)}")
    for die in dice:
        if _not_int(die) or not 1 <= die <= DIE_SIDES:
            raise ValueError(f"preset_dice must hold die values 1..{DIE_SIDES}, got {die!r}")
    return tuple(int(d) for d in dice)
