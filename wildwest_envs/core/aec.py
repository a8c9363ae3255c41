"""The generic PettingZoo ``AECEnv`` over a ``Game`` (STYLE.md §11).

A game's ``env.py`` subclasses ``GameAECEnv`` with its ``game`` (the
PettingZoo ``metadata`` follows from it); this class maps agents to seats,
runs the kernels on a batch of one, keeps PettingZoo's bookkeeping and contains no rules.

Seeding: ``reset(seed=s)`` plays game 0 of run ``s``; each later ``reset()``
without a seed plays the next game of the same run (``core.rng.game_seed(s, k)``),
so a sequence of episodes is reproducible from the first seed. Before any seed
is given, the run seed is drawn from the operating system.

Copies: ``copy.deepcopy(env)`` and ``pickle`` keep the position (the game record,
the agents' bookkeeping and the run's seeding), so a copy plays on identically and
independently, at any point of a game. ``env.unwrapped.save_state()`` gives the
position as readable JSON (``Game.to_json``) and ``load_state(text)`` continues from
one, validated first, with the mask and the agent to act recomputed.

First games: while numba's cache of the game is cold, ``reset`` deals on a plain-Python
twin of the game (the same source, uncompiled: the same games) and one background process
compiles the kernels into the cache; the first ``reset`` after it is done switches to the
compiled game (``core.quickstart``; ``WILDWEST_QUICKSTART=off`` compiles at once instead).

Events (``events=True``, for games that report them: ``core.eventlog``): after
each step, every agent's info holds ``"events"``, the events of that step it may
see (as dicts: ``kind``, the arguments, ``seen_by``).

Rewards arrive at the end of the game (``Game.returns`` with the env's
``reward_mode``); a game that reaches the turn cap (option ``max_decisions``) is
truncated for every agent with zero reward. ``infos`` hold nothing before the
end; at the end each agent's info has ``scores`` (by seat), ``winners`` and
``truncated``.
"""

from __future__ import annotations

import copy
import functools
import sys

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from gymnasium.utils import EzPickle

from . import quickstart
from .game import REWARD_MODES, Game
from .rng import game_seed


