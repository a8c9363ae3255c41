"""One drawing of a Way Out West game, as a standalone SVG document (read-only).

``draw(state, seat=None)`` draws a record as every game's drawing does (``core.svg``: the arguments, the
errors, a usage example) on ``WIDTH`` x ``HEIGHT`` pixels, the same for every record; every seat's view is
the omniscient one ("Views" below).

**Views.** Way Out West hides nothing but the future dice (spec §12, ``game``
declares it of perfect information): every counter, all money, every bid and
every Wanted counter is public, so ``draw(state, seat=k)`` is byte-identical
to ``draw(state)`` for every seat (``seat`` is checked and otherwise unused).
The generator state and the preset die queue, the only secret (§13.3), are
never read: a gunfight's dice are drawn blank, as many as each side will roll
in the next volley.

What the picture shows:

* the header: round, phase (and action lap), who decides what now (the
  pending decision in words);
* the tracks: the round track 1..R with the income rounds ($) and the round
  marker, the turn-order track (during the auction: the positions won so far),
  the cattle frontier, the Wanted supply and the farmers removed;
* the five towns along the cattle trail (board numbers 1-5, §3; the JSON has
  no coordinates, so the towns are laid out as a trail in their board order):
  building spaces with each B&T counter in its owner's colour (its two-letter
  code and name), corrals with the cattle counters in their owners' colours,
  every seat's cowboys, the neutral farmers, the jail's sheriff (a gold star
  ringed in the jail owner's colour), town size, control and whether the town
  is open for cattle; the fight town is framed in red;
* the situation panel: the gunfight in progress (attacker and target, both
  sides with their cowboys, sheriff, intrinsic or default defender and farmer,
  the volley, the blank dice of the next volley and who shoots first, a
  retreat being placed), else the action being carried out, the auction (high
  bid, bidding order, decisions against the 60 cap), the setup, or the final
  standings;
* per seat: money, VP now (and by category), income now, turn-order and
  bidding position, bid, action markers left, Wanted counters, farmer, supplies;
* the 19 action boxes (free, taken by a seat's marker, or inactive for this
  player count) and a legend.

Pieces carry classes and ``data-`` attributes for tools and tests:
``town`` (``data-town``, ``data-size``, ``data-open``, ``data-farmers``,
``data-sheriff`` the jail owner or -1, ``data-control`` or -1,
``data-cowboys`` / ``data-cattle`` counts per seat and ``data-buildings``
owner per type, comma-separated), ``building`` (``data-town``, ``data-type``,
``data-owner``), ``cowboys`` and ``cattle`` (``data-town``, ``data-seat``,
``data-count``, one per seat present), ``farmer`` (``data-town``,
``data-index``), ``sheriff`` (``data-town``, ``data-owner``), ``seat``
(``data-seat``, ``data-cash``, ``data-vp``, ``data-wanted``, ``data-bid``,
``data-position`` 1..N or 0, ``data-turns``), ``round`` (``data-round``,
``data-current``, ``data-income``), ``turn-position`` (``data-position``,
``data-seat`` or -1), ``box`` (``data-box``, ``data-user`` or -1,
``data-active``), ``gunfight`` (``data-town``, ``data-attacker``,
``data-defender``, ``data-target``, ``data-volley``, ``data-attackers`` and
``data-defenders`` the side sizes, -1 before the sides are fixed), ``die``
(``data-side`` attacker / defender, ``data-index``), ``auction``
(``data-high-bid``, ``data-high-bidder``, ``data-decisions``) and the
``decision`` text (``data-seat``, ``data-decision`` the §13.2 name, ``none``
when over).

Colours, names and phrases come from ``render`` (``PLAYER_COLOURS``,
``BT_SHORT``, ``BACKGROUND``, ``TOWN_FILL``, the round track) and ``names``
(``_box_label``, ``_agent``); the decision phrases exist only here.
"""

from __future__ import annotations

import numpy as np

from ..core.svg import el as _el, fit as _fit, group as _group, num as _num, text as _text
from ..core.svg import document, record_and_viewer, star as _star, text_width as _text_width
from .data import (ACT_BUY_CATTLE, ACT_GUNFIGHT, ACT_HIRE, BOX_ACTION, BOX_BT, BOX_MIN_PLAYERS, BT_NAMES, BT_PRICE, BUILDING_SPACES, CORRALS,
                   DEC_AUCTION_BID, DEC_BUILD_TOWN, DEC_BUY_CATTLE_COUNT, DEC_BUY_CATTLE_TOWN, DEC_CHOOSE_ACTION,
                   DEC_FARMER_TOWN, DEC_GUNFIGHT_DEFENDER, DEC_GUNFIGHT_TARGET, DEC_GUNFIGHT_TOWN, DEC_HIRE_TOWN_1,
                   DEC_HIRE_TOWN_2, DEC_MOVE_CATTLE_COUNT, DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO,
                   DEC_MOVE_COWBOYS_COUNT, DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO, DEC_RETREAT_DESTINATION,
                   DEC_SETUP_PLACE_COWBOY, DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER,
                   DEC_WANTED_STEAL, DECISION_NAMES, HIT_MIN, INCOME_EVERY, JAIL,
                   MAX_AUCTION_DECISIONS, MAX_PLAYERS, MAX_VOLLEYS, N_BOXES, N_BT, N_TOWNS, PHASE_ACTIONS,
                   PHASE_AUCTION, PHASE_NAMES, PHASE_SETUP, SIDE_ATTACKER, SIDE_DEFENDER, START_COWBOYS, T_CATTLE,
                   T_FARMER, TARGET_NAMES, TOWN_NAMES, TRAIN)
from .names import _agent, _box_label
from .render import BACKGROUND, BT_SHORT, PLAYER_COLOURS, TOWN_FILL
from .scoring import N_VP_CATEGORIES, VP_CATEGORY_NAMES, income_of, tiebreak_seats, vp_by_category
from .state import NOBODY, STATE_DTYPE

GAME_NAME = "way_out_west_v0"

# ---- the sheet (pixels) ---------------------------------------------------------------------------------------
WIDTH, HEIGHT = 1400, 900
HEADER_H = 58
TRACK_TOP, TRACK_H = 64.0, 62.0
TOWN_LEFT, TOWN_TOP = 10.0, 136.0
CELL_W, CELL_H, CELL_GAP_X, CELL_GAP_Y = 300.0, 246.0, 18.0, 16.0
# the cattle trail: towns 1, 2, 3 along the top row, then down to 4 and back to 5; the free cell holds the panel
TOWN_CELLS = ((0, 0), (1, 0), (2, 0), (2, 1), (1, 1))
PANEL_CELL = (0, 1)
SEATS_LEFT, SEATS_TOP, SEATS_W = 964.0, 136.0, 426.0
SEATS_BOTTOM = TOWN_TOP + 2 * CELL_H + CELL_GAP_Y
BOXES_TOP = 660.0
LEGEND_TOP = 786.0
INK = "#2b2118"
PAPER = "#fbf6ea"
HEADER_FILL = "#3b2a1e"
GOLD = "#e0b21a"
FIGHT_RED = "#b3001b"
FARMER_FILL = "#f1e3b3"
VIRTUAL_FILL = "#bdbdbd"
CLOSED_FILL = "#d8cbb0"
SLOT_W, SLOT_H = 44.0, 40.0  # a building space
CORRAL = 30.0  # a corral


