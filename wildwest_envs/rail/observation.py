"""The egocentric observation of one seat (spec §10): hex planes over the grid and a vector, as one float32 row.

Rail is a game of perfect information except for future dice (§10.1, G55):
every seat observes the same public state, seen from its own seat. Seats are
**relative**: relative seat ``k`` is absolute seat ``(i + k) mod n`` of
observer ``i``; relative seats ``>= n`` are all zero.

``observation_layout(rail_map)`` declares the row, with the natural scale of
every field (``layout.decode(row)``: counts and money as integers, one-hots as
indices, -1 for none; ``core.layout``); ``observe(states, seats, out, mp)``
writes it. The first field, ``board``, is ``(C, H, W)`` planes over the
hex grid (``plane[:, row, col]`` is hex ``row * W + col``); a convolutional
network reshapes it, a flat one reads the row. Board planes (C = 45):

    0-2     terrain: open, mountain, water (lake or sea; both impassable)
    3       foreign hex (§3.6)
    4       city hex; 5 start city
    6-8     river on the hex's canonical sides E, SW, SE (the side to nbr(h, 0), nbr(h, 4), nbr(h, 5))
    9-26    track: plane 9 + 3k + c = 1 if relative seat k owns the step from this hex on canonical side c
    27-32   network: the hex is in Net of relative seat k (§0.3)
    33      connected city (§6.9)
    34      current race start hex; 35 current race goal hex(es) (§7.2, §9.3)
    36-38   the observer's candidate route in slot 0..2 (hexes on the path, §7.5)
    39-44   declared route of relative seat k (entrants of the current race, §7.6)

Vector fields (names as in ``observation_layout``; all roughly within [-1, 1]
except balances):

    context         8       decision context one-hot (§11.2): START_CHOICE .. GAME_OVER
    players         5       number of players one-hot (2..6)
    to_act          6       deciding seat, relative one-hot (all zero when over)
    balance         6       balance / 100 per relative seat
    turn            8       BP left / 12 (pooled in a co-build), last red / 6, last white / 6, steps built this
                            turn > 0, proposal declined, funding one-hot (dice BP, account), operation phase
    progress        3       build round / build_rounds, race index / race limit, target / 250
    seats           6 x 10  per relative seat: start chosen, build turn done this round, entry undecided /
                            declined / entered, account BP left in this window / 12, 10 % budget left / 12,
                            is the builder, is the co-build partner, connected cities / 36
    start_city      6 x 8   per relative seat: its start city (index in the map's list), one-hot
    first_dir       6 x 6   per relative seat: direction of its first step out of the start city (§3.5)
    candidates      4 x 10  per slot of the observer: valid, route pips / 40, steps / 40, own steps / 40,
                            capped fee total / 40, raw fee to relative seat 1..5 / 10 (§7.5)
    race            3       international race, race in progress, entrants / 6
    race_cities     2 x 36  start city one-hot, goal city one-hot (domestic races)
    race_country    8       goal country one-hot (international races; code 1..8)
    last_race       6 x 3   per relative seat: placed (place + 1) / 6, prize / 20, net travel fees / 10
    connected       36      per city: connected (§6.9)
    city_uses       36      per city: repeat-rule uses / limit (§7.2)
    config          12      coop, international, flat fee, ferries, extension mode one-hot (3), end mode
                            "races", race resolution "route_length", shared roll, one build die, 10 % variant
    ferries         4       per ferry: owner as (relative seat + 1) / 6, 0 if unbuilt or absent (§9.5)

Decisions where the spec leaves the encoding open (§10.2 allows changes that
keep the information):

* River and track planes use the three canonical sides of a hex instead of
  six directions: every side and every step appears exactly once, so nothing
  is lost and the planes are half as many.
* The observer's candidates are planes 36-38 and ``candidates``; other seats'
  candidates are not shown (only their declared routes), as in §10.2.
* The planes do not carry timestamps or the fee bookkeeping (§10.2 says the
  same of its planes); ``first_dir`` adds what ``distinct_directions`` needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.borrowed import borrowed
from ..core.layout import Layout, count, flag, onehot, real
from .data import (CTX_COOP_BUILD, CTX_GAME_OVER, END_RACES, ENTRY_ENTERED, EXT_ACCOUNT, EXT_DICE,
                   FUND_ACCOUNT, FUND_BP, MAX_PLAYERS, N_CONTEXTS, N_ROUTE_OBJECTIVES, N_SLOTS,
                   RESOLUTION_ROUTE_LENGTH)
from .maps import (HOME, HX_CITY, HX_COUNTRY, HX_RIVER, HX_TERRAIN, MAX_CITIES, MAX_FERRIES, MAX_START_CITIES,
                   ST_A, ST_DIR, T_LAKE, T_MOUNTAIN, T_OPEN, T_SEA, RailMap)

N_PLANES = 45
P_OPEN, P_MOUNTAIN, P_WATER, P_FOREIGN, P_CITY, P_START = 0, 1, 2, 3, 4, 5
P_RIVER = 6  # + canonical side c
P_TRACK = 9  # + 3 k + c
P_NET = 27  # + k
P_CONNECTED, P_RACE_START, P_RACE_GOAL = 33, 34, 35
P_CANDIDATE = 36  # + slot
P_ROUTE = 39  # + k
N_STATIC_PLANES = 9  # planes 0..8 depend on the map only
MAX_COUNTRIES = 8  # foreign country codes 1..8 in race_country

# columns of the per-seat field
SEAT_STARTED, SEAT_TURN_DONE, SEAT_UNDECIDED, SEAT_DECLINED, SEAT_ENTERED, SEAT_WINDOW_LEFT, SEAT_BUDGET_LEFT, \
    SEAT_BUILDER, SEAT_PARTNER, SEAT_CONNECTED = range(10)
# columns of a candidate slot
CAND_VALID, CAND_PIPS, CAND_STEPS, CAND_OWN, CAND_CAPPED, CAND_FEE = 0, 1, 2, 3, 4, 5  # CAND_FEE + (k - 1)
# scales
MONEY_SCALE = 100.0
BP_SCALE = 12.0
ROUTE_SCALE = 40.0
FEE_SCALE = 10.0
DIE_SCALE = 6.0  # pips of the last red / white die
TARGET_SCALE = 250.0  # points target
SEAT_SCALE = 6.0  # entrants, (place + 1), (relative seat + 1) of a ferry owner
PRIZE_SCALE = 20.0
CITY_SCALE = 36.0  # connected cities of a seat
CANONICAL_SIDE = np.array([0, -1, -1, -1, 1, 2], dtype=np.int64)  # canonical side of directions E, SW, SE
CANONICAL_SIDE.setflags(write=False)


# natural scales of the fields (``layout.decode``, ``core.layout`` docstring "Natural scales"); money in dollars
_TURN_PARTS = (
    count("bp_left", BP_SCALE), count("red_die", DIE_SCALE), count("white_die", DIE_SCALE),
    flag("built_this_turn"), flag("proposal_declined"),
    onehot("funding", 2, first=FUND_BP),  # FUND_BP or FUND_ACCOUNT, -1 for FUND_NONE
    flag("operating"),
)
_PROGRESS_PARTS = (real("round_share"),  # build round / build_rounds
                   real("race_share"),  # race index / (races_total or max_races)
                   count("target", TARGET_SCALE))
_SEAT_PARTS = (
    flag("start_chosen"), flag("turn_done"),
    onehot("entry", 3),  # ENTRY_UNDECIDED / DECLINED / ENTERED during a race, -1 otherwise
    count("window_bp_left", BP_SCALE), count("budget_bp_left", BP_SCALE), flag("builder"), flag("partner"),
    count("connected_cities", CITY_SCALE),
)
_CANDIDATE_PARTS = (
    flag("valid"), count("pips", ROUTE_SCALE), count("steps", ROUTE_SCALE), count("own_steps", ROUTE_SCALE),
    count("capped_fees", ROUTE_SCALE), count("fees", FEE_SCALE, width=MAX_PLAYERS - 1),  # raw fee to rel. seat 1..5
)
_LAST_RACE_PARTS = (count("place", SEAT_SCALE),  # place + 1 (1: arrived first), 0 when not placed
                    count("prize", PRIZE_SCALE), count("net_fees", FEE_SCALE))
_CONFIG_PARTS = (
    flag("coop"), flag("international"), flag("flat_fee"), flag("ferries"),
    onehot("extension_mode", 3),  # EXT_ACCOUNT, EXT_DICE, EXT_DICE_OR_ACCOUNT
    flag("end_races"), flag("route_length"), flag("shared_roll"), flag("one_build_die"), flag("ten_percent"),
)


def observation_layout(rail_map: RailMap) -> Layout:
    """The named slices of a map's observation row (module docstring), with their natural scales."""
    return Layout(
        ("board", (N_PLANES, rail_map.height, rail_map.width), flag("marked")),
        ("context", N_CONTEXTS, onehot("context", N_CONTEXTS)),
        ("players", 5, onehot("num_players", 5, first=2)),
        ("to_act", MAX_PLAYERS, onehot("seat", MAX_PLAYERS)),  # relative seat, -1 when over
        ("balance", MAX_PLAYERS, count("balance", MONEY_SCALE)),  # per relative seat, $
        ("turn", 8, _TURN_PARTS),
        ("progress", 3, _PROGRESS_PARTS),
        ("seats", (MAX_PLAYERS, 10), _SEAT_PARTS),
        ("start_city", (MAX_PLAYERS, MAX_START_CITIES), onehot("start_city", MAX_START_CITIES)),  # map list index
        ("first_dir", (MAX_PLAYERS, 6), onehot("direction", 6)),
        ("candidates", (N_SLOTS, 10), _CANDIDATE_PARTS),
        ("race", 3, (flag("international"), flag("in_progress"), count("entrants", SEAT_SCALE))),
        ("race_cities", (2, MAX_CITIES), onehot("city", MAX_CITIES)),  # [start city, goal city]
        ("race_country", MAX_COUNTRIES, onehot("country", MAX_COUNTRIES, first=1)),
        ("last_race", (MAX_PLAYERS, 3), _LAST_RACE_PARTS),
        ("connected", MAX_CITIES, flag("connected")),
        ("city_uses", MAX_CITIES, real("uses_share")),  # repeat-rule uses / repeat_limit
        ("config", 12, _CONFIG_PARTS),
        ("ferries", MAX_FERRIES, count("owner", SEAT_SCALE)),  # relative seat + 1, 0 if unbuilt or absent
    )


