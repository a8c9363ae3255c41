"""Setup and the build phase: one test per rule (spec §5, §6 except fees, §9.1, §9.2), positions built with
``wildwest_envs.rail.positions``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.rail._helpers import (BASE, DECLINE, END_TURN, MAP, MP, choose_start, city_hex, force, hex_id,
                                 linked_by_owned_steps, scripted_game, step_id)
from wildwest_envs.rail.data import (CTX_BUILD, CTX_COOP_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD,
                                     CTX_RACE_ENTRY, CTX_START_CHOICE, OFF_COOP_ACCEPT, OFF_COOP_DECLINE,
                                     OFF_COOP_PROPOSE)
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.maps import ST_COST
from wildwest_envs.rail.positions import legal_actions as legal
from wildwest_envs.rail.positions import place, play, position

CHICAGO = (29, 9)


def build(states, a, b) -> None:
    play(states, step_id(a, b))


# ---- §5 setup ---------------------------------------------------------------------------------------------------
def test_start_player_is_the_highest_roll():
    """§5.3: every seat rolls both dice in seat order; the highest sum starts."""
    s = scripted_game([1, 2, 6, 5, 3, 3, 4, 4])  # sums 3, 11, 6; then seat 1's first build roll 4 + 4
    assert s[0]["start_player"] == 1 and s[0]["current"] == 1
    assert s[0]["context"] == CTX_START_CHOICE and s[0]["bp_left"] == 8


def test_start_player_ties_roll_again_among_the_tied():
    """§5.3, G53: only the tied highest seats roll again, in seat order."""
    s = scripted_game([6, 6, 1, 1, 6, 6, 2, 2, 5, 1, 3, 3])  # 12, 2, 12 -> seats 0 and 2: 4, 6 -> seat 2
    assert s[0]["start_player"] == 2
    assert s[0]["bp_left"] == 6  # the next roll (3 + 3) is seat 2's first build roll


def test_balances_start_at_zero_and_nothing_is_owned():
    """§5.2: balances 0, no step owned, t = 0."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 2, 3])
    assert not s[0]["balance"].any() and not s[0]["owners"].any() and s[0]["t"] == 0


# ---- §6.1-§6.4 turns, build points, start city -------------------------------------------------------------------
def test_build_rounds_rotate_the_first_player():
    """§6.1: round k starts with seat (S + k) mod n and goes clockwise."""
    s = scripted_game([6, 6, 1, 1, 1, 1] + [1, 1] * 20)  # seat 0 starts; every build roll is 2
    order = []
    while s[0]["round"] < 2:
        order.append(int(s[0]["current"]))
        if s[0]["context"] == CTX_START_CHOICE:
            play(s, choose_start(1))
        play(s, END_TURN)
    assert order == [0, 1, 2, 1, 2, 0]


def test_build_points_are_the_sum_of_both_dice():
    """§6.3: BP = red + white."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 5, 4])
    assert s[0]["bp_left"] == 9 and (s[0]["red"], s[0]["white"]) == (5, 4)


def test_one_build_die_option():
    """§6.3: build_dice = 1 gives BP = one die (the white die)."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 5], build_dice=1)
    assert s[0]["bp_left"] == 5 and s[0]["red"] == 0


