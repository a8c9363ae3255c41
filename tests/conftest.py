"""Shared test fixtures: the registered games and their player counts."""

from __future__ import annotations

import pytest

from wildwest_envs.registry import GAMES, get_game


def game_player_counts() -> list[tuple[str, int]]:
    """Every (registered game, supported player count) pair."""
    pairs = []
    for name in GAMES:
        game = get_game(name)
        pairs += [(name, n) for n in range(game.min_players, game.max_players + 1)]
    return pairs


GAME_PLAYER_COUNTS = game_player_counts()
GAME_NAMES = list(GAMES)


@pytest.fixture(params=GAME_NAMES)
def game(request):
    """The batched ``Game`` of each registered game."""
    return get_game(request.param)
