"""Consistency checks of Colt Express records (fuzzing, loading saved states).

* ``check_invariants(states, out)``: numba batch kernel; ``out[b]`` = 0 when
  record ``b`` is consistent, else the code of the first invariant it breaks,
  explained by ``INVARIANT_MESSAGES[code]``. The checks run in code order and
  every check only indexes what the earlier checks proved in range, so a
  corrupted record never makes the kernel read out of bounds.
* ``validate_state(state)``: plain Python on one record (a loaded or handmade
  state): a range check of every field that a kernel uses as an index or a
  loop bound (the ranges declared in ``FIELD_RANGES``, checked by
  ``core.fields``; the sizes, cars, absent bandits and purses, which a range
  cannot say, by ``_structure_errors``), with the field name and the bad value
  in each message; then, if the ranges hold, the invariants above translated
  into messages.

Invariants (spec sections in the messages): setup sizes match the player count;
train, characters, round deck and positions valid; no bandit inside the
marshal's car (§5.2); every purse token exactly once somewhere valid, values a
permutation of the 18 purse values, the dealt ids out of the box and the rest
in it (§10.3); jewels and strongboxes conserved (§2.1, §8.4); bullets conserved
(shots fired + neutral bullets handed out = bullets received, §5.3, §6.3);
every card of a seat in exactly one of hand, draw deck, discard, set-aside
cards or the unresolved part of the pile (§2.4, §3.3, §4.5, G37); known bullet
cards really on top of the deck (§10.1); decision, current seat and end flag
agree; Schemin' progress (turn, turn_position, play_in_turn) within the round
card, and never more pile cards than plays so far (so a PLAN cannot write past
the 24-card pile); at most 53 cards per seat (§2.10, so no deck overflows);
counts non-negative; the decision counter within the cap; the scripted-chance
queue consistent.

Decisions where the spec is silent:

* After a shortage the neutral supply is removed and how many neutral bullets
  were handed out before is not recorded; the bullet check then only requires
  that 14 - B .. 13 were handed out (a shortage leaves fewer cards than the
  group, and a group has at most B bandits, §5.3).
* The cards of the pile still with it are those not yet resolved: every pile
  card during Schemin' (``resolving == NOBODY``), the cards from index
  ``resolving`` on during Stealin' (the card being resolved returns to its
  owner when it is done, §4.5 step 5).
* ``n_decisions <= max_decisions``: the step kernel leaves a record at the cap
  alone (a game at the cap is reported truncated); a record beyond it is
  reported as inconsistent.
* ``purse_known`` must contain every purse on one of the seat's own bandits
  (holding a purse reveals it, §10.3); other bits are not checked (knowledge
  accumulates over the game and is not derivable from the record).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.fields import INT32_MAX, LAST_SEAT, Bound, field_bound, first, leading_rows, range_errors
from ..core.kernels import serial
from ..core.rng import N_FORCED
from .data import (BULLET_CARD, BULLETS_PER_BANDIT, CARD_COPIES, CARRIAGE_JEWELS, CARRIAGE_PURSES, DEC_BULLETS,
                   DEC_KEEP, DEC_MOVE_DEST, DEC_NONE, DEC_PLAN, IN, LARGE_GROUP_CARDS, LOCOMOTIVE_TYPE, MARSHAL,
                   MAX_BANDITS, MAX_CARS, MAX_DECK, MAX_PILE, MAX_PLAYERS, MAX_TURNS, MIN_PLAYERS,
                   N_CARD_CODES, N_CARD_KINDS_HELD, N_CARRIAGE_TYPES, N_CHARACTERS, N_DECISIONS, N_KINDS,
                   N_LEVELS, N_LOCATIONS, N_NEUTRAL_BULLETS, N_PURSES, N_ROUNDS, N_STRONGBOXES,
                   PURSE_IN_BOX, PURSE_ON_BANDIT, PURSE_REMOVED, PURSE_VALUES, ROOF, ROUND_CARD_TURNS,
                   SMALL_GROUP_CARDS, STATION_CARDS, TURN_NONE, TURN_SPEEDUP)
from .state import NOBODY

OK = 0
N_ACTION_CARDS_MIN = 10  # action cards of a seat with 3-6 players; 11 with 2 (§2.4, §3.3)
INVARIANT_MESSAGES: tuple[str, ...] = (
    "ok",
    # 1-3: setup sizes
    "num_players is outside 2..6",
    "n_bandits / bandits_per_seat / n_carriages do not match num_players (B = N, BPS = 1, C = N; "
    "with 2 players B = 4, BPS = 2, C = 4) (§0.2, §3.2)",
    "expert is false in a two-player game (§3.3)",
    # 4-8: train, characters, positions
    "car_type: car 0 must be the locomotive, cars 1..C distinct carriage types 0..5, NOBODY beyond C (§2.1)",
    "character: the B bandits must have distinct character ids 0..5 and absent bandits NOBODY (§2.3)",
    "bandit_car / bandit_level: a bandit is off the train (car outside 0..C or level not IN/ROOF) (§5.1)",
    "marshal_car is outside the cars 0..C (§5.1)",
    "a bandit is inside the marshal's car (bandit_car == marshal_car, bandit_level == IN) (§5.2)",
    # 9-11: simple counts
    "bullets_left is outside 0..6 (§2.4)",
    "a loot count is negative (bullets_received, jewels_held, strongboxes_held, ransoms, floor_jewels, "
    "floor_strongboxes)",
    "loot lies where nobody plays: floor_jewels / floor_strongboxes beyond the last car, or jewels_held / "
    "strongboxes_held / ransoms of an absent bandit",
    # 12-16: rounds and the pending decision
    "round / round_deck: round outside 0..4, or the round deck is not 4 distinct round cards of the "
    "player-count group followed by a station card (§3.1 step 8)",
    "first_player is not a seat 0..N-1",
    "decision / current / done disagree (done <=> decision == DEC_NONE <=> current == NOBODY; "
    "otherwise current is a seat and decision a DEC_* code)",
    "n_decisions is outside 0..max_decisions",
    "turn / turn_position / play_in_turn / pile_size: a PLAN decision outside the turn icons of the current "
    "round card or the seats, a second play outside a speed-up turn, or more cards on the pile than plays so "
    "far in the round (§2.6, §4.3)",
    # 17-20: purse tokens
    "purse_location: a token is neither on the train (cars 0..C), on a present bandit, in the box nor "
    "removed (§10.3)",
    "purse_value: the values are not a permutation of the 18 purse values, or a starting purse "
    "(id < B) is not worth $250 (§2.2, §10.3)",
    "purse count: the ids B .. B+P-1 (P = purses of the carriages in use) and the starting purses must be "
    "out of the box, every other id in it (§3.1 step 6, §10.3)",
    "purse_known: a seat does not know a purse on its own bandit, or a bit is set for an absent seat or "
    "a nonexistent id (§10.3)",
    # 21-24: loot and bullets conserved
    "jewels not conserved: floor_jewels + jewels_held != jewels of the carriages in use (§2.1)",
    "strongboxes not conserved: floor + held != 1, or 2 once second_strongbox_placed (§2.1, §8.4)",
    "neutral_supply is outside 0..13, or not 0 after supply_removed (§5.3)",
    "bullets not conserved: shots fired (6 - bullets_left) + neutral bullets handed out (13 - "
    "neutral_supply) != sum of bullets_received (§5.3, §6.3)",
    # 25-33: cards of the seats and the pile
    "deck_size is outside 0..53 (0 for an absent seat), or a draw deck entry is not a card code 0..12",
    "a hand / discard / keep_aside count is negative, or an absent seat holds cards",
    "standard rules: a discard pile, set-aside cards or known bullets on top are used (§3.4 is expert only)",
    "keep_aside holds cards outside a KEEP decision (§4.4)",
    "pile_size is outside 0..24, or a pile entry has an owner that is not a seat or a card code outside "
    "0..11 (§4.3)",
    "resolving is neither NOBODY nor a pile index 0..pile_size-1 (§4.5)",
    "action cards of a seat not conserved: hand + deck + discard + keep_aside + its unresolved pile cards "
    "!= its 10 action cards (11 with 2 players) per card code (§2.4, §3.3, §4.5)",
    "bullet cards of a seat (hand + deck + discard + keep_aside) != bullets_received by its bandits (§6.7), "
    "or more than 53 cards owned by one seat (§2.10)",
    "known_bullets_on_top exceeds the deck size or covers a card that is not a bullet card (§10.1)",
    # 34-35: pending decision
    "acting_bandit / victim is neither NOBODY nor a present bandit",
    "standard rules: a hand is not empty after Schemin' (§4.4)",
    # 36: scripted chance
    "n_forced / forced_pos / forced: the scripted-chance queue is inconsistent (0 <= forced_pos <= "
    "n_forced <= 16, entries >= 0)",
)
N_INVARIANTS = len(INVARIANT_MESSAGES) - 1


# ---- helpers -------------------------------------------------------------------
@njit(cache=True)
def _expected_copies(state, code: int) -> int:
    """Copies of action card ``code`` a seat owns (§2.4; 2 players §3.3: one of each, one Marshal)."""
    kind = code % N_KINDS
    slot = code // N_KINDS
    if state["num_players"] == 2:
        if slot == 1 and kind == MARSHAL:
            return 0
        return 1
    if slot == 0:
        return np.int64(CARD_COPIES[kind])
    return 0


@njit(cache=True)
def _action_cards(state) -> int:
    """Action cards a seat owns: 10, or 11 with 2 players (§2.4, §3.3)."""
    total = 0
    for code in range(N_CARD_CODES):
        total += _expected_copies(state, code)
    return total


@njit(cache=True)
def _unreturned_start(state) -> int:
    """First pile index still on the pile: 0 in Schemin', ``resolving`` in Stealin' (§4.5 step 5)."""
    resolving = np.int64(state["resolving"])
    return 0 if resolving == NOBODY else resolving


@njit(cache=True)
def _n_locations(state) -> int:
    """Locations in use: two per car 0..C."""
    return (np.int64(state["n_carriages"]) + 1) * N_LEVELS


@njit(cache=True)
def _plays_per_turn(card: int, turn: int) -> int:
    """Plays one seat makes in a turn: 2 in a speed-up turn, else 1 (0 past the last icon) (§2.7)."""
    icon = ROUND_CARD_TURNS[card, turn]
    if icon == TURN_NONE:
        return 0
    return 2 if icon == TURN_SPEEDUP else 1


@njit(cache=True)
def _plays_before(state, card: int, turn: int) -> int:
    """Plays of all seats in the turns before ``turn`` of a round card (§4.3): the pile cannot hold more."""
    plays = 0
    for t in range(turn):
        plays += np.int64(state["num_players"]) * _plays_per_turn(card, t)
    return plays


# ---- the checks, in code order ---------------------------------------------------
@njit(cache=True)
def _check_setup(state) -> int:
    """Codes 1-3: sizes that every other check relies on (§0.2, §3.2, §3.3)."""
    n = np.int64(state["num_players"])
    if n < MIN_PLAYERS or n > MAX_PLAYERS:
        return 1
    two = n == 2
    if (state["n_bandits"] != (4 if two else n) or state["bandits_per_seat"] != (2 if two else 1)
            or state["n_carriages"] != (4 if two else n)):
        return 2
    if two and not state["expert"]:
        return 3
    return OK


@njit(cache=True, inline="always")
def _distinct_ids(ids: np.ndarray, first: int, count: int, limit: int) -> bool:
    """``ids[first:count]`` are distinct ids in ``0..limit-1`` and every later entry is ``NOBODY``."""
    for i in range(first, ids.shape[0]):
        x = np.int64(ids[i])
        if i >= count:
            if x != NOBODY:
                return False
        elif x < 0 or x >= limit:
            return False
        else:
            for j in range(first, i):
                if ids[j] == x:
                    return False
    return True


@njit(cache=True)
def _check_train_and_bandits(state) -> int:
    """Codes 4-11: cars, characters, positions, the marshal rule, simple counts (§2, §5)."""
    n_cars = np.int64(state["n_carriages"]) + 1
    if state["car_type"][0] != LOCOMOTIVE_TYPE:
        return 4
    if not _distinct_ids(state["car_type"], 1, n_cars, N_CARRIAGE_TYPES):
        return 4
    n_bandits = np.int64(state["n_bandits"])
    if not _distinct_ids(state["character"], 0, n_bandits, N_CHARACTERS):
        return 5
    for b in range(n_bandits):
        car = np.int64(state["bandit_car"][b])
        level = np.int64(state["bandit_level"][b])
        if car < 0 or car >= n_cars or (level != IN and level != ROOF):
            return 6
    m = np.int64(state["marshal_car"])
    if m < 0 or m >= n_cars:
        return 7
    for b in range(n_bandits):
        if state["bandit_car"][b] == m and state["bandit_level"][b] == IN:
            return 8
    for b in range(n_bandits):
        if state["bullets_left"][b] < 0 or state["bullets_left"][b] > BULLETS_PER_BANDIT:
            return 9
    for b in range(MAX_BANDITS):
        if (state["bullets_received"][b] < 0 or state["jewels_held"][b] < 0
                or state["strongboxes_held"][b] < 0 or state["ransoms"][b] < 0):
            return 10
    for loc in range(N_LOCATIONS):
        if state["floor_jewels"][loc] < 0 or state["floor_strongboxes"][loc] < 0:
            return 10
    for loc in range(_n_locations(state), N_LOCATIONS):
        if state["floor_jewels"][loc] != 0 or state["floor_strongboxes"][loc] != 0:
            return 11
    for b in range(n_bandits, MAX_BANDITS):
        if state["jewels_held"][b] != 0 or state["strongboxes_held"][b] != 0 or state["ransoms"][b] != 0:
            return 11
    return OK


@njit(cache=True)
def _check_rounds_and_decision(state) -> int:
    """Codes 12-16: round deck, first player, pending decision, cap, turn (§3.1, §4.3, §11.3)."""
    n = np.int64(state["num_players"])
    rnd = np.int64(state["round"])
    if rnd < 0 or rnd >= N_ROUNDS:
        return 12
    group = SMALL_GROUP_CARDS if n <= 4 else LARGE_GROUP_CARDS
    for r in range(N_ROUNDS - 1):
        card = np.int64(state["round_deck"][r])
        if card < group[0] or card > group[len(group) - 1]:
            return 12
        for q in range(r):
            if state["round_deck"][q] == card:
                return 12
    station = np.int64(state["round_deck"][N_ROUNDS - 1])
    if station < STATION_CARDS[0] or station > STATION_CARDS[len(STATION_CARDS) - 1]:
        return 12
    if state["first_player"] < 0 or state["first_player"] >= n:
        return 13
    decision = np.int64(state["decision"])
    current = np.int64(state["current"])
    if state["done"]:
        if decision != DEC_NONE or current != NOBODY:
            return 14
    elif decision <= DEC_NONE or decision >= N_DECISIONS or current < 0 or current >= n:
        return 14
    if state["n_decisions"] < 0 or state["n_decisions"] > state["max_decisions"]:
        return 15
    card = np.int64(state["round_deck"][rnd])
    turn = np.int64(state["turn"])
    position = np.int64(state["turn_position"])
    play = np.int64(state["play_in_turn"])
    pile_size = np.int64(state["pile_size"])
    if decision == DEC_PLAN:
        if turn < 0 or turn >= MAX_TURNS or ROUND_CARD_TURNS[card, turn] == TURN_NONE:
            return 16
        if position < 0 or position >= n:
            return 16
        if play < 0 or play > 1 or (play == 1 and ROUND_CARD_TURNS[card, turn] != TURN_SPEEDUP):
            return 16
        if pile_size > _plays_before(state, card, turn) + position * _plays_per_turn(card, turn) + play:
            return 16
    elif decision == DEC_BULLETS:
        if pile_size != 0:
            return 16
    elif pile_size > _plays_before(state, card, MAX_TURNS):
        return 16
    return OK


@njit(cache=True)
def _check_purses(state) -> int:
    """Codes 17-20: purse tokens, values, the dealt ids, who knows which value (§10.3)."""
    n_bandits = np.int64(state["n_bandits"])
    n_locations = _n_locations(state)
    for i in range(N_PURSES):
        loc = np.int64(state["purse_location"][i])
        on_train = 0 <= loc < n_locations
        on_bandit = PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + n_bandits
        if not (on_train or on_bandit or loc == PURSE_IN_BOX or loc == PURSE_REMOVED):
            return 17
    # permutation of PURSE_VALUES: compare the sorted multisets by counting per value
    for i in range(N_PURSES):
        v = state["purse_value"][i]
        wanted = 0
        have = 0
        for j in range(N_PURSES):
            if PURSE_VALUES[j] == v:
                wanted += 1
            if state["purse_value"][j] == v:
                have += 1
        if wanted != have:
            return 18
    for i in range(n_bandits):
        if state["purse_value"][i] != PURSE_VALUES[0]:
            return 18
    dealt = n_bandits
    for c in range(1, np.int64(state["n_carriages"]) + 1):
        dealt += np.int64(CARRIAGE_PURSES[np.int64(state["car_type"][c])])
    for i in range(N_PURSES):
        in_box = state["purse_location"][i] == PURSE_IN_BOX
        if in_box != (i >= dealt):
            return 19
    n = np.int64(state["num_players"])
    bps = np.int64(state["bandits_per_seat"])
    all_ids = (np.int64(1) << N_PURSES) - 1
    for s in range(MAX_PLAYERS):
        known = np.int64(state["purse_known"][s])
        if s >= n:
            if known != 0:
                return 20
        elif known & ~all_ids:
            return 20
    for i in range(N_PURSES):
        loc = np.int64(state["purse_location"][i])
        if PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + n_bandits:
            seat = (loc - PURSE_ON_BANDIT) // bps
            if not ((np.int64(state["purse_known"][seat]) >> i) & 1):
                return 20
    return OK


@njit(cache=True)
def _check_loot_and_bullets(state) -> int:
    """Codes 21-24: jewels, strongboxes and bullets conserved (§2.1, §5.3, §6.3, §8.4)."""
    n_bandits = np.int64(state["n_bandits"])
    jewels = 0
    boxes = 0
    for loc in range(N_LOCATIONS):
        jewels += np.int64(state["floor_jewels"][loc])
        boxes += np.int64(state["floor_strongboxes"][loc])
    for b in range(n_bandits):
        jewels += np.int64(state["jewels_held"][b])
        boxes += np.int64(state["strongboxes_held"][b])
    printed = 0
    for c in range(1, np.int64(state["n_carriages"]) + 1):
        printed += np.int64(CARRIAGE_JEWELS[np.int64(state["car_type"][c])])
    if jewels != printed:
        return 21
    if boxes != (N_STRONGBOXES if state["second_strongbox_placed"] else 1):
        return 22
    supply = np.int64(state["neutral_supply"])
    if supply < 0 or supply > N_NEUTRAL_BULLETS or (state["supply_removed"] and supply != 0):
        return 23
    shots = 0
    received = 0
    for b in range(n_bandits):
        shots += BULLETS_PER_BANDIT - np.int64(state["bullets_left"][b])
        received += np.int64(state["bullets_received"][b])
    for b in range(n_bandits, MAX_BANDITS):
        received += np.int64(state["bullets_received"][b])
    neutral = received - shots
    if state["supply_removed"]:
        if neutral < N_NEUTRAL_BULLETS + 1 - n_bandits or neutral > N_NEUTRAL_BULLETS:
            return 24
    elif neutral != N_NEUTRAL_BULLETS - supply:
        return 24
    return OK


@njit(cache=True)
def _check_card_places(state) -> int:
    """Codes 25-30: deck, counts, expert-only places, set-aside cards, the pile (§3.4, §4.3-§4.5)."""
    n = np.int64(state["num_players"])
    for s in range(MAX_PLAYERS):
        size = np.int64(state["deck_size"][s])
        if size < 0 or size > MAX_DECK or (s >= n and size != 0):
            return 25
        for j in range(size):
            code = np.int64(state["deck"][s, j])
            if code < 0 or code >= N_CARD_KINDS_HELD:
                return 25
    aside = 0
    for k in range(N_CARD_KINDS_HELD):
        if state["keep_aside"][k] < 0:
            return 26
        aside += np.int64(state["keep_aside"][k])
        for s in range(MAX_PLAYERS):
            if state["hand"][s, k] < 0 or state["discard"][s, k] < 0:
                return 26
            if s >= n and (state["hand"][s, k] != 0 or state["discard"][s, k] != 0):
                return 26
    if not state["expert"]:
        if aside != 0:
            return 27
        for s in range(MAX_PLAYERS):
            if state["known_bullets_on_top"][s] != 0:
                return 27
            for k in range(N_CARD_KINDS_HELD):
                if state["discard"][s, k] != 0:
                    return 27
    if aside != 0 and state["decision"] != DEC_KEEP:
        return 28
    pile_size = np.int64(state["pile_size"])
    if pile_size < 0 or pile_size > MAX_PILE:
        return 29
    for i in range(pile_size):
        owner = np.int64(state["pile_owner"][i])
        card = np.int64(state["pile_card"][i])
        if owner < 0 or owner >= n or card < 0 or card >= N_CARD_CODES:
            return 29
    resolving = np.int64(state["resolving"])
    if resolving != NOBODY and (resolving < 0 or resolving >= pile_size):
        return 30
    return OK


@njit(cache=True)
def _seat_card_counts(state, seat: int, keeping: int, first_on_pile: int, counts) -> None:
    """``counts[code]``: the cards of ``code`` a seat has in hand, deck, discard, set aside and on the unresolved
    pile (one pass over each place; codes 25 and 29 have checked that every code there is in range)."""
    for code in range(N_CARD_KINDS_HELD):
        counts[code] = np.int64(state["hand"][seat, code]) + np.int64(state["discard"][seat, code])
        if seat == keeping:
            counts[code] += np.int64(state["keep_aside"][code])
    for j in range(np.int64(state["deck_size"][seat])):
        counts[np.int64(state["deck"][seat, j])] += 1
    for i in range(first_on_pile, np.int64(state["pile_size"])):
        if state["pile_owner"][i] == seat:
            counts[np.int64(state["pile_card"][i])] += 1


@njit(cache=True)
def _check_card_counts(state) -> int:
    """Codes 31-33: every card of a seat in exactly one place; known bullets on top (§2.4, §4.5, §6.7, §10.1)."""
    n = np.int64(state["num_players"])
    bps = np.int64(state["bandits_per_seat"])
    keeping = np.int64(state["current"]) if state["decision"] == DEC_KEEP else NOBODY
    first_on_pile = _unreturned_start(state)
    counts = np.zeros((MAX_PLAYERS, N_CARD_KINDS_HELD), dtype=np.int64)
    for s in range(n):
        _seat_card_counts(state, s, keeping, first_on_pile, counts[s])
        for k in range(N_CARD_CODES):
            if counts[s, k] != _expected_copies(state, k):
                return 31
    action_cards = _action_cards(state)
    for s in range(n):
        received = 0
        for t in range(bps):
            received += np.int64(state["bullets_received"][s * bps + t])
        if received > MAX_DECK - action_cards:
            return 32
        if counts[s, BULLET_CARD] != received:
            return 32
    for s in range(MAX_PLAYERS):
        top = np.int64(state["known_bullets_on_top"][s])
        size = np.int64(state["deck_size"][s])
        if top < 0 or top > size:
            return 33
        for j in range(size - top, size):
            if state["deck"][s, j] != BULLET_CARD:
                return 33
    return OK


@njit(cache=True)
def _check_pending(state) -> int:
    """Codes 34-36: pending bandits, standard-rules hands, the scripted-chance queue (§4.4, §11.3)."""
    n_bandits = np.int64(state["n_bandits"])
    for b in (np.int64(state["acting_bandit"]), np.int64(state["victim"])):
        if b != NOBODY and (b < 0 or b >= n_bandits):
            return 34
    if not state["expert"] and state["decision"] >= DEC_MOVE_DEST:
        for s in range(MAX_PLAYERS):
            for k in range(N_CARD_KINDS_HELD):
                if state["hand"][s, k] != 0:
                    return 35
    n_forced = np.int64(state["n_forced"])
    pos = np.int64(state["forced_pos"])
    if n_forced < 0 or n_forced > N_FORCED or pos < 0 or pos > n_forced:
        return 36
    for j in range(N_FORCED):
        if state["forced"][j] < 0:
            return 36
    return OK


@njit(cache=True)
def first_violation(state) -> int:
    """Code of the first invariant that one record breaks, 0 if none (see ``INVARIANT_MESSAGES``)."""
    code = _check_setup(state)
    if code == OK:
        code = _check_train_and_bandits(state)
    if code == OK:
        code = _check_rounds_and_decision(state)
    if code == OK:
        code = _check_purses(state)
    if code == OK:
        code = _check_loot_and_bullets(state)
    if code == OK:
        code = _check_card_places(state)
    if code == OK:
        code = _check_card_counts(state)
    if code == OK:
        code = _check_pending(state)
    return code


@njit(cache=True, parallel=True)
def check_invariants(states: np.ndarray, out: np.ndarray) -> None:
    """Write ``out[b]`` = code of the first invariant game ``b`` breaks, 0 when consistent."""
    for b in prange(states.shape[0]):
        out[b] = first_violation(states[b])


# ---- validate_state: plain Python, one record ------------------------------------------
LAST_CAR = Bound("C", lambda state: int(state["n_carriages"]), ("n_carriages",))  # the last carriage's index
LAST_BANDIT = Bound("B-1", lambda state: int(state["n_bandits"]) - 1, ("n_bandits",))
PRESENT_BANDITS = leading_rows("n_bandits")
_SEATS = np.arange(MAX_PLAYERS)
_SEAT_CARDS = Bound("", lambda state: np.where(_SEATS < int(state["num_players"]), 127, 0), ("num_players",))


def _round_deck_limits(state, end: int) -> np.ndarray:
    """Lowest (``end`` 0) or highest (-1) round card of each slot: the player count's group, then a station."""
    group = SMALL_GROUP_CARDS if int(state["num_players"]) <= 4 else LARGE_GROUP_CARDS
    return np.array([int(group[end])] * (N_ROUNDS - 1) + [int(STATION_CARDS[end])])


