"""``hidden.resample_hidden``: determinizations consistent with one seat's information (spec §10, §11.6).

Chi-square tests compute the statistic by hand (no scipy) and compare it with
the critical value at significance 0.001 for their degrees of freedom; the
seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from tests.colt_express._random_states import CONFIG_IDS, CONFIGS, random_states
from wildwest_envs.colt_express import hidden, invariants, observation
from wildwest_envs.colt_express.data import BULLET_CARD, DEC_MOVE_DEST, DEC_PLAN, MOVE, PURSE_VALUES
from wildwest_envs.colt_express.observation import OBS
from wildwest_envs.colt_express.positions import place, position
from wildwest_envs.colt_express.state import NOBODY
from wildwest_envs.core.kernels import serial
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game

CHI2_CRITICAL_0001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515}  # upper 0.1% points


def _observe(states: np.ndarray, seats: np.ndarray) -> np.ndarray:
    out = np.zeros((len(states), OBS.size), dtype=np.float32)
    serial(observation.observe)(states, np.ascontiguousarray(seats, dtype=np.int64), out)
    return out


def _sample(num_players: int, expert: bool, n: int = 400, seed: int = 0):
    """Up to ``n`` random mid-game records with a random observer seat and seed each."""
    states = np.array(random_states(num_players, expert))
    rng = np.random.default_rng(seed)
    states = states[rng.permutation(len(states))[:n]]
    seats = rng.integers(0, num_players, len(states))
    return states, seats, game_seeds(seed, len(states))


def _fresh_game(num_players: int, seed: int) -> np.ndarray:
    """The game ``_random_states.new_games(num_players, False, 1, seed)`` deals: the first PLAN of seed
    ``game_seeds(seed, 1)[0]``, characters and carriages drawn."""
    return position(num_players, seed=int(game_seeds(seed, 1)[0]))


def _chi2(observed: np.ndarray, expected_p: np.ndarray) -> float:
    expected = expected_p * observed.sum()
    return float(((observed - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_observation_of_the_seat_is_unchanged(config):
    """§10: the new record is indistinguishable for the seat: byte-identical observation."""
    states, seats, seeds = _sample(*config)
    new = hidden.resample_hidden(states, seats, seeds)
    np.testing.assert_array_equal(_observe(new, seats), _observe(states, seats))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_invariants_hold_and_the_input_is_untouched(config):
    """Every invariant holds in the new records; the originals are not modified."""
    states, seats, seeds = _sample(*config)
    before = states.copy()
    new = hidden.resample_hidden(states, seats, seeds)
    codes = np.zeros(len(new), dtype=np.int32)
    get_game("colt_express_v0").invariants_kernel(new, codes)  # the serial build the library runs
    assert not codes.any(), [invariants.INVARIANT_MESSAGES[c] for c in set(codes.tolist()) if c]
    assert states.tobytes() == before.tobytes()


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_hidden_parts_vary(config):
    """Unknown purse values, other seats' hands, deck orders, future round cards and the generator all change."""
    states, seats, seeds = _sample(*config)
    a = hidden.resample_hidden(states, seats, seeds)
    b = hidden.resample_hidden(states, seats, seeds + np.uint64(1))
    live = ~states["done"]
    assert (a["rng"] != b["rng"]).all()
    assert (a["purse_value"] != b["purse_value"]).any(axis=1).mean() > 0.5
    assert (a["deck"] != b["deck"]).any(axis=(1, 2))[live].mean() > 0.5
    early = states["round"] < 3
    assert (a["round_deck"] != b["round_deck"]).any(axis=1)[early].mean() > 0.5
    others = np.ones((len(states), states["hand"].shape[1]), dtype=bool)
    others[np.arange(len(states)), seats] = False
    hands_differ = ((a["hand"] != b["hand"]).any(axis=2) & others).any(axis=1)
    assert hands_differ[states["decision"] == DEC_PLAN].mean() > 0.5


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_same_seed_same_record_and_own_facts_kept(config):
    """Deterministic in the seed; the seat's own hand, discard and pile cards are never touched."""
    states, seats, seeds = _sample(*config, n=150)
    a = hidden.resample_hidden(states, seats, seeds)
    b = hidden.resample_hidden(states, seats, seeds)
    assert a.tobytes() == b.tobytes()
    rows = np.arange(len(states))
    np.testing.assert_array_equal(a["hand"][rows, seats], states["hand"][rows, seats])
    np.testing.assert_array_equal(a["discard"][rows, seats], states["discard"][rows, seats])
    own = states["pile_owner"] == seats[:, None]
    np.testing.assert_array_equal(np.where(own, a["pile_card"], 0), np.where(own, states["pile_card"], 0))


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[1]], ids=[i for c, i in zip(CONFIGS, CONFIG_IDS) if c[1]])
def test_expert_hands_after_keep_hold_no_bullet_card(config):
    """§4.4: after its KEEP decision a seat holds no bullet card; the redraw keeps that public fact."""
    states, seats, seeds = _sample(*config)
    stealin = (states["decision"] >= DEC_MOVE_DEST) | states["done"]
    new = hidden.resample_hidden(states[stealin], seats[stealin], seeds[stealin])
    assert len(new) > 10
    assert (new["hand"][:, :, BULLET_CARD] == 0).all()


