"""The Colt Express observation: layout, egocentric indexing, hidden information (spec §10, §11.6).

The hidden-information tests build, from realistic random-play records, pairs
of records that differ only in one thing a seat may not know (another seat's
hand or deck, any deck order, an unrevealed face-down card, a purse value it
never saw, the unrevealed round cards, the generator, another seat's set-aside
KEEP cards) and check that the seat's observations are byte-identical; the
controls check that the observation does change when the same kind of change is
visible to the seat.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from functools import partial

import numpy as np
import pytest

from tests import _observation as observation_checks
from tests._observation import (assert_fields, assert_rotating_seats_rotates_observations, change_generator,
                                same_rows, variants)
from tests.colt_express._random_states import CONFIG_IDS, CONFIGS, random_actions, random_states
from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import (A_PLAY_DOWN, BULLET_CARD, DEC_KEEP, DEC_PLAN, LARGE_GROUP_CARDS,
                                             N_ACTIONS, N_CARD_CODES, N_CARD_KINDS_HELD, N_PURSES, PURSE_ON_BANDIT,
                                             ROUND_CARD_TURNS, SMALL_GROUP_CARDS, STATION_CARDS, TURN_NONE,
                                             TURN_SPEEDUP, TURN_TUNNEL)
from wildwest_envs.colt_express.observation import (BANDIT_CHARACTER, BANDIT_COLUMNS, BANDIT_LOCATION,
                                                    BANDIT_OWN_TEAM, BANDIT_PRESENT, BANDIT_SEAT,
                                                    CODE_COUNT_SCALE, BULLET_COUNT_SCALE, HAND_SIZE_SCALE, OBS,
                                                    OBS_SIZE, PILE_COLUMNS, PURSE_COLUMNS, PURSE_VALUE,
                                                    PURSE_VALUE_UNKNOWN, PURSE_WHERE_REMOVED, SEAT_COLUMNS,
                                                    SEAT_HAND_SIZE, observe as observe_kernel)
from wildwest_envs.core.kernels import serial
from wildwest_envs.colt_express.state import NOBODY, STATE_DTYPE
from wildwest_envs.registry import get_game

EXPECTED_FIELDS = {  # name: shape (§11.6, refined as the module docstring says)
    "players": (5,), "expert": (1,), "round": (5,), "done": (1,),
    "round_card": (17,), "round_revealed": (17,), "pattern": (5, 5),
    "turn": (5,), "play_in_turn": (2,), "decision": (12,),
    "car_type": (7, 7), "car_present": (7,), "marshal_car": (7,), "supply": (3,), "floor_loot": (7, 2, 3),
    "bandits": (6, 35), "seats": (6, 7), "purses": (18, 29),
    "own_hand": (13,), "own_deck": (13,), "own_discard": (13,),
    "pile": (24, 23), "pending_bandit": (6,), "pending_victim": (6,), "ghost": (1,),
}

observe = serial(observe_kernel)  # the build Game runs (core.kernels.serial): no parallel build of the tests' own
observe_all = partial(observation_checks.observe_all, observe, OBS_SIZE)  # (states, seat): all rows written


# ---- layout -------------------------------------------------------------------------------------
def test_layout_fields_and_size():
    """§11.6: the declared slices tile the vector in order, with the documented shapes."""
    assert_fields(OBS, EXPECTED_FIELDS)
    assert OBS_SIZE == OBS.size == sum(int(np.prod(s)) for s in EXPECTED_FIELDS.values()) == 1576
    assert (BANDIT_COLUMNS, SEAT_COLUMNS, PURSE_COLUMNS, PILE_COLUMNS) == (35, 7, 29, 23)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_observation_shape_dtype_range_and_full_overwrite(config):
    """Rows are float32, finite, non-negative, roughly in [0, 1], and fully overwritten by ``observe``."""
    states = random_states(*config)
    for seat in range(config[0]):
        garbage = np.full((len(states), OBS_SIZE), 7.0, dtype=np.float32)
        observe(states, np.full(len(states), seat, dtype=np.int64), garbage)
        clean = np.zeros((len(states), OBS_SIZE), dtype=np.float32)
        observe(states, np.full(len(states), seat, dtype=np.int64), clean)
        assert garbage.dtype == np.float32 and garbage.shape == (len(states), OBS_SIZE)
        assert np.array_equal(garbage, clean)
        assert np.isfinite(clean).all() and (clean >= 0).all() and (clean <= 5).all()


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_one_hot_groups(config):
    """Every present bandit has one location and one character; every purse one place and one value class."""
    states = random_states(*config)
    n, bps = config[0], (2 if config[0] == 2 else 1)
    for seat in range(n):
        obs = observe_all(states, seat)
        bandits = OBS.get(obs, "bandits")
        present = bandits[:, :, BANDIT_PRESENT]
        assert (present.sum(axis=1) == n * bps).all()
        assert np.array_equal(bandits[:, :, BANDIT_LOCATION:BANDIT_LOCATION + 14].sum(axis=2), present)
        assert np.array_equal(bandits[:, :, BANDIT_CHARACTER:BANDIT_CHARACTER + 6].sum(axis=2), present)
        purses = OBS.get(obs, "purses")
        assert (purses[:, :, :PURSE_WHERE_REMOVED + 1].sum(axis=2) == 1).all()
        assert (purses[:, :, PURSE_VALUE:PURSE_VALUE_UNKNOWN + 1].sum(axis=2) == 1).all()
        assert (OBS.get(obs, "decision").sum(axis=1) == 1).all()
        assert (OBS.get(obs, "round_revealed").sum(axis=1) == states["round"] + 1).all()


# ---- egocentric indexing ----------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_own_bandit_is_index_zero(config):
    """§11.1: egocentric index 0 is the observer's own (first) bandit; with 2 players 0-1 are its team."""
    states = random_states(*config)
    n = config[0]
    bps = 2 if n == 2 else 1
    for seat in range(n):
        bandits = OBS.get(observe_all(states, seat), "bandits")
        for k in range(bps):
            assert (bandits[:, k, BANDIT_OWN_TEAM] == 1).all()
            assert (bandits[:, k, BANDIT_SEAT] == 1).all()
            character = states["character"][:, seat * bps + k]
            assert (bandits[np.arange(len(states)), k, BANDIT_CHARACTER + character] == 1).all()
        assert (bandits[:, bps:, BANDIT_OWN_TEAM] == 0).all()
        seats = OBS.get(observe_all(states, seat), "seats")
        assert (seats[:, 0, 0] == 1).all() and (seats[:, n:, :] == 0).all()


