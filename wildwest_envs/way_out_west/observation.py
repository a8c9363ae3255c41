"""The egocentric observation of one seat (spec §12).

Nothing on the table is hidden (§12): every seat sees the same facts, arranged
from its own point of view. Seats appear as *relative seats*: relative seat
``r`` of observer ``o`` is absolute seat ``(o + r) mod N`` (0 is the observer,
then the others clockwise); blocks and one-hots for ``r >= N`` are zero. Every
seat reference (owners, the acting seat, the high bidder, box users, attacker,
defender, retreating seat) is relative, and the observer's absolute seat is not
encoded. Never observed: the generator state and the die queue (§12, §13.3),
and the bookkeeping counters (``n_decisions``, ``bank_in`` / ``bank_out``).

Fields (``OBS``, sizes as declared)::

    round            12      current round one-hot (1..12)
    rounds_left      1       rounds after this one / 12
    num_players      3       one-hot 3..5
    decision         23      pending decision type one-hot (§13.2); zero when the game is over
    acting_seat      5       relative seat to decide
    lap              2       action lap 1 / 2 one-hot (zero outside the action phase)
    frontier         5       highest town open for cattle, one-hot
    wanted_supply    1       Wanted counters in the supply / 13
    towns            5x52    per town, columns TOWN_* below
    seats            5x27    per relative seat, columns SEAT_* below
    boxes            19x7    per action box: inactive, free, or taken by relative seat 0..4
    auction          8       high bid / 50, high bidder (none, relative 0..4), auction decisions / 60
    pending          42      chosen box (19), first town (5), second town (5), target (8), defender (5)
    gunfight         44      columns GF_* below

Scaling: money / ``MONEY_SCALE`` ($50), cowboys and supplies / 9, cattle in a
town / 7, counts of B&T supplies / 3; flags 0/1.

Natural scales (``OBS.decode(vec)``, ``core.layout``): every field declares how
its floats read, so ``decode`` gives each one in the game's terms, counts as the
integers of the record (every scale is linear: nothing is clipped or squashed).
One-hots decode to the index of their 1, -1 when none is set, so a few read with
an offset from the record: ``round`` is round - 1, ``num_players`` is N - 3,
``lap`` is the record's lap (0 or 1), ``sheriff_side`` is 0 attacker / 1
defender (-1: none); the owner one-hots (``towns`` part ``<type>_owner``) and
``auction`` part ``high_bidder`` are 0 for nobody and 1 + the relative seat.
Every other seat one-hot is the relative seat itself, -1 for none. Parts::

    towns      cowboys[5], cattle[5] (per relative seat), stagecoach_owner .. jail_owner,
               farmers, size, free_corrals, free_spaces, open, sheriff
    seats      present, cash, cowboy_supply, cattle_supply, bt_supply[6], farmer_unused, wanted,
               turn_position, bidding_position, bid, bidding, turns_used, vp, income
    boxes      inactive, free, user (relative seat)
    auction    high_bid, high_bidder, decisions
    pending    box, town1, town2, target, defender (relative seat)
    gunfight   active, town, attacker, defender, target, a_cow, a_sher, d_cow, d_virt, d_sher,
               d_farm, volley, sheriff_side, retreat_seat, retreat_left, retreat_used[5]

Decisions where the spec leaves the encoding open:

* Two derived public facts per seat help learners and heuristics: ``SEAT_VP``,
  the victory points if the game ended now (§11), and ``SEAT_INCOME``, the
  income the current board would pay (§10.2).
* The turn position is the position in this round's turn order during the
  action phase (and the setup order during setup); during the auction it is the
  position already won, or none (§12 item 3). The bidding-order position is
  the seat's index in this round's bidding order (none during setup).
* The chosen first town is also the gunfight town; ``gunfight`` repeats it in
  ``GF_TOWN`` while a fight is active.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.layout import Layout, count, flag, onehot
from .data import (BOX_MIN_PLAYERS, BT_KEYS, BUILDING_SPACES, CORRALS, JAIL, MAX_AUCTION_DECISIONS, MAX_PLAYERS,
                   MAX_ROUNDS, MAX_VOLLEYS, MIN_PLAYERS, N_ACTION_MARKERS, N_BOXES, N_BT, N_COWBOYS, N_DECISION_TYPES,
                   N_PER_BT_TYPE, N_TARGETS, N_TOWNS, N_WANTED, PHASE_ACTIONS, PHASE_AUCTION, SIDE_ATTACKER,
                   SIDE_DEFENDER)
from .pieces import cattle_in_town, town_size
from .scoring import income_of, victory_points
from .state import NOBODY

MONEY_SCALE = 50.0  # dollars per unit
COUNT_SCALE = float(N_COWBOYS)  # cowboys and supplies / 9
CATTLE_SCALE = 7.0  # cattle of one seat in one town (at most 7 corrals)
VP_SCALE = 50.0
BT_SUPPLY_SCALE = float(N_PER_BT_TYPE)
RETREAT_SCALE = 3.0

# ---- columns of the per-town rows (§12 item 2) ------------------------------------------------------
TOWN_COWBOYS = 0  # + relative seat, / 9
TOWN_CATTLE = TOWN_COWBOYS + MAX_PLAYERS  # 5, + relative seat, / 7
TOWN_OWNER = TOWN_CATTLE + MAX_PLAYERS  # 10, + 6 k + (0 none / 1 + relative seat)
OWNER_COLUMNS = 1 + MAX_PLAYERS  # 6 per type
TOWN_FARMERS = TOWN_OWNER + N_BT * OWNER_COLUMNS  # 46, farmers / 5
TOWN_SIZE = TOWN_FARMERS + 1  # 47, / building spaces of Deadwood (6)
TOWN_FREE_CORRALS = TOWN_SIZE + 1  # 48, / 7
TOWN_FREE_SPACES = TOWN_FREE_CORRALS + 1  # 49, / 6
TOWN_OPEN = TOWN_FREE_SPACES + 1  # 50, open for cattle (town <= frontier)
TOWN_SHERIFF = TOWN_OPEN + 1  # 51, the town has a jail (a sheriff)
TOWN_COLUMNS = TOWN_SHERIFF + 1  # 52
MAX_SPACES = float(BUILDING_SPACES.max())
MAX_CORRALS = float(CORRALS.max())

# ---- columns of the per-seat rows (§12 item 3) --------------------------------------------------------
SEAT_PRESENT = 0
SEAT_CASH = 1  # / 50
SEAT_COWBOY_SUPPLY = 2  # / 9
SEAT_CATTLE_SUPPLY = 3  # / 9
SEAT_BT_SUPPLY = 4  # + type, / 3
SEAT_FARMER_UNUSED = SEAT_BT_SUPPLY + N_BT  # 10
SEAT_WANTED = SEAT_FARMER_UNUSED + 1  # 11, / 13
SEAT_TURN_POSITION = SEAT_WANTED + 1  # 12, + position one-hot
SEAT_BID_POSITION = SEAT_TURN_POSITION + MAX_PLAYERS  # 17, + bidding-order index one-hot
SEAT_BID = SEAT_BID_POSITION + MAX_PLAYERS  # 22, committed bid / 50
SEAT_BIDDING = SEAT_BID + 1  # 23, still bidding
SEAT_TURNS_USED = SEAT_BIDDING + 1  # 24, action turns used this round / 2
SEAT_VP = SEAT_TURNS_USED + 1  # 25, VP if the game ended now / 50
SEAT_INCOME = SEAT_VP + 1  # 26, income of the current board / 50
SEAT_COLUMNS = SEAT_INCOME + 1  # 27

# ---- columns of the per-box rows (§12 item 4) ----------------------------------------------------------
BOX_INACTIVE = 0
BOX_FREE = 1
BOX_TAKEN = 2  # + relative seat
BOX_COLUMNS = BOX_TAKEN + MAX_PLAYERS  # 7

# ---- auction (§12 item 5) and pending action (item 6) ------------------------------------------------------
AUCTION_HIGH_BID = 0
AUCTION_HIGH_BIDDER = 1  # + 0 none / 1 + relative seat
AUCTION_DECISIONS = AUCTION_HIGH_BIDDER + 1 + MAX_PLAYERS  # 7
AUCTION_SIZE = AUCTION_DECISIONS + 1  # 8
PEND_BOX = 0  # + box
PEND_TOWN1 = PEND_BOX + N_BOXES  # 19
PEND_TOWN2 = PEND_TOWN1 + N_TOWNS  # 24
PEND_TARGET = PEND_TOWN2 + N_TOWNS  # 29
PEND_DEFENDER = PEND_TARGET + N_TARGETS  # 37, + relative seat
PENDING_SIZE = PEND_DEFENDER + MAX_PLAYERS  # 42

# ---- gunfight (§12 item 7) ------------------------------------------------------------------------------------
GF_ACTIVE = 0
GF_TOWN = 1  # + town
GF_ATTACKER = GF_TOWN + N_TOWNS  # 6, + relative seat
GF_DEFENDER = GF_ATTACKER + MAX_PLAYERS  # 11, + relative seat (zero: no defending player)
GF_TARGET = GF_DEFENDER + MAX_PLAYERS  # 16, + target kind
GF_A_COW = GF_TARGET + N_TARGETS  # 24, / 9
GF_A_SHER = GF_A_COW + 1  # 25
GF_D_COW = GF_A_SHER + 1  # 26, / 9
GF_D_VIRT = GF_D_COW + 1  # 27
GF_D_SHER = GF_D_VIRT + 1  # 28
GF_D_FARM = GF_D_SHER + 1  # 29
GF_VOLLEY = GF_D_FARM + 1  # 30, / 50
GF_SHERIFF_SIDE = GF_VOLLEY + 1  # 31 attacker, 32 defender
GF_RETREAT_SEAT = GF_SHERIFF_SIDE + 2  # 33, + relative seat
GF_RETREAT_LEFT = GF_RETREAT_SEAT + MAX_PLAYERS  # 38, / 3
GF_RETREAT_USED = GF_RETREAT_LEFT + 1  # 39, + town
GUNFIGHT_SIZE = GF_RETREAT_USED + N_TOWNS  # 44

N_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1  # 3

# how each column reads at its natural scale (``OBS.decode``, module docstring), in column order
TOWN_PARTS = (count("cowboys", COUNT_SCALE, MAX_PLAYERS), count("cattle", CATTLE_SCALE, MAX_PLAYERS),
              *(onehot(f"{key}_owner", OWNER_COLUMNS) for key in BT_KEYS), count("farmers", MAX_PLAYERS),
              count("size", MAX_SPACES), count("free_corrals", MAX_CORRALS), count("free_spaces", MAX_SPACES),
              flag("open"), flag("sheriff"))
SEAT_PARTS = (flag("present"), count("cash", MONEY_SCALE), count("cowboy_supply", COUNT_SCALE),
              count("cattle_supply", COUNT_SCALE), count("bt_supply", BT_SUPPLY_SCALE, N_BT), flag("farmer_unused"),
              count("wanted", N_WANTED), onehot("turn_position", MAX_PLAYERS), onehot("bidding_position", MAX_PLAYERS),
              count("bid", MONEY_SCALE), flag("bidding"), count("turns_used", N_ACTION_MARKERS),
              count("vp", VP_SCALE), count("income", MONEY_SCALE))
BOX_PARTS = (flag("inactive"), flag("free"), onehot("user", MAX_PLAYERS))
AUCTION_PARTS = (count("high_bid", MONEY_SCALE), onehot("high_bidder", 1 + MAX_PLAYERS),
                 count("decisions", MAX_AUCTION_DECISIONS))
PENDING_PARTS = (onehot("box", N_BOXES), onehot("town1", N_TOWNS), onehot("town2", N_TOWNS),
                 onehot("target", N_TARGETS), onehot("defender", MAX_PLAYERS))
GUNFIGHT_PARTS = (flag("active"), onehot("town", N_TOWNS), onehot("attacker", MAX_PLAYERS),
                  onehot("defender", MAX_PLAYERS), onehot("target", N_TARGETS), count("a_cow", COUNT_SCALE),
                  flag("a_sher"), count("d_cow", COUNT_SCALE), flag("d_virt"), flag("d_sher"), flag("d_farm"),
                  count("volley", MAX_VOLLEYS), onehot("sheriff_side", 2), onehot("retreat_seat", MAX_PLAYERS),
                  count("retreat_left", RETREAT_SCALE), flag("retreat_used", N_TOWNS))

OBS = Layout(
    ("round", MAX_ROUNDS, onehot("round", MAX_ROUNDS)), ("rounds_left", 1, count("rounds_left", MAX_ROUNDS)),
    ("num_players", N_PLAYER_COUNTS, onehot("num_players", N_PLAYER_COUNTS)),
    ("decision", N_DECISION_TYPES, onehot("decision", N_DECISION_TYPES)),
    ("acting_seat", MAX_PLAYERS, onehot("acting_seat", MAX_PLAYERS)), ("lap", 2, onehot("lap", 2)),
    ("frontier", N_TOWNS, onehot("frontier", N_TOWNS)), ("wanted_supply", 1, count("wanted_supply", N_WANTED)),
    ("towns", (N_TOWNS, TOWN_COLUMNS), TOWN_PARTS), ("seats", (MAX_PLAYERS, SEAT_COLUMNS), SEAT_PARTS),
    ("boxes", (N_BOXES, BOX_COLUMNS), BOX_PARTS), ("auction", AUCTION_SIZE, AUCTION_PARTS),
    ("pending", PENDING_SIZE, PENDING_PARTS), ("gunfight", GUNFIGHT_SIZE, GUNFIGHT_PARTS),
)
OBS_SIZE = OBS.size
_ROUND = OBS.start("round")
_ROUNDS_LEFT = OBS.start("rounds_left")
_NUM_PLAYERS = OBS.start("num_players")
_DECISION = OBS.start("decision")
_ACTING = OBS.start("acting_seat")
_LAP = OBS.start("lap")
_FRONTIER = OBS.start("frontier")
_WANTED_SUPPLY = OBS.start("wanted_supply")
_TOWNS = OBS.start("towns")
_SEATS = OBS.start("seats")
_BOXES = OBS.start("boxes")
_AUCTION = OBS.start("auction")
_PENDING = OBS.start("pending")
_GUNFIGHT = OBS.start("gunfight")


@njit(cache=True, parallel=True)
def observe(states: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = the observation of seat ``seats[b]`` in record b (module docstring)."""
    for b in prange(states.shape[0]):
        observe_one(states[b], np.int64(seats[b]), out[b])


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def observe_one(state: np.void, o: int, row: np.ndarray) -> None:
    """Write the observation of seat o of one record into ``row``."""
    row[:] = 0.0
    n = np.int64(state["num_players"])
    _global(state, o, n, row)
    for t in range(N_TOWNS):
        _town(state, o, n, t, row[_TOWNS + t * TOWN_COLUMNS:_TOWNS + (t + 1) * TOWN_COLUMNS])
    vps = np.zeros(MAX_PLAYERS, dtype=np.int32)  # as Game.scores passes it: victory_points compiles once
    victory_points(state, vps)
    for r in range(n):
        p = (o + r) % n
        _seat(state, p, n, np.int64(vps[p]), row[_SEATS + r * SEAT_COLUMNS:_SEATS + (r + 1) * SEAT_COLUMNS])
    for b in range(N_BOXES):
        base = _BOXES + b * BOX_COLUMNS
        user = np.int64(state["box_user"][b])
        if n < BOX_MIN_PLAYERS[b]:
            row[base + BOX_INACTIVE] = 1.0
        elif user == NOBODY:
            row[base + BOX_FREE] = 1.0
        else:
            row[base + BOX_TAKEN + _rel(user, o, n)] = 1.0
    _auction(state, o, n, row)
    _pending(state, o, n, row)
    if state["gf_active"]:
        _gunfight(state, o, n, row[_GUNFIGHT:_GUNFIGHT + GUNFIGHT_SIZE])


