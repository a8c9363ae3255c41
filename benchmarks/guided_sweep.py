"""How the guided search should value a leaf, measured per game: the rollout's share, or how many rollouts.

    python -m benchmarks.guided_sweep --game colt_express --weights 0 0.5 1 --simulations 200 --games 240
    python -m benchmarks.guided_sweep --game colt_express --leaf-rollouts 1 8 32 --opponents mc:48 mcts:200

For each rollout weight ``w`` (``agents.guided_search``: a leaf is worth
``(1 - w) * critic + w * rollout``), or with ``--leaf-rollouts`` for each number
``k`` of rollouts averaged at a leaf (the game's spec weight and prior
temperature kept), the guided search with the shipped network
plays ``--games`` games at 3 players in one seat (every seat in turn) against
two ``--opponents`` (default ``mcts:<S>`` and ``heuristic``), seated both ways
(``training.tournament.focal_schedule``). Every setting plays the same deals
(same seed), so the columns differ by the search alone.

Writes ``<out>.md``: per setting, the win rate and the head-to-head share against
each opponent (pairwise finishes, ties ½), each with its 95% Wilson interval,
and the seconds per game; default ``--out
benchmarks/results/guided_sweep_<game>_3p``. The settings chosen for the spec
``mcts+pretrained`` of each game are ``agents.guided_search.ROLLOUT_WEIGHTS`` and ``LEAF_ROLLOUTS``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from wildwest_envs.agents.guided_search import GuidedSearchAgent, spec_settings
from wildwest_envs.agents.registry import agents_for_command, make_agent
from wildwest_envs.registry import canonical_name, get_game
from wildwest_envs.training.stats import head_to_head, wilson_interval
from wildwest_envs.training.tournament import focal_schedule, play_matches

PLAYERS = 3
SWEPT = {"rollout_weight": "rollout weight", "leaf_rollouts": "rollouts per leaf"}  # what a sweep varies, named


def sweep(game_name: str, settings: list[dict], simulations: int, opponents: list[str], games: int,
          seed: int = 0) -> list[dict]:
    """One row per entry of ``settings`` (``GuidedSearchAgent`` keyword arguments): its results against
    ``opponents`` (module docstring)."""
    game = get_game(game_name)
    network = make_agent("pretrained", game_name, seed=seed, num_players=PLAYERS)
    rows = []
    for setting in settings:  # the opponents built again for each, from the same seed
        rivals = agents_for_command(opponents, game_name, PLAYERS, seed + 100, prog="benchmarks.guided_sweep")
        agent = GuidedSearchAgent(game, network, simulations=simulations, seed=seed, **setting,
                                  name=", ".join(f"{key} {value:g}" for key, value in setting.items()))
        start = time.perf_counter()
        results = play_matches(game, [agent, *rivals], PLAYERS, games, seed, batch=games,
                               schedule=focal_schedule(len(rivals), PLAYERS))
        seconds = time.perf_counter() - start
        names = [agent.name, *(r.name for r in rivals)]
        distinct, points, meetings = head_to_head(results, names)
        counted = [r for r in results if not r.truncated]
        wins = sum(r.win_shares[r.seating.index(0)] for r in counted)
        rows.append({"setting": setting, "games": len(counted), "wins": wins, "seconds": seconds / max(len(results), 1),
                     "versus": {distinct[j]: (points[0, j], meetings[0, j]) for j in range(1, len(distinct))}})
    return rows


def _share(points: float, n: float) -> str:
    lo, hi = wilson_interval(points, n)
    return f"{points / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}] n={n:.0f}"


def sweep_report(game_name: str, rows: list[dict], simulations: int, seed: int, command: str,
                 swept: str = "rollout_weight") -> str:
    """The Markdown table of a sweep over the ``GuidedSearchAgent`` setting ``swept``."""
    rivals = list(rows[0]["versus"]) if rows else []
    what = SWEPT[swept]
    fixed = sorted({f"{key} {value:g}" for row in rows for key, value in row["setting"].items() if key != swept})
    lines = [f"## Guided search: {what}, {canonical_name(game_name)}, {PLAYERS} players, "
             f"{simulations} simulations", "", f"`{command}`", "",
             f"The guided search (shipped network, seed {seed}{''.join(', ' + f for f in fixed)}) in one seat, every "
             f"seat in turn, against {' and '.join(rivals)}; the same deals for every {what}. Win rate: an equal "
             f"agent wins {1 / PLAYERS:.1%}; head to head: the share of pairwise finishes ahead (ties ½). 95% Wilson "
             f"intervals.", "",
             f"| {what} | games | win rate | " + " | ".join(f"vs {r}" for r in rivals) + " | s per game |",
             "|---:|---:|---|" + "---|" * len(rivals) + "---:|"]
    for row in rows:
        cells = [_share(*row["versus"][r]) for r in rivals]
        lines.append(f"| {row['setting'][swept]:g} | {row['games']} | {_share(row['wins'], row['games'])} | "
                     + " | ".join(cells) + f" | {row['seconds']:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> str:
    """Command line: sweep the rollout weights of one game, write and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="registered game")
    parser.add_argument("--weights", nargs="+", type=float, default=[0.0, 0.5, 1.0], help="rollout weights in [0, 1]")
    parser.add_argument("--leaf-rollouts", nargs="+", type=int, default=None,
                        help="sweep the rollouts averaged at a leaf instead (each at least 1; the game's spec "
                             "weight and prior temperature)")
    parser.add_argument("--simulations", type=int, default=200, help="simulations per decision")
    parser.add_argument("--opponents", nargs=2, default=None, help="two agent specs (default: mcts:<S> heuristic)")
    parser.add_argument("--games", type=int, default=240, help="games per weight (a multiple of 6 seats both ways)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="", help="output path without extension")
    args = parser.parse_args(argv)
    if args.simulations < 1 or args.games < 1 or not all(0.0 <= w <= 1.0 for w in args.weights):
        parser.error("--simulations and --games must be positive and every weight in [0, 1]")
    if args.leaf_rollouts is not None and min(args.leaf_rollouts) < 1:
        parser.error("--leaf-rollouts must be at least 1")
    try:
        game_name = canonical_name(args.game)
    except ValueError as error:
        parser.error(str(error))
    opponents = args.opponents or [f"mcts:{args.simulations}", "heuristic"]
    if args.leaf_rollouts is None:
        swept, settings = "rollout_weight", [{"rollout_weight": w} for w in args.weights]
    else:
        spec = {key: spec_settings(game_name)[key] for key in ("rollout_weight", "prior_temperature")}
        swept, settings = "leaf_rollouts", [{**spec, "leaf_rollouts": k} for k in args.leaf_rollouts]
    rows = sweep(game_name, settings, args.simulations, opponents, args.games, args.seed)
    command = "python -m benchmarks.guided_sweep " + " ".join(argv if argv is not None else sys.argv[1:])
    markdown = sweep_report(game_name, rows, args.simulations, args.seed, command.strip(), swept)
    out = Path(args.out or f"benchmarks/results/guided_sweep_{game_name.removesuffix('_v0')}_{PLAYERS}p")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text(markdown)
    print(markdown)
    return markdown


if __name__ == "__main__":
    main()
