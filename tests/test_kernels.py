"""Helpers of the batch kernels: ``core.borrowed``, ``core.prefetch`` and the chunked search of
``core.sampling.sample_legal``."""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit, prange
from numba.core.errors import TypingError

from wildwest_envs.core.kernels import lowest_bit, serial
from wildwest_envs.core.prefetch import prefetch, prefetch_whole_record
from wildwest_envs.core.borrowed import borrowed
from wildwest_envs.rail.intrinsics import prefetch_field
from wildwest_envs.core.rng import _mix_py
from wildwest_envs.core.sampling import _bit_count, load_word, sample_legal


class _Tables(NamedTuple):
    a: np.ndarray
    b: np.ndarray


@njit(cache=True)
def _lookup(tables, i):
    return tables.a[i] + tables.b[i, 1]


@njit(cache=True, parallel=True)
def _through_borrowed(tables, out):
    rows = borrowed(out)
    for i in prange(out.shape[0]):
        rows[i, 0] = _lookup(borrowed(tables), i)
        rows[i, 1] = borrowed(tables.a)[i]


@njit(cache=True)
def _borrow_scalar(x):
    return borrowed(x)


def test_borrowed_views_read_and_write_the_callers_arrays():
    tables = _Tables(np.arange(100, dtype=np.int64), np.arange(200, dtype=np.int64).reshape(100, 2))
    out = np.zeros((100, 2), dtype=np.int64)
    _through_borrowed(tables, out)
    assert np.array_equal(out[:, 0], tables.a + tables.b[:, 1])
    assert np.array_equal(out[:, 1], tables.a)


def test_borrowed_in_plain_python_is_the_identity():
    tables = _Tables(np.zeros(2), np.zeros((2, 2)))
    assert borrowed(tables) is tables


def test_borrowed_rejects_what_is_not_arrays():
    with pytest.raises(TypingError):
        _borrow_scalar(3)


@njit
def _sum_with_prefetch(values: np.ndarray, rows: np.ndarray, ahead: int) -> int:
    total = 0
    for i in range(values.shape[0]):
        prefetch(values, min(i + ahead, values.shape[0] - 1))
        prefetch(rows[i % rows.shape[0]], 0)  # a row of a 2-D array, and an int8 array
        total += values[i]
    return total


def test_prefetch_changes_no_result_compiled_or_in_plain_python():
    values = np.arange(1000, dtype=np.int64)
    rows = np.zeros((7, 3), dtype=np.int8)
    assert _sum_with_prefetch(values, rows, 16) == values.sum()
    assert _sum_with_prefetch.py_func(values, rows, 16) == values.sum()
    assert prefetch(values, 5) is None


def test_prefetch_rejects_what_is_not_a_1d_array_and_an_index():
    with pytest.raises(TypingError):
        njit(lambda a: prefetch(a, 0))(np.zeros((2, 2)))
    with pytest.raises(TypingError):
        njit(lambda a: prefetch(a, 0.5))(np.zeros(2))


RECORD = np.dtype([("small", np.int8), ("table", np.int16, (300,)), ("last", np.uint64)])


@njit
def _sum_with_record_prefetch(records: np.ndarray, ahead: int) -> int:
    total = 0
    for i in range(records.shape[0]):
        if i + ahead < records.shape[0]:
            prefetch_whole_record(records, i + ahead)  # 609 bytes: 10 lines, most records straddling one more
        total += records[i]["last"] + records[i]["table"][299]
    return total


def test_prefetch_whole_record_changes_no_result_compiled_or_in_plain_python():
    records = np.zeros(50, dtype=RECORD)
    records["last"] = np.arange(50)
    records["table"][:, 299] = 7
    expected = int(records["last"].sum()) + 7 * 50
    assert _sum_with_record_prefetch(records, 2) == expected
    assert _sum_with_record_prefetch.py_func(records, 2) == expected
    assert prefetch_whole_record(records, 3) is None


def test_prefetch_whole_record_rejects_what_is_not_a_1d_array_of_records():
    with pytest.raises(TypingError):
        njit(lambda a: prefetch_whole_record(a, 0))(np.zeros(4))
    with pytest.raises(TypingError):
        njit(lambda a: prefetch_whole_record(a, 0))(np.zeros((2, 2), dtype=RECORD))


