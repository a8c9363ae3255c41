"""A rule-based Wild West Express trader that reads only its observation and mask (spec §4, §6-§14).

``WildWestExpressHeuristic`` never sees the game record: every rule below reads
the named observation fields (``OBS.get(obs, "own_trains")`` ...) of the seat
to act, the public board tables of ``data`` (prices, distances, zones) and
picks among the legal ids of the mask. A small seeded noise (``TIE_NOISE``)
breaks ties between equally scored options.

**Value model.** Money is counted in dollars. A train slot is worth a
*potential* that depends on where the train stands and what the slot holds:

* a goods token ``g``: the best, over the cities ``c`` that buy ``g``, of the
  sale price there (plus the $20 owner bonus at an own station, less the
  coal-and-water fee at a rival's) plus the value of an empty slot in ``c``,
  less ``STEP_COST`` dollars per step of the trip that does not fit in the
  steps left of the current move;
* a passenger of pickup zone ``z``: the same with the fare of §4.4;
* an empty slot: the best, over cities ``c``, of ``SOURCE[c]`` (the profit of
  the best haul that starts by buying goods or loading a passenger in ``c``,
  net of the trip's step cost) less the step cost of getting there.

Trip lengths come from directed distances precomputed on the public board
(a train cannot turn back on track, §7.2; turning round in a city costs
``REVERSE_PENALTY`` steps, the move it ends).

Strategy, by decision (§17.2):

* **DRAFT_CITY**: the city with the best ``SOURCE`` (best haul out of it) plus
  a little for the goods it buys (owner bonus, fees). **PLACE_DESPERADO**: the
  start city closest to the rivals' cities.
* **PRE_ROLL**, one action per call, in priority order: play subsidies and
  Land Grant; buy a station where an own train stands when cash allows
  (stations are the cheapest victory points, §14.1); fill every empty slot of
  a train in a city with the good (or passenger) of the highest potential net
  of its price, when the haul itself earns ``BUY_MARGIN`` (``HAUL_STEP_COST``
  per step of its trip) and an empty trip to another
  source would not be worth ``ELSEWHERE_MARGIN`` more; buy a small train, upgrade, or buy a
  large train when rich; Armed Guards when a loaded train has rival
  desperados near; extra-move cards for a loaded train; a Crate of Dynamite
  or Track Crew when it hurts a rival / helps us; then ``END`` (roll).
  Purchases never lower the victory points when the seat is near the target.
* **SELECT_TRAIN**: loaded trains first. **TRAIN_STEP**: each next space is
  scored by the summed slot potentials from there with the steps left, less
  the expected loot of rival desperados on the forced stretch ahead (a duel
  is lost with probability 15/36) and a penalty for ending the move on
  dynamite; ``STOP`` by what selling / dropping here is worth plus the
  potentials of the rest; ``HOLD`` only when nothing better exists.
* **ARRIVAL**: sell a token (drop a passenger) when that beats carrying it on.
* **DESPERADO_STEP**: head for the non-city space nearest to the most (and
  most loaded) rival trains. Rehire is not used.
* **TELEGRAM_DRAWN**: play subsidies, Land Grant and extra moves of a loaded
  train at once; keep the rest. Sub-decisions: Armed Guards on the most
  loaded train, dynamite next to loaded rival trains, Track Crew removes
  dynamite near own trains, Land Grant takes the best source city, Hideout
  sends a desperado to the own station nearest rival trains; sheriffs are
  placed on dynamite near own trains, else declined.
"""

from __future__ import annotations

import heapq

import numpy as np

