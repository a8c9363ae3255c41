"""Seeded random play shared by the generic reliability tests (determinism, determinization, hostile input).

Actions come from one splitmix64 generator per game, seeded from the game's
index alone (``game_seed(ACTION_SALT, k)``) and advanced only by that game's
decisions (``core.sampling.sample_legal``), so game ``k`` plays the same actions
wherever it sits in a batch. ``assert_only_live_games_can_act`` is the check a
random-play loop makes of each batch of legal masks.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.kernels import dual
from wildwest_envs.core.rng import RNG_FIELDS, game_seed
from wildwest_envs.core.sampling import sample_legal as sample_legal_kernel

sample_legal = dual(sample_legal_kernel)  # the builds the library runs (core.kernels): none of the tests' own

ACTION_SALT = 0xAC7104  # run seed of the action generators
RNG_NAMES = frozenset(name for name, *_ in RNG_FIELDS)  # the chance generator's fields of every record


def action_rngs(indices) -> np.ndarray:
    """The action generator of each game index (one splitmix64 state per game)."""
    return np.array([game_seed(ACTION_SALT, int(k)) for k in indices], dtype=np.uint64)


def without_rng(record) -> bytes:
    """The bytes of every field of a record except the chance generator's."""
    return b"".join(record[name].tobytes() for name in record.dtype.names if name not in RNG_NAMES)


def assert_only_live_games_can_act(masks: np.ndarray, live: np.ndarray) -> None:
    """Every live game has a legal action and no finished game has one."""
    assert masks[live].any(axis=1).all(), "a live game has no legal action"
    assert not masks[~live].any(), "a finished game has a legal action"


def step_some(game, states: np.ndarray, actions: np.ndarray, rows: np.ndarray) -> None:
    """Step only the games ``rows`` (a bool mask) of ``states``, in place."""
    if rows.all():
        game.step(states, actions, check=False)
    elif rows.any():
        sub = states[rows]
        game.step(sub, actions[rows], check=False)
        states[rows] = sub


def play_to_end(game, states: np.ndarray, rngs: np.ndarray, stop: np.ndarray | None = None,
                max_steps: int = 10**7) -> None:
    """Random legal play, in place, until every game is finished or has made ``stop[b]`` decisions."""
    masks = np.zeros((len(states), game.n_actions), dtype=np.int8)
    actions = np.zeros(len(states), dtype=np.int64)
    for _ in range(max_steps):
        go = ~game.finished(states)
        if stop is not None:
            go &= states["n_decisions"] < stop
        if not go.any():
            return
        game.legal_mask(states, masks)
        sample_legal(masks, rngs, actions)
        step_some(game, states, actions, go)


def mid_game_states(game, per_count: int, seed: int, **options) -> np.ndarray:
    """Unfinished positions of every player count, each at a uniformly random point of its game.

    ``per_count`` seeded games per player count are played once to their end to
    learn their lengths, then replayed to a random decision ``0 .. length-1``.
    """
    parts = []
    rng = np.random.default_rng(seed)
    for players in range(game.min_players, game.max_players + 1):
        fresh = game.init_batch(per_count, seed + players, num_players=players, **options)
        ended = fresh.copy()
        play_to_end(game, ended, action_rngs(range(per_count)))
        lengths = np.maximum(ended["n_decisions"].astype(np.int64), 1)
        stop = rng.integers(0, lengths)
        play_to_end(game, fresh, action_rngs(range(per_count)), stop=stop)
        parts.append(fresh[~game.finished(fresh)])
    return np.concatenate(parts)
