"""Any registered game as a Ray RLlib multi-agent environment (turn-based), single or batched.

RLlib's ``MultiAgentEnv`` API (new API stack) fits turn-based games like this:

* the agents are ``"player_0" .. "player_<N-1>"`` (seat ``i`` is ``player_i``, as in
  the PettingZoo env); each agent's observation space is
  ``Dict(observations=Box(float32, (obs_size,)), action_mask=Box(0, 1, (n_actions,), float32))``:
  the key names RLlib's action-masking RLModule reads (``training.rllib_module``);
* ``reset`` and every ``step`` that does not end the game return an observation for the
  **acting seat only**, so RLlib asks for exactly one action per step;
* rewards come at the end of the game (``Game.returns`` in the env's ``reward_mode``).
  The step that ends the game returns an observation, a reward, ``terminated`` (or
  ``truncated`` at a turn cap) for **every** seat: a seat that did not make the last move
  gets its final reward there, and RLlib adds it to that seat's last action (its
  "hanging" action) — ``tests/test_rllib_env.py`` checks this through RLlib's own
  episodes. Non-final steps give reward 0 to the seat that just moved;
* at the end each seat's info holds its ``score`` and whether it ``won`` (shared wins count).

Two ways to run it, same games for the same seed:

* ``TurnBasedGameEnv(env_config)``: one game, the plain ``MultiAgentEnv`` that any RLlib
  setup accepts (RLlib vectorises it with its own Python loop over copies);
* ``BatchedTurnBasedVectorEnv``: ``num_envs`` games in one record array, stepped by
  one call of the batched engine per RLlib step. ``BatchedMultiAgentEnvRunner`` is the
  RLlib ``MultiAgentEnvRunner`` that builds it in place of RLlib's loop, so that
  ``config.env_runners(env_runner_cls=BatchedMultiAgentEnvRunner,
  num_envs_per_env_runner=64)`` steps 64 games per call on each env runner. It keeps
  RLlib's ``"next_step"`` autoreset: the step after a game ends returns the fresh
  game's first observation for that slot (and ignores that slot's empty action).

``env_config`` (an RLlib ``EnvContext`` or a dict): ``game`` (registered name),
``reward_mode`` (``"win"``, ``"rank"`` or ``"score"``), ``seed`` (optional run seed) and
any option of the game's ``env()`` (``num_players`` ...). Game ``k`` of run ``s`` is
dealt from ``core.rng.game_seed(s, k)``; RLlib's ``reset(seed=s)`` restarts the run.
Actions are checked: an illegal action raises ``ValueError`` (nothing is substituted).

This module imports ray; the library ``wildwest_envs`` never does.
"""

from __future__ import annotations

import time

import gymnasium as gym
import numba
import numpy as np
import torch
from ray.rllib.callbacks.utils import make_callback
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from wildwest_envs.core import batch
from wildwest_envs.core.aec import agent_name
from wildwest_envs.core.game import REWARD_MODES, Game
from wildwest_envs.core.runner import Dealer
from wildwest_envs.registry import canonical_name, get_game

OBS_KEY = "observations"  # the observation vector, as RLlib's action-masking RLModule expects
MASK_KEY = "action_mask"  # 1.0 for each legal action (RLlib's AlgorithmConfig.action_mask_key default)
CONFIG_KEYS = ("game", "reward_mode", "seed")  # env_config keys that are not game options


def parse_env_config(env_config: dict | None) -> tuple[Game, str, int | None, dict]:
    """``(game, reward_mode, seed, options)`` of an ``env_config`` (see the module docstring).

    Raises:
        ValueError: no or an unknown game, an unknown reward mode or a bad game option.
    """
    config = dict(env_config or {})
    if "game" not in config:
        raise ValueError("env_config needs a 'game' (a registered game name)")
    game = get_game(canonical_name(config["game"]))
    reward_mode = config.get("reward_mode", "win")
    if reward_mode not in REWARD_MODES:
        raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
    seed = config.get("seed")
    options = game.parse_options(**{k: v for k, v in config.items() if k not in CONFIG_KEYS})
    return game, reward_mode, None if seed is None else int(seed), options


