"""Statistics of played games: Wilson intervals, per-agent results, openskill ratings and head to head.

Per agent name, pooled over the seats it played; agents with the same name,
such as several copies of one opponent, are one row. Truncated games without a
result (``GameResult.truncated``) are left out of every statistic.

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
  1 to the one ranked better, 1/2 each on a tie; ``points[i, j] / meetings[i, j]``
  is agent ``i``'s share against agent ``j``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wildwest_envs.training.tournament import GameResult

Z_95 = 1.959963984540054  # standard normal quantile of a two-sided 95% interval


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
