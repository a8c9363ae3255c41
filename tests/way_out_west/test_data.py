"""Way Out West data: the package JSON and the tables of ``data`` against the spec (§0.2, §2-§4, §7.2, §13, §15).

The spec tables are read from ``rules/way_out_west.md`` beside the checkout
(``/work/shared/rules``); those tests skip with a reason when it is absent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wildwest_envs.way_out_west import data as d

SPEC_DIR = Path(__file__).parents[2].parent / "shared" / "rules"
SPEC = SPEC_DIR / "way_out_west.md"
SPEC_JSON = SPEC_DIR / "way_out_west_data.json"
needs_spec = pytest.mark.skipif(not SPEC.exists(), reason=f"spec not found at {SPEC}")


def spec_table(heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table after ``heading`` in the spec."""
    text = SPEC.read_text()
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.strip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


@pytest.mark.skipif(not SPEC_JSON.exists(), reason=f"spec data not found at {SPEC_JSON}")
def test_package_json_is_the_spec_data_file():
    """The package copy of the data file is the spec's companion file, unchanged."""
    assert json.loads(d.DATA_PATH.read_text()) == json.loads(SPEC_JSON.read_text())


@needs_spec
def test_s0_2_towns_and_counter_types():
    """§0.2: town ids and names; B&T type ids, keys and names."""
    towns = spec_table("* **Towns** `0..4`")
    assert [(int(r[0]), int(r[1]), r[2]) for r in towns] == [(t, t + 1, d.TOWN_NAMES[t]) for t in range(5)]
    types = spec_table("* **Building/transport counter types**")
    assert [(int(r[0]), r[1], r[2]) for r in types] == [(k, d.BT_KEYS[k], d.BT_NAMES[k]) for k in range(6)]


@needs_spec
def test_s2_component_counts():
    """§2: 9 cowboys, 9 cattle, 3 of each B&T type, 1 farmer per player; 13 Wanted; 2 action markers."""
    assert (d.N_COWBOYS, d.N_CATTLE, d.N_PER_BT_TYPE, d.N_WANTED, d.N_ACTION_MARKERS) == (9, 9, 3, 13, 2)
    rows = {r[0]: r[1] for r in spec_table("## 2. Components and counts")}
    assert rows["cowboy counters"] == "9 per player" and rows["cattle counters"] == "9 per player"
    assert rows["Wanted counters"] == "13"


@needs_spec
def test_s3_town_capacities():
    """§3: building spaces 3/4/4/5/6 and corrals 4/5/5/6/7."""
    rows = spec_table("## 3. The board: towns")
    assert [int(r[2]) for r in rows] == list(d.BUILDING_SPACES)
    assert [int(r[3]) for r in rows] == list(d.CORRALS)
    assert [r[1] for r in rows] == list(d.TOWN_NAMES)


@needs_spec
def test_s4_starting_money_by_player_count():
    """§4: $20 with 3 and 4 players, $25 with 5."""
    rows = spec_table("## 4. Setup by player count")
    for r in rows:
        assert d.START_MONEY[int(r[0])] == int(r[1].strip("$"))
    assert [int(r[0]) for r in rows] == [3, 4, 5]


@needs_spec
def test_s7_2_action_boxes_prices_and_player_counts():
    """§7.2: the 19 boxes, their actions, build types and prices, and the boxes active only with 5 players."""
    rows = spec_table("### 7.2 Action boxes")
    assert [int(r[0]) for r in rows] == list(range(19))
    for r in rows:
        b = int(r[0])
        five_only = r[3].startswith("5 only")
        assert (d.BOX_MIN_PLAYERS[b] == 5) == five_only, b
        match = re.match(r"Build (\w+)", r[1])
        if match:
            k = d.BT_NAMES.index(match.group(1))
            assert d.BOX_BT[b] == k and r[2] == f"${int(d.BT_PRICE[k])}"
        else:
            assert d.BOX_BT[b] == -1
    assert sum(d.BOX_MIN_PLAYERS <= 3) == 16 and sum(d.BOX_MIN_PLAYERS <= 5) == 19


