"""What the games' rules engines share: batch kernels built from per-record kernels, and a record's start.

``start_record(state, seed, num_players, max_decisions)`` sets the fields every record has (``core.game``, the
``core.rng.RNG_FIELDS``) for a new game: the generator seeded, no scripted outcome, no decision taken, not done,
nobody to decide yet. A step counts its decision with ``count_decision``, which leaves a finished record alone;
an enumeration of the legal actions marks each with ``mark``, which only counts when given an empty row.

A game whose rules are written per record (``init_one``, ``legal_mask_one``, ``step_one`` and the per-seat
``scores`` / ``tiebreak`` of one record) gets its public batch kernels from ``batch_kernels``::

    init(states, seeds, options)   # options: the game's int64 vector (options.OPTIONS, slots data.OPT_*)
    legal_mask(states, out)        # int8 (B, A); all zeros for finished games
    step(states, actions)          # int64 (B,); finished games are skipped
    step_and_mask(states, actions, masks, draws)  # step, then the next legal masks and actions (core.kernels)
    scores(states, out)            # int32 (B, max players): the final score per seat, 0 for absent seats
    tiebreak(states, out)          # int32 (B, max players): the tie-break key per seat, higher is better

``init`` first copies the game's empty record (``core.fields.empty_record``: every field at its declared empty
value) over each record, so ``init_one`` sets up a clean record whatever the array held before (auto-reset reuses
records) and sets only what a deal decides. ``init``, ``legal_mask`` and ``step_and_mask`` run ``init_one``,
``legal_mask_one`` and ``step_one`` (then
``legal_mask_one`` unless ``masks`` is ``NO_MASKS``) on every record in parallel (``numba.prange``); ``step``
is plain Python; ``scores`` and ``tiebreak`` loop serially (a few adds per record). ``Game`` runs the serial build
of ``init`` for every batch (``core.kernels.serial``: a deal is rare next to the steps). The per-record kernels are
inlined into the loops (``_inlined``), so each loop compiles its record's call tree to machine code once.
A game of imperfect information gets its ``resample_hidden`` the same way from ``resample_one`` (``resampler``).

The loops below are templates: each game compiles its own copy, whose globals name that game's per-record
kernels, with its own ``__qualname__`` (``<rules module>.<kernel>``). numba's on-disk cache names its files after
the qualified name and keys them by the template's bytecode, so every game keeps its own cache files and a fresh
process loads them (a closure over the per-record kernels would not cache: numba keys a closure by its pickled
cells, and a pickled dispatcher differs from process to process). The cache is checked against this file only,
like any kernel whose helpers live in another file (docs/guides/developing.md, "Debugging"): clear it after
changing a game's per-record kernels or its empty values (compiled into ``init`` as a constant).
"""

from __future__ import annotations

import types
from typing import Callable, NamedTuple

import numpy as np
from numba import njit, prange

from .borrowed import UNCOUNTED
from .kernels import NO_DRAWS, NO_MASKS, dual, finished
from .prefetch import prefetch_whole_record
from .sampling import draw_legal

NOBODY = -1  # ``current`` of a record whose first decision is not posed yet


@njit(cache=True)
def start_record(state, seed: np.uint64, num_players: int, max_decisions: int) -> None:
    """Set the fields every record has for a new game: generator state ``seed`` and an empty scripted-chance
    queue (``core.rng``), ``num_players``, the decision cap ``max_decisions``, no decision taken, not done, and
    ``current`` nobody."""
    state["rng"] = seed
    state["n_forced"] = 0
    state["forced_pos"] = 0
    state["forced"][:] = 0
    state["num_players"] = num_players
    state["max_decisions"] = max_decisions
    state["n_decisions"] = 0
    state["done"] = False
    state["current"] = NOBODY


@njit(cache=True, inline="always")
def count_decision(state) -> bool:
    """Count the agent decision a step applies to a record (``n_decisions``); False, counting nothing, when the
    record is ``finished`` (``core.kernels``: a step leaves it alone)."""
    if finished(state):
        return False
    state["n_decisions"] += 1
    return True


@njit(cache=True, inline="always")
def mark(out: np.ndarray, a: int) -> None:
    """Mark action ``a`` legal in the mask row ``out``; an empty ``out`` only counts (a forced-action check)."""
    if out.shape[0] > 0:
        out[a] = 1


