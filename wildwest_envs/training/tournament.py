"""Playing agents against each other: seating schedules, batched matches and the two kinds of tournament.

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

**Results.** Ranks follow the game's final scores, then its tie-breaker (the
same order as ``Game.returns``). A truncated game without a result (the decision
cap, or a game's own cap scored as a draw) is marked ``truncated`` and left out
of every statistic (``training.stats``); a game's own cap with a result by its
rules (Wild West Express's round cap with ``cap_scoring="vp"``) counts like any
finished game.

``tournament`` plays a round robin over every seating and writes its report
(``training.report``); ``evaluate_against`` (for the trainers) plays one agent
against opponents and returns its results table, and ``evaluation_report`` runs it against copies of each
of several agent specs (the trainers' final evaluation).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from wildwest_envs.agents.registry import make_agents as agents_of_specs
from wildwest_envs.core.records import make_record
from wildwest_envs.core.rng import game_seeds_at
from wildwest_envs.core.runner import Decisions, agent_name, play_to_end
from wildwest_envs.registry import canonical_name, get_game
from wildwest_envs.training.journal import MatchJournal
from wildwest_envs.training.report import markdown_table, report, write_report
from wildwest_envs.training.stats import summarize

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
                 save_games: str | Path | None = None, save_events: bool = False, journal: MatchJournal | None = None,
                 workers: int = 1, make_agents: Callable[[int], list] | None = None, replay: Sequence[int] = (),
                 **options) -> list[GameResult]:
    """Play ``n_games`` games between ``agents`` through the batched engine, ``batch`` at a time.

    Game ``i`` is dealt from ``(seed, i)`` and seated by ``schedule`` (default
    ``seat_schedule(len(agents), num_players)``) shuffled with ``seed``, cycled.
    At each decision the rows of each agent are handed to its ``act_batch``
    together (observations, masks, state copies and seats).

    Args:
        game: a ``Game`` or a registered game name.
        agents: objects with ``act_batch(observations, masks, states, seats)``.
        save_games: a folder: each game is written there as a game record (``core.records``),
            ``game_<index>.json``, which ``Game.replay`` and the AEC env's ``load_record`` read.
        save_events: the saved records hold what each step reported too (``core.records``).
        journal: a ``MatchJournal`` (``open_journal``): the games already in it are taken from it, and each
            batch played is appended to it, so a stopped run goes on where it stopped.
        workers: processes that play batches side by side (one core each; 1: play here). The games,
            seatings, results order and journal are those of a serial run; each batch's seconds are its own
            wall time, so with several workers they add up to more than the run's.
        make_agents: with ``workers > 1``, a picklable factory that each worker process calls once with its
            index (0, 1, ...) to build its own copies of ``agents`` (``AgentSpecs``); ``agents`` then only
            name the players. Agents that draw random numbers draw from each worker's own generator, so
            their moves differ from a serial run's.
        replay: indices of agents whose play changed since ``journal`` was written (a fixed bug): the journal's
            games in which one of them sits are played again, dealt and seated as before, and replace their
            results in the journal (rewritten after each batch; its batches keep their wall seconds). The
            other games are kept: no agent of theirs changed.
        options: further game options (``num_players`` is set from the argument).

    Raises:
        ValueError: an agent returned an illegal action, ``workers > 1`` without ``make_agents``, or ``replay``
            without a journal.
    """
    game = get_game(game) if isinstance(game, str) else game
    schedule = list(schedule if schedule is not None else seat_schedule(len(agents), num_players))
    order = np.random.default_rng(seed).permutation(len(schedule))
    seatings = np.array([schedule[order[i % len(schedule)]] for i in range(n_games)], dtype=np.int64)
    if seatings.size and (seatings.shape[1] != num_players or seatings.max() >= len(agents)):
        raise ValueError(f"schedule rows must give one of {len(agents)} agents for each of {num_players} seats")
    results: list[GameResult] = journal.results(n_games, GameResult) if journal is not None else []
    if replay and journal is None:
        raise ValueError("replay needs the journal whose games it plays again")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers > 1 and make_agents is None:
        raise ValueError("workers > 1 needs make_agents, a picklable factory of the agents (AgentSpecs) that each "
                         "worker process builds its own copies with")
    if workers > 1 and not _is_registered(game):
        raise ValueError(f"workers > 1 needs a registered game (each worker process looks {game.name!r} up by its "
                         "name); a Game bound with Game.from_package plays with workers=1")
    changed = set(replay)
    again = np.array([r.index for r in results if changed.intersection(r.seating)], dtype=np.int64)
    replays = [again[k:k + batch] for k in range(0, len(again), batch)]  # played first, then the missing games
    fresh = [np.arange(start, min(start + batch, n_games)) for start in range(len(results), n_games, batch)]
    plan = [(indices, seatings[indices]) for indices in replays + fresh]
    settings = dict(seed=seed, num_players=num_players, options=options, save_games=save_games,
                    save_events=save_events)
    with tqdm(total=n_games + len(again), initial=len(results), desc="games", disable=not progress,
              leave=False) as bar:
        if workers > 1:
            batches = _play_in_workers(game.name, make_agents, workers, plan, settings, bar)
        else:
            batches = (_play_batch(game, agents, indices, rows, bar.update, **settings) for indices, rows in plan)
        for k, (indices, seconds, batch_results) in enumerate(batches):
            fields = [dataclasses.asdict(r) for r in batch_results]
            if k < len(replays):
                for result in batch_results:
                    results[result.index] = result
                journal.replace(fields)
                continue
            results += batch_results
            if journal is not None:
                journal.append(int(indices[0]), seconds, fields)
    return results


def _is_registered(game) -> bool:
    """Whether ``game`` is the registered game of its name (what a worker process gets from ``get_game``)."""
    try:
        return get_game(game.name) is game
    except ValueError:  # not a registered name
        return False


def _play_batch(game, agents: list, indices: np.ndarray, seatings: np.ndarray, on_finished, seed: int,
                num_players: int, options: dict, save_games: str | Path | None,
                save_events: bool) -> tuple[np.ndarray, float, list]:
    """Games ``indices`` of a match: ``(indices, wall seconds, results)``."""
    size = len(seatings)
    clock = time.perf_counter()
    seeds = game_seeds_at(seed, indices)
    states = game.init(seeds, num_players=num_players, **options)
    moves: list[list[tuple[int, int]]] = [[] for _ in range(size)]

    def remember(decisions: Decisions) -> None:
        for row, seat, action in zip(decisions.rows, decisions.seats, decisions.actions):
            moves[row].append((int(seat), int(action)))

    play_to_end(game, states, agents, seatings, on_finished=on_finished,
                on_decisions=remember if save_games is not None else None)
    batch_results = _results(game, states, seatings, indices)
    seconds = time.perf_counter() - clock
    if save_games is not None:
        _save_records(game, Path(save_games), seeds, indices, states, moves, seatings, agents,
                      dict(options, num_players=num_players), save_events)
    return indices, seconds, batch_results


# ---- worker processes ---------------------------------------------------------------------------
WORKER_SEED_STRIDE = 10_000  # worker w's agent i is seeded seed + i + w * stride (worker 0 as a serial run)


@dataclass(frozen=True)
class AgentSpecs:
    """A picklable factory of a match's agents for ``play_matches(..., workers=, make_agents=)``.

    Called with a worker's index ``w``, it returns ``agents.registry.make_agents(specs, game_name, num_players,
    seed + w * WORKER_SEED_STRIDE, deterministic)``: worker 0's agents are those of
    ``agents_for_command(specs, game_name, num_players, seed)``, the others draw other random numbers.
    """

    specs: tuple[str, ...]
    game_name: str
    num_players: int
    seed: int = 0
    deterministic: bool = True

    def __call__(self, worker: int = 0) -> list:
        """The agents of worker ``worker``."""
        return agents_of_specs(self.specs, self.game_name, self.num_players,
                               self.seed + worker * WORKER_SEED_STRIDE, self.deterministic)


_worker: dict = {}  # in a worker process: its game and agents (``_start_worker``)


def _start_worker(game_name: str, make_agents: Callable[[int], list], counter) -> None:
    """A worker process's start: one thread for numba and torch (a worker per core), then its agents."""
    os.environ["OMP_NUM_THREADS"] = "1"  # torch, when an agent imports it, sizes its pool from it
    import numba
    numba.set_num_threads(1)
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    _worker.update(game=get_game(game_name), agents=make_agents(index))