def static_planes(rail_map: RailMap) -> np.ndarray:
    """Planes 0..8 (terrain, foreign, cities, start cities, rivers) of a map, flat (N_STATIC_PLANES * N,)."""
    t = rail_map.tables
    n = rail_map.n_hexes
    planes = np.zeros((N_STATIC_PLANES, n), dtype=np.float32)
    terrain = t.hexes[:, HX_TERRAIN]
    planes[P_OPEN] = terrain == T_OPEN
    planes[P_MOUNTAIN] = terrain == T_MOUNTAIN
    planes[P_WATER] = (terrain == T_LAKE) | (terrain == T_SEA)
    planes[P_FOREIGN] = t.hexes[:, HX_COUNTRY] != HOME
    planes[P_CITY, t.city_hex] = 1
    planes[P_START, t.city_hex[t.start_cities]] = 1
    for c, d in enumerate((0, 4, 5)):
        planes[P_RIVER + c] = t.hexes[:, HX_RIVER + d]
    planes = planes.reshape(-1)
    planes.setflags(write=False)
    return planes


def field_offsets(layout: Layout) -> np.ndarray:
    """Start of every field in layout order: the ``offsets`` argument of ``observe`` (indexed by ``F_*``)."""
    offsets = np.array([layout.start(name) for name in layout.fields], dtype=np.int64)
    offsets.setflags(write=False)
    return offsets


