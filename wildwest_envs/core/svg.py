"""Small helpers shared by the games' SVG drawings (``<game>.svg.draw``): stable element text, no dependency.

Every game's ``<game>.svg.draw(state, seat=None)`` returns the complete text of an ``<svg>`` element
(``document``), built with plain string operations: no dependency, and the same record always gives the same
bytes. It accepts one record (``states[b]``) or a batch of one and never writes to it. ``seat=None`` draws the
omniscient view, ``seat=k`` only what seat k may know and ``seat=SPECTATOR`` what every seat may know
(``check_seat``). It raises ``TypeError`` for a record of another game or a seat that is not an int, and
``ValueError`` for a batch of more than one record or a seat outside the game. Usage::

    from pathlib import Path
    from wildwest_envs.registry import get_game
    from wildwest_envs.colt_express.svg import draw  # each game's module: <game>.svg

    game = get_game("colt_express_v0")
    states = game.init(7, num_players=4)
    Path("board.svg").write_text(draw(states[0]))           # the omniscient view
    Path("seat_1.svg").write_text(draw(states[0], seat=1))  # only what seat 1 may know

In the helpers' text, coordinates are written with at most one decimal (``num``), attribute names are written
Python-style with underscores (``font_size=11`` becomes ``font-size="11"``, a trailing underscore is dropped so
``class_`` works), values are XML-quoted and ``None`` leaves an attribute out. Usage::

    from wildwest_envs.core.svg import el, group, text
    group([el("rect", x=0, y=0, width=10.25, height=4, fill="#fff"), text(2, 3, "A & B")], class_="piece")
    # '<g class="piece"><rect x="0" y="0" width="10.2" height="4" fill="#fff"/><text x="2" y="3"
    #  font-size="11">A &amp; B</text></g>'
"""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from .checks import check_record

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"  # every drawing's font family
CHAR_WIDTH = 0.56  # a rough width of one character, in font sizes (no font metrics: layout and truncation only)
BOLD_CHAR_WIDTH = 0.62


def num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros (stable text)."""
    written = f"{float(value):.1f}"
    return written[:-2] if written[-1] == "0" else written  # "12.0" -> "12" (one decimal: a final 0 is ".0")


_NEEDS_ESCAPING = re.compile(r'[&<>"\n\r\t]')  # what makes ``quoteattr`` change a value or its quotes
_ATTRIBUTE_NAMES: dict[str, str] = {}  # Python-style name -> SVG name, filled as names are met


def quoted(value: str) -> str:
    """``value`` as ``xml.sax.saxutils.quoteattr`` writes it, without its cost for the usual plain value."""
    return f'"{value}"' if _NEEDS_ESCAPING.search(value) is None else quoteattr(value)


def attrs(attributes: dict) -> str:
    """`` name="value"`` pairs; underscores in names become dashes, floats are rounded, None is left out.

    The drawings call this a few million times in the tests, so it is written for speed: the names' spelling is
    remembered and a value without a character to escape is quoted directly (the same text as ``quoteattr``).
    """
    parts = []
    for name, value in attributes.items():
        if value is None:
            continue
        svg_name = _ATTRIBUTE_NAMES.get(name)
        if svg_name is None:
            svg_name = _ATTRIBUTE_NAMES[name] = name.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            parts.append(f' {svg_name}="{num(value)}"')  # digits, sign and point: nothing to escape
        elif isinstance(value, (int, np.integer)):
            parts.append(f' {svg_name}="{value}"')
        else:
            parts.append(f" {svg_name}={quoted(str(value))}")
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


def document(width, height, title: str, background: str, parts) -> str:
    """A complete ``<svg>`` document of ``width`` x ``height`` pixels in ``FONT``: its ``<title>``, a background
    of colour ``background``, then ``parts`` (element texts) in order."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family={quoteattr(FONT)}>' + f"<title>{escape(title)}</title>"
            + el("rect", x=0, y=0, width=width, height=height, fill=background) + "".join(parts) + "</svg>")


def star(cx: float, cy: float, r: float, **attributes) -> str:
    """A five-pointed star polygon (a sheriff's or marshal's badge) of outer radius ``r`` centred on ``(cx, cy)``."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{num(cx + radius * math.cos(angle))},{num(cy - radius * math.sin(angle))}")
    return el("polygon", points=" ".join(points), **attributes)


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


def record_and_viewer(game_name: str, dtype: np.dtype, state, seat) -> tuple[np.void, int | None]:
    """What every ``draw`` checks first: the one record of ``dtype`` that ``state`` is or holds
    (``core.checks.check_record``), and ``seat`` as ``check_seat`` reads it for that record."""
    record = check_record(game_name, dtype, state)
    return record, check_seat(game_name, record, seat)


def view_label(viewer: int | None) -> str:
    """How a drawing names its point of view: ``omniscient view``, ``spectator view`` or ``view of player_k``."""
    if viewer is None:
        return "omniscient view"
    return "spectator view" if viewer == SPECTATOR_SEAT else f"view of player_{viewer}"
