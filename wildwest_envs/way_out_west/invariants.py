"""Consistency checks of Way Out West records (fuzzing, loading saved states), spec §14.

* ``check_invariants(states, out)``: numba batch kernel; ``out[b]`` = 0 when
  record ``b`` is consistent, else the code of the first invariant it breaks,
  explained by ``INVARIANT_MESSAGES[code]``. The checks run in code order and
  each indexes only what the earlier checks proved in range, so a corrupted
  record never makes the kernel read out of bounds.
* ``validate_state(state)``: plain Python on one record (a loaded or handmade
  state): a range check of every field a kernel uses as an index or a loop
  bound (the ranges declared in ``FIELD_RANGES``, checked by ``core.fields``),
  naming the field and the bad value; then, if the ranges hold, the invariants
  above as messages.

Invariants (§14 "useful invariants", plus the bookkeeping of the flow): pieces
conserved per player (cowboys and cattle on board + supply = 9; B&T on board +
supply + removed = 3 per type, only banks and jails removed); corrals and
building spaces never over-full, one counter per type per town; no cattle above
the frontier and the frontier up to date (§8.1); farmers on the board + removed
= farmers used; Wanted supply + holdings = 13; cash never negative; money
conserved between the players and the bank (``sum(cash) + bank_in - bank_out``
= the starting money; robbery moves money between players); the auction state
(bids within cash, the high bid the largest bid, fewer than 60 decisions, the
bidder still bidding, positions filled by exactly the players who left it); the
action phase (the actor on his turn, markers on active boxes, at most two
turns); the gunfight (sides match the board, volley within 1..50); the die
queue; the decision counter within the cap.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.chance import SCRIPT_END
from ..core.fields import INT32_MAX, range_errors
from .data import (ALLOWED_ROUNDS, BANK, BOX_MIN_PLAYERS, BUILDING_SPACES, CORRALS, DEC_AUCTION_BID,
                   DEC_CHOOSE_ACTION, DEC_NONE, DEC_RETREAT_DESTINATION, DEC_SETUP_PLACE_COWBOY,
                   DEC_WANTED_STEAL, DIE_SIDES, JAIL, LAST_TOWN, MAX_AUCTION_DECISIONS, MAX_PLAYERS, MAX_VOLLEYS,
                   MIN_PLAYERS, N_ACTION_MARKERS, N_BOXES, N_BT, N_CATTLE, N_COWBOYS, N_DECISION_TYPES,
                   N_DIE_QUEUE, N_PER_BT_TYPE, N_TARGETS, N_TOWNS, N_WANTED, PHASE_ACTIONS, PHASE_AUCTION,
                   PHASE_OVER, PHASE_SETUP, START_COWBOYS, START_MONEY)
from .state import NO_BOX, NO_TOWN, NOBODY, STATE_DTYPE

OK = 0
INVARIANT_MESSAGES: tuple[str, ...] = (
    "ok",
    "num_players is outside 3..5 or num_rounds is not 3, 6, 9 or 12 (§4)",
    "done / phase / decision / current disagree (finished: PHASE_OVER, DEC_NONE, NOBODY; else a seat to decide)",
    "round is outside 1..num_rounds (§5)",
    "turn_order is not a permutation of the seats (NOBODY beyond N) (§4, §6)",
    "cowboys: negative count, on board + supply != 9, or cowboys of an absent seat (§2, §14)",
    "cattle: negative count, on board + supply != 9, or cattle of an absent seat (§2, §14)",
    "B&T counters: owner not a seat, or on board + supply + removed != 3 per type, or a removed type "
    "other than bank / jail (§2, §14)",
    "a town has more cattle than corrals or more B&T counters than building spaces (§3)",
    "frontier outside 0..4, cattle above the frontier, or the frontier town full while frontier < 4 (§8.1)",
    "farmers: negative count, or farmers on board + removed != farmers used (§8.6, §9.3)",
    "Wanted counters: negative, or supply + holdings != 13 (§9.7)",
    "a player's cash is negative (§0.2)",
    "money is not conserved: sum(cash) + bank_in - bank_out != starting money (§14)",
    "auction state inconsistent: bid above cash, high bid not the largest bid, 60 decisions reached, fewer "
    "than two bidders, the bidder not bidding, or positions not held by exactly the dropped players (§6)",
    "action phase inconsistent: actor not on his turn, a marker on an inactive box or of an absent seat, "
    "more markers than turns, or more than two turns (§7)",
    "setup inconsistent: placements outside 0..3N-1 or not the placing seat's turn (§4 step 4)",
    "gunfight inconsistent: sides do not match the board, a bad volley number, or a bad retreat (§9)",
    "pending action inconsistent: box, towns, target or defender out of range (§13.2)",
    "die queue inconsistent: 0 <= forced_pos <= n_forced <= 64 and values 0..5, or -1 closing a script "
    "(§13.3, core.chance)",
    "n_decisions is negative or beyond max_decisions",
)
(_E_OPTIONS, _E_FLOW, _E_ROUND, _E_ORDER, _E_COWBOYS, _E_CATTLE, _E_BT, _E_CAPACITY, _E_FRONTIER, _E_FARMERS,
 _E_WANTED, _E_CASH, _E_MONEY, _E_AUCTION, _E_ACTIONS, _E_SETUP, _E_GUNFIGHT, _E_PENDING, _E_DICE,
 _E_DECISIONS) = range(1, len(INVARIANT_MESSAGES))


@njit(cache=True, parallel=True)
def check_invariants(states: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = 0 if record b is consistent, else the code of its first broken invariant."""
    for b in prange(states.shape[0]):
        out[b] = first_violation(states[b])