@njit
def _sum_with_field_prefetch(records: np.ndarray) -> int:
    total = 0
    for i in range(records.shape[0]):
        prefetch_field(records[min(i + 1, records.shape[0] - 1)], "last")  # a field 600 bytes into the record
        prefetch_field(records[i], "small")
        total += records[i]["last"]
    return total


def test_prefetch_field_changes_no_result_compiled_or_in_plain_python():
    """A field named by a string constant, wherever the dtype puts it; a no-op in plain Python."""
    records = np.zeros(9, dtype=RECORD)
    records["last"] = np.arange(9)
    assert _sum_with_field_prefetch(records) == _sum_with_field_prefetch.py_func(records) == 36
    assert prefetch_field(records[0], "last") is None


def test_prefetch_field_rejects_a_name_that_is_not_a_constant_or_not_a_record():
    with pytest.raises(TypingError):
        njit(lambda r, name: prefetch_field(r[0], name))(np.zeros(2, dtype=RECORD), "last")
    with pytest.raises(TypingError):
        njit(lambda a: prefetch_field(a, "last"))(np.zeros(2))


def _reference_sample(mask: np.ndarray, rng: int) -> tuple[int, int]:
    """The k-th legal action by a plain scan, with the sampler's generator step (before chunking)."""
    n_legal = int(mask.sum())
    if n_legal == 0:
        return -1, rng
    rng = (rng + 0x9E3779B97F4A7C15) & (2**64 - 1)
    k = ((_mix_py(rng) >> 32) * n_legal) >> 32
    return int(np.flatnonzero(mask)[k]), rng


@pytest.mark.parametrize("n_actions", [1, 59, 63, 64, 65, 73, 127, 128, 129, 136, 199, 553, 1797, 2047, 2100, 4111])
def test_sample_legal_chunked_search_matches_a_plain_scan(n_actions):
    """The k-th legal action of a plain scan, for rows read as two bit masks (at most 128 actions: Way Out West
    59, Colt Express 73) and rows read 8 actions at a time (Wild West Express 553, Rail 1,797; with tails of 1-7
    actions after the last word, and more than 255 words, which the count adds up in two rounds)."""
    gen = np.random.default_rng(n_actions)
    masks = (gen.random((400, n_actions)) < gen.choice([0.002, 0.05, 0.5, 1.0], size=(400, 1))).astype(np.int8)
    masks[::9] = 0
    rng = gen.integers(0, 2**63, size=400, dtype=np.uint64)
    expected = [_reference_sample(m, int(r)) for m, r in zip(masks, rng)]
    out = np.zeros(400, dtype=np.int64)
    serial(sample_legal)(masks, rng, out)
    assert out.tolist() == [a for a, _ in expected]
    assert rng.tolist() == [r for _, r in expected]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_])
def test_sample_legal_reads_strided_and_other_eight_bit_rows_as_contiguous_int8_rows(dtype):
    """Rows that are not contiguous (a column slice of the masks) are read byte by byte, rows of uint8 or bool
    as int8: the same draws as a plain scan."""
    gen = np.random.default_rng(7)
    wide = (gen.random((300, 1803)) < gen.choice([0.01, 0.3, 1.0], size=(300, 1))).astype(dtype)
    masks = wide[:, 3:]  # rows of 1,800 actions, 1,803 apart: layout "A" for numba
    assert not masks.flags.c_contiguous
    rng = gen.integers(0, 2**63, size=300, dtype=np.uint64)
    expected = [_reference_sample(m.astype(np.int8), int(r)) for m, r in zip(masks, rng)]
    out = np.zeros(300, dtype=np.int64)
    serial(sample_legal)(masks, rng, out)  # the build a sampler's rows run on (core.kernels.dual), for these types
    assert out.tolist() == [a for a, _ in expected]
    assert rng.tolist() == [r for _, r in expected]


