"""A text map and a picture of one Rail game (read-only).

``make_renderers(rail_map)`` returns the two drawing functions a map's ``Game``
binds (its action names are ``names.make_action_to_string(rail_map)``):

* ``render_ansi(state)``: a compact text map with every player's lines, the
  seats and the race;
* ``render_rgb(state)``: an ``(H, W, 3)`` uint8 picture of the hex map (needs
  matplotlib, the ``render`` extra).

Each accepts one record and never writes to it.

Decisions taken where the spec and the brief are silent:

* **Text map**: one 3-character cell per hex, odd rows shifted right by one
  character (the odd-r layout): a city shows its number, other hexes
  ``.`` open, ``M`` mountain, ``~`` water, ``:`` / ``^`` foreign open /
  mountain; the third character is the seat whose network holds the hex
  (``0``-``5``), ``*`` for several, blank for none. The race start and goal
  are marked ``S`` / ``G`` in that third character. Rivers are not drawn.
* **Picture**: hexes coloured by terrain (foreign land paler), rivers as blue
  sides, cities as white dots with their numbers (yellow once connected; start cities as squares),
  each seat's steps as lines in its colour (parallel lines offset so that
  shared steps show every owner), the race start (green) and goal (red) ringed,
  the declared routes of the race's entrants as dots in their colours; the
  seats' balances in the title.
"""

from __future__ import annotations

import numpy as np

from ..core.checks import one_record
from .data import (CONTEXT_NAMES, CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD, CTX_GAME_OVER, ENTRY_DECLINED,
                   ENTRY_ENTERED, FUND_ACCOUNT, N_ROUTE_OBJECTIVES)
from .maps import HOME, HX_CITY, HX_COUNTRY, HX_NBR, HX_RIVER, HX_TERRAIN, ST_A, ST_B, T_MOUNTAIN, T_OPEN, RailMap
from .names import SLOT_NAMES, hex_name

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")  # player_0 .. player_5


def make_renderers(rail_map: RailMap):
    """``(render_ansi, render_rgb)`` bound to a map (its action names are ``names.make_action_to_string``)."""

    def render_ansi(state) -> str:
        return text_board(rail_map, one_record(state))

    def render_rgb(state) -> np.ndarray:
        return picture(rail_map, one_record(state))

    return render_ansi, render_rgb


# ---- text -------------------------------------------------------------------------------------------------------
def _cell(rail_map: RailMap, state, h: int) -> str:
    t = rail_map.tables
    city = int(t.hexes[h, HX_CITY])
    terrain = int(t.hexes[h, HX_TERRAIN])
    foreign = int(t.hexes[h, HX_COUNTRY]) != HOME
    if city >= 0:
        body = f"{int(t.city_number[city]):2d}"
    elif terrain == T_OPEN:
        body = " :" if foreign else " ."
    elif terrain == T_MOUNTAIN:
        body = " ^" if foreign else " M"
    else:
        body = " ~"
    net = int(state["net"][h])
    if h == int(state["race_start"]):
        mark = "S"
    elif h == int(state["race_goal"]):
        mark = "G"
    elif net == 0:
        mark = " "
    elif net & (net - 1):
        mark = "*"
    else:
        mark = str(net.bit_length() - 1)
    return body + mark


def text_board(rail_map: RailMap, state) -> str:
    """The text map, the seats and the race (module docstring)."""
    lines = [_header(rail_map, state)]
    for row in range(rail_map.height):
        cells = "".join(_cell(rail_map, state, rail_map.hex_of(col, row)) for col in range(rail_map.width))
        lines.append((" " if row & 1 else "") + cells.rstrip())
    lines += _seat_lines(rail_map, state)
    lines += _race_lines(rail_map, state)
    return "\n".join(lines)


def _header(rail_map: RailMap, state) -> str:
    ctx = int(state["context"])
    if ctx == CTX_GAME_OVER:
        where = "game over"
    elif state["operating"]:
        where = f"race {int(state['race_k'])} ({CONTEXT_NAMES[ctx]})"
    else:
        where = f"build round {int(state['round']) + 1}/{int(state['build_rounds'])} ({CONTEXT_NAMES[ctx]})"
    text = f"Rail, {rail_map.name}: {where}"
    if ctx != CTX_GAME_OVER:
        text += f"; to act: player_{int(state['current'])}"
        if ctx in (CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD):
            if int(state["funding"]) == FUND_ACCOUNT:
                b = int(state["builder"])
                text += f", account funding ({int(state['ext_cap']) - int(state['window_bp'][b])} BP left in window)"
            else:
                text += f", {int(state['bp_left'])} BP left"
                if ctx == CTX_COOP_BUILD:
                    text += f" (co-build with player_{int(state['partner'])})"
    return text


