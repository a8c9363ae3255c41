"""The map: the shipped western USA file (§3.9) and the generic loader's checks (§3.8)."""

from __future__ import annotations

import copy
import heapq
import json
from pathlib import Path

import numpy as np
import pytest

from wildwest_envs.rail.data import DEFAULT_MAP, MAP_PATH
from wildwest_envs.rail.maps import (HOME, HX_CITY, HX_COUNTRY, HX_TERRAIN, ST_COST, ST_FOREIGN, T_LAKE, T_MOUNTAIN,
                                     T_OPEN, T_SEA, axial_from_offset, cheapest_build_costs, hex_distance,
                                     map_from_dict)

SPEC_MAP = Path(__file__).resolve().parents[3] / "shared" / "rules" / "rail_western_usa.json"
DOC = json.loads(MAP_PATH.read_text())
T = DEFAULT_MAP.tables


def test_packaged_map_is_the_spec_file():
    """The package ships an exact copy of rules/rail_western_usa.json."""
    if not SPEC_MAP.exists():
        pytest.skip("the rules folder is not beside this checkout")
    assert json.loads(SPEC_MAP.read_text()) == DOC


def test_western_usa_key_figures():
    """§3.9: 31 x 25 hexes; 574 open, 81 mountain, 18 lake, 102 sea; 56 foreign land hexes (30 + 26)."""
    assert (DEFAULT_MAP.width, DEFAULT_MAP.height) == (31, 25)
    terrain = T.hexes[:, HX_TERRAIN]
    assert [int((terrain == code).sum()) for code in (T_OPEN, T_MOUNTAIN, T_LAKE, T_SEA)] == [574, 81, 18, 102]
    country = T.hexes[:, HX_COUNTRY]
    land = (terrain == T_OPEN) | (terrain == T_MOUNTAIN)
    assert int((land & (country != HOME)).sum()) == 56
    assert sorted(np.bincount(country[land & (country != HOME)])[1:].tolist()) == [26, 30]
    assert int((land & (country == HOME)).sum()) == 599


def test_western_usa_rivers_and_steps():
    """§3.9: 18 rivers with 339 sides; 1,691 home steps, 1,770 with international, 76 foreign-foreign steps."""
    assert len(DOC["rivers"]) == 18
    assert sum(len(r["edges"]) for r in DOC["rivers"]) == 339
    assert int(T.hexes[:, 17:23].sum()) // 2 == 339
    assert DEFAULT_MAP.n_steps == 1770
    assert int((T.steps[:, ST_FOREIGN] == 0).sum()) == 1691
    land = np.isin(T.hexes[:, HX_TERRAIN], (T_OPEN, T_MOUNTAIN))
    foreign = T.hexes[:, HX_COUNTRY] != HOME
    pairs = sum(1 for h in range(DEFAULT_MAP.n_hexes) for d in (0, 4, 5)
                if T.hexes[h, 5 + d] >= 0 and land[h] and land[T.hexes[h, 5 + d]] and foreign[h]
                and foreign[T.hexes[h, 5 + d]])
    assert pairs == 76


