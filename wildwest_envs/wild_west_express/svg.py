"""One drawing of a Wild West Express game, as a standalone SVG document (read-only).

``draw(state, seat=None)`` draws a record as every game's drawing does (``core.svg``: the arguments, the
errors, a usage example) on ``WIDTH`` x ``HEIGHT`` pixels, the same for every record. The omniscient view
names every card, ``seat=k`` shows only what seat k may know (§16, "Views" below).

What the picture shows:

* the map of ``data/board.json``: the three time zones, the routes through
  their track spaces, telegram spaces (blue squares), sheriff stars (gold),
  junctions (black diamonds) and the 26 cities (circles in the colour of the
  station's owner, white if unowned) with their names;
* the pieces: trains in their owner's colour (a large train is longer and has
  two cargo windows; goods are coloured squares, passengers round tokens in
  the colour of their pickup zone), desperados (hats), sheriffs (gold stars
  with their index), dynamite (red sticks); several pieces on one space are
  spread on rings around it; the piece that is moving is ringed in yellow;
* the header: round, turn, phase, the dice and what the pending decision
  asks; the side panel: per seat cash, VP, stations, trains (place, cargo,
  marks), desperados and held telegram cards; below the map the competition
  slots, the deck and dynamite supply and a legend.

Views (§16): ``seat=None`` is the omniscient view: every held card is named,
the card just drawn at TELEGRAM_DRAWN is named, and the deck shows its next
cards (and its whole order in ``data-order``). ``seat=k`` draws what the
observation of seat k holds (``observation``) and nothing else: k's own
cards by name, every other seat's held personal cards as card backs (their
number per bound train is public, §16.1, and the backs are ordered by train,
never by card id), the card another seat has just drawn as a back, and of
the deck only its size and never-drawn count. Two records that differ only
in what seat k cannot see (``hidden.resample_hidden``) give byte-identical
drawings for seat k. ``seat=core.svg.SPECTATOR`` draws what every seat knows
and nothing private to one (every held card and the card just drawn as backs, of
the deck only its size): the picture of ``render_mode="rgb_array"``. The
generator and the scripted-chance queue are never read.

Pieces carry classes and ``data-`` attributes for tools and tests: ``train``
(``data-seat``, ``data-slot``, ``data-space``, ``data-size``,
``data-cargo``), ``desperado`` (``data-seat``, ``data-index``,
``data-space``), ``sheriff`` (``data-index``, ``data-space``), ``dynamite``
(``data-space``), ``city`` (``data-city``, ``data-owner``, -1 unowned),
``seat`` (``data-seat``, ``data-cash``, ``data-vp``, ``data-cards``),
``card`` (``data-seat``, ``data-card``, ``data-train``), ``card-back``
(``data-seat``, ``data-train``), ``drawn-card`` / ``drawn-card-back``
(``data-seat``, ``data-card``), ``competition`` (``data-slot``,
``data-card``, ``data-countdown``), ``die`` (``data-index``, ``data-value``)
and ``deck`` (``data-size``, ``data-never-drawn``).

Decisions where the brief is silent: colours and names come from ``render``
(``PLAYER_COLOURS``, the text board's phrases) and ``names``; the colours of
the goods exist only here (drawing data, not rules). City labels are placed
once, at import, on the side of each city with the least overlap with the
board (a greedy search over eight positions).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.svg import el as _el, fit as _fit, group as _group, num as _num, text as _text
from ..core.svg import SPECTATOR_SEAT, document, record_and_viewer, star as _star, view_label
from ..core.svg import text_width as _text_width
from .data import (BOARD, CARD_NAMES, CARGO_EMPTY, CITY_NAMES, DEC_DESPERADO_STEP, DEC_REHIRE_TARGET,
                   DEC_TELEGRAM_DRAWN, FREE, GOOD_NAMES, IS_CITY, MAX_DESPERADOS, MAX_TRAINS, NO_CARD, NO_SPACE,
                   N_CITIES, N_DICE, N_SHERIFFS, N_SPACES, PASSENGER_BASE, PHASE_NAMES, ROUTE_SPACES, SPACE_JUNCTION,
                   SPACE_ROUTE, SPACE_SPECIAL, SPACE_TYPE, SPACE_X, SPACE_Y, SPECIAL_STAR, SPECIAL_TELEGRAM,
                   ZONE_NAMES)
from .names import _label
from .render import (BACKGROUND, MAP_X_LIMITS, MAP_Y_LIMITS, PLAYER_COLOURS, ROUTE_COLOUR, _competition_text,
                     _cargo_name, _decision_text, _end_lines, _train_marks, _victory_points)
from .state import NOBODY, STATE_DTYPE

GAME_NAME = "wild_west_express_v0"

# ---- the sheet (pixels) ---------------------------------------------------------------------------------------
WIDTH, HEIGHT = 1600, 990
HEADER_H = 62
MAP_LEFT, MAP_TOP = 12.0, 70.0
MAP_SCALE = 1.75  # pixels per board unit (§3.1 coordinates)
PANEL_LEFT, PANEL_TOP, PANEL_W = 1104.0, 70.0, 486.0
PANEL_BOTTOM = HEIGHT - 10.0
TABLEAU_TOP = 812.0  # competitions, deck and legend below the map
SEAT_BOX_MAX_H = 230.0
INK = "#2b2118"
PAPER = "#fbf6ea"
CARD_FACE = "#fff8dc"
CARD_BACK = "#5b3a29"
HIGHLIGHT = "#ffd400"
CITY_R = 9.0
PIECE_RINGS = ((6, 17.0), (12, 30.0), (18, 43.0))  # (pieces, radius) of the rings around a crowded space

# goods colours (drawing only), by good id 0..8 (data.GOOD_NAMES), and passenger tokens by pickup zone (§4.4)
GOOD_COLOURS = ("#303030", "#ffd23f", "#6d6875", "#a0522d", "#d9d9d9", "#8e1b3a", "#7cb518", "#e056fd", "#ffffff")
PASSENGER_COLOURS = ("#48cae4", "#0077b6", "#023e8a")
assert len(GOOD_COLOURS) == len(GOOD_NAMES) and len(PASSENGER_COLOURS) == len(ZONE_NAMES)





















# ---- the board (static: computed once) -----------------------------------------------------------------------------
def board_xy(space: int) -> tuple[float, float]:
    """Pixel centre of a space (JSON coordinates, y down, §3.1)."""
    return (MAP_LEFT + (float(SPACE_X[space]) - MAP_X_LIMITS[0]) * MAP_SCALE,
            MAP_TOP + (float(SPACE_Y[space]) - min(MAP_Y_LIMITS)) * MAP_SCALE)


_MAP_RIGHT = MAP_LEFT + (MAP_X_LIMITS[1] - MAP_X_LIMITS[0]) * MAP_SCALE
_MAP_BOTTOM = MAP_TOP + (max(MAP_Y_LIMITS) - min(MAP_Y_LIMITS)) * MAP_SCALE
_LABEL_SIZE = 11.5
_LABEL_SPOTS = ((12, 4, "start"), (-12, 4, "end"), (0, -13, "middle"), (0, 21, "middle"),
                (10, -9, "start"), (10, 16, "start"), (-10, -9, "end"), (-10, 16, "end"))


def _overlap(a: tuple, b: tuple) -> float:
    """Overlap area of two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _label_box(x: float, y: float, text: str, anchor: str) -> tuple:
    w = _text_width(text, _LABEL_SIZE, bold=True)
    x0 = {"start": x, "end": x - w, "middle": x - w / 2}[anchor]
    return (x0, y - _LABEL_SIZE * 0.8, x0 + w, y + _LABEL_SIZE * 0.2)


