"""Batch kernels in two builds: parallel for big batches, serial for small ones.

Games write each batch kernel once, as a loop over its records (``prange``) marked
``@njit(cache=True, parallel=True)``; that decorator's own build never compiles. Starting
the thread pool costs far more than one game's work, so the PettingZoo adapter (a batch
of one) and small batches run the serial build, the Python function compiled without
``parallel`` (``prange`` is ``range`` there), and big batches its parallel build, the
serial build run on chunks of the batch on numba's threads (below). ``dual(kernel)``
returns a callable that picks the build by batch size; results are identical. Kernels
that run rarely (a game's deal, the invariant check) use ``serial(kernel)``, the serial
build for every batch size. Every build compiles on its first call, so a program
compiles only the builds its batch sizes use.

The threshold is ``SERIAL_BELOW`` (64 games), read at every call, so a
program may change it; the environment variable ``WILDWEST_SERIAL_BELOW``
sets it at import (the test suite raises it so that only the tests of the
parallel builds compile them, ``tests/conftest.py``).

The serial build is a copy of the function with its own ``__qualname__``
(``<name>_serial``), because numba's on-disk cache names its files after the
qualified name and does not key them by the ``parallel`` flag. It keeps the
kernel's ``UNCOUNTED`` option (``core.borrowed``: no reference counting).

Step and mask in one pass. A game's step kernel is ``step_and_mask(states,
actions, masks)``: after each record's step it writes that record's next legal
mask into ``masks[b]`` (unless ``masks`` is the empty ``NO_MASKS``). A batched
loop needs the mask of every new decision, and a record of a big batch is out
of cache again by the time a separate ``legal_mask`` pass reaches it (a Rail
record is 30 KB: a batch of 8192 is 250 MB); written by the same loop
iteration, the record is still in cache. ``Game.step(..., masks=out)`` uses it.
The kernel is ``step_and_mask(states, actions, masks, draws)``: given one
splitmix64 state per game in ``draws`` (not the empty ``NO_DRAWS``) as well, it
then draws each game's next action uniformly from the mask it has just written,
while that row is still in cache (``core.sampling.draw_legal``, -1 for an
ended game), into ``actions[b]``: random play and search rollouts
(``Game.step(..., masks=out, draws=rng)``) make one call a move instead of three
(``legal_mask``, ``sample_legal``, ``step``). Measured on the 2-core machine: the
searches' small batches 0-12% faster a decision (Colt Express ``mcts:200`` level,
``mcts+pretrained:200`` 12%, Way Out West ``mcts:200`` 7%); at B = 8192, where the
separate sampler reads every mask back from memory, no gain above the run-to-run
noise (about ±20% on that machine), so ``benchmarks/throughput.py`` keeps the
separate pass of its earlier tables.

The parallel build runs the serial build on chunks of records. A batch kernel's parallel build is a small ``prange``
loop over chunks of the batch that calls the serial build on each chunk's slice of the per-record arguments
(``_chunk_loop``), through a function pointer (numba's first-class functions: ``CompileResultWAP``). Built so, the
rules compile once, in the serial build: numba compiled a ``prange`` loop with a game's step inlined again, and a
loop that calls a compiled function links that function's whole call tree into its own module and optimizes it
again, while a call through a pointer links nothing (Wild West Express's parallel ``step_and_mask``: 10.4 s of
compile time, the loop through a pointer 0.6 s; every kernel of a game cold, run side by side: Wild West Express
59.8 → 36.0 s, Rail 65.2 → 38.0 s; measured on the 2-core AMD machine, 2026-12-07). The price: a step through the
pointer ran up to 10% slower than the same serial build called from Python, for reasons not found; the whole
random-play loop at B = 8192 on two threads, alternated in one process, lost 4% in Way Out West and nothing
measurable in Colt Express. A kernel's arguments are the per-record arrays first (the batch is their first axis,
sliced into chunks; ``masks`` and ``draws`` may be the empty ``NO_MASKS`` and ``NO_DRAWS``), then the arrays every
record reads whole, named in ``SHARED_ARGUMENTS`` (Rail's ``maps``, its observation's ``static`` and ``offsets``). A
kernel uses a record's index ``b`` only to index its per-record arguments (in a chunk, ``b`` counts from the chunk's
first record). On one thread the serial build runs the whole batch: there is nothing to share out.

Chunks. Each chunk is taken by whichever thread is free (numba's ``parallel_chunksize`` of 1 chunk, set around the
call by ``DualKernel``): about eight chunks per thread, at most ``RECORDS_PER_CHUNK`` records each
(``chunk_size``). Records cost very different times (a Rail record in an account-funded turn or a race costs many
times one in a plain build, a finished record nothing), and numba's default, one equal share per thread, left one
thread waiting for the other's expensive records. Measured on the 2-core machine (``benchmarks.throughput``'s
random-play loop, B = 8192, medians of 5 alternated runs of 2 s), 2 threads over 1, equal shares → chunks: Colt
Express 1.43× → 1.61×, Way Out West 1.58× → 2.02×, Wild West Express 1.49× → 1.88×, Rail 1.71× → 1.82× (2
threads: +4%, +10%, +24%, +9% decisions/s). Results do not depend on the chunks: each record's work is its own.

Waiting threads: how numba's workers wait between kernels (TBB, or OpenMP
spinning briefly) is set when ``wildwest_envs`` is imported (``core.threads``).

The decision cap. Every record counts its agent decisions (``n_decisions``) up
to its ``max_decisions``; a step kernel leaves a record alone once it is
``finished`` (ended by its rules, or at the cap unended: *truncated*), so every
caller, checked or raw, gets the cap without computing it again. No record
field is needed for "truncated by the cap": it is ``not done and n_decisions
>= max_decisions``, which no step changes afterwards.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import types

import numba
import numpy as np
from numba import njit, prange
from numba.core.types import CompileResultWAP

from .borrowed import borrowed


def _serial_below(default: int = 64) -> int:
    """``WILDWEST_SERIAL_BELOW`` from the environment (a positive integer), else ``default``."""
    text = os.environ.get("WILDWEST_SERIAL_BELOW", "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"WILDWEST_SERIAL_BELOW must be a positive integer (a batch size), got {text!r}")
    return int(text)


SERIAL_BELOW = _serial_below()  # batches smaller than this run the serial build
RECORDS_PER_CHUNK = 256  # the most records a thread of a parallel build takes at a time (module docstring)
SHARED_ARGUMENTS = frozenset({"options", "empty", "maps", "static", "offsets"})  # read whole by every record
NO_MASKS = np.zeros((0, 0), dtype=np.int8)  # the ``masks`` of a step kernel that writes no legal masks
NO_DRAWS = np.zeros(0, dtype=np.uint64)  # the ``draws`` of a step kernel that draws no next action
# (writeable like a caller's buffer: a read-only array is another numba type, so another compilation)


def _renamed_copy(py_func, suffix: str):
    copy = types.FunctionType(py_func.__code__, py_func.__globals__, py_func.__name__ + suffix,
                              py_func.__defaults__, py_func.__closure__)
    copy.__qualname__ = py_func.__qualname__ + suffix
    copy.__module__ = py_func.__module__
    copy.__doc__ = py_func.__doc__
    return copy


def _chunk_loop(py_func, names: list[str]):
    """The parallel build of the batch kernel ``py_func``: ``loop(kernel, size, *arguments)`` calls ``kernel``
    (the serial build, a first-class function) on chunks of ``size`` records in ``prange``, on each chunk's slice
    of the per-record arguments and the whole of the shared ones (module docstring). Its source is written from
    ``py_func``'s parameters and compiled as if in this file, where numba's cache keeps it (named
    ``<module>.<kernel>_chunks``, keyed by its bytecode and the serial build's signature). ``names``: its
    parameters."""
    rows = ", ".join(f"borrowed({name})" if name in SHARED_ARGUMENTS else f"borrowed({name}[lo:hi])" for name in names)
    source = (f"def {py_func.__name__}_chunks(kernel, size, {', '.join(names)}):\n"
              f"    n = {names[0]}.shape[0]\n"
              f"    for chunk in prange((n + size - 1) // size):\n"
              f"        lo = chunk * size\n"
              f"        hi = min(n, lo + size)\n"
              f"        kernel({rows})\n")
    namespace = {"prange": prange, "borrowed": borrowed, "__name__": py_func.__module__}
    exec(compile(source, __file__, "exec"), namespace)
    loop = namespace[f"{py_func.__name__}_chunks"]
    qualname = py_func.__qualname__  # with its module (one cache file per game: they all live in this file)
    if not qualname.startswith(py_func.__module__ + "."):
        qualname = f"{py_func.__module__}.{qualname}"
    loop.__qualname__ = qualname + "_chunks"
    return njit(cache=True, parallel=True)(loop)


def _type_key(argument):
    """What numba's type of a kernel argument depends on, cheap to compute (``numba.typeof`` of a Rail record
    array takes 0.6 ms)."""
    if isinstance(argument, np.ndarray):
        flags = argument.flags
        return argument.dtype, argument.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.aligned
    return numba.typeof(argument)


class DualKernel:
    """A batch kernel (first argument: the ``(B,)`` states) in serial and parallel builds (module docstring)."""

    def __init__(self, kernel):
        py_func = kernel.py_func
        counting = {key: value for key, value in kernel.targetoptions.items() if key == "_nrt"}  # core.borrowed
        self.serial = njit(cache=True, **counting)(_renamed_copy(py_func, "_serial"))
        names = list(inspect.signature(py_func).parameters)
        self.parallel = _chunk_loop(py_func, names)
        self.per_record = [name not in SHARED_ARGUMENTS for name in names]
        self.__doc__ = getattr(kernel, "__doc__", None)
        self.__name__ = getattr(kernel, "__name__", "kernel")
        self._compiled: dict = {}  # argument types -> the parallel build's entry point and the serial build

    def __call__(self, states, *args):
        """Run the serial build for small batches and on one thread, the parallel one otherwise, in chunks
        (``chunk_size``)."""
        if len(states) < SERIAL_BELOW:  # first: asking numba for its threads takes 0.6 µs, a batch of one 2-6 µs
            return self.serial(states, *args)
        threads = numba.get_num_threads()
        if threads < 2:
            return self.serial(states, *args)
        arguments = (states, *args)
        for argument, per_record in zip(arguments, self.per_record):
            if per_record and len(argument) not in (len(states), 0):
                raise ValueError(f"{self.__name__}: a per-record argument has {len(argument)} rows for "
                                 f"{len(states)} records")
        run_chunks, pointer = self._chunk_loop_for(arguments)
        previous = numba.set_parallel_chunksize(1)
        try:
            return run_chunks(pointer, chunk_size(len(states), threads), *arguments)
        finally:
            numba.set_parallel_chunksize(previous)

    def _chunk_loop_for(self, arguments) -> tuple:
        """The parallel build compiled for the types of ``arguments`` (its entry point: no dispatch on the types
        again, 20 µs a call) and the serial build compiled for them, as a first-class function."""
        key = tuple(_type_key(argument) for argument in arguments)
        if key not in self._compiled:
            types_ = tuple(numba.typeof(argument) for argument in arguments)
            self.serial.compile(types_)
            pointer = CompileResultWAP(self.serial.overloads[types_])
            loop_types = (numba.typeof(pointer), numba.types.int64, *types_)
            self.parallel.compile(loop_types)
            self._compiled[key] = (self.parallel.overloads[loop_types].entry_point, pointer)
        return self._compiled[key]


def chunk_size(batch: int, threads: int) -> int:
    """Records a thread of a parallel build takes at a time from a batch of ``batch`` records on ``threads``
    threads: about eight chunks per thread, at most ``RECORDS_PER_CHUNK`` and at least one; the whole batch on one
    thread (module docstring)."""
    if threads <= 1:
        return max(1, batch)
    return max(1, min(RECORDS_PER_CHUNK, batch // (8 * threads)))


def _is_parallel_build(kernel) -> bool:
    """``kernel`` is a numba dispatcher compiled with ``parallel=True``."""
    return hasattr(kernel, "py_func") and bool(getattr(kernel, "targetoptions", {}).get("parallel"))


_DUAL_OF: dict = {}  # parallel kernel -> its one DualKernel, so that a process holds one serial build of each


def dual(kernel):
    """Wrap a parallel numba batch kernel in a ``DualKernel``; pass anything else through unchanged (a plain
    function, a serial numba kernel: a serial copy of it would only compile the same code twice). Every call for
    one kernel returns the same ``DualKernel``: its serial build compiles (or loads from the cache) once."""
    if isinstance(kernel, DualKernel) or not _is_parallel_build(kernel):
        return kernel
    if kernel not in _DUAL_OF:
        _DUAL_OF[kernel] = DualKernel(kernel)
    return _DUAL_OF[kernel]


@contextlib.contextmanager
def on_calling_thread(batch: int):
    """Inside the ``with`` block, the kernels called on ``batch`` records run their serial build, on the thread
    that calls them (numba's thread count is 1 there, and ``DualKernel`` takes its serial build on one thread);
    restored after. Below ``SERIAL_BELOW`` records nothing changes: the serial build runs anyway, and numba's
    thread pool is not started for it.

    For the few rows a batched loop deals again after its games end (an auto-reset: ``core.runner.Dealer``): a
    fresh game's first mask costs less than waking the worker threads. Measured on the 2-core machine, 2 threads,
    100 fresh Colt Express games: their masks 12.6 → 4.7 µs (setting the thread count twice: 1.8 µs)."""
    if batch < SERIAL_BELOW:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def serial(kernel):
    """The serial build of a batch kernel, for every batch size (a serial kernel or a plain function unchanged).

    For kernels that run rarely next to the play itself (a game's deal, the invariant check): their parallel
    build would start the thread pool for milliseconds of run time. It is the serial build of ``dual``
    (the same ``<name>_serial`` cache files).
    """
    if isinstance(kernel, DualKernel):
        return kernel.serial
    if not _is_parallel_build(kernel):
        return kernel
    return dual(kernel).serial


@njit(cache=True, inline="always")
def finished(state) -> bool:
    """One record's episode is over: ended by its rules, or at the decision cap (a step changes nothing)."""
    return state["done"] or state["n_decisions"] >= state["max_decisions"]


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)  # count-trailing-zeros by de Bruijn multiplication
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i
_DEBRUIJN_INDEX.setflags(write=False)


@njit(cache=True)
def lowest_bit(word: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero uint64 word (bit sets of the kernels)."""
    low = word & (~word + np.uint64(1))
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]
