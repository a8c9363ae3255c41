"""Train a MaskablePPO agent by self-play on a registered game (CleanRL-style, one file).

    python -m wildwest_envs.training.train --game colt_express --players 3

The learner sits in a random seat of each of ``num_envs`` batched games; the
other seats are played inside the env by an opponent pool (random, the game's
heuristic if it has one, and snapshots of the learner added on a schedule).
Writes to ``run_dir``: ``config.json``, ``progress.csv`` and TensorBoard logs,
``checkpoints/``, the final ``model.zip`` and the same network as
``pretrained.npz`` (``agents.pretrained``: loads without unpickling, agent spec
``pretrained:<file>``), ``evaluation.md`` and ``learning_curve.png``; prints the
evaluation table at the end. ``--preset reference`` runs the recipe of the
network shipped with the library.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from wildwest_envs.registry import GAMES, canonical_name, get_game
from wildwest_envs.training.cli import field_docs, join_agent_lists, seed_everything
from wildwest_envs.training.presets import PRESETS, REFERENCE, STAGE_PREFIX, STAGES, preset_for

# torch, stable-baselines3 and the agents are imported in main(): --help answers without them

RUN_OUTPUTS = ("config.json", "progress.csv", "model.zip", "pretrained.npz", "evaluation.md", "learning_curve.png",
               "timing.txt", "imitation.json", "checkpoints", "events.out.tfevents.*")  # what a run writes
LIST_FIELDS = ("opponents", "eval_opponents")  # agent lists: space- or comma-separated on the command line


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
    """the learner's final reward: "win" (+1/-1), "rank", "score" or "margin" (see core.game)"""
    net_arch: str = "256,256"
    """hidden layer sizes of the policy and value networks"""
    policy: str = "mlp"
    """policy network: "mlp" (MlpPolicy with net_arch) or a game's own network (agents.policy.POLICY_NETWORKS)"""
    opponents: str = "random"
    """opponent pool: agent specs (see below), space- or comma-separated"""
    imitate: str = ""
    """teacher agent to clone before PPO (e.g. "heuristic"; empty: start from a random policy)"""
    init_from: str = ""
    """start from a network file's policy and value ("pretrained": the shipped one; or a .npz); --imitate fits it"""
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
    """agents the final evaluation plays against (each fills all other seats), space- or comma-separated"""
    run_dir: str = ""
    """output directory (default runs/<game>_<players>p_seed<seed>)"""
    threads: int = 2
    """torch threads"""
    preset: str = "default"
    """the game's preset: "default" (training.presets.PRESETS) or "reference" (the shipped network's recipe)"""
    overwrite: bool = False
    """replace the outputs of an earlier run in run_dir (otherwise such a run_dir is refused)"""
    resume: bool = False
    """go on from the latest checkpoint of the run in run_dir, with its settings, up to total_timesteps"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Command-line flags over the game's preset (``training.presets``) over the ``Args`` defaults."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     argument_default=argparse.SUPPRESS, epilog=_epilog())
    docs = field_docs(Args)
    for f in dataclasses.fields(Args):
        flag, text = f"--{f.name.replace('_', '-')}", f"{docs[f.name]} (default: {f.default!r}, or the preset's)"
        if isinstance(f.default, bool):
            parser.add_argument(flag, action="store_true", help=docs[f.name])
        elif f.name in LIST_FIELDS:
            parser.add_argument(flag, nargs="+", help=text)
        else:
            parser.add_argument(flag, type=type(f.default), help=text)
    given = vars(parser.parse_args(argv))
    join_agent_lists(given, LIST_FIELDS)
    try:
        game_name = canonical_name(given.get("game", Args.game))
        preset = preset_for(game_name, given.get("preset", Args.preset))
    except ValueError as error:
        parser.error(str(error))
    args = Args(**{**preset, **given})
    try:
        for token in [args.init_from, *args.opponents.split(",")]:
            if token.startswith(STAGE_PREFIX):
                preset_for(game_name, token)
    except ValueError as error:
        parser.error(str(error))
    for name in ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "players", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    return args


def _epilog() -> str:
    """The ``--help`` text after the flags: games, agent specs and the presets' values."""
    from wildwest_envs.agents.registry import SPECS
    games = ", ".join(name.removesuffix("_v0") for name in GAMES)
    lines = [f"games: {games}", f"agent specs (--opponents, --imitate, --eval-opponents): {', '.join(SPECS)}",
             "presets (flags given on the command line win):"]
    for label, table in (("default", PRESETS), ("reference", REFERENCE)):
        for game, values in table.items():
            shown = ", ".join(f"{k}={v}" for k, v in values.items()) or "the defaults above"
            lines.append(f"  --preset {label} --game {game.removesuffix('_v0')}: {shown}")
    for game, stages in STAGES.items():
        for name, values in stages.items():
            shown = ", ".join(f"{k}={v}" for k, v in values.items())
            lines.append(f"  --preset {STAGE_PREFIX}{name} --game {game.removesuffix('_v0')} (an earlier stage): {shown}")
    return "\n".join(lines)