from wildwest_envs.wild_west_express.data import (
    A_BUY_GOOD, A_BUY_LARGE_TRAIN, A_BUY_SMALL_TRAIN, A_BUY_STATION, A_END, A_HOLD,
    A_LOAD_PASSENGERS, A_PLAY_CARD, A_REHIRE, A_SPACE, A_STOP, A_TRAIN, A_UNLOAD_SLOT, A_UPGRADE_TRAIN,
    BUY_PRICE, CARD_TYPE, CITY_ZONE, DEC_ARRIVAL, DEC_CARD_CITY, DEC_CARD_DESPERADO, DEC_CARD_DYNAMITE_PLACE,
    DEC_CARD_DYNAMITE_REMOVE, DEC_CARD_HIDEOUT_CITY, DEC_CARD_TRAIN, DEC_DESPERADO_STEP, DEC_DRAFT_CITY,
    DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DEC_REHIRE_TARGET, DEC_SELECT_TRAIN, DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE,
    DEC_TELEGRAM_DRAWN, DEC_TRAIN_STEP, DISTANCE, FARE_BY_LINES, FEE_SMALL, IS_CITY, MAX_PLAYERS,
    MAX_TRAINS, N_CARDS, N_CARGO, N_CITIES, N_GOODS, N_SPACES, N_ZONES, NEIGHBOURS, OWNER_BONUS,
    PRICE_LARGE_TRAIN, PRICE_STATION, PRICE_SMALL_TRAIN, PRICE_UPGRADE, SELL_PRICE, T_ARMED_GUARDS,
    T_DYNAMITE_CRATE, T_EXTRA_MOVE_3, T_EXTRA_MOVE_6, T_LAND_GRANT, T_SUBSIDY_100,
    T_SUBSIDY_200, T_TRACK_CREW, CASH_UNIT, VP_PER_CASH_UNIT, VP_SMALL_TRAIN, VP_LARGE_TRAIN, VP_STATION)
from wildwest_envs.wild_west_express.observation import (
    CARGO_COLUMNS, CARGO_EMPTY_COLUMN, MONEY_SCALE, OBS, OTHER_TRAIN_CARGO, OTHER_TRAIN_POSITION,
    OWN_TRAIN_CARGO, OWN_TRAIN_POSITION, SEAT_CASH, SEAT_PRESENT, SEAT_VP, SPACE_SCALE,
    STEPS_SCALE, TARGET_SCALE, TRAIN_EXISTS)

from .base import RuleBasedAgent

TIE_NOISE = 1e-3  # seeded noise added to every score to break ties
STEP_COST = 15.0  # dollars per step of a trip beyond the current move (about a haul's profit rate)
IN_MOVE_STEP_COST = 0.5  # small preference for shorter trips inside the current move
REVERSE_PENALTY = 6  # steps charged for turning round in a city (the move ends there)
BUY_MARGIN = 20.0  # a good / passenger is loaded only if its potential beats its price by this much
HAUL_STEP_COST = 5.0  # step cost in that test: any clearly profitable haul beats an idle slot
ELSEWHERE_MARGIN = 120.0  # ... and unless an empty slot is worth that much more on its way elsewhere
DUEL_LOSS = 15.0 / 36.0  # a desperado wins a duel with a strictly higher die (§10.2)
LOOT_PER_TOKEN = 100.0
DYNAMITE_LANDING_COST = 120.0  # a lost dice move (and passengers) when a move ends on dynamite (§11.2)
CASH_RESERVE = 60.0  # cash kept after a station purchase, to buy goods
TRAIN_RESERVE = 150.0  # cash kept after a train purchase or upgrade
NEAR_TARGET = 3  # within this many points of the target, purchases may not lower the victory points
BIG = 1e6  # preference tiers of the pre-roll actions
UNREACHABLE = 10_000.0
PRICE_CACHE_SIZE = 4096  # station-ownership patterns whose board values an agent keeps


