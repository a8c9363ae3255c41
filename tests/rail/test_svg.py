"""Tests of the Rail SVG drawing (``svg.draw``; spec §3, §6, §7, §10.1, issue 20 item 1).

The drawing must be a standalone SVG document whose size depends on the map only, hold what the record
holds (read back from the pieces' classes and ``data-`` attributes: every owner of every built step, the
cities, start cities, ferries, balances, the race's ends, candidates and declared routes), fit any map (the
small test map ``data/strait.json`` too), be deterministic, and be the same for every seat (perfect
information, §10.1).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from tests._svg import assert_bad_arguments_refused, foreign_record, parse, pieces, read_only, standalone_svg
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.rail import svg
from wildwest_envs.rail.data import CTX_RACE_ENTRY, ENTRY_ENTERED, N_ROUTE_OBJECTIVES, OFF_BUILD_FERRY
from wildwest_envs.rail.game import make_game
from wildwest_envs.registry import get_game

GAME = get_game("rail_v0")
STRAIT = make_game(Path(__file__).parent / "data" / "strait.json", name="rail_strait_v0")
PLAYER_COUNTS = tuple(range(GAME.min_players, GAME.max_players + 1))
N_GAMES = 2  # seeded random games per player count
BUILD_BIAS = 0.9  # chance of a random BUILD step (or ferry) when one is legal: lines grow
EVERY = 25  # keep every 25th position, and the race-entry ones (candidates, declared routes)
MAX_RACE_ENTRY = 15  # race-entry positions kept per configuration
MAX_STEPS = 5000  # random decisions at most (every game ends well before)


@lru_cache(maxsize=None)
def positions(game_name: str, num_players: int, expert: bool = False) -> np.ndarray:
    """Positions of seeded random games that prefer building, read-only."""
    game = GAME if game_name == GAME.name else STRAIT
    states = game.init(game_seeds(200 + num_players, N_GAMES), num_players=num_players, expert=expert)
    rng = np.random.default_rng(num_players + 10 * expert)
    n_steps = game.rail_map.n_steps
    actions = np.arange(game.n_actions)
    builds = (actions < n_steps) | (actions >= n_steps + OFF_BUILD_FERRY)
    kept, entries = [states.copy()], 0
    for step in range(1, MAX_STEPS + 1):
        if states["done"].all():
            break
        masks = game.legal_mask(states) > 0
        noise = rng.random(masks.shape)
        prefer = masks & builds & (rng.random(len(states)) < BUILD_BIAS)[:, None]
        choice = np.where(prefer.any(axis=1)[:, None], prefer, masks)
        game.step(states, np.argmax(noise * choice, axis=1))  # finished games are left alone
        at_entry = (states["context"] == CTX_RACE_ENTRY) & ~states["done"]
        keep = (at_entry & (entries < MAX_RACE_ENTRY)) | (step % EVERY == 0)
        entries += int(at_entry.any())
        if keep.any():
            kept.append(states[keep].copy())
    kept.append(states.copy())
    return read_only(kept)


def owned_steps(record: np.void) -> Counter:
    n = int(record["num_players"])
    return Counter((int(e), s) for e in np.flatnonzero(record["owners"]) for s in range(n)
                   if (int(record["owners"][e]) >> s) & 1)


def route_hexes(record: np.void, seat: int, slot: int) -> int:
    return int(np.count_nonzero((record["cand_hexes"] >> np.uint32(4 * seat + slot)) & np.uint32(1)))


CONFIGS = [(GAME.name, n, False) for n in PLAYER_COUNTS] + [(GAME.name, 4, True), (STRAIT.name, 3, True)]


def _game(name: str):
    return GAME if name == GAME.name else STRAIT


# ---- the document ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS)
def test_the_drawing_is_a_standalone_svg_of_the_maps_size(config):
    """Every position parses as XML: an ``svg`` root of ``sheet_size(map)`` with that viewBox; the map's
    every hex is drawn once."""
    game = _game(config[0])
    width, height = svg.sheet_size(game.rail_map)
    for record in positions(*config)[::5]:
        root = standalone_svg(svg.draw(record, rail_map=game.rail_map), width, height)
        assert [int(p["hex"]) for p in pieces(root, "hex")] == list(range(game.rail_map.n_hexes))


def test_another_map_draws_at_its_own_size_and_a_wrong_map_is_refused():
    """The small test map fits its sheet; a record drawn with the wrong map's tables is a TypeError."""
    assert svg.sheet_size(STRAIT.rail_map) != svg.sheet_size(GAME.rail_map)
    for w, h in (svg.sheet_size(STRAIT.rail_map), svg.sheet_size(GAME.rail_map)):
        assert 0 < w <= 1700 and 0 < h <= 1000
    record = positions(STRAIT.name, 3, True)[-1]
    with pytest.raises(TypeError):
        svg.draw(record)
    with pytest.raises(TypeError):
        svg.draw(positions(GAME.name, 2)[0], rail_map=STRAIT.rail_map)
    assert svg.make_draw(STRAIT.rail_map)(record) == svg.draw(record, rail_map=STRAIT.rail_map)