def test_load_word_reads_eight_values_little_endian_compiled_and_in_plain_python():
    """``load_word``: the 8 bytes from index i as one little-endian uint64, by one load on a contiguous row, byte
    by byte on a strided one, and in plain Python; negative int8 values are their bytes."""
    gen = np.random.default_rng(8)
    row = gen.integers(-128, 128, size=40).astype(np.int8)
    strided = np.repeat(row, 2)[::2]  # the same values, 2 bytes apart
    compiled = njit(lambda r, i: load_word(r, i))
    for i in (0, 1, 7, 13, 32):
        expected = int.from_bytes(row[i:i + 8].tobytes(), "little")
        assert compiled(row, i) == compiled(strided, i) == load_word(row, i) == expected
        assert compiled(row.view(np.uint8), i) == expected


def test_lowest_bit_is_the_index_of_the_lowest_set_bit():
    """``lowest_bit`` of every single bit, and of words with higher bits set too."""
    rng = np.random.default_rng(3)
    for i in range(64):
        assert lowest_bit(np.uint64(1) << np.uint64(i)) == i
        high = np.uint64(rng.integers(0, 2**63)) << np.uint64(1)  # any bits, then cleared below i
        word = ((high >> np.uint64(i)) << np.uint64(i)) | (np.uint64(1) << np.uint64(i))
        assert lowest_bit(word) == i


def test_bit_count_counts_the_set_bits():
    """``_bit_count`` of random words of every density, compiled and in plain Python, is Python's count."""
    rng = np.random.default_rng(4)
    words = [0, 2**64 - 1] + [int(rng.integers(0, 2**63)) << 1 | 1 & int(rng.integers(0, 2)) for _ in range(200)]
    words += [int(np.bitwise_and.reduce(rng.integers(0, 2**63, size=k, dtype=np.uint64))) for k in (2, 3, 5)]
    compiled = njit(lambda w: _bit_count(w))
    for w in words:
        assert compiled(np.uint64(w)) == _bit_count.py_func(np.uint64(w)) == w.bit_count()


def test_sample_legal_draws_uniformly_over_chunk_boundaries():
    """Rows of 130 actions (chunks of 64 and a tail of 2) with legal actions on both sides of the boundaries:
    each is drawn about equally often, and nothing else."""
    legal = np.array([0, 63, 64, 65, 127, 128, 129])
    masks = np.zeros((20000, 130), dtype=np.int8)
    masks[:, legal] = 1
    out = np.zeros(len(masks), dtype=np.int64)
    serial(sample_legal)(masks, np.arange(len(masks), dtype=np.uint64), out)
    counts = np.bincount(out, minlength=130)
    assert set(np.flatnonzero(counts)) == set(legal)
    assert np.all(np.abs(counts[legal] - len(masks) / len(legal)) < 5 * np.sqrt(len(masks) / len(legal)))


def test_builds_compile_only_where_a_use_needs_them():
    """``dual`` wraps parallel kernels only (a serial kernel has no second build to compile); every game's deal
    and invariant check run their serial build for all batch sizes (``core.kernels.serial``)."""
    from wildwest_envs.colt_express import invariants, rules
    from wildwest_envs.core.kernels import DualKernel, dual
    from wildwest_envs.registry import GAMES, get_game

    assert dual(rules.scores) is rules.scores and serial(rules.scores) is rules.scores
    assert isinstance(dual(rules.step_and_mask), DualKernel)
    assert dual(rules.step_and_mask) is dual(rules.step_and_mask)  # one serial build per kernel in a process
    assert serial(rules.step_and_mask) is dual(rules.step_and_mask).serial
    built = serial(invariants.check_invariants)
    assert not built.targetoptions.get("parallel") and built.py_func.__qualname__.endswith("_serial")
    for name in GAMES:
        game = get_game(name)
        for kernel in (game.init_kernel, game.invariants_kernel):
            assert not getattr(kernel, "targetoptions", {}).get("parallel")


