"""One drawing of a Rail game, as a standalone SVG document (read-only).

``draw(state, seat=None, rail_map=None)`` draws a record of the map
``rail_map`` (default: the western USA map, ``data.DEFAULT_MAP``) as every
game's drawing does (``core.svg``: the arguments, the errors, a usage example).
Its size (``sheet_size(rail_map)``) depends on the map only: the hex size is
chosen so that any map of the generic format (§3.8) fits the map area. A game
on another map passes its map::

    Path("other.svg").write_text(draw(other_states[0], rail_map=other_game.rail_map))  # make_game(path).rail_map

``make_draw(rail_map)`` returns the same function bound to a map:
``draw(state, seat=None)``.

**Views.** Rail is a game of perfect information but for the future dice
(§10.1): every seat may know the whole record that is drawn, so
``draw(state, seat=k)`` is byte-identical to ``draw(state)`` for every seat
(``seat`` is checked and otherwise unused). The generator and the
scripted-chance queue, the only secret (future dice), are never read.

What the picture shows:

* the hex map of the ``RailMap``: terrain (open, mountains with a peak,
  lakes and sea; foreign land paler, with its country's name), rivers as blue
  sides, ferries as dashed arcs (grey until built, then in the owner's
  colour), cities as circles with their number and name (yellow once
  connected, §6.9), start cities as squares;
* every built step as a line between two hex centres in its owner's colour
  (parallel lines when several seats own a step); each seat's chosen start
  city is marked with a token in its colour;
* the race (§7): its start city ringed in green and its goal ringed in red
  (an international race's goal country outlined in red), the declared routes
  of the seats that entered as bands in their colours, and, while a seat
  decides its entry, that seat's candidate routes as dashed lines; the state
  does not hold trains' positions (a race runs inside one step, §7.8), so the
  result of the last race (places, prizes, fees, dice rounds) is listed
  instead;
* the panel: map, phase (build round or race), the pending decision and the
  seat to act, the last dice, BP left; per seat balance, start city, steps
  owned, connected cities, entry and last race; the race and its candidates.

Pieces carry classes and ``data-`` attributes for tools and tests:
``hex`` (``data-hex``, ``data-terrain``), ``step`` (``data-step``,
``data-owner``; one line per owner), ``city`` (``data-city``,
``data-number``, ``data-connected``, ``data-start``), ``home``
(``data-seat``, ``data-city``), ``ferry`` (``data-ferry``, ``data-owner``,
-1 unbuilt), ``race-end`` (``data-role`` start / goal, ``data-hex``,
``data-country``), ``route`` (``data-seat``, ``data-slot``, ``data-hexes``),
``candidate`` (same), ``seat`` (``data-seat``, ``data-balance``,
``data-steps``, ``data-entry``) and ``die`` (``data-colour``,
``data-value``).

Colours and words come from ``render`` (``SEAT_COLOURS``, the terrain
colours, the text board's header) and ``names`` (``hex_name``,
``SLOT_NAMES``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.checks import one_record
from ..core.svg import check_seat, document, el as _el, fit as _fit, group as _group, num as _num, text as _text
from .data import (CONTEXT_NAMES, CTX_GAME_OVER, CTX_RACE_ENTRY, DEFAULT_MAP, ENTRY_DECLINED, ENTRY_ENTERED,
                   FUND_ACCOUNT, N_ROUTE_OBJECTIVES, N_SLOTS)
from .maps import (HOME, HX_COUNTRY, HX_NBR, HX_RIVER, HX_TERRAIN, ST_A, ST_B, T_MOUNTAIN,
                   TERRAIN_NAMES, RailMap)
from .names import SLOT_NAMES, hex_name
from .render import FOREIGN_COLOURS, RIVER_COLOUR, SEAT_COLOURS, TERRAIN_COLOURS, _header
from .state import state_dtype

GAME_NAME = "rail_v0"

# ---- the sheet (pixels) ---------------------------------------------------------------------------------------
HEADER_H = 56
MAP_LEFT, MAP_TOP = 14.0, 68.0
MAP_MAX_W, MAP_MAX_H = 1180.0, 860.0  # the map area a map is scaled into
MAX_HEX_R = 48.0  # circumradius of a hex at most (small maps)
TEXT_R = 30.0  # city markers and texts grow with the hexes up to this radius only
PANEL_W = 430.0
PANEL_MIN_H = 800.0
LEGEND_H = 44.0
INK = "#222222"
PAPER = "#fcfaf3"
BACKGROUND = "#e9e4d6"
HEX_EDGE = "#cfc8b4"
MOUNTAIN_PEAK = "#6f5a3e"
CONNECTED = "#ffe066"
RACE_START, RACE_GOAL = "#16a34a", "#dc2626"
RED_DIE, WHITE_DIE = "#c1121f", "#ffffff"
CANDIDATE_DASHES = ((0.5, 0.25), (0.05, 0.22), (0.4, 0.18, 0.05, 0.18), (0.2, 0.2))  # per slot, x hex radius


















def _money(amount: int) -> str:
    """``$120``, ``-$4`` (a balance may be negative, §7.12)."""
    return f"-${-int(amount)}" if amount < 0 else f"${int(amount)}"


def _points(points) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


# ---- the map's geometry and static layer (computed once per map) ----------------------------------------------------
@dataclass(frozen=True)
class _Sheet:
    """A map's scale, hex centres, sheet size and the drawing of everything that never changes."""

    radius: float
    centres: np.ndarray  # (n_hexes, 2) pixel centres
    width: int
    height: int
    panel_left: float
    map_bottom: float
    terrain: str  # hexes, country names, rivers, ferries' ports: the static layer


