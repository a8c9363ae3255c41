"""The one list of registered games, and ``make``.

Adding a game adds one entry to ``GAMES``; tests, benchmarks, training and
evaluation parametrize over it. Each entry names the module that provides
``env(**options)``, ``raw_env`` and the batched ``GAME``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES: dict[str, str] = {
    "colt_express_v0": "wildwest_envs.colt_express_v0",
    "wild_west_express_v0": "wildwest_envs.wild_west_express_v0",
    "way_out_west_v0": "wildwest_envs.way_out_west_v0",
    "rail_v0": "wildwest_envs.rail_v0",
}
PETTINGZOO_NAMESPACE = "wildwest_envs"


def canonical_name(name: str) -> str:
    """``"colt_express"``, ``"colt_express_v0"`` or ``"wildwest_envs/colt_express-v0"`` -> ``"colt_express_v0"``."""
    if not isinstance(name, str):
        raise TypeError(f"game name must be a string, got {type(name).__name__}")
    short = name.split("/")[-1].replace("-v", "_v")
    for candidate in (short, f"{short}_v0"):
        if candidate in GAMES:
            return candidate
    raise ValueError(f"unknown game {name!r}; registered games: {sorted(GAMES)}")


def game_module(name: str) -> ModuleType:
    """The module of a registered game (``env``, ``raw_env``, ``GAME``)."""
    return importlib.import_module(GAMES[canonical_name(name)])


def make(name: str, **options):
    """A PettingZoo AEC env of the registered game ``name`` (see its ``env`` for options)."""
    return game_module(name).env(**options)


def get_game(name: str):
    """The batched ``Game`` of a registered game."""
    return game_module(name).GAME


def register_with_pettingzoo() -> None:
    """Register every game in PettingZoo's registry, if this PettingZoo has one.

    Afterwards ``pettingzoo.make("aec", "wildwest_envs/colt_express-v0")`` works.
    """
    try:
        from pettingzoo import register
    except ImportError:  # PettingZoo before the registry
        return
    from pettingzoo.env_registry.registration import aec_registry
    for name, module in GAMES.items():
        game_id = f"{PETTINGZOO_NAMESPACE}/{name.replace('_v', '-v')}"
        if game_id not in aec_registry:
            register("aec", game_id, entry_point=f"{module}:env")
