"""A stable-baselines3 ``VecEnv`` over the batched engine: one learner seat per game.

``SelfPlayVecEnv`` is a thin adapter over the library's self-play core,
``wildwest_envs.core.selfplay.SelfPlayBatch``, which steps ``num_envs`` games of a
registered ``Game``. In each game the learner sits in a random seat; the other
seats are played *inside* the env by agents drawn from an ``OpponentPool``, so the
learner only ever sees its own decisions:

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

This adapter only translates: SB3's ``seed()`` / ``reset()`` / ``step_async`` /
``step_wait`` calls into the core's, and the core's per-game results into SB3's
info dicts (``terminal_observation``, ``episode``, ``TimeLimit.truncated``). Games,
seats, opponent draws and results are the core's, identical to those of the
private loop this module used to hold, so the recipes of the shipped networks
replay unchanged. The core's attributes (``states``, ``learner_seat``,
``env_seconds``, ``opponent_seconds``, ``opponent_decisions``, ...) read through.
"""

from __future__ import annotations

import time

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from wildwest_envs.core.selfplay import SelfPlayBatch

from .opponents import OpponentPool


class SelfPlayVecEnv(VecEnv):
    """``num_envs`` games; the learner in a random seat, opponents acting inside."""

    def __init__(self, game, num_envs: int, opponents: OpponentPool, seed: int = 0, reward_mode: str = "win",
                 **options):
        self.batch = SelfPlayBatch(game, num_envs, opponents, seed=seed, reward_mode=reward_mode, **options)
        self.render_mode = None  # read by VecEnv.__init__ through get_attr
        observation_space = spaces.Box(-np.inf, np.inf, (self.batch.game.obs_size,), np.float32)
        super().__init__(num_envs, observation_space, spaces.Discrete(self.batch.game.n_actions))
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._start_time = time.perf_counter()

    def __getattr__(self, name: str):
        """The batch core's attributes (``states``, ``learner_seat``, ``env_seconds``, ...), read through."""
        batch = self.__dict__.get("batch")
        if batch is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(batch, name)

    # ---- VecEnv API ---------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Deal ``num_envs`` fresh games and play until every learner must decide."""
        seed = self._seeds[0]  # set by VecEnv.seed(s): restart the run from s
        self._reset_seeds()
        return self.batch.reset(None if seed is None else int(seed))

    def step_async(self, actions: np.ndarray) -> None:
        """Store the learner's actions."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        """Apply the learner's actions, let the opponents play, report rewards and ends."""
        result = self.batch.step(self._actions)
        infos = [{} if final is None else self._sb3_info(final) for final in result.finals]
        return result.observations, result.rewards, result.terminated | result.truncated, infos

    def action_masks(self) -> np.ndarray:
        """``(B, n_actions)`` bool: the learner's legal actions in each game."""
        return self.batch.action_masks()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices=None) -> list:
        """The attribute, once per selected env."""
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set an attribute of the whole batch (on the core when it is one of the core's)."""
        setattr(self.batch if hasattr(self.batch, attr_name) else self, attr_name, value)

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
    def _sb3_info(self, final: dict) -> dict:
        """The core's record of a finished game as SB3's info (``terminal_observation``, Monitor's ``episode``)."""
        info = {"terminal_observation": final["final_observation"], "scores": final["scores"],
                "learner_seat": final["learner_seat"], "won": final["won"], "truncated": final["truncated"]}
        info["episode"] = {"r": final["reward"], "l": final["episode_length"],
                           "t": round(time.perf_counter() - self._start_time, 6)}  # SB3 logs ep_rew_mean
        if info["truncated"]:
            info["TimeLimit.truncated"] = True
        return info
