"""Determinism for every registered game (DESIGN.md "Randomness", STYLE.md §7, §12).

The same seed gives the same trajectory whatever the batch size (1 and 8192),
the position of the game in the batch, the number of numba threads, the build
(serial for small batches, parallel for big ones, ``core.kernels``), the
interface (batched or PettingZoo AEC) and calls to Python's ``random``, numpy's
global ``np.random`` and numba's own ``np.random`` between steps; a clone
(``copy``, ``pickle``, JSON) replays identically and independently; ``reseed``
changes the chance generator and nothing else, so no seat sees a difference,
yet the futures differ; different seeds give different deals.

Actions come from one generator per game (``tests._play``), so game ``k``'s
actions do not depend on where it is played. The single-state cases live in
``test_core_api.py``; these extend them to whole trajectories, every player
count and random mid-game positions.

Trajectories are compared record by record (every byte of the record after
every decision) for the first ``MAX_STEPS`` decisions of each game, or to its
end if it ends sooner: long games (Wild West Express: ~2,000 decisions) keep
the 8192-game batches affordable, and a dependence on the batch, position or
thread would show within a few decisions, since every chance draw of a game
comes from its own record.
"""

from __future__ import annotations

import copy
import pickle
import random

import numba
import numpy as np
import pytest

from tests._play import ACTION_SALT, action_rngs, mid_game_states, sample_legal, without_rng
from tests.conftest import GAME_NAMES, SERIAL_BELOW_DEFAULT
from wildwest_envs import make
from wildwest_envs.core import kernels
from wildwest_envs.core.rng import game_seed, game_seeds, game_seeds_at
from wildwest_envs.registry import get_game

MAX_STEPS = 400  # decisions compared per game (each game to its end if shorter)
BIG_BATCH = 8192
RUN_SEED = 2024
TRACKED = (0, 1, 4097, BIG_BATCH - 1)  # games of the big batch whose trajectories are compared


def play(game, states: np.ndarray, rngs: np.ndarray, rows=None, between=None, max_steps: int = MAX_STEPS):
    """Play uniformly random legal actions; the record bytes of ``rows`` after every decision.

    Each row's trace stops when its game is finished or after ``max_steps`` decisions.
    ``between()`` is called between steps (to disturb global generators).
    """
    rows = range(len(states)) if rows is None else rows
    traces = {r: [states[r].tobytes()] for r in rows}
    masks = np.zeros((len(states), game.n_actions), dtype=np.int8)
    actions = np.zeros(len(states), dtype=np.int64)
    for _ in range(max_steps):
        finished = game.finished(states)
        live = [r for r in rows if not finished[r]]
        if not live:
            break
        game.legal_mask(states, masks)
        sample_legal(masks, rngs, actions)
        if between is not None:
            between()
        game.step(states, actions, check=False)
        for r in live:
            traces[r].append(states[r].tobytes())
    return traces


@numba.njit(cache=True)
def _disturb_numba_random(seed: int) -> float:
    """Reseed and draw from numba's own generator (separate from numpy's)."""
    np.random.seed(seed)
    return np.random.random()


def _disturb_everything(counter=[0]) -> None:  # noqa: B006 - a call counter
    counter[0] += 1
    random.seed(counter[0])
    random.random()
    np.random.seed(counter[0] % 2**32)
    np.random.random(7)
    np.random.default_rng(counter[0]).integers(10)
    _disturb_numba_random(counter[0])


# ---- the same seed, whatever the batch ------------------------------------------------------
@pytest.fixture(scope="module", params=GAME_NAMES)
def big_batch_traces(request):
    """Traces of the ``TRACKED`` games of an 8192-game batch, with 1 and with all numba threads, on the
    parallel builds (the rest of the suite runs the serial ones: ``tests/conftest.py``)."""
    game = get_game(request.param)
    results = {}
    threads = numba.get_num_threads()
    serial_below = kernels.SERIAL_BELOW
    kernels.SERIAL_BELOW = SERIAL_BELOW_DEFAULT  # a module-scoped fixture: monkeypatch is per test
    try:
        for n_threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(n_threads)
            states = game.init_batch(BIG_BATCH, RUN_SEED)
            results[n_threads] = play(game, states, action_rngs(range(BIG_BATCH)), rows=TRACKED)
    finally:
        numba.set_num_threads(threads)
        kernels.SERIAL_BELOW = serial_below
    return request.param, results


