"""A trained MaskablePPO policy as an agent: greedy or sampling, frozen, on the CPU.

Two ways to build one:

* ``PolicyAgent.load(path)``: a checkpoint saved by ``model.save`` (a ``.zip``),
  or a run directory of ``training.train`` holding ``model.zip``. The run's
  ``config.json`` (in the directory, or next to the ``.zip`` or one folder up, as
  for ``<run>/checkpoints/model_<n>_steps.zip``) is read into ``agent.config``
  when there is one, so callers can check the game and player count.

  Loading is safe: a checkpoint is read as data, never run as code. SB3's own
  ``MaskablePPO.load`` unpickles parts of the zip (spaces, schedules, the policy
  class), and unpickling a hostile file executes whatever it says. Instead the
  zip's CRCs are checked, the JSON ``data`` member is read as JSON only (its
  pickled entries are never unpickled; the policy class is read from its pickle
  opcodes without executing them and must be one of ``POLICY_NETWORKS``:
  ``MaskableActorCriticPolicy`` or a network of this folder such as
  ``agents.rail_network.RailSpatialPolicy``), the
  spaces are rebuilt from their readable fields (``_shape``, ``n``), only plain
  JSON ``policy_kwargs`` are accepted, and the weights come from ``policy.pth``
  through ``torch.load(weights_only=True)``, then must match the rebuilt network
  exactly and be finite. Anything else is a ``ValueError`` naming the problem
  (``UnsafeCheckpointError``). The zip's CRCs catch accidental corruption; an
  edit that keeps the format valid loads as other weights (there is no signature),
  never as code.
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

import base64
import binascii
import io
import json
import pickletools
import zipfile
from pathlib import Path

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from .base import BatchAgent

MODEL_FILE = "model.zip"  # a run directory's final checkpoint (training.train)
CONFIG_FILE = "config.json"  # a run directory's settings: at least {"game", "num_players"}
POLICY_CLASS = ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy")  # the default network
# networks a checkpoint may name (by --policy of training.train); the loader accepts these classes and no others
POLICY_NETWORKS = {
    "mlp": POLICY_CLASS,
    "rail_spatial": ("wildwest_envs.agents.rail_network", "RailSpatialPolicy"),  # Rail: one score per buildable step
}
# checkpoints saved before agents/ moved into the package name their network by its old module
LEGACY_POLICY_CLASSES = {("agents.rail_network", "RailSpatialPolicy"): POLICY_NETWORKS["rail_spatial"]}
SAFE_POLICY_KWARGS = ("net_arch", "ortho_init", "share_features_extractor", "normalize_images")
MAX_MEMBER_BYTES = {"data": 64 * 2**20, "policy.pth": 2**30}  # larger members are refused unread


class UnsafeCheckpointError(ValueError):
    """A checkpoint file that is corrupt, foreign, or would need code to be run to load it."""


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
            UnsafeCheckpointError: a corrupt, tampered or foreign file (module docstring).
        """
        model_path = checkpoint_file(path)
        policy = load_policy(model_path)
        return cls(policy, f"policy:{path}", deterministic, seed, read_config(model_path))

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


