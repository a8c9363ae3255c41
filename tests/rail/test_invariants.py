"""The invariant kernel's ownership and frontier checks against a literal reading of the state's rules.

``rail.invariants`` checks the rows of owned steps one by one and decides the unowned rows (most of the map) with
one count of the nonzero timestamps, and builds every seat's frontier in one pass over the hexes. Here the same
rules are written out plainly (every step, every seat: §0.2 ownership and timestamps, §6.6 / §9.1 the BP of the
build events, and the frontier of ``rail.state``: the steps of the seat's home-network hexes it does not own), and
both must give the same verdict on many single-cell corruptions of played positions.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.rail._helpers import MP
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.rail.data import MAX_PLAYERS
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.invariants import INVARIANT_MESSAGES
from wildwest_envs.rail.maps import FE_BUILD, HOME, HX_COUNTRY, HX_STEP, ST_COST

OWNERSHIP, UNPAID, NETWORK, RACE = 4, 5, 6, 10  # codes of INVARIANT_MESSAGES


def _played(games: int, steps: int, seed: int) -> np.ndarray:
    """Random positions with track on the map (every player count from 2 to 4)."""
    batches = []
    for n in (2, 3, 4):
        states = GAME.init_batch(games, seed=seed + n, num_players=n)
        sample = LegalSampler(games, seed + n)
        masks = np.zeros((games, GAME.n_actions), dtype=np.int8)
        for _ in range(steps):
            GAME.legal_mask(states, masks)
            GAME.step(states, sample(masks), check=False)
        batches.append(states[~states["done"]])
    return np.concatenate(batches)


def _literal_track_code(state) -> int:
    """§0.2, §6.6, §9.1 read plainly: every cell of ``own_t`` agrees with the owner bits (a timestamp exactly where
    the seat owns the step, none of an absent seat), timestamps are not in the future, counts agree, and the BP of
    the build events (distinct timestamps of a step) is what was spent."""
    n, t_now = int(state["num_players"]), int(state["t"])
    seats = np.arange(MAX_PLAYERS)
    stamps = state["own_t"].astype(np.int64)  # [step, seat]
    owns = (state["owners"].astype(np.int64)[:, None] >> seats) & 1
    wrong = (owns != (stamps > 0)) | (stamps < 0) | (stamps > t_now) | ((seats >= n) & ((stamps != 0) | (owns == 1)))
    if wrong.any() or ((stamps > 0).sum(axis=0) != state["n_owned"]).any():
        return OWNERSHIP
    events = [len(set(row[row > 0].tolist())) for row in stamps]
    spent = int(np.dot(events, MP.steps[:, ST_COST]))
    owned_ferries = state["ferry_owner"][:MP.ferries.shape[0]] >= 0
    spent += int(MP.ferries[owned_ferries, FE_BUILD].sum()) if len(MP.ferries) else 0
    if sum(events) + int(owned_ferries.sum()) != t_now:
        return OWNERSHIP
    if spent != state["bp_spent"]:
        return UNPAID
    return 0


def _literal_frontier_ok(state) -> bool:
    """Each seat's frontier bit of step e is set exactly when e leaves a home hex of the seat's network and the
    seat does not own e (absent seats: none)."""
    n = int(state["num_players"])
    for s in range(MAX_PLAYERS):
        expected = set()
        if s < n:
            for h in range(MP.hexes.shape[0]):
                if (state["net"][h] >> s) & 1 and MP.hexes[h, HX_COUNTRY] == HOME:
                    expected |= {int(e) for e in MP.hexes[h, HX_STEP:HX_STEP + 6]
                                 if e >= 0 and not (state["owners"][e] >> s) & 1}
        words = state["frontier"][s]
        actual = {64 * w + b for w in range(len(words)) for b in range(64) if (int(words[w]) >> b) & 1}
        if actual != expected:
            return False
    return True


def _kernel_code(state) -> int:
    violations = GAME.invariant_violations(np.array([state]))
    return INVARIANT_MESSAGES.index(violations[0][1]) if violations else 0


@pytest.fixture(scope="module")
def positions():
    return _played(games=6, steps=120, seed=31)


def test_played_positions_have_track_and_keep_the_invariants(positions):
    """The positions below are corrupted from: each holds track, and as played every check passes."""
    assert (positions["n_owned"].sum(axis=1) > 0).all()
    for state in positions:
        assert _kernel_code(state) == _literal_track_code(state) == 0 and _literal_frontier_ok(state)


def test_timestamp_corruptions_get_the_literal_verdict(positions):
    """A timestamp set, cleared or moved in an owned or an unowned row, of a present or an absent seat: the kernel
    flags it exactly when the plain reading does, with the same code."""
    rng = np.random.default_rng(5)
    flagged = 0
    for state in positions:
        owned = np.flatnonzero(state["owners"])
        for _ in range(40):
            bad = state.copy()
            e = int(rng.choice(owned)) if rng.random() < 0.5 else int(rng.integers(len(MP.steps)))
            s = int(rng.integers(MAX_PLAYERS))
            bad["own_t"][e, s] = rng.choice([0, 1, int(bad["t"]), int(bad["t"]) + 1, -1])
            expected = _literal_track_code(bad)
            assert _kernel_code(bad) == expected, (e, s, int(bad["own_t"][e, s]))
            flagged += expected != 0
    assert flagged > 100  # most of the corruptions break something


def test_owner_bit_and_frontier_corruptions_get_the_literal_verdict(positions):
    """An owner bit or a frontier bit flipped: an owner bit breaks ownership (§0.2), a frontier bit the
    networks' check, as the plain reading says."""
    rng = np.random.default_rng(6)
    for state in positions:
        for _ in range(20):
            bad = state.copy()
            e, s = int(rng.integers(len(MP.steps))), int(rng.integers(MAX_PLAYERS))
            bad["owners"][e] ^= np.uint8(1 << s)
            assert _kernel_code(bad) == _literal_track_code(bad) == OWNERSHIP
            bad = state.copy()
            bad["frontier"][s, e >> 6] ^= np.uint64(1) << np.uint64(e & 63)
            assert not _literal_frontier_ok(bad)
            assert _kernel_code(bad) == NETWORK