def test_shared_build_roll_is_used_by_every_player_of_the_round():
    """§6.3: with shared_build_roll one roll per round serves every turn of that round."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 3, 4, 2, 2], shared_build_roll=True)
    bps = []
    for _ in range(3):
        bps.append(int(s[0]["bp_left"]))
        play(s, choose_start(1))
        play(s, END_TURN)
    assert bps == [7, 7, 7]
    assert s[0]["bp_left"] == 4  # round 1 rolls once more


def test_start_city_choice_on_the_first_turn_only_and_no_bonus():
    """§6.4, G10: the first turn asks for a start city, any of the map's list (also a taken one); it is
    connected at once, without a bonus."""
    s = scripted_game([6, 6, 1, 1, 1, 1] + [1, 1] * 10)
    assert legal(s) == [choose_start(i) for i in range(4)]
    play(s, choose_start(1))
    chicago = MAP.city_index(63)
    assert s[0]["connected"][chicago] and s[0]["balance"][0] == 0 and s[0]["context"] == CTX_BUILD
    play(s, END_TURN)
    assert s[0]["context"] == CTX_START_CHOICE and choose_start(1) in legal(s)  # seat 1 may take Chicago too
    play(s, choose_start(1))
    assert (s[0]["net"][city_hex(63)] >> 1) & 1


def test_unused_build_points_are_lost():
    """§6.2: END_TURN ends the turn; unused BP do not carry over to the player's next turn."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 5, 4, 1, 1, 1, 1, 2, 1])
    play(s, choose_start(1))
    build(s, CHICAGO, (29, 10))
    play(s, END_TURN)
    for _ in range(2):
        play(s, choose_start(1))
        play(s, END_TURN)
    assert s[0]["current"] == 1 and s[0]["bp_left"] == 3  # round 1 starts with seat 1 (2 + 1)
    play(s, END_TURN)
    force(s, [2, 1])
    play(s, END_TURN)
    assert s[0]["current"] == 0 and s[0]["bp_left"] == 3  # seat 0's new roll only


def test_end_turn_is_forced_when_nothing_is_affordable():
    """§6.2, §11.4: with no affordable step, auto_forced ends the turn without asking."""
    s = position(start={0: 63, 1: 63, 2: 63}, turn=0, bp=1)
    play(s, step_id(CHICAGO, (29, 10)))  # 1 BP spent, nothing left: END_TURN applied automatically
    assert s[0]["builder"] != 0


def test_end_turn_is_shown_without_auto_forced():
    """§11.4: with auto_forced off, a single legal END_TURN is shown to the player."""
    s = position(auto_forced=False, start={0: 63}, turn=0, bp=1)
    play(s, step_id(CHICAGO, (29, 10)))
    assert s[0]["builder"] == 0 and legal(s) == [END_TURN]


# ---- §6.5 legal steps ----------------------------------------------------------------------------------------------
def test_steps_start_from_the_own_network_only():
    """§6.5 item 1: the source hex is in the builder's network; lines may branch from any of its hexes."""
    s = position(start={0: 63, 1: 63}, lines=[[0, [[29, 9], [29, 10], [29, 11]]]], turn=0, bp=12)
    steps = {a for a in legal(s) if a < BASE}
    sources = {hex_id(29, 9), hex_id(29, 10), hex_id(29, 11)}
    for e in steps:
        a, b = MP.steps[e, 0], MP.steps[e, 1]
        assert a in sources or b in sources
    assert step_id((29, 10), (28, 11)) in steps  # a branch from the middle of the line
    assert step_id((29, 11), (29, 12)) in steps
    assert step_id((30, 11), (30, 12)) not in steps  # not touching the network


def test_no_step_into_lakes_or_sea_and_no_owned_step():
    """§6.5 items 3 and 5: water is impassable; a seat never builds a step it owns; a rival's step is fine."""
    s = position(start={0: 63, 1: 63}, lines=[[0, [[29, 9], [29, 10]]], [1, [[29, 9], [30, 10]]]], turn=0, bp=12)
    steps = {a for a in legal(s) if a < BASE}
    assert step_id(CHICAGO, (29, 10)) not in steps  # own
    assert step_id(CHICAGO, (30, 10)) in steps  # the rival's: parallel is allowed
    assert all(MP.hexes[hex_id(*CHICAGO), 11 + d] < 0 for d in (0, 1))  # E and NE of Chicago are lake


def test_cost_must_fit_the_build_points():
    """§6.5 item 6: a step is legal only if its cost is at most the BP left."""
    s = position(start={0: 63}, lines=[[0, [[29, 9], [28, 9]]]], turn=0, bp=2)
    river = step_id((28, 9), (27, 9))
    assert MP.steps[river, ST_COST] == 3 and river not in legal(s)
    s[0]["bp_left"] = 3
    assert river in legal(s)


def test_loop_closing_step_is_one_action():
    """§6.5, G42: a step between two hexes of the network closes a loop; it is one legal id."""
    s = position(start={0: 63}, lines=[[0, [[29, 9], [29, 10], [29, 11], [30, 10]]]], turn=0, bp=4)
    loop = step_id(CHICAGO, (30, 10))
    assert loop in legal(s)
    play(s, loop)
    assert s[0]["n_owned"][0] == 4 and s[0]["bp_left"] == 3


