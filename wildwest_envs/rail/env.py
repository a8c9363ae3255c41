"""Rail — the PettingZoo AEC environment (``rail_v0``).

(The full documentation page is written once the game is complete.)
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from ..core.aec import GameAECEnv
from .game import GAME


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo naming)
    """Rail AEC environment without wrappers (see the module docstring)."""

    game = GAME
    metadata = {"name": "rail_v0", "render_modes": ["ansi", "human", "rgb_array"],
                "is_parallelizable": False, "render_fps": 2}


def env(**options) -> GameAECEnv:
    """Rail AEC env, wrapped the PettingZoo way (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