def test_unknown_purse_value_is_uniform_over_the_unknown_values():
    """§10.3: the value an unknown purse id gets is distributed as the multiset of unknown values (chi-square)."""
    state = _fresh_game(3, seed=5)
    n_draws = 3000
    new = hidden.resample_hidden(np.repeat(state, n_draws), 0, game_seeds(11, n_draws))
    purse = int(state["n_bandits"][0])  # the first carriage purse, unknown to everybody
    classes = (new["purse_value"][:, purse].astype(int) - 250) // 50
    observed = np.bincount(classes, minlength=6).astype(float)
    unknown_values = PURSE_VALUES[purse:]
    expected_p = np.bincount((unknown_values.astype(int) - 250) // 50, minlength=6) / len(unknown_values)
    assert _chi2(observed, expected_p) < CHI2_CRITICAL_0001[5]


def test_card_of_another_seat_in_hand_is_hypergeometric():
    """§10.2: another seat's hand is a fair deal of its unseen cards: copies of Move in hand (chi-square)."""
    state = _fresh_game(3, seed=3)
    observer = int(state["current"][0])
    other = (observer + 1) % 3
    hand_size = int(state["hand"][0, other].sum())
    assert state["pile_size"][0] == 0 and state["deck_size"][0, other] == 10 - hand_size
    n_draws = 3000
    new = hidden.resample_hidden(np.repeat(state, n_draws), observer, game_seeds(12, n_draws))
    observed = np.bincount(new["hand"][:, other, MOVE], minlength=3).astype(float)
    expected_p = np.array([comb(2, k) * comb(8, hand_size - k) / comb(10, hand_size) for k in range(3)])
    assert _chi2(observed, expected_p) < CHI2_CRITICAL_0001[2]


def test_future_round_cards_are_uniform():
    """§10.4: the next round card is uniform over the unrevealed cards of the group (chi-square)."""
    state = _fresh_game(4, seed=8)
    n_draws = 3000
    new = hidden.resample_hidden(np.repeat(state, n_draws), 0, game_seeds(13, n_draws))
    revealed = int(state["round_deck"][0, 0])
    assert (new["round_deck"][:, 0] == revealed).all()
    candidates = [c for c in range(7) if c != revealed]
    observed = np.array([(new["round_deck"][:, 1] == c).sum() for c in candidates], dtype=float)
    assert observed.sum() == n_draws
    assert _chi2(observed, np.full(6, 1 / 6)) < CHI2_CRITICAL_0001[5]
    assert np.isin(new["round_deck"][:, 4], [14, 15, 16]).all()


def _hidden_variant(state: np.ndarray, seat: int) -> np.ndarray:
    """A record that differs from ``state`` only in what ``seat`` cannot see (edited with ``positions.place``)."""
    s = state.copy()
    rec = s[0]
    values = {}
    unknown = [i for i in range(18) if not observation.purse_value_known(rec, i, seat)]
    for i in unknown:  # swap two unknown purses of different values
        for j in unknown:
            if rec["purse_value"][i] < rec["purse_value"][j]:
                values = {i: int(rec["purse_value"][j]), j: int(rec["purse_value"][i])}
                break
        else:
            continue
        break
    n = int(rec["num_players"])
    hands, decks = {}, {}  # decks bottom first here, top first for place
    for q in range(n):  # swap a hand card of another seat with a different card of its deck
        if q == seat:
            continue
        free = int(rec["deck_size"][q]) - int(rec["known_bullets_on_top"][q])
        for j in range(free):
            code = int(rec["deck"][q, j])
            held = [k for k in range(BULLET_CARD) if k != code and rec["hand"][q, k] > 0]
            if held and code != BULLET_CARD:
                hand = [k for k in range(BULLET_CARD + 1) for _ in range(int(rec["hand"][q, k]))]
                hand[hand.index(held[0])] = code
                deck = [int(c) for c in rec["deck"][q, :rec["deck_size"][q]]]
                deck[j] = held[0]
                hands[q], decks[q] = hand, deck
                break
    size = int(rec["deck_size"][seat]) - int(rec["known_bullets_on_top"][seat])
    deck = [int(c) for c in rec["deck"][seat, :rec["deck_size"][seat]]]
    decks[seat] = deck[:size][::-1] + deck[size:]  # own deck order is hidden too
    known = {q: int(rec["known_bullets_on_top"][q]) for q in decks} if rec["expert"] else None
    place(s, purse_values=values, hands=hands, decks={q: deck[::-1] for q, deck in decks.items()},
          known_bullets=known)
    rec["rng"] = rec["rng"] ^ np.uint64(0xABCDEF)  # the generator: nothing a seat sees
    return s


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_indistinguishable_states_give_the_same_resamplings(config):
    """Two records the seat cannot tell apart give the same redraws (byte-identical for each seed)."""
    states, seats, seeds = _sample(*config, n=60)
    states = states[(states["decision"] == DEC_PLAN) & (states["resolving"] == NOBODY)]
    for k in range(len(states)):
        seat = int(seats[k])
        a = states[k:k + 1]
        b = _hidden_variant(a, seat)
        assert a.tobytes() != b.tobytes()
        np.testing.assert_array_equal(_observe(a, [seat]), _observe(b, [seat]))
        many = game_seeds(k, 20)
        ra = hidden.resample_hidden(np.repeat(a, 20), seat, many)
        rb = hidden.resample_hidden(np.repeat(b, 20), seat, many)
        assert ra.tobytes() == rb.tobytes()
