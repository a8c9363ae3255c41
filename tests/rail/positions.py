"""Rail positions for the rule tests, written as small JSON documents.

A position document describes a reachable situation; ``position(doc)`` plays it
into a record through the engine's own rule helpers, so every fee, bonus and
timestamp of the set-up is the one the rules give::

    {
      "num_players": 3,                      # optional, default 3
      "options": {"coop_building": true},    # optional parse_options keywords
      "start": {"0": 63, "1": 62},           # seat -> start city number, chosen in this order
      "lines": [[0, [[29, 9], [28, 9]]],     # built in order: seat, chain of hexes (col, row);
                [1, [[29, 7], [28, 8]]]],    #   each consecutive pair is one step
      "balance": [10, 0, 3],                 # optional: balances after the set-up
      "turn": {"seat": 1, "bp": 12}          # the pending decision, see below
    }

``turn`` poses the decision to test: ``{"seat": s, "bp": b}`` a BUILD turn
with b BP (the build phase; ``"start_player"`` and ``"round"`` fix the order of
the round, default: the game's start player, round 0); add ``"funding":
"account"`` (or ``"dice"``) for an extension turn of the operation phase. A
``"race": {"start": 43, "goal": 51}`` entry instead poses the entry decisions
of a race between two city numbers (candidates computed by the engine), first
decider ``"first"`` (default 0). Balances set by the document are booked as
earlier prizes so that the money invariant still holds.

Other helpers: ``new_game``, ``legal``, ``play`` (checked step), ``force``
(script dice: a die reads the value given), ``hexes``/``step_id`` (coordinates
to ids), ``build_action``.
"""

from __future__ import annotations

import json

import numpy as np

from wildwest_envs.rail import building, races
from wildwest_envs.rail.data import (CTX_BUILD, CTX_EXT_BUILD, CTX_RACE_ENTRY, DEFAULT_MAP, ENTRY_UNDECIDED,
                                     FUND_ACCOUNT, FUND_BP, OFF_CHOOSE_START, OFF_END_TURN, OFF_RACE_DECLINE,
                                     OFF_RACE_ENTER)
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.state import N_FORCED

MAP = DEFAULT_MAP
MP = MAP.tables
BASE = MAP.n_steps
END_TURN = BASE + OFF_END_TURN
DECLINE = BASE + OFF_RACE_DECLINE


def enter(slot: int) -> int:
    """RACE_ENTER(slot)."""
    return BASE + OFF_RACE_ENTER + slot


def choose_start(i: int) -> int:
    """CHOOSE_START(i)."""
    return BASE + OFF_CHOOSE_START + i


def hex_id(col: int, row: int) -> int:
    """Hex id of offset coordinates."""
    return MAP.hex_of(col, row)


def city_hex(number: int) -> int:
    """Hex of a city number."""
    return int(MP.city_hex[MAP.city_index(number)])


def step_id(a: tuple, b: tuple) -> int:
    """The step id (= BUILD action id) between two hexes given as (col, row)."""
    return MAP.step_between(hex_id(*a), hex_id(*b))


def linked_by_owned_steps(state, mp, start: int) -> set[int]:
    """Hexes joined to ``start`` over every owned step of ``state`` (a plain flood fill: the tests' control)."""
    linked, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for e in range(mp.steps.shape[0]):
            if state["owners"][e] and h in mp.steps[e, :2]:
                v = int(mp.steps[e, 0] + mp.steps[e, 1] - h)
                if v not in linked:
                    linked.add(v)
                    todo.append(v)
    return linked


def new_game(seed: int = 0, game=GAME, **options) -> np.ndarray:
    """A fresh game (batch of one) at its first decision."""
    options.setdefault("num_players", 3)
    return game.init(np.array([seed], dtype=np.uint64), **options)


def legal(states: np.ndarray) -> list[int]:
    """Legal action ids of the pending decision."""
    return [int(a) for a in np.flatnonzero(GAME.legal_mask(states)[0])]


def play(states: np.ndarray, action: int) -> None:
    """Step with a legal action (checked by the Game)."""
    GAME.step(states, np.array([action]))


def force(states: np.ndarray, dice: list[int]) -> None:
    """Script the next chance outcomes: a die reads the given face 1..6 (a tie draw reads value - 1)."""
    s = states[0]
    assert len(dice) <= N_FORCED
    s["forced"][:] = 0
    s["forced"][:len(dice)] = [d - 1 for d in dice]
    s["n_forced"] = len(dice)
    s["forced_pos"] = 0


