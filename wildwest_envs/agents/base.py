"""The agent protocol and the uniformly random agent."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A player: picks legal actions from observations and masks (STYLE.md §14)."""

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """One legal action for one decision."""

    def act_batch(self, observations: np.ndarray, masks: np.ndarray, states: np.ndarray | None = None,
                  seats: np.ndarray | None = None) -> np.ndarray:
        """One legal action per row; search agents may also receive the states and seats."""


class BatchAgent:
    """Base class: ``act`` is ``act_batch`` on a batch of one."""

    name = "agent"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """One legal action for one decision."""
        return int(self.act_batch(observation[None], action_mask[None])[0])

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:  # pragma: no cover
        """One legal action per row."""
        raise NotImplementedError


class RuleBasedAgent(BatchAgent):
    """Base class of the games' heuristics: a seeded generator for tie-breaking noise, one ``decide`` per row."""

    name = "heuristic"

    def __init__(self, seed: int = 0):
        """A heuristic player whose tie-breaking noise comes from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """One legal action per row, from the observation and mask only (``states`` is ignored)."""
        observations, masks = np.asarray(observations), np.asarray(masks)
        actions = np.zeros(len(masks), dtype=np.int64)
        for i in range(len(masks)):
            legal = np.flatnonzero(masks[i])
            if len(legal) == 0:
                raise ValueError("a row of the action mask has no legal action")
            actions[i] = self.decide(observations[i], masks[i], legal)
        return actions

    def decide(self, observation: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:  # pragma: no cover
        """The action of one decision; ``legal`` holds the ids of ``mask`` (at least one)."""
        raise NotImplementedError


class RandomAgent(BatchAgent):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """A uniform legal action per row (argmax of uniform noise over the legal entries)."""
        masks = np.asarray(masks)
        if not masks.any(axis=1).all():
            raise ValueError("a row of the action mask has no legal action")
        noise = self.rng.random(masks.shape)
        return np.argmax(np.where(masks > 0, noise, -1.0), axis=1)
