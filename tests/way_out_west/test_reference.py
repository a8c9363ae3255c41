"""The kernels against slow, plainly written Python references of the trickiest rules (STYLE §12).

* income (§10.2) and victory points by category (§11.2, §11.3) on thousands of
  positions from random play;
* whole gunfights (§9.3, §9.4, §9.6, §9.7): random sides, targets, sheriffs and
  dice; both sides always SHOOT; the reference predicts the survivors, the
  winner, the result and the Wanted counter from the same dice.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.way_out_west._random_states import random_states
from tests.way_out_west._helpers import force_dice
from wildwest_envs.way_out_west.data import (A_NO, A_PLAYER, A_SHOOT, A_TARGET, A_YES, BANK, DEC_SHERIFF_JOIN,
                                             DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER, JAIL, STAGECOACH, T_CATTLE,
                                             T_FARMER, TRAIN)
from wildwest_envs.way_out_west.positions import box, place, play, position, town
from wildwest_envs.way_out_west.scoring import income_of, vp_by_category


# ---- income and VP ---------------------------------------------------------------------------------------------
def reference_income(s, p: int) -> int:
    """§10.2 written out."""
    n = int(s["num_players"])
    total = 0
    for t in range(5):
        has_train = s["bt_owner"][t][1] != -1
        farmer = s["farmers"][t] >= 1
        rate = (1 if farmer else 2) * (2 if has_train else 1)
        total += int(s["cattle"][t][p]) * rate
        size = sum(1 for k in range(6) if s["bt_owner"][t][k] != -1)
        if s["bt_owner"][t][2] == p:
            total += 2 * size
        if s["bt_owner"][t][3] == p:
            total += sum(int(s["cattle"][t][q]) for q in range(n) if q != p) + 2 * int(s["farmers"][t])
        if s["bt_owner"][t][4] == p:
            total += sum(int(s["cowboys"][t][q]) for q in range(n) if q != p)
    return total


def reference_vp(s) -> list[list[int]]:
    """§11.2 and §11.3 written out: [buildings, cattle, control, richest, wanted] per seat."""
    n = int(s["num_players"])
    table = [[0] * 5 for _ in range(n)]
    for t in range(5):
        owners = [int(s["bt_owner"][t][k]) for k in range(6)]
        size = sum(o != -1 for o in owners)
        for o in owners:
            if o != -1:
                table[o][0] += size
        cattle_vp = (2 if owners[1] != -1 else 1) - (1 if s["farmers"][t] >= 1 else 0)
        for p in range(n):
            table[p][1] += int(s["cattle"][t][p]) * cattle_vp
        counts = [owners.count(p) + int(s["cattle"][t][p]) for p in range(n)]
        best = max(counts)
        if best >= 1 and counts.count(best) == 1:
            table[counts.index(best)][2] += size
    for column, values, minimum in ((3, [int(c) for c in s["cash"][:n]], 0),
                                    (4, [int(w) for w in s["wanted"][:n]], 1)):
        best = max(values)
        if best >= minimum:
            tied = [p for p in range(n) if values[p] == best]
            for p in tied:
                table[p][column] += 5 // len(tied)
    return table


@pytest.fixture(scope="module")
def positions():
    return random_states(n_games=30, every=11, seed=77)


def test_income_matches_the_reference(positions):
    """§10.2: the kernel's income equals the reference on every seat of every position."""
    for s in positions:
        for p in range(int(s["num_players"])):
            assert income_of(s, p) == reference_income(s, p)


def test_victory_points_match_the_reference(positions):
    """§11.2, §11.3: every VP category equals the reference."""
    out = np.zeros((5, 5), dtype=np.int64)
    for s in positions:
        vp_by_category(s, out)
        n = int(s["num_players"])
        assert out[:n].tolist() == reference_vp(s)


# ---- whole gunfights -------------------------------------------------------------------------------------------------
def reference_fight(a_cow, a_sher, d_virt, d_sher, d_cow, d_farm, dice):
    """§9.4 with both sides always shooting: (outcome, survivors, dice used) or None if the dice run out.

    outcome: "attacker", "defender" or "nobody"; survivors: (a_cow, d_cow, d_farm).
    """
    dice = list(dice)
    used = 0

    def roll(k):
        nonlocal used
        if used + k > len(dice):
            raise IndexError
        hits = sum(1 for d in dice[used:used + k] if d >= 5)
        used += k
        return hits

    def kill_defenders(h):
        nonlocal d_virt, d_sher, d_cow, d_farm
        for _ in range(h):
            if d_virt:
                d_virt = 0
            elif d_sher:
                d_sher = 0
            elif d_cow:
                d_cow -= 1
            elif d_farm:
                d_farm = 0

    def kill_attackers(h):
        nonlocal a_sher, a_cow
        for _ in range(h):
            if a_sher:
                a_sher = 0
            elif a_cow:
                a_cow -= 1

    try:
        for volley in range(1, 51):
            size_a, size_d = a_cow + a_sher, d_virt + d_sher + d_cow + d_farm
            if size_a < size_d:
                kill_defenders(roll(size_a))
                kill_attackers(roll(d_virt + d_sher + d_cow + d_farm))
            elif size_d < size_a:
                kill_attackers(roll(size_d))
                kill_defenders(roll(a_cow + a_sher))
            else:
                hits_a, hits_d = roll(size_a), roll(size_d)
                kill_defenders(hits_a)
                kill_attackers(hits_d)
            size_d = d_virt + d_sher + d_cow + d_farm
            if a_cow == 0 and size_d == 0:
                return "nobody", (a_cow, d_cow, d_farm), used
            if a_cow == 0:
                return "defender", (a_cow, d_cow, d_farm), used
            if size_d == 0:
                return "attacker", (a_cow, d_cow, d_farm), used
        return "nobody", (a_cow, d_cow, d_farm), used
    except IndexError:
        return None