def position(doc, game=GAME) -> np.ndarray:
    """A record (batch of one) set up from a position document (module docstring), on the game's map."""
    if isinstance(doc, str):
        doc = json.loads(doc)
    rail_map = game.rail_map
    mp = rail_map.tables
    n = doc.get("num_players", 3)
    states = new_game(0, game=game, num_players=n, **doc.get("options", {}))
    s = states[0]
    starts = [int(c) for c in mp.start_cities]
    for seat, number in doc.get("start", {}).items():
        building.choose_start(s, mp, int(seat), starts.index(rail_map.city_index(number)))
    s["context"] = CTX_BUILD
    s["funding"] = FUND_BP
    for seat, chain in doc.get("lines", []):
        s["builder"] = seat
        s["partner"] = -1
        for a, b in zip(chain[:-1], chain[1:]):
            e = rail_map.step_between(rail_map.hex_of(*a), rail_map.hex_of(*b))
            s["bp_left"] = 99
            building.build_step(s, mp, e)
    s["turn_builds"] = 0
    s["bp_left"] = 0
    if "balance" in doc:
        delta = int(np.sum(doc["balance"])) - int(s["balance"][:n].sum())
        s["balance"][:n] = doc["balance"]
        s["total_prizes"] += delta
    if "turn" in doc:
        _pose_turn(s, doc["turn"])
    elif "race" in doc:
        _pose_race(s, doc["race"], rail_map)
    game.validate(states)
    return states


def _pose_turn(s, turn: dict) -> None:
    seat = turn["seat"]
    s["builder"] = seat
    s["current"] = seat
    s["partner"] = -1
    s["turn_builds"] = 0
    s["coop_declined"] = False
    funding = turn.get("funding", "build")
    if funding == "build":
        s["start_player"] = turn.get("start_player", int(s["start_player"]))
        s["round"] = turn.get("round", 0)
        s["operating"] = False
        s["context"] = CTX_BUILD
        s["funding"] = FUND_BP
        s["bp_left"] = turn["bp"]
        s["own_bp"] = turn["bp"]
        s["turn_used"][:] = 0
        s["turn_pos"] = (seat - int(s["start_player"]) - int(s["round"])) % int(s["num_players"])
    else:
        s["operating"] = True
        s["round"] = s["build_rounds"]
        s["context"] = CTX_EXT_BUILD
        s["race_first"] = turn.get("first", seat)
        s["turn_pos"] = (seat - int(s["race_first"])) % int(s["num_players"])
        s["race_k"] = turn.get("race_k", 1)
        if funding == "account":
            s["funding"] = FUND_ACCOUNT
            s["bp_left"] = 0
        else:
            s["funding"] = FUND_BP
            s["bp_left"] = turn["bp"]


def _pose_race(s, race: dict, rail_map=MAP) -> None:
    s["operating"] = True
    s["round"] = s["build_rounds"]
    s["builder"] = -1
    s["funding"] = 0
    s["race_k"] = race.get("race_k", 0)
    s["race_first"] = race.get("first", 0)
    mp = rail_map.tables
    s["race_start"] = mp.city_hex[rail_map.city_index(race["start"])]
    if "country" in race:
        s["race_goal"] = -1
        s["race_country"] = race["country"]
    else:
        s["race_goal"] = mp.city_hex[rail_map.city_index(race["goal"])]
        s["race_country"] = -1
    s["entry"][:] = ENTRY_UNDECIDED
    s["entry_slot"][:] = -1
    races.compute_candidates(s, mp)
    s["turn_pos"] = 0
    s["context"] = CTX_RACE_ENTRY
    s["current"] = s["race_first"]


def scripted_game(dice: list[int], seed: int = 0, game=GAME, **options) -> np.ndarray:
    """A fresh game whose first chance outcomes (start-player rolls, first build roll, ...) are ``dice``."""
    from wildwest_envs.rail import rules
    from wildwest_envs.rail.options import kernel_options
    options.setdefault("num_players", 3)
    maps = game.rail_map.kernel_tables
    states = np.zeros(1, dtype=game.state_dtype)
    rules.init(states, np.array([seed], dtype=np.uint64), kernel_options(game.parse_options(**options),
                                                                         game.rail_map), maps)
    force(states, dice)
    rules.step(states, np.array([rules.START], dtype=np.int64), maps)
    return states
