"""The per-game random generator that lives inside each state record.

Every game record carries these fields (see ``RNG_FIELDS``):

* ``rng`` (uint64): the state of a splitmix64 generator. splitmix64 passes
  BigCrush, needs one 64-bit word, and is trivially cloned with the record.
* ``forced`` (int32, ``N_FORCED`` entries, or the length a game gives
  ``rng_fields``) and ``n_forced`` / ``forced_pos`` (int8): a
  small queue of scripted chance outcomes, consumed before the generator, so a
  rule test or a golden playthrough can fix a shuffle or a die exactly
  (DESIGN.md, "Scripted chance"). A forced value ``v`` answers the next
  ``draw_below(n)`` with ``v`` (it must satisfy ``0 <= v < n``; a larger value is
  reduced modulo ``n`` so a kernel never leaves its bounds). It is never part of
  an observation.

Seeds: ``game_seeds(seed, n, offset)`` derives the seed of game ``i`` from
``(seed, offset + i)`` alone, so a seed gives the same game whatever the batch
size, the position of the game in the batch or the number of threads.

All arithmetic is done on ``np.uint64`` values: numba turns a mix of signed and
unsigned 64-bit integers into float64, which would silently lose bits.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

N_FORCED = 16  # default capacity of the scripted-chance queue


def rng_fields(n_forced: int = N_FORCED) -> list:
    """The generator fields of a record, with a scripted-chance queue of ``n_forced`` entries (at most 127).

    Games whose rules need a longer queue (a spec that fixes its size) pass it here;
    every helper below works with any queue length.
    """
    if not 1 <= n_forced <= 127:
        raise ValueError(f"n_forced must be 1..127 (an int8 count), got {n_forced}")
    return [
        ("rng", np.uint64),  # splitmix64 state of this game
        ("forced", np.int32, (n_forced,)),  # scripted chance outcomes, consumed first
        ("n_forced", np.int8),  # number of entries in ``forced``
        ("forced_pos", np.int8),  # next entry of ``forced`` to consume
    ]


RNG_FIELDS = rng_fields(N_FORCED)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK64 = (1 << 64) - 1


@njit(cache=True)
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 output function (a bijection on 64-bit words)."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def next_u64(state) -> np.uint64:
    """Advance the record's generator and return 64 random bits."""
    s = np.uint64(state["rng"]) + _GOLDEN
    state["rng"] = s
    return mix64(s)


@njit(cache=True)
def draw_below(state, n: int) -> int:
    """A uniform integer in ``[0, n)``, scripted outcomes first (n >= 1)."""
    pos = state["forced_pos"]
    if pos < state["n_forced"]:
        state["forced_pos"] = pos + 1
        return np.int64(state["forced"][pos]) % np.int64(n)
    # multiply-shift on the high 32 bits: bias below 2**-32 * n, negligible here
    hi = next_u64(state) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle_prefix(state, values, n: int) -> None:
    """Shuffle ``values[:n]`` in place (Fisher-Yates, from the top down)."""
    for i in range(n - 1, 0, -1):
        j = draw_below(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


if config.DISABLE_JIT:  # plain Python: the same bits with Python ints, no overflow warnings

    def mix64(z):  # noqa: F811
        """The splitmix64 output function (a bijection on 64-bit words)."""
        return np.uint64(_mix_py(int(z)))

    def next_u64(state):  # noqa: F811
        """Advance the record's generator and return 64 random bits."""
        s = (int(state["rng"]) + 0x9E3779B97F4A7C15) & _MASK64
        state["rng"] = s
        return np.uint64(_mix_py(s))


def _mix_py(z: int) -> int:
    z &= _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _run_word(seed: int) -> int:
    """The mixed run seed that every game seed of the run starts from; ``TypeError`` for a non-integer."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__} {seed!r}")
    return _mix_py(int(seed) & _MASK64)


def game_seed(seed: int, index: int) -> int:
    """The generator state of game ``index`` of a run seeded with ``seed``."""
    return _mix_py(_run_word(seed) ^ (int(index) * 0x9E3779B97F4A7C15 & _MASK64))


def game_seeds(seed: int, n: int, offset: int = 0) -> np.ndarray:
    """Seeds of games ``offset .. offset+n-1`` of a run seeded with ``seed``: ``game_seed`` of each, computed on
    a uint64 array at once (a deal of a few games is called every step of a batch with auto-reset, where a
    Python loop over the games would cost more than the deal itself)."""
    return game_seeds_at(seed, np.arange(n, dtype=np.uint64) + np.uint64(int(offset) & _MASK64))


def game_seeds_at(seed: int, indices: np.ndarray) -> np.ndarray:
    """Seeds of the games numbered ``indices`` (non-negative integers, in any order) of a run seeded with ``seed``:
    ``game_seed`` of each, as ``game_seeds`` computes them."""
    index = np.asarray(indices).astype(np.uint64)
    with np.errstate(over="ignore"):  # uint64 arithmetic wraps, as game_seed's & _MASK64 does
        return _mix_array(np.uint64(_run_word(seed)) ^ (index * _GOLDEN))


def _mix_array(z: np.ndarray) -> np.ndarray:
    """``mix64`` of every word of a uint64 array (its body, on arrays: numba's build takes scalars only)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))