# ---- reading a record ---------------------------------------------------------------------------------------------
def _int(record: np.void, field: str) -> int:
    return int(record[field])


def _size(record: np.void, t: int) -> int:
    return int(np.count_nonzero(record["bt_owner"][t] != NOBODY))


def _vp_table(record: np.void) -> np.ndarray:
    out = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), dtype=np.int64)
    vp_by_category(record, out)
    return out


def _control(record: np.void, t: int) -> int:
    """The strict leader of B&T + cattle counters in town t (§11.3), NOBODY on a tie or an empty town."""
    n = _int(record, "num_players")
    counts = [int(np.count_nonzero(record["bt_owner"][t] == p)) + int(record["cattle"][t, p]) for p in range(n)]
    best = max(counts)
    return counts.index(best) if best > 0 and counts.count(best) == 1 else NOBODY


def _town_name(record: np.void, field: str) -> str:
    t = _int(record, field)
    return TOWN_NAMES[t] if 0 <= t < N_TOWNS else "?"


def _turn_positions(record: np.void) -> list[int]:
    """The seat at each turn-order position: the positions won so far in the auction, else this round's order."""
    n = _int(record, "num_players")
    order = record["new_order"] if _int(record, "phase") == PHASE_AUCTION else record["turn_order"]
    return [int(order[i]) for i in range(n)]


def _winners(record: np.void) -> list[int]:
    """Most VP, then the tie-breaks of §11.4 (money, then B&T counters); ties share the win."""
    n = _int(record, "num_players")
    vp = _vp_table(record).sum(axis=1)
    keys = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tiebreak_seats(record, keys)
    best = max((int(vp[p]), int(keys[p])) for p in range(n))
    return [p for p in range(n) if (int(vp[p]), int(keys[p])) == best]


def _side_sizes(record: np.void) -> tuple[int, int]:
    a = _int(record, "a_cow") + _int(record, "a_sher")
    d = _int(record, "d_cow") + _int(record, "d_virt") + _int(record, "d_sher") + _int(record, "d_farm")
    return a, d


def _sides_fixed(record: np.void) -> bool:
    """The gunfight's sides are set (after the sheriff's decision, §9.3)."""
    return bool(record["gf_active"]) and _int(record, "decision") != DEC_SHERIFF_JOIN


def _target_phrase(record: np.void) -> str:
    """``the Bank of player_2``, ``the cattle of player_1``, ``a farmer``."""
    x, q = _int(record, "pend_target"), _int(record, "pend_defender")
    if x == T_FARMER:
        return "a farmer"
    if x == T_CATTLE:
        return "the cattle" + (f" of {_agent(q)}" if q >= 0 else "")
    if 0 <= x < N_BT:
        return f"the {BT_NAMES[x]}" + (f" of {_agent(q)}" if q >= 0 else "")
    return "?"


def _decision_text(record: np.void) -> str:
    """What the pending decision asks, in words."""
    dec = _int(record, "decision")
    t1, t2 = _town_name(record, "pend_town1"), _town_name(record, "pend_town2")
    volley = _int(record, "gf_volley")
    box = _int(record, "pend_box")
    if dec == DEC_SETUP_PLACE_COWBOY:
        return (f"place a setup cowboy in any town ({_int(record, 'setup_placed')} of "
                f"{START_COWBOYS * _int(record, 'num_players')} placed)")
    if dec == DEC_AUCTION_BID:
        bidder = _int(record, "high_bidder")
        by = f" by {_agent(bidder)}" if bidder >= 0 else ""
        return f"raise the high bid of ${_int(record, 'high_bid')}{by} or drop out"
    if dec == DEC_CHOOSE_ACTION:
        return f"take a free action box or pass (lap {_int(record, 'lap') + 1})"
    if dec == DEC_BUILD_TOWN:
        kind = BT_NAMES[int(BOX_BT[box])] if 0 <= box < N_BOXES and BOX_BT[box] >= 0 else "counter"
        return f"choose the town to build the {kind} in"
    phrases = {
        DEC_BUY_CATTLE_TOWN: "choose the town to buy cattle in",
        DEC_BUY_CATTLE_COUNT: f"how many cattle to buy in {t1}",
        DEC_HIRE_TOWN_1: "choose the town of the first hired cowboy",
        DEC_HIRE_TOWN_2: f"a town for a second cowboy (first in {t1}), or stop",
        DEC_MOVE_COWBOYS_FROM: "choose the town to move cowboys from",
        DEC_MOVE_COWBOYS_TO: f"where to move the cowboys from {t1}",
        DEC_MOVE_COWBOYS_COUNT: f"how many cowboys to move from {t1} to {t2}",
        DEC_MOVE_CATTLE_FROM: "choose the town to move cattle from",
        DEC_MOVE_CATTLE_TO: f"where to move the cattle from {t1}",
        DEC_MOVE_CATTLE_COUNT: f"how many cattle to move from {t1} to {t2}",
        DEC_FARMER_TOWN: "choose the town of the farmer",
        DEC_GUNFIGHT_TOWN: "choose the town of the gunfight",
        DEC_GUNFIGHT_TARGET: f"choose the target of the gunfight in {t1}",
        DEC_GUNFIGHT_DEFENDER: f"choose whose cattle to attack in {t1}",
        DEC_SHERIFF_JOIN: f"does the sheriff of {t1} join the gunfight?",
        DEC_VOLLEY_ATTACKER: f"attacker: shoot or retreat (volley {volley})",
        DEC_VOLLEY_DEFENDER: f"defender: shoot or retreat (volley {volley})",
        DEC_RETREAT_DESTINATION: f"a town for a retreating cowboy ({_int(record, 'retreat_left')} left)",
        DEC_WANTED_STEAL: "the Wanted supply is empty: whose Wanted counter to take",
    }
    return phrases.get(dec, DECISION_NAMES[dec] if 0 <= dec < len(DECISION_NAMES) else "?")


# ---- small figures ------------------------------------------------------------------------------------------------
def _cowboy(x: float, y: float, colour: str, stroke: str = "#000", dash: str | None = None) -> list[str]:
    """A cowboy: hat, head and body, centred on x, standing on y + 7."""
    return [_el("path", d=f"M{_num(x - 4.8)},{_num(y + 7)} L{_num(x - 3.2)},{_num(y - 1)} L{_num(x + 3.2)},"
                f"{_num(y - 1)} L{_num(x + 4.8)},{_num(y + 7)} Z", fill=colour, stroke=stroke, stroke_width=0.9,
                stroke_dasharray=dash),
            _el("circle", cx=x, cy=y - 3.6, r=2.7, fill=colour, stroke=stroke, stroke_width=0.9,
                stroke_dasharray=dash),
            _el("rect", x=x - 4.6, y=y - 6.9, width=9.2, height=1.5, rx=0.7, fill=stroke),
            _el("rect", x=x - 2.2, y=y - 9.6, width=4.4, height=3, rx=0.8, fill=stroke)]


