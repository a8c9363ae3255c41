"""Building fees (spec §6.8, G4-G9, G39): every row of the table of §6.8 as a position, and the engine against
a literal implementation of §12.3 (explicit ``paid`` tables) over random build phases."""

from __future__ import annotations

import numpy as np
import pytest

from tests.rail._helpers import BASE, MP, hex_id, step_id
from wildwest_envs.rail import fees
from wildwest_envs.rail.data import CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD, FUND_ACCOUNT
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.maps import HX_CITY, HX_STEP, ST_A, ST_B
from wildwest_envs.rail.positions import legal_actions as legal
from wildwest_envs.rail.positions import place, play, position

CHICAGO = (29, 9)


def paid_by(doc: dict, chain: list) -> np.ndarray:
    """Balance changes of every seat while the pending builder builds ``chain`` (hex by hex); ``doc`` holds the
    terms of ``position``."""
    s = position(**doc)
    before = s[0]["balance"].astype(int).copy()
    for a, b in zip(chain[:-1], chain[1:]):
        play(s, step_id(tuple(a), tuple(b)))
    return s[0]["balance"].astype(int)[:3] - before[:3]


def test_joining_or_crossing_a_rival_line_costs_one():
    """§6.8: p's line enters H, where q's line already is, without running beside it: 1 to q."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]], [1, [[29, 9], [30, 10]]]],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[30, 10], [29, 11]]).tolist() == [1, -1, 0]


def test_crossing_several_lines_pays_the_earliest_rival_only():
    """§6.8, G7: H holds lines of several rivals and p only crosses: 1, to the rival present earliest."""
    doc = {"start": {0: 63, 1: 63, 2: 63},
           "lines": [[0, [[29, 9], [29, 10], [29, 11]]], [2, [[29, 9], [28, 9], [28, 10], [28, 11], [29, 11]]],
                     [1, [[29, 9], [30, 10]]]],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[30, 10], [29, 11]]).tolist() == [1, -1, 0]


def test_parallel_step_costs_two_per_non_city_half():
    """§6.8, G4: a step shared with an earlier owner: 2 for each non-city end; from a city 2, else 4."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]]], "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 9], [29, 10]]).tolist() == [2, -2, 0]
    assert paid_by(doc, [[29, 9], [29, 10], [29, 11]]).tolist() == [6, -6, 0]  # then 2 more at (29,10), 2 at (29,11)


def test_parallel_to_two_rivals_pays_each():
    """§6.8, G39: p's step is owned earlier by two rivals: 2 per non-city end to each of them."""
    doc = {"start": {0: 63, 1: 63, 2: 63},
           "lines": [[0, [[29, 9], [29, 10]]], [2, [[29, 9], [29, 10]]]], "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 9], [29, 10]]).tolist() == [2, -4, 2]


def test_joining_then_running_parallel_is_paid_once():
    """§6.8, G6: p joins q's line in H (1), then continues beside it out of H: H's fee becomes 2, so 1 more."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]], [1, [[29, 9], [30, 10]]]],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[30, 10], [29, 11]]).tolist() == [1, -1, 0]
    # the step (29,11) -> (29,10) beside seat 0: 1 more at (29,11), 2 at (29,10) where seat 1 arrives
    assert paid_by(doc, [[30, 10], [29, 11], [29, 10]]).tolist() == [4, -4, 0]


def test_joining_one_rival_then_parallel_to_another_pays_both():
    """§6.8, G6: join H where q1 is earliest (1 to q1), then continue beside q2: 2 more to q2; q1 keeps 1."""
    doc = {"start": {0: 63, 1: 63, 2: 63},
           "lines": [[0, [[29, 9], [29, 10], [29, 11]]],
                     [2, [[29, 9], [30, 10], [30, 11], [30, 12], [29, 12], [29, 11]]],
                     [1, [[29, 9], [28, 9], [28, 10], [28, 11]]]],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[28, 11], [29, 11]]).tolist() == [1, -1, 0]
    assert paid_by(doc, [[28, 11], [29, 11], [29, 12]]).tolist() == [1, -5, 4]  # 2 at (29,11) + 2 at (29,12)


def test_line_through_a_city_along_a_rival_step_pays_the_outer_half():
    """§6.8, G40: p passes through city C and leaves it along q's earlier step {C, X}: 2, for X's half only."""
    doc = {"start": {0: 63, 1: 62}, "lines": [[0, [[29, 9], [29, 10]]], [1, [[29, 7], [29, 8]]]],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 8], [29, 9]]).tolist() == [0, 0, 0]  # joining in a city is free
    assert paid_by(doc, [[29, 8], [29, 9], [29, 10]]).tolist() == [2, -2, 0]


def test_no_fee_for_rivals_that_arrived_later():
    """§6.8, G5: p's line was in H first; a rival later crosses H; p then branches out of H: nothing."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]],
                                                  [1, [[29, 9], [30, 10], [29, 11], [28, 11]]]],
           "turn": 0, "bp": 8}
    assert paid_by(doc, [[29, 11], [29, 12]]).tolist() == [0, 0, 0]


