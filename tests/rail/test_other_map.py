"""Another map is data alone (§3.8): a small test map with a ferry, a foreign strip, one start city and the
distinct-directions start rule, bound to its own Game by ``make_game``; the rules that need such a map
(ferries §9.5, unused city numbers §7.2, d_min G46, build rounds from the file §6.10, start rule §3.5)."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest

from tests.rail._helpers import force, linked_by_owned_steps, scripted_game
from wildwest_envs.rail import races
from wildwest_envs.rail.data import OFF_BUILD_FERRY, OFF_END_TURN, OFF_RACE_ENTER
from wildwest_envs.rail.game import make_game
from wildwest_envs.rail.maps import HOME, HX_COUNTRY, HX_NBR, HX_TERRAIN, T_LAKE, T_SEA, load_map
from wildwest_envs.rail.positions import legal_actions, place, position
from wildwest_envs.rail.positions import play as play_on

MAP_FILE = Path(__file__).parent / "data" / "strait.json"
STRAIT = make_game(MAP_FILE, name="rail_strait_v0")
SMAP = STRAIT.rail_map
SMP = SMAP.tables
BASE = SMAP.n_steps
FERRY = BASE + OFF_BUILD_FERRY
END_TURN = BASE + OFF_END_TURN
WEST_LINE = [[2, 3], [3, 3], [4, 3], [5, 3]]  # Westport to the ferry's west end


def legal(s) -> list[int]:
    return legal_actions(s, game=STRAIT)


def play(s, a: int) -> None:
    play_on(s, a, game=STRAIT)


def step(a, b) -> int:
    return SMAP.step_between(SMAP.hex_of(*a), SMAP.hex_of(*b))


def land_chain(a, b, avoid=()) -> list[list[int]]:
    """The shortest chain of adjacent home land hexes from a to b (for set-ups)."""
    start, goal = SMAP.hex_of(*a), SMAP.hex_of(*b)
    blocked = {SMAP.hex_of(*h) for h in avoid}
    prev = {start: None}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if h == goal:
            break
        for d in range(6):
            v = int(SMP.hexes[h, HX_NBR + d])
            if v < 0 or v in prev or v in blocked or SMP.hexes[v, HX_TERRAIN] in (T_LAKE, T_SEA) \
                    or SMP.hexes[v, HX_COUNTRY] != HOME:
                continue
            prev[v] = h
            todo.append(v)
    chain = []
    h = goal
    while h is not None:
        chain.append(list(SMAP.col_row(h)))
        h = prev[h]
    return chain[::-1]


def test_the_map_loads_with_its_own_sizes():
    """§3.8: the file alone defines the grid, cities, start cities, ferries and race tables; the Game's sizes
    follow from it."""
    assert (SMAP.width, SMAP.height, SMAP.n_cities) == (12, 8, 4)
    assert STRAIT.n_actions == SMAP.n_steps + 27 and SMAP.ferry_names == ("Strait ferry",)
    assert STRAIT.state_dtype != make_game.__globals__["GAME"].state_dtype
    assert load_map(MAP_FILE).n_steps == SMAP.n_steps
    assert SMAP.start_rule == "distinct_directions"


def test_build_rounds_come_from_the_map_file():
    """§6.10, §3.8: the map's build_rounds table is the default (3 rounds for 3 players here)."""
    assert STRAIT.parse_options(num_players=3)["build_rounds"] == 3
    assert STRAIT.parse_options(num_players=3, build_rounds=5)["build_rounds"] == 5


def test_single_start_city_is_chosen_automatically():
    """§11.4: on a one-start-city map CHOOSE_START is forced and applied without asking."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 3, 3], game=STRAIT)
    assert s[0]["start_city"][0] == 0 and s[0]["context"] == 1  # BUILD


def test_distinct_directions_from_the_map_file():
    """§3.5: with the map's start rule, a second player's first step may not leave Westport the way the first
    player's did."""
    s = scripted_game([6, 6, 1, 1, 1, 1, 3, 3, 3, 3], game=STRAIT)
    first = step((2, 3), (3, 3))
    play(s, first)
    play(s, END_TURN)
    assert s[0]["current"] == 1 and first not in legal(s)
    assert step((2, 3), (2, 4)) in legal(s)


