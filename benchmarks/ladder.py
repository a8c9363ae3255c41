"""The reference ladder of a game: every agent we ship, ranked against each other at 3 players.

    python -m benchmarks.ladder --game colt_express
    python -m benchmarks.ladder --game rail --games 2400 --search-games 240 --simulations 50
    python -m benchmarks.ladder --game way_out_west --journal runs/ladder_wow   # resumable
    python -m benchmarks.ladder --game rail --workers 2                         # a process per core

Agents (``--agents`` replaces the list): ``random``, ``heuristic``,
``mcts:<S>``, the README-default PPO agent (``runs/<game>_3p_seed1/model.zip``,
what ``python -m wildwest_envs.training.train --game <game>`` writes; left out
with a warning when that run is missing), ``pretrained`` and
``mcts+pretrained:<S>`` (``S`` = ``--simulations``, default 200).

**Seatings.** One round robin over every ordered choice of 3 different agents
(``training.tournament.seat_schedule``), in two parts so that the slow search
agents do not decide how many games the fast ones get:

* the seatings without a search agent, ``--games`` games (default 2,400, a
  multiple of their 24 seatings for four fast agents);
* the seatings with at least one search agent, ``--search-games`` games
  (default 288, a multiple of their 96 seatings).

Each part cycles its seatings in a seeded order, so over a multiple of its
length every agent holds every seat equally often.

**An agent added to a finished ladder** (``--added K``: the last ``K`` of
``--agents`` are new) does not replay it. The games of the first agents come
from the earlier ladder's journal (``--journal``, all the games it holds; its
agents, seatings and seeds must be those of the first agents), and only the
seatings with a new agent are played, in two more parts of their own
(``<journal>.added.fast.jsonl``, ``<journal>.added.search.jsonl``;
``--games`` and ``--search-games`` then count their games, dealt from seeds of
their own). Each part stays balanced over its seatings; the results pool all
four parts. Win rates pool both parts
(so they depend on the mix of opponents each agent met: compare ratings and the
head-to-head matrix across agents); the head-to-head matrix counts, for every
pair of seats of one game, which of the two agents finished ahead (ties ½),
with the number of meetings and a 95% Wilson interval for every cell.

**An agent that changed** (``--replay SPEC``: a fixed bug, not new weights
under an old name): the games of the journal in which it sits are played again,
dealt and seated as before, and replace their results in the journal; the
other games are kept, none of their agents changed. The batches keep the wall
seconds of their first play. The journal is rewritten after each replayed
batch: a replay stopped midway leaves the games it reached replayed, and run
again it plays them all again.

Writes ``<out>.md`` (settings, wall time, seconds per game of each part, the
results table with openskill ratings, the head-to-head matrix) and
``<out>.png`` (win rates and ratings, and the head-to-head matrix as a heat
map); default ``--out benchmarks/results/ladder_<game>_3p``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wildwest_envs.agents.registry import agents_for_command
from wildwest_envs.registry import canonical_name
from wildwest_envs.training.report import markdown_table, save_figure, win_rate_bars
from wildwest_envs.training.stats import head_to_head, summarize, wilson_interval
from wildwest_envs.training.journal import MatchJournal, journal_settings
from wildwest_envs.training.tournament import AgentSpecs, open_journal, play_matches, seat_schedule

PLAYERS = 3  # the ladder's player count (the shipped networks' count)
SEARCH_STEMS = ("mcts", "mcts+pretrained")  # specs whose agents search (slow): played in the second part
ADDED_SEED_OFFSET = 1_000_000  # the parts with an added agent deal from seed + this (+ --games for the search part)


def default_agents(game_name: str, simulations: int) -> list[str]:
    """The ladder's agent specs for a game (the default-run checkpoint only when it exists)."""
    specs = ["random", "heuristic", f"mcts:{simulations}"]
    default_run = Path("runs") / f"{canonical_name(game_name)}_{PLAYERS}p_seed1" / "model.zip"
    if default_run.is_file():
        specs.append(str(default_run))
    else:
        print(f"warning: no README-default run at {default_run} (python -m wildwest_envs.training.train --game "
              f"{game_name}); the ladder goes on without it", file=sys.stderr)
    return specs + ["pretrained", f"mcts+pretrained:{simulations}"]


