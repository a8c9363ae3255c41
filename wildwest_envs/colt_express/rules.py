"""Colt Express rules engine: the public batch kernels and the flow of a game (spec §3-§9, §11).

Public kernels: ``init``, ``legal_mask``, ``step``, ``step_and_mask``, ``scores`` and ``tiebreak``, the
batch loops of ``core.engine`` (signatures there) over the per-record forms ``init_one``, ``legal_mask_one``,
``step_one``, which kernels that fuse them call (e.g. a random-play benchmark loop). Masks have 73 actions
and scores 6 seats: ``scores`` is the §9 score, ``tiebreak`` minus the bullet cards received (§9.4). ``step`` assumes
the action is legal: legality is decided only by ``legal_mask``. After
``init`` and after every ``step`` a record stands at an agent decision
(``decision``, ``current`` set) or is finished (``done``, ``DEC_NONE``,
``NOBODY``): everything automatic in between (no-effect cards, Floor change,
forced single-option Stealin'/event decisions with ``auto_resolve``, events,
round transitions, scoring time) is resolved inside the kernel.

The rules live in one module per job: ``setup`` (§3), ``cards`` (decks,
hands, discards: §3.4, §4.2, §6.7), ``planning`` (§4.2-§4.4), ``actions``
(§5, §6, §7), ``events`` (§8), ``scoring`` (§9). This module holds the flow of
§4.1 as a small state machine: each phase function returns the next phase, or
``_PH_WAIT`` once it has posed a decision.

Decisions where the spec is silent or leaves the implementation open (the
spec's own [D] decisions are implemented as written and cited by G-number in
the helpers):

* Setup draws (§3.5, §11.5): characters and carriages are each chosen with one
  shuffle of the six ids (the first B / C entries, in that order, give both the
  choice and the order); the four round cards with one shuffle of the seven
  group cards (first four); decks are laid out in card-code order before their
  shuffle; an expert reshuffle lays the discard pile out in code order first.
* The turn cap ``max_decisions``: a record that reaches it unfinished is left
  alone by ``step`` (``core.kernels.finished``); ``core.game`` reports it as
  truncated.
* KEEP (§4.4, §11.3): DISCARD(k) moves one card of code k from ``hand`` into
  ``keep_aside``; when KEEP_REST is chosen or no action card is left in hand,
  ``keep_aside`` and every bullet card of the hand go into ``discard`` at once
  and ``keep_aside`` is cleared.
* Field conventions at a decision: ``turn`` is the current icon during PLAN,
  0 during BULLETS and the last icon of the round card after Schemin'
  (KEEP, Stealin', events); ``turn_position`` and ``play_in_turn`` are 0
  outside PLAN. ``cursor`` is the offset from the first player of the seat
  asked during BULLETS/KEEP, the position in the Pickpocketing order (§8.6)
  during PICKPOCKET, 0 otherwise. ``resolving`` is the pile index being
  resolved during Stealin' (cards below it are resolved and already back with
  their owners), NOBODY otherwise. When Stealin' ends every card is back with
  its owner and the pile is emptied (``pile_size`` = 0). ``acting_bandit`` is
  set during Stealin' and PICKPOCKET decisions (the Marshal card's bandit as in
  G36), ``victim`` during PUNCH_LOOT and PUNCH_DEST.
* With the standard rules a received bullet card and a returned pile card go
  on top of the draw deck (their position is irrelevant, §6.7); the count of
  known bullet cards on top stays 0 (G34).
* The first player does not rotate after the fifth round: at the end
  ``first_player`` is the fifth round's.

Implementation notes (no rule depends on them):

* ``scores`` and ``tiebreak`` loop serially (a few adds per record); the hot
  kernels ``init``, ``legal_mask`` and ``step`` are parallel.
* Small helpers are ``inline="always"`` and constant arguments are passed as
  ``np.int64(...)``: numba otherwise compiles one specialisation per literal
  value, which doubled the cold compile time.
* ``pile_down`` is stored as int8 (0/1): numba cannot type a nested boolean
  array inside a record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import batch_kernels, count_decision
from ..core.kernels import finished
from ..core.eventlog import EVERYONE, emit
from .actions import KIND_DECISION, apply_choice, card_bandit, choice_bits, resolve_floor
from .cards import count_cards, return_card
from .data import (A_BULLETS_DISCARD, A_BULLETS_KEEP, A_CAR, DEC_BULLETS, DEC_KEEP, DEC_NONE, DEC_PICKPOCKET,
                   DEC_PLAN, DEC_PUNCH_DEST, DEC_PUNCH_LOOT, DEC_PUNCH_TARGET, EV_PICKPOCKETING, FLOOR,
                   MAX_BANDITS, MAX_CARS, MAX_PILE, N_ACTIONS, N_KINDS, N_ROUNDS, OPT_AUTO_FORCED, OPT_CARRIAGES,
                   OPT_CHARACTERS, OPT_EXPERT, OPT_MAX_DECISIONS, OPT_NUM_PLAYERS, OPT_START_PLAYER, ROUND_CARD_EVENT,
                   TURN_NONE)
from .eventlog import (EV_CARD_REVEALED, EV_PHASE_STARTED, EV_ROUND_EVENT, EV_ROUND_STARTED, PHASE_END_OF_SCHEMIN,
                       PHASE_SCHEMIN, PHASE_STEALIN, emit_scores)
from .events import apply_event, is_alone, pickpocket_bandit
from .planning import apply_bullets, apply_keep, apply_plan, asked_bullets, deal_hands, keep_mask, plan_mask, \
    planning_seat, return_hands, turn_icon
from .scoring import score_seats, tiebreak_seats
from .setup import setup_game
from .state import EMPTY_RECORD, NOBODY

# phases of the flow (§4.1)
(_PH_WAIT, _PH_ROUND_START, _PH_BULLETS, _PH_PLAN, _PH_KEEP, _PH_CARD, _PH_CARD_DONE, _PH_PUNCH_LOOT,
 _PH_PUNCH_DEST, _PH_EVENT, _PH_PICKPOCKET, _PH_ROUND_END) = range(12)


# ---- public per-record kernels -------------------------------------------------------------
@njit(cache=True)
def init_one(state: np.void, seed: np.uint64, options: np.ndarray) -> None:
    """Set up one record and advance it to the first decision (§3, §4.2)."""
    setup_game(state, seed, options[OPT_NUM_PLAYERS], options[OPT_EXPERT] != 0, options[OPT_AUTO_FORCED] != 0,
               options[OPT_MAX_DECISIONS], options[OPT_CHARACTERS:OPT_CHARACTERS + MAX_BANDITS],
               options[OPT_CARRIAGES:OPT_CARRIAGES + MAX_CARS - 1], options[OPT_START_PLAYER])
    _advance(state, np.int64(_PH_ROUND_START))


@njit(cache=True)
def legal_mask_one(state: np.void, out_row: np.ndarray) -> None:
    """Legal actions of the pending decision of one record (§11.3)."""
    for a in range(N_ACTIONS):
        out_row[a] = 0
    if finished(state):  # ended, or at the decision cap: no legal action
        return
    decision = np.int64(state["decision"])
    seat = np.int64(state["current"])
    if decision == DEC_PLAN:
        plan_mask(state, seat, out_row)
    elif decision == DEC_BULLETS:
        out_row[A_BULLETS_DISCARD] = 1
        out_row[A_BULLETS_KEEP] = 1
    elif decision == DEC_KEEP:
        keep_mask(state, seat, out_row)
    elif decision != DEC_NONE:
        bits = choice_bits(state, decision)
        j = 0
        while bits:
            if bits & 1:
                out_row[A_CAR + j] = 1
            bits >>= 1
            j += 1


@njit(cache=True)
def step_one(state: np.void, action: int) -> None:
    """Apply one legal action to one record, then resolve everything automatic up to the next decision; a
    finished record (ended, or at the decision cap) is left alone."""
    if not count_decision(state):
        return
    decision = np.int64(state["decision"])
    seat = np.int64(state["current"])
    if decision == DEC_PLAN:
        apply_plan(state, seat, action)
        phase = np.int64(_PH_PLAN)
    elif decision == DEC_BULLETS:
        apply_bullets(state, seat, action)
        state["cursor"] += 1
        phase = _PH_BULLETS
    elif decision == DEC_KEEP:
        if not apply_keep(state, seat, action):
            return  # the same seat goes on choosing
        state["cursor"] += 1
        phase = _PH_KEEP
    else:
        apply_choice(state, decision, action)
        phase = _after_choice(state, decision)
    _advance(state, phase)


# ---- public batch kernels (core.engine: loops over the per-record kernels) -------------------------------------
init, legal_mask, step_and_mask, step, scores, tiebreak = batch_kernels(
    __name__, EMPTY_RECORD, init_one, legal_mask_one, step_one, score_seats, tiebreak_seats, init="§3, §4.2",
    legal_mask="§11.3", step_and_mask="§4-§9", scores="score (§9)",
    tiebreak="minus the bullet cards received, §9.4", uncounted=True)


# ---- the flow (§4.1) ---------------------------------------------------------------------------
@njit(cache=True)
def _advance(state: np.void, phase: int) -> None:
    """Run the automatic parts of the game until a decision is posed or the game ends (§4.1)."""
    state["decision"] = DEC_NONE
    while phase != _PH_WAIT:
        if phase == _PH_CARD:
            phase = _start_card(state)
        elif phase == _PH_CARD_DONE:
            phase = _finish_card(state)
        elif phase == _PH_PLAN:
            phase = _next_play(state)
        elif phase == _PH_PUNCH_LOOT:
            phase = _pose(state, np.int64(DEC_PUNCH_LOOT))
        elif phase == _PH_PUNCH_DEST:
            phase = _pose(state, np.int64(DEC_PUNCH_DEST))
        elif phase == _PH_BULLETS:
            phase = _next_bullets(state)
        elif phase == _PH_KEEP:
            phase = _next_keep(state)
        elif phase == _PH_ROUND_START:
            phase = _start_round(state)
        elif phase == _PH_EVENT:
            phase = _start_event(state)
        elif phase == _PH_PICKPOCKET:
            phase = _next_pickpocket(state)
        else:
            phase = _end_round(state)


@njit(cache=True, inline="always")
def _ask(state: np.void, decision: int, seat: int) -> int:
    """Pose a decision to a seat and stop the flow (§11.3)."""
    state["decision"] = decision
    state["current"] = seat
    return _PH_WAIT


@njit(cache=True, inline="always")
def _start_round(state: np.void) -> int:
    """Round start: hands, reveal of the round card, then BULLETS (expert) or Schemin' (§4.2)."""
    emit(state, EV_ROUND_STARTED, EVERYONE, state["round"], state["round_deck"][np.int64(state["round"])],
         state["first_player"], 0)
    state["turn"] = 0
    state["turn_position"] = 0
    state["play_in_turn"] = 0
    state["cursor"] = 0
    deal_hands(state)
    emit(state, EV_PHASE_STARTED, EVERYONE, state["round"], PHASE_SCHEMIN, 0, 0)
    return _PH_BULLETS if state["expert"] else _PH_PLAN


