"""Reports of played games: Markdown tables, pictures (win rates, ratings, learning curves) and their files.

``report`` is a tournament's Markdown (settings, the results table of
``training.stats.summarize`` and the head-to-head table: the row agent's share
of its meetings with the column agent); ``plot_results`` draws win rates with
their 95% intervals and ratings; ``write_report`` writes ``<out>.md`` and
``<out>.png``. ``plot_learning_curve(run_dir)`` plots the reward and win rate
of a training run's ``progress.csv`` against timesteps.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from wildwest_envs.training.stats import AgentStats, head_to_head, summarize

if TYPE_CHECKING:
    from wildwest_envs.training.tournament import GameResult


# ---- Markdown --------------------------------------------------------------------------------
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


# ---- pictures and files ----------------------------------------------------------------------
def win_rate_bars(stats: list[AgentStats]) -> tuple[np.ndarray, np.ndarray]:
    """The win rate of each row and its ``yerr`` (below, above) to the 95% interval, for a bar plot."""
    rates = np.array([s.win_rate for s in stats])
    intervals = np.array([s.interval for s in stats]).reshape(-1, 2)
    return rates, np.maximum([rates - intervals[:, 0], intervals[:, 1] - rates], 0.0)  # rounding at 0% / 100%


def save_figure(fig, path: str | Path, title: str, dpi: int = 120) -> Path:
    """Title ``fig``, lay it out and save it to ``path`` (making its folder); returns the path."""
    fig.suptitle(title)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    return path


def plot_results(stats: list[AgentStats], num_players: int, path: str | Path, title: str = "") -> Path:
    """Save a bar plot of win rates with 95% intervals and of ratings (μ−3σ, μ ± 3σ) to ``path``."""
    from matplotlib.figure import Figure

    labels = [wrap_label(s.name) for s in stats]
    x = np.arange(len(stats))
    rates, errors = win_rate_bars(stats)
    fig = Figure(figsize=(4 + 1.6 * len(stats), 4.5))
    left, right = fig.subplots(1, 2)
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
    return save_figure(fig, path, title)


LABEL_BREAKS = ":+/_-"  # an axis label breaks after one of these where it can (``mcts+pretrained:`` / ``200``)


def wrap_label(name: str, width: int = 18) -> str:
    """A long agent name (an agent spec, a checkpoint path) split over lines of at most ``width`` characters for an
    axis label: after the last of ``LABEL_BREAKS`` in a line, or at ``width`` where a line has none."""
    lines = []
    while len(name) > width:
        cut = max((i + 1 for i, char in enumerate(name[:width]) if char in LABEL_BREAKS), default=width)
        lines.append(name[:cut])
        name = name[cut:]
    return "\n".join([*lines, name])


def write_report(out: str | Path, markdown: str, results: list[GameResult], names: list[str], num_players: int,
                 title: str) -> None:
    """Write ``markdown`` to ``<out>.md`` and ``plot_results`` of the results (titled ``title``) to ``<out>.png``."""
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(f"{out}.md").write_text(markdown)
    plot_results(summarize(results, names), num_players, f"{out}.png", title)


# ---- learning curves ---------------------------------------------------------------------------
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
    title = f"{config.get('game', run_dir.name)}" + (f", {config['num_players']} players"
                                                     if "num_players" in config else "")
    path = save_figure(fig, run_dir / "learning_curve.png", title)
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)
    return path
