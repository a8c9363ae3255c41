"""How numba's worker threads wait between kernels: Intel TBB where pip installed it, else OpenMP spinning briefly.

A batched loop runs a few short parallel kernels per decision with Python in between, so how the worker
threads wait between kernels decides what a second thread is worth. ``choose_waiting`` runs when
``wildwest_envs`` is imported, before numba starts its thread pool (numba's first parallel call or
``numba.set_num_threads``, or importing torch, which loads the same ``libgomp``: import ``wildwest_envs``
first, or export the variables).

**TBB** (numba's first choice of threading layer, fork- and thread-safe): its workers keep looking for work a
moment after a kernel and then sleep, which is what this loop wants on an idle machine and on a busy one. pip
installs TBB (the ``tbb`` dependency on Linux x86-64) into ``<prefix>/lib``, where numba's TBB layer does not look
for it: ``choose_waiting`` loads that library first, so numba finds it. Measured on the 2-core development VM
(B = 8192, random play, 2 threads over 1, best of two alternated runs each): idle, TBB 1.61× and 1.64×, OpenMP
with 1000 spins 1.46× and 1.39×, OpenMP with its default spin 1.74× (Colt Express); TBB against OpenMP with 1000
spins, Wild West Express 1.30× / 1.26×, Way Out West 1.72× / 1.75×, Rail 1.59× / 1.49×; with the other core
busy (a second process), TBB 0.92× and OpenMP with 1000 spins 0.94× (B = 1024: 0.87× against 0.75×),
where OpenMP's default spin fell to 0.1-0.3M decisions/s (5-100× slower than one thread).

**OpenMP** (where TBB is missing or ``NUMBA_THREADING_LAYER`` names another layer): ``GOMP_SPINCOUNT=1000``
(unless ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` is already set), so that the workers spin only briefly between
kernels and then sleep. With GNU OpenMP's default spin (300,000 iterations), on a machine whose cores are shared
with other work (a learner, other processes), two threads ran 5-100× *slower* than one, for every game alike.
Measured on the 2-core development machine (Colt Express, 2 threads, B = 1024 / 8192, decisions/s): idle,
default spin ~6.8M / 9.3M, 1000 spins 4.1M / 4.6M, passive sleep (``OMP_WAIT_POLICY=PASSIVE``) 2.1-2.3M /
4.1-4.6M; with one core busy elsewhere, default spin 0.1-0.3M, 1000 spins 2.0-2.3M / 3.0-3.9M, passive 2.7M /
3.1M, 10,000 spins 0.6M / 1.7M. Export ``GOMP_SPINCOUNT=300000`` on a machine of your own, or
``NUMBA_THREADING_LAYER=omp`` to leave TBB aside.

Play does not depend on the layer or the number of threads (each game is stepped by one thread;
``tests/test_determinism.py``).
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig

TBB_LIBRARY = "libtbb.so.12"  # the name numba's TBB layer links against (Linux)
_LAYERS_THAT_TRY_TBB = ("default", "tbb", "safe", "threadsafe", "forksafe")


def choose_waiting(environ=os.environ) -> str | None:
    """Set up the waiting of numba's worker threads (module docstring); returns the TBB library loaded, if any."""
    if "OMP_WAIT_POLICY" not in environ and "GOMP_SPINCOUNT" not in environ:
        environ["GOMP_SPINCOUNT"] = "1000"
    if environ.get("NUMBA_THREADING_LAYER", "default").lower() not in _LAYERS_THAT_TRY_TBB:
        return None
    return load_pip_tbb()


def load_pip_tbb() -> str | None:
    """Load the TBB library that pip installed into ``<prefix>/lib`` (the environment's, or the user's), so that
    numba's TBB layer finds it; the path loaded, or None (not Linux, not installed, or not loadable)."""
    if not sys.platform.startswith("linux"):
        return None
    for prefix in dict.fromkeys((sys.prefix, sysconfig.get_path("data"))):
        path = os.path.join(prefix, "lib", TBB_LIBRARY)
        if os.path.exists(path):
            try:
                ctypes.CDLL(path)
            except OSError:
                return None
            return path
    return None
