"""Arrays without reference counting inside a kernel: ``borrowed``, and helpers without any: ``UNCOUNTED``.

numba counts references to the arrays a compiled function receives or makes a view of: an atomic increment of the
array's counter on entry and a decrement on every exit. Where many calls share one array (a batch's output, a
lookup table, the slices of a batch that the threads of a parallel build work on) every call writes the same
cache line, and two threads take it from each other. A borrowed view has no owner, so counting it is a null test.
"""

from __future__ import annotations

from numba import types as nbtypes
from numba.core import cgutils
from numba.extending import intrinsic, overload

UNCOUNTED = {"_nrt": False}
"""``njit`` options of a hot helper that allocates nothing: numba then emits no reference counting in its body.

numba counts references to every array a function binds (its arguments, the views it takes, the arguments of a
helper it inlines): a call of ``NRT_incref`` on entry and of ``NRT_decref`` on exit, a function call even for a
``borrowed`` array (whose count it skips). In a helper called many times a step they add up: Rail's route search
takes 16 scratch arrays and inlines its heap operations, and these calls were 5% of Rail's random play (``perf``;
the caller of each sampled call read from the return address on its stack). Without them, the helper's arrays are
borrowed from its caller for the call. Such a helper cannot allocate (numba refuses to compile it): one that needs
scratch memory gets it from its caller (``rail.routes.route_seats``). ``_nrt`` is numba's own option (the runtime
that counts references; ``numba.core.options``). A helper compiled for an uncounted caller inherits the setting.
"""

COUNTED = {"_nrt": True}
"""``njit`` (or ``overload`` ``jit_options``) of a helper that allocates and is called from uncounted kernels (the
event log's end-of-game rows): it keeps numba's reference counting instead of inheriting its caller's
``UNCOUNTED``. It may allocate scratch arrays for itself, but must not return a new array (its caller could never
free it)."""


def borrowed(value):
    """``value`` (an array, or a tuple of arrays) as views that do no reference counting, inside a kernel.

    numba counts references to the arrays a compiled helper receives: an atomic
    increment of each array's counter on entry and a decrement on every exit
    (Rail's ``mark_steps`` did 11 of each when its map tables were a tuple of
    arrays; they are one record now, passed as a pointer, ``rail.maps``).
    Lookup tables passed as arguments and the output array of a batch are
    shared by every record, so every helper call of every thread writes the
    same few cache lines. A batch kernel borrows them instead: the views have
    no owner (their memory belongs to the caller for the whole call), so
    counting them is a null test. Borrow an array before the ``prange`` loop;
    borrow a tuple of arrays inside it, per record (numba's parfor lowering
    cannot pass a borrowed named tuple into the loop). Never return a borrowed
    array or keep it after the kernel returns. In plain Python
    (``NUMBA_DISABLE_JIT``) this returns ``value``.
    """
    return value


@intrinsic
def _borrowed(typingctx, value):
    """Copies of the array structs of ``value`` with a null meminfo (``borrowed``)."""
    members = [value] if isinstance(value, nbtypes.Array) else []
    if isinstance(value, nbtypes.BaseTuple):
        members = list(value)
    if not members or not all(isinstance(m, nbtypes.Array) for m in members):
        return None

    def codegen(context, builder, signature, args):
        def strip(array_type, array_value):
            array = context.make_array(array_type)(context, builder, value=array_value)
            array.meminfo = cgutils.get_null_value(array.meminfo.type)
            return array._getvalue()

        if isinstance(value, nbtypes.Array):
            return strip(value, args[0])
        items = [strip(t, builder.extract_value(args[0], i)) for i, t in enumerate(members)]
        return context.make_tuple(builder, value, items)

    return value(value), codegen


@overload(borrowed, jit_options={"cache": True})
def _borrowed_overload(value):
    return lambda value: _borrowed(value)
