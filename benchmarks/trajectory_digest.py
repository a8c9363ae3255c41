"""Digest of every mask, state and observation of seeded random games: check that a change is behaviour-neutral.

A speed change to a kernel should leave every trajectory byte-identical. This
plays ``--games`` seeded random games of each variant of the soak (every player
count, each boolean option flipped; same seeds as ``benchmarks/soak.py``) and
hashes, after every step, the legal masks, the whole batch of records and, every
16 decisions, one seat's observation. Run it before and after the change and
compare::

    python -m benchmarks.trajectory_digest --game rail_v0 --output /tmp/before.json
    # ... change the kernels ...
    python -m benchmarks.trajectory_digest --game rail_v0 --compare /tmp/before.json

A change of the record *layout* (a field transposed or re-typed) changes the
bytes of every record but not the game: pass ``--exclude-fields own_t`` to both
runs to leave that field out of the record hash (masks and observations still
cover what it encodes).

``--compare`` exits with status 1 and names the variants whose digest differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
from numpy.lib.recfunctions import repack_fields

from benchmarks.soak import SAMPLER_SALT, VARIANT_SEED_STRIDE, variants


def record_bytes(states, exclude_fields: tuple = ()) -> bytes:
    """The bytes of a batch of records without the fields ``exclude_fields`` (packed: no gaps left)."""
    if not exclude_fields:
        return states.tobytes()
    return repack_fields(states[[f for f in states.dtype.names if f not in exclude_fields]]).tobytes()


def variant_digest(game, options: dict, variant: int, n_games: int, seed: int = 0,
                   exclude_fields: tuple = ()) -> str:
    """SHA-256 of the masks, records (less ``exclude_fields``) and sampled observations of ``n_games`` random
    games of one variant."""
    from wildwest_envs.core.kernels import dual
    from wildwest_envs.core.rng import game_seeds
    from wildwest_envs.core.runner import Dealer
    from wildwest_envs.core.sampling import sample_legal

    sample = dual(sample_legal)  # the builds the library runs (core.kernels)
    run_seed = seed + VARIANT_SEED_STRIDE * variant
    states = Dealer(game, run_seed, options).deal(n_games)
    rng = game_seeds(run_seed ^ SAMPLER_SALT, n_games, 0).copy()
    masks = np.zeros((n_games, game.n_actions), dtype=np.int8)
    actions = np.zeros(n_games, dtype=np.int64)
    digest = hashlib.sha256()
    while not game.finished(states).all():
        game.legal_mask(states, masks)
        digest.update(masks.tobytes())
        sample(masks, rng, actions)
        game.step(states, actions, check=False)
        digest.update(record_bytes(states, exclude_fields))
        if int(states["n_decisions"].max()) % 16 == 0:
            seats = states["n_decisions"].astype(np.int64) % states["num_players"].astype(np.int64)
            digest.update(np.ascontiguousarray(game.observe(states, seats)).tobytes())
    return digest.hexdigest()


def game_digests(name: str, n_games: int, seed: int = 0, exclude_fields: tuple = ()) -> dict[str, str]:
    """``{"<variant> <options>": digest}`` for every soak variant of a registered game."""
    from wildwest_envs.registry import get_game

    game = get_game(name)
    return {f"{v} {json.dumps(options, sort_keys=True)}":
            variant_digest(game, options, v, n_games, seed, exclude_fields)
            for v, options in enumerate(variants(game))}


def main(argv=None) -> int:
    """Print (and write or compare) the digests; exit status 1 if a comparison differs."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", nargs="+", required=True, help="registered games")
    p.add_argument("--games", type=int, default=300, help="games per variant")
    p.add_argument("--seed", type=int, default=0, help="run seed (as in benchmarks.soak)")
    p.add_argument("--exclude-fields", nargs="*", default=[], help="record fields left out of the hash (a "
                   "layout change)")
    p.add_argument("--output", type=Path, help="write the digests as JSON")
    p.add_argument("--compare", type=Path, help="compare with digests written earlier by --output")
    args = p.parse_args(argv)
    from wildwest_envs.registry import canonical_name

    digests = {n: game_digests(n, args.games, args.seed, tuple(args.exclude_fields))
               for n in (canonical_name(g) for item in args.game for g in item.split(",") if g)}
    if args.output:
        args.output.write_text(json.dumps(digests, indent=1))
    if not args.compare:
        print(json.dumps(digests, indent=1))
        return 0
    before = json.loads(args.compare.read_text())
    differ = [f"{n}: {v}" for n in digests for v in digests[n] if before.get(n, {}).get(v) != digests[n][v]]
    for line in differ:
        print("differs:", line)
    print(f"{sum(len(d) for d in digests.values()) - len(differ)} variants identical, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
