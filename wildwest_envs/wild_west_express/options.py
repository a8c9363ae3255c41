"""Wild West Express options (spec §15), validated once with clear errors.

| option | values | default |
|---|---|---|
| ``num_players`` | 2-5 | 4 |
| ``victory_target`` | int >= 5, or None (table of §14.2) | None |
| ``cash_vp_mode`` | ``"per_1200"``, ``"threshold"`` | ``"per_1200"`` |
| ``two_player_extra_desperado`` | bool (no effect with N > 2) | True |
| ``alt_dynamite`` | bool | False |
| ``alt_extra_gang`` | bool | False |
| ``dynamite_price_alt`` | int 0..32767 | 50 |
| ``extra_gang_price`` | int 0..32767 | 250 |
| ``component_limits`` | bool | True |
| ``allow_hold_in_city`` | bool | True |
| ``competition_expiry_rounds`` | int >= 0 (0 = never) | 8 |
| ``max_rounds`` | int >= 1 | 150 |
| ``cap_scoring`` | ``"vp"``, ``"draw"`` | ``"vp"`` |
| ``auto_forced`` | bool | True |
| ``max_decisions`` | int >= 1: engine decision cap (core truncation) | 2,000,000,000 |

``reward_mode`` (§14.5) belongs to the environment layer, not to the rules
engine, and is not an option here. Upper bounds not in the spec come from the
field sizes of ``state.STATE_DTYPE`` (victory_target <= 127, max_rounds and
competition_expiry_rounds <= 32767 / N so a countdown fits int16).
"""

from __future__ import annotations

import numpy as np

from .data import (CAP_SCORING_DRAW, CAP_SCORING_VP, CASH_VP_PER_1200, CASH_VP_THRESHOLD, COMPETITION_EXPIRY_ROUNDS,
                   MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, PRICE_DYNAMITE_ALT, PRICE_EXTRA_GANG, TURN_CAP_ROUNDS)

OPTION_NAMES = ("num_players", "victory_target", "cash_vp_mode", "two_player_extra_desperado", "alt_dynamite",
                "alt_extra_gang", "dynamite_price_alt", "extra_gang_price", "component_limits",
                "allow_hold_in_city", "competition_expiry_rounds", "max_rounds", "cap_scoring", "auto_forced",
                "max_decisions")
CASH_VP_MODES = {"per_1200": CASH_VP_PER_1200, "threshold": CASH_VP_THRESHOLD}
CAP_SCORINGS = {"vp": CAP_SCORING_VP, "draw": CAP_SCORING_DRAW}


def parse_options(num_players: int = 4, victory_target: int | None = None, cash_vp_mode: str = "per_1200",
                  two_player_extra_desperado: bool = True, alt_dynamite: bool = False, alt_extra_gang: bool = False,
                  dynamite_price_alt: int = PRICE_DYNAMITE_ALT, extra_gang_price: int = PRICE_EXTRA_GANG,
                  component_limits: bool = True, allow_hold_in_city: bool = True,
                  competition_expiry_rounds: int = COMPETITION_EXPIRY_ROUNDS, max_rounds: int = TURN_CAP_ROUNDS,
                  cap_scoring: str = "vp", auto_forced: bool = True, max_decisions: int = MAX_DECISIONS,
                  **unknown) -> dict:
    """Validate Wild West Express options and fill in the defaults (§15)."""
    if unknown:
        raise ValueError(f"unknown Wild West Express option(s) {sorted(unknown)}; options are {list(OPTION_NAMES)}")
    num_players = _parse_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    if victory_target is not None:
        victory_target = _parse_int("victory_target", victory_target, 5, 127)
    return {
        "num_players": num_players,
        "victory_target": victory_target,
        "cash_vp_mode": _parse_choice("cash_vp_mode", cash_vp_mode, CASH_VP_MODES),
        "two_player_extra_desperado": _parse_bool("two_player_extra_desperado", two_player_extra_desperado),
        "alt_dynamite": _parse_bool("alt_dynamite", alt_dynamite),
        "alt_extra_gang": _parse_bool("alt_extra_gang", alt_extra_gang),
        "dynamite_price_alt": _parse_int("dynamite_price_alt", dynamite_price_alt, 0, 32767),
        "extra_gang_price": _parse_int("extra_gang_price", extra_gang_price, 0, 32767),
        "component_limits": _parse_bool("component_limits", component_limits),
        "allow_hold_in_city": _parse_bool("allow_hold_in_city", allow_hold_in_city),
        "competition_expiry_rounds": _parse_int("competition_expiry_rounds", competition_expiry_rounds, 0,
                                                32767 // MAX_PLAYERS),
        "max_rounds": _parse_int("max_rounds", max_rounds, 1, 32767),
        "cap_scoring": _parse_choice("cap_scoring", cap_scoring, CAP_SCORINGS),
        "auto_forced": _parse_bool("auto_forced", auto_forced),
        "max_decisions": _parse_int("max_decisions", max_decisions, 1, 2**31 - 1),
    }


def kernel_arguments(options: dict) -> tuple:
    """The parsed options as the scalar arguments of ``rules.init`` after ``seeds`` (in order)."""
    return (options["num_players"], options["victory_target"] or 0, CASH_VP_MODES[options["cash_vp_mode"]],
            options["two_player_extra_desperado"], options["alt_dynamite"], options["alt_extra_gang"],
            options["dynamite_price_alt"], options["extra_gang_price"], options["component_limits"],
            options["allow_hold_in_city"], options["competition_expiry_rounds"], options["max_rounds"],
            CAP_SCORINGS[options["cap_scoring"]], options["auto_forced"], options["max_decisions"])


def _parse_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def _parse_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _parse_choice(name: str, value, choices: dict) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value
