"""The operation phase: one test per rule (spec §7, §8, §9.3, §9.4, §9.6), positions built with
``wildwest_envs.rail.positions``.

Most positions use two lines from Chicago to Omaha (7 hexes apart): seat 0's long northern line ``A_LONG``
(9 steps, all the way into Omaha) and seat 1's southern line ``B`` (6 steps, ending one hex short of Omaha,
so that it needs seat 0's last step)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.rail._helpers import BASE, DECLINE, END_TURN, MAP, MP, city_hex, enter, force, hex_id, step_id
from wildwest_envs.rail import races, routes
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.rail.data import (CTX_EXT_BUILD, CTX_EXT_FUNDING, CTX_RACE_ENTRY, MAX_PLAYERS, OFF_FUND_ACCOUNT,
                                     OFF_FUND_DICE)
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.maps import HX_RIVER, HX_TERRAIN, T_MOUNTAIN, move_pips
from wildwest_envs.rail.positions import legal_actions as legal
from wildwest_envs.rail.positions import place, play, position

A_LONG = [[29, 9], [28, 9], [27, 9], [26, 9], [26, 8], [25, 8], [24, 8], [24, 9], [24, 10], [23, 10]]
B = [[29, 9], [29, 10], [28, 10], [27, 10], [26, 10], [25, 10], [24, 10]]
OMAHA, CHICAGO = 51, 63


def pips(chain) -> list[int]:
    """§7.4 computed from the map's terrain and rivers, hex by hex (independently of the step table)."""
    out = []
    for a, b in zip(chain[:-1], chain[1:]):
        ha, hb = hex_id(*a), hex_id(*b)
        d = [MP.hexes[ha, 5 + k] for k in range(6)].index(hb)
        out.append(move_pips(MP.hexes[ha, HX_TERRAIN] == T_MOUNTAIN, MP.hexes[hb, HX_TERRAIN] == T_MOUNTAIN,
                             bool(MP.hexes[ha, HX_RIVER + d])))
    return out


def race_doc(first: int = 0, **extra) -> dict:
    """The terms of ``position`` for race 0 Chicago-Omaha over seat 0's ``A_LONG`` and seat 1's ``B``, entries from
    seat ``first``; ``extra``: more terms or options."""
    doc = {"start": {0: 63, 1: 63}, "lines": [[0, A_LONG], [1, B]], "race": (CHICAGO, OMAHA), "first": first}
    doc.update(extra)
    return doc


# ---- §7.3-§7.5 routes and candidates ----------------------------------------------------------------------------
def test_movement_pips_rivers_and_uphill_only():
    """§7.4, G23: 1 per step, +1 across a river, +1 into a mountain from lower ground; downhill costs 1."""
    e = step_id((26, 15), (25, 15))  # open -> mountain
    assert MP.steps[e, 0] == hex_id(25, 15) or MP.steps[e, 1] == hex_id(25, 15)
    up = routes.step_pips(MP, e, hex_id(26, 15))
    down = routes.step_pips(MP, e, hex_id(25, 15))
    assert (up, down) == (2, 1)
    assert pips([[28, 9], [27, 9]]) == [2]  # the Mississippi
    assert routes.step_pips(MP, step_id((28, 9), (27, 9)), hex_id(28, 9)) == 2


def test_candidates_cheapest_fastest_balanced():
    """§7.5: slot 0 cheapest (fee, pips), slot 1 fastest (pips, fee), slot 2 balanced (pips + fee); a slot that
    repeats an earlier candidate is empty; every route uses an own step (§7.3)."""
    s = position(**race_doc())
    st = s[0]
    assert sum(pips(A_LONG)) == 11 and sum(pips(B + [[23, 10]])) == 9
    assert st["cand_valid"][0, :3].tolist() == [1, 1, 0]  # balanced = cheapest (11 + 0 < 9 + 6): empty
    assert (st["cand_pips"][0, 0], st["cand_steps"][0, 0], st["cand_own"][0, 0]) == (11, 9, 9)
    assert (st["cand_pips"][0, 1], st["cand_steps"][0, 1], st["cand_own"][0, 1]) == (9, 7, 1)
    assert st["cand_fee"][0, 1, 1] == 6 and st["cand_fee"][0, 0].sum() == 0
    assert st["cand_valid"][1, :3].tolist() == [1, 0, 0]  # seat 1: one route, through seat 0's last step
    assert st["cand_fee"][1, 0, 0] == 1
    assert not st["cand_valid"][2].any()  # seat 2 owns nothing
    assert legal(s) == [DECLINE, enter(0), enter(1)]


