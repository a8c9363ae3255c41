"""Sampling throughput of RLlib env runners on a registered game: 1 vs 2 runners, batched engine vs RLlib's loop.

    python -m benchmarks.rllib_throughput --output benchmarks/results/rllib_throughput.md

For each configuration a local Ray instance (``--num-cpus``, default all cores) starts
PPO's env runners as ``training.rllib_train`` builds them (masking PPO module, default
network, exploration sampling), warms them up (numba caches, torch), then times
``--rounds`` parallel ``sample(num_timesteps=...)`` calls of all runners together.
Reported: decisions (env steps, all seats) per second summed over the runners, the
speed-up of 2 runners over 1, and the *env side* share of the runners' sampling time
(the batched engine plus building RLlib's observation/reward dicts, measured inside
``BatchedTurnBasedVectorEnv``; the rest is RLlib: module forward passes, connectors,
episode bookkeeping). No learning happens, so the learner's time is not in the numbers.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np


def measure(game: str, players: int, num_env_runners: int, batched: bool, num_envs: int, steps: int,
            rounds: int, num_cpus: int) -> dict:
    """Decisions/s of ``num_env_runners`` runners sampling together, and their env-side share."""
    import ray

    from wildwest_envs.training.rllib_train import Args, build_config

    ray.init(num_cpus=num_cpus or None, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        args = Args(game=game, players=players, num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs,
                    batched=batched)
        algo = build_config(args).build_algo()
        group = algo.env_runner_group

        def timers(runner):
            envs = getattr(runner.env, "envs", [])
            env_seconds = getattr(runner.env, "env_seconds", None)
            if env_seconds is None:  # RLlib's own loop: sum the single-game envs' timers
                env_seconds = sum(e.unwrapped.games.env_seconds for e in {id(e): e for e in envs}.values())
            return time.perf_counter(), env_seconds

        def sample(runner):
            start, cpu = time.perf_counter(), time.process_time()
            episodes = runner.sample(num_timesteps=steps)
            return sum(len(e) for e in episodes), time.perf_counter() - start, time.process_time() - cpu

        group.foreach_env_runner(sample, local_env_runner=False)  # warm-up
        before = group.foreach_env_runner(timers, local_env_runner=False)
        decisions, sampling, cpu, wall = 0, 0.0, 0.0, 0.0
        for _ in range(rounds):
            start = time.perf_counter()
            parts = group.foreach_env_runner(sample, local_env_runner=False)
            wall += time.perf_counter() - start
            decisions += sum(p[0] for p in parts)
            sampling += sum(p[1] for p in parts)
            cpu += sum(p[2] for p in parts)
        after = group.foreach_env_runner(timers, local_env_runner=False)
        env_side = sum(a[1] - b[1] for a, b in zip(after, before))
        algo.stop()
    finally:
        ray.shutdown()
    return {"runners": num_env_runners, "batched": batched, "decisions_per_s": decisions / wall,
            "env_share": env_side / sampling, "cpu_ms_per_1k": 1e6 * cpu / decisions,
            "cpu_share": cpu / sampling}


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="colt_express")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--num-envs-per-env-runner", type=int, default=64)
    parser.add_argument("--steps", type=int, default=4096, help="env steps per runner per timed sample() call")
    parser.add_argument("--rounds", type=int, default=4, help="timed sample() calls per configuration")
    parser.add_argument("--num-cpus", type=int, default=0, help="CPUs of the local Ray instance (0: all)")
    parser.add_argument("--no-loop", action="store_true", help="skip RLlib's own loop over single-game envs")
    parser.add_argument("--output", default="", help="write the Markdown table here")
    args = parser.parse_args(argv)

    import ray
    import torch

    torch.set_num_threads(1)
    configs = [(n, True) for n in (1, 2)] + ([] if args.no_loop else [(n, False) for n in (1, 2)])
    rows = [measure(args.game, args.players, n, batched, args.num_envs_per_env_runner, args.steps, args.rounds,
                    args.num_cpus) for n, batched in configs]
    base = {b: next(r["decisions_per_s"] for r in rows if r["runners"] == 1 and r["batched"] == b)
            for b in {r["batched"] for r in rows}}
    load = os.getloadavg()
    lines = [
        f"# RLlib sampling throughput: {args.game}, {args.players} players",
        "",
        f"- machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; load average at the end "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min); ray {ray.__version__}, torch "
        f"{torch.__version__}, numpy {np.__version__}",
        f"- {args.num_envs_per_env_runner} games per env runner, {args.rounds} × {args.steps} env steps per runner "
        f"after a warm-up round; default PPO network of training.rllib_train (256, 256 ReLU), exploration sampling",
        "- env side: engine + building RLlib's dicts, inside the env; the rest of the runner's time is RLlib's "
        "(module forward passes, connectors, episodes)",
        "- runner CPU: CPU seconds of the runner processes per 1,000 decisions, and their CPU time as a share of "
        "their wall time (below 100%: the runners waited for a core; on an idle machine with a core per runner, "
        "decisions/s ≈ runners × 1,000 / CPU ms per 1,000)",
        "",
        "| env runners | games stepped by | decisions/s (all runners) | × 1 runner | env side of runner time "
        "| runner CPU ms / 1,000 decisions | runner CPU / wall |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        how = "one batched engine call" if r["batched"] else "RLlib's loop over single-game envs"
        lines.append(f"| {r['runners']} | {how} | {r['decisions_per_s']:,.0f} | "
                     f"{r['decisions_per_s'] / base[r['batched']]:.2f} | {r['env_share']:.1%} | "
                     f"{r['cpu_ms_per_1k']:,.0f} | {r['cpu_share']:.0%} |")
    lines += ["", f"command: `python -m benchmarks.rllib_throughput --output {args.output or '<file>'}`", ""]
    text = "\n".join(lines)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)
    return text


if __name__ == "__main__":
    main()