def _seat_lines(rail_map: RailMap, state) -> list[str]:
    lines = []
    t = rail_map.tables
    for s in range(int(state["num_players"])):
        sc = int(state["start_city"][s])
        start = rail_map.city_names[int(t.start_cities[sc])] if sc >= 0 else "-"
        cities = sum(1 for c in range(rail_map.n_cities) if (int(state["net"][int(t.city_hex[c])]) >> s) & 1)
        mark = ">" if s == int(state["current"]) else " "
        first = "*" if s == int(state["start_player"]) else " "
        lines.append(f"{mark}{first}player_{s}: ${int(state['balance'][s])}, start {start}, "
                     f"{int(state['n_owned'][s])} steps, {cities} cities")
    return lines


def _race_lines(rail_map: RailMap, state) -> list[str]:
    lines = []
    n = int(state["num_players"])
    start = int(state["race_start"])
    if start >= 0:
        goal = (hex_name(rail_map, int(state["race_goal"])) if int(state["race_goal"]) >= 0
                else rail_map.country_names[int(state["race_country"])])
        entries = []
        for s in range(n):
            e = int(state["entry"][s])
            entries.append(f"player_{s} " + ("-" if e == 0 else "declined" if e == ENTRY_DECLINED
                                              else SLOT_NAMES[int(state["entry_slot"][s])]))
        lines.append(f"race {int(state['race_k'])}: {hex_name(rail_map, start)} -> {goal}; " + ", ".join(entries))
        p = int(state["current"])
        if p >= 0:
            slots = [f"{SLOT_NAMES[k]} {int(state['cand_pips'][p, k])} pips"
                     for k in range(N_ROUTE_OBJECTIVES) if state["cand_valid"][p, k]]
            lines.append(f"candidates of player_{p}: " + (", ".join(slots) if slots else "none"))
    elif int(state["race_k"]) > 0:
        placed = sorted((int(state["last_place"][s]), s) for s in range(n) if int(state["last_place"][s]) >= 0)
        result = ", ".join(f"player_{s} {place + 1}. (${int(state['last_prize'][s])})" for place, s in placed)
        lines.append(f"last race: {result or 'no entrants'}")
    return lines


# ---- picture ----------------------------------------------------------------------------------------------------
TERRAIN_COLOURS = {0: "#f4f1de", 1: "#a68a64", 2: "#8ecae6", 3: "#5fa8d3"}
RIVER_COLOUR = "#7dd3fc"  # light sky blue: distinct from every seat colour
FOREIGN_COLOURS = {0: "#e9e9e9", 1: "#c8c8c8"}
HEX_SIZE = 1.0  # circumradius in drawing units


def hex_centre(rail_map: RailMap, h: int) -> tuple[float, float]:
    """Drawing coordinates of a hex centre (pointy-top, odd-r; y grows downwards as on the map)."""
    col, row = rail_map.col_row(h)
    x = np.sqrt(3) * HEX_SIZE * (col + 0.5 * (row & 1))
    y = 1.5 * HEX_SIZE * row
    return x, y


