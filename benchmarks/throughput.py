"""Throughput of every registered game, side by side with the anchors, in one run.

Measures random legal play (decisions per second, mask and sampling included):

* anchors: PettingZoo ``connect_four_v3`` through its AEC API (before the
  first game and after each, since a shared machine's speed drifts during a
  run; ratios use the median) and, when ``pyspiel`` is installed, OpenSpiel
  ``backgammon`` through its Python API;
* each game through its PettingZoo AEC API;
* each game through its batched engine at B = 1, 1024 and 8192 on 1 and 2
  threads (``sample_legal`` -> ``step(..., masks=)``, which writes the next
  legal masks in the same pass; finished games re-dealt in place, with their
  masks), timed in the steady state: after a warm-up in which as many games
  have finished as the batch holds, so that the batch mixes every stage of a
  game as a long run does (timed from a fresh deal, a big batch would be
  measured on the opening moves alone); and at the largest batch again with
  the next actions drawn inside the step (``step(..., masks=, draws=)``, as
  the search's random rollouts play: each game's action is drawn from the
  mask the step has just written, while it is in cache);

then the bytes of one game state and the cold start (``cold_times``): the first
complete AEC game with quick start and without it (``core.quickstart``) and every
kernel in both builds, each in a fresh process, into an empty numba cache and
then from it. Prints a Markdown table with ratios to
``connect_four_v3`` and writes it with ``--output``::

    python -m benchmarks.throughput --output benchmarks/results/throughput.md

``--cold`` measures the cold start alone (a few minutes, no decision rates)::

    python -m benchmarks.throughput --cold --output benchmarks/results/cold_start.md
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np


def _timed_loop(body, seconds: float) -> float:
    """Run ``body() -> decisions`` repeatedly for ``seconds``; decisions per second."""
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += body()
    return decisions / (time.perf_counter() - start)


def aec_random_play(make_env, seconds: float, seed: int = 0) -> float:
    """Decisions per second of uniform legal play through a PettingZoo AEC env, after one untimed game (which
    compiles or loads the kernels the env uses)."""
    from wildwest_envs.core.aec import play_random_game

    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def one_game() -> int:
        env.reset(seed=int(rng.integers(2**31)))
        return play_random_game(env, rng)

    one_game()  # warm-up: the first step of a game compiles (or loads) kernels, which is no decision rate
    return _timed_loop(one_game, seconds)


def openspiel_random_play(seconds: float, seed: int = 0) -> float | None:
    """Decisions per second of uniform play of OpenSpiel backgammon (None without pyspiel)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(seed)

    def one_game() -> int:
        state, n = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                n += 1
        return n

    one_game()  # warm-up: the first step of a game compiles (or loads) kernels, which is no decision rate
    return _timed_loop(one_game, seconds)


def batched_random_play(game, batch_size: int, threads: int, seconds: float, seed: int = 0,
                        warm_up_limit: float = 300.0, draws_in_step: bool = False, **options) -> float:
    """Decisions per second of uniform legal play of ``batch_size`` games at once, in the steady state.

    Before timing, plays until ``batch_size`` games have finished (at most ``warm_up_limit`` seconds).
    ``draws_in_step``: see ``batched_player``.
    """
    import numba

    numba.set_num_threads(threads)
    one_step, dealer, _ = batched_player(game, batch_size, seed, draws_in_step, **options)
    start = time.perf_counter()  # warm-up (compilation is measured separately), then the steady state
    while dealer.next_game < 2 * batch_size and time.perf_counter() - start < warm_up_limit:
        one_step()
    return _timed_loop(one_step, seconds)


def batched_player(game, batch_size: int, seed: int = 0, draws_in_step: bool = False, **options):
    """``(one_step, dealer, states)``: ``one_step()`` plays one uniform legal decision in each of ``batch_size``
    games (``states``), deals finished games again in place (``dealer``) and returns the decisions played.

    Each step writes the next legal masks (``Game.step``'s ``masks``). Without ``draws_in_step`` a sampling pass
    over the masks draws the actions before each step; with it the step draws each game's next action from the
    mask it has just written, while it is in cache (``draws``; a re-dealt game's first action comes from the
    sampler). Both draw with the same per-game generators (``core.sampling.draw_legal``), so they play the same
    games.
    """
    from wildwest_envs.core.runner import Dealer
    from wildwest_envs.core.sampling import LegalSampler

    dealer = Dealer(game, seed, game.parse_options(**options))
    states = dealer.deal(batch_size)
    masks = game.legal_mask(states)
    sample = LegalSampler(batch_size, seed)
    actions = sample(masks) if draws_in_step else sample.out  # the sampler's output array, refilled each step

    def one_step() -> int:
        if not draws_in_step:
            sample(masks)
        redeal_ended(dealer, states, masks, sample, actions)
        game.step(states, actions, check=False, masks=masks, draws=sample.rng if draws_in_step else None)
        return len(actions)

    return one_step, dealer, states