def observation_space(game: Game) -> gym.spaces.Dict:
    """One agent's ``Dict(observations, action_mask)`` space."""
    return gym.spaces.Dict({
        OBS_KEY: gym.spaces.Box(-np.inf, np.inf, (game.obs_size,), np.float32),
        MASK_KEY: gym.spaces.Box(0.0, 1.0, (game.n_actions,), np.float32),
    })


class TurnBasedGames:
    """``B`` games of one ``Game`` and the RLlib dicts of each: the shared core of both envs.

    It holds the records and the run's games (``dealer``, ``core.runner.Dealer``); it never resets a game by itself.
    """

    def __init__(self, game: Game, num_envs: int, reward_mode: str, seed: int | None, options: dict):
        self.game, self.num_envs, self.reward_mode, self.options = game, num_envs, reward_mode, options
        self.num_players = int(options["num_players"])
        self.agents = [agent_name(s) for s in range(self.num_players)]
        self.states = np.zeros(num_envs, dtype=game.state_dtype)
        self.dealer = Dealer(game, self._fresh_seed() if seed is None else seed, options)
        self.env_seconds = 0.0  # wall time inside the engine and the building of RLlib's dicts
        self._all_seats = np.arange(self.num_players, dtype=np.int64)

    def restart(self, seed: int | None) -> None:
        """Start the run again from game 0 (of run ``seed`` if given)."""
        self.dealer.restart(seed)

    def deal(self, rows: np.ndarray) -> list[dict]:
        """Fresh games in ``rows``; the observation dict (acting seat only) of each."""
        start = time.perf_counter()
        self.dealer.deal_into(self.states, rows)
        observations = self._acting_observations(rows)
        self.env_seconds += time.perf_counter() - start
        return observations

    def step(self, rows: np.ndarray, actions: np.ndarray) -> list[tuple[dict, dict, dict, dict, dict]]:
        """Apply one action per game of ``rows`` (checked); ``(obs, rewards, terminateds, truncateds, infos)`` each.

        Raises:
            ValueError: an action is illegal or out of range (no game is changed).
        """
        start = time.perf_counter()
        movers = self.states["current"][rows].astype(np.int64)
        if len(rows) == self.num_envs:
            self.game.step(self.states, actions)
        else:
            sub = batch.take(self.states, rows)
            self.game.step(sub, actions)
            batch.put(self.states, rows, sub)
        finished = self.game.finished(self.states)[rows]  # three fields: no need to gather the records
        results: list = [None] * len(rows)
        live = np.flatnonzero(~finished)
        for j, obs in zip(live, self._acting_observations(rows[live])):
            results[j] = (obs, {self.agents[movers[j]]: 0.0}, {"__all__": False}, {"__all__": False}, {})
        ended = np.flatnonzero(finished)
        if len(ended):
            for j, result in zip(ended, self._final_results(rows[ended])):
                results[j] = result
        self.env_seconds += time.perf_counter() - start
        return results

    def seat_to_act(self, row: int) -> str:
        """The agent that must act in game ``row``."""
        return self.agents[int(self.states["current"][row])]

    # ---- private -----------------------------------------------------------------------
    def _acting_observations(self, rows: np.ndarray) -> list[dict]:
        states = batch.take(self.states, rows)
        seats = self.game.current_player(states)
        obs = self.game.observe(states, seats)
        masks = self.game.legal_mask(states).astype(np.float32)
        return [{self.agents[seats[j]]: {OBS_KEY: obs[j], MASK_KEY: masks[j]}} for j in range(len(rows))]

    def _final_results(self, rows: np.ndarray) -> list[tuple[dict, dict, dict, dict, dict]]:
        """Every seat's last observation, final reward, done flags and result info."""
        n = self.num_players
        states = batch.take(self.states, rows)
        obs = self.game.observe(np.repeat(states, n), np.tile(self._all_seats, len(rows))).reshape(len(rows), n, -1)
        no_actions = np.zeros(self.game.n_actions, dtype=np.float32)
        returns = self.game.returns(states, self.reward_mode)
        scores = self.game.scores(states)
        winners = self.game.winners(states)
        truncated = self.game.truncated(states)
        results = []
        for j in range(len(rows)):
            term, trunc = not truncated[j], bool(truncated[j])
            observations = {a: {OBS_KEY: obs[j, s], MASK_KEY: no_actions} for s, a in enumerate(self.agents)}
            rewards = {a: float(returns[j, s]) for s, a in enumerate(self.agents)}
            terminateds = {**dict.fromkeys(self.agents, term), "__all__": term}
            truncateds = {**dict.fromkeys(self.agents, trunc), "__all__": trunc}
            infos = {a: {"score": int(scores[j, s]), "won": bool(winners[j, s])} for s, a in enumerate(self.agents)}
            results.append((observations, rewards, terminateds, truncateds, infos))
        return results

    @staticmethod
    def _fresh_seed() -> int:
        return int(np.random.SeedSequence().entropy % 2**63)


