"""A trained MaskablePPO policy as an agent: greedy or sampling, frozen, on the CPU.

Two ways to build one:

* ``PolicyAgent.load(path)``: a checkpoint saved by ``model.save`` (a ``.zip``),
  or a run directory of ``training.train`` holding ``model.zip``. The run's
  ``config.json`` (in the directory, or next to the ``.zip`` or one folder up, as
  for ``<run>/checkpoints/model_<n>_steps.zip``) is read into ``agent.config``
  when there is one, so callers can check the game and player count.
* ``PolicyAgent.from_model(model)``: a *snapshot* of a live model, as the
  trainer's opponent pool uses. The policy network is rebuilt and its weights
  copied, so later training of ``model`` does not change the snapshot.

``act_batch`` calls ``policy.predict(observations, action_masks=masks)``:
``deterministic=True`` plays the most probable legal action, ``False`` samples
from the masked distribution. Sampling draws from the agent's own torch
generator state (seeded at construction) inside ``torch.random.fork_rng``, so it
is reproducible and never disturbs the global torch RNG of a training run;
building the network (random initialisation before the weights are loaded) is
wrapped the same way.

This is the only module of ``agents/`` that imports torch and sb3-contrib.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from .base import BatchAgent

MODEL_FILE = "model.zip"  # a run directory's final checkpoint (training.train)
CONFIG_FILE = "config.json"  # a run directory's settings: at least {"game", "num_players"}


class PolicyAgent(BatchAgent):
    """A frozen MaskablePPO policy playing legal actions, greedily or by sampling.

    Attributes:
        policy: the sb3-contrib ``MaskableActorCriticPolicy`` (CPU, eval mode).
        deterministic: play the most probable legal action (else sample).
        name: ``"policy:<path>"`` for a loaded checkpoint, ``"snapshot-<k>"`` for a snapshot.
        config: the run's ``config.json`` contents, or ``{}`` when there is none.
    """

    def __init__(self, policy, name: str, deterministic: bool = True, seed: int = 0, config: dict | None = None):
        self.policy = policy
        self.policy.set_training_mode(False)
        self.name = name
        self.deterministic = deterministic
        self.config = dict(config or {})
        self._rng_state = torch.Generator().manual_seed(int(seed)).get_state()

    # ---- construction ---------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, seed: int = 0) -> PolicyAgent:
        """Load a checkpoint (``.zip``, or a run directory with ``model.zip``) on the CPU.

        Raises:
            FileNotFoundError: no checkpoint at ``path``.
        """
        model_path = checkpoint_file(path)
        with torch.random.fork_rng(devices=[]):  # network init before loading must not use the global RNG
            model = MaskablePPO.load(model_path, device="cpu")
        return cls(model.policy, f"policy:{path}", deterministic, seed, read_config(model_path))

    @classmethod
    def from_model(cls, model, deterministic: bool = True, seed: int = 0, name: str | None = None) -> PolicyAgent:
        """A frozen CPU copy of ``model``'s current policy (default name ``snapshot-<timesteps>``)."""
        live = model.policy
        with torch.random.fork_rng(devices=[]):
            policy = type(live)(**live._get_constructor_parameters())
        policy.load_state_dict({k: v.detach().cpu() for k, v in live.state_dict().items()})
        policy.to("cpu")
        return cls(policy, name or f"snapshot-{model.num_timesteps}", deterministic, seed)

    # ---- acting ---------------------------------------------------------------------
    def act_batch(self, observations: np.ndarray, masks: np.ndarray, states: np.ndarray | None = None,
                  seats: np.ndarray | None = None) -> np.ndarray:
        """One legal action per row, from the policy's masked action distribution.

        Raises:
            ValueError: a row of ``masks`` has no legal action.
        """
        observations = np.asarray(observations, dtype=np.float32)
        masks = np.asarray(masks).astype(bool)
        if not masks.any(axis=1).all():
            raise ValueError("a row of the action mask has no legal action")
        if self.deterministic:
            actions, _ = self.policy.predict(observations, deterministic=True, action_masks=masks)
        else:
            with torch.random.fork_rng(devices=[]):
                torch.set_rng_state(self._rng_state)
                actions, _ = self.policy.predict(observations, deterministic=False, action_masks=masks)
                self._rng_state = torch.get_rng_state()
        return np.asarray(actions, dtype=np.int64).reshape(len(observations))


def checkpoint_file(path: str | Path) -> Path:
    """The ``.zip`` of a checkpoint path: the file itself, or ``<run dir>/model.zip``."""
    path = Path(path)
    if path.is_dir():
        path = path / MODEL_FILE
    if not path.is_file():
        raise FileNotFoundError(f"no MaskablePPO checkpoint at {path} (expected a .zip or a run directory "
                                f"containing {MODEL_FILE})")
    return path


def read_config(model_path: str | Path) -> dict:
    """The run's ``config.json`` next to the checkpoint or one folder up, else ``{}``."""
    model_path = Path(model_path)
    for folder in (model_path.parent, model_path.parent.parent):
        if (folder / CONFIG_FILE).is_file():
            return json.loads((folder / CONFIG_FILE).read_text())
    return {}