@pytest.mark.parametrize("a, b, cost, what", [
    ((29, 10), (29, 11), 1, "open to open"),
    ((28, 9), (27, 9), 3, "open to open across a river"),
    ((26, 15), (25, 15), 3, "open to mountain"),
    ((3, 1), (3, 2), 5, "mountain to mountain"),
    ((3, 3), (4, 3), 5, "across a river into a mountain"),
    ((11, 5), (12, 5), 7, "mountain to mountain across a river"),
])
def test_step_costs(a, b, cost, what):
    """§6.6: 1 + 2 per mountain end + 2 across a river; the table of §6.6 and G3."""
    assert MP.steps[step_id(a, b), ST_COST] == cost, what


def test_rulebook_route_examples():
    """§6.6 examples: route A six open steps = 6; route B into and out of one mountain = 3 + 3; route C open,
    river, open = 1 + 3 + 1."""
    def cost(chain):
        return sum(int(MP.steps[step_id(a, b), ST_COST]) for a, b in zip(chain[:-1], chain[1:]))
    assert cost([(29, 9), (29, 10), (29, 11), (29, 12), (29, 13), (29, 14), (30, 14)]) == 6
    assert cost([(26, 14), (25, 15), (25, 16)]) == 6
    assert cost([(29, 9), (28, 9), (27, 9), (26, 9)]) == 5


def test_building_spends_the_cost_and_adds_to_the_network():
    """§6.7: the builder owns the step with the next timestamp, its end joins the network, BP decrease."""
    s = position(start={0: 63}, turn=0, bp=8)
    play(s, step_id(CHICAGO, (28, 9)))
    play(s, step_id((28, 9), (27, 9)))
    e = step_id((28, 9), (27, 9))
    assert s[0]["own_t"][e, 0] == 2 and s[0]["t"] == 2 and s[0]["bp_left"] == 4
    assert (s[0]["net"][hex_id(27, 9)] >> 0) & 1


# ---- §6.9 connection bonus ----------------------------------------------------------------------------------------
def test_first_line_into_a_city_earns_the_bonus_once():
    """§6.9: the first line to reach an unconnected city gets 6; later lines get nothing."""
    s = position(start={0: 63, 1: 62}, lines=[[0, [[29, 9], [29, 10]]], [1, [[29, 7], [29, 8]]]], turn=1, bp=6)
    before = s[0]["balance"].copy()
    play(s, step_id((29, 8), (29, 9)))  # seat 1 reaches Chicago, already connected (seat 0's start)
    assert s[0]["balance"][1] == before[1]
    s = position(start={0: 63}, lines=[[0, [[29, 9], [29, 8]]]], turn=0, bp=6)
    play(s, step_id((29, 8), (29, 7)))  # Milwaukee, a start city nobody chose: an ordinary city
    assert s[0]["balance"][0] == 6 and s[0]["connected"][MAP.city_index(62)]


# ---- §6.10 end of the build phase ---------------------------------------------------------------------------------
def test_build_phase_ends_after_the_round_limit():
    """§6.10: after build_rounds rounds the operation phase begins with race 0."""
    s = scripted_game([6, 6, 1, 1, 1, 1] + [1, 1] * 60, build_rounds=2)
    turns = 0
    while not s[0]["operating"]:
        turns += s[0]["context"] != CTX_START_CHOICE
        if s[0]["context"] == CTX_START_CHOICE:
            play(s, choose_start(1))
        else:
            play(s, END_TURN)
    assert s[0]["round"] == 2 and s[0]["operating"] and turns == 6


def test_build_phase_ends_early_once_all_cities_are_joined():
    """§6.10 item 1: at the end of a round in which every city got joined by track, the build phase ends."""
    from wildwest_envs.rail import building
    s = position(start={0: 63}, turn=0, bp=12)
    assert not building.all_cities_joined(s[0], MP)
    _connect_every_city(s)  # seat 0's track joins every city (lines laid by the builder)
    assert building.all_cities_joined(s[0], MP)