@pytest.mark.parametrize("name", ["colt_express", "wild_west_express", "way_out_west"])
def test_a_rules_modules_step_runs_the_builds_the_game_runs(name):
    """``rules.step`` (``core.engine.batch_kernels``) steps as ``Game.step`` does, by the builds ``dual`` picks: the
    parallel decorator's own build of a game's kernels and of the sampler, which no use needs, is never compiled
    (in this process, by any test: the library and the tests run ``dual`` and ``serial`` builds only)."""
    import importlib

    from wildwest_envs.registry import get_game

    rules = importlib.import_module(f"wildwest_envs.{name}.rules")
    game = get_game(f"{name}_v0")
    states = game.init_batch(3, seed=5)
    expected = states.copy()
    actions = np.argmax(game.legal_mask(states), axis=1).astype(np.int64)
    rules.step(states, actions)
    game.step(expected, actions)
    assert states.tobytes() == expected.tobytes() and (states["n_decisions"] == 1).all()
    for kernel in (rules.init, rules.legal_mask, rules.step_and_mask, sample_legal):
        assert not kernel.overloads, kernel


def test_chunks_give_each_thread_about_eight_of_at_most_256_records():
    """``chunk_size``: a big batch in chunks of ``RECORDS_PER_CHUNK``, a smaller one in about eight per thread,
    never fewer than one record; the whole batch on one thread (``core.kernels``, "Chunks")."""
    from wildwest_envs.core.kernels import RECORDS_PER_CHUNK, chunk_size

    assert RECORDS_PER_CHUNK == 256
    assert chunk_size(8192, 2) == 256 and chunk_size(65536, 16) == 256
    assert chunk_size(1024, 2) == 64 and chunk_size(1024, 4) == 32
    assert chunk_size(64, 2) == 4 and chunk_size(64, 16) == 1 and chunk_size(3, 2) == 1
    assert chunk_size(8192, 1) == 8192 and chunk_size(8192, 0) == 8192  # one thread: nothing to share out


def test_a_parallel_call_runs_in_chunks_and_gives_the_callers_chunk_size_back(monkeypatch):
    """``DualKernel`` hands its parallel build the serial build and the records per chunk, sets numba's chunk size
    to one chunk for the call only and restores the caller's after it, also when the kernel raises; the serial
    build runs without it, for small batches and on one thread."""
    import numba

    from wildwest_envs.core import kernels
    from wildwest_envs.core.kernels import dual

    wrapped = dual(sample_legal)
    seen = []

    def run_chunks(pointer, size, states, *args):
        seen.append(("parallel", pointer, len(states), size, numba.get_parallel_chunksize()))
        if len(states) == 999:
            raise RuntimeError("boom")

    def serial(states, *args):
        seen.append(("serial", len(states), numba.get_parallel_chunksize()))

    monkeypatch.setattr(wrapped, "serial", serial)
    monkeypatch.setattr(wrapped, "_chunk_loop_for", lambda arguments: (run_chunks, "the serial build"))
    monkeypatch.setattr(kernels, "SERIAL_BELOW", 64)
    previous = numba.set_parallel_chunksize(7)
    threads = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        wrapped(np.zeros(8192))
        wrapped(np.zeros(10))
        with pytest.raises(RuntimeError, match="boom") if numba.get_num_threads() > 1 else contextlib.nullcontext():
            wrapped(np.zeros(999))
        assert numba.get_parallel_chunksize() == 7
        two = numba.get_num_threads()
        numba.set_num_threads(1)
        wrapped(np.zeros(8192))
    finally:
        numba.set_parallel_chunksize(previous)
        numba.set_num_threads(threads)
    if two > 1:
        assert seen[:3] == [("parallel", "the serial build", 8192, 256, 1), ("serial", 10, 7),
                            ("parallel", "the serial build", 999, kernels.chunk_size(999, two), 1)]
    assert seen[-1] == ("serial", 8192, 7)  # one thread


def _add_offsets(states, out, offsets):
    """A batch kernel with a shared argument (``offsets``, in ``core.kernels.SHARED_ARGUMENTS``)."""
    for b in prange(states.shape[0]):
        out[b] = states[b] + offsets[states[b] % offsets.shape[0]]