@njit(cache=True, inline="always")
def _rel(seat: int, o: int, n: int) -> int:
    """Relative seat of absolute seat ``seat`` seen from observer o (§12)."""
    return (seat - o + n) % n


@njit(cache=True, inline="always")
def _global(state: np.void, o: int, n: int, row: np.ndarray) -> None:
    """§12 item 1: round, rounds left, player count, decision, acting seat, lap, frontier, Wanted supply."""
    r = np.int64(state["round"])
    row[_ROUND + r - 1] = 1.0
    row[_ROUNDS_LEFT] = (np.int64(state["num_rounds"]) - r) / MAX_ROUNDS
    row[_NUM_PLAYERS + n - MIN_PLAYERS] = 1.0
    if not state["done"]:
        row[_DECISION + state["decision"]] = 1.0
        row[_ACTING + _rel(np.int64(state["current"]), o, n)] = 1.0
    if state["phase"] == PHASE_ACTIONS:
        row[_LAP + state["lap"]] = 1.0
    row[_FRONTIER + state["frontier"]] = 1.0
    row[_WANTED_SUPPLY] = state["wanted_supply"] / N_WANTED


@njit(cache=True, inline="always")
def _town(state: np.void, o: int, n: int, t: int, cols: np.ndarray) -> None:
    """§12 item 2: cowboys and cattle per relative seat, owners, farmers, size, free room, flags."""
    for r in range(n):
        p = (o + r) % n
        cols[TOWN_COWBOYS + r] = state["cowboys"][t, p] / COUNT_SCALE
        cols[TOWN_CATTLE + r] = state["cattle"][t, p] / CATTLE_SCALE
    for k in range(N_BT):
        owner = np.int64(state["bt_owner"][t, k])
        column = 0 if owner == NOBODY else 1 + _rel(owner, o, n)
        cols[TOWN_OWNER + k * OWNER_COLUMNS + column] = 1.0
    size = town_size(state, t)
    cols[TOWN_FARMERS] = state["farmers"][t] / MAX_PLAYERS
    cols[TOWN_SIZE] = size / MAX_SPACES
    cols[TOWN_FREE_CORRALS] = (np.int64(CORRALS[t]) - cattle_in_town(state, t)) / MAX_CORRALS
    cols[TOWN_FREE_SPACES] = (np.int64(BUILDING_SPACES[t]) - size) / MAX_SPACES
    cols[TOWN_OPEN] = 1.0 if t <= state["frontier"] else 0.0
    cols[TOWN_SHERIFF] = 1.0 if state["bt_owner"][t, JAIL] != NOBODY else 0.0


