"""Wild West Express bound into the library's batched ``Game`` API (``core.game``)."""

from __future__ import annotations

import numpy as np

from ..core.chance import die
from ..core.game import Game
from .data import CAP_SCORING_DRAW


def _capped(states: np.ndarray) -> np.ndarray:
    """Games ended by the round cap or the per-turn safety limit (§14.4): truncated, scored by VP."""
    return states["capped"].astype(bool)


def _no_result(states: np.ndarray) -> np.ndarray:
    """Capped games scored as a draw (``cap_scoring="draw"``): every player gets 0 (§14.5)."""
    return states["capped"].astype(bool) & (states["cap_scoring"] == CAP_SCORING_DRAW)


GAME = Game.from_package("wild_west_express_v0", __package__, score_scale=1.0, capped_fn=_capped,
                         no_result_fn=_no_result, chance_kinds=(die(),))  # the dice of §8-§10