# ---- safe loading of an SB3 checkpoint (module docstring) --------------------------------------------
def load_policy(path: str | Path) -> MaskableActorCriticPolicy:
    """The policy network of a MaskablePPO ``.zip``, rebuilt on the CPU without unpickling anything.

    Raises:
        UnsafeCheckpointError: the file is not a zip, a member is corrupt (CRC) or too large, it is
            not a MaskablePPO checkpoint, or its weights are not plain finite tensors of the network.
    """
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise UnsafeCheckpointError(f"{path} is not a checkpoint zip: {error}") from None
    with archive:
        try:
            data = json.loads(_member(archive, path, "data"))
        except (ValueError, RecursionError) as error:
            raise UnsafeCheckpointError(f"{path}: member 'data' is not JSON: {str(error)[:200]}") from None
        weights = _member(archive, path, "policy.pth")
        bad = _first_corrupt_member(archive)
        if bad is not None:
            raise UnsafeCheckpointError(f"{path}: member {bad!r} is corrupt (CRC mismatch): the file was changed")
    if not isinstance(data, dict):
        raise UnsafeCheckpointError(f"{path}: 'data' is not a stable-baselines3 settings object")
    policy_class = network_class(_check_policy_class(path, data.get("policy_class")))
    observation_space, action_space = _spaces(path, data)
    kwargs = data.get("policy_kwargs") or {}
    if not isinstance(kwargs, dict) or set(kwargs) - set(SAFE_POLICY_KWARGS) or ":serialized:" in json.dumps(kwargs):
        raise UnsafeCheckpointError(f"{path}: policy_kwargs {sorted(kwargs) if isinstance(kwargs, dict) else kwargs!r}"
                                    f" are not plain JSON of {SAFE_POLICY_KWARGS}; the safe loader cannot rebuild them")
    try:
        state = torch.load(io.BytesIO(weights), map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - an unsafe or corrupt pickle, refused whatever the reason
        raise UnsafeCheckpointError(f"{path}: policy.pth is not a plain tensor file (torch.load with "
                                    f"weights_only=True refused it: {str(error).splitlines()[0][:200]})") from None
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise UnsafeCheckpointError(f"{path}: policy.pth does not hold a state dict of tensors")
    with torch.random.fork_rng(devices=[]):  # network init before loading must not use the global RNG
        try:
            policy = policy_class(observation_space, action_space, lambda _: 0.0, **kwargs)
        except (TypeError, ValueError) as error:
            raise UnsafeCheckpointError(f"{path}: cannot build the policy from {kwargs}: {error}") from None
    try:
        policy.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise UnsafeCheckpointError(f"{path}: the weights do not fit the network: {str(error)[:300]}") from None
    if not all(torch.isfinite(v).all() for v in state.values() if v.is_floating_point()):
        raise UnsafeCheckpointError(f"{path}: the weights hold NaN or infinite values")
    return policy.to("cpu")


def _member(archive: zipfile.ZipFile, path, name: str) -> bytes:
    """The bytes of a required member, refused if missing or larger than ``MAX_MEMBER_BYTES``."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise UnsafeCheckpointError(f"{path} is not a stable-baselines3 checkpoint: no {name!r} member "
                                    f"(members: {archive.namelist()[:10]})") from None
    if info.file_size > MAX_MEMBER_BYTES[name]:
        raise UnsafeCheckpointError(f"{path}: member {name!r} is {info.file_size} bytes, over the limit")
    try:
        return archive.read(name)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise UnsafeCheckpointError(f"{path}: member {name!r} is corrupt: {error}") from None


def _first_corrupt_member(archive: zipfile.ZipFile) -> str | None:
    """The first member whose CRC does not match its data (``ZipFile.testzip``), None if all do."""
    try:
        return archive.testzip()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        return f"? ({error})"


def network_class(name_or_ref):
    """The policy class of a ``POLICY_NETWORKS`` name or (module, class) entry (its module imported on first use)."""
    ref = POLICY_NETWORKS.get(name_or_ref, name_or_ref) if isinstance(name_or_ref, str) else tuple(name_or_ref)
    if ref not in POLICY_NETWORKS.values():
        raise ValueError(f"unknown policy network {name_or_ref!r}; choose one of {sorted(POLICY_NETWORKS)}")
    if ref == POLICY_CLASS:
        return MaskableActorCriticPolicy
    import importlib
    return getattr(importlib.import_module(ref[0]), ref[1])


def _check_policy_class(path, entry) -> tuple:
    """The pickled policy class reference must name one of ``POLICY_NETWORKS`` (opcodes read, never executed)."""
    if not isinstance(entry, dict) or not isinstance(entry.get(":serialized:"), str):
        raise UnsafeCheckpointError(f"{path}: no policy class recorded: not a MaskablePPO checkpoint")
    try:
        blob = base64.b64decode(entry[":serialized:"], validate=True)
        ops = list(pickletools.genops(blob))
    except (binascii.Error, ValueError, EOFError) as error:
        raise UnsafeCheckpointError(f"{path}: the policy class record is malformed: {error}") from None
    names = [arg for op, arg, _ in ops if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE")]
    globals_ = [tuple(arg.split(" ", 1)) for op, arg, _ in ops if op.name in ("GLOBAL", "INST")]
    kinds = {op.name for op, _, _ in ops} - {"PROTO", "FRAME", "MEMOIZE", "STOP", "SHORT_BINUNICODE", "BINUNICODE",
                                              "UNICODE", "STACK_GLOBAL", "GLOBAL", "BINPUT", "PUT"}
    found = tuple(names[:2]) if not globals_ else globals_[0]
    found = LEGACY_POLICY_CLASSES.get(found, found)
    if kinds or found not in POLICY_NETWORKS.values() or len(names) + len(globals_) > 2:
        raise UnsafeCheckpointError(f"{path}: the policy class is {'.'.join(found) or '?'} with opcodes "
                                    f"{sorted(kinds)}, not {'.'.join(POLICY_CLASS)}: a foreign or tampered checkpoint")
    return found


def _spaces(path, data: dict) -> tuple[spaces.Box, spaces.Discrete]:
    """The observation and action spaces, from the readable fields SB3 stores beside their pickles."""
    obs, act = data.get("observation_space"), data.get("action_space")
    try:
        shape = tuple(int(x) for x in obs["_shape"])
        n = int(act["n"])
        if obs[":type:"] != "<class 'gymnasium.spaces.box.Box'>" or obs.get("dtype") != "float32" \
                or act[":type:"] != "<class 'gymnasium.spaces.discrete.Discrete'>" or int(act.get("start", 0)) != 0 \
                or len(shape) != 1 or not 0 < shape[0] < 2**24 or not 1 < n < 2**24:
            raise ValueError("unexpected spaces")
    except (TypeError, KeyError, ValueError):
        raise UnsafeCheckpointError(f"{path}: the spaces are not a flat float32 Box and a Discrete from 0 "
                                    f"(what every wildwest_envs game uses)") from None
    return spaces.Box(-np.inf, np.inf, shape, np.float32), spaces.Discrete(n)
