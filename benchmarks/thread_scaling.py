"""How much two threads give over one: each game's batched engine next to what the machine itself allows.

    python -m benchmarks.thread_scaling
    python -m benchmarks.thread_scaling --games wild_west_express --batch-sizes 1024 8192 --repeats 5

For each game and batch size, plays uniform legal random games as ``benchmarks.throughput`` does (steady state,
finished games re-dealt in place) on 1 and on 2 threads, alternating, ``--repeats`` times, and reports the
median rate of each and their ratio, then the ratios of the loop's two parallel parts timed apart (the step
kernel, the sampling pass) and of one sampling pass over fixed masks (the pass alone). Two rows measure the
machine's own ceiling with the same numba thread pool: *arithmetic*, a ``prange`` loop of xorshift rounds on
8,192 integers (no memory traffic: what two cores give when nothing is shared), and *streaming*,
``b = 3a + 1`` over 16 MB arrays (memory bandwidth). A game that scales well below the arithmetic row loses the
difference in our code or in the memory system; a ``perf`` profile on 2 threads
(``benchmarks.kernel_profile --threads 2``) with the same shares as on 1 thread points
to the memory system rather than a serial section. Needs an idle machine: anything else running takes the
second core first.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np
from numba import njit, prange

CEILING_ROUNDS = 20_000  # xorshift rounds per integer of the arithmetic row (about 0.2 s on one core)
STREAM_SIZE = 2_000_000  # float64s per array of the streaming row (16 MB)


@njit(parallel=True, cache=True)
def _arithmetic(out, rounds):
    for i in prange(out.size):
        x = np.uint64(i + 1)
        for _ in range(rounds):
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
        out[i] = x


@njit(parallel=True, cache=True)
def _streaming(a, b):
    for i in prange(a.size):
        b[i] = a[i] * 3.0 + 1.0


def _seconds_of(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def ceiling_rows(repeats: int) -> list[tuple[str, float, float]]:
    """``(row, one-thread seconds, two-thread seconds)`` (medians) of the arithmetic and streaming loops."""
    out = np.zeros(8192, dtype=np.uint64)
    a, b = np.ones(STREAM_SIZE), np.empty(STREAM_SIZE)
    _arithmetic(out, 1)
    _streaming(a, b)
    loops = {"arithmetic (prange, no memory traffic)": lambda: _arithmetic(out, CEILING_ROUNDS),
             "streaming (prange, 16 MB arrays, 20 passes)": lambda: [_streaming(a, b) for _ in range(20)]}
    rows = []
    for name, work in loops.items():
        times = {1: [], 2: []}
        for _ in range(repeats):
            for threads in (1, 2):
                numba.set_num_threads(threads)
                times[threads].append(_seconds_of(work))
        rows.append((name, statistics.median(times[1]), statistics.median(times[2])))
    return rows


def _loop_parts(game, batch: int, seconds: float) -> tuple[int, float, float, float]:
    """``(decisions, sampling s, step s, whole s)`` of ``seconds`` of steady-state play (the loop of
    ``benchmarks.throughput.batched_player``, its parts timed apart) on the current thread count."""
    from benchmarks.throughput import redeal_ended
    from wildwest_envs.core.runner import Dealer
    from wildwest_envs.core.sampling import LegalSampler

    dealer = Dealer(game, 0, game.parse_options())
    states = dealer.deal(batch)
    masks = game.legal_mask(states)
    sample = LegalSampler(batch, 0)
    decisions, sampling, stepping, whole, timed = 0, 0.0, 0.0, 0.0, False
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        if not timed and (dealer.next_game >= 2 * batch or t0 - start > 300):
            timed, start = True, t0  # warmed up: every stage of a game in the mix
        elif timed and t0 - start > seconds:
            return decisions, sampling, stepping, whole
        actions = sample(masks)
        t1 = time.perf_counter()
        redeal_ended(dealer, states, masks, sample, actions)
        t2 = time.perf_counter()
        game.step(states, actions, check=False, masks=masks)
        if timed:
            t3 = time.perf_counter()
            decisions += len(actions)
            sampling += t1 - t0
            stepping += t3 - t2
            whole += t3 - t0


def _drawing_step_seconds(game, batch: int, seconds: float) -> float:
    """Seconds per decision of ``seconds`` of steady-state play with the draws in the step (``Game.step(...,
    draws=)``: one pass a move, the path of random play and of the searches' playouts;
    ``benchmarks.throughput.batched_player(draws_in_step=True)``) on the current thread count."""
    from benchmarks.throughput import batched_player

    one_step, dealer, _ = batched_player(game, batch, draws_in_step=True)
    decisions, start, timed = 0, time.perf_counter(), False
    while True:
        now = time.perf_counter()
        if not timed and (dealer.next_game >= 2 * batch or now - start > 300):
            timed, start, decisions = True, now, 0  # warmed up: every stage of a game in the mix
        elif timed and now - start > seconds:
            return (now - start) / decisions
        decisions += one_step()


def _sampling_pass_seconds(game, batch: int, seconds: float) -> float:
    """Seconds of one sampling pass over the fixed legal masks of ``batch`` fresh games (the pass alone: nothing
    else moves the masks between calls), the best of about ``seconds`` of calls on the current thread count."""
    from wildwest_envs.core.sampling import LegalSampler

    masks = game.legal_mask(game.init_batch(batch, 0))
    sample = LegalSampler(batch, 0)
    sample(masks)
    best, end = float("inf"), time.perf_counter() + seconds
    while time.perf_counter() < end:
        best = min(best, _seconds_of(lambda: sample(masks)))
    return best


def game_rows(game_name: str, batch_sizes: list[int], seconds: float, repeats: int) -> list[tuple]:
    """``(batch, one-thread rate, two-thread rate, (lowest, highest) whole-loop ratio of one run on two threads
    over the run on one just before it, step kernel ratio, sampling ratio, fixed-mask sampling ratio,
    draws-in-the-step ratio)`` of a game: medians of ``repeats`` alternated runs; the ratios are two threads over
    one of the time per decision in that part (of one sampling pass over fixed masks, ``_sampling_pass_seconds``;
    the last: of the whole loop with the draws in the step, ``_drawing_step_seconds``). The range of the run-by-run
    ratios shows how much the machine moved during the measurement."""
    from wildwest_envs.registry import get_game

    game = get_game(game_name)
    rows = []
    for batch in batch_sizes:
        runs, passes, drawing = {1: [], 2: []}, {1: [], 2: []}, {1: [], 2: []}
        for _ in range(repeats):
            for threads in (1, 2):
                numba.set_num_threads(threads)
                runs[threads].append(_loop_parts(game, batch, seconds))
                passes[threads].append(_sampling_pass_seconds(game, batch, seconds / 3))
                drawing[threads].append(_drawing_step_seconds(game, batch, seconds))

        def median(threads, part):
            return statistics.median(run[part] / run[0] for run in runs[threads])  # seconds per decision

        paired = [(one[3] / one[0]) / (two[3] / two[0]) for one, two in zip(runs[1], runs[2])]  # run by run
        rows.append((batch, 1 / median(1, 3), 1 / median(2, 3), (min(paired), max(paired)),
                     median(1, 2) / median(2, 2), median(1, 1) / median(2, 1),
                     statistics.median(passes[1]) / statistics.median(passes[2]),
                     statistics.median(drawing[1]) / statistics.median(drawing[2])))
    return rows


def report(games: list[str], batch_sizes: list[int], seconds: float, repeats: int) -> str:
    """The Markdown table of the ceiling rows and every game's rows."""
    from wildwest_envs.registry import canonical_name

    lines = [f"Medians of {repeats} alternated runs; {seconds:g} s per game measurement. *whole loop*: random "
             f"play as `benchmarks.throughput` times it (sampling, step, re-deal of finished games); *step* and "
             f"*sampling*: the time per decision of that part alone, one thread over two; *sampling, fixed masks*: "
             f"one sampling pass over the same masks again and again (the pass alone, its data as cached as it "
             f"gets); *draws in the step*: the whole loop with each game's next action drawn by the step from the "
             f"mask it has just written (`Game.step(..., draws=)`: one pass a move, the path of the searches' "
             f"playouts). *run by run*: the lowest and highest ratio of a run on two threads to the run on one "
             f"just before it (how much the machine's speed moved while it was measured).", "",
             "| what | batch | 1 thread | 2 threads | 2 threads ÷ 1: whole loop | run by run | step | sampling | "
             "sampling, fixed masks | whole loop, draws in the step |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, one, two in ceiling_rows(repeats):
        lines.append(f"| machine: {name} | – | {one:.3f} s | {two:.3f} s | {one / two:.2f}× | – | – | – | – | – |")
    for game in games:
        for batch, one, two, (low, high), step, sampling, fixed, drawing in game_rows(
                canonical_name(game), batch_sizes, seconds, repeats):
            lines.append(f"| {canonical_name(game)} | {batch} | {one:,.0f}/s | {two:,.0f}/s | {two / one:.2f}× | "
                         f"{low:.2f}-{high:.2f}× | {step:.2f}× | {sampling:.2f}× | {fixed:.2f}× | {drawing:.2f}× |")
    lines.append(f"\nnumba's threading layer: {numba.threading_layer()} (`wildwest_envs.core.threads`).")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Command line: print the table."""
    from wildwest_envs.registry import GAMES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="registered games (default: all)")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[1024, 8192])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per run")
    parser.add_argument("--repeats", type=int, default=3, help="alternated runs per row (the median is reported)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or min(args.batch_sizes) < 1:
        parser.error("--seconds, --repeats and --batch-sizes must be positive")
    if numba.config.NUMBA_NUM_THREADS < 2:
        parser.error("needs at least 2 numba threads (NUMBA_NUM_THREADS)")
    print(report(args.games, args.batch_sizes, args.seconds, args.repeats))


if __name__ == "__main__":
    main()
