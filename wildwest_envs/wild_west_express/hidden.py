"""Redraw what one seat cannot see: determinizations for search agents (spec §13, §16).

``resample_hidden(states, seats, seeds)`` returns, for every game ``b``, a NEW
record that seat ``p = seats[b]`` cannot tell apart from ``states[b]`` (its
observation, ``observation.observe``, is byte-identical, and so is everything
public) and that satisfies every invariant of ``invariants.py``, with the hidden
parts redrawn uniformly at random among the assignments consistent with what
``p`` knows, using the record's own generator reseeded from ``seeds[b]``
(``core.rng``).

What is hidden from ``p`` (§16.2, §16.3):

* the identities of the personal cards held by every other seat (their number,
  and the train each is bound to, are public, §16.1);
* the card another seat has just drawn, while it decides at TELEGRAM_DRAWN
  (public: that it is a personal card, since public and competition cards are
  revealed at once, and the train that drew it);
* the order and identity of the deck cards never drawn since the shuffle (the
  first ``never_drawn`` cards of the deck).

The redraw: the cards at these places form the *unknown pool* (known to ``p``
as a set: the 52 cards minus every card it can place). The slots that must
hold a personal card (the other seats' held cards, in seat order then by bound
train, and the drawn card) take a uniformly random ordered choice of distinct
personal cards of the pool; the rest of the pool, in uniformly random order,
becomes the never-drawn top of the deck. Every consistent assignment of the
pool to the slots is equally likely.

Public facts kept exactly: the deck size, the never-drawn count and the deck
cards below them (every card that went back to the bottom was revealed first,
§16.3, so their order is public to a player with perfect memory), the
competition slots, the cards in play, ``p``'s own held cards and drawn card,
each seat's number of held cards per bound train, and everything that is not
a card. **Chance**: the generator is the reseeded one and the scripted-chance
queue is emptied, so a search cannot see the real dice (STYLE §7).

Approximation (the record does not keep the history): a card another seat drew
while the never-drawn part of the deck was empty came from the known part, so a
player with perfect memory knows it; the record does not say which held cards
were drawn that way, and they are treated as unknown. This makes the redraw
*wider* than ``p``'s true information set, never inconsistent with it.

Output canonical form: the pool is rebuilt in card-id order before it is
shuffled, so two records that ``p`` cannot tell apart give byte-identical
results for the same seed (hence the same distribution).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import resampler
from ..core.rng import draw_below, shuffle_prefix
from .data import CARD_CLASS, CLASS_PERSONAL, MAX_TRAINS, N_CARDS, NO_CARD
from .state import NOBODY, STATE_DTYPE


@njit(cache=True)
def resample_one(state: np.void, seat: int, seed: np.uint64) -> None:
    """Redraw every card hidden from ``seat`` in one record, after reseeding its generator (module docstring)."""
    state["rng"] = seed
    state["forced"][:] = 0
    state["n_forced"] = 0
    state["forced_pos"] = 0
    p = np.int64(seat)
    in_pool = _unknown_pool(state, p)
    # the slots that hold a personal card: (holder, bound train) in canonical order, then the drawn card
    slot_seat = np.empty(N_CARDS, np.int64)
    slot_train = np.empty(N_CARDS, np.int64)
    n_slots = 0
    for q in range(np.int64(state["num_players"])):
        if q == p:
            continue
        for t in range(MAX_TRAINS):
            for k in range(N_CARDS):
                if state["card_holder"][k] == q and state["card_bound"][k] == t:
                    slot_seat[n_slots] = q
                    slot_train[n_slots] = t
                    n_slots += 1
    drawn_hidden = state["drawn_card"] != NO_CARD and state["active"] != p
    for k in range(N_CARDS):  # empty the hidden places before refilling them
        if in_pool[k] and state["card_holder"][k] != NOBODY:
            state["card_holder"][k] = NOBODY
            state["card_bound"][k] = NOBODY
    personal = np.empty(N_CARDS, np.int64)
    n_personal = 0
    for k in range(N_CARDS):
        if in_pool[k] and CARD_CLASS[k] == CLASS_PERSONAL:
            personal[n_personal] = k
            n_personal += 1
    n_needed = n_slots + (1 if drawn_hidden else 0)
    for i in range(n_needed):  # partial Fisher-Yates: a uniform ordered choice of n_needed personal cards
        j = i + draw_below(state, n_personal - i)
        tmp = personal[i]
        personal[i] = personal[j]
        personal[j] = tmp
        in_pool[personal[i]] = False
    for i in range(n_slots):
        state["card_holder"][personal[i]] = slot_seat[i]
        state["card_bound"][personal[i]] = slot_train[i]
    if drawn_hidden:
        state["drawn_card"] = personal[n_slots]
    _write_never_drawn(state, in_pool)


@njit(cache=True)
def _unknown_pool(state: np.void, p: int) -> np.ndarray:
    """``pool[k]``: card ``k`` is at a place hidden from ``p`` (others' hands, their drawn card, never drawn)."""
    pool = np.zeros(N_CARDS, np.bool_)
    for i in range(np.int64(state["never_drawn"])):
        pool[state["deck"][i]] = True
    for k in range(N_CARDS):
        holder = np.int64(state["card_holder"][k])
        if holder != NOBODY and holder != p:
            pool[k] = True
    if state["drawn_card"] != NO_CARD and state["active"] != p:
        pool[state["drawn_card"]] = True
    return pool


@njit(cache=True)
def _write_never_drawn(state: np.void, rest: np.ndarray) -> None:
    """The cards left in the pool, in random order, become the never-drawn top of the deck."""
    n = np.int64(state["never_drawn"])
    cards = np.empty(N_CARDS, np.int64)
    m = 0
    for k in range(N_CARDS):
        if rest[k]:
            cards[m] = k
            m += 1
    shuffle_prefix(state, cards, m)
    for i in range(n):
        state["deck"][i] = cards[i]


resample_hidden = resampler(__name__, resample_one, STATE_DTYPE)  # the Python entry (Game.resample_hidden_fn)