def redeal_ended(dealer, states, masks, sample, actions) -> None:
    """Deal the games that ended at the last step again in place, with their masks and first actions.

    A game over has an all-zero mask (``Game.legal_mask``), so the action drawn for it, by the sampling pass or
    by the step itself (``draws``), is -1: the loop finds its ended games in ``actions``, a pass over 8 bytes a
    game, not over the records (``Game.finished`` reads three fields of every record, which the step has just
    left in the cache of whichever thread stepped it). Each fresh game's first action is drawn with its row's
    generator, as the next sampling pass would have drawn it (``LegalSampler.draw_rows``: the generator of a row
    without a legal action does not advance), so the games played do not depend on where the re-deal happens.
    """
    ended = np.flatnonzero(actions < 0)
    if len(ended):
        dealer.deal_into(states, ended, masks=masks)
        actions[ended] = sample.draw_rows(masks, ended)


# Cold start, each in a fresh process: the first complete PettingZoo AEC game (import, env, reset, uniform legal
# play to the end) with quick start (core.quickstart: plain Python while a background process compiles) and without
# it (compiled in the process), and every batch kernel run once in both builds (serial: B = 2, parallel: B = 64).
_FIRST_AEC_GAME = """
import numpy as np
from wildwest_envs.registry import make
env = make({name!r})
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    obs, _, terminated, truncated, _ = env.last()
    legal = np.flatnonzero(obs["action_mask"])
    env.step(None if terminated or truncated else int(legal[rng.integers(len(legal))]))
"""
_ALL_KERNELS = """
import numpy as np
from wildwest_envs.registry import get_game
g = get_game({name!r})
for n in (2, 64):  # serial and parallel builds
    s = g.init_batch(n, 0); m = g.legal_mask(s); a = np.argmax(m, axis=1)
    g.step(s, a); g.observe(s); g.returns(s); g.invariant_violations(s)
"""
_TIMED = """
import time
wall, cpu = time.perf_counter(), time.process_time()
{body}
print(time.perf_counter() - wall, time.process_time() - cpu)
"""
_AFTER_QUICK_START = """
from wildwest_envs.core import quickstart
quickstart.wait_for_warmup(type(env.unwrapped).game)  # untimed: the cache is warm for the cached run
"""
# path -> (script body, quick start on, untimed code after the timed body)
COLD_PATHS = {"first AEC game, quick start": (_FIRST_AEC_GAME, True, _AFTER_QUICK_START),
              "first AEC game, compiled": (_FIRST_AEC_GAME, False, ""),
              "all kernels": (_ALL_KERNELS, False, "")}
COLD_START_NOTE = ("- each in a fresh process, import included: *first AEC game* plays one complete PettingZoo AEC "
                   "game (seed 0, uniform legal actions; serial builds only), *quick start* as a user's env does "
                   "(`core.quickstart`: while the cache is cold the game plays as plain Python and a background "
                   "process compiles; its CPU seconds are not the process's), *compiled* with "
                   "`WILDWEST_QUICKSTART=off` (compiled in the process first); *all kernels* runs every batch "
                   "kernel once at B = 2 and B = 64 (the serial and the parallel builds); *cold*: into an empty "
                   "numba cache (`NUMBA_CACHE_DIR`), *cached*: again from it (for quick start, after the background "
                   "process has finished). CPU seconds are the process's: on a shared machine the wall time also "
                   "counts waiting for a core\n")


def cold_times(game_name: str, path: str) -> dict[str, tuple[float, float]]:
    """``{"cold": (wall, cpu), "cached": (wall, cpu)}`` seconds of a ``COLD_PATHS`` path of a game, import
    included, each in a fresh process: into an empty numba cache (``NUMBA_CACHE_DIR``), then from that cache.
    The CPU seconds (the process's) tell compilation apart from waiting for a core on a shared machine."""
    body, quick_start, after = COLD_PATHS[path]
    script = _TIMED.format(body=body.format(name=game_name)) + after
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, WILDWEST_QUICKSTART="on" if quick_start else "off",
                   WILDWEST_QUICKSTART_DIR=cache)
        env.pop("WILDWEST_SERIAL_BELOW", None)  # the library's own builds (the test suite sets it)
        for run_kind in ("cold", "cached"):
            out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                                 check=True)
            wall, cpu = (float(x) for x in out.stdout.strip().splitlines()[-1].split())
            results[run_kind] = (wall, cpu)
    return results


