"""A stable-baselines3 ``VecEnv`` over the batched engine: one learner seat per game.

``SelfPlayVecEnv`` steps ``num_envs`` games of a registered ``Game``. In each game
the learner sits in a random seat; the other seats are played *inside* the env by
agents drawn from an ``OpponentPool``, so the learner only ever sees its own
decisions:

* ``reset()`` / ``step_wait()`` return the learner's observations ``(B, obs_size)``;
* ``action_masks()`` (and ``env_method("action_masks")``, as MaskablePPO asks) give
  the learner's legal actions ``(B, n_actions)``; a row is never all zero, because
  every returned game stands at a learner decision;
* the reward is 0 until the game ends, then the learner's final reward in the
  env's ``reward_mode`` — also when an *opponent's* move ended the game: the
  learner's last step then carries the result and ``done``;
* a finished game is replaced at once by a fresh one (next seed of the run, new
  learner seat, new opponents); ``infos[i]["terminal_observation"]`` holds the
  learner's observation of the finished game, as SB3 expects, with its final
  ``scores`` and whether the learner ``won``.
"""

from __future__ import annotations

import time

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from wildwest_envs.core.game import REWARD_MODES
from wildwest_envs.core.rng import game_seeds

from .opponents import OpponentPool


class SelfPlayVecEnv(VecEnv):
    """``num_envs`` games; the learner in a random seat, opponents acting inside."""

    def __init__(self, game, num_envs: int, opponents: OpponentPool, seed: int = 0, reward_mode: str = "win",
                 **options):
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        self.game = game
        self.options = game.parse_options(**options)
        self.num_players = self.options["num_players"]
        self.opponents = opponents
        self.reward_mode = reward_mode
        self.run_seed = seed
        self.rng = np.random.default_rng(seed)
        self.render_mode = None  # read by VecEnv.__init__ through get_attr
        observation_space = spaces.Box(-np.inf, np.inf, (game.obs_size,), np.float32)
        super().__init__(num_envs, observation_space, spaces.Discrete(game.n_actions))
        self.states = np.zeros(num_envs, dtype=game.state_dtype)
        self.learner_seat = np.zeros(num_envs, dtype=np.int64)
        self.opponent_of = np.zeros((num_envs, game.max_players), dtype=np.int64)
        self._next_game = 0
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._masks = np.zeros((num_envs, game.n_actions), dtype=np.int8)
        self.opponent_decisions = 0
        self.env_seconds = 0.0  # wall time spent inside reset/step_wait (engine + opponents)
        self.opponent_seconds = 0.0  # of which: the opponents choosing their actions
        self._episode_steps = np.zeros(num_envs, dtype=np.int64)  # learner decisions in the current game
        self._start_time = time.perf_counter()

    # ---- VecEnv API ---------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Deal ``num_envs`` fresh games and play until every learner must decide."""
        start = time.perf_counter()
        if self._seeds[0] is not None:  # VecEnv.seed(s) was called
            self.run_seed, self.rng = int(self._seeds[0]), np.random.default_rng(self._seeds[0])
            self._next_game = 0
        self._reset_seeds()
        self._deal(np.arange(self.num_envs))
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._play_opponents(rewards, np.zeros(self.num_envs, bool), [{} for _ in range(self.num_envs)])
        observations = self._learner_observations()
        self.env_seconds += time.perf_counter() - start
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Store the learner's actions."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        """Apply the learner's actions, let the opponents play, report rewards and ends."""
        start = time.perf_counter()
        rows = np.arange(self.num_envs)
        if not self._masks[rows, self._actions].all():
            bad = int(np.flatnonzero(self._masks[rows, self._actions] == 0)[0])
            raise ValueError(f"learner action {self._actions[bad]} is illegal in game {bad}")
        self.game.step(self.states, self._actions, check=False)
        self._episode_steps += 1
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos = [{} for _ in range(self.num_envs)]
        self._play_opponents(rewards, dones, infos)
        observations = self._learner_observations()
        self.env_seconds += time.perf_counter() - start
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """``(B, n_actions)`` bool: the learner's legal actions in each game."""
        return self._masks.astype(bool)

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices=None) -> list:
        """The attribute, once per selected env."""
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set an attribute of the whole batch."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks`` row by row (what MaskablePPO calls); other methods once per env."""
        selected = list(self._get_indices(indices))
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        if method_name == "action_masks":
            return [result[i] for i in selected]
        return [result] * len(selected)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers inside."""
        return [False] * len(list(self._get_indices(indices)))

    # ---- private ------------------------------------------------------------------------
    def _deal(self, rows: np.ndarray) -> None:
        seeds = game_seeds(self.run_seed, len(rows), self._next_game)
        self._next_game += len(rows)
        self.states[rows] = self.game.init(seeds, **self.options)
        self.learner_seat[rows] = self.rng.integers(self.num_players, size=len(rows))
        self.opponent_of[rows] = self.opponents.sample(self.rng, (len(rows), self.game.max_players))
        self._episode_steps[rows] = 0

    def _play_opponents(self, rewards: np.ndarray, dones: np.ndarray, infos: list) -> None:
        """Let the opponents move until every game waits for its learner; settle finished games."""
        while True:
            ended = np.flatnonzero(self.game.finished(self.states))
            if len(ended):
                self._settle(ended, rewards, dones, infos)
            waiting = np.flatnonzero(self.states["current"] != self.learner_seat)
            if not len(waiting):
                return
            # one observe / mask / step call for all waiting games; each agent decides its own rows
            seats = self.states["current"][waiting].astype(np.int64)
            owners = self.opponent_of[waiting, seats]
            waiting_states = self.states[waiting]
            obs = self.game.observe(waiting_states, seats)
            masks = self.game.legal_mask(waiting_states)
            actions = np.zeros(len(waiting), dtype=np.int64)
            start = time.perf_counter()
            for k in np.unique(owners):
                rows = np.flatnonzero(owners == k)
                actions[rows] = self.opponents.agents[k].act_batch(obs[rows], masks[rows], waiting_states[rows],
                                                                   seats[rows])
            self.opponent_seconds += time.perf_counter() - start
            self.game.step(waiting_states, actions, check=False)
            self.states[waiting] = waiting_states
            self.opponent_decisions += len(waiting)

    def _settle(self, rows: np.ndarray, rewards: np.ndarray, dones: np.ndarray, infos: list) -> None:
        finished = self.states[rows]
        seats = self.learner_seat[rows]
        returns = self.game.returns(finished, self.reward_mode)[np.arange(len(rows)), seats]
        scores = self.game.scores(finished)
        final_obs = self.game.observe(finished, seats)
        won = self.game.winners(finished)[np.arange(len(rows)), seats]
        for j, b in enumerate(rows):
            rewards[b] = returns[j]
            dones[b] = True
            infos[b] = {"terminal_observation": final_obs[j], "scores": scores[j, :self.num_players].tolist(),
                        "learner_seat": int(seats[j]), "won": bool(won[j]),
                        "truncated": bool(self.game.truncated(finished[j:j + 1])[0])}
            infos[b]["episode"] = {"r": float(returns[j]), "l": int(self._episode_steps[b]),
                                   "t": round(time.perf_counter() - self._start_time, 6)}  # SB3 logs ep_rew_mean
            if infos[b]["truncated"]:
                infos[b]["TimeLimit.truncated"] = True
        self._deal(rows)

    def _learner_observations(self) -> np.ndarray:
        self.game.legal_mask(self.states, self._masks)
        return self.game.observe(self.states, self.learner_seat)
