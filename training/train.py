"""Train a MaskablePPO agent by self-play on a registered game (CleanRL-style, one file).

    python -m training.train --game colt_express --players 3

The learner sits in a random seat of each of ``num_envs`` batched games; the
other seats are played inside the env by an opponent pool (random, the game's
heuristic if it has one, and snapshots of the learner added on a schedule).
Writes to ``run_dir``: ``config.json``, ``progress.csv`` and TensorBoard logs,
``checkpoints/``, the final ``model.zip``, ``evaluation.md`` and
``learning_curve.png``; prints the evaluation table at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import random
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
from stable_baselines3.common.logger import configure

from agents.registry import make_agent
from agents.policy import PolicyAgent, network_class
from training.evaluate import evaluate_against, plot_learning_curve
from training.imitation import collect_demonstrations, pretrain_policy
from training.opponents import OpponentPool
from training.presets import preset_for
from training.selfplay_env import SelfPlayVecEnv
from wildwest_envs.registry import canonical_name, get_game


@dataclass
class Args:
    game: str = "colt_express"
    """registered game to train on"""
    players: int = 3
    """number of players"""
    seed: int = 1
    """seeds python, numpy, torch and every environment"""
    total_timesteps: int = 500_000
    """learner decisions to train for"""
    num_envs: int = 64
    """games played at once"""
    n_steps: int = 128
    """rollout length per game between updates"""
    batch_size: int = 2048
    """minibatch size"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam step size"""
    gamma: float = 0.995
    """discount (the reward comes at the end of the game)"""
    ent_coef: float = 0.01
    """entropy bonus"""
    reward_mode: str = "win"
    """the learner's final reward: "win" (+1/-1), "rank" or "score" (see core.game)"""
    net_arch: str = "256,256"
    """hidden layer sizes of the policy and value networks"""
    policy: str = "mlp"
    """policy network: "mlp" (MlpPolicy with net_arch) or a game's own network (agents.policy.POLICY_NETWORKS)"""
    opponents: str = "random"
    """comma-separated opponent pool (names or checkpoint paths)"""
    imitate: str = ""
    """teacher agent to clone before PPO (e.g. "heuristic"; empty: start from a random policy)"""
    imitation_decisions: int = 200_000
    """teacher decisions recorded for the warm start (every seat played by the teacher)"""
    imitation_epochs: int = 6
    """behaviour-cloning passes over the recorded decisions"""
    imitation_batch_games: int = 256
    """teacher games played (and recorded) at once; long games need fewer to reach imitation_decisions"""
    snapshot_every: int = 100_000
    """add a frozen copy of the learner to the pool every this many timesteps (0: never)"""
    checkpoint_every: int = 200_000
    """save a checkpoint every this many timesteps"""
    eval_games: int = 1000
    """games of the final evaluation against each opponent line-up"""
    eval_opponents: str = "random,heuristic"
    """comma-separated agents the final evaluation plays against (each fills all other seats)"""
    run_dir: str = ""
    """output directory (default runs/<game>_<players>p_seed<seed>)"""
    threads: int = 2
    """torch threads"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Command-line flags over the game's preset (``training.presets``) over the ``Args`` defaults."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     argument_default=argparse.SUPPRESS)
    for f in dataclasses.fields(Args):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default),
                            help=f"{_field_doc(f.name)} (default: {f.default!r}, or the game's preset)")
    given = vars(parser.parse_args(argv))
    game_name = canonical_name(given.get("game", Args.game))
    return Args(**{**preset_for(game_name), **given})


def _field_doc(name: str) -> str:
    """The docstring under an ``Args`` field (the line after its declaration)."""
    source = inspect.getsource(Args).splitlines()
    for i, line in enumerate(source):
        if line.strip().startswith(f"{name}:") and i + 1 < len(source):
            return source[i + 1].strip().strip('"')
    return ""


class SelfPlayCallback(BaseCallback):
    """Logs the learner's win rate and the env's share of wall time; adds learner snapshots to the pool."""

    def __init__(self, pool: OpponentPool, snapshot_every: int, window: int = 500):
        super().__init__()
        self.pool, self.snapshot_every = pool, snapshot_every
        self.results: deque = deque(maxlen=window)
        self.start = time.perf_counter()
        self.last_snapshot = 0

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done:
                self.results.append(info["won"])
        if self.results:
            self.logger.record("selfplay/win_rate", float(np.mean(self.results)))
        env = self.training_env
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        self.logger.record("selfplay/engine_time_share", (env.env_seconds - env.opponent_seconds) / elapsed)
        self.logger.record("selfplay/opponent_time_share", env.opponent_seconds / elapsed)
        if self.snapshot_every and self.num_timesteps - self.last_snapshot >= self.snapshot_every:
            self.last_snapshot = self.num_timesteps
            k = sum(self.pool.is_snapshot) + 1
            self.pool.add(PolicyAgent.from_model(self.model, deterministic=False, seed=k, name=f"snapshot-{k}"))
        return True


def warm_start(model, game, game_name: str, args: Args, run_dir: Path) -> None:
    """Clone the teacher ``args.imitate`` into the policy and critic (``training.imitation``)."""
    teacher = make_agent(args.imitate, game_name, seed=args.seed + 500)
    demos = collect_demonstrations(game, teacher, args.imitation_decisions, seed=args.seed + 500, gamma=args.gamma,
                                   reward_mode=args.reward_mode, batch_games=args.imitation_batch_games,
                                   num_players=args.players)
    metrics = pretrain_policy(model, demos, epochs=args.imitation_epochs, seed=args.seed)
    (run_dir / "imitation.json").write_text(json.dumps(dict(metrics, teacher=args.imitate, decisions=len(demos)),
                                                       indent=1))
    print(f"warm start from {args.imitate}: held-out accuracy {metrics['accuracy']:.1%}, "
          f"value MSE {metrics['value_mse']:.3f}")


def main() -> None:
    args = parse_args()
    game_name = canonical_name(args.game)
    game = get_game(game_name)
    run_dir = Path(args.run_dir or f"runs/{game_name}_{args.players}p_seed{args.seed}")
    run_dir.mkdir(parents=True, exist_ok=True)
    config = dict(dataclasses.asdict(args), game=game_name, num_players=args.players)
    (run_dir / "config.json").write_text(json.dumps(config, indent=1))

    # ---- seeding ----
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)

    # ---- env and opponents ----
    pool = OpponentPool([make_agent(spec, game_name, seed=args.seed + i)
                         for i, spec in enumerate(args.opponents.split(","))])
    env = SelfPlayVecEnv(game, args.num_envs, pool, seed=args.seed, reward_mode=args.reward_mode,
                         num_players=args.players)

    # ---- model ----
    arch = [int(x) for x in args.net_arch.split(",")]
    model = MaskablePPO(network_class(args.policy), env, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.n_epochs, learning_rate=args.learning_rate, gamma=args.gamma,
                        ent_coef=args.ent_coef, policy_kwargs={"net_arch": arch}, seed=args.seed,
                        device="cpu", verbose=0)
    model.set_logger(configure(str(run_dir), ["csv", "tensorboard"]))
    if args.imitate:
        warm_start(model, game, game_name, args, run_dir)

    # ---- training ----
    callbacks = CallbackList([
        SelfPlayCallback(pool, args.snapshot_every),
        CheckpointCallback(max(args.checkpoint_every // args.num_envs, 1), str(run_dir / "checkpoints"), "model"),
    ])
    start = time.perf_counter()
    model.learn(total_timesteps=args.total_timesteps, callback=callbacks, progress_bar=True)
    train_seconds = time.perf_counter() - start
    model.save(run_dir / "model.zip")
    engine = env.env_seconds - env.opponent_seconds
    split = (f"wall time split: game engine {engine / train_seconds:.1%}, opponents' decisions "
             f"{env.opponent_seconds / train_seconds:.1%}, learner (PPO rollouts and updates) "
             f"{1 - env.env_seconds / train_seconds:.1%}")
    (run_dir / "timing.txt").write_text(split + "\n")
    print(f"trained {args.total_timesteps:,} timesteps in {train_seconds:.0f} s; saved {run_dir / 'model.zip'}\n{split}")

    # ---- evaluation ----
    learner = PolicyAgent.load(run_dir / "model.zip", deterministic=True, seed=args.seed)
    tables = []
    for spec in args.eval_opponents.split(","):
        opponents = [make_agent(spec, game_name, seed=1000 + i) for i in range(args.players - 1)]
        table, _ = evaluate_against(game_name, args.players, learner, opponents, args.eval_games, seed=args.seed)
        tables.append(f"### trained agent vs {args.players - 1} × {spec}\n\n{table}\n")
    report = "\n".join(tables)
    (run_dir / "evaluation.md").write_text(report)
    plot_learning_curve(run_dir)
    print(report)


if __name__ == "__main__":
    main()
