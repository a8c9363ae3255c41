"""Named observation fields at their natural scales (issue 19 item 5; spec §10, ``observation`` docstring).

``GAME.obs_layout.decode(vec)`` must give every field of the observation in the
game's own terms. Checked here on records from seeded random play through the
public API (``GAME.init_batch``, ``legal_mask``, ``step``, ``observe``), for
every seat's observation, on the western USA map (``rail_v0``) and on the small
test map with a ferry (``tests/rail/data/strait.json``):

* every field declares its parts (``undecoded()`` is empty);
* the decoded values equal the values read from the record and the map,
  relative seats and all (a plain-Python reading of the record, written from
  the spec and the module docstring, not from the kernel): all 19 fields, the
  45 board planes included, balances, prizes and fees in money units;
* every one-hot decodes to an index in range or -1, and re-encoding the decoded
  values gives back the observation bit for bit, so no float is left out or
  read at the wrong scale (a control shows a wrong scale is caught).

The random play is legal play with weighted choices (building, race entries,
co-build proposals and ferries favoured) so that networks grow, races are
entered and every decision context is reached.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from wildwest_envs.rail.data import (CTX_COOP_BUILD, CTX_COOP_RESPONSE, CTX_EXT_FUNDING, CTX_GAME_OVER,
                                     CTX_RACE_ENTRY, END_RACES, ENTRY_ENTERED, FUND_ACCOUNT, FUND_BP, MAX_PLAYERS,
                                     N_CONTEXTS, N_SLOTS, OFF_BUILD_FERRY, OFF_COOP_ACCEPT, OFF_COOP_PROPOSE,
                                     OFF_FUND_ACCOUNT, OFF_FUND_DICE, OFF_RACE_ENTER, RESOLUTION_ROUTE_LENGTH)
from wildwest_envs.rail.game import make_game
from wildwest_envs.rail.maps import (CANONICAL_DIRECTIONS, HOME, HX_COUNTRY, HX_RIVER, HX_STEP, HX_TERRAIN,
                                     MAX_CITIES, MAX_FERRIES, T_LAKE, T_MOUNTAIN, T_OPEN, T_SEA)
from wildwest_envs.registry import get_game
from tests._layout_codec import (assert_batch_decodes_row_by_row, assert_reencodes, by_part, check_every_seat, encode,
                                 equal_to_float32, mismatches, onehots_in_range, per_seat_offset, seen_by,
                                 with_part_rescaled)

GAME = get_game("rail_v0")
STRAIT = make_game(Path(__file__).parent / "data" / "strait.json", name="rail_strait_v0")
NOBODY = -1
N_PLANES = 45
N_CANDIDATE_ROUTES = 3  # slots 0..2 are filled; slot 3 is reserved (§7.5)


def _weights(game, masks: np.ndarray) -> np.ndarray:
    """Legal actions, weighted: build steps, race entries, co-build proposals and acceptance, funding, ferries."""
    base = game.rail_map.n_steps
    w = masks.astype(np.float64)
    w[:, :base] *= 6
    w[:, base + OFF_RACE_ENTER:base + OFF_RACE_ENTER + 3] *= 4
    w[:, base + OFF_COOP_PROPOSE:base + OFF_COOP_ACCEPT + 1] *= 10
    w[:, base + OFF_FUND_DICE:base + OFF_FUND_ACCOUNT + 1] *= 3
    w[:, base + OFF_BUILD_FERRY:base + OFF_BUILD_FERRY + MAX_FERRIES] *= 6
    return w


RARE = (CTX_COOP_RESPONSE, CTX_COOP_BUILD, CTX_EXT_FUNDING, CTX_RACE_ENTRY)


def _random_play_snapshots(game, num_players: int, n_games: int = 3, every: int = 12, seed: int = 0,
                           **options) -> np.ndarray:
    """Records every ``every`` decisions of seeded random games (and one in three of the co-build, funding and
    race-entry decisions and of those after a declined proposal), until they end; the finished records at the end."""
    states = game.init_batch(n_games, seed=seed, num_players=num_players, **options)
    rng = np.random.default_rng(seed)
    kept, step = [], 0
    while not game.finished(states).all():
        live = ~game.finished(states)
        rare = (np.isin(states["context"], RARE) | states["coop_declined"]) & (rng.random(n_games) < 1 / 3)
        kept.append(states[live & (rare | (step % every == 0))].copy())
        w = _weights(game, game.legal_mask(states))
        actions = np.array([rng.choice(len(row), p=row / row.sum()) if row.any() else 0 for row in w])
        game.step(states, actions)
        step += 1
    kept.append(states.copy())
    return np.concatenate(kept)


CONFIGS = [  # (players, options): every player count, the expert rules and the variants of the config field
    (2, {"extension_mode": "dice_or_account", "extension_10pct": True, "end_mode": "races", "races_total": 12}),
    (3, {}),
    (4, {"expert": True}),
    (5, {"expert": True, "build_rounds": 14, "extension_mode": "dice"}),
    (6, {"shared_build_roll": True, "build_dice": 1, "race_resolution": "route_length"}),
]


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return np.concatenate([_random_play_snapshots(GAME, n, seed=n, **options) for n, options in CONFIGS])


@pytest.fixture(scope="module")
def strait_records() -> np.ndarray:
    return np.concatenate([_random_play_snapshots(STRAIT, n, n_games=2, every=20, seed=20 + n, expert=True)
                           for n in (2, 3)])


# ---- the record and the map, read as the spec describes the observation (§10.2, module docstring) --------------------
def _rel(seat: int, o: int, n: int) -> int:
    """Relative seat of ``seat`` seen by observer o (§10.2: absolute seat (o + k) mod n is k), -1 for nobody."""
    return NOBODY if seat < 0 else (seat - o) % n


def _bits(words: np.ndarray, bit: int) -> np.ndarray:
    return ((words.astype(np.int64) >> bit) & 1).astype(bool)


def _board_expected(game, s, o: int) -> np.ndarray:
    """The 45 planes over the hexes (module docstring): terrain, cities and rivers of the map; the owned steps of
    each relative seat on the canonical sides E, SW, SE; networks; connected cities; the race; routes."""
    t, n = game.rail_map.tables, int(s["num_players"])
    hexes = t.hexes
    planes = np.zeros((N_PLANES, len(hexes)), dtype=bool)
    terrain = hexes[:, HX_TERRAIN]
    planes[0], planes[1], planes[2] = terrain == T_OPEN, terrain == T_MOUNTAIN, (terrain == T_LAKE) | (terrain == T_SEA)
    planes[3] = hexes[:, HX_COUNTRY] != HOME
    planes[4, t.city_hex] = True
    planes[5, t.city_hex[t.start_cities]] = True
    for c, d in enumerate(CANONICAL_DIRECTIONS):
        planes[6 + c] = hexes[:, HX_RIVER + d] == 1
        step = hexes[:, HX_STEP + d]  # the buildable step leaving each hex on side c
        has = step >= 0
        for k in range(n):
            planes[9 + 3 * k + c, has] = s["own_t"][step[has], (o + k) % n] > 0  # owner_t (§0.2)
    for k in range(n):
        p = (o + k) % n
        planes[27 + k] = _bits(s["net"], p)
        slot = int(s["entry_slot"][p])
        if s["entry"][p] == ENTRY_ENTERED and slot >= 0:
            planes[39 + k] = _bits(s["cand_hexes"], N_SLOTS * p + slot)
    planes[33, t.city_hex[s["connected"][:len(t.city_hex)] == 1]] = True
    if s["race_start"] >= 0:
        planes[34, s["race_start"]] = True
    if s["race_goal"] >= 0:
        planes[35, s["race_goal"]] = True
    if s["race_country"] >= 0:
        planes[35] |= hexes[:, HX_COUNTRY] == s["race_country"]
    for slot in range(N_CANDIDATE_ROUTES):
        planes[36 + slot] = _bits(s["cand_hexes"], N_SLOTS * o + slot)
    return planes.reshape(N_PLANES, game.rail_map.height, game.rail_map.width)


def _turn_expected(s, o: int, n: int) -> dict:
    over = s["context"] == CTX_GAME_OVER or s["current"] < 0
    balance = [int(s["balance"][(o + k) % n]) if k < n else 0 for k in range(MAX_PLAYERS)]
    funding = int(s["funding"]) if s["funding"] in (FUND_BP, FUND_ACCOUNT) else NOBODY
    limit = int(s["races_total"]) if s["end_mode"] == END_RACES else int(s["max_races"])
    return {"context": int(s["context"]), "players": n, "to_act": NOBODY if over else _rel(int(s["current"]), o, n),
            "balance": balance,
            "turn": {"bp_left": int(s["bp_left"]), "red_die": int(s["red"]), "white_die": int(s["white"]),
                     "built_this_turn": s["turn_builds"] > 0, "proposal_declined": bool(s["coop_declined"]),
                     "funding": funding, "operating": bool(s["operating"])},
            "progress": {"round_share": int(s["round"]) / max(int(s["build_rounds"]), 1),
                         "race_share": int(s["race_k"]) / max(limit, 1), "target": int(s["target"])}}


_ABSENT_SEAT = {"start_chosen": False, "turn_done": False, "entry": NOBODY, "window_bp_left": 0, "budget_bp_left": 0,
                "builder": False, "partner": False, "connected_cities": 0}


def _seats_expected(game, s, o: int, n: int) -> dict:
    """Per relative seat: start, build turn, race entry, extension budgets, builder, partner, connected cities."""
    city_hex = game.rail_map.tables.city_hex

    def row(p: int) -> dict:
        budget = int(s["race_income"][p]) // 10 - int(s["bp_bought"][p]) if s["ext_10pct"] else 0
        return {"start_chosen": s["start_city"][p] >= 0,
                "turn_done": bool(s["turn_used"][p]) and not s["operating"],
                "entry": int(s["entry"][p]) if s["race_start"] >= 0 else NOBODY,
                "window_bp_left": int(s["ext_cap"]) - int(s["window_bp"][p]), "budget_bp_left": budget,
                "builder": s["builder"] == p, "partner": s["partner"] == p and s["context"] <= CTX_COOP_BUILD,
                "connected_cities": int(_bits(s["net"][city_hex], p).sum())}
    seats = per_seat_offset(o, n, row, _ABSENT_SEAT, MAX_PLAYERS)
    start = [int(s["start_city"][(o + k) % n]) if k < n else NOBODY for k in range(MAX_PLAYERS)]
    first = [int(s["first_dir"][(o + k) % n]) if k < n else NOBODY for k in range(MAX_PLAYERS)]
    return {"seats": seats, "start_city": start, "first_dir": first}


def _candidates_expected(s, o: int, n: int) -> dict:
    """Per slot of the observer (§7.5): route pips, steps, own steps, capped fee total, raw fee per relative seat."""
    rows = []
    for k in range(N_SLOTS):
        valid = k < N_CANDIDATE_ROUTES and bool(s["cand_valid"][o, k])
        fees = [int(s["cand_fee"][o, k, (o + r) % n]) if valid and r < n else 0 for r in range(1, MAX_PLAYERS)]
        capped = sum(min(int(s["fee_cap"]), f) for f in fees)
        rows.append({"valid": valid, "pips": int(s["cand_pips"][o, k]) if valid else 0,
                     "steps": int(s["cand_steps"][o, k]) if valid else 0,
                     "own_steps": int(s["cand_own"][o, k]) if valid else 0, "capped_fees": capped, "fees": fees})
    return by_part(rows)


def _city_of(game, hex_: int) -> int:
    return int(np.flatnonzero(game.rail_map.tables.city_hex == hex_)[0])


def _race_expected(game, s, o: int, n: int) -> dict:
    """The current race (start and goal city or country, entrants), the last race per relative seat, cities."""
    on = s["race_start"] >= 0
    n_cities = len(game.rail_map.tables.city_hex)
    race = {"international": on and s["race_country"] >= 0, "in_progress": bool(on),
            "entrants": int((s["entry"][:n] == ENTRY_ENTERED).sum()) if on else 0}
    cities = [_city_of(game, int(s["race_start"])) if on else NOBODY,
              _city_of(game, int(s["race_goal"])) if on and s["race_goal"] >= 0 else NOBODY]
    last = {"place": [], "prize": [], "net_fees": []}
    for k in range(MAX_PLAYERS):
        p = (o + k) % n
        last["place"].append(int(s["last_place"][p]) + 1 if k < n and s["last_place"][p] >= 0 else 0)
        last["prize"].append(int(s["last_prize"][p]) if k < n else 0)
        last["net_fees"].append(int(s["last_fees"][p]) if k < n else 0)
    limit = max(int(s["repeat_limit"]), 1)
    return {"race": race, "race_cities": cities,
            "race_country": int(s["race_country"]) if on and s["race_country"] >= 1 else NOBODY, "last_race": last,
            "connected": [c < n_cities and bool(s["connected"][c]) for c in range(MAX_CITIES)],
            "city_uses": [int(s["city_uses"][c]) / limit if c < n_cities else 0.0 for c in range(MAX_CITIES)]}


def _config_expected(game, s, o: int, n: int) -> dict:
    owners = [_rel(int(s["ferry_owner"][f]), o, n) + 1 if f < len(game.rail_map.tables.ferries) else 0
              for f in range(MAX_FERRIES)]
    return {"config": {"coop": bool(s["coop"]), "international": bool(s["international"]),
                       "flat_fee": bool(s["flat_fee"]), "ferries": bool(s["ferries_on"]),
                       "extension_mode": int(s["ext_mode"]), "end_races": s["end_mode"] == END_RACES,
                       "route_length": s["resolution"] == RESOLUTION_ROUTE_LENGTH,
                       "shared_roll": bool(s["shared_roll"]),
                       "one_build_die": s["build_dice"] == 1, "ten_percent": bool(s["ext_10pct"])},
            "ferries": owners}


def expected_decode(game, s, o: int) -> dict:
    """What ``decode`` must give for seat o's observation of record s (module docstring of ``observation``)."""
    n = int(s["num_players"])
    return {"board": _board_expected(game, s, o), **_turn_expected(s, o, n), **_seats_expected(game, s, o, n),
            "candidates": _candidates_expected(s, o, n), **_race_expected(game, s, o, n),
            **_config_expected(game, s, o, n)}