def test_candidate_route_hexes_are_the_path():
    """§7.5: the stored hexes of a candidate are exactly its path."""
    s = position(**race_doc())
    bits = s[0]["cand_hexes"]
    on_fast = {int(h) for h in np.flatnonzero((bits >> np.uint32(1)) & np.uint32(1))}
    assert on_fast == {hex_id(*h) for h in B + [[23, 10]]}
    on_cheap = {int(h) for h in np.flatnonzero(bits & np.uint32(1))}
    assert on_cheap == {hex_id(*h) for h in A_LONG}


def test_candidates_keep_the_pips_of_their_steps_in_order():
    """§7.5, §7.8: each candidate keeps the pips of its steps in travel order (``cand_need``), which the race
    then spends; nothing after the last step."""
    st = position(**race_doc())[0]
    assert st["cand_need"][0, 0, :9].tolist() == pips(A_LONG) == [1, 2, 1, 1, 1, 1, 1, 1, 2]
    assert st["cand_need"][0, 1, :7].tolist() == pips(B + [[23, 10]])
    assert st["cand_need"][1, 0, :7].tolist() == pips(B + [[23, 10]])
    assert not st["cand_need"][0, 0, 9:].any() and not st["cand_need"][0, 2].any()


def test_the_race_runs_on_what_the_candidate_search_found():
    """§7.5, §7.7, §12.1: the rail graph does not change during the entries, so the route searched again when the
    race runs (``races._search_route_again``, the path for a route too long to keep) has the candidate's kept
    step pips and raw fees, at every race entry of random games at 3 to 5 players."""
    checked = 0
    for n in (3, 4, 5):
        states = GAME.init_batch(24, seed=40 + n, num_players=n)
        sample = LegalSampler(24, 40 + n)
        masks = GAME.legal_mask(states)
        for _ in range(1500):
            GAME.step(states, sample(masks), check=False, masks=masks)
            for b in np.flatnonzero(states["context"] == CTX_RACE_ENTRY):
                st = states[b]
                for p, k in zip(*np.nonzero(st["cand_valid"])):
                    need, fees = np.zeros(MP.hexes.shape[0], np.int64), np.zeros(MAX_PLAYERS, np.int64)
                    steps = int(st["cand_steps"][p, k])
                    assert races._search_route_again(st, MP, p, k, need, fees) == steps
                    assert need[:steps].tolist() == st["cand_need"][p, k, :steps].tolist()
                    assert sum(need[:steps]) == st["cand_pips"][p, k]
                    assert fees.tolist() == st["cand_fee"][p, k].tolist()
                    checked += 1
    assert checked > 300


def test_a_route_must_use_an_own_step():
    """§7.3: a player whose steps are not on any route has no candidate and can only decline."""
    doc = race_doc()
    doc["start"][2] = 62
    doc["lines"].append([2, [[29, 7], [29, 6]]])
    s = position(**doc)
    assert not s[0]["cand_valid"][2].any() and s[0]["cand_valid"][0].any()


def test_entry_decisions_in_order_and_forced_decline():
    """§7.6: decisions one at a time clockwise from F_k; a player without candidates declines automatically."""
    s = position(**race_doc(first=1))
    assert s[0]["current"] == 1 and legal(s) == [DECLINE, enter(0)]
    force(s, [6, 6, 6, 6])
    play(s, enter(0))
    # seat 2 has no candidate: declined automatically; seat 0 decides next
    assert s[0]["current"] == 0 and s[0]["entry"][2] == 1 and s[0]["entry"][1] == 2