# The templates: their globals empty_record, init_one ... tiebreak_seats are the game's (``batch_kernels``), and each
# docstring's {spec} is what the game's kernel implements.
def _init(states: np.ndarray, seeds: np.ndarray, options: np.ndarray) -> None:
    """Set up every record and advance it to its first decision ({spec}).
    ``options``: the int64 vector that ``options.OPTIONS`` lays out."""
    for b in prange(states.shape[0]):
        states[b] = empty_record[0]  # noqa: F821
        init_one(states[b], seeds[b], options)  # noqa: F821


def _legal_mask(states: np.ndarray, out: np.ndarray) -> None:
    """out[b, a] = 1 for each legal action a of game b, all zeros when finished ({spec})."""
    for b in prange(states.shape[0]):
        legal_mask_one(states[b], out[b])  # noqa: F821


def _step_and_mask(states: np.ndarray, actions: np.ndarray, masks: np.ndarray, draws: np.ndarray) -> None:
    """Apply one legal action per unfinished game and advance to its next decision ({spec}).
    Given a row of ``masks`` per game (not ``NO_MASKS``), also writes each game's next legal mask there,
    while its record is still in cache, and given a generator per game in ``draws`` (not ``NO_DRAWS``),
    draws the game's next action from that mask into ``actions`` (``core.kernels``). A game that asks for it
    has each record's lines fetched ``PREFETCH_AHEAD`` records ahead (``core.prefetch``)."""
    fused = masks.shape[0] > 0
    drawn = fused and draws.shape[0] > 0
    n = states.shape[0]
    for b in prange(n):
        if PREFETCH_AHEAD > 0 and b + PREFETCH_AHEAD < n:  # noqa: F821 (a constant: no code where it is 0)
            prefetch_whole_record(states, b + PREFETCH_AHEAD)  # noqa: F821 (its lines load while earlier ones work)
        step_one(states[b], actions[b])  # noqa: F821
        if fused:
            legal_mask_one(states[b], masks[b])  # noqa: F821
            if drawn:
                actions[b] = draw_legal(masks[b], draws, b)


def _scores(states: np.ndarray, out: np.ndarray) -> None:
    """The {spec} of each seat, 0 for absent seats."""
    for b in range(states.shape[0]):  # cheap: serial, to save the compile time of a parallel kernel
        score_seats(states[b], out[b])  # noqa: F821


def _tiebreak(states: np.ndarray, out: np.ndarray) -> None:
    """Tie-break key of each seat, higher is better ({spec}), 0 for absent seats."""
    for b in range(states.shape[0]):
        tiebreak_seats(states[b], out[b])  # noqa: F821


def _resample(states: np.ndarray, seats: np.ndarray, seeds: np.ndarray) -> None:
    """In place: redraw what ``seats[b]`` cannot see in record ``b``, reseeded from ``seeds[b]`` ({spec})."""
    for b in prange(states.shape[0]):
        resample_one(states[b], seats[b], seeds[b])  # noqa: F821


class BatchKernels(NamedTuple):
    """A game's public batch kernels (the module docstring)."""

    init: Callable
    legal_mask: Callable
    step_and_mask: Callable
    step: Callable
    scores: Callable
    tiebreak: Callable


def _game_copy(template, bound: dict, module: str, spec: str):
    """``template`` reading its globals from ``bound``, in ``module`` under the qualified name
    ``<module>.<name>`` (the game's own numba cache files), its docstring citing ``spec``."""
    name = template.__name__.lstrip("_")
    copy = types.FunctionType(template.__code__, bound, name, template.__defaults__)
    copy.__qualname__ = f"{module}.{name}"
    copy.__module__ = module
    copy.__doc__ = template.__doc__.format(spec=spec)
    return copy


def _inlined(kernel):
    """A per-record numba kernel as a batch loop calls it: inlined into the loop (numba IR), so that the kernel's
    whole call tree is optimized and compiled to machine code once, in the loop, and not a second time as a
    function of its own that no loop would call (about half of a kernel's compile time is that last step)."""
    return njit(inline="always")(getattr(kernel, "py_func", kernel))


