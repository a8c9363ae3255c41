"""Colt Express options (spec §3.5), validated once with clear errors.

| option | values | default |
|---|---|---|
| ``num_players`` | 2-6 | 3 |
| ``expert`` | bool; with 2 players always true (explicit ``False`` is an error) | false (true with 2) |
| ``characters`` | one character per bandit (id 0-5 or name), all different | random |
| ``carriages`` | C distinct carriage types 0-5, front to back (C = N, 4 with 2 players) | random |
| ``auto_resolve_forced`` | bool (§11.4) | true |
| ``max_decisions`` | turn cap, 1..32767: the game is truncated after this many decisions | 700 (§2.10: never reached) |
"""

from __future__ import annotations

import numpy as np

from .data import CHARACTER_NAMES, MAX_BANDITS, MAX_CARS, MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, \
    N_CARRIAGE_TYPES, RANDOM

OPTION_NAMES = ("num_players", "expert", "characters", "carriages", "auto_resolve_forced", "max_decisions")


def parse_options(num_players: int = 3, expert: bool | None = None, characters=None, carriages=None,
                  auto_resolve_forced: bool = True, max_decisions: int = MAX_DECISIONS, **unknown) -> dict:
    """Validate Colt Express options and fill in the defaults (§3.5)."""
    if unknown:
        raise ValueError(f"unknown Colt Express option(s) {sorted(unknown)}; options are {list(OPTION_NAMES)}")
    if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
            or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, got {num_players!r}")
    num_players = int(num_players)
    if expert is None:
        expert = num_players == 2
    if not isinstance(expert, (bool, np.bool_)):
        raise ValueError(f"expert must be True or False, got {expert!r}")
    if num_players == 2 and not expert:
        raise ValueError("the two-player game always uses the expert rules (§3.3): expert=False is invalid")
    n_bandits = 4 if num_players == 2 else num_players
    n_carriages = 4 if num_players == 2 else num_players
    return {
        "num_players": num_players,
        "expert": bool(expert),
        "characters": _parse_characters(characters, n_bandits),
        "carriages": _parse_carriages(carriages, n_carriages),
        "auto_resolve_forced": _parse_bool("auto_resolve_forced", auto_resolve_forced),
        "max_decisions": _parse_cap(max_decisions),
    }


def characters_array(options: dict) -> np.ndarray:
    """The ``characters`` option as the init kernel's int8[6] (RANDOM-filled)."""
    return _padded(options["characters"], MAX_BANDITS)


def carriages_array(options: dict) -> np.ndarray:
    """The ``carriages`` option as the init kernel's int8[6] (RANDOM-filled)."""
    return _padded(options["carriages"], MAX_CARS - 1)


def _padded(values, size: int) -> np.ndarray:
    out = np.full(size, RANDOM, dtype=np.int8)
    if values is not None:
        out[:len(values)] = values
    return out


def _parse_characters(characters, n_bandits: int):
    if characters is None:
        return None
    ids = []
    for c in _as_list("characters", characters):
        if isinstance(c, str) and c.capitalize() in CHARACTER_NAMES:
            ids.append(CHARACTER_NAMES.index(c.capitalize()))
        elif isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < len(CHARACTER_NAMES):
            ids.append(int(c))
        else:
            raise ValueError(f"unknown character {c!r}; use ids 0-5 or names {list(CHARACTER_NAMES)}")
    if len(ids) != n_bandits or len(set(ids)) != n_bandits:
        raise ValueError(f"characters must name {n_bandits} different characters (one per bandit), got {characters!r}")
    return tuple(ids)


def _parse_carriages(carriages, n_carriages: int):
    if carriages is None:
        return None
    types = _as_list("carriages", carriages)
    if (len(types) != n_carriages or len(set(types)) != n_carriages
            or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < N_CARRIAGE_TYPES
                   for t in types)):
        raise ValueError(f"carriages must be {n_carriages} different carriage types 0-5, front to back; "
                         f"got {carriages!r}")
    return tuple(int(t) for t in types)


def _as_list(name: str, value) -> list:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name} must be a list, got {value!r}")
    return list(value)


def _parse_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _parse_cap(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 32767:
        raise ValueError(f"max_decisions must be an integer from 1 to 32767, got {value!r}")
    return int(value)