def _place_city_labels() -> tuple:
    """(x, y, anchor) of each city's name: the spot overlapping the board's marks least (greedy, city order)."""
    marks = [(x - 4, y - 4, x + 4, y + 4) for x, y in map(board_xy, range(N_SPACES))]
    marks += [(x - CITY_R - 6, y - CITY_R - 6, x + CITY_R + 6, y + CITY_R + 6)
              for x, y in map(board_xy, range(N_CITIES))]
    placed: list[tuple] = []
    out = []
    for c in range(N_CITIES):
        cx, cy = board_xy(c)
        best = None
        for rank, (dx, dy, anchor) in enumerate(_LABEL_SPOTS):
            box = _label_box(cx + dx, cy + dy, CITY_NAMES[c], anchor)
            cost = sum(_overlap(box, m) for m in marks) + 4 * sum(_overlap(box, p) for p in placed)
            cost += 1000.0 * (box[0] < MAP_LEFT or box[2] > _MAP_RIGHT or box[1] < MAP_TOP) + rank * 0.5
            if best is None or cost < best[0]:
                best = (cost, cx + dx, cy + dy, anchor, box)
        placed.append(best[4])
        out.append(best[1:4])
    return tuple(out)


CITY_LABELS = _place_city_labels()


def _static_board() -> str:
    """Zones, routes, spaces and city names: the same for every record."""
    parts = [_el("rect", x=MAP_LEFT - 6, y=MAP_TOP - 8, width=_MAP_RIGHT - MAP_LEFT + 12,
                 height=_MAP_BOTTOM - MAP_TOP + 16, rx=10, fill="#efe2c4", stroke="#c8b58a")]
    edges = [MAP_X_LIMITS[0]] + [line["x"] for line in BOARD["zone_lines"]] + [MAP_X_LIMITS[1]]
    for zone, name in enumerate(ZONE_NAMES):
        x0 = MAP_LEFT + (edges[zone] - MAP_X_LIMITS[0]) * MAP_SCALE
        x1 = MAP_LEFT + (edges[zone + 1] - MAP_X_LIMITS[0]) * MAP_SCALE
        parts.append(_text((x0 + x1) / 2, _MAP_BOTTOM + 2, f"{name} time", 13, text_anchor="middle",
                           fill="#a08c60", font_style="italic"))
        if zone:
            parts.append(_el("line", x1=x0, y1=MAP_TOP - 6, x2=x0, y2=_MAP_BOTTOM + 6, stroke="#b8a474",
                             stroke_width=1.5, stroke_dasharray="8 6"))
    routes = []
    for route in BOARD["routes"]:
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(board_xy, route["spaces"]))
        routes.append(_el("polyline", points=points, class_="route", data_route=route["id"]))
    parts.append(_group(routes, fill="none", stroke=ROUTE_COLOUR, stroke_width=5, stroke_linejoin="round"))
    parts.append(_group([_el("polyline", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in map(
        board_xy, route["spaces"]))) for route in BOARD["routes"]], fill="none", stroke="#f7efdc", stroke_width=1.6,
        stroke_dasharray="2 4"))
    spaces = []
    for s in range(N_SPACES):
        x, y = board_xy(s)
        if IS_CITY[s]:
            continue
        if SPACE_TYPE[s] == SPACE_JUNCTION:
            spaces.append(_el("polygon", points=f"{_num(x)},{_num(y - 7)} {_num(x + 7)},{_num(y)} {_num(x)},"
                              f"{_num(y + 7)} {_num(x - 7)},{_num(y)}", fill=INK, stroke="#000", data_space=s))
        elif SPACE_SPECIAL[s] == SPECIAL_TELEGRAM:
            spaces.append(_el("rect", x=x - 4.5, y=y - 4.5, width=9, height=9, rx=1.5, fill="#2a6fdb",
                              stroke="#17428a", data_space=s))
        elif SPACE_SPECIAL[s] == SPECIAL_STAR:
            spaces.append(_star(x, y, 7, fill="#e0b21a", stroke="#6b5200", stroke_width=0.8, data_space=s))
        else:
            spaces.append(_el("circle", cx=x, cy=y, r=2.6, fill="#f7efdc", stroke="#5b4a3a", stroke_width=1,
                              data_space=s))
    parts.append(_group(spaces, class_="spaces"))
    return _group(parts, class_="board")


