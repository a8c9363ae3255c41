"""Names of Rail actions: ``action_name(rail_map, state, action)`` and its map-bound form, read-only.

``make_action_to_string(rail_map)`` returns the ``action_to_string(state, action)``
a map's ``Game`` binds: a short stable name of any action id of one record; it
never writes to the record. ``Game.string_to_action`` is its inverse. The text
map (``render``) names hexes and race slots with ``hex_name`` and ``SLOT_NAMES``.

Decisions taken where the spec and the brief are silent:

* **Hexes** are named by offset coordinates ``col,row`` (§0.2), a city hex by
  its name too: ``29,9 Chicago``. A BUILD action names its source hex, the
  direction and the other hex: ``build 29,9 Chicago W 28,9``. The source is
  the end from which the pending builder may build (its network hex; the
  canonical end when both or neither qualify), so a step reads as drawn from
  the player's line. The other actions: ``end turn``, ``start in Chicago
  (63)``, ``decline race``, ``enter race: cheapest route`` (with its pips and
  fees when the slot is filled), ``propose co-build to player_2``, ``accept
  co-build``, ``decline co-build``, ``fund with dice``, ``fund from account``,
  ``build ferry <name>``.
"""

from __future__ import annotations

from ..core.checks import one_record
from .data import (CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD, N_OTHER_ACTIONS, N_ROUTE_OBJECTIVES, OFF_BUILD_FERRY,
                   OFF_CHOOSE_START, OFF_COOP_ACCEPT, OFF_COOP_DECLINE, OFF_COOP_PROPOSE, OFF_END_TURN,
                   OFF_FUND_ACCOUNT, OFF_FUND_DICE, OFF_RACE_DECLINE, OFF_RACE_ENTER)
from .maps import DIRECTION_NAMES, HOME, HX_CITY, HX_COUNTRY, ST_A, ST_B, ST_DIR, RailMap

SLOT_NAMES = ("cheapest", "fastest", "balanced", "reserved")


def make_action_to_string(rail_map: RailMap):
    """``action_to_string(state, action)`` bound to a map (``action_name`` of one record).

    The names of the BUILD actions, from either end of their step, are written at the first call (not when the
    game is made: 90 ms): a game's name of every action of a Rail position (1,797 of them) then costs a lookup each
    instead of formatting two hex names."""
    tables = {}  # "ends", "at_home", "build_names", filled at the first call

    def action_to_string(state, action: int) -> str:
        state, action = one_record(state), int(action)
        if not tables:
            tables.update(_build_tables(rail_map))
        if 0 <= action < len(tables["build_names"]):
            a, b = tables["ends"][action]
            return tables["build_names"][action][_source(state, a, b, tables["at_home"]) == b]
        return action_name(rail_map, state, action)

    return action_to_string


def _build_tables(rail_map: RailMap) -> dict:
    """Each step's two hexes (``ends``), whether each hex is at home (``at_home``) and each BUILD action's name from
    either end (``build_names``)."""
    t = rail_map.tables
    ends = [(int(a), int(b)) for a, b in zip(t.steps[:, ST_A], t.steps[:, ST_B])]
    names = [(_build_name(rail_map, e, a), _build_name(rail_map, e, b)) for e, (a, b) in enumerate(ends)]
    at_home = [bool(country == HOME) for country in t.hexes[:, HX_COUNTRY]]
    return {"ends": ends, "at_home": at_home, "build_names": names}


# ---- names ------------------------------------------------------------------------------------------------------
def hex_name(rail_map: RailMap, h: int) -> str:
    """``col,row`` of a hex, with the city name when it holds one."""
    col, row = rail_map.col_row(h)
    city = int(rail_map.tables.hexes[h, HX_CITY])
    return f"{col},{row} {rail_map.city_names[city]}" if city >= 0 else f"{col},{row}"


def _city_label(rail_map: RailMap, city: int) -> str:
    return f"{rail_map.city_names[city]} ({int(rail_map.tables.city_number[city])})"


def step_source(rail_map: RailMap, state, e: int) -> int:
    """The end of step e a BUILD action names first: the builder's network hex at home, else the canonical end."""
    steps, hexes = rail_map.tables.steps, rail_map.tables.hexes
    a, b = int(steps[e, ST_A]), int(steps[e, ST_B])
    return _source(state, a, b, {h: hexes[h, HX_COUNTRY] == HOME for h in (a, b)})


def _source(state, a: int, b: int, at_home) -> int:
    """``step_source`` of the step from hex ``a`` to hex ``b``; ``at_home[h]``: hex ``h`` is in the home country."""
    builder = int(state["builder"])
    if builder >= 0 and int(state["context"]) in (CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD):
        usable = [h for h in (a, b) if (int(state["net"][h]) >> builder) & 1 and at_home[h]]
        if len(usable) == 1:
            return usable[0]
    return a


def _build_name(rail_map: RailMap, e: int, src: int) -> str:
    """The name of building step ``e`` from its end ``src``."""
    t = rail_map.tables
    a, b = int(t.steps[e, ST_A]), int(t.steps[e, ST_B])
    dst = b if src == a else a
    d = int(t.steps[e, ST_DIR]) if src == a else (int(t.steps[e, ST_DIR]) + 3) % 6
    return f"build {hex_name(rail_map, src)} {DIRECTION_NAMES[d]} {hex_name(rail_map, dst)}"


def action_name(rail_map: RailMap, state, action: int) -> str:
    """The name of any action id in one record (module docstring)."""
    t = rail_map.tables
    base = rail_map.n_steps
    if action < base:
        return _build_name(rail_map, action, step_source(rail_map, state, action))
    off = action - base
    n = int(state["num_players"])
    if off == OFF_END_TURN:
        return "end turn"
    if OFF_CHOOSE_START <= off < OFF_RACE_DECLINE:
        i = off - OFF_CHOOSE_START
        return f"start in {_city_label(rail_map, int(t.start_cities[i]))}" if i < len(t.start_cities) \
            else f"start city {i} (none)"
    if off == OFF_RACE_DECLINE:
        return "decline race"
    if OFF_RACE_ENTER <= off < OFF_RACE_ENTER + 4:
        k = off - OFF_RACE_ENTER
        text = f"enter race: {SLOT_NAMES[k]} route"
        p = int(state["current"])
        if k < N_ROUTE_OBJECTIVES and p >= 0 and state["cand_valid"][p, k]:
            fees = sum(min(int(state["fee_cap"]), int(state["cand_fee"][p, k, q])) for q in range(n) if q != p)
            text += f" ({int(state['cand_pips'][p, k])} pips, {int(state['cand_steps'][p, k])} steps, fee {fees})"
        return text
    if OFF_COOP_PROPOSE + 1 <= off <= OFF_COOP_PROPOSE + 5:
        j = off - OFF_COOP_PROPOSE
        builder = int(state["builder"])
        if builder >= 0 and j < n:
            return f"propose co-build to player_{(builder + j) % n}"
        return f"propose co-build to seat +{j}"
    if off == OFF_COOP_ACCEPT:
        return "accept co-build"
    if off == OFF_COOP_DECLINE:
        return "decline co-build"
    if off == OFF_FUND_DICE:
        return "fund with dice"
    if off == OFF_FUND_ACCOUNT:
        return "fund from account"
    if OFF_BUILD_FERRY <= off < N_OTHER_ACTIONS:
        f = off - OFF_BUILD_FERRY
        return f"build ferry {rail_map.ferry_names[f]}" if f < len(rail_map.ferry_names) else f"ferry {f} (none)"
    raise ValueError(f"action {action} is out of range")
