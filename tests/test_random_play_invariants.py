"""Thousands of seeded random games per game through the batched engine, invariants after every step.

10,000 games of each game, except the two whose random games cost most: Rail (a decision costs about 20 times
one of Colt Express's) and Wild West Express (1,900 decisions a game) play 3,000, each still millions of checked
decisions (Wild West Express 5.6 million, Rail 0.8 million). The million-game runs of every game, with the same
checks after every step, are the soak's (``benchmarks/soak.py``, ``benchmarks/results/soak.md``); Rail's own
1,000 games with and without the expert rules are in ``tests/rail/test_random_play.py``.

**Every kernel, bounds-checked.** The suite compiles every kernel with numba's bounds checks (``tests/conftest.py``),
so these games also go looking for an index out of range (an ``IndexError`` instead of silent memory
corruption): besides the step, the legal mask and the invariants, every step observes one seat in turn (in the
first ``OBSERVED_GAMES`` games of the batch), and every ``MID_GAME_EVERY`` steps a few live games go through the
planning and saving paths (scores, returns, a redraw of what a seat cannot see, reseeding, the JSON round trip,
``mid_game_paths``); finished games are masked, observed by every seat and scored. (These were a bounds-checked
process of their own, ``tests/test_boundscheck.py``, before the whole suite was bounds-checked; that file keeps the
mutated saved states.)
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
OBSERVED_GAMES = 64  # games of the batch observed after every step (the first: every game, once others end)
MID_GAME_EVERY = 25  # steps between visits of the planning and saving paths (``mid_game_paths``)
MID_GAME_GAMES = 4  # live games that visit them


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
    """Every step of 10,000 random games (3,000 of the costly games) keeps the game's invariants, with every
    kernel on the way (module docstring); every game ends by its rules.

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
            game.observe(states[:OBSERVED_GAMES], step % options["num_players"])
            violations = game.invariant_violations(states)
            assert not violations, f"{options}: {violations[:3]}"
            if step % MID_GAME_EVERY == 0:
                mid_game_paths(game, states[~game.finished(states)][:MID_GAME_GAMES], step % options["num_players"],
                               seed=step)
        assert states["done"].all(), f"{options}: {int((~states['done']).sum())} games did not end"
        assert not game.legal_mask(states).any()
        for seat in range(options["num_players"]):
            game.observe(states, seat)
        assert len(game.returns(states)) == len(states)
        played += per_combo
    assert played >= n_games


def mid_game_paths(game, live, seat: int, seed: int) -> None:
    """Scores, returns, a redraw for ``seat`` (masked and observed), reseeding and the JSON round trip of a few live
    games; the redraw must keep the invariants and the round trip give back the record."""
    if not len(live):
        return
    game.scores(live)
    game.returns(live)
    redrawn = game.resample_hidden(live, seat, seed)
    assert not game.invariant_violations(redrawn)
    game.legal_mask(redrawn)
    game.observe(redrawn, seat)
    reseeded = live.copy()
    game.reseed(reseeded, seed)
    game.legal_mask(reseeded)
    assert game.from_json(game.to_json(live[0]))[0].tobytes() == live[0].tobytes()