def _city_labels() -> str:
    """City names on a paper halo (a stroked copy under each name: no reliance on paint-order support)."""
    names = [_text(x, y, CITY_NAMES[c], _LABEL_SIZE, text_anchor=anchor)
             for c, (x, y, anchor) in enumerate(CITY_LABELS)]
    return _group([_group(names, fill=PAPER, stroke=PAPER, stroke_width=3.5, stroke_linejoin="round", opacity=0.9),
                   _group(names, fill=INK)], class_="city-names", font_weight="bold")


_BOARD = _static_board()
_CITY_NAMES = _city_labels()


# ---- reading a record ---------------------------------------------------------------------------------------------
def _int(record: np.void, field: str) -> int:
    return int(record[field])





def _known_cards(record: np.void, holder: int, viewer: int | None) -> tuple[list[tuple[int, int]], list[int]]:
    """``holder``'s personal cards as the viewer may see them: ``[(card, train)]`` named, ``[train]`` backs.

    The backs are sorted by bound train only (their card ids are hidden, §16.1-§16.3)."""
    held = [(int(k), int(record["card_bound"][k])) for k in np.flatnonzero(record["card_holder"] == holder)]
    if viewer is None or viewer == holder:
        return held, []
    return [], sorted(train for _, train in held)


def _drawn_card(record: np.void, viewer: int | None) -> tuple[int, int] | None:
    """(drawer, card) of the card drawn at TELEGRAM_DRAWN, card NO_CARD when the viewer may not see it (§16.2)."""
    card = _int(record, "drawn_card")
    if _int(record, "decision") != DEC_TELEGRAM_DRAWN or card == NO_CARD:
        return None
    drawer = _int(record, "current")
    return drawer, card if viewer is None or (viewer != SPECTATOR_SEAT and viewer == drawer) else NO_CARD


def _moving_space(record: np.void) -> tuple[str, int, int]:
    """(kind, seat, index) of the piece being moved, kind '' if none."""
    seat, decision = _int(record, "active"), _int(record, "decision")
    if seat >= 0 and record["move_active"] and 0 <= _int(record, "move_train") < MAX_TRAINS:
        return "train", seat, _int(record, "move_train")
    if seat >= 0 and decision in (DEC_DESPERADO_STEP, DEC_REHIRE_TARGET) and \
            0 <= _int(record, "desp_index") < MAX_DESPERADOS:
        return "desperado", seat, _int(record, "desp_index")
    return "", NOBODY, NOBODY


def _cargo_codes(record: np.void, seat: int, t: int) -> list[int]:
    slots = 2 if record["train_large"][seat, t] else 1
    return [int(record["train_cargo"][seat, t, j]) for j in range(slots)]


# ---- pieces on the map --------------------------------------------------------------------------------------------
def _cargo_token(x: float, y: float, code: int, size: float = 6.0) -> str:
    """A goods square or a passenger token; an empty slot is a dark window."""
    if code == CARGO_EMPTY:
        return _el("rect", x=x - size / 2, y=y - size / 2, width=size, height=size, fill="#00000055",
                   stroke="none")
    if code >= PASSENGER_BASE:
        return _el("circle", cx=x, cy=y, r=size / 2 + 0.3, fill=PASSENGER_COLOURS[code - PASSENGER_BASE],
                   stroke="#000", stroke_width=0.8)
    return _el("rect", x=x - size / 2, y=y - size / 2, width=size, height=size, fill=GOOD_COLOURS[code],
               stroke="#000", stroke_width=0.8)


