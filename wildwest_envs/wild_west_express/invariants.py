"""Consistency checks of a Wild West Express record: invariants of random play and saved-state validation.

``check_invariants(states, out)`` writes, per record, 0 or the code of the first
broken invariant (``INVARIANT_MESSAGES[code]`` says which); ``validate_state``
checks one record field by field before any kernel may see it (numba kernels
do not check bounds: the ranges declared in ``FIELD_RANGES``, ``core.fields``)
and then runs the same invariants.

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
the turn (§13.3, §14.4); every option, seat, space, train slot, card and
procedure field is in its range (so a loaded state can never make a kernel
index out of bounds), a held card is bound to an existing train and a debt has
a creditor; and the pending decision has what it needs (a moving train of the
active seat for TRAIN_STEP / ARRIVAL / TELEGRAM_DRAWN, a personal drawn card,
a card in play for its sub-decisions, a selected sheriff or desperado, rolled
dice for dice moves and desperado moves, and a decision of the turn's phase:
draft and placements in setup only, PRE_ROLL in the pre-roll phase, desperado
moves in the desperado phase). Money: the bank is unlimited (§0.2),
so every payment by or to it is booked in ``bank_paid`` (``pieces.bank_pays`` /
``pay_bank``) and the players' cash must sum to N x $450 + ``bank_paid``:
fees, debts and every other transfer between players conserve money.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.fields import INT32_MAX, LAST_SEAT, Bound, field_bound, range_errors
from .data import (CARD_CLASS, CARGO_EMPTY, CLASS_PERSONAL, DEC_ARRIVAL, DEC_CARD_HIDEOUT_CITY, DEC_CARD_TRAIN,
                   DEC_DESPERADO_STEP, DEC_DRAFT_CITY, DEC_NONE, DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DEC_REHIRE_TARGET,
                   DEC_SELECT_TRAIN, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN, DEC_TRAIN_STEP, DIE_SIDES,
                   DYNAMITE_MAX_GROUP, DYNAMITE_PER_TURN, DYNAMITE_SUPPLY, FREE, IS_CITY, MAX_DESPERADOS,
                   MAX_EXTRA_MOVES, MAX_PLAYERS, MAX_TRAINS, MAX_TURN_DECISIONS, N_CARDS, N_CARGO, N_CARGO_CODES,
                   N_CITIES, N_COMPETITION_SLOTS, N_DECISION_TYPES, N_DICE, N_SHERIFFS, N_SPACES, NO_CARD, NO_SPACE,
                   PHASE_DESPERADO, PHASE_MOVEMENT, PHASE_OVER, PHASE_PRE_ROLL, PHASE_SETUP, START_CASH)
from .dynamite import group_size_if_placed
from .state import LANDING_DONE, LANDING_NONE, NOBODY, RET_LANDING, RET_PRE_ROLL, STATE_DTYPE

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
    "an option, seat, space, slot, card or procedure field is out of its range (§15, §17.5)",
    "the pending decision does not match the procedure in progress (moving train, card, desperado, dice, §17.5)",
    "money: the players' cash is not N x $450 plus what the bank paid (bank_paid): a transfer made or lost it (§0.2)",
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
    for x in range(N_SPACES):
        if state["dynamite"][x]:
            if IS_CITY[x] or group_size_if_placed(state, x) > DYNAMITE_MAX_GROUP:  # the group of x, walked from x
                return 14
    return OK


@njit(cache=True)
def _check_cards(state) -> int:
    """Every card in exactly one place: deck, competition slot, a hand, or in play (52 bits of one word)."""
    size = np.int64(state["deck_size"])
    if size < 0 or size > N_CARDS or state["never_drawn"] < 0 or state["never_drawn"] > size:
        return 11
    seen = np.uint64(0)
    one = np.uint64(1)
    for i in range(size):
        card = np.int64(state["deck"][i])
        if card < 0 or card >= N_CARDS or (seen >> np.uint64(card)) & one:
            return 11
        seen |= one << np.uint64(card)
    for j in range(N_COMPETITION_SLOTS):
        card = np.int64(state["comp_card"][j])
        if card != NO_CARD:
            if card < 0 or card >= N_CARDS or (seen >> np.uint64(card)) & one:
                return 11
            seen |= one << np.uint64(card)
    for card in range(N_CARDS):
        holder = state["card_holder"][card]
        if holder < NOBODY or holder >= state["num_players"]:
            return 11
        if holder != NOBODY:
            if (seen >> np.uint64(card)) & one:
                return 11
            seen |= one << np.uint64(card)
    for card in (state["card_active"], state["move_card"], state["queue_card"], state["drawn_card"]):
        c = np.int64(card)
        if c != NO_CARD:  # being played, queued or just drawn: in no other place
            if c < 0 or c >= N_CARDS or (seen >> np.uint64(c)) & one:
                return 11
            seen |= one << np.uint64(c)
    return OK if seen == (one << np.uint64(N_CARDS)) - one else 15


@njit(cache=True, inline="always")
def _within(value, low: int, high: int) -> bool:
    return low <= value <= high


@njit(cache=True)
def _check_indices(state) -> int:
    """Every option, seat, space, slot and card field in its range, so that no kernel indexes out of bounds."""
    n = np.int64(state["num_players"])
    last_space, last_card = N_SPACES - 1, N_CARDS - 1
    ok = (_within(state["cash_vp_mode"], 0, 1) and _within(state["cap_scoring"], 0, 1)
          and _within(state["victory_target"], 5, 127) and state["max_rounds"] >= 1 and state["expiry_rounds"] >= 0
          and state["dynamite_price"] >= 0 and state["extra_gang_price"] >= 0 and state["max_decisions"] >= 1
          and state["n_decisions"] >= 0 and _within(state["phase"], PHASE_SETUP, PHASE_OVER)
          and _within(state["decision"], DEC_NONE, N_DECISION_TYPES - 1) and _within(state["active"], 0, n - 1)
          and _within(state["start_player"], 0, n - 1) and _within(state["round"], 0, state["max_rounds"])
          and state["turn"] >= 0 and state["setup_step"] >= 0
          and _within(state["drawn_card"], NO_CARD, last_card) and _within(state["move_train"], NOBODY, MAX_TRAINS - 1)
          and state["move_steps"] >= 0 and _within(state["move_card"], NO_CARD, last_card)
          and _within(state["landing_step"], LANDING_NONE, LANDING_DONE)
          and _within(state["landing_space"], NO_SPACE, last_space)
          and _within(state["card_active"], NO_CARD, last_card) and _within(state["card_left"], 0, 2)
          and _within(state["card_return"], RET_PRE_ROLL, RET_LANDING)
          and _within(state["sel_desperado"], NOBODY, MAX_DESPERADOS - 1)
          and _within(state["sel_sheriff"], NOBODY, N_SHERIFFS - 1)
          and _within(state["queue_train"], NOBODY, MAX_TRAINS - 1) and state["queue_steps"] >= 0
          and _within(state["queue_card"], NO_CARD, last_card)
          and _within(state["desp_index"], NOBODY, MAX_DESPERADOS) and _within(state["desp_from"], NO_SPACE, last_space)
          and state["desp_steps"] >= 0)
    if not ok:
        return 17
    if state["move_active"] and state["move_return"] != PHASE_PRE_ROLL and state["move_return"] != PHASE_MOVEMENT:
        return 17
    for p in range(MAX_PLAYERS):
        if not _within(state["hire_used"][p], 0, 1):
            return 17
        for i in range(2):
            if not _within(state["start_city"][p, i], NOBODY, N_CITIES - 1):
                return 17
        for t in range(MAX_TRAINS):
            if not (_within(state["train_from"][p, t], FREE, last_space)
                    and _within(state["train_creditor"][p, t], NOBODY, n - 1)
                    and state["train_wait"][p, t] >= 0 and state["train_debt"][p, t] >= 0
                    and _within(state["train_large"][p, t], 0, 1) and _within(state["train_moved"][p, t], 0, 1)
                    and _within(state["train_armed"][p, t], 0, 1)):
                return 17
            if state["train_debt"][p, t] > 0 and state["train_creditor"][p, t] == NOBODY:
                return 17
    for k in range(N_CARDS):
        holder, bound = np.int64(state["card_holder"][k]), np.int64(state["card_bound"][k])
        if holder == NOBODY and bound != NOBODY:
            return 17
        if holder != NOBODY and (not _within(holder, 0, MAX_PLAYERS - 1) or not _within(bound, 0, MAX_TRAINS - 1)
                                 or not state["train_exists"][holder, bound]):
            return 17
    for j in range(N_COMPETITION_SLOTS):
        if state["comp_countdown"][j] < 0:
            return 17
    return OK


@njit(cache=True)
def _check_pending(state) -> int:
    """The pending decision has the procedure it needs: a moving train, a card, a desperado, rolled dice."""
    phase = np.int64(state["phase"])
    if state["done"]:
        return OK if phase == PHASE_OVER else 18
    dec = np.int64(state["decision"])
    seat = np.int64(state["active"])
    if state["current"] != seat or phase == PHASE_OVER:
        return 18
    in_setup = dec == DEC_DRAFT_CITY or dec == DEC_PLACE_DESPERADO
    if in_setup != (phase == PHASE_SETUP) or (in_setup and state["round"] != 0):
        return 18  # the draft and the placements happen in setup only, and nothing else does (§5)
    n_picks = 2 * np.int64(state["num_players"])
    if (dec == DEC_DRAFT_CITY) != (state["setup_step"] < n_picks) and in_setup:
        return 18
    if dec == DEC_PRE_ROLL and phase != PHASE_PRE_ROLL:
        return 18
    if dec == DEC_SELECT_TRAIN and phase != PHASE_MOVEMENT:
        return 18
    if (dec == DEC_DESPERADO_STEP or dec == DEC_REHIRE_TARGET) != (phase == PHASE_DESPERADO):
        return 18
    if dec == DEC_TRAIN_STEP or dec == DEC_ARRIVAL or dec == DEC_TELEGRAM_DRAWN:
        t = np.int64(state["move_train"])
        if not state["move_active"] or t < 0 or not state["train_exists"][seat, t]:
            return 18
        if dec == DEC_ARRIVAL and (state["landing_space"] < 0 or not IS_CITY[state["landing_space"]]):
            return 18
        if dec == DEC_TELEGRAM_DRAWN and (state["drawn_card"] < 0
                                          or CARD_CLASS[state["drawn_card"]] != CLASS_PERSONAL):
            return 18
    if dec == DEC_SELECT_TRAIN or (dec == DEC_TRAIN_STEP and state["move_dice"]) or dec >= DEC_DESPERADO_STEP:
        if state["dice"][0] < 1:  # rolled before any dice move or desperado move (§6.4)
            return 18
    if dec == DEC_SHERIFF_SPACE and state["sel_sheriff"] < 0:
        return 18
    if DEC_CARD_TRAIN <= dec <= DEC_CARD_HIDEOUT_CITY and state["card_active"] < 0:
        return 18
    if dec == DEC_CARD_HIDEOUT_CITY and not _within(state["sel_desperado"], 0, state["n_desperados"][seat] - 1):
        return 18
    if dec == DEC_DESPERADO_STEP or dec == DEC_REHIRE_TARGET:
        k = np.int64(state["desp_index"])
        if not _within(k, 0, state["n_desperados"][seat] - 1) or state["desp_pos"][seat, k] < 0:
            return 18
    if dec == DEC_PLACE_DESPERADO and (state["start_city"][seat, 0] < 0 or state["start_city"][seat, 1] < 0):
        return 18
    return OK


@njit(cache=True)
def _check_money(state) -> int:
    """Money is conserved except where the bank pays or is paid (booked in ``bank_paid``, §0.2)."""
    n = np.int64(state["num_players"])
    total = np.int64(0)
    for p in range(n):
        total += np.int64(state["cash"][p])
    start = n * START_CASH if state["round"] >= 1 else 0  # the $450 are handed out when setup ends (§5 item 5)
    return OK if total == start + np.int64(state["bank_paid"]) else 19


@njit(cache=True)
def first_violation(state) -> int:
    """Code of the first invariant that one record breaks, 0 if none."""
    code = _check_decision(state)
    if code == OK:
        code = _check_indices(state)
    if code == OK:
        code = _check_pending(state)
    if code == OK:
        code = _check_players_and_trains(state)
    if code == OK:
        code = _check_board(state)
    if code == OK:
        code = _check_cards(state)
    if code == OK:
        code = _check_money(state)
    return code


@njit(cache=True, parallel=True)
def check_invariants(states: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = 0 if record ``b`` is consistent, else the code of its first broken invariant."""
    for b in prange(states.shape[0]):
        out[b] = first_violation(states[b])


