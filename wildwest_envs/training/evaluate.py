"""Round-robin tournaments between agents, and the learning curve of a training run.

    wildwest-evaluate --game colt_express --players 3 --agents pretrained heuristic random --games 1000
    wildwest-evaluate --learning-curve runs/colt_express_v0_3p_seed1

Agents are given as ``agents.registry.make_agent`` specs (space- or
comma-separated): ``random``, ``heuristic``, ``mcts[:<simulations>]``,
``pretrained``, ``mcts+pretrained[:<simulations>]``, ``pretrained:<file.npz>``,
a checkpoint ``.zip`` or a run directory. A bad spec, or a checkpoint trained
for another game or player count, is a one-line error (exit status 2).

**Seatings.** With ``k`` agents and ``N`` seats, ``seat_schedule(k, N)`` lists
every assignment of agents to seats that uses ``min(k, N)`` different agents:
for ``k <= N`` every agent plays at least one seat (2 agents, 3 seats: ``AAB ABA
BAA ABB BAB BBA``), for ``k > N`` no agent plays two seats (all ordered choices
of ``N`` agents). The list is closed under renaming the agents and reordering
the seats, so over one full cycle every agent sits in every seat equally often
and meets every other agent equally often. Game ``i`` uses seating
``i mod len(schedule)`` of the schedule shuffled with the seed: the balance is
exact when the number of games is a multiple of the schedule length (the
report says so when it is not). ``focal_schedule`` (used by
``evaluate_against``) puts one focal agent in exactly one seat, every seat in
turn, and fills the other seats from the opponents in the same way.

**Statistics** (per agent name, pooled over the seats it played; agents with the
same name, such as several copies of one opponent, are one row):

* *seats*: seats played; a game where an agent holds two seats counts twice;
* *wins*: a game won by ``j`` tied seats gives ``1/j`` to each, so the wins of
  all rows add up to the number of games; *win rate* = wins / seats, with a 95%
  Wilson score interval (seats of one game are treated as independent draws).
  Equal agents win ``1/N`` of their seats;
* *mean score*: the game's own score (Colt Express: dollars); *mean rank*: 1 is
  best, tied seats share the best rank of their group (1, 1, 3);
* *rating*: openskill Plackett-Luce, updated game by game (in game order) from
  the seats' ranks, ties kept; an agent playing several seats of a game gets the
  sum of its seats' mean changes and the mean of their new sigmas. Reported as
  the ordinal ``mu - 3 sigma`` with ``mu`` and ``sigma``;
* *head to head*: for every pair of seats of one game held by different agents,
  1 to the one ranked better, 1/2 each on a tie; the table shows the row agent's
  share against the column agent.

Ranks follow the game's final scores, then its tie-breaker (the same order as
``Game.returns``). A truncated game without a result (the decision cap, or a
game's own cap scored as a draw) is left out of every statistic and counted in
the report; a game's own cap with a result by its rules (Wild West Express's
round cap with ``cap_scoring="vp"``) counts like any finished game.

Writes ``<out>.md`` (the report) and ``<out>.png`` (win rates with their
intervals, and ratings), and prints the report. ``--learning-curve RUN_DIR``
plots the reward and win rate of ``RUN_DIR/progress.csv`` against timesteps into
``RUN_DIR/learning_curve.png`` (copied to ``<out>.png``, or to
``<out>_learning_curve.png`` next to a tournament, when ``--out`` is given).

For the trainer: ``evaluate_against(game_name, num_players, agent, opponents,
n_games, seed) -> (markdown, results)`` and ``plot_learning_curve(run_dir)``.
"""

from __future__ import annotations

import argparse
import ast
import csv
import dataclasses
import inspect
import itertools
import json
import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from wildwest_envs.agents.registry import agents_for_command
from wildwest_envs.registry import canonical_name, get_game


@dataclass
class Args:
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
    sample: bool = False
    """checkpoint agents sample from their policy instead of playing greedily"""
    out: str = ""
    """output path without extension (default runs/tournaments/<game>_<N>p)"""
    learning_curve: str = ""
    """a training run directory: plot its progress.csv"""
    focal: bool = False
    """the first agent plays one seat (each seat in turn) against the other agents filling the rest"""


