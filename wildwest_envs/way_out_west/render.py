"""The text board of a Way Out West record (read-only, spec §14).

* ``render_ansi(state)``: the round track, the players (money, supplies,
  farmer, Wanted, bids, VP now), the five towns with every counter, cowboy,
  cattle counter and farmer, the action boxes, the auction and gunfight in
  progress and the decision to take.
* the picture (``render_mode="rgb_array"``, the viewer, the README) is the SVG
  drawing of ``svg.draw``, rasterized by ``core.raster``; it reads the colours below.

Action names (``action_to_string``, §13.1) are in ``names``. Nothing here changes
the record.
"""

from __future__ import annotations

import numpy as np

from ..core.checks import one_record
from .data import (BOX_MIN_PLAYERS, BT_NAMES, BUILDING_SPACES, CORRALS, DECISION_NAMES, INCOME_EVERY, JAIL, MAX_PLAYERS,
                   N_BOXES, N_BT, N_TOWNS, PHASE_ACTIONS, PHASE_AUCTION, PHASE_NAMES, SIDE_ATTACKER, SIDE_DEFENDER,
                   TARGET_NAMES, TOWN_NAMES)
from .names import _agent, _box_label
from .scoring import N_VP_CATEGORIES, VP_CATEGORY_NAMES, income_of, vp_by_category
from .state import NOBODY

BT_SHORT = ("Sc", "Tr", "Ba", "St", "Ho", "Ja")  # two-letter counter names on the board


# ---- the text board ----------------------------------------------------------------------------------
def _round_track(s) -> str:
    """``[1][2][3]$ [4*][5]...``: the round marker at * and the income steps as $ (§5)."""
    r, total = int(s["round"]), int(s["num_rounds"])
    cells = []
    for k in range(1, total + 1):
        cells.append(f"[{k}{'*' if k == r else ''}]" + ("$ " if k % INCOME_EVERY == 0 else ""))
    return "".join(cells).rstrip()


def _counter_owner(seat: int) -> str:
    return "-" if seat == NOBODY else f"p{seat}"


def _player_lines(s) -> list[str]:
    n = int(s["num_players"])
    vps = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), dtype=np.int64)
    vp_by_category(s, vps)
    order = s["new_order"] if int(s["phase"]) == PHASE_AUCTION else s["turn_order"]
    lines = []
    for p in range(n):
        supply = " ".join(f"{BT_SHORT[k]}{int(s['bt_supply'][p, k])}" for k in range(N_BT))
        position = [i + 1 for i in range(n) if int(order[i]) == p]
        marks = "*" if int(s["current"]) == p else " "
        start = " (start player)" if int(s["start_player"]) == p else ""
        bid = ""
        if int(s["phase"]) == PHASE_AUCTION:
            bid = f"  bid ${int(s['bid'][p])}{' bidding' if s['bidding'][p] else ' out'}"
        categories = ", ".join(f"{VP_CATEGORY_NAMES[c]} {int(vps[p, c])}" for c in range(N_VP_CATEGORIES))
        lines.append(f" {marks} {_agent(p)}{start}  ${int(s['cash'][p])}  position {position[0] if position else '-'}"
                     f"  cowboys {int(s['cowboy_supply'][p])} in supply, cattle {int(s['cattle_supply'][p])}"
                     f"  counters {supply}  farmer {'used' if s['farmer_used'][p] else 'unused'}"
                     f"  Wanted {int(s['wanted'][p])}  turns {int(s['turns_used'][p])}/2{bid}")
        lines.append(f"      VP now {int(vps[p].sum())} ({categories}); income now ${income_of(s, p)}")
    return lines


def _town_lines(s, t: int) -> list[str]:
    n = int(s["num_players"])
    size = sum(int(s["bt_owner"][t, k]) != NOBODY for k in range(N_BT))
    cattle_total = sum(int(s["cattle"][t, p]) for p in range(n))
    flags = []
    if t <= int(s["frontier"]):
        flags.append("open for cattle")
    if int(s["bt_owner"][t, JAIL]) != NOBODY:
        flags.append(f"sheriff of p{int(s['bt_owner'][t, JAIL])}")
    head = (f" {t + 1} {TOWN_NAMES[t]:<12} size {size}/{int(BUILDING_SPACES[t])}  corrals "
            f"{cattle_total}/{int(CORRALS[t])}  farmers {int(s['farmers'][t])}"
            + (f"  [{', '.join(flags)}]" if flags else ""))
    counters = " ".join(f"{BT_NAMES[k]}({_counter_owner(int(s['bt_owner'][t, k]))})"
                        for k in range(N_BT) if int(s["bt_owner"][t, k]) != NOBODY) or "none"
    cowboys = " ".join(f"p{p}:{int(s['cowboys'][t, p])}" for p in range(n) if s["cowboys"][t, p]) or "none"
    cattle = " ".join(f"p{p}:{int(s['cattle'][t, p])}" for p in range(n) if s["cattle"][t, p]) or "none"
    return [head, f"     counters: {counters}", f"     cowboys:  {cowboys}", f"     cattle:   {cattle}"]


