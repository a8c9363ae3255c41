"""Setup of one game record (spec §3, §10.3, §11.5).

``setup_game`` sets up a record that holds the empty values (``state.EMPTY_VALUES``,
copied over it by the ``init`` kernel, ``core.engine``), then the caller advances
it to the first decision. Random draws happen in exactly the order of §3.5 / §11.5,
each skipped when its option is given:

1. characters: one shuffle of the six character ids, the first B are dealt to
   bandits 0..B-1;
2. carriages: one shuffle of the six carriage types, the first C are cars 1..C
   front to back (the choice of the types and their order in one draw);
3. purse values: one shuffle of the 18 - B non-starting values over ids B..17;
4. round cards: one shuffle of the seven cards of the player-count group, the
   first four are rounds 0..3 in that order;
5. station card: one draw among the three;
6. first player: one draw among the N seats;
7. each deck, seat 0 first, laid out in card-code order then shuffled.

The pile arrays serve as scratch space for the shuffles of steps 1-4 and are
cleared afterwards. The purse-value shuffle permutes the value table: id
``B + i`` gets value ``PURSE_VALUES[B + order[i]]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import start_record
from ..core.rng import draw_below, shuffle_prefix
from .cards import shuffle_deck
from .data import (BULLETS_PER_BANDIT, CARD_COPIES, CARRIAGE_JEWELS, CARRIAGE_PURSES, IN, LARGE_GROUP_CARDS,
                   LOCOMOTIVE_TYPE, MARSHAL, MAX_PILE, MOVE, N_CARRIAGE_TYPES, N_CHARACTERS, N_KINDS, N_PURSES,
                   N_ROUNDS, PURSE_ON_BANDIT, PURSE_VALUES, RANDOM, ROB, SMALL_GROUP_CARDS, STATION_CARDS)
from .state import NOBODY

N_GROUP_CARDS = 7  # round cards of one player-count group (§2.6)
N_DEALT_ROUND_CARDS = 4  # round cards drawn from the group (§3.1 step 8)


@njit(cache=True)
def _shuffle_ids(state: np.void, n_values: int) -> None:
    """A random order of ``0..n_values-1`` into the scratch space, ``state["pile_card"]`` (§3.5)."""
    scratch = state["pile_card"]
    for v in range(n_values):
        scratch[v] = v
    shuffle_prefix(state, scratch, n_values)


@njit(cache=True)
def _build_deck(state: np.void, seat: int) -> None:
    """A seat's action cards in code order: 10 of one character, or the 11-card team deck (§2.4, §3.3)."""
    n = np.int64(0)
    if state["bandits_per_seat"] == 1:
        for kind in range(N_KINDS):
            for _ in range(np.int64(CARD_COPIES[kind])):
                state["deck"][seat, n] = kind
                n += 1
    else:
        for slot in range(2):
            for kind in range(MOVE, ROB + 1):
                state["deck"][seat, n] = slot * N_KINDS + kind
                n += 1
        state["deck"][seat, n] = MARSHAL  # the team's single Marshal card, code 5 (§3.3 step 4, G7)
        n += 1
    state["deck_size"][seat] = n


@njit(cache=True)
def _place_loot(state: np.void) -> None:
    """Starting purses on the bandits, carriage loot inside, strongbox in the locomotive (§3.1, §10.3)."""
    n_bandits = np.int64(state["n_bandits"])
    everybody = np.int64(0)
    for b in range(n_bandits):
        state["purse_location"][b] = PURSE_ON_BANDIT + b
        everybody |= np.int64(1) << np.int64(b)
    for s in range(np.int64(state["num_players"])):
        state["purse_known"][s] = everybody  # starting purses are known to be $250 (§3.1 step 4)
    next_purse = n_bandits
    for car in range(1, np.int64(state["n_carriages"]) + 1):
        ctype = np.int64(state["car_type"][car])
        for _ in range(np.int64(CARRIAGE_PURSES[ctype])):
            state["purse_location"][next_purse] = car * 2 + IN
            next_purse += 1
        state["floor_jewels"][car * 2 + IN] = CARRIAGE_JEWELS[ctype]
    state["floor_strongboxes"][0 * 2 + IN] = 1


