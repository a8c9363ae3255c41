"""Small helpers shared by the games' SVG drawings (``<game>.svg.draw``): stable element text, no dependency.

Every drawing is built with plain string operations so that the same record always gives the same bytes:
coordinates are written with at most one decimal (``num``), attribute names are written Python-style with
underscores (``font_size=11`` becomes ``font-size="11"``, a trailing underscore is dropped so ``class_`` works),
values are XML-quoted and ``None`` leaves an attribute out. Usage::

    from wildwest_envs.core.svg import el, group, text
    group([el("rect", x=0, y=0, width=10.25, height=4, fill="#fff"), text(2, 3, "A & B")], class_="piece")
    # '<g class="piece"><rect x="0" y="0" width="10.2" height="4" fill="#fff"/><text x="2" y="3"
    #  font-size="11">A &amp; B</text></g>'
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

import numpy as np

CHAR_WIDTH = 0.56  # a rough width of one character, in font sizes (no font metrics: layout and truncation only)
BOLD_CHAR_WIDTH = 0.62


def num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros (stable text)."""
    written = f"{float(value):.1f}"
    return written[:-2] if written.endswith(".0") else written


def attrs(attributes: dict) -> str:
    """`` name="value"`` pairs; underscores in names become dashes, floats are rounded, None is left out."""
    parts = []
    for name, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = num(value)
        parts.append(f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}")
    return "".join(parts)


def el(tag: str, **attributes) -> str:
    """An empty element, e.g. ``el("circle", cx=1, cy=2, r=3)``."""
    return f"<{tag}{attrs(attributes)}/>"


def text(x: float, y: float, content: str, size: float = 11, **attributes) -> str:
    """A text element at ``(x, y)``, its content escaped."""
    return f"<text{attrs(dict(x=float(x), y=float(y), font_size=size, **attributes))}>{escape(content)}</text>"


def group(parts: list[str], **attributes) -> str:
    """A ``<g>`` element holding ``parts``."""
    return f"<g{attrs(attributes)}>" + "".join(parts) + "</g>"


def text_width(content: str, size: float, bold: bool = False) -> float:
    """A rough width of one line of text, in pixels."""
    return len(content) * size * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH)


def fit(content: str, size: float, width: float, bold: bool = False) -> str:
    """``content`` cut with an ellipsis to about ``width`` pixels."""
    if text_width(content, size, bold) <= width:
        return content
    keep = max(1, int(width / (size * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH))) - 1)
    return content[:keep].rstrip() + "\u2026"


SPECTATOR = "spectator"  # draw(state, seat=SPECTATOR): what every seat may know, and nothing private to one
SPECTATOR_SEAT = -1  # the viewer a drawing sees for SPECTATOR: equal to no seat, so it owns no secret


def check_seat(game_name: str, record: np.void, seat) -> int | None:
    """``seat`` as an int seat of ``record``'s game, ``SPECTATOR_SEAT`` (-1, a seat that holds nothing) for
    ``SPECTATOR``, or None (the omniscient view).

    Raises:
        TypeError: ``seat`` is not an int (a bool is refused too), ``SPECTATOR`` nor None.
        ValueError: ``seat`` is not a seat of this game's player count.
    """
    if seat is None:
        return None
    if isinstance(seat, str) and seat == SPECTATOR:
        return SPECTATOR_SEAT
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"{game_name}: seat must be an int, {SPECTATOR!r} or None, got {type(seat).__name__} {seat!r}")
    players = int(record["num_players"])
    if not 0 <= int(seat) < players:
        raise ValueError(f"{game_name}: seat {seat} is not a seat of this {players}-player game")
    return int(seat)


def view_label(viewer: int | None) -> str:
    """How a drawing names its point of view: ``omniscient view``, ``spectator view`` or ``view of player_k``."""
    if viewer is None:
        return "omniscient view"
    return "spectator view" if viewer == SPECTATOR_SEAT else f"view of player_{viewer}"
