"""The suite's own layout: the tests of one game run on one pytest-xdist worker (``conftest.xdist_group_of``).

Under ``--dist loadgroup`` pytest-xdist appends a test's group to its node id (``...@<group>``) in the
worker and sends each group to one worker, so a game's kernels are compiled by one worker, not by both at once.
pytest 9.2 keeps node ids in a new field that pytest-xdist 3.8 does not write: the groups were silently ignored
(each game's kernels compiled twice, the suite minutes longer), hence the pin in pyproject's ``dev`` extra and
this check, which fails if the grouping stops working again.
"""

from __future__ import annotations

import pytest

from tests.conftest import GAME_NAMES


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_games_tests_are_grouped_on_one_worker(name, request):
    if not request.config.getoption("loadgroup", default=False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup (the README's test command)")
    assert request.node.nodeid.endswith(f"@{name}"), request.node.nodeid
