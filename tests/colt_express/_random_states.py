"""Realistic Colt Express records for observation and invariant tests: seeded random games.

``random_states(num_players, expert)`` plays a few games with uniformly random
legal actions (a numpy ``Generator`` picks among the legal ids of
``rules.legal_mask``) and returns a snapshot of every record at every
decision, and the final ones. Results are cached per configuration.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import N_ACTIONS
from wildwest_envs.colt_express.options import kernel_options, parse_options
from wildwest_envs.colt_express.state import STATE_DTYPE
from wildwest_envs.core.kernels import serial
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game

_INIT = get_game("colt_express_v0").init_kernel  # the serial deal the library runs (core.kernels.serial)

# every player count, both rule sets where allowed (2 players are always expert, §3.3)
CONFIGS = [(2, True), (3, False), (3, True), (4, False), (4, True), (5, False), (5, True), (6, False), (6, True)]
CONFIG_IDS = [f"{n}p-{'expert' if e else 'standard'}" for n, e in CONFIGS]


def new_games(num_players: int, expert: bool, n_games: int, seed: int) -> np.ndarray:
    """Freshly initialised games with random characters and carriages (§3.5)."""
    states = np.zeros(n_games, dtype=STATE_DTYPE)
    _INIT(states, game_seeds(seed, n_games), kernel_options(parse_options(num_players=num_players, expert=expert)))
    return states


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without any)."""
    scores = rng.random(masks.shape) * (masks > 0)
    return np.argmax(scores, axis=1).astype(np.int64)


@lru_cache(maxsize=None)
def random_states(num_players: int, expert: bool, n_games: int = 6, seed: int = 0) -> np.ndarray:
    """Snapshots of ``n_games`` random games: every live record at every decision, and the final records."""
    states = new_games(num_players, expert, n_games, seed)
    rng = np.random.default_rng(seed + 1000 * num_players + int(expert))
    masks = np.zeros((n_games, N_ACTIONS), dtype=np.int8)
    snapshots = [states.copy()]
    while not states["done"].all():
        serial(rules.legal_mask)(states, masks)
        rules.step(states, random_actions(masks, rng))
        snapshots.append(states.copy())
    # keep each final record once
    everything = np.concatenate(snapshots)
    seen = set()
    keep = []
    for i, record in enumerate(everything):
        key = record.tobytes()
        if key not in seen:
            seen.add(key)
            keep.append(i)
    result = everything[keep]
    result.setflags(write=False)
    return result