def _train_icon(x: float, y: float, colour: str, large: bool, cargo: list[int], label: str = "") -> list[str]:
    """A locomotive in the owner's colour: cab, boiler, funnel and one or two cargo windows."""
    w = 32.0 if large else 22.0
    h = 13.0
    left = x - w / 2
    parts = [_el("rect", x=left, y=y - h / 2, width=w, height=h, rx=2.5, fill=colour, stroke="#000",
                 stroke_width=1.1),
             _el("rect", x=left + w - 7, y=y - h / 2 - 4, width=3.5, height=4.5, fill="#000"),
             _el("circle", cx=left + 4, cy=y + h / 2 + 0.6, r=1.8, fill="#000"),
             _el("circle", cx=left + w - 4, cy=y + h / 2 + 0.6, r=1.8, fill="#000")]
    if large:
        parts.append(_el("rect", x=left - 0.5, y=y - h / 2 - 0.5, width=w + 1, height=h + 1, rx=3, fill="none",
                         stroke="#fff", stroke_width=0.9))
    for j, code in enumerate(cargo):
        parts.append(_cargo_token(left + 6 + j * 10, y - 0.5, code, 7.5))
    if label:
        parts.append(_text(left + w - 5, y + 4, label, 10, text_anchor="middle", fill="#fff",
                           font_weight="bold", stroke="#000", stroke_width=0.6))
    return parts


def _hat(x: float, y: float, colour: str) -> list[str]:
    """A desperado's hat: brim and crown in the owner's colour, a black band."""
    return [_el("ellipse", cx=x, cy=y + 3.5, rx=9, ry=2.8, fill=colour, stroke="#000", stroke_width=1),
            _el("path", d=f"M{_num(x - 5)},{_num(y + 3)} L{_num(x - 4)},{_num(y - 5)} Q{_num(x)},{_num(y - 8)} "
                f"{_num(x + 4)},{_num(y - 5)} L{_num(x + 5)},{_num(y + 3)} Z", fill=colour, stroke="#000",
                stroke_width=1),
            _el("rect", x=x - 4.8, y=y + 0.2, width=9.6, height=1.8, fill="#000")]


def _dynamite(x: float, y: float) -> list[str]:
    """Two red sticks with a lit fuse."""
    return [_el("rect", x=x - 5, y=y - 5, width=4.4, height=11, rx=1, fill="#d62828", stroke="#5a0000",
                stroke_width=0.8, transform=f"rotate(-18 {_num(x)} {_num(y)})"),
            _el("rect", x=x + 0.6, y=y - 5, width=4.4, height=11, rx=1, fill="#d62828", stroke="#5a0000",
                stroke_width=0.8, transform=f"rotate(-18 {_num(x)} {_num(y)})"),
            _el("path", d=f"M{_num(x)},{_num(y - 5)} q2,-4 5,-4", fill="none", stroke="#222", stroke_width=1),
            _el("circle", cx=x + 5.2, cy=y - 9, r=2, fill="#ffb703", stroke="#e85d04", stroke_width=0.8)]


def _pieces_by_space(record: np.void) -> dict[int, list[tuple]]:
    """Pieces on each space, drawing order: dynamite, trains, desperados, sheriffs (as ``render._pieces``)."""
    out: dict[int, list[tuple]] = {}
    for x in np.flatnonzero(record["dynamite"][:N_SPACES]):
        out.setdefault(int(x), []).append(("dynamite", NOBODY, NOBODY))
    for seat in range(_int(record, "num_players")):
        for t in range(MAX_TRAINS):
            if record["train_exists"][seat, t]:
                out.setdefault(int(record["train_pos"][seat, t]), []).append(("train", seat, t))
        for k in range(MAX_DESPERADOS):
            if record["desp_pos"][seat, k] != NO_SPACE:
                out.setdefault(int(record["desp_pos"][seat, k]), []).append(("desperado", seat, k))
    for k in range(N_SHERIFFS):
        if record["sheriff_pos"][k] != NO_SPACE:
            out.setdefault(int(record["sheriff_pos"][k]), []).append(("sheriff", NOBODY, k))
    return out


def _spots(space: int, n: int) -> list[tuple[float, float]]:
    """``n`` piece positions on a space: its centre first on a track space, then rings around it."""
    cx, cy = board_xy(space)
    spots = [] if IS_CITY[space] else [(cx, cy)]
    for count, radius in PIECE_RINGS:
        if len(spots) >= n:
            break
        offset = 0.5 if IS_CITY[space] else 0.0
        spots += [(cx + radius * math.cos(2 * math.pi * (i + offset) / count - math.pi / 2),
                   cy + radius * math.sin(2 * math.pi * (i + offset) / count - math.pi / 2)) for i in range(count)]
    while len(spots) < n:  # more pieces than the rings hold: stack on the centre
        spots.append((cx, cy))
    return spots[:n]