@njit(cache=True)
def first_violation(s: np.void) -> int:
    """The code of the first invariant record ``s`` breaks, OK if none (module docstring)."""
    n = np.int64(s["num_players"])
    if n < MIN_PLAYERS or n > MAX_PLAYERS or not _rounds_allowed(np.int64(s["num_rounds"])):
        return _E_OPTIONS
    if not _flow_ok(s, n):
        return _E_FLOW
    if s["round"] < 1 or s["round"] > s["num_rounds"]:
        return _E_ROUND
    if not _order_ok(s["turn_order"], n):
        return _E_ORDER
    if not _counts_ok(s["cowboys"], s["cowboy_supply"], n, np.int64(N_COWBOYS)):
        return _E_COWBOYS
    if not _counts_ok(s["cattle"], s["cattle_supply"], n, np.int64(N_CATTLE)):
        return _E_CATTLE
    if not _bt_ok(s, n):
        return _E_BT
    if not _capacity_ok(s):
        return _E_CAPACITY
    if not _frontier_ok(s):
        return _E_FRONTIER
    if not _farmers_ok(s, n):
        return _E_FARMERS
    if not _wanted_ok(s, n):
        return _E_WANTED
    for p in range(MAX_PLAYERS):
        if s["cash"][p] < 0 or (p >= n and s["cash"][p] != 0):
            return _E_CASH
    if np.int64(s["cash"].sum()) + np.int64(s["bank_in"]) - np.int64(s["bank_out"]) != n * np.int64(START_MONEY[n]):
        return _E_MONEY
    if s["phase"] == PHASE_AUCTION and not _auction_ok(s, n):
        return _E_AUCTION
    if not _action_phase_ok(s, n):
        return _E_ACTIONS
    if s["phase"] == PHASE_SETUP and not _setup_ok(s, n):
        return _E_SETUP
    if not _pending_ok(s, n):
        return _E_PENDING
    if s["gf_active"] and not _gunfight_ok(s, n):
        return _E_GUNFIGHT
    if not _dice_ok(s):
        return _E_DICE
    if s["n_decisions"] < 0 or s["n_decisions"] > s["max_decisions"]:
        return _E_DECISIONS
    return OK


@njit(cache=True, inline="always")
def _rounds_allowed(r: int) -> bool:
    for allowed in ALLOWED_ROUNDS:
        if r == allowed:
            return True
    return False


@njit(cache=True, inline="always")
def _flow_ok(s: np.void, n: int) -> bool:
    if s["done"]:
        return s["phase"] == PHASE_OVER and s["decision"] == DEC_NONE and s["current"] == NOBODY
    return (PHASE_SETUP <= s["phase"] < PHASE_OVER and 0 <= s["decision"] < N_DECISION_TYPES
            and 0 <= s["current"] < n)


