"""What ``tests/test_boundscheck.py`` runs in a process whose kernels are compiled with bounds checks.

``python -m tests._boundscheck_runs random NAME DECISIONS_PER_COUNT`` plays seeded random games of a
registered game at every player count (a big batch of as many games as make about that many decisions,
``games_per_count``, and ``SMALL_BATCH`` games), observing a seat in turn and checking the invariants after
every step, with scores, the determinizer, reseeding and the JSON round trip mid-game; it prints ``ok``.

Every batch runs the serial build of each kernel (``core.kernels.SERIAL_BELOW`` is raised for this
process): the parallel build is the same Python function compiled with ``prange`` for ``range``, so it
indexes the same arrays with the same indices, and compiling it a second time with bounds checks
doubled these tests' time without checking another index. That the two builds compute the same
records is tested in ``tests/test_core_api.py`` (batches of 8 and 96).

``python -m tests._boundscheck_runs mutations NAME N`` loads ``N`` mutated saved states
(``tests._mutations.fuzz``) and prints the JSON counts of what was accepted, refused, unsafe and
inconsistent.
"""

from __future__ import annotations

import json
import sys

from wildwest_envs.core import kernels
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game

kernels.SERIAL_BELOW = sys.maxsize  # the serial builds only (module docstring)

SMALL_BATCH = 4  # games stepped alongside, as the PettingZoo env steps them
MIN_GAMES_PER_COUNT, MAX_GAMES_PER_COUNT = 50, 500


def games_per_count(name: str, decisions: int) -> int:
    """Random games per player count that make about ``decisions`` decisions (``tests.conftest``'s measured mean
    length, here on the checked build), from ``MIN_GAMES_PER_COUNT`` to ``MAX_GAMES_PER_COUNT``."""
    from tests.conftest import random_game_length

    per_count = int(decisions // random_game_length(name)[0])
    return min(max(per_count, MIN_GAMES_PER_COUNT), MAX_GAMES_PER_COUNT)


def random_games(name: str, per_count: int) -> None:
    """Random games of every player count with every kernel; raises on a broken invariant."""
    game = get_game(name)
    for n in range(game.min_players, game.max_players + 1):
        big = game.init_batch(per_count, seed=n, num_players=n)
        small = game.init_batch(SMALL_BATCH, seed=100 + n, num_players=n)
        for states, sample in ((big, LegalSampler(per_count, n)), (small, LegalSampler(SMALL_BATCH, 100 + n))):
            for t in range(int(states["max_decisions"].max()) + 1):
                if states["done"].all():
                    break
                game.step(states, sample(game.legal_mask(states)), check=False)
                game.observe(states, t % n)
                assert not game.invariant_violations(states)
                if t % 25 == 0:  # planning and saving paths, mid-game
                    _mid_game_paths(game, states, t % n, t)
            game.legal_mask(states)
            game.observe(states)
            game.returns(states)
            assert states["done"].all()


def _mid_game_paths(game, states, seat: int, seed: int) -> None:
    live = states[~game.finished(states)][:SMALL_BATCH]
    if not len(live):
        return
    game.scores(live)
    game.returns(live)
    redrawn = game.resample_hidden(live, seat, seed)
    assert not game.invariant_violations(redrawn)
    game.legal_mask(redrawn)
    game.observe(redrawn, seat)
    game.reseed(live, seed)
    game.legal_mask(live)
    game.from_json(game.to_json(live[0]))


def mutations(name: str, n: int) -> dict:
    """Counts of mutated saved states accepted, refused, unsafe and inconsistent (``tests._mutations``)."""
    from tests._mutations import fuzz

    accepted, refused, unsafe, inconsistent = fuzz(get_game(name), 2, n, seed=0)
    return {"accepted": accepted, "refused": refused, "unsafe": unsafe, "inconsistent": inconsistent}


if __name__ == "__main__":
    what, game_name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if what == "random":
        random_games(game_name, games_per_count(game_name, count))
        print("ok")
    else:
        print(json.dumps(mutations(game_name, count)))