def play_random_game(env, rng: np.random.Generator, on_decision=None) -> int:
    """Play the current game of a PettingZoo AEC ``env`` to its end, each move drawn uniformly by ``rng`` among the
    legal actions of the agent's ``action_mask`` (any such env: ours, PettingZoo's classic games); returns the
    number of decisions played. ``on_decision(legal)``, if given, sees each decision's legal actions first."""
    decisions = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if on_decision is not None:
            on_decision(legal)
        env.step(int(legal[rng.integers(len(legal))]))
        decisions += 1
    return decisions


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat."""
    return f"player_{seat}"


RENDER_MODES = ["ansi", "human", "rgb_array"]


def _quietly(method):
    """``method`` of ``GameAECEnv`` without numpy's overflow warnings while the env plays a plain twin, whose
    generator arithmetic wraps around in uint64 on purpose, as the compiled kernels' does (``core.quickstart``);
    a compiled game's calls go straight through (``reset`` and ``load_state``, which choose the game, are
    always quiet)."""
    chooses = method.__name__ in ("reset", "load_state")

    @functools.wraps(method)
    def quiet_method(self, *args, **kwargs):
        if not chooses and "game" not in self.__dict__:  # the compiled game (the class's)
            return method(self, *args, **kwargs)
        with np.errstate(over="ignore"):
            return method(self, *args, **kwargs)

    return quiet_method


class GameAECEnv(AECEnv, EzPickle):
    """PettingZoo AEC environment of one game; a subclass sets ``game``, and its ``metadata`` follows from it."""

    game: Game
    metadata: dict = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, reward_mode: str = "win", events: bool = False, **options):
        EzPickle.__init__(self, render_mode=render_mode, reward_mode=reward_mode, events=events, **options)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        if not isinstance(events, (bool, np.bool_)):
            raise ValueError(f"events must be True or False, got {events!r}")
        if events and self.game.event_kinds is None:
            raise ValueError(f"{self.game.name} reports no events yet: events=True is not available")
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.events = bool(events)
        self.options = self.game.parse_options(**options)
        n_players = self.options["num_players"]
        self.possible_agents = [agent_name(s) for s in range(n_players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.game.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.n_actions) for a in self.possible_agents}
        self._run_seed: int | None = None
        self._episode = 0
        self.states: np.ndarray | None = None
        # preallocated batch-of-one buffers: the hot path calls the kernels directly
        self._seat_arrays = [np.array([s], dtype=np.int64) for s in range(n_players)]
        self._obs_buffer = np.zeros((1, self.game.obs_size), dtype=np.float32)
        self._mask_buffer = np.zeros((1, self.game.n_actions), dtype=np.int8)
        self._action_buffer = np.zeros(1, dtype=np.int64)
        self._no_actions = np.zeros(self.game.n_actions, dtype=np.int8)
        self._over = False

    def __init_subclass__(cls, **kwargs):
        """A game's env class gets the PettingZoo ``metadata`` of its ``game`` (name, render modes, fps) and
        carries its module's documentation (options, spaces, rewards), so that ``help(raw_env)`` shows it."""
        super().__init_subclass__(**kwargs)
        game = cls.__dict__.get("game")
        if game is not None and "metadata" not in cls.__dict__:
            cls.metadata = {"name": game.name, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                            "render_fps": 2}
        module_doc = getattr(sys.modules.get(cls.__module__), "__doc__", None)
        if module_doc and module_doc not in (cls.__doc__ or ""):
            cls.__doc__ = f"{cls.__doc__ or ''}\n\n{module_doc}"

    def __deepcopy__(self, memo: dict) -> "GameAECEnv":
        """An independent copy of the env in its current position (for tree search): every attribute copied.

        ``EzPickle`` would rebuild a fresh, unreset env from the constructor arguments; a copy keeps the game,
        the agents' bookkeeping and the run's seeding, so both envs play on identically and independently.
        """
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, value if key == "game" else copy.deepcopy(value, memo))  # one game, shared
        return clone

    def __getstate__(self) -> dict:
        """Pickle the whole env, position included (``EzPickle`` alone would rebuild an unreset env); a copy
        that plays on a plain twin (``core.quickstart``) is restored on the compiled game."""
        state = self.__dict__.copy()
        state.pop("game", None)
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore a pickled env in its position."""
        self.__dict__.update(state)

    # ---- saving and loading a position ------------------------------------------------
    @_quietly
    def save_state(self) -> str:
        """The current position as readable JSON (``Game.to_json``); ``load_state`` continues from it.

        Raises:
            RuntimeError: before ``reset()``.
        """
        if self.states is None:
            raise RuntimeError("call reset() before save_state()")
        return self.game.to_json(self.states[0])

    @_quietly
    def load_state(self, state) -> None:
        """Continue from a saved position: ``save_state``/``Game.to_json`` text, or a record of this game.

        The position is validated before anything changes (``Game.from_json`` / ``Game.validate``); it must
        have this env's player count. The agents, rewards and legal mask are recomputed; a finished position
        ends the episode at once with its final rewards. The run's seeding is kept (the next ``reset()``
        deals the run's next game).

        Raises:
            ValueError, TypeError: an invalid position, or one with another player count (the env is unchanged).
        """
        self._choose_game()
        if isinstance(state, str):
            states = self.game.from_json(state)
        else:
            states = np.array(state, dtype=self.game.state_dtype).reshape(-1).copy() \
                if isinstance(state, (np.ndarray, np.void)) else None
            if states is None or len(states) != 1:
                raise TypeError(f"a saved position is JSON text or one {self.game.name} record, got "
                                f"{type(state).__name__}")
            self.game.validate(states)
        if int(states[0]["num_players"]) != len(self.possible_agents):
            raise ValueError(f"the position has {int(states[0]['num_players'])} players, this env "
                             f"{len(self.possible_agents)}")
        if self._run_seed is None:
            self._run_seed, self._episode = int(np.random.SeedSequence().entropy % 2**63), 0
        self.states = states
        self._start_bookkeeping()
        if self._over:
            self.agent_selection = self.agents[0]
            self._finish()
            self._accumulate_rewards()
        else:
            self.agent_selection = agent_name(int(self.states[0]["current"]))

    def load_record(self, record, upto: int | None = None) -> None:
        """Resume a recorded game (``core.records``): replay its first ``upto`` actions (default all) and
        continue from there, as ``load_state`` does.

        Raises:
            ValueError: a record of another game, or with other options than this env's, or one that does
                not replay.
        """
        from .records import GameRecord, as_record, json_options

        record = as_record(record)
        if record.game == self.game.name:
            theirs = json_options(self.game.parse_options(**record.options))
            ours = json_options(self.options)
            if theirs != ours:
                differ = sorted(k for k in ours if theirs.get(k) != ours[k])
                raise ValueError(f"the record was played with other options than this env's: {differ}")
        if upto is not None:
            if not 0 <= upto <= len(record.actions):
                raise ValueError(f"upto must be 0..{len(record.actions)}, got {upto}")
            record = GameRecord(record.game, record.options, record.seed, record.actions[:upto],
                                chance=tuple(c for c in record.chance if c[0] <= upto))
        self.load_state(self.game.replay(record))

    @_quietly
    def script(self, outcomes, then: str = "error") -> None:
        """Script the next chance outcomes of the game in play, in the rules' terms (``Game.script``).

        Raises:
            RuntimeError: before ``reset()``.
            ValueError: an unknown kind or an impossible outcome (nothing changes). A later ``step`` that
                needs more outcomes than were scripted raises ``ValueError`` too, unless ``then="random"``.
        """
        if self.states is None:
            raise RuntimeError("call reset() before script()")
        self.game.script(self.states, outcomes, then)

    # ---- spaces ------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The ``Dict(observation, action_mask)`` space of an agent."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """The ``Discrete(n_actions)`` space of an agent."""
        return self.action_spaces[self._known(agent)]

    # ---- episode -------------------------------------------------------------------
    @_quietly
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game (see the module docstring for seeding).

        ``options`` is accepted for PettingZoo compatibility and ignored: game
        options are fixed when the env is built (``env(**options)``).

        Raises:
            TypeError: ``seed`` is not an integer (``None`` draws one from the operating system).
        """
        if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an integer or None, got {type(seed).__name__} {seed!r}")
        if seed is not None:
            self._run_seed, self._episode = int(seed), 0
        elif self._run_seed is None:
            self._run_seed, self._episode = int(np.random.SeedSequence().entropy % 2**63), 0
        else:
            self._episode += 1
        self._choose_game()
        self.states = self.game.init(np.array([game_seed(self._run_seed, self._episode)], np.uint64),
                                     **self.options)
        self._start_bookkeeping()
        self.agent_selection = agent_name(int(self.states[0]["current"]))

    @_quietly
    def observe(self, agent: str) -> dict:
        """``{"observation", "action_mask"}`` of ``agent``; the mask is all 0 off turn."""
        seat = self._seat[self._known(agent)]
        if self.states is None:
            raise RuntimeError("call reset() before observe()")
        self.game.observe_kernel(self.states, self._seat_arrays[seat], self._obs_buffer)
        on_turn = not self._over and int(self.states[0]["current"]) == seat
        mask = self._mask_buffer[0].copy() if on_turn else self._no_actions.copy()
        return {"observation": self._obs_buffer[0].copy(), "action_mask": mask}

    @_quietly
    def step(self, action) -> None:
        """Apply ``action`` of ``agent_selection``; ``None`` for a finished agent.

        Raises ``ValueError`` (and changes nothing) for ``None`` before the end,
        a non-integer, an out-of-range or an illegal action; ``RuntimeError`` before
        ``reset()`` and once every agent has left a finished game.
        """
        if self.states is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left it: call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action is None:
            raise ValueError(f"{agent} must act: None is only valid after the game has ended")
        action = self.game.check_action_id(action)
        if not self._mask_buffer[0, action]:
            state = self.states[0]
            legal = {int(a): self.game.action_to_string_fn(state, int(a)) for a in np.flatnonzero(self._mask_buffer[0])}
            raise ValueError(f"illegal action {action} ({self.game.action_to_string_fn(state, action)!r}) "
                             f"for {agent}; legal: {legal}")
        self._action_buffer[0] = action
        if self.events:
            happened = self.game.step_logged(self.states, self._action_buffer, self._mask_buffer)[0]
        else:
            self.game.step_checked_chance(self.states, self._action_buffer, self._mask_buffer)  # the new mask too
        self._refresh(mask_ready=True)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._over:
            self._finish()
        else:
            self.agent_selection = agent_name(int(self.states[0]["current"]))
        if self.events:
            for a in self.agents:
                self.infos[a]["events"] = [e.to_dict() for e in happened if e.visible_to(self._seat[a])]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- rendering ------------------------------------------------------------------
    @_quietly
    def render(self):
        """The board as text (``ansi``), printed (``human``) or a picture (``rgb_array``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode to env()")
            return None
        if self.states is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.states[0])
        text = self.game.render_ansi(self.states[0])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # ---- private --------------------------------------------------------------------
    def _choose_game(self) -> None:
        """Play the compiled game, or its plain twin while numba's cache is cold (``core.quickstart``)."""
        compiled = type(self).game
        game = quickstart.game_to_play(compiled, self.events, self.options)  # the parsed options: the warm-up's too
        if game is compiled:
            self.__dict__.pop("game", None)
        else:
            self.game = game

    def _known(self, agent) -> str:
        """``agent`` if it is one of ``possible_agents``, else a ``KeyError`` naming them."""
        if not isinstance(agent, str) or agent not in self._seat:
            raise KeyError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        return agent

    def _start_bookkeeping(self) -> None:
        """Every agent in play with no reward, termination or info yet; the mask of the current position."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._refresh()

    def _refresh(self, mask_ready: bool = False) -> None:
        """Recompute the legal mask (unless the step kernel just wrote it) and whether the game is over, once per
        change of state."""
        if not mask_ready:
            self.game.legal_mask_kernel(self.states, self._mask_buffer)
        self._over = bool(self.game.finished(self.states)[0])

    def _finish(self) -> None:
        truncated = bool(self.game.truncated(self.states)[0])
        returns = self.game.returns(self.states, self.reward_mode)[0]
        scores = self.game.scores(self.states)[0]
        winners = [agent_name(s) for s in np.flatnonzero(self.game.winners(self.states)[0])]
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = float(returns[seat])
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = {"scores": {agent_name(s): int(scores[s]) for s in range(len(self.possible_agents))},
                                 "winners": winners, "truncated": truncated}
