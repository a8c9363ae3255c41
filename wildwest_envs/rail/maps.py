"""Rail map files: loading, validation (spec §3.8) and the read-only tables the kernels use.

A map is one JSON file in the generic format of §3.8; adding a map needs no
code (``rail.game.make_game(path)`` binds a new ``Game`` to it). ``load_map``
checks every rule of §3.8 and raises ``ValueError`` naming each problem, then
builds a ``RailMap``: Python-side names and lists for rendering and agents,
and ``tables``, one read-only numpy record of the map's arrays (fields named
by ``TABLE_FIELDS``: ``tables.hexes``, ``tables.steps``, ...) that every kernel
receives as its last argument (numba freezes global arrays at compile time, so
passing the tables keeps one engine's code for every map; the shapes of the
tables' arrays are part of the record's numba type, so a map of other sizes gets
builds of its own, ``game`` module docstring).

Why one record and not a tuple of arrays: numba passes a record to a compiled
helper as one pointer, and its field arrays have shapes and strides known at
compile time; a tuple of eleven arrays is passed as some ninety machine words
(pointer, shape and strides of each), copied at every call of every helper.
The batch kernels receive ``kernel_tables``, the one-element array holding the
record (numba's parallel loops cannot take a record argument), and read
``kernel_tables[0]``.

Geometry (§0.2): pointy-top hexes in odd-r offset storage, hex id
``h = row * W + col``, axial ``q = col - (row - (row & 1)) // 2``, ``r = row``,
directions ``0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE``. A **step** joins two adjacent
hexes. The map's **buildable steps** are the land-land steps with at least one
home-country end (a step between two foreign hexes can never be built, §9.2);
they are numbered ``0 .. n_steps-1`` in the order of their canonical index
``3h + {E: 0, SW: 1, SE: 2}`` of §0.2, and this number is the step's id
everywhere in the engine (state arrays, actions). On the western USA map there
are 1,770 of them, 79 with a foreign end (§3.9).
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

# ---- geometry (§0.2) ----------------------------------------------------------------------------------------
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTION_DELTAS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # (dq, dr) of direction d
CANONICAL_DIRECTIONS = (0, 4, 5)  # E, SW, SE: a step is stored at the hex it leaves in one of these (§0.2)
N_DIRECTIONS = 6

# ---- terrain codes (§3.2) -----------------------------------------------------------------------------------
T_OPEN, T_MOUNTAIN, T_LAKE, T_SEA = 0, 1, 2, 3
TERRAIN_NAMES = ("open", "mountain", "lake", "sea")
HOME = 0  # country code of the home country; foreign countries are 1, 2, ... in legend order (§3.6)

# ---- fixed maxima (§12.1, G52) ------------------------------------------------------------------------------
MAX_CITIES = 36  # two-digit numbers 11..66 with digits 1..6 (§3.4)
MAX_START_CITIES = 8
MAX_FERRIES = 4
MAX_TIMESTAMP = 32767  # timestamps are int16 in the record: a map needs 6 * steps + ferries <= this

# ---- column layout of the table arrays ----------------------------------------------------------------------
HX_TERRAIN, HX_COUNTRY, HX_CITY, HX_COL, HX_ROW = 0, 1, 2, 3, 4  # hexes[h, ...]
HX_NBR = 5  # hexes[h, HX_NBR + d]: neighbour in direction d, -1 off the grid
HX_STEP = 11  # hexes[h, HX_STEP + d]: buildable step id towards direction d, -1 if none
HX_RIVER = 17  # hexes[h, HX_RIVER + d]: 1 if a river lies on side d
HX_COLUMNS = 23
ST_A, ST_B, ST_DIR, ST_COST, ST_PIPS_AB, ST_PIPS_BA, ST_FOREIGN, ST_RIVER = range(8)  # steps[e, ...]
ST_COLUMNS = 8
FE_A, FE_B, FE_BUILD, FE_MOVE = range(4)  # ferries[f, ...]
# meta[...]: scalars of the map
M_WIDTH, M_HEIGHT, M_D_MAX, M_N_CITIES, M_N_START, M_N_FERRIES, M_RACE_TABLE, M_COST_BITS, M_N_COUNTRIES = range(9)
META_SIZE = 9
# step bit sets (uint64 words, bit e % 64 of word e // 64): row c <= MAX_STEP_COST: steps of cost <= c;
# row HOME_STEPS: steps without a foreign end (the buildable steps without the international rule)
MAX_STEP_COST = 7  # mountain - river - mountain (§6.6)
HOME_STEPS = MAX_STEP_COST + 1


TABLE_FIELDS = (  # the arrays of ``RailMap.tables`` (all int64 but step_bits)
    "hexes",           # (N, HX_COLUMNS)
    "steps",           # (n_steps, ST_COLUMNS)
    "city_hex",        # (n_cities,): hex of city index i
    "city_number",     # (n_cities,): its two-digit number
    "city_by_number",  # (67,): city index of a number, -1 if unused
    "city_dist",       # (n_cities, n_cities): hex distance
    "start_cities",    # (n_start,): city index of start city i (§3.5)
    "ferries",         # (n_ferries, 4)
    "intl",            # (2, 7): [0, face] red -> country code (-1 = roll again), [1, face] white -> city
    "meta",            # (META_SIZE,)
    "step_bits",       # uint64 (MAX_STEP_COST + 2, n_words): bit sets over steps, see STEP_BITS_*
)


class MapTables(NamedTuple):
    """The tables as a tuple of arrays, as kernels took them before ``pack_tables``: unused, kept only so that
    numba cache indexes written by those versions (which name this type) still load and are then replaced."""

    hexes: np.ndarray


def pack_tables(arrays: list[np.ndarray]) -> np.recarray:
    """The arrays of ``TABLE_FIELDS`` (in that order) as one read-only record, in a one-element array."""
    dtype = np.dtype([(name, a.dtype, a.shape) for name, a in zip(TABLE_FIELDS, arrays, strict=True)], align=True)
    packed = np.zeros(1, dtype=dtype).view(np.recarray)
    for name, a in zip(TABLE_FIELDS, arrays):
        packed[name][0] = a
    packed.setflags(write=False)
    return packed


@dataclass(frozen=True)
class RailMap:
    """A validated map: names for people, ``tables`` for the kernels.

    Attributes:
        name: display name of the map.
        path: the file it was read from.
        width, height: grid size W, H; ``n_hexes = W * H``.
        tables: the map's arrays for the kernels, one read-only record (``TABLE_FIELDS``).
        kernel_tables: the one-element array of ``tables``, as the batch kernels take it.
        city_names: name of city index i (cities in file order).
        country_names: name of country code k (``country_names[0]`` is the home country).
        start_rule: ``"any"`` or ``"distinct_directions"`` (§3.5).
        build_rounds: recommended build rounds by player count (§6.10).
        river_names: name of each river side, keyed by sorted hex pair.
    """

    name: str
    path: str
    width: int
    height: int
    tables: np.record
    kernel_tables: np.recarray
    city_names: tuple
    country_names: tuple
    start_rule: str
    build_rounds: dict
    ferry_names: tuple

    @property
    def n_hexes(self) -> int:
        """N = W * H."""
        return self.width * self.height

    @property
    def n_steps(self) -> int:
        """Number of buildable steps (the size of the BUILD block of the action space)."""
        return int(self.tables.steps.shape[0])

    @property
    def n_cities(self) -> int:
        """Number of cities on the map."""
        return int(self.tables.city_hex.shape[0])

    def hex_of(self, col: int, row: int) -> int:
        """Hex id of offset coordinates ``(col, row)``."""
        return row * self.width + col

    def col_row(self, h: int) -> tuple[int, int]:
        """Offset coordinates of hex ``h``."""
        return h % self.width, h // self.width

    def step_between(self, a: int, b: int) -> int:
        """Buildable step id joining hexes ``a`` and ``b`` (``ValueError`` if there is none)."""
        hexes = self.tables.hexes
        for d in range(N_DIRECTIONS):
            if hexes[a, HX_NBR + d] == b:
                e = int(hexes[a, HX_STEP + d])
                if e < 0:
                    break
                return e
        raise ValueError(f"no buildable step between hex {self.col_row(a)} and hex {self.col_row(b)}")

    def city_index(self, number_or_name) -> int:
        """City index of a city given by its number (``63``) or name (``"Chicago"``)."""
        if isinstance(number_or_name, str):
            if number_or_name in self.city_names:
                return self.city_names.index(number_or_name)
        elif 0 <= int(number_or_name) < 67 and self.tables.city_by_number[int(number_or_name)] >= 0:
            return int(self.tables.city_by_number[int(number_or_name)])
        raise ValueError(f"no city {number_or_name!r} on the map {self.name}")


# ---- coordinates (§0.2) -------------------------------------------------------------------------------------
def axial_from_offset(col: int, row: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of offset ``(col, row)`` (odd-r layout)."""
    return col - (row - (row & 1)) // 2, row


