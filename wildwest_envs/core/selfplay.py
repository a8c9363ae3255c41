"""One seat's view of any game: self-play against opponents that act inside the env (numpy and gymnasium only).

Three classes share one loop (STYLE.md §16, "one loop for batches"):

* ``SelfPlayBatch``: the batch core. ``num_envs`` games of a ``Game``; in each the
  learner sits in one seat (``seat=``, or drawn per game), and the other seats are
  played *inside*, by opponents, until every game waits for its learner. A
  finished game is settled (the learner's reward, scores, whether it won) and, with
  ``autoreset`` (the default), replaced at once by the next game of the run.
* ``SingleAgentEnv``: a ``gymnasium.Env`` of one game over that core, so that
  ``MaskablePPO("MlpPolicy", SingleAgentEnv("colt_express", opponents))`` trains
  with no glue (MaskablePPO reads ``action_masks()``).
* ``SelfPlayVectorEnv``: a ``gymnasium.vector.VectorEnv`` over the same core, for
  trainers that take one. The stable-baselines3 ``VecEnv`` of
  ``wildwest_envs.training.selfplay_env`` is a thin adapter over the core too.

Opponents (``opponents=``), in one of three forms:

* an ``OpponentPool`` (or any object with ``agents`` and ``sample(rng, shape)``):
  one agent drawn per game and per seat with the pool's weights; the agents are
  looked up at each decision, so snapshots added during training play at once;
* a sequence of exactly ``num_players - 1`` opponents: ``opponents[i]`` sits
  ``i + 1`` seats after the learner in turn order (the order of the observation),
  in every game;
* a single opponent, who plays every other seat.

An opponent is an agent with ``act_batch(observations, masks, states, seats)``
(``wildwest_envs.agents``), an object with ``act(observation, action_mask)``, or a
plain callable ``f(observation, action_mask) -> int``. Opponents' actions are
checked against the mask: an illegal one raises ``ValueError`` naming the opponent
instead of corrupting the game.

Rewards: 0 until the game ends, then the learner's final reward in ``reward_mode``
(``Game.returns``), also when an *opponent's* move ended the game: the learner's
last step then carries the result. Like the AEC env (``core.aec``), a game ended by
its rules is *terminated*, one cut by a cap is *truncated* (its reward is 0 at the
decision cap; a game's own cap keeps its scores).

Seeding, as in ``core.aec``: game ``k`` of a run seeded with ``s`` is dealt from
``core.rng.game_seed(s, k)``, and the learner's seats and the opponents' draws come
from ``numpy.random.default_rng(s)``. ``reset(seed=s)`` restarts run ``s``; a later
``reset()`` (or an automatic reset) plays the next games of the same run. The
constructor's ``seed`` is the run used until a reset gives one; ``None`` draws it
from the operating system. The opponents' own generators are theirs, and a reset
does not reseed them: a run replays exactly with deterministic opponents (plain
functions, say) or with opponents built afresh from the same seeds.

Decisions where nothing else decides:

* a game that ends before its learner's first decision (possible only with a tiny
  decision cap) is replaced by the next one at once, even without ``autoreset``:
  ``reset`` must return a decision; a run where this keeps happening raises
  ``RuntimeError`` instead of looping forever;
* ``SelfPlayVectorEnv`` uses gymnasium's ``SAME_STEP`` autoreset mode, because the
  core replaces a finished game in the same step: the observation returned is the
  fresh game's, and ``infos["final_obs"]`` / ``infos["final_info"]`` hold the
  learner's last observation of the finished game and its result.
"""

from __future__ import annotations

import time
from typing import Any, Callable, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import batch
from .game import REWARD_MODES, Game
from .runner import Dealer, play_decisions

GAMES_WITHOUT_LEARNER_LIMIT = 100  # per env: games in a row that end before the learner decides, then RuntimeError


