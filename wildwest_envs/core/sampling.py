"""Uniform sampling of legal actions for batches of games (numba)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from .borrowed import UNCOUNTED
from .kernels import dual, lowest_bit
from .rng import game_seeds, mix64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 64  # a row of at most 2 * _CHUNK actions is drawn from two bit masks (``_draw_from_two_words``)
_EVEN_BYTES = np.uint64(0x00FF00FF00FF00FF)


@njit(cache=True, parallel=True, **UNCOUNTED)
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

    Masks hold 0 and 1. A row of at most 128 actions (Colt Express, Way Out West) is read
    once into two bit masks and drawn from them; a longer one (Rail: 1,797) is read 8
    actions at a time (``load_word``): counted by adding up words lane by lane, then
    searched by blocks of 64 actions, words of 8 and the action in its word (Rail's rows:
    420 → 140 ns in cache, 520 → 235 ns from memory, measured on the 2-core machine). A
    game's step kernel draws the next action with it while the mask it has just written
    is in cache (``core.kernels``).
    """
    n_actions = row.shape[0]
    if n_actions <= 2 * _CHUNK:
        return _draw_from_two_words(row, rng, b)
    n_legal = _count_legal(row)
    if n_legal == 0:
        return -1
    rng[b] = np.uint64(rng[b]) + _GOLDEN
    hi = mix64(rng[b]) >> np.uint64(32)
    k = np.int64((hi * np.uint64(n_legal)) >> np.uint64(32))
    return _kth_legal(row, k)


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
def _count_legal(row: np.ndarray) -> int:
    """The legal actions of a 0/1 mask row, read 8 at a time (``load_word``): up to 255 words added up lane by lane
    (a byte lane cannot pass 255), then the lanes summed."""
    n_actions = row.shape[0]
    n_words = n_actions >> 3
    n_legal, w = 0, 0
    while w < n_words:
        stop = min(w + 255, n_words)
        lanes = np.uint64(0)
        for v in range(w, stop):
            lanes += load_word(row, v << 3)
        pairs = (lanes & _EVEN_BYTES) + ((lanes >> np.uint64(8)) & _EVEN_BYTES)  # four 16-bit lanes
        pairs += pairs >> np.uint64(16)
        pairs += pairs >> np.uint64(32)
        n_legal += np.int64(pairs & np.uint64(0xFFFF))
        w = stop
    for a in range(n_words << 3, n_actions):
        n_legal += np.int64(row[a])
    return n_legal


@njit(cache=True, inline="always")
def _kth_legal(row: np.ndarray, k: int) -> int:
    """The k-th (from 0) legal action of a 0/1 mask row that holds more than k: blocks of 64 actions skipped by
    their count, then words of 8, then the action in its word (a legal action is bit 0 of its byte)."""
    n_actions = row.shape[0]
    n_words = n_actions >> 3
    w = 0
    while w + 8 <= n_words:
        lanes = np.uint64(0)
        for v in range(w, w + 8):
            lanes += load_word(row, v << 3)
        in_block = _byte_sum(lanes)
        if k < in_block:
            break
        k -= in_block
        w += 8
    while w < n_words:
        word = load_word(row, w << 3)
        in_word = _byte_sum(word)
        if k < in_word:  # clear the k lowest legal actions' bits: the lowest bit left is the k-th's
            for _ in range(k):
                word &= word - np.uint64(1)
            return (w << 3) + (lowest_bit(word) >> 3)
        k -= in_word
        w += 1
    for a in range(n_words << 3, n_actions):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1  # not reached: the row holds more than k legal actions


@njit(cache=True, inline="always")
def _byte_sum(x: np.uint64) -> int:
    """The sum of the 8 bytes of a word whose sum is below 256 (shifts and adds: no overflow in plain Python)."""
    x += x >> np.uint64(8)
    x += x >> np.uint64(16)
    x += x >> np.uint64(32)
    return np.int64(x & np.uint64(0xFF))


def load_word(row, i):
    """The 8 values ``row[i:i + 8]`` of a 1-D array of 8-bit values as one little-endian uint64 (byte j is value
    ``i + j``). Compiled, a contiguous row is read by one unaligned 8-byte load (``_load_contiguous_word``); other
    rows byte by byte, as here in plain Python. ``i + 8`` must not pass the row's end: not bounds-checked."""
    word = 0
    for j in range(8):
        word |= (int(row[i + j]) & 0xFF) << (8 * j)
    return np.uint64(word)


@intrinsic
def _load_contiguous_word(typingctx, row, i):
    """One unaligned little-endian 8-byte load at ``&row[i]`` (LLVM ``load i64, align 1``)."""
    if not isinstance(row, types.Array) or row.ndim != 1 or row.layout != "C" or not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, value=args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        address = cgutils.get_item_pointer(context, builder, signature.args[0], array, [index], wraparound=False)
        return builder.load(builder.bitcast(address, ir.IntType(64).as_pointer()), align=1)

    return types.uint64(row, i), codegen


def _eight_bit(dtype) -> bool:
    return isinstance(dtype, types.Boolean) or getattr(dtype, "bitwidth", None) == 8


@overload(load_word, jit_options={"cache": True})
def _load_word_overload(row, i):
    if not isinstance(row, types.Array) or row.ndim != 1 or not _eight_bit(row.dtype):
        return None
    if row.layout == "C":
        return lambda row, i: _load_contiguous_word(row, i)

    def byte_by_byte(row, i):
        word = np.uint64(0)
        for j in range(8):
            word |= np.uint64(np.uint8(row[i + j])) << np.uint64(8 * j)
        return word

    return byte_by_byte


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
        ``self.rng``), after some of its games were dealt again. Drawn on the calling thread (a few rows: waking
        the worker threads would cost more)."""
        rng, out = self.rng[rows], np.empty(len(rows), dtype=np.int64)
        _SAMPLE_LEGAL.serial(masks[rows], rng, out)
        self.rng[rows] = rng
        return out