# index of each field in the offsets vector (= layout order)
(F_BOARD, F_CONTEXT, F_PLAYERS, F_TO_ACT, F_BALANCE, F_TURN, F_PROGRESS, F_SEATS, F_START_CITY, F_FIRST_DIR,
 F_CANDIDATES, F_RACE, F_RACE_CITIES, F_RACE_COUNTRY, F_LAST_RACE, F_CONNECTED, F_CITY_USES, F_CONFIG,
 F_FERRIES) = range(19)


@njit(cache=True, parallel=True)
def observe(states: np.ndarray, seats: np.ndarray, out: np.ndarray, maps: np.ndarray, static: np.ndarray,
            offsets: np.ndarray) -> None:
    """out[b] = the observation of seat seats[b] in game b (module docstring; ``maps``: the map's
    ``kernel_tables``)."""
    rows, planes, where = borrowed(out), borrowed(static), borrowed(offsets)  # no reference counting (core.borrowed)
    for b in prange(states.shape[0]):
        observe_one(states[b], seats[b], rows[b], maps[0], planes, where)


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def observe_one(state, seat: int, row: np.ndarray, mp, static: np.ndarray, offsets: np.ndarray) -> None:
    """The observation of one seat in one record."""
    n_static = static.shape[0]
    row[:n_static] = static  # slice assignments compile to memcpy / memset (4x faster than element loops)
    row[n_static:] = 0.0
    n_hexes = mp.hexes.shape[0]
    _observe_board(state, seat, row, mp, n_hexes)
    _observe_turn(state, seat, row, offsets)
    _observe_seats(state, seat, row, mp, offsets)
    _observe_race(state, seat, row, mp, offsets)
    _observe_config(state, seat, row, mp, offsets)