# ---- opponents -------------------------------------------------------------------------------------------
class OpponentPool:
    """Agents that play the non-learner seats, sampled per seat and per game.

    Each entry has a weight; ``add`` appends snapshots of the learner as training
    goes on, keeping at most ``max_snapshots`` of them (the oldest leave first).
    """

    def __init__(self, agents: list, weights: list[float] | None = None, max_snapshots: int = 5):
        if not agents:
            raise ValueError("the opponent pool needs at least one agent")
        self.agents = list(agents)
        self.weights = list(weights) if weights is not None else [1.0] * len(agents)
        self.is_snapshot = [False] * len(agents)
        self.max_snapshots = max_snapshots

    def add(self, agent, weight: float = 1.0, snapshot: bool = True) -> None:
        """Add an agent (by default a learner snapshot, which may later be evicted)."""
        self.agents.append(agent)
        self.weights.append(weight)
        self.is_snapshot.append(snapshot)
        snapshots = [i for i, s in enumerate(self.is_snapshot) if s]
        if len(snapshots) > self.max_snapshots:
            oldest = snapshots[0]
            for items in (self.agents, self.weights, self.is_snapshot):
                del items[oldest]

    def sample(self, rng: np.random.Generator, shape) -> np.ndarray:
        """Indices of agents drawn with the pool's weights."""
        p = np.asarray(self.weights, dtype=float)
        return rng.choice(len(self.agents), size=shape, p=p / p.sum())

    def names(self) -> list[str]:
        """Names of the agents in the pool."""
        return [getattr(a, "name", type(a).__name__) for a in self.agents]


class CallableOpponent:
    """A function ``f(observation, action_mask) -> int`` as an agent with ``act`` and ``act_batch``."""

    def __init__(self, function: Callable[[np.ndarray, np.ndarray], Any], game: Game, name: str | None = None):
        self.function, self.game = function, game
        self.name = name or getattr(function, "__name__", type(function).__name__)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The function's action, checked: an integer in range and legal, else ``ValueError``."""
        action = self.game.check_action_id(self.function(observation, action_mask))
        if not action_mask[action]:
            raise ValueError(f"opponent {self.name!r} chose illegal action {action}; "
                             f"legal: {np.flatnonzero(action_mask).tolist()}")
        return action

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """``act`` row by row."""
        return np.array([self.act(o, m) for o, m in zip(observations, masks)], dtype=np.int64)


def as_opponent(opponent, game: Game):
    """``opponent`` if it has ``act_batch``, else its ``act`` or itself (a callable) as a ``CallableOpponent``."""
    if hasattr(opponent, "act_batch"):
        return opponent
    if hasattr(opponent, "act"):
        return CallableOpponent(opponent.act, game, getattr(opponent, "name", type(opponent).__name__))
    if callable(opponent):
        return CallableOpponent(opponent, game)
    raise TypeError(f"an opponent is an agent with act_batch or act, or a callable f(observation, action_mask) "
                    f"-> int; got {type(opponent).__name__} {opponent!r}")


def _is_pool(opponents) -> bool:
    return hasattr(opponents, "agents") and hasattr(opponents, "sample")


def _is_single_opponent(opponents) -> bool:
    return hasattr(opponents, "act_batch") or hasattr(opponents, "act") or callable(opponents)


class _SeatedOpponents:
    """A fixed list of opponents: ``agents[i]`` sits ``i + 1`` seats after the learner."""

    def __init__(self, agents: list):
        self.agents = agents


# ---- the batch core --------------------------------------------------------------------------------------
class SelfPlayStep(NamedTuple):
    """What one learner step of a ``SelfPlayBatch`` returns (arrays over the ``num_envs`` games)."""

    observations: np.ndarray  # (B, obs_size) float32, the learner's view of the game it now plays
    rewards: np.ndarray  # (B,) float32, the learner's final reward in games that ended, else 0
    terminated: np.ndarray  # (B,) bool, ended by the rules
    truncated: np.ndarray  # (B,) bool, cut by a cap
    finals: list  # per game: None, or a dict describing the finished game (``SelfPlayBatch._settle``)


def _resolve_game(game_or_name) -> Game:
    if isinstance(game_or_name, Game):
        return game_or_name
    from wildwest_envs.registry import get_game  # not at import time: the registry sits above core
    return get_game(game_or_name)


