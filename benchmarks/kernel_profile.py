"""Where a game's batched engine spends its time: a ``perf`` profile of the steady state, by numba function.

    python -m benchmarks.kernel_profile --game rail
    python -m benchmarks.kernel_profile --game colt_express --batch 8192 --seconds 20 --top 30 --output prof.md
    python -m benchmarks.kernel_profile --game rail --batch 1024 --callers

Plays uniform legal random games as ``benchmarks.throughput`` does (one thread,
finished games re-dealt in place), and while it runs in the steady state,
samples the process with Linux ``perf record``. numba's compiled code has no
symbols that ``perf`` can read, so the profile names it through a perf map
(``/tmp/perf-<pid>.map``, read by ``perf report``) written from the compiled
libraries: every function numba compiled in this process, by module and name
(``rail.routes.find_route``); a parallel loop's body is named after its kernel
(``rail.rules.step_and_mask [loop body]``); what a function inlines counts as
its own. To see the functions, the kernels are compiled in this process (an
empty numba cache for the run: about a minute for Rail), not loaded from the
cache.

Prints (and with ``--output`` writes) a Markdown table of the functions with
the most samples, self time, next to the run's decisions per second (slower
than an unprofiled run: ``perf`` costs a few percent). With ``--callers`` a
second table names who calls numba's reference counting (``NRT_incref``,
``NRT_decref``), which the first table lists without a caller: compiled numba
code has no frame pointers or unwind tables ``perf`` reads, but these two are
leaves that push nothing, so in a sample inside them the first word of the user
stack (``perf record --call-graph dwarf,64`` saves it) is the return address
into their caller (how the reference counts of issue 22 were found: helpers
that take many arrays, ``core.borrowed.UNCOUNTED``). Needs ``perf``
(Debian's ``linux-perf``) and permission to profile one's own processes
(``kernel.perf_event_paranoid`` at most 2).
"""

from __future__ import annotations

import argparse
import bisect
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_PERF_LINE = re.compile(r"^\s*([0-9.]+)%\s+\[\.\]\s+(.+?)(\s+-\s+-)?\s*$")  # perf may add "-  -" columns
_MANGLED_PART = re.compile(r"(\d+)")


def readable_name(mangled: str) -> str:
    """``wildwest_envs.rail.routes.find_route`` from numba's Itanium-style mangled symbol (its ``_ZN``
    length-prefixed parts; numba's ABI tags after them are dropped; ``_3c`` / ``_3e`` are ``<`` / ``>``)."""
    text = mangled[3:] if mangled.startswith("_ZN") else mangled
    parts, i = [], 0
    while i < len(text) and text[i].isdigit():
        digits = _MANGLED_PART.match(text, i).group(1)
        start = i + len(digits)
        parts.append(text[start:start + int(digits)])
        i = start + int(digits)
    if not parts:
        return mangled
    return ".".join(parts).replace("_3c", "<").replace("_3e", ">")


def compiled_symbols() -> list[tuple[int, str]]:
    """``(address, name)`` of every function numba has compiled in this process (from its dispatchers)."""
    from numba.core.dispatcher import Dispatcher

    symbols, seen = [], set()
    for dispatcher in [obj for obj in gc.get_objects() if isinstance(obj, Dispatcher)]:
        owner = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        for result in list(dispatcher.overloads.values()):
            library = result.library
            module = getattr(library, "_final_module", None)
            if module is None or id(library) in seen:
                continue  # loaded from a cache: no LLVM module to name its functions
            seen.add(id(library))
            for function in module.functions:
                if function.is_declaration:
                    continue
                address = library.get_pointer_to_function(function.name)
                if address:
                    name = readable_name(function.name)
                    if not name.startswith("wildwest_envs"):  # a parallel loop's body, or a helper of numba's
                        name = f"{owner} [loop body]" if "parfor" in name else f"{name} (in {owner})"
                    symbols.append((address, name.removeprefix("wildwest_envs.")))
    return sorted(set(symbols))