@njit(cache=True)
def _seat(state: np.void, p: int, n: int, vp: int, cols: np.ndarray) -> None:
    """§12 item 3 for absolute seat p (the row of its relative seat)."""
    cols[SEAT_PRESENT] = 1.0
    cols[SEAT_CASH] = state["cash"][p] / MONEY_SCALE
    cols[SEAT_COWBOY_SUPPLY] = state["cowboy_supply"][p] / COUNT_SCALE
    cols[SEAT_CATTLE_SUPPLY] = state["cattle_supply"][p] / COUNT_SCALE
    for k in range(N_BT):
        cols[SEAT_BT_SUPPLY + k] = state["bt_supply"][p, k] / BT_SUPPLY_SCALE
    cols[SEAT_FARMER_UNUSED] = 1.0 - state["farmer_used"][p]
    cols[SEAT_WANTED] = state["wanted"][p] / N_WANTED
    order = state["new_order"] if state["phase"] == PHASE_AUCTION else state["turn_order"]
    for pos in range(n):
        if order[pos] == p:
            cols[SEAT_TURN_POSITION + pos] = 1.0
        if state["bidding_order"][pos] == p:
            cols[SEAT_BID_POSITION + pos] = 1.0
    cols[SEAT_BID] = state["bid"][p] / MONEY_SCALE
    cols[SEAT_BIDDING] = state["bidding"][p]
    cols[SEAT_TURNS_USED] = state["turns_used"][p] / 2.0
    cols[SEAT_VP] = vp / VP_SCALE
    cols[SEAT_INCOME] = income_of(state, p) / MONEY_SCALE


