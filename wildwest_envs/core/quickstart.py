"""Quick start: a PettingZoo env plays its first games at once while numba compiles in the background.

From an empty numba cache a game's kernels compile in 30-60 s on a 2-core machine
(``benchmarks/results/cold_start.md``), and a newcomer's first ``env.reset()`` waited for
them. The same kernels run as plain Python (DESIGN.md; ``tests/test_plain_python.py`` holds
both builds to the same games), and a whole game of plain Python takes 1-11 s. So when the
cache is cold, ``GameAECEnv`` plays on a *plain twin* of its game while one background
process fills the cache, and switches to the compiled game at the first ``reset`` (or
``load_state``) after the cache is ready:

1. ``game_to_play(game, events, options)`` (called by the env at ``reset``) returns the
   compiled ``game`` at once when its *marker* says the cache is warm; otherwise it starts
   the warm-up (below), if nobody is running it yet, and returns the twin.
2. The twin is the game's modules imported a second time, under the package name
   ``_wildwest_envs_plain``, while ``numba.config.DISABLE_JIT`` is set: ``njit`` then returns
   the Python functions themselves, so nothing of the twin ever compiles (``plain_twin``).
   Both import the same files, so they play the same games, seed for seed.
3. The warm-up, ``python -m wildwest_envs.core.quickstart NAME --marker PATH`` at low
   priority, plays one game of a compiled env with the user's options (every kernel that
   an env calls compiles into numba's on-disk cache), then writes the marker. Its output
   goes to ``PATH`` with the suffix ``.log``. A warm-up still running when the program ends
   goes on (it is in a session of its own) and leaves the cache warm for the next run.

The marker is a file in numba's cache directory of ``wildwest_envs.core`` (or
``WILDWEST_QUICKSTART_DIR``), named after the game, the events flag and a key of the numba
and Python versions and every source file's size and modification time of ``core`` and the
game's package, the stamp numba's own cache index checks. A warm cache costs a ``stat`` of
each of those files once per process (about half a millisecond). If the warm-up fails, the env
compiles in its own process, as without quick start. ``WILDWEST_QUICKSTART=off`` turns quick
start off (the test suite does, except where it tests it); under ``NUMBA_DISABLE_JIT`` every game is plain already.

Only the PettingZoo env starts plain: the batched ``Game`` API, agents and training run
compiled kernels from the first call.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import hashlib
import importlib
import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import numba
import numpy as np

PLAIN_PACKAGE = "_wildwest_envs_plain"  # the twin's top-level package name
ENV_SWITCH = "WILDWEST_QUICKSTART"  # "off" (or "0", "no", "false"): compile in the env's process at once
ENV_DIR = "WILDWEST_QUICKSTART_DIR"  # where the markers live (default: numba's cache directory of core)
_OFF = {"off", "0", "no", "false"}

_warmups: dict[str, subprocess.Popen] = {}  # marker path -> the warm-up this process started
_warm: set[tuple[str, bool]] = set()  # (game name, events) found warm by this process: no more checks


def enabled() -> bool:
    """Quick start is on: not switched off by ``WILDWEST_QUICKSTART``, and numba compiles (no
    ``NUMBA_DISABLE_JIT``, under which every game is plain already)."""
    return os.environ.get(ENV_SWITCH, "").strip().lower() not in _OFF and not numba.config.DISABLE_JIT


# ---- the plain twin -----------------------------------------------------------------------
def _real_package() -> types.ModuleType:
    return sys.modules[__package__.split(".")[0]]  # (``__name__`` is ``__main__`` in the warm-up)


def _plain_root() -> types.ModuleType:
    """The twin's top-level package: a module over the real package's directory whose ``__init__`` is not run
    (submodules are found through its ``__path__`` and imported under the twin's name)."""
    root = sys.modules.get(PLAIN_PACKAGE)
    if root is None:
        root = types.ModuleType(PLAIN_PACKAGE, "wildwest_envs' modules as plain Python (core.quickstart)")
        root.__path__ = list(_real_package().__path__)
        root.__package__ = PLAIN_PACKAGE
        sys.modules[PLAIN_PACKAGE] = root
    return root


def plain_module(name: str) -> types.ModuleType:
    """The plain-Python twin of the library module ``name`` (e.g. ``"wildwest_envs.rail.rules"``): the same
    file imported as ``_wildwest_envs_plain.rail.rules`` with numba's JIT off, so its kernels and the helpers
    they call are the Python functions themselves."""
    real_root = _real_package().__name__
    if name != real_root and not name.startswith(real_root + "."):
        raise ValueError(f"{name!r} is not a module of {real_root}")
    twin_name = PLAIN_PACKAGE + name[len(real_root):]
    if twin_name in sys.modules:
        return sys.modules[twin_name]
    _plain_root()
    was = numba.config.DISABLE_JIT
    numba.config.DISABLE_JIT = True  # read by @njit when each twin module is executed
    try:
        return importlib.import_module(twin_name)
    finally:
        numba.config.DISABLE_JIT = was


def plain_twin(game):
    """The plain-Python ``Game`` of the registered compiled ``game`` (``plain_module``)."""
    from ..registry import GAMES

    return plain_module(GAMES[game.name]).GAME


def is_plain(game) -> bool:
    """``game`` is a plain twin (``plain_twin``)."""
    return type(game).__module__.startswith(PLAIN_PACKAGE + ".")


def counterpart(module: types.ModuleType, game) -> types.ModuleType:
    """``module`` of ``game``'s build: its plain twin when ``game`` is one, else ``module`` itself (for an env
    that calls a kernel of its game's package besides those the ``Game`` binds)."""
    return plain_module(module.__name__) if is_plain(game) else module


# ---- the marker of a warm cache -------------------------------------------------------------
def _sources(game) -> list[Path]:
    """The source files of ``core`` and of ``game``'s package (the package of its env module)."""
    from ..registry import game_module

    root = Path(_real_package().__path__[0])
    env_module = game_module(game.name).raw_env.__module__  # e.g. "wildwest_envs.rail.env"
    game_dir = root.joinpath(*env_module.split(".")[1:-1])
    return sorted([*root.joinpath("core").glob("*.py"), *game_dir.glob("*.py")])


def cache_key(game) -> str:
    """A digest of what numba's cache of ``game``'s kernels depends on: the numba and Python versions and the
    size and modification time of every source file of ``core`` and the game's package."""
    stamp = [numba.__version__, sys.version]
    for path in _sources(game):
        status = path.stat()
        stamp.append(f"{path.name}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(stamp).encode()).hexdigest()[:16]


def marker_dir() -> Path:
    """Where the markers live: ``WILDWEST_QUICKSTART_DIR``, else numba's cache directory of ``core.kernels``
    (beside ``__pycache__`` or numba's user-wide cache, wherever numba writes), else ``~/.cache``."""
    chosen = os.environ.get(ENV_DIR, "").strip()
    if chosen:
        return Path(chosen)
    from . import kernels

    try:
        return Path(kernels.lowest_bit._cache.cache_path)  # numba's choice of a writable cache directory
    except AttributeError:
        return Path.home() / ".cache" / "wildwest_envs"


def marker_path(game, events: bool) -> Path:
    """The marker file of ``game``'s warm cache (with the event log's build when ``events``)."""
    kind = "events" if events else "plain"
    return marker_dir() / f"quickstart-{game.name}-{kind}-{cache_key(game)}.ok"


def is_warm(game, events: bool = False) -> bool:
    """The warm-up of ``game`` has filled numba's cache for the sources as they are now."""
    return marker_path(game, events).exists()


# ---- choosing the game an env plays ---------------------------------------------------------
def game_to_play(game, events: bool = False, options: dict | None = None):
    """The ``Game`` an env of the compiled ``game`` should play its next game on: ``game`` itself when quick
    start is off, the cache is warm or the warm-up failed; otherwise its plain twin, with the warm-up started
    if nobody runs it yet (module docstring). ``options``: the env's game options, played by the warm-up."""
    if not enabled() or (game.name, events) in _warm or not _is_registered(game):
        return game
    marker = marker_path(game, events)
    if marker.exists():
        _warm.add((game.name, events))  # the modules this process runs cannot change: warm for good
        return game
    running = _warmups.get(str(marker))
    if running is not None and running.poll() is not None:  # it ended without the marker: failed
        return game
    if running is None and _claim(marker):
        _warmups[str(marker)] = _start_warmup(game, events, options or {}, marker)
    return plain_twin(game)


def _is_registered(game) -> bool:
    """``game`` is the ``GAME`` of a registered game (of which a twin can be made), not a game of one's own."""
    from ..registry import GAMES, get_game

    return game.name in GAMES and get_game(game.name) is game


def wait_for_warmup(game, events: bool = False, timeout: float | None = None) -> bool:
    """Wait until the warm-up this process started for ``game`` ends; ``True`` when the cache is then warm
    (for scripts and tests that want the compiled game from the next ``reset``)."""
    running = _warmups.get(str(marker_path(game, events)))
    if running is not None:
        running.wait(timeout)
    return is_warm(game, events)


def _lock_path(marker: Path) -> Path:
    return marker.with_suffix(".lock")


def _someone_warming(marker: Path) -> bool:
    """The warm-up's lock is held by a live process (its pid is in the lock; on Windows, where a signal cannot
    probe a process, a lock younger than ten minutes counts as held)."""
    lock = _lock_path(marker)
    try:
        if os.name == "nt":
            return time.time() - lock.stat().st_mtime < 600
        pid = int(lock.read_text().strip() or 0)
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return pid > 0


def _claim(marker: Path) -> bool:
    """Take the warm-up's lock for this process (created exclusively, so of several processes starting cold at
    once one warms up); a stale lock, of a process that has ended, is taken over. ``False``: someone holds it."""
    lock = _lock_path(marker)
    marker.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if _someone_warming(marker):
                return False
            with contextlib.suppress(OSError):
                lock.unlink()  # stale
            continue
        with os.fdopen(descriptor, "w") as file:
            file.write(str(os.getpid()))
        return True
    return False


def _json_options(options: dict) -> str:
    """The env's options as JSON for the warm-up (those that are not JSON: left to their defaults)."""
    plain = {}
    for key, value in options.items():
        value = value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value
        try:
            json.dumps(value)
        except TypeError:
            continue
        plain[key] = value
    return json.dumps(plain)


def _start_warmup(game, events: bool, options: dict, marker: Path) -> subprocess.Popen:
    """Start the warm-up process (the lock is this process's: ``_claim``); the lock then names the warm-up."""
    command = [sys.executable, "-m", __name__, game.name, "--marker", str(marker),
               "--options", _json_options(options)] + (["--events"] if events else [])
    environment = {**os.environ, ENV_SWITCH: "off"}
    log = open(marker.with_suffix(".log"), "w")  # noqa: SIM115 (the child writes to it; closed below)
    try:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=environment, start_new_session=True)
    finally:
        log.close()
    _lock_path(marker).write_text(str(process.pid))
    return process


@atexit.register
def _leave_warmups_running() -> None:
    """At exit, warm-ups still running are left to finish on purpose (module docstring): their ``Popen`` objects
    are marked done so that their collection does not warn of a process still running."""
    for process in _warmups.values():
        if process.poll() is None:
            process.returncode = 0


# ---- the warm-up ----------------------------------------------------------------------------
def warm_up(name: str, options: dict, events: bool, seed: int = 0) -> int:
    """Play one seeded random game of a compiled env of ``name`` (``options`` as ``env()`` takes them), so that
    every kernel an env calls compiles into numba's cache; returns the number of decisions played."""
    from ..registry import game_module
    from .aec import play_random_game

    env = game_module(name).raw_env(render_mode="ansi", events=events, **options)
    env.reset(seed=seed)
    env.render()

    def name_one(legal: np.ndarray) -> None:  # compiles the names an illegal action's error gives
        env.game.action_to_string_fn(env.states[0], int(legal[0]))

    decisions = play_random_game(env, np.random.default_rng(seed), on_decision=name_one)
    env.render()
    return decisions


def main(argv: list[str] | None = None) -> int:
    """``python -m wildwest_envs.core.quickstart NAME --marker PATH [--options JSON] [--events]``: the warm-up."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("name", help="registered game name")
    parser.add_argument("--marker", required=True, help="file to write when the cache is warm")
    parser.add_argument("--options", default="{}", help="the env's game options as JSON")
    parser.add_argument("--events", action="store_true", help="warm the event log's build too")
    args = parser.parse_args(argv)
    marker = Path(args.marker)
    try:
        decisions = warm_up(args.name, json.loads(args.options), args.events)
        temporary = marker.with_suffix(".tmp")
        temporary.write_text(json.dumps({"game": args.name, "decisions": decisions}))
        os.replace(temporary, marker)
    finally:
        with contextlib.suppress(OSError):
            _lock_path(marker).unlink()
    print(f"warm: {args.name}, {decisions} decisions")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)  # the env's own plain game comes first
    sys.exit(main())
