"""Batch kernels in two builds: parallel for big batches, serial for small ones.

Games write each batch kernel once, as a ``prange`` loop compiled with
``@njit(cache=True, parallel=True)``. Starting the thread pool costs far more
than one game's work, so the PettingZoo adapter (a batch of one) and small
batches run a serial build of the same Python function instead (``prange`` is
``range`` there). ``dual(kernel)`` returns a callable that picks the build by
batch size; results are identical.

The serial build is a copy of the function with its own ``__qualname__``
(``<name>_serial``), because numba's on-disk cache names its files after the
qualified name and does not key them by the ``parallel`` flag.

Waiting threads. Importing ``wildwest_envs`` sets ``OMP_WAIT_POLICY=PASSIVE``
(unless ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` is already set), so numba's
OpenMP workers sleep between kernels instead of spinning. A batched loop runs
several short parallel kernels per decision with Python in between; with
GNU OpenMP's default spin-wait, on a machine whose cores are shared with other
work (a learner, other processes) two threads ran 5-100x *slower* than one, for
every game alike (measured on a loaded 2-core VM). Sleeping costs about 10 us
of wake-up per kernel launch instead. The setting takes
effect only if it precedes the loading of OpenMP (numba's first parallel call
or ``numba.set_num_threads``, or importing torch, which loads the same
``libgomp``): import ``wildwest_envs`` first, or export the variable.
"""

from __future__ import annotations

import types

from numba import njit

SERIAL_BELOW = 64  # batches smaller than this run the serial build


def _renamed_copy(py_func, suffix: str):
    copy = types.FunctionType(py_func.__code__, py_func.__globals__, py_func.__name__ + suffix,
                              py_func.__defaults__, py_func.__closure__)
    copy.__qualname__ = py_func.__qualname__ + suffix
    copy.__module__ = py_func.__module__
    copy.__doc__ = py_func.__doc__
    return copy


class DualKernel:
    """A batch kernel (first argument: the ``(B,)`` states) in parallel and serial builds."""

    def __init__(self, kernel):
        self.parallel = kernel
        py_func = getattr(kernel, "py_func", None)
        self.serial = njit(cache=True)(_renamed_copy(py_func, "_serial")) if py_func is not None else kernel
        self.__doc__ = getattr(kernel, "__doc__", None)
        self.__name__ = getattr(kernel, "__name__", "kernel")

    def __call__(self, states, *args):
        """Run the serial build for small batches, the parallel one otherwise."""
        if len(states) < SERIAL_BELOW:
            return self.serial(states, *args)
        return self.parallel(states, *args)


def dual(kernel):
    """Wrap a numba batch kernel (or pass a plain function through unchanged)."""
    if isinstance(kernel, DualKernel) or not hasattr(kernel, "py_func"):
        return kernel
    return DualKernel(kernel)