def _box_lines(s) -> list[str]:
    n = int(s["num_players"])
    cells = []
    for b in range(N_BOXES):
        user = int(s["box_user"][b])
        state = "inactive" if n < int(BOX_MIN_PLAYERS[b]) else ("free" if user == NOBODY else f"p{user}")
        cells.append(f"{b}:{_box_label(b)} [{state}]")
    return [" " + "  ".join(cells[i:i + 4]) for i in range(0, N_BOXES, 4)]


def _context_lines(s) -> list[str]:
    lines = []
    if int(s["phase"]) == PHASE_AUCTION:
        bidder = int(s["high_bidder"])
        order = " ".join(f"p{int(q)}" for q in s["bidding_order"][:int(s["num_players"])])
        lines.append(f"Auction: high bid ${int(s['high_bid'])} by {_agent(bidder) if bidder >= 0 else 'nobody'}; "
                     f"bidding order {order}; decisions {int(s['auction_decisions'])}/60")
    if int(s["pend_box"]) >= 0:
        lines.append(f"Action in progress: box {int(s['pend_box'])} {_box_label(int(s['pend_box']))}"
                     + "".join(f", {label} {TOWN_NAMES[int(s[f])]}" for label, f in
                               (("town", "pend_town1"), ("to", "pend_town2")) if int(s[f]) >= 0))
    if s["gf_active"]:
        q = int(s["pend_defender"])
        side = {SIDE_ATTACKER: "with the attacker", SIDE_DEFENDER: "with the defence"}.get(int(s["sheriff_side"]),
                                                                                          "out")
        lines.append(f"Gunfight in {TOWN_NAMES[int(s['pend_town1'])]}: {_agent(int(s['gf_attacker']))} attacks "
                     f"{TARGET_NAMES[int(s['pend_target'])]}"
                     + (f" of {_agent(q)}" if q >= 0 else "")
                     + f"; volley {int(s['gf_volley'])}; attacker cowboys {int(s['a_cow'])} sheriff "
                     f"{int(s['a_sher'])}; defender cowboys {int(s['d_cow'])} virtual {int(s['d_virt'])} "
                     f"sheriff {int(s['d_sher'])} farmer {int(s['d_farm'])}; sheriff {side}")
        if int(s["retreat_seat"]) >= 0:
            used = [TOWN_NAMES[t] for t in range(N_TOWNS) if (int(s["retreat_used"]) >> t) & 1]
            lines.append(f"Retreat of {_agent(int(s['retreat_seat']))}: {int(s['retreat_left'])} cowboys to place; "
                         f"used {', '.join(used) or 'none'}")
    return lines


def render_ansi(state) -> str:
    """The text board of one record (module docstring)."""
    s = one_record(state)
    n = int(s["num_players"])
    phase = PHASE_NAMES[int(s["phase"])]
    if int(s["phase"]) == PHASE_ACTIONS:
        phase += f", lap {int(s['lap']) + 1}"
    order = " ".join(f"p{int(q)}" for q in s["turn_order"][:n])
    lines = [f"Way Out West, {n} players: round {int(s['round'])} of {int(s['num_rounds'])} ({phase})",
             f"Round track: {_round_track(s)}   ($ = income)",
             f"Turn order: {order}   Frontier: {TOWN_NAMES[int(s['frontier'])]}   "
             f"Wanted supply: {int(s['wanted_supply'])}   Farmers removed: {int(s['farmers_removed'])}",
             "Players:"]
    lines += _player_lines(s)
    lines.append("Towns:")
    for t in range(N_TOWNS):
        lines += _town_lines(s, t)
    lines.append("Action boxes:")
    lines += _box_lines(s)
    lines += _context_lines(s)
    if s["done"]:
        lines.append("Game over.")
    else:
        lines.append(f"To decide: {_agent(int(s['current']))}, {DECISION_NAMES[int(s['decision'])]}")
    return "\n".join(lines)


# ---- colours the drawing (svg.draw) reads ------------------------------------------------------------
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
BACKGROUND = "#f3e7c9"
TOWN_FILL = "#e2c48f"
