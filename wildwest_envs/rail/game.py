"""Rail bound into the library's batched ``Game`` API (``core.game``), for any map file.

``make_game(map)`` builds the ``Game`` of a map: the record dtype, the action
and observation sizes and the kernels all follow from the map, and every
kernel receives the map's tables as its last argument (``maps`` docstring), so
one compiled engine serves every map. ``GAME`` is the western USA map's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.game import Game
from ..core.kernels import NO_MASKS, dual
from . import invariants, observation, render, rules
from .data import DEFAULT_MAP, MAX_PLAYERS, MIN_PLAYERS, n_actions
from .maps import RailMap, load_map
from .options import kernel_options, make_parser
from .state import state_dtype

SCORE_SCALE = 100.0  # reward_mode="score": balance / 100

_INIT = dual(rules.init)
_LEGAL_MASK = dual(rules.legal_mask)
_STEP = dual(rules.step_and_mask)
_OBSERVE = dual(observation.observe)
_INVARIANTS = dual(invariants.check_invariants)


def make_game(rail_map: RailMap | str | Path = DEFAULT_MAP, name: str = "rail_v0") -> Game:
    """The ``Game`` of a map (a ``RailMap`` or the path of a map file, §3.8)."""
    if not isinstance(rail_map, RailMap):
        rail_map = load_map(rail_map)
    mp = rail_map.kernel_tables
    parse = make_parser(rail_map)
    layout = observation.observation_layout(rail_map)
    static = observation.static_planes(rail_map)
    offsets = observation.field_offsets(layout)
    action_to_string, render_ansi, render_rgb = render.make_renderers(rail_map)
    dtype = state_dtype(rail_map)

    def init_kernel(states: np.ndarray, seeds: np.ndarray, options: dict) -> None:
        _INIT(states, seeds, kernel_options(options, rail_map), mp)
        _STEP(states, np.full(len(states), rules.START, dtype=np.int64), NO_MASKS, mp)

    def legal_mask_kernel(states: np.ndarray, out: np.ndarray) -> None:
        _LEGAL_MASK(states, out, mp)

    def step_kernel(states: np.ndarray, actions: np.ndarray, masks: np.ndarray) -> None:
        _STEP(states, actions, masks, mp)

    def observe_kernel(states: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
        _OBSERVE(states, seats, out, mp, static, offsets)

    def invariants_kernel(states: np.ndarray, out: np.ndarray) -> None:
        _INVARIANTS(states, out, mp)

    def resample_hidden(states: np.ndarray, seats, seeds) -> np.ndarray:
        """Copies with a reseeded generator and no scripted chance: Rail hides nothing but future dice (§10.1)."""
        out = np.array(states, dtype=dtype, copy=True).reshape(-1)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(out),))
        if np.any(seats < 0) or np.any(seats >= out["num_players"]):
            raise ValueError(f"observer seats {seats.tolist()} out of range for num_players")
        out["rng"] = np.broadcast_to(np.asarray(seeds, dtype=np.uint64), (len(out),))
        out["n_forced"] = 0
        out["forced_pos"] = 0
        out["forced"] = 0
        return out

    game = Game(
        name=name,
        state_dtype=dtype,
        n_actions=n_actions(rail_map),
        obs_layout=layout,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        parse_options=parse,
        init_kernel=init_kernel,
        legal_mask_kernel=legal_mask_kernel,
        step_kernel=step_kernel,
        observe_kernel=observe_kernel,
        scores_kernel=rules.scores,
        tiebreak_kernel=rules.tiebreak,
        action_to_string_fn=action_to_string,
        render_ansi_fn=render_ansi,
        render_rgb_fn=render_rgb,
        validate_state_fn=invariants.make_validator(rail_map),
        invariants_kernel=invariants_kernel,
        invariant_messages=invariants.INVARIANT_MESSAGES,
        score_scale=SCORE_SCALE,
        resample_hidden_fn=resample_hidden,
    )
    object.__setattr__(game, "rail_map", rail_map)  # agents and tests read the map's tables from the Game
    return game


GAME = make_game(DEFAULT_MAP)