def test_game_seeds_are_the_game_seed_of_each_game_whatever_the_seed_and_offset():
    """``game_seeds`` (on a uint64 array at once) gives ``game_seed(seed, offset + i)`` bit for bit, for run
    seeds that wrap (negative, 2**64 - 1, larger) and offsets near 2**64, without an overflow warning."""
    import warnings

    rng = np.random.default_rng(0)
    seeds = [0, 1, -1, 2**63, 2**64 - 1, 2**70 + 3, np.int64(-5), np.uint64(7), *rng.integers(0, 2**63, 20).tolist()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seed in seeds:
            for offset in (0, 1, 12_345, 2**64 - 3):
                n = int(rng.integers(0, 9))
                expected = np.array([game_seed(seed, offset + i) & (2**64 - 1) for i in range(n)], dtype=np.uint64)
                got = game_seeds(seed, n, offset)
                assert got.dtype == np.uint64 and got.tobytes() == expected.tobytes(), (seed, offset, n)
            picked = rng.permutation(50)[:7]  # any game numbers, in any order (a replay's)
            expected = np.array([game_seed(seed, int(i)) & (2**64 - 1) for i in picked], dtype=np.uint64)
            assert game_seeds_at(seed, picked).tobytes() == expected.tobytes(), seed
    for bad in (1.5, True, "3"):
        with pytest.raises(TypeError, match="seed must be an integer"):
            game_seeds(bad, 2)


def test_trajectory_does_not_depend_on_the_number_of_threads(big_batch_traces):
    """An 8192-game batch plays the same games on 1 thread and on every thread."""
    _, results = big_batch_traces
    first, *others = results.values()
    for other in others:
        assert other == first


def test_trajectory_is_the_same_alone_as_in_a_batch_of_8192(big_batch_traces):
    """Game k of a run played alone (B = 1, serial build) matches game k of the 8192-game batch."""
    name, results = big_batch_traces
    game = get_game(name)
    big = next(iter(results.values()))
    for k in TRACKED:
        alone = game.init(game_seeds(RUN_SEED, 1, offset=k))
        assert play(game, alone, action_rngs([k]))[0] == big[k], f"game {k}"


def test_trajectory_does_not_depend_on_the_position_in_the_batch(big_batch_traces):
    """The tracked games, reversed and interleaved with games of another run (B = 100), play the same."""
    name, results = big_batch_traces
    game = get_game(name)
    big = next(iter(results.values()))
    n = 100
    others = game.init_batch(n, RUN_SEED + 1)
    positions = {k: n - 1 - 7 * i for i, k in enumerate(TRACKED)}
    rngs = action_rngs(range(10_000, 10_000 + n))
    for k, p in positions.items():
        others[p] = game.init(game_seeds(RUN_SEED, 1, offset=k))[0]
        rngs[p] = action_rngs([k])[0]
    traces = play(game, others, rngs, rows=list(positions.values()))
    for k, p in positions.items():
        assert traces[p] == big[k], f"game {k} at position {p}"


def test_global_generators_between_steps_change_nothing(big_batch_traces):
    """Reseeding and drawing from ``random``, ``np.random`` and numba's ``np.random`` between steps changes nothing."""
    name, results = big_batch_traces
    game = get_game(name)
    big = next(iter(results.values()))
    k = TRACKED[1]
    alone = game.init(game_seeds(RUN_SEED, 1, offset=k))
    assert play(game, alone, action_rngs([k]), between=_disturb_everything)[0] == big[k]


def test_pettingzoo_env_plays_the_same_game_as_the_batched_engine(big_batch_traces):
    """``env.reset(seed=s)`` is game 0 of run s: the AEC env and the 8192-game batch play the same records."""
    name, results = big_batch_traces
    big = next(iter(results.values()))
    env = make(name)
    env.reset(seed=RUN_SEED)
    raw = env.unwrapped
    rngs = action_rngs([0])
    trace = [raw.states[0].tobytes()]
    out = np.zeros(1, dtype=np.int64)
    for agent in env.agent_iter(max_iter=MAX_STEPS):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        _disturb_everything()
        sample_legal(obs["action_mask"][None], rngs, out)
        env.step(int(out[0]))
        trace.append(raw.states[0].tobytes())
    assert trace == big[0][:len(trace)] and len(trace) == len(big[0])


# ---- clones -----------------------------------------------------------------------------------
CLONES = {
    "Game.clone": lambda game, s: game.clone(s),
    "copy.deepcopy": lambda game, s: copy.deepcopy(s),
    "pickle": lambda game, s: pickle.loads(pickle.dumps(s)),
    "JSON": lambda game, s: np.concatenate([game.from_json(game.to_json(r)) for r in s]),
}


@pytest.mark.parametrize("how", CLONES)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_clones_replay_identically_and_independently(name, how):
    """A clone taken mid-game replays the original's future exactly; stepping a clone never changes the original."""
    game = get_game(name)
    states = game.init_batch(12, RUN_SEED + 3)
    rngs = action_rngs(range(12))
    play(game, states, rngs, max_steps=25)
    clone, other = CLONES[how](game, states), CLONES[how](game, states)
    before = states.tobytes()
    assert clone.tobytes() == before and other.tobytes() == before
    play(game, other, action_rngs(range(100, 112)), max_steps=30)  # other actions: this clone diverges
    assert other.tobytes() != before
    assert states.tobytes() == before, "stepping a clone changed the original"
    assert play(game, clone, rngs.copy()) == play(game, states, rngs.copy())


# ---- reseed ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_reseed_changes_the_generator_and_nothing_else(name):
    """``reseed`` rewrites only the chance fields: every other byte, every seat's observation, the mask
    and the action names are unchanged; the scripted-chance queue is dropped."""
    game = get_game(name)
    states = mid_game_states(game, 4, 40)
    states["n_forced"] = 1  # a scripted outcome pending: reseed must drop it
    states["forced_pos"] = 0
    reseeded = game.clone(states)
    game.reseed(reseeded, game_seeds(99, len(states)))
    assert (reseeded["rng"] != states["rng"]).all()
    assert (reseeded["n_forced"] == 0).all() and (reseeded["forced_pos"] == 0).all()
    masks = game.legal_mask(states)
    np.testing.assert_array_equal(game.legal_mask(reseeded), masks)
    for b in range(len(states)):
        assert without_rng(reseeded[b]) == without_rng(states[b])
        for seat in range(int(states["num_players"][b])):
            np.testing.assert_array_equal(game.observe(reseeded[b:b + 1], seat), game.observe(states[b:b + 1], seat))
        for action in np.flatnonzero(masks[b])[:5]:
            assert game.action_to_string(reseeded[b], int(action)) == game.action_to_string(states[b], int(action))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_reseed_changes_future_chance_reproducibly(name):
    """With the same actions, reseeded games diverge from the originals; one reseed seed gives one future."""
    game = get_game(name)
    states = mid_game_states(game, 4, 41)
    rows = range(len(states))
    original = play(game, game.clone(states), action_rngs(rows))
    a, b = game.clone(states), game.clone(states)
    game.reseed(a, game_seeds(7, len(states)))
    game.reseed(b, game_seeds(7, len(states)))
    future_a = play(game, a, action_rngs(rows))
    assert play(game, b, action_rngs(rows)) == future_a
    differ = [any(without_rng(np.frombuffer(x, game.state_dtype)[0])
                  != without_rng(np.frombuffer(y, game.state_dtype)[0]) for x, y in zip(original[r], future_a[r]))
              or len(original[r]) != len(future_a[r]) for r in rows]
    assert np.mean(differ) > 0.5, f"only {sum(differ)} of {len(states)} reseeded games diverged"


# ---- different seeds -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_different_seeds_give_different_deals(name):
    """64 seeds give 64 different games (the records without the generator, over the first ``MAX_STEPS``
    decisions played with identical action choices), and the deal itself depends on the seed."""
    game = get_game(name)
    for players in (game.min_players, game.max_players):
        states = game.init(game_seeds(5, 64), num_players=players)
        deals = {without_rng(s) for s in states}
        same_actions = np.full(64, game_seed(ACTION_SALT, 0), dtype=np.uint64)
        traces = play(game, states, same_actions)
        games = {tuple(without_rng(np.frombuffer(x, game.state_dtype)[0]) for x in traces[r]) for r in traces}
        assert len(games) == 64, f"{players} players: {64 - len(games)} seeds repeat another seed's game"
        assert len(deals) > 1, f"{players} players: the deal does not depend on the seed"