def test_cities_numbered_on_land_and_start_cities():
    """36 cities numbered 11..66 (digits 1-6) on open home hexes; start cities Milwaukee, Chicago, Memphis,
    New Orleans (§3.4, §3.5, §3.9)."""
    numbers = sorted(T.city_number.tolist())
    assert numbers == [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    for h in T.city_hex:
        assert T.hexes[h, HX_TERRAIN] == T_OPEN and T.hexes[h, HX_COUNTRY] == HOME
    assert len(set(T.city_hex.tolist())) == 36
    assert [DEFAULT_MAP.city_names[c] for c in T.start_cities] == ["Milwaukee", "Chicago", "Memphis", "New Orleans"]
    assert DEFAULT_MAP.city_names[DEFAULT_MAP.city_index(65)] == "Memphis"


def test_city_table_of_the_spec():
    """§3.9 city table: spot checks of names and (col, row)."""
    for number, name, col, row in [(11, "Seattle", 2, 3), (43, "Denver", 16, 12), (63, "Chicago", 29, 9),
                                   (66, "New Orleans", 27, 23), (55, "San Antonio", 21, 24)]:
        c = DEFAULT_MAP.city_index(number)
        assert DEFAULT_MAP.city_names[c] == name
        assert DEFAULT_MAP.col_row(int(T.city_hex[c])) == (col, row)


def test_all_city_pairs_connectable_over_home_land():
    """§3.8 item 6: every pair of cities is joined by home-country land hexes (the build graph is connected)."""
    dist = cheapest_build_costs(DEFAULT_MAP, int(T.city_hex[0]))
    assert np.isfinite(dist[T.city_hex]).all()


def test_race_pair_statistics():
    """§3.9: 571 of 630 pairs are >= 6 hexes apart; every city has >= 29 partners; largest distance 35
    (Seattle - New Orleans)."""
    d = T.city_dist
    pairs = [(i, j) for i in range(36) for j in range(i + 1, 36)]
    assert len(pairs) == 630
    assert sum(d[i, j] >= 6 for i, j in pairs) == 571
    assert min(int((d[i] >= 6).sum()) for i in range(36)) >= 29
    assert int(d.max()) == 35 == DEFAULT_MAP.tables.meta[2]
    i, j = np.unravel_index(np.argmax(d), d.shape)
    assert {DEFAULT_MAP.city_names[i], DEFAULT_MAP.city_names[j]} == {"Seattle", "New Orleans"}


def test_cheapest_build_costs_between_cities():
    """§3.9: cheapest build cost between two cities: min 2, median 19, mean 19.4, max 44; spanning tree 162 BP."""
    costs = np.array([cheapest_build_costs(DEFAULT_MAP, int(h))[T.city_hex] for h in T.city_hex])
    upper = costs[np.triu_indices(36, 1)]
    assert (upper.min(), np.median(upper), round(upper.mean(), 1), upper.max()) == (2, 19, 19.4, 44)
    # Prim's spanning tree over the city-to-city costs
    seen, total, heap = {0}, 0, [(costs[0, j], j) for j in range(1, 36)]
    heapq.heapify(heap)
    while len(seen) < 36:
        c, j = heapq.heappop(heap)
        if j in seen:
            continue
        seen.add(j)
        total += c
        for k in range(36):
            if k not in seen:
                heapq.heappush(heap, (costs[j, k], k))
    assert total == 162


def test_offset_axial_round_trip_and_distance():
    """§0.2: odd-r conversions and the axial hex distance."""
    from wildwest_envs.rail.maps import offset_from_axial
    for col in range(31):
        for row in range(25):
            assert offset_from_axial(*axial_from_offset(col, row)) == (col, row)
    assert hex_distance(*axial_from_offset(2, 3), *axial_from_offset(27, 23)) == 35


# ---- the loader's checks (§3.8) ------------------------------------------------------------------------------
def _broken(edit) -> dict:
    doc = copy.deepcopy(DOC)
    edit(doc)
    return doc


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d["terrain"].pop(), "terrain must be 25 strings"),
    (lambda d: d["terrain"].__setitem__(3, "X" + d["terrain"][3][1:]), "not in its legend"),
    (lambda d: d.update(cities=d["cities"][:1]), "at least two cities"),
    (lambda d: d["cities"][1].update(number=d["cities"][0]["number"]), "used twice"),
    (lambda d: d["cities"][0].update(number=17), "is not 10 a"),
    (lambda d: d["cities"][0].update(col=5), "disagree"),
    (lambda d: d["cities"][0].update(q=2, r=0, col=2, row=0), "open home-country"),
    (lambda d: d.update(start_cities=[99]), "not a city"),
    (lambda d: d.update(start_cities=[]), "1 to 8"),
    (lambda d: d["rivers"][0]["edges"].append([0, 0, 5, 5]), "adjacent"),
    (lambda d: d["rivers"][0]["edges"].append(d["rivers"][0]["edges"][0]), "listed twice"),
    (lambda d: d.update(start_rule="sideways"), "start_rule"),
    (lambda d: d.update(ferries=[{"name": "f", "a": [20, 10], "b": [21, 10], "build_cost": 6, "move_cost": 5}]),
     "adjacent"),
    (lambda d: d["international"]["race_table"]["red"].update({"1": "Z"}), "foreign country code"),
    (lambda d: d["international"]["race_table"].update(white={}), "at least one face"),
    (lambda d: d.update(build_rounds={"3": 0}), "build_rounds"),
])
def test_loader_rejects_invalid_maps(edit, message):
    """§3.8: each rule of the loader rejects a file that breaks it, naming the problem."""
    with pytest.raises(ValueError, match=message):
        map_from_dict(_broken(edit))


def test_loader_rejects_unconnectable_cities():
    """§3.8 item 6: a city walled off by water makes the map invalid."""
    def wall(doc):
        rows = [list(r) for r in doc["terrain"]]
        col, row = 2, 3  # Seattle: surround it by sea
        from wildwest_envs.rail.maps import DIRECTION_DELTAS, offset_from_axial
        q, r = axial_from_offset(col, row)
        for dq, dr in DIRECTION_DELTAS:
            c2, r2 = offset_from_axial(q + dq, r + dr)
            rows[r2][c2] = "S"
        doc["terrain"] = ["".join(r) for r in rows]
        doc["rivers"] = []
    with pytest.raises(ValueError, match="cannot be reached"):
        map_from_dict(_broken(wall))


def test_city_on_water_is_rejected():
    """§3.8 item 3: a city must lie on an open home hex."""
    def drown(doc):
        rows = [list(r) for r in doc["terrain"]]
        rows[3][2] = "M"
        doc["terrain"] = ["".join(r) for r in rows]
    with pytest.raises(ValueError, match="open home-country"):
        map_from_dict(_broken(drown))


def test_cities_index_and_name_lookup():
    """City numbers and names resolve to the same index; unknown ones raise."""
    assert DEFAULT_MAP.city_index("Chicago") == DEFAULT_MAP.city_index(63)
    with pytest.raises(ValueError):
        DEFAULT_MAP.city_index(67)
    assert T.hexes[T.city_hex[DEFAULT_MAP.city_index(63)], HX_CITY] == DEFAULT_MAP.city_index(63)
    assert T.steps[:, ST_COST].max() == 7
