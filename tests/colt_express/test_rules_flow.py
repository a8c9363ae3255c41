"""Rule tests of the decision flow (spec §4.1, §11.3-§11.5), random play and plain-Python equivalence."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests._play import assert_only_live_games_can_act
from tests.colt_express._helpers import stealin
from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import (A_CAR, A_DRAW, DEC_MOVE_DEST, DEC_NONE, DEC_PLAN, DOC, GHOST,
                                             IN, MAX_DECISIONS, MOVE, N_ACTIONS, ROOF, TUCO, CHEYENNE)
from wildwest_envs.colt_express.options import kernel_options, parse_options
from wildwest_envs.colt_express.positions import legal_actions, place, play, position
from wildwest_envs.colt_express.state import NOBODY, STATE_DTYPE
from wildwest_envs.core.kernels import serial
from wildwest_envs.registry import get_game

_INIT = get_game("colt_express_v0").init_kernel  # the serial deal the library runs (core.kernels.serial)

N_RANDOM_GAMES = 2000


def _forced_move_position(auto_forced: bool, pile):
    """Stealin' of ``pile``, the marshal in car 3, the train's loot out of the way; Ghost inside the locomotive
    (his Move can only go to car 1, §5.1), Doc and Tuco on roof 2."""
    return stealin(3, pile, {0: (0, IN), 1: (2, ROOF), 2: (2, ROOF)}, seed=4, characters=[GHOST, DOC, TUCO],
                   auto_forced=auto_forced, marshal=3)


def test_s11_4_forced_stealin_decision_is_applied_automatically():
    """§11.4: with auto-resolution a single-option Stealin' decision is not asked."""
    states = _forced_move_position(True, [(0, MOVE), (1, MOVE)])
    s = states[0]
    assert s["bandit_car"][0] == 1
    assert s["decision"] == DEC_MOVE_DEST and s["current"] == 1 and s["resolving"] == 1


def test_s11_4_forced_stealin_decision_is_asked_without_auto_resolution():
    """§11.4: without auto-resolution the single legal id is offered; the game is the same."""
    auto = _forced_move_position(True, [(0, MOVE)])
    asked = _forced_move_position(False, [(0, MOVE)])
    assert asked[0]["decision"] == DEC_MOVE_DEST and legal_actions(asked) == [A_CAR + 1]
    play(asked, A_CAR + 1)
    assert asked["n_decisions"][0] == auto["n_decisions"][0] + 1
    asked[0]["n_decisions"] = auto[0]["n_decisions"]
    asked[0]["auto_resolve"] = True
    assert asked.tobytes() == auto.tobytes()


def test_s11_4_plan_is_always_asked_even_with_one_legal_play():
    """§11.4, G33: PLAN (like BULLETS and KEEP) is asked even when only DRAW is legal."""
    states = position(3, seed=1, characters=[GHOST, DOC, TUCO], auto_forced=True)
    s = states[0]
    seat = int(s["current"])
    place(states, hands={seat: []})  # the seat's cards are all in its deck
    assert s["decision"] == DEC_PLAN and legal_actions(states) == [A_DRAW]


def test_s4_1_finished_game_has_no_legal_action_and_ignores_steps():
    """§4.1, §9: after the fifth round's event the game is over: empty mask, steps change nothing."""
    states = position(3, seed=5, characters=[GHOST, DOC, CHEYENNE], decision="stealin", round=4, round_card=16)
    s = states[0]
    assert s["done"] and s["decision"] == DEC_NONE and s["current"] == NOBODY
    assert legal_actions(states) == []
    before = states.tobytes()
    rules.step(states, np.array([0], dtype=np.int64))
    assert states.tobytes() == before


def test_s3_init_sets_every_field_of_a_reused_record():
    """§3: init gives the same record whatever bytes the array held before (auto-reset reuses records)."""
    seeds = np.arange(4, dtype=np.uint64)
    clean = np.zeros(4, dtype=STATE_DTYPE)
    dirty = np.frombuffer(np.random.default_rng(0).bytes(4 * STATE_DTYPE.itemsize), dtype=STATE_DTYPE).copy()
    for states in (clean, dirty):
        _INIT(states, seeds, kernel_options(parse_options(num_players=4, expert=True)))
    assert clean.tobytes() == dirty.tobytes()


