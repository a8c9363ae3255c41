"""LLVM-level helpers of Rail's kernels: arrays without reference counting, and a field's cache line.

Rail's records are large (about 30 KB) and its kernels call many small helpers
with shared lookup tables, so two costs that the other games do not notice
show in its profile: numba's reference counting of every array a helper
receives, and the cache misses of the next record of a batch. ``borrowed``
removes the first; ``core.prefetch.prefetch`` (an array entry) and
``prefetch_field`` (a record's field, by name) hide the second. None changes a result; all are
no-ops in plain Python (``NUMBA_DISABLE_JIT``).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types as nbtypes
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ..core.prefetch import emit_prefetch


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


def prefetch_field(record, name: str) -> None:
    """Hint the CPU to load the cache line where the field ``name`` (a string constant) of ``record`` begins,
    inside a kernel; as ``prefetch``, for a record's scalar fields, named, wherever the dtype puts them."""


@intrinsic
def _prefetch_field(typingctx, record, name):
    """``llvm.prefetch`` of the first byte of the field ``name`` of ``record`` (a record is a pointer to its
    bytes; the field's offset is the record type's)."""
    if not isinstance(record, nbtypes.Record) or not isinstance(name, nbtypes.StringLiteral):
        return None
    offset = record.offset(name.literal_value)

    def codegen(context, builder, signature, args):
        base = builder.bitcast(args[0], ir.IntType(8).as_pointer())
        emit_prefetch(context, builder, builder.gep(base, [ir.IntType(64)(offset)]))
        return context.get_dummy_value()

    return nbtypes.void(record, name), codegen


@overload(prefetch_field, prefer_literal=True, jit_options={"cache": True})
def _prefetch_field_overload(record, name):
    if isinstance(name, nbtypes.StringLiteral):
        return lambda record, name: _prefetch_field(record, name)
    return None
