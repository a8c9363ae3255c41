"""Building lines: legal steps (§6.5), their effects (§6.7), the bonus (§6.9), ferries (§9.5), co-building (§9.1)
and account funding (§7.10). Numba helpers of one record.

The turn being built is described by the record: ``builder`` (the proposer in a
co-build), ``partner`` (the co-build partner in ``CTX_COOP_BUILD``),
``funding`` (``FUND_BP``: dice BP in ``bp_left``; ``FUND_ACCOUNT``: money,
within ``extension_cap`` and the 10 % budget) and ``bp_left``.

Legality is decided here and nowhere else. ``step_legal_from`` states §6.5
literally for one source hex and direction; ``mark_steps`` marks the mask (and
counts for the forced-action check). Its fast path reads the per-seat
``frontier`` bit set (steps with an end in the seat's home network that the
seat does not own, kept up to date by ``add_to_network`` and
``_take_ownership``): the legal steps are ``frontier & allowed & cost <= BP``
word by word. An account-funded turn pays fees from the same balance: there
the cost rows of balance bounds settle most candidates as whole words, and
only the rest get ``fee_bound`` and then the exact preview
(``_mark_account_steps``). Co-builds and
a first step under ``distinct_directions`` take the literal path (a scan of
the network with ``step_legal_from``); a test checks that both paths agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.borrowed import UNCOUNTED
from ..core.eventlog import EVERYONE, emit
from ..core.kernels import lowest_bit
from .data import CTX_COOP_BUILD, FUND_ACCOUNT
from .eventlog import (EV_ACCOUNT_PAID, EV_BUILD_FEE, EV_CONNECTION_BONUS, EV_FERRY_BUILT, EV_START_CHOSEN,
                       EV_STEP_BUILT)
from .fees import (UNKNOWN, build_fees, fee_bound, fee_preview, fee_preview_fast, pay,
                   pay_single_builder_fees)
from .maps import (FE_A, FE_B, FE_BUILD, HOME, HOME_STEPS, HX_CITY, HX_COUNTRY, HX_NBR, HX_STEP, MAX_STEP_COST, ST_A,
                   ST_B, ST_COST, ST_FOREIGN)
from .routes import ferry_landing, push_unseen

ONE = np.uint64(1)


# ---- legality (§6.5, §7.10, §9.1, §9.5) ------------------------------------------------------------------------
@njit(cache=True)
def in_net(state, s: int, h: int) -> bool:
    """Hex h is in Net(s) (§0.3)."""
    return (state["net"][h] >> s) & 1 == 1


@njit(cache=True)
def _source_ok(state, mp, h: int, co_build: bool) -> bool:
    """h may be the source of a step: a home hex of the builder's network (of both partners' in a co-build)."""
    if mp.hexes[h, HX_COUNTRY] != HOME:
        return False  # a line ends in the first foreign hex (§9.2)
    if not in_net(state, np.int64(state["builder"]), h):
        return False
    return not co_build or in_net(state, np.int64(state["partner"]), h)


@njit(cache=True)
def _direction_free(state, mp, p: int, h: int, d: int) -> bool:
    """distinct_directions: p's first step out of its start city uses a side no other first step used (§3.5)."""
    if not state["distinct_dirs"] or state["n_owned"][p] > 0:
        return True
    sc = state["start_city"][p]
    if sc < 0 or mp.city_hex[mp.start_cities[sc]] != h:
        return True
    for q in range(np.int64(state["num_players"])):
        if q != p and state["start_city"][q] == sc and state["first_dir"][q] == d:
            return False
    return True


@njit(cache=True)
def account_affordable(state, p: int, cost: int, fees: int) -> bool:
    """An account-funded build: within the window cap and the 10 % budget, and paid without debt (§7.10, §9.6)."""
    if state["window_bp"][p] + cost > state["ext_cap"]:
        return False
    if state["ext_10pct"] and state["bp_bought"][p] + cost > state["race_income"][p] // 10:
        return False
    return state["balance"][p] >= cost + fees


@njit(cache=True)
def _affordable(state, mp, e: int) -> bool:
    """The step's cost fits the turn's funding (§6.5 item 6, §7.10)."""
    p = np.int64(state["builder"])
    cost = np.int64(mp.steps[e, ST_COST])
    if state["funding"] != FUND_ACCOUNT:
        return cost <= state["bp_left"]
    if not account_affordable(state, p, cost, np.int64(0)):
        return False
    if state["balance"][p] >= cost + fee_bound(state, mp, p, e):
        return True  # enough money whatever the fees: skip the exact preview
    return account_affordable(state, p, cost, fee_preview(state, mp, p, e, np.zeros((3, 6), dtype=np.int64)))