def test_no_fees_in_city_hexes():
    """§6.8, G9: any hex that holds a city: nothing (a parallel step between two cities would be free)."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [28, 9]]]], "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 9], [28, 9]]).tolist() == [2, -2, 0]  # only the (28, 9) half, not Chicago's
    doc = {"start": {0: 63, 1: 62}, "lines": [[0, [[29, 9], [29, 8], [29, 7]]]], "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 7], [29, 8]]).tolist() == [2, -2, 0]  # Milwaukee's half is free too


def test_four_shared_fields_cost_sixteen_and_a_third_player_pays_both():
    """§6.8, G8: a parallel section of four non-city fields costs 8 + 8 = 16; a third player on the same section
    pays 16 to each earlier player."""
    route = [[29, 9], [29, 10], [28, 11], [28, 12], [27, 12], [27, 13]]  # Chicago .. St. Louis
    assert all(MP.hexes[hex_id(*h), HX_CITY] < 0 for h in route[1:-1])
    doc = {"start": {0: 63, 1: 63, 2: 63}, "lines": [[0, route]], "turn": 1, "bp": 99}
    assert paid_by(doc, route).tolist() == [16, -16, 0]
    doc3 = {"start": {0: 63, 1: 63, 2: 63}, "lines": [[0, route], [1, route]], "turn": 2, "bp": 99}
    assert paid_by(doc3, route).tolist() == [16, 16, -32]


def test_forced_fees_may_make_the_balance_negative():
    """§7.12, G15: building fees are paid even if the balance becomes negative."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]]], "balances": [0, 0, 0],
           "turn": 1, "bp": 8}
    assert paid_by(doc, [[29, 9], [29, 10], [29, 11]]).tolist() == [6, -6, 0]


# ---- the engine against a literal §12.3 -------------------------------------------------------------------------
class LiteralFees:
    """§12.3 pseudocode with explicit ``own``, ``pres`` and ``paid`` tables, fed the engine's build events."""

    def __init__(self, n: int):
        self.n = n
        self.own = [dict() for _ in range(n)]
        self.pres = [dict() for _ in range(n)]
        self.paid = {}
        self.t = 0

    def start(self, p: int, h: int) -> None:
        self.pres[p].setdefault(h, 0)

    def owed(self, p: int, h: int) -> dict:
        par = {}
        for d in range(6):
            e = int(MP.hexes[h, HX_STEP + d])
            if e >= 0 and e in self.own[p]:
                for q in range(self.n):
                    if q != p and e in self.own[q] and self.own[q][e] < self.own[p][e]:
                        par[q] = par.get(q, 0) + 2
        if par:
            return par
        earlier = [(self.pres[q][h], q) for q in range(self.n) if q != p and h in self.pres[q]
                   and self.pres[q][h] < self.pres[p][h]]
        return {min(earlier)[1]: 1} if earlier else {}

    def build(self, owners: list[int], e: int) -> np.ndarray:
        """Transfers of one build event (a joint one with two owners)."""
        self.t += 1
        a, b = int(MP.steps[e, ST_A]), int(MP.steps[e, ST_B])
        for o in owners:
            self.own[o][e] = self.t
            for h in (a, b):
                self.pres[o].setdefault(h, self.t)
        delta = np.zeros(self.n, dtype=int)
        for o in owners:
            for h in (a, b):
                if MP.hexes[h, HX_CITY] >= 0:
                    continue
                due = self.owed(o, h)
                for q in range(self.n):
                    if q == o:
                        continue
                    d = due.get(q, 0) - self.paid.get((o, q, h), 0)
                    if d > 0:
                        self.paid[(o, q, h)] = due[q]
                        if q not in owners:
                            delta[o] -= d
                            delta[q] += d
        return delta


@pytest.mark.parametrize("num_players, coop", [(3, False), (4, True), (6, False)])
def test_engine_fees_equal_the_literal_reference(num_players, coop):
    """§6.8 / §12.3: over random build phases (co-builds included) every balance change of a build step is
    exactly the literal algorithm's fee transfers plus the connection bonus."""
    rng = np.random.default_rng(num_players)
    checked = 0
    for game in range(6):
        s = GAME.init(np.array([100 + game], np.uint64), num_players=num_players, coop_building=coop,
                      build_rounds=8)
        ref = LiteralFees(num_players)
        while not s[0]["operating"] and not s[0]["done"]:
            mask = GAME.legal_mask(s)[0]
            acts = np.flatnonzero(mask)
            builds = acts[acts < BASE]
            ctx = int(s[0]["context"])
            a = int(rng.choice(builds)) if len(builds) and rng.random() < 0.85 else int(rng.choice(acts))
            if a < BASE:
                owners = [int(s[0]["builder"])] + ([int(s[0]["partner"])] if ctx == CTX_COOP_BUILD else [])
                connected = s[0]["connected"].copy()
                before = s[0]["balance"].astype(int)[:num_players].copy()
            play(s, a)
            if a >= BASE:
                for p in range(num_players):
                    if s[0]["start_city"][p] >= 0:
                        ref.start(p, int(MP.city_hex[MP.start_cities[s[0]["start_city"][p]]]))
                continue
            expected = ref.build(owners, a)
            newly = np.flatnonzero(s[0]["connected"] & ~connected)
            bonus = np.zeros(num_players, dtype=int)
            for _ in newly:
                bonus[owners[0]] += 6 - (3 if len(owners) == 2 else 0)
                if len(owners) == 2:
                    bonus[owners[1]] += 3
            got = s[0]["balance"].astype(int)[:num_players] - before
            assert (got == expected + bonus).all(), (game, a, got, expected, bonus)
            checked += 1
    assert checked > 200


