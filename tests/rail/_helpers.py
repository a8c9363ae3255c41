"""Test-only staging for the Rail rule tests: action ids and hexes of the western USA map, scripted dice, the
start-player roll-off, and a flood fill used as a control. Positions are built with the public builder
``wildwest_envs.rail.positions``."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from wildwest_envs.rail.data import DEFAULT_MAP, OFF_CHOOSE_START, OFF_END_TURN, OFF_RACE_DECLINE, OFF_RACE_ENTER
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.positions import build

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
    return build(tuple(a), tuple(b))


def force(states: np.ndarray, dice: list[int], game=GAME) -> None:
    """Script the next chance outcomes (``Game.script``, then the generator): a die reads the face given; a tie
    draw of a race reads face - 1."""
    game.script(states, [("die", d) for d in dice], then="random")


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


@lru_cache(maxsize=1)
def _serial_init():
    """Rail's deal as the library runs it: the serial build (``core.kernels.serial``), whatever the batch."""
    from wildwest_envs.core.kernels import serial
    from wildwest_envs.rail import rules
    return serial(rules.init)


def scripted_game(dice: list[int], seed: int = 0, game=GAME, **options) -> np.ndarray:
    """A fresh game whose first chance outcomes (start-player rolls, first build roll, ...) are ``dice``: the
    start-player roll-off happens in ``init``, before ``Game.script`` could reach it."""
    from wildwest_envs.rail import rules
    from wildwest_envs.rail.options import kernel_options
    from wildwest_envs.rail.state import empty_state
    options.setdefault("num_players", 3)
    maps = game.rail_map.kernel_tables
    states = np.zeros(1, dtype=game.state_dtype)
    vector = kernel_options(game.parse_options(**options), game.rail_map)
    _serial_init()(states, np.array([seed], dtype=np.uint64), vector, empty_state(game.rail_map), maps)
    force(states, dice, game)
    rules.step(states, np.array([rules.START], dtype=np.int64), maps)
    return states