def rotate_seats(record: np.void, k: int) -> None:
    """Relabel seat s as (s + k) mod N everywhere in the record (bandits, cards, purses, pile)."""
    n = int(record["num_players"])
    bps = int(record["bandits_per_seat"])
    nb = n * bps

    def bandit(b: int) -> int:
        return ((b // bps + k) % n) * bps + b % bps

    old = record.copy()
    for name in ("character", "bandit_car", "bandit_level", "bullets_left", "bullets_received", "jewels_held",
                 "strongboxes_held", "ransoms"):
        for b in range(nb):
            record[name][bandit(b)] = old[name][b]
    for name in ("purse_known", "hand", "deck", "deck_size", "discard", "known_bullets_on_top"):
        for s in range(n):
            record[name][(s + k) % n] = old[name][s]
    for i in range(N_PURSES):
        loc = int(old["purse_location"][i])
        if PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + nb:
            record["purse_location"][i] = PURSE_ON_BANDIT + bandit(loc - PURSE_ON_BANDIT)
    for name in ("first_player", "current"):
        if int(old[name]) != NOBODY:
            record[name] = (int(old[name]) + k) % n
    for name in ("acting_bandit", "victim"):
        if int(old[name]) != NOBODY:
            record[name] = bandit(int(old[name]))
    for i in range(int(old["pile_size"])):
        record["pile_owner"][i] = (int(old["pile_owner"][i]) + k) % n


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_rotating_seats_rotates_the_observation(config):
    """§11.6: relabelling every seat s as s + k gives seat p + k exactly seat p's old observation."""
    assert_rotating_seats_rotates_observations(observe_all, random_states(*config), config[0], rotate_seats)


# ---- content checks against the record ----------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_own_cards_and_sizes_match_the_record(config):
    """§10.2: p sees its own hand; §11.3: other seats see a KEEPing seat's pre-decision hand size."""
    states = random_states(*config)
    n = config[0]
    scale = np.array([CODE_COUNT_SCALE] * N_CARD_CODES + [BULLET_COUNT_SCALE], np.float32)
    for seat in range(n):
        obs = observe_all(states, seat)
        assert np.allclose(OBS.get(obs, "own_hand") * scale, states["hand"][:, seat])
        deck = np.zeros((len(states), N_CARD_KINDS_HELD))
        for b, record in enumerate(states):
            for code in record["deck"][seat, :record["deck_size"][seat]]:
                deck[b, code] += 1
        assert np.allclose(OBS.get(obs, "own_deck") * scale, deck)
        for other in range(n):
            size = states["hand"][:, other].sum(axis=1)
            keeping = (states["decision"] == DEC_KEEP) & (states["current"] == other) & (other != seat)
            size = size + np.where(keeping, states["keep_aside"].sum(axis=1), 0)
            seen = OBS.get(obs, "seats")[:, (other - seat) % n, SEAT_HAND_SIZE] * HAND_SIZE_SCALE
            assert np.allclose(seen, size)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_ghost_flag_matches_the_face_down_option(config):
    """§7, §11.3: a face-down play outside a tunnel is legal only when the ghost flag is set."""
    states = random_states(*config)
    masks = np.zeros((len(states), N_ACTIONS), np.int8)
    serial(rules.legal_mask)(states, masks)
    hits = 0
    for b, record in enumerate(states):
        if record["decision"] != DEC_PLAN:
            continue
        seat = int(record["current"])
        icon = ROUND_CARD_TURNS[record["round_deck"][record["round"]], record["turn"]]
        flag = OBS.get(observe_all(states[b:b + 1], seat), "ghost")[0, 0]
        if icon != TURN_TUNNEL and masks[b, A_PLAY_DOWN:A_PLAY_DOWN + N_CARD_CODES].any():
            assert flag == 1
            hits += 1
        if record["turn"] != 0:
            assert flag == 0
    if 0 in [c for c in states["character"].ravel()]:
        assert hits > 0 or config[0] == 2  # Ghost was in play: the option must have come up


# ---- hidden information (§10, §11.6) -----------------------------------------------------------------
def purse_known(record: np.void, purse: int, seat: int) -> bool:
    """Reference of §10.3 (G35): starting purse, ever held by the seat, or on a character card at the end."""
    loc = int(record["purse_location"][purse])
    return (purse < record["n_bandits"] or bool((int(record["purse_known"][seat]) >> purse) & 1)
            or (bool(record["done"]) and PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + 6))


def pile_revealed(record: np.void, i: int) -> bool:
    """Stealin' has reached pile card i (G22)."""
    return int(record["resolving"]) != NOBODY and i <= int(record["resolving"])


def deck_free(record: np.void, seat: int) -> int:
    """Deck positions whose order nobody knows: all but the known bullet cards on top (§10.1)."""
    return int(record["deck_size"][seat]) - int(record["known_bullets_on_top"][seat])


def swap_hand_and_deck(record: np.void, seat: int, rng: np.random.Generator) -> bool:
    """Exchange a hand card of the seat with a different card of its deck (sizes unchanged)."""
    hand = [c for c in range(N_CARD_KINDS_HELD) if record["hand"][seat, c] > 0]
    options = [(a, j) for a in hand for j in range(deck_free(record, seat)) if record["deck"][seat, j] != a]
    if not options:
        return False
    a, j = options[rng.integers(len(options))]
    b = int(record["deck"][seat, j])
    record["hand"][seat, a] -= 1
    record["hand"][seat, b] += 1
    record["deck"][seat, j] = a
    return True


def swap_with_discard(record: np.void, seat: int, rng: np.random.Generator) -> bool:
    """Exchange a different card between the seat's discard pile and its hand or deck (expert)."""
    discard = [c for c in range(N_CARD_KINDS_HELD) if record["discard"][seat, c] > 0]
    hand = [c for c in range(N_CARD_KINDS_HELD) if record["hand"][seat, c] > 0]
    options = [("hand", a, b) for a in hand for b in discard if a != b]
    options += [("deck", j, b) for j in range(deck_free(record, seat)) for b in discard
                if record["deck"][seat, j] != b]
    if not options:
        return False
    where, x, b = options[rng.integers(len(options))]
    if where == "hand":
        record["hand"][seat, x] -= 1
        record["hand"][seat, b] += 1
        record["discard"][seat, x] += 1
    else:
        record["discard"][seat, int(record["deck"][seat, x])] += 1
        record["deck"][seat, x] = b
    record["discard"][seat, b] -= 1
    return True


def other_cards_change(record: np.void, seat: int, rng: np.random.Generator) -> bool:
    """Change the composition of a seat's hand, deck and discard pile (never their sizes)."""
    if record["expert"] and rng.random() < 0.5 and swap_with_discard(record, seat, rng):
        return True
    return swap_hand_and_deck(record, seat, rng)


def shuffle_deck_order(record: np.void, seat: int, rng: np.random.Generator) -> bool:
    """Reorder the unknown part of a seat's draw deck (§10.4: nobody knows any deck order)."""
    free = deck_free(record, seat)
    part = record["deck"][seat, :free].copy()
    if len(set(part.tolist())) < 2:
        return False
    while True:
        new = rng.permutation(part)
        if not np.array_equal(new, part):
            record["deck"][seat, :free] = new
            return True


def swap_face_down_card(record: np.void, i: int, rng: np.random.Generator) -> bool:
    """Exchange pile card i with a different action card of its owner's hand or deck."""
    owner = int(record["pile_owner"][i])
    a = int(record["pile_card"][i])
    options = [("hand", c) for c in range(N_CARD_CODES) if record["hand"][owner, c] > 0 and c != a]
    options += [("deck", j) for j in range(deck_free(record, owner))
                if record["deck"][owner, j] < N_CARD_CODES and record["deck"][owner, j] != a]
    if not options:
        return False
    where, x = options[rng.integers(len(options))]
    if where == "hand":
        record["hand"][owner, x] -= 1
        record["hand"][owner, a] += 1
        record["pile_card"][i] = x
    else:
        record["pile_card"][i] = record["deck"][owner, x]
        record["deck"][owner, x] = a
    return True


def permute_purse_values(record: np.void, ids: list[int], rng: np.random.Generator) -> bool:
    """Deal the values of the purses ``ids`` among them in another order."""
    values = record["purse_value"][ids].copy()
    if len(set(values.tolist())) < 2:
        return False
    while True:
        new = rng.permutation(values)
        if not np.array_equal(new, values):
            record["purse_value"][ids] = new
            return True


def change_future_round_cards(record: np.void, rng: np.random.Generator) -> bool:
    """Replace the round cards not yet revealed by other possible ones (§10.4)."""
    r = int(record["round"])
    if r == 4:
        return False
    group = SMALL_GROUP_CARDS if record["num_players"] <= 4 else LARGE_GROUP_CARDS
    unused = [int(c) for c in group if c not in record["round_deck"][:r + 1]]
    old = record["round_deck"].copy()
    while np.array_equal(record["round_deck"], old):
        record["round_deck"][r + 1:4] = rng.permutation(unused)[:3 - r]
        record["round_deck"][4] = rng.choice(STATION_CARDS)
    return True


def change_keep_aside(record: np.void, rng: np.random.Generator) -> bool:
    """During a KEEP decision, set one more action card aside, or take one back (§11.3)."""
    if record["decision"] != DEC_KEEP:
        return False
    seat = int(record["current"])
    in_hand = [c for c in range(N_CARD_CODES) if record["hand"][seat, c] > 0]
    aside = [c for c in range(N_CARD_CODES) if record["keep_aside"][c] > 0]
    if aside and (not in_hand or rng.random() < 0.5):
        c = aside[rng.integers(len(aside))]
        record["keep_aside"][c] -= 1
        record["hand"][seat, c] += 1
    elif in_hand:
        c = in_hand[rng.integers(len(in_hand))]
        record["hand"][seat, c] -= 1
        record["keep_aside"][c] += 1
    else:
        return False
    return True


def assert_consistent(states: np.ndarray) -> None:
    """The changed records are still consistent games (the pairs are realistic)."""
    codes = np.zeros(len(states), np.int32)
    get_game("colt_express_v0").invariants_kernel(states, codes)  # the serial build the library runs
    assert not codes.any(), codes[codes != 0][:5]


def check_pair(states: np.ndarray, changed: np.ndarray, applied: np.ndarray, hidden_from, visible_to=()) -> None:
    """The changed records are consistent games; seats in ``hidden_from`` see no difference on the applied rows;
    seats in ``visible_to`` see one."""
    assert_consistent(changed)
    observation_checks.check_pair(observe_all, states, changed, applied, hidden_from, visible_to)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_other_seats_cards_are_hidden(config):
    """§10.2, §11.6: another seat's hand, deck and discard composition are invisible; one's own is visible."""
    states = random_states(*config)
    n = config[0]
    for owner in range(n):
        changed, applied = variants(states, lambda r, g: other_cards_change(r, owner, g), seed=owner)
        check_pair(states, changed, applied, [p for p in range(n) if p != owner], visible_to=[owner])


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_deck_order_is_hidden_from_everybody(config):
    """§10.4: no deck order is observed, not even one's own (beyond the known bullets on top)."""
    states = random_states(*config)
    n = config[0]
    for owner in range(n):
        changed, applied = variants(states, lambda r, g: shuffle_deck_order(r, owner, g), seed=10 + owner)
        check_pair(states, changed, applied, range(n))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_face_down_pile_cards_are_hidden_until_revealed(config):
    """§4.5, G22: a face-down card is seen by its owner, by the others only once Stealin' reaches it."""
    states = random_states(*config)
    n = config[0]
    for which in ("hidden", "revealed"):
        for owner in range(n):
            def change(record, rng):
                first_on_pile = max(int(record["resolving"]), 0)  # resolved cards are back with their owner
                candidates = [i for i in range(first_on_pile, int(record["pile_size"]))
                              if record["pile_owner"][i] == owner
                              and (record["pile_down"][i] and not pile_revealed(record, i)) == (which == "hidden")]
                return bool(candidates) and swap_face_down_card(record, candidates[rng.integers(len(candidates))],
                                                                rng)
            changed, applied = variants(states, change, seed=20 + owner)
            others = [p for p in range(n) if p != owner]
            if which == "hidden":
                check_pair(states, changed, applied, others, visible_to=[owner])
            else:  # face up or revealed: everybody sees the new card
                check_pair(states, changed, applied, [], visible_to=range(n))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_unknown_purse_values_are_hidden(config):
    """§10.3: values of purses p never held stay hidden (until the end, for those on character cards)."""
    states = random_states(*config)
    n = config[0]
    for seat in range(n):
        def change(record, rng):
            ids = [i for i in range(N_PURSES) if not purse_known(record, i, seat)]
            return permute_purse_values(record, ids, rng)
        changed, applied = variants(states, change, seed=30 + seat)
        check_pair(states, changed, applied, [seat])


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_known_purse_values_are_visible(config):
    """§10.3: a purse p holds or held shows its value; at the end every purse on a character card does."""
    states = random_states(*config)
    n = config[0]
    for seat in range(n):
        def change(record, rng):
            known = [i for i in range(int(record["n_bandits"]), N_PURSES) if purse_known(record, i, seat)]
            if not known:
                return False
            i = known[rng.integers(len(known))]
            others = [j for j in range(int(record["n_bandits"]), N_PURSES)
                      if record["purse_value"][j] != record["purse_value"][i]]
            if not others:
                return False
            return permute_purse_values(record, [i, others[rng.integers(len(others))]], rng)
        changed, applied = variants(states, change, seed=40 + seat)
        check_pair(states, changed, applied, [], visible_to=[seat])
    # at the end of the game: a purse on any character card, swapped with a purse elsewhere (G35)
    def change_at_end(record, rng):
        if not record["done"]:
            return False
        nb = int(record["n_bandits"])
        held = [i for i in range(nb, N_PURSES) if PURSE_ON_BANDIT <= record["purse_location"][i] < PURSE_ON_BANDIT + nb]
        rest = [i for i in range(nb, N_PURSES) if i not in held]
        pairs = [(i, j) for i in held for j in rest if record["purse_value"][i] != record["purse_value"][j]]
        if not pairs:
            return False
        return permute_purse_values(record, list(pairs[rng.integers(len(pairs))]), rng)
    changed, applied = variants(states, change_at_end, seed=50)
    check_pair(states, changed, applied, [], visible_to=range(n))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_unrevealed_round_cards_are_hidden(config):
    """§10.4: the round cards after the current one (and the station card) are not observed."""
    states = random_states(*config)
    n = config[0]
    changed, applied = variants(states, change_future_round_cards, seed=60)
    check_pair(states, changed, applied, range(n))

    def change_current(record, rng):  # control: the revealed card of this round is public
        group = SMALL_GROUP_CARDS if record["num_players"] <= 4 else LARGE_GROUP_CARDS
        r = int(record["round"])
        if r == 4 or record["decision"] == DEC_PLAN:  # keep the PLAN turn index valid for the new card
            return False
        n = int(record["num_players"])
        plays = [n * sum(2 if icon == TURN_SPEEDUP else int(icon != TURN_NONE) for icon in ROUND_CARD_TURNS[c])
                 for c in range(len(ROUND_CARD_TURNS))]
        unused = [int(c) for c in group if c not in record["round_deck"][:4] and plays[c] >= record["pile_size"]]
        if not unused:
            return False
        record["round_deck"][r] = unused[rng.integers(len(unused))]
        return True
    changed, applied = variants(states, change_current, seed=61)
    check_pair(states, changed, applied, [], visible_to=range(n))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_generator_and_scripted_chance_are_hidden(config):
    """DESIGN.md: the rng state and the forced queue are never part of an observation."""
    states = random_states(*config)
    changed, applied = variants(states, change_generator, seed=70)
    check_pair(states, changed, applied, range(config[0]))


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[1]], ids=[i for c, i in zip(CONFIGS, CONFIG_IDS) if c[1]])
def test_unfinished_keep_decision_is_hidden_from_others(config):
    """§4.4, §11.3, G33: others see a KEEPing seat's old sizes; the seat sees its set-aside cards as discarded."""
    states = random_states(*config)
    n = config[0]
    changed, applied = variants(states, change_keep_aside, seed=80)
    assert applied.any()
    assert_consistent(changed)
    for seat in range(n):
        same = same_rows(observe_all(states, seat), observe_all(changed, seat))
        keeper = states["current"] == seat
        assert same[applied & ~keeper].all()
        assert not same[applied & keeper].any()


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_everything_hidden_at_once(config):
    """All hidden changes together, for one observer: still byte-identical observations."""
    states = random_states(*config)
    n = config[0]
    for seat in range(n):
        def change(record, rng):
            for other in range(n):
                if other != seat:
                    other_cards_change(record, other, rng)
                shuffle_deck_order(record, other, rng)
            for i in range(int(record["pile_size"])):
                if record["pile_owner"][i] != seat and record["pile_down"][i] and not pile_revealed(record, i):
                    swap_face_down_card(record, i, rng)
            permute_purse_values(record, [i for i in range(N_PURSES) if not purse_known(record, i, seat)], rng)
            change_future_round_cards(record, rng)
            if record["current"] != seat:
                change_keep_aside(record, rng)
            return change_generator(record, rng)
        changed, applied = variants(states, change, seed=90 + seat)
        check_pair(states, changed, applied, [seat])