_LAST_SPACE, _LAST_CARD = N_SPACES - 1, N_CARDS - 1
# Every option, seat, space, slot, card and procedure field, in checking order (``core.fields``): the readable
# form of invariant 17, which the kernel checks again before it indexes with them
FIELD_RANGES = {
    "num_players": (2, MAX_PLAYERS),
    "n_forced": (0, Bound("", lambda record: len(record["forced"]))), "forced_pos": (0, field_bound("n_forced")),
    "cash_vp_mode": (0, 1), "cap_scoring": (0, 1), "victory_target": (5, 127), "max_rounds": (1, INT32_MAX),
    "expiry_rounds": (0, INT32_MAX), "dynamite_price": (0, INT32_MAX), "extra_gang_price": (0, INT32_MAX),
    "max_decisions": (1, INT32_MAX), "n_decisions": (0, INT32_MAX),
    "phase": (PHASE_SETUP, PHASE_OVER), "decision": (DEC_NONE, N_DECISION_TYPES - 1),
    "active": (0, LAST_SEAT), "start_player": (0, LAST_SEAT), "round": (0, field_bound("max_rounds")),
    "turn": (0, INT32_MAX), "setup_step": (0, INT32_MAX),
    "drawn_card": (NO_CARD, _LAST_CARD), "move_train": (NOBODY, MAX_TRAINS - 1), "move_steps": (0, INT32_MAX),
    "move_card": (NO_CARD, _LAST_CARD), "landing_step": (LANDING_NONE, LANDING_DONE),
    "landing_space": (NO_SPACE, _LAST_SPACE), "card_active": (NO_CARD, _LAST_CARD), "card_left": (0, 2),
    "card_return": (RET_PRE_ROLL, RET_LANDING), "sel_desperado": (NOBODY, MAX_DESPERADOS - 1),
    "sel_sheriff": (NOBODY, N_SHERIFFS - 1), "queue_train": (NOBODY, MAX_TRAINS - 1), "queue_steps": (0, INT32_MAX),
    "queue_card": (NO_CARD, _LAST_CARD), "desp_index": (NOBODY, MAX_DESPERADOS),
    "desp_from": (NO_SPACE, _LAST_SPACE), "desp_steps": (0, INT32_MAX),
    "hire_used": (0, 1), "start_city": (NOBODY, N_CITIES - 1), "train_from": (FREE, _LAST_SPACE),
    "train_creditor": (NOBODY, LAST_SEAT), "train_wait": (0, INT32_MAX), "train_debt": (0, INT32_MAX),
    "train_large": (0, 1), "train_moved": (0, 1), "train_armed": (0, 1),
    "card_holder": (NOBODY, LAST_SEAT), "card_bound": (NOBODY, MAX_TRAINS - 1), "comp_countdown": (0, INT32_MAX),
}


def validate_state(state) -> list[str]:
    """Every problem of one record (a record or a batch of one), empty if it is a consistent game state:
    the declared field ranges first, then the invariants."""
    record = state[0] if isinstance(state, np.ndarray) and state.shape == (1,) else state
    if record.dtype != STATE_DTYPE:
        return ["not a Wild West Express record"]
    errors = range_errors(record, FIELD_RANGES)
    if errors:
        return errors
    code = int(first_violation(record))
    return [f"invariant {code}: {INVARIANT_MESSAGES[code]}"] if code else []