def test_fast_fee_preview_equals_the_general_one():
    """The closed-form preview used by the account-funding mask equals build_fees on random positions (§7.10)."""
    rng = np.random.default_rng(7)
    compared = 0
    for game in range(4):
        s = GAME.init(np.array([200 + game], np.uint64), num_players=4, build_rounds=10)
        while not s[0]["operating"] and not s[0]["done"]:
            acts = np.flatnonzero(GAME.legal_mask(s)[0])
            builds = acts[acts < BASE]
            play(s, int(rng.choice(builds)) if len(builds) and rng.random() < 0.9 else int(rng.choice(acts)))
            if s[0]["context"] != CTX_BUILD:
                continue
            st = s[0]
            p = int(st["builder"])
            cache = np.full((3, MP.hexes.shape[0]), fees.UNKNOWN, dtype=np.int8)
            for e in range(MP.steps.shape[0]):
                if (st["frontier"][p, e >> 6] >> np.uint64(e & 63)) & np.uint64(1):
                    slow = fees.fee_preview(st, MP, p, e, np.zeros((3, 6), dtype=np.int64))
                    assert fees.fee_preview_fast(st, MP, p, e, cache) == slow
                    assert slow <= fees.fee_bound(st, MP, p, e)
                    compared += 1
    assert compared > 1000


@pytest.mark.parametrize("num_players", [3, 6])
def test_single_builder_fees_equal_the_general_computation(num_players):
    """§6.8: the closed form that build_step uses for one builder pays exactly build_fees' amounts per seat and
    records the same touch-fee hexes, for every seat's every buildable step on random positions."""
    rng = np.random.default_rng(11 + num_players)
    compared = charged = 0
    n_hexes = MP.hexes.shape[0]
    for game in range(3):
        s = GAME.init(np.array([300 + game], np.uint64), num_players=num_players, build_rounds=10)
        while not s[0]["operating"] and not s[0]["done"]:
            acts = np.flatnonzero(GAME.legal_mask(s)[0])
            builds = acts[acts < BASE]
            play(s, int(rng.choice(builds)) if len(builds) and rng.random() < 0.9 else int(rng.choice(acts)))
            st = s[0]
            if rng.random() > 0.3:
                continue
            for p in range(num_players):
                for e in range(MP.steps.shape[0]):
                    if not (st["frontier"][p, e >> 6] >> np.uint64(e & 63)) & np.uint64(1):
                        continue
                    due, touch = np.zeros(6, np.int64), np.zeros(2, np.int64)
                    fees.build_fees(st, MP, p, e, 1 << p, int(st["t"]) + 1, due, touch, np.zeros(6, np.int64))
                    paid = s.copy()[0]  # a view into its own copy of the batch
                    fees.pay_single_builder_fees(paid, MP, p, e)
                    gained = paid["balance"].astype(np.int64) - st["balance"]
                    expected = due.copy()
                    expected[p] -= due.sum()
                    assert gained.tolist() == expected.tolist(), (game, p, e)
                    # build_fees also names a hex whose touch fee was paid before; setting the bit again is a no-op
                    for end in range(2):
                        if touch[end] >= 0 and (int(st["touched"][touch[end]]) >> p) & 1:
                            touch[end] = -1
                    newly = np.flatnonzero(paid["touched"] != st["touched"]).tolist()
                    assert newly == sorted(int(h) for h in touch if h >= 0), (game, p, e)
                    assert (paid["touched"] ^ st["touched"]).max() in (0, 1 << p)
                    assert 0 <= touch.max() < n_hexes or touch.max() == -1
                    compared += 1
                    charged += int(due.sum() > 0)
    assert compared > 2000 and charged > 100, (compared, charged)


def test_account_funded_steps_must_be_affordable_with_their_fees():
    """§7.10 (b), G14: building from the account needs cost + the fees it triggers; the bonus it would earn
    does not count."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, [[29, 9], [29, 10], [29, 11]]]], "balances": [0, 2, 0],
           "decision": "ext_build", "turn": 1, "funding": "account"}
    s = position(**doc)
    assert s[0]["context"] == CTX_EXT_BUILD and s[0]["funding"] == FUND_ACCOUNT
    parallel = step_id((29, 9), (29, 10))  # cost 1 + fee 2 = 3 > 2
    free = step_id((29, 9), (28, 9))  # cost 1, no fee
    assert free in legal(s) and parallel not in legal(s)
    place(s, balances={1: 3})
    assert parallel in legal(s)
    play(s, parallel)
    assert s[0]["balance"][1] == 0 and s[0]["balance"][0] == 2