# ---- §7.7 travel fees ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw_pq, raw_qp, paid", [(14, 0, 10), (7, 3, 4), (15, 3, 10), (3, 7, -4), (0, 0, 0)])
def test_travel_fees_net_then_cap(raw_pq, raw_qp, paid):
    """§7.7 item 3, G22, the examples: 14 of q's steps -> 10; 7 vs 3 -> 4; 15 vs 3: net 12 -> 10."""
    s = position(**race_doc())
    fees = np.zeros((6, 6), dtype=np.int64)
    fees[0, 1], fees[1, 0] = raw_pq, raw_qp
    before = s[0]["balance"][:2].astype(int).copy()
    races.settle_travel_fees(s[0], fees)
    assert (s[0]["balance"][:2] - before).tolist() == [-paid, paid]
    assert s[0]["race_income"][1 if paid > 0 else 0] == abs(paid)


def test_travel_fees_are_settled_before_the_race_and_have_no_city_exemption():
    """§7.7 items 4-5, G40: the entrant pays for his whole route at once; a rival step into a city costs 1 too."""
    s = position(**race_doc(first=1))
    force(s, [1, 1] * 20)
    play(s, enter(0))  # seat 1: its own line plus seat 0's step into Omaha (a city): raw fee 1
    before = s[0]["balance"][:2].astype(int).copy()
    play(s, DECLINE)  # seat 0 stays home; the race runs
    assert s[0]["last_fees"][:2].tolist() == [1, -1]
    assert s[0]["last_prize"][1] == 20  # a single entrant wins at once
    assert (s[0]["balance"][:2] - before).tolist() == [1, 19]


def test_fee_charged_to_the_owner_with_most_route_steps():
    """§7.7 item 1, G21: a rival step owned by several players is charged to the one owning most of the route's
    rival steps (then the earliest)."""
    doc = race_doc()
    doc["start"][2] = 63
    doc["lines"].append([2, B[:3]])  # seat 2 owns the first two steps of B too (later than seat 1)
    s = position(**doc)
    st = s[0]
    assert st["cand_fee"][0, 1, 1] == 6 and st["cand_fee"][0, 1, 2] == 0  # all charged to seat 1 (6 > 2 steps)


def test_flat_usage_fee():
    """§9.4: with flat_usage_fee the raw fee is 5 per rival used, whatever the number of steps."""
    s = position(**race_doc(flat_usage_fee=True))
    assert s[0]["cand_fee"][0, 1, 1] == 5 and s[0]["cand_fee"][1, 0, 0] == 5


# ---- §7.8-§7.9 the race and the prizes -------------------------------------------------------------------------------
def test_single_entrant_wins_without_dice():
    """§7.8, G25: with one entrant nobody rolls; he gets the first prize."""
    s = position(**race_doc())
    play(s, enter(0))
    play(s, DECLINE)
    assert s[0]["last_prize"][0] == 20 and s[0]["last_place"][0] == 0 and s[0]["last_rounds"] == 0


def test_dice_race_places_by_round_then_leftover_pips():
    """§7.8: two dice per running entrant per round, in entry order; same round: more leftover pips first;
    prizes 20 and 10 (§7.9)."""
    s = position(**race_doc())
    play(s, enter(0))  # seat 0 on its own line: needs 11 pips
    force(s, [6, 6, 6, 6])  # round 1: seat 0 rolls 12 (1 left), seat 1 rolls 12 (3 left over its 9)
    before = s[0]["balance"][:2].astype(int).copy()
    play(s, enter(0))
    assert s[0]["last_place"][:2].tolist() == [1, 0] and s[0]["last_rounds"] == 1
    fees = s[0]["last_fees"][:2].astype(int)
    assert (s[0]["balance"][:2] - before - fees).tolist() == [10, 20]


