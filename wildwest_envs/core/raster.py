"""SVG drawings as pixels: ``render_mode="rgb_array"`` is a game's SVG drawing (``<game>.svg.draw``), rasterized.

One drawing per game: the picture of ``render_mode="rgb_array"``, the replay viewer, web play and the README
pictures all come from the same ``draw`` function. The rasterizer is resvg (``resvg-py``, a self-contained
wheel: no system library) and the PNG it writes is decoded by Pillow; both come with the ``render`` extra
(``pip install "wildwest_envs[render]"``) and are imported on first use, so the library imports without them.
Text is drawn with the machine's fonts (DejaVu Sans where installed); without any font the board is drawn
without its labels. Usage::

    from wildwest_envs.core.raster import svg_to_rgb
    image = svg_to_rgb('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>')  # (2, 4, 3) uint8
"""

from __future__ import annotations

import io

import numpy as np

INSTALL_HINT = 'render_mode="rgb_array" needs the render extra: pip install "wildwest_envs[render]"'


def svg_to_rgb(svg: str, background: str = "white") -> np.ndarray:
    """An ``(H, W, 3)`` uint8 picture of an SVG document, at its own ``width`` x ``height`` in pixels.

    Args:
        svg: a complete ``<svg>`` document (text).
        background: the colour behind transparent parts.

    Raises:
        TypeError: ``svg`` is not a str.
        ValueError: ``svg`` is not a drawable SVG document.
        ImportError: resvg-py or Pillow is missing (the message says how to install them).
    """
    if not isinstance(svg, str):
        raise TypeError(f"svg must be a str, got {type(svg).__name__}")
    try:
        import resvg_py
        from PIL import Image
    except ImportError as missing:
        raise ImportError(f"{INSTALL_HINT} ({missing})") from missing
    try:
        png = resvg_py.svg_to_bytes(svg_string=svg, background=background)
    except Exception as error:  # resvg raises its own error types for unparsable documents
        raise ValueError(f"not a drawable SVG document: {error}") from error
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