def warm_start(model, game, game_name: str, args: Args, run_dir: Path) -> None:
    """Clone the teacher ``args.imitate`` into the policy and critic (``training.imitation``)."""
    from wildwest_envs.agents.registry import make_agent
    from wildwest_envs.training.imitation import collect_demonstrations, pretrain_policy
    teacher = make_agent(args.imitate, game_name, seed=args.seed + 500, num_players=args.players)
    demos = collect_demonstrations(game, teacher, args.imitation_decisions, seed=args.seed + 500, gamma=args.gamma,
                                   reward_mode=args.reward_mode, batch_games=args.imitation_batch_games,
                                   num_players=args.players)
    metrics = pretrain_policy(model, demos, epochs=args.imitation_epochs, seed=args.seed)
    (run_dir / "imitation.json").write_text(json.dumps(dict(metrics, teacher=args.imitate, decisions=len(demos)),
                                                       indent=1))
    print(f"warm start from {args.imitate}: held-out accuracy {metrics['accuracy']:.1%}, "
          f"value MSE {metrics['value_mse']:.3f}")


def initial_network(args: Args, game_name: str, source: str):
    """The network ``source`` names, checked to fit the run: its weights (policy and value) start PPO.

    ``source`` (``args.init_from`` with an earlier stage resolved to its file) is ``"pretrained"`` (the network
    shipped for the game at ``args.players``) or a path written by ``agents.pretrained.export_pretrained``, such as
    a run's ``pretrained.npz``: fine-tuning a trained network.
    With ``--imitate`` too, the warm start then fits these weights to the teacher (expert iteration: a search
    guided by this network as the teacher of its next version). A missing or foreign file, or another network
    than ``args.policy`` / ``args.net_arch``, is one line on stderr and exit status 2, before anything is written.
    """
    from wildwest_envs.agents import pretrained
    path = pretrained.shipped_path(game_name, args.players) if source == "pretrained" else Path(source)
    try:
        network = pretrained.load_pretrained(path, game_name, args.players)
        arch = [int(x) for x in args.net_arch.split(",")]
        if (network.config["network"], network.config["net_arch"]) != (args.policy, arch):
            raise ValueError(f"{path} holds a {network.config['network']} network of layers "
                             f"{network.config['net_arch']}, this run builds {args.policy} {arch} (set --policy "
                             f"and --net-arch to match)")
    except (FileNotFoundError, ValueError) as error:
        beside = path.with_name("pretrained.npz")
        hint = (f" (a stable-baselines3 checkpoint; the run's network for --init-from is {beside})"
                if path.suffix == ".zip" and beside.is_file() else "")
        print(f"wildwest-train: error: --init-from: {error}{hint}", file=sys.stderr)
        raise SystemExit(2) from None
    return network


