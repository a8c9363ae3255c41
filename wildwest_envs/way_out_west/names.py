"""Names of Way Out West actions: ``action_to_string(state, action)`` (spec §13.1), read-only.

A short name of any action id in the context of the pending decision ("raise
by 3 to $4", "box 11: build Bank ($10)", "gunfight in Abilene", "take a Wanted
counter from player_2"). PLAYER ids name the absolute seat (§13.1). The names
of the legal actions of a state are distinct, so ``Game.string_to_action``
inverts them. The text board (``render``) names seats and action boxes with the
helpers here. Nothing here changes the record.
"""

from __future__ import annotations

from ..core.checks import one_record
from .data import (A_BOX, A_COUNT, A_NO, A_PASS, A_PLAYER, A_RAISE, A_RETREAT, A_SHOOT, A_TARGET, A_TOWN, A_YES,
                   ACT_BUILD, ACTION_NAMES, BOX_ACTION, BOX_BT, BOX_KEYS, BT_NAMES, BT_PRICE, DEC_AUCTION_BID,
                   DEC_BUILD_TOWN, DEC_BUY_CATTLE_COUNT, DEC_BUY_CATTLE_TOWN, DEC_CHOOSE_ACTION, DEC_FARMER_TOWN,
                   DEC_GUNFIGHT_DEFENDER, DEC_GUNFIGHT_TARGET, DEC_GUNFIGHT_TOWN, DEC_HIRE_TOWN_1, DEC_HIRE_TOWN_2,
                   DEC_MOVE_CATTLE_COUNT, DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO, DEC_MOVE_COWBOYS_COUNT,
                   DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO, DEC_RETREAT_DESTINATION, DEC_SETUP_PLACE_COWBOY,
                   DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER, DEC_WANTED_STEAL, MAX_COUNT, RAISE_STEPS,
                   TARGET_NAMES, TOWN_NAMES)


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
