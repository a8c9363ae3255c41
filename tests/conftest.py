"""Shared test fixtures: the registered games and their player counts.

**Serial builds only.** Most of the suite's wall time is numba compiling kernels for the first time, and
each batch kernel has two builds (``core.kernels``): the serial one, and the parallel one, a loop over chunks of
the batch that calls the serial build (under a second to compile) and starts numba's thread pool. The suite runs
every batch on the serial builds (``WILDWEST_SERIAL_BELOW``, set before ``wildwest_envs`` is imported, so
that the subprocesses of the command-line and benchmark tests inherit it), and the tests that compare the
two builds ask for them with the ``parallel_builds`` fixture.

**Every kernel bounds-checked.** Numba does not check array indices; the suite compiles every kernel with
``NUMBA_BOUNDSCHECK=1``, so an index out of range raises ``IndexError`` in whichever test reaches it instead of
silently reading or writing another field. Numba's cache does not tell the checked builds from the unchecked
ones, so they go to a cache folder of their own (``BOUNDSCHECK_CACHE``, kept between runs; set
``WILDWEST_BOUNDSCHECK_CACHE`` to move it), never beside the sources where the library's builds are. The
random games of ``tests/test_random_play_invariants.py`` (every kernel on the way) and the mutated saved states of
``tests/test_boundscheck.py`` therefore go looking for an index out of range with the builds the rest of the suite
uses: a bounds-checked process of their own compiled every kernel of every game a second time (about 200 s of the
suite's CPU time on a fresh machine), while the checks cost the kernels 3-13% of their speed and 15% more
compile time (Rail and Wild West Express random play, measured 2026-12-05).

**One thread per worker.** The suite runs two pytest-xdist workers on two cores, so the other worker always holds
a core. A torch operation on two OpenMP threads then waits, at every one of its barriers, for a thread the
system has put aside: a guided-search test that makes many small forward passes took 20-25 s instead of 0.3-2 s
in CI (measured 2026-12-06: 21.4 s against 2.8 s with two busy processes beside it). Torch therefore runs on one
thread in the workers (``one_torch_thread``) and in the processes the tests start (``OMP_NUM_THREADS=1``); numba
keeps its threads for the tests that ask for them (``parallel_builds``, the thread tests), and its pool, which
sets OpenMP's thread count when it starts, is started here first.

**Bytecode written.** A machine that sets ``PYTHONDONTWRITEBYTECODE`` (the development and CI machines do) would
have every process the suite starts, and each worker, compile torch, Ray, matplotlib and the rest from source
again (``import torch`` 3.5 s instead of 1.5 s; about a minute of the suite's wall time from a fresh install, whose
packages come without bytecode): the suite writes it, for itself and the processes it starts.

**Compiled from the first game.** A user's PettingZoo env plays its first games as plain Python while numba's
cache is cold (``core.quickstart``) and starts a background process that compiles; the suite turns that off
(``WILDWEST_QUICKSTART=off``, inherited by the processes the tests start), so every env test runs the compiled
kernels, except ``tests/test_quickstart.py``, which tests quick start itself.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path

BOUNDSCHECK_CACHE = Path(os.environ.get("WILDWEST_BOUNDSCHECK_CACHE",
                                        Path(tempfile.gettempdir()) / "wildwest_envs_numba_boundscheck"))
# before numba is imported (module docstring); subprocesses of the tests inherit all three
os.environ["WILDWEST_SERIAL_BELOW"] = str(sys.maxsize)
os.environ["NUMBA_BOUNDSCHECK"] = "1"
os.environ["NUMBA_CACHE_DIR"] = str(BOUNDSCHECK_CACHE)
os.environ["OMP_NUM_THREADS"] = "1"  # torch's pool in the processes the tests start (module docstring)
os.environ["WILDWEST_QUICKSTART"] = "off"  # envs compile at once (module docstring)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode written once, then read (module docstring)
sys.dont_write_bytecode = False

import numba
import numpy as np
import pytest

numba.core.config.reload_config()  # in case a plugin imported numba before this file set the variables
assert numba.config.BOUNDSCHECK and numba.config.CACHE_DIR == str(BOUNDSCHECK_CACHE)
numba.get_num_threads()  # starts numba's pool now, which sets OpenMP's thread count to its own (module docstring)

from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import GAMES, get_game

LENGTH_SAMPLE_GAMES = 32  # seeded random games measured by ``random_game_length``


def game_player_counts() -> list[tuple[str, int]]:
    """Every (registered game, supported player count) pair."""
    pairs = []
    for name in GAMES:
        game = get_game(name)
        pairs += [(name, n) for n in range(game.min_players, game.max_players + 1)]
    return pairs


GAME_PLAYER_COUNTS = game_player_counts()
GAME_NAMES = list(GAMES)


@functools.lru_cache(maxsize=None)
def random_game_length(name: str, num_players: int | None = None) -> tuple[float, int]:
    """``(mean, longest)`` decisions of 32 seeded uniform-random games (default options, or ``num_players``).

    The generic tests size their loop budgets from this measurement instead of
    hard-coding them, so a game of 2,000 decisions gets the same coverage as one of
    80. The games are played to their end (decision cap included), with fixed seeds.
    """
    game = get_game(name)
    options = {} if num_players is None else {"num_players": num_players}
    states = game.init_batch(LENGTH_SAMPLE_GAMES, seed=987, **options)
    sample = LegalSampler(LENGTH_SAMPLE_GAMES, 987)
    masks = np.zeros((LENGTH_SAMPLE_GAMES, game.n_actions), dtype=np.int8)
    while not game.finished(states).all():
        game.legal_mask(states, masks)
        game.step(states, sample(masks), check=False)
    lengths = states["n_decisions"].astype(np.int64)
    return float(lengths.mean()), int(lengths.max())


def decision_budget(name: str, num_players: int | None = None) -> int:
    """Decisions after which every random game of ``name`` should have ended: 3 × the longest measured."""
    return 3 * random_game_length(name, num_players)[1] + 100


SERIAL_BELOW_DEFAULT = 64  # the library's own threshold (core.kernels), restored by ``parallel_builds``


@pytest.fixture
def parallel_builds(monkeypatch):
    """Batches of ``SERIAL_BELOW_DEFAULT`` games or more run the parallel builds in this test, as in the library."""
    from wildwest_envs.core import kernels
    monkeypatch.setattr(kernels, "SERIAL_BELOW", SERIAL_BELOW_DEFAULT)
    monkeypatch.delenv("WILDWEST_SERIAL_BELOW", raising=False)
    return SERIAL_BELOW_DEFAULT


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Torch on one thread in every test of a worker (module docstring); a test may set more for itself."""
    torch = sys.modules.get("torch")  # never imported here: the suite runs without the training extras too
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