def picture(rail_map: RailMap, state, dpi: int = 80) -> np.ndarray:
    """The hex map with terrain, rivers, cities, every seat's lines and the race (module docstring)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.collections import LineCollection, PolyCollection
    except ImportError as missing:  # pragma: no cover
        raise ImportError("render_mode='rgb_array' needs matplotlib: pip install 'wildwest_envs[render]'") from missing
    t = rail_map.tables
    n_hexes = rail_map.n_hexes
    centres = np.array([hex_centre(rail_map, h) for h in range(n_hexes)])
    angles = np.deg2rad(np.arange(6) * 60 + 30)
    corners = np.stack([np.cos(angles), np.sin(angles)], axis=1) * HEX_SIZE
    polys = centres[:, None, :] + corners[None, :, :]
    colours = []
    for h in range(n_hexes):
        terrain = int(t.hexes[h, HX_TERRAIN])
        foreign = int(t.hexes[h, HX_COUNTRY]) != HOME
        colours.append(FOREIGN_COLOURS.get(terrain, TERRAIN_COLOURS[terrain]) if foreign else TERRAIN_COLOURS[terrain])
    width = centres[:, 0].max() + 2
    height = centres[:, 1].max() + 2
    fig = Figure(figsize=(width / 2.6, height / 2.6 + 0.6), dpi=dpi)  # no pyplot: the caller's backend is kept
    FigureCanvasAgg(fig)
    ax = fig.add_axes([0, 0, 1, 0.92])
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="#bbbbbb", linewidths=0.3))
    ax.add_collection(LineCollection(_river_sides(rail_map, centres), colors=RIVER_COLOUR, linewidths=2.4))
    _draw_lines(rail_map, state, centres, ax, LineCollection)
    _draw_cities(rail_map, state, centres, ax)
    ax.set_xlim(-1.5, width)
    ax.set_ylim(height, -1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.text(0.01, 0.93, "○ city (yellow once connected)  □ start city  ◯ race start (green) / goal (red)  "
             "blue edges: rivers  coloured lines: players' track", fontsize=8, color="#333333")
    for s in range(int(state["num_players"])):
        fig.text(0.01 + s * 0.16, 0.965, f"player_{s}: ${int(state['balance'][s])}", color=SEAT_COLOURS[s],
                 fontsize=10, weight="bold")
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()


def _river_sides(rail_map: RailMap, centres: np.ndarray) -> list:
    t = rail_map.tables
    segments = []
    for h in range(rail_map.n_hexes):
        for d in range(6):
            v = int(t.hexes[h, HX_NBR + d])
            if v > h and t.hexes[h, HX_RIVER + d]:
                mid = (centres[h] + centres[v]) / 2
                direction = centres[v] - centres[h]
                normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
                half = normal * HEX_SIZE / 2
                segments.append([mid - half, mid + half])
    return segments


def _draw_lines(rail_map: RailMap, state, centres: np.ndarray, ax, line_collection) -> None:
    t = rail_map.tables
    n = int(state["num_players"])
    for s in range(n):
        segments = []
        for e in np.flatnonzero(state["owners"] & (1 << s)):
            a, b = int(t.steps[e, ST_A]), int(t.steps[e, ST_B])
            owners = [q for q in range(n) if (int(state["owners"][e]) >> q) & 1]
            k = owners.index(s)
            direction = centres[b] - centres[a]
            normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
            shift = normal * 0.18 * (k - (len(owners) - 1) / 2)
            segments.append([centres[a] + shift, centres[b] + shift])
        if segments:
            ax.add_collection(line_collection(segments, colors=SEAT_COLOURS[s], linewidths=2.2))


def _draw_cities(rail_map: RailMap, state, centres: np.ndarray, ax) -> None:
    t = rail_map.tables
    starts = set(int(c) for c in t.start_cities)
    for c in range(rail_map.n_cities):
        x, y = centres[int(t.city_hex[c])]
        marker = "s" if c in starts else "o"
        face = "#ffffff" if not state["connected"][c] else "#ffe066"
        ax.plot([x], [y], marker=marker, markersize=13, markerfacecolor=face, markeredgecolor="black", zorder=5)
        ax.text(x, y + 0.05, str(int(t.city_number[c])), fontsize=7, ha="center", va="center", zorder=6,
                weight="bold")
        ax.text(x, y + 0.62, rail_map.city_names[c], fontsize=6, ha="center", va="top", zorder=6,
                bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.7, "linewidth": 0})
    for h, colour in ((int(state["race_start"]), "#16a34a"), (int(state["race_goal"]), "#dc2626")):
        if h >= 0:
            x, y = centres[h]
            ax.plot([x], [y], marker="o", markersize=22, markerfacecolor="none", markeredgecolor=colour,
                    markeredgewidth=2.5, zorder=7)
    if int(state["race_country"]) > 0:
        goal = np.flatnonzero(t.hexes[:, HX_COUNTRY] == int(state["race_country"]))
        ax.plot(centres[goal, 0], centres[goal, 1], "x", color="#dc2626", markersize=5, zorder=7)
    for s in range(int(state["num_players"])):  # declared routes of the race being entered (§7.6)
        slot = int(state["entry_slot"][s])
        if int(state["entry"][s]) == ENTRY_ENTERED and slot >= 0:
            on_route = np.flatnonzero((state["cand_hexes"] >> np.uint32(4 * s + slot)) & np.uint32(1))
            ax.plot(centres[on_route, 0] + 0.25 * (s - 2.5) / 3, centres[on_route, 1], ".", color=SEAT_COLOURS[s],
                    markersize=6, zorder=8)
