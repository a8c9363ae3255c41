"""Races of the operation phase: generation (§7.2, §9.3), candidates (§7.5), travel fees (§7.7, §9.4), the dice
race (§7.8) and prizes (§7.9). Numba helpers of one record.

Chance uses the two primitives of §11.3 only, in the order fixed there:
``die()`` (``draw_below(6) + 1``) and ``uniform_int(m)`` (``draw_below(m)``);
"both dice" is red then white. Re-rolls are literal (G43).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below
from .data import (ENTRY_ENTERED, MAX_KEPT_STEPS, MAX_PLAYERS, MAX_RACE_ROUNDS, N_ROUTE_OBJECTIVES, N_SLOTS,
                   RESOLUTION_ROUTE_LENGTH)
from .eventlog import (EV_CANDIDATE, EV_GENERATION_ROLL, EV_RACE_ENDS, EV_RACE_GENERATED, EV_RACE_PLACED,
                       EV_RACE_ROUND, EV_TIE_DRAW, EV_TRAIN_ARRIVED, EV_TRAIN_MOVED, EV_TRAVEL_FEE, ROLL_COUNTRY,
                       ROLL_GOAL, ROLL_START, ROLL_TERMINAL, entrant_seat)
from .maps import M_RACE_TABLE
from .routes import build_graph, edge_pips, find_route, new_work, owns_edge, route_seats

FLAT_FEE = 5  # flat usage fee per rival per trip (§9.4)
UNFINISHED = np.int64(1) << 40  # placing keys of trains still running at the guard come after every arrival


# ---- chance (§11.3) ---------------------------------------------------------------------------------------------
@njit(cache=True)
def die(state) -> int:
    """die(): uniform on 1..6."""
    return draw_below(state, np.int64(6)) + 1


@njit(cache=True)
def roll_both(state) -> int:
    """Red then white; remembered in the record; returns the sum."""
    red = die(state)
    white = die(state)
    state["red"] = red
    state["white"] = white
    return red + white


@njit(cache=True)
def roll_build(state) -> int:
    """Build points of one roll: both dice, or the white die alone with build_dice = 1 (§6.3)."""
    if state["build_dice"] == 1:
        state["red"] = 0
        state["white"] = die(state)
        return np.int64(state["white"])
    return roll_both(state)


# ---- generation (§7.2, §9.3, §12.5) ------------------------------------------------------------------------------
@njit(cache=True)
def _allowed(state, c: int, use_rule: bool) -> bool:
    """The repeat rule: a city may end at most repeat_limit races (§7.2)."""
    return not use_rule or state["city_uses"][c] < state["repeat_limit"]


@njit(cache=True)
def _valid_goal(state, mp, s: int, g: int, use_rule: bool) -> bool:
    return g != s and _allowed(state, g, use_rule) and mp.city_dist[s, g] >= state["d_min"]


@njit(cache=True)
def _has_goal(state, mp, s: int, use_rule: bool) -> bool:
    for g in range(mp.city_hex.shape[0]):
        if _valid_goal(state, mp, s, g, use_rule):
            return True
    return False


@njit(cache=True)
def _roll_start(state, mp, use_rule: bool) -> int:
    """Roll red (tens) and white (units) until an allowed city with a valid goal comes up."""
    while True:
        red = die(state)
        white = die(state)
        state["red"], state["white"] = red, white
        number = 10 * red + white
        c = mp.city_by_number[number]
        emit(state, EV_GENERATION_ROLL, EVERYONE, ROLL_START, red, white, c)
        if c >= 0 and _allowed(state, c, use_rule) and _has_goal(state, mp, c, use_rule):
            return c


@njit(cache=True)
def _roll_goal(state, mp, s: int, use_rule: bool) -> int:
    """Roll until a valid goal for start s: another allowed city at least d_min hexes away; the start is kept."""
    while True:
        red = die(state)
        white = die(state)
        state["red"], state["white"] = red, white
        c = mp.city_by_number[10 * red + white]
        emit(state, EV_GENERATION_ROLL, EVERYONE, ROLL_GOAL, red, white, c)
        if c >= 0 and _valid_goal(state, mp, s, c, use_rule):
            return c


@njit(cache=True)
def is_international(state, mp) -> bool:
    """Race k is international iff (k + 1) mod international_every == 0 and the map has a race table (§9.3)."""
    return (state["international"] and mp.meta[M_RACE_TABLE] == 1
            and (np.int64(state["race_k"]) + 1) % state["intl_every"] == 0)


@njit(cache=True)
def generate_race(state, mp) -> None:
    """Roll the start and goal of race race_k (§7.2, §9.3, §12.5)."""
    if is_international(state, mp):
        while True:
            red = die(state)
            emit(state, EV_GENERATION_ROLL, EVERYONE, ROLL_COUNTRY, red, 0, mp.intl[0, red])
            if mp.intl[0, red] >= 0:
                break
        while True:
            white = die(state)
            emit(state, EV_GENERATION_ROLL, EVERYONE, ROLL_TERMINAL, 0, white, mp.intl[1, white])
            if mp.intl[1, white] >= 0:
                break
        state["red"], state["white"] = red, white
        state["race_start"] = mp.city_hex[mp.intl[1, white]]
        state["race_goal"] = -1
        state["race_country"] = mp.intl[0, red]
        emit(state, EV_RACE_GENERATED, EVERYONE, state["race_k"], mp.intl[1, white], -1, mp.intl[0, red])
        return
    use_rule = np.bool_(state["avoid_repeat"])
    if use_rule:
        any_pair = False
        for s in range(mp.city_hex.shape[0]):
            if _allowed(state, s, np.bool_(True)) and _has_goal(state, mp, s, np.bool_(True)):
                any_pair = True
                break
        use_rule = any_pair  # no valid pair left: ignore the rule for this race
    s = _roll_start(state, mp, use_rule)
    g = _roll_goal(state, mp, s, use_rule)
    state["city_uses"][s] += 1
    state["city_uses"][g] += 1
    state["race_start"] = mp.city_hex[s]
    state["race_goal"] = mp.city_hex[g]
    state["race_country"] = -1
    emit(state, EV_RACE_GENERATED, EVERYONE, state["race_k"], s, g, -1)


# ---- candidates (§7.5) -------------------------------------------------------------------------------------------
@njit(cache=True)
def raw_fees(state, mp, p: int, edges, n_edges: int, out) -> None:
    """out[q] = f(p -> q): each rival step charged to one owner (most steps on the route, then earliest, then
    lowest seat), 1 each or the flat fee (§7.7 items 1-2, §9.4, G21)."""
    n = np.int64(state["num_players"])
    counts = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for q in range(out.shape[0]):
        out[q] = 0
    for i in range(n_edges):
        edge = edges[i]
        if owns_edge(state, p, edge):
            continue
        for q in range(n):
            if q != p and owns_edge(state, q, edge):
                counts[q] += 1
    for i in range(n_edges):
        edge = edges[i]
        if owns_edge(state, p, edge):
            continue
        best = -1
        for q in range(n):
            if q == p or not owns_edge(state, q, edge):
                continue
            if best < 0 or counts[q] > counts[best]:
                best = q
            elif counts[q] == counts[best] and edge >= 0 and state["own_t"][edge, q] < state["own_t"][edge, best]:
                best = q
        out[best] += 1
    for q in range(n):
        if state["flat_fee"]:
            out[q] = FLAT_FEE if out[q] > 0 else 0
        else:
            out[q] *= state["fee_per_step"]


@njit(cache=True)
def _same_path(paths, lengths, k: int, hexes, length: int) -> bool:
    if lengths[k] != length:
        return False
    for i in range(length):
        if paths[k, i] != hexes[i]:
            return False
    return True


@njit(cache=True)
def compute_candidates(state, mp) -> None:
    """Every seat's candidate slots for the current race, with their summaries and hexes (§7.5)."""
    n = np.int64(state["num_players"])
    state["cand_valid"][:] = 0
    state["cand_pips"][:] = 0
    state["cand_steps"][:] = 0
    state["cand_own"][:] = 0
    state["cand_fee"][:] = 0
    state["cand_need"][:] = 0
    state["cand_hexes"][:] = 0
    seats = route_seats(state, mp)
    if seats == 0:
        return
    work = new_work(mp)
    build_graph(state, mp, work)
    n_hexes = mp.hexes.shape[0]
    paths = np.empty((N_ROUTE_OBJECTIVES, n_hexes), dtype=np.int64)
    lengths = np.zeros(N_ROUTE_OBJECTIVES, dtype=np.int64)
    fee = np.zeros(MAX_PLAYERS, dtype=np.int64)
    hexes, edges = work[4], work[5]
    for p in range(n):
        if not (seats >> p) & 1:
            continue  # p owns no edge that a route could use
        lengths[:] = 0
        for k in range(np.int64(state["n_candidates"])):
            length = find_route(state, mp, work, p, k)
            if length == 0:
                continue
            duplicate = False
            for k2 in range(k):
                if _same_path(paths, lengths, k2, hexes, length):
                    duplicate = True
            if duplicate:
                continue
            lengths[k] = length
            for i in range(length):
                paths[k, i] = hexes[i]
            _summarize(state, mp, p, k, hexes, edges, length, fee)


