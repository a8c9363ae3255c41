"""Redraw what one seat cannot see: determinizations for search agents (spec §10, §11.6).

``resample_hidden(states, seats, seeds)`` returns, for every game ``b``, a NEW
record that seat ``p = seats[b]`` cannot tell apart from ``states[b]`` (its
observation, ``observation.observe``, is byte-identical) and that satisfies
every invariant of ``invariants.py``, with every hidden part redrawn at random
among the assignments consistent with what ``p`` has observed, using the
record's own generator reseeded from ``seeds[b]`` (``core.rng``):

1. **Purse values** (§10.3): the values of the purse ids whose value ``p``
   does not know (``observation.purse_value_known``) are permuted among those
   ids: a uniform random permutation of the unknown values.
2. **Round deck** (§3.1 step 8, §10.4): the cards of rounds after the current
   one are drawn, in random order, from the cards of the player-count group not
   yet revealed; the fifth card is a uniformly random station card.
3. **Other seats' cards** (§10.1, §10.2): for each seat ``q != p`` the cards
   of ``q`` whose place ``p`` cannot know (its action cards that are not face
   up or revealed on the pile and not known to lie in its discard pile or deck,
   plus its received bullet cards not known to lie on top of its deck) are
   dealt at random over the places whose sizes ``p`` sees: the faces of
   ``q``'s unrevealed face-down pile cards (action cards only, §4.3), its hand,
   its draw deck below the known bullet cards on top (G34) and its expert
   discard pile. The deal is uniform over the arrangements of the physical
   cards (each card a distinct object), i.e. the distribution of a fair deal,
   subject to the constraints kept (below).
4. **Deck order** (§10.4): every draw deck, ``p``'s own included, is
   reshuffled below its public count of known bullet cards on top, which stay
   bullet cards.
5. **Chance**: the generator is the reseeded one and the scripted-chance
   queue is emptied, so a search cannot see the real future shuffles (STYLE §7).

Public facts kept exactly (they follow from the record):

* every size ``p`` sees (hands, decks, discard piles, pile), the card mix of
  each seat (§10.1) and the number of bullet cards it has received;
* the known bullet cards on top of each expert draw deck (§10.1, G34);
* during Stealin', the cards of the current pile that were already resolved
  lie in their owner's discard pile (expert) or draw deck (standard): no card
  is drawn during Stealin' (§4.5 step 5);
* with the expert rules, a seat that has completed its KEEP decision of the
  current round holds no bullet card (§4.4): its hand is dealt action cards
  only (this lasts through Stealin' and the event, and at the end);
* face-down pile cards are action cards (bullet cards are never played, §4.3).

Approximations, where the record does not keep enough history to state a
fact ``p`` knows under perfect recall (§10.1); each makes the redraw *wider*
than ``p``'s true information set, never inconsistent with the observation or
the invariants:

* (expert) cards resolved in *earlier* rounds, and bullet cards discarded at
  earlier BULLETS decisions (their number is public, §4.2 step 3), are
  publicly known to lie in the discard pile until it is reshuffled; the
  record does not remember them, so they are treated as unknown;
* (expert) known bullet cards on top of a deck that a seat has drawn are
  publicly known to be in its hand until it discards them; not remembered,
  treated as unknown;
* (2 players) a face-down card played in the first turn by a team with Ghost
  must be of Ghost's colour (§7), but the record does not say in which turn a
  pile card was played, so its face is drawn from all the team's action cards;
* a seat ``q != p`` in the middle of its KEEP decision: the cards it has set
  aside (``keep_aside``) are hidden from ``p`` and so is how many there are;
  they are returned to ``q``'s hand (as at the start of its decision), which
  is what ``p`` sees;
* at the end of a game with Marshal's Revenge (§8.7), the removed purse was
  the least valuable of its holder's purses; this constraint on the values of
  removed purses is not kept (nobody decides after the end).

Output canonical form: everything hidden is rebuilt from public counts in a
fixed order before it is shuffled, so two records that ``p`` cannot tell apart
give byte-identical results for the same seed (hence the same distribution).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import resampler
from ..core.rng import draw_below, shuffle_prefix
from .cards import count_cards
from .data import (BULLET_CARD, DEC_KEEP, DEC_MOVE_DEST, LARGE_GROUP_CARDS, MAX_PILE,
                   N_CARD_CODES, N_CARD_KINDS_HELD, N_PURSES, N_ROUNDS, SMALL_GROUP_CARDS, STATION_CARDS)
from .observation import pile_revealed, purse_value_known
from .state import NOBODY, STATE_DTYPE

N_GROUP_CARDS = 7  # round cards of one player-count group (§2.6)


@njit(cache=True)
def resample_one(state: np.void, seat: int, seed: np.uint64) -> None:
    """Redraw every part of one record hidden from ``seat`` (module docstring, steps 1-5)."""
    state["rng"] = seed
    state["n_forced"] = 0
    state["forced_pos"] = 0
    p = np.int64(seat)
    _resample_purse_values(state, p)
    _resample_round_deck(state)
    for q in range(np.int64(state["num_players"])):
        if q == p:
            _reshuffle_own_deck(state, q)
        else:
            _resample_seat_cards(state, q)


# ---- 1. purse values (§10.3) ----------------------------------------------------------
@njit(cache=True)
def _resample_purse_values(state: np.void, p: int) -> None:
    """Permute the values of the purses whose value ``p`` does not know (§10.3)."""
    ids = np.empty(N_PURSES, np.int64)
    values = np.empty(N_PURSES, np.int64)
    m = 0
    for i in range(N_PURSES):
        if not purse_value_known(state, i, p):
            ids[m] = i
            values[m] = state["purse_value"][i]
            m += 1
    values[:m] = np.sort(values[:m])  # canonical order: the result depends only on what p knows
    shuffle_prefix(state, values, m)
    for j in range(m):
        state["purse_value"][ids[j]] = values[j]


# ---- 2. round deck (§3.1 step 8, §10.4) -------------------------------------------------
@njit(cache=True)
def _resample_round_deck(state: np.void) -> None:
    """Unrevealed group cards for the rounds after the current one, then a random station card."""
    rnd = np.int64(state["round"])
    if rnd >= N_ROUNDS - 1:
        return
    first = SMALL_GROUP_CARDS[0] if state["num_players"] <= 4 else LARGE_GROUP_CARDS[0]
    pool = np.empty(N_GROUP_CARDS, np.int64)
    m = 0
    for card in range(first, first + N_GROUP_CARDS):
        revealed = False
        for r in range(rnd + 1):
            if state["round_deck"][r] == card:
                revealed = True
        if not revealed:
            pool[m] = card
            m += 1
    shuffle_prefix(state, pool, m)
    for r in range(rnd + 1, N_ROUNDS - 1):
        state["round_deck"][r] = pool[r - rnd - 1]
    state["round_deck"][N_ROUNDS - 1] = STATION_CARDS[draw_below(state, np.int64(len(STATION_CARDS)))]


# ---- 3-4. cards of the seats (§10.1, §10.2, §10.4) ---------------------------------------
@njit(cache=True)
def _reshuffle_own_deck(state: np.void, q: int) -> None:
    """The observer knows its deck's composition, not its order (§10.2, §10.4).

    The deck is rebuilt in code order and shuffled below the known bullet cards on top.
    """
    size = np.int64(state["deck_size"][q])
    free = size - np.int64(state["known_bullets_on_top"][q])
    counts = np.zeros(N_CARD_KINDS_HELD, np.int64)
    for j in range(free):
        counts[state["deck"][q, j]] += 1
    _write_deck(state, q, counts, np.empty(0, np.int64), 0)


@njit(cache=True)
def _write_deck(state: np.void, q: int, counts: np.ndarray, extra: np.ndarray, n_extra: int) -> None:
    """Draw deck of ``q`` below its known bullets := ``counts`` plus ``extra[:n_extra]``, shuffled."""
    size = np.int64(state["deck_size"][q])
    free = size - np.int64(state["known_bullets_on_top"][q])
    n = 0
    for code in range(N_CARD_KINDS_HELD):
        for _ in range(counts[code]):
            state["deck"][q, n] = code
            n += 1
    for t in range(n_extra):
        state["deck"][q, n] = extra[t]
        n += 1
    shuffle_prefix(state, state["deck"][q], free)
    for j in range(free, size):
        state["deck"][q, j] = BULLET_CARD


@njit(cache=True)
def _has_completed_keep(state: np.void, q: int) -> bool:
    """Expert: seat ``q`` has made its KEEP decision of this round, so it holds no bullet card (§4.4)."""
    if not state["expert"]:
        return False
    if state["done"] or state["decision"] >= DEC_MOVE_DEST:
        return True
    if state["decision"] == DEC_KEEP:
        n = np.int64(state["num_players"])
        return (q - np.int64(state["first_player"]) + n) % n < np.int64(state["cursor"])
    return False


@njit(cache=True)
def _resample_seat_cards(state: np.void, q: int) -> None:
    """Deal the cards of ``q`` unseen by the observer over its unseen places (module docstring, step 3)."""
    keeping = state["decision"] == DEC_KEEP and state["current"] == q
    resolving = np.int64(state["resolving"])
    first_on_pile = 0 if resolving == NOBODY else resolving
    pile_size = np.int64(state["pile_size"])
    # the cards of q at places the observer cannot see; they are counted here and dealt below
    unseen = np.zeros(N_CARD_KINDS_HELD, np.int64)
    known_discard = np.zeros(N_CARD_KINDS_HELD, np.int64)
    known_deck = np.zeros(N_CARD_KINDS_HELD, np.int64)
    n_hand = count_cards(state["hand"][q])
    for k in range(N_CARD_KINDS_HELD):
        unseen[k] += state["hand"][q, k] + state["discard"][q, k]
        if keeping:
            unseen[k] += state["keep_aside"][k]
            n_hand += state["keep_aside"][k]
    for j in range(np.int64(state["deck_size"][q])):
        unseen[state["deck"][q, j]] += 1
    down = np.empty(MAX_PILE, np.int64)
    n_down = 0
    for i in range(first_on_pile, pile_size):
        if state["pile_owner"][i] == q and state["pile_down"][i] and not pile_revealed(state, i):
            unseen[state["pile_card"][i]] += 1
            down[n_down] = i
            n_down += 1
    for i in range(0, resolving if resolving != NOBODY else 0):  # resolved this Stealin': back with q (§4.5)
        if state["pile_owner"][i] == q:
            if state["expert"]:
                known_discard[state["pile_card"][i]] += 1
            else:
                known_deck[state["pile_card"][i]] += 1
    n_known_discard = 0
    n_known_deck = 0
    for k in range(N_CARD_KINDS_HELD):
        unseen[k] -= known_discard[k] + known_deck[k]
        n_known_discard += known_discard[k]
        n_known_deck += known_deck[k]
    top = np.int64(state["known_bullets_on_top"][q])
    unseen[BULLET_CARD] -= top
    n_discard = count_cards(state["discard"][q]) - n_known_discard
    n_deck = np.int64(state["deck_size"][q]) - top - n_known_deck
    # slots: [face-down pile | hand | discard | deck]; action cards only before ``action_end``
    n_slots = n_down + n_hand + n_discard + n_deck
    action_end = n_down + (n_hand if _has_completed_keep(state, q) else 0)
    slots = _deal(state, unseen, n_slots, action_end)
    for t in range(n_down):
        state["pile_card"][down[t]] = slots[t]
    for k in range(N_CARD_KINDS_HELD):
        state["hand"][q, k] = 0
        state["discard"][q, k] = known_discard[k]
        if keeping:
            state["keep_aside"][k] = 0
    for t in range(n_down, n_down + n_hand):
        state["hand"][q, slots[t]] += 1
    for t in range(n_down + n_hand, n_down + n_hand + n_discard):
        state["discard"][q, slots[t]] += 1
    _write_deck(state, q, known_deck, slots[n_down + n_hand + n_discard:], n_deck)


@njit(cache=True)
def _deal(state: np.void, counts: np.ndarray, n_slots: int, action_end: int) -> np.ndarray:
    """A uniform arrangement of the cards ``counts`` over ``n_slots`` slots, bullet cards only from ``action_end`` on.

    The bullet cards take a uniform random subset of the allowed slots, then the
    action cards a uniform random order over the rest: every arrangement of the
    physical cards that respects the constraint is equally likely.
    """
    slots = np.full(n_slots, NOBODY, np.int64)
    n_bullets = counts[BULLET_CARD]
    allowed = np.arange(action_end, n_slots)
    n_allowed = n_slots - action_end
    for t in range(n_bullets):  # partial Fisher-Yates: a uniform subset of the allowed slots
        j = t + draw_below(state, n_allowed - t)
        tmp = allowed[t]
        allowed[t] = allowed[j]
        allowed[j] = tmp
        slots[allowed[t]] = BULLET_CARD
    actions = np.empty(n_slots, np.int64)
    n_actions = 0
    for code in range(N_CARD_CODES):
        for _ in range(counts[code]):
            actions[n_actions] = code
            n_actions += 1
    shuffle_prefix(state, actions, n_actions)
    t = 0
    for s in range(n_slots):
        if slots[s] == NOBODY:
            slots[s] = actions[t]
            t += 1
    return slots


resample_hidden = resampler(__name__, resample_one, STATE_DTYPE)  # the Python entry (Game.resample_hidden_fn)
