"""The self-play callback of ``training.train``: win-rate and time-share logging, learner snapshots."""

from __future__ import annotations

import time
from collections import deque

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from wildwest_envs.agents.policy import PolicyAgent

from .opponents import OpponentPool


class SelfPlayCallback(BaseCallback):
    """Logs the learner's win rate and the env's share of wall time; adds learner snapshots to the pool."""

    def __init__(self, pool: OpponentPool, snapshot_every: int, window: int = 500):
        super().__init__()
        self.pool, self.snapshot_every = pool, snapshot_every
        self.results: deque = deque(maxlen=window)
        self.start = time.perf_counter()
        self.last_snapshot = 0

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done:
                self.results.append(info["won"])
        if self.results:
            self.logger.record("selfplay/win_rate", float(np.mean(self.results)))
        env = self.training_env
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        self.logger.record("selfplay/engine_time_share", (env.env_seconds - env.opponent_seconds) / elapsed)
        self.logger.record("selfplay/opponent_time_share", env.opponent_seconds / elapsed)
        if self.snapshot_every and self.num_timesteps - self.last_snapshot >= self.snapshot_every:
            self.last_snapshot = self.num_timesteps
            k = sum(self.pool.is_snapshot) + 1
            self.pool.add(PolicyAgent.from_model(self.model, deterministic=False, seed=k, name=f"snapshot-{k}"))
        return True