def _hex_centres(rail_map: RailMap, radius: float) -> np.ndarray:
    """Pixel centres of every hex: pointy-top, odd rows shifted half a hex right (odd-r, §0.2)."""
    h = np.arange(rail_map.n_hexes)
    col, row = h % rail_map.width, h // rail_map.width
    x = MAP_LEFT + math.sqrt(3) * radius * (col + 0.5 * (row & 1) + 0.5)
    y = MAP_TOP + radius + 1.5 * radius * row
    return np.stack([x, y], axis=1)


def _corners(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(math.radians(60 * i + 30)), y + r * math.sin(math.radians(60 * i + 30)))
            for i in range(6)]


def _hex_layer(rail_map: RailMap, centres: np.ndarray, r: float) -> str:
    """Terrain hexes, mountain peaks and the names of foreign countries (§3.2, §3.6)."""
    hexes = rail_map.tables.hexes
    polygons, peaks = [], []
    for h in range(rail_map.n_hexes):
        terrain, foreign = int(hexes[h, HX_TERRAIN]), int(hexes[h, HX_COUNTRY]) != HOME
        fill = FOREIGN_COLOURS.get(terrain, TERRAIN_COLOURS[terrain]) if foreign else TERRAIN_COLOURS[terrain]
        x, y = centres[h]
        polygons.append(_el("polygon", points=_points(_corners(x, y, r)), fill=fill, class_="hex", data_hex=h,
                            data_terrain=TERRAIN_NAMES[terrain]))
        if terrain == T_MOUNTAIN:
            s = r * 0.42
            peaks.append(_el("path", d=f"M{_num(x - s)},{_num(y + s * 0.55)} L{_num(x - s * 0.2)},{_num(y - s * 0.6)} "
                             f"L{_num(x + s * 0.15)},{_num(y - s * 0.05)} L{_num(x + s * 0.45)},{_num(y - s * 0.4)} "
                             f"L{_num(x + s)},{_num(y + s * 0.55)} Z"))
    parts = [_group(polygons, stroke=HEX_EDGE, stroke_width=0.8),
             _group(peaks, fill="none", stroke=MOUNTAIN_PEAK, stroke_width=max(1.0, r * 0.07),
                    stroke_linejoin="round", opacity=0.75)]
    for code in range(1, len(rail_map.country_names)):  # a country's name at the middle of its land
        land = np.flatnonzero((hexes[:, HX_COUNTRY] == code) & (hexes[:, HX_TERRAIN] <= T_MOUNTAIN))
        if len(land):
            x, y = centres[land].mean(axis=0)
            parts.append(_text(x, y + r * 0.25, str(rail_map.country_names[code]).upper(), max(10.0, r * 0.55),
                               text_anchor="middle", fill="#8a8a8a", font_style="italic", letter_spacing="3",
                               class_="country"))
    return "".join(parts)