Z_95 = 1.959963984540054  # standard normal quantile of a two-sided 95% interval
RANK_KEY_SCALE = 1e6  # score * scale + tie-break orders seats (as Game.returns; both are small integers)
MAX_SEATINGS = 100_000  # a longer schedule (many agents, many seats) is refused: too few games would sample it


# ---- seatings ----------------------------------------------------------------------------
def seat_schedule(n_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Every assignment of agents to seats using ``min(n_agents, num_players)`` different agents.

    ``result[j][seat]`` is the agent index in that seat. Balanced: over the whole
    list every agent holds every seat equally often.
    """
    if n_agents < 1 or num_players < 1:
        raise ValueError(f"need at least one agent and one seat, got {n_agents} agents, {num_players} seats")
    if n_agents >= num_players:
        if math.perm(n_agents, num_players) > MAX_SEATINGS:
            raise ValueError(f"{n_agents} agents in {num_players} seats give {math.perm(n_agents, num_players)} "
                             f"seatings (more than {MAX_SEATINGS}); play smaller tournaments")
        return list(itertools.permutations(range(n_agents), num_players))
    return [s for s in itertools.product(range(n_agents), repeat=num_players) if len(set(s)) == n_agents]


def focal_schedule(n_opponents: int, num_players: int) -> list[tuple[int, ...]]:
    """Agent 0 in exactly one seat (each in turn); agents ``1..n_opponents`` fill the rest as ``seat_schedule``."""
    if num_players < 2:
        raise ValueError("a focal agent needs at least one opponent seat")
    rest = seat_schedule(n_opponents, num_players - 1)
    schedule = []
    for seat in range(num_players):
        for others in rest:
            shifted = tuple(1 + a for a in others)
            schedule.append(shifted[:seat] + (0,) + shifted[seat:])
    return schedule


# ---- playing -------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameResult:
    """The outcome of one game; per-seat tuples have ``num_players`` entries."""

    index: int
    """game number in the run (its seed is ``game_seed(seed, index)``)"""
    seating: tuple[int, ...]
    """agent index in each seat"""
    scores: tuple[int, ...]
    """final score of each seat (the game's own units)"""
    ranks: tuple[int, ...]
    """1 = best; tied seats share the best rank of their group"""
    win_shares: tuple[float, ...]
    """1/j for each of the j winning seats, 0 for the others"""
    truncated: bool
    """the turn cap ended the game: no result"""
    n_decisions: int
    """decisions taken in the game"""


def play_matches(game, agents: list, num_players: int, n_games: int, seed: int = 0, batch: int = 256,
                 schedule: list[tuple[int, ...]] | None = None, progress: bool = True,
                 **options) -> list[GameResult]:
    """Play ``n_games`` games between ``agents`` through the batched engine, ``batch`` at a time.

    Game ``i`` is dealt from ``(seed, i)`` and seated by ``schedule`` (default
    ``seat_schedule(len(agents), num_players)``) shuffled with ``seed``, cycled.
    At each decision the rows of each agent are handed to its ``act_batch``
    together (observations, masks, state copies and seats).

    Args:
        game: a ``Game`` or a registered game name.
        agents: objects with ``act_batch(observations, masks, states, seats)``.
        options: further game options (``num_players`` is set from the argument).

    Raises:
        ValueError: an agent returned an illegal action.
    """
    game = get_game(game) if isinstance(game, str) else game
    schedule = list(schedule if schedule is not None else seat_schedule(len(agents), num_players))
    order = np.random.default_rng(seed).permutation(len(schedule))
    seatings = np.array([schedule[order[i % len(schedule)]] for i in range(n_games)], dtype=np.int64)
    if seatings.size and (seatings.shape[1] != num_players or seatings.max() >= len(agents)):
        raise ValueError(f"schedule rows must give one of {len(agents)} agents for each of {num_players} seats")
    results: list[GameResult] = []
    with tqdm(total=n_games, desc="games", disable=not progress, leave=False) as bar:
        for start in range(0, n_games, batch):
            size = min(batch, n_games - start)
            states = game.init_batch(size, seed, start, num_players=num_players, **options)
            _play_to_end(game, agents, states, seatings[start:start + size], bar)
            results += _results(game, states, seatings[start:start + size], start)
    return results


def _play_to_end(game, agents: list, states: np.ndarray, seatings: np.ndarray, bar) -> None:
    """Step every game of ``states`` until it ends or is truncated, each seat played by its agent."""
    n_finished = 0
    while True:
        live = np.flatnonzero(~game.finished(states))
        bar.update(len(states) - len(live) - n_finished)
        n_finished = len(states) - len(live)
        if not len(live):
            return
        sub = states[live]
        seats = sub["current"].astype(np.int64)
        owners = seatings[live, seats]
        masks = game.legal_mask(sub)
        actions = np.zeros(len(live), dtype=np.int64)
        for k in np.unique(owners):
            rows = np.flatnonzero(owners == k)
            observations = game.observe(sub[rows], seats[rows])
            actions[rows] = agents[k].act_batch(observations, masks[rows], sub[rows], seats[rows])
        in_range = (actions >= 0) & (actions < game.n_actions)
        legal = in_range & (masks[np.arange(len(live)), np.clip(actions, 0, game.n_actions - 1)] > 0)
        if not legal.all():
            j = int(np.flatnonzero(~legal)[0])
            name = getattr(agents[owners[j]], "name", type(agents[owners[j]]).__name__)
            raise ValueError(f"agent {name} chose illegal action {actions[j]} in game {live[j]}; "
                             f"legal: {np.flatnonzero(masks[j]).tolist()}")
        game.step(sub, actions, check=False)
        states[live] = sub


def _results(game, states: np.ndarray, seatings: np.ndarray, start: int) -> list[GameResult]:
    """``GameResult`` of each finished record of one batch."""
    n = seatings.shape[1]
    scores = game.scores(states)[:, :n]
    ranks = seat_ranks(game, states)
    winners = ranks == 1
    shares = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
    # left out: games without a result (the decision cap, or a game's own cap scored as a draw); a game's own
    # cap scored by its rules (Wild West Express: cap_scoring="vp", the VP leaders win) keeps its result
    truncated = game.truncated(states) & ~(game.returns(states) != 0).any(axis=1)
    return [GameResult(start + b, tuple(int(a) for a in seatings[b]), tuple(int(s) for s in scores[b]),
                       tuple(int(r) for r in ranks[b]), tuple(float(w) for w in shares[b]), bool(truncated[b]),
                       int(states["n_decisions"][b]))
            for b in range(len(states))]


def seat_ranks(game, states: np.ndarray) -> np.ndarray:
    """``(B, num_players)`` int: 1 + the number of seats with a better (score, tie-break)."""
    n = int(states["num_players"][0])
    ties = np.zeros((len(states), game.max_players), dtype=np.int32)
    game.tiebreak_kernel(states, ties)
    key = (game.scores(states).astype(np.float64) * RANK_KEY_SCALE + ties)[:, :n]
    return 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)


# ---- statistics ----------------------------------------------------------------------------
def wilson_interval(successes: float, n: float, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class AgentStats:
    """One row of the results table (see the module docstring)."""

    name: str
    seats: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def win_rate(self) -> float:
        """Wins per seat played."""
        return self.wins / self.seats if self.seats else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.seats)

    @property
    def mean_score(self) -> float:
        """Mean final score per seat."""
        return self.score_sum / self.seats if self.seats else float("nan")

    @property
    def mean_rank(self) -> float:
        """Mean rank per seat (1 = best)."""
        return self.rank_sum / self.seats if self.seats else float("nan")

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def group_names(names: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct names in order, and the group index of each agent."""
    distinct = list(dict.fromkeys(names))
    return distinct, np.array([distinct.index(n) for n in names], dtype=np.int64)


def summarize(results: list[GameResult], names: list[str]) -> list[AgentStats]:
    """Per-name statistics and openskill ratings of finished games (truncated games are skipped)."""
    distinct, group = group_names(names)
    stats = [AgentStats(n) for n in distinct]
    for r in results:
        if r.truncated:
            continue
        for seat, agent in enumerate(r.seating):
            row = stats[group[agent]]
            row.seats += 1
            row.wins += r.win_shares[seat]
            row.score_sum += r.scores[seat]
            row.rank_sum += r.ranks[seat]
    for row, (mu, sigma) in zip(stats, openskill_ratings(results, names)):
        row.mu, row.sigma = mu, sigma
    return stats


def openskill_ratings(results: list[GameResult], names: list[str]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` per distinct name: Plackett-Luce updates from each finished game's ranks, in order."""
    from openskill.models import PlackettLuce

    distinct, group = group_names(names)
    model = PlackettLuce()
    ratings = [(model.mu, model.sigma) for _ in distinct]
    for r in results:
        if r.truncated:
            continue
        seat_groups = [int(group[a]) for a in r.seating]
        teams = [[model.rating(mu=ratings[g][0], sigma=ratings[g][1])] for g in seat_groups]
        new = model.rate(teams, ranks=list(r.ranks))
        for g in set(seat_groups):
            seats = [s for s, sg in enumerate(seat_groups) if sg == g]
            mu = ratings[g][0] + sum(new[s][0].mu - ratings[g][0] for s in seats)
            sigma = float(np.mean([new[s][0].sigma for s in seats]))
            ratings[g] = (mu, sigma)
    return ratings


def head_to_head(results: list[GameResult], names: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(names, points, meetings)``: ``points[i, j] / meetings[i, j]`` is i's share of its meetings with j."""
    distinct, group = group_names(names)
    points = np.zeros((len(distinct), len(distinct)))
    meetings = np.zeros_like(points)
    for r in results:
        if r.truncated:
            continue
        for s, t in itertools.permutations(range(len(r.seating)), 2):
            i, j = group[r.seating[s]], group[r.seating[t]]
            if i != j:
                meetings[i, j] += 1
                points[i, j] += 1.0 if r.ranks[s] < r.ranks[t] else 0.5 if r.ranks[s] == r.ranks[t] else 0.0
    return distinct, points, meetings


# ---- reports ---------------------------------------------------------------------------------
def markdown_table(stats: list[AgentStats]) -> str:
    """The results table in Markdown."""
    lines = ["| agent | seats | wins | win rate | 95% CI | mean score | mean rank | rating (μ−3σ) | μ | σ |",
             "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    for s in stats:
        lo, hi = s.interval
        lines.append(f"| {s.name} | {s.seats} | {s.wins:g} | {s.win_rate:.1%} | [{lo:.1%}, {hi:.1%}] | "
                     f"{s.mean_score:.1f} | {s.mean_rank:.2f} | {s.ordinal:.2f} | {s.mu:.2f} | {s.sigma:.2f} |")
    return "\n".join(lines)


def markdown_head_to_head(results: list[GameResult], names: list[str]) -> str:
    """The head-to-head table in Markdown (row agent's share of its meetings with the column agent)."""
    distinct, points, meetings = head_to_head(results, names)
    lines = ["| row vs column | " + " | ".join(distinct) + " |", "|---|" + "---:|" * len(distinct)]
    for i, name in enumerate(distinct):
        cells = [f"{points[i, j] / meetings[i, j]:.1%}" if meetings[i, j] else "–" for j in range(len(distinct))]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(game_name: str, num_players: int, results: list[GameResult], names: list[str], seed: int,
           schedule_length: int) -> str:
    """The full Markdown report: settings, results table and head-to-head table."""
    n_truncated = sum(r.truncated for r in results)
    balance = "balanced" if len(results) % schedule_length == 0 else \
        f"NOT a multiple of the {schedule_length} seatings, so seats are only nearly balanced"
    notes = (f"{len(results)} games of {game_name} with {num_players} players (seed {seed}); "
             f"{schedule_length} seatings, cycled: {balance}. {n_truncated} truncated games left out. "
             f"A win shared by j seats counts 1/j; equal agents win {1 / num_players:.1%} of their seats. "
             f"95% Wilson intervals; ratings: openskill Plackett-Luce.")
    stats = summarize(results, names)
    return (f"## {' vs '.join(dict.fromkeys(names))}\n\n{notes}\n\n{markdown_table(stats)}\n\n"
            f"### Head to head (share of pairwise finishes, ties ½)\n\n{markdown_head_to_head(results, names)}\n")


def plot_results(stats: list[AgentStats], num_players: int, path: str | Path, title: str = "") -> Path:
    """Save a bar plot of win rates with 95% intervals and of ratings (μ−3σ, μ ± 3σ) to ``path``."""
    from matplotlib.figure import Figure

    labels = [_wrap(s.name) for s in stats]
    x = np.arange(len(stats))
    rates = np.array([s.win_rate for s in stats])
    intervals = np.array([s.interval for s in stats]).reshape(-1, 2)
    fig = Figure(figsize=(4 + 1.6 * len(stats), 4.5))
    left, right = fig.subplots(1, 2)
    errors = np.maximum([rates - intervals[:, 0], intervals[:, 1] - rates], 0.0)  # rounding at a 0% / 100% rate
    left.bar(x, rates, yerr=errors, capsize=6, color="tab:blue")
    left.axhline(1 / num_players, ls="--", color="grey", label=f"equal agents ({1 / num_players:.0%})")
    left.set(xticks=x, ylabel="win rate per seat (95% CI)", ylim=(0, 1), title="win rate")
    left.set_xticklabels(labels, fontsize=8)
    left.legend(fontsize=8)
    mus = np.array([s.mu for s in stats])
    sigmas = np.array([s.sigma for s in stats])
    right.bar(x, mus - 3 * sigmas, color="tab:orange", label="μ − 3σ")
    right.errorbar(x, mus, yerr=3 * sigmas, fmt="o", color="black", capsize=6, label="μ ± 3σ")
    right.set(xticks=x, ylabel="openskill rating", title="rating")
    right.set_xticklabels(labels, fontsize=8)
    right.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return path


def _wrap(name: str, width: int = 18) -> str:
    """A long agent name (a checkpoint path) split over lines for an axis label."""
    return "\n".join(name[i:i + width] for i in range(0, len(name), width))


# ---- entry points ------------------------------------------------------------------------------
def tournament(game_name: str, num_players: int, agents: list, n_games: int, seed: int = 0, batch: int = 256,
               out: str | Path | None = None, progress: bool = True) -> tuple[str, list[GameResult]]:
    """Play a round robin over every seating (``seat_schedule``); write ``<out>.md`` and ``<out>.png``.

    Agents with the same ``name`` are renamed ``name#2``, ``name#3``... so each keeps its row.
    Returns the Markdown report and the per-game results.
    """
    game_name = canonical_name(game_name)
    seen: dict[str, int] = {}
    for agent in agents:
        seen[agent.name] = seen.get(agent.name, 0) + 1
        if seen[agent.name] > 1:
            agent.name = f"{agent.name}#{seen[agent.name]}"
    names = [a.name for a in agents]
    schedule = seat_schedule(len(agents), num_players)
    results = play_matches(game_name, agents, num_players, n_games, seed, batch, schedule, progress)
    markdown = report(game_name, num_players, results, names, seed, len(schedule))
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(f"{out}.md").write_text(markdown)
        plot_results(summarize(results, names), num_players, f"{out}.png",
                     f"{game_name}, {num_players} players, {n_games} games")
    return markdown, results


def evaluate_against(game_name: str, num_players: int, agent, opponents: list, n_games: int,
                     seed: int = 0, batch: int = 256, progress: bool = False) -> tuple[str, list[GameResult]]:
    """``agent`` in one seat (every seat in turn) against ``opponents`` in the others (``focal_schedule``).

    Opponents sharing a name (copies of one spec) form one row. Returns the
    Markdown notes and results table, and the per-game results (agent index 0 is ``agent``).
    """
    game_name = canonical_name(game_name)
    agents = [agent, *opponents]
    names = [a.name for a in agents]
    if agent.name in names[1:]:
        names[0] = f"{agent.name} (evaluated)"
    schedule = focal_schedule(len(opponents), num_players)
    results = play_matches(game_name, agents, num_players, n_games, seed, batch, schedule, progress)
    n_truncated = sum(r.truncated for r in results)
    notes = (f"{len(results)} games, {num_players} players, seed {seed}; the evaluated agent plays one seat, "
             f"each seat equally often; {n_truncated} truncated games left out; equal agents win "
             f"{1 / num_players:.1%}.")
    return f"{notes}\n\n{markdown_table(summarize(results, names))}\n", results


LEARNING_CURVE_PANELS = (  # (progress.csv column, axis label)
    ("rollout/ep_rew_mean", "mean episode reward"),
    ("selfplay/win_rate", "learner win rate"),
)
TIMESTEPS_COLUMN = "time/total_timesteps"


def read_progress(path: str | Path) -> dict[str, np.ndarray]:
    """The columns of an SB3 ``progress.csv`` as float arrays (empty cells become NaN)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{path} has no rows")
    return {c: np.array([float(r[c]) if r.get(c) not in (None, "") else np.nan for r in rows]) for c in rows[0]}


def plot_learning_curve(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Plot reward and win rate against timesteps from ``run_dir/progress.csv``.

    Saves ``run_dir/learning_curve.png`` (and a copy at ``out`` if given) and returns its path.

    Raises:
        ValueError: the log has no timestep column or none of ``LEARNING_CURVE_PANELS``.
    """
    from matplotlib.figure import Figure

    run_dir = Path(run_dir)
    columns = read_progress(run_dir / "progress.csv")
    panels = [(c, label) for c, label in LEARNING_CURVE_PANELS if c in columns and np.isfinite(columns[c]).any()]
    if TIMESTEPS_COLUMN not in columns or not panels:
        raise ValueError(f"{run_dir / 'progress.csv'} needs {TIMESTEPS_COLUMN} and one of "
                         f"{[c for c, _ in LEARNING_CURVE_PANELS]}; it has {sorted(columns)}")
    config_file = run_dir / "config.json"
    config = json.loads(config_file.read_text()) if config_file.is_file() else {}
    fig = Figure(figsize=(5.5 * len(panels), 4))
    axes = fig.subplots(1, len(panels), squeeze=False)
    steps = columns[TIMESTEPS_COLUMN]
    for ax, (column, label) in zip(axes[0], panels):
        ok = np.isfinite(columns[column]) & np.isfinite(steps)
        ax.plot(steps[ok], columns[column][ok])
        if column == "selfplay/win_rate" and "num_players" in config:
            ax.axhline(1 / config["num_players"], ls="--", color="grey", label="equal share (1/N)")
            ax.set_ylim(0, 1)
            ax.legend(fontsize=8)
        ax.set(xlabel="timesteps", ylabel=label, title=label)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{config.get('game', run_dir.name)}" + (f", {config['num_players']} players"
                                                          if "num_players" in config else ""))
    fig.tight_layout()
    path = run_dir / "learning_curve.png"
    fig.savefig(path, dpi=120)
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)
    return path


# ---- command line -------------------------------------------------------------------------------
def _field_docs(cls) -> dict[str, str]:
    """The docstring under each field of a dataclass (for ``--help``)."""
    body = ast.parse(inspect.getsource(cls)).body[0].body
    return {a.target.id: b.value.value for a, b in zip(body, body[1:])
            if isinstance(a, ast.AnnAssign) and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)}