def _worker_batch(indices: np.ndarray, seatings: np.ndarray, settings: dict) -> tuple[np.ndarray, float, list]:
    """One batch played in a worker process (``_play_batch`` with the worker's game and agents)."""
    return _play_batch(_worker["game"], _worker["agents"], indices, seatings, None, **settings)


def _play_in_workers(game_name: str, make_agents, workers: int, plan: list, settings: dict, bar):
    """Yield ``(indices, seconds, results)`` of every planned batch in order, played by ``workers`` processes
    (each batch's games count on ``bar`` as soon as it is back; a failed batch cancels the rest)."""
    if not plan:
        return
    context = multiprocessing.get_context("spawn")  # no copy of this process's threads and numba state
    pool = ProcessPoolExecutor(min(workers, max(len(plan), 1)), mp_context=context, initializer=_start_worker,
                               initargs=(game_name, make_agents, context.Value("i", 0)))
    try:
        futures = {pool.submit(_worker_batch, indices, rows, settings): k for k, (indices, rows) in enumerate(plan)}
        done: dict[int, tuple] = {}
        following = 0
        for future in as_completed(futures):
            played = future.result()
            bar.update(len(played[2]))
            done[futures[future]] = played
            while following in done:
                yield done.pop(following)
                following += 1
    finally:
        pool.shutdown(cancel_futures=True)


def open_journal(path: str | Path, game_name: str, agents: list, num_players: int, seed: int,
                 schedule: list[tuple[int, ...]], **options) -> MatchJournal:
    """The ``MatchJournal`` at ``path`` for these match settings (created on the first batch; refused when the
    file holds another match's games)."""
    settings = dict(game=canonical_name(game_name), num_players=num_players, seed=seed,
                    agents=[agent_name(a) for a in agents], schedule=[list(s) for s in schedule],
                    options=dict(sorted(options.items())))
    return MatchJournal(path, settings)