def batch_kernels(module: str, empty_record: np.ndarray, init_one, legal_mask_one, step_one, score_seats,
                  tiebreak_seats, *, init: str, legal_mask: str, step_and_mask: str, scores: str,
                  tiebreak: str, prefetch_ahead: int = 0, uncounted: bool = False) -> BatchKernels:
    """The batch kernels of the game whose rules module is ``module`` (its ``__name__``).

    Args:
        module: the rules module's name; the kernels report it as their ``__module__``.
        empty_record: the game's record with every field empty (``core.fields.empty_record``), an array of one.
        init_one, legal_mask_one, step_one, score_seats, tiebreak_seats: the game's numba per-record kernels
            ``init_one(state, seed, options)``, ``legal_mask_one(state, out_row)``, ``step_one(state, action)``,
            ``score_seats(state, out_row)``, ``tiebreak_seats(state, out_row)``.
        init, legal_mask, step_and_mask, scores, tiebreak: what the game's kernel implements, cited in its
            docstring (spec sections; for ``scores`` and ``tiebreak`` what the score and the key are).
        prefetch_ahead: ``step_and_mask`` fetches every line of the record this many ahead (``core.prefetch``);
            0: none. Measured per game: it pays where a step misses its record's lines one after the other.
        uncounted: ``init``, ``legal_mask`` and ``step_and_mask`` and everything they call compile without
            reference counting (``core.borrowed.UNCOUNTED``): numba then refuses a helper of theirs that allocates
            an array (scratch space lives in the record). Random play 5-14% faster in the three games that use it
            (one thread, B = 1024, alternated runs on the 2-core machine).

    Returns:
        ``init``, ``legal_mask`` and ``step_and_mask`` compiled ``cache=True, parallel=True`` (and ``uncounted``),
        ``scores`` and ``tiebreak`` compiled ``cache=True``, and ``step``, ``step_and_mask`` without masks.
    """
    bound = {"__builtins__": __builtins__, "prange": prange, "empty_record": empty_record,
             "init_one": _inlined(init_one), "legal_mask_one": _inlined(legal_mask_one),
             "step_one": _inlined(step_one), "draw_legal": draw_legal, "score_seats": score_seats,
             "tiebreak_seats": tiebreak_seats, "prefetch_whole_record": prefetch_whole_record,
             "PREFETCH_AHEAD": prefetch_ahead}

    def build(template, spec: str, parallel: bool, **options):
        return njit(cache=True, parallel=parallel, **options)(_game_copy(template, bound, module, spec))

    counting = UNCOUNTED if uncounted else {}  # of the deal, masks and step
    step_and_mask_kernel = build(_step_and_mask, step_and_mask, True, **counting)

    def step(states: np.ndarray, actions: np.ndarray) -> None:
        """``step_and_mask`` without masks, by the builds ``Game`` runs (``core.kernels.dual``: the serial build for a
        small batch, its chunks in parallel for a large one), so a direct caller compiles no third build."""
        dual(step_and_mask_kernel)(states, actions, NO_MASKS, NO_DRAWS)

    step.__module__, step.__qualname__ = module, "step"
    return BatchKernels(init=build(_init, init, True, **counting),
                        legal_mask=build(_legal_mask, legal_mask, True, **counting),
                        step_and_mask=step_and_mask_kernel, step=step, scores=build(_scores, scores, False),
                        tiebreak=build(_tiebreak, tiebreak, False))


def resampler(module: str, resample_one, dtype: np.dtype):
    """A game's ``resample_hidden(states, seats, seeds)`` built on its numba per-record kernel
    ``resample_one(state, seat, seed)``, which redraws in place what ``seat`` cannot see and reseeds the record
    (its batch loop: the ``_resample`` template, in both builds, ``dual``; ``module``: the game's ``hidden``
    module's name, as in ``batch_kernels``).

    The function returned copies the records, broadcasts one seat and one seed (or one per game),
    refuses a seat outside ``0 .. num_players - 1`` with ``ValueError`` and redraws the copies.
    """
    bound = {"__builtins__": __builtins__, "prange": prange, "resample_one": _inlined(resample_one)}
    redraw = dual(njit(cache=True, parallel=True)(_game_copy(_resample, bound, module, "module docstring")))

    def resample_hidden(states: np.ndarray, seats, seeds) -> np.ndarray:
        """New records, one per game, consistent with what ``seats[b]`` has observed.

        Args:
            states: ``(B,)`` records of the game (left unchanged).
            seats: the observing seat of each game (an integer or ``(B,)``).
            seeds: 64-bit generator state of each new record (an integer or ``(B,)``).

        Returns:
            A ``(B,)`` array of new records: the seat's observation of each is byte-identical to that of
            the original, every hidden part is redrawn at random (the game's ``hidden`` module) and the
            generator is reseeded.
        """
        out = np.array(states, dtype=dtype, copy=True).reshape(-1)
        # writeable copies: a read-only broadcast is another numba type, so another compilation (checks.kernel_array)
        seats = np.array(np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(out),)))
        seeds = np.array(np.broadcast_to(np.asarray(seeds, dtype=np.uint64), (len(out),)))
        if np.any(seats < 0) or np.any(seats >= out["num_players"]):
            raise ValueError(f"observer seats {seats.tolist()} out of range for num_players")
        redraw(out, seats, seeds)
        return out

    return resample_hidden
