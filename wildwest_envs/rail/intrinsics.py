"""LLVM-level helper of Rail's kernels: a field's cache line (arrays without reference counting: ``core.borrowed``).

Rail's records are large (about 30 KB) and its kernels call many small helpers
with shared lookup tables, so two costs that the other games do not notice
show in its profile: numba's reference counting of every array a helper
receives, and the cache misses of the next record of a batch. ``core.borrowed``
removes the first; ``core.prefetch.prefetch`` (an array entry) and
``prefetch_field`` (a record's field, by name) hide the second. None changes a result; all are
no-ops in plain Python (``NUMBA_DISABLE_JIT``).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types as nbtypes
from numba.extending import intrinsic, overload

from ..core.prefetch import emit_prefetch


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
