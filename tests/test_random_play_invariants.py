"""10,000 seeded random games per game through the batched engine, invariants after every step."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game

N_GAMES = 10_000


def options_cycle(game) -> list[dict]:
    """Every player count, and the game's variants where it has them."""
    counts = range(game.min_players, game.max_players + 1)
    variants = [{}]
    if "expert" in game.parse_options():
        variants = [{"expert": False}, {"expert": True}]
    combos = []
    for n in counts:
        for v in variants:
            try:
                combos.append(game.parse_options(num_players=n, **v))
            except ValueError:  # e.g. a variant compulsory at this player count
                pass
    return combos


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_ten_thousand_random_games_keep_every_invariant(name):
    """Every step of 10,000 random games keeps the game's invariants; every game ends by its rules."""
    game = get_game(name)
    combos = options_cycle(game)
    per_combo = -(-N_GAMES // len(combos))
    played = 0
    for k, options in enumerate(combos):
        states = game.init_batch(per_combo, seed=1000 + k, **options)
        sample = LegalSampler(per_combo, k)
        masks = np.zeros((per_combo, game.n_actions), dtype=np.int8)
        for _ in range(options["max_decisions"] + 1):
            live = ~states["done"]
            if not live.any():
                break
            game.legal_mask(states, masks)
            assert masks[live].any(axis=1).all(), "a live game has no legal action"
            assert not masks[~live].any(), "a finished game has a legal action"
            game.step(states, sample(masks), check=False)
            violations = game.invariant_violations(states)
            assert not violations, f"{options}: {violations[:3]}"
        assert states["done"].all(), f"{options}: {int((~states['done']).sum())} games did not end"
        assert not game.truncated(states).any()
        played += per_combo
    assert played >= N_GAMES