@njit(cache=True)
def _order_ok(order: np.ndarray, n: int) -> bool:
    seen = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(MAX_PLAYERS):
        p = np.int64(order[i])
        if i >= n:
            if p != NOBODY:
                return False
        elif p < 0 or p >= n or seen[p]:
            return False
        else:
            seen[p] = 1
    return True


@njit(cache=True)
def _counts_ok(board: np.ndarray, supply: np.ndarray, n: int, total: int) -> bool:
    for p in range(MAX_PLAYERS):
        on_board = 0
        for t in range(N_TOWNS):
            if board[t, p] < 0:
                return False
            on_board += board[t, p]
        if supply[p] < 0:
            return False
        expected = total if p < n else 0
        if on_board + supply[p] != expected:
            return False
    return True


@njit(cache=True, inline="always")
def _bt_ok(s: np.void, n: int) -> bool:
    on_board = np.zeros((MAX_PLAYERS, N_BT), dtype=np.int64)
    for t in range(N_TOWNS):
        for k in range(N_BT):
            owner = np.int64(s["bt_owner"][t, k])
            if owner == NOBODY:
                continue
            if owner < 0 or owner >= n:
                return False
            on_board[owner, k] += 1
    for p in range(MAX_PLAYERS):
        for k in range(N_BT):
            supply, removed = np.int64(s["bt_supply"][p, k]), np.int64(s["bt_removed"][p, k])
            if supply < 0 or removed < 0 or (removed > 0 and k != BANK and k != JAIL):
                return False
            if on_board[p, k] + supply + removed != (N_PER_BT_TYPE if p < n else 0):
                return False
    return True


@njit(cache=True, inline="always")
def _capacity_ok(s: np.void) -> bool:
    for t in range(N_TOWNS):
        cattle, size = 0, 0
        for p in range(MAX_PLAYERS):
            cattle += s["cattle"][t, p]
        for k in range(N_BT):
            if s["bt_owner"][t, k] != NOBODY:
                size += 1
        if cattle > CORRALS[t] or size > BUILDING_SPACES[t]:
            return False
    return True


@njit(cache=True, inline="always")
def _frontier_ok(s: np.void) -> bool:
    f = np.int64(s["frontier"])
    if f < 0 or f > LAST_TOWN:
        return False
    for t in range(f + 1, N_TOWNS):
        for p in range(MAX_PLAYERS):
            if s["cattle"][t, p] != 0:
                return False
    if f < LAST_TOWN:
        full = 0
        for p in range(MAX_PLAYERS):
            full += s["cattle"][f, p]
        if full >= CORRALS[f]:
            return False
    return True


@njit(cache=True, inline="always")
def _farmers_ok(s: np.void, n: int) -> bool:
    on_board = 0
    for t in range(N_TOWNS):
        if s["farmers"][t] < 0:
            return False
        on_board += s["farmers"][t]
    used = 0
    for p in range(MAX_PLAYERS):
        if s["farmer_used"][p] < 0 or s["farmer_used"][p] > 1 or (p >= n and s["farmer_used"][p] != 0):
            return False
        used += s["farmer_used"][p]
    return s["farmers_removed"] >= 0 and on_board + s["farmers_removed"] == used


@njit(cache=True, inline="always")
def _wanted_ok(s: np.void, n: int) -> bool:
    total = np.int64(s["wanted_supply"])
    if total < 0:
        return False
    for p in range(MAX_PLAYERS):
        if s["wanted"][p] < 0 or (p >= n and s["wanted"][p] != 0):
            return False
        total += s["wanted"][p]
    return total == N_WANTED


