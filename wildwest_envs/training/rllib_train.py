"""Train one shared PPO policy for every seat of a registered game with Ray RLlib (self-play).

    python -m wildwest_envs.training.rllib_train --game colt_express --players 3                 # this machine
    python -m wildwest_envs.training.rllib_train --game colt_express --players 3 --address auto  # a running Ray cluster

RLlib's PPO on the new API stack (RLModule / Learner / EnvRunner). Every seat of every
game is played by the module ``"shared"`` and all their decisions train it. With
``--opponents`` (``make_agent`` specs: MaskablePPO checkpoints of ``training.train``,
``rllib:<run or checkpoint>`` of earlier RLlib runs, ``random``, ``heuristic``), a share
``--opponent-fraction`` of the games puts ``"shared"`` in one random seat and frozen
opponents (``training.rllib_module.FrozenAgentModule``, never trained) in the others.

Each env runner steps ``--num-envs-per-env-runner`` games with one call of the batched
engine (``training.rllib_env.BatchedMultiAgentEnvRunner``; ``--no-batched`` uses RLlib's
own loop over single-game envs instead). Scaling knobs: ``--num-env-runners`` (sampling
processes, one CPU each), ``--num-envs-per-env-runner``, ``--num-learners`` (0: the
learner runs in this process; N: N learner actors, data parallel).

Writes to ``run_dir``: ``config.json``, ``progress.csv`` (one row per iteration: steps,
throughput, losses, and every ``--eval-every`` iterations the win rate of the greedy
policy against random players), ``checkpoints/iter_<n>`` (every
``--checkpoint-every`` iterations), the final algorithm checkpoint ``checkpoint/``,
``timing.txt``, ``evaluation.md`` (the ``training.evaluate`` table against each
``--eval-opponents`` line-up) and ``learning_curve.png``; prints the table at the end.
``rllib:<run_dir>`` is an agent spec for ``training.evaluate`` and ``--opponents``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wildwest_envs.agents.registry import POLICY_PREFIX, RLLIB_PREFIX, agents_for_command, make_agent
from wildwest_envs.agents.rllib_policy import FINAL_CHECKPOINT, MODULE_ID, RLlibPolicyAgent
from wildwest_envs.training.cli import field_docs, join_agent_lists, seed_everything
from wildwest_envs.training.stats import summarize
from wildwest_envs.training.tournament import evaluate_against, evaluation_report, opponent_copies
from wildwest_envs.registry import canonical_name, get_game

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # wildwest_envs/, with its agents and training
SHIPPED_PACKAGES = (PACKAGE_DIR,)  # code a cluster's workers receive with --address
PROGRESS_EVAL_OPPONENT = "random"  # the learning curve's yardstick


@dataclass
class Args:
    game: str = "colt_express"
    """registered game to train on"""
    players: int = 3
    """number of players"""
    seed: int = 1
    """seeds python, numpy, torch, RLlib and every environment"""
    total_timesteps: int = 2_000_000
    """decisions (env steps, all seats) to train for"""
    num_env_runners: int = 1
    """sampling processes (0: sample in this process)"""
    num_envs_per_env_runner: int = 64
    """games each env runner steps at once"""
    num_cpus_per_env_runner: int = 1
    """CPUs reserved per env runner (also the engine's numba threads there)"""
    num_learners: int = 0
    """learner actors (0: one learner in this process)"""
    train_batch_size: int = 8192
    """decisions per PPO update (per learner)"""
    minibatch_size: int = 1024
    """SGD minibatch"""
    num_epochs: int = 4
    """passes over each batch"""
    lr: float = 3e-4
    """Adam step size"""
    gamma: float = 0.995
    """discount (the reward comes at the end of the game)"""
    lambda_: float = 0.95
    """GAE lambda"""
    entropy_coeff: float = 0.01
    """entropy bonus"""
    net_arch: str = "256,256"
    """hidden layer sizes of the shared encoder (ReLU); linear policy and value heads"""
    reward_mode: str = "win"
    """each seat's final reward: "win" (+1/-1), "rank", "score" or "margin" (see core.game)"""
    opponents: str = ""
    """frozen opponents, space- or comma-separated make_agent specs (none: pure self-play)"""
    opponent_fraction: float = 0.5
    """share of the games in which the frozen opponents hold every seat but one"""
    checkpoint_every: int = 20
    """save an algorithm checkpoint every this many iterations (0: only the final one)"""
    eval_every: int = 5
    """every this many iterations, play --eval-progress-games greedy games against random players (0: never)"""
    eval_progress_games: int = 300
    """games of each progress evaluation"""
    eval_games: int = 1000
    """games of the final evaluation against each opponent line-up"""
    eval_opponents: str = "random,heuristic"
    """agents the final evaluation plays against (each fills all other seats), space- or comma-separated"""
    run_dir: str = ""
    """output directory (default runs/rllib_<game>_<players>p_seed<seed>)"""
    address: str = ""
    """a running Ray cluster ("auto" or host:port); empty: start Ray on this machine"""
    ship_code: bool = True
    """with --address: send this installation's wildwest_envs package (with its agents and training) to the workers"""
    num_cpus: int = 0
    """CPUs of the local Ray instance (0: all of this machine's)"""
    batched: bool = True
    """step each env runner's games with one batched engine call (else RLlib's loop over single games)"""
    threads: int = 1
    """torch threads of this process (the local learner, and the local env runner with --num-env-runners 0)"""
    max_iterations: int = 0
    """stop after this many iterations even if total_timesteps is not reached (0: no limit)"""
    max_seconds: float = 0.0
    """stop training after the iteration that passes this many seconds (0: no limit); evaluation follows"""


def parse_args(argv: list[str] | None = None) -> Args:
    """The command line over the ``Args`` defaults."""
    from wildwest_envs.agents.registry import SPECS
    from wildwest_envs.registry import GAMES
    epilog = f"games: {', '.join(g.removesuffix('_v0') for g in GAMES)}\nagent specs: {', '.join(SPECS)}"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=epilog)
    docs = field_docs(Args)
    for f in dataclasses.fields(Args):
        flag = f"--{f.name.rstrip('_').replace('_', '-')}"
        if f.type in (bool, "bool"):
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, default=f.default,
                                help=docs.get(f.name, ""))
        elif f.name in ("opponents", "eval_opponents"):  # agent lists: space- or comma-separated, as everywhere
            parser.add_argument(flag, dest=f.name, nargs="*", default=[f.default],
                                help=f"{docs.get(f.name, '')} (default: {f.default!r})")
        else:
            parser.add_argument(flag, dest=f.name, type=type(f.default), default=f.default,
                                help=f"{docs.get(f.name, '')} (default: {f.default!r})")
    given = vars(parser.parse_args(argv))
    join_agent_lists(given, ("opponents", "eval_opponents"))
    return Args(**given)


