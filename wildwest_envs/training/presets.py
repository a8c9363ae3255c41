"""Per-game training defaults for ``python -m wildwest_envs.training.train --game <game>``.

``training.train.Args`` holds defaults tuned for Colt Express. A game whose
games are longer, or whose observation needs another network, overrides some
fields here; the command line overrides both::

    Args defaults  <  PRESETS[game]  <  --flags given on the command line

Each value is a dict of ``Args`` field names to values; a test checks that every
key is a field of ``Args`` and every game is registered.

``REFERENCE[game]`` is the recipe of the network shipped with the library
(``agents/weights/``, agent spec ``pretrained``), selected by ``--preset
reference``: it replaces the game's default preset (flags still win). Its run
writes ``pretrained.npz`` in the run directory; copying that file to
``wildwest_envs/agents/weights/<game>_3p.npz`` ships it. The measured wall
time of each recipe is in ``benchmarks/results/pretrained.md``.

A recipe may build on earlier networks of its own: ``"stage:<name>"`` as
``init_from`` or among the ``opponents`` stands for the network of the preset
``STAGES[game][name]`` (``--preset stage:<name>``), which the run trains first,
with the seed its preset names (else the run's), in ``<run_dir>/stages/<name>/``
(kept and reused when the run is started again). So one command still retrains a network fine-tuned
from another, against opponents that were trained for it.
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
    # Rail: ~1,800 actions, most of them steps of the hex map, and 35,284 observation floats. A flat MLP clones the
    # heuristic to 42 % held-out accuracy and then wins ~37 % against random (it hardly builds towards cities); the
    # spatial network (agents.rail_network: one shared score per buildable step) is used instead. A warm start from
    # the heuristic (8k decisions, 6 epochs: 26 % held-out accuracy) and a short, gentle PPO fine-tune (2 updates)
    # win 99.9 % against random (benchmarks/results/rail_3p_default_run_*) in ~580 s of CPU (an estimated 5-10
    # minutes on an idle 2-core machine); small rollouts bound the memory of the large observations.
    "rail_v0": {"policy": "rail_spatial", "imitate": "heuristic", "imitation_decisions": 8_000,
                "imitation_epochs": 6, "imitation_batch_games": 16, "total_timesteps": 4_096, "num_envs": 16,
                "n_steps": 128, "batch_size": 512, "n_epochs": 2, "learning_rate": 5e-5, "snapshot_every": 0,
                "checkpoint_every": 100_000, "eval_opponents": "random"},
}


# The shipped networks (3 players): a behaviour-cloning warm start from the heuristic, then MaskablePPO against two
# heuristic opponents, the yardstick the network must beat (issue: pretrained >= 50 % against 2 heuristics).
_AGAINST_HEURISTIC = {"opponents": "heuristic", "imitate": "heuristic", "imitation_decisions": 200_000,
                      "imitation_epochs": 6, "snapshot_every": 0, "checkpoint_every": 250_000, "eval_games": 300,
                      "eval_opponents": "heuristic", "threads": 1}
STAGE_PREFIX = "stage:"  # "stage:<name>" in init_from or opponents: the network of an earlier stage of the recipe
# Earlier stages of a recipe in several stages: STAGES[game][name] is a preset (--preset stage:<name>); a recipe that
# names "stage:<name>" trains it first in <run_dir>/stages/<name>/ with the same seed (training.train.train_stages).
STAGES: dict[str, dict[str, dict[str, object]]] = {
    "colt_express_v0": {
        # the network shipped before: 244 PPO updates; the greedy network plateaued at 47-48 % against 2
        # heuristics from 1.75M to 2.25M timesteps (600 games each), so the run stops at 2M
        "against_heuristic": {**_AGAINST_HEURISTIC, "total_timesteps": 1_998_848},
    },
    "wild_west_express_v0": {
        # the network shipped first (43 % of 2,000 games against 2 heuristics): a heuristic clone, then 1.5M PPO
        # timesteps against 2 heuristics with the rank reward
        "against_heuristic": {"imitate": "heuristic", "imitation_decisions": 120_000, "imitation_epochs": 8,
                              "imitation_batch_games": 64, "opponents": "heuristic", "reward_mode": "rank",
                              "learning_rate": 1e-4, "total_timesteps": 1_507_328, "net_arch": "64,64",
                              "snapshot_every": 0, "checkpoint_every": 131_072, "eval_games": 600,
                              "eval_opponents": "heuristic", "threads": 1},
        # the network shipped second (48.7 % of 2,000 games): the first one fine-tuned by 786k more timesteps
        "fine_tune": {"init_from": "stage:against_heuristic", "opponents": "heuristic", "reward_mode": "rank",
                      "learning_rate": 1e-4, "total_timesteps": 786_432, "net_arch": "64,64", "snapshot_every": 0,
                      "checkpoint_every": 131_072, "eval_games": 600, "eval_opponents": "heuristic", "threads": 1},
    },
    "way_out_west_v0": {
        # the network shipped before: the greedy network wins 97 % of 2,000 games against 2 heuristics, but it
        # over-fits them (the README-default agent beats it head to head)
        "against_heuristic": {**_AGAINST_HEURISTIC, "total_timesteps": 245_760},
        "default": dict(PRESETS["way_out_west_v0"]),  # the README-default run (self-play snapshots and random)
    },
    "rail_v0": {
        # the network shipped before (0.3 % of 600 games against 2 heuristics): 3x the default clone's decisions
        # (57.5 % held-out accuracy, was 26 %), then PPO against 2 heuristics with the rank reward, which gave no
        # signal (the learner finished last in every training game), so that run stopped at its first checkpoint
        "clone_24k": {**PRESETS["rail_v0"], "imitation_decisions": 24_000, "imitation_epochs": 5,
                      "opponents": "heuristic", "reward_mode": "rank", "learning_rate": 1e-4, "n_epochs": 4,
                      "total_timesteps": 65_536, "checkpoint_every": 65_536, "eval_games": 600,
                      "eval_opponents": "heuristic", "threads": 1, "seed": 1},
        # the clone of stage clone_24k cloned further (72k more heuristic decisions, 4 epochs: 81.8 % held-out
        # accuracy), then PPO against 2 heuristics with the score reward, 65,536 timesteps (39 min): 41.7 % of
        # 300 games, 44.0 % [41.9 %, 46.2 %] of 2,000 against 2 heuristics
        "clone_72k": {**PRESETS["rail_v0"], "init_from": "stage:clone_24k", "imitation_decisions": 72_000,
                      "imitation_epochs": 4, "opponents": "heuristic", "reward_mode": "score", "learning_rate": 1e-4,
                      "n_epochs": 4, "total_timesteps": 65_536, "checkpoint_every": 32_768, "eval_games": 300,
                      "eval_opponents": "heuristic", "threads": 1, "seed": 1},
        # the network shipped third (45.9 % [43.7 %, 48.1 %] of 2,000 games against 2 heuristics): stage clone_72k
        # fine-tuned by MaskablePPO against 2 heuristics with the score reward, 131k timesteps (27 min): 48.2 %
        # of its own 600 games
        "score_131k": {**PRESETS["rail_v0"], "init_from": "stage:clone_72k", "imitate": "", "opponents": "heuristic",
                       "reward_mode": "score", "learning_rate": 1e-4, "n_epochs": 4, "total_timesteps": 131_072,
                       "checkpoint_every": 32_768, "eval_games": 600, "eval_opponents": "heuristic", "threads": 1,
                       "seed": 1},
    },
}
REFERENCE: dict[str, dict[str, object]] = {
    # Colt Express: the network trained against heuristics (it plateaued at 46-48 % of games against 2 of them),
    # fine-tuned against 2 heuristics with the rank reward (beating one seat counts too) at a third of the
    # learning rate: 51 % of 2,000 games
    "colt_express_v0": {"init_from": "stage:against_heuristic", "opponents": "heuristic", "reward_mode": "rank",
                        "learning_rate": 1e-4, "total_timesteps": 2_007_040, "snapshot_every": 0,
                        "checkpoint_every": 200_000, "eval_games": 1000, "eval_opponents": "heuristic", "threads": 1},
    # Way Out West: the network trained against heuristics, fine-tuned against a mixed pool (heuristic, the
    # README-default agent, its own frozen start and 5 of its snapshots) at a third of the learning rate
    "way_out_west_v0": {"init_from": "stage:against_heuristic", "opponents": "heuristic,stage:default,"
                        "stage:against_heuristic", "learning_rate": 1e-4, "total_timesteps": 401_408,
                        "snapshot_every": 40_960, "checkpoint_every": 81_920, "eval_games": 600,
                        "eval_opponents": "heuristic", "threads": 1},
    # Wild West Express and Rail: a larger clone of the heuristic (each of its decisions takes ~0.3-0.6 ms), then
    # MaskablePPO against 2 heuristics with the rank reward (beating one of them counts too) at a gentle learning
    # rate; Wild West Express with 64-unit layers so that the file stays under 5 MB (float16): 43 % of 600 games
    # against 2 heuristics after 1.5M timesteps (88 min), then fine-tuned by the same PPO from that network (its
    # win rate was still rising): 48.7 % of 2,000 games after 786k more (23 min, stage fine_tune), and 55.1 %
    # [52.9 %, 57.3 %] of 2,000 after 786k more again (27 min)
    "wild_west_express_v0": {"init_from": "stage:fine_tune", "opponents": "heuristic", "reward_mode": "rank",
                             "learning_rate": 1e-4, "total_timesteps": 786_432, "net_arch": "64,64",
                             "snapshot_every": 0, "checkpoint_every": 131_072, "eval_games": 600,
                             "eval_opponents": "heuristic", "threads": 1},
    # Rail: the network of stage score_131k (the one shipped before, 45.9 % of 2,000 games against 2 heuristics)
    # fine-tuned by the same PPO with a smaller entropy bonus (0.003: the sampled policy nearer the greedy one it is
    # judged by) and its own seed, 65,536 timesteps (18 min): 51.5 % [49.4 %, 53.7 %] of 2,000 games
    "rail_v0": {**PRESETS["rail_v0"], "init_from": "stage:score_131k", "imitate": "", "opponents": "heuristic",
                "reward_mode": "score", "learning_rate": 1e-4, "n_epochs": 4, "ent_coef": 0.003,
                "total_timesteps": 65_536, "checkpoint_every": 65_536, "eval_games": 600,
                "eval_opponents": "heuristic", "threads": 1, "seed": 2},
}
PRESET_NAMES = ("default", "reference")  # --preset choices (and stage:<name>, an earlier stage of a recipe)


def preset_for(game_name: str, preset: str = "default") -> dict[str, object]:
    """The overrides of a registered game (canonical name) for a preset name; empty if it has none.

    Raises:
        ValueError: an unknown preset name, ``reference`` for a game that has no reference recipe, or
            ``stage:<name>`` for a stage the game's recipes do not have.
    """
    if preset.startswith(STAGE_PREFIX):
        stage = preset.removeprefix(STAGE_PREFIX)
        if stage not in STAGES.get(game_name, {}):
            raise ValueError(f"no stage {stage!r} in the recipes of {game_name}; its stages: "
                             f"{sorted(STAGES.get(game_name, {}))}")
        return dict(STAGES[game_name][stage])
    if preset == "default":
        return dict(PRESETS.get(game_name, {}))
    if preset == "reference":
        if game_name not in REFERENCE:
            raise ValueError(f"no reference recipe for {game_name}; games with one: {sorted(REFERENCE)}")
        return dict(REFERENCE[game_name])
    raise ValueError(f"unknown preset {preset!r}; choose one of {PRESET_NAMES} (or {STAGE_PREFIX}<name>, an "
                     f"earlier stage of a recipe)")