# Every field a kernel uses as an index or a loop bound, in checking order (``core.fields``); the sizes,
# car types, absent bandits and purses are checked by ``_structure_errors``.
FIELD_RANGES = {
    "character": (0, N_CHARACTERS - 1, PRESENT_BANDITS),
    "bandit_car": (0, LAST_CAR, PRESENT_BANDITS),
    "bandit_level": (IN, ROOF, PRESENT_BANDITS),
    "bullets_left": (0, BULLETS_PER_BANDIT, PRESENT_BANDITS),
    "bullets_received": (0, MAX_DECK - N_ACTION_CARDS_MIN),
    "jewels_held": (0, 127), "strongboxes_held": (0, 127), "ransoms": (0, 127),
    "marshal_car": (0, LAST_CAR),
    "floor_jewels": (0, 127), "floor_strongboxes": (0, 127),
    "neutral_supply": (0, N_NEUTRAL_BULLETS),
    "round_deck": (Bound("", lambda state: _round_deck_limits(state, 0), ("num_players",)),
                   Bound("", lambda state: _round_deck_limits(state, -1), ("num_players",))),
    "round": (0, N_ROUNDS - 1),
    "first_player": (0, LAST_SEAT),
    "turn": (0, MAX_TURNS),
    "turn_position": (0, LAST_SEAT),
    "play_in_turn": (0, 1),
    "deck_size": (0, Bound("", lambda state: np.where(_SEATS < int(state["num_players"]), MAX_DECK, 0),
                           ("num_players",))),
    "deck": (0, N_CARD_KINDS_HELD - 1, first("deck_size")),
    "known_bullets_on_top": (0, Bound("", lambda state: np.maximum(state["deck_size"], 0), ("deck_size",))),
    "hand": (0, _SEAT_CARDS), "discard": (0, _SEAT_CARDS),
    "keep_aside": (0, 127),
    "pile_size": (0, MAX_PILE),
    "pile_owner": (0, LAST_SEAT, first("pile_size")),
    "pile_card": (0, N_CARD_CODES - 1, first("pile_size")),
    "pile_down": (0, 1, first("pile_size")),
    "resolving": (NOBODY, field_bound("pile_size", -1)),
    "decision": (DEC_NONE, N_DECISIONS - 1),
    "current": (NOBODY, LAST_SEAT),
    "acting_bandit": (NOBODY, LAST_BANDIT),
    "victim": (NOBODY, LAST_BANDIT),
    "cursor": (0, MAX_BANDITS),
    "n_forced": (0, N_FORCED),
    "forced_pos": (0, Bound("", lambda state: int(state["n_forced"]), ("n_forced",))),
    "forced": (0, INT32_MAX),
    "max_decisions": (1, 2**15 - 1),
    "n_decisions": (0, field_bound("max_decisions")),
}


