"""Build an agent from a short spec: ``make_agent("heuristic", "colt_express", seed=3)``.

| spec | agent |
|---|---|
| ``random`` | ``agents.base.RandomAgent(seed)`` |
| ``heuristic`` | the game's heuristic from ``HEURISTICS`` (an error for a game without one) |
| ``mcts`` / ``mcts:<simulations>`` | ``agents.mcts.ISMCTSAgent(game, simulations, seed)`` (default 200) |
| ``mc`` / ``mc:<playouts>`` | ``agents.flat_mc.FlatMonteCarloAgent(game, playouts, seed)`` (default 48 per action) |
| ``pretrained`` | the network shipped for the game and player count (``agents.pretrained.load_shipped``) |
| ``pretrained:<path>`` | a network file written by ``agents.pretrained.export_pretrained`` |
| ``mcts+pretrained[:<simulations>]`` | ``agents.guided_search.GuidedSearchAgent`` (default 200; settings below) |
| ``human`` | ``agents.human.HumanAgent(game)`` (stdin / stdout) |
| ``<path>`` or ``policy:<path>`` | ``agents.policy.PolicyAgent.load(path)``: a ``.zip`` or a run directory |
| ``rllib:<path>`` | ``agents.rllib_policy.RLlibPolicyAgent.load(path)``: an RLlib run or checkpoint (needs ray) |

A checkpoint's ``config.json``, when present, must name the same game (and its
observation size must match the game's); given ``num_players``, a checkpoint or
network trained for another player count is refused. Modules that need torch or that other
engineers provide (heuristics, MCTS) are imported only when their spec is used.

The guided search's per-game settings (``agents.guided_search``): the share of a rollout in a leaf's value
(``ROLLOUT_WEIGHTS``), who plays the rollouts (``ROLLOUT_POLICY``) and how many are played from each leaf
(``LEAF_ROLLOUTS``), the prior's temperature (``PRIOR_TEMPERATURES``), the heuristic's share of the root prior
(``ADVICE_WEIGHTS``), whether values are backed up as they are or relative to the best other seat
(``VALUE_MODE``) and whether the root looks one ply ahead through truncated network rollouts instead of growing a
tree (``LOOKAHEAD``).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from wildwest_envs.registry import canonical_name, get_game

from .base import RandomAgent

# game -> (module, class) of its hand-written heuristic; the class is built as cls(seed)
HEURISTICS: dict[str, tuple[str, str]] = {
    "colt_express_v0": ("wildwest_envs.agents.heuristic_colt_express", "ColtExpressHeuristic"),
    "wild_west_express_v0": ("wildwest_envs.agents.heuristic_wild_west_express", "WildWestExpressHeuristic"),
    "way_out_west_v0": ("wildwest_envs.agents.heuristic_way_out_west", "WayOutWestHeuristic"),
    "rail_v0": ("wildwest_envs.agents.heuristic_rail", "RailHeuristic"),
}
MCTS_SIMULATIONS = 200  # default simulations per decision of "mcts"
FLAT_MC_PLAYOUTS = 48  # default playouts per legal action of "mc"
POLICY_PREFIX = "policy:"  # PolicyAgent names are "policy:<path>"; the prefix is accepted back
RLLIB_PREFIX = "rllib:"  # an RLlib checkpoint (training.rllib_train); RLlibPolicyAgent names are "rllib:<path>"
PRETRAINED = "pretrained"  # the shipped network; "pretrained:<path>" a network file
GUIDED_PREFIX = "mcts+pretrained"  # policy-guided search with the shipped network
SPECS = ("random", "heuristic", "mcts", "mcts:<simulations>", "mc", "mc:<playouts>", "pretrained",
         "pretrained:<file.npz>", "mcts+pretrained", "mcts+pretrained:<simulations>", "human",
         "<checkpoint .zip or run directory>", "policy:<checkpoint>", "rllib:<checkpoint or run directory>")


def make_agent(spec: str, game_name: str, seed: int = 0, deterministic: bool = True, num_players: int | None = None):
    """The agent named by ``spec`` for the registered game ``game_name``.

    Args:
        spec: one of ``SPECS`` (see the module docstring).
        game_name: a registered game (``"colt_express"`` or ``"colt_express_v0"``).
        seed: seeds the agent's own generator.
        deterministic: for checkpoints, play greedily (else sample from the policy).
        num_players: the player count the agent will play at; a checkpoint or network trained for
            another count is refused (``pretrained`` loads the network of this count, default 3).

    Raises:
        ValueError: unknown spec, a game without a heuristic, a bad simulation count, or
            a checkpoint trained on another game or player count.
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
    if spec == "mc" or spec.startswith("mc:"):
        return _flat_mc(spec, game_name, seed)
    if spec == PRETRAINED or spec.startswith(PRETRAINED + ":"):
        return _pretrained(spec, game_name, seed, deterministic, num_players)
    if spec == GUIDED_PREFIX or spec.startswith(GUIDED_PREFIX + ":"):
        return _guided(spec, game_name, seed, num_players)
    if spec == "human":
        from .human import HumanAgent
        return HumanAgent(get_game(game_name))
    if spec.startswith(RLLIB_PREFIX):
        return _rllib(spec[len(RLLIB_PREFIX):], game_name, seed, deterministic, num_players)
    path = spec[len(POLICY_PREFIX):] if spec.startswith(POLICY_PREFIX) else spec
    if Path(path).is_file() or (Path(path) / "model.zip").is_file():
        return _policy(path, game_name, seed, deterministic, num_players)
    raise ValueError(f"unknown agent spec {spec!r} (and no checkpoint at that path); valid specs: {', '.join(SPECS)}")