def write_perf_map(symbols: list[tuple[int, str]], pid: int) -> Path:
    """``/tmp/perf-<pid>.map`` (start, size, name a line), each function up to the next one's start."""
    path = Path(tempfile.gettempdir()) / f"perf-{pid}.map"
    ends = [address for address, _ in symbols[1:]] + [symbols[-1][0] + 4096]
    with path.open("w") as out:
        for (address, name), end in zip(symbols, ends):
            out.write(f"{address:x} {max(min(end - address, 1 << 20), 1):x} {name}\n")
    return path


def top_functions(report: str, top: int) -> list[tuple[float, str]]:
    """The ``top`` rows (percent of samples, name) of ``perf report --sort symbol`` text, summed by name."""
    totals: dict[str, float] = {}
    for line in report.splitlines():
        match = _PERF_LINE.match(line)
        if match:
            totals[match.group(2)] = totals.get(match.group(2), 0.0) + float(match.group(1))
    return sorted(((share, name) for name, share in totals.items()), reverse=True)[:top]


_SAMPLE_IP = re.compile(r"PERF_RECORD_SAMPLE\(.*?: (0x[0-9a-f]+) period")
_USER_STACK = re.compile(r"ustack: size (\d+), offset (0x[0-9a-f]+)")
_RAW_BYTES = re.compile(r"^\.\s+[0-9a-f]{4}:\s+((?:[0-9a-f]{2} ){1,16})")


def sampled_return_addresses(dump: str) -> list[tuple[int, int]]:
    """``(ip, first word of the user stack)`` of every sample in ``perf script -D`` text of a recording made with
    ``--call-graph dwarf,N`` (the raw bytes of each event are dumped before its decoded lines)."""
    samples, raw, ip = [], bytearray(), None
    for line in dump.splitlines():
        if "raw event: size" in line:
            raw, ip = bytearray(), None
        elif (match := _RAW_BYTES.match(line)) is not None:
            raw.extend(bytes.fromhex(match.group(1).replace(" ", "")))
        elif (match := _SAMPLE_IP.search(line)) is not None:
            ip = int(match.group(1), 16)
        elif (match := _USER_STACK.search(line)) is not None and ip is not None and int(match.group(1)) >= 8:
            start = int(match.group(2), 16) + 8  # the offset is that of the stack's size word; its bytes follow
            samples.append((ip, int.from_bytes(raw[start:start + 8], "little")))
    return samples


def callers_of(samples: list[tuple[int, int]], symbols: list[tuple[int, str]], prefix: str = "NRT_",
               top: int = 25) -> list[tuple[float, str]]:
    """The ``top`` callers of the functions named ``prefix...`` (percent of all samples, caller's name), from the
    return addresses of ``sampled_return_addresses`` and the ``(address, name)`` symbols of the perf map."""
    starts = [address for address, _ in symbols]

    def name_at(address: int) -> str | None:
        i = bisect.bisect_right(starts, address) - 1
        return symbols[i][1] if i >= 0 and address - starts[i] < (1 << 20) else None

    counts: dict[str, int] = {}
    for ip, returned_to in samples:
        if (name_at(ip) or "").startswith(prefix):
            caller = name_at(returned_to) or "(not a numba function)"
            counts[caller] = counts.get(caller, 0) + 1
    total = max(len(samples), 1)
    return sorted(((100.0 * n / total, name) for name, n in counts.items()), reverse=True)[:top]


