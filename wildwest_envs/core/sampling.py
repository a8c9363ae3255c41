"""Uniform sampling of legal actions for batches of games (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernels import dual, lowest_bit
from .rng import game_seeds, mix64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 64  # the search for the k-th legal action skips whole chunks of this many actions by their count


@njit(cache=True, parallel=True)
def sample_legal(masks: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = a uniform legal action of row ``b`` (-1 for an all-zero row), drawn by ``draw_legal``.

    ``rng`` is one splitmix64 state per row, advanced in place, so the samples of
    a row do not depend on the batch size or the thread that draws them.
    """
    for b in prange(masks.shape[0]):
        out[b] = draw_legal(masks[b], rng, b)


@njit(cache=True, inline="always")
def draw_legal(row: np.ndarray, rng: np.ndarray, b: int) -> int:
    """A uniform legal action of the mask ``row`` (-1 when it has none), drawn with the splitmix64 state
    ``rng[b]``, which advances only when there is a legal action.

    Masks hold 0 and 1; the search counts 64 actions at a time (vectorized) and picks
    the k-th legal action of its chunk from a bit mask of the chunk, which matters
    for large action spaces (Rail: 1,797); a row of at most 128 actions (Colt Express,
    Way Out West) is read once into two bit masks and drawn from them. A game's step
    kernel draws the next action with it while the mask it has just written is in
    cache (``core.kernels``).
    """
    n_actions = row.shape[0]
    if n_actions <= 2 * _CHUNK:
        return _draw_from_two_words(row, rng, b)
    n_legal = 0
    for a in range(n_actions):
        n_legal += np.int64(row[a])  # an int64 sum in plain Python too (numpy keeps int8 + int as int8)
    if n_legal == 0:
        return -1
    rng[b] = np.uint64(rng[b]) + _GOLDEN
    hi = mix64(rng[b]) >> np.uint64(32)
    k = np.int64((hi * np.uint64(n_legal)) >> np.uint64(32))
    start = 0  # the k-th (from 0) legal action lies at or after start
    while start + _CHUNK <= n_actions:
        in_chunk = 0
        for a in range(start, start + _CHUNK):
            in_chunk += np.int64(row[a])
        if k < in_chunk:
            break
        k -= in_chunk
        start += _CHUNK
    return _kth_legal(row, start, min(start + _CHUNK, n_actions), k)


@njit(cache=True, inline="always")
def _draw_from_two_words(row: np.ndarray, rng: np.ndarray, b: int) -> int:
    """``draw_legal`` for a row of at most 128 actions: the same k-th legal action, from the row read once into
    two bit masks (actions 0-63 and 64-127)."""
    n_actions = row.shape[0]
    low = _chunk_bits(row, 0, min(_CHUNK, n_actions))
    high = _chunk_bits(row, _CHUNK, n_actions) if n_actions > _CHUNK else np.uint64(0)
    in_low = _bit_count(low)
    n_legal = in_low + _bit_count(high)
    if n_legal == 0:
        return -1
    rng[b] = np.uint64(rng[b]) + _GOLDEN
    hi = mix64(rng[b]) >> np.uint64(32)
    k = np.int64((hi * np.uint64(n_legal)) >> np.uint64(32))
    bits, start = low, 0
    if k >= in_low:
        bits, start, k = high, _CHUNK, k - in_low
    for _ in range(k):
        bits &= bits - np.uint64(1)
    return start + lowest_bit(bits)


@njit(cache=True, inline="always")
def _chunk_bits(row: np.ndarray, start: int, stop: int) -> np.uint64:
    """Bit i set when action ``start + i`` of the row is legal (at most 64 actions)."""
    bits = np.uint64(0)
    for i in range(stop - start):
        bits |= np.uint64(row[start + i] != 0) << np.uint64(i)
    return bits


@njit(cache=True, inline="always")
def _bit_count(x: np.uint64) -> int:
    """The number of set bits of a uint64 word (no multiplication, so no overflow in plain Python either)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return np.int64(x & np.uint64(0x7F))


@njit(cache=True, inline="always")
def _kth_legal(row: np.ndarray, start: int, stop: int, k: int) -> int:
    """The k-th (from 0) legal action in ``row[start:stop]`` (at most 64 actions), which holds more than k."""
    bits = _chunk_bits(row, start, stop)
    for _ in range(k):
        bits &= bits - np.uint64(1)
    return start + lowest_bit(bits)


_SAMPLE_LEGAL = dual(sample_legal)  # serial build for small batches (no thread-pool wake-up per call)


class LegalSampler:
    """Uniform random legal actions for a batch, seeded per row."""

    def __init__(self, batch_size: int, seed: int = 0):
        self.rng = game_seeds(seed ^ 0x5A5A5A5A, batch_size)
        self.out = np.zeros(batch_size, dtype=np.int64)

    def __call__(self, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (-1 for rows without any)."""
        _SAMPLE_LEGAL(masks, self.rng, self.out)
        return self.out

    def draw_rows(self, masks: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """One legal action for each of ``rows`` (indices into the batch) from those rows of ``masks``, each drawn
        with its row's generator (which advances as ``__call__`` would advance it); the other rows are left
        alone. For a batch whose steps draw the next actions themselves (``Game.step``'s ``draws``, with
        ``self.rng``), after some of its games were dealt again."""
        rng, out = self.rng[rows], np.empty(len(rows), dtype=np.int64)
        _SAMPLE_LEGAL(masks[rows], rng, out)
        self.rng[rows] = rng
        return out
