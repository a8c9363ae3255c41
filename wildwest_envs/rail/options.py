"""Rail options (spec §4), validated once with clear errors.

| option | default | values | § |
|---|---|---|---|
| ``num_players`` | 3 | 2..6 | §5 |
| ``build_dice`` | 2 | 2 (both dice), 1 (white die only) | §6.3 |
| ``shared_build_roll`` | False | bool | §6.3 |
| ``build_rounds`` | the map's table (2p 20, 3p 14, 4p 11, 5p 9, 6p 8) | int 1..1000, or a table {n: rounds} | §6.10 |
| ``build_early_end`` | True | bool | §6.10 |
| ``connection_bonus`` | 6 | int 0..1000 | §6.9 |
| ``race_min_distance`` | 6 | int 1..1000 | §7.2 |
| ``route_candidates`` | 3 | 1..3 | §7.5 |
| ``usage_fee_per_step`` | 1 | int 0..1000 | §7.7 |
| ``usage_fee_cap`` | 10 | int 0..1000 | §7.7 |
| ``prizes`` | (20, 10) | 1 to 6 ints 0..10000, best place first | §7.8, §7.9 |
| ``race_resolution`` | ``"dice"`` | ``"dice"``, ``"route_length"`` | §7.8, §9.6 |
| ``extension_mode`` | ``"account"`` | ``"account"``, ``"dice"``, ``"dice_or_account"`` | §7.10 |
| ``extension_cap`` | 12 | int 0..1000 | §7.10 |
| ``extension_10pct`` | False | bool | §9.6 |
| ``end_mode`` | ``"points"`` | ``"points"``, ``"races"`` | §7.11 |
| ``points_target`` | 2-3p 250, 4p 225, 5-6p 200 | int 1..10^9, or a table {n: target} | §7.11 |
| ``races_total`` | 36 | int 1..10000 | §7.11 |
| ``avoid_repeat_cities`` | True in "races" mode, else False | bool or None (the default) | §7.2 |
| ``max_races`` | 100 | int 1..10000 | §7.11 |
| ``coop_building`` | ``expert`` | bool | §9.1 |
| ``international`` | ``expert`` | bool (needs the map's race table for races) | §9.2, §9.3 |
| ``international_every`` | 6 | int 1..10000 | §9.3 |
| ``flat_usage_fee`` | ``expert`` | bool | §9.4 |
| ``ferries`` | True if the map has ferries | bool or None (the default) | §9.5 |
| ``auto_forced_actions`` | True | bool | §11.4 |
| ``max_decisions`` | 50,000 | int 1..2^31-1: the spec's ``max_env_steps`` (library truncation) | §11.4 |
| ``expert`` | False | bool: the default of the three expert rules | §9 |

``expert=True`` switches on co-building, international lines and races and the
flat usage fee (the rulebook's rules for experienced players) unless they are
given explicitly. The map is not an option: a ``Game`` is bound to one map
(``rail.game.make_game``). The action encoding is fixed (``data`` module
docstring). ``reward_mode`` and ``render_mode`` belong to the env layer.
"""

from __future__ import annotations

import numpy as np

from .data import (DEFAULT_PRIZES, END_MODES, END_POINTS, EXTENSION_MODES, MAX_DECISIONS, MAX_PLAYERS, MAX_PRIZES,
                   MIN_PLAYERS, N_OPTION_VALUES, OPT_AUTO_FORCED, OPT_AVOID_REPEAT, OPT_BONUS, OPT_BUILD_DICE,
                   OPT_BUILD_ROUNDS, OPT_COOP, OPT_DISTINCT_DIRS, OPT_EARLY_END, OPT_END_MODE, OPT_EXT_10PCT,
                   OPT_EXT_CAP, OPT_EXT_MODE, OPT_FEE_CAP, OPT_FEE_PER_STEP, OPT_FERRIES, OPT_FLAT_FEE,
                   OPT_INTERNATIONAL, OPT_INTL_EVERY, OPT_MAX_DECISIONS, OPT_MAX_RACES, OPT_N_CANDIDATES,
                   OPT_N_PRIZES, OPT_NUM_PLAYERS, OPT_PRIZES, OPT_RACE_MIN_DISTANCE, OPT_RACES_TOTAL,
                   OPT_RESOLUTION, OPT_SHARED_ROLL, OPT_TARGET, POINTS_TARGET, RESOLUTIONS, START_RULES)
