"""The suite's own layout: the tests of one game run on one pytest-xdist worker (``conftest.xdist_group_of``).

Under ``--dist loadgroup`` pytest-xdist appends a test's group to its node id (``...@<group>``) in the
worker and sends each group to one worker, so a game's kernels are compiled by one worker, not by both at once.
pytest 9.2 keeps node ids in a new field that pytest-xdist 3.8 does not write: the groups were silently ignored
(each game's kernels compiled twice, the suite minutes longer), hence the pin in pyproject's ``dev`` extra and
this check, which fails if the grouping stops working again.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GAME_NAMES, LONGEST_GROUPS_FIRST, longest_group_first_scheduling, next_work_unit


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_games_tests_are_grouped_on_one_worker(name, request):
    if not request.config.getoption("loadgroup", default=False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup (the README's test command)")
    assert request.node.nodeid.endswith(f"@{name}"), request.node.nodeid


def test_the_longest_groups_start_first_and_ungrouped_tests_keep_their_order():
    waiting = ["tests/test_a.py::test_one", "colt_express_v0", "docs", "rail_v0", "tests/test_b.py::test_two"]
    started = []
    while waiting:
        started.append(next_work_unit(waiting))
        waiting.remove(started[-1])
    assert started == ["rail_v0", "colt_express_v0", "docs", "tests/test_a.py::test_one", "tests/test_b.py::test_two"]


def test_every_game_is_ranked_and_the_scheduler_is_pytest_xdists_loadgroup():
    pytest.importorskip("xdist")
    from xdist.scheduler import LoadGroupScheduling
    assert set(GAME_NAMES) <= set(LONGEST_GROUPS_FIRST)
    assert issubclass(longest_group_first_scheduling(), LoadGroupScheduling)


def test_the_suite_runs_without_pytest_xdist():
    """The scheduler hook is pytest-xdist's own, so it is declared optional: without the plugin pytest would
    otherwise refuse the suite's conftest ("unknown hook")."""
    root = Path(__file__).resolve().parent.parent
    test = "tests/test_suite_groups.py::test_the_longest_groups_start_first_and_ungrouped_tests_keep_their_order"
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", test],
                         cwd=root, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