@njit(cache=True)
def _auction(state: np.void, o: int, n: int, row: np.ndarray) -> None:
    """§12 item 5: high bid, high bidder, decisions taken in this auction."""
    row[_AUCTION + AUCTION_HIGH_BID] = state["high_bid"] / MONEY_SCALE
    bidder = np.int64(state["high_bidder"])
    row[_AUCTION + AUCTION_HIGH_BIDDER + (0 if bidder == NOBODY else 1 + _rel(bidder, o, n))] = 1.0
    row[_AUCTION + AUCTION_DECISIONS] = state["auction_decisions"] / MAX_AUCTION_DECISIONS


@njit(cache=True, inline="always")
def _pending(state: np.void, o: int, n: int, row: np.ndarray) -> None:
    """§12 item 6: the choices made so far in the action being carried out."""
    if state["pend_box"] >= 0:
        row[_PENDING + PEND_BOX + np.int64(state["pend_box"])] = 1.0
    if state["pend_town1"] >= 0:
        row[_PENDING + PEND_TOWN1 + np.int64(state["pend_town1"])] = 1.0
    if state["pend_town2"] >= 0:
        row[_PENDING + PEND_TOWN2 + np.int64(state["pend_town2"])] = 1.0
    if state["pend_target"] >= 0:
        row[_PENDING + PEND_TARGET + np.int64(state["pend_target"])] = 1.0
    if state["pend_defender"] >= 0:
        row[_PENDING + PEND_DEFENDER + _rel(np.int64(state["pend_defender"]), o, n)] = 1.0


