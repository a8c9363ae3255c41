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


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_mutated_saved_states_that_load_are_safe_for_every_kernel(name):
    """Saved states mutated field by field and byte by byte: refused with a ValueError, or loaded and then run
    through every kernel (every seat, the determinizer, random moves) without an index error."""
    accepted, refused, unsafe, inconsistent = fuzz(get_game(name), 2, MUTATIONS, seed=0)
    assert accepted > 0 and refused > 0
    assert not unsafe, "\n".join(unsafe[:10])
