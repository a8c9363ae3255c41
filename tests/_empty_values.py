"""A check shared by the games' setup tests: a kernel that clears part of a record writes the declared empty values."""

from __future__ import annotations

import numpy as np


def assert_clears_to_empty_values(clear, empty_record: np.ndarray, at_least: int) -> list[str]:
    """Run ``clear(record)`` on a record of random bytes: every field it changes must now hold its declared empty
    value (``empty_record``, ``core.fields.empty_record``), and it must change at least ``at_least`` fields (so
    the check is not empty). Returns the names of the fields it changed."""
    dirty = np.frombuffer(np.random.default_rng(0).bytes(empty_record.dtype.itemsize), dtype=empty_record.dtype)
    cleared = dirty.copy()
    clear(cleared[0])
    changed = [name for name in empty_record.dtype.names if cleared[name].tobytes() != dirty[name].tobytes()]
    wrong = [name for name in changed if cleared[name].tobytes() != empty_record[name].tobytes()]
    assert not wrong, f"fields cleared to a value that is not their declared empty value: {wrong}"
    assert len(changed) >= at_least, changed
    return changed
