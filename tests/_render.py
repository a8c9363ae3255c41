"""What the games' renderer tests share: whether the render extra is installed, read-only rendering and the
checks made of every game's RGB picture."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

HAS_RASTER = all(importlib.util.find_spec(m) is not None for m in ("resvg_py", "PIL"))  # the render extra
needs_raster = pytest.mark.skipif(not HAS_RASTER, reason="the render extra (resvg-py, Pillow) is not installed")


def assert_rendering_is_read_only(game, states: np.ndarray, *readers) -> None:
    """Each of ``readers`` (a text renderer, the action names) and, with the render extra, ``render_rgb`` leave
    the record bytes unchanged."""
    before = states.tobytes()
    for read in readers:
        read(states)
    if HAS_RASTER:
        game.render_rgb(states)
    assert states.tobytes() == before


def checked_picture(game, svg, record: np.void, min_colours: int) -> np.ndarray:
    """The RGB picture of ``record``, checked to be the drawing's size in uint8 with more than ``min_colours``
    colours."""
    image = game.render_rgb(record)
    assert image.shape == (svg.HEIGHT, svg.WIDTH, 3) and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > min_colours
    return image
