"""LLVM-level helpers of Rail's kernels: arrays without reference counting, and cache-line prefetch.

Rail's records are large (about 30 KB) and its kernels call many small helpers
with shared lookup tables, so two costs that the other games do not notice
show in its profile: numba's reference counting of every array a helper
receives, and the cache misses of the next record of a batch. ``borrowed``
removes the first, ``prefetch`` (an array entry) and ``prefetch_field`` (a
record's field, by name) hide the second. None changes a result; all are
no-ops in plain Python (``NUMBA_DISABLE_JIT``).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types as nbtypes
from numba.core import cgutils
from numba.extending import intrinsic, overload


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


def prefetch(array, index) -> None:
    """Hint the CPU to load the cache line of ``array[index]`` (1-D array, integer index) for reading, inside a
    kernel; no effect on results (LLVM's ``llvm.prefetch``), a no-op in plain Python. For the lines of the next
    record of a batch, which the loop would otherwise miss one after the other."""


def prefetch_field(record, name: str) -> None:
    """Hint the CPU to load the cache line where the field ``name`` (a string constant) of ``record`` begins,
    inside a kernel; as ``prefetch``, for a record's scalar fields, named, wherever the dtype puts them."""


def _emit_prefetch(context, builder, address) -> None:
    """``llvm.prefetch`` (read, high locality, data cache) of ``address``."""
    i8p = ir.IntType(8).as_pointer()
    i32 = ir.IntType(32)
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                        "llvm.prefetch.p0")
    builder.call(fn, [builder.bitcast(address, i8p), i32(0), i32(3), i32(1)])


@intrinsic
def _prefetch(typingctx, array, index):
    """``llvm.prefetch`` of the address of ``array[index]``."""
    if not isinstance(array, nbtypes.Array) or array.ndim != 1 or not isinstance(index, nbtypes.Integer):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        idx = context.cast(builder, args[1], signature.args[1], nbtypes.intp)
        _emit_prefetch(context, builder,
                       cgutils.get_item_pointer(context, builder, signature.args[0], ary, [idx], wraparound=False))
        return context.get_dummy_value()

    return nbtypes.void(array, index), codegen


@intrinsic
def _prefetch_field(typingctx, record, name):
    """``llvm.prefetch`` of the first byte of the field ``name`` of ``record`` (a record is a pointer to its
    bytes; the field's offset is the record type's)."""
    if not isinstance(record, nbtypes.Record) or not isinstance(name, nbtypes.StringLiteral):
        return None
    offset = record.offset(name.literal_value)

    def codegen(context, builder, signature, args):
        base = builder.bitcast(args[0], ir.IntType(8).as_pointer())
        _emit_prefetch(context, builder, builder.gep(base, [ir.IntType(64)(offset)]))
        return context.get_dummy_value()

    return nbtypes.void(record, name), codegen


@overload(prefetch, jit_options={"cache": True})
def _prefetch_overload(array, index):
    return lambda array, index: _prefetch(array, index)


@overload(prefetch_field, prefer_literal=True, jit_options={"cache": True})
def _prefetch_field_overload(record, name):
    if isinstance(name, nbtypes.StringLiteral):
        return lambda record, name: _prefetch_field(record, name)
    return None