def make_agents(specs, game_name: str, num_players: int, seed: int = 0, deterministic: bool = True) -> list:
    """The agents of ``specs`` for one match, agent ``i`` made by ``make_agent(specs[i], seed=seed + i)``.

    Raises:
        ValueError: an unknown or malformed spec, a foreign checkpoint or a wrong player count.
    """
    return [make_agent(spec, game_name, seed=seed + i, deterministic=deterministic, num_players=num_players)
            for i, spec in enumerate(specs)]


def agents_for_command(specs: list[str], game_name: str, num_players: int, seed: int = 0,
                       deterministic: bool = True, prog: str = "wildwest_envs") -> list:
    """The agents of a command line's specs (agent ``i`` seeded ``seed + i``); a bad spec ends the program.

    A command-line tool calls this instead of ``make_agent`` so that an unknown spec, a missing or
    foreign checkpoint, or a wrong player count is one line on stderr and exit status 2 (as argparse
    reports a bad flag), not a traceback.
    """
    import sys
    try:
        return make_agents(specs, game_name, num_players, seed, deterministic)
    except (ValueError, ImportError, OSError) as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def _heuristic(game_name: str, seed: int):
    if game_name not in HEURISTICS:
        raise ValueError(f"no heuristic agent for {game_name}; games with one: {sorted(HEURISTICS)}")
    module_name, class_name = HEURISTICS[game_name]
    return _import(module_name, class_name, f"the {game_name} heuristic")(seed)


def _simulations(spec: str, stem: str, default: int = MCTS_SIMULATIONS, what: str = "simulations") -> int:
    """The count ``N`` of ``<stem>:<N>``, or ``default`` for ``<stem>`` alone (simulations, or ``what`` it counts)."""
    text = spec.partition(":")[2] or str(default)
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"bad spec {spec!r}: use '{stem}' or '{stem}:<{what}>' with a positive integer")
    return int(text)