def is_search(spec: str) -> bool:
    """Whether an agent spec names a search agent (``mcts``, ``mcts:<N>``, ``mcts+pretrained[:N]``)."""
    return spec.partition(":")[0] in SEARCH_STEMS


def split_schedule(specs: list[str]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The seatings of ``seat_schedule`` without any search agent, and those with at least one."""
    schedule = seat_schedule(len(specs), PLAYERS)
    fast = [s for s in schedule if not any(is_search(specs[a]) for a in s)]
    slow = [s for s in schedule if any(is_search(specs[a]) for a in s)]
    return fast, slow


@dataclass(frozen=True)
class Part:
    """One part of a ladder: its seatings, games and seed, and the journal file that keeps them."""

    label: str
    journal_suffix: str
    schedule: list[tuple[int, ...]]
    games: int
    seed: int
    agents: int
    """how many of the ladder's agents (the first ones) its journal names"""


def ladder_parts(specs: list[str], games: int, search_games: int, seed: int = 0) -> list[Part]:
    """The two parts of a ladder played from scratch: the seatings without a search agent, then the others."""
    fast, slow = split_schedule(specs)
    return [Part("without search", "fast", fast, games, seed, len(specs)),
            Part("with search", "search", slow, search_games, seed + games, len(specs))]


def added_parts(specs: list[str], added: int, games: int, search_games: int, seed: int,
                journal: str | Path) -> list[Part]:
    """The parts of a ladder whose last ``added`` agents joined after the others had played theirs.

    The first agents' two parts are the earlier ladder's, with all the games its journal holds and the seeds it
    was played with (read from the journal, which ``open_journal`` then checks against their agents and
    seatings); the seatings with a new agent make two parts of their own, ``games`` and ``search_games`` games.
    """
    if not 0 < added <= len(specs) - PLAYERS:
        raise ValueError(f"--added must leave at least {PLAYERS} earlier agents, got {added} of {len(specs)}")
    earlier = len(specs) - added
    parts = []
    for part in ladder_parts(specs[:earlier], 0, 0, seed):
        settings = journal_settings(f"{journal}.{part.journal_suffix}.jsonl")
        if settings is not None:  # a part the earlier ladder played no game of has no file
            done = MatchJournal(f"{journal}.{part.journal_suffix}.jsonl", settings).games
            parts.append(Part(part.label, part.journal_suffix, part.schedule, done, int(settings.get("seed", -1)),
                              earlier))
    if not parts:
        raise ValueError(f"--added {added}: no journal {journal}.fast.jsonl or {journal}.search.jsonl of the ladder "
                         f"of the first {earlier} agents")
    fast, slow = split_schedule(specs)
    new = [[seating for seating in schedule if max(seating) >= earlier] for schedule in (fast, slow)]
    return parts + [Part(f"{label}, with an added agent", f"added.{suffix}", schedule, n_games, seed + offset,
                         len(specs))
                    for label, suffix, schedule, n_games, offset in (
                        ("without search", "fast", new[0], games, ADDED_SEED_OFFSET),
                        ("with search", "search", new[1], search_games, ADDED_SEED_OFFSET + games))]


def run_ladder(game_name: str, specs: list[str], games: int, search_games: int, seed: int = 0,
               batch: int = 64, journal: str | Path | None = None, workers: int = 1,
               added: int = 0, replay: tuple[str, ...] = ()) -> tuple[list, list[str], dict]:
    """Play the parts of the ladder; the results (one list), the agents' names and the timings.

    With ``journal`` (a path prefix), each part keeps its finished batches in
    ``<journal>.<part>.jsonl`` (``training.journal``): a stopped ladder started
    again goes on where it stopped, one started with more games extends it, and
    the timings are those of the batches in the journal. ``workers`` processes play batches side by side
    (``training.tournament.play_matches``): the same games and seatings, the timings one core's. ``added``:
    the last ``added`` agents join the finished ladder of the others in ``journal`` (``added_parts``).
    ``replay``: specs of agents whose journaled games are played again (``play_matches``' ``replay``).
    """
    if added and journal is None:
        raise ValueError("--added needs --journal, the journal of the ladder the new agents join")
    if replay and journal is None:
        raise ValueError("--replay needs --journal, the journal whose games it plays again")
    unknown = [spec for spec in replay if spec not in specs]
    if unknown:
        raise ValueError(f"--replay {' '.join(unknown)}: not among the agents {specs}")
    parts = (added_parts(specs, added, games, search_games, seed, journal) if added
             else ladder_parts(specs, games, search_games, seed))
    agents = agents_for_command(specs, game_name, PLAYERS, seed, prog="benchmarks.ladder")
    names = [_display_name(spec) for spec in specs]
    timings, results = {}, []
    for part in parts:
        if not part.schedule or part.games <= 0:
            continue
        start = time.perf_counter()
        part_journal = None
        if journal is not None:
            part_journal = open_journal(f"{journal}.{part.journal_suffix}.jsonl", game_name,
                                        agents[:part.agents], PLAYERS, part.seed, part.schedule)
        part_results = play_matches(game_name, agents, PLAYERS, part.games, part.seed, batch, part.schedule,
                                    journal=part_journal, workers=workers,
                                    make_agents=AgentSpecs(tuple(specs), game_name, PLAYERS, seed),
                                    replay=[i for i, spec in enumerate(specs) if spec in replay])
        seconds = part_journal.seconds(part.games) if part_journal else time.perf_counter() - start
        timings[part.label] = (part.games, len(part.schedule), seconds)
        results += part_results
    return results, names, timings


def _display_name(spec: str) -> str:
    """A short row name: the spec, or ``ppo-default`` for the README-default checkpoint."""
    if spec.endswith("model.zip") or spec.startswith("policy:"):
        return "ppo-default"
    return spec


def head_to_head_table(results, names: list[str]) -> str:
    """The head-to-head matrix in Markdown: share, 95% interval and meetings of every pair."""
    distinct, points, meetings = head_to_head(results, names)
    lines = ["| row vs column | " + " | ".join(distinct) + " |", "|---|" + "---|" * len(distinct)]
    for i, name in enumerate(distinct):
        cells = []
        for j in range(len(distinct)):
            if i == j or not meetings[i, j]:
                cells.append("–")
                continue
            lo, hi = wilson_interval(points[i, j], meetings[i, j])
            cells.append(f"{points[i, j] / meetings[i, j]:.1%} [{lo:.0%}, {hi:.0%}] n={meetings[i, j]:.0f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ladder_report(game_name: str, results, names: list[str], timings: dict, seed: int, command: str) -> str:
    """The Markdown report of a ladder."""
    truncated = sum(r.truncated for r in results)
    parts = "; ".join(f"{part}: {n} games over {k} seatings, {sec:.0f} s ({sec / max(n, 1):.2f} s per game)"
                      for part, (n, k, sec) in timings.items())
    notes = (f"{len(results)} games of {canonical_name(game_name)} at {PLAYERS} players (seed {seed}), every "
             f"seating of 3 different agents permuted; {parts}. {truncated} truncated games left out. "
             f"A win shared by j seats counts 1/j; equal agents win {1 / PLAYERS:.1%} of their seats. 95% Wilson "
             f"intervals; ratings: openskill Plackett-Luce.")
    return (f"## Ladder: {canonical_name(game_name)}, {PLAYERS} players\n\n`{command}`\n\n{notes}\n\n"
            f"{markdown_table(summarize(results, names))}\n\n"
            f"### Head to head (row's share of pairwise finishes against column, ties ½; 95% interval; meetings)\n\n"
            f"{head_to_head_table(results, names)}\n")


def plot_ladder(results, names: list[str], path: str | Path, title: str) -> Path:
    """Save win rates (95% intervals), ratings and the head-to-head heat map to ``path``."""
    import matplotlib
    from matplotlib.figure import Figure

    stats = summarize(results, names)
    distinct, points, meetings = head_to_head(results, names)
    share = np.where(meetings > 0, points / np.maximum(meetings, 1), np.nan)
    fig = Figure(figsize=(15, 4.8))
    left, middle, right = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1, 1.2]})
    x = np.arange(len(stats))
    rates, errors = win_rate_bars(stats)
    left.bar(x, rates, yerr=errors, capsize=5)
    left.axhline(1 / PLAYERS, ls="--", color="grey", label="equal agents")
    left.set(xticks=x, ylim=(0, 1), ylabel="win rate per seat (95% CI)", title="win rate")
    left.set_xticklabels([s.name for s in stats], rotation=30, ha="right", fontsize=8)
    left.legend(fontsize=8)
    mus, sigmas = np.array([s.mu for s in stats]), np.array([s.sigma for s in stats])
    middle.errorbar(x, mus, yerr=3 * sigmas, fmt="o", capsize=5)
    middle.set(xticks=x, ylabel="openskill μ ± 3σ", title="rating")
    middle.set_xticklabels([s.name for s in stats], rotation=30, ha="right", fontsize=8)
    image = right.imshow(share, cmap=matplotlib.colormaps["RdBu"], vmin=0, vmax=1)
    for i in range(len(distinct)):
        for j in range(len(distinct)):
            if np.isfinite(share[i, j]):
                right.text(j, i, f"{share[i, j]:.0%}", ha="center", va="center", fontsize=8)
    right.set(xticks=range(len(distinct)), yticks=range(len(distinct)), title="head to head (row vs column)")
    right.set_xticklabels(distinct, rotation=30, ha="right", fontsize=8)
    right.set_yticklabels(distinct, fontsize=8)
    fig.colorbar(image, ax=right, fraction=0.046)
    return save_figure(fig, path, title, dpi=110)