def test_s15_quick_reference_values():
    """§15: building prices, $1 cattle and cowboys, hits on 5-6, 3d6 robbery, raise steps, 60 / 50 guards."""
    assert dict(zip(d.BT_NAMES, d.BT_PRICE.tolist())) == {"Stagecoach": 5, "Train": 20, "Bank": 10, "Store": 5,
                                                           "Hotel": 8, "Jail": 3}
    assert (d.PRICE_CATTLE, d.PRICE_COWBOY, d.MAX_BUY, d.MAX_HIRE, d.MAX_MOVE_CATTLE) == (1, 1, 2, 2, 2)
    assert (d.HIT_MIN, d.ROBBERY_DICE, d.MAX_RUSTLED) == (5, 3, 2)
    assert d.RAISE_STEPS.tolist() == [1, 2, 3, 4, 5, 8, 12, 20]
    assert (d.MAX_AUCTION_DECISIONS, d.MAX_VOLLEYS, d.N_DIE_QUEUE) == (60, 50, 64)
    assert (d.RICHEST_BONUS, d.WANTED_BONUS) == (5, 5)
    assert d.ALLOWED_ROUNDS == (3, 6, 9, 12) and d.DEFAULT_ROUNDS == 12


@needs_spec
def test_s13_1_action_ids():
    """§13.1: 59 ids; PASS 0, YES 1, NO 2, SHOOT 3, RETREAT 4, towns 5-9, players 10-14, boxes 15-33,
    raises 34-41, counts 42-50, targets 51-58."""
    rows = spec_table("### 13.1 Flat action space (size 59)")
    ranges = {r[1].split(" ")[0]: r[0] for r in rows}
    assert ranges["PASS"] == str(d.A_PASS) and ranges["YES"] == str(d.A_YES) and ranges["NO"] == str(d.A_NO)
    assert ranges["SHOOT"] == str(d.A_SHOOT) and ranges["RETREAT"] == str(d.A_RETREAT)
    assert ranges["TOWN_0..TOWN_4"] == f"{d.A_TOWN}–{d.A_TOWN + 4}"
    assert ranges["PLAYER_0..PLAYER_4"] == f"{d.A_PLAYER}–{d.A_PLAYER + 4}"
    assert ranges["BOX_0..BOX_18"] == f"{d.A_BOX}–{d.A_BOX + 18}"
    assert ranges["RAISE_k,"] == f"{d.A_RAISE}–{d.A_RAISE + 7}"
    assert ranges["COUNT_1..COUNT_9"] == f"{d.A_COUNT}–{d.A_COUNT + 8}"
    assert ranges["TARGET:"] == f"{d.A_TARGET}–{d.A_TARGET + 7}" and d.N_ACTIONS == 59
    assert d.TARGET_NAMES == ("Stagecoach", "Train", "Bank", "Store", "Hotel", "Jail", "Cattle", "Farmer")


@needs_spec
def test_s13_2_decision_types_in_order():
    """§13.2: the 23 decision types, numbered as in the spec table."""
    rows = spec_table("### 13.2 Decision types, actor and legal ids")
    assert [(int(r[0]), r[1]) for r in rows] == list(enumerate(d.DECISION_NAMES))
    assert d.N_DECISION_TYPES == 23


def test_tables_are_read_only():
    """STYLE §4: the lookup tables cannot be edited after numba froze them."""
    for table in (d.BUILDING_SPACES, d.CORRALS, d.BT_PRICE, d.BOX_ACTION, d.BOX_BT, d.BOX_MIN_PLAYERS,
                  d.RAISE_STEPS, d.START_MONEY, d.INTRINSIC_DEFENDERS):
        with pytest.raises(ValueError):
            table[0] = 0