from .maps import RailMap

OPTION_NAMES = ("num_players", "build_dice", "shared_build_roll", "build_rounds", "build_early_end",
                "connection_bonus", "race_min_distance", "route_candidates", "usage_fee_per_step", "usage_fee_cap",
                "prizes", "race_resolution", "extension_mode", "extension_cap", "extension_10pct", "end_mode",
                "points_target", "races_total", "avoid_repeat_cities", "max_races", "coop_building",
                "international", "international_every", "flat_usage_fee", "ferries", "auto_forced_actions",
                "max_decisions", "expert")


def make_parser(rail_map: RailMap):
    """The ``parse_options`` function of a map's ``Game`` (defaults from the map's tables)."""

    def parse_options(num_players: int = 3, build_dice: int = 2, shared_build_roll: bool = False,
                      build_rounds=None, build_early_end: bool = True, connection_bonus: int = 6,
                      race_min_distance: int = 6, route_candidates: int = 3, usage_fee_per_step: int = 1,
                      usage_fee_cap: int = 10, prizes=DEFAULT_PRIZES, race_resolution: str = "dice",
                      extension_mode: str = "account", extension_cap: int = 12, extension_10pct: bool = False,
                      end_mode: str = "points", points_target=None, races_total: int = 36,
                      avoid_repeat_cities: bool | None = None, max_races: int = 100, coop_building: bool | None = None,
                      international: bool | None = None, international_every: int = 6,
                      flat_usage_fee: bool | None = None, ferries: bool | None = None,
                      auto_forced_actions: bool = True, max_decisions: int = MAX_DECISIONS, expert: bool = False,
                      **unknown) -> dict:
        """Validate Rail options and fill in the defaults (§4; see the ``options`` module docstring)."""
        if unknown:
            raise ValueError(f"unknown Rail option(s) {sorted(unknown)}; options are {list(OPTION_NAMES)}")
        n = _int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        expert = _bool("expert", expert)
        end = _choice("end_mode", end_mode, END_MODES)
        return {
            "num_players": n,
            "build_dice": _choice("build_dice", build_dice, {1: 1, 2: 2}),
            "shared_build_roll": _bool("shared_build_roll", shared_build_roll),
            "build_rounds": _per_count("build_rounds", build_rounds, rail_map.build_rounds, n, 1, 1000),
            "build_early_end": _bool("build_early_end", build_early_end),
            "connection_bonus": _int("connection_bonus", connection_bonus, 0, 1000),
            "race_min_distance": _int("race_min_distance", race_min_distance, 1, 1000),
            "route_candidates": _int("route_candidates", route_candidates, 1, 3),
            "usage_fee_per_step": _int("usage_fee_per_step", usage_fee_per_step, 0, 1000),
            "usage_fee_cap": _int("usage_fee_cap", usage_fee_cap, 0, 1000),
            "prizes": _prizes(prizes),
            "race_resolution": _choice("race_resolution", race_resolution, RESOLUTIONS),
            "extension_mode": _choice("extension_mode", extension_mode, EXTENSION_MODES),
            "extension_cap": _int("extension_cap", extension_cap, 0, 1000),
            "extension_10pct": _bool("extension_10pct", extension_10pct),
            "end_mode": end,
            "points_target": _per_count("points_target", points_target, POINTS_TARGET, n, 1, 10**9),
            "races_total": _int("races_total", races_total, 1, 10000),
            "avoid_repeat_cities": (END_MODES[end] != END_POINTS if avoid_repeat_cities is None
                                    else _bool("avoid_repeat_cities", avoid_repeat_cities)),
            "max_races": _int("max_races", max_races, 1, 10000),
            "coop_building": expert if coop_building is None else _bool("coop_building", coop_building),
            "international": expert if international is None else _bool("international", international),
            "international_every": _int("international_every", international_every, 1, 10000),
            "flat_usage_fee": expert if flat_usage_fee is None else _bool("flat_usage_fee", flat_usage_fee),
            "ferries": rail_map.tables.ferries.shape[0] > 0 if ferries is None else _bool("ferries", ferries),
            "auto_forced_actions": _bool("auto_forced_actions", auto_forced_actions),
            "max_decisions": _int("max_decisions", max_decisions, 1, 2**31 - 1),
            "expert": expert,
        }

    return parse_options