def _directed_tables():
    """Directed board edges (u -> v) and the fewest steps from each edge state to each city (§7.2).

    From the state "on v, came from u" a piece may step to any neighbour of v but u; turning
    round (back to u) is allowed only in a city, for ``REVERSE_PENALTY`` extra steps. Dijkstra
    runs backwards from each city over these states (numpy and heapq only).
    """
    edges = [(u, int(v)) for u in range(N_SPACES) for v in NEIGHBOURS[u] if v >= 0]
    edge_id = np.full((N_SPACES, N_SPACES), -1, dtype=np.int32)
    for i, (u, v) in enumerate(edges):
        edge_id[u, v] = i
    incoming = [[] for _ in edges]  # incoming[j]: (i, weight) with a step from state i to state j
    for i, (u, v) in enumerate(edges):
        for w in NEIGHBOURS[v]:
            if w < 0:
                continue
            w = int(w)
            if w != u:
                incoming[edge_id[v, w]].append((i, 1.0))
            elif IS_CITY[v]:
                incoming[edge_id[v, w]].append((i, 1.0 + REVERSE_PENALTY))
    table = np.full((len(edges), N_CITIES), UNREACHABLE)
    for c in range(N_CITIES):
        dist = table[:, c]
        heap = [(0.0, i) for i, (_, v) in enumerate(edges) if v == c]
        for _, i in heap:
            dist[i] = 0.0
        heapq.heapify(heap)
        while heap:
            d, j = heapq.heappop(heap)
            if d > dist[j]:
                continue
            for i, w in incoming[j]:
                if d + w < dist[i]:
                    dist[i] = d + w
                    heapq.heappush(heap, (d + w, i))
    return edge_id, table


EDGE_ID, EDGE_CITY_DIST = _directed_tables()
ZONE_LINES = np.abs(CITY_ZONE[:, None].astype(int) - np.arange(N_ZONES)[None, :])  # (26 city, 3 pickup zone)
FARE = FARE_BY_LINES[ZONE_LINES].astype(float)  # (26, 3) fare of a passenger of zone z dropped in c
CITY_DIST = DISTANCE[:N_CITIES, :N_CITIES].astype(float)
INCOME_CARDS = (T_SUBSIDY_100, T_SUBSIDY_200)
MOVE_CARDS = (T_EXTRA_MOVE_3, T_EXTRA_MOVE_6)