def _random_games(n: int, expert: bool, n_games: int, seed: int, auto_resolve: bool = True) -> np.ndarray:
    states = np.zeros(n_games, dtype=STATE_DTYPE)
    _INIT(states, np.arange(n_games, dtype=np.uint64) + np.uint64(seed << 32),
          kernel_options(parse_options(num_players=n, expert=expert, auto_forced=auto_resolve)))
    masks = np.zeros((n_games, N_ACTIONS), dtype=np.int8)
    rng = np.random.default_rng(seed)
    for _ in range(MAX_DECISIONS):
        live = ~states["done"]
        if not live.any():
            break
        serial(rules.legal_mask)(states, masks)
        assert_only_live_games_can_act(masks, live)
        current = states["current"][live]
        assert ((current >= 0) & (current < n)).all() and (states["decision"][live] != DEC_NONE).all()
        actions = np.argmax(rng.random((n_games, N_ACTIONS)) * masks, axis=1)
        rules.step(states, actions)
    assert states["done"].all()
    assert (states["n_decisions"] < MAX_DECISIONS).all()
    return states


@pytest.mark.slow
@pytest.mark.parametrize("n, expert", [(2, True), (3, False), (3, True), (4, False), (4, True), (5, False),
                                       (5, True), (6, False), (6, True)])
def test_s11_random_games_always_have_a_legal_action_and_end(n, expert):
    """§4.3 (a legal play always exists), §2.10, §11.7: 2000 random games per setting end within MAX_DECISIONS."""
    states = _random_games(n, expert, N_RANDOM_GAMES, seed=100 * n + expert)
    scores = np.zeros((N_RANDOM_GAMES, 6), dtype=np.int32)
    rules.scores(states, scores)
    assert (scores[:, :n] >= 0).all() and (scores[:, n:] == 0).all()
    assert (states["round"] == 4).all()


@pytest.mark.parametrize("n", [2, 4, 6])
def test_s11_4_random_games_without_auto_resolution_end(n):
    """§11.4: with every forced decision asked, random games still end with a legal action at every decision."""
    _random_games(n, n == 2, 300, seed=7 + n, auto_resolve=False)


_REPLAY = textwrap.dedent("""
    import sys, numpy as np
    from wildwest_envs.colt_express import rules
    from wildwest_envs.colt_express.state import STATE_DTYPE
    from wildwest_envs.core.kernels import serial
    from wildwest_envs.colt_express.data import N_ACTIONS
    from wildwest_envs.colt_express.options import kernel_options, parse_options
    out = []
    for n, expert in ((2, True), (4, False), (5, True)):
        states = np.zeros(2, dtype=STATE_DTYPE)
        serial(rules.init)(states, np.array([11, 12], dtype=np.uint64),
                           kernel_options(parse_options(num_players=n, expert=expert)))
        mask = np.zeros((2, N_ACTIONS), dtype=np.int8)
        rng = np.random.default_rng(n)
        while not states["done"].all():
            serial(rules.legal_mask)(states, mask)
            rules.step(states, np.argmax(rng.random((2, N_ACTIONS)) * mask, axis=1))
        score = np.zeros((2, 6), dtype=np.int32)
        rules.scores(states, score)
        out.append(states.tobytes().hex() + score.tobytes().hex())
    sys.stdout.write("|".join(out))
""")


def test_kernels_run_as_plain_python_with_identical_results():
    """DESIGN.md: NUMBA_DISABLE_JIT=1 runs the same kernels as plain Python, with the same games."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    results = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable, PYTHONPATH=root)
        done = subprocess.run([sys.executable, "-c", _REPLAY], env=env, capture_output=True, text=True,
                              timeout=600, cwd=root)
        assert done.returncode == 0, done.stderr[-2000:]
        results.append(done.stdout)
    assert results[0] == results[1]
