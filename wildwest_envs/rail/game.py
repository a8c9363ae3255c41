"""Rail bound into the library's batched ``Game`` API (``core.game``), for any map file.

``make_game(map)`` builds the ``Game`` of a map: the record dtype, the action
and observation sizes and the kernels all follow from the map, and every
kernel receives the map's tables as its last argument (``maps`` docstring), so
one engine's code serves every map. Its compiled builds serve the maps of one
size: the record dtype and the tables' record carry the map's hex and step counts
in their numba types, so a map of other sizes compiles the kernels once more on its
first game (45 s on the 2-core machine with the western USA map's builds cached, then
1 s from the cache). ``GAME`` is the western USA map's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.chance import Chance, die
from ..core.game import Game
from ..core.kernels import NO_DRAWS, NO_MASKS, dual, serial
from . import invariants, names, observation, positions, render, rules, svg
from .data import DEFAULT_MAP, MAX_PLAYERS, MIN_PLAYERS, OPT_DISTINCT_DIRS, START_RULES, n_actions
from .eventlog import EVENT_KINDS
from .maps import RailMap, load_map
from .options import make_options
from .state import empty_state, state_dtype

SCORE_SCALE = 100.0  # reward_mode="score": balance / 100
# chance in play (§11.3): dice (the start roll-off, build and race dice), and uniform_int(m), the draw that
# orders m tied seats (0..m-1, reduced modulo m: §7.8)
CHANCE_KINDS = (die(), Chance("tie", MAX_PLAYERS, 0, "uniform_int(m): the next place among m tied seats, 0..m-1"))


@dataclass(frozen=True)
class RailGame(Game):
    """A Rail ``Game`` with its map: agents and tools read the map's tables from it (``rail_map``)."""

    rail_map: RailMap | None = field(default=None, compare=False, repr=False)

_INIT = serial(rules.init)  # the deal and the invariant check: serial builds only (core.kernels.serial)
_LEGAL_MASK = dual(rules.legal_mask)
_STEP = dual(rules.step_and_mask)
_OBSERVE = dual(observation.observe)
_INVARIANTS = serial(invariants.check_invariants)


def make_game(rail_map: RailMap | str | Path = DEFAULT_MAP, name: str = "rail_v0") -> Game:
    """The ``Game`` of a map (a ``RailMap`` or the path of a map file, §3.8)."""
    if not isinstance(rail_map, RailMap):
        rail_map = load_map(rail_map)
    mp = rail_map.kernel_tables
    options = make_options(rail_map)
    start_rule = START_RULES[rail_map.start_rule]
    layout = observation.observation_layout(rail_map)
    static = observation.static_planes(rail_map)
    offsets = observation.field_offsets(layout)
    render_ansi = render.make_text_renderer(rail_map)
    dtype = state_dtype(rail_map)
    empty = empty_state(rail_map)

    def init_kernel(states: np.ndarray, seeds: np.ndarray, vector: np.ndarray) -> None:
        vector = vector.copy()
        vector[OPT_DISTINCT_DIRS] = start_rule  # the map's start rule travels with the options
        _INIT(states, seeds, vector, empty, mp)
        _STEP(states, np.full(len(states), rules.START, dtype=np.int64), NO_MASKS, NO_DRAWS, mp)

    def legal_mask_kernel(states: np.ndarray, out: np.ndarray) -> None:
        _LEGAL_MASK(states, out, mp)

    def step_kernel(states: np.ndarray, actions: np.ndarray, masks: np.ndarray, draws: np.ndarray) -> None:
        _STEP(states, actions, masks, draws, mp)

    def observe_kernel(states: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
        _OBSERVE(states, seats, out, mp, static, offsets)

    def invariants_kernel(states: np.ndarray, out: np.ndarray) -> None:
        _INVARIANTS(states, out, mp)

    game = RailGame(
        rail_map=rail_map,
        name=name,
        state_dtype=dtype,
        n_actions=n_actions(rail_map),
        obs_layout=layout,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        options=options,
        init_kernel=init_kernel,
        legal_mask_kernel=legal_mask_kernel,
        step_kernel=step_kernel,
        observe_kernel=observe_kernel,
        scores_kernel=rules.scores,
        tiebreak_kernel=rules.tiebreak,
        action_to_string_fn=names.make_action_to_string(rail_map),
        render_ansi_fn=render_ansi,
        draw_fn=lambda state, seat=None: svg.draw(state, seat, rail_map),
        validate_state_fn=invariants.make_validator(rail_map),
        invariants_kernel=invariants_kernel,
        invariant_messages=invariants.INVARIANT_MESSAGES,
        score_scale=SCORE_SCALE,
        information="perfect",  # Rail hides nothing but future dice (§10.1)
        chance_kinds=CHANCE_KINDS,
        position_fn=lambda **terms: positions.position(**terms, game=game),  # Game.position on this map
        event_kinds=EVENT_KINDS,  # what a step reports (rail.eventlog)
    )
    return game


GAME = make_game(DEFAULT_MAP)