def _farmer(x: float, y: float) -> list[str]:
    """A farmer: a straw-hatted figure in a neutral colour, with a pitchfork."""
    return [_el("line", x1=x + 6, y1=y - 7, x2=x + 6, y2=y + 7, stroke="#6b4f2a", stroke_width=1.2),
            _el("path", d=f"M{_num(x + 4)},{_num(y - 9)} v3 h4 v-3", fill="none", stroke="#6b4f2a",
                stroke_width=1),
            _el("path", d=f"M{_num(x - 4.8)},{_num(y + 7)} L{_num(x - 3.2)},{_num(y - 1)} L{_num(x + 3.2)},"
                f"{_num(y - 1)} L{_num(x + 4.8)},{_num(y + 7)} Z", fill=FARMER_FILL, stroke="#000",
                stroke_width=0.9),
            _el("circle", cx=x, cy=y - 3.6, r=2.7, fill=FARMER_FILL, stroke="#000", stroke_width=0.9),
            _el("ellipse", cx=x, cy=y - 6.3, rx=6, ry=1.6, fill="#d9b54a", stroke="#7a5b14", stroke_width=0.7)]


def _sheriff(x: float, y: float, owner_colour: str) -> list[str]:
    return [_el("circle", cx=x, cy=y, r=10.5, fill=owner_colour, stroke="#000", stroke_width=0.8),
            _star(x, y, 8.5, fill=GOLD, stroke="#6b5200", stroke_width=0.8)]


def _steer(x: float, y: float, colour: str, size: float = 22.0) -> list[str]:
    """A cattle counter: a steer's head with horns in the owner's colour, centred on (x, y)."""
    s = size / 22.0
    return [_el("path", d=f"M{_num(x - 5 * s)},{_num(y - 5 * s)} Q{_num(x - 11 * s)},{_num(y - 6 * s)} "
                f"{_num(x - 10 * s)},{_num(y - 11 * s)} M{_num(x + 5 * s)},{_num(y - 5 * s)} Q{_num(x + 11 * s)},"
                f"{_num(y - 6 * s)} {_num(x + 10 * s)},{_num(y - 11 * s)}", fill="none", stroke="#4a3b2c",
                stroke_width=1.8 * s, stroke_linecap="round"),
            _el("path", d=f"M{_num(x - 6.5 * s)},{_num(y - 6 * s)} h{_num(13 * s)} l-{_num(2 * s)},{_num(12 * s)} "
                f"q-{_num(4.5 * s)},{_num(3 * s)} -{_num(9 * s)},0 z", fill=colour, stroke="#000",
                stroke_width=0.9),
            _el("circle", cx=x - 2.6 * s, cy=y - 1.5 * s, r=1.1 * s, fill="#000"),
            _el("circle", cx=x + 2.6 * s, cy=y - 1.5 * s, r=1.1 * s, fill="#000")]


def _counter(x: float, y: float, k: int, owner: int, w: float = SLOT_W, h: float = SLOT_H) -> list[str]:
    """A B&T counter: its owner's colour, its two-letter code and its name."""
    return [_el("rect", x=x, y=y, width=w, height=h, rx=4, fill=PLAYER_COLOURS[owner], stroke="#000",
                stroke_width=1.1),
            _text(x + w / 2, y + h * 0.55, BT_SHORT[k], h * 0.38, text_anchor="middle", fill="#fff",
                  font_weight="bold"),
            _text(x + w / 2, y + h - 4, BT_NAMES[k], min(7.5, h * 0.2), text_anchor="middle", fill="#fff")]


def _blank_die(x: float, y: float, colour: str, size: float = 18.0) -> list[str]:
    """A die not yet rolled (future dice are never shown, §12)."""
    return [_el("rect", x=x, y=y, width=size, height=size, rx=3.5, fill="#fff", stroke=colour, stroke_width=2),
            _text(x + size / 2, y + size * 0.68, "?", size * 0.55, text_anchor="middle", fill="#9a8f7a")]


# ---- header and tracks ----------------------------------------------------------------------------------------------
def _header(record: np.void) -> str:
    n, phase = _int(record, "num_players"), _int(record, "phase")
    phase_name = PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else "?"
    if phase == PHASE_ACTIONS:
        phase_name += f" phase, lap {_int(record, 'lap') + 1} of 2"
    elif phase in (PHASE_SETUP, PHASE_AUCTION):
        phase_name += " phase"
    parts = [_el("rect", x=0, y=0, width=WIDTH, height=HEADER_H, fill=HEADER_FILL),
             _text(16, 28, "Way Out West", 22, fill="#f6d28b", font_weight="bold", font_family="Georgia, serif"),
             _text(214, 26, f"{n} players \u00b7 round {_int(record, 'round')} of {_int(record, 'num_rounds')} "
                   f"\u00b7 {phase_name}", 14, fill="#f3ead7", class_="status")]
    current, dec = _int(record, "current"), _int(record, "decision")
    if record["done"]:
        winners = _winners(record)
        line = "Game over: " + " and ".join(_agent(p) for p in winners) + (" win" if len(winners) > 1 else " wins")
        attrs = dict(data_seat=NOBODY, data_decision="none")
        colour = "#ffd166"
    elif current >= 0 and 0 <= dec < len(DECISION_NAMES):
        line = f"{_agent(current)} to decide: {_decision_text(record)}"
        attrs = dict(data_seat=current, data_decision=DECISION_NAMES[dec])
        colour = PLAYER_COLOURS[current]
        parts.append(_el("circle", cx=22, cy=45, r=6, fill=colour, stroke="#fff", stroke_width=1.2))
    else:
        line, attrs, colour = "no decision pending", dict(data_seat=NOBODY, data_decision="none"), "#ffd166"
    if record["n_decisions"] >= record["max_decisions"] and not record["done"]:
        line += " (cut by the decision cap)"
    parts.append(_text(34, 50, _fit(line, 13.5, 960), 13.5, fill="#ffe8b0", font_weight="bold", class_="decision",
                       **attrs))
    parts.append(_text(WIDTH - 14, 24, "perfect information: every seat sees this board", 12, text_anchor="end",
                       fill="#f6d28b", font_style="italic", class_="view"))
    parts.append(_text(WIDTH - 14, 44, f"decisions taken {_int(record, 'n_decisions')}", 11.5, text_anchor="end",
                       fill="#d9c9a8"))
    return _group(parts, class_="header")