def profile(game_name: str, batch: int, seconds: float, top: int, threads: int = 1, callers: bool = False) -> str:
    """Profile the steady state of ``game_name`` at batch ``batch`` on ``threads`` threads; the Markdown report
    (with several threads the shares are of all threads' samples together: idle waits show as the OpenMP
    runtime's functions)."""
    perf = shutil.which("perf")
    if perf is None:
        raise SystemExit("kernel_profile: needs Linux perf (apt-get install linux-perf)")
    from benchmarks.throughput import batched_random_play
    from wildwest_envs.registry import canonical_name, get_game

    game = get_game(canonical_name(game_name))
    batched_random_play(game, batch, threads, 1.0)  # compile and warm up
    symbols = compiled_symbols()
    map_path = write_perf_map(symbols, os.getpid())
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "perf.data"
        stacks = ["--call-graph", "dwarf,64"] if callers else []
        recorder = subprocess.Popen([perf, "record", "-F", "1999", *stacks, "-p", str(os.getpid()), "-o", str(data)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.0)  # perf attaches
        rate = batched_random_play(game, batch, threads, seconds, warm_up_limit=0.0)
        recorder.send_signal(signal.SIGINT)
        _, errors = recorder.communicate(timeout=60)
        if recorder.returncode not in (0, -2) or not data.exists():
            raise SystemExit(f"kernel_profile: perf record failed: {errors.decode()[-400:]}")
        report = subprocess.run([perf, "report", "-i", str(data), "--no-children", "--sort", "symbol", "--stdio",
                                 "-g", "none"], capture_output=True, text=True, check=True).stdout
        caller_rows = []
        if callers:
            dump = subprocess.run([perf, "script", "-i", str(data), "-D"], capture_output=True, text=True,
                                  check=True).stdout
            caller_rows = callers_of(sampled_return_addresses(dump), symbols, top=top)
    map_path.unlink(missing_ok=True)
    rows = top_functions(report, top)
    lines = [f"## Kernel profile: {canonical_name(game_name)}, batch {batch}, {threads} thread{'s' * (threads > 1)}",
             "",
             f"`python -m benchmarks.kernel_profile --game {game_name} --batch {batch} --seconds {seconds:g}"
             f"{f' --threads {threads}' if threads > 1 else ''}`: "
             f"{rate:,.0f} decisions/s while profiled; {len(symbols)} compiled functions named; self time "
             f"(what a function inlines counts as its own); the rest of the samples are Python, numpy and the "
             f"C library.",
             "",
             "| samples | function |", "|---:|---|"]
    lines += [f"| {share:.1f}% | `{name}` |" for share, name in rows]
    if callers:
        lines += ["", "Who calls numba's reference counting (`NRT_incref`, `NRT_decref`): the function holding the "
                  "return address of each sample inside them, as a share of all samples.", "",
                  "| samples | caller |", "|---:|---|"]
        lines += [f"| {share:.2f}% | `{name}` |" for share, name in caller_rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Command line: profile one game's steady state, print (and write) the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="registered game")
    parser.add_argument("--batch", type=int, default=256, help="games stepped at once (default 256: the "
                                                               "records stay in cache, the kernels' own time shows)")
    parser.add_argument("--seconds", type=float, default=12.0, help="profiled seconds of the steady state")
    parser.add_argument("--top", type=int, default=25, help="functions listed")
    parser.add_argument("--threads", type=int, default=1, help="numba threads (default 1)")
    parser.add_argument("--callers", action="store_true",
                        help="also list who calls numba's reference counting (records the user stacks)")
    parser.add_argument("--output", help="also write the Markdown table to this file")
    args = parser.parse_args(argv)
    if args.batch < 1 or args.seconds <= 0 or args.top < 1 or args.threads < 1:
        parser.error("--batch, --seconds, --top and --threads must be positive")
    if "numba" in sys.modules:
        raise SystemExit("kernel_profile: run it as a command (numba must not be imported before it sets its cache)")
    # compiled here, not loaded from the cache: only compiled libraries hold the LLVM modules that name functions
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="kernel_profile_")
    text = profile(args.game, args.batch, args.seconds, args.top, args.threads, args.callers)
    print(text)
    if args.output:
        Path(args.output).write_text(text)


if __name__ == "__main__":
    main()
