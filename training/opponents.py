"""The opponent pool of self-play training: fixed baselines plus snapshots of the learner."""

from __future__ import annotations

import numpy as np


class OpponentPool:
    """Agents that play the non-learner seats, sampled per seat and per game.

    Each entry has a weight; ``add`` appends snapshots of the learner as training
    goes on, keeping at most ``max_snapshots`` of them (the oldest leave first).
    """

    def __init__(self, agents: list, weights: list[float] | None = None, max_snapshots: int = 5):
        if not agents:
            raise ValueError("the opponent pool needs at least one agent")
        self.agents = list(agents)
        self.weights = list(weights) if weights is not None else [1.0] * len(agents)
        self.is_snapshot = [False] * len(agents)
        self.max_snapshots = max_snapshots

    def add(self, agent, weight: float = 1.0, snapshot: bool = True) -> None:
        """Add an agent (by default a learner snapshot, which may later be evicted)."""
        self.agents.append(agent)
        self.weights.append(weight)
        self.is_snapshot.append(snapshot)
        snapshots = [i for i, s in enumerate(self.is_snapshot) if s]
        if len(snapshots) > self.max_snapshots:
            oldest = snapshots[0]
            for items in (self.agents, self.weights, self.is_snapshot):
                del items[oldest]

    def sample(self, rng: np.random.Generator, shape) -> np.ndarray:
        """Indices of agents drawn with the pool's weights."""
        p = np.asarray(self.weights, dtype=float)
        return rng.choice(len(self.agents), size=shape, p=p / p.sum())

    def names(self) -> list[str]:
        """Names of the agents in the pool."""
        return [getattr(a, "name", type(a).__name__) for a in self.agents]