class TurnBasedGameEnv(MultiAgentEnv):
    """One game of a registered ``Game`` as an RLlib ``MultiAgentEnv`` (see the module docstring)."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        game, reward_mode, seed, options = parse_env_config(config)
        self.game, self.reward_mode = game, reward_mode
        self.games = TurnBasedGames(game, 1, reward_mode, seed, options)
        self.agents = self.possible_agents = list(self.games.agents)
        space = observation_space(game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gym.spaces.Discrete(game.n_actions))
        self._row = np.zeros(1, dtype=np.int64)
        self._over = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal the next game of the run (game 0 of run ``seed`` when a seed is given)."""
        if seed is not None:
            self.games.restart(seed)
        self._over = False
        return self.games.deal(self._row)[0], {}

    def step(self, action_dict: dict) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the acting seat's action (the only key ``action_dict`` may hold).

        Raises:
            RuntimeError: the game is over (call ``reset``).
            ValueError: no action for the acting seat, an action for another seat, or an illegal action.
        """
        if self._over:
            raise RuntimeError("the game is over: call reset() first")
        agent = self.games.seat_to_act(0)
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent} only (it is the seat to act), got {sorted(action_dict)}")
        result = self.games.step(self._row, np.array([action_dict[agent]]))[0]
        self._over = result[2]["__all__"] or result[3]["__all__"]
        return result

    def render(self) -> str:
        """The text board of the game."""
        return self.game.render_ansi(self.games.states[0])


class BatchedTurnBasedVectorEnv(VectorMultiAgentEnv):
    """``num_envs`` games stepped by one batched engine call, with RLlib's ``"next_step"`` autoreset.

    ``envs`` holds one ``TurnBasedGameEnv`` per slot *as RLlib's runner reads it* (spaces
    and agent names only); the games themselves live in ``self.games``.
    """

    def __init__(self, env_config: dict | None, num_envs: int):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        super().__init__()
        game, reward_mode, seed, options = parse_env_config(env_config)
        self.games = TurnBasedGames(game, num_envs, reward_mode, seed, options)
        self.num_envs = num_envs
        template = TurnBasedGameEnv(env_config)
        self.envs = [template] * num_envs  # what MultiAgentEnvRunner reads: spaces and possible_agents
        self.metadata = {"autoreset_mode": "next_step"}
        self.single_observation_spaces = dict(template.observation_spaces)
        self.single_action_spaces = dict(template.action_spaces)
        self.single_observation_space = gym.spaces.Dict(self.single_observation_spaces)
        self.single_action_space = gym.spaces.Dict(self.single_action_spaces)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._all_rows = np.arange(num_envs)
        self._zero_rewards = dict.fromkeys(self.games.agents, 0.0)
        self._not_done = {**dict.fromkeys(self.games.agents, False), "__all__": False}

    @property
    def env_seconds(self) -> float:
        """Wall time spent stepping and dealing games and building RLlib's dicts (the env side)."""
        return self.games.env_seconds

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[list, list]:
        """Deal ``num_envs`` fresh games (run ``seed`` from game 0 when given)."""
        super().reset(seed=seed)
        if seed is not None:
            self.games.restart(seed)
        self._autoreset[:] = False
        return self.games.deal(self._all_rows), [{} for _ in range(self.num_envs)]

    def step(self, actions: list[dict]) -> tuple[list, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action dict per slot; slots whose game ended last step are dealt a new game instead."""
        observations, rewards = [None] * self.num_envs, [None] * self.num_envs
        terminateds, truncateds = [None] * self.num_envs, [None] * self.num_envs
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        fresh = np.flatnonzero(self._autoreset)
        if len(fresh):
            for b, obs in zip(fresh, self.games.deal(fresh)):
                observations[b], rewards[b] = obs, dict(self._zero_rewards)
                terminateds[b], truncateds[b] = dict(self._not_done), dict(self._not_done)
        playing = np.flatnonzero(~self._autoreset)
        if len(playing):
            chosen = np.array([self._action_of(actions[b], b) for b in playing], dtype=np.int64)
            for b, (obs, rew, term, trunc, info) in zip(playing, self.games.step(playing, chosen)):
                observations[b], rewards[b], terminateds[b], truncateds[b], infos[b] = obs, rew, term, trunc, info
        self._autoreset = np.array([t["__all__"] or u["__all__"] for t, u in zip(terminateds, truncateds)])
        return observations, _object_array(rewards), _object_array(terminateds), _object_array(truncateds), \
            _object_array(infos)

    def render(self) -> tuple[str, ...]:
        """The text board of every game."""
        return tuple(self.games.game.render_ansi(state) for state in self.games.states)

    def _action_of(self, action_dict: dict, b: int) -> int:
        agent = self.games.seat_to_act(b)
        if agent not in action_dict:
            raise ValueError(f"game {b}: no action for {agent} (the seat to act); got {sorted(action_dict)}")
        return int(action_dict[agent])


def _object_array(items: list) -> np.ndarray:
    """A 1-D object array of dicts (what RLlib's sync vector env returns)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


class BatchedMultiAgentEnvRunner(MultiAgentEnvRunner):
    """RLlib's ``MultiAgentEnvRunner`` stepping ``num_envs_per_env_runner`` games with one engine call.

    Use with ``config.environment(TurnBasedGameEnv, env_config=...)`` and
    ``config.env_runners(env_runner_cls=BatchedMultiAgentEnvRunner)``; everything but
    building the env (episodes, connectors, module, metrics) is RLlib's.
    """

    sample_seconds = 0.0  # wall time inside sample(): the runner's time, of which env.env_seconds is the env side
    sampled_steps = 0  # env steps this runner has returned from sample()

    def sample(self, *args, **kwargs):
        """RLlib's sampling, timed (``sample_seconds``) and counted (``sampled_steps``)."""
        start = time.perf_counter()
        try:
            episodes = super().sample(*args, **kwargs)
        finally:
            self.sample_seconds += time.perf_counter() - start
        self.sampled_steps += sum(len(e) for e in episodes)
        return episodes

    def make_env(self) -> None:
        """Build a ``BatchedTurnBasedVectorEnv`` from ``config.env_config`` (seeded per runner by RLlib).

        The engine's parallel kernels (and, in a remote runner, torch) get as many threads
        as the runner has CPUs (``num_cpus_per_env_runner``, at least 1): several runners
        on one node would otherwise each start a thread per core and slow each other down.
        """
        cpus = max(1, int(self.config.num_cpus_per_env_runner))
        numba.set_num_threads(min(numba.config.NUMBA_NUM_THREADS, cpus))
        if self.worker_index:  # a remote runner: its module's small forward passes get the runner's CPUs too
            torch.set_num_threads(cpus)
        if self.env is not None:
            self.env.close()
        self.env = BatchedTurnBasedVectorEnv(dict(self.config.env_config), self.config.num_envs_per_env_runner)
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
        make_callback("on_environment_created", callbacks_objects=self._callbacks,
                      callbacks_functions=self.config.callbacks_on_environment_created,
                      kwargs=dict(env_runner=self, metrics_logger=self.metrics, env=self.env,
                                  env_context=self.config.env_config))