def test_lost_pips_and_later_rounds():
    """§7.8, G24: pips that cannot pay the next step are lost; a train arriving in an earlier round wins."""
    s = position(**race_doc())
    play(s, enter(0))  # seat 0: needs [1, 2, 1, 1, 1, 1, 1, 1, 2]
    # round 1: seat 0 rolls 2 (pays 1, the river's 2 does not fit: 1 lost); seat 1 rolls 2 (1 + 1)
    # round 2: seat 0 rolls 12 (2 + 1*6 + 2 = 10 of the 10 left: arrives, 0 left); seat 1 rolls 2 (needs 2: pays)
    # round 2 ends with seat 0 arrived; round 3: seat 1 rolls 12: arrives (5 left) -> seat 0 first
    force(s, [1, 1, 1, 1, 6, 6, 1, 1, 6, 6])
    play(s, enter(0))
    assert s[0]["last_place"][:2].tolist() == [0, 1] and s[0]["last_rounds"] == 3


def test_same_round_same_leftover_is_drawn():
    """§7.8, G43: a tie for a paid place is ordered by uniform draws among the tied, in entry order."""
    s = position(**race_doc())
    play(s, enter(1))  # seat 0 takes the fastest route too: 9 pips, like seat 1
    force(s, [6, 4, 6, 4, 2])  # both arrive in round 1 with 1 left; the draw picks index 1 (seat 1) first
    play(s, enter(0))
    assert s[0]["last_place"][:2].tolist() == [1, 0]
    s = position(**race_doc())
    play(s, enter(1))
    force(s, [6, 4, 6, 4, 1])  # draw 0: seat 0 (first in entry order) first
    play(s, enter(0))
    assert s[0]["last_place"][:2].tolist() == [0, 1]


def test_route_length_resolution_needs_no_dice():
    """§9.6, G27: race_resolution="route_length" places entrants by route pips, fewer first."""
    s = position(**race_doc(race_resolution="route_length"))
    play(s, enter(0))  # 11 pips
    force(s, [])
    play(s, enter(0))  # seat 1: 9 pips
    assert s[0]["last_place"][:2].tolist() == [1, 0] and s[0]["last_rounds"] == 0


def test_race_without_entrants_pays_nothing_and_counts():
    """§7.9, G25: a race nobody enters pays nothing but counts as a race."""
    s = position(**race_doc())
    k = int(s[0]["race_k"])
    total = int(s[0]["balance"].sum())
    play(s, DECLINE)
    play(s, DECLINE)
    assert s[0]["race_k"] == k + 1 and int(s[0]["balance"].sum()) == total
    assert (s[0]["last_place"] == -1).all()


def test_prize_list_option():
    """§7.8-§7.9, G44: prizes [30, 15, 5] with three entrants pays three places."""
    doc = race_doc(prizes=[30, 15, 5])
    doc["start"][2] = 63
    doc["lines"].append([2, B[:2]])
    s = position(**doc)
    assert s[0]["cand_valid"][2, 0]
    play(s, enter(0))
    play(s, enter(0))
    force(s, [6, 6, 6, 5, 6, 4])
    play(s, enter(0))
    assert sorted(s[0]["last_prize"][:3].tolist()) == [5, 15, 30]


# ---- §7.1, §7.10 extension windows ------------------------------------------------------------------------------------
def test_extension_window_follows_the_race_in_race_order():
    """§7.1 item 8, §7.10: after the prizes each player in order from F_k gets one extension turn."""
    doc = race_doc(first=1, balances=[20, 20, 20])
    doc["start"][2] = 62
    s = position(**doc)
    play(s, DECLINE)
    play(s, DECLINE)
    assert s[0]["context"] == CTX_EXT_BUILD and s[0]["current"] == 1
    play(s, END_TURN)
    assert s[0]["current"] == 2
    play(s, END_TURN)
    assert s[0]["current"] == 0
    play(s, END_TURN)
    st = s[0]  # the next race's first player: F_k = (S + R + k) mod n (§7.1, G35); in a window race_k is k + 1
    k = int(st["race_k"]) - (1 if st["context"] in (CTX_EXT_BUILD, CTX_EXT_FUNDING) else 0)
    assert k >= 1 and st["race_first"] == (int(st["start_player"]) + int(st["round"]) + k) % 3