def _mismatches(decoded: dict, expected: dict) -> list[str]:
    """The fields whose decoded value differs from the expected one (the board by the positions that differ)."""
    return mismatches(decoded, expected, equal_to_float32, by_position=("board",))


def _check_every_seat(game, records: np.ndarray) -> int:
    """Asserts every seat's decoded observation of every record; the number checked."""
    return check_every_seat(game, records, lambda b, s, o: expected_decode(game, s, o), equal_to_float32,
                            by_position=("board",))


# ---- (a) every field is declared -------------------------------------------------------------------------------------
def test_every_field_declares_its_natural_scale():
    """``undecoded()`` is empty on both maps: no field of the Rail observation decodes as raw floats."""
    assert GAME.obs_layout.undecoded() == [] and STRAIT.obs_layout.undecoded() == []


# ---- (b) decoded values are the record's -----------------------------------------------------------------------------
def test_snapshots_cover_the_interesting_cases(records, strait_records):
    """The random-play records reach every decision context, every player count, races with entrants and valid
    candidates, prizes and fees paid, international races, co-builds, account funding, extension windows, the 10 %
    budget, finished games; the strait records built ferries."""
    assert set(np.unique(records["context"])) == set(range(N_CONTEXTS))
    assert set(np.unique(records["num_players"])) == {2, 3, 4, 5, 6} and records["done"].any()
    assert (records["entry"] == ENTRY_ENTERED).any() and records["cand_valid"].any()
    assert (records["last_prize"] > 0).any() and (records["last_fees"] != 0).any()
    assert (records["race_country"] >= 1).any() and (records["partner"] >= 0).any()
    assert (records["funding"] == FUND_ACCOUNT).any() and (records["window_bp"] > 0).any()
    assert (records["ext_10pct"] & (records["race_income"] > 0).any(axis=1)).any() and records["coop_declined"].any()
    assert (strait_records["ferry_owner"] >= 0).any()


