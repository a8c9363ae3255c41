"""Phase A: the turn-order auction (spec §6).

Bidding goes round the previous turn order from its position 1, skipping
players who dropped out. A raise makes the bidder's committed bid ``high + k``
(k from ``RAISE_STEPS``, the new total at most his cash); a drop sends him to
the highest-numbered free position. The last bidder left wins position 1 at
once; after 60 decisions the players still bidding take the best free
positions by committed bid (ties: earlier in the bidding order first, §6.2).
Everybody pays his committed bid to the bank when the auction ends.

Decisions where the spec is silent: none beyond §6 (the guard closes the
auction right after the 60th decision, after a drop has been checked for a
single remaining bidder).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import A_PASS, A_RAISE, DEC_AUCTION_BID, MAX_AUCTION_DECISIONS, MAX_PLAYERS, PHASE_AUCTION, RAISE_STEPS
from .eventlog import (EV_AUCTION_STARTED, EV_BID_PAID, EV_BID_RAISED, EV_POSITION_TAKEN, TAKEN_DROPPED_OUT,
                       TAKEN_GUARD, TAKEN_LAST_BIDDER)
from .pieces import pay_bank
from .state import NOBODY


@njit(cache=True)
def begin_auction(state: np.void) -> None:
    """Every seat bids again with a committed bid of 0, in the previous turn order (§6.1)."""
    n = np.int64(state["num_players"])
    for i in range(MAX_PLAYERS):
        state["bidding_order"][i] = state["turn_order"][i]
        state["bid"][i] = 0
        state["bidding"][i] = 1 if i < n else 0
        state["new_order"][i] = NOBODY
    state["high_bid"] = 0
    state["high_bidder"] = NOBODY
    state["auction_decisions"] = 0
    state["bidder_index"] = 0
    state["phase"] = PHASE_AUCTION
    state["decision"] = DEC_AUCTION_BID
    state["current"] = state["bidding_order"][0]
    emit(state, EV_AUCTION_STARTED, EVERYONE, state["round"], state["bidding_order"][0], 0, 0)


@njit(cache=True, inline="always")
def raise_legal(state: np.void, p: int, i: int) -> bool:
    """RAISE_k is legal iff the new total ``high + k`` is at most the bidder's cash (§6.1)."""
    return np.int64(state["high_bid"]) + np.int64(RAISE_STEPS[i]) <= np.int64(state["cash"][p])


@njit(cache=True, inline="always")
def apply_bid(state: np.void, a: int) -> bool:
    """Apply a raise or a drop of the current bidder; True when the auction has ended and been paid (§6)."""
    p = np.int64(state["current"])
    if a == A_PASS:
        _drop_out(state, p)
        if _n_bidding(state) == 1:
            _last_bidder_wins(state)
            _pay_bids(state)
            return True
    else:
        new_bid = np.int64(state["high_bid"]) + np.int64(RAISE_STEPS[a - A_RAISE])
        state["bid"][p] = new_bid
        state["high_bid"] = new_bid
        state["high_bidder"] = p
        emit(state, EV_BID_RAISED, EVERYONE, p, RAISE_STEPS[a - A_RAISE], new_bid, 0)
    state["auction_decisions"] += 1
    if state["auction_decisions"] >= MAX_AUCTION_DECISIONS:
        _close_by_guard(state)
        _pay_bids(state)
        return True
    _next_bidder(state)
    return False


@njit(cache=True, inline="always")
def _drop_out(state: np.void, p: int) -> None:
    """A dropping player takes the highest-numbered free position of the new order (§6.1)."""
    state["bidding"][p] = 0
    for pos in range(np.int64(state["num_players"]) - 1, -1, -1):
        if state["new_order"][pos] == NOBODY:
            state["new_order"][pos] = p
            emit(state, EV_POSITION_TAKEN, EVERYONE, p, pos + 1, state["bid"][p], TAKEN_DROPPED_OUT)
            return


@njit(cache=True, inline="always")
def _n_bidding(state: np.void) -> int:
    n = 0
    for p in range(MAX_PLAYERS):
        n += state["bidding"][p]
    return n


@njit(cache=True, inline="always")
def _last_bidder_wins(state: np.void) -> None:
    """The only player still bidding wins position 1 (the last free one), even with a bid of 0 (§6.1)."""
    for p in range(np.int64(state["num_players"])):
        if state["bidding"][p]:
            state["bidding"][p] = 0
            state["new_order"][0] = p
            emit(state, EV_POSITION_TAKEN, EVERYONE, p, 1, state["bid"][p], TAKEN_LAST_BIDDER)


@njit(cache=True, inline="always")
def _close_by_guard(state: np.void) -> None:
    """§6.2: the players still bidding take the best free positions by bid descending, ties by bidding order."""
    n = np.int64(state["num_players"])
    for pos in range(n):
        if state["new_order"][pos] != NOBODY:
            continue
        best, best_bid = -1, -1
        for i in range(n):  # the earliest in the bidding order wins ties (strict >)
            p = np.int64(state["bidding_order"][i])
            if state["bidding"][p] and state["bid"][p] > best_bid:
                best, best_bid = p, np.int64(state["bid"][p])
        state["new_order"][pos] = best
        state["bidding"][best] = 0
        emit(state, EV_POSITION_TAKEN, EVERYONE, best, pos + 1, best_bid, TAKEN_GUARD)


@njit(cache=True, inline="always")
def _next_bidder(state: np.void) -> None:
    """The next player in the bidding order who is still bidding (cyclic)."""
    n = np.int64(state["num_players"])
    i = np.int64(state["bidder_index"])
    for _ in range(n):
        i = (i + 1) % n
        if state["bidding"][state["bidding_order"][i]]:
            break
    state["bidder_index"] = i
    state["current"] = state["bidding_order"][i]


@njit(cache=True)
def _pay_bids(state: np.void) -> None:
    """Every player pays his committed bid to the bank; the new turn order takes effect (§6.1)."""
    for p in range(np.int64(state["num_players"])):
        emit(state, EV_BID_PAID, EVERYONE, p, state["bid"][p], 0, 0)
        pay_bank(state, p, np.int64(state["bid"][p]))
    for pos in range(MAX_PLAYERS):
        state["turn_order"][pos] = state["new_order"][pos]