def test_account_funded_extension_costs_money_within_the_cap():
    """§7.10: each step costs its BP in money, paid to the bank; at most extension_cap (12) BP per window."""
    s = position(start={0: 63}, lines=[[0, [[29, 9], [28, 9]]]], balances=[50, 0, 0], decision="ext_build", turn=0)
    play(s, step_id((29, 9), (29, 10)))
    assert s[0]["balance"][0] == 49 and s[0]["window_bp"][0] == 1 and s[0]["total_bank"] == 1
    river = step_id((28, 9), (27, 9))  # 3 BP
    s[0]["window_bp"][0] = 10
    assert step_id((28, 9), (28, 10)) in legal(s) and river not in legal(s)  # 10 + 3 > 12
    s[0]["window_bp"][0] = 9
    assert river in legal(s)


def test_account_funding_never_creates_debt():
    """§7.10, §7.12: a step needs balance >= cost; with nothing affordable the turn ends by itself."""
    s = position(start={0: 63, 1: 63}, lines=[[0, [[29, 9], [29, 10]]]], balances=[0, 1, 0], decision="ext_build",
                 turn=1)
    assert step_id((29, 9), (28, 9)) in legal(s)
    play(s, step_id((29, 9), (28, 9)))
    assert s[0]["balance"][1] == 0 and s[0]["builder"] != 1


def test_dice_funded_extension_rolls_its_own_dice():
    """§7.10 "dice", G49: the player rolls build_dice dice at the start of his extension turn."""
    s = position(**race_doc(first=0, extension_mode="dice"))
    play(s, DECLINE)
    force(s, [4, 5])
    play(s, DECLINE)
    assert s[0]["context"] == CTX_EXT_BUILD and s[0]["bp_left"] == 9 and s[0]["current"] == 0


def test_dice_or_account_choice():
    """§7.10 "dice_or_account", §11.2: FUND_DICE always; FUND_ACCOUNT only if a BP could be bought."""
    s = position(**race_doc(first=0, extension_mode="dice_or_account", balances=[5, 0, 0]))
    play(s, DECLINE)
    play(s, DECLINE)
    assert s[0]["context"] == CTX_EXT_FUNDING and s[0]["current"] == 0
    assert legal(s) == [BASE + OFF_FUND_DICE, BASE + OFF_FUND_ACCOUNT]
    play(s, BASE + OFF_FUND_ACCOUNT)
    assert s[0]["context"] == CTX_EXT_BUILD and s[0]["funding"] == 2
    play(s, END_TURN)
    # seat 1 has no money: FUND_DICE is its only choice, applied at once; it then builds with its roll
    assert s[0]["current"] == 1 and s[0]["context"] == CTX_EXT_BUILD and s[0]["funding"] == 1
    assert 2 <= s[0]["bp_left"] <= 12


def test_ten_percent_budget():
    """§9.6, G48: with extension_10pct the account BP over the game are at most floor(race income / 10)."""
    s = position(extension_10pct=True, start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], balances=[50, 0, 0],
                 decision="ext_build", turn=0)
    assert legal(s) == [END_TURN] or s[0]["builder"] != 0  # no race income yet: nothing to buy
    s = position(extension_10pct=True, start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], balances=[50, 0, 0],
                 decision="ext_build", turn=0)
    s[0]["race_income"][0] = 29  # budget 2
    s[0]["context"] = CTX_EXT_BUILD
    steps = [a for a in legal(s) if a < BASE]
    assert steps and all(MP.steps[a, 3] <= 2 for a in steps)


# ---- §7.11 end of the game, §8 winner ---------------------------------------------------------------------------------
def test_points_target_ends_the_game_after_the_prizes():
    """§7.11: a balance at the target after the prizes ends the game at once (no extension window)."""
    s = position(**race_doc(balances=[235, 0, 0]))
    play(s, enter(0))
    play(s, DECLINE)
    assert s[0]["done"] and s[0]["balance"][0] == 255
    assert GAME.legal_mask(s).sum() == 0
    assert GAME.returns(s)[0, :3].tolist() == [1.0, -1.0, -1.0]


