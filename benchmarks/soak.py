"""Soak: a million seeded random games per game, every invariant after every step.

For every registered game (or those named with ``--game``), ``--games`` seeded
random games (default 1,000,000) are played through the batched engine in
chunks spread over ``--workers`` processes (default 2, one numba thread each),
with a ``tqdm`` progress bar. Each worker keeps a batch of ``--width`` games
and deals the next game of its chunk into a row as soon as the row's game
ends, so long games do not leave the batch idle. After every step it checks:

* ``Game.invariant_violations`` (the game's invariant kernel: the function the
  tests use, in one place);
* every unfinished game has a legal action and every finished game none;
* no game goes on past ``--step-guard`` decisions (every game ends).

and it observes one seat of every game every ``--observe-every`` steps (the
seats in turn), so the observation kernel is soaked too. A game that breaks a
check is counted once, its first message kept, and replaced by the next game.
A Python exception in a chunk or a worker process that dies (a segfault) is a
*crash*; the pool is rebuilt and the soak goes on. Resident memory
(``/proc/self/statm``) and peak memory (``ru_maxrss``) of each worker are
sampled between chunks; memory growth is the change of a worker's resident
memory from the end of its warm-up chunks (``--warmup``, compiling and first
allocations) to its last chunk, the largest over the workers.

Games cycle over every player count and, at each, the default options and each
boolean option of ``parse_options()`` flipped (where valid), so variants are
covered by registration alone. Game ``k`` of variant ``v`` is seeded
``game_seed(seed + 1009 * v, k)`` and its random actions come from a generator
seeded from the same pair, so every game is reproducible on its own whatever
the chunking, the worker or the batch width.

Each finished chunk is also appended to a journal beside ``--output``
(``soak_<game>.journal.jsonl``): an interrupted soak (Ctrl-C, a session that
ends) goes on with the same command plus ``--resume``, and its table is the
one an uninterrupted run would have written (wall time summed over the runs).

The table of a run is merged into ``--output`` (default
``benchmarks/results/soak.md``), with a plot of each worker's resident memory
per chunk beside it (``soak_memory.png``, when matplotlib is installed): the file keeps one section per game with its
data, so rerunning with ``--game <name>`` adds or replaces that game's rows and
keeps the others. The file is read again just before each game's rows are
written, so runs of different games may go on at the same time::

    nice -n 10 python -m benchmarks.soak --game colt_express_v0
    nice -n 10 python -m benchmarks.soak --game wild_west_express_v0 --games 100000
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import json
import multiprocessing
import os
import platform
import re
import resource
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "soak.md"
VARIANT_SEED_STRIDE = 1009  # run seed of variant v: seed + 1009 * v
SAMPLER_SALT = 0x5EED5A17  # the action generator of a game: game_seed(variant seed ^ salt, k)
MAX_MESSAGES = 5  # failure / crash messages kept per game
MIB = 2**20
DATA_MARK = "<!-- soak-data: "  # each game section embeds its numbers, so later runs can merge


# ---- what to play ----------------------------------------------------------------------
def variants(game) -> list[dict]:
    """Every player count; at each, the defaults and each boolean option flipped (where valid)."""
    defaults = game.parse_options()
    flags = [name for name, value in defaults.items() if isinstance(value, (bool, np.bool_))]
    out = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            base = game.parse_options(num_players=n)
        except ValueError:
            continue
        out.append({"num_players": n})
        for flag in flags:
            flipped = {"num_players": n, flag: not base[flag]}
            try:
                game.parse_options(**flipped)
            except ValueError:  # e.g. a variant compulsory at this player count
                continue
            out.append(flipped)
    return out


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + n - 1`` of variant ``variant`` of one game."""

    game: str
    variant: int
    options: dict
    first: int
    n: int
    seed: int
    width: int
    observe_every: int
    step_guard: int