def test_unused_city_numbers_are_rolled_again():
    """§7.2, G17: a number that is not a city of the map (33) is rolled again."""
    s = position(start={0: 11}, lines=[[0, WEST_LINE]], decision="ext_build", turn=0, game=STRAIT)
    force(s, [3, 3, 1, 1, 6, 6, 1, 2], STRAIT)  # 33 (no city) -> 11; goal 66 (no city) -> 12
    s[0]["race_k"] = 0
    races.generate_race(s[0], SMP)
    assert s[0]["race_start"] == SMP.city_hex[SMAP.city_index(11)]
    assert s[0]["race_goal"] == SMP.city_hex[SMAP.city_index(12)]


def test_minimum_distance_is_capped_by_the_largest_city_distance():
    """§7.2, G46: d_min = min(race_min_distance, largest city distance)."""
    assert int(SMP.meta[2]) == 9
    s = position(race_min_distance=20, start={0: 11}, turn=0, bp=3, game=STRAIT)
    assert s[0]["d_min"] == 9


# ---- ferries (§9.5) ----------------------------------------------------------------------------------------------
def ferry_position(bp: int = 6, **options):
    return position(start={0: 11}, lines=[[0, WEST_LINE]], turn=0, bp=bp, game=STRAIT, **options)


def test_ferry_needs_an_end_in_the_network_and_its_cost():
    """§9.5: BUILD_FERRY is legal when an end is a home hex of the builder's network and 6 BP are left."""
    assert FERRY in legal(ferry_position(6))
    assert FERRY not in legal(ferry_position(5))
    s = position(start={0: 11}, lines=[[0, WEST_LINE[:3]]], turn=0, bp=12, game=STRAIT)
    assert FERRY not in legal(s)
    assert FERRY not in legal(ferry_position(6, ferries=False))


def test_building_a_ferry():
    """§9.5: the ferry takes a timestamp, belongs to its builder alone, joins both ends to his network and
    triggers no fees."""
    s = ferry_position(12)
    t, balance = int(s[0]["t"]), s[0]["balance"].copy()
    play(s, FERRY)
    east = SMAP.hex_of(8, 3)
    assert s[0]["ferry_owner"][0] == 0 and s[0]["ferry_t"][0] == t + 1 == s[0]["t"]
    assert (s[0]["net"][east] & 1) and s[0]["bp_left"] == 6
    assert (s[0]["balance"] == balance).all()
    assert FERRY not in legal(s)  # one owner per ferry
    assert step((8, 3), (9, 3)) in legal(s)  # the line goes on from the other end


def test_a_later_line_into_a_ferry_end_pays_the_touch_fee():
    """§9.5, G41: the ferry is part of its owner's line: a rival entering its non-city end pays 1."""
    s = ferry_position(12)
    play(s, FERRY)
    play(s, END_TURN)
    around = land_chain((2, 3), (8, 4), avoid=[(3, 3), (4, 3), (5, 3), (8, 3)])
    st = s[0]
    assert st["current"] == 1 and st["start_city"][1] == 0  # seat 1's turn: Westport chosen automatically
    place(s, lines=[(1, around)], game=STRAIT)  # seat 1's line around the strait to (8, 4)
    st["bp_left"] = 3
    before = st["balance"].copy()
    play(s, step((8, 4), (8, 3)))
    assert (s[0]["balance"] - before)[:2].tolist() == [1, -1]


def test_ferry_in_races():
    """§9.5: a built ferry is an edge of the rail graph: 5 pips to cross; for its owner it is an own step, for
    others one step of the owner's line (travel fee 1)."""
    s = ferry_position(12)
    play(s, FERRY)
    play(s, step((8, 3), (9, 3)))
    st = s[0]
    st["race_start"], st["race_goal"], st["race_country"] = SMP.city_hex[0], SMP.city_hex[1], -1
    races.compute_candidates(st, SMP)
    assert st["cand_valid"][0, 0] and st["cand_pips"][0, 0] == 3 + 5 + 1 and st["cand_own"][0, 0] == 5
    # seat 1 owns only the last step: its route crosses seat 0's ferry and 3 steps of seat 0
    from wildwest_envs.rail import building
    st["start_city"][1] = 0
    building.add_to_network(st, SMP, 1, SMP.city_hex[0])
    st["builder"], st["context"], st["bp_left"] = 1, 1, 9
    building.build_step(st, SMP, step((8, 3), (9, 3)))
    races.compute_candidates(st, SMP)
    assert st["cand_valid"][1, 0] and st["cand_fee"][1, 0, 0] == 4  # 3 steps + the ferry


