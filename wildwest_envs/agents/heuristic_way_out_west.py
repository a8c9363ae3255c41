"""A rule-based Way Out West player that reads only its observation and mask (spec §6-§11).

``WayOutWestHeuristic`` never sees the game record: it decodes the named
observation fields of the seat to act (``OBS.get(obs, "towns")`` ...) into a
small board view in relative seats (0 = itself) and scores the legal ids of the
mask with a one-step value model. A small seeded noise (``TIE_NOISE``) breaks
ties between equally scored options.

**Value model.** Everything is counted in victory points of the seat (§11):

* a B&T counter is worth its town's size, and adding one raises every counter
  there by 1 (own ones count fully, rivals' ones at ``1 / (N - 1)`` against us);
* town control is worth the town's size to the strict leader of B&T + cattle
  counters (§11.3): the gain of becoming the leader, or of making a rival lose
  the lead, is added to the counter or cattle that does it;
* a cattle counter is worth its VP rate (§11.2) plus its income rate times the
  income steps left (§10.2) in dollars; a dollar is worth ``DOLLAR_VP`` VP
  (about what a cheap counter in a mid-sized town costs per VP); income of
  banks, stores and hotels the same way;
* a gunfight is worth its win chance (sides as in §9.3, each die hits 1/3)
  times the gain of the result (capture, rustling, robbery 3d6 = 10.5, jail or
  farmer removal) plus the Most-Wanted counter, less the cowboys it may cost.

Strategy, by decision (§13.2):

* **SETUP_PLACE_COWBOY**: two cowboys in San Antonia (the only town open for
  cattle), then one in Kansas City (the next to open).
* **AUCTION_BID**: drop out at once (it never commits more than ``MAX_BID``
  = $0): against the library's opponents turn order matters little, money
  always (every bid is paid, §6.1).
* **CHOOSE_ACTION**: the box with the best value; PASS if none is positive.
  Sub-decisions (town, count, target, defender) re-score the same options with
  the choices already made (the pending context), so the action chosen is
  carried out as planned.
* **Fights**: the sheriff joins when its owner attacks or defends, and against
  any attacker otherwise; SHOOT unless the own side is less than half the other
  side; retreating cowboys go to open towns first; a Wanted counter is taken
  from the player holding the most.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.way_out_west.data import (A_BOX, A_COUNT, A_PASS, A_PLAYER, A_RETREAT, A_TARGET,
                                             A_TOWN, A_YES, ACT_BUILD, ACT_BUY_CATTLE, ACT_FARMER, ACT_GUNFIGHT,
                                             ACT_HIRE, ACT_MOVE_CATTLE, ACT_MOVE_COWBOYS, BANK, BOX_ACTION, BOX_BT,
                                             BT_PRICE, BUILDING_SPACES, CORRALS, DEC_AUCTION_BID, DEC_BUILD_TOWN,
                                             DEC_BUY_CATTLE_COUNT, DEC_BUY_CATTLE_TOWN, DEC_CHOOSE_ACTION,
                                             DEC_FARMER_TOWN, DEC_GUNFIGHT_DEFENDER, DEC_GUNFIGHT_TARGET,
                                             DEC_GUNFIGHT_TOWN, DEC_HIRE_TOWN_1, DEC_HIRE_TOWN_2,
                                             DEC_MOVE_CATTLE_COUNT, DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO,
                                             DEC_MOVE_COWBOYS_COUNT, DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO,
                                             DEC_RETREAT_DESTINATION, DEC_SETUP_PLACE_COWBOY, DEC_SHERIFF_JOIN,
                                             DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER, DEC_WANTED_STEAL, HOTEL, JAIL,
                                             MAX_PLAYERS, MIN_PLAYERS, N_BOXES, N_BT, N_TARGETS, N_TOWNS, STORE,
                                             T_CATTLE, T_FARMER, TRAIN)
from wildwest_envs.way_out_west.observation import (CATTLE_SCALE, COUNT_SCALE, GF_A_COW, GF_A_SHER, GF_D_COW,
                                                    GF_D_FARM, GF_D_SHER, GF_D_VIRT, MONEY_SCALE, OBS,
                                                    OWNER_COLUMNS, PEND_BOX, PEND_TOWN1, SEAT_BID, SEAT_CASH,
                                                    SEAT_CATTLE_SUPPLY, SEAT_FARMER_UNUSED, SEAT_PRESENT, SEAT_WANTED,
                                                    TOWN_CATTLE, TOWN_COWBOYS, TOWN_FARMERS, TOWN_OWNER,
                                                    BT_SUPPLY_SCALE, SEAT_BT_SUPPLY)

from .base import RuleBasedAgent

TIE_NOISE = 1e-3  # seeded noise added to every score to break ties
DOLLAR_VP = 0.22  # VP per dollar (a $3-$5 counter in a town of size 3-4 returns about 1 VP per $4.5)
MAX_BID = 0  # dollars the seat ever commits in an auction (turn order is cheap to lose)
HIT = 1.0 / 3.0  # a die hits on 5 or 6 (§9.4)
COWBOY_VP = 0.4  # value of a cowboy on the board (it enables cattle, defends, fights)
WANTED_VP = 1.2  # a Wanted counter: a share of the 5-VP Most-Wanted bonus (§11.3)
ROBBERY_DOLLARS = 10.5  # mean of 3d6 (§9.8)
MIN_FIGHT_ODDS = 0.45  # the seat attacks only with at least this win chance
RETREAT_RATIO = 0.5  # retreat when the own side is smaller than this share of the other side
WIN_GAIN_FARMER = 0.8  # VP of removing a farmer beyond its effect on own cattle (spoils rivals' stores)


class WayOutWestHeuristic(RuleBasedAgent):
    """Greedy one-step value player of Way Out West (module docstring)."""

    def decide(self, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:
        """The only legal action, else the best one-step value, ties broken by noise."""
        if len(legal) == 1:
            return int(legal[0])
        view = View(obs)
        scores = np.array([_score(view, int(a)) for a in legal], dtype=np.float64)
        scores += TIE_NOISE * self.rng.random(len(legal))
        return int(legal[int(np.argmax(scores))])


class View:
    """The board of one observation in relative seats (0 = the observer), as integers."""

    def __init__(self, obs: np.ndarray):
        towns = OBS.get(obs, "towns")
        seats = OBS.get(obs, "seats")
        self.n = int(np.argmax(OBS.get(obs, "num_players"))) + MIN_PLAYERS
        self.decision = int(np.argmax(OBS.get(obs, "decision"))) if OBS.get(obs, "decision").any() else -1
        self.round = int(np.argmax(OBS.get(obs, "round"))) + 1
        self.rounds_left = int(round(float(OBS.get(obs, "rounds_left")[0]) * 12))
        self.frontier = int(np.argmax(OBS.get(obs, "frontier")))
        n = self.n
        self.cowboys = np.rint(towns[:, TOWN_COWBOYS:TOWN_COWBOYS + n] * COUNT_SCALE).astype(int)  # [t, r]
        self.cattle = np.rint(towns[:, TOWN_CATTLE:TOWN_CATTLE + n] * CATTLE_SCALE).astype(int)
        owners = towns[:, TOWN_OWNER:TOWN_OWNER + N_BT * OWNER_COLUMNS].reshape(N_TOWNS, N_BT, OWNER_COLUMNS)
        self.owner = np.argmax(owners, axis=2) - 1  # [t, k]: relative seat, -1 none
        self.farmers = np.rint(towns[:, TOWN_FARMERS] * MAX_PLAYERS).astype(int)
        self.cash = np.rint(seats[:n, SEAT_CASH] * MONEY_SCALE).astype(int)
        self.bid = np.rint(seats[:n, SEAT_BID] * MONEY_SCALE).astype(int)
        self.cattle_supply = np.rint(seats[:n, SEAT_CATTLE_SUPPLY] * COUNT_SCALE).astype(int)
        self.bt_supply = np.rint(seats[:n, SEAT_BT_SUPPLY:SEAT_BT_SUPPLY + N_BT] * BT_SUPPLY_SCALE).astype(int)
        self.farmer_unused = seats[0, SEAT_FARMER_UNUSED] > 0.5
        self.wanted = np.rint(seats[:n, SEAT_WANTED] * 13).astype(int)
        self.present = seats[:, SEAT_PRESENT] > 0.5
        pending = OBS.get(obs, "pending")
        self.box = int(np.argmax(pending[PEND_BOX:PEND_BOX + N_BOXES])) if pending[PEND_BOX:PEND_BOX + N_BOXES].any() \
            else -1
        self.town1 = _one_hot(pending[PEND_TOWN1:PEND_TOWN1 + N_TOWNS])
        self.gunfight = OBS.get(obs, "gunfight")
        self.acting = _one_hot(OBS.get(obs, "acting_seat"))
        self.incomes_left = sum(1 for r in range(self.round, self.round + self.rounds_left + 1) if r % 3 == 0)
        self.opp_weight = 1.0 / (n - 1)

    def size(self, t: int) -> int:
        return int((self.owner[t] >= 0).sum())

    def free_corrals(self, t: int) -> int:
        return int(CORRALS[t]) - int(self.cattle[t].sum())

    def free_spaces(self, t: int) -> int:
        return int(BUILDING_SPACES[t]) - self.size(t)

    def cattle_rate(self, t: int) -> float:
        """VP of one cattle counter in t now: its VP and its income left (§10.2, §11.2)."""
        train = self.owner[t, TRAIN] >= 0
        farmer = self.farmers[t] >= 1
        vp = (2 if train else 1) - (1 if farmer else 0)
        income = (1 if farmer else 2) * (2 if train else 1)
        return vp + income * self.incomes_left * DOLLAR_VP

    def control_counts(self, t: int) -> np.ndarray:
        return (self.owner[t][:, None] == np.arange(self.n)[None, :]).sum(axis=0) + self.cattle[t]

    def control_value(self, t: int, counts: np.ndarray, size: int) -> float:
        """Own VP minus weighted rivals' VP from the control bonus of t (§11.3)."""
        best = counts.max()
        if best < 1 or (counts == best).sum() > 1:
            return 0.0
        leader = int(np.argmax(counts))
        return size if leader == 0 else -size * self.opp_weight


