"""Colt Express options (spec §3.5), declared once (``core.options``) and validated with clear errors.

| option | values | default |
|---|---|---|
| ``num_players`` | 2-6 | 3 |
| ``expert`` | bool; with 2 players always true (explicit ``False`` is an error) | false (true with 2) |
| ``characters`` | one character per bandit (id 0-5 or name), all different | random |
| ``carriages`` | C distinct carriage types 0-5, front to back (C = N, 4 with 2 players) | random |
| ``auto_forced`` | bool (§11.4; the spec's ``auto_resolve_forced``, still accepted) | true |
| ``max_decisions`` | turn cap, 1..32767: the game is truncated after this many decisions | 700 (§2.10: never reached) |
| ``start_player`` | None (drawn, G26) or a seat 0..N-1 (the deal is the seed's either way) | None |

``OPTIONS.kernel_vector`` lays them out for ``rules.init`` at the ``data.OPT_*``
slots (characters and carriages padded with ``RANDOM``).
"""

from __future__ import annotations

from ..core.options import (Option, OptionTable, auto_forced_option, boolean, integer, is_integer,
                             max_decisions_option, sequence, start_player_option)
from .data import (CHARACTER_NAMES, MAX_BANDITS, MAX_CARS, MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, N_CARRIAGE_TYPES,
                   N_OPTION_VALUES, OPT_AUTO_FORCED, OPT_CARRIAGES, OPT_CHARACTERS, OPT_EXPERT, OPT_MAX_DECISIONS,
                   OPT_NUM_PLAYERS, OPT_START_PLAYER, RANDOM)


def _n_bandits(parsed: dict) -> int:
    """Bandits (and carriages) of the game: one per player, four with two players (§3.3)."""
    return 4 if parsed["num_players"] == 2 else parsed["num_players"]


def _parse_expert(name: str, value, parsed: dict) -> bool:
    expert = boolean()(name, value, parsed)
    if parsed["num_players"] == 2 and not expert:
        raise ValueError("the two-player game always uses the expert rules (§3.3): expert=False is invalid")
    return expert


def _parse_characters(name: str, characters, parsed: dict):
    if characters is None:
        return None
    n_bandits = _n_bandits(parsed)
    ids = []
    for c in sequence(name, characters):
        if isinstance(c, str) and c.capitalize() in CHARACTER_NAMES:
            ids.append(CHARACTER_NAMES.index(c.capitalize()))
        elif is_integer(c) and 0 <= c < len(CHARACTER_NAMES):
            ids.append(int(c))
        else:
            raise ValueError(f"unknown character {c!r}; use ids 0-5 or names {list(CHARACTER_NAMES)}")
    if len(ids) != n_bandits or len(set(ids)) != n_bandits:
        raise ValueError(f"characters must name {n_bandits} different characters (one per bandit), got {characters!r}")
    return tuple(ids)


def _parse_carriages(name: str, carriages, parsed: dict):
    if carriages is None:
        return None
    n_carriages = _n_bandits(parsed)
    types = sequence(name, carriages)
    if (len(types) != n_carriages or len(set(types)) != n_carriages
            or any(not is_integer(t) or not 0 <= t < N_CARRIAGE_TYPES for t in types)):
        raise ValueError(f"carriages must be {n_carriages} different carriage types 0-5, front to back; "
                         f"got {carriages!r}")
    return tuple(int(t) for t in types)


def _random_if_none(value):
    return () if value is None else value


OPTIONS = OptionTable("Colt Express", size=N_OPTION_VALUES, options=(
    Option("num_players", 3, integer(MIN_PLAYERS, MAX_PLAYERS), slot=OPT_NUM_PLAYERS,
           doc="players (with 2, each plays two bandits)", section="§3.3"),
    Option("expert", lambda parsed: parsed["num_players"] == 2, _parse_expert, slot=OPT_EXPERT, accepts="bool",
           doc="the expert rules (always on with 2 players)", section="§3.5"),
    Option("characters", None, _parse_characters, slot=OPT_CHARACTERS, width=MAX_BANDITS, pad=RANDOM,
           encode=_random_if_none, accepts="None or one id 0-5 or name per bandit, all different",
           doc="the bandits' characters (None: drawn at random)", section="§3.1"),
    Option("carriages", None, _parse_carriages, slot=OPT_CARRIAGES, width=MAX_CARS - 1, pad=RANDOM,
           encode=_random_if_none, accepts="None or one type 0-5 per carriage, all different",
           doc="the carriages front to back (None: drawn at random)", section="§3.2"),
    auto_forced_option(True, OPT_AUTO_FORCED, "§11.4", aliases=("auto_resolve_forced",)),
    max_decisions_option(MAX_DECISIONS, OPT_MAX_DECISIONS, high=32767, section="§2.10"),
    start_player_option(OPT_START_PLAYER, "§3.1"),
))
OPTION_NAMES = OPTIONS.names
parse_options = OPTIONS.parse
kernel_options = OPTIONS.kernel_vector
