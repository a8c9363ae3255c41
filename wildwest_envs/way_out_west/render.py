"""Read-only views of a Way Out West record: action names, the ansi board and an rgb picture (spec §13, §14).

* ``action_to_string(state, action)``: a short name of any action id in the
  context of the pending decision ("raise by 3 to $4", "box 11: build Bank
  ($10)", "gunfight in Abilene", "take a Wanted counter from player_2"). PLAYER
  ids name the absolute seat (§13.1). The names of the legal actions of a
  state are distinct, so ``Game.string_to_action`` inverts them.
* ``render_ansi(state)``: the round track, the players (money, supplies,
  farmer, Wanted, bids, VP now), the five towns with every counter, cowboy,
  cattle counter and farmer, the action boxes, the auction and gunfight in
  progress and the decision to take.
* ``render_rgb(state)``: the same as a picture (matplotlib, the ``render``
  extra).

Nothing here changes the record.
"""

from __future__ import annotations

import numpy as np

from ..core.game import one_record
from .data import (A_BOX, A_COUNT, A_NO, A_PASS, A_PLAYER, A_RAISE, A_RETREAT, A_SHOOT, A_TARGET, A_TOWN, A_YES,
                   ACT_BUILD, ACTION_NAMES, BOX_ACTION, BOX_BT, BOX_KEYS, BOX_MIN_PLAYERS, BT_NAMES, BT_PRICE,
                   BUILDING_SPACES, CORRALS, DEC_AUCTION_BID, DEC_BUILD_TOWN, DEC_BUY_CATTLE_COUNT,
                   DEC_BUY_CATTLE_TOWN, DEC_CHOOSE_ACTION, DEC_FARMER_TOWN, DEC_GUNFIGHT_DEFENDER,
                   DEC_GUNFIGHT_TARGET, DEC_GUNFIGHT_TOWN, DEC_HIRE_TOWN_1, DEC_HIRE_TOWN_2,
                   DEC_MOVE_CATTLE_COUNT, DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO, DEC_MOVE_COWBOYS_COUNT,
                   DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO, DEC_RETREAT_DESTINATION,
                   DEC_SETUP_PLACE_COWBOY, DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER,
                   DEC_WANTED_STEAL, DECISION_NAMES, INCOME_EVERY, JAIL, MAX_COUNT, MAX_PLAYERS, N_BOXES, N_BT,
                   N_TOWNS, PHASE_ACTIONS, PHASE_AUCTION, PHASE_NAMES, RAISE_STEPS, SIDE_ATTACKER, SIDE_DEFENDER,
                   TARGET_NAMES, TOWN_NAMES)
from .scoring import N_VP_CATEGORIES, VP_CATEGORY_NAMES, income_of, vp_by_category
from .state import NOBODY

BT_SHORT = ("Sc", "Tr", "Ba", "St", "Ho", "Ja")  # two-letter counter names on the board


def _agent(seat: int) -> str:
    return f"player_{seat}"


def _box_label(b: int) -> str:
    """``build Bank ($10)``, ``buy cattle (A)``: what box b does and costs (§7.2)."""
    act = int(BOX_ACTION[b])
    if act == ACT_BUILD:
        k = int(BOX_BT[b])
        return f"build {BT_NAMES[k]} (${int(BT_PRICE[k])})"
    letter = BOX_KEYS[b].rsplit("_", 1)[-1].upper()
    suffix = f" ({letter})" if len(letter) == 1 else ""
    return f"{ACTION_NAMES[act]}{suffix}"


# ---- action names (§13.1) ---------------------------------------------------------------------------
def action_to_string(state, action: int) -> str:
    """The name of ``action`` at the pending decision of one record."""
    s = one_record(state)
    a = int(action)
    dec = int(s["decision"])
    p = int(s["current"])
    n = int(s["num_players"])
    named = _decision_name(s, dec, p, n, a)
    return named if named is not None else _generic_name(s, p, n, a)


