"""What ``tests/test_plain_python.py`` runs twice, compiled and as plain Python (``NUMBA_DISABLE_JIT=1``).

``python -m tests._plain_python_run NAME DECISIONS`` plays seeded uniform random games of a registered game
through the batched API (a batch of ``BATCH`` games, ``DECISIONS`` steps or until every game ends, for each of
``rule_sets``: the defaults at the smallest player count, and every boolean option flipped from its default at
once, where the flips go together, at a larger one), and prints one SHA-256 of everything the kernels wrote on
the way: the records and legal masks after every step, every seat's observation, the scores, the returns and
the invariant check every ``CHECK_EVERY`` steps, and the determinizer's redraw for one seat mid-game.
DESIGN.md promises that the kernels run as plain Python with the same games (for pdb and coverage): the two
digests must be equal.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game

BATCH = 3  # games stepped at once, as a small vector env does (the serial builds)
CHECK_EVERY = 10  # steps between the observations, scores and invariant checks (each costs a kernel call)


def rule_sets(game) -> list[dict]:
    """The defaults at the smallest player count; at a larger one, each boolean option flipped from its default
    that can be flipped together with those flipped before it (the rest of the rules' code paths)."""
    larger = min(game.max_players, game.min_players + 2)
    flipped = {"num_players": larger}
    for name, default in game.parse_options(num_players=larger).items():
        if isinstance(default, (bool, np.bool_)):
            try:
                game.parse_options(**flipped, **{name: not default})
            except ValueError:  # compulsory at this player count, or excluded by a flip before it
                continue
            flipped[name] = not default
    return [{"num_players": game.min_players}, flipped]


def trajectory_digest(name: str, decisions: int) -> str:
    """The SHA-256 of a seeded random play of ``name`` (module docstring)."""
    game = get_game(name)
    digest = hashlib.sha256()
    for k, options in enumerate(rule_sets(game)):
        n = options["num_players"]
        states = game.init_batch(BATCH, seed=k, **options)
        sample = LegalSampler(BATCH, n)
        for t in range(decisions):
            masks = game.legal_mask(states)
            digest.update(masks.tobytes())
            if not masks.any():
                break
            game.step(states, sample(masks), check=False)
            digest.update(states.tobytes())
            if t % CHECK_EVERY == 0:
                for seat in range(n):
                    digest.update(game.observe(states, seat).tobytes())
                digest.update(game.scores(states).tobytes())
                digest.update(game.returns(states).tobytes())
                digest.update(repr(game.invariant_violations(states)).encode())
            if t == decisions // 2:
                seats = np.zeros(BATCH, dtype=np.int64)
                digest.update(game.resample_hidden(states, seats, game_seeds(99, BATCH)).tobytes())
    return digest.hexdigest()


if __name__ == "__main__":
    print(trajectory_digest(sys.argv[1], int(sys.argv[2])))
