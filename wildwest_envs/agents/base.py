"""The agent protocol, the base classes of the batch agents and the uniformly random agent."""

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


def require_legal(masks: np.ndarray) -> None:
    """Raise ``ValueError`` if a row of ``masks`` has no legal action."""
    if not masks.any(axis=1).all():
        raise ValueError("a row of the action mask has no legal action")


class SeededAgent(BatchAgent):
    """Base class of the agents that draw from their own seeded generator, ``self.rng``."""

    def __init__(self, seed: int = 0):
        """An agent whose random draws (tie-breaking noise, choices) come from ``seed``."""
        self.rng = np.random.default_rng(seed)


class RuleBasedAgent(SeededAgent):
    """Base class of the games' heuristics: a seeded generator for tie-breaking noise, one ``decide`` per row."""

    name = "heuristic"

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """One legal action per row, from the observation and mask only (``states`` is ignored)."""
        observations, masks = np.asarray(observations), np.asarray(masks)
        require_legal(masks)
        return np.array([self.decide(observations[i], masks[i], np.flatnonzero(masks[i])) for i in range(len(masks))],
                        dtype=np.int64)

    def decide(self, observation: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:  # pragma: no cover
        """The action of one decision; ``legal`` holds the ids of ``mask`` (at least one)."""
        raise NotImplementedError


class RandomAgent(SeededAgent):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """A uniform legal action per row (argmax of uniform noise over the legal entries)."""
        masks = np.asarray(masks)
        require_legal(masks)
        noise = self.rng.random(masks.shape)
        return np.argmax(np.where(masks > 0, noise, -1.0), axis=1)
