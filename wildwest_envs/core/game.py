"""The ``Game`` binding: one batched functional API for every game (DESIGN.md).

A game package supplies its record dtype, its numba kernels, its observation
layout and a few plain-Python functions; ``Game`` binds them into the API that
adapters, agents, training code and benchmarks use::

    states = GAME.init(seeds, num_players=3)        # (B,) records
    seats = GAME.current_player(states)             # (B,) int
    masks = GAME.legal_mask(states)                 # (B, A) int8
    GAME.step(states, actions)                      # in place, checked
    GAME.step(states, actions, masks=masks)         # ... and the new legal masks, in one pass
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

Input checking: numba kernels do not check bounds, so every method checks what
it hands them first and raises ``TypeError`` / ``ValueError`` naming the
problem: ``states`` must be a 1-D array of this game's records (writeable for
``step``), ``out`` buffers of the exact shape and dtype, seats, seeds and
actions integers in range. Loaded states (``from_json``, ``from_bytes``) are
validated before any kernel sees them: the core fields (``validate_core``), then
the game's ``validate_state_fn`` (which must prove every index a kernel uses in
range), then the invariants and the legal mask. Records a caller edits by hand
in memory are the caller's to ``validate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import serialize
from .kernels import NO_MASKS, dual
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
        tiebreak_kernel: the numba batch kernels (see the module docstring); ``step_kernel`` is
            ``(states, actions, masks)``, ``masks`` either ``core.kernels.NO_MASKS`` or a ``(B, A)``
            buffer for the new legal masks.
        action_to_string_fn: ``(state, action) -> str`` for any action id.
        render_ansi_fn, render_rgb_fn: read-only renderers of one record.
        validate_state_fn: ``(state) -> list[str]`` consistency errors of one record; it must check the
            range of every field a kernel uses as an index or loop bound before anything else.
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
        if seeds.ndim != 1 or seeds.dtype == np.bool_ or not np.issubdtype(seeds.dtype, np.integer):
            raise TypeError(f"seeds must be integers, got {seeds.dtype} of shape {seeds.shape}")
        states = np.zeros(len(seeds), dtype=self.state_dtype)
        self.init_kernel(states, seeds.astype(np.uint64), opts)
        return states

    def init_batch(self, batch_size: int, seed: int = 0, offset: int = 0, **options) -> np.ndarray:
        """``batch_size`` fresh games: game ``i`` is seeded from ``(seed, offset + i)``."""
        for what, value in (("batch_size", batch_size), ("offset", offset)):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
        return self.init(game_seeds(seed, batch_size, offset), **options)

    def current_player(self, states: np.ndarray) -> np.ndarray:
        """Seat to decide in each game, -1 for finished games."""
        self._check_states(states)
        return states["current"].astype(np.int64)

    def legal_mask(self, states: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, n_actions)`` int8: 1 for each legal action (all 0 when finished)."""
        self._check_states(states)
        if out is None:
            out = np.zeros((len(states), self.n_actions), dtype=np.int8)
        else:
            _check_out("out", out, (len(states), self.n_actions), np.int8)
        self.legal_mask_kernel(states, out)
        return out

    def step(self, states: np.ndarray, actions, check: bool = True, masks: np.ndarray | None = None) -> None:
        """Apply one action per game, in place; finished games are left alone.

        With ``check`` (the default) every action of an unfinished game must be
        an integer in ``[0, n_actions)`` and legal; otherwise ``ValueError``
        names the game, the action and the legal ones, and NO game is changed.
        The actions of finished games (ended, or at the decision cap) are ignored.
        ``check=False`` is the fast path for callers that sampled from the mask:
        the kernels skip ended games but do not know the decision cap, so such a
        caller stops stepping a game when ``finished`` says so.

        ``masks``: an int8 ``(B, n_actions)`` buffer that receives the legal
        masks of the new position, as ``legal_mask(states, out=masks)`` would
        give them, in the same pass over the batch (faster than a second call
        for big batches: ``core.kernels``).
        """
        self._check_states(states, writeable=True)
        if masks is not None:
            _check_out("masks", masks, (len(states), self.n_actions), np.int8)
        out = NO_MASKS if masks is None else masks
        if not check:
            actions = np.asarray(actions, np.int64)
            self.step_kernel(states, actions.reshape(1) if actions.ndim == 0 else actions, out)
            return
        actions = self._check_actions(states, actions)
        at_cap = ~states["done"] & (states["n_decisions"] >= states["max_decisions"])
        if at_cap.any():  # truncated games are over: step only the others
            live = ~at_cap
            sub = states[live]
            self.step_kernel(sub, actions[live], NO_MASKS)
            states[live] = sub
            if masks is not None:
                self.legal_mask_kernel(states, masks)
            return
        self.step_kernel(states, actions, out)

    def observe(self, states: np.ndarray, seats=None, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, obs_size)`` float32 observations of ``seats`` (default: the seat to act)."""
        self._check_states(states)
        if seats is None:
            seats = np.maximum(states["current"], 0)
        seats = self._check_seats(states, seats, "observer seats")
        if out is None:
            out = np.zeros((len(states), self.obs_size), dtype=np.float32)
        else:
            _check_out("out", out, (len(states), self.obs_size), np.float32)
        self.observe_kernel(states, seats, out)
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
        self._check_states(states)
        out = np.zeros((len(states), self.max_players), dtype=np.int32)
        self.scores_kernel(states, out)
        return out

    def returns(self, states: np.ndarray, reward_mode: str = "win") -> np.ndarray:
        """``(B, max_players)`` float32 final rewards (0 unless the game has ended with a result).

        ``"win"``: +1 for each seat that no seat beats, -1 for the others; a game that every seat
        ties (a draw) gives 0 to every seat. ``"rank"``: (seats beaten - seats beating) / (N - 1).
        ``"score"``: the final score divided by the game's ``score_scale``. Absent seats get 0.
        """
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        present = np.arange(self.max_players)[None, :] < states["num_players"][:, None]
        if reward_mode == "score":
            out = self.scores(states).astype(np.float64) / self.score_scale
        else:
            n_better, n_worse = self._beaten_counts(states, present)
            if reward_mode == "win":
                draw = ((n_better == 0) | ~present).all(axis=1)
                out = np.where(draw[:, None], 0.0, np.where(n_better == 0, 1.0, -1.0))
            else:
                out = (n_worse - n_better) / np.maximum(states["num_players"][:, None] - 1, 1)
        out = np.where(present & self._has_result(states)[:, None], out, 0.0)
        return out.astype(np.float32)

    def winners(self, states: np.ndarray) -> np.ndarray:
        """``(B, max_players)`` bool: seats that share the win of a game ended with a result (all seats of a
        draw)."""
        present = np.arange(self.max_players)[None, :] < states["num_players"][:, None]
        n_better, _ = self._beaten_counts(states, present)
        return (n_better == 0) & present & self._has_result(states)[:, None]

    def _beaten_counts(self, states: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(B, max_players)`` counts of seats with a better and with a worse (score, tie-break)."""
        scores = self.scores(states).astype(np.float64)
        ties = np.zeros((len(states), self.max_players), dtype=np.int32)
        self.tiebreak_kernel(states, ties)
        key = np.where(present, scores * 1e6 + ties, -np.inf)  # scores and ties are small ints
        better = (key[:, None, :] > key[:, :, None]) & present[:, None, :]
        worse = (key[:, None, :] < key[:, :, None]) & present[:, None, :]
        return better.sum(axis=2), worse.sum(axis=2)

    def _has_result(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` bool: the game ended with a result (not cut by a cap scored as no result)."""
        has_result = states["done"].copy()
        if self.no_result_fn is not None:
            has_result &= ~self.no_result_fn(states)
        return has_result

    # ---- planning support ----------------------------------------------------
    def reseed(self, states: np.ndarray, seeds) -> None:
        """Give each game a new chance generator and drop scripted outcomes.

        Search agents call this on a cloned state so that their simulations do
        not see the real upcoming shuffles and dice. Nothing observable changes.
        """
        self._check_states(states, writeable=True)
        states["rng"] = _seed_array(seeds, len(states))
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
        self._check_states(states)
        seats = self._check_seats(states, seats, "observer seats")
        return self.resample_hidden_fn(states, seats, _seed_array(seeds, len(states)))

    @staticmethod
    def clone(states: np.ndarray) -> np.ndarray:
        """An independent copy that replays the same future."""
        return states.copy()

    # ---- names, text, pictures -----------------------------------------------
    def action_to_string(self, state, action: int) -> str:
        """Short readable name of ``action`` in ``state`` (one record)."""
        action = self.check_action_id(action)
        return self.action_to_string_fn(self._record(state), action)

    def string_to_action(self, state, text: str) -> int:
        """The action whose ``action_to_string`` is ``text`` (legal actions first)."""
        record = self._record(state)
        if not isinstance(text, str):
            raise TypeError(f"{self.name}: an action name is a string, got {type(text).__name__} {text!r}")
        mask = self.legal_mask(np.array([record]))[0]
        order = list(np.flatnonzero(mask)) + list(np.flatnonzero(mask == 0))
        for action in order:
            if self.action_to_string_fn(record, int(action)) == text:
                return int(action)
        legal = [self.action_to_string_fn(record, int(a)) for a in np.flatnonzero(mask)]
        raise ValueError(f"no action named {text!r}; legal actions: {legal}")

    def legal_action_strings(self, state) -> list[str]:
        """Names of the legal actions of one record."""
        record = self._record(state)
        mask = self.legal_mask(np.array([record]))[0]
        return [self.action_to_string_fn(record, int(a)) for a in np.flatnonzero(mask)]

    def render_ansi(self, state) -> str:
        """The text board of one record."""
        return self.render_ansi_fn(self._record(state))

    def render_rgb(self, state) -> np.ndarray:
        """An ``(H, W, 3)`` uint8 picture of one record."""
        return self.render_rgb_fn(self._record(state))

    # ---- saving and checking --------------------------------------------------
    def to_json(self, state) -> str:
        """A readable JSON document of one record (field names as keys)."""
        return serialize.to_json(self.name, self._record(state))

    def from_json(self, text: str) -> np.ndarray:
        """A ``(1,)`` batch loaded from ``to_json`` output, validated field by field.

        Raises ``ValueError`` naming every problem (unknown game, missing or extra
        fields, wrong shapes or types, out-of-range or inconsistent values).
        """
        states = serialize.from_json(self.name, self.state_dtype, text)
        self.validate(states)
        return states

    def to_bytes(self, states: np.ndarray) -> bytes:
        """The raw bytes of a batch of records (``from_bytes`` loads them back)."""
        self._check_states(states)
        return states.tobytes()

    def from_bytes(self, data: bytes | bytearray | memoryview) -> np.ndarray:
        """A ``(B,)`` batch from ``to_bytes`` output, validated record by record before any kernel sees it.

        Raises ``TypeError`` for a non-bytes argument and ``ValueError`` for a length that is
        not a whole number of records or for any invalid record (``validate``).
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{self.name}: saved states are bytes, got {type(data).__name__}")
        data = bytes(data)
        if not data or len(data) % self.state_bytes:
            raise ValueError(f"{self.name}: {len(data)} bytes is not a whole number of records "
                             f"({self.state_bytes} bytes each)")
        states = np.frombuffer(data, dtype=self.state_dtype).copy()
        self.validate(states)
        return states

    def validate(self, states: np.ndarray) -> None:
        """Raise ``ValueError`` if any record is not a consistent game state.

        The core fields are checked first (``validate_core``); only records that pass
        reach the game's own ``validate_state_fn`` (whose job is to prove every index
        a kernel uses in range), and only records that pass both reach the kernels:
        every invariant must hold, an unfinished game must have a legal action and a
        finished one none. An exception raised by the game's function on a malformed
        record is reported as the record being invalid.
        """
        if not isinstance(states, np.ndarray) or states.dtype != self.state_dtype:
            raise TypeError(f"expected an array of {self.name} records, got "
                            f"{type(states).__name__} {getattr(states, 'dtype', '')}".rstrip())
        batch = np.atleast_1d(states).reshape(-1)
        for b, record in enumerate(batch):
            errors = self.validate_core(record)
            if not errors:
                try:
                    errors = list(self.validate_state_fn(record))
                except Exception as error:  # noqa: BLE001 - a malformed record, reported as such
                    errors = [f"the record cannot be checked ({type(error).__name__}: {error})"]
            if not errors:  # its indices are in range now: the kernels may look at it
                errors = self._kernel_errors(batch[b:b + 1])
            if errors:
                raise ValueError(f"{self.name} state {b} is invalid: " + "; ".join(errors))

    def _kernel_errors(self, one: np.ndarray) -> list[str]:
        """The checks that need the kernels, on a ``(1,)`` batch the game's own checks passed.

        Every invariant holds; an unfinished game has a legal action and a finished one none.
        """
        codes = np.zeros(1, dtype=np.int32)
        self.invariants_kernel(one, codes)
        if codes[0]:
            return [f"invariant {int(codes[0])}: {self.invariant_messages[codes[0]]}"]
        mask = np.zeros((1, self.n_actions), dtype=np.int8)
        self.legal_mask_kernel(one, mask)
        if bool(one["done"][0]) and mask.any():
            return ["a finished game has legal actions"]
        if not self.finished(one)[0] and not mask.any():
            return [f"the pending decision of seat {int(one['current'][0])} has no legal action"]
        return []

    def validate_core(self, record) -> list[str]:
        """Errors in the fields every record has (module docstring), checked before the game's own checks.

        Booleans must be stored as 0 or 1; ``num_players`` within the game's range;
        ``current`` a seat or -1; the decision counter non-negative and the cap at
        least 1; the scripted-chance queue within its array (``core.rng``).
        """
        errors = []
        raw = np.frombuffer(record.tobytes(), dtype=np.uint8)  # booleans as stored, not as numpy reads them
        for name in record.dtype.names:
            field_dtype, offset = record.dtype.fields[name][:2]
            if field_dtype.base == np.bool_ and raw[offset:offset + field_dtype.itemsize].max(initial=0) > 1:
                errors.append(f"field {name!r} holds a boolean that is neither 0 nor 1")
        n = int(record["num_players"])
        if not self.min_players <= n <= self.max_players:
            errors.append(f"num_players {n} is outside {self.min_players}..{self.max_players}")
        if not -1 <= int(record["current"]) < max(n, 0):
            errors.append(f"current {int(record['current'])} is neither -1 nor a seat 0..{n - 1}")
        if int(record["n_decisions"]) < 0 or int(record["max_decisions"]) < 1:
            errors.append(f"n_decisions {int(record['n_decisions'])} must be >= 0 and max_decisions "
                          f"{int(record['max_decisions'])} >= 1")
        capacity = record["forced"].shape[0]
        n_forced, pos = int(record["n_forced"]), int(record["forced_pos"])
        if not (0 <= n_forced <= capacity and 0 <= pos):
            errors.append(f"scripted chance: n_forced {n_forced} / forced_pos {pos} outside the queue of {capacity}")
        return errors

    def invariant_violations(self, states: np.ndarray) -> list[tuple[int, str]]:
        """``(game index, message)`` for every record that breaks an invariant."""
        self._check_states(states)
        codes = np.zeros(len(states), dtype=np.int32)
        self.invariants_kernel(states, codes)
        return [(int(b), self.invariant_messages[codes[b]]) for b in np.flatnonzero(codes)]

    # ---- checking actions ------------------------------------------------------
    def check_action_id(self, action) -> int:
        """``action`` as an int, or ``ValueError`` if it is not an integer in ``[0, n_actions)``.

        A 0-d integer array (what ``model.predict`` of stable-baselines3 returns for one observation, and
        what ``Discrete.contains`` accepts) counts as its integer.
        """
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{self.name}: action must be an integer, got {type(action).__name__} {action!r}")
        if not 0 <= int(action) < self.n_actions:
            raise ValueError(f"{self.name}: action {action} is out of range [0, {self.n_actions})")
        return int(action)

    def _check_actions(self, states: np.ndarray, actions) -> np.ndarray:
        if actions is None:
            raise ValueError(f"{self.name}: expected {len(states)} actions, got None")
        try:
            raw = np.asarray(actions)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{self.name}: actions must be an array of {len(states)} integers ({error})") from None
        if raw.shape == () and len(states) == 1:  # one game: a numpy integer scalar or 0-d array is its action
            raw = raw.reshape(1)
        if raw.shape != (len(states),):
            raise ValueError(f"{self.name}: expected {len(states)} actions, got shape {raw.shape}")
        if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
            raise ValueError(f"{self.name}: actions must be integers, got dtype {raw.dtype}")
        live = ~self.finished(states)
        bad = live & ((raw < 0) | (raw >= self.n_actions))  # compared before any cast: no wrap-around
        if bad.any():
            b = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{self.name}: action {raw[b]} of game {b} is out of range [0, {self.n_actions})")
        actions = np.where(live, raw, 0).astype(np.int64)
        masks = self.legal_mask(states)
        rows = np.arange(len(states))
        illegal = live & (masks[rows, np.clip(actions, 0, self.n_actions - 1)] == 0)
        if illegal.any():
            b = int(np.flatnonzero(illegal)[0])
            name = self.action_to_string_fn(states[b], int(actions[b]))
            legal = {int(a): self.action_to_string_fn(states[b], int(a)) for a in np.flatnonzero(masks[b])}
            raise ValueError(f"{self.name}: illegal action {actions[b]} ({name!r}) in game {b}; legal: {legal}")
        return actions


    def _check_states(self, states, writeable: bool = False) -> None:
        """``TypeError`` unless ``states`` is a 1-D array of this game's records (writeable if asked)."""
        if not isinstance(states, np.ndarray) or states.dtype != self.state_dtype:
            got = f"an array of dtype {states.dtype}" if isinstance(states, np.ndarray) else type(states).__name__
            raise TypeError(f"{self.name}: states must be an array of {self.name} records "
                            f"(Game.init, from_json, from_bytes), got {got}")
        if states.ndim != 1:
            raise ValueError(f"{self.name}: states must be a 1-D batch of records, got shape {states.shape}")
        if writeable and not states.flags.writeable:
            raise ValueError(f"{self.name}: states is read-only; step and reseed change records in place")

    def _check_seats(self, states: np.ndarray, seats, what: str) -> np.ndarray:
        """``seats`` as a contiguous int64 ``(B,)`` array of seats of each game, or ``ValueError``/``TypeError``."""
        raw = np.asarray(seats)
        if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
            raise TypeError(f"{self.name}: {what} must be integers, got {raw.dtype} {seats!r}")
        try:
            raw = np.broadcast_to(raw, (len(states),))
        except ValueError:
            raise ValueError(f"{self.name}: {what} of shape {raw.shape} do not match {len(states)} games") from None
        if np.any(raw < 0) or np.any(raw >= states["num_players"]):
            raise ValueError(f"{self.name}: {what} {raw.tolist()} out of range for num_players "
                             f"{states['num_players'].tolist()}")
        return np.ascontiguousarray(raw, dtype=np.int64)

    def _record(self, state):
        """The one record of ``state`` (``one_record``), checked to be of this game."""
        record = one_record(state)
        if getattr(record, "dtype", None) != self.state_dtype:
            raise TypeError(f"{self.name}: expected one {self.name} record, got {type(record).__name__} "
                            f"{getattr(record, 'dtype', '')}".rstrip())
        return record


def _check_out(name: str, out, shape: tuple, dtype) -> None:
    """``ValueError`` unless the output buffer ``out`` is a writeable C-contiguous array of ``shape`` and ``dtype``."""
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype \
            or not out.flags.c_contiguous or not out.flags.writeable:
        got = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"{name} must be a writeable C-contiguous {np.dtype(dtype)} array of shape {shape}, got {got}")


def _seed_array(seeds, n: int) -> np.ndarray:
    """``seeds`` (one integer or ``n`` integers) as a contiguous uint64 ``(n,)`` array; negatives wrap."""
    raw = np.asarray(seeds)
    if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
        raise TypeError(f"seeds must be integers (64-bit generator states), got {raw.dtype} {seeds!r}")
    try:
        raw = np.broadcast_to(raw, (n,))
    except ValueError:
        raise ValueError(f"seeds of shape {raw.shape} do not match {n} games") from None
    return np.ascontiguousarray(raw.astype(np.uint64))


def one_record(state):
    """The single record of ``state``: a record, a 0-d array, or a batch of exactly one."""
    if isinstance(state, np.ndarray) and state.shape != ():
        if state.shape != (1,):
            raise ValueError(f"expected one game record, got an array of shape {state.shape}")
        return state[0]
    return state[()] if isinstance(state, np.ndarray) else state