@njit(cache=True)
def _summarize(state, mp, p: int, k: int, hexes, edges, length: int, fee) -> None:
    """Store slot k of seat p: pips, steps, own steps, raw fees, hexes (§7.5 last paragraph), and the pips of
    each step in order when there are at most ``MAX_KEPT_STEPS`` (the race runs on them, ``resolve_race``)."""
    pips = 0
    own = 0
    for i in range(length - 1):
        leg = edge_pips(mp, edges[i], hexes[i])
        pips += leg
        if i < MAX_KEPT_STEPS:
            state["cand_need"][p, k, i] = leg
        if owns_edge(state, p, edges[i]):
            own += 1
    raw_fees(state, mp, p, edges, length - 1, fee)
    state["cand_valid"][p, k] = 1
    state["cand_pips"][p, k] = pips
    state["cand_steps"][p, k] = length - 1
    state["cand_own"][p, k] = own
    for q in range(MAX_PLAYERS):
        state["cand_fee"][p, k, q] = fee[q]
    bit = np.uint32(1) << np.uint32(N_SLOTS * p + k)
    for i in range(length):
        state["cand_hexes"][hexes[i]] |= bit
    emit(state, EV_CANDIDATE, EVERYONE, p, k, pips, length - 1)


# ---- the race (§7.7-§7.9) ----------------------------------------------------------------------------------------
@njit(cache=True)
def entrants_in_order(state, order) -> int:
    """Entrants in entry order, clockwise from F_k (§7.6), into order; their number."""
    n = np.int64(state["num_players"])
    m = 0
    for i in range(n):
        s = (np.int64(state["race_first"]) + i) % n
        if state["entry"][s] == ENTRY_ENTERED:
            order[m] = s
            m += 1
    return m


