"""A rule-based Rail player that reads only its observation and mask (spec §6, §7).

``RailHeuristic`` never sees the game record: it decodes the named observation
fields of the seat to act (``board`` planes for its own and the rivals' lines and
networks, ``context``, ``turn``, ``seats``, ``candidates``) and the public map
tables (``wildwest_envs.rail.data.DEFAULT_MAP``: terrain, step costs), and
picks among the legal ids of the mask.

**Building towards cities.** For every build decision the agent runs one
multi-source Dijkstra (numba) from its own network over the buildable steps,
with the step's BP cost plus an estimate of the build fees it would trigger
(``PARALLEL_PENALTY`` per rival owning the step, ``TOUCH_PENALTY`` for
entering a non-city hex where a rival is present); its own steps cost 0. The
target is the city not yet in its network with the lowest ``cost - value``,
where an unconnected city is worth ``BONUS_VALUE`` (the 6-point bonus) and a
connected one ``CITY_VALUE`` (races start and end in cities, and routes need
own track, §7.3). The agent builds the first step of that cheapest line if it
is legal (affordable); otherwise the first affordable step of the next best
target; otherwise it ends the turn (unused BP are lost anyway).

**Extension windows** (money, §7.10): only a line to an *unconnected* city that
costs at most ``EXTENSION_MAX_COST`` in total (roughly what its bonus pays
back) is built, and only while the balance stays above ``CASH_RESERVE``;
otherwise END_TURN. Dice-funded extension turns build like build turns.
FUND_DICE is always preferred (free BP).

**Races** (§7.5-§7.6): among the filled candidate slots the agent takes the
one with the fewest ``pips + FEE_WEIGHT * capped fee`` and enters when the
capped fee total is at most ``MAX_RACE_FEE`` (the own network covers most of
the route); otherwise it declines.

**Start city**: the one from which the cheapest lines reach the most cities
(sum of the ``START_CITIES`` cheapest city costs), plus ``CROWD_PENALTY`` per
rival already there. **Co-building**: never proposed, always declined.

A small seeded noise breaks ties between equal targets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wildwest_envs.rail.data import (CTX_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD, CTX_EXT_FUNDING, CTX_RACE_ENTRY,
                                     CTX_START_CHOICE, DEFAULT_MAP, MAX_PLAYERS, OFF_CHOOSE_START, OFF_COOP_DECLINE,
                                     OFF_END_TURN, OFF_FUND_DICE, OFF_RACE_DECLINE, OFF_RACE_ENTER)
from wildwest_envs.rail.maps import (HOME, HX_COUNTRY, HX_NBR, HX_STEP, ST_A, ST_COST, ST_DIR, ST_FOREIGN,
                                     cheapest_build_costs)
from wildwest_envs.rail.observation import (CAND_CAPPED, CAND_PIPS, CAND_VALID, MONEY_SCALE, N_PLANES, P_CONNECTED,
                                            P_NET, P_TRACK, ROUTE_SCALE, observation_layout)

from .base import RuleBasedAgent

PARALLEL_PENALTY = 4.0  # fee estimate per rival owning a step (2 per non-city end, §6.8)
TOUCH_PENALTY = 1.0  # fee estimate for entering a hex where a rival is present
BONUS_VALUE = 6.0  # value of reaching an unconnected city (§6.9)
CITY_VALUE = 2.0  # value of adding a connected city to the own network (race routes, §7.3)
EXTENSION_MAX_COST = 7.0  # at most this many BP (plus fees) for an extension line to an unconnected city
CASH_RESERVE = 5  # money kept after an account-funded step
MAX_RACE_FEE = 10  # enter a race when the capped travel fee of the chosen route is at most this
FEE_WEIGHT = 0.5  # pips per money of fee when choosing the route
START_CITIES = 8  # cheapest city costs summed to value a start city
CROWD_PENALTY = 15.0  # per rival already in a start city
TIE_NOISE = 1e-3
UNREACHABLE = 1e9

MAP = DEFAULT_MAP
T = MAP.tables
N_HEXES, N_STEPS, BASE = MAP.n_hexes, MAP.n_steps, MAP.n_steps
OBS = observation_layout(MAP)
CANONICAL_SIDE = {0: 0, 4: 1, 5: 2}
STEP_PLANE_INDEX = np.array([CANONICAL_SIDE[int(T.steps[e, ST_DIR])] * N_HEXES + int(T.steps[e, ST_A])
                             for e in range(N_STEPS)], dtype=np.int64)  # index of step e in a (3, N) track plane
CITY_HEX = np.asarray(T.city_hex, dtype=np.int64)


def _start_city_costs() -> np.ndarray:
    """Sum of the START_CITIES cheapest build costs from each start city to the other cities."""
    out = []
    for c in T.start_cities:
        costs = np.sort(cheapest_build_costs(MAP, int(T.city_hex[c]))[T.city_hex])
        out.append(float(costs[1:START_CITIES + 1].sum()))
    return np.array(out)


START_COSTS = _start_city_costs()


@njit(cache=True)
def _line_search(hexes, cost, own_net, targets, first_out):
    """Multi-source Dijkstra from the own network: for every target hex, the cheapest line's cost and its first
    step (first_out[target], -1 if unreachable or already in the network). Returns the dist array."""
    n = hexes.shape[0]
    dist = np.full(n, 1e18)
    first = np.full(n, -1, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    for h in range(n):
        if own_net[h]:
            dist[h] = 0.0
    while True:
        u = -1
        best = 1e17
        for h in range(n):  # a simple O(N^2) Dijkstra: N = 775 and few targets are far
            if not done[h] and dist[h] < best:
                best = dist[h]
                u = h
        if u < 0:
            break
        done[u] = True
        if hexes[u, HX_COUNTRY] != HOME:
            continue
        for d in range(6):
            e = hexes[u, HX_STEP + d]
            if e < 0 or cost[e] >= 1e8:
                continue
            v = hexes[u, HX_NBR + d]
            nd = dist[u] + cost[e]
            if nd < dist[v]:
                dist[v] = nd
                first[v] = e if own_net[u] and cost[e] > 0 else first[u]
    for i in range(targets.shape[0]):
        first_out[i] = first[targets[i]]
    return dist


class RailHeuristic(RuleBasedAgent):
    """Rule-based Rail player (module docstring); reads only observations and masks."""

    def decide(self, observation: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:
        """The only legal action, else the choice of the rules of the module docstring."""
        return int(legal[0]) if len(legal) == 1 else self._decide(observation, mask, legal)

    # ---- decisions ------------------------------------------------------------------------------------------------
    def _decide(self, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:
        context = int(np.argmax(OBS.get(obs, "context")))
        if context == CTX_START_CHOICE:
            return self._start_city(obs, legal)
        if context == CTX_RACE_ENTRY:
            return self._race_entry(obs, mask)
        if context == CTX_EXT_FUNDING:
            return BASE + OFF_FUND_DICE
        if context == CTX_COOP_RESPONSE:
            return BASE + OFF_COOP_DECLINE
        if context in (CTX_BUILD, CTX_EXT_BUILD):
            turn = OBS.get(obs, "turn")
            account = turn[6] > 0.5
            return self._build(obs, mask, account)
        return int(legal[-1] if BASE + OFF_END_TURN not in legal else BASE + OFF_END_TURN)  # co-build: end it

    def _start_city(self, obs: np.ndarray, legal: np.ndarray) -> int:
        starts = OBS.get(obs, "start_city")
        crowd = starts[1:, :len(START_COSTS)].sum(axis=0)
        score = START_COSTS + CROWD_PENALTY * crowd + self.rng.random(len(START_COSTS)) * TIE_NOISE
        for i in np.argsort(score):
            if BASE + OFF_CHOOSE_START + i in legal:
                return int(BASE + OFF_CHOOSE_START + i)
        return int(legal[0])

    def _race_entry(self, obs: np.ndarray, mask: np.ndarray) -> int:
        cand = OBS.get(obs, "candidates")
        best, best_score = BASE + OFF_RACE_DECLINE, np.inf
        for k in range(3):
            if cand[k, CAND_VALID] < 0.5 or not mask[BASE + OFF_RACE_ENTER + k]:
                continue
            fee = cand[k, CAND_CAPPED] * ROUTE_SCALE
            score = cand[k, CAND_PIPS] * ROUTE_SCALE + FEE_WEIGHT * fee
            if fee <= MAX_RACE_FEE and score < best_score:
                best, best_score = BASE + OFF_RACE_ENTER + k, score
        return int(best)

    def _build(self, obs: np.ndarray, mask: np.ndarray, account: bool) -> int:
        board = OBS.get(obs, "board").reshape(N_PLANES, N_HEXES)
        own_net = board[P_NET] > 0.5
        rival_net = board[P_NET + 1:P_NET + MAX_PLAYERS].max(axis=0) > 0.5
        own_steps = board[P_TRACK:P_TRACK + 3].reshape(-1)[STEP_PLANE_INDEX] > 0.5
        rival_steps = np.zeros(N_STEPS)
        for k in range(1, MAX_PLAYERS):
            rival_steps += board[P_TRACK + 3 * k:P_TRACK + 3 * k + 3].reshape(-1)[STEP_PLANE_INDEX]
        cost = T.steps[:, ST_COST].astype(np.float64) + PARALLEL_PENALTY * rival_steps
        entering = np.where(rival_net[T.steps[:, 0]] | rival_net[T.steps[:, 1]], TOUCH_PENALTY, 0.0)
        cost += entering
        international = OBS.get(obs, "config")[1] > 0.5
        if not international:
            cost[T.steps[:, ST_FOREIGN] > 0] = 1e9
        cost[own_steps] = 0.0
        connected = board[P_CONNECTED][CITY_HEX] > 0.5
        todo = np.flatnonzero(~own_net[CITY_HEX])
        if len(todo) == 0:
            return BASE + OFF_END_TURN
        first = np.full(len(todo), -1, dtype=np.int64)
        dist = _line_search(T.hexes, cost, own_net, CITY_HEX[todo], first)
        value = np.where(connected[todo], CITY_VALUE, BONUS_VALUE)
        score = dist[CITY_HEX[todo]] - value + self.rng.random(len(todo)) * TIE_NOISE
        balance = OBS.get(obs, "balance")[0] * MONEY_SCALE
        for j in np.argsort(score):
            e = int(first[j])
            if e < 0 or dist[CITY_HEX[todo[j]]] >= 1e8:
                continue
            if account:
                if connected[todo[j]] or dist[CITY_HEX[todo[j]]] > EXTENSION_MAX_COST:
                    continue
                if balance - T.steps[e, ST_COST] < CASH_RESERVE:
                    continue
            if mask[e]:
                return e
        return BASE + OFF_END_TURN