def _one_hot(values: np.ndarray) -> int:
    return int(np.argmax(values)) if values.any() else -1


# ---- scoring of one legal action ---------------------------------------------------------------------------
def _score(v: View, a: int) -> float:
    dec = v.decision
    if dec == DEC_SETUP_PLACE_COWBOY:
        return _setup_score(v, a - A_TOWN)
    if dec == DEC_AUCTION_BID:
        return 1.0 if a == A_PASS else (0.0 if v.bid[0] < MAX_BID else -1.0)
    if dec == DEC_CHOOSE_ACTION:
        return 0.0 if a == A_PASS else _box_value(v, a - A_BOX)
    if dec == DEC_BUY_CATTLE_TOWN:
        return _cattle_gain(v, a - A_TOWN, 1)
    if dec == DEC_BUY_CATTLE_COUNT or dec == DEC_MOVE_CATTLE_COUNT:
        return float(a - A_COUNT)  # as many as allowed
    if dec == DEC_HIRE_TOWN_1:
        return _hire_gain(v, a - A_TOWN)
    if dec == DEC_HIRE_TOWN_2:
        return _second_hire_score(v, a)
    if dec == DEC_MOVE_COWBOYS_FROM:
        return _move_source_value(v, a - A_TOWN)
    if dec == DEC_MOVE_COWBOYS_TO:
        return _hire_gain(v, a - A_TOWN)
    if dec == DEC_MOVE_COWBOYS_COUNT:
        return -float(a - A_COUNT)  # one cowboy
    if dec == DEC_MOVE_CATTLE_FROM:
        return -_cattle_gain(v, a - A_TOWN, 1)
    if dec == DEC_MOVE_CATTLE_TO:
        return _cattle_gain(v, a - A_TOWN, 1)
    if dec == DEC_BUILD_TOWN:
        return _build_gain(v, int(BOX_BT[v.box]), a - A_TOWN)
    if dec == DEC_FARMER_TOWN:
        return _farmer_gain(v, a - A_TOWN)
    if dec == DEC_GUNFIGHT_TOWN:
        return max(_fight_value(v, a - A_TOWN, x) for x in range(N_TARGETS))
    if dec == DEC_GUNFIGHT_TARGET:
        return _fight_value(v, v.town1, a - A_TARGET)
    if dec == DEC_GUNFIGHT_DEFENDER:
        return _rustle_value(v, v.town1, a - A_PLAYER)
    if dec == DEC_SHERIFF_JOIN:
        return 1.0 if a == A_YES else 0.0
    if dec == DEC_VOLLEY_ATTACKER or dec == DEC_VOLLEY_DEFENDER:
        return _volley_score(v, dec, a)
    if dec == DEC_RETREAT_DESTINATION:
        return _hire_gain(v, a - A_TOWN)
    if dec == DEC_WANTED_STEAL:
        return float(v.wanted[a - A_PLAYER])
    return 0.0