def test_hexes_lie_inside_the_sheet():
    """Every hex centre of each map lies in the map area, left of the panel."""
    for game in (GAME, STRAIT):
        sheet = svg._sheet(game.rail_map)
        assert (sheet.centres > 0).all() and (sheet.centres[:, 0] < sheet.panel_left).all()
        assert (sheet.centres[:, 1] < sheet.map_bottom).all() and sheet.map_bottom < sheet.height


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_seat_sees_the_same_drawing(n):
    """§10.1: perfect information but future dice: the view of any seat is the omniscient one, byte for byte;
    a new generator (the future dice) changes nothing."""
    for record in positions(GAME.name, n)[::6]:
        everything = svg.draw(record)
        assert all(svg.draw(record, seat) == everything for seat in range(n))
        reseeded = GAME.resample_hidden(record[None], 0, 12345)[0]
        assert svg.draw(reseeded, n - 1) == everything


def test_bad_arguments_are_refused():
    assert_bad_arguments_refused(svg.draw, positions(GAME.name, 2)[0], 2, positions(GAME.name, 2)[:2],
                                 foreign_record("wild_west_express_v0"), wrong_seat_types=(1.0,))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_is_deterministic_and_leaves_the_state_alone(n):
    states = positions(GAME.name, n)[::9].copy()
    before = states.tobytes()
    first = [svg.draw(r) for r in states]
    svg.draw(states[0], rail_map=GAME.rail_map)
    assert first == [svg.draw(states[b:b + 1]) for b in range(len(states))]
    assert states.tobytes() == before


# ---- what the record holds -------------------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS)
def test_the_drawing_holds_the_records_pieces(config):
    """Built steps (one line per owner), cities (connected, start), the seats' start cities, ferries,
    balances, steps owned, entries and the last dice are drawn as the record has them."""
    game = _game(config[0])
    t = game.rail_map.tables
    starts = {int(c) for c in t.start_cities}
    lines = 0
    for record in positions(*config):
        n = int(record["num_players"])
        root = parse(svg.draw(record, rail_map=game.rail_map))
        steps = Counter((int(p["step"]), int(p["owner"])) for p in pieces(root, "step"))
        assert steps == owned_steps(record)
        lines += len(steps)
        assert [(int(p["city"]), int(p["connected"]), int(p["start"])) for p in pieces(root, "city")] == \
            [(c, int(record["connected"][c]), int(c in starts)) for c in range(game.rail_map.n_cities)]
        assert sorted((int(p["seat"]), int(p["city"])) for p in pieces(root, "home")) == \
            [(s, int(t.start_cities[record["start_city"][s]])) for s in range(n) if record["start_city"][s] >= 0]
        assert [(int(p["ferry"]), int(p["owner"])) for p in pieces(root, "ferry")] == \
            [(f, int(record["ferry_owner"][f])) for f in range(t.ferries.shape[0])]
        seats = pieces(root, "seat")
        assert [(int(p["seat"]), int(p["balance"]), int(p["steps"]), int(p["entry"])) for p in seats] == \
            [(s, int(record["balance"][s]), int(record["n_owned"][s]), int(record["entry"][s])) for s in range(n)]
        assert [(p["colour"], int(p["value"])) for p in pieces(root, "die")] == \
            [("red", int(record["red"])), ("white", int(record["white"]))]
    assert lines > 0  # the random games built lines


@pytest.mark.parametrize("config", CONFIGS)
def test_the_race_is_drawn(config):
    """§7: the race's start and goal (city or country), the entrants' declared routes and, at a race entry,
    the deciding seat's candidate routes, each over the hexes the record marks for it."""
    game = _game(config[0])
    races = candidates = 0
    for record in positions(*config):
        n = int(record["num_players"])
        root = parse(svg.draw(record, rail_map=game.rail_map))
        ends = sorted((p["role"], int(p["hex"]), int(p["country"])) for p in pieces(root, "race-end"))
        expected_routes, expected_candidates = [], []
        if record["race_start"] >= 0:
            races += 1
            goal = int(record["race_goal"])
            expected_ends = [("goal", goal, -1) if goal >= 0 else ("goal", -1, int(record["race_country"])),
                             ("start", int(record["race_start"]), -1)]
            assert ends == expected_ends
            expected_routes = [(s, int(record["entry_slot"][s]), route_hexes(record, s, int(record["entry_slot"][s])))
                               for s in range(n) if record["entry"][s] == ENTRY_ENTERED]
            p = int(record["current"])
            if record["context"] == CTX_RACE_ENTRY:
                expected_candidates = [(p, k, route_hexes(record, p, k)) for k in range(N_ROUTE_OBJECTIVES)
                                       if record["cand_valid"][p, k]]
                candidates += len(expected_candidates)
        else:
            assert ends == []
        assert [(int(p["seat"]), int(p["slot"]), int(p["hexes"])) for p in pieces(root, "route")] == expected_routes
        assert [(int(p["seat"]), int(p["slot"]), int(p["hexes"])) for p in pieces(root, "candidate")] == \
            expected_candidates
    assert races > 0 and candidates > 0


def test_text_is_escaped():
    assert svg._text(0, 0, "Smith & Sons <ferry>") == \
        '<text x="0" y="0" font-size="11">Smith &amp; Sons &lt;ferry&gt;</text>'
    tricky = 'a "b" & \'c\' <d>'
    assert ET.fromstring(svg._el("g", data_name=tricky)).get("data-name") == tricky