@njit(cache=True)
def _next_bullets(state: np.void) -> int:
    """Ask BULLETS of the next seat that has received a bullet card, clockwise from the first player (§4.2 step 3)."""
    n = np.int64(state["num_players"])
    while state["cursor"] < n:
        seat = (np.int64(state["first_player"]) + np.int64(state["cursor"])) % n
        if asked_bullets(state, seat):
            return _ask(state, np.int64(DEC_BULLETS), seat)
        state["cursor"] += 1
    state["cursor"] = 0
    return _PH_PLAN


@njit(cache=True)
def _next_play(state: np.void) -> int:
    """Ask the next play of Schemin', or end Schemin' after the last turn icon (§4.3, §4.4)."""
    if turn_icon(state) != TURN_NONE:
        return _ask(state, np.int64(DEC_PLAN), planning_seat(state))
    state["turn"] -= 1  # stay on the last icon
    if state["expert"]:
        emit(state, EV_PHASE_STARTED, EVERYONE, state["round"], PHASE_END_OF_SCHEMIN, 0, 0)
        return _PH_KEEP
    return_hands(state)
    state["resolving"] = 0
    emit(state, EV_PHASE_STARTED, EVERYONE, state["round"], PHASE_STEALIN, 0, 0)
    return _PH_CARD


