"""``benchmarks/compile_profile.py``: numba's compile seconds per function, callees taken off their callers."""

from __future__ import annotations

import numba
from numba.core import event

from benchmarks.compile_profile import CompileRecorder, own_seconds


def test_own_seconds_take_each_callee_off_its_caller():
    rows = [("leaf", 1.0, 2), ("middle", 3.0, 1), ("other", 0.5, 1), ("top", 10.0, 0), ("leaf", 2.0, 0)]
    table = {name: (own, count, total) for name, own, count, total in own_seconds(rows)}
    assert table["top"] == (10.0 - 3.0 - 0.5, 1, 10.0)
    assert table["middle"] == (3.0 - 1.0, 1, 3.0)
    assert table["leaf"] == (1.0 + 2.0, 2, 3.0)  # two signatures: once as a callee, once on its own
    assert [row[0] for row in own_seconds(rows)] == ["top", "leaf", "middle", "other"]


def test_the_recorder_sees_a_caller_and_its_callee_compile():
    @numba.njit
    def callee(x):
        return x + 1

    @numba.njit
    def caller(x):
        return callee(x) * 2

    recorder = CompileRecorder()
    event.register("numba:compile", recorder)
    try:
        assert caller(3) == 8
        assert caller(3.5) == 9.0  # a second signature of both
    finally:
        event.unregister("numba:compile", recorder)
    names = [(name.rsplit(".", 1)[-1], depth) for name, _, depth in recorder.rows]
    assert names == [("callee", 1), ("caller", 0), ("callee", 1), ("caller", 0)]
    table = {name.rsplit(".", 1)[-1]: row for name, *row in own_seconds(recorder.rows)}
    assert table["caller"][1] == table["callee"][1] == 2 and table["caller"][2] > table["caller"][0] > 0