def _save_records(game, folder: Path, seeds: np.ndarray, indices: np.ndarray, states: np.ndarray, moves: list,
                  seatings: np.ndarray, agents: list, options: dict, events: bool = False) -> None:
    """One game record per game of a batch (dealt from ``seeds``), ``folder/game_<index>.json``."""
    for b, index in enumerate(indices):
        players = [agent_name(agents[k]) for k in seatings[b]]
        make_record(game, int(seeds[b]), options, moves[b], players, states[b], events=events).save(
            folder / f"game_{index:05d}.json")


def _results(game, states: np.ndarray, seatings: np.ndarray, indices: np.ndarray) -> list[GameResult]:
    """``GameResult`` of each finished record of one batch."""
    n = seatings.shape[1]
    scores = game.scores(states)[:, :n]
    ranks = seat_ranks(game, states)
    winners = ranks == 1
    shares = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
    # left out: games without a result (the decision cap, or a game's own cap scored as a draw); a game's own
    # cap scored by its rules (Wild West Express: cap_scoring="vp", the VP leaders win) keeps its result
    truncated = game.truncated(states) & ~(game.returns(states) != 0).any(axis=1)
    return [GameResult(int(indices[b]), tuple(int(a) for a in seatings[b]), tuple(int(s) for s in scores[b]),
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


# ---- tournaments -----------------------------------------------------------------------------
def tournament(game_name: str, num_players: int, agents: list, n_games: int, seed: int = 0, batch: int = 256,
               out: str | Path | None = None, progress: bool = True,
               save_games: str | Path | None = None, save_events: bool = False, workers: int = 1,
               make_agents: Callable[[int], list] | None = None) -> tuple[str, list[GameResult]]:
    """Play a round robin over every seating (``seat_schedule``); write ``<out>.md`` and ``<out>.png``
    (and each game's record into the folder ``save_games``, with its events if ``save_events``; on
    ``workers`` processes that build their agents with ``make_agents``: ``play_matches``).

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
    results = play_matches(game_name, agents, num_players, n_games, seed, batch, schedule, progress, save_games,
                           save_events, workers=workers, make_agents=make_agents)
    markdown = report(game_name, num_players, results, names, seed, len(schedule))
    if out is not None:
        write_report(out, markdown, results, names, num_players,
                     f"{game_name}, {num_players} players, {n_games} games")
    return markdown, results


def evaluate_against(game_name: str, num_players: int, agent, opponents: list, n_games: int,
                     seed: int = 0, batch: int = 256, progress: bool = False,
                     save_games: str | Path | None = None, save_events: bool = False, workers: int = 1,
                     make_agents: Callable[[int], list] | None = None) -> tuple[str, list[GameResult]]:
    """``agent`` in one seat (every seat in turn) against ``opponents`` in the others (``focal_schedule``);
    each game's record goes into the folder ``save_games`` when given, with its events if ``save_events``
    (``play_matches``, on ``workers`` processes that build ``[agent, *opponents]`` with ``make_agents``).

    Opponents sharing a name (copies of one spec) form one row. Returns the
    Markdown notes and results table, and the per-game results (agent index 0 is ``agent``).
    """
    game_name = canonical_name(game_name)
    agents = [agent, *opponents]
    names = [a.name for a in agents]
    if agent.name in names[1:]:
        names[0] = f"{agent.name} (evaluated)"
    schedule = focal_schedule(len(opponents), num_players)
    results = play_matches(game_name, agents, num_players, n_games, seed, batch, schedule, progress, save_games,
                           save_events, workers=workers, make_agents=make_agents)
    n_truncated = sum(r.truncated for r in results)
    notes = (f"{len(results)} games, {num_players} players, seed {seed}; the evaluated agent plays one seat, "
             f"each seat equally often; {n_truncated} truncated games left out; equal agents win "
             f"{1 / num_players:.1%}.")
    return f"{notes}\n\n{markdown_table(summarize(results, names))}\n", results


def opponent_copies(spec: str, game_name: str, num_players: int) -> list:
    """``num_players - 1`` copies of the agent ``spec`` (seeds 1000, 1001, ...): the others of ``evaluate_against``."""
    return agents_of_specs([spec] * (num_players - 1), game_name, num_players, seed=1000)


def evaluation_report(game_name: str, num_players: int, agent, label: str, specs: list[str], n_games: int,
                      seed: int, progress: bool = False) -> str:
    """The trainers' final evaluation: ``agent`` (called ``label``) against ``opponent_copies`` of each of
    ``specs`` in turn (``evaluate_against``), one Markdown section per spec."""
    sections = []
    for spec in specs:
        table, _ = evaluate_against(game_name, num_players, agent, opponent_copies(spec, game_name, num_players),
                                    n_games, seed=seed, progress=progress)
        sections.append(f"### {label} vs {num_players - 1} × {spec}\n\n{table}\n")
    return "\n".join(sections)