class WildWestExpressHeuristic(RuleBasedAgent):
    """Rule-based Wild West Express trader (module docstring); reads only observations and masks."""

    def __init__(self, seed: int = 0):
        """A heuristic player whose tie-breaking noise comes from ``seed``."""
        super().__init__(seed)
        self._prices: dict = {}  # board values by station ownership (``_View._prices``), a pure memo

    def decide(self, observation: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:
        """The best-scored legal action by the rules of the module docstring, ties broken by noise."""
        noise = self.rng.random(len(legal)) * TIE_NOISE
        if len(legal) == 1:
            return int(legal[0])
        if len(self._prices) > PRICE_CACHE_SIZE:
            self._prices.clear()
        return int(legal[int(np.argmax(_View(observation, self._prices).score(legal) + noise))])


class _View:
    """The observation of one seat, decoded into the quantities the rules use."""

    def __init__(self, obs: np.ndarray, price_cache: dict | None = None):
        self.decision = int(np.argmax(OBS.get(obs, "decision_type")))
        seats = OBS.get(obs, "seats")
        self.present = seats[:, SEAT_PRESENT] > 0
        self.cash = float(seats[0, SEAT_CASH]) * MONEY_SCALE
        game = OBS.get(obs, "game")
        self.target = int(round(float(game[-1]) * TARGET_SCALE))
        self.vp = int(round(float(seats[0, SEAT_VP]) * max(self.target, 1)))
        owner = OBS.get(obs, "city_owner")
        self.own_city = owner[:, 1] > 0
        self.rival_city = owner[:, 2:].sum(axis=1) > 0
        self.steps_left = int(round(float(OBS.get(obs, "steps_left")[0]) * STEPS_SCALE))
        self.move_train = int(np.argmax(OBS.get(obs, "move_train"))) if OBS.get(obs, "move_train").any() else -1
        self.dynamite = OBS.get(obs, "dynamite") > 0
        desperados = OBS.get(obs, "desperados")
        self.rival_desperados = desperados[1:].sum(axis=0)  # (314,)
        self.sheriffs = OBS.get(obs, "sheriffs").sum(axis=0) > 0
        trains = OBS.get(obs, "own_trains")
        self.t_exists = trains[:, TRAIN_EXISTS] > 0
        self.t_pos = np.argmax(trains[:, OWN_TRAIN_POSITION:OWN_TRAIN_POSITION + N_SPACES], axis=1)
        cargo = trains[:, OWN_TRAIN_CARGO:OWN_TRAIN_CARGO + N_CARGO * CARGO_COLUMNS].reshape(
            MAX_TRAINS, N_CARGO, CARGO_COLUMNS)
        slot_exists = cargo.any(axis=2)
        # cargo code per slot: 0..8 good, 9..11 passenger zone, -1 empty, -2 no slot
        code = np.argmax(cargo, axis=2)
        self.cargo = np.where(~slot_exists, -2, np.where(code == CARGO_EMPTY_COLUMN, -1, code))
        self.cargo[~self.t_exists] = -2
        others = OBS.get(obs, "other_trains")  # (4, 6, 36)
        self.o_exists = others[:, :, TRAIN_EXISTS] > 0
        self.o_pos = np.rint(others[:, :, OTHER_TRAIN_POSITION] * SPACE_SCALE).astype(int)
        o_cargo = others[:, :, OTHER_TRAIN_CARGO:OTHER_TRAIN_CARGO + N_CARGO * CARGO_COLUMNS].reshape(
            MAX_PLAYERS - 1, MAX_TRAINS, N_CARGO, CARGO_COLUMNS)
        self.o_tokens = (o_cargo[:, :, :, :CARGO_EMPTY_COLUMN].sum(axis=3) > 0).sum(axis=2)
        self.cards = np.flatnonzero(OBS.get(obs, "own_cards") > 0)
        self.card_trains = OBS.get(obs, "own_card_trains")  # (6, 6)
        self.drawn = OBS.get(obs, "drawn_card")
        key = (self.own_city.tobytes(), self.rival_city.tobytes())
        cached = None if price_cache is None else price_cache.get(key)
        if cached is None:
            self._prices()
            cached = (self.fee, self.sale, self.fare, self.best_good, self.source, self.token_city_value)
            for table in cached:
                table.setflags(write=False)  # shared between views: never written
            if price_cache is not None:
                price_cache[key] = cached
        self.fee, self.sale, self.fare, self.best_good, self.source, self.token_city_value = cached

    # ---- values of the board --------------------------------------------------------------
    def _prices(self) -> None:
        """Sale values per (city, good) and passenger fares per (city, zone) for this seat; SOURCE per city."""
        bonus = np.where(self.own_city, OWNER_BONUS, 0.0)
        fee = np.where(self.rival_city, FEE_SMALL, 0.0)
        self.fee = fee
        self.sale = np.where(BUY_PRICE > 0, BUY_PRICE + bonus[:, None] - fee[:, None], -UNREACHABLE)  # (26, 9)
        self.fare = FARE - fee[:, None]  # (26, 3)
        # best haul out of each source city c: buy g at c, deliver at d
        haul = self.sale[None, :, :] - STEP_COST * CITY_DIST[:, :, None]  # (c, d, g)
        best_good = np.where(SELL_PRICE > 0, haul.max(axis=1) - SELL_PRICE, -UNREACHABLE)  # (c, g)
        passenger = (self.fare[None, :, :] - STEP_COST * CITY_DIST[:, :, None])  # (c, d, z)
        best_pass = passenger.max(axis=1)[np.arange(N_CITIES), CITY_ZONE]  # (c,)
        self.best_good = best_good
        self.source = np.maximum(np.maximum(best_good.max(axis=1), best_pass), 0.0)  # (26,)
        # value of delivering a token in d: price + the empty slot then standing in d
        self.token_city_value = np.concatenate([self.sale, self.fare], axis=1) + self.source[:, None]  # (26, 12)

    def city_dist_from_edge(self, u: int, v: int) -> np.ndarray:
        """Steps to each city for a piece on v that came from u (one step already taken)."""
        return EDGE_CITY_DIST[EDGE_ID[u, v]]

    def city_dist_from(self, pos: int, came_from: int) -> np.ndarray:
        """Steps to each city for a train at pos with the given came_from (-1 = free)."""
        if came_from >= 0:
            return EDGE_CITY_DIST[EDGE_ID[came_from, pos]]
        out = np.full(N_CITIES, UNREACHABLE)
        for w in NEIGHBOURS[pos]:
            if w >= 0:
                out = np.minimum(out, 1.0 + EDGE_CITY_DIST[EDGE_ID[pos, w]])
        if pos < N_CITIES:
            out[pos] = 0.0
        return out

    def slot_values(self, dist: np.ndarray, steps: int, codes) -> float:
        """Summed potentials of slot contents for a train ``dist`` steps from each city with ``steps`` left."""
        cost = STEP_COST * np.maximum(dist - steps, 0.0) + IN_MOVE_STEP_COST * dist  # (26,)
        total = 0.0
        for code in codes:
            if code == -2:
                continue
            if code == -1:
                total += float(np.max(self.source - cost))
            else:
                total += float(np.max(self.token_city_value[:, code] - cost))
        return total

    def stop_value(self, city: int, codes) -> float:
        """Value of ending the move in ``city``: trade here, then the potentials from a free start."""
        dist = self.city_dist_from(city, -1)
        total = -self.fee[city]
        for code in codes:
            if code == -2:
                continue
            keep = self.slot_values(dist, 0, [code])
            if code == -1:
                total += max(self.source[city], keep)
            else:
                total += max(self.token_city_value[city, code], keep)
        return total

    # ---- scoring ------------------------------------------------------------------------------
    def score(self, legal: np.ndarray) -> np.ndarray:
        """A score per legal action; the highest is played."""
        d = self.decision
        handler = {
            DEC_DRAFT_CITY: self._draft, DEC_PLACE_DESPERADO: self._place_desperado, DEC_PRE_ROLL: self._pre_roll,
            DEC_SELECT_TRAIN: self._select_train, DEC_TRAIN_STEP: self._train_step, DEC_ARRIVAL: self._arrival,
            DEC_SHERIFF_PIECE: self._sheriff_piece, DEC_SHERIFF_SPACE: self._sheriff_space,
            DEC_TELEGRAM_DRAWN: self._telegram_drawn, DEC_CARD_TRAIN: self._card_train,
            DEC_CARD_DYNAMITE_PLACE: self._dynamite_place, DEC_CARD_DYNAMITE_REMOVE: self._dynamite_remove,
            DEC_CARD_CITY: self._card_city, DEC_CARD_DESPERADO: self._card_desperado,
            DEC_CARD_HIDEOUT_CITY: self._station_for_desperado, DEC_DESPERADO_STEP: self._desperado_step,
            DEC_REHIRE_TARGET: self._station_for_desperado,
        }.get(d)
        scores = np.zeros(len(legal))
        if handler is not None:
            for i, a in enumerate(legal):
                scores[i] = handler(int(a))
        return scores

    def _draft(self, a: int) -> float:
        c = a - A_SPACE
        if not 0 <= c < N_CITIES:
            return -BIG
        return self.source[c] + 0.1 * BUY_PRICE[c].sum()

    def rival_places(self) -> np.ndarray:
        """Spaces of rival trains (and rival stations when no train is on the board yet)."""
        pos = self.o_pos[self.o_exists]
        if len(pos) == 0:
            pos = np.flatnonzero(self.rival_city)
        return pos

    def _place_desperado(self, a: int) -> float:
        c = a - A_SPACE
        places = self.rival_places()
        if len(places) == 0 or not 0 <= c < N_SPACES:
            return 0.0
        return -float(DISTANCE[c, places].min())

    # ---- pre-roll -----------------------------------------------------------------------------
    def vp_after(self, cost: float, points: int) -> int:
        """Victory points after paying ``cost`` for ``points`` of assets (§14.1)."""
        cash_vp = lambda cash: VP_PER_CASH_UNIT * int(max(cash, 0) // CASH_UNIT)  # noqa: E731
        return self.vp - cash_vp(self.cash) + cash_vp(self.cash - cost) + points

    def purchase_ok(self, cost: float, points: int, reserve: float) -> bool:
        """Affordable with the reserve, and never lowering the points near the target."""
        if self.cash - cost < reserve:
            return self.vp_after(cost, points) >= self.target  # a winning purchase is always fine
        return self.vp_after(cost, points) >= self.vp or self.vp < self.target - NEAR_TARGET

    def buy_value(self, t: int, code: int, follow: bool = True) -> float:
        """Potential of putting ``code`` (good or passenger code) into train t, net of its price;
        without ``follow``, the haul's own profit (the empty slot at the destination not counted)."""
        pos = int(self.t_pos[t])
        if pos >= N_CITIES:
            return -BIG
        dist = self.city_dist_from(pos, -1).copy()
        dist[pos] = UNREACHABLE  # the token is delivered elsewhere
        price = SELL_PRICE[pos, code] if code < N_GOODS else 0.0
        if not follow:
            cost = HAUL_STEP_COST * dist
            return float(np.max(self.token_city_value[:, code] - self.source - cost)) - price
        return self.slot_values(dist, 0, [code]) - price

    def empty_slot_value(self, t: int) -> float:
        pos = int(self.t_pos[t])
        dist = self.city_dist_from(pos, -1)
        others = dist.copy()
        if pos < N_CITIES:
            others[pos] = UNREACHABLE
        return self.slot_values(others, 0, [-1])

    def loaded(self, t: int) -> bool:
        return bool((self.cargo[t] >= 0).any())

    def rival_desperados_near(self, pos: int, radius: int = 12) -> bool:
        spaces = np.flatnonzero(self.rival_desperados > 0)
        return len(spaces) > 0 and bool((DISTANCE[pos, spaces] <= radius).any())

    def card_value(self, k: int, drawn: bool) -> float:
        kind = int(CARD_TYPE[k])
        if kind in INCOME_CARDS:
            return 10 * BIG
        if kind == T_LAND_GRANT:
            return 9 * BIG
        if kind in MOVE_CARDS:
            t = self.move_train if drawn else (int(np.argmax(self.card_trains[k])) if self.card_trains[k].any()
                                                else -1)
            if t >= 0 and self.t_exists[t] and self.loaded(t) and not (self.cargo[t] == -1).any():
                return BIG
            if t >= 0 and self.t_exists[t] and self.loaded(t) and int(self.t_pos[t]) >= N_CITIES:
                return BIG
            return -1.0
        if drawn:
            return -1.0
        if kind == T_ARMED_GUARDS:
            for t in np.flatnonzero(self.t_exists):
                if self.loaded(t) and self.rival_desperados_near(int(self.t_pos[t])):
                    return 2 * BIG
            return -1.0
        if kind == T_TRACK_CREW:
            spaces = np.flatnonzero(self.dynamite)
            for t in np.flatnonzero(self.t_exists):
                if len(spaces) and (DISTANCE[int(self.t_pos[t]), spaces] <= 12).any():
                    return 2 * BIG
            return -1.0
        if kind == T_DYNAMITE_CRATE:
            return 2 * BIG if (self.o_tokens[self.o_exists] > 0).any() else -1.0
        return -1.0  # Backtrack, Friend of the Law, Hideout: kept

    def _pre_roll(self, a: int) -> float:
        if a == A_END:
            return 0.0
        if A_PLAY_CARD <= a < A_PLAY_CARD + N_CARDS:
            return self.card_value(a - A_PLAY_CARD, drawn=False)
        if A_BUY_STATION <= a < A_BUY_STATION + N_CITIES:
            ok = self.purchase_ok(PRICE_STATION, VP_STATION, CASH_RESERVE)
            return 8 * BIG if ok else -1.0
        if A_BUY_GOOD <= a < A_LOAD_PASSENGERS or A_LOAD_PASSENGERS <= a < A_BUY_STATION:
            if a < A_LOAD_PASSENGERS:
                t, code = divmod(a - A_BUY_GOOD, N_GOODS)
            else:
                t = a - A_LOAD_PASSENGERS
                code = N_GOODS + int(CITY_ZONE[int(self.t_pos[t])])
            value = self.buy_value(t, code)
            direct = self.buy_value(t, code, follow=False)
            if direct < BUY_MARGIN or value < self.empty_slot_value(t) - ELSEWHERE_MARGIN:
                return -1.0
            return 5 * BIG + value
        if A_BUY_SMALL_TRAIN <= a < A_BUY_LARGE_TRAIN:
            c = a - A_BUY_SMALL_TRAIN
            ok = self.purchase_ok(PRICE_SMALL_TRAIN, VP_SMALL_TRAIN, TRAIN_RESERVE)
            return 4 * BIG + self.source[c] if ok else -1.0
        if A_UPGRADE_TRAIN <= a < A_PLAY_CARD:
            ok = self.purchase_ok(PRICE_UPGRADE, VP_LARGE_TRAIN - VP_SMALL_TRAIN, TRAIN_RESERVE)
            return 3 * BIG if ok else -1.0
        if A_BUY_LARGE_TRAIN <= a < A_UPGRADE_TRAIN:
            c = a - A_BUY_LARGE_TRAIN
            ok = self.purchase_ok(PRICE_LARGE_TRAIN, VP_LARGE_TRAIN, TRAIN_RESERVE)
            return 2 * BIG + self.source[c] if ok else -1.0
        return -1.0  # dynamite purchases, extra gangs

    # ---- movement -----------------------------------------------------------------------------
    def _select_train(self, a: int) -> float:
        t = a - A_TRAIN
        if not 0 <= t < MAX_TRAINS:
            return -1.0
        return float((self.cargo[t] >= 0).sum())

    def forced_stretch(self, x: int, n: int, steps: int):
        """Spaces entered from x via n while the path is forced (track), at most ``steps`` spaces."""
        path = [n]
        prev, cur = x, n
        while len(path) < steps and not IS_CITY[cur]:
            nxt = [int(w) for w in NEIGHBOURS[cur] if w >= 0 and w != prev]
            if len(nxt) != 1:
                break
            prev, cur = cur, nxt[0]
            path.append(cur)
        return path

    def _train_step(self, a: int) -> float:
        t = self.move_train
        if t < 0 or not self.t_exists[t]:
            return 0.0
        codes = [int(c) for c in self.cargo[t]]
        x = int(self.t_pos[t])
        r = self.steps_left
        if a == A_STOP:
            return self.stop_value(x, codes)
        if a == A_HOLD:
            return self.stop_value(x, codes) + self.fee[x] - STEP_COST * 8
        n = a - A_SPACE
        if not 0 <= n < N_SPACES:
            return -BIG
        value = self.slot_values(self.city_dist_from_edge(x, n), r - 1, codes)
        tokens = sum(1 for c in codes if c >= 0)
        if tokens:
            path = self.forced_stretch(x, n, r)
            cargo_value = sum(max(float(np.max(self.token_city_value[:, c])) * 0.5, LOOT_PER_TOKEN)
                              for c in codes if c >= 0)
            for s in path:
                if not IS_CITY[s] and self.rival_desperados[s] > 0:
                    p_lose = 1 - (1 - DUEL_LOSS) ** self.rival_desperados[s]
                    value -= p_lose * cargo_value
                    break
        path = self.forced_stretch(x, n, r)
        if len(path) == r and self.dynamite[path[-1]]:
            value -= DYNAMITE_LANDING_COST
        return value

    def _arrival(self, a: int) -> float:
        if a == A_END:
            return 0.0
        t = self.move_train
        j = a - A_UNLOAD_SLOT
        if t < 0 or not 0 <= j < N_CARGO:
            return -1.0
        code = int(self.cargo[t, j])
        x = int(self.t_pos[t])
        if code < 0 or x >= N_CITIES:
            return -1.0
        keep = self.slot_values(self.city_dist_from(x, -1), 0, [code])
        if code < N_GOODS:
            now = BUY_PRICE[x, code] + (OWNER_BONUS if self.own_city[x] else 0.0) + self.source[x]
        else:
            now = FARE[x, code - N_GOODS] + self.source[x]
        return 1.0 if now >= keep else -1.0

    # ---- desperados ---------------------------------------------------------------------------
    def attraction(self) -> np.ndarray:
        """Per space: how many (loaded) rival trains are near; zero on cities (no attack from a city)."""
        out = np.zeros(N_SPACES)
        for r, t in zip(*np.nonzero(self.o_exists)):
            pos = int(self.o_pos[r, t])
            out += (0.5 + self.o_tokens[r, t]) * np.exp(-DISTANCE[pos] / 4.0) * (DISTANCE[pos] > 0)
        out[IS_CITY] = 0.0
        return out

    def _desperado_step(self, a: int) -> float:
        if a == A_REHIRE:
            return -1.0
        n = a - A_SPACE
        if not 0 <= n < N_SPACES:
            return -1.0
        r = max(self.steps_left - 1, 0)
        attract = self.attraction()
        reach = DISTANCE[n] <= r
        reach &= ~self.sheriffs
        if not reach.any():
            return 0.0
        return float(attract[reach].max())

    def _station_for_desperado(self, a: int) -> float:
        c = a - A_SPACE
        if not 0 <= c < N_SPACES:
            return -1.0
        places = self.rival_places()
        return -float(DISTANCE[c, places].min()) if len(places) else 0.0

    def _card_desperado(self, a: int) -> float:
        return 0.0

    # ---- sheriffs and cards ------------------------------------------------------------------------
    def own_train_spaces(self) -> np.ndarray:
        return self.t_pos[self.t_exists].astype(int)

    def _near_own(self, s: int) -> float:
        own = self.own_train_spaces()
        return float(DISTANCE[s, own].min()) if len(own) else UNREACHABLE

    def _sheriff_piece(self, a: int) -> float:
        if a == A_END:
            return 0.0
        return 1.0 if self._dynamite_near_own() is not None else -1.0

    def _dynamite_near_own(self):
        spaces = np.flatnonzero(self.dynamite)
        if not len(spaces):
            return None
        d = np.array([self._near_own(int(s)) for s in spaces])
        return int(spaces[int(np.argmin(d))]) if d.min() <= 8 else None

    def _sheriff_space(self, a: int) -> float:
        if a == A_END:
            return 0.0
        target = self._dynamite_near_own()
        return 1.0 if target is not None and a - A_SPACE == target else -1.0

    def _telegram_drawn(self, a: int) -> float:
        if a == A_END:
            return 0.0
        if A_PLAY_CARD <= a < A_PLAY_CARD + N_CARDS:
            return self.card_value(a - A_PLAY_CARD, drawn=True)
        return -1.0

    def _card_train(self, a: int) -> float:
        t = a - A_TRAIN
        if not 0 <= t < MAX_TRAINS:
            return -1.0
        return float((self.cargo[t] >= 0).sum()) + (0.5 if self.rival_desperados_near(int(self.t_pos[t])) else 0.0)

    def _dynamite(self, a: int, space_value) -> float:
        """A dynamite card's choice: ending scores 0, a space ``space_value(space)``, anything else -1."""
        if a == A_END:
            return 0.0
        s = a - A_SPACE
        return space_value(s) if 0 <= s < N_SPACES else -1.0

    def _dynamite_place(self, a: int) -> float:
        return self._dynamite(a, self._blast_value)

    def _blast_value(self, s: int) -> float:
        """Dynamite on space s: good a few spaces ahead of loaded rival trains, bad near our own."""
        best = -1.0
        for r, t in zip(*np.nonzero(self.o_exists)):
            d = DISTANCE[int(self.o_pos[r, t]), s]
            if 3 <= d <= 9:
                best = max(best, (1.0 + self.o_tokens[r, t]) / d)
        if self._near_own(s) <= 9:
            best -= 1.0
        return best

    def _dynamite_remove(self, a: int) -> float:
        return self._dynamite(a, lambda s: 1.0 if self._near_own(s) <= 12 else -0.5)

    def _card_city(self, a: int) -> float:
        c = a - A_SPACE
        if not 0 <= c < N_CITIES:
            return -1.0
        return self.source[c] - STEP_COST * self._near_own(c)
