"""What the agents' tests share: positions of games a heuristic plays against random players."""

from __future__ import annotations

import itertools

import numpy as np

from wildwest_envs.agents.base import RandomAgent


def positions_against_random(game, heuristic, num_players: int, games: int, every: int, seed: int,
                             max_steps: int | None = None) -> np.ndarray:
    """Live positions, every ``every`` decisions (at most ``max_steps``), of ``games`` games seeded ``seed``
    where seat 0 is ``heuristic`` and the others play ``RandomAgent(seed + 1)``."""
    states = game.init_batch(games, seed=seed, num_players=num_players)
    rand = RandomAgent(seed + 1)
    kept = []
    for step in itertools.count() if max_steps is None else range(max_steps):
        live = ~game.finished(states)
        if not live.any():
            break
        idx = np.flatnonzero(live)
        sub = states[idx]
        seats = game.current_player(sub)
        obs, masks = game.observe(sub, seats), game.legal_mask(sub)
        if step % every == 0:
            kept.append(sub.copy())
        actions = rand.act_batch(obs, masks)
        mine = seats == 0
        if mine.any():
            actions[mine] = heuristic.act_batch(obs[mine], masks[mine])
        game.step(sub, actions, check=False)
        states[idx] = sub
    return np.concatenate(kept)
