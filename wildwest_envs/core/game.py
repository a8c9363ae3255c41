"""The ``Game`` binding: one batched functional API for every game (DESIGN.md).

A game package supplies its record dtype, its numba kernels, its observation
layout and a few plain-Python functions; ``Game`` binds them into the API that
adapters, agents, training code and benchmarks use::

    states = GAME.init(seeds, num_players=3)        # (B,) records
    seats = GAME.current_player(states)             # (B,) int
    masks = GAME.legal_mask(states)                 # (B, A) int8
    GAME.step(states, actions)                      # in place, checked
    obs = GAME.observe(states, seats)               # (B, obs_size) float32
    GAME.terminal(states), GAME.returns(states)     # (B,), (B, max_players)

Every game record has these fields, read here and nowhere else in ``core``:
the ``core.rng.RNG_FIELDS``, ``num_players`` (int), ``current`` (seat to decide,
-1 when finished), ``done`` (bool), ``n_decisions`` and ``max_decisions`` (the
turn cap: a game that reaches it unfinished is *truncated*).

Rewards (``returns``) are computed here from the game's ``scores`` and
``tiebreak`` kernels, so every game offers the same three ``reward_mode`` s:

* ``"win"`` (default): +1 to each winner (best score, then best tie-break; ties
  share the win), -1 to every other player;
* ``"rank"``: ``(players beaten - players beating you) / (N - 1)``, in [-1, 1];
* ``"score"``: the final score divided by the game's ``score_scale``.

An unfinished game (or one cut by the decision cap) returns 0 to everybody. A
game may also declare finished games *capped* (its own turn cap: reported as
truncated, scores still stand) and *without result* (everybody gets 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import serialize
from .kernels import dual
from .layout import Layout
from .rng import game_seeds

REWARD_MODES = ("win", "rank", "score")
NOBODY = -1


@dataclass(frozen=True)
class Game:
    """A game's rules engine bound to the batched functional API.

    Attributes:
        name: registered name with version, e.g. ``"colt_express_v0"``.
        state_dtype: numpy record dtype of one game.
        n_actions: size of the flat ``Discrete`` action space.
        obs_layout: named slices of the observation vector.
        min_players, max_players: supported player counts.
        parse_options: validates keyword options, returns the full option dict
            (defaults filled in) or raises ``ValueError``.
        init_kernel: ``(states, seeds, options) -> None`` sets up fresh games.
        legal_mask_kernel, step_kernel, observe_kernel, scores_kernel,
        tiebreak_kernel: the numba batch kernels (see the module docstring).
        action_to_string_fn: ``(state, action) -> str`` for any action id.
        render_ansi_fn, render_rgb_fn: read-only renderers of one record.
        validate_state_fn: ``(state) -> list[str]`` consistency errors of one record.
        invariants_kernel: ``(states, out int32) -> None``; ``invariant_messages[code]``.
        score_scale: divisor of the ``"score"`` reward mode.
        resample_hidden_fn: ``(states, seats, seeds) -> states`` determinizer for search agents.
        capped_fn: ``(states) -> bool (B,)``: finished games (``done``) that the game's own cap
            ended; they count as truncated, not terminated (their scores still stand).
        no_result_fn: ``(states) -> bool (B,)``: finished games that give every player 0
            (e.g. a capped game scored as a draw).
    """

    name: str
    state_dtype: np.dtype
    n_actions: int
    obs_layout: Layout
    min_players: int
    max_players: int
    parse_options: Callable[..., dict]
    init_kernel: Callable
    legal_mask_kernel: Callable
    step_kernel: Callable
    observe_kernel: Callable
    scores_kernel: Callable
    tiebreak_kernel: Callable
    action_to_string_fn: Callable[[Any, int], str]
    render_ansi_fn: Callable[[Any], str]
    render_rgb_fn: Callable[[Any], np.ndarray]
    validate_state_fn: Callable[[Any], list]
    invariants_kernel: Callable
    invariant_messages: tuple
    score_scale: float = 1.0
    resample_hidden_fn: Callable | None = field(default=None)
    capped_fn: Callable | None = field(default=None)
    no_result_fn: Callable | None = field(default=None)

    def __post_init__(self):
        # small batches (the PettingZoo adapter's batch of one) run serial builds (core.kernels)
        for name in ("legal_mask_kernel", "step_kernel", "observe_kernel", "scores_kernel",
                     "tiebreak_kernel", "invariants_kernel"):
            object.__setattr__(self, name, dual(getattr(self, name)))

    # ---- sizes -------------------------------------------------------------
    @property
    def obs_size(self) -> int:
        """Length of the flat observation vector."""
        return self.obs_layout.size

    @property
    def state_bytes(self) -> int:
        """Bytes of one game record."""
        return self.state_dtype.itemsize

    # ---- the turn cycle ----------------------------------------------------
    def init(self, seeds: int | np.ndarray | list, **options) -> np.ndarray:
        """Fresh games, one per seed; ``options`` as the game's ``env()`` takes them.

        ``seeds`` is one integer (one game) or a sequence of 64-bit generator
        states (see ``core.rng.game_seeds`` to derive them from one run seed).
        """
        opts = self.parse_options(**options)
        seeds = np.atleast_1d(np.asarray(seeds))
        if seeds.ndim != 1 or not np.issubdtype(seeds.dtype, np.integer):
            raise TypeError(f"seeds must be integers, got {seeds.dtype} of shape {seeds.shape}")
        states = np.zeros(len(seeds), dtype=self.state_dtype)
        self.init_kernel(states, seeds.astype(np.uint64), opts)
        return states

    def init_batch(self, batch_size: int, seed: int = 0, offset: int = 0, **options) -> np.ndarray:
        """``batch_size`` fresh games: game ``i`` is seeded from ``(seed, offset + i)``."""
        return self.init(game_seeds(seed, batch_size, offset), **options)

    def current_player(self, states: np.ndarray) -> np.ndarray:
        """Seat to decide in each game, -1 for finished games."""
        return states["current"].astype(np.int64)

    def legal_mask(self, states: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, n_actions)`` int8: 1 for each legal action (all 0 when finished)."""
        if out is None:
            out = np.zeros((len(states), self.n_actions), dtype=np.int8)
        self.legal_mask_kernel(states, out)
        return out

    def step(self, states: np.ndarray, actions, check: bool = True) -> None:
        """Apply one action per game, in place; finished games are left alone.

        With ``check`` (the default) every action of an unfinished game must be
        an integer in ``[0, n_actions)`` and legal; otherwise ``ValueError``
        names the game, the action and the legal ones, and NO game is changed.
        ``check=False`` is the fast path for callers that sampled from the mask.
        """
        actions = self._check_actions(states, actions) if check else np.asarray(actions, np.int64)
        self.step_kernel(states, actions)

    def observe(self, states: np.ndarray, seats=None, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, obs_size)`` float32 observations of ``seats`` (default: the seat to act)."""
        if seats is None:
            seats = np.maximum(states["current"], 0)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(states),))
        if np.any(seats < 0) or np.any(seats >= states["num_players"]):
            raise ValueError(f"observer seats {seats.tolist()} out of range for num_players")
        if out is None:
            out = np.zeros((len(states), self.obs_size), dtype=np.float32)
        self.observe_kernel(states, np.ascontiguousarray(seats), out)
        return out

    def terminal(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` bool: the game has ended by its rules (not by a cap)."""
        return states["done"] & ~self._capped(states)

    def truncated(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` bool: the game was cut short: the decision cap, or the game's own cap."""
        return (~states["done"] & (states["n_decisions"] >= states["max_decisions"])) | self._capped(states)

    def finished(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` bool: the episode is over (terminal or truncated)."""
        return states["done"] | (states["n_decisions"] >= states["max_decisions"])

    def _capped(self, states: np.ndarray) -> np.ndarray:
        if self.capped_fn is None:
            return np.zeros(len(states), dtype=bool)
        return states["done"] & self.capped_fn(states)

    def scores(self, states: np.ndarray) -> np.ndarray:
        """``(B, max_players)`` int32 scores by the game's rules (0 for absent seats)."""
        out = np.zeros((len(states), self.max_players), dtype=np.int32)
        self.scores_kernel(states, out)
        return out

    def returns(self, states: np.ndarray, reward_mode: str = "win") -> np.ndarray:
        """``(B, max_players)`` float32 final rewards (0 unless the game has ended with a result)."""
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        scores = self.scores(states).astype(np.float64)
        ties = np.zeros((len(states), self.max_players), dtype=np.int32)
        self.tiebreak_kernel(states, ties)
        present = np.arange(self.max_players)[None, :] < states["num_players"][:, None]
        if reward_mode == "score":
            out = scores / self.score_scale
        else:
            key = np.where(present, scores * 1e6 + ties, -np.inf)  # scores and ties are small ints
            better = (key[:, None, :] > key[:, :, None]) & present[:, None, :]
            worse = (key[:, None, :] < key[:, :, None]) & present[:, None, :]
            n_better, n_worse = better.sum(axis=2), worse.sum(axis=2)
            if reward_mode == "win":
                out = np.where(n_better == 0, 1.0, -1.0)
            else:
                out = (n_worse - n_better) / np.maximum(states["num_players"][:, None] - 1, 1)
        has_result = states["done"].copy()
        if self.no_result_fn is not None:
            has_result &= ~self.no_result_fn(states)
        out = np.where(present & has_result[:, None], out, 0.0)
        return out.astype(np.float32)

    def winners(self, states: np.ndarray) -> np.ndarray:
        """``(B, max_players)`` bool: seats that share the win of a finished game."""
        return self.returns(states, "win") > 0

    # ---- planning support ----------------------------------------------------
    def reseed(self, states: np.ndarray, seeds) -> None:
        """Give each game a new chance generator and drop scripted outcomes.

        Search agents call this on a cloned state so that their simulations do
        not see the real upcoming shuffles and dice. Nothing observable changes.
        """
        states["rng"] = np.broadcast_to(np.asarray(seeds, dtype=np.uint64), (len(states),))
        states["n_forced"] = 0
        states["forced_pos"] = 0

    def resample_hidden(self, states: np.ndarray, seats, seeds) -> np.ndarray:
        """New records consistent with what ``seats[b]`` has observed in game ``b``.

        Hidden parts are redrawn at random and the chance generator is reseeded from
        ``seeds``; ``states`` is left unchanged. Search agents plan on these records,
        never on the true ones.
        """
        if self.resample_hidden_fn is None:
            raise NotImplementedError(f"{self.name} has no resample_hidden_fn")
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(states),))
        seeds = np.broadcast_to(np.asarray(seeds, dtype=np.uint64), (len(states),))
        return self.resample_hidden_fn(states, np.ascontiguousarray(seats), np.ascontiguousarray(seeds))

    @staticmethod
    def clone(states: np.ndarray) -> np.ndarray:
        """An independent copy that replays the same future."""
        return states.copy()

    # ---- names, text, pictures -----------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        """Short readable name of ``action`` in ``state`` (one record)."""
        action = self.check_action_id(action)
        return self.action_to_string_fn(one_record(state), action)

    def string_to_action(self, state, text: str) -> int:
        """The action whose ``action_to_string`` is ``text`` (legal actions first)."""
        record = one_record(state)
        mask = self.legal_mask(np.array([record]))[0]
        order = list(np.flatnonzero(mask)) + list(np.flatnonzero(mask == 0))
        for action in order:
            if self.action_to_string_fn(record, int(action)) == text:
                return int(action)
        legal = [self.action_to_string_fn(record, int(a)) for a in np.flatnonzero(mask)]
        raise ValueError(f"no action named {text!r}; legal actions: {legal}")

    def legal_action_strings(self, state) -> list[str]:
        """Names of the legal actions of one record."""
        record = one_record(state)
        mask = self.legal_mask(np.array([record]))[0]
        return [self.action_to_string_fn(record, int(a)) for a in np.flatnonzero(mask)]

    def render_ansi(self, state) -> str:
        """The text board of one record."""
        return self.render_ansi_fn(one_record(state))

    def render_rgb(self, state) -> np.ndarray:
        """An ``(H, W, 3)`` uint8 picture of one record."""
        return self.render_rgb_fn(one_record(state))

    # ---- saving and checking --------------------------------------------------
    def to_json(self, state) -> str:
        """A readable JSON document of one record (field names as keys)."""
        return serialize.to_json(self.name, one_record(state))

    def from_json(self, text: str) -> np.ndarray:
        """A ``(1,)`` batch loaded from ``to_json`` output, validated field by field.

        Raises ``ValueError`` naming every problem (unknown game, missing or extra
        fields, wrong shapes or types, out-of-range or inconsistent values).
        """
        states = serialize.from_json(self.name, self.state_dtype, text)
        self.validate(states)
        return states

    def validate(self, states: np.ndarray) -> None:
        """Raise ``ValueError`` if any record is not a consistent game state."""
        if not isinstance(states, np.ndarray) or states.dtype != self.state_dtype:
            raise TypeError(f"expected an array of {self.name} records")
        for b, record in enumerate(np.atleast_1d(states)):
            errors = self.validate_state_fn(record)
            if errors:
                raise ValueError(f"{self.name} state {b} is invalid: " + "; ".join(errors))

    def invariant_violations(self, states: np.ndarray) -> list[tuple[int, str]]:
        """``(game index, message)`` for every record that breaks an invariant."""
        codes = np.zeros(len(states), dtype=np.int32)
        self.invariants_kernel(states, codes)
        return [(int(b), self.invariant_messages[codes[b]]) for b in np.flatnonzero(codes)]

    # ---- checking actions ------------------------------------------------------
    def check_action_id(self, action) -> int:
        """``action`` as an int, or ``ValueError`` if it is not an integer in ``[0, n_actions)``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{self.name}: action must be an integer, got {type(action).__name__} {action!r}")
        if not 0 <= int(action) < self.n_actions:
            raise ValueError(f"{self.name}: action {action} is out of range [0, {self.n_actions})")
        return int(action)

    def _check_actions(self, states: np.ndarray, actions) -> np.ndarray:
        raw = np.asarray(actions)
        if raw.shape != (len(states),):
            raise ValueError(f"{self.name}: expected {len(states)} actions, got shape {raw.shape}")
        if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
            raise ValueError(f"{self.name}: actions must be integers, got dtype {raw.dtype}")
        actions = raw.astype(np.int64)
        live = ~states["done"]
        bad = live & ((actions < 0) | (actions >= self.n_actions))
        if bad.any():
            b = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{self.name}: action {actions[b]} of game {b} is out of range [0, {self.n_actions})")
        masks = self.legal_mask(states)
        rows = np.arange(len(states))
        illegal = live & (masks[rows, np.clip(actions, 0, self.n_actions - 1)] == 0)
        if illegal.any():
            b = int(np.flatnonzero(illegal)[0])
            name = self.action_to_string_fn(states[b], int(actions[b]))
            legal = {int(a): self.action_to_string_fn(states[b], int(a)) for a in np.flatnonzero(masks[b])}
            raise ValueError(f"{self.name}: illegal action {actions[b]} ({name!r}) in game {b}; legal: {legal}")
        return actions


def one_record(state):
    """The single record of ``state``: a record, a 0-d array, or a batch of exactly one."""
    if isinstance(state, np.ndarray) and state.shape != ():
        if state.shape != (1,):
            raise ValueError(f"expected one game record, got an array of shape {state.shape}")
        return state[0]
    return state[()] if isinstance(state, np.ndarray) else state