@njit(cache=True, inline="always")
def _auction_ok(s: np.void, n: int) -> bool:
    if not _order_ok(s["bidding_order"], n) or s["decision"] != DEC_AUCTION_BID:
        return False
    if s["auction_decisions"] < 0 or s["auction_decisions"] >= MAX_AUCTION_DECISIONS:
        return False
    if s["bidder_index"] < 0 or s["bidder_index"] >= n or s["current"] != s["bidding_order"][s["bidder_index"]]:
        return False
    high, n_bidding, placed = 0, 0, 0
    for p in range(n):
        if s["bid"][p] < 0 or s["bid"][p] > s["cash"][p] or s["bidding"][p] < 0 or s["bidding"][p] > 1:
            return False
        high = max(high, np.int64(s["bid"][p]))
        n_bidding += s["bidding"][p]
    for pos in range(MAX_PLAYERS):
        q = np.int64(s["new_order"][pos])
        if q == NOBODY:
            continue
        if pos >= n or q < 0 or q >= n or s["bidding"][q]:
            return False
        placed += 1
    return (high == s["high_bid"] and n_bidding >= 2 and placed == n - n_bidding
            and s["bidding"][s["current"]] == 1)


@njit(cache=True, inline="always")
def _action_phase_ok(s: np.void, n: int) -> bool:
    if s["phase"] == PHASE_ACTIONS and (s["lap"] < 0 or s["lap"] > 1 or s["turn_index"] < 0
                                        or s["turn_index"] >= n):
        return False
    markers = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for b in range(N_BOXES):
        u = np.int64(s["box_user"][b])
        if u == NOBODY:
            continue
        if u < 0 or u >= n or n < BOX_MIN_PLAYERS[b] or s["phase"] != PHASE_ACTIONS:
            return False
        markers[u] += 1
    for p in range(MAX_PLAYERS):
        used = np.int64(s["turns_used"][p])
        in_progress = 1 if (s["phase"] == PHASE_ACTIONS and s["pend_box"] != NO_BOX
                            and p == s["turn_order"][s["turn_index"]]) else 0
        if used < 0 or used > N_ACTION_MARKERS or markers[p] > used + in_progress:
            return False
    if s["phase"] != PHASE_ACTIONS:
        return True
    actor = s["turn_order"][s["turn_index"]]
    if s["decision"] == DEC_CHOOSE_ACTION and (s["current"] != actor or s["pend_box"] != NO_BOX):
        return False
    return s["turns_used"][actor] == s["lap"]


@njit(cache=True, inline="always")
def _setup_ok(s: np.void, n: int) -> bool:
    k = np.int64(s["setup_placed"])
    if k < 0 or k >= START_COWBOYS * n or s["decision"] != DEC_SETUP_PLACE_COWBOY:
        return False
    return s["current"] == s["turn_order"][k % n]


@njit(cache=True, inline="always")
def _pending_ok(s: np.void, n: int) -> bool:
    if s["pend_box"] < NO_BOX or s["pend_box"] >= N_BOXES:
        return False
    for f in (s["pend_town1"], s["pend_town2"]):
        if f < NO_TOWN or f >= N_TOWNS:
            return False
    if s["pend_target"] < -1 or s["pend_target"] >= N_TARGETS:
        return False
    for q in (s["pend_defender"], s["gf_attacker"], s["gf_winner"], s["retreat_seat"]):
        if q < NOBODY or q >= n:
            return False
    if s["pend_box"] == NO_BOX and s["phase"] == PHASE_ACTIONS and s["decision"] != DEC_CHOOSE_ACTION:
        return False
    if s["decision"] == DEC_WANTED_STEAL and s["gf_winner"] != s["current"]:
        return False
    return True


@njit(cache=True, inline="always")
def _gunfight_ok(s: np.void, n: int) -> bool:
    t = np.int64(s["pend_town1"])
    a = np.int64(s["gf_attacker"])
    q = np.int64(s["pend_defender"])
    if t == NO_TOWN or a == NOBODY or s["pend_target"] < 0:
        return False
    if s["gf_volley"] < 0 or s["gf_volley"] > MAX_VOLLEYS or s["retreat_left"] < 0 or s["retreat_left"] > 3:
        return False
    if s["retreat_used"] < 0 or s["retreat_used"] >= (1 << N_TOWNS) or (np.int64(s["retreat_used"]) >> t) & 1:
        return False
    if s["decision"] == DEC_RETREAT_DESTINATION:
        return s["retreat_seat"] == s["current"] and s["retreat_left"] >= 1
    if s["gf_volley"] == 0:  # SHERIFF_JOIN: sides not fixed yet
        return True
    for x in (s["a_sher"], s["d_virt"], s["d_sher"], s["d_farm"]):
        if x < 0 or x > 1:
            return False
    return s["a_cow"] == s["cowboys"][t, a] and s["d_cow"] == (s["cowboys"][t, q] if q != NOBODY else 0)


