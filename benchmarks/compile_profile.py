"""Where a cold start's seconds go: numba's compile time per jitted function.

    python -m benchmarks.compile_profile --game rail
    python -m benchmarks.compile_profile --game wild_west_express --path "all kernels" --top 15

Runs one cold-start path of ``benchmarks.throughput`` (``COLD_PATHS``: the first
complete AEC game, or every kernel once) in a fresh process with an empty numba
cache, listening to numba's ``numba:compile`` events, and prints one row per
compiled function: its *own* seconds (its compile minus that of the functions it
called and compiled first), how many signatures were compiled, and the seconds
including its callees. A function compiled for several signatures, or a few
functions holding most of the time, is where a cold start can be cut; seconds
spread thinly over many functions are numba's cost per function.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from numba.core import event

from wildwest_envs.registry import canonical_name


class CompileRecorder(event.Listener):
    """Collects ``(qualified name, seconds with callees, nesting depth)`` of every numba compilation."""

    def __init__(self):
        self.rows: list[tuple[str, float, int]] = []
        self._open: list[float] = []

    def on_start(self, ev) -> None:
        self._open.append(time.perf_counter())

    def on_end(self, ev) -> None:
        function = ev.data["dispatcher"].py_func
        seconds = time.perf_counter() - self._open.pop()
        name = function.__qualname__  # a renamed copy (core.kernels) carries its module in its qualname already
        if not name.startswith(function.__module__ + "."):
            name = f"{function.__module__}.{name}"
        self.rows.append((name, seconds, len(self._open)))


def own_seconds(rows: list[tuple[str, float, int]]) -> list[tuple[str, float, int, float]]:
    """Per function: ``(name, own seconds, signatures compiled, seconds with callees)``, most own seconds first.

    ``rows`` are in the order compilations end: a callee (depth d + 1) ends before its caller (depth d), so the
    seconds of the callees that ended since the caller's previous sibling are taken off the caller."""
    own, count, total = defaultdict(float), defaultdict(int), defaultdict(float)
    callees = defaultdict(float)  # depth -> seconds of finished compilations at that depth not yet charged
    for name, seconds, depth in rows:
        own[name] += seconds - callees.pop(depth + 1, 0.0)
        callees[depth] += seconds
        count[name] += 1
        total[name] += seconds
    return sorted(((n, own[n], count[n], total[n]) for n in own), key=lambda row: -row[1])


_CHILD = """
import json, sys
from numba.core import event
from benchmarks.compile_profile import CompileRecorder
recorder = CompileRecorder()
event.register("numba:compile", recorder)
{body}
event.unregister("numba:compile", recorder)
json.dump(recorder.rows, open(sys.argv[1], "w"))
"""


def profile(game_name: str, path: str) -> tuple[list[tuple[str, float, int, float]], float]:
    """The per-function table of a cold-start path (``own_seconds``) and the path's wall seconds, measured in a
    fresh process into an empty numba cache."""
    from benchmarks.throughput import COLD_PATHS
    script = _CHILD.format(body=COLD_PATHS[path][0].format(name=canonical_name(game_name)))
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, NUMBA_CACHE_DIR=folder, WILDWEST_QUICKSTART="off")  # what compiles in the process
        env.pop("WILDWEST_SERIAL_BELOW", None)
        out = os.path.join(folder, "rows.json")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", script, out], env=env, check=True)
        wall = time.perf_counter() - start
        rows = [tuple(row) for row in json.load(open(out))]
    return own_seconds(rows), wall


def report(game_name: str, path: str, top: int) -> str:
    """The Markdown table of ``profile``: the ``top`` functions by own seconds and the total of the others."""
    table, wall = profile(game_name, path)
    compiled = sum(row[1] for row in table)
    lines = [f"cold {path} of {canonical_name(game_name)}: {wall:.1f} s wall, {compiled:.1f} s compiling "
             f"{len(table)} functions ({sum(row[2] for row in table)} signatures)", "",
             "| function | own s | signatures | with callees s |", "|---|---:|---:|---:|"]
    for name, own, count, total in table[:top]:
        lines.append(f"| `{name}` | {own:.2f} | {count} | {total:.2f} |")
    rest = table[top:]
    if rest:
        lines.append(f"| {len(rest)} others | {sum(row[1] for row in rest):.2f} | {sum(row[2] for row in rest)} | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> str:
    """Command line: print the compile profile of one game's cold-start path."""
    from benchmarks.throughput import COLD_PATHS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="registered game")
    parser.add_argument("--path", default="first AEC game, compiled", choices=list(COLD_PATHS), help="cold-start path")
    parser.add_argument("--top", type=int, default=25, help="functions listed (the others are summed)")
    args = parser.parse_args(argv)
    try:
        canonical_name(args.game)
    except ValueError as error:
        parser.error(str(error))
    text = report(args.game, args.path, args.top)
    print(text)
    return text


if __name__ == "__main__":
    main()