def test_decoded_values_equal_the_record_for_every_seat(records):
    """Every field (board planes, context, players, seat to act, balances, turn, progress, seats, start cities,
    first directions, candidates, race, race cities and country, last race, connected cities, city uses, config,
    ferries) decodes to the record's values, seen from each seat (§10.2: relative seats)."""
    assert _check_every_seat(GAME, records) > 1000


def test_decoded_values_equal_the_record_on_a_map_with_a_ferry(strait_records):
    """The same on the strait map (its own grid size; a ferry, a foreign strip): ferry owners relative + 1."""
    assert _check_every_seat(STRAIT, strait_records) > 100


def test_counts_decode_as_integers(records):
    """Counts come back as integers (not floats to round): balances, dice, BP, fees, prizes, the target."""
    decoded = GAME.obs_layout.decode(GAME.observe(records[:1], 0)[0])
    for value in (decoded["balance"], decoded["candidates"]["fees"], decoded["last_race"]["prize"],
                  decoded["seats"]["window_bp_left"], decoded["ferries"]):
        assert np.issubdtype(np.asarray(value).dtype, np.integer)
    for value in (decoded["context"], decoded["players"], decoded["turn"]["bp_left"], decoded["turn"]["red_die"],
                  decoded["progress"]["target"], decoded["race"]["entrants"]):
        assert isinstance(value, int)  # a part of one value decodes to one Python value
    assert decoded["board"].dtype == bool and decoded["board"].shape == (N_PLANES, 25, 31)
    assert isinstance(decoded["progress"]["round_share"], float)