def stage_paths(args: Args, run_dir: Path) -> dict[str, Path]:
    """The earlier stages ``args`` names (``stage:<name>`` in ``init_from`` or ``opponents``) and their networks.

    A recipe in several stages (``training.presets.STAGES``) trains each earlier stage in
    ``run_dir/stages/<name>/`` with ``--preset stage:<name>``, the same player count and the seed of its preset
    (the run's seed if the preset names none); its
    ``pretrained.npz`` is then the network ``stage:<name>`` stands for. Returns ``{token: that file}``.
    """
    tokens = [t for t in [args.init_from, *args.opponents.split(",")] if t.startswith(STAGE_PREFIX)]
    return {t: run_dir / "stages" / t.removeprefix(STAGE_PREFIX) / "pretrained.npz" for t in dict.fromkeys(tokens)}


def train_stages(args: Args, stages: dict[str, Path]) -> None:
    """Train every stage of ``stages`` (``stage_paths``) whose network is not there yet; a finished one is kept."""
    for token, network in stages.items():
        if network.is_file():
            print(f"{token}: reusing {network}")
            continue
        print(f"{token}: training {network.parent} first")
        seed = preset_for(canonical_name(args.game), token).get("seed", args.seed)
        main(["--game", args.game, "--players", str(args.players), "--seed", str(seed), "--preset", token,
              "--run-dir", str(network.parent), "--overwrite"])


def recipe_command(args: Args) -> str:
    """The command line that reruns ``args``: the preset named, and every field that differs from it."""
    base = Args(**{**preset_for(canonical_name(args.game), args.preset), "game": args.game})
    flags = [f"--{f.name.replace('_', '-')} {getattr(args, f.name)}" for f in dataclasses.fields(Args)
             if f.name not in ("game", "preset", "run_dir", "overwrite", "resume")
             and getattr(args, f.name) != getattr(base, f.name)]
    preset = [] if args.preset == "default" else [f"--preset {args.preset}"]
    return " ".join(["python -m wildwest_envs.training.train --game", canonical_name(args.game).removesuffix("_v0"),
                     *preset, *flags])


def prepare_run_dir(run_dir: Path, overwrite: bool) -> None:
    """Create ``run_dir``; refuse one holding an earlier run's outputs unless ``overwrite`` (then remove them)."""
    earlier = sorted(p.name for pattern in RUN_OUTPUTS for p in run_dir.glob(pattern)) if run_dir.is_dir() else []
    if earlier and not overwrite:
        raise SystemExit(f"{run_dir} already holds a run ({', '.join(earlier[:4])}...): pass --overwrite to replace "
                         f"it, or choose another --run-dir")
    for name in earlier:
        path = run_dir / name
        if path.is_dir():
            import shutil
            shutil.rmtree(path)
        else:
            path.unlink()
    run_dir.mkdir(parents=True, exist_ok=True)


def latest_checkpoint(run_dir: Path) -> Path:
    """The checkpoint with the most timesteps in ``run_dir/checkpoints`` (``model_<steps>_steps.zip``).

    Raises:
        SystemExit: the run has none.
    """
    found = sorted(run_dir.glob("checkpoints/model_*_steps.zip"), key=lambda p: int(p.stem.split("_")[1]))
    if not found:
        raise SystemExit(f"{run_dir} has no checkpoint to resume from (checkpoints/model_<steps>_steps.zip)")
    return found[-1]


