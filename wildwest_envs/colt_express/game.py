"""Colt Express bound into the library's batched ``Game`` API (``core.game``)."""

from __future__ import annotations

from ..core.game import Game

GAME = Game.from_package("colt_express_v0", __package__, score_scale=1000.0)