def test_points_target_tested_after_the_extension_window():
    """§7.11: the end test also follows the extension window (e.g. after fees received there)."""
    s = position(2, start={0: 63, 1: 63}, lines=[[0, [[29, 9], [29, 10], [29, 11]]]], balances=[249, 30],
                 decision="ext_build", turn=1, first=0)
    assert s[0]["turn_pos"] == 1  # seat 1 is the last of the window
    play(s, step_id((29, 9), (29, 10)))  # parallel: seat 1 pays seat 0 2
    assert s[0]["balance"][0] == 251
    play(s, END_TURN)
    assert s[0]["done"]


def test_races_mode_ends_after_races_total():
    """§7.11 "races": the game ends after race races_total - 1 (its prizes paid, no window)."""
    s = position(**race_doc(end_mode="races", races_total=5))
    s[0]["race_k"] = 4
    play(s, DECLINE)
    play(s, DECLINE)
    assert s[0]["done"] and s[0]["race_k"] == 5


def test_max_races_guard():
    """§7.11, G28: in points mode the game ends after race max_races - 1 as a normal end."""
    s = position(**race_doc(max_races=3))
    s[0]["race_k"] = 2
    play(s, DECLINE)
    play(s, DECLINE)
    assert s[0]["done"] and not GAME.truncated(s)[0] and GAME.terminal(s)[0]


def test_highest_balance_wins_and_ties_share():
    """§8: the highest balance wins whoever triggered the end; tied players share the win (a three-way tie is
    a draw: every seat a winner, 0 reward each in "win" mode)."""
    s = position(**race_doc(max_races=1, balances=[40, 60, 60]))
    play(s, enter(0))
    play(s, DECLINE)  # seat 0 wins the race (+20) but 60 = 60 = 60: all share
    assert s[0]["done"] and GAME.winners(s)[0, :3].all() and GAME.returns(s)[0, :3].tolist() == [0.0, 0.0, 0.0]
    assert GAME.scores(s)[0, :3].tolist() == [60, 60, 60]


# ---- §7.2 race generation ---------------------------------------------------------------------------------------------
def test_race_start_and_goal_from_red_tens_and_white_units():
    """§7.2: red gives the tens, white the units; a goal closer than 6 hexes (or the start) is rolled again."""
    s = position(start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], decision="ext_build", turn=0)
    st = s[0]
    force(s, [6, 3, 6, 3, 6, 4, 5, 1])  # start 63 Chicago; goal 63 (same), 64 St. Louis (4 hexes), 51 Omaha
    st["race_k"] = 1
    races.generate_race(st, MP)
    assert st["race_start"] == city_hex(63) and st["race_goal"] == city_hex(51)
    assert st["city_uses"][MAP.city_index(63)] == 1 and st["city_uses"][MAP.city_index(51)] == 1


def test_repeat_rule_excludes_used_cities():
    """§7.2, G47: with avoid_repeat_cities a city that ended repeat_limit races is rolled again."""
    s = position(end_mode="races", start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], decision="ext_build", turn=0)
    st = s[0]
    assert st["repeat_limit"] == 2 and st["avoid_repeat"]
    place(s, city_uses={63: 2})
    force(s, [6, 3, 1, 1, 5, 1])  # 63 is used up: rolled again -> start 11 Seattle; goal 51
    races.generate_race(st, MP)
    assert st["race_start"] == city_hex(11) and st["race_goal"] == city_hex(51)