def test_the_parallel_build_slices_the_per_record_arguments_and_refuses_a_batch_of_another_length(parallel_builds):
    """The chunk loop (``core.kernels._chunk_loop``) passes each chunk's rows of the per-record arguments and the
    whole of the shared ones (``SHARED_ARGUMENTS``): a kernel that adds a shared table to its rows gives the serial
    build's result on two threads; a per-record argument of another length is refused, nothing written."""
    import numba

    from wildwest_envs.core.kernels import DualKernel

    kernel = DualKernel(njit(parallel=True)(_add_offsets))
    states = np.arange(1000, dtype=np.int64)
    offsets = np.array([10, 20, 30], dtype=np.int64)
    threads = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        out = np.zeros(1000, dtype=np.int64)
        kernel(states, out, offsets)
        assert np.array_equal(out, states + offsets[states % 3])
        wrong = np.zeros(999, dtype=np.int64)
        if numba.get_num_threads() > 1:
            with pytest.raises(ValueError, match="999 rows for 1000 records"):
                kernel(states, wrong, offsets)
            assert not wrong.any()
    finally:
        numba.set_num_threads(threads)



def _sum_rows(states, out):
    """A batch kernel that allocates nothing: its rows' sums into ``out``."""
    for b in prange(states.shape[0]):
        total = 0
        for v in states[b]:
            total += v
        out[b] = total


def _allocating(n):
    return np.zeros(n, dtype=np.int64)


def test_an_uncounted_kernel_keeps_the_option_in_its_serial_build_and_gives_the_same_results(parallel_builds):
    """``core.borrowed.UNCOUNTED`` (no reference counting) on a batch kernel reaches its serial build (``DualKernel``),
    which both builds run: a batch under ``SERIAL_BELOW`` and one in chunks on two threads give the plain sums; a
    helper so marked that allocates is refused by numba when it compiles (the option is only for those that do
    not)."""
    import numba

    from wildwest_envs.core.borrowed import UNCOUNTED
    from wildwest_envs.core.kernels import DualKernel

    kernel = DualKernel(njit(parallel=True, **UNCOUNTED)(_sum_rows))
    assert kernel.serial.targetoptions["_nrt"] is False
    assert "_nrt" not in DualKernel(njit(parallel=True)(_sum_rows)).serial.targetoptions
    threads = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        for n in (5, 1000):
            states = np.arange(3 * n, dtype=np.int64).reshape(n, 3)
            out = np.zeros(n, dtype=np.int64)
            kernel(states, out)
            assert np.array_equal(out, states.sum(axis=1))
    finally:
        numba.set_num_threads(threads)
    with pytest.raises(TypingError):
        njit(**UNCOUNTED)(_allocating)(3)


@pytest.mark.parametrize("name", ["colt_express", "wild_west_express", "way_out_west"])
def test_the_hot_kernels_of_the_engine_games_count_no_references(name):
    """Deal, masks and step of the games built by ``core.engine.batch_kernels(..., uncounted=True)``, and the
    sampler, compile without reference counting (``core.borrowed.UNCOUNTED``; 5-14% of random play measured)."""
    import importlib

    from wildwest_envs.core.sampling import sample_legal

    rules = importlib.import_module(f"wildwest_envs.{name}.rules")
    for kernel in (rules.init, rules.legal_mask, rules.step_and_mask, sample_legal):
        assert serial(kernel).targetoptions["_nrt"] is False, kernel


def test_kernels_run_on_the_calling_thread_inside_the_block_and_on_as_many_after():
    """``on_calling_thread``: for a batch that would run the parallel build, numba's thread count is 1 inside the
    block (``DualKernel`` takes its serial build) and what it was after, also when the block raises; for a
    smaller batch (the serial build anyway) the count is left alone."""
    import numba

    from wildwest_envs.core import kernels

    before = numba.get_num_threads()
    with kernels.on_calling_thread(kernels.SERIAL_BELOW):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with pytest.raises(RuntimeError), kernels.on_calling_thread(kernels.SERIAL_BELOW):
        raise RuntimeError("inside")
    assert numba.get_num_threads() == before
    with kernels.on_calling_thread(kernels.SERIAL_BELOW - 1):
        assert numba.get_num_threads() == before

