"""Uniform sampling of legal actions for batches of games (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernels import dual
from .rng import game_seeds, mix64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 64  # the search for the k-th legal action skips whole chunks of this many actions by their count


@njit(cache=True, parallel=True)
def sample_legal(masks: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = a uniform legal action of row ``b`` (-1 for an all-zero row).

    ``rng`` is one splitmix64 state per row, advanced in place, so the samples of
    a row do not depend on the batch size or the thread that draws them. Masks
    hold 0 and 1; the search counts 64 actions at a time (vectorized) before
    scanning one by one, which matters for large action spaces (Rail: 1,797).
    """
    for b in prange(masks.shape[0]):
        n_legal = 0
        for a in range(masks.shape[1]):
            n_legal += masks[b, a]
        if n_legal == 0:
            out[b] = -1
            continue
        rng[b] = np.uint64(rng[b]) + _GOLDEN
        hi = mix64(rng[b]) >> np.uint64(32)
        k = np.int64((hi * np.uint64(n_legal)) >> np.uint64(32))
        start = 0  # the k-th (from 0) legal action lies at or after start
        while start + _CHUNK <= masks.shape[1]:
            in_chunk = 0
            for a in range(start, start + _CHUNK):
                in_chunk += masks[b, a]
            if k < in_chunk:
                break
            k -= in_chunk
            start += _CHUNK
        for a in range(start, masks.shape[1]):
            if masks[b, a]:
                if k == 0:
                    out[b] = a
                    break
                k -= 1


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
