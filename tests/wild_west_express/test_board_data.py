"""Board data of Wild West Express: the JSON tables against the spec (§3, §4.3, §13.5, §17.1)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from wildwest_envs.wild_west_express import data as d

SPEC = (Path(__file__).parents[2].parent / "shared" / "rules" / "wild_west_express.md")


def test_s0_2_space_ids_unique_and_typed():
    """§0.2: 314 unique space ids; cities 0-25 (space id == city id), junctions 26-30, track 31-313."""
    ids = [s["id"] for s in d.BOARD["spaces"]]
    assert ids == list(range(314)) and len(set(ids)) == 314
    assert list(d.SPACE_TYPE[:26]) == [d.SPACE_CITY] * 26
    assert list(d.SPACE_TYPE[26:31]) == [d.SPACE_JUNCTION] * 5
    assert (d.SPACE_TYPE[31:] == d.SPACE_TRACK).all()
    assert all(c["space"] == c["id"] for c in d.BOARD["cities"])


def test_s3_1_graph_is_connected_symmetric_without_dead_ends():
    """§3.1: an undirected connected graph; track spaces have two neighbours; no dead end."""
    for x in range(d.N_SPACES):
        for y in d.NEIGHBOURS[x]:
            if y >= 0:
                assert x in d.NEIGHBOURS[y]
    assert (d.DISTANCE >= 0).all()
    assert (d.DEGREE >= 2).all()
    assert (d.DEGREE[31:] == 2).all()
    assert (d.DEGREE[26:31] == 3).all()


def test_s3_1_non_city_spaces_form_a_forest():
    """§11.1 support: no route joins two junctions, so the non-city spaces have no cycle (dynamite groups are trees)."""
    non_city = [x for x in range(d.N_SPACES) if not d.IS_CITY[x]]
    edges = sum(1 for x in non_city for y in d.NEIGHBOURS[x] if y >= 0 and not d.IS_CITY[y]) // 2
    parent = list(range(d.N_SPACES))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    for x in non_city:
        for y in d.NEIGHBOURS[x]:
            if y > x and not d.IS_CITY[y]:
                assert find(x) != find(y), "cycle among non-city spaces"
                parent[find(x)] = find(y)
    assert edges < len(non_city)


def test_s3_5_routes_chain_their_spaces():
    """§3.5: a route's chain is from, consecutive track ids, to; 2-12 track spaces."""
    for r in d.BOARD["routes"]:
        chain = r["spaces"]
        assert chain[0] == r["endpoints"][0] and chain[-1] == r["endpoints"][1]
        track = chain[1:-1]
        assert 2 <= len(track) <= 12 and track == list(range(track[0], track[0] + len(track)))
        for a, b in zip(chain, chain[1:]):
            assert b in d.NEIGHBOURS[a]


def test_s3_6_key_figures():
    """§3.6: 314 spaces (26/5/283), 46 routes, 30 T and 17 stars, zones 8/12/6, farthest cities 56 apart."""
    assert (d.N_SPACES, d.N_CITIES, d.N_JUNCTIONS, d.N_SPACES - d.FIRST_TRACK) == (314, 26, 5, 283)
    assert d.N_ROUTES == 46
    assert (d.SPACE_SPECIAL == d.SPECIAL_TELEGRAM).sum() == 30
    assert (d.SPACE_SPECIAL == d.SPECIAL_STAR).sum() == 17
    assert (d.SPACE_SPECIAL[:31] == d.SPECIAL_NONE).all()
    assert list(np.bincount(d.CITY_ZONE)) == [8, 12, 6]
    assert d.DISTANCE[:26, :26].max() == 56
    lengths = [r["n_track_spaces"] for r in d.BOARD["routes"]]
    assert round(sum(lengths) / len(lengths), 2) == 6.15


def test_s3_5_special_spaces_follow_the_placement_pattern():
    """§3.5: a T in the middle of every route of >= 5 track spaces; a star on every route of >= 7."""
    for r in d.BOARD["routes"]:
        track = r["spaces"][1:-1]
        has_t = any(d.SPACE_SPECIAL[s] == d.SPECIAL_TELEGRAM for s in track)
        has_star = any(d.SPACE_SPECIAL[s] == d.SPECIAL_STAR for s in track)
        assert has_t == (len(track) >= 5)
        assert has_star == (len(track) >= 7)


def test_s3_2_zones_follow_the_x_coordinate():
    """§3.2: zone lines at x = 166 and x = 460."""
    for x in range(d.N_SPACES):
        expected = 0 if d.SPACE_X[x] < 166 else (1 if d.SPACE_X[x] < 460 else 2)
        assert d.SPACE_ZONE[x] == expected


def test_s4_2_every_good_bought_and_sold_and_no_city_both():
    """§4.2: every good is sold and bought somewhere; no city sells and buys one good; every city sells."""
    assert ((d.SELL_PRICE > 0).sum(axis=0) > 0).all()
    assert ((d.BUY_PRICE > 0).sum(axis=0) > 0).all()
    assert not ((d.SELL_PRICE > 0) & (d.BUY_PRICE > 0)).any()
    assert ((d.SELL_PRICE > 0).sum(axis=1) > 0).all()
    for g in range(d.N_GOODS):  # the purchase price is the same everywhere (§4.3)
        assert set(d.SELL_PRICE[:, g][d.SELL_PRICE[:, g] > 0]) == {d.PURCHASE_PRICE[g]}