def _setup_score(v: View, t: int) -> float:
    placed = int(v.cowboys[:, 0].sum())
    if t == 0:
        return 2.0 if v.cowboys[0, 0] < 2 else 0.5
    if t == 1:
        return 1.0 if placed >= 2 else 0.1
    return -float(t)


# ---- CHOOSE_ACTION (§7.2) --------------------------------------------------------------------------------------
def _box_value(v: View, b: int) -> float:
    act = int(BOX_ACTION[b])
    if act == ACT_BUY_CATTLE:
        n = min(2, int(v.cash[0]), int(v.cattle_supply[0]))
        return max((_cattle_gain(v, t, n) for t in range(N_TOWNS) if _cattle_town(v, t)), default=-9.0) - 0.1 * b
    if act == ACT_HIRE:
        best = _best_hire_town(v)
        return _hire_gain(v, best) - 1 * DOLLAR_VP - 0.1 * b
    if act == ACT_MOVE_COWBOYS:
        best = max(range(N_TOWNS), key=lambda t: _hire_gain(v, t))
        source = max(range(N_TOWNS), key=lambda t: _move_source_value(v, t))
        return _hire_gain(v, best) + (_move_source_value(v, source) if v.cowboys[source, 0] else -9.0) - 0.1 * b
    if act == ACT_MOVE_CATTLE:
        return -1.0
    if act == ACT_BUILD:
        k = int(BOX_BT[b])
        return max((_build_gain(v, k, t) for t in range(N_TOWNS) if _build_town(v, k, t)), default=-9.0)
    if act == ACT_FARMER:
        return max(_farmer_gain(v, t) for t in range(N_TOWNS))
    if act == ACT_GUNFIGHT:
        return max(_fight_value(v, t, x) for t in range(N_TOWNS) for x in range(N_TARGETS)) - 0.1 * b
    return -9.0