@njit(cache=True)
def _relative(state, seat: int, s: int) -> int:
    n = np.int64(state["num_players"])
    return (s - seat + n) % n


@njit(cache=True)
def _observe_board(state, seat: int, row, mp, n_hexes: int) -> None:
    """Planes 9..44: track, networks, connected cities, the race, candidates and declared routes."""
    n = np.int64(state["num_players"])
    for e in range(mp.steps.shape[0]):
        owners = np.int64(state["owners"][e])
        if owners == 0:
            continue
        h = mp.steps[e, ST_A]
        c = CANONICAL_SIDE[mp.steps[e, ST_DIR]]
        for s in range(n):
            if (owners >> s) & 1:
                row[(P_TRACK + 3 * _relative(state, seat, s) + c) * n_hexes + h] = 1.0
    for h in range(n_hexes):
        net = np.int64(state["net"][h])
        if net != 0:
            for s in range(n):
                if (net >> s) & 1:
                    row[(P_NET + _relative(state, seat, s)) * n_hexes + h] = 1.0
        bits = np.int64(state["cand_hexes"][h])
        if bits != 0:
            for k in range(N_ROUTE_OBJECTIVES):
                if (bits >> (N_SLOTS * seat + k)) & 1:
                    row[(P_CANDIDATE + k) * n_hexes + h] = 1.0
            for s in range(n):
                slot = np.int64(state["entry_slot"][s])
                if state["entry"][s] == ENTRY_ENTERED and slot >= 0 and (bits >> (N_SLOTS * s + slot)) & 1:
                    row[(P_ROUTE + _relative(state, seat, s)) * n_hexes + h] = 1.0
        if state["race_country"] >= 0 and mp.hexes[h, HX_COUNTRY] == state["race_country"]:
            row[P_RACE_GOAL * n_hexes + h] = 1.0
    for c in range(mp.city_hex.shape[0]):
        if state["connected"][c]:
            row[P_CONNECTED * n_hexes + mp.city_hex[c]] = 1.0
    if state["race_start"] >= 0:
        row[P_RACE_START * n_hexes + state["race_start"]] = 1.0
    if state["race_goal"] >= 0:
        row[P_RACE_GOAL * n_hexes + state["race_goal"]] = 1.0


