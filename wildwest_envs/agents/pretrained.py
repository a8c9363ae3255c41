"""Shipped policy networks: one ``.npz`` file per game, loaded without unpickling anything.

``make_agent("pretrained", game)`` plays the network shipped for that game
(``weights/<game>_<N>p.npz`` inside this package, installed by ``pip``);
``pretrained:<path>`` loads any file written by ``export_pretrained``.

**File format** (``numpy.savez_compressed``, read with ``allow_pickle=False``):

* ``config``: UTF-8 JSON as a ``uint8`` array, with at least
  ``format`` (``FORMAT``), ``game`` (canonical name), ``num_players``,
  ``obs_size``, ``n_actions``, ``network`` (a name of
  ``agents.policy.POLICY_NETWORKS``), ``net_arch`` (hidden sizes of the
  MLP policy and value networks) and ``dtype`` (how the weights are stored);
  optionally ``reward_mode``, the reward its value head was trained on (one of
  ``core.game.REWARD_MODES``; ``"win"`` when absent), which the guided search
  backs up (``agents.guided_search``); the exporter adds the training recipe
  (command, seed, wall time) for people.
* ``w:<name>``: one array per entry of the network's ``state_dict``.

Weights are stored as float32, or as float16 when float32 would make the file
larger than ``MAX_BYTES`` (the loader casts them back to float32; the measured
results of a shipped file are of the file itself). The zip's CRCs catch a
corrupt or truncated file; the loader then checks the config's fields, that the
game, player count and observation size are the ones asked for, that the arrays
are exactly the network's tensors, and that every weight is finite. Anything
else is an ``UnsafeCheckpointError`` (a ``ValueError``) naming the problem.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import torch
from gymnasium import spaces

from wildwest_envs.core.game import REWARD_MODES
from wildwest_envs.registry import canonical_name, get_game

from .policy import POLICY_NETWORKS, PolicyAgent, UnsafeCheckpointError, network_class

FORMAT = "wildwest_envs.pretrained/1"  # the config's "format"; bump on an incompatible change
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"  # the shipped files (package data)
MAX_BYTES = 5 * 2**20  # a shipped file's size limit; float16 storage above it
MAX_FILE_BYTES = 256 * 2**20  # files larger than this are refused unread
DEFAULT_PLAYERS = 3  # the player count every shipped network was trained for
CONFIG_KEY = "config"
WEIGHT_PREFIX = "w:"
REQUIRED = {"format": str, "game": str, "num_players": int, "obs_size": int, "n_actions": int, "network": str,
            "net_arch": list, "dtype": str}


def shipped_path(game_name: str, num_players: int = DEFAULT_PLAYERS) -> Path:
    """Where the shipped network of ``game_name`` at ``num_players`` lies (it may not exist)."""
    return WEIGHTS_DIR / f"{canonical_name(game_name)}_{int(num_players)}p.npz"


def shipped_files() -> list[Path]:
    """Every shipped network file, sorted."""
    return sorted(WEIGHTS_DIR.glob("*.npz"))


def export_pretrained(policy, path: str | Path, game_name: str, num_players: int, network: str = "mlp",
                      net_arch: list[int] | None = None, **provenance) -> Path:
    """Write ``policy`` (a ``MaskableActorCriticPolicy``) as a pretrained file at ``path``.

    Args:
        policy: the trained network (e.g. ``model.policy`` or ``PolicyAgent.policy``).
        path: the ``.npz`` to write.
        game_name, num_players: what it was trained for (checked when loaded).
        network: its ``POLICY_NETWORKS`` name.
        net_arch: the MLP hidden sizes it was built with (read from the policy when None).
        provenance: JSON-serialisable facts kept in the config (recipe, seed, wall time...).

    Returns:
        The path written.
    """
    game = get_game(game_name)
    if network not in POLICY_NETWORKS:
        raise ValueError(f"unknown network {network!r}; choose one of {sorted(POLICY_NETWORKS)}")
    arch = list(net_arch if net_arch is not None else _net_arch_of(policy))
    tensors = {k: v.detach().cpu().numpy() for k, v in policy.state_dict().items()}
    size32 = sum(a.astype(np.float32).nbytes if a.dtype.kind == "f" else a.nbytes for a in tensors.values())
    dtype = "float32" if size32 <= MAX_BYTES else "float16"
    config = dict(provenance, format=FORMAT, game=canonical_name(game_name), num_players=int(num_players),
                  obs_size=int(game.obs_size), n_actions=int(game.n_actions), network=network,
                  net_arch=[int(x) for x in arch], dtype=dtype)
    arrays = {WEIGHT_PREFIX + k: (v.astype(dtype) if v.dtype.kind == "f" else v) for k, v in tensors.items()}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, **{CONFIG_KEY: np.frombuffer(json.dumps(config).encode(), np.uint8)}, **arrays)
    return path


def load_pretrained(path: str | Path, game_name: str | None = None, num_players: int | None = None,
                    deterministic: bool = True, seed: int = 0, name: str | None = None) -> PolicyAgent:
    """The network of a pretrained file as a ``PolicyAgent`` (greedy by default).

    Args:
        path: a file written by ``export_pretrained``.
        game_name, num_players: when given, the file must have been trained for them.
        deterministic, seed: as for ``PolicyAgent``.
        name: the agent's name (default ``"pretrained:<path>"``).

    Raises:
        FileNotFoundError: no file at ``path``.
        UnsafeCheckpointError: a corrupt, truncated or foreign file, or one for another game, player
            count or observation size.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no pretrained network at {path}")
    config, arrays = _read(path)
    _check_config(path, config, game_name, num_players)
    policy = _build_policy(path, config, arrays)
    return PolicyAgent(policy, name or f"pretrained:{path}", deterministic, seed, config)