def _cattle_town(v: View, t: int) -> bool:
    return t <= v.frontier and v.cowboys[t, 0] >= 1 and v.free_corrals(t) >= 1


def _cattle_gain(v: View, t: int, n: int) -> float:
    """n own cattle more in t: their VP and income, the control change, less $1 each (§8.1)."""
    n = max(1, min(n, v.free_corrals(t)))
    counts = v.control_counts(t)
    before = v.control_value(t, counts, v.size(t))
    counts = counts.copy()
    counts[0] += n
    after = v.control_value(t, counts, v.size(t))
    return n * (v.cattle_rate(t) - DOLLAR_VP) + after - before


def _hire_gain(v: View, t: int) -> float:
    """A cowboy in t: it opens cattle buying there (an open town with room, none of ours), or guards counters."""
    if t < 0:
        return 0.0
    gain = 0.0
    if t <= v.frontier and v.free_corrals(t) >= 1 and v.cowboys[t, 0] == 0 and v.cattle_supply[0] > 0:
        gain += 1.2
    own_counters = int((v.owner[t] == 0).sum()) + (1 if v.cattle[t, 0] else 0)
    rivals = int(v.cowboys[t, 1:].max()) if v.n > 1 else 0
    if own_counters and v.cowboys[t, 0] <= rivals:
        gain += 0.4 * own_counters
    return gain