def _connect_every_city(s) -> None:
    """Seat 0's cheapest lines from Chicago to every other city (``place``; own steps are free, §6.6)."""
    place(s, lines={0: [["Chicago", name] for name in MAP.city_names if name != "Chicago"]})


def test_early_end_is_checked_only_at_the_end_of_a_round():
    """§6.10: with every city joined, the round is still completed before the races begin."""
    s = scripted_game([6, 6, 1, 1, 1, 1] + [1, 1] * 40)
    play(s, choose_start(1))
    _connect_every_city(s)
    play(s, END_TURN)
    assert not s[0]["operating"] and s[0]["current"] == 1  # seat 1 still has its turn of round 0
    play(s, choose_start(0))
    play(s, END_TURN)
    play(s, choose_start(0))
    play(s, END_TURN)
    assert s[0]["operating"] and s[0]["round"] == 1


def test_no_early_end_when_the_option_is_off():
    """§4 build_early_end = False: the build phase always lasts build_rounds rounds."""
    s = scripted_game([6, 6, 1, 1, 1, 1] + [1, 1] * 40, build_early_end=False)
    play(s, choose_start(1))
    _connect_every_city(s)
    for _ in range(3):
        play(s, END_TURN)
        if s[0]["context"] == CTX_START_CHOICE:
            play(s, choose_start(0))
    assert not s[0]["operating"] and s[0]["round"] == 1


# ---- §9.2 international lines ---------------------------------------------------------------------------------------
def test_steps_into_foreign_hexes_need_the_international_rule():
    """§6.5 item 4, §9.2: a step into Canada is legal only with international; a foreign hex is never a source."""
    doc = {"start": {0: 63}, "lines": [[0, [[29, 9], [29, 8], [28, 7], [28, 6], [27, 5], [27, 4], [26, 3],
                                             [26, 2], [25, 1]]]], "turn": 0, "bp": 12}
    into_canada = step_id((25, 1), (25, 0))
    assert into_canada not in legal(position(**doc))
    s = position(**doc, international=True)
    assert into_canada in legal(s)
    play(s, into_canada)
    assert not any(a < BASE and hex_id(25, 0) in MP.steps[a, :2] for a in legal(s))
    assert s[0]["balance"][0] == 0  # no bonus in foreign hexes


MIL_NORTH = [[29, 7], [29, 6], [28, 5], [28, 4], [27, 3], [26, 3], [26, 2], [26, 1], [26, 0]]  # Milwaukee to Canada
CHI_NORTH = [[29, 9], [29, 8], [28, 7], [28, 6], [27, 5], [27, 4], [26, 4], [25, 3], [25, 2], [25, 1], [26, 0]]
CANADA_HEX = (26, 0)  # both lines above end there and share no other hex


def test_fees_apply_in_foreign_hexes():
    """§9.2: fees apply in foreign hexes as in any non-city hex: a line entering the Canadian hex where a rival's
    line already ends pays that rival the touch fee."""
    s = position(international=True, start={0: 62, 1: 63}, lines=[[0, MIL_NORTH], [1, CHI_NORTH[:-1]]], turn=1, bp=8)
    before = s[0]["balance"].astype(int).copy()
    build(s, (25, 1), CANADA_HEX)
    assert (s[0]["balance"].astype(int) - before)[:3].tolist() == [1, -1, 0]


def test_a_route_never_passes_through_a_foreign_hex():
    """§9.2, §7.3: Milwaukee and Chicago are linked only through a Canadian hex where both lines end, so a
    domestic race between them has no route; one home step joining the lines gives seat 1 one (control). (The
    two cities are 2 hexes apart: race_min_distance 2 lets the race be generated, §7.2.)"""
    doc = {"international": True, "race_min_distance": 2, "start": {0: 62, 1: 63},
           "lines": [[0, MIL_NORTH], [1, CHI_NORTH]], "race": (62, 63), "first": 0}
    s = position(**doc)
    assert not s[0]["cand_valid"].any() and legal(s) == [DECLINE]
    doc["lines"].append([1, [[29, 8], [29, 7]]])
    s = position(**doc)
    assert s[0]["cand_valid"][1, 0] and s[0]["cand_steps"][1, 0] == 2
    assert not s[0]["cand_valid"][0].any()  # seat 0's own line still leads only into Canada