@njit(cache=True)
def step_legal_from(state, mp, h: int, d: int) -> bool:
    """BUILD(h, d) is legal in the pending BUILD / COOP_BUILD / EXT_BUILD decision (§6.5, §9.1)."""
    e = mp.hexes[h, HX_STEP + d]
    if e < 0:
        return False  # off the grid, into water, or between two foreign hexes
    co_build = state["context"] == CTX_COOP_BUILD
    if not _source_ok(state, mp, h, co_build):
        return False
    if mp.steps[e, ST_FOREIGN] and not state["international"]:
        return False
    owners = np.int64(state["owners"][e])
    if (owners >> state["builder"]) & 1 or (co_build and (owners >> state["partner"]) & 1):
        return False
    if not _direction_free(state, mp, np.int64(state["builder"]), h, d):
        return False
    return _affordable(state, mp, e)


@njit(cache=True)
def step_legal(state, mp, e: int) -> bool:
    """Building step e is legal from at least one of its ends (§6.5, G42)."""
    for end in range(2):
        h = mp.steps[e, ST_A] if end == 0 else mp.steps[e, ST_B]
        for d in range(6):
            if mp.hexes[h, HX_STEP + d] == e:
                if step_legal_from(state, mp, h, d):
                    return True
    return False


@njit(cache=True)
def mark_steps(state, mp, out: np.ndarray, stop_at_first: bool) -> int:
    """Set out[e] = 1 for every legal step (out may be empty when only counting); the number marked
    (at most 1 with ``stop_at_first``)."""
    p = np.int64(state["builder"])
    if state["context"] == CTX_COOP_BUILD or (state["distinct_dirs"] and state["n_owned"][p] == 0):
        return mark_steps_literal(state, mp, out, stop_at_first)
    if state["funding"] == FUND_ACCOUNT:
        return _mark_account_steps(state, mp, out, stop_at_first)
    budget = np.int64(state["bp_left"])
    if budget <= 0:
        return 0
    cost_row = min(budget, np.int64(MAX_STEP_COST))
    count = 0
    for w in range(state["frontier"].shape[1]):
        bits = _frontier_candidates(state, mp, p, w, cost_row)
        while bits != 0:
            j = lowest_bit(bits)
            bits &= bits - ONE
            count += _mark_step(out, np.int64(w) * 64 + j)
            if stop_at_first:
                return count
    return count


