"""Rail options (spec §4), declared once (``core.options``) and validated with clear errors.

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
| ``auto_forced`` | True | bool (the spec's ``auto_forced_actions``, still accepted) | §11.4 |
| ``max_decisions`` | 50,000 | int 1..2^31-1: the spec's ``max_env_steps`` (library truncation) | §11.4 |
| ``expert`` | False | bool: the default of the three expert rules | §9 |
| ``start_player`` | None | None (the roll-off of §5) or a seat 0..N-1 (no roll-off) | §5 |

``expert=True`` switches on co-building, international lines and races and the
flat usage fee (the rulebook's rules for experienced players) unless they are
given explicitly. The map is not an option: a ``Game`` is bound to one map
(``rail.game.make_game``). The action encoding is fixed (``data`` module
docstring). ``reward_mode`` and ``render_mode`` belong to the env layer.
"""

from __future__ import annotations

import numpy as np

from ..core.options import (Option, OptionTable, auto_forced_option, boolean, check_integer, choice, integer,
                             max_decisions_option, start_player_option)
from .data import (DEFAULT_PRIZES, END_MODES, END_POINTS, EXTENSION_MODES, MAX_DECISIONS, MAX_PLAYERS, MAX_PRIZES,
                   MIN_PLAYERS, N_OPTION_VALUES, OPT_AUTO_FORCED, OPT_AVOID_REPEAT, OPT_BONUS, OPT_BUILD_DICE,
                   OPT_BUILD_ROUNDS, OPT_COOP, OPT_DISTINCT_DIRS, OPT_EARLY_END, OPT_END_MODE, OPT_EXT_10PCT,
                   OPT_EXT_CAP, OPT_EXT_MODE, OPT_FEE_CAP, OPT_FEE_PER_STEP, OPT_FERRIES, OPT_FLAT_FEE,
                   OPT_INTERNATIONAL, OPT_INTL_EVERY, OPT_MAX_DECISIONS, OPT_MAX_RACES, OPT_N_CANDIDATES,
                   OPT_N_PRIZES, OPT_NUM_PLAYERS, OPT_PRIZES, OPT_RACE_MIN_DISTANCE, OPT_RACES_TOTAL,
                   OPT_RESOLUTION, OPT_SHARED_ROLL, OPT_START_PLAYER, OPT_TARGET, POINTS_TARGET, RESOLUTIONS,
                   START_RULES)
from .maps import RailMap


def per_count(table: dict, low: int, high: int):
    """An int, or a table by player count (keys 2..6 or '2'..'6'); ``None`` (the default) takes ``table``'s."""

    def parse(name: str, value, parsed: dict) -> int:
        n = parsed["num_players"]
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
                check_integer(f"{name}[{k}]", v, low, high)
            return int(given.get(n, table[n]))
        return check_integer(name, value, low, high)

    parse.accepts = f"int {low}..{high}, or a table {{n: value}}"
    return parse


def _by_count(table: dict):
    """The default of a per-count option: ``table``'s entry for the game's player count."""
    return lambda parsed: int(table[parsed["num_players"]])


def _parse_prizes(name: str, value, parsed: dict) -> tuple:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not 1 <= len(value) <= MAX_PRIZES:
        raise ValueError(f"prizes must be a list of 1 to {MAX_PRIZES} integers, got {value!r}")
    return tuple(check_integer("prizes entry", v, 0, 10000) for v in value)


def _or_expert(parsed: dict) -> bool:
    """The default of the three expert rules: the ``expert`` option."""
    return parsed["expert"]