# ---- the RLlib configuration ------------------------------------------------------------
class SeatToModule:
    """RLlib's ``policy_mapping_fn``: which module plays a seat of an episode.

    Without opponents every seat is ``"shared"``. With opponents, a share ``fraction`` of the
    episodes has ``"shared"`` in one seat and a frozen opponent (drawn per seat) in each
    other. The draw is keyed on a seeded episode counter, not on RLlib's random episode id:
    the ``k``-th episode a copy of the mapping meets (each env runner has its own copy) is
    seated from ``(seed, k)``, so two runs from one seed seat their games alike, and every
    seat of an episode agrees (the episode's number is kept while it is played).
    """

    REMEMBERED = 65_536  # episode numbers kept; far more than the episodes one runner plays at once

    def __init__(self, num_players: int, opponent_ids: list[str], fraction: float, seed: int = 0):
        self.num_players, self.opponent_ids, self.fraction = num_players, list(opponent_ids), fraction
        self.seed = int(seed)
        self._number: dict[str, int] = {}  # episode id -> its number, in the order first met
        self._met = 0

    def __call__(self, agent_id: str, episode, **kwargs) -> str:
        if not self.opponent_ids:
            return MODULE_ID
        rng = random.Random(f"{self.seed}:{self._episode_number(str(episode.id_))}")
        if rng.random() >= self.fraction:
            return MODULE_ID
        learner_seat = rng.randrange(self.num_players)
        draws = [rng.randrange(len(self.opponent_ids)) for _ in range(self.num_players)]
        seat = int(agent_id.rsplit("_", 1)[1])
        return MODULE_ID if seat == learner_seat else self.opponent_ids[draws[seat]]

    def _episode_number(self, episode_id: str) -> int:
        number = self._number.get(episode_id)
        if number is None:
            number = self._number[episode_id] = self._met
            self._met += 1
            if len(self._number) > self.REMEMBERED:  # forget the oldest (dicts keep insertion order)
                del self._number[next(iter(self._number))]
        return number


