"""A policy trained with Ray RLlib (``training.rllib_train``) as an agent.

``RLlibPolicyAgent.load(path)`` accepts

* a run directory of ``training.rllib_train`` (its final checkpoint ``checkpoint/``),
* an RLlib algorithm checkpoint (``<run>/checkpoints/iter_<n>``, or any ``algo.save_to_path``
  output), of which it reads the module ``module_id`` (default ``"shared"``, the
  self-play policy),
* or the directory of one RLModule (``.../learner_group/learner/rl_module/shared``).

The run's ``config.json`` (in the run directory, or above the checkpoint) is read into
``agent.config`` when there is one, so callers can check the game. ``RLlibPolicyAgent(module)``
wraps a live module (the trainer's periodic evaluation).

``act_batch`` feeds ``{"observations", "action_mask"}`` to the module's
``forward_inference`` (whose logits are already masked, ``training.rllib_module``) and
plays the most probable legal action, or samples from the masked distribution with the
agent's own seeded torch generator. Loading needs ray and the ``training`` package (the
module's class); ``agents.registry`` imports this module only for ``rllib:`` specs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from .base import BatchAgent

FINAL_CHECKPOINT = "checkpoint"  # a run directory's final algorithm checkpoint (training.rllib_train)
MODULE_ID = "shared"  # the self-play policy's module id in training.rllib_train
CONFIG_FILE = "config.json"  # a run directory's settings: at least {"game", "num_players"}
MODULE_FILES = ("class_and_ctor_args.pkl", "module_state.pkl")  # what an RLModule checkpoint directory holds
MODULES_IN_ALGORITHM = Path("learner_group") / "learner" / "rl_module"  # where an algorithm checkpoint keeps them
CONFIG_SEARCH_DEPTH = 7  # folders above a module directory searched for config.json (run/checkpoints/iter_n/...)
MASKED = -1e30  # what the agent puts on illegal logits itself, in case a module does not mask


class RLlibPolicyAgent(BatchAgent):
    """A frozen RLlib RLModule playing legal actions, greedily or by sampling.

    Attributes:
        module: the torch RLModule (CPU, eval mode).
        deterministic: play the most probable legal action (else sample).
        name: ``"rllib:<path>"`` for a loaded checkpoint.
        config: the run's ``config.json`` contents, or ``{}``.
    """

    def __init__(self, module, name: str = "rllib", deterministic: bool = True, seed: int = 0,
                 config: dict | None = None):
        self.module = module
        self.name = name
        self.deterministic = deterministic
        self.config = dict(config or {})
        self.generator = torch.Generator().manual_seed(int(seed))

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, seed: int = 0,
             module_id: str = MODULE_ID) -> RLlibPolicyAgent:
        """Load the RLModule of a run directory or checkpoint (see the module docstring) on the CPU.

        Raises:
            FileNotFoundError: no RLlib checkpoint at ``path``.
        """
        from ray.rllib.core.rl_module.rl_module import RLModule

        module_dir = module_checkpoint(path, module_id)
        with torch.random.fork_rng(devices=[]):  # network init before loading must not use the global RNG
            module = RLModule.from_checkpoint(str(module_dir))
        module.eval()
        return cls(module, f"rllib:{path}", deterministic, seed, read_config(module_dir))

    def act_batch(self, observations: np.ndarray, masks: np.ndarray, states: np.ndarray | None = None,
                  seats: np.ndarray | None = None) -> np.ndarray:
        """One legal action per row.

        Raises:
            ValueError: a row of ``masks`` has no legal action.
        """
        masks = np.asarray(masks) > 0
        if not masks.any(axis=1).all():
            raise ValueError("a row of the action mask has no legal action")
        legal = torch.from_numpy(masks)
        batch = {"obs": {"observations": torch.from_numpy(np.asarray(observations, dtype=np.float32)),
                         "action_mask": legal.float()}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"]
            logits = torch.where(legal, logits, torch.full_like(logits, MASKED))
            if self.deterministic:
                actions = torch.argmax(logits, dim=1)
            else:
                actions = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=self.generator)[:, 0]
        return actions.numpy().astype(np.int64)


def module_checkpoint(path: str | Path, module_id: str = MODULE_ID) -> Path:
    """The RLModule directory of a run directory, an algorithm checkpoint or a module checkpoint."""
    path = Path(path)
    candidates = [path, path / MODULES_IN_ALGORITHM / module_id,
                  path / FINAL_CHECKPOINT / MODULES_IN_ALGORITHM / module_id]
    for candidate in candidates:
        if all((candidate / f).is_file() for f in MODULE_FILES):
            return candidate
    raise FileNotFoundError(f"no RLlib checkpoint of module {module_id!r} at {path} (expected a run directory of "
                            f"wildwest_envs.training.rllib_train, an algorithm checkpoint or an RLModule directory)")


def read_config(module_dir: str | Path) -> dict:
    """The run's ``config.json`` in the nearest folder above the module directory (up to the run's), else ``{}``."""
    for folder in Path(module_dir).resolve().parents[:CONFIG_SEARCH_DEPTH]:
        if (folder / CONFIG_FILE).is_file():
            return json.loads((folder / CONFIG_FILE).read_text())
    return {}
