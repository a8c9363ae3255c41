"""DESIGN.md: ``NUMBA_DISABLE_JIT=1`` runs the same kernels as plain Python (for pdb and coverage), with the same
games, in every game.

numba and numpy type integers differently: in a kernel ``0 + int8`` is an int64, in plain Python (numpy 2, NEP 50)
an int8 that wraps past 127. A kernel that relied on numba's widening ran, uncompiled, a different game (the
legal-action count of a 1,797-wide Rail mask) or raised (a Way Out West observation index). Each game plays the
same seeded random games both ways (``tests._plain_python_run``: records, masks, every seat's observation, scores,
returns, invariant checks and a determinization on the way) and the two digests must be equal.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GAME_NAMES

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = {"wild_west_express_v0": 300}  # steps per batch: whole games, but a part of Wild West Express's 2,600
DEFAULT_DECISIONS = 400  # whole games of Colt Express, Way Out West and Rail (plain Python Rail: 0.03 s a step)


def plain_python_digest(name: str, disable_jit: bool) -> str:
    """The digest ``tests._plain_python_run`` prints for ``name``, compiled or as plain Python."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-m", "tests._plain_python_run", name,
                           str(DECISIONS.get(name, DEFAULT_DECISIONS))], env=env, capture_output=True, text=True,
                          timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_kernels_run_as_plain_python_with_the_same_games(name):
    """The compiled kernels and the same functions as plain Python play identical seeded games."""
    compiled = plain_python_digest(name, disable_jit=False)
    assert len(compiled) == 64
    assert plain_python_digest(name, disable_jit=True) == compiled