def offset_from_axial(q: int, r: int) -> tuple[int, int]:
    """Offset ``(col, row)`` of axial ``(q, r)``."""
    return q + (r - (r & 1)) // 2, r


def hex_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Hex distance between two axial coordinates (§0.2)."""
    dq, dr = q2 - q1, r2 - r1
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def build_cost(mountains: int, river: bool) -> int:
    """BP of a step: 1 + 2 per mountain end + 2 across a river (§6.6)."""
    return 1 + 2 * mountains + 2 * int(river)


def move_pips(from_mountain: bool, to_mountain: bool, river: bool) -> int:
    """Movement pips of a step a -> b: 1, +1 across a river, +1 up into a mountain (§7.4)."""
    return 1 + int(river) + int(to_mountain and not from_mountain)


# ---- loading ------------------------------------------------------------------------------------------------
def load_map(path: str | Path) -> RailMap:
    """Read, validate (§3.8) and tabulate a map file; ``ValueError`` lists every problem found."""
    path = Path(path)
    try:
        document = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read map file {path}: {error}") from None
    return map_from_dict(document, str(path))


def map_from_dict(document: dict, path: str = "<dict>") -> RailMap:
    """Validate a parsed map document (§3.8) and build its ``RailMap``."""
    errors: list[str] = []
    _check_header(document, errors)
    if errors:
        raise ValueError(f"invalid map {path}: " + "; ".join(errors))
    width, height = document["grid"]["width"], document["grid"]["height"]
    terrain, country, country_codes = _read_grids(document, width, height, errors)
    if errors:
        raise ValueError(f"invalid map {path}: " + "; ".join(errors))
    n = width * height
    nbr = _neighbours(width, height)
    river = _read_rivers(document.get("rivers"), width, height, terrain, errors)
    cities = _read_cities(document.get("cities"), width, height, terrain, country, errors)
    starts = _read_start_cities(document, cities, errors)
    ferries = _read_ferries(document.get("ferries", []), width, height, terrain, country, errors)
    intl = _read_international(document.get("international"), cities, country_codes, country, terrain, errors)
    build_rounds = _read_build_rounds(document.get("build_rounds"), errors)
    start_rule = document.get("start_rule", "any")
    if start_rule not in ("any", "distinct_directions"):
        errors.append(f"start_rule must be 'any' or 'distinct_directions', got {start_rule!r}")
    if not errors:
        _check_connected(cities, nbr, terrain, country, width, errors)
    if errors:
        raise ValueError(f"invalid map {path}: " + "; ".join(errors))

    steps, hex_step = _buildable_steps(nbr, terrain, country, river)
    if 6 * len(steps) + len(ferries) > MAX_TIMESTAMP:
        raise ValueError(f"invalid map {path}: {len(steps)} buildable steps exceed the int16 timestamps")
    hexes = np.full((n, HX_COLUMNS), -1, dtype=np.int32)
    for h in range(n):
        hexes[h, HX_TERRAIN], hexes[h, HX_COUNTRY] = terrain[h], country[h]
        hexes[h, HX_COL], hexes[h, HX_ROW] = h % width, h // width
        hexes[h, HX_NBR:HX_NBR + 6] = nbr[h]
        hexes[h, HX_STEP:HX_STEP + 6] = hex_step[h]
        hexes[h, HX_RIVER:HX_RIVER + 6] = river[h]
    city_hex = np.array([c["hex"] for c in cities], dtype=np.int32)
    for i, h in enumerate(city_hex):
        hexes[h, HX_CITY] = i
    city_number = np.array([c["number"] for c in cities], dtype=np.int32)
    by_number = np.full(67, -1, dtype=np.int32)
    by_number[city_number] = np.arange(len(cities))
    axial = [axial_from_offset(h % width, h // width) for h in city_hex]
    dist = np.array([[hex_distance(*a, *b) for b in axial] for a in axial], dtype=np.int32)
    d_max = int(dist.max())
    # route-search cost components are < 2**bits (§12.6): a path has < N steps of at most max_pips + 1 each
    max_pips = max([3] + [f["move_cost"] for f in ferries])
    cost_bits = int(np.ceil(np.log2(n * (max_pips + 2) + 1)))
    state_bits = int(np.ceil(np.log2(2 * n)))
    if 3 * cost_bits + state_bits > 62:
        raise ValueError(f"invalid map {path}: the grid is too large for the packed route-search keys")
    meta = np.zeros(META_SIZE, dtype=np.int32)
    meta[[M_WIDTH, M_HEIGHT, M_D_MAX, M_N_CITIES, M_N_START, M_N_FERRIES, M_RACE_TABLE, M_COST_BITS,
          M_N_COUNTRIES]] = (width, height, d_max, len(cities), len(starts), len(ferries),
                             int(intl is not None), cost_bits, len(country_codes))
    ferry_table = np.array([[f["a"], f["b"], f["build_cost"], f["move_cost"]] for f in ferries],
                           dtype=np.int32).reshape(len(ferries), 4)
    intl_table = np.full((2, 7), -1, dtype=np.int32)
    if intl is not None:
        for face, code in intl["red"].items():
            intl_table[0, face] = code
        for face, city in intl["white"].items():
            intl_table[1, face] = city
    # int64 everywhere: a table value passed to a kernel helper then always has one type (one compiled build)
    int_tables = [np.ascontiguousarray(a, dtype=np.int64) for a in (hexes, steps, city_hex, city_number, by_number,
                                                                     dist, np.array(starts), ferry_table, intl_table,
                                                                     meta)]
    kernel_tables = pack_tables(int_tables + [_step_bits(steps)])
    return RailMap(
        name=str(document["name"]), path=path, width=width, height=height, tables=kernel_tables[0],
        kernel_tables=kernel_tables,
        city_names=tuple(c["name"] for c in cities),
        country_names=("home",) + tuple(intl["names"][k] if intl else document.get("country_legend", {}).get(k, k)
                                        for k in country_codes[1:]),
        start_rule=start_rule, build_rounds=build_rounds, ferry_names=tuple(f["name"] for f in ferries))


# ---- checks of §3.8, one helper per item ----------------------------------------------------------------------
def _check_header(document, errors: list[str]) -> None:
    """Format, version, name and grid (§3.8 table)."""
    if not isinstance(document, dict):
        errors.append("a map file must hold a JSON object")
        return
    if document.get("format") != "rail-map":
        errors.append(f"format must be 'rail-map', got {document.get('format')!r}")
    if document.get("format_version") != 1:
        errors.append(f"format_version must be 1, got {document.get('format_version')!r}")
    if not isinstance(document.get("name"), str):
        errors.append("name must be a string")
    grid = document.get("grid")
    if not isinstance(grid, dict):
        errors.append("grid must be an object")
        return
    if grid.get("orientation") != "pointy-top" or grid.get("offset_layout") != "odd-r":
        errors.append("grid must be pointy-top with the odd-r offset layout (§0.2)")
    for key in ("width", "height"):
        if not _is_int(grid.get(key)) or not 2 <= grid[key] <= 200:
            errors.append(f"grid {key} must be an integer 2..200, got {grid.get(key)!r}")
    directions = grid.get("directions")
    if directions is not None:
        expected = [(i, DIRECTION_NAMES[i], *DIRECTION_DELTAS[i]) for i in range(6)]
        try:
            given = [(d["index"], d["name"], d["dq"], d["dr"]) for d in directions]
        except (TypeError, KeyError):
            given = None
        if given != expected:
            errors.append("grid directions disagree with §0.2")


def _read_grids(document, width: int, height: int, errors: list[str]):
    """Terrain and country layers: H rows of W characters from their legends (§3.8 item 1)."""
    legend = document.get("terrain_legend")
    codes = {"open": T_OPEN, "mountain": T_MOUNTAIN, "lake": T_LAKE, "sea": T_SEA}
    if not isinstance(legend, dict) or not legend or any(v not in codes for v in legend.values()):
        errors.append(f"terrain_legend must map characters to {list(codes)}")
        return None, None, None
    terrain = _read_layer(document.get("terrain"), "terrain", width, height, {k: codes[v] for k, v in legend.items()},
                          errors)
    country_codes = ["-"]
    if "country" in document:
        country_legend = document.get("country_legend")
        if not isinstance(country_legend, dict) or "-" not in country_legend:
            errors.append("country_legend must be an object that names '-' (the home country)")
            return terrain, None, None
        country_codes += [k for k in country_legend if k != "-"]
        country = _read_layer(document["country"], "country", width, height,
                              {k: i for i, k in enumerate(country_codes)}, errors)
    else:
        country = [HOME] * (width * height)
    if terrain is not None and country is not None:
        for h in range(width * height):
            if country[h] != HOME and terrain[h] not in (T_OPEN, T_MOUNTAIN):
                errors.append(f"hex {h % width, h // width} is water but marked foreign (water uses '-')")
                break
    return terrain, country, country_codes


def _read_layer(rows, name: str, width: int, height: int, legend: dict, errors: list[str]):
    if not isinstance(rows, list) or len(rows) != height or any(not isinstance(s, str) or len(s) != width
                                                                 for s in rows):
        errors.append(f"{name} must be {height} strings of {width} characters")
        return None
    values = []
    for row, text in enumerate(rows):
        for col, char in enumerate(text):
            if char not in legend:
                errors.append(f"{name} character {char!r} at {(col, row)} is not in its legend")
                return None
            values.append(legend[char])
    return values


def _neighbours(width: int, height: int) -> np.ndarray:
    """Six neighbours of each hex, -1 off the grid (§0.2)."""
    nbr = np.full((width * height, 6), -1, dtype=np.int32)
    for h in range(width * height):
        q, r = axial_from_offset(h % width, h // width)
        for d, (dq, dr) in enumerate(DIRECTION_DELTAS):
            col, row = offset_from_axial(q + dq, r + dr)
            if 0 <= col < width and 0 <= row < height:
                nbr[h, d] = row * width + col
    return nbr


def _axial_hex(q, r, width: int, height: int) -> int:
    """Hex id of axial ``(q, r)``, -1 if off the grid or not integers."""
    if not (_is_int(q) and _is_int(r)):
        return -1
    col, row = offset_from_axial(q, r)
    return row * width + col if 0 <= col < width and 0 <= row < height else -1


def _read_rivers(rivers, width: int, height: int, terrain, errors: list[str]) -> np.ndarray:
    """River sides between adjacent on-grid land hexes, none listed twice (§3.3, §3.8 item 5)."""
    river = np.zeros((width * height, 6), dtype=np.int32)
    if not isinstance(rivers, list):
        errors.append("rivers must be a list (it may be empty)")
        return river
    nbr = _neighbours(width, height)
    for entry in rivers:
        edges = entry.get("edges") if isinstance(entry, dict) else None
        if not isinstance(edges, list):
            errors.append("each river needs a list of edges")
            continue
        for edge in edges:
            if not isinstance(edge, list) or len(edge) != 4:
                errors.append(f"river edge {edge!r} must be [q1, r1, q2, r2]")
                continue
            a, b = _axial_hex(*edge[:2], width, height), _axial_hex(*edge[2:], width, height)
            if a < 0 or b < 0 or b not in nbr[a]:
                errors.append(f"river edge {edge} does not join two adjacent hexes of the grid")
                continue
            if terrain[a] not in (T_OPEN, T_MOUNTAIN) or terrain[b] not in (T_OPEN, T_MOUNTAIN):
                errors.append(f"river edge {edge} does not lie between two land hexes")
                continue
            d = int(np.flatnonzero(nbr[a] == b)[0])
            if river[a, d]:
                errors.append(f"river side {edge} is listed twice")
            river[a, d] = river[b, (d + 3) % 6] = 1
    return river


def _read_cities(cities, width: int, height: int, terrain, country, errors: list[str]) -> list[dict]:
    """At least two cities, numbers 11..66 unique, on distinct open home hexes, coordinates agreeing (§3.8 items 2-3)."""
    out: list[dict] = []
    if not isinstance(cities, list) or len(cities) < 2:
        errors.append("a map needs at least two cities")
        return out
    if len(cities) > MAX_CITIES:
        errors.append(f"a map has at most {MAX_CITIES} cities")
    seen_numbers, seen_hexes = set(), set()
    for c in cities:
        try:
            number, name, q, r, col, row = c["number"], c["name"], c["q"], c["r"], c["col"], c["row"]
        except (TypeError, KeyError):
            errors.append(f"city {c!r} needs number, name, q, r, col and row")
            continue
        if not (_is_int(number) and 1 <= number // 10 <= 6 and 1 <= number % 10 <= 6):
            errors.append(f"city number {number!r} is not 10 a + b with a, b in 1..6")
            continue
        if number in seen_numbers:
            errors.append(f"city number {number} is used twice")
        seen_numbers.add(number)
        h = _axial_hex(q, r, width, height)
        if h < 0 or not (_is_int(col) and _is_int(row)) or (col, row) != offset_from_axial(q, r):
            errors.append(f"city {name!r}: axial ({q}, {r}) and offset ({col}, {row}) disagree or lie off the grid")
            continue
        if terrain[h] != T_OPEN or country[h] != HOME:
            errors.append(f"city {name!r} is not on an open home-country hex")
        if h in seen_hexes:
            errors.append(f"two cities share the hex {(col, row)}")
        seen_hexes.add(h)
        out.append({"number": number, "name": str(name), "hex": h})
    return out


def _read_start_cities(document, cities: list[dict], errors: list[str]) -> list[int]:
    """1 to 8 listed cities, none twice (§3.8 item 4); returns city indices in file order."""
    starts = document.get("start_cities")
    numbers = [c["number"] for c in cities]
    if not isinstance(starts, list) or not 1 <= len(starts) <= MAX_START_CITIES or len(set(map(str, starts))) != len(
            starts):
        errors.append(f"start_cities must list 1 to {MAX_START_CITIES} different city numbers")
        return []
    out = []
    for number in starts:
        if number not in numbers:
            errors.append(f"start city {number!r} is not a city of the map")
        else:
            out.append(numbers.index(number))
    return out


def _read_ferries(ferries, width: int, height: int, terrain, country, errors: list[str]) -> list[dict]:
    """At most 4 ferries between non-adjacent land hexes, one end at home (§3.8 item 7)."""
    out: list[dict] = []
    if not isinstance(ferries, list) or len(ferries) > MAX_FERRIES:
        errors.append(f"ferries must be a list of at most {MAX_FERRIES}")
        return out
    for f in ferries:
        try:
            a = _axial_hex(*f["a"], width, height)
            b = _axial_hex(*f["b"], width, height)
            build, move = f["build_cost"], f["move_cost"]
        except (TypeError, KeyError, ValueError):
            errors.append(f"ferry {f!r} needs a, b ([q, r]), build_cost and move_cost")
            continue
        if a < 0 or b < 0 or terrain[a] not in (T_OPEN, T_MOUNTAIN) or terrain[b] not in (T_OPEN, T_MOUNTAIN):
            errors.append(f"ferry {f.get('name')!r}: both ends must be land hexes of the grid")
            continue
        if hex_distance(*f["a"], *f["b"]) < 2:
            errors.append(f"ferry {f.get('name')!r}: its ends are adjacent")
        if country[a] != HOME and country[b] != HOME:
            errors.append(f"ferry {f.get('name')!r}: neither end is a home-country hex")
        if not (_is_int(build) and 1 <= build <= 100 and _is_int(move) and 1 <= move <= 20):
            errors.append(f"ferry {f.get('name')!r}: build_cost 1..100 and move_cost 1..20 required")
        out.append({"name": str(f.get("name", "ferry")), "a": a, "b": b, "build_cost": build, "move_cost": move})
    return out


def _read_international(intl, cities: list[dict], country_codes, country, terrain, errors: list[str]):
    """Race tables naming existing countries (with land) and cities, each with a face (§3.8 item 7, §9.3)."""
    if intl is None:
        return None
    try:
        names, red, white = intl["countries"], intl["race_table"]["red"], intl["race_table"]["white"]
    except (TypeError, KeyError):
        errors.append("international needs countries and race_table.red / race_table.white")
        return None
    numbers = [c["number"] for c in cities]
    out = {"names": dict(names), "red": {}, "white": {}}
    if not red or not white:
        errors.append("each international race table needs at least one face")
    for face, code in red.items():
        if face not in ("1", "2", "3", "4", "5", "6") or code not in country_codes[1:]:
            errors.append(f"international red face {face!r} -> {code!r} must name a foreign country code")
            continue
        k = country_codes.index(code)
        if not any(country[h] == k and terrain[h] in (T_OPEN, T_MOUNTAIN) for h in range(len(country))):
            errors.append(f"country {code!r} of the red table has no land hex")
        out["red"][int(face)] = k
    for face, number in white.items():
        if face not in ("1", "2", "3", "4", "5", "6") or number not in numbers:
            errors.append(f"international white face {face!r} -> {number!r} must name a city")
            continue
        out["white"][int(face)] = numbers.index(number)
    for code in country_codes[1:]:
        out["names"].setdefault(code, code)
    return out


def _read_build_rounds(rounds, errors: list[str]) -> dict:
    """Recommended build rounds for 2..6 players, each >= 1 (§6.10); the spec's table where absent."""
    table = {2: 20, 3: 14, 4: 11, 5: 9, 6: 8}
    if rounds is None:
        return table
    if not isinstance(rounds, dict):
        errors.append("build_rounds must be an object keyed '2'..'6'")
        return table
    for key, value in rounds.items():
        if key not in ("2", "3", "4", "5", "6") or not _is_int(value) or not 1 <= value <= 1000:
            errors.append(f"build_rounds {key!r}: {value!r} must be an integer 1..1000 for 2..6 players")
        else:
            table[int(key)] = value
    return table