def resumed_args(args: Args) -> Args:
    """The settings of the run to resume: its ``config.json``, with this command's run length.

    Raises:
        SystemExit: no run in ``run_dir``, or a setting given now that differs from the run's.
    """
    run_dir = Path(args.run_dir or f"runs/{canonical_name(args.game)}_{args.players}p_seed{args.seed}")
    if not (run_dir / "config.json").is_file():
        raise SystemExit(f"--resume: {run_dir} holds no run (no config.json)")
    saved = json.loads((run_dir / "config.json").read_text())
    fields = {f.name for f in dataclasses.fields(Args)}
    earlier = Args(**{k: v for k, v in saved.items() if k in fields})
    free = ("total_timesteps", "run_dir", "resume", "overwrite", "eval_games", "eval_opponents", "threads", "game")
    differ = [f.name for f in dataclasses.fields(Args) if f.name not in free
              and getattr(args, f.name) != getattr(earlier, f.name) and getattr(args, f.name) != getattr(Args(), f.name)]
    if differ:
        raise SystemExit(f"--resume: {', '.join(differ)} differ from the run in {run_dir}; resume with its settings")
    return dataclasses.replace(earlier, total_timesteps=args.total_timesteps, run_dir=str(run_dir), resume=True,
                               eval_games=args.eval_games, eval_opponents=args.eval_opponents, threads=args.threads)


def join_progress(earlier: Path, later: Path) -> None:
    """Write the rows of ``earlier`` then ``later`` into ``later`` (columns: the union), and drop ``earlier``."""
    import csv
    rows = []
    for path in (earlier, later):
        with path.open(newline="") as f:
            rows += list(csv.DictReader(f))
    columns = list(dict.fromkeys(c for row in rows for c in row))
    with later.open("w", newline="") as f:
        writer = csv.DictWriter(f, columns)
        writer.writeheader()
        writer.writerows(rows)
    earlier.unlink()


def rounded_timesteps(args: Args) -> int:
    """``total_timesteps`` rounded up to whole rollouts (``n_steps * num_envs``): what PPO actually trains."""
    rollout = args.n_steps * args.num_envs
    return math.ceil(args.total_timesteps / rollout) * rollout