def _generic_name(s, p: int, n: int, a: int) -> str:
    """The name of an id outside the context of the pending decision."""
    if a == A_PASS:
        return "pass"
    if a in (A_YES, A_NO, A_SHOOT, A_RETREAT):
        return ("yes", "no", "shoot", "retreat")[a - A_YES]
    if A_TOWN <= a < A_PLAYER:
        return f"town {a - A_TOWN} {TOWN_NAMES[a - A_TOWN]}"
    if A_PLAYER <= a < A_BOX:
        r = a - A_PLAYER
        seat = (p + r) % n if p >= 0 and r < n else None
        return f"relative seat {r}" + (f" ({_agent(seat)})" if seat is not None else "")
    if A_BOX <= a < A_RAISE:
        return f"box {a - A_BOX}: {_box_label(a - A_BOX)}"
    if A_RAISE <= a < A_COUNT:
        return f"raise by {int(RAISE_STEPS[a - A_RAISE])}"
    if A_COUNT <= a < A_TARGET:
        return f"count {a - A_COUNT + 1}"
    return f"target {TARGET_NAMES[a - A_TARGET]}"


def _decision_name(s, dec: int, p: int, n: int, a: int) -> str | None:
    """The name of a in the context of decision dec, or None if a means nothing there."""
    town = TOWN_NAMES[a - A_TOWN] if A_TOWN <= a < A_PLAYER else None
    count = a - A_COUNT + 1 if A_COUNT <= a < A_COUNT + MAX_COUNT else None
    seat = (p + a - A_PLAYER) % n if A_PLAYER <= a < A_PLAYER + n and p >= 0 else None
    if dec == DEC_AUCTION_BID:
        if a == A_PASS:
            return "drop out"
        if A_RAISE <= a < A_COUNT:
            k = int(RAISE_STEPS[a - A_RAISE])
            return f"raise by {k} to ${int(s['high_bid']) + k}"
    elif dec == DEC_CHOOSE_ACTION:
        if a == A_PASS:
            return "pass (keep the marker)"
    elif dec == DEC_HIRE_TOWN_2 and a == A_PASS:
        return "stop (hire one cowboy)"
    elif dec == DEC_SHERIFF_JOIN and a in (A_YES, A_NO):
        return "sheriff joins" if a == A_YES else "sheriff stays out"
    elif dec in (DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER) and a in (A_SHOOT, A_RETREAT):
        return "shoot" if a == A_SHOOT else "retreat"
    elif dec == DEC_GUNFIGHT_TARGET and a >= A_TARGET:
        return f"target {TARGET_NAMES[a - A_TARGET]}"
    if town is not None:
        return _town_action_name(s, dec, town)
    if count is not None:
        return _count_action_name(dec, count)
    if seat is not None and dec == DEC_GUNFIGHT_DEFENDER:
        return f"defender {_agent(seat)}"
    if seat is not None and dec == DEC_WANTED_STEAL:
        return f"take a Wanted counter from {_agent(seat)}"
    return None


_TOWN_VERBS = {
    DEC_SETUP_PLACE_COWBOY: "place a cowboy in {}", DEC_BUY_CATTLE_TOWN: "buy cattle in {}",
    DEC_HIRE_TOWN_1: "hire a cowboy in {}", DEC_HIRE_TOWN_2: "hire a second cowboy in {}",
    DEC_MOVE_COWBOYS_FROM: "move cowboys from {}", DEC_MOVE_COWBOYS_TO: "move cowboys to {}",
    DEC_MOVE_CATTLE_FROM: "move cattle from {}", DEC_MOVE_CATTLE_TO: "move cattle to {}",
    DEC_FARMER_TOWN: "place the farmer in {}", DEC_GUNFIGHT_TOWN: "gunfight in {}",
    DEC_RETREAT_DESTINATION: "retreat a cowboy to {}",
}


def _town_action_name(s, dec: int, town: str) -> str | None:
    if dec == DEC_BUILD_TOWN and int(s["pend_box"]) >= 0:
        return f"build {BT_NAMES[int(BOX_BT[int(s['pend_box'])])]} in {town}"
    verb = _TOWN_VERBS.get(dec)
    return verb.format(town) if verb else None


def _count_action_name(dec: int, count: int) -> str | None:
    plural = "" if count == 1 else "s"
    if dec == DEC_BUY_CATTLE_COUNT:
        return f"buy {count} cattle (${count})"
    if dec == DEC_MOVE_COWBOYS_COUNT:
        return f"move {count} cowboy{plural}"
    if dec == DEC_MOVE_CATTLE_COUNT:
        return f"move {count} cattle"
    return None


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


# ---- the picture ------------------------------------------------------------------------------------------
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
RGB_SIZE_INCHES = (12.0, 7.0)
RGB_DPI = 100
BACKGROUND = "#f3e7c9"
TOWN_FILL = "#e2c48f"


