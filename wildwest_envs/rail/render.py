"""The text map of one Rail game (read-only).

``make_text_renderer(rail_map)`` returns the ``render_ansi(state)`` a map's ``Game`` binds (its action names
are ``names.make_action_to_string(rail_map)``): a compact text map with every player's lines, the seats and
the race. The picture (``render_mode="rgb_array"``, the viewer, the README) is the SVG drawing of
``svg.draw``, rasterized by ``core.raster``; it reads the colours below.

It accepts one record and never writes to it.

Decisions taken where the spec and the brief are silent:

* **Text map**: one 3-character cell per hex, odd rows shifted right by one
  character (the odd-r layout): a city shows its number, other hexes
  ``.`` open, ``M`` mountain, ``~`` water, ``:`` / ``^`` foreign open /
  mountain; the third character is the seat whose network holds the hex
  (``0``-``5``), ``*`` for several, blank for none. The race start and goal
  are marked ``S`` / ``G`` in that third character. Rivers are not drawn.
"""

from __future__ import annotations


from ..core.checks import one_record
from .data import (CONTEXT_NAMES, CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD, CTX_GAME_OVER, ENTRY_DECLINED,
                   FUND_ACCOUNT, N_ROUTE_OBJECTIVES)
from .maps import HOME, HX_CITY, HX_COUNTRY, HX_TERRAIN, T_MOUNTAIN, T_OPEN, RailMap
from .names import SLOT_NAMES, hex_name

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")  # player_0 .. player_5


def make_text_renderer(rail_map: RailMap):
    """``render_ansi(state) -> str`` bound to a map (its action names are ``names.make_action_to_string``)."""

    def render_ansi(state) -> str:
        return text_board(rail_map, one_record(state))

    return render_ansi


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


# ---- colours the drawing (svg.draw) reads ------------------------------------------------------------------
TERRAIN_COLOURS = {0: "#f4f1de", 1: "#a68a64", 2: "#8ecae6", 3: "#5fa8d3"}
RIVER_COLOUR = "#7dd3fc"  # light sky blue: distinct from every seat colour
FOREIGN_COLOURS = {0: "#e9e9e9", 1: "#c8c8c8"}
