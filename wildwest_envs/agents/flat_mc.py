"""Flat Monte Carlo: every legal action valued by determinized random playouts, a whole batch of decisions at once.

``FlatMonteCarloAgent(game, playouts=48, seed=0)`` (spec ``mc[:<playouts>]``) answers each decision that has two
or more legal actions as the "flat" (root-only) Monte Carlo search of Browne et al. (2012, §3.2) with
determinization (Ginsberg's GIB):

* **Determinizations.** ``playouts`` records consistent with what the seat has observed
  (``Game.resample_hidden``, seeded from the agent's generator): the true hidden state is never read.
* **Values.** Every legal action is played on every determinization, then every seat plays uniformly random legal
  actions to the end of the game (or the decision cap, which returns 0). The actions of one decision meet the same
  determinizations, the same future chance and the same playout generators (common random numbers), so the
  difference between two of them is not noise of the deal. An action's value is the acting seat's mean return
  (``reward_mode``: ``"rank"`` by default, as ``agents.mcts``).
* **Batching.** The playouts of every decision of an ``act_batch`` call run together in the game's batched kernels,
  at most ``max_rows`` records at a time (the values do not depend on the chunking): no Python work per playout,
  so it costs a fraction of ``mcts`` for as many playouts: in Colt Express (3 players, batches of 40 decisions)
  ``mc:48`` takes 1.3 ms a decision where ``mcts:200`` takes 10 ms, and finished ahead of it in 54.5% of 480
  meetings (``benchmarks/results/colt_express_3p_mc48_vs_mcts200.md``). Random playouts can mislead it where
  random play is far from good play (Way Out West: behind ``mcts:200`` and the heuristic).
* **Move.** The best value; equal values are broken by the agent's generator. A single legal action is answered
  without playouts.

Everything random comes from the agent's seeded generator, so an agent with a fixed seed is deterministic.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.game import REWARD_MODES

from .base import BatchAgent, require_legal
from .mcts import play_randomly

MAX_ROWS = 16_384  # records played out at once (Colt Express: about 14 MB)


class FlatMonteCarloAgent(BatchAgent):
    """Flat Monte Carlo over determinizations (module docstring)."""

    name = "mc"

    def __init__(self, game, playouts: int = 48, seed: int = 0, reward_mode: str = "rank", max_rows: int = MAX_ROWS):
        """Build the agent.

        Args:
            game: a ``core.game.Game`` (its ``resample_hidden`` determinizes).
            playouts: determinizations (and random playouts) per legal action of a decision.
            seed: seeds every random choice of the agent.
            reward_mode: the ``game.returns`` mode averaged (``"rank"``, ``"win"``, ``"score"`` or ``"margin"``).
            max_rows: records played out at once (memory bound; the values do not depend on it).
        """
        if playouts < 1 or max_rows < 1:
            raise ValueError(f"playouts and max_rows must be positive, got {playouts} and {max_rows}")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        self.game = game
        self.playouts = int(playouts)
        self.reward_mode = reward_mode
        self.max_rows = int(max_rows)
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """One action per row, the best valued for ``seats[i]`` in ``states[i]`` (``observations`` unused)."""
        if states is None or seats is None:
            raise ValueError("FlatMonteCarloAgent needs the states and seats (it determinizes them with "
                             "Game.resample_hidden)")
        masks = np.asarray(masks)
        require_legal(masks)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(masks),))
        actions = masks.argmax(axis=1).astype(np.int64)  # the only legal action of a forced row
        open_rows = np.flatnonzero(np.count_nonzero(masks, axis=1) > 1)
        if len(open_rows):
            values = self.action_values(states[open_rows], seats[open_rows], masks[open_rows])
            best = values == np.nanmax(values, axis=1, keepdims=True)
            actions[open_rows] = np.argmax(np.where(best, self.rng.random(values.shape), -1.0), axis=1)
        return actions

    def action_values(self, states: np.ndarray, seats: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``(R, n_actions)`` the mean return to ``seats[r]`` of each legal action of ``states[r]`` after
        ``playouts`` determinized random playouts (NaN where ``masks`` is 0)."""
        game, k = self.game, self.playouts
        decisions, actions = np.nonzero(np.asarray(masks))  # one (decision, action) pair per legal action
        determinizations = self.rng.integers(0, 2**64 - 1, size=(len(states), k), dtype=np.uint64, endpoint=True)
        generators = self.rng.integers(0, 2**64 - 1, size=(len(states), k), dtype=np.uint64, endpoint=True)
        values = np.full(np.shape(masks), np.nan)
        pairs = max(self.max_rows // k, 1)
        for start in range(0, len(decisions), pairs):
            d, a = decisions[start:start + pairs], actions[start:start + pairs]
            rows = np.repeat(d, k)  # k playouts of each pair, on the decision's k determinizations
            sims = game.resample_hidden(states[rows], seats[rows], determinizations[d].reshape(-1))
            game.step(sims, np.repeat(a, k), check=False)
            returns = play_randomly(game, sims, generators[d].reshape(-1), self.reward_mode)
            values[d, a] = returns[np.arange(len(rows)), seats[rows]].reshape(-1, k).mean(axis=1)
        return values


__all__ = ["FlatMonteCarloAgent"]