def test_s4_3_sale_prices_follow_the_formula_with_half_to_even():
    """§4.3: sale = purchase + max(30, 10 * round(r * d / 10)), d = steps from the nearest seller; half to even."""
    for g in range(d.N_GOODS):
        sellers = np.flatnonzero(d.SELL_PRICE[:, g])
        for c in np.flatnonzero(d.BUY_PRICE[:, g]):
            dist = min(int(d.DISTANCE[c, s]) for s in sellers)
            premium = 10 * round(int(d.PREMIUM_PER_STEP[g]) * dist / 10)  # Python round: half to even
            assert d.BUY_PRICE[c, g] == d.PURCHASE_PRICE[g] + max(30, premium), (d.GOOD_NAMES[g], d.CITY_NAMES[c])
    assert d.BUY_PRICE[1, 4] == 280  # silver to Portland: d = 15, 16.5 -> 16


def test_s5_start_cargo_is_the_cheapest_good_sold():
    """§5 item 4: the free start cargo is the cheapest good the city sells, ties to the lower id."""
    for c in range(d.N_CITIES):
        sold = [(d.SELL_PRICE[c, g], g) for g in range(d.N_GOODS) if d.SELL_PRICE[c, g] > 0]
        assert d.START_CARGO[c] == min(sold)[1]


def test_s4_3_price_table_of_the_spec_matches_the_json():
    """§4.3 "By city" table of the spec lists the JSON prices (needs the spec in ../shared, as in CI)."""
    if not SPEC.exists():
        pytest.skip(f"the rules spec is not beside this checkout ({SPEC})")
    text = SPEC.read_text()
    for c in range(d.N_CITIES):
        row = re.search(rf"^\| {c} \| {re.escape(d.CITY_NAMES[c])} \| \w+ \| (.*?) \| (.*?) \| (.*?) \|$", text, re.M)
        assert row, d.CITY_NAMES[c]
        for cell, table in ((row.group(1), d.SELL_PRICE), (row.group(2), d.BUY_PRICE)):
            listed = {(name.strip(), int(price)) for name, price in re.findall(r"([A-Za-z ]+) \$(\d+)", cell)}
            actual = {(d.GOOD_NAMES[g], int(table[c, g])) for g in range(d.N_GOODS) if table[c, g] > 0}
            assert listed == actual, d.CITY_NAMES[c]


def test_s14_2_victory_targets():
    """§14.2: 2p 11, 3p 10, 4p 9, 5p 8."""
    assert [d.VICTORY_TARGET[n] for n in range(2, 6)] == [11, 10, 9, 8]


def test_s13_5_card_list():
    """§13.5: 22 personal, 12 public, 18 competition cards; type ids and counts as listed."""
    assert list(np.bincount(d.CARD_CLASS)) == [22, 12, 18]
    counts = [3, 2, 1, 2, 2, 2, 3, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2, 1, 10, 2, 2, 2, 2]
    assert list(np.bincount(d.CARD_TYPE, minlength=23)) == counts
    assert list(d.CARD_TYPE[:3]) == [d.T_EXTRA_MOVE_3] * 3 and d.CARD_TYPE[5] == d.T_BACKTRACK_3
    contracts = {34: (1, 23, 300), 35: (4, 1, 250), 36: (3, 2, 300), 37: (8, 0, 300), 38: (0, 8, 250),
                 39: (2, 19, 200), 40: (5, 10, 250), 41: (6, 13, 150), 42: (7, 24, 200), 43: (3, 9, 150)}
    for k, (g, c, bonus) in contracts.items():
        assert (d.CARD_GOOD[k], d.CARD_CITY[k], d.CARD_BONUS[k]) == (g, c, bonus)
    assert (d.CARD_CITY[48], d.CARD_BONUS[48], d.CARD_CITY[49], d.CARD_BONUS[49]) == (9, 150, 16, 150)
    assert list(d.CARD_STEPS[:6]) == [3, 3, 3, 6, 6, 3]


def test_s17_1_action_layout():
    """§17.1: Discrete(553), contiguous ranges in the JSON's order."""
    assert d.N_ACTIONS == 553
    start = 0
    for name, first, size in d.ACTION_RANGES:
        assert first == start
        start += size
    assert start == d.N_ACTIONS
    assert (d.A_BUY_GOOD, d.A_PLAY_CARD, d.A_UNLOAD_SLOT, d.A_STOP, d.A_HOLD, d.A_REHIRE, d.A_END) == \
        (320, 464, 516, 518, 519, 520, 552)


def test_s17_2_decision_types():
    """§17.2: 17 decision types in the JSON's order."""
    assert d.DECISION_NAMES[d.DEC_PRE_ROLL] == "PRE_ROLL" and d.DECISION_NAMES[d.DEC_TRAIN_STEP] == "TRAIN_STEP"
    assert len(d.DECISION_NAMES) == 17


def test_tables_are_read_only():
    """STYLE §4: numba freezes global arrays, so they must be read-only."""
    for name in ("NEIGHBOURS", "DISTANCE", "SELL_PRICE", "BUY_PRICE", "CARD_TYPE", "START_CARGO"):
        assert not getattr(d, name).flags.writeable