def plan_chunks(name: str, game, n_games: int, chunk: int, seed: int, width: int, observe_every: int,
                step_guard: int) -> list[Chunk]:
    """``n_games`` games split evenly over the variants, in chunks of at most ``chunk`` games."""
    opts = variants(game)
    per_variant = -(-n_games // len(opts))
    chunks = []
    for v, options in enumerate(opts):
        for first in range(0, per_variant, chunk):
            chunks.append(Chunk(name, v, options, first, min(chunk, per_variant - first), seed, width,
                                observe_every, step_guard))
    # interleave variants so that the progress bar's rate is representative early on
    return sorted(chunks, key=lambda c: (c.first, c.variant))


# ---- one chunk, in a worker ------------------------------------------------------------------
def rss_bytes() -> int:
    """Resident memory of this process now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_rss_bytes() -> int:
    """Peak resident memory of this process so far (``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _worker_init() -> None:
    import numba
    numba.set_num_threads(1)  # one process per core: a second thread per worker only contends


def play_chunk(chunk: Chunk) -> dict:
    """Play the games of ``chunk`` with every check after every step; a result dict (never raises)."""
    start = time.perf_counter()
    result = {"variant": chunk.variant, "games": 0, "decisions": 0, "truncated": 0, "failures": 0,
              "max_decisions": 0, "messages": [], "crash": None, "pid": os.getpid()}
    try:
        _play(chunk, result)
    except Exception:  # noqa: BLE001 - a crash is a result of the soak, reported with its traceback
        result["crash"] = f"variant {chunk.variant} games {chunk.first}..: " + traceback.format_exc(limit=8)
    result["seconds"] = time.perf_counter() - start
    result["rss"] = rss_bytes()
    result["peak_rss"] = peak_rss_bytes()
    return result


def _play(chunk: Chunk, result: dict) -> None:
    from wildwest_envs.core import batch
    from wildwest_envs.core.kernels import dual
    from wildwest_envs.core.rng import game_seeds
    from wildwest_envs.core.runner import Dealer
    from wildwest_envs.core.sampling import sample_legal
    from wildwest_envs.registry import get_game

    game = get_game(chunk.game)
    sample = dual(sample_legal)  # the builds the library runs (core.kernels)
    run_seed = chunk.seed + VARIANT_SEED_STRIDE * chunk.variant
    dealer = Dealer(game, run_seed, chunk.options, next_game=chunk.first)  # games first .. first + n - 1
    action_seeds = game_seeds(run_seed ^ SAMPLER_SALT, chunk.n, chunk.first)
    width = min(chunk.width, chunk.n)
    states = dealer.deal(width)
    rng = action_seeds[:width].copy()
    ids = np.arange(width)  # index in the chunk of the game in each row
    next_game = width
    masks = np.zeros((width, game.n_actions), dtype=np.int8)
    actions = np.zeros(width, dtype=np.int64)
    step = 0
    while len(states):
        game.legal_mask(states, masks)
        bad = {int(b): "a game that has not ended has no legal action"
               for b in np.flatnonzero(~masks.any(axis=1) & ~game.finished(states))}
        if chunk.observe_every and step % chunk.observe_every == 0:
            seats = (step // chunk.observe_every) % states["num_players"].astype(np.int64)
            game.observe(states, seats)
        sample(masks, rng, actions)
        if bad:  # the kernels assume a legal action: never step a game that has none
            states["done"][list(bad)] = True
        game.step(states, actions, check=False)
        step += 1
        for b, message in game.invariant_violations(states):
            bad.setdefault(b, message)
        for b in np.flatnonzero(states["n_decisions"] > chunk.step_guard):
            bad.setdefault(int(b), f"no end after {chunk.step_guard} decisions")
        finished = game.finished(states)
        if bad:
            finished[list(bad)] = True
        over = np.flatnonzero(finished)
        if not len(over):
            continue
        _count_ended(game, chunk, batch.take(states, over), [bad.get(int(b)) for b in over], ids[over], result)
        n_new = min(len(over), chunk.n - next_game)
        if n_new:  # deal the next games of the chunk into the rows that ended
            rows = over[:n_new]
            dealer.deal_into(states, rows)
            rng[rows] = action_seeds[next_game:next_game + n_new]
            ids[rows] = np.arange(next_game, next_game + n_new)
            next_game += n_new
        if n_new < len(over):  # no games left for the other rows: drop them from the batch
            keep = np.ones(len(states), dtype=bool)
            keep[over[n_new:]] = False
            states, rng, ids = batch.take(states, keep), rng[keep].copy(), ids[keep]
            masks = np.zeros((len(states), game.n_actions), dtype=np.int8)
            actions = np.zeros(len(states), dtype=np.int64)


def _count_ended(game, chunk: Chunk, ended: np.ndarray, bad: list, ids: np.ndarray, result: dict) -> None:
    """Add the games that ended (or failed a check) in this step to ``result``."""
    masks = game.legal_mask(ended)
    result["games"] += len(ended)
    result["decisions"] += int(ended["n_decisions"].astype(np.int64).sum())
    result["max_decisions"] = max(result["max_decisions"], int(ended["n_decisions"].max()))
    leaked = ended["done"] & masks.any(axis=1)
    bad = [m if m is not None or not leaked[k] else "a finished game has a legal action" for k, m in enumerate(bad)]
    failed = np.array([m is not None for m in bad])
    result["truncated"] += int((game.truncated(ended) & ~failed).sum())
    result["failures"] += int(failed.sum())
    for k in np.flatnonzero(failed)[:max(0, MAX_MESSAGES - len(result["messages"]))]:
        result["messages"].append(f"variant {chunk.variant} {chunk.options} game {chunk.first + int(ids[k])}: "
                                  f"{bad[k]}")


# ---- the run, in the parent ----------------------------------------------------------------------
@dataclass
class GameReport:
    """The totals of one game's soak."""

    name: str
    options: list
    games: int = 0
    decisions: int = 0
    truncated: int = 0
    crashes: int = 0
    failures: int = 0
    seconds: float = 0.0
    peak_rss: int = 0
    growth: int = 0
    growth_half: int = 0
    per_variant: dict = field(default_factory=dict)
    messages: list = field(default_factory=list)
    rss_samples: dict = field(default_factory=dict)  # worker pid -> resident bytes after each chunk
    done_chunks: set = field(default_factory=set)

    def has(self, chunk: Chunk) -> bool:
        """Whether the result of ``chunk`` is in."""
        return (chunk.variant, chunk.first) in self.done_chunks

    def add(self, result: dict, chunk: Chunk) -> None:
        """Fold the result of ``chunk`` in."""
        self.done_chunks.add((chunk.variant, chunk.first))
        v = self.per_variant.setdefault(result["variant"], {"games": 0, "decisions": 0, "truncated": 0,
                                                             "failures": 0, "max_decisions": 0})
        for key in ("games", "decisions", "truncated", "failures"):
            v[key] += result[key]
            setattr(self, key, getattr(self, key) + result[key])
        v["max_decisions"] = max(v["max_decisions"], result["max_decisions"])
        self.messages += result["messages"][:max(0, MAX_MESSAGES - len(self.messages))]
        if result["crash"]:
            self.crashes += 1
            if len(self.messages) < MAX_MESSAGES:
                self.messages.append("crash: " + result["crash"])
        self.peak_rss = max(self.peak_rss, result["peak_rss"])
        if result["pid"]:
            self.rss_samples.setdefault(result["pid"], []).append(result["rss"])

    def crash(self, message: str) -> None:
        """A worker process died."""
        self.crashes += 1
        if len(self.messages) < MAX_MESSAGES:
            self.messages.append("crash: " + message)

    def finish(self, seconds: float, warmup: int) -> None:
        """Wall time and memory growth after warm-up (largest over the workers)."""
        self.seconds = seconds
        growths = [s[-1] - s[min(warmup, len(s)) - 1] for s in self.rss_samples.values() if s]
        self.growth = max(growths) if growths else 0
        halves = [s[-1] - s[(len(s) - 1) // 2] for s in self.rss_samples.values() if s]
        self.growth_half = max(halves) if halves else 0

    def data(self) -> dict:
        """The JSON-able numbers of this report (what the results file keeps)."""
        return {"name": self.name, "games": self.games, "decisions": self.decisions, "truncated": self.truncated,
                "crashes": self.crashes, "failures": self.failures, "seconds": round(self.seconds, 1),
                "peak_rss_mib": round(self.peak_rss / MIB, 1), "growth_mib": round(self.growth / MIB, 2),
                "growth_half_mib": round(self.growth_half / MIB, 2),
                "rss_mib": {str(pid): [round(x / MIB, 1) for x in s] for pid, s in self.rss_samples.items()},
                "variants": [{"options": self.options[v], **self.per_variant[v]} for v in sorted(self.per_variant)],
                "messages": self.messages}


class Journal:
    """Every finished chunk of one game's soak, appended as a JSON line as it comes in, so that an interrupted
    soak resumes (``--resume``) without playing those chunks again. The first line holds the run settings; a
    journal of other settings is refused. The file is removed once the game's rows are written."""

    def __init__(self, path: Path, settings: dict, resume: bool):
        self.path = path
        self.done: list[dict] = []
        if resume and path.is_file():
            lines = path.read_text().splitlines()
            header = json.loads(lines[0]) if lines else {}
            if header != settings:
                raise SystemExit(f"{path} was written by a soak with other settings ({header}); rerun those, "
                                 f"or delete the file to start again")
            for line in lines[1:]:
                try:
                    self.done.append(json.loads(line))
                except json.JSONDecodeError:  # the last line, cut by the interruption
                    break
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(settings) + "\n")
        self.prior_seconds = max((d["seconds_so_far"] for d in self.done), default=0.0)
        self.n_chunks = len(self.done)  # chunks kept in the file, this run's included

    def record(self, chunk: Chunk, result: dict, seconds_so_far: float) -> None:
        """Append one finished chunk."""
        self.n_chunks += 1
        with self.path.open("a") as f:
            f.write(json.dumps({"variant": chunk.variant, "first": chunk.first, "result": result,
                                "seconds_so_far": seconds_so_far}) + "\n")

    def remove(self) -> None:
        """The game is done: its rows are in the results file."""
        self.path.unlink(missing_ok=True)


def journal_path(output: Path, name: str) -> Path:
    """Where the journal of one game's soak is kept (beside the results file; git ignores it)."""
    return output.with_name(f"{output.stem}_{name}.journal.jsonl")


def run_settings(name: str, args) -> dict:
    """What determines the chunks and their games: a journal resumes only a run with the same."""
    return {"game": name, "games": args.games, "chunk": args.chunk, "seed": args.seed, "width": args.width,
            "observe_every": args.observe_every, "step_guard": args.step_guard}


def soak_game(name: str, args, bar, play=None, journal: Journal | None = None) -> GameReport:
    """Run every chunk of one game over the worker pool; rebuild the pool if a worker dies. With a
    ``journal``, the chunks it holds are counted without being played, and each new one is added to it."""
    from wildwest_envs.registry import get_game

    game = get_game(name)
    chunks = plan_chunks(name, game, args.games, args.chunk, args.seed, args.width, args.observe_every,
                         args.step_guard)
    report = GameReport(name, variants(game))
    by_key = {(c.variant, c.first): c for c in chunks}
    for entry in journal.done if journal else []:
        chunk = by_key[(entry["variant"], entry["first"])]
        report.add(entry["result"], chunk)
        bar.update(chunk.n)
    start = time.perf_counter() - (journal.prior_seconds if journal else 0.0)
    pending, suspects = [c for c in chunks if not report.has(c)], []

    def finished(chunk: Chunk, result: dict) -> None:
        report.add(result, chunk)
        if journal:
            journal.record(chunk, result, time.perf_counter() - start)

    while pending or suspects:
        if suspects:  # in flight when a worker died: run each alone, so a crash is pinned on its chunk
            chunk = suspects.pop()
            unfinished = _run_pool([chunk], 1, report, bar, play, finished)
            if unfinished:
                report.crash(f"worker died in variant {chunk.variant} {chunk.options} games "
                             f"{chunk.first}..{chunk.first + chunk.n - 1}")
                bar.update(chunk.n)
            continue
        running = _run_pool(pending, args.workers, report, bar, play, finished)
        pending = [c for c in pending if c not in running and not report.has(c)]
        suspects = running
    report.finish(time.perf_counter() - start, args.warmup)
    return report


def _run_pool(chunks: list[Chunk], workers: int, report: GameReport, bar, play=None, finished=None) -> list[Chunk]:
    """Run ``chunks`` on a fresh pool; if a worker dies, return the chunks that were in flight.

    ``play`` (default ``play_chunk``) is the module-level function a worker runs on each chunk;
    ``finished(chunk, result)`` (default ``report.add``) takes each result.
    """
    finished = finished or (lambda chunk, result: report.add(result, chunk))
    context = multiprocessing.get_context("spawn")  # no numba thread pool is forked
    with cf.ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init) as pool:
        futures = {pool.submit(play or play_chunk, c): c for c in chunks}
        waiting = set(futures)
        while waiting:
            in_flight = [futures[f] for f in waiting if f.running()]
            done, waiting = cf.wait(waiting, return_when=cf.FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except cf.process.BrokenProcessPool:
                    for f in waiting:
                        f.cancel()
                    return in_flight or [futures[future]]
                except Exception as error:  # noqa: BLE001 - raised outside play_chunk's own guard: a crash
                    c = futures[future]
                    result = {"variant": c.variant, "games": 0, "decisions": 0, "truncated": 0, "failures": 0,
                              "max_decisions": 0, "messages": [], "pid": 0, "rss": 0, "peak_rss": 0,
                              "crash": f"variant {c.variant} games {c.first}..: {type(error).__name__}: {error}"}
                finished(futures[future], result)
                bar.update(futures[future].n)
                bar.set_postfix(game=report.name, fail=report.failures, crash=report.crashes)
    return []


# ---- the results file -------------------------------------------------------------------------------
def machine_line() -> str:
    """CPU, cores and library versions."""
    import numba
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores; python {platform.python_version()}, numpy {np.__version__}, "
            f"numba {numba.__version__}")


def read_results(path: Path) -> dict[str, dict]:
    """The per-game data kept in an existing results file (empty if there is none)."""
    if not path.is_file():
        return {}
    found = {}
    for match in re.finditer(re.escape(DATA_MARK) + r"(\{.*?\}) -->", path.read_text()):
        data = json.loads(match.group(1))
        found[data["name"]] = data
    return found


def render_results(results: dict[str, dict], order: list[str]) -> str:
    """The whole results file: a summary row per game, then a section per game."""
    names = [n for n in order if n in results] + sorted(n for n in results if n not in order)
    lines = ["# Soak: seeded random games through the batched engine, every check after every step", "",
             "Written by `python -m benchmarks.soak` (see its docstring); rerun one game with "
             "`nice -n 10 python -m benchmarks.soak --game <name>`, which replaces that game's rows and keeps "
             "the others. Checks after every step: the game's invariants (`Game.invariant_violations`), a legal "
             "action in every unfinished game and none in a finished one, an end within the step guard; "
             "one seat observed every few steps. Memory growth: resident memory of a worker after its "
             "warm-up chunks (`--warmup`, default 2) to its last chunk, and from its middle chunk to its last (a leak "
             "grows steadily; the allocator's first settling does not); the largest over the workers.", "",
             "| game | games | decisions | games/s | truncations | crashes | invariant failures | "
             "peak memory (MiB) | memory growth after warm-up (MiB) | growth in the second half (MiB) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in list(order) + [n for n in names if n not in order]:  # every game in ``order``, soaked or not
        if n not in results:
            lines.append(f"| {n} | not soaked yet: `nice -n 10 python -m benchmarks.soak --game {n}` |" + " |" * 8)
            continue
        d = results[n]
        lines.append(f"| {n} | {d['games']:,} | {d['decisions']:,} | {d['games'] / max(d['seconds'], 1e-9):,.0f} | "
                     f"{d['truncated']:,} | {d['crashes']} | {d['failures']} | {d['peak_rss_mib']:.0f} | "
                     f"{d['growth_mib']:+.2f} | {_growth_half(d):+.2f} |")
    for n in names:
        lines += [""] + game_section(results[n])
    return "\n".join(lines) + "\n"


def _growth_half(d: dict) -> float:
    """Largest growth of a worker's resident memory from the middle of its chunks to its last (MiB)."""
    if "growth_half_mib" in d:
        return d["growth_half_mib"]
    return max((s[-1] - s[(len(s) - 1) // 2] for s in d["rss_mib"].values() if s), default=0.0)


def game_section(d: dict) -> list[str]:
    """The section of one game: run settings, the variants, memory samples, messages."""
    lines = [f"## {d['name']}", "",
             f"- run: {d.get('date', '?')}, {d.get('machine', '?')}",
             f"- command: `{d.get('command', '?')}`; {d['seconds']:,.0f} s wall time"
             + (f"; {d['note']}" if d.get("note") else ""), "",
             "| options | games | decisions | decisions/game | longest game | truncations | invariant failures |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for v in d["variants"]:
        options = ", ".join(f"{k}={val}" for k, val in v["options"].items())
        lines.append(f"| {options} | {v['games']:,} | {v['decisions']:,} | {v['decisions'] / max(v['games'], 1):,.0f}"
                     f" | {v['max_decisions']:,} | {v['truncated']:,} | {v['failures']} |")
    lines += ["", "Resident memory of each worker after each chunk (MiB):", ""]
    for pid, samples in d["rss_mib"].items():
        shown = samples if len(samples) <= 12 else samples[:6] + ["..."] + samples[-5:]
        lines.append(f"- worker {pid} ({len(samples)} chunks): {', '.join(str(x) for x in shown)}")
    if d["messages"]:
        lines += ["", "First failures and crashes:", ""] + [f"    {m}" for m in d["messages"]]
    slim = {k: v for k, v in d.items() if k != "rss_mib"}
    slim["rss_mib"] = {pid: s for pid, s in d["rss_mib"].items()}
    lines += ["", DATA_MARK + json.dumps(slim, separators=(",", ":")) + " -->"]
    return lines


def plot_memory(results: dict[str, dict], order: list[str], path: Path) -> bool:
    """A PNG of each worker's resident memory after each chunk, one panel per soaked game (False without
    matplotlib): a leak is a line that keeps rising; the first chunks' settling is the warm-up."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return False
    names = [n for n in order if n in results] + sorted(n for n in results if n not in order)
    if not names:
        return False
    fig = Figure(figsize=(3.6 * len(names), 3.0))
    axes = fig.subplots(1, len(names), squeeze=False)
    for ax, name in zip(axes[0], names):
        d = results[name]
        for k, samples in enumerate(d["rss_mib"].values()):
            ax.plot(range(1, len(samples) + 1), samples, lw=1.2, label=f"worker {k + 1}")
        ax.set_title(f"{name}\n{d['games']:,} games", fontsize=9)
        ax.set_xlabel("chunk")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("resident memory (MiB)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


# ---- command line -----------------------------------------------------------------------------------
def parse_args(argv=None):
    """The command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", nargs="*", default=None, help="registered games (default: all)")
    p.add_argument("--games", type=int, default=1_000_000, help="games per game")
    p.add_argument("--workers", type=int, default=2, help="worker processes (one numba thread each)")
    p.add_argument("--chunk", type=int, default=5000, help="games per chunk (a task of one worker)")
    p.add_argument("--width", type=int, default=1024, help="games stepped together in a worker")
    p.add_argument("--seed", type=int, default=0, help="run seed")
    p.add_argument("--observe-every", type=int, default=4,
                   help="observe one seat of every game every N steps (0: never)")
    p.add_argument("--step-guard", type=int, default=100_000, help="a game still going after this many decisions fails")
    p.add_argument("--warmup", type=int, default=2, help="chunks per worker before memory growth is measured")
    p.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown results file to merge into")
    p.add_argument("--note", default="", help="a remark stored with the results (e.g. 'loaded machine')")
    p.add_argument("--resume", action="store_true",
                   help="go on from the journal an interrupted run with the same settings left beside --output")
    args = p.parse_args(argv)
    if min(args.games, args.workers, args.chunk, args.width) < 1 or args.observe_every < 0:
        p.error("--games, --workers, --chunk and --width must be positive, --observe-every non-negative")
    return args


def main(argv=None) -> int:
    """Soak the games, print and merge the table; exit status 1 on any crash or failure."""
    from tqdm import tqdm

    from wildwest_envs.registry import GAMES, canonical_name, get_game

    args = parse_args(argv)
    listed = [g for item in args.game or [] for g in item.split(",") if g]  # space- or comma-separated
    names = [canonical_name(n) for n in listed] if listed else list(GAMES)
    results = {}
    date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    command = "python -m benchmarks.soak " + " ".join(sys.argv[1:] if argv is None else argv)
    total = 0
    for n in names:
        total += sum(c.n for c in plan_chunks(n, get_game(n), args.games, args.chunk, args.seed, args.width, 0, 0))
    bad = False
    with tqdm(total=total, unit="game", smoothing=0.05) as bar:
        for n in names:
            journal = Journal(journal_path(args.output, n), run_settings(n, args), args.resume)
            try:
                report = soak_game(n, args, bar, journal=journal)
            except KeyboardInterrupt:
                bar.close()
                print(f"\ninterrupted: {journal.n_chunks} chunks of {n} "
                      f"are kept in {journal.path}; the same command with --resume goes on from there")
                return 130
            results[n] = dict(report.data(), date=date, machine=machine_line(), command=command, note=args.note)
            bad |= report.crashes > 0 or report.failures > 0
            merged = read_results(args.output)  # read now, not at the start: runs of other games may have written
            merged[n] = results[n]
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(render_results(merged, list(GAMES)))  # after each game: partial runs keep rows
            plot_memory(merged, list(GAMES), args.output.with_name(args.output.stem + "_memory.png"))
            journal.remove()
    print(render_results({n: results[n] for n in names}, names))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
