"""Batched play of ``B`` games at once with automatic reset (DESIGN.md).

``VectorEnv`` keeps a ``(B,)`` batch of records. ``reset()`` and ``step()``
return a ``VectorStep`` of arrays: the seat to act in each game, its
observation and its legal-action mask, and, for ``step``, the rewards of every
seat, ``terminated`` and ``truncated``. A game that ends in a ``step`` reports
its final rewards in that step and is replaced at once by a fresh game (the
next of the run: game ``k`` of a run seeded ``s`` uses ``game_seed(s, k)``);
the returned seat, observation and mask are those of the fresh game, and
``final_scores`` keeps the scores of the game that just ended.

This is the base of the stable-baselines3 training adapter and of the
throughput benchmark. It checks actions unless built with ``check=False``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import batch
from .game import REWARD_MODES, Game
from .runner import Dealer


class VectorStep(NamedTuple):
    """What a batched ``reset`` or ``step`` returns (arrays with a leading batch axis)."""

    players: np.ndarray  # (B,) int64, seat to act
    observations: np.ndarray  # (B, obs_size) float32, of the seat to act
    masks: np.ndarray  # (B, n_actions) int8, legal actions of the seat to act
    rewards: np.ndarray  # (B, max_players) float32, final rewards of games that ended
    terminated: np.ndarray  # (B,) bool, the game ended by its rules in this step
    truncated: np.ndarray  # (B,) bool, the game hit the turn cap in this step
    final_scores: np.ndarray  # (B, max_players) int32, scores of games that ended


class VectorEnv:
    """``num_envs`` games of one ``Game`` stepped together, with automatic reset."""

    def __init__(self, game: Game, num_envs: int, seed: int = 0, reward_mode: str = "win",
                 check: bool = True, **options):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        self.game, self.num_envs = game, num_envs
        self.reward_mode, self.check = reward_mode, check
        self.options = game.parse_options(**options)
        self.num_players = self.options["num_players"]
        self.states = np.zeros(num_envs, dtype=game.state_dtype)
        self.dealer = Dealer(game, seed, self.options)
        self._obs = np.zeros((num_envs, game.obs_size), dtype=np.float32)
        self._masks = np.zeros((num_envs, game.n_actions), dtype=np.int8)

    def reset(self, seed: int | None = None) -> VectorStep:
        """Start ``num_envs`` fresh games (of run ``seed`` if given)."""
        self.dealer.restart(seed)
        self.states = self.dealer.deal(self.num_envs)
        zeros = np.zeros((self.num_envs, self.game.max_players), dtype=np.float32)
        false = np.zeros(self.num_envs, dtype=bool)
        return self._result(zeros, false, false, zeros.astype(np.int32))

    def step(self, actions: np.ndarray) -> VectorStep:
        """Apply one action per game; finished games are replaced by fresh ones."""
        self.game.step(self.states, actions, check=self.check, masks=self._masks)  # the new masks in the same pass
        terminated = self.game.terminal(self.states)
        truncated = self.game.truncated(self.states)
        ended = terminated | truncated
        rewards = np.zeros((self.num_envs, self.game.max_players), dtype=np.float32)
        final_scores = np.zeros((self.num_envs, self.game.max_players), dtype=np.int32)
        if ended.any():
            rows = np.flatnonzero(ended)
            done_states = batch.take(self.states, rows)
            rewards[rows] = self.game.returns(done_states, self.reward_mode)
            final_scores[rows] = self.game.scores(done_states)
            self.dealer.deal_into(self.states, rows, masks=self._masks)
        return self._result(rewards, terminated, truncated, final_scores, masks_ready=True)

    def legal_masks(self) -> np.ndarray:
        """``(B, n_actions)`` masks of the current decisions."""
        return self.game.legal_mask(self.states, self._masks)

    def _result(self, rewards, terminated, truncated, final_scores, masks_ready: bool = False) -> VectorStep:
        players = self.game.current_player(self.states)
        observations = self.game.observe(self.states, players, self._obs).copy()
        masks = (self._masks if masks_ready else self.legal_masks()).copy()
        return VectorStep(players, observations, masks, rewards, terminated, truncated, final_scores)
