"""Card movements of one seat: draw deck, hand, discard pile (spec §3.4, §4.2, §4.3, §4.5, §6.7).

A draw deck is ordered bottom first (``deck[seat, :deck_size[seat]]``, top =
``deck[seat, deck_size[seat] - 1]``, entries beyond NOBODY); hands and discard
piles are counts per card code (``BULLET_CARD`` for bullet cards). All chance
goes through ``core.rng`` (§11.5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from ..core.rng import shuffle_prefix
from .data import BULLET_CARD, DOC, DOC_HAND_SIZE, HAND_SIZE, N_CARD_KINDS_HELD
from .eventlog import EV_CARD_DRAWN, EV_CARDS_DRAWN, EV_DECK_SHUFFLED, only
from .state import NOBODY


@njit(cache=True, inline="always")
def count_cards(counts: np.ndarray) -> int:
    """Number of cards in a count-per-code row: hand, discard pile, set-aside cards (§10.1 sizes)."""
    total = np.int64(0)
    for k in range(N_CARD_KINDS_HELD):
        total += np.int64(counts[k])
    return total


@njit(cache=True, inline="always")
def count_action_cards(counts: np.ndarray) -> int:
    """Number of action cards (codes 0..11, no bullet cards) in a count-per-code row (§4.4 KEEP)."""
    return count_cards(counts) - np.int64(counts[BULLET_CARD])


@njit(cache=True, inline="always")
def hand_target(state: np.void, seat: int) -> int:
    """Round-start hand size: 6, or 7 when the seat's team contains Doc (§4.2, §7)."""
    bps = np.int64(state["bandits_per_seat"])
    for k in range(bps):
        if state["character"][seat * bps + k] == DOC:
            return DOC_HAND_SIZE
    return HAND_SIZE


@njit(cache=True, inline="always")
def shuffle_deck(state: np.void, seat: int) -> None:
    """Shuffle a seat's whole draw deck (§3.1 step 3, §4.2 standard rules)."""
    shuffle_prefix(state, state["deck"][seat], np.int64(state["deck_size"][seat]))
    emit(state, EV_DECK_SHUFFLED, EVERYONE, seat, state["deck_size"][seat], 0, 0)


@njit(cache=True)
def reshuffle_discard(state: np.void, seat: int) -> None:
    """Expert: an empty draw deck becomes the shuffled discard pile (§3.4 step 6, G20(f)).

    The discard pile is laid out in card-code order before the shuffle, so the
    result depends only on the generator (§11.5).
    """
    n = np.int64(0)
    for code in range(N_CARD_KINDS_HELD):
        for _ in range(np.int64(state["discard"][seat, code])):
            state["deck"][seat, n] = code
            n += 1
        state["discard"][seat, code] = 0
    state["deck_size"][seat] = n
    state["known_bullets_on_top"][seat] = 0
    shuffle_prefix(state, state["deck"][seat], n)
    emit(state, EV_DECK_SHUFFLED, EVERYONE, seat, n, 1, 0)


@njit(cache=True, inline="always")
def can_draw(state: np.void, seat: int) -> bool:
    """At least one card can be drawn: deck, or (expert) discard pile, not empty (§4.3, G19)."""
    if state["deck_size"][seat] > 0:
        return True
    return bool(state["expert"]) and count_cards(state["discard"][seat]) > 0


@njit(cache=True)
def draw_cards(state: np.void, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the top of the deck into the hand (§4.2, §4.3, G19).

    Expert: an empty deck is replaced by the shuffled discard pile when a card
    must be drawn (G20(f)). Returns the number of cards drawn.
    """
    drawn = np.int64(0)
    known = np.int64(state["known_bullets_on_top"][seat])  # for the report: known bullet cards drawn (G34)
    while drawn < count:
        n = np.int64(state["deck_size"][seat])
        if n == 0:
            if not state["expert"] or count_cards(state["discard"][seat]) == 0:
                break
            reshuffle_discard(state, seat)
            n = np.int64(state["deck_size"][seat])
        code = np.int64(state["deck"][seat, n - 1])
        state["deck"][seat, n - 1] = NOBODY
        state["deck_size"][seat] = n - 1
        state["hand"][seat, code] += 1
        emit(state, EV_CARD_DRAWN, only(seat), seat, code, 0, 0)
        if state["known_bullets_on_top"][seat] > 0:
            state["known_bullets_on_top"][seat] -= 1
        drawn += 1
    emit(state, EV_CARDS_DRAWN, EVERYONE, seat, drawn, known - np.int64(state["known_bullets_on_top"][seat]), 0)
    return drawn


@njit(cache=True, inline="always")
def put_on_deck(state: np.void, seat: int, code: int) -> None:
    """Put one card face down on top of a seat's draw deck (§4.4, §4.5 step 5, §6.7)."""
    n = np.int64(state["deck_size"][seat])
    state["deck"][seat, n] = code
    state["deck_size"][seat] = n + 1


@njit(cache=True)
def receive_bullet(state: np.void, bandit: int) -> None:
    """A bullet card received by a bandit goes to its player's draw deck (§6.7).

    It goes on top; with the expert rules (and 2 players) everybody sees it go
    there, so the public count of known bullet cards on top grows (G34).
    """
    seat = bandit // np.int64(state["bandits_per_seat"])
    state["bullets_received"][bandit] += 1
    put_on_deck(state, seat, np.int64(BULLET_CARD))
    if state["expert"]:
        state["known_bullets_on_top"][seat] += 1


@njit(cache=True, inline="always")
def return_card(state: np.void, seat: int, code: int) -> None:
    """A resolved pile card goes back to its owner: deck top, or expert discard pile (§4.5 step 5, G37)."""
    if state["expert"]:
        state["discard"][seat, code] += 1
    else:
        put_on_deck(state, seat, code)
