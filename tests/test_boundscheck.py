"""Numba kernels do not check array bounds: run random games with bounds checking switched on.

The whole suite compiles its kernels with ``NUMBA_BOUNDSCHECK=1`` (``tests/conftest.py``, into the cache folder
``BOUNDSCHECK_CACHE``, never beside the sources); these tests are the ones that go looking for an index out of
range. A separate process (``tests._boundscheck_runs``), started with the same settings and so loading the
builds the game's other tests compiled, plays a few thousand seeded random
games of every registered game at every player count, with the invariants checked
after every step. An out-of-range index then raises ``IndexError`` instead of
silently corrupting memory. Long games play fewer games (about the same number of
decisions per player count, ``DECISIONS_PER_COUNT``), never fewer than
``tests._boundscheck_runs.MIN_GAMES_PER_COUNT``. The serial build of every kernel runs on live games (a big
batch and a batch of 4, as the PettingZoo env uses them; the parallel build indexes the same arrays the same
way, ``tests._boundscheck_runs``), every seat is observed in turn, and the determinizer, reseeding, scores and
the JSON round trip run mid-game.

A second test loads saved states mutated field by field and byte by byte
(``tests._mutations``) under bounds checking: every state that loads must go
through every kernel without an index error (the loader's validation must prove
every index in range before a kernel sees it).

The suite's two pytest-xdist workers keep these tests with the rest of their game's tests
(``conftest.xdist_group_of``), so the process finds the game's builds in the cache instead of compiling them
while the game's other tests compile the same ones on the other worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GAME_NAMES

DECISIONS_PER_COUNT = 50_000  # random decisions per player count (Colt Express: 500 games)
ROOT = Path(__file__).resolve().parent.parent
MUTATIONS = 600  # mutated saved states loaded per game

def run_bounds_checked(args: list[str], timeout: int = 1500, threads: int | None = None) -> subprocess.CompletedProcess:
    """``python -m tests._boundscheck_runs <args>`` with every kernel compiled with bounds checks (into
    ``BOUNDSCHECK_CACHE``: the settings ``tests/conftest.py`` exported, which the process inherits)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if threads is not None:
        env["NUMBA_NUM_THREADS"] = str(threads)
    return subprocess.run([sys.executable, "-m", "tests._boundscheck_runs", *args], env=env, capture_output=True,
                          text=True, timeout=timeout,
                          cwd=ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_games_with_numba_bounds_checking(name):
    """Every kernel compiled with bounds checks plays random games at every player count without an index error.

    The process sizes its games from the game's measured length (``tests._boundscheck_runs.games_per_count``),
    on its checked build: measured here, it would compile the unchecked kernels in this worker too."""
    result = run_bounds_checked(["random", name, str(DECISIONS_PER_COUNT)], threads=1)  # the other worker runs
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


@pytest.fixture(scope="module", params=GAME_NAMES)
def mutation_results(request):
    """``(name, results)`` of loading ``MUTATIONS`` mutated saved states of a game under bounds checking."""
    result = run_bounds_checked(["mutations", request.param, str(MUTATIONS)])
    assert result.returncode == 0, result.stderr[-3000:]
    return request.param, json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_mutated_saved_states_that_load_are_safe_for_every_kernel(mutation_results):
    """Saved states mutated field by field and byte by byte: refused with a ValueError, or loaded and then run
    through every kernel (every seat, the determinizer, random moves) without an index error."""
    name, results = mutation_results
    assert results["accepted"] > 0 and results["refused"] > 0
    assert not results["unsafe"], "\n".join(results["unsafe"][:10])


@pytest.mark.slow
def test_random_moves_from_loaded_states_keep_every_invariant(mutation_results):
    """A mutated saved state that loads is consistent: random legal moves and redraws from it keep every invariant."""
    name, results = mutation_results
    assert not results["inconsistent"], "\n".join(results["inconsistent"][:10])
