"""Numba kernels do not check array bounds: mutated saved states go through every kernel with bounds checking on.

The whole suite compiles its kernels with ``NUMBA_BOUNDSCHECK=1`` (``tests/conftest.py``, into the cache folder
``BOUNDSCHECK_CACHE``, never beside the sources), so an out-of-range index raises ``IndexError`` in whichever test
reaches it instead of silently corrupting memory. Random games of every game and player count go looking for one
through every kernel in ``tests/test_random_play_invariants.py``; this file loads saved states mutated field by
field and byte by byte (``tests._mutations``): every state that loads must go through every kernel without an index
error (the loader's validation must prove every index in range before a kernel sees it).
"""

from __future__ import annotations

import pytest

from tests._mutations import fuzz
from tests.conftest import GAME_NAMES
from wildwest_envs.registry import get_game

MUTATIONS = 600  # mutated saved states loaded per game


@pytest.fixture(scope="module", params=GAME_NAMES)
def mutation_results(request):
    """``(name, (accepted, refused, unsafe, inconsistent))`` of loading ``MUTATIONS`` mutated saved states of a
    game (``tests._mutations.fuzz``), with the suite's bounds-checked kernels."""
    return request.param, fuzz(get_game(request.param), 2, MUTATIONS, seed=0)


@pytest.mark.slow
def test_mutated_saved_states_that_load_are_safe_for_every_kernel(mutation_results):
    """Saved states mutated field by field and byte by byte: refused with a ValueError, or loaded and then run
    through every kernel (every seat, the determinizer, random moves) without an index error."""
    _, (accepted, refused, unsafe, _) = mutation_results
    assert accepted > 0 and refused > 0
    assert not unsafe, "\n".join(unsafe[:10])


@pytest.mark.slow
def test_random_moves_from_loaded_states_keep_every_invariant(mutation_results):
    """A mutated saved state that loads is consistent: random legal moves and redraws from it keep every invariant."""
    _, (_, _, _, inconsistent) = mutation_results
    assert not inconsistent, "\n".join(inconsistent[:10])