def test_no_ferries_in_a_co_build_and_account_funding_counts_its_cost():
    """§9.1 item 5, §9.5, G50: a co-build (both partners owning a step under distinct_directions) cannot buy
    a ferry; from the account the ferry costs 6 money and 6 window BP."""
    from wildwest_envs.rail.data import OFF_COOP_ACCEPT, OFF_COOP_PROPOSE
    doc = {"coop_building": True, "start": {0: 11, 1: 11}, "lines": [[0, WEST_LINE]], "turn": 0, "bp": 12,
           "start_player": 0, "game": STRAIT}
    assert BASE + OFF_COOP_PROPOSE + 1 not in legal(position(**doc))  # G50: seat 1 owns no step yet
    doc["lines"].append([1, [[2, 3], [2, 4]]])
    s = position(**doc)
    play(s, BASE + OFF_COOP_PROPOSE + 1)
    force(s, [6, 6], STRAIT)
    play(s, BASE + OFF_COOP_ACCEPT)
    assert FERRY not in legal(s)
    s = position(start={0: 11}, lines=[[0, WEST_LINE]], balances=[20, 0, 0], decision="ext_build", turn=0,
                 game=STRAIT)
    play(s, FERRY)
    assert s[0]["balance"][0] == 14 and s[0]["window_bp"][0] == 6 and s[0]["total_bank"] == 6


def test_early_end_counts_ferries():
    """§6.10 item 1, G45: a built ferry links the cities at its two ends for the early end: Westport and
    Southwest on the west shore, Eastport and Southeast on the east shore, joined only by the ferry."""
    from wildwest_envs.rail import building
    west = land_chain((2, 3), (2, 6))
    s = position(start={0: 11}, lines=[[0, WEST_LINE], [0, west]], turn=0, bp=12, game=STRAIT)
    play(s, FERRY)
    st = s[0]
    place(s, lines=[(0, [[8, 3], [9, 3]]), (0, land_chain((9, 3), (10, 6)))], game=STRAIT)
    assert building.all_cities_joined(st, SMP)
    # control: the steps alone do not link the two shores
    linked = linked_by_owned_steps(st, SMP, SMAP.hex_of(2, 3))
    assert SMAP.hex_of(9, 3) not in linked and SMAP.hex_of(2, 6) in linked


def test_international_race_on_this_map():
    """§9.3: the map's red table names its foreign country; the route ends in its first hex."""
    line = [[2, 3], [2, 2], [2, 1], [2, 0]]
    s = position(international=True, start={0: 11}, lines=[[0, line]], race=(11, "Northland"), races_run=5, first=0,
                 game=STRAIT)  # race 5 is the first international one (§9.3)
    assert s[0]["cand_valid"][0, 0] and s[0]["cand_steps"][0, 0] == 3
    assert BASE + OFF_RACE_ENTER in legal(s)


@pytest.mark.parametrize("n", [2, 4])
def test_random_games_on_this_map_keep_every_invariant(n):
    """The engine is map-independent: random games (expert rules on) keep the invariants and end."""
    from wildwest_envs.core.sampling import LegalSampler
    games = 48  # below core.kernels.SERIAL_BELOW: the serial builds only, one compilation less for this map
    states = STRAIT.init_batch(games, seed=n, num_players=n, expert=True)
    sample = LegalSampler(games, n)
    masks = np.zeros((games, STRAIT.n_actions), dtype=np.int8)
    while not states["done"].all():
        STRAIT.legal_mask(states, masks)
        STRAIT.step(states, sample(masks), check=False)
        assert not STRAIT.invariant_violations(states)
    assert (states["ferry_owner"][:, 0] >= 0).any()  # some random player bought the ferry