def _mcts(spec: str, game_name: str, seed: int):
    simulations = _simulations(spec, "mcts")
    agent_class = _import("wildwest_envs.agents.mcts", "ISMCTSAgent", "the MCTS agent")
    agent = agent_class(get_game(game_name), simulations=simulations, seed=seed)
    agent.name = spec  # "mcts:10" and "mcts:30" keep their own rows in a tournament
    return agent


def _flat_mc(spec: str, game_name: str, seed: int):
    playouts = _simulations(spec, "mc", FLAT_MC_PLAYOUTS, "playouts")
    agent_class = _import("wildwest_envs.agents.flat_mc", "FlatMonteCarloAgent", "the flat Monte Carlo agent")
    agent = agent_class(get_game(game_name), playouts=playouts, seed=seed)
    agent.name = spec
    return agent


def _pretrained(spec: str, game_name: str, seed: int, deterministic: bool, num_players: int | None):
    from . import pretrained
    path = spec.partition(":")[2]
    if not path:
        return pretrained.load_shipped(game_name, num_players or pretrained.DEFAULT_PLAYERS, deterministic, seed)
    return pretrained.load_pretrained(path, game_name, num_players, deterministic, seed)


def _guided(spec: str, game_name: str, seed: int, num_players: int | None):
    from .guided_search import GuidedSearchAgent, spec_settings
    simulations = _simulations(spec, GUIDED_PREFIX)
    network = _pretrained(PRETRAINED, game_name, seed, True, num_players)
    settings = spec_settings(game_name)
    return GuidedSearchAgent(get_game(game_name), network, simulations=simulations, seed=seed,
                             name=spec if ":" in spec else GUIDED_PREFIX, **settings,
                             advisor=_heuristic(game_name, seed + 1) if settings["advice_weight"] > 0.0 else None)


def _import(module_name: str, class_name: str, what: str):
    """A class imported on first use, with a clear error when its module is missing."""
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:  # the module exists but one of its imports is missing
            raise
        raise ImportError(f"{what} ({module_name}.{class_name}) is not available in this installation") from missing


def _check_players(path: str, config: dict, num_players: int | None) -> None:
    """A checkpoint whose config names another player count than ``num_players`` is refused."""
    trained_for = config.get("num_players", config.get("players"))
    if num_players is not None and trained_for is not None and int(trained_for) != int(num_players):
        raise ValueError(f"checkpoint {path} was trained for {trained_for} players, not {num_players}")


def _rllib(path: str, game_name: str, seed: int, deterministic: bool, num_players: int | None):
    agent = _import("wildwest_envs.agents.rllib_policy", "RLlibPolicyAgent", "the RLlib policy agent").load(
        path, deterministic=deterministic, seed=seed)
    trained_on = agent.config.get("game")
    if trained_on is not None and canonical_name(trained_on) != game_name:
        raise ValueError(f"checkpoint {path} was trained on {trained_on}, not {game_name}")
    _check_players(path, agent.config, num_players)
    space = getattr(agent.module, "observation_space", None)
    obs_size = space["observations"].shape[0] if hasattr(space, "spaces") else None
    if obs_size is not None and obs_size != get_game(game_name).obs_size:
        raise ValueError(f"checkpoint {path} expects observations of size {obs_size}, "
                         f"but {game_name} gives {get_game(game_name).obs_size}")
    return agent


def _policy(path: str, game_name: str, seed: int, deterministic: bool, num_players: int | None):
    from .policy import PolicyAgent
    agent = PolicyAgent.load(path, deterministic=deterministic, seed=seed)
    trained_on = agent.config.get("game")
    if trained_on is not None and canonical_name(trained_on) != game_name:
        raise ValueError(f"checkpoint {path} was trained on {trained_on}, not {game_name}")
    _check_players(path, agent.config, num_players)
    obs_size = agent.policy.observation_space.shape[0]
    if obs_size != get_game(game_name).obs_size:
        raise ValueError(f"checkpoint {path} expects observations of size {obs_size}, "
                         f"but {game_name} gives {get_game(game_name).obs_size}")
    return agent
