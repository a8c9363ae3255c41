"""Numba kernels do not check array bounds: run random games with bounds checking switched on.

A separate process compiles every kernel with ``NUMBA_BOUNDSCHECK=1`` into its own
cache folder (so no unchecked build is reused) and plays a few thousand seeded random
games of every registered game at every player count, with the invariants checked
after every step. An out-of-range index then raises ``IndexError`` instead of
silently corrupting memory. Long games play fewer games (about the same number of
decisions per player count, ``DECISIONS_PER_COUNT``), never fewer than
``MIN_GAMES_PER_COUNT``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GAME_NAMES, random_game_length

DECISIONS_PER_COUNT = 50_000  # random decisions per player count (Colt Express: 500 games)
MIN_GAMES_PER_COUNT, MAX_GAMES_PER_COUNT = 50, 500

SCRIPT = """
import sys, numpy as np
from wildwest_envs.registry import get_game
from wildwest_envs.core.sampling import LegalSampler
game = get_game(sys.argv[1])
per_count = int(sys.argv[2])
for n in range(game.min_players, game.max_players + 1):
    states = game.init_batch(per_count, seed=n, num_players=n)
    states = np.concatenate([states, game.init_batch(4, seed=100 + n, num_players=n)])  # serial builds too
    sample = LegalSampler(len(states), n)
    for _ in range(int(states["max_decisions"].max()) + 1):
        if states["done"].all():
            break
        masks = game.legal_mask(states)
        game.step(states, sample(masks), check=False)
        game.observe(states)
        assert not game.invariant_violations(states)
    small = states[:4].copy()
    game.legal_mask(small); game.observe(small); game.returns(small)
    assert states["done"].all()
print("ok")
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_games_with_numba_bounds_checking(name, tmp_path):
    """Every kernel compiled with bounds checks plays random games at every player count without an index error."""
    per_count = int(DECISIONS_PER_COUNT // random_game_length(name)[0])
    per_count = min(max(per_count, MIN_GAMES_PER_COUNT), MAX_GAMES_PER_COUNT)
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-c", SCRIPT, name, str(per_count)], env=env, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")