def main(argv: list[str] | None = None) -> None:
    """Run the command line: train, save, export, evaluate (module docstring)."""
    args = parse_args(argv)
    if args.resume:
        args = resumed_args(args)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback
    from stable_baselines3.common.logger import configure

    from wildwest_envs.agents.policy import PolicyAgent, network_class
    from wildwest_envs.agents.pretrained import export_pretrained
    from wildwest_envs.agents.registry import agents_for_command
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.report import plot_learning_curve
    from wildwest_envs.training.selfplay_callback import SelfPlayCallback
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv
    from wildwest_envs.training.tournament import evaluation_report

    run_start = time.perf_counter()
    game_name = canonical_name(args.game)
    game = get_game(game_name)
    total = rounded_timesteps(args)
    if total != args.total_timesteps:
        print(f"total timesteps {args.total_timesteps:,} rounded up to {total:,}: whole rollouts of "
              f"n_steps x num_envs = {args.n_steps * args.num_envs:,} decisions")
        args = dataclasses.replace(args, total_timesteps=total)

    # ---- env and opponents (a bad spec or option fails here, before anything is written) ----
    run_dir = Path(args.run_dir or f"runs/{game_name}_{args.players}p_seed{args.seed}")
    stages = stage_paths(args, run_dir)
    opponent_specs = [f"pretrained:{stages[s]}" if s in stages else s for s in args.opponents.split(",")]
    eval_specs = args.eval_opponents.split(",")
    agents_for_command([s for s in args.opponents.split(",") if s not in stages] + eval_specs
                       + ([args.imitate] if args.imitate else []), game_name, args.players, prog="wildwest-train")
    init_source = str(stages.get(args.init_from, args.init_from)) if args.init_from and not args.resume else ""
    initial = initial_network(args, game_name, init_source) if init_source and args.init_from not in stages else None
    if not args.resume:
        prepare_run_dir(run_dir, args.overwrite)
    train_stages(args, stages)
    if init_source and initial is None:  # an earlier stage's network: there only now
        initial = initial_network(args, game_name, init_source)
    pool = OpponentPool(agents_for_command(opponent_specs, game_name, args.players, args.seed, prog="wildwest-train"))
    env = SelfPlayVecEnv(game, args.num_envs, pool, seed=args.seed, reward_mode=args.reward_mode,
                         num_players=args.players)

    # ---- seeding (after the earlier stages, which train in this process; nothing above draws from these) ----
    seed_everything(args.seed, args.threads)
    config = dict(dataclasses.asdict(args), game=game_name, num_players=args.players)
    (run_dir / "config.json").write_text(json.dumps(config, indent=1))

    # ---- model ----
    arch = [int(x) for x in args.net_arch.split(",")]
    if args.resume:  # our own checkpoint: SB3's loader (it unpickles the optimiser state); snapshots start afresh
        checkpoint = latest_checkpoint(run_dir)
        model = MaskablePPO.load(checkpoint, env=env, device="cpu")
        print(f"resuming from {checkpoint} ({model.num_timesteps:,} timesteps)")
    else:
        model = MaskablePPO(network_class(args.policy), env, n_steps=args.n_steps, batch_size=args.batch_size,
                            n_epochs=args.n_epochs, learning_rate=args.learning_rate, gamma=args.gamma,
                            ent_coef=args.ent_coef, policy_kwargs={"net_arch": arch}, seed=args.seed,
                            device="cpu", verbose=0)
    earlier_progress = run_dir / "progress.csv"
    if args.resume and earlier_progress.is_file():  # SB3's logger starts the file afresh: keep the rows so far
        earlier_progress = earlier_progress.rename(run_dir / "progress_before_resume.csv")
    model.set_logger(configure(str(run_dir), ["csv", "tensorboard"]))
    if initial is not None:
        model.policy.load_state_dict(initial.policy.state_dict())
        print(f"initialised from {args.init_from}")
    if args.imitate and not args.resume:
        warm_start(model, game, game_name, args, run_dir)

    # ---- training ----
    callbacks = CallbackList([
        SelfPlayCallback(pool, args.snapshot_every),
        CheckpointCallback(max(args.checkpoint_every // args.num_envs, 1), str(run_dir / "checkpoints"), "model"),
    ])
    start = time.perf_counter()
    remaining = max(args.total_timesteps - model.num_timesteps, 0)
    model.learn(total_timesteps=remaining, callback=callbacks, progress_bar=True, reset_num_timesteps=not args.resume)
    if args.resume and earlier_progress.name == "progress_before_resume.csv":
        join_progress(earlier_progress, run_dir / "progress.csv")
    train_seconds = time.perf_counter() - start
    model.save(run_dir / "model.zip")
    export_pretrained(model.policy, run_dir / "pretrained.npz", game_name, args.players, args.policy, arch,
                      recipe=recipe_command(args), seed=args.seed, reward_mode=args.reward_mode,
                      total_timesteps=args.total_timesteps,
                      train_seconds=round(time.perf_counter() - run_start))
    engine = env.env_seconds - env.opponent_seconds
    split = (f"wall time split: game engine {engine / train_seconds:.1%}, opponents' decisions "
             f"{env.opponent_seconds / train_seconds:.1%}, learner (PPO rollouts and updates) "
             f"{1 - env.env_seconds / train_seconds:.1%}")
    (run_dir / "timing.txt").write_text(split + "\n")
    print(f"trained {args.total_timesteps:,} timesteps in {train_seconds:.0f} s; saved {run_dir / 'model.zip'} "
          f"and {run_dir / 'pretrained.npz'}\n{split}")

    # ---- evaluation ----
    learner = PolicyAgent.load(run_dir / "model.zip", deterministic=True, seed=args.seed)
    report = evaluation_report(game_name, args.players, learner, "trained agent", eval_specs, args.eval_games,
                               args.seed, progress=True)
    (run_dir / "evaluation.md").write_text(report)
    try:
        plot_learning_curve(run_dir)
    except ValueError as error:  # no game finished during a very short run: nothing to plot yet
        print(f"no learning curve: {error}")
    print(report)


if __name__ == "__main__":
    main()