@njit(cache=True)
def _mark_account_steps(state, mp, out: np.ndarray, stop_at_first: bool) -> int:
    """``mark_steps`` of an account-funded turn: the frontier steps within the budget (window cap, 10 % budget,
    balance) whose cost and fees the balance pays (§7.10, §9.6).

    The fees of a step are at most 2 per rival owning it, or the touch fee 1, at each of its two ends (§6.8):
    with a balance of at least cost + 4 (n - 1), or cost + 2 for a step no rival owns, the step is affordable
    whatever its fees; else ``fee_bound`` may settle it. Only the rest get the exact fees (``_mark_by_preview``)."""
    p = np.int64(state["builder"])
    budget = np.int64(state["ext_cap"]) - np.int64(state["window_bp"][p])
    if state["ext_10pct"]:
        budget = min(budget, np.int64(state["race_income"][p]) // 10 - np.int64(state["bp_bought"][p]))
    balance = np.int64(state["balance"][p])
    budget = min(budget, balance)
    if budget <= 0:
        return 0
    cost_row = min(budget, np.int64(MAX_STEP_COST))
    any_fees_row = max(min(cost_row, balance - 4 * (np.int64(state["num_players"]) - 1)), 0)
    touch_fees_row = max(min(cost_row, balance - 2), 0)
    pbit = np.int64(1) << p
    count = 0
    unsettled = False
    for w in range(state["frontier"].shape[1]):
        bits = _frontier_candidates(state, mp, p, w, cost_row)
        safe = bits & mp.step_bits[any_fees_row, w]
        touch_safe = bits & mp.step_bits[touch_fees_row, w]
        while bits != 0:
            j = lowest_bit(bits)
            bit = ONE << np.uint64(j)
            bits &= bits - ONE
            e = np.int64(w) * 64 + j
            settled = (safe & bit != 0 or (touch_safe & bit != 0 and not np.int64(state["owners"][e]) & ~pbit)
                       or balance >= np.int64(mp.steps[e, ST_COST]) + fee_bound(state, mp, p, e))
            if not settled:
                unsettled = True
                continue
            count += _mark_step(out, e)
            if stop_at_first:
                return count
    if unsettled:
        count += _mark_by_preview(state, mp, out, stop_at_first, p, balance, cost_row)
    return count


@njit(cache=True, inline="always")
def _mark_step(out: np.ndarray, e: int) -> int:
    """Mark step e legal (unless ``out`` is empty: only counting); 1, the count of steps marked."""
    if out.shape[0] > 0:
        out[e] = 1
    return 1


@njit(cache=True, inline="always")
def _frontier_candidates(state, mp, p: int, w: int, cost_row: int) -> np.uint64:
    """Word w of the frontier steps of p that cost at most ``cost_row`` (home steps only without §9.2)."""
    bits = state["frontier"][p, w] & mp.step_bits[cost_row, w]
    if not state["international"]:
        bits &= mp.step_bits[HOME_STEPS, w]
    return bits


@njit(cache=True)
def _mark_by_preview(state, mp, out: np.ndarray, stop_at_first: bool, p: int, balance: int, cost_row: int) -> int:
    """The candidates that ``_mark_account_steps`` left unmarked (when only counting: all of them, as it stops
    at the first mark): legal if the balance pays cost + the exact fees (``fee_preview_fast``, §7.10)."""
    cache = np.full((3, mp.hexes.shape[0]), UNKNOWN, dtype=np.int8)  # fee_preview_fast
    return _mark_previewed(state, mp, out, stop_at_first, p, balance, cost_row, cache)


@njit(cache=True, **UNCOUNTED)
def _mark_previewed(state, mp, out: np.ndarray, stop_at_first: bool, p: int, balance: int, cost_row: int,
                    cache: np.ndarray) -> int:
    """The pass of ``_mark_by_preview`` with its fee cache; no reference counting (``core.borrowed.UNCOUNTED``)."""
    count = 0
    for w in range(state["frontier"].shape[1]):
        bits = _frontier_candidates(state, mp, p, w, cost_row)
        while bits != 0:
            j = lowest_bit(bits)
            bits &= bits - ONE
            e = np.int64(w) * 64 + j
            if out.shape[0] > 0 and out[e]:
                continue
            if balance < np.int64(mp.steps[e, ST_COST]) + fee_preview_fast(state, mp, p, e, cache):
                continue
            count += _mark_step(out, e)
            if stop_at_first:
                return count
    return count


@njit(cache=True)
def mark_steps_literal(state, mp, out: np.ndarray, stop_at_first: bool) -> int:
    """``mark_steps`` by scanning the builder's network hex by hex with ``step_legal_from`` (§6.5 literally)."""
    seat = np.int64(state["builder"])
    count = 0
    for h in range(mp.hexes.shape[0]):
        if not (state["net"][h] >> seat) & 1:
            continue
        for d in range(6):
            e = mp.hexes[h, HX_STEP + d]
            if e < 0:
                continue
            if out.shape[0] > 0 and out[e]:
                continue  # already legal from its other end
            if step_legal_from(state, mp, h, np.int64(d)):
                count += 1
                if out.shape[0] > 0:
                    out[e] = 1
                if stop_at_first:
                    return count
    return count


@njit(cache=True)
def ferry_legal(state, mp, f: int) -> bool:
    """BUILD_FERRY(f): unbuilt, one end a home hex of the builder's network, cost payable (§9.5)."""
    if not state["ferries_on"] or f >= mp.ferries.shape[0] or state["ferry_owner"][f] >= 0:
        return False
    if state["context"] == CTX_COOP_BUILD:
        return False  # no ferries in a co-build (§9.1)
    p = np.int64(state["builder"])
    ok = False
    for end in range(2):
        h = mp.ferries[f, FE_A] if end == 0 else mp.ferries[f, FE_B]
        if mp.hexes[h, HX_COUNTRY] == HOME and in_net(state, p, h):
            ok = True
    if not ok:
        return False
    cost = np.int64(mp.ferries[f, FE_BUILD])
    if state["funding"] == FUND_ACCOUNT:
        return account_affordable(state, p, cost, np.int64(0))  # building a ferry triggers no fees (§9.5)
    return cost <= state["bp_left"]


@njit(cache=True)
def proposal_legal(state, mp, j: int) -> bool:
    """COOP_PROPOSE(j) (§9.1 item 2): partner (p + j) mod n still to build this round, started, sharing a home hex."""
    n = np.int64(state["num_players"])
    if not state["coop"] or j < 1 or j >= n or state["turn_builds"] > 0 or state["coop_declined"]:
        return False
    p = np.int64(state["builder"])
    q = (p + j) % n
    if state["turn_used"][q] or state["start_city"][q] < 0:
        return False
    first = (np.int64(state["start_player"]) + np.int64(state["round"])) % n
    if (q - first) % n <= state["turn_pos"]:
        return False  # q's turn in this round has already come
    if state["distinct_dirs"] and (state["n_owned"][p] == 0 or state["n_owned"][q] == 0):
        return False  # G50
    for h in range(mp.hexes.shape[0]):
        if mp.hexes[h, HX_COUNTRY] == HOME and in_net(state, p, h) and in_net(state, q, h):
            return True
    return False


# ---- effects (§6.7, §6.9, §9.1, §9.5) ---------------------------------------------------------------------------
@njit(cache=True)
def _connect(state, mp, h: int, p: int, partner: int) -> None:
    """The first line into an unconnected city earns the bonus; a joint step splits it, proposer first (§6.9, §9.1)."""
    c = mp.hexes[h, HX_CITY]
    if c < 0 or state["connected"][c]:
        return
    state["connected"][c] = 1
    bonus = np.int64(state["bonus"])
    if partner < 0:
        state["balance"][p] += bonus
        emit(state, EV_CONNECTION_BONUS, EVERYONE, p, c, bonus, 0)
    else:
        state["balance"][p] += bonus - bonus // 2
        state["balance"][partner] += bonus // 2
        emit(state, EV_CONNECTION_BONUS, EVERYONE, p, c, bonus - bonus // 2, 0)
        emit(state, EV_CONNECTION_BONUS, EVERYONE, partner, c, bonus // 2, 0)
    state["total_bonus"] += bonus


@njit(cache=True)
def _take_ownership(state, mp, s: int, e: int, t: int) -> None:
    """Seat s owns step e from timestamp t; both ends join Net(s); a first step out of the start city is noted."""
    if state["n_owned"][s] == 0:
        sc = state["start_city"][s]
        if sc >= 0:
            city = mp.city_hex[mp.start_cities[sc]]
            for end in range(2):
                h = mp.steps[e, ST_A] if end == 0 else mp.steps[e, ST_B]
                if h == city:
                    for d in range(6):
                        if mp.hexes[h, HX_STEP + d] == e:
                            state["first_dir"][s] = d
    state["own_t"][e, s] = t
    state["owners"][e] |= np.uint8(1 << s)
    state["n_owned"][s] += 1
    add_to_network(state, mp, s, mp.steps[e, ST_A])
    add_to_network(state, mp, s, mp.steps[e, ST_B])
    state["frontier"][s, e >> 6] &= ~(ONE << np.uint64(e & 63))


@njit(cache=True)
def add_to_network(state, mp, s: int, h: int) -> None:
    """Hex h joins Net(s); the steps from it that s does not own join s's frontier (a home hex only, §9.2)."""
    state["net"][h] |= np.uint8(1 << s)
    if mp.hexes[h, HX_COUNTRY] != HOME:
        return
    for d in range(6):
        e = mp.hexes[h, HX_STEP + d]
        if e >= 0 and not (state["owners"][e] >> s) & 1:
            state["frontier"][s, e >> 6] |= ONE << np.uint64(e & 63)


@njit(cache=True)
def build_step(state, mp, e: int) -> None:
    """The builder (with the partner in a co-build) builds step e: timestamp, ownership, fees, bonus, cost (§6.7)."""
    p = np.int64(state["builder"])
    partner = np.int64(state["partner"]) if state["context"] == CTX_COOP_BUILD else np.int64(-1)
    t_new = np.int64(state["t"]) + 1
    emit(state, EV_STEP_BUILT, EVERYONE, p, e, mp.steps[e, ST_COST], partner)
    if partner < 0:
        pay_single_builder_fees(state, mp, p, e)  # before the record changes (fees module docstring)
        state["t"] = t_new
        _take_ownership(state, mp, p, e, t_new)
    else:
        _build_joint_step(state, mp, p, partner, e, t_new)
    _connect(state, mp, mp.steps[e, ST_A], p, partner)
    _connect(state, mp, mp.steps[e, ST_B], p, partner)
    _spend(state, p, np.int64(mp.steps[e, ST_COST]))


@njit(cache=True)
def _build_joint_step(state, mp, p: int, partner: int, e: int, t_new: int) -> None:
    """A co-build step: the general fee computation on the virtual joint build (§9.1 item 7), then ownership;
    partners record what they owe each other as paid, and no money moves between them."""
    builders = (np.int64(1) << p) | (np.int64(1) << partner)
    due_p = np.zeros(6, dtype=np.int64)
    due_j = np.zeros(6, dtype=np.int64)
    touch_p = np.zeros(2, dtype=np.int64)
    touch_j = np.zeros(2, dtype=np.int64)
    par = np.zeros(6, dtype=np.int64)
    build_fees(state, mp, p, e, builders, t_new, due_p, touch_p, par)
    build_fees(state, mp, partner, e, builders, t_new, due_j, touch_j, par)
    state["t"] = t_new
    _take_ownership(state, mp, p, e, t_new)
    _take_ownership(state, mp, partner, e, t_new)
    for q in range(6):
        if not (builders >> q) & 1:
            pay(state, p, q, due_p[q])
            pay(state, partner, q, due_j[q])
            if due_p[q] > 0:
                emit(state, EV_BUILD_FEE, EVERYONE, p, q, due_p[q], -1)
            if due_j[q] > 0:
                emit(state, EV_BUILD_FEE, EVERYONE, partner, q, due_j[q], -1)
    for end in range(2):
        if touch_p[end] >= 0:
            state["touched"][touch_p[end]] |= np.uint8(1 << p)
        if touch_j[end] >= 0:
            state["touched"][touch_j[end]] |= np.uint8(1 << partner)


@njit(cache=True)
def _spend(state, p: int, cost: int) -> None:
    """Pay a build from the turn's BP, or from the account to the bank (§6.7 item 5, §7.10)."""
    state["bp_spent"] += cost
    state["turn_builds"] += 1
    if state["funding"] == FUND_ACCOUNT:
        emit(state, EV_ACCOUNT_PAID, EVERYONE, p, cost, 0, 0)
        state["balance"][p] -= cost
        state["total_bank"] += cost
        state["window_bp"][p] += cost
        state["bp_bought"][p] += cost
    else:
        state["bp_left"] -= cost


@njit(cache=True)
def build_ferry(state, mp, f: int) -> None:
    """The builder acquires ferry f: timestamp, both ends in his network, bonus, cost; no fees (§9.5)."""
    p = np.int64(state["builder"])
    emit(state, EV_FERRY_BUILT, EVERYONE, p, f, mp.ferries[f, FE_BUILD], 0)
    t_new = np.int64(state["t"]) + 1
    state["t"] = t_new
    state["ferry_owner"][f] = p
    state["ferry_t"][f] = t_new
    for end in range(2):
        h = mp.ferries[f, FE_A] if end == 0 else mp.ferries[f, FE_B]
        add_to_network(state, mp, p, h)
        _connect(state, mp, h, p, np.int64(-1))
    _spend(state, p, np.int64(mp.ferries[f, FE_BUILD]))


@njit(cache=True)
def choose_start(state, mp, p: int, i: int) -> None:
    """Start city i joins Net(p) and counts as connected from now on, without a bonus (§6.4, G10)."""
    state["start_city"][p] = i
    c = mp.start_cities[i]
    emit(state, EV_START_CHOSEN, EVERYONE, p, i, c, 0)
    add_to_network(state, mp, p, mp.city_hex[c])
    state["connected"][c] = 1


@njit(cache=True)
def all_cities_joined(state, mp) -> bool:
    """The union of all steps and ferries joins every city through home-country hexes (§6.10, §12.4, G45)."""
    n = mp.hexes.shape[0]
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    first = mp.city_hex[0]
    top = push_unseen(seen, stack, 0, first)
    while top > 0:
        top -= 1
        h = stack[top]
        for d in range(6):
            e = mp.hexes[h, HX_STEP + d]
            if e < 0 or state["owners"][e] == 0:
                continue
            v = mp.hexes[h, HX_NBR + d]
            if mp.hexes[v, HX_COUNTRY] == HOME:
                top = push_unseen(seen, stack, top, v)
        for f in range(mp.ferries.shape[0]):
            v = ferry_landing(state, mp, f, h)
            if v >= 0 and mp.hexes[v, HX_COUNTRY] == HOME:
                top = push_unseen(seen, stack, top, v)
    for c in range(mp.city_hex.shape[0]):
        if not seen[mp.city_hex[c]]:
            return False
    return True