def _river_layer(rail_map: RailMap, centres: np.ndarray, r: float) -> str:
    """River sides: the hex side between two hexes, drawn in river blue (§3.3)."""
    hexes = rail_map.tables.hexes
    sides = []
    for h in range(rail_map.n_hexes):
        for d in range(6):
            v = int(hexes[h, HX_NBR + d])
            if v > h and hexes[h, HX_RIVER + d]:
                mid = (centres[h] + centres[v]) / 2
                along = centres[v] - centres[h]
                normal = np.array([-along[1], along[0]]) / np.linalg.norm(along) * r / 2
                sides.append(_el("line", x1=float(mid[0] - normal[0]), y1=float(mid[1] - normal[1]),
                                 x2=float(mid[0] + normal[0]), y2=float(mid[1] + normal[1])))
    return _group(sides, class_="rivers", stroke=RIVER_COLOUR, stroke_width=max(2.5, r * 0.16),
                  stroke_linecap="round")


@dataclass(frozen=True)
class _Cache:
    rail_map: RailMap
    sheet: _Sheet


_SHEETS: dict[int, _Cache] = {}


def _sheet(rail_map: RailMap) -> _Sheet:
    """The map's layout, built on first use (keyed by the map object, which the cache keeps alive)."""
    cached = _SHEETS.get(id(rail_map))
    if cached is not None and cached.rail_map is rail_map:
        return cached.sheet
    w, h = rail_map.width, rail_map.height
    radius = min(MAX_HEX_R, MAP_MAX_W / (math.sqrt(3) * (w + 0.5)), MAP_MAX_H / (1.5 * (h - 1) + 2))
    centres = _hex_centres(rail_map, radius)
    map_right = MAP_LEFT + math.sqrt(3) * radius * (w + 0.5)
    map_bottom = MAP_TOP + radius * (1.5 * (h - 1) + 2)
    panel_left = map_right + 18
    width = int(math.ceil(panel_left + PANEL_W + 12))
    height = int(math.ceil(max(map_bottom + LEGEND_H + 10, MAP_TOP + PANEL_MIN_H + 10)))
    terrain = _hex_layer(rail_map, centres, radius) + _river_layer(rail_map, centres, radius)
    sheet = _Sheet(radius, centres, width, height, panel_left, map_bottom, terrain)
    _SHEETS[id(rail_map)] = _Cache(rail_map, sheet)
    return sheet


def sheet_size(rail_map: RailMap = DEFAULT_MAP) -> tuple[int, int]:
    """``(width, height)`` in pixels of the drawings of a map (the same for every record of it)."""
    sheet = _sheet(rail_map)
    return sheet.width, sheet.height


# ---- the record on the map ------------------------------------------------------------------------------------------
def _bits(value: int, n: int) -> list[int]:
    return [s for s in range(n) if (int(value) >> s) & 1]