def _tracks(record: np.void) -> str:
    n, rounds, now = _int(record, "num_players"), _int(record, "num_rounds"), _int(record, "round")
    top = TRACK_TOP
    parts = [_el("rect", x=10, y=top, width=WIDTH - 20, height=TRACK_H, rx=8, fill=PAPER, stroke="#c8b58a")]
    parts.append(_text(22, top + 18, "Round track", 12, font_weight="bold", fill=INK))
    parts.append(_text(120, top + 18, "($ = income after the round)", 10.5, fill="#7a6a50"))
    for r in range(1, rounds + 1):
        x = 22 + (r - 1) * 35.0
        income = r % INCOME_EVERY == 0
        cell = [_el("rect", x=x, y=top + 26, width=31, height=28, rx=4, fill="#f6e7b6" if income else "#fff",
                    stroke="#8a7650", stroke_width=1.2)]
        if r == now and not record["done"]:
            cell.append(_el("circle", cx=x + 15.5, cy=top + 40, r=11, fill="#111"))
            cell.append(_text(x + 15.5, top + 44.5, str(r), 12, text_anchor="middle", fill="#fff",
                              font_weight="bold"))
        else:
            cell.append(_text(x + 15.5, top + 44.5, str(r), 12, text_anchor="middle",
                              fill="#9a8f7a" if r < now or record["done"] else INK))
        if income:
            cell.append(_text(x + 27.5, top + 35, "$", 9.5, text_anchor="middle", fill="#2d6a4f", font_weight="bold"))
        parts.append(_group(cell, class_="round", data_round=r, data_current=int(r == now),
                            data_income=int(income)))
    # the turn-order track
    x0 = 470.0
    auction = _int(record, "phase") == PHASE_AUCTION
    parts.append(_text(x0, top + 18, "Turn order (positions won so far)" if auction else "Turn order", 12,
                       font_weight="bold", fill=INK))
    on_turn = _int(record, "current") if _int(record, "phase") == PHASE_ACTIONS else NOBODY
    for i, seat in enumerate(_turn_positions(record)):
        x = x0 + i * 62.0
        cell = [_el("rect", x=x, y=top + 26, width=56, height=28, rx=4, fill="#fff", stroke="#8a7650",
                    stroke_width=1.2),
                _text(x + 9, top + 44.5, str(i + 1), 12, text_anchor="middle", fill="#7a6a50", font_weight="bold")]
        if seat >= 0:
            cell.append(_el("circle", cx=x + 35, cy=top + 40, r=10, fill=PLAYER_COLOURS[seat], stroke="#000",
                            stroke_width=2.5 if seat == on_turn else 1))
            cell.append(_text(x + 35, top + 44.5, f"p{seat}", 10, text_anchor="middle", fill="#fff",
                              font_weight="bold"))
        else:
            cell.append(_text(x + 35, top + 44.5, "free", 10, text_anchor="middle", fill="#9a8f7a"))
        parts.append(_group(cell, class_="turn-position", data_position=i + 1, data_seat=seat))
    # frontier, Wanted supply, farmers removed
    x1 = x0 + 5 * 62.0 + 20
    frontier = _int(record, "frontier")
    parts.append(_text(x1, top + 18, "Cattle frontier", 12, font_weight="bold", fill=INK))
    parts.append(_text(x1, top + 36, f"open up to {frontier + 1} {TOWN_NAMES[frontier]}", 11.5, fill=INK,
                       class_="frontier", data_town=frontier))
    parts.append(_text(x1, top + 52, "(fills town by town, never moves back)", 10, fill="#7a6a50"))
    x2 = x1 + 250
    parts.append(_text(x2, top + 18, "Wanted counters", 12, font_weight="bold", fill=INK))
    supply = _int(record, "wanted_supply")
    parts.append(_wanted_poster(x2, top + 26, 22))
    parts.append(_text(x2 + 24, top + 43, f"\u00d7 {supply} in the supply", 11.5, fill=INK, class_="wanted-supply",
                       data_count=supply))
    x3 = x2 + 170
    parts.append(_text(x3, top + 18, "Farmers", 12, font_weight="bold", fill=INK))
    placed = int(record["farmer_used"][:n].sum())
    parts.append(_text(x3, top + 36, f"{placed} of {n} placed", 11.5, fill=INK))
    parts.append(_text(x3, top + 52, f"{_int(record, 'farmers_removed')} removed in fights", 11.5, fill=INK))
    return _group(parts, class_="tracks")


def _wanted_poster(x: float, y: float, h: float) -> str:
    w = h * 0.78
    return _group([_el("rect", x=x, y=y, width=w, height=h, rx=1.5, fill="#f3deb0", stroke="#6b4f2a",
                       stroke_width=1),
                   _text(x + w / 2, y + h * 0.36, "WANTED", h * 0.2, text_anchor="middle", fill="#6b1d1d",
                         font_weight="bold"),
                   _el("circle", cx=x + w / 2, cy=y + h * 0.64, r=h * 0.17, fill="#6b4f2a")])


# ---- the towns ------------------------------------------------------------------------------------------------------
def _cell_xy(cell: tuple[int, int]) -> tuple[float, float]:
    return TOWN_LEFT + cell[0] * (CELL_W + CELL_GAP_X), TOWN_TOP + cell[1] * (CELL_H + CELL_GAP_Y)


def _trail() -> str:
    """The cattle trail 1 -> 5 behind the towns, with arrows in the gaps (static)."""
    centres = [(x + CELL_W / 2, y + CELL_H / 2) for x, y in map(_cell_xy, TOWN_CELLS)]
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in centres)
    parts = [_el("polyline", points=points, fill="none", stroke="#a07a45", stroke_width=9, stroke_linejoin="round",
                 stroke_dasharray="14 6")]
    for (ax, ay), (bx, by) in zip(centres, centres[1:]):
        if ay == by:  # horizontal neighbours: an arrow in the column gap
            gx = (max(ax, bx) + min(ax, bx)) / 2
            d = 1 if bx > ax else -1
            parts.append(_el("polygon", points=f"{_num(gx - 6 * d)},{_num(ay - 8)} {_num(gx + 6 * d)},{_num(ay)} "
                             f"{_num(gx - 6 * d)},{_num(ay + 8)}", fill="#6b4f2a"))
        else:
            gy = TOWN_TOP + CELL_H + CELL_GAP_Y / 2
            parts.append(_el("polygon", points=f"{_num(ax - 8)},{_num(gy - 6)} {_num(ax + 8)},{_num(gy - 6)} "
                             f"{_num(ax)},{_num(gy + 6)}", fill="#6b4f2a"))
    return _group(parts, class_="trail")


def _fight_town(record: np.void) -> int:
    box = _int(record, "pend_box")
    if (record["gf_active"] or (0 <= box < N_BOXES and BOX_ACTION[box] == ACT_GUNFIGHT)) \
            and 0 <= _int(record, "pend_town1") < N_TOWNS:
        return _int(record, "pend_town1")
    return NOBODY