def cold_start_table(games: list[str]) -> list[str]:
    """Markdown lines: per game and path, the seconds cold and cached (wall, and CPU in parentheses)."""
    lines = ["| environment | path | cold: wall s (CPU s) | cached: wall s (CPU s) |", "|---|---|---:|---:|"]
    for name in games:
        for path in COLD_PATHS:
            t = cold_times(name, path)
            lines.append(f"| {name} | {path} | {t['cold'][0]:.1f} ({t['cold'][1]:.1f}) | "
                         f"{t['cached'][0]:.1f} ({t['cached'][1]:.1f}) |")
    return lines


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def run(seconds: float, batch_sizes: list[int], thread_counts: list[int], games: list[str],
        measure_compile: bool = True) -> str:
    """Measure everything (``measure_compile=False``: not the compile times) and return the Markdown report."""
    import numba
    import pettingzoo

    from wildwest_envs.registry import GAMES, game_module

    # the rates are the compiled kernels' steady state: no env of this process plays its first games as plain Python
    # while a background process compiles (core.quickstart; the cold-start rows measure that path apart)
    os.environ["WILDWEST_QUICKSTART"] = "off"
    lines = []
    say = lines.append
    say("# Throughput: random legal play, decisions per second\n")
    say(f"- machine: {_cpu_name()}, {os.cpu_count()} cores; python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {numba.__version__}, pettingzoo {pettingzoo.__version__}")
    say(f"- {seconds:.0f} s per measurement after warm-up (batched: in the steady state, once as many games have "
        f"finished as the batch holds); seed 0; ratios to connect_four_v3 AEC of this run (median of its "
        f"measurements)\n")

    from pettingzoo.classic import connect_four_v3
    anchors = [aec_random_play(connect_four_v3.env, seconds)]  # again after each game: a shared machine drifts
    rows = [("PettingZoo connect_four_v3", "AEC API", None)]
    spiel = openspiel_random_play(seconds)
    if spiel is not None:
        rows.append(("OpenSpiel backgammon", "pyspiel API", spiel))
    notes = []
    for name in games or list(GAMES):
        module = game_module(name)
        game = module.GAME
        rows.append((name, "AEC API", aec_random_play(module.env, seconds)))
        for threads in thread_counts:
            for batch in batch_sizes:
                rate = batched_random_play(game, batch, threads, seconds)
                rows.append((name, f"batched B={batch}, {threads} thread{'s' * (threads > 1)}", rate))
            batch = max(batch_sizes)
            rate = batched_random_play(game, batch, threads, seconds, draws_in_step=True)
            rows.append((name, f"batched B={batch}, {threads} thread{'s' * (threads > 1)}, draws in the step", rate))
        notes.append(f"- {name}: one game state is {game.state_bytes} bytes")
        anchors.append(aec_random_play(connect_four_v3.env, seconds))

    anchor = float(np.median(anchors))
    rows[0] = (rows[0][0], rows[0][1], anchor)
    say("| environment | interface | decisions/s | × connect_four_v3 |")
    say("|---|---|---:|---:|")
    for env_name, interface, rate in rows:
        say(f"| {env_name} | {interface} | {rate:,.0f} | {rate / anchor:.2f} |")
    say("")
    say(f"- connect_four_v3 is measured {len(anchors)} times, before the first game and after each: "
        f"{', '.join(f'{a:,.0f}' for a in anchors)} decisions/s; the ratios use the median")
    lines.extend(notes)
    say(f"- numba's threading layer: {numba.threading_layer()} (`wildwest_envs.core.threads`)")
    if measure_compile:
        say("\n## Cold start: seconds from an empty numba cache, and from the cache\n")
        say(COLD_START_NOTE)
        lines.extend(cold_start_table(games or list(GAMES)))
    return "\n".join(lines) + "\n"


def cold_report(games: list[str]) -> str:
    """The cold-start table alone (``--cold``), as Markdown."""
    import numba

    from wildwest_envs.registry import GAMES

    lines = ["# Cold start: seconds from an empty numba cache, and from the cache\n",
             f"- machine: {_cpu_name()}, {os.cpu_count()} cores; python {platform.python_version()}, "
             f"numpy {np.__version__}, numba {numba.__version__}", COLD_START_NOTE]
    lines.extend(cold_start_table(games or list(GAMES)))
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="measuring time per row")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[1, 1024, 8192])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="*", default=[], help="registered games (default: all)")
    parser.add_argument("--cold", action="store_true", help="measure only the cold start (seconds to compile)")
    parser.add_argument("--output", help="also write the Markdown table to this file")
    args = parser.parse_args()
    games = [g for item in args.games for g in item.split(",") if g]  # space- or comma-separated
    report = cold_report(games) if args.cold else run(args.seconds, args.batch_sizes, args.threads, games)
    print(report)
    if args.output:
        with open(args.output, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