def test_batches_decode_like_single_observations(records):
    """``decode`` of a batch of observations gives, row by row, what single observations give."""
    assert_batch_decodes_row_by_row(GAME.obs_layout, GAME.observe(records[:20], 0),
                                    [("context",), ("balance",), ("board",)])


# ---- (c) one-hots in range; the declaration accounts for every float -------------------------------------------------


def test_every_onehot_decodes_to_an_index_in_range_or_minus_one(records):
    """Every one-hot part of every observation decodes to -1 or an index among its values; each takes values other
    than -1 somewhere in the records."""
    names, seen = onehots_in_range(GAME.obs_layout,
                                   (GAME.observe(*seen_by(records, o)) for o in range(MAX_PLAYERS)))
    assert len(names) == 10 and seen == names


@pytest.mark.parametrize("which", ["western_usa", "strait"])
def test_reencoding_the_decoded_fields_gives_back_every_float(which, records, strait_records):
    """Every float is covered by a part at the kernel's own scale: encode(decode(obs)) == obs, bit for bit
    (so one-hots hold at most one 1, flags are 0/1, and no count is clipped or scaled differently)."""
    game, recs = (GAME, records) if which == "western_usa" else (STRAIT, strait_records)
    for o in range(MAX_PLAYERS):
        assert_reencodes(game.obs_layout, game.observe(*seen_by(recs, o)))


def test_control_a_wrong_scale_is_caught(records):
    """Control: a layout that reads balances in units of 10 instead of 100 fails both checks above."""
    wrong = with_part_rescaled(GAME.obs_layout, "balance", "balance", 10.0)
    b = int(np.flatnonzero((records["balance"] != 0).any(axis=1))[0])
    obs = GAME.observe(records[b:b + 1], 0)
    assert encode(wrong, wrong.decode(obs), 1).tobytes() != obs.tobytes()
    assert _mismatches(wrong.decode(obs[0]), expected_decode(GAME, records[b], 0))
    assert not _mismatches(GAME.obs_layout.decode(obs[0]), expected_decode(GAME, records[b], 0))