@njit(cache=True)
def _observe_turn(state, seat: int, row, offsets) -> None:
    """context, players, to_act, balance, turn, progress."""
    n = np.int64(state["num_players"])
    row[offsets[F_CONTEXT] + state["context"]] = 1.0
    row[offsets[F_PLAYERS] + n - 2] = 1.0
    if state["context"] != CTX_GAME_OVER and state["current"] >= 0:
        row[offsets[F_TO_ACT] + _relative(state, seat, np.int64(state["current"]))] = 1.0
    for s in range(n):
        row[offsets[F_BALANCE] + _relative(state, seat, s)] = state["balance"][s] / MONEY_SCALE
    o = offsets[F_TURN]
    row[o] = state["bp_left"] / BP_SCALE
    row[o + 1] = state["red"] / DIE_SCALE
    row[o + 2] = state["white"] / DIE_SCALE
    row[o + 3] = 1.0 if state["turn_builds"] > 0 else 0.0
    row[o + 4] = 1.0 if state["coop_declined"] else 0.0
    row[o + 5] = 1.0 if state["funding"] == FUND_BP else 0.0
    row[o + 6] = 1.0 if state["funding"] == FUND_ACCOUNT else 0.0
    row[o + 7] = 1.0 if state["operating"] else 0.0
    o = offsets[F_PROGRESS]
    row[o] = state["round"] / max(np.int64(state["build_rounds"]), 1)
    limit = state["races_total"] if state["end_mode"] == END_RACES else state["max_races"]
    row[o + 1] = state["race_k"] / max(np.int64(limit), 1)
    row[o + 2] = state["target"] / TARGET_SCALE