def make_options(rail_map: RailMap) -> OptionTable:
    """The options of a map's ``Game`` (defaults from the map's tables)."""
    return OptionTable("Rail", size=N_OPTION_VALUES, options=(
        Option("num_players", 3, integer(MIN_PLAYERS, MAX_PLAYERS), slot=OPT_NUM_PLAYERS, doc="players",
               section="§5"),
        Option("build_dice", 2, choice({1: 1, 2: 2}), slot=OPT_BUILD_DICE,
               doc="2: both dice give build points; 1: the white die only", section="§6.3"),
        Option("shared_build_roll", False, boolean(), slot=OPT_SHARED_ROLL,
               doc="one build roll for every player of a round", section="§6.3"),
        Option("build_rounds", _by_count(rail_map.build_rounds), per_count(rail_map.build_rounds, 1, 1000),
               slot=OPT_BUILD_ROUNDS,
               doc="building rounds (None: the map's table by player count)", section="§6.10"),
        Option("build_early_end", True, boolean(), slot=OPT_EARLY_END,
               doc="building ends early when every city is connected", section="§6.10"),
        Option("connection_bonus", 6, integer(0, 1000), slot=OPT_BONUS,
               doc="points for connecting a city first", section="§6.9"),
        Option("race_min_distance", 6, integer(1, 1000), slot=OPT_RACE_MIN_DISTANCE,
               doc="least distance between a race's start and goal", section="§7.2"),
        Option("route_candidates", 3, integer(1, 3), slot=OPT_N_CANDIDATES, doc="route candidates per seat",
               section="§7.5"),
        Option("usage_fee_per_step", 1, integer(0, 1000), slot=OPT_FEE_PER_STEP,
               doc="fee per step travelled on a rival's line", section="§7.7"),
        Option("usage_fee_cap", 10, integer(0, 1000), slot=OPT_FEE_CAP, doc="most fees paid per race",
               section="§7.7"),
        Option("prizes", DEFAULT_PRIZES, _parse_prizes, slot=OPT_PRIZES, width=MAX_PRIZES, count_slot=OPT_N_PRIZES,
               accepts=f"1 to {MAX_PRIZES} ints 0..10000", doc="race prizes, best place first",
               section="§7.8, §7.9"),
        Option("race_resolution", "dice", choice(RESOLUTIONS), slot=OPT_RESOLUTION,
               doc="how a race is run", section="§7.8, §9.6"),
        Option("extension_mode", "account", choice(EXTENSION_MODES), slot=OPT_EXT_MODE,
               doc="how extensions are paid", section="§7.10"),
        Option("extension_cap", 12, integer(0, 1000), slot=OPT_EXT_CAP, doc="most steps of an extension",
               section="§7.10"),
        Option("extension_10pct", False, boolean(), slot=OPT_EXT_10PCT, doc="the 10% extension variant",
               section="§9.6"),
        Option("end_mode", "points", choice(END_MODES), slot=OPT_END_MODE,
               doc="the game ends at a points target or after a number of races", section="§7.11"),
        Option("points_target", _by_count(POINTS_TARGET), per_count(POINTS_TARGET, 1, 10**9), slot=OPT_TARGET,
               doc="points that end the game (None: the table by player count)", section="§7.11"),
        Option("races_total", 36, integer(1, 10000), slot=OPT_RACES_TOTAL, doc="races of a game in races mode",
               section="§7.11"),
        Option("avoid_repeat_cities", lambda parsed: END_MODES[parsed["end_mode"]] != END_POINTS, boolean(),
               slot=OPT_AVOID_REPEAT, doc="races avoid cities already raced (default: in races mode)",
               section="§7.2"),
        Option("max_races", 100, integer(1, 10000), slot=OPT_MAX_RACES, doc="the game's own race cap",
               section="§7.11"),
        Option("coop_building", _or_expert, boolean(), slot=OPT_COOP, doc="co-building (default: expert)",
               section="§9.1"),
        Option("international", _or_expert, boolean(), slot=OPT_INTERNATIONAL,
               doc="international lines and races (default: expert)", section="§9.2, §9.3"),
        Option("international_every", 6, integer(1, 10000), slot=OPT_INTL_EVERY,
               doc="every how many races one is international", section="§9.3"),
        Option("flat_usage_fee", _or_expert, boolean(), slot=OPT_FLAT_FEE, doc="the flat usage fee (default: expert)",
               section="§9.4"),
        Option("ferries", lambda parsed: rail_map.tables.ferries.shape[0] > 0, boolean(), slot=OPT_FERRIES,
               doc="ferries (default: if the map has any)", section="§9.5"),
        auto_forced_option(True, OPT_AUTO_FORCED, "§11.4", aliases=("auto_forced_actions",)),
        max_decisions_option(MAX_DECISIONS, OPT_MAX_DECISIONS, section="§11.4"),
        Option("expert", False, boolean(), doc="the default of the three expert rules", section="§9"),
        start_player_option(OPT_START_PLAYER, "§5"),
    ), parse_first=("num_players", "expert"))


def kernel_options(options: dict, rail_map: RailMap) -> np.ndarray:
    """The parsed options as the int64 vector of ``rules.init`` (laid out by ``data.OPT_*``), with the map's
    start rule."""
    vector = make_options(rail_map).kernel_vector(options)
    vector[OPT_DISTINCT_DIRS] = START_RULES[rail_map.start_rule]
    return vector