TARGET_KINDS = [STAGECOACH, TRAIN, BANK, 3, 4, JAIL, T_CATTLE, T_FARMER]


def random_fight(rng: np.random.Generator):
    """A fight in Abilene: seat 0 attacks seat 1's target; maybe a jail of seat 0, 1 or 2 (with its choice)."""
    t = 2
    states = position(3, turn=0, cash=[20, int(rng.integers(0, 20)), 20])
    kind = TARGET_KINDS[int(rng.integers(len(TARGET_KINDS)))]
    a_cow = int(rng.integers(1, 7))
    d_cow = 0 if kind == T_FARMER else int(rng.integers(0, 4))
    place(states, cowboys={t: {0: a_cow}})
    if d_cow:
        place(states, cowboys={t: {1: d_cow}})
    if kind < 6:
        place(states, buildings={t: {kind: 1}})
    elif kind == T_CATTLE:
        place(states, cattle={t: {1: int(rng.integers(1, 4))}})
    else:
        place(states, farmers={t: [1]})
    jail = None if kind == JAIL else [None, 0, 1, 2][int(rng.integers(4))]
    if jail is not None:
        place(states, buildings={t: {JAIL: jail}})
    if kind == JAIL:
        jail = 1
    joins = bool(rng.integers(2))
    dice = [int(d) for d in rng.choice([1, 2, 3, 4, 5, 6], size=64, p=[.1, .1, .1, .1, .3, .3])]
    return states, kind, a_cow, d_cow, jail, joins, dice


@pytest.mark.parametrize("seed", range(4))
def test_whole_gunfights_match_the_reference(seed):
    """§9.3-§9.7: survivors, winner, target result and Wanted counter agree with the reference."""
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(150):
        states, kind, a_cow, d_cow, jail, joins, dice = random_fight(rng)
        sheriff_attacks = jail == 0 and joins
        sheriff_defends = jail is not None and jail != 0 and joins
        d_virt = 1 if kind in (TRAIN, BANK) else int(kind != T_FARMER and d_cow == 0 and not sheriff_defends)
        expected = reference_fight(a_cow, int(sheriff_attacks), d_virt, int(sheriff_defends), d_cow,
                                   int(kind == T_FARMER), dice)
        needed = None if expected is None else expected[2] + (3 if expected[0] == "attacker" and kind == BANK else 0)
        if needed is None or needed > 64:
            continue
        force_dice(states, dice)
        cash_before = states[0]["cash"].copy()
        cattle_before = int(states[0]["cattle"][2, 1])
        play(states, box(16), town(2), A_TARGET + kind)
        if kind == T_CATTLE:
            play(states, A_PLAYER + 1)
        if states[0]["decision"] == DEC_SHERIFF_JOIN:
            play(states, A_YES if joins else A_NO)
        while states[0]["decision"] in (DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER):
            play(states, A_SHOOT)
        outcome, (a_left, d_left, farm_left), used = expected
        s = states[0]
        assert int(s["forced_pos"]) == needed
        assert int(s["cowboys"][2, 0]) == a_left and int(s["cowboys"][2, 1]) == d_left
        winner = {"attacker": 0, "defender": None if kind == T_FARMER else 1, "nobody": None}[outcome]
        assert s["wanted"][:3].tolist() == [int(winner == p) for p in range(3)]
        if kind == T_FARMER:
            assert int(s["farmers"][2]) == farm_left
        elif kind == T_CATTLE:
            assert int(s["cattle"][2, 0]) == (min(2, cattle_before) if outcome == "attacker" else 0)
        elif kind == BANK and outcome == "attacker":
            loot = sum(dice[used:used + 3])
            assert s["cash"][0] == cash_before[0] + min(loot, cash_before[1])
            assert (s["bt_owner"][2, BANK] == -1) == (cash_before[1] < loot)
        elif kind == JAIL:
            assert (s["bt_owner"][2, JAIL] == -1) == (outcome == "attacker")
        else:
            assert s["bt_owner"][2, kind] == (0 if outcome == "attacker" else 1)
        checked += 1
    assert checked > 100