def absolute_spec(spec: str) -> str:
    """An agent spec whose checkpoint path (if any) is absolute, so that every worker finds it."""
    for prefix in (RLLIB_PREFIX, POLICY_PREFIX):
        if spec.startswith(prefix):
            return prefix + str(Path(spec[len(prefix):]).resolve())
    return str(Path(spec).resolve()) if Path(spec).exists() else spec


def build_config(args: Args):
    """The ``PPOConfig`` of a run (see the module docstring)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from wildwest_envs.training.rllib_env import BatchedMultiAgentEnvRunner, TurnBasedGameEnv
    from wildwest_envs.training.rllib_module import ActionMaskingPPOModule, FrozenAgentModule

    game_name = canonical_name(args.game)
    env_config = {"game": game_name, "num_players": args.players, "reward_mode": args.reward_mode}
    get_game(game_name).parse_options(num_players=args.players)  # a bad player count fails here, not in a worker
    opponent_specs = [absolute_spec(s.strip()) for s in args.opponents.split(",") if s.strip()]
    opponent_ids = [f"opponent_{k}" for k in range(len(opponent_specs))]
    modules = {MODULE_ID: RLModuleSpec(module_class=ActionMaskingPPOModule, model_config={
        "fcnet_hiddens": [int(x) for x in args.net_arch.split(",")], "fcnet_activation": "relu"})}
    for k, (module_id, spec) in enumerate(zip(opponent_ids, opponent_specs)):
        modules[module_id] = RLModuleSpec(module_class=FrozenAgentModule,
                                          model_config={"agent": spec, "game": game_name, "seed": args.seed + k})
    runner = {"env_runner_cls": BatchedMultiAgentEnvRunner} if args.batched else {}
    return (
        PPOConfig()
        .environment(TurnBasedGameEnv, env_config=env_config, disable_env_checking=True)  # the checker plays unmasked
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.num_envs_per_env_runner,
                     num_cpus_per_env_runner=args.num_cpus_per_env_runner, rollout_fragment_length="auto", **runner)
        .learners(num_learners=args.num_learners)
        .multi_agent(policies=set(modules), policy_mapping_fn=SeatToModule(args.players, opponent_ids,
                                                                          args.opponent_fraction, args.seed),
                     policies_to_train=[MODULE_ID])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .training(train_batch_size_per_learner=args.train_batch_size, minibatch_size=args.minibatch_size,
                  num_epochs=args.num_epochs, lr=args.lr, gamma=args.gamma, lambda_=args.lambda_,
                  entropy_coeff=args.entropy_coeff)
        .debugging(seed=args.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )


def init_ray(args: Args) -> bool:
    """Connect to the cluster at ``--address`` (shipping this checkout's code), or start Ray here.

    Returns whether this call started the connection (``False``: Ray was already
    initialised by the caller, who keeps it and shuts it down).
    """
    import ray

    if ray.is_initialized():
        return False
    if args.address:
        runtime_env = {"py_modules": [str(p) for p in SHIPPED_PACKAGES]} if args.ship_code else None
        ray.init(address=args.address, runtime_env=runtime_env, logging_level="ERROR")
    else:  # local workers import this checkout from the working directory, as the driver does
        ray.init(num_cpus=args.num_cpus or None, include_dashboard=False, logging_level="ERROR")
    return True


# ---- progress -----------------------------------------------------------------------------
def progress_row(iteration: int, result: dict, wall: float, steps_before: int, seconds: float) -> dict:
    """One ``progress.csv`` row from an ``algo.train()`` result."""
    runners, learner = result.get("env_runners", {}), result.get("learners", {}).get(MODULE_ID, {})
    steps = int(runners.get("num_env_steps_sampled_lifetime", 0))
    return {
        "iteration": iteration, "time/total_timesteps": steps, "time/seconds": round(wall, 2),
        "time/steps_per_second": round((steps - steps_before) / max(seconds, 1e-9), 1),
        "rollout/episodes": int(runners.get("num_episodes", 0) or 0),
        "rollout/learner_decisions": int(runners.get("num_module_steps_sampled", {}).get(MODULE_ID, 0)),
        "rollout/episode_len_mean": _float(runners.get("episode_len_mean")),
        "train/entropy": _float(learner.get("entropy")), "train/policy_loss": _float(learner.get("policy_loss")),
        "train/vf_loss": _float(learner.get("vf_loss")), "train/kl": _float(learner.get("mean_kl_loss")),
        "train/vf_explained_var": _float(learner.get("vf_explained_var")),
        "eval/win_rate": math.nan, "eval/win_rate_low": math.nan, "eval/win_rate_high": math.nan,
    }


def _float(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def win_rate_against(game_name: str, num_players: int, agent, opponent_spec: str, n_games: int,
                     seed: int) -> tuple[float, float, float]:
    """``agent``'s win rate and 95% interval in one seat against ``opponent_spec`` in the others."""
    opponents = opponent_copies(opponent_spec, game_name, num_players)
    _, results = evaluate_against(game_name, num_players, agent, opponents, n_games, seed=seed)
    row = summarize(results, [agent.name] + [o.name for o in opponents])[0]
    return (row.win_rate, *row.interval)


def plot_progress(run_dir: Path, rows: list[dict], title: str) -> Path:
    """``learning_curve.png``: greedy win rate against random players, and policy entropy, against steps."""
    from matplotlib.figure import Figure

    steps = np.array([r["time/total_timesteps"] for r in rows], dtype=float)
    fig = Figure(figsize=(7, 6))
    top, bottom = fig.subplots(2, 1, sharex=True)
    evaluated = [r for r in rows if not math.isnan(r["eval/win_rate"])]
    if evaluated:
        x = np.array([r["time/total_timesteps"] for r in evaluated], dtype=float)
        top.plot(x, [r["eval/win_rate"] for r in evaluated], marker="o", label="greedy policy, one seat")
        top.fill_between(x, [r["eval/win_rate_low"] for r in evaluated], [r["eval/win_rate_high"] for r in evaluated],
                         alpha=0.3, label="95% interval")
    n = rows[0].get("num_players", 0) if rows else 0
    if n:
        top.axhline(1 / n, color="grey", linestyle="--", label=f"equal agents (1/{n})")
    top.set_ylabel(f"win rate vs {PROGRESS_EVAL_OPPONENT}")
    top.legend(loc="lower right")
    top.set_title(title)
    bottom.plot(steps, [r["train/entropy"] for r in rows])
    bottom.set_ylabel("policy entropy")
    bottom.set_xlabel("decisions sampled (all seats)")
    fig.tight_layout()
    path = run_dir / "learning_curve.png"
    fig.savefig(path, dpi=100)
    return path


def runner_time_split(algo) -> tuple[float, float]:
    """Summed over the remote env runners (or the local one): seconds sampling, of which seconds in the env."""
    def split(runner):
        env = getattr(runner, "env", None)
        return getattr(runner, "sample_seconds", 0.0), getattr(env, "env_seconds", 0.0)

    remote = algo.env_runner_group.num_remote_env_runners() > 0
    parts = algo.env_runner_group.foreach_env_runner(split, local_env_runner=not remote)
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


# ---- the run ---------------------------------------------------------------------------------
def train(args: Args) -> Path:
    """Train, checkpoint and evaluate; returns the run directory."""
    import ray

    game_name = canonical_name(args.game)
    run_dir = Path(args.run_dir or f"runs/rllib_{game_name}_{args.players}p_seed{args.seed}").resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    config_record = dict(dataclasses.asdict(args), game=game_name, num_players=args.players, trainer="rllib",
                         ray_version=ray.__version__)
    (run_dir / "config.json").write_text(json.dumps(config_record, indent=1))

    seed_everything(args.seed, args.threads)

    # ---- Ray, env runners, learner ----
    started_ray = init_ray(args)
    algo = build_config(args).build_algo()
    print(f"RLlib {ray.__version__} PPO on {game_name}, {args.players} players: {args.num_env_runners} env runners x "
          f"{args.num_envs_per_env_runner} games ({'batched engine' if args.batched else 'RLlib loop'}), "
          f"{args.num_learners or 'local'} learner(s); cluster CPUs {ray.cluster_resources().get('CPU', 0):.0f}")

    # ---- training loop ----
    rows: list[dict] = []
    start = time.perf_counter()
    steps, iteration = 0, 0
    with open(run_dir / "progress.csv", "w", newline="") as progress:
        writer = None
        while (steps < args.total_timesteps and (not args.max_iterations or iteration < args.max_iterations)
               and (not args.max_seconds or time.perf_counter() - start < args.max_seconds)):
            iteration += 1
            began = time.perf_counter()
            result = algo.train()
            row = progress_row(iteration, result, time.perf_counter() - start, steps, time.perf_counter() - began)
            steps = row["time/total_timesteps"]
            if args.eval_every and (iteration % args.eval_every == 0 or steps >= args.total_timesteps):
                agent = RLlibPolicyAgent(algo.get_module(MODULE_ID), name="rllib-shared", seed=args.seed)
                rate, low, high = win_rate_against(game_name, args.players, agent, PROGRESS_EVAL_OPPONENT,
                                                   args.eval_progress_games, seed=10_000 + iteration)
                row.update({"eval/win_rate": rate, "eval/win_rate_low": low, "eval/win_rate_high": high})
            rows.append(dict(row, num_players=args.players))
            if writer is None:
                writer = csv.DictWriter(progress, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
            progress.flush()
            print(_progress_line(row, args.total_timesteps), flush=True)
            if args.checkpoint_every and iteration % args.checkpoint_every == 0:
                algo.save_to_path(str(run_dir / "checkpoints" / f"iter_{iteration:05d}"))
    train_seconds = time.perf_counter() - start
    algo.save_to_path(str(run_dir / FINAL_CHECKPOINT))
    sampling, env_side = runner_time_split(algo)
    timing = (f"{steps:,} decisions in {train_seconds:.0f} s ({steps / max(train_seconds, 1e-9):,.0f} decisions/s "
              f"overall, {iteration} iterations, progress evaluations included); env runners: env side (engine and "
              f"RLlib's dicts) {env_side / max(sampling, 1e-9):.1%} of their sampling time")
    (run_dir / "timing.txt").write_text(timing + "\n")
    print(f"saved {run_dir / FINAL_CHECKPOINT}\n{timing}")
    algo.stop()
    if started_ray:
        ray.shutdown()

    # ---- evaluation ----
    learner = make_agent(f"{RLLIB_PREFIX}{run_dir}", game_name, seed=args.seed)
    report = evaluation_report(game_name, args.players, learner, "RLlib-trained agent",
                               [s for s in args.eval_opponents.split(",") if s], args.eval_games, args.seed)
    (run_dir / "evaluation.md").write_text(report)
    if rows:
        plot_progress(run_dir, rows, f"RLlib PPO self-play, {game_name}, {args.players} players")
    print(report)
    return run_dir


def _progress_line(row: dict, total: int) -> str:
    line = (f"iter {row['iteration']:4d} | {row['time/total_timesteps']:>10,}/{total:,} decisions | "
            f"{row['time/steps_per_second']:>7,.0f}/s | {row['time/seconds']:>6.0f} s | "
            f"episodes {row['rollout/episodes']:4d} "
            f"| entropy {row['train/entropy']:.3f} | vf loss {row['train/vf_loss']:.3f}")
    if not math.isnan(row["eval/win_rate"]):
        line += (f" | vs {PROGRESS_EVAL_OPPONENT}: {row['eval/win_rate']:.1%} "
                 f"[{row['eval/win_rate_low']:.1%}, {row['eval/win_rate_high']:.1%}]")
    return line


def main(argv: list[str] | None = None) -> None:
    """Run the command line; a bad game, agent spec or checkpoint is a one-line error before Ray starts."""
    args = parse_args(argv)
    try:
        game_name = canonical_name(args.game)
    except ValueError as error:
        print(f"rllib_train: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    specs = [s for s in (args.opponents + "," + args.eval_opponents).split(",") if s]
    agents_for_command(specs, game_name, args.players, prog="rllib_train")
    train(args)


if __name__ == "__main__":
    main()