@njit(cache=True)
def _gunfight(state: np.void, o: int, n: int, cols: np.ndarray) -> None:
    """§12 item 7: the running gunfight and a retreat in progress."""
    cols[GF_ACTIVE] = 1.0
    cols[GF_TOWN + state["pend_town1"]] = 1.0
    cols[GF_ATTACKER + _rel(np.int64(state["gf_attacker"]), o, n)] = 1.0
    if state["pend_defender"] >= 0:
        cols[GF_DEFENDER + _rel(np.int64(state["pend_defender"]), o, n)] = 1.0
    cols[GF_TARGET + state["pend_target"]] = 1.0
    cols[GF_A_COW] = state["a_cow"] / COUNT_SCALE
    cols[GF_A_SHER] = state["a_sher"]
    cols[GF_D_COW] = state["d_cow"] / COUNT_SCALE
    cols[GF_D_VIRT] = state["d_virt"]
    cols[GF_D_SHER] = state["d_sher"]
    cols[GF_D_FARM] = state["d_farm"]
    cols[GF_VOLLEY] = state["gf_volley"] / MAX_VOLLEYS
    if state["sheriff_side"] == SIDE_ATTACKER:
        cols[GF_SHERIFF_SIDE] = 1.0
    elif state["sheriff_side"] == SIDE_DEFENDER:
        cols[GF_SHERIFF_SIDE + 1] = 1.0
    if state["retreat_seat"] >= 0:
        cols[GF_RETREAT_SEAT + _rel(np.int64(state["retreat_seat"]), o, n)] = 1.0
        cols[GF_RETREAT_LEFT] = state["retreat_left"] / RETREAT_SCALE
        for t in range(N_TOWNS):
            cols[GF_RETREAT_USED + t] = (np.int64(state["retreat_used"]) >> t) & 1