def _draw_steps(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """Every owned step, one line per owner, parallel lines side by side on a shared step (§6.7)."""
    steps, centres, r = rail_map.tables.steps, sheet.centres, sheet.radius
    n = int(record["num_players"])
    width = max(2.2, r * 0.17)
    edges, lines = [], []
    for e in np.flatnonzero(record["owners"]):
        a, b = int(steps[e, ST_A]), int(steps[e, ST_B])
        owners = _bits(record["owners"][e], n)
        along = centres[b] - centres[a]
        normal = np.array([-along[1], along[0]]) / np.linalg.norm(along)
        for k, s in enumerate(owners):
            shift = normal * width * 1.15 * (k - (len(owners) - 1) / 2)
            p, q = centres[a] + shift, centres[b] + shift
            ends = dict(x1=float(p[0]), y1=float(p[1]), x2=float(q[0]), y2=float(q[1]))
            edges.append(_el("line", **ends))
            lines.append(_el("line", **ends, stroke=SEAT_COLOURS[s], class_="step", data_step=int(e), data_owner=s))
    return (_group(edges, stroke="#00000059", stroke_width=width + 1.8, stroke_linecap="round") +
            _group(lines, stroke_width=width, stroke_linecap="round", class_="steps"))


def _draw_ferries(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """Ferries as dashed arcs between their ports, grey until built, then in the owner's colour (§9.5)."""
    parts = []
    ferries, r = rail_map.tables.ferries, sheet.radius
    for f in range(ferries.shape[0]):
        a, b = sheet.centres[int(ferries[f, 0])], sheet.centres[int(ferries[f, 1])]
        owner = int(record["ferry_owner"][f])
        mid = (a + b) / 2
        along = b - a
        bend = np.array([-along[1], along[0]]) * 0.18
        ctrl = mid + bend
        colour = SEAT_COLOURS[owner] if owner >= 0 else "#5c6b73"
        label = f"{rail_map.ferry_names[f]} ({int(ferries[f, 2])} BP)"
        parts.append(_group([
            _el("path", d=f"M{_num(a[0])},{_num(a[1])} Q{_num(ctrl[0])},{_num(ctrl[1])} {_num(b[0])},{_num(b[1])}",
                fill="none", stroke=colour, stroke_width=max(2.0, r * 0.14), stroke_dasharray=f"{_num(r * 0.4)} "
                f"{_num(r * 0.25)}", stroke_linecap="round", opacity=1.0 if owner >= 0 else 0.7),
            _el("circle", cx=float(a[0]), cy=float(a[1]), r=r * 0.18, fill=colour),
            _el("circle", cx=float(b[0]), cy=float(b[1]), r=r * 0.18, fill=colour),
            _text(float(mid[0] + bend[0] / 2), float(mid[1] + bend[1] / 2) - r * 0.3, label,
                  max(9.0, min(r, TEXT_R) * 0.45), text_anchor="middle", fill=INK, font_style="italic")],
            class_="ferry", data_ferry=f, data_owner=owner))
    return _group(parts, class_="ferries")


def _draw_routes(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """Declared routes of the entrants as bands, the deciding seat's candidates as dashed lines (§7.5, §7.6)."""
    n = int(record["num_players"])
    if int(record["race_start"]) < 0:
        return ""
    parts = []
    for s in range(n):
        slot = int(record["entry_slot"][s])
        if int(record["entry"][s]) == ENTRY_ENTERED and 0 <= slot < N_SLOTS:
            parts.append(_route(rail_map, record, sheet, s, slot, "route"))
    p = int(record["current"])
    if int(record["context"]) == CTX_RACE_ENTRY and 0 <= p < n:
        drawn = [_route(rail_map, record, sheet, p, k, "candidate") for k in range(N_ROUTE_OBJECTIVES)
                 if record["cand_valid"][p, k]]
        parts += [d.split("<g", 1)[0] for d in drawn] + ["<g" + d.split("<g", 1)[1] for d in drawn]  # halos first
    return _group(parts, class_="race-routes")


def _route(rail_map: RailMap, record: np.void, sheet: _Sheet, s: int, slot: int, kind: str) -> str:
    """The hexes of slot ``slot`` of seat ``s`` (bit ``4 s + slot`` of ``cand_hexes``), joined hex to hex."""
    on = set(int(h) for h in np.flatnonzero((record["cand_hexes"] >> np.uint32(4 * s + slot)) & np.uint32(1)))
    hexes, centres, r = rail_map.tables.hexes, sheet.centres, sheet.radius
    segments = []
    for h in sorted(on):
        for d in range(6):
            v = int(hexes[h, HX_NBR + d])
            if v > h and v in on:
                segments.append(f"M{_num(centres[h][0])},{_num(centres[h][1])} L{_num(centres[v][0])},"
                                f"{_num(centres[v][1])}")
    for f in range(rail_map.tables.ferries.shape[0]):  # a ferry crossing on the route
        a, b = int(rail_map.tables.ferries[f, 0]), int(rail_map.tables.ferries[f, 1])
        if a in on and b in on and int(record["ferry_owner"][f]) >= 0:
            segments.append(f"M{_num(centres[a][0])},{_num(centres[a][1])} L{_num(centres[b][0])},"
                            f"{_num(centres[b][1])}")
    if kind == "route":
        style = dict(stroke=SEAT_COLOURS[s], stroke_width=r * 0.62, stroke_opacity=0.33, stroke_linecap="round",
                     stroke_linejoin="round")
        return _group([_el("path", d=" ".join(segments) or "M0,0", fill="none", **style)], class_=kind, data_seat=s,
                      data_slot=slot, data_hexes=len(on))
    offset = (slot - 1) * r * 0.14  # the slots side by side where they share hexes
    path = " ".join(segments) or "M0,0"
    shape = dict(fill="none", transform=f"translate({_num(offset)},{_num(offset)})", stroke_linecap="round")
    halo = _el("path", d=path, stroke="#ffffff", stroke_width=max(3.0, r * 0.22), stroke_opacity=0.8,
               class_="candidate-halo", **shape)
    return halo + _group([_el("path", d=path, stroke=INK, stroke_width=max(1.5, r * 0.1),
                              stroke_dasharray=_dashes(slot, r), **shape)],
                         class_=kind, data_seat=s, data_slot=slot, data_hexes=len(on))


def _dashes(slot: int, r: float) -> str:
    """The dash pattern of a candidate slot's line (cheapest, fastest, balanced)."""
    return " ".join(_num(r * f) for f in CANDIDATE_DASHES[slot])


def _draw_cities(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """Cities (numbers, names; yellow once connected, §6.9), start cities as squares (§3.5), seats' homes."""
    t, centres, u = rail_map.tables, sheet.centres, min(sheet.radius, TEXT_R)
    starts = [int(c) for c in t.start_cities]
    parts, names = [], []
    for c in range(rail_map.n_cities):
        x, y = centres[int(t.city_hex[c])]
        fill = CONNECTED if record["connected"][c] else "#ffffff"
        size = u * 0.56
        if c in starts:
            marker = _el("rect", x=x - size, y=y - size, width=2 * size, height=2 * size, rx=u * 0.12, fill=fill,
                         stroke="#000", stroke_width=max(1.2, u * 0.08))
        else:
            marker = _el("circle", cx=x, cy=y, r=size, fill=fill, stroke="#000", stroke_width=max(1.2, u * 0.08))
        number = int(t.city_number[c])
        parts.append(_group([marker, _text(x, y + u * 0.2, str(number), max(8.0, u * 0.55), text_anchor="middle",
                                           font_weight="bold", fill="#000")],
                            class_="city", data_city=c, data_number=number,
                            data_connected=int(record["connected"][c]), data_start=int(c in starts)))
        names.append(_text(x, y + size + max(9.0, u * 0.45) + 1, rail_map.city_names[c], max(9.0, u * 0.45),
                           text_anchor="middle"))
    label = _group([_group(names, fill=PAPER, stroke=PAPER, stroke_width=3, stroke_linejoin="round", opacity=0.85),
                    _group(names, fill=INK)], class_="city-names", font_weight="bold")
    return _group(parts, class_="cities") + label + _draw_homes(rail_map, record, sheet)


def _draw_homes(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """A token in each seat's colour above its start city, side by side when seats share one (§6.4)."""
    t, centres, r = rail_map.tables, sheet.centres, min(sheet.radius, TEXT_R)
    by_city: dict[int, list[int]] = {}
    for s in range(int(record["num_players"])):
        i = int(record["start_city"][s])
        if 0 <= i < len(t.start_cities):
            by_city.setdefault(int(t.start_cities[i]), []).append(s)
    parts = []
    for c, seats in sorted(by_city.items()):
        x, y = centres[int(t.city_hex[c])]
        for k, s in enumerate(seats):
            px = x + (k - (len(seats) - 1) / 2) * r * 0.55
            py = y - r * 0.95
            parts.append(_group([_el("path", d=f"M{_num(px - r * 0.24)},{_num(py + r * 0.2)} v{_num(-r * 0.24)} "
                                     f"l{_num(r * 0.24)},{_num(-r * 0.2)} l{_num(r * 0.24)},{_num(r * 0.2)} "
                                     f"v{_num(r * 0.24)} z", fill=SEAT_COLOURS[s], stroke="#000",
                                     stroke_width=max(0.8, r * 0.05))],
                                class_="home", data_seat=s, data_city=c))
    return _group(parts, class_="homes")


def _draw_race_ends(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    """The race's start (green ring) and goal (red ring, or the goal country outlined in red) (§7.2, §9.3)."""
    start, goal, country = int(record["race_start"]), int(record["race_goal"]), int(record["race_country"])
    if start < 0:
        return ""
    r = sheet.radius
    parts = []
    for role, h, colour in (("start", start, RACE_START), ("goal", goal, RACE_GOAL)):
        if h >= 0:
            x, y = sheet.centres[h]
            parts.append(_group([_el("circle", cx=x, cy=y, r=r * 0.92, fill="none", stroke=colour,
                                     stroke_width=max(3.0, r * 0.2)),
                                 _text(x - r * 0.85, y - r * 0.75, role.upper(), max(9.0, min(r, TEXT_R) * 0.42),
                                       fill=colour, font_weight="bold", text_anchor="end")],
                                class_="race-end", data_role=role, data_hex=h, data_country=-1))
    if goal < 0 and country > 0:
        hexes = rail_map.tables.hexes
        land = np.flatnonzero((hexes[:, HX_COUNTRY] == country) & (hexes[:, HX_TERRAIN] <= T_MOUNTAIN))
        outline = [_el("polygon", points=_points(_corners(*sheet.centres[h], r * 0.86))) for h in land]
        parts.append(_group(outline, class_="race-end", data_role="goal", data_hex=-1, data_country=country,
                            fill=RACE_GOAL, fill_opacity=0.14, stroke=RACE_GOAL, stroke_width=max(1.0, r * 0.05)))
    return _group(parts, class_="race")


# ---- the panel -------------------------------------------------------------------------------------------------------
def _die(x: float, y: float, value: int, colour: str, size: float = 30.0) -> str:
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}.get(value, [])
    pip = "#ffffff" if colour == RED_DIE else INK
    parts = [_el("rect", x=x, y=y, width=size, height=size, rx=5, fill=colour if value else "#ddd8ca",
                 stroke=INK, stroke_width=1.5)]
    parts += [_el("circle", cx=x + size / 2 + dx * size * 0.27, cy=y + size / 2 + dy * size * 0.27, r=size * 0.085,
                  fill=pip) for dx, dy in pips]
    return _group(parts, class_="die", data_colour="red" if colour == RED_DIE else "white", data_value=value)


def _phase(record: np.void) -> str:
    ctx = int(record["context"])
    if ctx == CTX_GAME_OVER:
        return "game over"
    if record["operating"]:
        return f"operation phase \u00b7 race {int(record['race_k']) + 1}"
    return f"build phase \u00b7 round {int(record['round']) + 1}/{int(record['build_rounds'])}"


def _entry_word(record: np.void, s: int) -> str:
    if int(record["race_start"]) < 0:
        return ""
    entry = int(record["entry"][s])
    if entry == ENTRY_ENTERED:
        return f"entered: {SLOT_NAMES[int(record['entry_slot'][s])]} route"
    return "declined the race" if entry == ENTRY_DECLINED else "entry undecided"


def _seat_box(rail_map: RailMap, record: np.void, s: int, x: float, y: float, w: float, h: float) -> str:
    t = rail_map.tables
    colour = SEAT_COLOURS[s]
    current = int(record["current"]) == s and not record["done"]
    sc = int(record["start_city"][s])
    start = rail_map.city_names[int(t.start_cities[sc])] if sc >= 0 else "not chosen"
    cities = sum(1 for c in range(rail_map.n_cities) if (int(record["net"][int(t.city_hex[c])]) >> s) & 1)
    title = ("\u25b6 " if current else "") + f"player_{s}"
    if s == int(record["start_player"]):
        title += " \u2605"
    marks = []
    if int(record["builder"]) == s and int(record["context"]) != CTX_GAME_OVER and not record["operating"]:
        marks.append("building")
    if int(record["partner"]) == s:
        marks.append("co-build partner")
    parts = [_el("rect", x=x, y=y, width=w, height=h, rx=7, fill=PAPER, stroke=colour,
                 stroke_width=3 if current else 1.4),
             _el("rect", x=x, y=y, width=10, height=h, rx=4, fill=colour),
             _text(x + 18, y + 17, title, 13, font_weight="bold", fill=colour),
             _text(x + w - 10, y + 17, _money(record["balance"][s]), 14, font_weight="bold", fill=INK,
                   text_anchor="end"),
             _text(x + 18, y + 34, _fit(f"start {start} \u00b7 {int(record['n_owned'][s])} steps \u00b7 {cities} "
                                        f"cities" + (f" \u00b7 {', '.join(marks)}" if marks else ""), 10.5, w - 28),
                   10.5, fill=INK)]
    line = _entry_word(record, s)
    place = int(record["last_place"][s])
    if int(record["race_k"]) > 0 and place >= 0:
        last = (f"last race: {place + 1}. ${int(record['last_prize'][s])}, fees "
                f"{int(record['last_fees'][s]):+d}")
        line = f"{line} \u00b7 {last}" if line else last
    if line:
        parts.append(_text(x + 18, y + 49, _fit(line, 10.5, w - 28), 10.5, fill="#555555"))
    return _group(parts, class_="seat", data_seat=s, data_balance=int(record["balance"][s]),
                  data_steps=int(record["n_owned"][s]), data_entry=int(record["entry"][s]))


def _race_box(rail_map: RailMap, record: np.void, x: float, y: float, w: float) -> list[str]:
    """The race in progress (start, goal, the deciding seat's candidates) or the last race's result."""
    n = int(record["num_players"])
    parts = [_text(x, y, "Race", 14, font_weight="bold", fill=INK)]
    y += 20
    start = int(record["race_start"])
    if start >= 0:
        goal = (hex_name(rail_map, int(record["race_goal"])) if int(record["race_goal"]) >= 0
                else f"anywhere in {rail_map.country_names[int(record['race_country'])]}")
        parts.append(_text(x, y, _fit(f"race {int(record['race_k']) + 1}: {hex_name(rail_map, start)} \u2192 {goal}",
                                      11.5, w), 11.5, fill=INK))
        y += 18
        p = int(record["current"])
        if int(record["context"]) == CTX_RACE_ENTRY and 0 <= p < n:
            parts.append(_text(x, y, f"candidates of player_{p} (dashed on the map):", 11, fill=SEAT_COLOURS[p],
                               font_weight="bold"))
            y += 16
            for k in range(N_ROUTE_OBJECTIVES):
                if not record["cand_valid"][p, k]:
                    parts.append(_text(x + 46, y, f"{SLOT_NAMES[k]}: none", 11, fill="#666666"))
                else:
                    fees = sum(min(int(record["fee_cap"]), int(record["cand_fee"][p, k, q])) for q in range(n)
                               if q != p)
                    parts.append(_el("line", x1=x + 10, y1=y - 4, x2=x + 40, y2=y - 4, stroke=INK, stroke_width=2,
                                     stroke_dasharray=_dashes(k, 14.0)))
                    parts.append(_text(x + 46, y, f"{SLOT_NAMES[k]}: {int(record['cand_pips'][p, k])} pips, "
                                       f"{int(record['cand_steps'][p, k])} steps "
                                       f"({int(record['cand_own'][p, k])} own), fees ${fees}", 11, fill=INK))
                y += 15
    elif int(record["race_k"]) > 0:
        placed = sorted((int(record["last_place"][s]), s) for s in range(n) if int(record["last_place"][s]) >= 0)
        parts.append(_text(x, y, f"last race ({int(record['last_rounds'])} dice rounds):", 11.5, fill=INK))
        y += 16
        for place, s in placed:
            parts.append(_text(x + 10, y, f"{place + 1}. player_{s}: prize ${int(record['last_prize'][s])}, "
                               f"fees {int(record['last_fees'][s]):+d}", 11, fill=SEAT_COLOURS[s],
                               font_weight="bold"))
            y += 15
        if not placed:
            parts.append(_text(x + 10, y, "no entrants", 11, fill="#666666"))
    else:
        parts.append(_text(x, y, "no race yet (the build phase comes first)", 11, fill="#666666"))
    return parts


def _panel(rail_map: RailMap, record: np.void, sheet: _Sheet) -> str:
    x, w = sheet.panel_left, PANEL_W
    n = int(record["num_players"])
    y = MAP_TOP
    parts = [_el("rect", x=x - 6, y=y - 6, width=w + 12, height=sheet.height - y - 4, rx=10, fill="#f4f0e4",
                 stroke="#c9c1a8")]
    ctx = int(record["context"])
    parts.append(_text(x + 4, y + 16, _phase(record), 15, font_weight="bold", fill=INK))
    decision = "the game is over"
    if ctx != CTX_GAME_OVER:  # the text board's "to act: player_2, 5 BP left" (render._header)
        decision = (f"{CONTEXT_NAMES[ctx].replace('_', ' ').lower()} \u00b7 to act: "
                    + _header(rail_map, record).split("; to act: ", 1)[-1])
    parts.append(_text(x + 4, y + 34, _fit(decision, 11.5, w - 100), 11.5, fill="#444444", class_="decision"))
    parts.append(_die(x + w - 72, y, int(record["red"]), RED_DIE))
    parts.append(_die(x + w - 36, y, int(record["white"]), WHITE_DIE))
    target = (f"first to ${int(record['target'])} wins" if int(record["end_mode"]) == 0
              else f"{int(record['races_total'])} races")
    funding = "account" if int(record["funding"]) == FUND_ACCOUNT else "dice"
    parts.append(_text(x + 4, y + 52, f"{target} \u00b7 bonus ${int(record['bonus'])} per new city \u00b7 "
                       f"funding: {funding}", 10.5, fill="#555555"))
    y += 66
    box_h = 58.0
    for s in range(n):
        parts.append(_seat_box(rail_map, record, s, x, y, w, box_h))
        y += box_h + 6
    parts += _race_box(rail_map, record, x + 4, y + 18, w - 8)
    return _group(parts, class_="panel")


def _legend(sheet: _Sheet) -> str:
    x, y = MAP_LEFT, sheet.map_bottom + 24
    items = [(_el("circle", cx=x + 7, cy=y - 4, r=7, fill="#fff", stroke="#000"), "city"),
             (_el("circle", cx=x + 7, cy=y - 4, r=7, fill=CONNECTED, stroke="#000"), "connected city"),
             (_el("rect", x=x, y=y - 11, width=14, height=14, rx=2, fill="#fff", stroke="#000"), "start city"),
             (_el("line", x1=x, y1=y - 4, x2=x + 16, y2=y - 4, stroke=RIVER_COLOUR, stroke_width=3), "river"),
             (_el("rect", x=x, y=y - 11, width=14, height=14, fill=TERRAIN_COLOURS[T_MOUNTAIN]), "mountain"),
             (_el("circle", cx=x + 7, cy=y - 4, r=7, fill="none", stroke=RACE_START, stroke_width=3), "race start"),
             (_el("circle", cx=x + 7, cy=y - 4, r=7, fill="none", stroke=RACE_GOAL, stroke_width=3), "race goal"),
             (_el("line", x1=x, y1=y - 4, x2=x + 16, y2=y - 4, stroke="#888", stroke_width=7, stroke_opacity=0.35),
              "declared route"),
             (_el("line", x1=x, y1=y - 4, x2=x + 22, y2=y - 4, stroke=INK, stroke_width=2,
                  stroke_dasharray=_dashes(0, 14.0)), "candidate routes")]
    parts, cx = [], 0.0
    for mark, name in items:
        parts.append(f'<g transform="translate({_num(cx)},0)">{mark}</g>')
        parts.append(_text(x + cx + 20, y, name, 11, fill=INK))
        cx += 34 + len(name) * 6.3
    return _group(parts, class_="legend")


# ---- the document ---------------------------------------------------------------------------------------------------



def draw(state: np.ndarray, seat: int | None = None, rail_map: RailMap | None = None) -> str:
    """The SVG document of one record of ``rail_map`` (default: the western USA map).

    Rail hides nothing but future dice (§10.1), so every seat's view is the whole record: the drawing
    for ``seat=k`` is byte-identical to the one for ``seat=None`` (``seat`` is only checked).

    Args:
        state: one Rail record of that map, or a batch of one.
        seat: None, or a seat of the game (0..n-1).
        rail_map: the map the record belongs to (``RailGame.rail_map``).

    Returns:
        A complete ``<svg>`` document of ``sheet_size(rail_map)`` pixels (deterministic text).

    Raises:
        TypeError: ``state`` is not a record of this map, or ``seat`` not an int.
        ValueError: a batch of more than one record, or a seat outside the game.
    """
    rail_map = DEFAULT_MAP if rail_map is None else rail_map
    record = one_record(state)
    if getattr(record, "dtype", None) != state_dtype(rail_map):
        raise TypeError(f"{GAME_NAME}: expected one record of the map {rail_map.name!r}, got "
                        f"{type(record).__name__} {getattr(record, 'dtype', '')}".rstrip())
    check_seat(GAME_NAME, record, seat)
    sheet = _sheet(rail_map)
    title = f"Rail, {rail_map.name}: {_phase(record)}, {int(record['num_players'])} players"
    header = [_el("rect", x=0, y=0, width=sheet.width, height=HEADER_H, fill="#1f2a36"),
              _text(16, 36, "Rail", 24, fill="#f2c14e", font_weight="bold", font_family="Georgia, serif"),
              _text(82, 35, f"{rail_map.name} \u00b7 {int(record['num_players'])} players", 16, fill="#e8e8e8")]
    balances = [f"player_{s} {_money(record['balance'][s])}" for s in range(int(record["num_players"]))]
    header.append(_text(sheet.width - 16, 35, "   ".join(balances), 13, fill="#e8e8e8", text_anchor="end",
                        font_weight="bold"))
    return document(sheet.width, sheet.height, title, BACKGROUND, [
            _group(header, class_="header"),
            _group([sheet.terrain], class_="map"),
            _draw_routes(rail_map, record, sheet),
            _draw_ferries(rail_map, record, sheet),
            _draw_steps(rail_map, record, sheet),
            _draw_race_ends(rail_map, record, sheet),
            _draw_cities(rail_map, record, sheet),
            _panel(rail_map, record, sheet),
            _legend(sheet)])


def make_draw(rail_map: RailMap):
    """``draw(state, seat=None)`` bound to a map."""

    def draw_on_map(state: np.ndarray, seat: int | None = None) -> str:
        return draw(state, seat, rail_map)

    return draw_on_map
