"""Colt Express events (``core.eventlog``): what a step reports, who may see it, and the codes the kernels write.

(Not to be confused with ``events``, the end-of-round events of the round cards, §8: those are reported
here as ``round_event`` and the effects that follow it.)

| code | event | arguments | who sees it | § |
|---|---|---|---|---|
| 1 | ``round_started`` | round, round_card, first_player | everybody | §4.2 |
| 2 | ``phase_started`` | round, phase | everybody | §4.1 |
| 3 | ``deck_shuffled`` | seat, cards, from_discard | everybody | §4.2, §3.4 |
| 4 | ``card_drawn`` | seat, card | the seat | §4.2, §4.3 |
| 5 | ``cards_drawn`` | seat, count, known_bullets | everybody | §4.2, §4.3 |
| 6 | ``bullets_discarded`` | seat, count | everybody | §4.2 |
| 7 | ``card_played`` | seat, card, face_down, index | everybody; face down: the seat, the others get card -1 | §4.3 |
| 8 | ``card_set_aside`` | seat, card | the seat | §4.4 |
| 9 | ``cards_kept`` | seat, kept, discarded | everybody | §4.4 |
| 10 | ``card_revealed`` | index, seat, card, face_down | everybody | §4.5 |
| 11 | ``moved`` | bandit, car, level, cause | everybody | §5.2, §6, §8 |
| 12 | ``marshal_moved`` | car, cause | everybody | §6.6, §8.1 |
| 13 | ``fired`` | bandit, target, bullets_left | everybody | §6.3 |
| 14 | ``neutral_bullets`` | group, given, supply, removed | everybody | §5.3 |
| 15 | ``punched`` | bandit, victim | everybody | §6.5 |
| 16 | ``loot_taken`` | bandit, loot, purse, value | everybody; a purse's value: the seats that know it, the others get -1 | §6.4, §7, §8.6, §8.8 |
| 17 | ``loot_lost`` | bandit, loot, purse, value | everybody; a purse's value: the seats that know it, the others get -1 | §6.5, §8.7 |
| 18 | ``round_event`` | round, event | everybody | §4.6, §8 |
| 19 | ``strongbox_placed`` | car | everybody | §8.4 |
| 20 | ``purse_revealed`` | purse, value, bandit | everybody | §9.1, G35 |
| 21 | ``scored`` | seat, category, count, dollars | everybody | §9 |

Arguments (indices as in ``state``: seats, bandit ids, cars, levels ``IN`` = 0 / ``ROOF`` = 1, card
codes 0..11 and ``BULLET_CARD`` = 12, purse ids 0..17, pile indices in play order):

* ``round_card``: the round card id (§2.6); ``event``: its ``EV_*`` id (``data.EVENT_NAMES``, 0: none,
  reported too).
* ``phase``: ``PHASE_SCHEMIN`` (after the round card is revealed, before the expert BULLETS questions),
  ``PHASE_END_OF_SCHEMIN`` (expert KEEP decisions follow), ``PHASE_STEALIN``. A round start reads:
  ``round_started``, then, clockwise from the first player, each seat's ``deck_shuffled`` (standard rules
  from the second round on; expert only when a refill remakes the deck), ``card_drawn``... and
  ``cards_drawn``, then ``phase_started`` ``PHASE_SCHEMIN``. The round ends with ``round_event`` and what
  the event did.
* ``deck_shuffled``: ``cards`` in the new draw deck; ``from_discard`` 1 for the expert reshuffle of
  the discard pile (G20(f)), 0 for the standard round-start shuffle.
* ``cards_drawn``: ``known_bullets`` of the cards drawn were known bullet cards on top of the deck (G34).
  The cards themselves go to the seat alone, one ``card_drawn`` each, before it.
* ``bullets_discarded``: reported only when bullet cards were discarded; choosing to discard none
  looks the same as keeping them (G33).
* ``cards_kept``: the end of a seat's KEEP decision: ``kept`` cards stay in hand, ``discarded`` go to
  the discard pile (set-aside action cards and bullet cards together, G33); ``card_set_aside``
  tells the seat alone each DISCARD(k) of its own.
* ``cause`` of ``moved``: ``MOVED_BY_*`` below; of ``marshal_moved``: ``MARSHAL_BY_CARD``,
  ``MARSHAL_BY_EVENT`` (Angry Marshal). A bandit who flees the marshal (§5.2) is ``moved`` to
  the roof with ``MOVED_BY_MARSHAL``, and the group's ``neutral_bullets`` follows. Every ``moved`` is a
  real change of location (a Swivel Arm bandit already above the last car is not reported), in the
  order the rules apply them: the last one of a bandit in a step is where he stands after it.
* ``neutral_bullets``: ``group`` the bit set of bandit ids (``1 << bandit``); ``given`` bullet cards
  handed out (one each, or 0 on a shortage); ``supply`` left; ``removed`` 1 when the shortage removed
  the supply. A group facing an already removed supply gets nothing and is not reported.
* ``fired``: the target's player received the shooter's top bullet card; ``bullets_left`` of the
  shooter after the shot.
* ``loot``: ``LOOT_PURSE`` (``purse`` the id), ``LOOT_JEWEL``, ``LOOT_STRONGBOX``, ``LOOT_RANSOM``
  (Hostage of the Conductor), ``purse`` -1 for the last three; ``value`` in dollars, or
  ``UNKNOWN_VALUE`` (-1) in the twin of a purse event sent to the seats that do not know the value
  (§10.3: a starting purse, or one their bandits have held). A punched purse goes to the floor at the
  punch location, or to Cheyenne (``loot_taken`` follows); a purse lost to Marshal's Revenge leaves
  the game.
* ``purse_revealed``, ``scored``: at the end of the game (after the fifth round's event) the purses on
  character cards are turned over; per seat, one ``scored`` per category ``SCORE_*`` (``count``:
  purses, jewels, strongboxes, ransoms, or the seat's shots for ``SCORE_GUNSLINGER``); a seat's
  ``dollars`` add up to its score (``rules.scores``).

The first round starts inside ``init``, which reports nothing: a log starts with the first step. A
game cut by the decision cap (``max_decisions``) ends without ``purse_revealed`` or ``scored``. Every
step reports something except an expert BULLETS answer that discards no bullet card (G33).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from ..core.borrowed import COUNTED
from ..core.eventlog import EVERYONE, EventKinds, emit, is_logged
from ..core.eventlog import seat_bit as only  # the seen set of one seat (re-exported for the rules)
from .data import (BULLETS_PER_BANDIT, JEWEL_VALUE, MAX_BANDITS, MAX_PLAYERS, N_PURSES, PURSE_ON_BANDIT,
                   RANSOM_VALUE, STRONGBOX_VALUE)
from .scoring import score_seats
from .state import NOBODY

(EV_ROUND_STARTED, EV_PHASE_STARTED, EV_DECK_SHUFFLED, EV_CARD_DRAWN, EV_CARDS_DRAWN, EV_BULLETS_DISCARDED,
 EV_CARD_PLAYED, EV_CARD_SET_ASIDE, EV_CARDS_KEPT, EV_CARD_REVEALED, EV_MOVED, EV_MARSHAL_MOVED, EV_FIRED,
 EV_NEUTRAL_BULLETS, EV_PUNCHED, EV_LOOT_TAKEN, EV_LOOT_LOST, EV_ROUND_EVENT, EV_STRONGBOX_PLACED,
 EV_PURSE_REVEALED, EV_SCORED) = range(1, 22)

# phase of phase_started (§4.1)
PHASE_SCHEMIN, PHASE_END_OF_SCHEMIN, PHASE_STEALIN = range(3)
# cause of moved
(MOVED_BY_MOVE, MOVED_BY_FLOOR_CHANGE, MOVED_BY_PUNCH, MOVED_BY_DJANGO, MOVED_BY_MARSHAL, MOVED_BY_SWIVEL_ARM,
 MOVED_BY_BRAKING) = range(7)
# cause of marshal_moved
MARSHAL_BY_CARD, MARSHAL_BY_EVENT = range(2)
# loot of loot_taken / loot_lost
LOOT_PURSE, LOOT_JEWEL, LOOT_STRONGBOX, LOOT_RANSOM = range(4)
UNKNOWN_VALUE = -1  # a purse value the seats of the twin event do not know (§10.3)
# the token a rule hands to emit_loot: a purse id, or one of these (= action id - A_PURSE for Rob and Punch)
TOKEN_JEWEL = N_PURSES
TOKEN_STRONGBOX = N_PURSES + 1
TOKEN_RANSOM = N_PURSES + 2
# category of scored (§9)
SCORE_PURSES, SCORE_JEWELS, SCORE_STRONGBOXES, SCORE_RANSOMS, SCORE_GUNSLINGER = range(5)

EVERYBODY = "everybody"
_VALUE_SEEN = "everybody; a purse's value: the seats that know it, the others get -1"
_KINDS = (  # code, name, arguments, who sees it, section, what it reports
    (EV_ROUND_STARTED, "round_started", ("round", "round_card", "first_player"), EVERYBODY, "§4.2",
     "a round starts and its round card is revealed"),
    (EV_PHASE_STARTED, "phase_started", ("round", "phase"), EVERYBODY, "§4.1",
     "Schemin', the end of Schemin' (expert KEEP) or Stealin' begins"),
    (EV_DECK_SHUFFLED, "deck_shuffled", ("seat", "cards", "from_discard"), EVERYBODY, "§4.2, §3.4",
     "a seat's draw deck is shuffled (standard round start) or made from its discard pile (expert)"),
    (EV_CARD_DRAWN, "card_drawn", ("seat", "card"), "the seat", "§4.2, §4.3",
     "one card a seat drew (to that seat alone)"),
    (EV_CARDS_DRAWN, "cards_drawn", ("seat", "count", "known_bullets"), EVERYBODY, "§4.2, §4.3",
     "a seat drew cards: at the round start or with a DRAW play"),
    (EV_BULLETS_DISCARDED, "bullets_discarded", ("seat", "count"), EVERYBODY, "§4.2",
     "an expert seat discarded the bullet cards of its hand"),
    (EV_CARD_PLAYED, "card_played", ("seat", "card", "face_down", "index"),
     "everybody; face down: the seat, the others get card -1", "§4.3", "a card put on the pile"),
    (EV_CARD_SET_ASIDE, "card_set_aside", ("seat", "card"), "the seat", "§4.4",
     "an expert seat set one card aside during its KEEP decision"),
    (EV_CARDS_KEPT, "cards_kept", ("seat", "kept", "discarded"), EVERYBODY, "§4.4",
     "an expert seat's KEEP decision took effect"),
    (EV_CARD_REVEALED, "card_revealed", ("index", "seat", "card", "face_down"), EVERYBODY, "§4.5",
     "the next pile card is turned face up and resolved"),
    (EV_MOVED, "moved", ("bandit", "car", "level", "cause"), EVERYBODY, "§5.2, §6, §8",
     "a bandit changed location"),
    (EV_MARSHAL_MOVED, "marshal_moved", ("car", "cause"), EVERYBODY, "§6.6, §8.1", "the marshal moved"),
    (EV_FIRED, "fired", ("bandit", "target", "bullets_left"), EVERYBODY, "§6.3",
     "a bandit shot another: his top bullet card went to the target's player"),
    (EV_NEUTRAL_BULLETS, "neutral_bullets", ("group", "given", "supply", "removed"), EVERYBODY, "§5.3",
     "a group of bandits received neutral bullets, or the supply ran out"),
    (EV_PUNCHED, "punched", ("bandit", "victim"), EVERYBODY, "§6.5", "a bandit punched another"),
    (EV_LOOT_TAKEN, "loot_taken", ("bandit", "loot", "purse", "value"), _VALUE_SEEN, "§6.4, §7, §8.6, §8.8",
     "a bandit took loot: Rob, Cheyenne's punch, Pickpocketing, a ransom"),
    (EV_LOOT_LOST, "loot_lost", ("bandit", "loot", "purse", "value"), _VALUE_SEEN, "§6.5, §8.7",
     "a bandit lost loot: punched away, or to Marshal's Revenge"),
    (EV_ROUND_EVENT, "round_event", ("round", "event"), EVERYBODY, "§4.6, §8",
     "the round card's event is applied (0: none)"),
    (EV_STRONGBOX_PLACED, "strongbox_placed", ("car",), EVERYBODY, "§8.4",
     "Take It All put the second strongbox inside the marshal's car"),
    (EV_PURSE_REVEALED, "purse_revealed", ("purse", "value", "bandit"), EVERYBODY, "§9.1, G35",
     "the end of the game turns a purse on a character card over"),
    (EV_SCORED, "scored", ("seat", "category", "count", "dollars"), EVERYBODY, "§9",
     "one part of a seat's final score"),
)

EVENT_KINDS, WHO_SEES = EventKinds.declare(_KINDS)  # WHO_SEES: the docstring's "who sees it" column


# ---- seen sets ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def all_but(seat: int) -> int:
    """The ``seen`` set of every seat but one."""
    return ~only(seat)


@njit(cache=True)
def purse_seers(state: np.void, purse: int) -> int:
    """The seats that know a purse's value before the end: everybody for a starting purse, else the seats
    whose bandits have held it (§10.3; ``observation.purse_value_known``)."""
    n = np.int64(state["num_players"])
    if purse < state["n_bandits"]:
        return (np.int64(1) << n) - 1
    seers = np.int64(0)
    for s in range(n):
        if (np.int64(state["purse_known"][s]) >> np.int64(purse)) & 1:
            seers |= only(s)
    return seers


# ---- helpers that write several rows: nothing at all on a plain record (as core.eventlog.emit) ----
def emit_loot(state, kind, bandit, token):
    """Report loot ``token`` (a purse id or ``TOKEN_*``) taken or lost by ``bandit``: a purse's value to
    the seats that know it, ``UNKNOWN_VALUE`` to the others (§10.3)."""
    if "events" in state.dtype.names:  # plain Python (NUMBA_DISABLE_JIT)
        _emit_loot(state, kind, bandit, token)


def _emit_loot(state, kind, bandit, token):
    if token < N_PURSES:
        everybody = (np.int64(1) << np.int64(state["num_players"])) - 1
        seers = purse_seers(state, token)
        value = np.int64(state["purse_value"][token])
        if seers == everybody:
            emit(state, kind, EVERYONE, bandit, LOOT_PURSE, token, value)
        else:
            if seers != 0:
                emit(state, kind, seers, bandit, LOOT_PURSE, token, value)
            emit(state, kind, everybody & ~seers, bandit, LOOT_PURSE, token, UNKNOWN_VALUE)
    elif token == TOKEN_JEWEL:
        emit(state, kind, EVERYONE, bandit, LOOT_JEWEL, NOBODY, JEWEL_VALUE)
    elif token == TOKEN_STRONGBOX:
        emit(state, kind, EVERYONE, bandit, LOOT_STRONGBOX, NOBODY, STRONGBOX_VALUE)
    else:
        emit(state, kind, EVERYONE, bandit, LOOT_RANSOM, NOBODY, RANSOM_VALUE)


def emit_scores(state):
    """Report the end of the game: every purse on a character card turned over, and each seat's score by
    category (§9, G35)."""
    if "events" in state.dtype.names:
        _emit_scores(state)


def _emit_scores(state):
    n = np.int64(state["num_players"])
    bps = np.int64(state["bandits_per_seat"])
    totals = np.zeros(MAX_PLAYERS, np.int64)
    score_seats(state, totals)  # the Gunslinger bonus is what the score adds to the loot (one rule, §9.2)
    for i in range(N_PURSES):
        loc = np.int64(state["purse_location"][i])
        if PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + MAX_BANDITS:
            emit(state, EV_PURSE_REVEALED, EVERYONE, i, state["purse_value"][i], loc - PURSE_ON_BANDIT, 0)
    for s in range(n):
        n_purses = np.int64(0)
        purses = np.int64(0)
        jewels = np.int64(0)
        boxes = np.int64(0)
        ransoms = np.int64(0)
        shots = np.int64(0)
        for k in range(bps):
            b = s * bps + k
            for i in range(N_PURSES):
                if state["purse_location"][i] == PURSE_ON_BANDIT + b:
                    n_purses += 1
                    purses += np.int64(state["purse_value"][i])
            jewels += np.int64(state["jewels_held"][b])
            boxes += np.int64(state["strongboxes_held"][b])
            ransoms += np.int64(state["ransoms"][b])
            shots += BULLETS_PER_BANDIT - np.int64(state["bullets_left"][b])
        loot = purses + JEWEL_VALUE * jewels + STRONGBOX_VALUE * boxes + RANSOM_VALUE * ransoms
        emit(state, EV_SCORED, EVERYONE, s, SCORE_PURSES, n_purses, purses)
        emit(state, EV_SCORED, EVERYONE, s, SCORE_JEWELS, jewels, JEWEL_VALUE * jewels)
        emit(state, EV_SCORED, EVERYONE, s, SCORE_STRONGBOXES, boxes, STRONGBOX_VALUE * boxes)
        emit(state, EV_SCORED, EVERYONE, s, SCORE_RANSOMS, ransoms, RANSOM_VALUE * ransoms)
        emit(state, EV_SCORED, EVERYONE, s, SCORE_GUNSLINGER, shots, totals[s] - loot)


def _nothing_loot(state, kind, bandit, token):
    return None


def _nothing_scores(state):
    return None


@overload(emit_loot, inline="always")
def _emit_loot_impl(state, kind, bandit, token):
    return _emit_loot if is_logged(state) else _nothing_loot


_emit_scores_counted = njit(cache=True, **COUNTED)(_emit_scores)  # it allocates; the step is UNCOUNTED


def _call_emit_scores(state):
    _emit_scores_counted(state)


@overload(emit_scores, inline="always")
def _emit_scores_impl(state):
    return _call_emit_scores if is_logged(state) else _nothing_scores
