"""How numba's workers wait between kernels, unless the user chose otherwise (``core.threads``).

Importing ``wildwest_envs`` loads the TBB library pip installed, so that numba's
first choice of threading layer, TBB, is the one it runs; where OpenMP runs
instead, it sets ``GOMP_SPINCOUNT=1000`` before any thread pool starts (with GNU
OpenMP's default spin-wait, two threads ran the batched loop 5-100x slower than
one on a machine whose cores are shared). Each case runs in a fresh interpreter,
since numba picks its layer and OpenMP reads the variable once, when loaded.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

import pytest

from wildwest_envs.core.threads import TBB_LIBRARY, choose_waiting, load_pip_tbb

_PROBE = """
import ctypes, os, sys
import numpy as np
import wildwest_envs
import numba
from wildwest_envs.registry import get_game
numba.set_num_threads(2)
game = get_game("way_out_west_v0")
states = game.init_batch(64, 0)  # 64 games: the parallel build
game.step(states, np.argmax(game.legal_mask(states), axis=1))
print("ENV", os.environ.get("OMP_WAIT_POLICY", "-"), os.environ.get("GOMP_SPINCOUNT", "-"))
print("LAYER", numba.threading_layer())
sys.stdout.flush()
if numba.threading_layer() == "omp":
    ctypes.CDLL("libgomp.so.1").omp_display_env(1)  # the spin count OpenMP really uses, on stderr
"""


def _probe(**env_vars) -> tuple[dict, str]:
    """Run ``_PROBE`` in a fresh interpreter with the library's own choices (64 games run the parallel build) and
    ``env_vars``; OpenMP unless ``NUMBA_THREADING_LAYER`` is given."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "WILDWEST_SERIAL_BELOW", "NUMBA_THREADING_LAYER")}
    env.update({"NUMBA_THREADING_LAYER": "omp", **env_vars})
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True,
                         timeout=300)
    fields = dict(line.split(" ", 1) for line in out.stdout.splitlines() if line[:4] in ("ENV ", "LAYE"))
    return fields, out.stderr


def _tbb_installed() -> bool:
    try:
        importlib.metadata.distribution("tbb")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_tbb_from_pip_is_the_layer_numba_runs():
    """Where pip installed TBB (a dependency on Linux x86-64), numba's default choice runs it."""
    if not _tbb_installed():
        pytest.skip("tbb is not installed in this environment")
    fields, _ = _probe(NUMBA_THREADING_LAYER="default")
    assert fields["LAYER"] == "tbb"
    assert fields["ENV"] == "- 1000"  # set all the same, for OpenMP in the same process (torch)


def test_a_layer_the_user_names_is_kept():
    fields, _ = _probe(NUMBA_THREADING_LAYER="workqueue")
    assert fields["LAYER"] == "workqueue"


def test_choose_waiting_loads_tbb_only_where_numba_may_use_it():
    """``choose_waiting`` on an environment of its own: the spin count, and TBB loaded only for a layer that
    tries it; ``load_pip_tbb`` names the library it loaded."""
    env = {"NUMBA_THREADING_LAYER": "omp"}
    assert choose_waiting(env) is None and env["GOMP_SPINCOUNT"] == "1000"
    env = {"GOMP_SPINCOUNT": "7", "NUMBA_THREADING_LAYER": "default"}
    loaded = choose_waiting(env)
    assert env["GOMP_SPINCOUNT"] == "7" and loaded == load_pip_tbb()
    assert loaded is None or loaded.endswith(os.sep + TBB_LIBRARY)
    if _tbb_installed() and sys.platform.startswith("linux"):
        assert loaded is not None


def test_import_sets_a_short_spin_used_by_openmp():
    fields, stderr = _probe()
    assert fields["ENV"] == "- 1000"
    if fields["LAYER"] != "omp":
        pytest.skip(f"threading layer {fields['LAYER']}: no OpenMP wait policy to check")
    assert "GOMP_SPINCOUNT = '1000'" in stderr  # unset, libgomp spins 300000 times before sleeping


def test_user_wait_policy_is_kept():
    fields, stderr = _probe(OMP_WAIT_POLICY="ACTIVE")
    assert fields["ENV"] == "ACTIVE -"
    if fields["LAYER"] == "omp":
        assert "OMP_WAIT_POLICY = 'ACTIVE'" in stderr


def test_control_without_the_import_openmp_spins():
    """The probe can tell: OpenMP loaded before ``wildwest_envs`` keeps its default spin count."""
    script = ("import ctypes, numba; numba.set_num_threads(2); import wildwest_envs; "
              "print(numba.threading_layer()); ctypes.CDLL('libgomp.so.1').omp_display_env(1)")
    env = {k: v for k, v in os.environ.items()  # the library's own build choice: 64 games run the parallel build
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "WILDWEST_SERIAL_BELOW")}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True,
                         timeout=300)
    if out.stdout.strip() != "omp":
        pytest.skip("threading layer is not omp")
    assert "GOMP_SPINCOUNT = '1000'" not in out.stderr


def test_user_spin_count_is_kept():
    fields, stderr = _probe(GOMP_SPINCOUNT="5000")
    assert fields["ENV"] == "- 5000"  # a chosen spin count is kept
    if fields["LAYER"] == "omp":
        assert "GOMP_SPINCOUNT = '5000'" in stderr