def _check_seed(seed) -> None:
    """``TypeError`` unless ``seed`` is an integer or ``None`` (one seed for the whole run), ``ValueError`` if < 0."""
    if seed is None:
        return
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer or None (one seed for the whole run), got "
                        f"{type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")


class SelfPlayBatch:
    """``num_envs`` games; the learner in one seat of each, the opponents acting inside (module docstring).

    Attributes:
        states: ``(B,)`` game records; every game not over waits for its learner.
        learner_seat: ``(B,)`` the learner's seat in each game.
        opponent_of: ``(B, max_players)`` index into ``opponents.agents`` of the agent playing each seat.
        episode_steps: ``(B,)`` learner decisions in the current game of each row.
        over: ``(B,)`` games finished and not replaced (only without ``autoreset``).
        env_seconds: wall time inside ``reset`` and ``step`` (engine and opponents);
        opponent_seconds: of which the opponents choosing their actions; opponent_decisions: their count.
        dealer: the run's games (``core.runner.Dealer``: its ``seed`` and ``next_game``).
    """

    def __init__(self, game, num_envs: int, opponents, seed: int | None = None, reward_mode: str = "win",
                 seat: int | None = None, autoreset: bool = True, **options):
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        _check_seed(seed)
        self.game = _resolve_game(game)
        self.options = self.game.parse_options(**options)
        self.num_players = self.options["num_players"]
        self.num_envs = int(num_envs)
        self.seat = self._checked_seat(seat)
        self.opponents = self._seated(opponents)
        self.reward_mode = reward_mode
        self.autoreset = autoreset
        self.dealer = Dealer(self.game, np.random.SeedSequence().entropy % 2**63 if seed is None else seed,
                             self.options)
        self.rng = np.random.default_rng(self.dealer.seed)
        self.states = np.zeros(num_envs, dtype=self.game.state_dtype)
        self.learner_seat = np.zeros(num_envs, dtype=np.int64)
        self.opponent_of = np.zeros((num_envs, self.game.max_players), dtype=np.int64)
        self.episode_steps = np.zeros(num_envs, dtype=np.int64)
        self.over = np.zeros(num_envs, dtype=bool)
        self.opponent_decisions = 0
        self.env_seconds = 0.0
        self.opponent_seconds = 0.0
        self._masks = np.zeros((num_envs, self.game.n_actions), dtype=np.int8)
        self._is_reset = False

    def reset(self, seed: int | None = None) -> np.ndarray:
        """Deal ``num_envs`` fresh games (run ``seed`` from its start, else the run's next games) and play until
        every learner must decide; the learner's observations ``(B, obs_size)``."""
        _check_seed(seed)
        start = time.perf_counter()
        if seed is not None:
            self.dealer.restart(seed)
            self.rng = np.random.default_rng(seed)
        self._deal(np.arange(self.num_envs))
        self._play_opponents(self._blank_step(), redeal=True)
        observations = self._learner_observations()
        self._is_reset = True
        self.env_seconds += time.perf_counter() - start
        return observations

    def step(self, actions) -> SelfPlayStep:
        """Apply the learner's actions ``(B,)``, let the opponents play, settle the games that ended.

        Raises:
            ValueError: an action that is not an integer, out of range or illegal (nothing changes).
            RuntimeError: before ``reset``, or a game is over and not replaced (without ``autoreset``).
        """
        start = time.perf_counter()
        actions = self._checked_actions(actions)
        self.game.step(self.states, actions, check=False)
        self.episode_steps += 1
        result = self._blank_step()
        self._play_opponents(result, redeal=self.autoreset)
        result = result._replace(observations=self._learner_observations())
        self.env_seconds += time.perf_counter() - start
        return result

    def action_masks(self) -> np.ndarray:
        """``(B, n_actions)`` bool: the learner's legal actions in each game (all False in a game that is over)."""
        return self._masks.astype(bool)

    # ---- arguments ----------------------------------------------------------------------------------------
    def _checked_seat(self, seat) -> int | None:
        if seat is None:
            return None
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be None (a random seat each game) or an integer in "
                             f"[0, {self.num_players}) for {self.num_players} players, got {seat!r}")
        return int(seat)

    def _seated(self, opponents):
        if _is_pool(opponents):
            return opponents
        others = self.num_players - 1
        if _is_single_opponent(opponents):
            return _SeatedOpponents([as_opponent(opponents, self.game)] * others)
        if isinstance(opponents, (str, bytes)) or not hasattr(opponents, "__len__"):
            raise TypeError(f"opponents must be an OpponentPool, a list of {others} opponents or one opponent; "
                            f"got {type(opponents).__name__}")
        if len(opponents) != others:
            raise ValueError(f"{len(opponents)} opponents given for the {others} other seats of a "
                             f"{self.num_players}-player game: give one per other seat, a single opponent for "
                             f"all of them, or an OpponentPool")
        return _SeatedOpponents([as_opponent(o, self.game) for o in opponents])

    def _checked_actions(self, actions) -> np.ndarray:
        if not self._is_reset:
            raise RuntimeError("call reset() before step()")
        if self.over.any():
            raise RuntimeError(f"game {int(np.flatnonzero(self.over)[0])} is over: call reset() to play again")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers, got {actions.dtype} of shape "
                             f"{actions.shape}")
        actions = actions.astype(np.int64)
        rows = np.arange(self.num_envs)
        in_range = (actions >= 0) & (actions < self.game.n_actions)
        legal = in_range & (self._masks[rows, np.where(in_range, actions, 0)] == 1)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"learner action {actions[bad]} is illegal in game {bad}; "
                             f"legal: {np.flatnonzero(self._masks[bad]).tolist()}")
        return actions

    # ---- the loop -----------------------------------------------------------------------------------------
    def _blank_step(self) -> SelfPlayStep:
        return SelfPlayStep(None, np.zeros(self.num_envs, dtype=np.float32), np.zeros(self.num_envs, bool),
                            np.zeros(self.num_envs, bool), [None] * self.num_envs)

    def _deal(self, rows: np.ndarray) -> None:
        self.dealer.deal_into(self.states, rows)
        if self.seat is None:
            self.learner_seat[rows] = self.rng.integers(self.num_players, size=len(rows))
        else:
            self.learner_seat[rows] = self.seat
        if isinstance(self.opponents, _SeatedOpponents):  # seat s -> opponent (s - learner - 1) mod n
            seats = np.arange(self.game.max_players)[None, :]
            self.opponent_of[rows] = (seats - self.learner_seat[rows, None] - 1) % self.num_players
        else:
            self.opponent_of[rows] = self.opponents.sample(self.rng, (len(rows), self.game.max_players))
        self.episode_steps[rows] = 0
        self.over[rows] = False

    def _play_opponents(self, result: SelfPlayStep, redeal: bool) -> None:
        """Let the opponents move until every game waits for its learner; settle finished games."""
        games_without_learner = 0
        while True:
            ended = np.flatnonzero(self.game.finished(self.states) & ~self.over)
            if len(ended):
                games_without_learner += int((self.episode_steps[ended] == 0).sum())
                if games_without_learner > GAMES_WITHOUT_LEARNER_LIMIT * self.num_envs:
                    raise RuntimeError("games keep ending before the learner's first decision; "
                                       "is the decision cap (max_decisions) too small?")
                self._settle(ended, result)
                if redeal:
                    self._deal(ended)
                else:
                    self.over[ended] = True
            waiting = np.flatnonzero((self.states["current"] != self.learner_seat) & ~self.over)
            if not len(waiting):
                return
            self._play_waiting(waiting)

    def _play_waiting(self, waiting: np.ndarray) -> None:
        """One observe / mask / step call for all waiting games; each agent decides its own rows."""
        agents = [as_opponent(agent, self.game) for agent in self.opponents.agents]
        play_decisions(self.game, self.states, waiting, agents, self.opponent_of, timer=self._time_opponents)
        self.opponent_decisions += len(waiting)

    def _time_opponents(self, seconds: float) -> None:
        self.opponent_seconds += seconds

    def _settle(self, rows: np.ndarray, result: SelfPlayStep) -> None:
        """Write the learner's result of each finished game into ``result``.

        ``finals[b]``: ``final_observation`` (the learner's view of the finished game), ``reward``, ``scores``
        (by seat), ``learner_seat``, ``won``, ``truncated`` and ``episode_length`` (the learner's decisions).
        """
        finished = batch.take(self.states, rows)
        seats = self.learner_seat[rows]
        returns = self.game.returns(finished, self.reward_mode)[np.arange(len(rows)), seats]
        scores = self.game.scores(finished)
        final_obs = self.game.observe(finished, seats)
        won = self.game.winners(finished)[np.arange(len(rows)), seats]
        truncated = self.game.truncated(finished)
        for j, b in enumerate(rows):
            result.rewards[b] = returns[j]
            result.truncated[b] = truncated[j]
            result.terminated[b] = not truncated[j]
            result.finals[b] = {"final_observation": final_obs[j], "reward": float(returns[j]),
                                "scores": scores[j, :self.num_players].tolist(),
                                "learner_seat": int(seats[j]), "won": bool(won[j]), "truncated": bool(truncated[j]),
                                "episode_length": int(self.episode_steps[b])}

    def _learner_observations(self) -> np.ndarray:
        self.game.legal_mask(self.states, self._masks)
        return self.game.observe(self.states, self.learner_seat)