def _piece(record: np.void, kind: str, seat: int, index: int, space: int, x: float, y: float,
           moving: tuple) -> str:
    ring = []
    if moving == (kind, seat, index):
        ring = [_el("circle", cx=x, cy=y, r=14, fill="none", stroke=HIGHLIGHT, stroke_width=3.5, class_="moving")]
    if kind == "train":
        cargo = _cargo_codes(record, seat, index)
        large = bool(record["train_large"][seat, index])
        return _group(ring + _train_icon(x, y, PLAYER_COLOURS[seat], large, cargo, str(index)), class_="train",
                      data_seat=seat, data_slot=index, data_space=space, data_size="large" if large else "small",
                      data_cargo=",".join(map(str, cargo)))
    if kind == "desperado":
        return _group(ring + _hat(x, y, PLAYER_COLOURS[seat]), class_="desperado", data_seat=seat, data_index=index,
                      data_space=space)
    if kind == "sheriff":
        return _group([_star(x, y, 10, fill="#ffd700", stroke="#000", stroke_width=1.2),
                       _text(x, y + 3.5, str(index), 9, text_anchor="middle", font_weight="bold", fill="#000")],
                      class_="sheriff", data_index=index, data_space=space)
    return _group(_dynamite(x, y), class_="dynamite", data_space=space)


def _draw_cities(record: np.void) -> str:
    parts = []
    for c in range(N_CITIES):
        x, y = board_xy(c)
        owner = int(record["city_owner"][c])
        fill = PLAYER_COLOURS[owner] if owner >= 0 else "#ffffff"
        body = [_el("circle", cx=x, cy=y, r=CITY_R, fill=fill, stroke="#000", stroke_width=1.8)]
        if owner >= 0:  # the station: a white house on the owner's colour
            body.append(_el("path", d=f"M{_num(x - 4)},{_num(y + 4)} v-4.5 l4,-3.5 l4,3.5 v4.5 z", fill="#fff",
                            stroke="#000", stroke_width=0.7))
        parts.append(_group(body, class_="city", data_city=c, data_owner=owner))
    return _group(parts, class_="cities")


def _draw_pieces(record: np.void) -> str:
    moving = _moving_space(record)
    parts = []
    for space, pieces in sorted(_pieces_by_space(record).items()):
        for (kind, seat, index), (x, y) in zip(pieces, _spots(space, len(pieces))):
            parts.append(_piece(record, kind, seat, index, space, x, y, moving))
    return _group(parts, class_="pieces")


# ---- header ---------------------------------------------------------------------------------------------------------
def _die(x: float, y: float, value: int, index: int, size: float = 30.0) -> str:
    """A die face with its pips (blank before the roll)."""
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}.get(value, [])
    c = size / 2
    parts = [_el("rect", x=x, y=y, width=size, height=size, rx=5, fill="#fff" if value else "#e8e0cc",
                 stroke=INK, stroke_width=1.5)]
    parts += [_el("circle", cx=x + c + dx * size * 0.27, cy=y + c + dy * size * 0.27, r=size * 0.085, fill=INK)
              for dx, dy in pips]
    return _group(parts, class_="die", data_index=index, data_value=value)


def _header(record: np.void, viewer: int | None) -> str:
    n, phase = _int(record, "num_players"), _int(record, "phase")
    phase_name = PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else "?"
    parts = [_el("rect", x=0, y=0, width=WIDTH, height=HEADER_H, fill="#3b2a1e"),
             _text(16, 27, "Wild West Express", 22, fill="#f6d28b", font_weight="bold", font_family="Georgia, serif"),
             _text(250, 26, f"{n} players \u00b7 target {_int(record, 'victory_target')} VP \u00b7 round "
                   f"{_int(record, 'round')}/{_int(record, 'max_rounds')} \u00b7 turn {_int(record, 'turn')} \u00b7 "
                   f"{phase_name.replace('_', '-').lower()} phase", 14, fill="#f3ead7")]
    decision = _end_lines(record)[0]
    if not record["done"] and _int(record, "current") >= 0:
        decision = f"player_{_int(record, 'current')} to decide: {_decision_text(record)}"
    parts.append(_text(16, 50, _fit(decision, 13, 1000), 13, fill="#ffe8b0", class_="decision"))
    dice = [int(d) for d in record["dice"][:N_DICE]]
    parts += [_die(1150 + 36 * i, 15, v, i) for i, v in enumerate(dice)]
    if any(dice):
        a, b, c = dice
        moves = f"small train {a + b} \u00b7 large {a + b + c} \u00b7 desperado {a}"
    else:
        moves = "dice not rolled"
    parts.append(_text(1262, 26, moves, 12, fill="#f3ead7"))
    view = "omniscient view (every card)" if viewer is None else view_label(viewer)
    parts.append(_text(1262, 46, view, 12, fill="#f6d28b", font_style="italic", class_="view"))
    return _group(parts, class_="header")