def _second_hire_score(v: View, a: int) -> float:
    """HIRE_TOWN_2: a second cowboy only where it is worth more than its dollar; the first one counts (§8.2)."""
    if a == A_PASS:
        return DOLLAR_VP
    v.cowboys[v.town1, 0] += 1
    try:
        return _hire_gain(v, a - A_TOWN)
    finally:
        v.cowboys[v.town1, 0] -= 1


def _best_hire_town(v: View) -> int:
    return max(range(N_TOWNS), key=lambda t: _hire_gain(v, t))


def _move_source_value(v: View, t: int) -> float:
    """Moving a cowboy away from t costs its guard and cattle role there."""
    if v.cowboys[t, 0] == 0:
        return -9.0
    if v.cowboys[t, 0] >= 2:
        return 0.0
    return -1.0 if (v.cattle[t, 0] or (v.owner[t] == 0).any()) and t <= v.frontier else -0.2


def _build_town(v: View, k: int, t: int) -> bool:
    return (v.free_spaces(t) >= 1 and v.owner[t, k] < 0 and int((v.owner[t] == 0).sum()) < 2
            and v.bt_supply[0, k] >= 1 and v.cash[0] >= int(BT_PRICE[k]))


def _build_gain(v: View, k: int, t: int) -> float:
    """An own counter of type k in t: its VP (the new size), +1 for every counter there, control, income, price."""
    size = v.size(t) + 1
    own = int((v.owner[t] == 0).sum())
    rivals = int((v.owner[t] > 0).sum())
    gain = size + own - rivals * v.opp_weight
    counts = v.control_counts(t)
    before = v.control_value(t, counts, size - 1)
    counts = counts.copy()
    counts[0] += 1
    gain += v.control_value(t, counts, size) - before
    gain += _income_of_counter(v, k, t, size) * v.incomes_left * DOLLAR_VP
    if own == 0 and int(v.cowboys[t, 1:].max(initial=0)) >= 2:
        gain -= 0.3 * size  # easy prey for a rival gunfight
    return gain - int(BT_PRICE[k]) * DOLLAR_VP


def _income_of_counter(v: View, k: int, t: int, size: int) -> float:
    """Dollars per income step of an own counter of type k in t (§10.2)."""
    if k == BANK:
        return 2.0 * size
    if k == STORE:
        return float(v.cattle[t, 1:].sum()) + 2.0 * v.farmers[t]
    if k == HOTEL:
        return float(v.cowboys[t, 1:].sum())
    if k == TRAIN:
        return float(v.cattle[t, 0]) * (1 if v.farmers[t] else 2)  # the doubling of own cattle
    return 0.0


def _farmer_gain(v: View, t: int) -> float:
    """A farmer in t: rivals' cattle lose 1 VP and half their income; so do ours; stores gain (§8.6)."""
    if not v.farmer_unused:
        return -9.0
    gain = 0.0
    if v.farmers[t] == 0:
        train = 2 if v.owner[t, TRAIN] >= 0 else 1
        per = 1 + train * v.incomes_left * DOLLAR_VP
        gain += per * (float(v.cattle[t, 1:].sum()) * v.opp_weight - float(v.cattle[t, 0]))
    if v.owner[t, STORE] >= 0:
        gain += 2 * v.incomes_left * DOLLAR_VP * (1.0 if v.owner[t, STORE] == 0 else -v.opp_weight)
    return gain - 0.5


