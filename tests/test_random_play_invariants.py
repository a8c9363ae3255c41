"""Thousands of seeded random games per game through the batched engine, invariants after every step.

10,000 games of each game, except the two whose random games cost most: Rail (a decision costs about 20 times
one of Colt Express's) and Wild West Express (1,900 decisions a game) play 3,000, each still millions of checked
decisions (Wild West Express 5.6 million, Rail 0.8 million). The million-game runs of every game, with the same
checks after every step, are the soak's (``benchmarks/soak.py``, ``benchmarks/results/soak.md``); Rail's own
1,000 games with and without the expert rules are in ``tests/rail/test_random_play.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import GAME_NAMES, decision_budget
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game

N_GAMES = 10_000
FEWER_GAMES = {"rail_v0": 3_000, "wild_west_express_v0": 3_000}  # the costly games (module docstring)
COMPACT_EVERY = 64  # steps between drops of finished games from the batch


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
def test_thousands_of_random_games_keep_every_invariant(name):
    """Every step of 10,000 random games (3,000 of the costly games) keeps the game's invariants; every game ends
    by its rules.

    A game with its own turn cap (truncated, scores standing) may end there; the library's
    decision cap never ends one. Finished games are dropped from the batch every
    ``COMPACT_EVERY`` steps (after their last step was checked), so long games cost
    what their live positions cost.
    """
    game = get_game(name)
    combos = options_cycle(game)
    n_games = FEWER_GAMES.get(name, N_GAMES)
    per_combo = -(-n_games // len(combos))
    played = 0
    for k, options in enumerate(combos):
        states = game.init_batch(per_combo, seed=1000 + k, **options)
        sample = LegalSampler(per_combo, k)
        budget = min(options["max_decisions"], decision_budget(name, options["num_players"]))
        for step in range(budget + 1):
            if step % COMPACT_EVERY == 0:
                finished = states["done"]  # by the rules (a decision-capped game is not done)
                states, sample.rng = states[~finished], sample.rng[~finished]
                sample.out = sample.out[:len(states)]
                masks = np.zeros((len(states), game.n_actions), dtype=np.int8)
            live = ~states["done"]
            if not live.any():
                break
            game.legal_mask(states, masks)
            actions = sample(masks)  # -1 exactly for the rows without a legal action
            assert (actions[live] >= 0).all(), "a live game has no legal action"
            assert (actions[~live] < 0).all(), "a finished game has a legal action"
            game.step(states, actions, check=False)
            violations = game.invariant_violations(states)
            assert not violations, f"{options}: {violations[:3]}"
        assert states["done"].all(), f"{options}: {int((~states['done']).sum())} games did not end"
        played += per_combo
    assert played >= n_games