# ---- side panel -----------------------------------------------------------------------------------------------------
def _card_chip(x: float, y: float, w: float, name: str, tag: str, **attributes) -> str:
    """A named telegram card: yellow form with the card's name and a tag (its bound train ``T1``)."""
    parts = [_el("rect", x=x, y=y, width=w, height=19, rx=3, fill=CARD_FACE, stroke="#9c7a2b", stroke_width=1.2),
             _text(x + 5, y + 13.5, _fit(name, 10, w - 12 - 6 * len(tag)), 10, fill=INK)]
    if tag:
        parts.append(_text(x + w - 4, y + 13.5, tag, 9, text_anchor="end", fill="#7a5b14", font_weight="bold"))
    return _group(parts, **attributes)


def _card_back(x: float, y: float, w: float, train: int, word: str = "TELEGRAM", **attributes) -> str:
    """The back of a telegram card (a personal card whose identity the viewer may not know)."""
    parts = [_el("rect", x=x, y=y, width=w, height=19, rx=3, fill=CARD_BACK, stroke="#2e1c12", stroke_width=1.2),
             _el("rect", x=x + 3, y=y + 3, width=w - 6, height=13, rx=2, fill="none", stroke="#c9a66b",
                 stroke_width=0.8, stroke_dasharray="3 2"),
             _text(x + (w - (14 if train >= 0 else 0)) / 2, y + 13.5, word, 9, text_anchor="middle", fill="#f1d9a7",
                   font_weight="bold", letter_spacing="1")]
    if train >= 0:
        parts.append(_text(x + w - 6, y + 13.5, f"T{train}", 8, text_anchor="end", fill="#f1d9a7"))
    return _group(parts, **attributes)


def _train_place(space: int, came_from: int) -> str:
    """``Salt Lake City→Cheyenne 5/10`` on a track space (written in the direction of travel when it is
    known, §7.2), ``Denver`` in a city, ``Spokane Junction`` on a junction."""
    route = int(SPACE_ROUTE[space])
    if route < 0:
        return _label(space)
    spaces = [int(x) for x in ROUTE_SPACES[route] if x >= 0]
    i, n = spaces.index(space), len(spaces) - 2
    first, last = _label(spaces[0]), _label(spaces[-1])
    if came_from != FREE and came_from in spaces and spaces.index(came_from) > i:  # heading for the first end
        return f"{last}\u2192{first} {n + 1 - i}/{n}"
    dash = "\u2013" if came_from == FREE else "\u2192"
    return f"{first}{dash}{last} {i}/{n}"


def _train_row(record: np.void, seat: int, t: int, x: float, y: float, w: float) -> str:
    """One train in the panel: icon, place, cargo and marks."""
    large = bool(record["train_large"][seat, t])
    cargo = _cargo_codes(record, seat, t)
    where = _train_place(int(record["train_pos"][seat, t]), int(record["train_from"][seat, t]))
    marks = _train_marks(record, seat, t, debt="owes ${amount}", armed="armed")
    goods = " + ".join(_cargo_name(c) for c in cargo if c != CARGO_EMPTY) or "empty"
    text = f"{where}: {goods}" + (f" [{', '.join(marks)}]" if marks else "")
    parts = _train_icon(x + 17, y, PLAYER_COLOURS[seat], large, cargo, str(t))
    parts.append(_text(x + 38, y + 4, _fit(text, 10.5, w - 40), 10.5, fill=INK))
    return _group(parts, class_="train-row", data_seat=seat, data_slot=t)


