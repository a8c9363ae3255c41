"""Round-robin tournaments between agents, and the learning curve of a training run.

    wildwest-evaluate --game colt_express --players 3 --agents pretrained heuristic random --games 1000
    wildwest-evaluate --learning-curve runs/colt_express_v0_3p_seed1

Agents are given as ``agents.registry.make_agent`` specs (space- or
comma-separated): ``random``, ``heuristic``, ``mcts[:<simulations>]``,
``pretrained``, ``mcts+pretrained[:<simulations>]``, ``pretrained:<file.npz>``,
a checkpoint ``.zip`` or a run directory. A bad spec, or a checkpoint trained
for another game or player count, is a one-line error (exit status 2).

The games are played over every seating of the agents
(``training.tournament.seat_schedule``; with ``--focal``, the first agent in one
seat, each seat in turn: ``focal_schedule``), seeded and batched; the statistics
(win rates with 95% Wilson intervals, mean score and rank, openskill ratings,
head to head) are those of ``training.stats``, the tables and pictures those of
``training.report``.

Writes ``<out>.md`` (the report) and ``<out>.png`` (win rates with their
intervals, and ratings), and prints the report; ``--save-games DIR`` also
writes every game as a game record (``core.records``: ``DIR/game_<index>.json``,
replayed by ``Game.replay`` and resumed by the AEC env's ``load_record``). ``--learning-curve RUN_DIR``
plots the reward and win rate of ``RUN_DIR/progress.csv`` against timesteps into
``RUN_DIR/learning_curve.png`` (copied to ``<out>.png``, or to
``<out>_learning_curve.png`` next to a tournament, when ``--out`` is given).

For the trainer: ``training.tournament.evaluate_against(game_name, num_players,
agent, opponents, n_games, seed) -> (markdown, results)`` and
``training.report.plot_learning_curve(run_dir)``.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from wildwest_envs.agents.registry import agents_for_command
from wildwest_envs.registry import canonical_name
from wildwest_envs.training.cli import field_docs
from wildwest_envs.training.report import plot_learning_curve, write_report
from wildwest_envs.training.tournament import AgentSpecs, evaluate_against, tournament


# ---- command line -------------------------------------------------------------------------------
@dataclass
class Args:
    """The command line's settings: one ``--flag-name`` per field, its help the docstring under it."""

    game: str = "colt_express"
    """registered game to play"""
    players: int = 3
    """number of players (seats) per game"""
    agents: list[str] = field(default_factory=list)
    """agent specs, space- or comma-separated: random, heuristic, mcts[:N], pretrained, mcts+pretrained[:N], a
    checkpoint .zip or run directory (all specs: see below)"""
    games: int = 1000
    """games to play"""
    seed: int = 0
    """seeds the games, the seating order and the agents (agent i gets seed + i)"""
    batch: int = 256
    """games played at once"""
    workers: int = 1
    """processes playing batches side by side, one core each (agents that draw random numbers then draw other
    numbers than with one)"""
    sample: bool = False
    """checkpoint agents sample from their policy instead of playing greedily"""
    out: str = ""
    """output path without extension (default runs/tournaments/<game>_<N>p)"""
    learning_curve: str = ""
    """a training run directory: plot its progress.csv"""
    focal: bool = False
    """the first agent plays one seat (each seat in turn) against the other agents filling the rest"""
    save_games: str = ""
    """a folder: write every game there as a game record (game_<index>.json; Game.replay reads it)"""
    save_events: bool = False
    """the saved game records hold what each step reported too (the events of core.eventlog)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """``Args`` from the command line (``--flag-name`` per field)."""
    from wildwest_envs.agents.registry import SPECS
    from wildwest_envs.registry import GAMES
    epilog = (f"games: {', '.join(g.removesuffix('_v0') for g in GAMES)}\n"
              f"agent specs: {', '.join(SPECS)}")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=epilog,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    docs = field_docs(Args)
    for f in dataclasses.fields(Args):
        flag = f"--{f.name.replace('_', '-')}"
        if f.type in ("bool", bool):
            parser.add_argument(flag, action="store_true", help=docs.get(f.name))
        elif f.type in ("list[str]", list[str]):
            parser.add_argument(flag, nargs="+", default=[], help=docs.get(f.name))
        else:
            parser.add_argument(flag, type=type(f.default), default=f.default, help=docs.get(f.name))
    args = Args(**vars(parser.parse_args(argv)))
    args.agents = [spec for item in args.agents for spec in item.split(",") if spec]
    if args.agents and args.games < 1:
        parser.error(f"--games must be positive, got {args.games}")
    if args.batch < 1 or args.players < 1 or args.workers < 1:
        parser.error("--batch, --players and --workers must be positive")
    if args.save_events and not args.save_games:
        parser.error("--save-events needs --save-games DIR (the records that hold the events)")
    if not args.agents and not args.learning_curve:
        parser.error("give --agents (a tournament) and/or --learning-curve RUN_DIR")
    return args


def main(argv: list[str] | None = None) -> str:
    """Run the command line; returns the printed Markdown."""
    args = parse_args(argv)
    printed = []
    if args.agents:
        game_name = canonical_name(args.game)
        out = args.out or f"runs/tournaments/{game_name.removesuffix('_v0')}_{args.players}p"
        agents = agents_for_command(args.agents, game_name, args.players, args.seed, not args.sample,
                                    "wildwest-evaluate")
        parallel = dict(workers=args.workers, make_agents=AgentSpecs(tuple(args.agents), game_name, args.players,
                                                                     args.seed, not args.sample))
        if args.focal:
            if len(agents) != args.players:
                raise SystemExit(f"--focal needs one agent per seat ({args.players}), got {len(agents)}")
            table, results = evaluate_against(game_name, args.players, agents[0], agents[1:], args.games,
                                              args.seed, args.batch, progress=True,
                                              save_games=args.save_games or None, save_events=args.save_events,
                                              **parallel)
            markdown = f"## {agents[0].name} against {', '.join(a.name for a in agents[1:])}\n\n{table}"
            write_report(out, markdown, results, [a.name for a in agents], args.players,
                         f"{game_name}, {args.players} players, {args.games} games")
        else:
            markdown, _ = tournament(game_name, args.players, agents, args.games, args.seed, args.batch, out,
                                     save_games=args.save_games or None, save_events=args.save_events, **parallel)
        printed.append(markdown)
        printed.append(f"wrote {out}.md and {out}.png"
                       + (f", and {args.games} game records into {args.save_games}" if args.save_games else ""))
    if args.learning_curve:
        copy = None
        if args.out:
            copy = Path(f"{args.out}_learning_curve.png" if args.agents else f"{args.out}.png")
        path = plot_learning_curve(args.learning_curve, copy)
        printed.append(f"wrote {path}" + (f" and {copy}" if copy else ""))
    text = "\n".join(printed)
    print(text)
    return text


def cli() -> None:
    """The ``wildwest-evaluate`` console script (``main`` without its return value)."""
    main()


if __name__ == "__main__":
    main()
