"""Rail's event log (``rail.eventlog``, issue 19 item 3): what a step reports is what the step did.

Every game below is played with ``Game.step_with_events`` next to a twin stepped with plain ``step``; after
every step the twin is byte-identical (events change nothing) and ``Story`` replays the events against the
record: dice in 1..6 and build points by §6.3, the builder's BP through the turn (§6.2, §9.1, §7.10), the
steps, owners and timestamps laid (§6.7), every money movement (the balances change by exactly the fees,
bonuses, account payments, travel fees and prizes reported: §6.8, §6.9, §7.7, §7.9, §7.10), race generation
(§7.2, §9.3), candidates (§7.5), entries (§7.6), the race's rounds, train positions and placings (§7.8, §7.9),
the end of the game and the final standing (§7.11, §8). Rail hides nothing but future dice (§10.1), so every
event is seen by every seat.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from tests._events import env_with_events_and_plain, step_beside_twin, step_both
from wildwest_envs import rail_v0
from wildwest_envs.core import chance, eventlog
from wildwest_envs.core.eventlog import DEFAULT_CAPACITY, logged_dtype
from wildwest_envs.core.kernels import NO_DRAWS, NO_MASKS
from wildwest_envs.rail import eventlog as rail_eventlog
from wildwest_envs.rail import game as rail_game
from wildwest_envs.rail import rules
from wildwest_envs.rail.data import (CTX_BUILD, CTX_COOP_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD, CTX_EXT_FUNDING,
                                     CTX_RACE_ENTRY, CTX_START_CHOICE, END_POINTS, EXT_ACCOUNT, EXT_DICE, FUND_ACCOUNT,
                                     FUND_BP, FUND_NONE, OFF_CHOOSE_START, OFF_COOP_ACCEPT,
                                     OFF_COOP_PROPOSE, OFF_END_TURN, OFF_RACE_ENTER,
                                     OPT_DISTINCT_DIRS, RESOLUTION_ROUTE_LENGTH, START_RULES)
from wildwest_envs.rail.eventlog import (END_LAST_RACE, END_RACE_CAP, END_TARGET, EVENT_KINDS, ROLL_COUNTRY,
                                         ROLL_GOAL, ROLL_START, ROLL_TERMINAL, SHARED_SEAT, TURN_BUILD,
                                         TURN_EXTENSION)
from wildwest_envs.rail.maps import (FE_A, FE_B, FE_BUILD, HX_CITY, HX_COL, HX_ROW, M_RACE_TABLE, ST_A, ST_B,
                                     ST_COST, axial_from_offset)
from wildwest_envs.rail.routes import build_graph, edge_pips, find_route, new_work
from wildwest_envs.rail.state import empty_state
from wildwest_envs.registry import get_game

GAME = get_game("rail_v0")
RMAP = GAME.rail_map
MP = RMAP.tables
BASE = RMAP.n_steps
END_TURN = BASE + OFF_END_TURN
BUILD_CONTEXTS = (CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD)
TURN_CONTEXTS = BUILD_CONTEXTS + (CTX_START_CHOICE, CTX_COOP_RESPONSE, CTX_EXT_FUNDING)


# ---- a policy that builds and races ------------------------------------------------------------------------------
def _city_distances() -> np.ndarray:
    """Hex distance from every hex to every city (§0.2)."""
    axial = np.array([axial_from_offset(int(MP.hexes[h, HX_COL]), int(MP.hexes[h, HX_ROW]))
                      for h in range(RMAP.n_hexes)])
    cities = axial[MP.city_hex]
    dq = cities[None, :, 0] - axial[:, None, 0]
    dr = cities[None, :, 1] - axial[:, None, 1]
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


CITY_DISTANCE = _city_distances()


def choose(rng: np.random.Generator, state, row: np.ndarray) -> int:
    """A legal action of a player who builds towards the nearest city outside his network and enters races, so
    that the games have fees, bonuses, co-builds and races with several entrants; random 1 time in 5."""
    legal = np.flatnonzero(row)
    if not len(legal):
        return 0  # a finished game: its action is ignored
    if rng.random() < 0.2:
        return int(rng.choice(legal))
    ctx = int(state["context"])
    proposals = legal[(legal > BASE + OFF_COOP_PROPOSE) & (legal < BASE + OFF_COOP_ACCEPT)]
    if len(proposals) and rng.random() < 0.5:
        return int(rng.choice(proposals))  # §9.1: before the first step of a build turn
    if ctx in BUILD_CONTEXTS:
        steps = legal[legal < BASE]
        if len(steps):
            net = state["net"]
            p = np.int64(state["builder"])
            outside = ((net[MP.city_hex] >> p) & 1) == 0
            if outside.any():
                a, b = MP.steps[steps, ST_A], MP.steps[steps, ST_B]
                new = np.where((net[a] >> p) & 1 == 1, b, a)  # the end that grows the network
                score = CITY_DISTANCE[new][:, outside].min(axis=1) + rng.random(len(steps))
                return int(steps[np.argmin(score)])
    if ctx == CTX_RACE_ENTRY:
        enter = legal[(legal >= BASE + OFF_RACE_ENTER) & (legal <= BASE + OFF_COOP_PROPOSE)]
        if len(enter):
            return int(rng.choice(enter))
    if ctx == CTX_COOP_RESPONSE:
        return int(BASE + OFF_COOP_ACCEPT)
    others = legal[legal != END_TURN]
    return int(rng.choice(others if len(others) else legal))


# ---- the replay of the events ------------------------------------------------------------------------------------
class Story:
    """What one game's events say, replayed step by step and checked against its record (module docstring).

    Starts from a record at a decision (``Game.init`` reports no events); ``tell(before, events, after)`` takes
    one step's events with the record before and after it. ``seen`` counts the kinds told."""

    def __init__(self, state):
        self.n = n = int(state["num_players"])
        self.opt = {k: int(state[k]) for k in ("build_dice", "shared_roll", "bonus", "fee_cap", "n_prizes", "d_min",
                                               "resolution", "ext_mode", "end_mode", "target", "races_total",
                                               "max_races", "international", "intl_every", "build_rounds")}
        self.prizes = [int(x) for x in state["prizes"][:self.opt["n_prizes"]]]
        self.balance = state["balance"][:n].astype(np.int64)
        self.owners = state["owners"].astype(np.int64)
        self.own_t = state["own_t"].astype(np.int64)
        self.t = int(state["t"])
        self.ferry_owner = state["ferry_owner"].astype(np.int64)
        self.connected = state["connected"].astype(np.int64)
        self.start_city = state["start_city"].astype(np.int64)
        self.round = int(state["round"])
        self.race_k = int(state["race_k"])
        self.shared_bp = int(state["shared_bp"])
        self.pending_first = None  # the first seat of a round just begun (§6.1)
        self.turn = None  # the turn being built: seat, funding, bp, own roll, partner
        if state["context"] in TURN_CONTEXTS:
            self.turn = dict(seat=int(state["builder"]), funding=int(state["funding"]), bp=int(state["bp_left"]),
                             own=int(state["own_bp"]), partner=-1)
        self.cands = {}  # (seat, slot) -> (pips, steps) of the current race
        self.entries = []  # (seat, slot) in entry order
        self.done = False
        self.seen = Counter()

    # one step
    def tell(self, before, events, after) -> None:
        assert all(e.seen_by == tuple(range(self.n)) for e in events), "§10.1: every event is public"
        self.seen.update(e.kind for e in events)
        start_balance = self.balance.copy()
        self.last_roll = None  # (seat, bp) of the latest build_roll, for the turn_begins or coop_accepted after it
        self.last_build = None  # the step or ferry just built: its ends and cost
        self.race = None  # the race run in this step
        self.gen = {}  # the latest accepted generation rolls
        for e in events:
            getattr(self, "_" + e.kind)(before, after, **e.data)
        moved = after["balance"][:self.n].astype(np.int64) - before["balance"][:self.n]
        assert (self.balance - start_balance == moved).all(), "money events do not add up to the balance change"
        self._compare(after)

    def _compare(self, s) -> None:
        """The record agrees with everything the events told so far."""
        assert (self.balance == s["balance"][:self.n]).all()
        assert (self.owners == s["owners"]).all() and (self.own_t == s["own_t"]).all() and self.t == s["t"]
        assert (self.ferry_owner == s["ferry_owner"]).all()
        assert (self.connected == s["connected"]).all() and (self.start_city == s["start_city"]).all()
        assert self.race_k == s["race_k"] and self.done == bool(s["done"])
        if s["context"] in TURN_CONTEXTS:
            t = self.turn
            assert t is not None and t["seat"] == s["builder"] and t["bp"] == s["bp_left"]
            assert t["funding"] == s["funding"]
            if s["context"] == CTX_COOP_BUILD:
                assert t["partner"] == s["partner"]
        else:
            assert self.turn is None
        if s["context"] == CTX_RACE_ENTRY:
            assert len(self.cands) == s["cand_valid"].sum()
            for (p, k), (pips, steps) in self.cands.items():
                assert s["cand_valid"][p, k] and s["cand_pips"][p, k] == pips and s["cand_steps"][p, k] == steps
            assert [p for p, _ in self.entries] == [(s["race_first"] + i) % self.n for i in range(len(self.entries))]

    # §5, §6.1-§6.4, §6.10: the build phase
    def _start_roll(self, before, after, seat, red, white):
        raise AssertionError("the start roll-off happens in init, which reports nothing")

    def _start_player(self, before, after, seat):
        raise AssertionError("the start player is drawn in init, which reports nothing")

    def _round_begins(self, before, after, round, first):
        assert round == self.round + 1 and first == (int(before["start_player"]) + round) % self.n  # §6.1
        self.round = round
        self.pending_first = first

    def _build_roll(self, before, after, seat, red, white, bp):
        assert 1 <= white <= 6
        if self.opt["build_dice"] == 1:
            assert red == 0 and bp == white  # §6.3: one die
        else:
            assert 1 <= red <= 6 and bp == red + white  # §6.3: both dice
        if seat == SHARED_SEAT:
            assert self.opt["shared_roll"]
            self.shared_bp = bp
        else:
            self.last_roll = (seat, bp)
            if self.turn is not None and self.turn["seat"] == seat and self.turn["funding"] == FUND_BP:
                self.turn["bp"] = self.turn["own"] = bp  # FUND_DICE in a dice_or_account window (§7.10)

    def _turn_begins(self, before, after, seat, phase, funding, bp):
        assert self.turn is None
        if phase == TURN_BUILD:
            assert funding == FUND_BP and not self.race
            assert bp == (self.shared_bp if self.opt["shared_roll"] else self.last_roll[1])  # §6.3
            assert self.opt["shared_roll"] or self.last_roll[0] == seat
            if self.pending_first is not None:
                assert seat == self.pending_first
                self.pending_first = None
        else:
            assert phase == TURN_EXTENSION
            mode = self.opt["ext_mode"]
            if mode == EXT_ACCOUNT:
                assert (funding, bp) == (FUND_ACCOUNT, 0)
            elif mode == EXT_DICE:
                assert funding == FUND_BP and self.last_roll == (seat, bp)  # an own roll, never shared (G49)
            else:
                assert (funding, bp) == (FUND_NONE, 0)
        self.turn = dict(seat=seat, funding=funding, bp=bp, own=bp, partner=-1)

    def _start_chosen(self, before, after, seat, start, city):
        assert self.turn["seat"] == seat and self.start_city[seat] < 0 and MP.start_cities[start] == city  # §6.4
        self.start_city[seat] = start
        self.connected[city] = 1

    def _coop_proposed(self, before, after, seat, partner):
        assert self.turn["seat"] == seat and partner != seat  # §9.1 item 2
        self.turn["proposed"] = partner

    def _coop_accepted(self, before, after, seat, partner, bp):
        assert self.turn["seat"] == seat and self.turn.pop("proposed") == partner
        bp_q = self.shared_bp if self.opt["shared_roll"] else self.last_roll[1]
        assert self.opt["shared_roll"] or self.last_roll[0] == partner  # the partner rolls (§9.1 item 4)
        assert bp == 3 * (self.turn["own"] + bp_q) // 4  # pooled BP
        self.turn.update(bp=bp, partner=partner)

    def _coop_declined(self, before, after, seat, partner):
        assert self.turn["seat"] == seat and self.turn.pop("proposed") == partner  # §9.1 item 3

    def _funding_chosen(self, before, after, seat, funding):
        assert self.turn["seat"] == seat and self.turn["funding"] == FUND_NONE and funding in (FUND_BP, FUND_ACCOUNT)
        self.turn["funding"] = funding  # FUND_DICE rolls at once: the build_roll that follows (§7.10)

    def _built(self, seat, cost, ends):
        t = self.turn
        assert t["seat"] == seat
        self.t += 1
        self.last_build = (ends, cost)
        if t["funding"] == FUND_BP:
            assert cost <= t["bp"]  # §6.5 item 6
            t["bp"] -= cost

    def _step_built(self, before, after, seat, step, cost, partner):
        assert cost == MP.steps[step, ST_COST] and partner == self.turn["partner"]  # §6.6, §9.1 item 5
        for o in (seat, partner) if partner >= 0 else (seat,):
            assert not self.owners[step] >> o & 1  # §6.5 item 5
            self.owners[step] |= 1 << o
        self._built(seat, cost, (MP.steps[step, ST_A], MP.steps[step, ST_B]))
        for o in (seat, partner) if partner >= 0 else (seat,):
            self.own_t[step, o] = self.t  # §6.7 item 1: one shared timestamp (§9.1 item 6)

    def _ferry_built(self, before, after, seat, ferry, cost):
        assert self.ferry_owner[ferry] < 0 and cost == MP.ferries[ferry, FE_BUILD]  # §9.5
        self.ferry_owner[ferry] = seat
        self._built(seat, cost, (MP.ferries[ferry, FE_A], MP.ferries[ferry, FE_B]))

    def _build_fee(self, before, after, payer, payee, amount, hex):
        ends, _ = self.last_build
        assert amount > 0 and payer != payee
        if hex >= 0:
            assert hex in ends and MP.hexes[hex, HX_CITY] < 0  # per non-city end (§6.8)
        else:
            assert self.turn["partner"] >= 0 and payee not in (self.turn["seat"], self.turn["partner"])  # §9.1 item 7
        self.balance[payer] -= amount
        self.balance[payee] += amount

    def _connection_bonus(self, before, after, seat, city, amount):
        ends, _ = self.last_build
        t, bonus = self.turn, self.opt["bonus"]
        if t["partner"] >= 0 and seat == t["partner"]:  # §9.1 item 8: the partner's half, after the proposer's
            assert city == self.bonus_city and amount == bonus // 2
        else:  # §6.9: the first line into the city
            assert seat == t["seat"] and MP.city_hex[city] in ends and not self.connected[city]
            assert amount == (bonus if t["partner"] < 0 else bonus - bonus // 2)
            self.connected[city] = 1
            self.bonus_city = city
        self.balance[seat] += amount

    def _account_paid(self, before, after, seat, amount):
        _, cost = self.last_build
        assert self.turn["funding"] == FUND_ACCOUNT and seat == self.turn["seat"] and amount == cost  # §7.10
        self.balance[seat] -= amount

    def _turn_ends(self, before, after, seat, unused_bp):
        assert self.turn["seat"] == seat and unused_bp == self.turn["bp"]  # unused BP are lost (§6.2)
        self.turn = None

    def _operation_begins(self, before, after, rounds, early):
        self.round = rounds
        assert rounds == after["round"] and rounds <= self.opt["build_rounds"]  # §6.10
        assert early == (rounds < self.opt["build_rounds"])

    # §7: races
    def _generation_roll(self, before, after, what, red, white, result):
        if what in (ROLL_START, ROLL_GOAL):  # §7.2: red tens, white units; the accepted roll is the last one
            assert 1 <= red <= 6 and 1 <= white <= 6 and result == MP.city_by_number[10 * red + white]
            self.gen[what] = result
        elif what == ROLL_COUNTRY:  # §9.3: red until its face is in the red table, then white
            assert 1 <= red <= 6 and white == 0 and result == MP.intl[0, red] and ROLL_TERMINAL not in self.gen
            self.gen[what] = result
        else:
            assert what == ROLL_TERMINAL and red == 0 and 1 <= white <= 6 and result == MP.intl[1, white]
            self.gen[what] = result

    def _race_generated(self, before, after, race, start, goal, country):
        assert race == self.race_k and self.turn is None
        if self.opt["international"] and MP.meta[M_RACE_TABLE] and (race + 1) % self.opt["intl_every"] == 0:
            assert (start, goal, country) == (self.gen[ROLL_TERMINAL], -1, self.gen[ROLL_COUNTRY])  # §9.3
        else:
            assert (start, goal, country) == (self.gen[ROLL_START], self.gen[ROLL_GOAL], -1)
            assert start != goal and MP.city_dist[start, goal] >= self.opt["d_min"]  # §7.2
        self.gen = {}
        self.cands = {}
        self.entries = []

    def _candidate(self, before, after, seat, slot, pips, steps):
        assert (seat, slot) not in self.cands and 0 <= slot < 3 and 0 < steps <= pips  # §7.4, §7.5
        self.cands[(seat, slot)] = (pips, steps)

    def _race_entry(self, before, after, seat, slot):
        assert slot == -1 or (seat, slot) in self.cands  # §7.6: enter with a candidate
        self.entries.append((seat, slot))
        if len(self.entries) == self.n:
            entrants = [(p, k) for p, k in self.entries if k >= 0]
            self.race = dict(entrants=entrants, need=_route_pips(before, entrants), rounds=0, pos={},
                             arrived={}, draws=[], placed={}, fees=[])
            for p, k in entrants:
                assert (sum(self.race["need"][p]), len(self.race["need"][p])) == self.cands[(p, k)]
            self.race_fees_expected = self._expected_fees(before)

    def _expected_fees(self, before) -> list:
        """§7.7: the raw fees of the declared routes (shown with the candidates), netted per pair, then capped."""
        raw = np.zeros((self.n, self.n), np.int64)
        for p, k in self.race["entrants"]:
            raw[p] = before["cand_fee"][p, k, :self.n]
        out = []
        for p in range(self.n):
            for q in range(p + 1, self.n):
                net = raw[p, q] - raw[q, p]
                x = min(self.opt["fee_cap"], abs(net))
                if x > 0:
                    out.append((p, q, x, abs(net)) if net > 0 else (q, p, x, abs(net)))
        return out

    def _travel_fee(self, before, after, payer, payee, amount, owed):
        assert self.race["rounds"] == 0 and not self.race["placed"]  # settled before the dice (§7.7 item 4)
        self.race["fees"].append((payer, payee, amount, owed))
        self.balance[payer] -= amount
        self.balance[payee] += amount

    def _race_round(self, before, after, round):
        race = self.race
        assert round == race["rounds"] + 1 and len(race["entrants"]) >= 2  # one entrant rolls nothing (§7.8)
        assert len(race["arrived"]) < self.paid_places()  # the race ends after the round P have arrived
        race["rounds"] = round
        race["to_roll"] = [p for p, _ in race["entrants"] if p not in race["arrived"]]  # in entry order

    def paid_places(self) -> int:
        return min(self.opt["n_prizes"], len(self.race["entrants"]))

    def _train_moved(self, before, after, seat, red, white, position):
        race = self.race
        assert race["to_roll"] and race["to_roll"].pop(0) == seat  # every running train, in entry order
        assert 1 <= red <= 6 and 1 <= white <= 6
        need, pos, pips = race["need"][seat], race["pos"].get(seat, 0), red + white
        while pos < len(need) and need[pos] <= pips:  # §7.8: steps while the pips pay them; the rest is lost
            pips -= need[pos]
            pos += 1
        assert position == pos
        race["pos"][seat] = pos
        race["left"] = pips

    def _train_arrived(self, before, after, seat, round, leftover):
        race = self.race
        assert race["pos"][seat] == len(race["need"][seat]) and seat not in race["arrived"]
        assert round == race["rounds"] and leftover == race["left"]
        race["arrived"][seat] = (0, round, -leftover)  # §7.8: earlier round first, then more leftover pips

    def _tie_draw(self, before, after, position, seat, among, drawn):
        assert 0 <= drawn < among
        self.race["draws"].append((position, seat, among, drawn))

    def _race_placed(self, before, after, seat, place, prize):
        race = self.race
        if race is None:  # nobody entered: no placings (§7.9)
            raise AssertionError("a placing without entrants")
        if not race["placed"]:
            self._check_running(race)
            race["expected"] = self._placing(race, before)
        assert race["expected"][place] == seat and seat not in race["placed"]
        paid = place < self.paid_places()
        assert prize == (self.prizes[place] if paid else 0)  # §7.9
        race["placed"][seat] = place
        self.balance[seat] += prize

    def _check_running(self, race):
        assert race["fees"] == self.race_fees_expected  # §7.7
        m = len(race["entrants"])
        dice = m >= 2 and self.opt["resolution"] != RESOLUTION_ROUTE_LENGTH
        assert (race["rounds"] > 0) == dice
        if dice:  # §7.8: the race ends with the first round after which P entrants have arrived
            assert not race["to_roll"] and len(race["arrived"]) >= self.paid_places()
            assert all(p in race["arrived"] or race["pos"][p] < len(race["need"][p]) for p, _ in race["entrants"])

    def _placing(self, race, before):
        """§7.8: the placing keys, the ties in entry order and broken by the reported draws (each checked)."""
        entrants = [p for p, _ in race["entrants"]]
        slot = dict(race["entrants"])
        if self.opt["resolution"] == RESOLUTION_ROUTE_LENGTH:
            key = {p: (self.cands[(p, slot[p])][0],) for p in entrants}
        else:
            # §12.8: the trains still running come after every arrival, by the pips they still need
            key = {p: race["arrived"].get(p, (1, sum(race["need"][p][race["pos"].get(p, 0):]), 0)) for p in entrants}
        ranking = sorted(entrants, key=lambda p: key[p])  # stable: entry order within a key
        out, i, draws = [], 0, list(race["draws"])
        places = self.paid_places()
        while i < len(ranking):
            group = [p for p in ranking[i:] if key[p] == key[ranking[i]]]
            if i < places:
                while len(group) > 1:
                    position, seat, among, drawn = draws.pop(0)
                    assert (position, among) == (len(out), len(group)) and group[drawn] == seat
                    out.append(group.pop(drawn))
            out += group
            i = len(out)
        assert not draws
        return out

    def _race_ends(self, before, after, race, entrants, rounds):
        assert race == self.race_k and rounds == (self.race["rounds"] if self.race else 0)
        if self.race is not None:
            assert entrants == len(self.race["entrants"]) == len(self.race["placed"])
            for p in range(self.n):
                assert after["last_place"][p] == self.race["placed"].get(p, -1)
            assert rounds == after["last_rounds"]
        else:
            assert entrants == 0
        self.race_k += 1
        self.cands = {}

    def _window_begins(self, before, after, race):
        assert race == self.race_k - 1 and self.turn is None  # §7.1 item 8

    def _game_over(self, before, after, reason, races):
        assert races == self.race_k == after["race_k"]
        target = self.opt["end_mode"] == END_POINTS and self.balance.max() >= self.opt["target"]
        if reason == END_TARGET:
            assert target  # §7.11
        elif reason == END_LAST_RACE:
            assert self.opt["end_mode"] != END_POINTS and races == self.opt["races_total"]
        else:
            assert reason == END_RACE_CAP and not target and races == self.opt["max_races"]  # G28
        self.done = True
        self.turn = None
        self.standing = []

    def _final_standing(self, before, after, seat, balance, place):
        assert self.done and seat == len(self.standing) and balance == self.balance[seat]
        assert place == (self.balance > balance).sum()  # §8: tied seats share a place
        self.standing.append((balance, place))


def _route_pips(state, entrants) -> dict:
    """The pips of each step of every entrant's declared route, in order (§7.4, §7.5), by the race's own route
    search on the record before the race (the rail graph does not change during a race, §12.1)."""
    work = new_work(MP)
    build_graph(state, MP, work)
    need = {}
    for p, k in entrants:
        length = find_route(state, MP, work, p, k)
        hexes, edges = work[4], work[5]
        need[p] = [int(edge_pips(MP, edges[j], hexes[j])) for j in range(length - 1)]
    return need


# ---- play ---------------------------------------------------------------------------------------------------------
def play(seed: int, games: int = 4, max_steps: int = 6000, **options) -> list[Story]:
    """Seeded games to their end with events, next to plain-stepped twins; every step told to the stories."""
    states = GAME.init_batch(games, seed=seed, **options)
    twin = states.copy()
    stories = [Story(states[b]) for b in range(games)]
    rng = np.random.default_rng(seed)
    for _ in range(max_steps):
        if GAME.finished(states).all():
            break
        masks = GAME.legal_mask(states)
        actions = np.array([choose(rng, states[b], masks[b]) for b in range(games)])
        before, events = step_beside_twin(GAME, states, twin, actions)
        for b in range(games):
            if not GAME.finished(before[b:b + 1])[0]:
                stories[b].tell(before[b], events[b], states[b])
            else:
                assert events[b] == []
    assert states["done"].all(), "a game did not end"
    for b, story in enumerate(stories):
        assert story.seen["game_over"] == 1 and len(story.standing) == story.n
        scores = GAME.scores(states[b:b + 1])[0][:story.n]
        assert [x for x, _ in story.standing] == scores.tolist()
    return stories


def _total(stories) -> Counter:
    return sum((s.seen for s in stories), Counter())


# ---- the tests ----------------------------------------------------------------------------------------------------
def test_the_docstring_table_is_the_kind_table():
    """The table of ``rail.eventlog``'s docstring (code, name, arguments, meaning, §) is ``EVENT_KINDS``."""
    rows = re.findall(r"^\| (\d+) \| ``(\w+)`` \| ([^|]*) \| ([^|]*) \| all \| ([^|]*) \|$", rail_eventlog.__doc__,
                      re.M)
    table = {int(code): (name, tuple(a.strip() for a in args.split(",") if a.strip()), doc.strip(), sec.strip())
             for code, name, args, doc, sec in rows}
    assert table == {k.code: (k.name, k.args, k.doc, k.section) for k in EVENT_KINDS.by_code.values()}
    assert GAME.event_kinds is EVENT_KINDS and "events" not in GAME.state_dtype.names  # play has no buffer


def test_a_logged_record_keeps_the_game_fields_in_order():
    """The buffer goes in front; the game's fields keep their order and relative offsets, so that a kernel's
    reads and prefetches (``rules.prefetch_header``) touch the same lines of both records."""
    plain, logged = GAME.state_dtype, logged_dtype(GAME.state_dtype)
    assert logged.names[:3] == ("n_events", "events_from", "events") and logged.names[3:] == plain.names
    shift = logged.fields["rng"][1]
    assert all(logged.fields[name][1] - shift == plain.fields[name][1] for name in plain.names)
    assert logged.itemsize - shift == plain.itemsize


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_events_tell_what_happened_at_every_player_count(n):
    """Whole games of every player count: twins byte-identical, every event replayed against the record (module
    docstring), games ended with game_over and the final standing of §8."""
    seen = _total(play(n, games=3, num_players=n))
    for kind in ("build_roll", "step_built", "build_fee", "connection_bonus", "account_paid", "candidate",
                 "travel_fee", "race_round", "train_moved", "train_arrived", "race_placed", "final_standing"):
        assert seen[kind] > 0, kind


VARIANTS = [
    dict(num_players=4, expert=True),  # co-building, international races, the flat fee (§9.1-§9.4)
    dict(num_players=3, build_dice=1, shared_build_roll=True, coop_building=True),  # §6.3, §9.1 item 4
    dict(num_players=4, extension_mode="dice_or_account", extension_10pct=True),  # §7.10, §9.6
    dict(num_players=3, extension_mode="dice", race_resolution="route_length", prizes=[30, 20, 10]),  # G27, G49
    dict(num_players=6, end_mode="races", races_total=12, prizes=[9, 5, 3, 2, 1, 1], auto_forced=False),  # §7.11
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_events_tell_what_happened_under_the_variants(options):
    """The same replay under the rule variants (§6.3, §7.8, §7.10, §7.11, §9)."""
    stories = play(7, games=3, **options)
    seen = _total(stories)
    if options.get("coop_building") or options.get("expert"):
        assert seen["coop_proposed"] and seen["coop_accepted"]
    if "extension_mode" in options:
        assert seen["build_roll"] > sum(s.opt["build_rounds"] * s.n for s in stories)  # extension rolls too
    if options.get("extension_mode") == "dice_or_account":
        assert seen["funding_chosen"]
    if options.get("race_resolution") == "route_length":
        assert not seen["race_round"] and seen["race_placed"]


def _logged_init(outcomes, seed: int = 3, **options) -> tuple[np.ndarray, np.ndarray]:
    """``Game.init`` by hand on a logged record and on a plain one, with ``outcomes`` scripted before ``START``
    (the roll-off of §5 and the first build roll): both records."""
    vector = GAME.options.kernel_vector(GAME.parse_options(**options))
    vector[OPT_DISTINCT_DIRS] = START_RULES[RMAP.start_rule]
    values = chance.encode_script(GAME.chance_kinds, outcomes, GAME.name)
    records, plain = [], empty_state(RMAP)
    for empty in (eventlog.to_logged(plain, DEFAULT_CAPACITY), plain):
        states = np.zeros(1, empty.dtype)
        rail_game._INIT(states, np.array([seed], np.uint64), vector, empty, RMAP.kernel_tables)
        chance.write_script(states, values, "random", GAME.name)
        rail_game._STEP(states, np.array([rules.START]), NO_MASKS, NO_DRAWS, RMAP.kernel_tables)
        records.append(states)
    return records[0], records[1]


def test_the_start_roll_off_and_the_start_player():
    """§5: every seat rolls both dice in seat order, the tied highest roll again, S is the one highest; then round
    0 begins with S and S's build roll (§6.1, §6.3). ``Game.init`` reports none of it, a logged record all."""
    dice = [3, 4, 6, 5, 5, 6, 1, 1, 2, 2, 4, 3]  # 7, 11, 11; seats 1 and 2 again: 2, 4; S = 2 rolls 4 + 3
    logged, plain = _logged_init([("die", d) for d in dice], num_players=3)
    assert all(logged[name].tobytes() == plain[name].tobytes() for name in plain.dtype.names)  # nothing changed
    events = EVENT_KINDS.decode(logged["events"][0, :logged["n_events"][0]], 3)
    rolls = [(e.data["seat"], e.data["red"], e.data["white"]) for e in events if e.kind == "start_roll"]
    assert rolls == [(0, 3, 4), (1, 6, 5), (2, 5, 6), (1, 1, 1), (2, 2, 2)]
    after = [(e.kind, e.data) for e in events if e.kind != "start_roll"]
    assert after == [("start_player", {"seat": 2}), ("round_begins", {"round": 0, "first": 2}),
                     ("build_roll", {"seat": 2, "red": 4, "white": 3, "bp": 7}),
                     ("turn_begins", {"seat": 2, "phase": TURN_BUILD, "funding": FUND_BP, "bp": 7})]
    st = plain[0]
    assert st["start_player"] == 2 and st["start_rolls"][:3].tolist() == [7, 2, 4]
    assert (st["builder"], st["bp_left"], st["context"]) == (2, 7, CTX_START_CHOICE)
    assert all(e.seen_by == (0, 1, 2) for e in events)  # §10.1
    given, _ = _logged_init([], num_players=3, start_player=1)  # the option: no roll-off
    kinds = [e.kind for e in EVENT_KINDS.decode(given["events"][0, :given["n_events"][0]], 3)]
    assert kinds[:2] == ["start_player", "round_begins"] and "start_roll" not in kinds


def _events(states, action) -> list:
    return GAME.step_with_events(states, [action])[0]


def test_scripted_build_dice_are_the_build_roll():
    """§6.3, §11.3: scripted dice are the next build roll; its bp is the builder's BP (both dice, or the white
    die alone with build_dice = 1)."""
    for build_dice, dice, red, bp in ((2, [6, 2], 6, 8), (1, [5], 0, 5)):
        states = GAME.init(4, num_players=3, build_dice=build_dice)
        first = int(states["builder"][0])
        _events(states, BASE + OFF_CHOOSE_START)
        GAME.script(states, [("die", d) for d in dice], then="random")
        events = _events(states, END_TURN)
        nxt = (first + 1) % 3
        assert [(e.kind, e.data) for e in events] == [
            ("turn_ends", {"seat": first, "unused_bp": int(events[0].data["unused_bp"])}),
            ("build_roll", {"seat": nxt, "red": red, "white": dice[-1], "bp": bp}),
            ("turn_begins", {"seat": nxt, "phase": TURN_BUILD, "funding": FUND_BP, "bp": bp})]
        assert (states["builder"][0], states["bp_left"][0], states["red"][0], states["white"][0]) == \
            (nxt, bp, red, dice[-1])


def _to_race_entry(seed: int, last: bool) -> np.ndarray:
    """A game played by ``choose`` up to a race entry decision with a candidate, the last of the race (``last``)
    after at least one entrant, or the first."""
    states = GAME.init(seed, num_players=3)
    rng = np.random.default_rng(seed)
    for _ in range(5000):
        st = states[0]
        if st["context"] == CTX_RACE_ENTRY and st["cand_valid"][st["current"]].any():
            if not last and st["turn_pos"] == 0:
                return states
            if last and st["turn_pos"] == 2 and (st["entry"] == 2).any():
                return states
        GAME.step(states, [choose(rng, st, GAME.legal_mask(states)[0])])
    raise AssertionError("no such race")


def test_scripted_race_dice_are_the_trains_dice():
    """§7.8, §11.3: race dice are rolled red then white, per running train in entry order; the scripted ones are
    the train_moved dice, and the race's placings and prizes are the record's (§7.9)."""
    states = _to_race_entry(21, last=True)
    st = states[0]
    me = int(st["current"])
    slot = int(np.flatnonzero(st["cand_valid"][me])[0])
    dice = [1, 2, 2, 1, 3, 1, 1, 1, 2, 2, 1, 3, 2, 1, 1, 1, 1, 2, 2, 1]  # small rolls: a long race
    GAME.script(states, [("die", d) for d in dice], then="random")
    events = _events(states, BASE + OFF_RACE_ENTER + slot)
    moved = [(e.data["red"], e.data["white"]) for e in events if e.kind == "train_moved"]
    assert len(moved) >= 2 and moved[:len(dice) // 2] == list(zip(dice[0::2], dice[1::2]))[:len(moved)]
    placed = {e.data["seat"]: (e.data["place"], e.data["prize"]) for e in events if e.kind == "race_placed"}
    assert placed and all(states["last_place"][0][p] == place for p, (place, _) in placed.items())
    assert sorted(prize for _, prize in placed.values() if prize) == sorted((20, 10)[:min(2, len(placed))])


def test_scripted_generation_rolls_are_the_race():
    """§7.2, G43: the start is rolled red (tens) then white (units), then the goal; a goal too near the start is
    rolled again, and every roll is reported; race_generated names the cities of the record."""
    states = _to_race_entry(22, last=False)
    rng = np.random.default_rng(0)
    while states["context"][0] == CTX_RACE_ENTRY:  # play the race out, to its extension window
        GAME.step(states, [choose(rng, states[0], GAME.legal_mask(states)[0])])
    start = 0
    near = next(g for g in range(len(MP.city_hex)) if 0 < MP.city_dist[start, g] < states["d_min"][0])
    goal = next(g for g in range(len(MP.city_hex)) if MP.city_dist[start, g] >= states["d_min"][0])
    numbers = [int(MP.city_number[c]) for c in (start, near, goal)]
    GAME.script(states, [("die", d) for x in numbers for d in divmod(x, 10)], then="random")
    k = int(states["race_k"][0])  # the next race
    for _ in range(50):  # end the extension turns until the next race is generated
        events = _events(states, END_TURN)
        gen = [e.data for e in events if e.kind == "generation_roll"]
        if gen:
            break
    assert gen == [{"what": what, "red": x // 10, "white": x % 10, "result": c}
                   for what, x, c in zip((ROLL_START, ROLL_GOAL, ROLL_GOAL), numbers, (start, near, goal))]
    race = next(e.data for e in events if e.kind == "race_generated")
    assert race == {"race": k, "start": start, "goal": goal, "country": -1}
    if states["context"][0] == CTX_RACE_ENTRY:  # an entry decision of this race is pending
        assert (states["race_start"][0], states["race_goal"][0]) == (MP.city_hex[start], MP.city_hex[goal])


def test_a_step_of_more_than_256_events_is_run_again_with_room():
    """One END_TURN that runs the whole operation phase (§11.4: nobody owns a step, so every entry and extension
    turn is forced): far more events than the first buffer holds; ``step_with_events`` runs the step again with a
    larger buffer and reports all of them; the game ends at the max_races guard (§7.11, G28)."""
    states = GAME.init(5, num_players=3, build_rounds=1, max_races=60)
    twin = states.copy()
    story = Story(states[0])
    for _ in range(3):
        for action in (BASE + OFF_CHOOSE_START, END_TURN):
            before = states.copy()
            events = _events(states, action)
            GAME.step(twin, [action])
            story.tell(before[0], events, states[0])
    assert states.tobytes() == twin.tobytes() and states["done"][0]
    assert len(events) > 256 and story.seen["race_ends"] == 60 and story.seen["race_entry"] == 180
    assert [e.data for e in events if e.kind == "game_over"] == [{"reason": END_RACE_CAP, "races": 60}]
    assert [e.data["place"] for e in events if e.kind == "final_standing"] == [0, 0, 0]  # §8: all share the win


def test_only_the_game_that_overflows_is_run_again_for_its_later_events(monkeypatch):
    """In a batch, the game whose step writes more events than the buffer holds is run again alone, from the same
    record, for the next rows of events (``events_from``), with a buffer of the same size (no other record type
    to compile); the others are run once. Events, records and next masks equal those of each game stepped on its
    own and of the plain step."""
    long = GAME.init(5, num_players=3, build_rounds=1, max_races=60)
    for action in (BASE + OFF_CHOOSE_START, END_TURN) * 2 + (BASE + OFF_CHOOSE_START,):
        GAME.step(long, [action])  # as in the test above: the third END_TURN runs the whole operation phase
    short = GAME.init(6, num_players=3)
    first = int(np.flatnonzero(GAME.legal_mask(short)[0])[0])
    states = np.concatenate([short, long, short])
    actions = np.array([first, END_TURN, first])
    alone = [GAME.step_with_events(states[b:b + 1].copy(), [actions[b]])[0] for b in range(3)]
    plain = states.copy()
    GAME.step(plain, actions)
    buffers = []
    to_logged = eventlog.to_logged
    monkeypatch.setattr(eventlog, "to_logged", lambda s, capacity, events_from=0: buffers.append(
        (len(s), capacity, events_from)) or to_logged(s, capacity, events_from))
    masks = np.zeros((3, GAME.n_actions), dtype=np.int8)
    events = GAME.step_logged(states, actions, masks)
    cap = eventlog.DEFAULT_CAPACITY
    assert len(events[1]) > 3 * cap  # 844 events: the first run and three more, for rows 256.., 512.., 768..
    assert buffers == [(3, cap, 0), (1, cap, cap), (1, cap, 2 * cap), (1, cap, 3 * cap)]
    assert events == alone and events[0] == events[2]
    assert states.tobytes() == plain.tobytes()
    assert (masks == GAME.legal_mask(plain)).all()


def test_the_aec_env_puts_the_events_into_every_agents_infos():
    """``rail_v0.env(events=True)``: after each step every agent's info holds the step's events (all public,
    §10.1), the same as ``step_with_events`` on a copy of the record; the game is the one without events."""
    env, plain = env_with_events_and_plain(rail_v0.env, 8, num_players=3)
    rng = np.random.default_rng(8)
    kinds = Counter()
    for _ in range(300):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        copy = env.unwrapped.states.copy()
        action = choose(rng, copy[0], env.observe(agent)["action_mask"])
        expected = [e.to_dict() for e in GAME.step_with_events(copy, [action])[0]]
        step_both(env, plain, action)
        assert all(env.infos[a]["events"] == expected for a in env.agents)
        assert all("events" not in plain.infos[a] for a in plain.agents)
        kinds.update(e["kind"] for e in expected)
        assert all(e["seen_by"] == [0, 1, 2] for e in expected)
    assert kinds["build_roll"] and kinds["step_built"] and kinds["turn_ends"]