def _seat_box(record: np.void, seat: int, viewer: int | None, top: float, height: float, vp: int) -> str:
    x, w = PANEL_LEFT, PANEL_W
    colour = PLAYER_COLOURS[seat]
    named, backs = _known_cards(record, seat, viewer)
    n_cards = len(named) + len(backs)
    current = _int(record, "current") == seat and not record["done"]
    parts = [_el("rect", x=x, y=top, width=w, height=height, rx=8, fill=PAPER, stroke=colour,
                 stroke_width=3 if current else 1.5),
             _el("rect", x=x, y=top, width=w, height=24, rx=8, fill=colour),
             _el("rect", x=x, y=top + 14, width=w, height=10, fill=colour)]
    title = f"player_{seat}"
    if seat == viewer:
        title += " (you)"
    if seat == _int(record, "start_player"):
        title += " \u2605 start"
    if current:
        title = "\u25b6 " + title
    parts.append(_text(x + 10, top + 17, title, 13, fill="#fff", font_weight="bold"))
    parts.append(_text(x + w - 10, top + 17, f"${int(record['cash'][seat])}  \u00b7  {vp} VP", 13, fill="#fff",
                       font_weight="bold", text_anchor="end"))
    stations = [CITY_NAMES[c] for c in range(N_CITIES) if record["city_owner"][c] == seat]
    line = f"stations ({len(stations)}): {', '.join(stations) or 'none'}"
    parts.append(_text(x + 10, top + 39, _fit(line, 10.5, w - 20), 10.5, fill=INK))
    trains = [t for t in range(MAX_TRAINS) if record["train_exists"][seat, t]]
    columns = 1 if len(trains) <= 3 else 2
    column_w = (w - 16) / columns
    y = top + 56
    for i, t in enumerate(trains):
        parts.append(_train_row(record, seat, t, x + 8 + (i % columns) * column_w, y + (i // columns) * 20,
                                column_w - 4))
    y += 20 * ((len(trains) + columns - 1) // columns) + 2
    n_desp = sum(1 for k in range(MAX_DESPERADOS) if record["desp_pos"][seat, k] != NO_SPACE)
    parts.append(_text(x + 10, y + 9, f"telegrams held: {n_cards}", 10.5, fill=INK, font_weight="bold"))
    parts.append(_text(x + w - 10, y + 9, f"desperados {n_desp} \u00b7 dynamite bought this turn "
                       f"{int(record['dynamite_bought'][seat])}", 10.5, fill=INK, text_anchor="end"))
    y += 15
    chip_w, per_row = (w - 20 - 8) / 3, 3
    rows = max(1, int((top + height - 6 - y) // 22))
    chips = [("card", card, train) for card, train in named] + [("back", NO_CARD, train) for train in backs]
    drawn = _drawn_card(record, viewer)
    if drawn is not None and drawn[0] == seat:
        chips.append(("drawn", drawn[1], NOBODY))
    if len(chips) > rows * per_row:  # no room: the last chip says how many are not shown
        chips = chips[:rows * per_row - 1] + [("more", len(chips) - rows * per_row + 1, NOBODY)]
    for i, (what, card, train) in enumerate(chips):
        cx, cy = x + 10 + (i % per_row) * (chip_w + 4), y + (i // per_row) * 22
        if what == "card":
            parts.append(_card_chip(cx, cy, chip_w, CARD_NAMES[card], f"T{train}" if train >= 0 else "",
                                    class_="card", data_seat=seat,
                                    data_card=card, data_train=train))
        elif what == "back":
            parts.append(_card_back(cx, cy, chip_w, train, class_="card-back", data_seat=seat, data_train=train))
        elif what == "drawn" and card != NO_CARD:
            parts.append(_group([_el("rect", x=cx - 2, y=cy - 2, width=chip_w + 4, height=23, rx=4, fill=HIGHLIGHT),
                                 _card_chip(cx, cy, chip_w, CARD_NAMES[card], "new")],
                                class_="drawn-card", data_seat=seat, data_card=card))
        elif what == "drawn":
            parts.append(_group([_el("rect", x=cx - 2, y=cy - 2, width=chip_w + 4, height=23, rx=4, fill=HIGHLIGHT),
                                 _card_back(cx, cy, chip_w, NOBODY, "JUST DRAWN")], class_="drawn-card-back",
                                data_seat=seat))
        else:
            parts.append(_text(cx + 4, cy + 13.5, f"+{card} more", 10, fill=INK, font_style="italic"))
    return _group(parts, class_="seat", data_seat=seat, data_cash=int(record["cash"][seat]), data_vp=vp,
                  data_cards=n_cards)


def _panel(record: np.void, viewer: int | None) -> str:
    n = _int(record, "num_players")
    gap = 8.0
    height = min(SEAT_BOX_MAX_H, (PANEL_BOTTOM - PANEL_TOP - gap * (n - 1)) / n)
    vps = _victory_points(record)
    return _group([_seat_box(record, s, viewer, PANEL_TOP + s * (height + gap), height, vps[s]) for s in range(n)],
                  class_="seats")


# ---- below the map: competitions, deck, legend ----------------------------------------------------------------------
def _wrap(text: str, chars: int) -> list[str]:
    words, lines = text.split(), [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > chars:
            lines.append(word)
        else:
            lines[-1] = (lines[-1] + " " + word).strip()
    return lines


def _tableau(record: np.void, viewer: int | None) -> str:
    top = TABLEAU_TOP
    parts = [_text(MAP_LEFT, top + 14, "Competitions", 13, font_weight="bold", fill=INK)]
    for slot in range(len(record["comp_card"])):
        card = int(record["comp_card"][slot])
        x, y, w, h = MAP_LEFT + slot * 218, top + 22, 210.0, 70.0
        body = [_el("rect", x=x, y=y, width=w, height=h, rx=6, fill=CARD_FACE if card != NO_CARD else "none",
                    stroke="#9c7a2b", stroke_width=1.4, stroke_dasharray=None if card != NO_CARD else "5 4")]
        if card == NO_CARD:
            body.append(_text(x + w / 2, y + 40, "free slot", 12, text_anchor="middle", fill="#a08c60"))
        else:
            name, bonus = _competition_text(record, slot).split(": ", 1)[1].rsplit(" $", 1)
            lines = _wrap(name, int((w - 14) / (11 * 0.62)))[:3]
            for i, line in enumerate(lines):
                body.append(_text(x + 8, y + 17 + 14 * i, line, 11, fill=INK, font_weight="bold"))
            body.append(_text(x + 8, y + h - 9, "$" + bonus.replace(" (", " bonus \u00b7 ").rstrip(")"), 11,
                              fill="#7a5b14"))
        parts.append(_group(body, class_="competition", data_slot=slot, data_card=card,
                            data_countdown=int(record["comp_countdown"][slot])))
    # the deck: its size and never-drawn count are public; its order only in the omniscient view (§16.3)
    dx, dy = MAP_LEFT + 668, top + 22
    size, never = _int(record, "deck_size"), _int(record, "never_drawn")
    deck = [_el("rect", x=dx + 4, y=dy + 4, width=60, height=70, rx=5, fill="#3b2619"),
            _el("rect", x=dx, y=dy, width=60, height=70, rx=5, fill=CARD_BACK, stroke="#2e1c12", stroke_width=1.2),
            _text(dx + 30, dy + 32, str(size), 18, text_anchor="middle", fill="#f1d9a7", font_weight="bold"),
            _text(dx + 30, dy + 50, "cards", 10, text_anchor="middle", fill="#f1d9a7"),
            _text(dx + 74, dy + 14, "Telegram deck", 12, font_weight="bold", fill=INK),
            _text(dx + 74, dy + 30, f"{never} never drawn", 11, fill=INK),
            _text(dx + 74, dy + 45, f"dynamite supply {_int(record, 'dynamite_supply')}", 11, fill=INK)]
    order = None
    if viewer is None:
        cards = [int(c) for c in record["deck"][:size]]
        order = ",".join(map(str, cards))
        nxt = ", ".join(CARD_NAMES[c] for c in cards[:2]) or "-"
        deck.append(_text(dx + 74, dy + 60, _fit(f"next: {nxt}", 10.5, 340), 10.5, fill="#7a5b14",
                          font_style="italic"))
    parts.append(_group(deck, class_="deck", data_size=size, data_never_drawn=never, data_order=order))
    parts.append(_legend(MAP_LEFT, top + 108))
    return _group(parts, class_="tableau")


def _legend(x: float, y: float) -> str:
    """Goods and passenger colours, and the map's symbols."""
    parts = []
    cx = x
    for g, name in enumerate(GOOD_NAMES):
        parts.append(_cargo_token(cx + 5, y, g, 9))
        parts.append(_text(cx + 13, y + 4, name, 10.5, fill=INK))
        cx += 22 + _text_width(name, 10.5)
    cx = x
    y += 20
    for z, name in enumerate(ZONE_NAMES):
        parts.append(_cargo_token(cx + 5, y, PASSENGER_BASE + z, 9))
        parts.append(_text(cx + 13, y + 4, f"passengers from {name}", 10.5, fill=INK))
        cx += 22 + _text_width(f"passengers from {name}", 10.5)
    y += 22
    symbols = [(_el("rect", x=x, y=y - 4.5, width=9, height=9, rx=1.5, fill="#2a6fdb"), "telegram space"),
               (_star(x + 4.5, y, 7, fill="#e0b21a", stroke="#6b5200"), "sheriff star"),
               (_el("polygon", points=f"{_num(x + 4.5)},{_num(y - 6)} {_num(x + 10.5)},{_num(y)} {_num(x + 4.5)},"
                    f"{_num(y + 6)} {_num(x - 1.5)},{_num(y)}", fill=INK), "junction")]
    cx = 0.0
    for mark, name in symbols:
        parts.append(f'<g transform="translate({_num(cx)},0)">{mark}</g>')
        parts.append(_text(x + cx + 15, y + 4, name, 10.5, fill=INK))
        cx += 30 + _text_width(name, 10.5)
    cx += x
    for name, width, shape in (("small train", 24, lambda px: _train_icon(px + 11, y, "#888", False, [CARGO_EMPTY])),
                               ("large train", 34, lambda px: _train_icon(px + 16, y, "#888", True,
                                                                          [CARGO_EMPTY, CARGO_EMPTY])),
                               ("desperado", 20, lambda px: _hat(px + 9, y - 1, "#888")),
                               ("sheriff", 20, lambda px: [_star(px + 9, y, 9, fill="#ffd700", stroke="#000")]),
                               ("dynamite", 16, lambda px: _dynamite(px + 6, y + 1))):
        parts += shape(cx)
        parts.append(_text(cx + width + 4, y + 4, name, 10.5, fill=INK))
        cx += width + 22 + _text_width(name, 10.5)
    return _group(parts, class_="legend")


# ---- the document ---------------------------------------------------------------------------------------------------
def draw(state: np.ndarray, seat: int | None = None) -> str:
    """The SVG document of one Wild West Express record as ``seat`` may see it: every game's ``draw`` (``core.svg``)."""
    record, viewer = record_and_viewer(GAME_NAME, STATE_DTYPE, state, seat)
    title = (f"Wild West Express, {_int(record, 'num_players')} players, round {_int(record, 'round')}, "
             f"turn {_int(record, 'turn')} ({view_label(viewer)})")
    return document(WIDTH, HEIGHT, title, BACKGROUND, [
        _header(record, viewer), _BOARD, _draw_cities(record), _draw_pieces(record), _CITY_NAMES,
        _panel(record, viewer), _tableau(record, viewer)])
