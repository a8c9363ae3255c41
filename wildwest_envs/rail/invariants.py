"""Consistency checks of a Rail record: invariants of play and validation of saved states.

``check_invariants(states, out, maps)`` writes, per record, 0 or the code of the
first broken invariant (``INVARIANT_MESSAGES[code]``); ``make_validator(map)``
returns ``validate_state(record) -> list[str]``, which checks one record field
by field (numba kernels do not check bounds: the ranges of ``FIELD_RANGES``
and the map's, ``core.fields``, then what the map decides) and then runs the
invariants.

What is checked (sections in the messages): the decision agrees with
``done``/``current``; money is conserved between the players and the bank
except for prizes and bonuses (``sum(balance) = prizes + bonuses - account
building``, §6.7-§6.9, §7.7, §7.9); every owned step is recorded consistently
(owner bits, timestamps not in the future, counts) and paid for (the BP of all
build events, a joint step once, equal the recorded spending, §6.6, §9.1);
the networks are exactly the start cities plus the ends of owned steps and
ferries (§0.3); touch fees are only recorded in non-city hexes of the payer's
network (§6.8); chosen start cities are connected, and every connected city
lies in some network (§6.4, §6.9); budgets are within their limits (§6.2,
§7.10, §9.6).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.fields import INT32_MAX, LAST_SEAT, Bound, field_bound, range_errors
from ..core.kernels import lowest_bit
from .data import (CTX_GAME_OVER, CTX_RACE_ENTRY, FUND_ACCOUNT, MAX_KEPT_STEPS, MAX_PLAYERS, N_CONTEXTS,
                   N_ROUTE_OBJECTIVES)
from .maps import FE_A, FE_B, FE_BUILD, HOME, HX_CITY, HX_COUNTRY, HX_STEP, ST_A, ST_B, ST_COST, RailMap

OK = 0
INVARIANT_MESSAGES = (
    "ok",
    "num_players outside 2..6",
    "context / current / done disagree: a finished game has GAME_OVER and current = -1, a live one a seat (§11.2)",
    "money not conserved: sum of balances != prizes + bonuses - account building, or an absent seat holds money (§7.12)",
    "step ownership inconsistent: owner bits, timestamps (0 < t_own <= t) or owned-step counts disagree (§0.2)",
    "track not paid for: BP of the build events != recorded spending (§6.6, §9.1, §9.5)",
    "a network is not the start city plus the ends of the seat's steps and ferries (§0.3), or a frontier bit set "
    "disagrees with it (steps from the home network not owned by the seat)",
    "a touch fee is recorded in a city hex or outside the payer's network (§6.8)",
    "connected cities: a chosen start city is not connected, or a connected city lies in no network (§6.4, §6.9)",
    "budget out of range: BP left negative, window BP above extension_cap, or the 10 % budget exceeded (§7.10, §9.6)",
    "race state inconsistent: an entrant without a valid slot, entries outside a race, or a candidate whose "
    "kept step pips do not add up to its route pips (§7.5, §7.6)",
    "n_decisions exceeds max_decisions",
)


@njit(cache=True, parallel=True)
def check_invariants(states: np.ndarray, out: np.ndarray, maps: np.ndarray) -> None:
    """out[b] = 0 if record b keeps every invariant, else the code of the first broken one (``maps``: the map's
    ``kernel_tables``)."""
    for b in prange(states.shape[0]):
        out[b] = check_one(states[b], maps[0])


@njit(cache=True)
def check_one(state, mp) -> int:
    """The first broken invariant of one record (0 if none)."""
    code = _check_decision(state)
    if code == OK:
        code = _check_money(state)
    if code == OK:
        code = _check_track(state, mp)
    if code == OK:
        code = _check_networks(state, mp)
    if code == OK:
        code = _check_cities_and_budgets(state, mp)
    return code


@njit(cache=True)
def _check_decision(state) -> int:
    n = np.int64(state["num_players"])
    if n < 2 or n > MAX_PLAYERS:
        return 1
    if state["done"]:
        if state["context"] != CTX_GAME_OVER or state["current"] != -1:
            return 2
    elif state["context"] < 0 or state["context"] >= CTX_GAME_OVER or state["current"] < 0 or state["current"] >= n:
        return 2
    if state["n_decisions"] > state["max_decisions"]:
        return 11
    return OK


@njit(cache=True)
def _check_money(state) -> int:
    total = 0
    for s in range(MAX_PLAYERS):
        if s >= state["num_players"] and state["balance"][s] != 0:
            return 3
        total += state["balance"][s]
    if total != np.int64(state["total_prizes"]) + np.int64(state["total_bonus"]) - np.int64(state["total_bank"]):
        return 3
    return OK


@njit(cache=True)
def _check_track(state, mp) -> int:
    """Owner bits, timestamps, counts; BP of build events (distinct timestamps per step) = bp_spent.

    The rows of owned steps are checked one by one; the unowned rows (most of the map) must be all zero, which one
    count of the nonzero timestamps decides: it equals the owner bits of the owned rows exactly when they are.
    """
    t_now = np.int64(state["t"])
    counts = np.zeros(MAX_PLAYERS, dtype=np.int64)
    spent = 0
    events = 0
    stamps = np.zeros(MAX_PLAYERS, dtype=np.int64)
    n = np.int64(state["num_players"])
    own_t = state["own_t"]
    nonzero = np.count_nonzero(own_t)
    owned_bits = 0
    for e in range(mp.steps.shape[0]):
        owners = np.int64(state["owners"][e])
        if owners == 0:
            continue
        if owners >> n:
            return 4  # an absent seat owns a step
        distinct = 0
        for s in range(n):
            t = np.int64(own_t[e, s])
            if ((owners >> s) & 1) != (1 if t > 0 else 0) or t < 0 or t > t_now:
                return 4
            if t > 0:
                counts[s] += 1
                owned_bits += 1
                new = True
                for i in range(distinct):
                    if stamps[i] == t:
                        new = False
                if new:
                    stamps[distinct] = t
                    distinct += 1
        spent += distinct * np.int64(mp.steps[e, ST_COST])
        events += distinct
    if nonzero != owned_bits:
        return 4  # a timestamp of a seat that does not own the step (or of an absent seat)
    for s in range(MAX_PLAYERS):
        if counts[s] != state["n_owned"][s]:
            return 4
    for f in range(mp.ferries.shape[0]):
        if state["ferry_owner"][f] >= 0:
            spent += mp.ferries[f, FE_BUILD]
            events += 1
            if state["ferry_t"][f] <= 0 or state["ferry_t"][f] > t_now:
                return 4
    if events != t_now:
        return 4  # one timestamp per build event (§0.2)
    if spent != state["bp_spent"] or state["total_bank"] > state["bp_spent"] or state["total_bank"] < 0:
        return 5
    return OK


@njit(cache=True)
def _check_networks(state, mp) -> int:
    """net bits = start city + ends of owned steps and ferries; touch bits in non-city hexes of the network."""
    n_hexes = mp.hexes.shape[0]
    expected = np.zeros(n_hexes, dtype=np.int64)
    for s in range(MAX_PLAYERS):
        sc = state["start_city"][s]
        if sc >= 0:
            expected[mp.city_hex[mp.start_cities[sc]]] |= 1 << s
    for e in range(mp.steps.shape[0]):
        owners = np.int64(state["owners"][e])
        if owners:
            expected[mp.steps[e, ST_A]] |= owners
            expected[mp.steps[e, ST_B]] |= owners
    for f in range(mp.ferries.shape[0]):
        owner = np.int64(state["ferry_owner"][f])
        if owner >= 0:
            expected[mp.ferries[f, FE_A]] |= 1 << owner
            expected[mp.ferries[f, FE_B]] |= 1 << owner
    for h in range(n_hexes):
        if expected[h] != state["net"][h]:
            return 6
    # expected frontier of each seat: the steps of its home network's hexes, less its own steps (one pass)
    frontier = np.zeros(state["frontier"].shape, dtype=np.uint64)
    seats = (np.int64(1) << np.int64(state["num_players"])) - 1
    for h in range(n_hexes):
        in_net = np.int64(state["net"][h]) & seats
        if in_net == 0 or mp.hexes[h, HX_COUNTRY] != HOME:
            continue
        for d in range(6):
            e = mp.hexes[h, HX_STEP + d]
            if e < 0:
                continue
            missing = in_net & ~np.int64(state["owners"][e])
            while missing:
                s = lowest_bit(np.uint64(missing))
                frontier[s, e >> 6] |= np.uint64(1) << np.uint64(e & 63)
                missing &= missing - 1
    for s in range(MAX_PLAYERS):
        for w in range(frontier.shape[1]):
            if frontier[s, w] != state["frontier"][s, w]:
                return 6
    for h in range(n_hexes):
        touched = np.int64(state["touched"][h])
        if touched and (mp.hexes[h, HX_CITY] >= 0 or (touched & ~np.int64(state["net"][h])) != 0):
            return 7
    return OK


@njit(cache=True)
def _check_cities_and_budgets(state, mp) -> int:
    n = np.int64(state["num_players"])
    for s in range(n):
        sc = state["start_city"][s]
        if sc >= 0 and not state["connected"][mp.start_cities[sc]]:
            return 8
    for c in range(mp.city_hex.shape[0]):
        if state["connected"][c] and state["net"][mp.city_hex[c]] == 0:
            return 8
    if state["bp_left"] < 0:
        return 9
    for s in range(n):
        if state["window_bp"][s] > state["ext_cap"] or state["window_bp"][s] < 0:
            return 9
        if state["ext_10pct"] and state["bp_bought"][s] > state["race_income"][s] // 10:
            return 9
    in_race = state["context"] == CTX_RACE_ENTRY
    for s in range(MAX_PLAYERS):
        if state["entry"][s] != 0 and not in_race:
            return 10
        if state["entry"][s] == 2:
            k = np.int64(state["entry_slot"][s])
            if k < 0 or k >= N_ROUTE_OBJECTIVES or not state["cand_valid"][s, k]:
                return 10
    for s in range(n):
        for k in range(N_ROUTE_OBJECTIVES):
            if state["cand_valid"][s, k] and not _kept_pips_agree(state, s, k):
                return 10
    return OK


@njit(cache=True)
def _kept_pips_agree(state, s: int, k: int) -> bool:
    """The kept pips of slot k of seat s add up to its route pips (a route longer than ``cand_need`` keeps none)."""
    steps = np.int64(state["cand_steps"][s, k])
    if steps > MAX_KEPT_STEPS:
        return True
    total = 0
    for j in range(steps):
        total += np.int64(state["cand_need"][s, k, j])
    return total == state["cand_pips"][s, k]


# ---- validation of saved states -------------------------------------------------------------------------------------
# Field ranges that do not depend on the map, in checking order (``core.fields``); ``make_validator`` adds the map's
FIELD_RANGES = {
    "num_players": (2, MAX_PLAYERS),
    "build_dice": (1, 2), "n_prizes": (1, 6), "n_candidates": (1, 3),
    "resolution": (0, 1), "ext_mode": (0, 2), "end_mode": (0, 1),
    "build_rounds": (1, INT32_MAX), "max_races": (1, INT32_MAX), "races_total": (1, INT32_MAX),
    "intl_every": (1, INT32_MAX), "d_min": (1, INT32_MAX),
    "context": (0, N_CONTEXTS - 1),
    "current": (-1, LAST_SEAT), "start_player": (0, LAST_SEAT),
    "n_forced": (0, Bound("", lambda record: len(record["forced"]))), "forced_pos": (0, field_bound("n_forced")),
    "turn_pos": (0, Bound("N", lambda record: int(record["num_players"]), ("num_players",))),
    "builder": (-1, LAST_SEAT), "partner": (-1, LAST_SEAT),
    "funding": (0, 2),
    "first_dir": (-1, 5), "entry": (0, 2), "entry_slot": (-1, N_ROUTE_OBJECTIVES - 1),
    "cand_valid": (0, 1), "cand_need": (0, INT32_MAX), "connected": (0, 1),
    "ferry_owner": (-1, LAST_SEAT), "last_place": (-1, LAST_SEAT),
    "t": (0, INT32_MAX), "own_t": (0, INT32_MAX), "city_uses": (0, INT32_MAX),
}


def make_validator(rail_map: RailMap):
    """``validate_state(record) -> list[str]`` for a map: field ranges first, then the invariants."""
    t = rail_map.tables
    n_start, n_ferries = len(t.start_cities), t.ferries.shape[0]
    city_hexes = set(int(h) for h in t.city_hex)
    ranges = {**FIELD_RANGES, "start_city": (-1, n_start - 1),
              "race_country": (-1, len(rail_map.country_names) - 1), "cand_steps": (0, rail_map.n_hexes - 1)}

    def map_errors(record) -> list[str]:
        """What the map decides: its cities, ferries and hexes; a race in progress; account funding."""
        start, goal, country = int(record["race_start"]), int(record["race_goal"]), int(record["race_country"])
        checks = [
            (not np.any(record["connected"][rail_map.n_cities:]), "connected entries beyond the map's cities"),
            (not np.any(record["ferry_owner"][n_ferries:] >= 0), "a ferry beyond the map's list is owned"),
            (start == -1 or start in city_hexes, "race_start must be -1 or a city hex"),
            (goal == -1 or goal in city_hexes, "race_goal must be -1 or a city hex"),
            (country != 0, "race_country 0 is the home country, not a goal"),
            (int(record["context"]) != CTX_RACE_ENTRY or record["done"] or (start >= 0 and (goal >= 0) != (country > 0)),
             "a race in progress needs a start and one goal"),
            (int(record["funding"]) != FUND_ACCOUNT or int(record["builder"]) >= 0, "account funding needs a builder"),
        ]
        return [message for holds, message in checks if not holds]

    def validate_state(record) -> list[str]:
        errors = range_errors(record, {"num_players": FIELD_RANGES["num_players"]})
        errors = errors or range_errors(record, ranges)
        errors = errors or map_errors(record)
        if errors:
            return errors
        code = check_one(np.array([record])[0], t)
        return [INVARIANT_MESSAGES[code]] if code else []

    return validate_state