def _draw_town(record: np.void, t: int) -> str:
    n = _int(record, "num_players")
    x, y = _cell_xy(TOWN_CELLS[t])
    w, h = CELL_W, CELL_H
    is_open = t <= _int(record, "frontier")
    fight = _fight_town(record) == t
    size, spaces, corrals = _size(record, t), int(BUILDING_SPACES[t]), int(CORRALS[t])
    control = _control(record, t)
    jail = int(record["bt_owner"][t, JAIL])
    parts = [_el("rect", x=x, y=y, width=w, height=h, rx=8, fill=TOWN_FILL, stroke=FIGHT_RED if fight else "#6b4f2a",
                 stroke_width=4 if fight else 1.6),
             _el("rect", x=x, y=y, width=w, height=26, rx=8, fill="#6b4f2a"),
             _el("rect", x=x, y=y + 16, width=w, height=10, fill="#6b4f2a"),
             _text(x + 10, y + 18.5, f"{t + 1}  {TOWN_NAMES[t]}", 14, fill="#fff", font_weight="bold")]
    tag = "GUNFIGHT" if fight else ("open for cattle" if is_open else "closed to cattle")
    tag_w = _text_width(tag, 10.5, bold=True) + 20
    parts.append(_el("rect", x=x + w - 8 - tag_w, y=y + 5, width=tag_w, height=17, rx=8.5,
                     fill=FIGHT_RED if fight else ("#2d6a4f" if is_open else "#8d7b63")))
    parts.append(_text(x + w - 8 - tag_w / 2, y + 17.5, tag, 10.5, text_anchor="middle", fill="#fff",
                       font_weight="bold"))
    # building spaces
    parts.append(_text(x + 10, y + 41, f"Buildings {size}/{spaces}, {size} VP each", 10.5, fill=INK,
                       font_weight="bold"))
    parts.append(_text(x + w - 10, y + 41, f"control: {_agent(control) if control >= 0 else 'nobody'}", 10.5,
                       text_anchor="end", fill=PLAYER_COLOURS[control] if control >= 0 else "#7a6a50",
                       font_weight="bold"))
    counters = [k for k in range(N_BT) if record["bt_owner"][t, k] != NOBODY]
    for i in range(spaces):
        sx, sy = x + 10 + i * (SLOT_W + 3.5), y + 47
        if i < len(counters):
            k = counters[i]
            owner = int(record["bt_owner"][t, k])
            parts.append(_group(_counter(sx, sy, k, owner), class_="building", data_town=t, data_type=k,
                                data_owner=owner))
        else:
            parts.append(_el("rect", x=sx, y=sy, width=SLOT_W, height=SLOT_H, rx=4, fill="#efdcb4",
                             stroke="#8a7650", stroke_dasharray="4 3"))
    # corrals
    held = int(record["cattle"][t, :n].sum())
    rate = (2 if record["bt_owner"][t, TRAIN] != NOBODY else 1) - (1 if record["farmers"][t] else 0)
    money = (1 if record["farmers"][t] else 2) * (2 if record["bt_owner"][t, TRAIN] != NOBODY else 1)
    parts.append(_text(x + 10, y + 104, f"Corrals {held}/{corrals}", 10.5, fill=INK, font_weight="bold"))
    parts.append(_text(x + w - 10, y + 104, f"each head: ${money} income, {rate} VP", 10.5, text_anchor="end",
                       fill=INK))
    cattle_seats = [(p, int(record["cattle"][t, p])) for p in range(n) if record["cattle"][t, p]]
    heads = [p for p, c in cattle_seats for _ in range(c)]
    for i in range(corrals):
        cx, cy = x + 10 + i * (CORRAL + 9.5), y + 110
        parts.append(_el("rect", x=cx, y=cy, width=CORRAL, height=CORRAL, rx=3,
                         fill="#efdcb4" if is_open else CLOSED_FILL, stroke="#8a7650", stroke_width=1.2))
    steers = []
    for i, p in enumerate(heads[:corrals]):
        cx, cy = x + 10 + i * (CORRAL + 9.5), y + 110
        steers += _steer(cx + CORRAL / 2, cy + CORRAL / 2 + 3, PLAYER_COLOURS[p], 22)
    parts.append(_group(steers))
    for p, c in cattle_seats:
        parts.append(_el("g", class_="cattle", data_town=t, data_seat=p, data_count=c))
    # cowboys, one row per seat present
    parts.append(_text(x + 10, y + 154, "Cowboys", 10.5, fill=INK, font_weight="bold"))
    row = 0
    for p in range(n):
        c = int(record["cowboys"][t, p])
        if not c:
            continue
        ry = y + 169 + row * 17.5
        figures = []
        for i in range(c):
            figures += _cowboy(x + 17 + i * 12.5, ry - 2, PLAYER_COLOURS[p])
        figures.append(_text(x + 17 + c * 12.5, ry + 4, f"{c} {_agent(p)}", 10, fill=INK))
        parts.append(_group(figures, class_="cowboys", data_town=t, data_seat=p, data_count=c))
        row += 1
    if not row:
        parts.append(_text(x + 16, y + 177, "none", 10, fill="#7a6a50", font_style="italic"))
    # sheriff and farmers on the right
    rx = x + w - 92
    parts.append(_text(rx, y + 154, "Sheriff, farmers", 10.5, fill=INK, font_weight="bold"))
    if jail != NOBODY:
        parts.append(_group(_sheriff(rx + 12, y + 178, PLAYER_COLOURS[jail])
                            + [_text(rx + 27, y + 182, _agent(jail), 10, fill=INK)],
                            class_="sheriff", data_town=t, data_owner=jail))
    farmers = int(record["farmers"][t])
    for i in range(farmers):
        fx, fy = rx + 8 + (i % 4) * 20, y + 210 + (i // 4) * 22
        parts.append(_group(_farmer(fx, fy), class_="farmer", data_town=t, data_index=i))
    if jail == NOBODY and not farmers:
        parts.append(_text(rx, y + 177, "none", 10, fill="#7a6a50", font_style="italic"))
    buildings = ",".join(str(int(o)) for o in record["bt_owner"][t])
    return _group(parts, class_="town", data_town=t, data_size=size, data_open=int(is_open), data_farmers=farmers,
                  data_sheriff=jail, data_control=control,
                  data_cowboys=",".join(str(int(c)) for c in record["cowboys"][t, :n]),
                  data_cattle=",".join(str(int(c)) for c in record["cattle"][t, :n]), data_buildings=buildings)


# ---- the situation panel ----------------------------------------------------------------------------------------------
def _wrap(text: str, size: float, width: float) -> list[str]:
    lines = [""]
    for word in text.split():
        trial = (lines[-1] + " " + word).strip()
        if lines[-1] and _text_width(trial, size) > width:
            lines.append(word)
        else:
            lines[-1] = trial
    return lines


def _panel(record: np.void) -> str:
    x, y = _cell_xy(PANEL_CELL)
    w, h = CELL_W, CELL_H
    parts = [_el("rect", x=x, y=y, width=w, height=h, rx=8, fill=PAPER, stroke="#6b4f2a", stroke_width=1.6)]
    if record["gf_active"]:
        parts.append(_gunfight(record, x, y, w))
    elif record["done"]:
        parts.append(_standings(record, x, y, w))
    elif _int(record, "phase") == PHASE_AUCTION:
        parts.append(_auction(record, x, y, w))
    else:
        parts.append(_action(record, x, y, w))
    return _group(parts, class_="panel")


def _panel_title(x: float, y: float, w: float, title: str, fill: str = "#6b4f2a") -> list[str]:
    return [_el("rect", x=x, y=y, width=w, height=26, rx=8, fill=fill),
            _el("rect", x=x, y=y + 16, width=w, height=10, fill=fill),
            _text(x + 10, y + 18.5, _fit(title, 14, w - 20, bold=True), 14, fill="#fff", font_weight="bold")]


def _lines(x: float, y: float, lines: list[str], size: float = 11, step: float = 15.5, **attributes) -> list[str]:
    return [_text(x, y + i * step, line, size, fill=INK, **attributes) for i, line in enumerate(lines)]


def _gunfight(record: np.void, x: float, y: float, w: float) -> str:
    t = _int(record, "pend_town1")
    a, q = _int(record, "gf_attacker"), _int(record, "pend_defender")
    parts = _panel_title(x, y, w, f"Gunfight in {TOWN_NAMES[t]}", FIGHT_RED)
    attack = f"{_agent(a)} attacks {_target_phrase(record)}" if a >= 0 else "?"
    parts += _lines(x + 10, y + 42, _wrap(attack, 11.5, w - 20)[:2], 11.5, font_weight="bold")
    jail = int(record["bt_owner"][t, JAIL])
    fixed = _sides_fixed(record)
    side = _int(record, "sheriff_side")
    if jail == NOBODY:
        sheriff = "no jail here: no sheriff"
    elif not fixed:
        sheriff = f"the sheriff ({_agent(jail)}'s jail) decides whether to join"
    else:
        sheriff = {SIDE_ATTACKER: "the sheriff rides with the attacker",
                   SIDE_DEFENDER: "the sheriff rides with the defence"}.get(side, "the sheriff stays out")
    parts.append(_text(x + 10, y + 74, _fit(sheriff, 10.5, w - 20), 10.5, fill=INK))
    volley = _int(record, "gf_volley")
    sizes = (-1, -1)
    if fixed:
        n_a, n_d = _side_sizes(record)
        sizes = (n_a, n_d)
        parts.append(_text(x + 10, y + 90, f"volley {volley} (at most {MAX_VOLLEYS}) \u00b7 a {HIT_MIN} or "
                           f"{HIT_MIN + 1} hits", 10.5, fill=INK))
        colour_a = PLAYER_COLOURS[a] if a >= 0 else "#888"
        colour_d = PLAYER_COLOURS[q] if q >= 0 else "#888"
        # the two sides: their combatants, then their dice of the next volley
        for col, (label, colour, members, count, who) in enumerate((
                ("Attacker", colour_a, _attacker_members(record, colour_a), n_a, "attacker"),
                ("Defence", colour_d, _defender_members(record, colour_d, jail), n_d, "defender"))):
            cx = x + 10 + col * (w / 2)
            parts.append(_text(cx, y + 110, f"{label}: {count}", 11, fill=INK, font_weight="bold"))
            figs = []
            for i, (kind, c) in enumerate(members[:12]):
                fx, fy = cx + 8 + (i % 6) * 21, y + 128 + (i // 6) * 24
                figs += _member(kind, fx, fy, c)
            parts.append(_group(figs, class_="side", data_side=who, data_size=count))
            dice = []
            for i in range(count):
                dx, dy = cx + (i % 6) * 22, y + 166 + (i // 6) * 22
                dice.append(_group(_blank_die(dx, dy, colour), class_="die", data_side=who, data_index=i))
            parts.append(_group(dice))
        if n_a < n_d:
            first = "the attackers (fewer) shoot first"
        elif n_d < n_a:
            first = "the defence (fewer) shoots first"
        else:
            first = "equal sides shoot at once"
        if _int(record, "retreat_seat") < 0 and _int(record, "decision") != DEC_WANTED_STEAL:
            parts.append(_text(x + 10, y + 232, _fit(f"next volley: {first}", 10.5, w - 20), 10.5, fill=FIGHT_RED,
                               font_weight="bold"))
    else:
        parts += _lines(x + 10, y + 96, _wrap("the sides are fixed once the sheriff has decided (\u00a79.3): "
                                              "then the attacker's cowboys in town face the defender's, with "
                                              "the sheriff, a guard or the farmer", 10.5, w - 20), 10.5)
    r = _int(record, "retreat_seat")
    if r >= 0:
        used = [TOWN_NAMES[k] for k in range(N_TOWNS) if (_int(record, "retreat_used") >> k) & 1]
        parts.append(_el("rect", x=x + 6, y=y + 210, width=w - 12, height=31, rx=4, fill="#fff3cd",
                         stroke="#b08900"))
        parts.append(_text(x + 12, y + 222, _fit(f"{_agent(r)} retreats: {_int(record, 'retreat_left')} cowboy(s) "
                                                 f"to place", 10.5, w - 24), 10.5, fill=INK, font_weight="bold"))
        parts.append(_text(x + 12, y + 236, _fit(f"towns used: {', '.join(used) or 'none'}", 10.5, w - 24), 10.5,
                           fill=INK))
    winner = _int(record, "gf_winner")
    if winner >= 0 and _int(record, "decision") == DEC_WANTED_STEAL:
        parts.append(_text(x + 10, y + 232, _fit(f"{_agent(winner)} won and takes a Wanted counter", 10.5, w - 20),
                           10.5, fill=INK, font_weight="bold"))
    return _group(parts, class_="gunfight", data_town=t, data_attacker=a, data_defender=q,
                  data_target=_int(record, "pend_target"), data_volley=volley, data_attackers=sizes[0],
                  data_defenders=sizes[1])


def _attacker_members(record: np.void, colour: str) -> list[tuple[str, str]]:
    return [("sheriff", colour)] * _int(record, "a_sher") + [("cowboy", colour)] * _int(record, "a_cow")


def _defender_members(record: np.void, colour: str, jail: int) -> list[tuple[str, str]]:
    """In the casualty order of §9.4: intrinsic or default defender, sheriff, cowboys, farmer."""
    sheriff = PLAYER_COLOURS[jail] if jail >= 0 else colour  # the star is ringed in the jail owner's colour
    return ([("virtual", VIRTUAL_FILL)] * _int(record, "d_virt") + [("sheriff", sheriff)] * _int(record, "d_sher")
            + [("cowboy", colour)] * _int(record, "d_cow") + [("farmer", FARMER_FILL)] * _int(record, "d_farm"))


def _member(kind: str, x: float, y: float, colour: str) -> list[str]:
    if kind == "cowboy":
        return _cowboy(x, y, colour)
    if kind == "virtual":
        return _cowboy(x, y, VIRTUAL_FILL, "#555", "2 1.5")
    if kind == "farmer":
        return _farmer(x, y)
    jail_colour = colour
    return [_el("circle", cx=x, cy=y, r=9, fill=jail_colour, stroke="#000", stroke_width=0.8),
            _star(x, y, 7.5, fill=GOLD, stroke="#6b5200", stroke_width=0.8)]


def _auction(record: np.void, x: float, y: float, w: float) -> str:
    n = _int(record, "num_players")
    parts = _panel_title(x, y, w, f"Turn-order auction, round {_int(record, 'round')}")
    bidder = _int(record, "high_bidder")
    high = _int(record, "high_bid")
    parts.append(_text(x + 10, y + 46, f"high bid ${high}" + (f" by {_agent(bidder)}" if bidder >= 0 else
                                                              " (no raise yet)"), 12.5, fill=INK,
                       font_weight="bold"))
    parts.append(_text(x + 10, y + 64, f"decisions {_int(record, 'auction_decisions')} of {MAX_AUCTION_DECISIONS} "
                       "(then the bids rank)", 10.5, fill=INK))
    parts.append(_text(x + 10, y + 86, "Bidding order", 11, fill=INK, font_weight="bold"))
    to_bid = _int(record, "current")
    for i in range(n):
        seat = int(record["bidding_order"][i])
        ry = y + 104 + i * 24
        bidding = bool(record["bidding"][seat])
        row = [_el("rect", x=x + 10, y=ry - 11, width=w - 20, height=20, rx=4,
                   fill="#fff" if bidding else "#ece3cf", stroke="#000" if seat == to_bid else "#c8b58a",
                   stroke_width=2 if seat == to_bid else 1),
               _el("circle", cx=x + 22, cy=ry - 1, r=6.5, fill=PLAYER_COLOURS[seat], stroke="#000"),
               _text(x + 34, ry + 3, _agent(seat), 11, fill=INK, font_weight="bold"),
               _text(x + 110, ry + 3, f"bid ${int(record['bid'][seat])}", 11, fill=INK)]
        won = [k + 1 for k in range(n) if int(record["new_order"][k]) == seat]
        state = "bidding" if bidding else (f"out: position {won[0]}" if won else "out")
        if seat == to_bid and bidding:
            state = "to bid"
        row.append(_text(x + w - 16, ry + 3, state, 11, text_anchor="end", fill=INK,
                         font_style=None if bidding else "italic"))
        parts.append(_group(row))
    return _group(parts, class_="auction", data_high_bid=high, data_high_bidder=bidder,
                  data_decisions=_int(record, "auction_decisions"))


def _action(record: np.void, x: float, y: float, w: float) -> str:
    phase = _int(record, "phase")
    current = _int(record, "current")
    if phase == PHASE_SETUP:
        parts = _panel_title(x, y, w, "Setup: placing cowboys")
        lines = [f"{_int(record, 'setup_placed')} of {START_COWBOYS * _int(record, 'num_players')} setup cowboys "
                 "placed,", f"{START_COWBOYS} per player, one at a time in", "turn order (any town, no fares)."]
        parts += _lines(x + 10, y + 46, lines, 11)
        return _group(parts, class_="situation")
    box = _int(record, "pend_box")
    parts = _panel_title(x, y, w, f"Action turn of {_agent(current)}" if current >= 0 else "Action phase")
    if 0 <= box < N_BOXES:
        parts.append(_text(x + 10, y + 46, _fit(f"box {box}: {_box_label(box)}", 12.5, w - 20, bold=True), 12.5,
                           fill=INK, font_weight="bold"))
        chosen = [f"{label}: {TOWN_NAMES[_int(record, f)]}" for label, f in
                  (("town", "pend_town1"), ("to", "pend_town2")) if 0 <= _int(record, f) < N_TOWNS]
        if BOX_ACTION[box] == ACT_GUNFIGHT and _int(record, "pend_target") >= 0:
            chosen.append(f"target: {TARGET_NAMES[_int(record, 'pend_target')]}")
        if _int(record, "pend_defender") >= 0:
            chosen.append(f"defender: {_agent(_int(record, 'pend_defender'))}")
        parts += _lines(x + 10, y + 66, chosen or ["nothing chosen yet"], 11)
    else:
        parts.append(_text(x + 10, y + 46, "no action chosen yet", 12, fill=INK, font_style="italic"))
    lap = _int(record, "lap") + 1
    n = _int(record, "num_players")
    left = [p for p in range(n) if int(record["turns_used"][p]) < 2]
    parts += _lines(x + 10, y + 150, [f"lap {lap} of 2: each player takes one action", "turn (a box, or pass) in "
                                      "turn order", f"markers left: {', '.join(_agent(p) for p in left) or 'none'}"],
                    10.5)
    return _group(parts, class_="situation")


def _standings(record: np.void, x: float, y: float, w: float) -> str:
    n = _int(record, "num_players")
    vp = _vp_table(record).sum(axis=1)
    winners = _winners(record)
    parts = _panel_title(x, y, w, "Game over: final scores", "#2d6a4f")
    ranked = sorted(range(n), key=lambda p: (-int(vp[p]), -int(record["cash"][p]), p))
    for i, p in enumerate(ranked):
        ry = y + 52 + i * 30
        parts.append(_el("circle", cx=x + 20, cy=ry - 4, r=8, fill=PLAYER_COLOURS[p], stroke="#000"))
        parts.append(_text(x + 34, ry, f"{_agent(p)}  {int(vp[p])} VP  ${int(record['cash'][p])}", 12.5, fill=INK,
                           font_weight="bold"))
        if p in winners:
            parts.append(_text(x + w - 12, ry, "winner", 12, text_anchor="end", fill="#2d6a4f",
                               font_weight="bold"))
    parts.append(_text(x + 10, y + 236, "ties: most money, then most B&T counters", 10, fill="#7a6a50"))
    return _group(parts, class_="standings", data_winners=",".join(map(str, winners)))


# ---- the seats ----------------------------------------------------------------------------------------------------
def _seats(record: np.void) -> str:
    n = _int(record, "num_players")
    gap = 6.0
    height = min(124.0, (SEATS_BOTTOM - SEATS_TOP - gap * (n - 1)) / n)
    vps = _vp_table(record)
    positions = _turn_positions(record)
    return _group([_seat_box(record, p, SEATS_TOP + p * (height + gap), height, vps[p], positions) for p in range(n)],
                  class_="seats")


def _seat_box(record: np.void, p: int, top: float, height: float, vp: np.ndarray, positions: list[int]) -> str:
    x, w = SEATS_LEFT, SEATS_W
    colour = PLAYER_COLOURS[p]
    current = _int(record, "current") == p and not record["done"]
    total = int(vp.sum())
    parts = [_el("rect", x=x, y=top, width=w, height=height, rx=8, fill=PAPER, stroke=colour,
                 stroke_width=3.5 if current else 1.5),
             _el("rect", x=x, y=top, width=w, height=24, rx=8, fill=colour),
             _el("rect", x=x, y=top + 14, width=w, height=10, fill=colour)]
    title = ("\u25b6 " if current else "") + _agent(p)
    if p == _int(record, "start_player"):
        title += " \u2605 start"
    position = positions.index(p) + 1 if p in positions else 0
    if position:
        title += f" \u00b7 position {position}"
    parts.append(_text(x + 10, top + 17, title, 13, fill="#fff", font_weight="bold"))
    parts.append(_text(x + w - 10, top + 17, f"${int(record['cash'][p])}  \u00b7  {total} VP", 13.5, fill="#fff",
                       font_weight="bold", text_anchor="end"))
    # action markers left this round (two black discs, §7.1)
    used = int(record["turns_used"][p])
    shown = used if _int(record, "phase") == PHASE_ACTIONS else 0  # the markers come back at the end of a round
    mx = x + w - 10 - _text_width(f"${int(record['cash'][p])}  \u00b7  {total} VP", 13.5, bold=True) - 14
    for i in range(2):
        parts.append(_el("circle", cx=mx - i * 13, cy=top + 12, r=5, fill="#111" if i >= shown else "none",
                         stroke="#fff", stroke_width=1.2))
    step = min(16.0, (height - 30) / 4)
    categories = " \u00b7 ".join(f"{VP_CATEGORY_NAMES[c]} {int(vp[c])}" for c in range(N_VP_CATEGORIES))
    lines = [f"VP: {categories}"]
    supply = " ".join(f"{BT_SHORT[k]}{int(record['bt_supply'][p, k])}" for k in range(N_BT))
    lines.append(f"supply: {int(record['cowboy_supply'][p])} cowboys, {int(record['cattle_supply'][p])} cattle, "
                 f"{supply}")
    phase = _int(record, "phase")
    farmer = "farmer used" if record["farmer_used"][p] else "farmer unused"
    turns = f"action turns {used}/2" if phase == PHASE_ACTIONS else ""
    lines.append(" \u00b7 ".join(x for x in (f"income now ${income_of(record, p)}", farmer, turns) if x))
    if phase == PHASE_AUCTION:
        bid = f"bid ${int(record['bid'][p])} ({'bidding' if record['bidding'][p] else 'out'})"
        bidding_pos = [i + 1 for i in range(_int(record, "num_players")) if int(record["bidding_order"][i]) == p]
        if bidding_pos:
            bid += f" \u00b7 bidding order {bidding_pos[0]}"
    else:
        bid = f"paid ${int(record['bid'][p])} for the turn order" if phase == PHASE_ACTIONS else ""
    lines.append(bid)
    for i, line in enumerate(lines):
        if line:
            parts.append(_text(x + 10, top + 24 + step * (i + 1) - 2, _fit(line, 10.5, w - 20 - (86 if i >= 2
                                                                                             else 0)), 10.5,
                               fill=INK))
    # the Wanted counters as posters
    wanted = int(record["wanted"][p])
    wx = x + w - 12
    py = top + 24 + 2 * step + 2
    if wanted:
        parts.append(_text(wx, py + 14, f"\u00d7{wanted}", 11, text_anchor="end", fill=INK, font_weight="bold"))
        parts.append(f'<g transform="translate({_num(wx - 46)},{_num(py)})">{_wanted_poster(0, 0, 20)}</g>')
    else:
        parts.append(_text(wx, py + 14, "no Wanted", 10.5, text_anchor="end", fill="#7a6a50"))
    return _group(parts, class_="seat", data_seat=p, data_cash=int(record["cash"][p]), data_vp=total,
                  data_wanted=wanted, data_bid=int(record["bid"][p]), data_position=position, data_turns=used)


# ---- action boxes and legend -----------------------------------------------------------------------------------------
def _boxes(record: np.void) -> str:
    n = _int(record, "num_players")
    parts = [_text(12, BOXES_TOP - 4, "Action boxes", 12.5, font_weight="bold", fill=INK),
             _text(110, BOXES_TOP - 4, "(a marker blocks its box for the rest of the round; greyed: not used with "
                   f"{n} players)", 10.5, fill="#7a6a50")]
    bw, bh, gap = 133.0, 50.0, 5.0
    for b in range(N_BOXES):
        col, row = b % 10, b // 10
        bx, by = 12 + col * (bw + gap), BOXES_TOP + 4 + row * (bh + gap)
        active = n >= int(BOX_MIN_PLAYERS[b])
        user = int(record["box_user"][b])
        cell = [_el("rect", x=bx, y=by, width=bw, height=bh, rx=5, fill="#fff" if active else "#d9d2c3",
                    stroke="#8a7650", stroke_width=1.2, stroke_dasharray=None if active else "4 3"),
                _text(bx + 6, by + 13, f"box {b}", 9.5, fill="#7a6a50")]
        label = _box_label(b)
        words = label.split(" (")
        cell.append(_text(bx + 6, by + 28, _fit(words[0], 11, bw - 12 - (24 if user >= 0 else 0), bold=True), 11, fill=INK if active else
                          "#8d8577", font_weight="bold"))
        detail = "(" + words[1] if len(words) > 1 else ""
        price = "" if BOX_BT[b] >= 0 else ("$1 each, 1-2" if BOX_ACTION[b] in (ACT_BUY_CATTLE, ACT_HIRE) else "free")
        cell.append(_text(bx + 6, by + 43, " ".join(s for s in (detail, price) if s), 10, fill="#5b4a3a"))
        if user >= 0:
            cell.append(_el("circle", cx=bx + bw - 16, cy=by + 17, r=10, fill="#111", stroke=PLAYER_COLOURS[user],
                            stroke_width=3.5))
            cell.append(_text(bx + bw - 16, by + 21, f"p{user}", 9, text_anchor="middle", fill="#fff",
                              font_weight="bold"))
        elif not active:
            cell.append(_text(bx + bw - 6, by + 13, "inactive", 9, text_anchor="end", fill="#8d8577",
                              font_style="italic"))
        parts.append(_group(cell, class_="box", data_box=b, data_user=user, data_active=int(active)))
    return _group(parts, class_="boxes")


def _legend() -> str:
    """The counters, the figures and the marks (static)."""
    y = LEGEND_TOP
    parts = [_el("rect", x=10, y=y - 8, width=WIDTH - 20, height=HEIGHT - y, rx=8, fill=PAPER, stroke="#c8b58a"),
             _text(22, y + 9, "Legend", 12.5, font_weight="bold", fill=INK)]
    effects = ("fares for others' cowboys", "cattle here x2", "$2 x town size", "others' cattle, farmers",
               "others' cowboys", "its sheriff fights")
    cx = 90.0
    for k in range(N_BT):
        parts.append(_el("rect", x=cx, y=y - 4, width=30, height=26, rx=3, fill="#777", stroke="#000"))
        parts.append(_text(cx + 15, y + 14, BT_SHORT[k], 12, text_anchor="middle", fill="#fff", font_weight="bold"))
        parts.append(_text(cx + 35, y + 6, f"{BT_NAMES[k]} ${int(BT_PRICE[k])}", 10.5, fill=INK, font_weight="bold"))
        parts.append(_text(cx + 35, y + 19, effects[k], 9.5, fill="#5b4a3a"))
        cx += 40 + max(_text_width(f"{BT_NAMES[k]} ${int(BT_PRICE[k])}", 10.5, True), _text_width(effects[k], 9.5))
        cx += 12
    y2 = y + 50
    items = [(_cowboy(0, 0, "#888"), "cowboy (player colour)"),
             (_steer(0, 2, "#888", 20), "cattle counter"),
             (_farmer(0, 0), "farmer (neutral)"),
             (_sheriff(0, 0, "#888"), "sheriff (jail owner's ring)"),
             (_cowboy(0, 0, VIRTUAL_FILL, "#555", "2 1.5"), "bank/train guard or default defender"),
             (_blank_die(-9, -9, "#888"), "die of the next volley"),
             ([_el("circle", cx=0, cy=0, r=5, fill="#111", stroke="#888", stroke_width=1.2),
               _el("circle", cx=13, cy=0, r=5, fill="none", stroke="#888", stroke_width=1.2)],
              "action markers left / used", 26),
             ([_el("rect", x=-10, y=-8, width=20, height=16, rx=3, fill="none", stroke=FIGHT_RED, stroke_width=3)],
              "gunfight town", 20)]
    cx = 30.0
    for shapes, label, *offset in items:
        parts.append(f'<g transform="translate({_num(cx)},{_num(y2)})">{"".join(shapes)}</g>')
        parts.append(_text(cx + (offset[0] if offset else 18), y2 + 4, label, 10.5, fill=INK))
        cx += 36 + (offset[0] - 18 if offset else 0) + _text_width(label, 10.5)
    parts.append(_text(22, y2 + 36, "VP: each B&T counter scores its town's size; a head of cattle 1 (2 with a train, "
                       "1 less with a farmer); control of a town (most B&T + cattle, no tie) scores its size; "
                       "richest 5; most Wanted 5.", 10.5, fill="#5b4a3a"))
    return _group(parts, class_="legend")


_STATIC = _trail() + _legend()


# ---- the document ---------------------------------------------------------------------------------------------------
def draw(state: np.ndarray, seat: int | None = None) -> str:
    """The SVG document of one Way Out West record (or a batch of one; module docstring); ``seat`` is checked,
    and every seat's view is the omniscient one (nothing is hidden, §12). Arguments, result and errors as every
    game's ``draw`` (``core.svg``).
    """
    record, _ = record_and_viewer(GAME_NAME, STATE_DTYPE, state, seat)
    title = (f"Way Out West, {_int(record, 'num_players')} players, round {_int(record, 'round')} of "
             f"{_int(record, 'num_rounds')}")
    return document(WIDTH, HEIGHT, title, BACKGROUND, [
        _header(record), _tracks(record), _STATIC,
        *(_draw_town(record, t) for t in range(N_TOWNS)), _panel(record), _seats(record), _boxes(record)])