# ---- plain Python kernels ---------------------------------------------------------------------------------
def test_observe_without_jit_matches(tmp_path):
    """DESIGN.md: with NUMBA_DISABLE_JIT=1 the same kernel gives the same observations."""
    states = np.concatenate([random_states(*c)[::40] for c in CONFIGS])
    seats = (np.arange(len(states)) % states["num_players"]).astype(np.int64)
    expected = np.zeros((len(states), OBS_SIZE), np.float32)
    observe(states, seats, expected)
    np.save(tmp_path / "states.npy", states)
    np.save(tmp_path / "seats.npy", seats)
    script = textwrap.dedent(f"""
        import numpy as np
        from wildwest_envs.colt_express.observation import OBS_SIZE, observe
        states = np.load({str(tmp_path / "states.npy")!r})
        seats = np.load({str(tmp_path / "seats.npy")!r})
        out = np.zeros((len(states), OBS_SIZE), np.float32)
        observe(states, seats, out)
        np.save({str(tmp_path / "out.npy")!r}, out)
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=os.getcwd())
    assert np.allclose(np.load(tmp_path / "out.npy"), expected, atol=1e-6)


def test_states_dtype_is_the_record():
    """The helper games are records of the game's dtype (guards the tests above)."""
    assert random_states(3, False).dtype == STATE_DTYPE
    assert random_actions(np.ones((2, N_ACTIONS), np.int8), np.random.default_rng(0)).shape == (2,)
    assert BULLET_CARD == N_CARD_CODES
