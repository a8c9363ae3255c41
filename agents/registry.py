"""Build an agent from a short spec: ``make_agent("heuristic", "colt_express", seed=3)``.

| spec | agent |
|---|---|
| ``random`` | ``agents.base.RandomAgent(seed)`` |
| ``heuristic`` | the game's heuristic from ``HEURISTICS`` (an error for a game without one) |
| ``mcts`` / ``mcts:<simulations>`` | ``agents.mcts.ISMCTSAgent(game, simulations, seed)`` (default 200) |
| ``human`` | ``agents.human.HumanAgent(game)`` (stdin / stdout) |
| ``<path>`` or ``policy:<path>`` | ``agents.policy.PolicyAgent.load(path)``: a ``.zip`` or a run directory |
| ``rllib:<path>`` | ``agents.rllib_policy.RLlibPolicyAgent.load(path)``: an RLlib run directory or checkpoint (needs ray) |

A checkpoint's ``config.json``, when present, must name the same game (and its
observation size must match the game's). Modules that need torch or that other
engineers provide (heuristics, MCTS) are imported only when their spec is used.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from wildwest_envs.registry import canonical_name, get_game

from .base import RandomAgent

# game -> (module, class) of its hand-written heuristic; the class is built as cls(seed)
HEURISTICS: dict[str, tuple[str, str]] = {
    "colt_express_v0": ("agents.heuristic_colt_express", "ColtExpressHeuristic"),
    "wild_west_express_v0": ("agents.heuristic_wild_west_express", "WildWestExpressHeuristic"),
    "way_out_west_v0": ("agents.heuristic_way_out_west", "WayOutWestHeuristic"),
    "rail_v0": ("agents.heuristic_rail", "RailHeuristic"),
}
MCTS_SIMULATIONS = 200  # default simulations per decision of "mcts"
POLICY_PREFIX = "policy:"  # PolicyAgent names are "policy:<path>"; the prefix is accepted back
RLLIB_PREFIX = "rllib:"  # an RLlib checkpoint (training.rllib_train); RLlibPolicyAgent names are "rllib:<path>"
SPECS = ("random", "heuristic", "mcts", "mcts:<simulations>", "human",
         "<checkpoint .zip or run directory>", "policy:<checkpoint>", "rllib:<checkpoint or run directory>")


def make_agent(spec: str, game_name: str, seed: int = 0, deterministic: bool = True):
    """The agent named by ``spec`` for the registered game ``game_name``.

    Args:
        spec: one of ``SPECS`` (see the module docstring).
        game_name: a registered game (``"colt_express"`` or ``"colt_express_v0"``).
        seed: seeds the agent's own generator.
        deterministic: for checkpoints, play greedily (else sample from the policy).

    Raises:
        ValueError: unknown spec, a game without a heuristic, a bad simulation count, or
            a checkpoint trained on another game.
    """
    game_name = canonical_name(game_name)
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}; valid specs: {', '.join(SPECS)}")
    spec = spec.strip()
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        return _heuristic(game_name, seed)
    if spec == "mcts" or spec.startswith("mcts:"):
        return _mcts(spec, game_name, seed)
    if spec == "human":
        from .human import HumanAgent
        return HumanAgent(get_game(game_name))
    if spec.startswith(RLLIB_PREFIX):
        return _rllib(spec[len(RLLIB_PREFIX):], game_name, seed, deterministic)
    path = spec[len(POLICY_PREFIX):] if spec.startswith(POLICY_PREFIX) else spec
    if Path(path).is_file() or (Path(path) / "model.zip").is_file():
        return _policy(path, game_name, seed, deterministic)
    raise ValueError(f"unknown agent spec {spec!r} (and no checkpoint at that path); valid specs: {', '.join(SPECS)}")


def _heuristic(game_name: str, seed: int):
    if game_name not in HEURISTICS:
        raise ValueError(f"no heuristic agent for {game_name}; games with one: {sorted(HEURISTICS)}")
    module_name, class_name = HEURISTICS[game_name]
    return _import(module_name, class_name, f"the {game_name} heuristic")(seed)


def _mcts(spec: str, game_name: str, seed: int):
    text = spec.partition(":")[2] or str(MCTS_SIMULATIONS)
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"bad MCTS spec {spec!r}: use 'mcts' or 'mcts:<simulations>' with a positive integer")
    agent_class = _import("agents.mcts", "ISMCTSAgent", "the MCTS agent")
    return agent_class(get_game(game_name), simulations=int(text), seed=seed)


def _import(module_name: str, class_name: str, what: str):
    """A class imported on first use, with a clear error when its module is missing."""
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:  # the module exists but one of its imports is missing
            raise
        raise ImportError(f"{what} ({module_name}.{class_name}) is not available in this checkout") from missing


def _rllib(path: str, game_name: str, seed: int, deterministic: bool):
    agent = _import("agents.rllib_policy", "RLlibPolicyAgent", "the RLlib policy agent").load(
        path, deterministic=deterministic, seed=seed)
    trained_on = agent.config.get("game")
    if trained_on is not None and canonical_name(trained_on) != game_name:
        raise ValueError(f"checkpoint {path} was trained on {trained_on}, not {game_name}")
    space = getattr(agent.module, "observation_space", None)
    obs_size = space["observations"].shape[0] if hasattr(space, "spaces") else None
    if obs_size is not None and obs_size != get_game(game_name).obs_size:
        raise ValueError(f"checkpoint {path} expects observations of size {obs_size}, "
                         f"but {game_name} gives {get_game(game_name).obs_size}")
    return agent


def _policy(path: str, game_name: str, seed: int, deterministic: bool):
    from .policy import PolicyAgent
    agent = PolicyAgent.load(path, deterministic=deterministic, seed=seed)
    trained_on = agent.config.get("game")
    if trained_on is not None and canonical_name(trained_on) != game_name:
        raise ValueError(f"checkpoint {path} was trained on {trained_on}, not {game_name}")
    obs_size = agent.policy.observation_space.shape[0]
    if obs_size != get_game(game_name).obs_size:
        raise ValueError(f"checkpoint {path} expects observations of size {obs_size}, "
                         f"but {game_name} gives {get_game(game_name).obs_size}")
    return agent