def test_international_race_every_sixth():
    """§9.3: race k is international iff (k + 1) mod international_every = 0: red picks the country (missing
    faces re-rolled), white the home terminal city."""
    s = position(international=True, start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], decision="ext_build", turn=0)
    st = s[0]
    st["race_k"] = 5
    assert races.is_international(st, MP)
    force(s, [5, 1, 4])  # red 5: Mexico; white 1: not in the table, rolled again; white 4: Chicago
    races.generate_race(st, MP)
    assert st["race_start"] == city_hex(63) and st["race_goal"] == -1 and st["race_country"] == 2
    assert not st["city_uses"].any()  # outside the repeat rule
    st["race_k"] = 4
    assert not races.is_international(st, MP)


def test_international_candidates_end_in_the_first_foreign_hex():
    """§9.2-§9.3: the route goes to the best hex of the goal country and ends there."""
    line = [[29, 7], [29, 6], [28, 5], [28, 4], [27, 3], [26, 3], [26, 2], [25, 1], [25, 0]]
    doc = {"international": True, "start": {0: 62}, "lines": [[0, line]], "race": (62, "Canada"), "first": 0,
           "races_run": 5}  # race 5 is the first international one (§9.3)
    s = position(**doc)
    assert s[0]["cand_valid"][0, 0] and s[0]["cand_steps"][0, 0] == len(line) - 1
    assert (s[0]["cand_hexes"][hex_id(25, 0)] & 1) == 1


def test_start_is_rolled_again_when_no_city_could_be_its_goal():
    """§7.2: a start that no city could join as a valid goal is rolled again before any goal roll (here
    d_min = 35: only Seattle-New Orleans is that far apart); the goal is then rolled until it is valid."""
    s = position(race_min_distance=35, start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], decision="ext_build", turn=0)
    st = s[0]
    assert st["d_min"] == 35 and MP.city_dist[MAP.city_index(63)].max() < 35
    force(s, [6, 3, 1, 1, 1, 2, 6, 6])  # start 63 (no goal 35 away) -> 11 Seattle; goal 12 (too close) -> 66
    races.generate_race(st, MP)
    assert st["race_start"] == city_hex(11) and st["race_goal"] == city_hex(66)
    assert st["forced_pos"] == 8 and st["city_uses"][MAP.city_index(63)] == 0


def test_repeat_rule_is_ignored_when_no_valid_pair_is_left():
    """§7.2, G47: when every start-goal pair breaks the repeat rule it is ignored for that race, and the race
    still counts for both its cities."""
    s = position(end_mode="races", start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], decision="ext_build", turn=0)
    st = s[0]
    limit = int(st["repeat_limit"])
    # Chicago alone is free: no pair of two free cities is left
    place(s, city_uses={name: 0 if name == "Chicago" else limit for name in MAP.city_names})
    force(s, [5, 1, 6, 3])  # start 51 Omaha (used up, but the rule is off for this race); goal 63
    races.generate_race(st, MP)
    assert st["race_start"] == city_hex(51) and st["race_goal"] == city_hex(63)
    assert st["city_uses"][MAP.city_index(51)] == limit + 1 and st["city_uses"][MAP.city_index(63)] == 1


# ---- §7.5 route search prunings -------------------------------------------------------------------------------------
PRUNING_LINES = [[1, B + [[23, 10]]], [2, A_LONG], [0, A_LONG[:2]]]  # seat 0 owns only Chicago -> (28, 9)


def test_route_search_never_re_enters_the_start():
    """§7.5 item 1, G18: no move enters the start hex. Seat 0 owns only the step leaving Chicago westwards; the
    walk out along it and back, then over seat 1's line (fee 7), is not a route; the search must give the
    simple route along seat 2's line through that step instead (9 steps, fee 8)."""
    s = position(start={0: 63, 1: 63, 2: 63}, lines=PRUNING_LINES, race=(CHICAGO, OMAHA), first=0)
    st = s[0]
    assert st["cand_valid"][0, 0] and st["cand_steps"][0, 0] == 9 and st["cand_own"][0, 0] == 1
    assert st["cand_fee"][0, 0, 2] == 8 and st["cand_fee"][0, 0, 1] == 0
    assert st["cand_hexes"][hex_id(28, 9)] & 1 and not st["cand_hexes"][hex_id(29, 10)] & 1