@njit(cache=True)
def resolve_race(state, mp) -> None:
    """Settle travel fees, run the race and pay the prizes (§7.1 items 4-6), on each entrant's chosen candidate as
    ``compute_candidates`` found it: its raw fees and the pips of its steps (no search again, §12.1)."""
    n_hexes = mp.hexes.shape[0]
    order = np.zeros(MAX_PLAYERS, dtype=np.int64)
    m = entrants_in_order(state, order)
    ranking = np.zeros(MAX_PLAYERS, dtype=np.int64)
    state["last_fees"][:] = 0
    state["last_rounds"] = 0
    if m == 0:
        pay_prizes(state, ranking, m)  # a race without entrants pays nothing but counts (§7.9)
        emit(state, EV_RACE_ENDS, EVERYONE, state["race_k"], m, 0, 0)
        return
    need = np.empty((MAX_PLAYERS, n_hexes), dtype=np.int64)  # row i: pips of entrant i's steps, n_need[i] of them
    n_need = np.zeros(MAX_PLAYERS, dtype=np.int64)
    fees = np.zeros((MAX_PLAYERS, MAX_PLAYERS), dtype=np.int64)
    for i in range(m):
        p = order[i]
        k = np.int64(state["entry_slot"][p])
        n_need[i] = state["cand_steps"][p, k]
        if n_need[i] > MAX_KEPT_STEPS:
            n_need[i] = _search_route_again(state, mp, p, k, need[i], fees[p])
            continue
        for j in range(n_need[i]):
            need[i, j] = state["cand_need"][p, k, j]
        for q in range(MAX_PLAYERS):
            fees[p, q] = state["cand_fee"][p, k, q]
    settle_travel_fees(state, fees)
    run_race(state, order, m, need, n_need, ranking)
    pay_prizes(state, ranking, m)
    emit(state, EV_RACE_ENDS, EVERYONE, state["race_k"], m, state["last_rounds"], 0)


@njit(cache=True)
def _search_route_again(state, mp, p: int, k: int, need, fees) -> int:
    """The pips of each step of slot k of seat p into ``need`` and its raw fees into ``fees``, by the search that
    found the candidate (for a route too long for ``cand_need``; the graph has not changed since, §12.1); its
    number of steps."""
    work = new_work(mp)
    build_graph(state, mp, work)
    length = find_route(state, mp, work, p, k)
    hexes, edges = work[4], work[5]
    for j in range(length - 1):
        need[j] = edge_pips(mp, edges[j], hexes[j])
    raw_fees(state, mp, p, edges, length - 1, fees)
    return length - 1


