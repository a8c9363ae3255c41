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
``tiebreak`` kernels, so every game offers the same four ``reward_mode`` s:

* ``"win"`` (default): +1 to each winner (best score, then best tie-break; ties
  share the win), -1 to every other player;
* ``"rank"``: ``(players beaten - players beating you) / (N - 1)``, in [-1, 1];
* ``"score"``: the final score divided by the game's ``score_scale``;
* ``"margin"``: (the final score - the best other seat's score) / ``score_scale``:
  positive exactly when the seat out-scores everybody else, and a signal in every
  game, won or lost (the tie-break is not counted).

An unfinished game (or one cut by the decision cap) returns 0 to everybody. A
game may also declare finished games *capped* (its own turn cap: reported as
truncated, scores still stand) and *without result* (everybody gets 0).

Input checking: numba kernels do not check bounds, so every method checks what
it hands them first (``core.checks``) and raises ``TypeError`` / ``ValueError``
naming the problem. Loaded states (``from_json``, ``from_bytes``) are validated
before any kernel sees them (``core.validation``). Records a caller edits by hand
in memory are the caller's to ``validate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import batch, chance, checks, eventlog, records, serialize, validation
from .kernels import NO_DRAWS, NO_MASKS, dual, serial
from .layout import Layout
from .options import OptionTable
from .rng import game_seeds
from .raster import svg_to_rgb
from .svg import SPECTATOR

REWARD_MODES = ("win", "rank", "score", "margin")
INFORMATION = ("perfect", "imperfect")
CHANCE = ("sampled",)
DYNAMICS = ("sequential",)


def margins(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """``(B, P)`` float64: each present seat's value minus the best value of the other present seats (0 for the
    absent seats of ``present``, a ``(B, P)`` bool array; every row holds at least two present seats)."""
    values = np.where(present, np.asarray(values, dtype=np.float64), -np.inf)
    order = np.sort(values, axis=1)
    best, second = order[:, -1:], order[:, -2:-1]
    best_other = np.where(values == best, second, best)  # a seat that holds the best value faces the next one
    return np.where(present, values - best_other, 0.0)


@dataclass(frozen=True)
class Game:
    """A game's rules engine bound to the batched functional API.

    Attributes:
        name: registered name with version, e.g. ``"colt_express_v0"``.
        state_dtype: numpy record dtype of one game.
        n_actions: size of the flat ``Discrete`` action space.
        obs_layout: named slices of the observation vector.
        min_players, max_players: supported player counts.
        options: the game's declared options (``core.options.OptionTable``): ``parse_options``
            validates keyword options and fills in the defaults, ``init`` passes them to the kernel as
            the table's int64 vector.
        init_kernel: ``(states, seeds, options int64) -> None`` sets up fresh games.
        legal_mask_kernel, step_kernel, observe_kernel, scores_kernel,
        tiebreak_kernel: the numba batch kernels (see the module docstring); ``step_kernel`` is
            ``(states, actions, masks, draws)``, ``masks`` either ``core.kernels.NO_MASKS`` or a ``(B, A)``
            buffer for the new legal masks, ``draws`` either ``core.kernels.NO_DRAWS`` or one generator
            state per game, with which the kernel draws each game's next action into ``actions``.
        action_to_string_fn: ``(state, action) -> str`` for any action id.
        render_ansi_fn: ``(state) -> str`` the text board of one record (read-only).
        draw_fn: ``(state, seat) -> str`` the SVG drawing of one record (its ``svg`` module's ``draw``):
            ``seat`` None (omniscient), a seat, or ``core.svg.SPECTATOR``; ``render_rgb`` rasterizes the
            spectator's drawing.
        validate_state_fn: ``(state) -> list[str]`` consistency errors of one record; it must check the
            range of every field a kernel uses as an index or loop bound before anything else.
        invariants_kernel: ``(states, out int32) -> None``; ``invariant_messages[code]``.
        score_scale: divisor of the ``"score"`` reward mode.
        resample_hidden_fn: ``(states, seats, seeds) -> states`` determinizer for search agents.
        capped_fn: ``(states) -> bool (B,)``: finished games (``done``) that the game's own cap
            ended; they count as truncated, not terminated (their scores still stand).
        no_result_fn: ``(states) -> bool (B,)``: finished games that give every player 0
            (e.g. a capped game scored as a draw).
        information: ``"imperfect"`` (seats hold secrets: ``resample_hidden_fn`` redraws them) or
            ``"perfect"`` (only future chance is unknown: ``resample_hidden`` reseeds copies), as
            OpenSpiel's ``GameType.information``.
        chance: ``"sampled"``: chance is drawn inside ``step`` from each record's generator, not posed as
            chance nodes; ``script`` fixes the next outcomes in the rules' terms (``core.chance``).
        dynamics: ``"sequential"``: one seat decides at a time (``current``).
        event_kinds: the game's ``core.eventlog.EventKinds`` (its ``eventlog`` module), read by
            ``step_with_events``; ``None`` for a game that reports no events yet.
        chance_kinds: the kinds of chance outcome drawn during play (``core.chance.Chance``), by which
            ``Game.script`` names them.
        position_fn: ``(**terms) -> states (1,)``: the game's position builder (its ``positions``
            module), behind ``Game.position``.
    """

    name: str
    state_dtype: np.dtype
    n_actions: int
    obs_layout: Layout
    min_players: int
    max_players: int
    options: OptionTable
    init_kernel: Callable
    legal_mask_kernel: Callable
    step_kernel: Callable
    observe_kernel: Callable
    scores_kernel: Callable
    tiebreak_kernel: Callable
    action_to_string_fn: Callable[[Any, int], str]
    render_ansi_fn: Callable[[Any], str]
    draw_fn: Callable[[Any, Any], str]
    validate_state_fn: Callable[[Any], list]
    invariants_kernel: Callable
    invariant_messages: tuple
    score_scale: float = 1.0
    resample_hidden_fn: Callable | None = field(default=None)
    capped_fn: Callable | None = field(default=None)
    no_result_fn: Callable | None = field(default=None)
    information: str = "imperfect"
    chance: str = "sampled"
    dynamics: str = "sequential"
    position_fn: Callable | None = field(default=None)
    chance_kinds: tuple = ()
    event_kinds: Any = None

    def __post_init__(self):
        for fact, allowed in (("information", INFORMATION), ("chance", CHANCE), ("dynamics", DYNAMICS)):
            if getattr(self, fact) not in allowed:
                raise ValueError(f"{self.name}: {fact} must be one of {allowed}, got {getattr(self, fact)!r}")
        if self.information == "imperfect" and self.resample_hidden_fn is None:
            raise ValueError(f"{self.name}: a game of imperfect information needs a resample_hidden_fn")
        # small batches (the PettingZoo adapter's batch of one) run serial builds (core.kernels); the deal and
        # the invariant check run rarely: their serial builds serve every batch (no parallel build to compile)
        for name in ("legal_mask_kernel", "step_kernel", "observe_kernel", "scores_kernel", "tiebreak_kernel"):
            object.__setattr__(self, name, dual(getattr(self, name)))
        for name in ("init_kernel", "invariants_kernel"):
            object.__setattr__(self, name, serial(getattr(self, name)))

    @classmethod
    def from_package(cls, name: str, package: str, **facts) -> "Game":
        """Bind a game package laid out as every game's is (DESIGN.md, the game recipe).

        The package ``package`` (e.g. ``"wildwest_envs.colt_express"``) provides the modules
        ``data`` (``N_ACTIONS``, ``MIN_PLAYERS``, ``MAX_PLAYERS``), ``state`` (``STATE_DTYPE``), ``options``
        (``OPTIONS``), ``rules`` (the batch kernels ``init``, ``legal_mask``, ``step_and_mask``, ``scores``,
        ``tiebreak``), ``observation`` (``OBS``, ``observe``), ``names`` (``action_to_string``), ``render``
        (``render_ansi``), ``svg`` (``draw``), ``invariants`` (``validate_state``, ``check_invariants``,
        ``INVARIANT_MESSAGES``), for a game of imperfect information ``hidden`` (``resample_hidden``) and,
        optionally, ``positions`` (``position``, the position builder) and ``eventlog`` (``EVENT_KINDS``).
        ``facts`` are the remaining fields (``score_scale``, ``information``, ``capped_fn``...).
        """
        import importlib
        import importlib.util

        def module(short: str):
            return importlib.import_module(f"{package}.{short}")

        data, rules, observation = module("data"), module("rules"), module("observation")
        render, invariants = module("render"), module("invariants")
        if facts.get("information", "imperfect") == "imperfect":
            facts.setdefault("resample_hidden_fn", module("hidden").resample_hidden)
        if importlib.util.find_spec(f"{package}.positions") is not None:
            facts.setdefault("position_fn", module("positions").position)
        if importlib.util.find_spec(f"{package}.eventlog") is not None:
            facts.setdefault("event_kinds", module("eventlog").EVENT_KINDS)
        return cls(name=name, state_dtype=module("state").STATE_DTYPE, n_actions=data.N_ACTIONS,
                   obs_layout=observation.OBS, min_players=data.MIN_PLAYERS, max_players=data.MAX_PLAYERS,
                   options=module("options").OPTIONS, init_kernel=rules.init, legal_mask_kernel=rules.legal_mask,
                   step_kernel=rules.step_and_mask, observe_kernel=observation.observe, scores_kernel=rules.scores,
                   tiebreak_kernel=rules.tiebreak, action_to_string_fn=module("names").action_to_string,
                   render_ansi_fn=render.render_ansi, draw_fn=module("svg").draw,
                   validate_state_fn=invariants.validate_state, invariants_kernel=invariants.check_invariants,
                   invariant_messages=invariants.INVARIANT_MESSAGES, **facts)

    def parse_options(self, **options) -> dict:
        """Every option of the game, validated, with the defaults filled in (``core.options``)."""
        return self.options.parse(**options)

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
        return self.init_from_vector(seeds.astype(np.uint64), self.options.kernel_vector(opts))

    def init_from_vector(self, seeds: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """``init`` without parsing: fresh games from uint64 generator states and the options as the kernels'
        int64 vector (``options.kernel_vector`` of parsed options), for a caller that deals the same options
        again and again (``core.runner.Dealer``: an auto-reset deal each step of a batch)."""
        states = np.zeros(len(seeds), dtype=self.state_dtype)
        self.init_kernel(states, seeds, vector)
        return states

    def position(self, **terms) -> np.ndarray:
        """A position set up in the game's own terms (its ``positions`` module documents them): a batch of one.

        The record is validated (``validate``) before it is returned, so ``step`` accepts it.

        Raises:
            NotImplementedError: the game has no position builder.
            ValueError, TypeError: unknown or impossible terms (the builder's own errors, or ``validate``'s).
        """
        if self.position_fn is None:
            raise NotImplementedError(f"{self.name} has no position builder")
        states = self.position_fn(**terms)
        self.validate(states)
        return states

    def script(self, states: np.ndarray, outcomes, then: str = "error") -> None:
        """Script the next chance outcomes of every game in ``states``, in the rules' terms (``core.chance``).

        ``outcomes``: ``(kind, outcome)`` pairs, e.g. ``[("die", 6), ("die", 2)]`` (kinds: ``chance_kinds``;
        a game with one kind also takes bare outcomes). They replace any earlier script and are used in the
        order the rules draw. ``then="error"``: a later step that needs one more draw raises ``ValueError``
        and changes nothing; ``then="random"``: the generator answers after the script.

        Raises:
            ValueError: an unknown kind, an impossible outcome, more outcomes than a record can queue.
        """
        self._check_states(states, writeable=True)
        values = chance.encode_script(self.chance_kinds, outcomes, self.name)
        chance.write_script(states, values, then, self.name)

    def init_batch(self, batch_size: int, seed: int = 0, offset: int = 0, **options) -> np.ndarray:
        """``batch_size`` fresh games: game ``i`` is seeded from ``(seed, offset + i)``."""
        for what, value in (("batch_size", batch_size), ("offset", offset)):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
        return self.init(game_seeds(seed, batch_size, offset), **options)

    def current_player(self, states: np.ndarray) -> np.ndarray:
        """Seat to decide in each game, -1 for finished games (ended, or at the decision cap)."""
        self._check_states(states)
        return np.where(self.finished(states), -1, states["current"].astype(np.int64))

    def legal_mask(self, states: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, n_actions)`` int8: 1 for each legal action (all 0 when finished)."""
        self._check_states(states)
        if out is None:
            out = np.zeros((len(states), self.n_actions), dtype=np.int8)
        else:
            checks.check_out("out", out, (len(states), self.n_actions), np.int8)
        self.legal_mask_kernel(checks.kernel_array(states), out)
        return out

    def step(self, states: np.ndarray, actions, check: bool = True, masks: np.ndarray | None = None,
             draws: np.ndarray | None = None) -> None:
        """Apply one action per game, in place; finished games are left alone.

        With ``check`` (the default) every action of an unfinished game must be
        an integer in ``[0, n_actions)`` and legal; otherwise ``ValueError``
        names the game, the action and the legal ones, and NO game is changed.
        The actions of finished games (ended, or at the decision cap) are ignored:
        the kernels leave them alone (``core.kernels.finished``), also on the
        fast path ``check=False`` for callers that sampled from the mask.
        With ``check``, a step that needs more chance outcomes than a game's
        script holds (``script`` with ``then="error"``) is a ``ValueError`` too.

        ``masks``: an int8 ``(B, n_actions)`` buffer that receives the legal
        masks of the new position, as ``legal_mask(states, out=masks)`` would
        give them, in the same pass over the batch (faster than a second call
        for big batches: ``core.kernels``).

        ``draws``: with ``masks`` and ``check=False``, a uint64 ``(B,)`` array of splitmix64
        generator states (``core.rng.game_seeds``, advanced in place): each game's next action is
        then drawn uniformly from its new mask into ``actions`` (a writeable C-contiguous int64
        ``(B,)`` array; -1 for an ended game), as ``core.sampling.sample_legal(masks, draws,
        actions)`` would draw it, in the same pass (random play and search rollouts).
        """
        self._check_states(states, writeable=True)
        if masks is not None:
            checks.check_out("masks", masks, (len(states), self.n_actions), np.int8)
        out = NO_MASKS if masks is None else masks
        if draws is not None:
            if masks is None or check:
                raise ValueError("draws needs masks and check=False: the next actions are drawn from the new masks "
                                 "of an unchecked step")
            checks.check_out("draws", draws, (len(states),), np.uint64)
            checks.check_out("actions", actions, (len(states),), np.int64)
        work = checks.kernel_array(states)  # a strided batch is stepped as a copy, written back
        if not check:
            actions = checks.kernel_array(np.asarray(actions, np.int64).reshape(-1))
            self.step_kernel(work, actions, out, NO_DRAWS if draws is None else draws)
        else:
            self.step_checked_chance(work, checks.check_actions(self, work, actions), out)
        if work is not states:
            states[...] = work

    def step_with_events(self, states: np.ndarray, actions) -> list:
        """``step`` (checked), returning what happened in each game: a list of ``core.eventlog.Event`` per game.

        The first call compiles the kernels once more for the logged records (``core.eventlog``); plain
        ``step`` never pays for events. Raises as ``step`` does (nothing changes), and ``NotImplementedError``
        for a game that reports no events.
        """
        if self.event_kinds is None:
            raise NotImplementedError(f"{self.name} reports no events yet")
        self._check_states(states, writeable=True)
        return self.step_logged(states, checks.check_actions(self, states, actions), NO_MASKS)

    def step_logged(self, states: np.ndarray, actions: np.ndarray, masks: np.ndarray) -> list:
        """``step_checked_chance`` on logged copies of ``states`` (``core.eventlog``): the events of each game.

        A game whose step writes more events than the buffer holds (``DEFAULT_CAPACITY``) is run again from the
        same record, on a copy, for the next rows (``events_from``), until every event is read: the buffer keeps
        one size, so the kernels compile for one logged record type whatever a step's length (a record type per
        buffer size would compile the game's kernels again, about 40 s for Rail's). The records and ``masks`` are
        those of the first run.
        """
        capacity = eventlog.DEFAULT_CAPACITY
        trial = eventlog.to_logged(states, capacity)
        self.step_checked_chance(trial, actions, masks)
        written = trial["n_events"].astype(np.int64)
        rows = [[trial["events"][b, :min(written[b], capacity)]] for b in range(len(states))]
        start = capacity
        while (later := np.flatnonzero(written > start)).size:
            again = eventlog.to_logged(states[later], capacity, events_from=start)
            self.step_checked_chance(again, actions[later], NO_MASKS)
            for i, b in enumerate(later):
                rows[b].append(again["events"][i, :min(written[b] - start, capacity)])
            start += capacity
        eventlog.from_logged(trial, states)
        return [self.event_kinds.decode(np.concatenate(rows[b]), int(states["num_players"][b]))
                for b in range(len(states))]

    def step_checked_chance(self, states: np.ndarray, actions: np.ndarray, masks: np.ndarray) -> None:
        """``step_kernel``, undone with a ``ValueError`` if a game drew past a script that had to last
        (``core.chance``); ``masks`` is then left as it was too."""
        scripted = states["n_forced"] > 0
        if not scripted.any():
            self.step_kernel(states, actions, masks, NO_DRAWS)
            return
        before, masks_before = batch.take(states, scripted), masks[scripted].copy() if len(masks) else None
        self.step_kernel(states, actions, masks, NO_DRAWS)
        over = chance.ran_out(states)
        if over.any():
            batch.put(states, scripted, before)
            if masks_before is not None:
                masks[scripted] = masks_before
            b = int(np.flatnonzero(over)[0])
            raise ValueError(f"{self.name} game {b}: the step needs more chance outcomes than were scripted "
                             f"(the script ran out); no game was changed. Script more with Game.script, or "
                             f"pass then='random' to let the generator answer after the script")

    def observe(self, states: np.ndarray, seats=None, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, obs_size)`` float32 observations of ``seats`` (default: the seat to act)."""
        self._check_states(states)
        if seats is None:
            seats = np.maximum(states["current"], 0)
        seats = self._check_seats(states, seats, "observer seats")
        if out is None:
            out = np.zeros((len(states), self.obs_size), dtype=np.float32)
        else:
            checks.check_out("out", out, (len(states), self.obs_size), np.float32)
        self.observe_kernel(checks.kernel_array(states), seats, out)
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
        self.scores_kernel(checks.kernel_array(states), out)
        return out

    def returns(self, states: np.ndarray, reward_mode: str = "win") -> np.ndarray:
        """``(B, max_players)`` float32 final rewards (0 unless the game has ended with a result).

        ``"win"``: +1 for each seat that no seat beats, -1 for the others; a game that every seat
        ties (a draw) gives 0 to every seat. ``"rank"``: (seats beaten - seats beating) / (N - 1).
        ``"score"``: the final score divided by the game's ``score_scale``. ``"margin"``: (the final score -
        the best other present seat's score) / ``score_scale``. Absent seats get 0.
        """
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {reward_mode!r}; choose one of {REWARD_MODES}")
        present = np.arange(self.max_players)[None, :] < states["num_players"][:, None]
        if reward_mode == "score":
            out = self.scores(states).astype(np.float64) / self.score_scale
        elif reward_mode == "margin":
            out = self._margins(states, present) / self.score_scale
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

    def _margins(self, states: np.ndarray, present: np.ndarray) -> np.ndarray:
        """``(B, max_players)`` float64: each seat's score minus the best score of the other present seats."""
        return margins(self.scores(states), present)

    def _beaten_counts(self, states: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(B, max_players)`` counts of seats with a better and with a worse (score, tie-break)."""
        scores = self.scores(states).astype(np.float64)
        ties = np.zeros((len(states), self.max_players), dtype=np.int32)
        self.tiebreak_kernel(checks.kernel_array(states), ties)
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
        states["rng"] = checks.seed_array(seeds, len(states))
        states["n_forced"] = 0
        states["forced_pos"] = 0

    def resample_hidden(self, states: np.ndarray, seats, seeds) -> np.ndarray:
        """New records consistent with what ``seats[b]`` has observed in game ``b``.

        Hidden parts are redrawn at random (``resample_hidden_fn``; a game of perfect information has
        none: its copies only get a new generator and no scripted outcomes) and the chance generator is
        reseeded from ``seeds``; ``states`` is left unchanged. Search agents plan on these records,
        never on the true ones.
        """
        self._check_states(states)
        seats = self._check_seats(states, seats, "observer seats")
        seeds = checks.seed_array(seeds, len(states))
        if self.resample_hidden_fn is not None:
            return self.resample_hidden_fn(states, seats, seeds)
        out = states.copy()  # perfect information: nothing to redraw but future chance
        out["rng"] = seeds
        out["n_forced"] = 0
        out["forced_pos"] = 0
        out["forced"] = 0
        return out

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
        """The action whose ``action_to_string`` is ``text`` (legal actions first).

        An exact name wins. Otherwise case and spacing are ignored (surrounding whitespace, runs of
        whitespace inside): ``"  SHOOT   doc "`` finds ``shoot Doc``. ``TypeError`` for a non-string;
        ``ValueError`` naming the text and the first legal actions (``checks.some_of``) when no action has
        the name, or naming the actions whose names differ from each other only by case or spacing when the
        text matches several. The record is only read.
        """
        record = self._record(state)
        if not isinstance(text, str):
            raise TypeError(f"{self.name}: an action name is a string, got {type(text).__name__} {text!r}")
        mask = self.legal_mask(np.array([record]))[0]
        order = [int(a) for a in np.flatnonzero(mask)] + [int(a) for a in np.flatnonzero(mask == 0)]
        names = {}
        for action in order:
            names[action] = self.action_to_string_fn(record, action)
            if names[action] == text:
                return action
        wanted = _folded(text)
        matches = [action for action in order if _folded(names[action]) == wanted]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ValueError(f"{self.name}: action name {text!r} is ambiguous: it matches "
                             f"{[names[a] for a in matches]} (ignoring case and spacing)")
        legal = [names[int(a)] for a in np.flatnonzero(mask)]
        raise ValueError(f"{self.name}: no action named {text!r}; legal actions: {checks.some_of(legal)}")

    def legal_action_strings(self, state) -> list[str]:
        """Names of the legal actions of one record."""
        record = self._record(state)
        mask = self.legal_mask(np.array([record]))[0]
        return [self.action_to_string_fn(record, int(a)) for a in np.flatnonzero(mask)]

    def render_ansi(self, state) -> str:
        """The text board of one record."""
        return self.render_ansi_fn(self._record(state))

    def draw(self, state, seat=None) -> str:
        """The SVG drawing of one record: the omniscient view (``seat=None``), what seat ``seat`` may know, or
        what every seat may know (``seat=core.svg.SPECTATOR``); deterministic text."""
        return self.draw_fn(self._record(state), seat)

    def render_rgb(self, state) -> np.ndarray:
        """An ``(H, W, 3)`` uint8 picture of one record: the spectator's SVG drawing (``draw``), rasterized
        (``core.raster``, the ``render`` extra), so it shows nothing private to a seat."""
        return svg_to_rgb(self.draw(state, SPECTATOR))

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

    def replay(self, record, every_state: bool = False) -> np.ndarray:
        """Play a game record (``core.records``: a ``GameRecord``, its JSON text or a file path) from its seed.

        Returns the final ``(1,)`` record, or every state from the deal on with ``every_state``.

        Raises:
            ValueError: a record of another game or version, a malformed one, an action out of turn or
                illegal, or a result that differs from the record's.
        """
        return records.replay(self, record, every_state)

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
        """Raise ``ValueError`` if any record is not a consistent game state (``core.validation``).

        The core fields are checked first (``validate_core``); only records that pass
        reach the game's own ``validate_state_fn`` (whose job is to prove every index
        a kernel uses in range), and only records that pass both reach the kernels:
        every invariant must hold, an unfinished game must have a legal action and a
        finished one none. An exception raised by the game's function on a malformed
        record is reported as the record being invalid.
        """
        validation.validate(self, states)

    def validate_core(self, record) -> list[str]:
        """Errors in the fields every record has (module docstring), checked before the game's own checks.

        Booleans must be stored as 0 or 1; ``num_players`` within the game's range;
        ``current`` a seat or -1; the decision counter non-negative and the cap at
        least 1; the scripted-chance queue within its array (``core.rng``).
        """
        return validation.validate_core(record, self.min_players, self.max_players)

    def invariant_violations(self, states: np.ndarray) -> list[tuple[int, str]]:
        """``(game index, message)`` for every record that breaks an invariant."""
        self._check_states(states)
        codes = np.zeros(len(states), dtype=np.int32)
        self.invariants_kernel(checks.kernel_array(states), codes)
        return [(int(b), self.invariant_messages[codes[b]]) for b in np.flatnonzero(codes)]

    # ---- checking input (core.checks) -------------------------------------------
    def check_action_id(self, action) -> int:
        """``action`` as an int, or ``ValueError`` if it is not an integer in ``[0, n_actions)``.

        A 0-d integer array (what ``model.predict`` of stable-baselines3 returns for one observation, and
        what ``Discrete.contains`` accepts) counts as its integer.
        """
        return checks.check_action_id(self.name, self.n_actions, action)

    def _check_states(self, states, writeable: bool = False) -> None:
        checks.check_states(self.name, self.state_dtype, states, writeable)

    def _check_seats(self, states: np.ndarray, seats, what: str) -> np.ndarray:
        return checks.check_seats(self.name, states, seats, what)

    def _record(self, state):
        return checks.check_record(self.name, self.state_dtype, state)


def _folded(name: str) -> str:
    """``name`` lower-cased, its whitespace runs made single spaces and stripped (``Game.string_to_action``)."""
    return " ".join(name.split()).lower()
