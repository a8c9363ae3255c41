"""Consistency checks of a Wild West Express record: invariants of random play and saved-state validation.

``check_invariants(states, out)`` writes, per record, 0 or the code of the first
broken invariant (``INVARIANT_MESSAGES[code]`` says which); ``validate_state``
checks one record field by field before any kernel may see it (numba kernels
do not check bounds) and then runs the same invariants.

What is checked (spec sections in the messages): the pending decision agrees
with ``done``/``current``; cash is never negative (§0.2); at most six trains
per player, each on the board, small trains with an empty second cargo slot,
cargo codes valid (§4.1, §17.5); desperados and sheriffs on the board (§9,
§12); station owners are seats (§3.3); dynamite tokens on the board plus the
supply are the 18 of the box with component limits on (§2.1, §11), never in a
city or under a sheriff, in groups of at most 3, at most 3 bought per turn
(§11.1); every telegram card is in exactly one place: the deck, a player's
hand, a competition slot, or being played, queued or just drawn (§13); the dice
are sorted and in range (§6.4); at most 12 extra moves and 1000 decisions in
the turn (§13.3, §14.4). Money cannot be checked for conservation: the bank is unlimited
(§0.2), so players' cash changes by rule, not by transfer alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .data import (CARGO_EMPTY, DEC_NONE, DIE_SIDES, DYNAMITE_MAX_GROUP, DYNAMITE_PER_TURN, DYNAMITE_SUPPLY, IS_CITY,
                   MAX_DEGREE, MAX_DESPERADOS, MAX_EXTRA_MOVES, MAX_PLAYERS, MAX_TRAINS, MAX_TURN_DECISIONS, N_CARDS,
                   N_CARGO, N_CARGO_CODES, N_CITIES, N_COMPETITION_SLOTS, N_DICE, N_SHERIFFS, N_SPACES, NEIGHBOURS,
                   NO_CARD, NO_SPACE)
from .state import NOBODY, STATE_DTYPE

OK = 0
INVARIANT_MESSAGES = (
    "ok",
    "num_players outside 2..5",
    "decision / current / done disagree: a finished game has DEC_NONE and current = -1, a live one a seat (§17)",
    "cash negative, or cash held by an absent seat (§0.2)",
    "train_exists must be 0/1, and an absent seat has no trains (§0.2)",
    "a train in play is off the board, or a free slot holds a position (§7)",
    "a train in play has an invalid cargo code, or a small train uses its second cargo slot (§4.1)",
    "n_desperados outside 0..3, or a desperado's position disagrees with n_desperados (§9)",
    "a sheriff is outside the board (§12)",
    "city_owner must be a present seat or -1 (§3.3)",
    "dynamite flags must be 0/1; with component limits, tokens on the board + supply != 18 (§2.1, §11)",
    "telegram cards: a card is in more than one place, or deck_size is out of range (§13)",
    "dice out of range, or not sorted from highest to lowest (§6.4)",
    "n_decisions exceeds max_decisions",
    "dynamite on a city or under a sheriff, a group of more than 3 tokens, or more than 3 bought this turn (§11.1)",
    "telegram cards: not every one of the 52 cards is somewhere (deck, hand, slot, or being played) (§13.1)",
    "per-turn counters out of range: extra moves 0..12 (§13.3), decisions 0..1000 (§14.4)",
)


@njit(cache=True)
def _check_decision(state) -> int:
    n = np.int64(state["num_players"])
    if n < 2 or n > MAX_PLAYERS:
        return 1
    if state["done"]:
        if state["decision"] != DEC_NONE or state["current"] != NOBODY:
            return 2
    elif state["decision"] == DEC_NONE or state["current"] < 0 or state["current"] >= n:
        return 2
    if state["n_decisions"] > state["max_decisions"]:
        return 13
    if state["extra_moves"] < 0 or state["extra_moves"] > MAX_EXTRA_MOVES:
        return 16
    if state["turn_decisions"] < 0 or state["turn_decisions"] > MAX_TURN_DECISIONS:
        return 16
    return OK


@njit(cache=True)
def _check_players_and_trains(state) -> int:
    n = np.int64(state["num_players"])
    for s in range(MAX_PLAYERS):
        if state["cash"][s] < 0 or (s >= n and state["cash"][s] != 0):
            return 3
        for t in range(MAX_TRAINS):
            exists = state["train_exists"][s, t]
            if exists < 0 or exists > 1 or (s >= n and exists):
                return 4
            pos = state["train_pos"][s, t]
            if exists and (pos < 0 or pos >= N_SPACES):
                return 5
            if not exists and pos != NO_SPACE:
                return 5
            if exists:
                for k in range(N_CARGO):
                    code = state["train_cargo"][s, t, k]
                    if code < CARGO_EMPTY or code >= N_CARGO_CODES:
                        return 6
                if not state["train_large"][s, t] and state["train_cargo"][s, t, 1] != CARGO_EMPTY:
                    return 6
        n_desp = state["n_desperados"][s]
        if n_desp < 0 or n_desp > MAX_DESPERADOS:
            return 7
        for d in range(MAX_DESPERADOS):
            pos = state["desp_pos"][s, d]
            placed_by_now = state["round"] > 0  # during setup the start desperado is not placed yet (§5)
            if d < n_desp and (pos >= N_SPACES or pos < NO_SPACE or (pos == NO_SPACE and placed_by_now)):
                return 7
            if d >= n_desp and pos != NO_SPACE:
                return 7
    return OK


@njit(cache=True)
def _check_board(state) -> int:
    n = np.int64(state["num_players"])
    for k in range(N_SHERIFFS):
        if state["sheriff_pos"][k] < NO_SPACE or state["sheriff_pos"][k] >= N_SPACES:
            return 8
    for c in range(N_CITIES):
        if state["city_owner"][c] < NOBODY or state["city_owner"][c] >= n:
            return 9
    on_board = 0
    for x in range(N_SPACES):
        if state["dynamite"][x] < 0 or state["dynamite"][x] > 1:
            return 10
        on_board += state["dynamite"][x]
    if state["dynamite_supply"] < 0:
        return 10
    if state["component_limits"] and on_board + state["dynamite_supply"] != DYNAMITE_SUPPLY:
        return 10
    for i in range(N_DICE):
        if state["dice"][i] < 0 or state["dice"][i] > DIE_SIDES:
            return 12
        if i > 0 and state["dice"][i] > state["dice"][i - 1]:
            return 12
    return _check_dynamite_limits(state)


@njit(cache=True)
def _check_dynamite_limits(state) -> int:
    """No token in a city or under a sheriff, groups of at most 3, at most 3 bought per turn (§11.1, §12)."""
    for s in range(MAX_PLAYERS):
        if state["dynamite_bought"][s] < 0 or state["dynamite_bought"][s] > DYNAMITE_PER_TURN:
            return 14
    for k in range(N_SHERIFFS):
        x = state["sheriff_pos"][k]
        if x >= 0 and state["dynamite"][x]:
            return 14
    seen = np.zeros(N_SPACES, dtype=np.bool_)
    stack = np.empty(N_SPACES, dtype=np.int64)
    for x in range(N_SPACES):
        if not state["dynamite"][x] or seen[x]:
            continue
        if IS_CITY[x]:
            return 14
        size, top = 0, 1  # the connected group of x, by a walk over adjacent tokens
        stack[0] = x
        seen[x] = True
        while top > 0:
            top -= 1
            y = stack[top]
            size += 1
            for i in range(MAX_DEGREE):
                z = NEIGHBOURS[y, i]
                if z >= 0 and state["dynamite"][z] and not seen[z]:
                    seen[z] = True
                    stack[top] = z
                    top += 1
        if size > DYNAMITE_MAX_GROUP:
            return 14
    return OK


@njit(cache=True)
def _check_cards(state) -> int:
    size = np.int64(state["deck_size"])
    if size < 0 or size > N_CARDS or state["never_drawn"] < 0 or state["never_drawn"] > size:
        return 11
    places = np.zeros(N_CARDS, dtype=np.int64)
    for i in range(size):
        card = state["deck"][i]
        if card < 0 or card >= N_CARDS:
            return 11
        places[card] += 1
    for j in range(N_COMPETITION_SLOTS):
        card = state["comp_card"][j]
        if card != NO_CARD:
            if card < 0 or card >= N_CARDS:
                return 11
            places[card] += 1
    for card in range(N_CARDS):
        holder = state["card_holder"][card]
        if holder < NOBODY or holder >= state["num_players"]:
            return 11
        if holder != NOBODY:
            places[card] += 1
        if places[card] > 1:
            return 11
    for card in (state["card_active"], state["move_card"], state["queue_card"], state["drawn_card"]):
        if card != NO_CARD:  # being played, queued or just drawn: in no other place
            if card < 0 or card >= N_CARDS or places[card] > 0:
                return 11
            places[card] += 1
    for card in range(N_CARDS):
        if places[card] != 1:
            return 15
    return OK


@njit(cache=True)
def first_violation(state) -> int:
    """Code of the first invariant that one record breaks, 0 if none."""
    code = _check_decision(state)
    if code == OK:
        code = _check_players_and_trains(state)
    if code == OK:
        code = _check_board(state)
    if code == OK:
        code = _check_cards(state)
    return code


@njit(cache=True, parallel=True)
def check_invariants(states: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = 0 if record ``b`` is consistent, else the code of its first broken invariant."""
    for b in prange(states.shape[0]):
        out[b] = first_violation(states[b])


def validate_state(state) -> list[str]:
    """Every problem of one record (a record or a batch of one), empty if it is a consistent game state."""
    record = state[0] if isinstance(state, np.ndarray) and state.shape == (1,) else state
    if record.dtype != STATE_DTYPE:
        return ["not a Wild West Express record"]
    n = int(record["num_players"])
    if not 2 <= n <= MAX_PLAYERS:
        return [f"num_players = {n} is outside 2..{MAX_PLAYERS}"]
    errors = []
    if not 0 <= int(record["forced_pos"]) <= int(record["n_forced"]) <= len(record["forced"]):
        errors.append("forced_pos / n_forced out of range")
    code = int(first_violation(record))
    if code:
        errors.append(f"invariant {code}: {INVARIANT_MESSAGES[code]}")
    return errors