# ---- gunfights (§9) ----------------------------------------------------------------------------------------
def _sides(v: View, t: int, x: int, q: int) -> tuple[int, int]:
    """Attacker and defender side sizes if the seat attacks target x of relative seat q in t (§9.3)."""
    attackers = int(v.cowboys[t, 0])
    jail = int(v.owner[t, JAIL])
    if jail == 0:
        attackers += 1
    defenders = int(v.cowboys[t, q]) if q > 0 else 0
    if x == T_FARMER:
        defenders = 1
    elif x in (BANK, TRAIN) or defenders == 0:
        defenders += 1
    if jail > 0:
        defenders += 1
    return attackers, defenders


def _win_chance(attackers: int, defenders: int) -> float:
    """A rough chance to win a fight of these sizes, all dice hitting on 5-6."""
    if attackers <= 0:
        return 0.0
    ratio = attackers / (attackers + defenders)
    return float(np.clip(ratio ** 1.5 * 1.25, 0.02, 0.97))


def _target_legal(v: View, t: int, x: int) -> bool:
    if x < N_BT:
        owner = int(v.owner[t, x])
        return owner > 0 and (x in (BANK, JAIL) or v.bt_supply[0, x] >= 1)
    if x == T_CATTLE:
        return v.cattle_supply[0] >= 1 and v.cattle[t, 1:].sum() >= 1
    return v.farmers[t] >= 1


def _fight_value(v: View, t: int, x: int) -> float:
    """Expected VP of attacking target x in t with every own cowboy there (§9)."""
    if t < 0 or v.cowboys[t, 0] < 1 or not _target_legal(v, t, x):
        return -9.0
    if x == T_CATTLE:
        return max(_rustle_value(v, t, q) for q in range(1, v.n))
    q = int(v.owner[t, x]) if x < N_BT else 0
    attackers, defenders = _sides(v, t, x, q)
    p = _win_chance(attackers, defenders)
    if p < MIN_FIGHT_ODDS:
        return -9.0
    size = v.size(t)
    if x == BANK:
        gain = min(ROBBERY_DOLLARS, float(v.cash[q])) * DOLLAR_VP * (1 + v.opp_weight)
    elif x == JAIL:
        gain = size * v.opp_weight + 0.5
    elif x == T_FARMER:
        gain = float(v.cattle[t, 0]) * (1 + v.incomes_left * DOLLAR_VP) + WIN_GAIN_FARMER
    else:
        gain = size * (1 + v.opp_weight) + int((v.owner[t] == 0).sum())
    losses = min(attackers, defenders) * HIT * COWBOY_VP * 2
    return p * (gain + WANTED_VP) - losses


def _rustle_value(v: View, t: int, q: int) -> float:
    """Expected VP of rustling relative seat q's cattle in t (§9.2)."""
    if q <= 0 or q >= v.n or v.cattle[t, q] < 1 or v.cattle_supply[0] < 1:
        return -9.0
    attackers, defenders = _sides(v, t, T_CATTLE, q)
    p = _win_chance(attackers, defenders)
    if p < MIN_FIGHT_ODDS:
        return -9.0
    r = min(2, int(v.cattle[t, q]), int(v.cattle_supply[0]))
    gain = r * v.cattle_rate(t) * (1 + v.opp_weight)
    losses = min(attackers, defenders) * HIT * COWBOY_VP * 2
    return p * (gain + WANTED_VP) - losses


def _volley_score(v: View, dec: int, a: int) -> float:
    """SHOOT unless the own side is much smaller than the other side (§9.4, §9.5)."""
    g = v.gunfight
    attackers = round(float(g[GF_A_COW]) * COUNT_SCALE) + int(g[GF_A_SHER] > 0.5)
    defenders = (round(float(g[GF_D_COW]) * COUNT_SCALE) + int(g[GF_D_VIRT] > 0.5) + int(g[GF_D_SHER] > 0.5)
                 + int(g[GF_D_FARM] > 0.5))
    own, other = (attackers, defenders) if dec == DEC_VOLLEY_ATTACKER else (defenders, attackers)
    retreat = own < RETREAT_RATIO * other
    return 1.0 if (a == A_RETREAT) == retreat else 0.0

