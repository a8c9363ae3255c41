"""Per-game training defaults for ``python -m training.train --game <game>``.

``training.train.Args`` holds defaults tuned for Colt Express. A game whose
games are longer, or whose observation needs another network, overrides some
fields here; the command line overrides both::

    Args defaults  <  PRESETS[game]  <  --flags given on the command line

Each value is a dict of ``Args`` field names to values; a test checks that every
key is a field of ``Args`` and every game is registered.
"""

from __future__ import annotations

PRESETS: dict[str, dict[str, object]] = {
    "colt_express_v0": {},  # the Args defaults are this game's
    # Way Out West: games of ~80 learner decisions; against random opponents the win rate passes 50 %
    # after ~70k timesteps, so 200k keep a margin and the run within a few minutes on 2 cores
    "way_out_west_v0": {"total_timesteps": 200_000, "snapshot_every": 50_000, "checkpoint_every": 100_000},
    # Wild West Express: games of ~350 (heuristic) to ~1,400 (random) learner decisions and observations of 15,744
    # floats, so PPO from scratch sees too few finished games in minutes. A warm start from the heuristic (every
    # seat; 20k decisions = ~50 games, batches of 24 games to bound memory) already wins every game against
    # random; a short PPO run (4 updates) fine-tunes it. A smaller first layer halves the cost of each update.
    # Evaluated against random only: 1,000 games against the Python heuristic would take longer than training.
    "wild_west_express_v0": {"imitate": "heuristic", "imitation_decisions": 20_000, "imitation_epochs": 4,
                             "imitation_batch_games": 24, "total_timesteps": 32_768, "net_arch": "128,128",
                             "snapshot_every": 0, "checkpoint_every": 100_000, "eval_opponents": "random"},
}


def preset_for(game_name: str) -> dict[str, object]:
    """The overrides of a registered game (canonical name); empty if it has none."""
    return dict(PRESETS.get(game_name, {}))