def load_shipped(game_name: str, num_players: int = DEFAULT_PLAYERS, deterministic: bool = True,
                 seed: int = 0) -> PolicyAgent:
    """The network shipped with the library for ``game_name`` at ``num_players``, named ``"pretrained"``.

    Raises:
        ValueError: no network ships for that game and player count.
    """
    path = shipped_path(game_name, num_players)
    if not path.is_file():
        available = ", ".join(p.stem for p in shipped_files()) or "none"
        raise ValueError(f"no pretrained network ships for {canonical_name(game_name)} at {num_players} players "
                         f"(shipped: {available})")
    return load_pretrained(path, game_name, num_players, deterministic, seed, name="pretrained")


# ---- reading and checking --------------------------------------------------------------------------------
def _read(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """The config and the weight arrays of a file, every member's CRC checked."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise UnsafeCheckpointError(f"{path} is {path.stat().st_size} bytes, over the {MAX_FILE_BYTES} limit")
    try:
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as data:
            members = {k: data[k] for k in data.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise UnsafeCheckpointError(f"{path} is not a pretrained network file (corrupt or truncated?): "
                                    f"{str(error)[:200]}") from None
    raw = members.pop(CONFIG_KEY, None)
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise UnsafeCheckpointError(f"{path} has no config: not a pretrained network file")
    try:
        config = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise UnsafeCheckpointError(f"{path}: the config is not JSON: {str(error)[:200]}") from None
    if not isinstance(config, dict):
        raise UnsafeCheckpointError(f"{path}: the config is not a JSON object")
    foreign = [k for k in members if not k.startswith(WEIGHT_PREFIX)]
    if foreign:
        raise UnsafeCheckpointError(f"{path}: unexpected members {foreign[:5]}")
    return config, {k[len(WEIGHT_PREFIX):]: v for k, v in members.items()}


def _check_config(path: Path, config: dict, game_name: str | None, num_players: int | None) -> None:
    """The config's fields have their types, and name the game, player count and observation size asked for."""
    for key, kind in REQUIRED.items():
        if not isinstance(config.get(key), kind) or isinstance(config.get(key), bool):
            raise UnsafeCheckpointError(f"{path}: config field {key!r} is {config.get(key)!r}, "
                                        f"expected a {kind.__name__}")
    if config["format"] != FORMAT:
        raise UnsafeCheckpointError(f"{path}: format {config['format']!r}, this version reads {FORMAT!r}")
    if config.get("reward_mode", "win") not in REWARD_MODES:
        raise UnsafeCheckpointError(f"{path}: reward_mode {config.get('reward_mode')!r} is not one of {REWARD_MODES}")
    if config["network"] not in POLICY_NETWORKS or config["dtype"] not in ("float32", "float16"):
        raise UnsafeCheckpointError(f"{path}: unknown network {config['network']!r} or dtype {config['dtype']!r}")
    if not all(isinstance(x, int) and 0 < x <= 4096 for x in config["net_arch"]) or len(config["net_arch"]) > 8:
        raise UnsafeCheckpointError(f"{path}: net_arch {config['net_arch']!r} is not a list of layer sizes")
    try:
        trained_on = canonical_name(config["game"])
    except ValueError:
        raise UnsafeCheckpointError(f"{path} was trained on {config['game']!r}, which is not a registered game") \
            from None
    if game_name is not None and trained_on != canonical_name(game_name):
        raise UnsafeCheckpointError(f"{path} was trained on {trained_on}, not {canonical_name(game_name)}")
    if num_players is not None and config["num_players"] != int(num_players):
        raise UnsafeCheckpointError(f"{path} was trained for {config['num_players']} players, not {num_players}")
    game = get_game(trained_on)
    if (config["obs_size"], config["n_actions"]) != (game.obs_size, game.n_actions):
        raise UnsafeCheckpointError(
            f"{path} expects observations of size {config['obs_size']} and {config['n_actions']} actions, but "
            f"{trained_on} of this version gives {game.obs_size} and {game.n_actions}")


def _build_policy(path: Path, config: dict, arrays: dict[str, np.ndarray]):
    """The network named by the config, with the file's weights (exactly its tensors, all finite)."""
    observation_space = spaces.Box(-np.inf, np.inf, (config["obs_size"],), np.float32)
    action_space = spaces.Discrete(config["n_actions"])
    with torch.random.fork_rng(devices=[]):  # initialisation before loading must not use the global RNG
        policy = network_class(config["network"])(observation_space, action_space, lambda _: 0.0,
                                                  net_arch=list(config["net_arch"]))
    expected = policy.state_dict()
    if set(arrays) != set(expected):
        missing, extra = sorted(set(expected) - set(arrays)), sorted(set(arrays) - set(expected))
        raise UnsafeCheckpointError(f"{path}: the weights are not the network's (missing {missing[:3]}, "
                                    f"unexpected {extra[:3]})")
    state = {}
    for key, tensor in expected.items():
        array = arrays[key]
        if tuple(array.shape) != tuple(tensor.shape) or array.dtype.kind not in "fiu":
            raise UnsafeCheckpointError(f"{path}: weight {key} has shape {array.shape} and dtype {array.dtype}, "
                                        f"the network needs {tuple(tensor.shape)}")
        if array.dtype.kind == "f" and not np.isfinite(array).all():
            raise UnsafeCheckpointError(f"{path}: weight {key} holds NaN or infinite values")
        state[key] = torch.from_numpy(np.ascontiguousarray(array).astype(tensor.numpy().dtype))
    policy.load_state_dict(state, strict=True)
    return policy.to("cpu")


def _net_arch_of(policy) -> list[int]:
    """The MLP hidden sizes a ``MaskableActorCriticPolicy`` was built with (its ``net_arch``)."""
    arch = policy.net_arch
    if isinstance(arch, dict):
        arch = arch.get("pi", [])
    return [int(x) for x in arch]


# ---- command line -----------------------------------------------------------------------------------------
def export_run(run_dir: str | Path, out: str | Path, **provenance) -> Path:
    """Export the final ``model.zip`` of a ``training.train`` run directory as a pretrained file.

    The run's ``config.json`` gives the game, player count, network, ``net_arch`` and ``reward_mode``.
    """
    from .policy import load_policy, read_config
    run_dir = Path(run_dir)
    config = read_config(run_dir / "model.zip")
    if not config:
        raise ValueError(f"{run_dir} has no config.json: not a training.train run directory")
    policy = load_policy(run_dir / "model.zip")
    return export_pretrained(policy, out, config["game"], int(config["num_players"]), config.get("policy", "mlp"),
                             [int(x) for x in str(config.get("net_arch", "256,256")).split(",")],
                             seed=config.get("seed"), total_timesteps=config.get("total_timesteps"),
                             reward_mode=config.get("reward_mode", "win"), **provenance)


def main(argv: list[str] | None = None) -> None:
    """``python -m wildwest_envs.agents.pretrained``: export a run's network, or show a file's config."""
    import argparse
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="write a run directory's model.zip as a pretrained .npz")
    export.add_argument("run_dir")
    export.add_argument("out")
    export.add_argument("--recipe", default="", help="the command that trained it (kept in the config)")
    show = commands.add_parser("show", help="print the config of pretrained files (default: the shipped ones)")
    show.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    if args.command == "export":
        path = export_run(args.run_dir, args.out, **({"recipe": args.recipe} if args.recipe else {}))
        print(f"wrote {path} ({path.stat().st_size / 2**20:.2f} MB)")
        return
    for path in args.files or shipped_files():
        config, _ = _read(Path(path))
        print(f"{path} ({Path(path).stat().st_size / 2**20:.2f} MB): {json.dumps(config)}")


if __name__ == "__main__":
    main()