@njit(cache=True, inline="always")
def _dice_ok(s: np.void) -> bool:
    n_forced, pos = np.int64(s["n_forced"]), np.int64(s["forced_pos"])
    if pos < 0 or pos > n_forced or n_forced > N_DIE_QUEUE:
        return False
    for i in range(N_DIE_QUEUE):
        if s["forced"][i] < SCRIPT_END or s["forced"][i] >= DIE_SIDES:
            return False
    return True


# ---- validation of one loaded record (plain Python) -----------------------------------------------------------------
FIELD_RANGES = {  # field: (low, high) of every entry, checked before any kernel sees the record (core.fields)
    "num_players": (MIN_PLAYERS, MAX_PLAYERS), "num_rounds": (1, 12), "phase": (PHASE_SETUP, PHASE_OVER),
    "decision": (DEC_NONE, N_DECISION_TYPES - 1), "round": (1, 12), "setup_placed": (0, 3 * MAX_PLAYERS),
    "turn_order": (NOBODY, MAX_PLAYERS - 1), "bidding_order": (NOBODY, MAX_PLAYERS - 1),
    "bidder_index": (0, MAX_PLAYERS - 1), "new_order": (NOBODY, MAX_PLAYERS - 1), "bidding": (0, 1),
    "auction_decisions": (0, MAX_AUCTION_DECISIONS), "lap": (0, 1), "turn_index": (0, MAX_PLAYERS),
    "turns_used": (0, N_ACTION_MARKERS), "box_user": (NOBODY, MAX_PLAYERS - 1),
    "cowboys": (0, N_COWBOYS), "cattle": (0, N_CATTLE), "bt_owner": (NOBODY, MAX_PLAYERS - 1),
    "farmers": (0, MAX_PLAYERS), "frontier": (0, LAST_TOWN), "cowboy_supply": (0, N_COWBOYS),
    "cattle_supply": (0, N_CATTLE), "bt_supply": (0, N_PER_BT_TYPE), "bt_removed": (0, N_PER_BT_TYPE),
    "farmer_used": (0, 1), "farmers_removed": (0, MAX_PLAYERS), "wanted": (0, N_WANTED),
    "wanted_supply": (0, N_WANTED), "pend_box": (NO_BOX, N_BOXES - 1), "pend_town1": (NO_TOWN, N_TOWNS - 1),
    "pend_town2": (NO_TOWN, N_TOWNS - 1), "pend_target": (-1, N_TARGETS - 1), "gf_step": (0, 2),
    "gf_volley": (0, MAX_VOLLEYS), "sheriff_side": (0, 2), "a_cow": (0, N_COWBOYS), "a_sher": (0, 1),
    "d_cow": (0, N_COWBOYS), "d_virt": (0, 1), "d_sher": (0, 1), "d_farm": (0, 1), "retreat_left": (0, 3),
    "retreat_used": (0, (1 << N_TOWNS) - 1), "n_forced": (0, N_DIE_QUEUE), "forced_pos": (0, N_DIE_QUEUE),
    "forced": (SCRIPT_END, DIE_SIDES - 1), "cash": (0, INT32_MAX), "bid": (0, INT32_MAX), "high_bid": (0, INT32_MAX),
    "max_decisions": (1, INT32_MAX), "n_decisions": (0, INT32_MAX),
    **{seat: (NOBODY, MAX_PLAYERS - 1) for seat in ("current", "start_player", "high_bidder", "pend_defender",
                                                   "gf_attacker", "gf_winner", "retreat_seat")},
}


def validate_state(state) -> list[str]:
    """Range and consistency errors of one record (empty when it is a valid game state)."""
    record = np.asarray(state, dtype=STATE_DTYPE).reshape(()) if not isinstance(state, np.void) else state
    errors = range_errors(record, FIELD_RANGES)
    if errors:
        return errors
    code = first_violation(np.array([record], dtype=STATE_DTYPE)[0])
    return [] if code == OK else [INVARIANT_MESSAGES[code]]