def kernel_options(options: dict, rail_map: RailMap) -> np.ndarray:
    """The parsed options as the int64 vector of ``rules.init`` (laid out by ``data.OPT_*``)."""
    o = np.zeros(N_OPTION_VALUES, dtype=np.int64)
    o[OPT_NUM_PLAYERS] = options["num_players"]
    o[OPT_BUILD_DICE] = options["build_dice"]
    o[OPT_SHARED_ROLL] = options["shared_build_roll"]
    o[OPT_BUILD_ROUNDS] = options["build_rounds"]
    o[OPT_EARLY_END] = options["build_early_end"]
    o[OPT_BONUS] = options["connection_bonus"]
    o[OPT_RACE_MIN_DISTANCE] = options["race_min_distance"]
    o[OPT_N_CANDIDATES] = options["route_candidates"]
    o[OPT_FEE_PER_STEP] = options["usage_fee_per_step"]
    o[OPT_FEE_CAP] = options["usage_fee_cap"]
    o[OPT_N_PRIZES] = len(options["prizes"])
    o[OPT_PRIZES:OPT_PRIZES + len(options["prizes"])] = options["prizes"]
    o[OPT_RESOLUTION] = RESOLUTIONS[options["race_resolution"]]
    o[OPT_EXT_MODE] = EXTENSION_MODES[options["extension_mode"]]
    o[OPT_EXT_CAP] = options["extension_cap"]
    o[OPT_EXT_10PCT] = options["extension_10pct"]
    o[OPT_END_MODE] = END_MODES[options["end_mode"]]
    o[OPT_TARGET] = options["points_target"]
    o[OPT_RACES_TOTAL] = options["races_total"]
    o[OPT_AVOID_REPEAT] = options["avoid_repeat_cities"]
    o[OPT_MAX_RACES] = options["max_races"]
    o[OPT_COOP] = options["coop_building"]
    o[OPT_INTERNATIONAL] = options["international"]
    o[OPT_INTL_EVERY] = options["international_every"]
    o[OPT_FLAT_FEE] = options["flat_usage_fee"]
    o[OPT_FERRIES] = options["ferries"]
    o[OPT_DISTINCT_DIRS] = START_RULES[rail_map.start_rule]
    o[OPT_AUTO_FORCED] = options["auto_forced_actions"]
    o[OPT_MAX_DECISIONS] = options["max_decisions"]
    return o


def _int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def _bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _choice(name: str, value, choices: dict):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, type(next(iter(choices)))) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def _per_count(name: str, value, table: dict, n: int, low: int, high: int) -> int:
    """An int, or a table by player count (keys 2..6 or '2'..'6'), or None for the default table."""
    if value is None:
        return int(table[n])
    if isinstance(value, dict):
        try:
            given = {int(k): v for k, v in value.items()}
        except (TypeError, ValueError):
            raise ValueError(f"{name} table keys must be player counts 2..6, got {list(value)}") from None
        if any(k not in range(MIN_PLAYERS, MAX_PLAYERS + 1) for k in given):
            raise ValueError(f"{name} table keys must be player counts 2..6, got {list(value)}")
        for k, v in given.items():
            _int(f"{name}[{k}]", v, low, high)
        return int(given.get(n, table[n]))
    return _int(name, value, low, high)


def _prizes(value) -> tuple:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not 1 <= len(value) <= MAX_PRIZES:
        raise ValueError(f"prizes must be a list of 1 to {MAX_PRIZES} integers, got {value!r}")
    return tuple(_int("prizes entry", v, 0, 10000) for v in value)