# ---- gymnasium envs --------------------------------------------------------------------------------------
def _check_reset_options(options: dict | None) -> None:
    if options:
        raise ValueError(f"reset options {sorted(options)} are not supported: game options are fixed when the "
                         f"env is built")


class SingleAgentEnv(gymnasium.Env):
    """One game seen from the learner's seat; the opponents play the other seats inside ``step``.

    Args:
        game_or_name: a ``Game`` or a registered name (``"colt_express"``).
        opponents: an ``OpponentPool``, ``num_players - 1`` opponents or one opponent (module docstring).
        seat: the learner's seat in every game, or ``None`` for a seat drawn per game.
        reward_mode: ``"win"``, ``"rank"`` or ``"score"`` (``Game.returns``).
        seed: the run seed until ``reset(seed=...)`` gives one; ``None`` draws one from the operating system.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
        **game_options: the game's options (``num_players``, ...); unknown ones raise ``ValueError``.

    Spaces: a flat float32 ``Box(obs_size)`` and ``Discrete(n_actions)``. ``action_masks()`` gives the learner's
    legal actions (MaskablePPO reads it). ``info`` holds ``action_mask`` and ``seat``, and at the end ``scores``
    (by seat) and ``won``. An illegal action raises ``ValueError`` and changes nothing.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(self, game_or_name, opponents, seat: int | None = None, reward_mode: str = "win",
                 seed: int | None = None, render_mode: str | None = None, **game_options):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}")
        self.batch = SelfPlayBatch(game_or_name, 1, opponents, seed=seed, reward_mode=reward_mode, seat=seat,
                                   autoreset=False, **game_options)
        self.game = self.batch.game
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.game.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.game.n_actions)
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Start a game (run ``seed`` from its start, else the run's next game) and play until the learner must
        decide; ``options`` must be empty (game options are fixed when the env is built)."""
        _check_seed(seed)
        _check_reset_options(options)
        super().reset(seed=seed)  # gymnasium's own np_random; the game's chance comes from the run seed
        observation = self.batch.reset(seed)[0]
        self._started = True
        return observation, self._info()

    def step(self, action) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the learner's ``action`` (an int, numpy integer or 0-d integer array), then the opponents.

        Raises:
            ValueError: the action is not an integer, out of range or illegal; nothing changes.
            RuntimeError: before ``reset`` or after the game ended.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.batch.over[0]:
            raise RuntimeError("the game is over: call reset() to play again")
        action = self.game.check_action_id(action)
        mask = self.batch.action_masks()[0]
        if not mask[action]:
            state = self.batch.states[0]
            legal = {int(a): self.game.action_to_string(state, int(a)) for a in np.flatnonzero(mask)}
            raise ValueError(f"illegal action {action} ({self.game.action_to_string(state, action)!r}) for the "
                             f"learner in seat {int(self.batch.learner_seat[0])}; legal: {legal}")
        result = self.batch.step(np.array([action], dtype=np.int64))
        info = self._info()
        final = result.finals[0]
        if final is not None:
            info.update(scores=final["scores"], won=final["won"])
        if self.render_mode == "human":
            self.render()
        return (result.observations[0], float(result.rewards[0]), bool(result.terminated[0]),
                bool(result.truncated[0]), info)

    def action_masks(self) -> np.ndarray:
        """``(n_actions,)`` bool: the learner's legal actions (all False once the game is over)."""
        return self.batch.action_masks()[0]

    def render(self):
        """The board as text (``ansi``), printed (``human``) or a picture (``rgb_array``); never changes the game."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode to SingleAgentEnv")
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        state = self.batch.states[0]
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(state)
        text = self.game.render_ansi(state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _info(self) -> dict:
        return {"action_mask": self.action_masks(), "seat": int(self.batch.learner_seat[0])}


class SelfPlayVectorEnv(VectorEnv):
    """``num_envs`` games from the learner's seats, as a gymnasium ``VectorEnv`` (``SAME_STEP`` autoreset).

    Arguments as ``SingleAgentEnv``'s, plus ``num_envs``. A finished game is replaced in the same step: the
    observation returned is the fresh game's; ``infos["final_obs"]`` (an object array) and
    ``infos["final_info"]`` (``seat``, ``scores``, ``won``, each with its ``_key`` mask) describe the finished
    one. Every step's ``infos`` also hold ``seat`` and ``action_mask`` of the games now played.
    ``action_masks()`` gives the ``(num_envs, n_actions)`` bool masks; a row is never all False.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game_or_name, num_envs: int, opponents, seat: int | None = None, reward_mode: str = "win",
                 seed: int | None = None, **game_options):
        self.batch = SelfPlayBatch(game_or_name, num_envs, opponents, seed=seed, reward_mode=reward_mode,
                                   seat=seat, autoreset=True, **game_options)
        self.game = self.batch.game
        self.num_envs = self.batch.num_envs
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (self.game.obs_size,), np.float32)
        self.single_action_space = spaces.Discrete(self.game.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal ``num_envs`` games (run ``seed`` from its start, else the run's next games); one integer seeds the
        whole batch (game ``i`` of the run from ``(seed, i)``)."""
        _check_seed(seed)
        _check_reset_options(options)
        super().reset(seed=seed)
        return self.batch.reset(seed), self._infos([None] * self.num_envs)

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Play one learner action per game (``ValueError``, and nothing changes, if any is illegal)."""
        result = self.batch.step(actions)
        return result.observations, result.rewards, result.terminated, result.truncated, self._infos(result.finals)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: the learner's legal actions in each game."""
        return self.batch.action_masks()

    def _infos(self, finals: list) -> dict:
        everyone = np.ones(self.num_envs, dtype=bool)
        infos = {"seat": self.batch.learner_seat.copy(), "_seat": everyone,
                 "action_mask": self.action_masks(), "_action_mask": everyone.copy()}
        ended = np.array([final is not None for final in finals])
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            seats = np.zeros(self.num_envs, dtype=np.int64)
            scores = np.zeros((self.num_envs, self.batch.num_players), dtype=np.int64)
            won = np.zeros(self.num_envs, dtype=bool)
            for b in np.flatnonzero(ended):
                final_obs[b], seats[b] = finals[b]["final_observation"], finals[b]["learner_seat"]
                scores[b], won[b] = finals[b]["scores"], finals[b]["won"]
            infos.update(final_obs=final_obs, _final_obs=ended, _final_info=ended.copy(),
                         final_info={"seat": seats, "_seat": ended.copy(), "scores": scores,
                                     "_scores": ended.copy(), "won": won, "_won": ended.copy()})
        return infos
