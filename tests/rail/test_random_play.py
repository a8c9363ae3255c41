"""Seeded random games with the invariants checked after every step (spec §6-§7, §12; STYLE.md §12).

* 200 uniformly random games over every player count, with and without the expert rules, each of which must
  reach the operation phase (slow; the 3,000 games of ``tests/test_random_play_invariants.py`` check the same
  invariants over the same player counts and rule sets, and ``benchmarks/soak.py`` a million games);
* games with one heuristic seat among random ones, so that races are entered, fees settled and prizes paid;
* the fast legal-step mask (frontier bit sets) against the literal §6.5 scan on the states of those games.

Invariants (``wildwest_envs.rail.invariants``): money is conserved between players and bank except prizes and
bonuses, every track step is owned consistently and paid for, networks and frontiers agree with the track, the
budgets stay within their limits; and every game ends by the rules (never truncated).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests._play import assert_only_live_games_can_act
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.heuristic_rail import RailHeuristic
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.rail import building
from wildwest_envs.rail.data import CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD, DEFAULT_MAP
from wildwest_envs.rail.game import GAME

MP = DEFAULT_MAP.tables
N_GAMES = 200  # per test run: 20 per player count and rule set


def _play_random(n: int, expert: bool, games: int, seed: int) -> np.ndarray:
    states = GAME.init_batch(games, seed=seed, num_players=n, expert=expert)
    sample = LegalSampler(games, seed)
    masks = np.zeros((games, GAME.n_actions), dtype=np.int8)
    for _ in range(states["max_decisions"][0] + 1):
        live = ~states["done"]
        if not live.any():
            break
        GAME.legal_mask(states, masks)
        assert_only_live_games_can_act(masks, live)
        GAME.step(states, sample(masks), check=False)
        violations = GAME.invariant_violations(states)
        assert not violations, f"{n} players, expert={expert}: {violations[:3]}"
    assert states["done"].all() and not GAME.truncated(states).any()
    return states


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("expert", [False, True])
def test_random_games_of_every_count_and_rule_set_keep_every_invariant(n, expert):
    """200 random games in all (20 per player count and rule set): invariants after every step, and every game
    reaches the operation phase."""
    states = _play_random(n, expert, N_GAMES // 10, seed=n + 10 * expert)
    assert (states["race_k"] >= 1).all()  # every game reached the operation phase


def test_random_games_quick():
    """A few random games of every player count (the quick version of the slow test)."""
    for n in range(2, 7):
        _play_random(n, n % 2 == 0, 8, seed=100 + n)


def _play_mixed(n: int, games: int, seed: int, check_masks: bool, **options) -> np.ndarray:
    """One heuristic seat (rotating) among random seats; invariants after every step."""
    states = GAME.init_batch(games, seed=seed, num_players=n, **options)
    heuristic_seat = np.arange(games) % n
    agents = [RailHeuristic(seed), RandomAgent(seed + 1)]
    compared = 0
    while not states["done"].all():
        live = np.flatnonzero(~states["done"])
        seats = states["current"][live].astype(np.int64)
        obs = GAME.observe(states[live], seats)
        masks = GAME.legal_mask(states[live])
        actions = np.empty(len(live), dtype=np.int64)
        mine = seats == heuristic_seat[live]
        for flag, agent in ((True, agents[0]), (False, agents[1])):
            rows = np.flatnonzero(mine == flag)
            if len(rows):
                actions[rows] = agent.act_batch(obs[rows], masks[rows])
        if check_masks:
            compared += _compare_masks(states[live])
        sub = states[live]
        GAME.step(sub, actions)
        states[live] = sub
        violations = GAME.invariant_violations(states)
        assert not violations, violations[:3]
    assert not GAME.truncated(states).any()
    if check_masks:
        assert compared > 100
    return states


def _compare_masks(states: np.ndarray) -> int:
    """The fast mask of every build decision equals the literal scan of §6.5, and counting (stop at the first
    legal step) agrees with it."""
    compared = 0
    for b in range(len(states)):
        st = states[b]
        if st["context"] not in (CTX_BUILD, CTX_COOP_BUILD, CTX_EXT_BUILD):
            continue
        fast = np.zeros(MP.steps.shape[0], dtype=np.int8)
        literal = np.zeros(MP.steps.shape[0], dtype=np.int8)
        building.mark_steps(st, MP, fast, np.bool_(False))
        building.mark_steps_literal(st, MP, literal, np.bool_(False))
        assert (fast == literal).all(), f"fast and literal masks differ in context {int(st['context'])}"
        counted = building.mark_steps(st, MP, np.zeros(0, dtype=np.int8), np.bool_(True))  # the forced-action check
        assert counted == min(1, int(literal.sum())), f"counting disagrees in context {int(st['context'])}"
        compared += 1
    return compared


@pytest.mark.parametrize("n", [2, 3, 5])
def test_games_with_races_keep_every_invariant(n):
    """Games with a heuristic seat: races are entered and run; the invariants hold after every step."""
    states = _play_mixed(n, 24, seed=n, check_masks=True)
    assert states["total_prizes"].sum() > 0  # prizes were paid
    assert (states["race_income"].sum(axis=1) > 0).mean() > 0.5


def test_games_with_races_under_the_expert_rules():
    """The same with co-building, international lines and races and the flat fee, and dice-funded windows."""
    _play_mixed(4, 16, seed=9, check_masks=True, expert=True)
    _play_mixed(3, 16, seed=11, check_masks=True, extension_mode="dice_or_account", extension_10pct=True,
                end_mode="races", races_total=12)