@njit(cache=True)
def _observe_seats(state, seat: int, row, mp, offsets) -> None:
    """seats, start_city, first_dir: one row per relative seat."""
    n = np.int64(state["num_players"])
    for s in range(n):
        k = _relative(state, seat, s)
        o = offsets[F_SEATS] + 10 * k
        row[o + SEAT_STARTED] = 1.0 if state["start_city"][s] >= 0 else 0.0
        row[o + SEAT_TURN_DONE] = 1.0 if state["turn_used"][s] and not state["operating"] else 0.0
        if state["race_start"] >= 0:
            row[o + SEAT_UNDECIDED + state["entry"][s]] = 1.0
        row[o + SEAT_WINDOW_LEFT] = (state["ext_cap"] - state["window_bp"][s]) / BP_SCALE
        if state["ext_10pct"]:
            row[o + SEAT_BUDGET_LEFT] = (state["race_income"][s] // 10 - state["bp_bought"][s]) / BP_SCALE
        row[o + SEAT_BUILDER] = 1.0 if state["builder"] == s else 0.0
        row[o + SEAT_PARTNER] = 1.0 if state["partner"] == s and state["context"] <= CTX_COOP_BUILD else 0.0
        connected = 0
        for c in range(mp.city_hex.shape[0]):
            if (state["net"][mp.city_hex[c]] >> s) & 1:
                connected += 1
        row[o + SEAT_CONNECTED] = connected / CITY_SCALE
        if state["start_city"][s] >= 0:
            row[offsets[F_START_CITY] + MAX_START_CITIES * k + state["start_city"][s]] = 1.0
        if state["first_dir"][s] >= 0:
            row[offsets[F_FIRST_DIR] + 6 * k + state["first_dir"][s]] = 1.0


@njit(cache=True)
def _observe_race(state, seat: int, row, mp, offsets) -> None:
    """candidates, race, race_cities, race_country, last_race, connected, city_uses."""
    n = np.int64(state["num_players"])
    cap = np.int64(state["fee_cap"])
    for k in range(N_ROUTE_OBJECTIVES):
        if not state["cand_valid"][seat, k]:
            continue
        o = offsets[F_CANDIDATES] + 10 * k
        row[o + CAND_VALID] = 1.0
        row[o + CAND_PIPS] = state["cand_pips"][seat, k] / ROUTE_SCALE
        row[o + CAND_STEPS] = state["cand_steps"][seat, k] / ROUTE_SCALE
        row[o + CAND_OWN] = state["cand_own"][seat, k] / ROUTE_SCALE
        capped = 0
        for q in range(n):
            if q != seat:
                capped += min(cap, np.int64(state["cand_fee"][seat, k, q]))
                row[o + CAND_FEE + _relative(state, seat, q) - 1] = state["cand_fee"][seat, k, q] / FEE_SCALE
        row[o + CAND_CAPPED] = capped / ROUTE_SCALE
    o = offsets[F_RACE]
    if state["race_start"] >= 0:
        row[o] = 1.0 if state["race_country"] >= 0 else 0.0
        row[o + 1] = 1.0
        entrants = 0
        for s in range(n):
            if state["entry"][s] == ENTRY_ENTERED:
                entrants += 1
        row[o + 2] = entrants / SEAT_SCALE
        start_city = mp.hexes[state["race_start"], HX_CITY]
        row[offsets[F_RACE_CITIES] + start_city] = 1.0
        if state["race_goal"] >= 0:
            row[offsets[F_RACE_CITIES] + MAX_CITIES + mp.hexes[state["race_goal"], HX_CITY]] = 1.0
        if 1 <= state["race_country"] <= MAX_COUNTRIES:
            row[offsets[F_RACE_COUNTRY] + state["race_country"] - 1] = 1.0
    for s in range(n):
        o = offsets[F_LAST_RACE] + 3 * _relative(state, seat, s)
        if state["last_place"][s] >= 0:
            row[o] = (state["last_place"][s] + 1) / SEAT_SCALE
        row[o + 1] = state["last_prize"][s] / PRIZE_SCALE
        row[o + 2] = state["last_fees"][s] / FEE_SCALE
    limit = max(np.int64(state["repeat_limit"]), 1)
    for c in range(mp.city_hex.shape[0]):
        row[offsets[F_CONNECTED] + c] = state["connected"][c]
        row[offsets[F_CITY_USES] + c] = state["city_uses"][c] / limit


@njit(cache=True)
def _observe_config(state, seat: int, row, mp, offsets) -> None:
    """config and ferries."""
    o = offsets[F_CONFIG]
    row[o] = state["coop"]
    row[o + 1] = state["international"]
    row[o + 2] = state["flat_fee"]
    row[o + 3] = state["ferries_on"]
    mode = np.int64(state["ext_mode"])
    row[o + 4] = 1.0 if mode == EXT_ACCOUNT else 0.0
    row[o + 5] = 1.0 if mode == EXT_DICE else 0.0
    row[o + 6] = 1.0 if mode > EXT_DICE else 0.0
    row[o + 7] = 1.0 if state["end_mode"] == END_RACES else 0.0
    row[o + 8] = 1.0 if state["resolution"] == RESOLUTION_ROUTE_LENGTH else 0.0
    row[o + 9] = state["shared_roll"]
    row[o + 10] = 1.0 if state["build_dice"] == 1 else 0.0
    row[o + 11] = state["ext_10pct"]
    for f in range(mp.ferries.shape[0]):
        if state["ferry_owner"][f] >= 0:
            row[offsets[F_FERRIES] + f] = (_relative(state, seat, np.int64(state["ferry_owner"][f])) + 1) / SEAT_SCALE