def _size_errors(state) -> list[str]:
    """The bandit, seat-bandit and carriage counts the player count implies (§2.1, §3.1)."""
    n = int(state["num_players"])
    n_bandits, bps, n_carriages = (4, 2, 4) if n == 2 else (n, 1, n)
    return [f"{name} = {int(state[name])} must be {want} with num_players = {n}"
            for name, want in (("n_bandits", n_bandits), ("bandits_per_seat", bps), ("n_carriages", n_carriages))
            if int(state[name]) != want]


def _structure_errors(state) -> list[str]:
    """What a range cannot say: the locomotive and unused cars, absent bandits, purse values and places."""
    errors = []
    last, n_bandits = int(state["n_carriages"]), int(state["n_bandits"])
    for c in range(MAX_CARS):
        t = int(state["car_type"][c])
        if c == 0 and t != LOCOMOTIVE_TYPE:
            errors.append(f"car_type[0] = {t} must be LOCOMOTIVE_TYPE = {LOCOMOTIVE_TYPE}")
        elif 0 < c <= last and not 0 <= t <= N_CARRIAGE_TYPES - 1:
            errors.append(f"car_type[{c}] = {t} is outside 0..{N_CARRIAGE_TYPES - 1}")
        elif c > last and t != NOBODY:
            errors.append(f"car_type[{c}] = {t} must be NOBODY (-1): car {c} is beyond C={last}")
    for b in range(n_bandits, MAX_BANDITS):
        if int(state["character"][b]) != NOBODY:
            errors.append(f"character[{b}] = {int(state['character'][b])} must be NOBODY (-1): "
                          f"bandit {b} is absent (B={n_bandits})")
        for name in ("jewels_held", "strongboxes_held", "ransoms"):
            if int(state[name][b]) != 0:
                errors.append(f"{name}[{b}] = {int(state[name][b])} must be 0: bandit {b} is absent (B={n_bandits})")
    values = sorted(set(PURSE_VALUES.tolist()))
    for i in range(N_PURSES):
        v = int(state["purse_value"][i])
        if v not in values:
            errors.append(f"purse_value[{i}] = {v} is not a purse value {values}")
        loc = int(state["purse_location"][i])
        if not (0 <= loc < (last + 1) * N_LEVELS or PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + n_bandits
                or loc in (PURSE_IN_BOX, PURSE_REMOVED)):
            errors.append(f"purse_location[{i}] = {loc} is not a train location 0..{(last + 1) * N_LEVELS - 1}, "
                          f"a bandit {PURSE_ON_BANDIT}..{PURSE_ON_BANDIT + n_bandits - 1}, "
                          f"the box {PURSE_IN_BOX} or removed {PURSE_REMOVED}")
    for s in range(MAX_PLAYERS):
        known = int(state["purse_known"][s])
        if known >> N_PURSES:
            errors.append(f"purse_known[{s}] = {known:#x} has bits beyond the {N_PURSES} purses")
    return errors


def _range_errors(state) -> list[str]:
    """Every field a kernel may use as an index or bound: the player count, the sizes it implies, the rest."""
    errors = range_errors(state, {"num_players": (MIN_PLAYERS, MAX_PLAYERS)})  # every other bound depends on it
    errors = errors or _size_errors(state)
    return errors or _structure_errors(state) + range_errors(state, FIELD_RANGES)


def validate_state(state) -> list[str]:
    """Every problem of one record, as readable messages; ``[]`` when it is a consistent game.

    Range checks of every field first (a kernel indexes arrays with them
    unchecked); only if they all pass, the invariants of ``check_invariants``.
    ``state`` is a record or a ``(1,)`` array of ``STATE_DTYPE``.
    """
    batch = np.array(state).reshape(1).copy()
    errors = _range_errors(batch[0])
    if errors:
        return errors
    codes = np.zeros(1, dtype=np.int32)
    serial(check_invariants)(batch, codes)  # one record: the serial build (core.kernels.serial)
    code = int(codes[0])
    return [] if code == OK else [f"invariant {code}: {INVARIANT_MESSAGES[code]}"]