@pytest.fixture(params=GAME_NAMES)
def game(request):
    """The batched ``Game`` of each registered game."""
    return get_game(request.param)


RAY_STARTING_FILES = ("tests/test_rllib_train.py", "tests/test_rllib_cluster.py")  # the ``ray`` group


def xdist_group_of(nodeid: str, params: dict) -> str | None:
    """The pytest-xdist group of a test: the tests of one game share a worker, the Ray tests another.

    The suite runs on two workers (``pytest -n 2 --dist loadgroup``, the README's test command). Numba compiles a
    kernel the first time a process calls it and caches it on disk, so a game's tests on one worker compile its
    kernels once, where two workers starting on the same game at once would both compile them. The tests that
    start and stop Ray instances (``RAY_STARTING_FILES``) run one at a time, in a group of their own; the RLlib
    adapter's tests (``test_rllib_env.py``) start none and go with their game, whose kernels that worker compiles
    anyway. The install tests share one wheel build (a module fixture building in the checkout's ``build/``
    folder, which two builds at once would both write).
    """
    path = nodeid.split("::")[0]
    if path.endswith(RAY_STARTING_FILES):
        return "ray"
    if path.endswith("test_install.py"):
        return "install"
    games = [name for name in GAME_NAMES if f"tests/{name.removesuffix('_v0')}/" in path
             or any(value in (name, name.removesuffix("_v0")) for value in params.values() if isinstance(value, str))]
    return games[0] if games else None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook, which reads the marks
def pytest_collection_modifyitems(config, items):
    """Mark every test with its ``xdist_group`` (``xdist_group_of``); without pytest-xdist the marks do nothing."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        group = xdist_group_of(item.nodeid, dict(callspec.params) if callspec else {})
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


# The groups in the order the two workers should start them, the longest first: measured 2026-12-05 from a fresh
# clone with empty numba caches, seconds of one worker, Rail 505, Wild West Express 366, Colt Express 332, Way Out
# West 151, ray 112, install 24, docs 21. pytest-xdist hands out the group with the most tests first, and so
# started Rail last, on the worker that had run Wild West Express: 871 s there while the other worker idled
# from 742 s. Ungrouped tests (a unit each) keep their order after these and fill the gaps at the end.
LONGEST_GROUPS_FIRST = ("rail_v0", "wild_west_express_v0", "colt_express_v0", "way_out_west_v0", "ray", "install",
                        "docs")


def next_work_unit(scopes) -> str:
    """The scope (a group name, or an ungrouped test's id) a free worker should start next: the first of
    ``LONGEST_GROUPS_FIRST`` still waiting, else the first waiting one."""
    rank = {group: i for i, group in enumerate(LONGEST_GROUPS_FIRST)}
    return min(scopes, key=lambda scope: rank.get(scope, len(rank)))  # min keeps the first of equals


def longest_group_first_scheduling():
    """pytest-xdist's ``loadgroup`` scheduler, starting the groups in ``next_work_unit`` order (imported when
    pytest-xdist runs the suite: the suite runs without it too)."""
    from xdist.scheduler import LoadGroupScheduling

    class LongestGroupFirstScheduling(LoadGroupScheduling):
        def _assign_work_unit(self, node) -> None:
            self.workqueue.move_to_end(next_work_unit(self.workqueue), last=False)
            super()._assign_work_unit(node)

    return LongestGroupFirstScheduling


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown (and never called) without pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (the README's test command) hands out the longest groups first; any other mode is
    pytest-xdist's own."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return longest_group_first_scheduling()(config, log)

