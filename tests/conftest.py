"""Shared test fixtures: the registered games and their player counts."""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest

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


@pytest.fixture(params=GAME_NAMES)
def game(request):
    """The batched ``Game`` of each registered game."""
    return get_game(request.param)


def pytest_collection_finish(session):
    """Start the bounds-checked random games in the background if they are selected (``tests/test_boundscheck.py``:
    their compilation takes minutes, and overlaps the rest of the suite this way)."""
    names = [item.callspec.params["name"] for item in session.items
             if getattr(item, "originalname", "") == "test_random_games_with_numba_bounds_checking"]
    if names:
        from tests.test_boundscheck import start_in_background
        start_in_background(names)


def pytest_sessionfinish(session, exitstatus):
    """Drop background bounds-checked runs that have not started (a run cut short by ``-x`` or Ctrl-C)."""
    module = sys.modules.get("tests.test_boundscheck")
    if module is not None:
        module._BACKGROUND.shutdown(wait=False, cancel_futures=True)