def test_a_candidate_whose_kept_pips_disagree_with_its_route_is_refused():
    """The pips a candidate keeps for its race (``cand_need``) must add up to its route pips (§7.5): a saved
    position where one step's pips were changed would run another race, so the invariants flag it and loading
    refuses it; a negative pip count, or more steps than the map has hexes, is out of range."""
    state = _with_candidates()
    assert _kernel_code(state) == 0
    p, k = (int(i) for i in np.argwhere(state["cand_valid"])[0])
    bad = state.copy()
    bad["cand_need"][p, k, 0] += 1
    assert _kernel_code(bad) == RACE
    with pytest.raises(ValueError, match="kept step pips"):
        GAME.validate(np.array([bad]))
    bad["cand_need"][p, k, 0] = -1
    with pytest.raises(ValueError, match="cand_need"):
        GAME.validate(np.array([bad]))
    bad = state.copy()
    bad["cand_steps"][p, k] = MP.hexes.shape[0]  # longer than any simple path on the map
    with pytest.raises(ValueError, match="cand_steps"):
        GAME.validate(np.array([bad]))


def _with_candidates() -> np.void:
    """A random position whose record holds the candidates of a race (entry decisions or after them)."""
    states = GAME.init_batch(16, seed=3, num_players=3)
    sample = LegalSampler(16, 3)
    masks = GAME.legal_mask(states)
    while not (states["cand_valid"].any(axis=(1, 2)) & ~states["done"]).any():
        GAME.step(states, sample(masks), check=False, masks=masks)
    return states[np.flatnonzero(states["cand_valid"].any(axis=(1, 2)) & ~states["done"])[0]]
