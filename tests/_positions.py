"""What the games' position-builder tests share: comparing a built position with one reached by play."""

from __future__ import annotations

import numpy as np


def differing_fields(a: np.ndarray, b: np.ndarray, ignore=()) -> list[str]:
    """The record fields (other than ``ignore``) in which two positions (batches of one) differ."""
    return [name for name in a.dtype.names if name not in ignore and not np.array_equal(a[0][name], b[0][name])]


def assert_same_views(game, built: np.ndarray, played: np.ndarray) -> None:
    """Equal legal masks and equal observations of every seat."""
    assert np.array_equal(game.legal_mask(built), game.legal_mask(played))
    for seat in range(int(built[0]["num_players"])):
        assert game.observe(built, seat).tobytes() == game.observe(played, seat).tobytes(), seat


def assert_same_position(game, built: np.ndarray, played: np.ndarray, ignore=()) -> None:
    """Equal records (but the fields in ``ignore``), legal masks and observations of every seat."""
    assert differing_fields(built, played, ignore) == []
    assert_same_views(game, built, played)
