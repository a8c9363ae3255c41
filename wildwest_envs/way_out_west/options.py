"""Way Out West options (spec §4, §13.2, §13.3), declared once (``core.options``) and validated with clear errors.

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
``OPTIONS.kernel_vector`` lays them out for ``rules.init`` at the ``data.OPT_*``
slots.
"""

from __future__ import annotations

from ..core.options import (Option, OptionTable, auto_forced_option, integer, is_integer, max_decisions_option,
                            start_player_option)
from .data import (ALLOWED_ROUNDS, DEFAULT_ROUNDS, DIE_SIDES, MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, N_DIE_QUEUE,
                   N_OPTION_VALUES, OPT_AUTO_FORCED, OPT_DICE, OPT_MAX_DECISIONS, OPT_N_DICE, OPT_NUM_PLAYERS,
                   OPT_NUM_ROUNDS, OPT_START_PLAYER)

def _parse_rounds(name: str, value, parsed: dict) -> int:
    if not is_integer(value) or int(value) not in ALLOWED_ROUNDS:
        raise ValueError(f"num_rounds must be one of {list(ALLOWED_ROUNDS)} (a multiple of 3, §4), got {value!r}")
    return int(value)


def _parse_dice(name: str, values, parsed: dict) -> tuple:
    """At most 64 integers 1..6, as a tuple (hashable, picklable)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"preset_dice must be a sequence of die values 1..{DIE_SIDES}, got {values!r}")
    dice = tuple(values)
    if len(dice) > N_DIE_QUEUE:
        raise ValueError(f"preset_dice holds at most {N_DIE_QUEUE} dice (§13.3), got {len(dice)}")
    for die in dice:
        if not is_integer(die) or not 1 <= die <= DIE_SIDES:
            raise ValueError(f"preset_dice must hold die values 1..{DIE_SIDES}, got {die!r}")
    return tuple(int(d) for d in dice)


OPTIONS = OptionTable("Way Out West", size=N_OPTION_VALUES, options=(
    Option("num_players", MIN_PLAYERS, integer(MIN_PLAYERS, MAX_PLAYERS), slot=OPT_NUM_PLAYERS, doc="players",
           section="§4"),
    Option("num_rounds", DEFAULT_ROUNDS, _parse_rounds, slot=OPT_NUM_ROUNDS,
           accepts=", ".join(str(r) for r in ALLOWED_ROUNDS), doc="rounds of the game", section="§4"),
    start_player_option(OPT_START_PLAYER, "§4"),
    Option("preset_dice", (), _parse_dice, slot=OPT_DICE, width=N_DIE_QUEUE, count_slot=OPT_N_DICE,
           accepts=f"up to {N_DIE_QUEUE} die values 1..{DIE_SIDES}",
           doc="dice rolled before the generator's", section="§13.3"),
    auto_forced_option(False, OPT_AUTO_FORCED, "§13.2"),
    max_decisions_option(MAX_DECISIONS, OPT_MAX_DECISIONS),
))
OPTION_NAMES = OPTIONS.names
parse_options = OPTIONS.parse
kernel_options = OPTIONS.kernel_vector