def test_route_search_ends_at_the_first_goal_hex():
    """§7.5 item 1, G18: nothing continues from a goal hex. Omaha -> Chicago: the walk over seat 1's line into
    Chicago, out along seat 0's step and back is not a route; the simple route along seat 2's line is."""
    s = position(start={0: 63, 1: 63, 2: 63}, lines=PRUNING_LINES, race=(OMAHA, CHICAGO), first=0)
    st = s[0]
    assert st["cand_valid"][0, 0] and st["cand_steps"][0, 0] == 9 and st["cand_own"][0, 0] == 1
    assert st["cand_fee"][0, 0, 2] == 8
    assert st["cand_hexes"][hex_id(28, 9)] & 1 and not st["cand_hexes"][hex_id(29, 10)] & 1


# ---- §7.8 the end of a race and the guard ----------------------------------------------------------------------------
def test_race_ends_after_the_round_in_which_the_paid_places_arrived():
    """§7.8: three entrants, two prizes: the race ends with the round in which the second train arrives; that
    round is completed (the third entrant still rolls), and the third gets nothing (§7.9)."""
    doc = race_doc()
    doc["start"][2] = 63
    doc["lines"].append([2, B[:2]])
    s = position(**doc)
    play(s, enter(0))  # seat 0: A_LONG, 11 pips
    play(s, enter(0))  # seat 1: B + seat 0's last step, 9 pips
    force(s, [6, 6, 6, 5, 1, 1])  # seat 0 12 (1 left), seat 1 11 (2 left), seat 2 2: still running
    play(s, enter(0))
    st = s[0]
    assert st["last_rounds"] == 1 and st["forced_pos"] == 6 and (st["red"], st["white"]) == (1, 1)
    assert st["last_place"][:3].tolist() == [1, 0, 2] and st["last_prize"][:3].tolist() == [10, 20, 0]


def test_race_guard_after_round_1000():
    """§7.8, G44: a race still running after round 1000 stops; arrived trains are placed first, then the others
    by fewest pips still needed. (Steps of 13 pips, which no roll can pay, keep two trains from ever arriving.)"""
    s = position(**race_doc())
    st = s[0]
    n_hexes = MP.hexes.shape[0]
    order = np.array([0, 1, 2, 0, 0, 0], dtype=np.int64)
    need = np.zeros((6, n_hexes), dtype=np.int64)
    n_need = np.zeros(6, dtype=np.int64)
    need[0, 0], n_need[0] = 2, 1  # arrives in round 1
    need[1, :2], n_need[1] = [13, 1], 2  # 14 pips still needed
    need[2, 0], n_need[2] = 13, 1  # 13 pips still needed
    ranking = np.zeros(6, dtype=np.int64)
    races.run_race(st, order, 3, need, n_need, ranking)
    assert st["last_rounds"] == 1000
    assert ranking[:3].tolist() == [0, 2, 1]


def test_international_goal_hex_ties_go_to_the_lower_hex_id():
    """§7.5 item 2: in an international race the best goal hex is the one with the smallest (cost tuple, hex
    id): seat 0's line forks at (25, 1) into two Canadian hexes at equal cost; the route ends in (25, 0)."""
    line = [[29, 7], [29, 6], [28, 5], [28, 4], [27, 3], [26, 3], [26, 2], [25, 1], [25, 0]]
    doc = {"international": True, "start": {0: 62}, "lines": [[0, line], [0, [[25, 1], [26, 0]]]],
           "race": (62, "Canada"), "first": 0, "races_run": 5}
    s = position(**doc)
    st = s[0]
    assert routes.step_pips(MP, step_id((25, 1), (25, 0)), hex_id(25, 1)) == \
        routes.step_pips(MP, step_id((25, 1), (26, 0)), hex_id(25, 1))
    assert st["cand_valid"][0, 0] and st["cand_steps"][0, 0] == len(line) - 1
    assert st["cand_hexes"][hex_id(25, 0)] & 1 and not st["cand_hexes"][hex_id(26, 0)] & 1