def _new_figure():
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError("rgb_array rendering needs matplotlib: pip install 'wildwest_envs[render]'") from error
    fig = Figure(figsize=RGB_SIZE_INCHES, dpi=RGB_DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, 12)
    ax.set_ylim(0, 7)
    ax.set_axis_off()
    return fig, ax


def _text(ax, x: float, y: float, text: str, **style) -> None:
    """Plain text (never mathtext: dollar amounts)."""
    ax.text(x, y, text, parse_math=False, **style)


def _draw_town(ax, s, t: int) -> None:
    """Town t as a panel: its counters as coloured squares, cowboys and cattle per player, farmers."""
    from matplotlib.patches import Rectangle

    n = int(s["num_players"])
    x0, y0, w, h = 0.15 + t * 2.37, 2.55, 2.25, 3.6
    ax.add_patch(Rectangle((x0, y0), w, h, facecolor=TOWN_FILL, edgecolor="#6b4f2a", lw=1.5))
    open_mark = " (open)" if t <= int(s["frontier"]) else ""
    _text(ax, x0 + 0.08, y0 + h - 0.28, f"{t + 1} {TOWN_NAMES[t]}{open_mark}", fontsize=9, weight="bold")
    for slot, k in enumerate([k for k in range(N_BT) if int(s["bt_owner"][t, k]) != NOBODY]):
        owner = int(s["bt_owner"][t, k])
        bx, by = x0 + 0.1 + (slot % 3) * 0.72, y0 + h - 0.95 - (slot // 3) * 0.55
        ax.add_patch(Rectangle((bx, by), 0.64, 0.45, facecolor=PLAYER_COLOURS[owner], edgecolor="black"))
        _text(ax, bx + 0.32, by + 0.22, BT_SHORT[k], ha="center", va="center", fontsize=8, color="white",
              weight="bold")
    size = sum(int(s["bt_owner"][t, k]) != NOBODY for k in range(N_BT))
    cattle_total = sum(int(s["cattle"][t, p]) for p in range(n))
    _text(ax, x0 + 0.08, y0 + 1.45, f"size {size}/{int(BUILDING_SPACES[t])}  corrals {cattle_total}/"
          f"{int(CORRALS[t])}  farmers {int(s['farmers'][t])}", fontsize=7)
    for p in range(n):
        y = y0 + 1.15 - p * 0.22
        _text(ax, x0 + 0.08, y, f"p{p} cowboys {int(s['cowboys'][t, p])}  cattle {int(s['cattle'][t, p])}",
              fontsize=7, color=PLAYER_COLOURS[p], weight="bold")


def render_rgb(state) -> np.ndarray:
    """A ``(700, 1200, 3)`` uint8 picture: the round track, the five towns, the players and the decision.

    Raises:
        ImportError: if matplotlib is not installed.
    """
    s = one_record(state)
    fig, ax = _new_figure()
    try:
        n = int(s["num_players"])
        _text(ax, 0.15, 6.65, f"Way Out West  round {int(s['round'])}/{int(s['num_rounds'])}  "
              f"{PHASE_NAMES[int(s['phase'])]}   track {_round_track(s)}", fontsize=11, weight="bold")
        for t in range(N_TOWNS):
            _draw_town(ax, s, t)
        vps = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), dtype=np.int64)
        vp_by_category(s, vps)
        for p in range(n):
            _text(ax, 0.15, 2.2 - p * 0.3,
                  f"{'>' if int(s['current']) == p else ' '} {_agent(p)}  ${int(s['cash'][p])}  "
                  f"VP {int(vps[p].sum())}  Wanted {int(s['wanted'][p])}  bid ${int(s['bid'][p])}  "
                  f"farmer {'used' if s['farmer_used'][p] else 'unused'}",
                  fontsize=9, color=PLAYER_COLOURS[p], weight="bold", family="monospace")
        footer = "Game over" if s["done"] else (f"To decide: {_agent(int(s['current']))}, "
                                                f"{DECISION_NAMES[int(s['decision'])]}")
        for i, line in enumerate([footer] + _context_lines(s)[:2]):
            _text(ax, 6.2, 2.2 - i * 0.3, line[:95], fontsize=8, family="monospace")
        fig.canvas.draw()
        image = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    finally:
        fig.clear()
    return image