@njit(cache=True)
def settle_travel_fees(state, fees) -> None:
    """Per pair of players: net the raw fees first, then pay at most usage_fee_cap (§7.7 item 3, G22)."""
    n = np.int64(state["num_players"])
    cap = np.int64(state["fee_cap"])
    for p in range(n):
        for q in range(p + 1, n):
            net = fees[p, q] - fees[q, p]
            payer, payee = (p, q) if net > 0 else (q, p)
            x = min(cap, abs(net))
            if x > 0:
                emit(state, EV_TRAVEL_FEE, EVERYONE, payer, payee, x, abs(net))
                state["balance"][payer] -= x
                state["balance"][payee] += x
                state["race_income"][payee] += x
                state["last_fees"][payer] -= x
                state["last_fees"][payee] += x


@njit(cache=True)
def run_race(state, order, m: int, need, n_need, ranking) -> None:
    """Place the m entrants into ranking (§7.8, §12.8): dice rounds, or route pips with route_length."""
    state["last_rounds"] = 0
    if m == 0:
        return
    keys = np.zeros(MAX_PLAYERS, dtype=np.int64)
    places = min(np.int64(state["n_prizes"]), m)
    if m == 1:
        ranking[0] = order[0]
        return
    if state["resolution"] == RESOLUTION_ROUTE_LENGTH:
        for i in range(m):
            keys[i] = need[i, :n_need[i]].sum()
    else:
        _dice_rounds(state, m, need, n_need, places, keys)
    sorted_idx = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(m):  # stable insertion sort of entry positions by key
        j = i
        while j > 0 and keys[sorted_idx[j - 1]] > keys[i]:
            sorted_idx[j] = sorted_idx[j - 1]
            j -= 1
        sorted_idx[j] = i
    _tie_draw(state, sorted_idx, keys, m, places)
    for i in range(m):
        ranking[i] = order[sorted_idx[i]]


@njit(cache=True)
def _dice_rounds(state, m: int, need, n_need, places: int, keys) -> None:
    """Rounds of two dice per running entrant, in entry order, until `places` have arrived (§7.8)."""
    pos = np.zeros(MAX_PLAYERS, dtype=np.int64)
    arrived = np.zeros(MAX_PLAYERS, dtype=np.bool_)
    n_arrived = 0
    rnd = 0
    while n_arrived < places and rnd < MAX_RACE_ROUNDS:
        rnd += 1
        emit(state, EV_RACE_ROUND, EVERYONE, rnd, 0, 0, 0)
        for i in range(m):
            if arrived[i]:
                continue
            pips = roll_both(state)
            while pos[i] < n_need[i] and need[i, pos[i]] <= pips:
                pips -= need[i, pos[i]]
                pos[i] += 1
            emit(state, EV_TRAIN_MOVED, EVERYONE, entrant_seat(state, i), state["red"], state["white"], pos[i])
            if pos[i] == n_need[i]:
                emit(state, EV_TRAIN_ARRIVED, EVERYONE, entrant_seat(state, i), rnd, pips, 0)
                arrived[i] = True
                n_arrived += 1
                keys[i] = rnd * 16 + (15 - pips)  # earlier round first, then more leftover pips
    state["last_rounds"] = rnd
    for i in range(m):
        if not arrived[i]:
            keys[i] = UNFINISHED + need[i, pos[i]:n_need[i]].sum()  # the guard: fewest pips still needed


@njit(cache=True)
def _tie_draw(state, sorted_idx, keys, m: int, places: int) -> None:
    """Order each group of equal keys that reaches a paid place by uniform draws, in entry order (§7.8, G43)."""
    group = np.zeros(MAX_PLAYERS, dtype=np.int64)
    i = 0
    while i < m:
        size = 0
        while i + size < m and keys[sorted_idx[i + size]] == keys[sorted_idx[i]]:
            group[size] = sorted_idx[i + size]
            size += 1
        if i < places:
            pos = i
            remaining = size
            while remaining > 1:
                j = draw_below(state, remaining)
                sorted_idx[pos] = group[j]
                emit(state, EV_TIE_DRAW, EVERYONE, pos, entrant_seat(state, group[j]), remaining, j)
                for t in range(j, remaining - 1):
                    group[t] = group[t + 1]
                remaining -= 1
                pos += 1
            sorted_idx[pos] = group[0]
        i += size


@njit(cache=True)
def pay_prizes(state, ranking, m: int) -> None:
    """prizes[i] to the i-th placed entrant for i < P = min(len(prizes), entrants) (§7.9)."""
    state["last_place"][:] = -1
    state["last_prize"][:] = 0
    places = min(np.int64(state["n_prizes"]), m)
    for i in range(m):
        p = ranking[i]
        state["last_place"][p] = i
        if i < places:
            prize = np.int64(state["prizes"][i])
            state["balance"][p] += prize
            state["race_income"][p] += prize
            state["total_prizes"] += prize
            state["last_prize"][p] = prize
        emit(state, EV_RACE_PLACED, EVERYONE, p, i, state["last_prize"][p], 0)