def _bfs_line(s, seat: int, target: int, avoid: set) -> None:
    """Lay seat's shortest chain of home land steps from its network to target, avoiding hexes (set-ups)."""
    from collections import deque
    from wildwest_envs.rail.maps import HOME, HX_COUNTRY, HX_NBR, HX_STEP
    st = s[0]
    sources = [int(h) for h in np.flatnonzero((st["net"] >> seat) & 1) if MP.hexes[h, HX_COUNTRY] == HOME]
    prev = {h: None for h in sources}
    todo = deque(sources)
    while todo and target not in prev:
        h = todo.popleft()
        for d in range(6):
            e, v = int(MP.hexes[h, HX_STEP + d]), int(MP.hexes[h, HX_NBR + d])
            if e < 0 or v in prev or v in avoid or MP.hexes[v, HX_COUNTRY] != HOME or MP.steps[e, ST_COST] > 7:
                continue
            prev[v] = h
            todo.append(v)
    chain, h = [], target
    while h is not None:
        chain.append(MAP.col_row(h))
        h = prev[h]
    if len(chain) > 1:
        place(s, lines=[(seat, chain[::-1])])


def test_early_end_ignores_links_through_foreign_hexes():
    """§6.10 item 1, G45: seat 0's track joins every city but Milwaukee, whose line meets seat 0's only in a
    Canadian hex: the cities are not joined (although the steps, foreign hex included, link them); one home
    step into Milwaukee joins them."""
    from wildwest_envs.rail import building
    s = position(international=True, start={0: 63, 1: 62}, lines=[[1, MIL_NORTH], [0, CHI_NORTH]], turn=0, bp=12)
    milwaukee = city_hex(62)
    avoid = {hex_id(*h) for h in MIL_NORTH}
    for c in MP.city_hex:
        if int(c) != milwaukee:
            _bfs_line(s, 0, int(c), avoid)
    st = s[0]
    assert ((st["net"] & 1) & ((st["net"] >> 1) & 1)).sum() == 1  # the two networks share only the Canadian hex
    # control: over every owned step, foreign hexes included, Milwaukee is linked to the rest
    linked = linked_by_owned_steps(st, MP, milwaukee)
    assert {int(c) for c in MP.city_hex} <= linked
    assert not building.all_cities_joined(st, MP)
    place(s, lines=[(0, [(29, 8), (29, 7)])])
    assert building.all_cities_joined(st, MP)


# ---- §3.5 distinct directions (map data) -----------------------------------------------------------------------------
def test_distinct_directions_first_steps():
    """§3.5, §6.5 item 7: under distinct_directions a first step may not leave the start city through a side
    another player's first step used."""
    from wildwest_envs.rail import building
    s = position(start={0: 63, 1: 63}, lines=[[0, [[29, 9], [29, 10]]]], turn=1, bp=6)
    s[0]["distinct_dirs"] = True
    blocked = step_id(CHICAGO, (29, 10))
    assert s[0]["first_dir"][0] == 4  # seat 0 left Chicago to the SW
    assert blocked not in legal(s)
    assert step_id(CHICAGO, (30, 10)) in legal(s)
    count = building.mark_steps(s[0], MP, np.zeros(0, np.int8), np.bool_(False))
    assert count == 3  # NW, W, SE


# ---- §9.1 co-building -------------------------------------------------------------------------------------------------
def coop_position(bp: int = 8, start_player: int = 0):
    """Seats 0 and 1 start in Chicago, seat 2 in Milwaukee; seat 0 to build, order start_player, ... (round 0)."""
    return position(coop_building=True, start={0: 63, 1: 63, 2: 62},
                    lines=[[0, [[29, 9], [29, 10]]], [1, [[29, 9], [28, 9]]]], turn=0, bp=bp, start_player=start_player)


def _proposals(s) -> list[int]:
    return [a - BASE - OFF_COOP_PROPOSE for a in legal(s) if OFF_COOP_PROPOSE < a - BASE <= OFF_COOP_PROPOSE + 5]


