"""RLlib RLModules for the turn-based envs of ``training.rllib_env``.

* ``ActionMaskingPPOModule``: RLlib's default PPO torch module (MLP encoder, policy and
  value heads) run on the ``"observations"`` entry of the ``Dict`` observation, with the
  logits of every illegal action (``"action_mask"`` entry 0) replaced by
  ``MASKED_LOGIT`` in all three forward passes (inference, exploration, training), so
  an illegal action has probability 0 in sampling, in greedy play and in the PPO loss.
  This follows RLlib's action-masking example module
  (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``), which lives among the
  examples and changes the batch it is given; this one leaves the batch alone. A row
  with no legal action (a finished seat's last observation, which RLlib only feeds to
  the value head) gets uniform logits instead of NaNs.
* ``FrozenAgentModule``: any agent of ``agents.registry.make_agent`` that decides from
  the observation and the mask alone (``random``, the game's ``heuristic``, a
  MaskablePPO checkpoint of ``training.train``, an RLlib checkpoint ``rllib:<path>``)
  as a module that is never trained: the frozen opponents of ``training.rllib_train``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from .rllib_env import MASK_KEY, OBS_KEY

MASKED_LOGIT = FLOAT_MIN  # finite, so masked entries give probability 0 and entropy / KL terms stay finite
STATELESS_ONLY = ("mcts", "human")  # agent specs that need the game state or a person: not usable as a module


def split_observation(batch: dict) -> tuple[dict, Any]:
    """A shallow copy of ``batch`` whose ``obs`` is the observation vector, and the mask.

    The mask comes from the ``Dict`` observation or, in a batch already split by RLlib's
    learner connectors, from ``batch["action_mask"]``.
    """
    obs = batch[Columns.OBS]
    if isinstance(obs, dict):
        if OBS_KEY not in obs or MASK_KEY not in obs:
            raise ValueError(f"expected a Dict observation with keys {OBS_KEY!r} and {MASK_KEY!r}, got {sorted(obs)}")
        return {**batch, Columns.OBS: obs[OBS_KEY]}, obs[MASK_KEY]
    if MASK_KEY not in batch:
        raise ValueError(f"no {MASK_KEY!r} in the batch: the observation must be Dict({OBS_KEY}, {MASK_KEY})")
    return batch, batch[MASK_KEY]


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with illegal entries at ``MASKED_LOGIT``; a row without a legal action becomes uniform (zeros)."""
    legal = mask > 0
    masked = torch.where(legal, logits, torch.full_like(logits, MASKED_LOGIT))
    empty = ~legal.any(dim=-1, keepdim=True)
    return torch.where(empty, torch.zeros_like(logits), masked)


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """PPO's default torch RLModule with illegal actions masked (see the module docstring)."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs):
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(f"ActionMaskingPPOModule needs a Dict({OBS_KEY}, {MASK_KEY}) observation space, "
                             f"got {observation_space}")
        self.observation_space_with_mask = observation_space
        # the default encoder and heads are built for the observation vector alone
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        """Build the default networks, then expose the env's ``Dict`` space again (RLlib compares spaces)."""
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict, **kwargs) -> dict:
        inputs, mask = split_observation(batch)
        return self._masked(super()._forward_inference(inputs, **kwargs), mask)

    def _forward_exploration(self, batch: dict, **kwargs) -> dict:
        inputs, mask = split_observation(batch)
        return self._masked(super()._forward_exploration(inputs, **kwargs), mask)

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        inputs, mask = split_observation(batch)
        return self._masked(super()._forward_train(inputs, **kwargs), mask)

    def compute_values(self, batch: dict, embeddings: Any = None):
        """The value head on the observation vector (the mask is not an input of the value)."""
        inputs, _ = split_observation(batch) if embeddings is None else (batch, None)
        return super().compute_values(inputs, embeddings)

    @staticmethod
    def _masked(outputs: dict, mask) -> dict:
        outputs[Columns.ACTION_DIST_INPUTS] = mask_logits(outputs[Columns.ACTION_DIST_INPUTS], mask)
        return outputs


class FrozenAgentModule(RLModule):
    """A fixed agent (``make_agent`` spec) acting for the seats mapped to it; never trained.

    ``model_config``: ``agent`` (the spec), ``game`` (registered name), ``seed`` (default 0),
    ``deterministic`` (checkpoints play greedily when true, default false: they sample).
    """

    def setup(self) -> None:
        """Build the agent (imported here, so that a module spec stays cheap to ship)."""
        from wildwest_envs.agents.registry import make_agent

        spec = str(self.model_config["agent"])
        if spec.split(":")[0] in STATELESS_ONLY:
            raise ValueError(f"agent {spec!r} needs the game state; a frozen RLlib opponent sees only the "
                             f"observation and the mask (use random, heuristic or a checkpoint)")
        self.agent = make_agent(spec, self.model_config["game"], seed=int(self.model_config.get("seed", 0)),
                                deterministic=bool(self.model_config.get("deterministic", False)))

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        observations, masks = _to_numpy(obs[OBS_KEY]), _to_numpy(obs[MASK_KEY])
        actions = np.zeros(len(masks), dtype=np.int64)
        rows = np.flatnonzero(masks.any(axis=1))
        if len(rows):
            actions[rows] = self.agent.act_batch(observations[rows], masks[rows] > 0)
        return {Columns.ACTIONS: actions}

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        raise NotImplementedError("a FrozenAgentModule is never trained: leave it out of policies_to_train")

    def compile(self, *args, **kwargs) -> None:
        """Nothing to compile (RLlib calls this on torch modules)."""


def _to_numpy(x) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
