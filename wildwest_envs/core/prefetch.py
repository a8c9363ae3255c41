"""Cache-line prefetch inside kernels: an array entry, or a whole record of a batch.

A batch loop works on one record after another. Where a record's step reads its lines one after the other
(each read decides the next), every line out of cache is a wait; prefetched while the loop works on an earlier
record, they arrive together. ``prefetch`` hints the line of one array entry, ``prefetch_whole_record`` every
line of one record of a batch (``core.engine.batch_kernels``' ``prefetch_ahead``: Wild West Express's step
fetches the record two ahead; measured on the 2-core AMD machine at B = 8192, the step alone, alternated with the
loop without it in one process, medians of 10 pairs: 1.4 → 2.4 M decisions/s on one thread and 2.7 → 4.6 M on two
on the idle machine, ahead in every pair; Colt Express and Way Out West gained nothing, and Way Out West lost 2%
at B = 1024, so they do not fetch). Rail's records are 30 KB: its kernels fetch only the lines their step will
read (``rail.rules.prefetch_record``, with ``rail.intrinsics.prefetch_field``). Neither changes a result; both
are no-ops in plain Python (``NUMBA_DISABLE_JIT``, quick start's plain twin).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types as nbtypes
from numba.core import cgutils
from numba.extending import intrinsic, overload

CACHE_LINE = 64  # bytes


def prefetch(array, index) -> None:
    """Hint the CPU to load the cache line of ``array[index]`` (1-D array, integer index) for reading, inside a
    kernel; no effect on results (LLVM's ``llvm.prefetch``), a no-op in plain Python. For the lines of the next
    record of a batch, which the loop would otherwise miss one after the other."""


def prefetch_whole_record(records, index) -> None:
    """Hint the CPU to load every cache line of ``records[index]`` (a 1-D array of records, an index inside it)
    for reading, inside a kernel; as ``prefetch``, for a whole record of a batch a few iterations ahead."""


def emit_prefetch(context, builder, address) -> None:
    """``llvm.prefetch`` (read, high locality, data cache) of ``address`` (for an intrinsic's code generation)."""
    i8p = ir.IntType(8).as_pointer()
    i32 = ir.IntType(32)
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                        "llvm.prefetch.p0")
    builder.call(fn, [builder.bitcast(address, i8p), i32(0), i32(3), i32(1)])


def _entry_address(context, builder, signature, args):
    """The address of ``array[index]`` (``signature.args``: a 1-D array and an integer)."""
    array = context.make_array(signature.args[0])(context, builder, value=args[0])
    index = context.cast(builder, args[1], signature.args[1], nbtypes.intp)
    return cgutils.get_item_pointer(context, builder, signature.args[0], array, [index], wraparound=False)


def _one_dimensional(array, index) -> bool:
    return isinstance(array, nbtypes.Array) and array.ndim == 1 and isinstance(index, nbtypes.Integer)


@intrinsic
def _prefetch(typingctx, array, index):
    """``llvm.prefetch`` of the address of ``array[index]``."""
    if not _one_dimensional(array, index):
        return None

    def codegen(context, builder, signature, args):
        emit_prefetch(context, builder, _entry_address(context, builder, signature, args))
        return context.get_dummy_value()

    return nbtypes.void(array, index), codegen


@intrinsic
def _prefetch_whole_record(typingctx, records, index):
    """``llvm.prefetch`` of every line of ``records[index]``: its first byte, every ``CACHE_LINE`` bytes after it
    and its last byte (the record's size is its type's)."""
    if not _one_dimensional(records, index) or not isinstance(records.dtype, nbtypes.Record):
        return None
    size = records.dtype.size
    offsets = sorted(set(range(0, size, CACHE_LINE)) | {size - 1})

    def codegen(context, builder, signature, args):
        base = builder.bitcast(_entry_address(context, builder, signature, args), ir.IntType(8).as_pointer())
        for offset in offsets:
            emit_prefetch(context, builder, builder.gep(base, [ir.IntType(64)(offset)]))
        return context.get_dummy_value()

    return nbtypes.void(records, index), codegen


@overload(prefetch, jit_options={"cache": True})
def _prefetch_overload(array, index):
    return lambda array, index: _prefetch(array, index)


@overload(prefetch_whole_record, jit_options={"cache": True})
def _prefetch_whole_record_overload(records, index):
    return lambda records, index: _prefetch_whole_record(records, index)