def _check_connected(cities: list[dict], nbr: np.ndarray, terrain, country, width: int, errors: list[str]) -> None:
    """Every pair of cities is joined through adjacent home-country land hexes (§3.8 item 6)."""
    if not cities:
        return
    land = [terrain[h] in (T_OPEN, T_MOUNTAIN) and country[h] == HOME for h in range(len(terrain))]
    seen = {cities[0]["hex"]}
    todo = [cities[0]["hex"]]
    while todo:
        h = todo.pop()
        for v in nbr[h]:
            if v >= 0 and land[v] and v not in seen:
                seen.add(int(v))
                todo.append(int(v))
    for c in cities:
        if c["hex"] not in seen:
            errors.append(f"city {c['name']!r} cannot be reached from {cities[0]['name']!r} over home land")


def _buildable_steps(nbr: np.ndarray, terrain, country, river: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The step table (canonical order) and the step id of every (hex, direction) (module docstring)."""
    n = nbr.shape[0]
    land = [terrain[h] in (T_OPEN, T_MOUNTAIN) for h in range(n)]
    rows = []
    hex_step = np.full((n, 6), -1, dtype=np.int32)
    for h in range(n):
        for d in CANONICAL_DIRECTIONS:
            v = int(nbr[h, d])
            if v < 0 or not land[h] or not land[v] or (country[h] != HOME and country[v] != HOME):
                continue
            e = len(rows)
            mh, mv = terrain[h] == T_MOUNTAIN, terrain[v] == T_MOUNTAIN
            r = bool(river[h, d])
            rows.append((h, v, d, build_cost(int(mh) + int(mv), r), move_pips(mh, mv, r), move_pips(mv, mh, r),
                         int(country[h] != HOME or country[v] != HOME), int(r)))
            hex_step[h, d] = e
            hex_step[v, (d + 3) % 6] = e
    return np.array(rows, dtype=np.int32).reshape(len(rows), ST_COLUMNS), hex_step


def n_words(n_steps: int) -> int:
    """uint64 words of a bit set over the steps."""
    return (n_steps + 63) // 64


def _step_bits(steps: np.ndarray) -> np.ndarray:
    """The STEP_BITS rows: steps of cost <= c (c = 0..MAX_STEP_COST), and the home-only steps."""
    bits = np.zeros((HOME_STEPS + 1, n_words(len(steps))), dtype=np.uint64)
    for e in range(len(steps)):
        word, bit = e // 64, np.uint64(1) << np.uint64(e % 64)
        for c in range(int(steps[e, ST_COST]), MAX_STEP_COST + 1):
            bits[c, word] |= bit
        if not steps[e, ST_FOREIGN]:
            bits[HOME_STEPS, word] |= bit
    return bits


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


# ---- map statistics (documentation and tests, §3.9) -----------------------------------------------------------
def cheapest_build_costs(rail_map: RailMap, source_hex: int, international: bool = False) -> np.ndarray:
    """BP of the cheapest line from ``source_hex`` to every hex over buildable steps (inf where unreachable)."""
    hexes, steps = rail_map.tables.hexes, rail_map.tables.steps
    dist = np.full(rail_map.n_hexes, np.inf)
    dist[source_hex] = 0
    heap = [(0, source_hex)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > dist[h] or (hexes[h, HX_COUNTRY] != HOME):
            continue
        for d in range(6):
            e = hexes[h, HX_STEP + d]
            if e < 0 or (steps[e, ST_FOREIGN] and not international):
                continue
            v = hexes[h, HX_NBR + d]
            if cost + steps[e, ST_COST] < dist[v]:
                dist[v] = cost + steps[e, ST_COST]
                heapq.heappush(heap, (dist[v], int(v)))
    return dist
