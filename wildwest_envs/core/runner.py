"""The batch runner: seeded dealing and per-seat agents playing a batch of games (DESIGN.md, STYLE.md §16).

Every loop of the library that plays games with agents is built from these three
pieces, so that seeding, the choice of actions and their checking are written once:

* ``Dealer``: the games of one seeded run, in order. Game ``k`` of run ``s`` is
  dealt from ``core.rng.game_seed(s, k)`` wherever it is dealt (a vector env's
  reset, a tournament's batch, the self-play core, the RLlib runner), so a run
  replays exactly from its seed.
* ``agents_act``: the rows of a batch, each owned by one agent, decided by their
  agents (one ``act_batch`` call per agent with its own rows); an illegal or
  out-of-range choice is a ``ValueError`` naming the agent, before anything
  reaches the unchecked kernels.
* ``play_decisions`` / ``play_to_end``: one decision in each of some games, or
  every game of a batch played to its end, each seat by the agent that owns it.

The decision cap needs no code here: the step kernels leave a game at the cap
alone (``core.kernels.finished``) and ``Game.finished`` says it is over.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

import numpy as np

from . import batch
from .kernels import on_calling_thread
from .rng import game_seeds


class Dealer:
    """The games of one seeded run, dealt in order (game ``k`` of run ``seed`` from ``game_seed(seed, k)``).

    Attributes:
        seed: the run seed.
        next_game: the index of the next game to deal.
    """

    def __init__(self, game, seed: int, options: dict, next_game: int = 0):
        self.game, self.seed, self.options, self.next_game = game, int(seed), dict(options), int(next_game)
        self._vector = game.options.kernel_vector(game.parse_options(**self.options))  # parsed once per run

    def deal(self, n: int) -> np.ndarray:
        """The next ``n`` games of the run, as fresh records."""
        seeds = game_seeds(self.seed, n, self.next_game)
        self.next_game += n
        return self.game.init_from_vector(seeds, self._vector)

    def deal_into(self, states: np.ndarray, rows: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """Deal the next ``len(rows)`` games into those rows of ``states`` (in place); returns the fresh records.
        Given the batch's ``masks``, also writes the fresh games' legal masks into those rows of it, on the calling
        thread (``core.kernels.on_calling_thread``: a first decision's mask costs less than waking the threads).

        The records are copied whole (``core.batch``): numpy's field-by-field copy costs as much as the deal.
        """
        fresh = self.deal(len(rows))
        batch.put(states, rows, fresh)
        if masks is not None:
            with on_calling_thread(len(rows)):
                masks[rows] = self.game.legal_mask(fresh)
        return fresh

    def restart(self, seed: int | None = None) -> None:
        """Deal from game 0 again (of run ``seed`` when given)."""
        if seed is not None:
            self.seed = int(seed)
        self.next_game = 0


def agent_name(agent) -> str:
    """An agent's ``name``, else its type's or function's name."""
    return str(getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__)


def agents_act(agents, owners: np.ndarray, observations: np.ndarray, masks: np.ndarray, states: np.ndarray,
               seats: np.ndarray, games: np.ndarray | None = None) -> np.ndarray:
    """The action of each row, chosen by the agent ``agents[owners[row]]`` (one ``act_batch`` call per agent).

    Args:
        agents: a sequence of agents with ``act_batch(observations, masks, states, seats)``.
        owners: ``(R,)`` index of the agent of each row.
        observations, masks, states, seats: of each row (the seat to act).
        games: ``(R,)`` game index of each row, named in the error message (default: the row).

    Raises:
        ValueError: an agent chose an action out of range or illegal in its row ("<name> chose illegal
            action <a> in game <g>; legal: [...]").
    """
    actions = np.zeros(len(owners), dtype=np.int64)
    for k in np.unique(owners):
        rows = np.flatnonzero(owners == k)
        actions[rows] = agents[k].act_batch(observations[rows], masks[rows], batch.take(states, rows), seats[rows])
    n_actions = masks.shape[1]
    in_range = (actions >= 0) & (actions < n_actions)
    legal = in_range & (masks[np.arange(len(actions)), np.where(in_range, actions, 0)] > 0)
    if not legal.all():
        j = int(np.flatnonzero(~legal)[0])
        game = j if games is None else int(games[j])
        raise ValueError(f"{agent_name(agents[owners[j]])} chose illegal action {actions[j]} in game {game}; "
                         f"legal: {np.flatnonzero(masks[j]).tolist()}")
    return actions


class Decisions(NamedTuple):
    """One decision in each of some games: what the seat to act saw, could do and did."""

    rows: np.ndarray  # (R,) the games' rows in the batch
    seats: np.ndarray  # (R,) int64 the seat that decided
    observations: np.ndarray  # (R, obs_size) float32 its observation
    masks: np.ndarray  # (R, n_actions) int8 its legal actions
    actions: np.ndarray  # (R,) int64 its action


def play_decisions(game, states: np.ndarray, rows: np.ndarray, agents, owner_of_seat: np.ndarray,
                   timer: Callable[[float], None] | None = None) -> Decisions:
    """One decision in each unfinished game ``rows`` of ``states`` (in place), by the agent owning the seat to act.

    Args:
        owner_of_seat: ``(B, max_players)`` index into ``agents`` of the agent playing each seat of each game.
        timer: called with the seconds the agents took to choose (for the time split of a trainer).
    """
    sub = batch.take(states, rows)
    seats = sub["current"].astype(np.int64)
    observations = game.observe(sub, seats)
    masks = game.legal_mask(sub)
    start = time.perf_counter()
    actions = agents_act(agents, owner_of_seat[rows, seats], observations, masks, sub, seats, rows)
    if timer is not None:
        timer(time.perf_counter() - start)
    game.step(sub, actions, check=False)
    batch.put(states, rows, sub)
    return Decisions(rows, seats, observations, masks, actions)


def play_to_end(game, states: np.ndarray, agents, owner_of_seat: np.ndarray,
                on_decisions: Callable[[Decisions], None] | None = None,
                on_finished: Callable[[int], None] | None = None) -> None:
    """Play every game of ``states`` (in place) until it ends or reaches the decision cap.

    Args:
        owner_of_seat: ``(B, max_players)`` (or ``(B, num_players)``) agent index of each seat of each game.
        on_decisions: called with each round of ``Decisions`` (to record them).
        on_finished: called with the number of games that finished since the last call (a progress bar).
    """
    n_finished = 0
    while True:
        live = np.flatnonzero(~game.finished(states))
        if on_finished is not None and len(states) - len(live) > n_finished:
            on_finished(len(states) - len(live) - n_finished)
        n_finished = len(states) - len(live)
        if not len(live):
            return
        decisions = play_decisions(game, states, live, agents, owner_of_seat)
        if on_decisions is not None:
            on_decisions(decisions)


__all__ = ["Dealer", "Decisions", "agent_name", "agents_act", "play_decisions", "play_to_end"]