def parse_args(argv: list[str] | None = None) -> Args:
    """``Args`` from the command line (``--flag-name`` per field)."""
    from wildwest_envs.agents.registry import SPECS
    from wildwest_envs.registry import GAMES
    epilog = (f"games: {', '.join(g.removesuffix('_v0') for g in GAMES)}\n"
              f"agent specs: {', '.join(SPECS)}")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=epilog,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    docs = _field_docs(Args)
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
    if args.batch < 1 or args.players < 1:
        parser.error("--batch and --players must be positive")
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
        if args.focal:
            if len(agents) != args.players:
                raise SystemExit(f"--focal needs one agent per seat ({args.players}), got {len(agents)}")
            table, results = evaluate_against(game_name, args.players, agents[0], agents[1:], args.games,
                                              args.seed, args.batch, progress=True)
            markdown = f"## {agents[0].name} against {', '.join(a.name for a in agents[1:])}\n\n{table}"
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            Path(f"{out}.md").write_text(markdown)
            names = [a.name for a in agents]
            plot_results(summarize(results, names), args.players, f"{out}.png",
                         f"{game_name}, {args.players} players, {args.games} games")
        else:
            markdown, _ = tournament(game_name, args.players, agents, args.games, args.seed, args.batch, out)
        printed.append(markdown)
        printed.append(f"wrote {out}.md and {out}.png")
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