def main(argv: list[str] | None = None) -> str:
    """Command line: play the ladder of one game, write and print its report."""
    from wildwest_envs.agents.registry import SPECS
    from wildwest_envs.registry import GAMES
    epilog = f"games: {', '.join(g.removesuffix('_v0') for g in GAMES)}\nagent specs: {', '.join(SPECS)}"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=epilog)
    parser.add_argument("--game", required=True, help="registered game")
    parser.add_argument("--agents", nargs="+", help="agent specs, space- or comma-separated (default: the ladder's "
                                                    "six, see above)")
    parser.add_argument("--simulations", type=int, default=200, help="simulations per decision of both searches")
    parser.add_argument("--games", type=int, default=2400, help="games of the seatings without a search agent")
    parser.add_argument("--search-games", type=int, default=288, help="games of the seatings with a search agent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=64, help="games played at once")
    parser.add_argument("--workers", type=int, default=1, help="processes playing batches side by side, one core "
                                                               "each")
    parser.add_argument("--out", default="", help="output path without extension")
    parser.add_argument("--journal", default=None, help="path prefix of a resumable journal of finished games "
                                                        "(<prefix>.fast.jsonl, <prefix>.search.jsonl): a ladder "
                                                        "started again goes on, or extends to more games")
    parser.add_argument("--added", type=int, default=0, help="the last K agents join the finished ladder of the "
                                                             "others in --journal: only their seatings are played "
                                                             "(--games and --search-games count those)")
    parser.add_argument("--replay", nargs="+", default=[], metavar="SPEC",
                        help="agents whose play changed since --journal was written (a fixed bug): the journal's "
                             "games in which they sit are played again and replace their results")
    args = parser.parse_args(argv)
    if args.simulations < 1 or args.workers < 1 or args.games < 0 or args.search_games < 0 or args.added < 0:
        parser.error("--simulations and --workers must be positive and the counts non-negative")
    try:
        game_name = canonical_name(args.game)
    except ValueError as error:
        parser.error(str(error))
    specs = [s for item in args.agents or [] for s in item.split(",") if s] or default_agents(game_name,
                                                                                              args.simulations)
    if len(specs) < PLAYERS:
        parser.error(f"a ladder needs at least {PLAYERS} agents, got {specs}")
    out = args.out or f"benchmarks/results/ladder_{game_name.removesuffix('_v0')}_{PLAYERS}p"
    command = "python -m benchmarks.ladder " + " ".join(argv if argv is not None else sys.argv[1:])
    try:
        results, names, timings = run_ladder(game_name, specs, args.games, args.search_games, args.seed, args.batch,
                                            args.journal, args.workers, args.added, tuple(args.replay))
    except ValueError as error:  # a journal of another ladder, an unknown agent spec, a bad --added
        parser.error(str(error))
    markdown = ladder_report(game_name, results, names, timings, args.seed, command.strip())
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(f"{out}.md").write_text(markdown)
    plot_ladder(results, names, f"{out}.png", f"{game_name}, {PLAYERS} players, {len(results)} games")
    print(markdown)
    return markdown


if __name__ == "__main__":
    main()