@njit(cache=True)
def _next_keep(state: np.void) -> int:
    """Ask KEEP of the next seat with a non-empty hand, clockwise from the first player; then Stealin' (§4.4)."""
    n = np.int64(state["num_players"])
    while state["cursor"] < n:
        seat = (np.int64(state["first_player"]) + np.int64(state["cursor"])) % n
        if count_cards(state["hand"][seat]) > 0:
            return _ask(state, np.int64(DEC_KEEP), seat)
        state["cursor"] += 1
    state["cursor"] = 0
    state["resolving"] = 0
    emit(state, EV_PHASE_STARTED, EVERYONE, state["round"], PHASE_STEALIN, 0, 0)
    return _PH_CARD


@njit(cache=True)
def _pose(state: np.void, decision: int) -> int:
    """Ask a Stealin'/event decision; no option: no effect; one option with auto_resolve: apply it (§4.5, §11.4)."""
    bits = choice_bits(state, decision)
    if bits == 0:
        return _after_choice(state, decision)
    if state["auto_resolve"] and (bits & (bits - 1)) == 0:
        j = 0
        while not (bits >> j) & 1:
            j += 1
        apply_choice(state, decision, A_CAR + j)
        return _after_choice(state, decision)
    return _ask(state, decision, np.int64(state["acting_bandit"]) // np.int64(state["bandits_per_seat"]))


@njit(cache=True, inline="always")
def _after_choice(state: np.void, decision: int) -> int:
    """What follows a Stealin'/event decision: the next Punch step, the next lone bandit or card (§6.5, §8.6)."""
    if decision == DEC_PUNCH_TARGET:  # no bandit to punch: no effect, no loot or destination to choose (§6.5)
        return _PH_PUNCH_LOOT if state["victim"] != NOBODY else _PH_CARD_DONE
    if decision == DEC_PUNCH_LOOT:
        return _PH_PUNCH_DEST
    if decision == DEC_PICKPOCKET:
        state["cursor"] += 1
        return _PH_PICKPOCKET
    return _PH_CARD_DONE


@njit(cache=True)
def _start_card(state: np.void) -> int:
    """Reveal and resolve the next pile card, first played first; after the last, the event (§4.5)."""
    i = np.int64(state["resolving"])
    if i >= state["pile_size"]:
        for j in range(MAX_PILE):
            state["pile_owner"][j] = NOBODY
            state["pile_card"][j] = NOBODY
            state["pile_down"][j] = 0
        state["pile_size"] = 0
        state["resolving"] = NOBODY
        return _PH_EVENT
    owner = np.int64(state["pile_owner"][i])
    code = np.int64(state["pile_card"][i])
    state["acting_bandit"] = card_bandit(state, owner, code)
    state["current"] = owner
    emit(state, EV_CARD_REVEALED, EVERYONE, i, owner, code, state["pile_down"][i])
    kind = code % N_KINDS
    if kind == FLOOR:
        resolve_floor(state, np.int64(state["acting_bandit"]))
        return _PH_CARD_DONE
    return _pose(state, np.int64(KIND_DECISION[kind]))


@njit(cache=True, inline="always")
def _finish_card(state: np.void) -> int:
    """The resolved card, with or without effect, goes back to its owner (§4.5 step 5, G37)."""
    i = np.int64(state["resolving"])
    return_card(state, np.int64(state["pile_owner"][i]), np.int64(state["pile_card"][i]))
    state["acting_bandit"] = NOBODY
    state["victim"] = NOBODY
    state["resolving"] = i + 1
    return _PH_CARD


@njit(cache=True, inline="always")
def _start_event(state: np.void) -> int:
    """Apply the round card's event; Pickpocketing asks the lone bandits one by one (§4.6, §8)."""
    event = np.int64(ROUND_CARD_EVENT[np.int64(state["round_deck"][np.int64(state["round"])])])
    emit(state, EV_ROUND_EVENT, EVERYONE, state["round"], event, 0, 0)
    if event == EV_PICKPOCKETING:
        state["cursor"] = 0
        return _PH_PICKPOCKET
    apply_event(state, event)
    return _PH_ROUND_END


@njit(cache=True)
def _next_pickpocket(state: np.void) -> int:
    """Offer PICKPOCKET to the next lone bandit standing with purses, in the order of G17 (§8.6)."""
    while state["cursor"] < state["n_bandits"]:
        bandit = pickpocket_bandit(state, np.int64(state["cursor"]))
        if is_alone(state, bandit):
            state["acting_bandit"] = bandit
            return _pose(state, np.int64(DEC_PICKPOCKET))
        state["cursor"] += 1
    state["cursor"] = 0
    state["acting_bandit"] = NOBODY
    return _PH_ROUND_END


@njit(cache=True)
def _end_round(state: np.void) -> int:
    """Round end: the first player passes left; after the fifth round the game ends (§4.7, §9)."""
    if state["round"] == N_ROUNDS - 1:
        state["done"] = True
        state["decision"] = DEC_NONE
        state["current"] = NOBODY
        state["acting_bandit"] = NOBODY
        state["victim"] = NOBODY
        emit_scores(state)
        return _PH_WAIT
    state["first_player"] = (np.int64(state["first_player"]) + 1) % np.int64(state["num_players"])
    state["round"] += 1
    return _PH_ROUND_START
