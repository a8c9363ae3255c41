"""How much of a leaf's value the guided search should take from a random rollout, measured per game.

    python -m benchmarks.guided_sweep --game colt_express --weights 0 0.5 1 --simulations 200 --games 240

For each rollout weight ``w`` (``agents.guided_search``: a leaf is worth
``(1 - w) * critic + w * rollout``), the guided search with the shipped network
plays ``--games`` games at 3 players in one seat (every seat in turn) against
two ``--opponents`` (default ``mcts:<S>`` and ``heuristic``), seated both ways
(``training.tournament.focal_schedule``). Every weight plays the same deals
(same seed), so the columns differ by the search alone.

Writes ``<out>.md``: per weight, the win rate and the head-to-head share against
each opponent (pairwise finishes, ties ½), each with its 95% Wilson interval,
and the seconds per game; default ``--out
benchmarks/results/guided_sweep_<game>_3p``. The weight chosen for the spec
``mcts+pretrained`` of each game is ``agents.guided_search.ROLLOUT_WEIGHTS``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from wildwest_envs.agents.guided_search import GuidedSearchAgent
from wildwest_envs.agents.registry import agents_for_command, make_agent
from wildwest_envs.registry import canonical_name, get_game
from wildwest_envs.training.stats import head_to_head, wilson_interval
from wildwest_envs.training.tournament import focal_schedule, play_matches

PLAYERS = 3


def sweep(game_name: str, weights: list[float], simulations: int, opponents: list[str], games: int,
          seed: int = 0) -> list[dict]:
    """One row per weight: its results against ``opponents`` (module docstring)."""
    game = get_game(game_name)
    rivals = agents_for_command(opponents, game_name, PLAYERS, seed + 100, prog="benchmarks.guided_sweep")
    network = make_agent("pretrained", game_name, seed=seed, num_players=PLAYERS)
    rows = []
    for weight in weights:
        agent = GuidedSearchAgent(game, network, simulations=simulations, seed=seed, rollout_weight=weight,
                                  name=f"rollout weight {weight:g}")
        start = time.perf_counter()
        results = play_matches(game, [agent, *rivals], PLAYERS, games, seed, batch=games,
                               schedule=focal_schedule(len(rivals), PLAYERS))
        seconds = time.perf_counter() - start
        names = [agent.name, *(r.name for r in rivals)]
        distinct, points, meetings = head_to_head(results, names)
        counted = [r for r in results if not r.truncated]
        wins = sum(r.win_shares[r.seating.index(0)] for r in counted)
        rows.append({"weight": weight, "games": len(counted), "wins": wins, "seconds": seconds / max(len(results), 1),
                     "versus": {distinct[j]: (points[0, j], meetings[0, j]) for j in range(1, len(distinct))}})
    return rows


def _share(points: float, n: float) -> str:
    lo, hi = wilson_interval(points, n)
    return f"{points / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}] n={n:.0f}"


def sweep_report(game_name: str, rows: list[dict], simulations: int, seed: int, command: str) -> str:
    """The Markdown table of a sweep."""
    rivals = list(rows[0]["versus"]) if rows else []
    lines = [f"## Guided search: rollout weight, {canonical_name(game_name)}, {PLAYERS} players, "
             f"{simulations} simulations", "", f"`{command}`", "",
             f"The guided search (shipped network, seed {seed}) in one seat, every seat in turn, against "
             f"{' and '.join(rivals)}; the same deals for every weight. Win rate: an equal agent wins "
             f"{1 / PLAYERS:.1%}; head to head: the share of pairwise finishes ahead (ties ½). 95% Wilson "
             f"intervals.", "",
             "| rollout weight | games | win rate | " + " | ".join(f"vs {r}" for r in rivals) + " | s per game |",
             "|---:|---:|---|" + "---|" * len(rivals) + "---:|"]
    for row in rows:
        cells = [_share(*row["versus"][r]) for r in rivals]
        lines.append(f"| {row['weight']:g} | {row['games']} | {_share(row['wins'], row['games'])} | "
                     + " | ".join(cells) + f" | {row['seconds']:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> str:
    """Command line: sweep the rollout weights of one game, write and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="registered game")
    parser.add_argument("--weights", nargs="+", type=float, default=[0.0, 0.5, 1.0], help="rollout weights in [0, 1]")
    parser.add_argument("--simulations", type=int, default=200, help="simulations per decision")
    parser.add_argument("--opponents", nargs=2, default=None, help="two agent specs (default: mcts:<S> heuristic)")
    parser.add_argument("--games", type=int, default=240, help="games per weight (a multiple of 6 seats both ways)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="", help="output path without extension")
    args = parser.parse_args(argv)
    if args.simulations < 1 or args.games < 1 or not all(0.0 <= w <= 1.0 for w in args.weights):
        parser.error("--simulations and --games must be positive and every weight in [0, 1]")
    try:
        game_name = canonical_name(args.game)
    except ValueError as error:
        parser.error(str(error))
    opponents = args.opponents or [f"mcts:{args.simulations}", "heuristic"]
    rows = sweep(game_name, args.weights, args.simulations, opponents, args.games, args.seed)
    command = "python -m benchmarks.guided_sweep " + " ".join(argv if argv is not None else sys.argv[1:])
    markdown = sweep_report(game_name, rows, args.simulations, args.seed, command.strip())
    out = Path(args.out or f"benchmarks/results/guided_sweep_{game_name.removesuffix('_v0')}_{PLAYERS}p")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text(markdown)
    print(markdown)
    return markdown


if __name__ == "__main__":
    main()