@njit(cache=True)
def _place_bandits(state: np.void) -> None:
    """Bandits start inside the last two cars, alternating from the first player (§3.1 step 11, §3.2)."""
    n = np.int64(state["num_players"])
    last = np.int64(state["n_carriages"])
    first = np.int64(state["first_player"])
    for s in range(n):
        if state["bandits_per_seat"] == 2:  # slot 0 in the last car, slot 1 in front of it (G24)
            state["bandit_car"][2 * s] = last
            state["bandit_car"][2 * s + 1] = last - 1
        else:
            state["bandit_car"][s] = last - ((s - first) % n) % 2
    for b in range(np.int64(state["n_bandits"])):
        state["bandit_level"][b] = IN
        state["bullets_left"][b] = BULLETS_PER_BANDIT


@njit(cache=True)
def setup_game(state: np.void, seed: np.uint64, num_players: int, expert: bool, auto_resolve: bool,
               max_decisions: int, characters: np.ndarray, carriages: np.ndarray, start_player: int = -1) -> None:
    """Set up one record: options, characters, train, loot, round deck, first player, decks (§3).

    ``start_player`` >= 0 replaces the drawn first player; the draw is still made, so the rest of the deal
    is the seed's either way."""
    start_record(state, seed, num_players, max_decisions)
    two = num_players == 2
    state["bandits_per_seat"] = 2 if two else 1
    state["n_bandits"] = 4 if two else num_players
    state["n_carriages"] = 4 if two else num_players
    state["expert"] = expert or two  # §3.3 step 7
    state["auto_resolve"] = auto_resolve
    n_bandits = np.int64(state["n_bandits"])
    n_carriages = np.int64(state["n_carriages"])
    ids = state["pile_card"]  # the scratch space that _shuffle_ids orders
    # 1. characters
    if characters[0] == RANDOM:
        _shuffle_ids(state, np.int64(N_CHARACTERS))
        for b in range(n_bandits):
            state["character"][b] = ids[b]
    else:
        for b in range(n_bandits):
            state["character"][b] = characters[b]
    # 2. carriages, front to back
    state["car_type"][0] = LOCOMOTIVE_TYPE
    if carriages[0] == RANDOM:
        _shuffle_ids(state, np.int64(N_CARRIAGE_TYPES))
        for c in range(n_carriages):
            state["car_type"][c + 1] = ids[c]
    else:
        for c in range(n_carriages):
            state["car_type"][c + 1] = carriages[c]
    # 3. values of the non-starting purses: the values of ids B..17 in a random order (§10.3)
    _shuffle_ids(state, np.int64(N_PURSES - n_bandits))
    for i in range(N_PURSES - n_bandits):
        state["purse_value"][n_bandits + i] = PURSE_VALUES[n_bandits + np.int64(ids[i])]
    # 4-5. round deck: four group cards in a random order, then a station card (§3.1 step 8)
    first_card = SMALL_GROUP_CARDS[0] if num_players <= 4 else LARGE_GROUP_CARDS[0]
    _shuffle_ids(state, np.int64(N_GROUP_CARDS))
    for r in range(N_DEALT_ROUND_CARDS):
        state["round_deck"][r] = first_card + ids[r]
    state["round_deck"][N_ROUNDS - 1] = STATION_CARDS[draw_below(state, np.int64(len(STATION_CARDS)))]
    for i in range(MAX_PILE):
        ids[i] = NOBODY
    # 6. first player (G26)
    drawn = draw_below(state, np.int64(num_players))
    state["first_player"] = drawn if start_player < 0 else start_player
    # 7. decks, seat order (the first round's shuffle, §4.2)
    for s in range(num_players):
        _build_deck(state, s)
        shuffle_deck(state, s)
    _place_bandits(state)
    _place_loot(state)