def test_coop_proposal_legality():
    """§9.1 item 2: the partner's turn of this round is still to come, it has a start city and the two
    networks share a home hex; only before the first step of the turn."""
    s = coop_position()
    proposals = [a - BASE - OFF_COOP_PROPOSE for a in legal(s) if OFF_COOP_PROPOSE < a - BASE <= OFF_COOP_PROPOSE + 5]
    assert proposals == [1]  # seat 1 shares Chicago; seat 2 (Milwaukee) shares nothing
    play(s, step_id((29, 10), (29, 11)))
    assert _proposals(s) == []  # only before the first step of the turn
    assert _proposals(coop_position(start_player=1)) == []  # order 1, 2, 0: seat 1 has had its turn
    off = position(start={0: 63, 1: 63}, turn=0, bp=8, start_player=0)
    assert _proposals(off) == []  # the expert rule is off by default


def _accepted(bp_partner: int):
    s = coop_position(bp=8)
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    assert s[0]["context"] == CTX_COOP_RESPONSE and s[0]["current"] == 1
    assert legal(s) == [BASE + OFF_COOP_ACCEPT, BASE + OFF_COOP_DECLINE]
    force(s, [bp_partner // 2, bp_partner - bp_partner // 2])
    play(s, BASE + OFF_COOP_ACCEPT)
    return s


def test_coop_pooled_build_points_are_three_quarters():
    """§9.1 item 4: pooled BP = floor(3 (BP_p + BP_q) / 4): 8 + 8 gives 12, 8 + 4 gives 9; the partner's turn
    of this round is used up."""
    s = _accepted(8)
    assert s[0]["context"] == CTX_COOP_BUILD and s[0]["current"] == 0 and s[0]["bp_left"] == 12
    assert s[0]["turn_used"][1] == 1
    assert _accepted(4)[0]["bp_left"] == 9


def test_coop_joint_steps_grow_from_the_meeting_point_and_are_owned_by_both():
    """§9.1 items 5-6: joint steps start in both networks; both partners own them with one timestamp."""
    s = _accepted(8)
    steps = {a for a in legal(s) if a < BASE}
    assert step_id(CHICAGO, (30, 10)) in steps and step_id(CHICAGO, (29, 8)) in steps
    assert step_id((29, 10), (29, 11)) not in steps  # (29, 10) is in seat 0's network only
    assert step_id(CHICAGO, (29, 10)) not in steps  # seat 0 owns it
    play(s, step_id(CHICAGO, (29, 8)))
    e = step_id(CHICAGO, (29, 8))
    assert s[0]["own_t"][e, 0] == s[0]["own_t"][e, 1] == s[0]["t"]
    play(s, step_id((29, 8), (29, 7)))  # Milwaukee: seat 2's start city, connected: no bonus
    play(s, END_TURN)
    assert s[0]["current"] == 2  # seat 1's turn was used up


def test_coop_bonus_is_split_proposer_first():
    """§9.1 item 8: a city first connected by a joint step pays half the bonus to each (proposer gets the
    larger half of an odd bonus)."""
    s = position(coop_building=True, connection_bonus=7, start={0: 63, 1: 63},
                 lines=[[0, [[29, 9], [29, 10], [29, 11], [29, 12]]]], turn=0, bp=8, start_player=0)
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    force(s, [6, 6])
    play(s, BASE + OFF_COOP_ACCEPT)
    play(s, step_id(CHICAGO, (29, 8)))
    play(s, step_id((29, 8), (29, 7)))  # Milwaukee, unconnected
    assert s[0]["balance"][0] == 4 and s[0]["balance"][1] == 3


def test_coop_decline_returns_to_an_ordinary_turn():
    """§9.1 item 3: after a decline the proposer builds with his own BP and cannot propose again."""
    s = coop_position(bp=8)
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    play(s, BASE + OFF_COOP_DECLINE)
    assert s[0]["context"] == CTX_BUILD and s[0]["current"] == 0 and s[0]["bp_left"] == 8
    assert _proposals(s) == []


def test_coop_partners_pay_nothing_to_each_other():
    """§9.1 item 7: a fee one partner would owe the other for a joint step is recorded as paid, no money moves."""
    s = position(coop_building=True, start={0: 63, 1: 63}, lines=[[1, [[29, 9], [29, 10], [30, 10]]]], turn=0,
                 bp=8, start_player=0)
    before = s[0]["balance"].copy()
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    force(s, [6, 6])
    play(s, BASE + OFF_COOP_ACCEPT)
    play(s, step_id(CHICAGO, (30, 10)))  # into (30, 10), where seat 1 was first: seat 0 would owe it 1
    assert (s[0]["balance"] == before).all()
    assert (s[0]["touched"][hex_id(30, 10)] >> 0) & 1  # recorded as paid
    s2 = position(start={0: 63, 1: 63}, lines=[[1, [[29, 9], [29, 10], [30, 10]]]], turn=0, bp=8)
    play(s2, step_id(CHICAGO, (30, 10)))  # control: alone, seat 0 pays seat 1 the touch fee
    assert s2[0]["balance"][1] == 1


def test_coop_partners_each_pay_their_own_fees_to_third_players():
    """§9.1 item 7: each partner pays third players what §6.8 makes it owe as if it alone had built the joint
    step: a joint step beside seat 2's earlier step costs each partner 2 (one non-city end)."""
    s = position(coop_building=True, start={0: 63, 1: 63, 2: 63},
                 lines=[[0, [[29, 9], [29, 10]]], [1, [[29, 9], [28, 9]]], [2, [[29, 9], [30, 10], [30, 11]]]],
                 turn=0, bp=8, start_player=0)
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    force(s, [6, 6])
    play(s, BASE + OFF_COOP_ACCEPT)
    before = s[0]["balance"].astype(int).copy()
    play(s, step_id(CHICAGO, (30, 10)))
    assert (s[0]["balance"].astype(int) - before)[:3].tolist() == [-2, -2, 4]


def test_coop_partner_uses_the_shared_roll():
    """§9.1 item 4, §11.3: with shared_build_roll the partner rolls nothing on acceptance and uses the round's
    roll: pooled BP = floor(3 (8 + 8) / 4) = 12."""
    s = position(coop_building=True, shared_build_roll=True, start={0: 63, 1: 63},
                 lines=[[0, [[29, 9], [29, 10]]], [1, [[29, 9], [28, 9]]]], turn=0, bp=8, start_player=0)
    s[0]["shared_bp"] = 8
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    force(s, [1, 1])
    play(s, BASE + OFF_COOP_ACCEPT)
    assert s[0]["context"] == CTX_COOP_BUILD and s[0]["bp_left"] == 12 and s[0]["forced_pos"] == 0


def test_no_coop_in_extension_windows():
    """§7.10: co-building is not offered in an extension turn, although the networks share a hex and the
    partner's turn is still to come (control: the same lines allow a proposal in a build turn)."""
    lines = [[0, [[29, 9], [29, 10]]], [1, [[29, 9], [28, 9]]]]
    ext = position(coop_building=True, start={0: 63, 1: 63}, lines=lines, balances=[20, 20, 0],
                   decision="ext_build", turn=0, funding="account", first=0)
    assert ext[0]["context"] == CTX_EXT_BUILD and _proposals(ext) == []
    ext = position(coop_building=True, extension_mode="dice", start={0: 63, 1: 63}, lines=lines,
                   decision="ext_build", turn=0, funding="dice", bp=8, first=0)
    assert ext[0]["context"] == CTX_EXT_BUILD and _proposals(ext) == []
    build_turn = position(coop_building=True, start={0: 63, 1: 63}, lines=lines, turn=0, bp=8, start_player=0)
    assert _proposals(build_turn) == [1]


def test_decline_race_is_the_only_action_without_candidates():
    """§7.6: a player whose lines touch no route has RACE_DECLINE only (applied automatically)."""
    s = position(start={0: 63, 1: 62}, lines=[[0, [[29, 9], [29, 10], [29, 11]]]], race=(63, 51), first=1)
    assert s[0]["context"] == CTX_RACE_ENTRY
    assert legal(s) == [DECLINE]
    assert GAME.legal_action_strings(s[0]) == ["decline race"]
