"""Way Out West rules engine: the public batch kernels and the flow of a game (spec §4-§11, §13).

Public kernels: ``init``, ``legal_mask``, ``step``, ``step_and_mask``, ``scores`` and ``tiebreak``, the
batch loops of ``core.engine`` (signatures there) over the per-record forms ``init_one``, ``legal_mask_one``,
``step_one``, which fused loops call. Masks have 59 actions and scores 5 seats: ``scores`` is the §11 VP,
``tiebreak`` cash x 100 + B&T counters on board (§11.4). In the option vector, ``start_player`` -1 draws the
start player; the preset dice are 1..6, at most 64. ``step`` assumes the action is legal: legality is decided
only by ``_enumerate`` (through the predicates of ``actions``, ``auction`` and
``gunfight``), which also drives ``auto_forced``, so the mask and the automatic
play cannot disagree.

Flow: setup placement (§4) -> per round: auction (§6), two laps of action turns
in the new turn order (§7), end of round with income after every third round
(§10) -> after round R final scoring (§11). Each ``_apply`` carries out one
decision and calls the next step of the flow, which poses the next decision
(``decision`` and ``current``) or ends the game; chance (dice) is resolved
inside. The rule modules: ``setup`` (§4), ``auction`` (§6), ``actions`` (§7.2,
§8), ``gunfight`` (§9), ``scoring`` (§10, §11), ``pieces`` (counting helpers).

Decisions where the spec is silent (beyond its §16):

* ``n_decisions`` counts agent decisions; with ``auto_forced`` a decision with
  a single legal id is applied inside the kernel and not counted.
* The turn cap ``max_decisions``: a record that reaches it unfinished is left
  alone by ``step`` (``core.kernels.finished``; ``core.game`` reports it
  truncated); its default lies above the longest game
  the rules allow, so a game played by the rules always ends by them.
* The frontier update (§8.1) also runs at the end of every action turn (it can
  only move after cattle entered a town, which buying and moving already check).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import batch_kernels, count_decision, mark
from ..core.kernels import finished
from ..core.eventlog import EVERYONE, emit
from .actions import (box_legal, build, buy_cattle, buy_two_legal, hire_cowboys, is_build_town, is_cattle_destination,
                      is_cattle_source, is_cattle_town, move_cattle, move_cowboys, move_two_cattle_legal,
                      place_farmer, second_hire_legal)
from .auction import apply_bid, begin_auction, raise_legal
from .data import (A_BOX, A_COUNT, A_NO, A_PASS, A_PLAYER, A_RAISE, A_RETREAT, A_SHOOT, A_TARGET, A_TOWN, A_YES,
                   ACT_BUILD, ACT_BUY_CATTLE, ACT_FARMER, ACT_GUNFIGHT, ACT_HIRE, ACT_MOVE_CATTLE,
                   ACT_MOVE_COWBOYS, BOX_ACTION, BOX_BT, DEC_AUCTION_BID, DEC_BUILD_TOWN, DEC_BUY_CATTLE_COUNT,
                   DEC_BUY_CATTLE_TOWN, DEC_CHOOSE_ACTION, DEC_FARMER_TOWN, DEC_GUNFIGHT_DEFENDER,
                   DEC_GUNFIGHT_TARGET, DEC_GUNFIGHT_TOWN, DEC_HIRE_TOWN_1, DEC_HIRE_TOWN_2,
                   DEC_MOVE_CATTLE_COUNT, DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO, DEC_MOVE_COWBOYS_COUNT,
                   DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO, DEC_NONE, DEC_RETREAT_DESTINATION,
                   DEC_SETUP_PLACE_COWBOY, DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER,
                   DEC_WANTED_STEAL, INCOME_EVERY, MAX_COUNT, MAX_PLAYERS, N_ACTIONS, N_BOXES, N_RAISES,
                   N_TARGETS, N_TOWNS, OPT_AUTO_FORCED, OPT_DICE, OPT_MAX_DECISIONS, OPT_N_DICE, OPT_NUM_PLAYERS,
                   OPT_NUM_ROUNDS, OPT_START_PLAYER, PHASE_ACTIONS, PHASE_OVER, T_CATTLE)
from .eventlog import (EV_ACTION_PHASE_STARTED, EV_ACTION_TURN, EV_BOX_TAKEN, EV_PASSED, EV_ROUND_ENDED,
                       EV_SHERIFF_DECIDED, emit_game_over)
from .gunfight import (choose_shoot, declared_defender, fix_sides, is_fight_town, retreat_destination_legal,
                       retreat_to, run_fight, start_fight, start_retreat, steal_legal, steal_wanted, target_legal)
from .pieces import update_frontier
from .scoring import pay_income, tiebreak_seats, victory_points
from .setup import clear_pending, place_setup_cowboy, setup_game
from .state import EMPTY_RECORD, NO_TOWN, NOBODY

MAX_AUTO_STEPS = 64  # auto_forced applies at most this many single-option decisions per step (a chain is short)
_FIRST_DECISION = np.zeros(ACT_GUNFIGHT + 1, dtype=np.int64)  # the first sub-decision of each action ACT_* (§8)
for _act, _dec in ((ACT_BUY_CATTLE, DEC_BUY_CATTLE_TOWN), (ACT_HIRE, DEC_HIRE_TOWN_1),
                   (ACT_MOVE_COWBOYS, DEC_MOVE_COWBOYS_FROM), (ACT_MOVE_CATTLE, DEC_MOVE_CATTLE_FROM),
                   (ACT_BUILD, DEC_BUILD_TOWN), (ACT_FARMER, DEC_FARMER_TOWN), (ACT_GUNFIGHT, DEC_GUNFIGHT_TOWN)):
    _FIRST_DECISION[_act] = _dec
_FIRST_DECISION.setflags(write=False)


# ---- public per-record kernels ---------------------------------------------------------------------------------
@njit(cache=True)
def init_one(state: np.void, seed: np.uint64, options: np.ndarray) -> None:
    """Set up one record at the first setup placement (§4)."""
    setup_game(state, seed, options[OPT_NUM_PLAYERS], options[OPT_NUM_ROUNDS], options[OPT_START_PLAYER],
               options[OPT_DICE:OPT_DICE + options[OPT_N_DICE]], options[OPT_AUTO_FORCED] != 0,
               options[OPT_MAX_DECISIONS])
    _auto_play(state)


@njit(cache=True)
def legal_mask_one(state: np.void, out_row: np.ndarray) -> None:
    """Legal actions of the pending decision of one record (§13.2)."""
    for a in range(N_ACTIONS):
        out_row[a] = 0
    if not finished(state):  # ended, or at the decision cap: no legal action
        _enumerate(state, out_row)


@njit(cache=True)
def step_one(state: np.void, action: int) -> None:
    """Apply one legal action to one record, then any forced decisions (``auto_forced``); a finished record
    (ended, or at the decision cap) is left alone."""
    if not count_decision(state):
        return
    _apply(state, np.int64(action))
    _auto_play(state)


@njit(cache=True)
def _auto_play(state: np.void) -> None:
    """With ``auto_forced``, apply decisions that have exactly one legal id (§13.2)."""
    if not state["auto_forced"]:
        return
    for _ in range(MAX_AUTO_STEPS):
        if state["done"]:
            return
        count, last = _enumerate(state, _no_out(state))
        if count != 1:
            return
        _apply(state, last)


# ---- public batch kernels (core.engine: loops over the per-record kernels) -------------------------------------
init, legal_mask, step_and_mask, step, scores, tiebreak = batch_kernels(
    __name__, EMPTY_RECORD, init_one, legal_mask_one, step_one, victory_points, tiebreak_seats,
    init="the first setup placement, §4", legal_mask="§13.2", step_and_mask="§4-§11", scores="victory points (§11)",
    tiebreak="cash x 100 + B&T counters on board, §11.4", uncounted=True)


# ---- legality: the one place (§13.2) ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _no_out(state: np.void) -> np.ndarray:
    """An empty int8 view: ``_enumerate`` then only counts."""
    return state["turns_used"][:0]


@njit(cache=True)
def _enumerate(state: np.void, out: np.ndarray) -> tuple:
    """Mark the legal ids of the pending decision in ``out``; return (their count, the last one) (§13.2)."""
    dec = np.int64(state["decision"])
    p = np.int64(state["current"])
    n = np.int64(state["num_players"])
    f = np.int64(state["pend_town1"])
    count = 0
    last = -1
    if dec == DEC_AUCTION_BID or dec == DEC_CHOOSE_ACTION:  # pass, or a legal raise / action box
        mark(out, A_PASS)
        count, last = 1, A_PASS
        bid = dec == DEC_AUCTION_BID
        first = A_RAISE if bid else A_BOX
        for i in range(N_RAISES if bid else N_BOXES):
            if raise_legal(state, p, i) if bid else box_legal(state, p, i):
                mark(out, first + i)
                count, last = count + 1, first + i
    elif dec == DEC_HIRE_TOWN_2:
        mark(out, A_PASS)
        count, last = 1, A_PASS
        if second_hire_legal(state, p):
            for t in range(N_TOWNS):
                mark(out, A_TOWN + t)
            count, last = count + N_TOWNS, A_TOWN + N_TOWNS - 1
    elif dec == DEC_BUY_CATTLE_COUNT or dec == DEC_MOVE_CATTLE_COUNT:
        mark(out, A_COUNT)
        count, last = 1, A_COUNT
        two = (buy_two_legal(state, p, f) if dec == DEC_BUY_CATTLE_COUNT
               else move_two_cattle_legal(state, p, f, np.int64(state["pend_town2"])))
        if two:
            mark(out, A_COUNT + 1)
            count, last = 2, A_COUNT + 1
    elif dec == DEC_MOVE_COWBOYS_COUNT:
        for i in range(min(np.int64(MAX_COUNT), np.int64(state["cowboys"][f, p]))):
            mark(out, A_COUNT + i)
            count, last = count + 1, A_COUNT + i
    elif dec == DEC_GUNFIGHT_TARGET:
        for x in range(N_TARGETS):
            if target_legal(state, p, f, x):
                mark(out, A_TARGET + x)
                count, last = count + 1, A_TARGET + x
    elif dec == DEC_GUNFIGHT_DEFENDER or dec == DEC_WANTED_STEAL:
        for r in range(1, n):
            q = (p + r) % n
            ok = state["cattle"][f, q] >= 1 if dec == DEC_GUNFIGHT_DEFENDER else steal_legal(state, p, q)
            if ok:
                mark(out, A_PLAYER + r)
                count, last = count + 1, A_PLAYER + r
    elif dec == DEC_SHERIFF_JOIN:
        mark(out, A_YES)
        mark(out, A_NO)
        count, last = 2, A_NO
    elif dec == DEC_VOLLEY_ATTACKER or dec == DEC_VOLLEY_DEFENDER:
        mark(out, A_SHOOT)
        mark(out, A_RETREAT)
        count, last = 2, A_RETREAT
    else:  # the town decisions
        for t in range(N_TOWNS):
            if _town_legal(state, dec, p, f, t):
                mark(out, A_TOWN + t)
                count, last = count + 1, A_TOWN + t
    return count, last


@njit(cache=True, inline="always")
def _town_legal(state: np.void, dec: int, p: int, f: int, t: int) -> bool:
    """TOWN_t at a town decision (§13.2 table)."""
    if dec == DEC_SETUP_PLACE_COWBOY or dec == DEC_HIRE_TOWN_1 or dec == DEC_FARMER_TOWN:
        return True
    if dec == DEC_BUY_CATTLE_TOWN:
        return is_cattle_town(state, p, t)
    if dec == DEC_MOVE_COWBOYS_FROM:
        return state["cowboys"][t, p] >= 1
    if dec == DEC_MOVE_COWBOYS_TO:
        return t != f
    if dec == DEC_MOVE_CATTLE_FROM:
        return is_cattle_source(state, p, t)
    if dec == DEC_MOVE_CATTLE_TO:
        return is_cattle_destination(state, p, f, t)
    if dec == DEC_BUILD_TOWN:
        return is_build_town(state, p, np.int64(BOX_BT[state["pend_box"]]), t)
    if dec == DEC_GUNFIGHT_TOWN:
        return is_fight_town(state, p, t)
    if dec == DEC_RETREAT_DESTINATION:
        return retreat_destination_legal(state, t)
    return False


# ---- applying a decision ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _apply(state: np.void, a: int) -> None:
    """Carry out legal action a of the pending decision and move the game on to the next one."""
    dec = np.int64(state["decision"])
    p = np.int64(state["current"])
    t = a - A_TOWN
    if dec == DEC_SETUP_PLACE_COWBOY:
        if place_setup_cowboy(state, t):
            begin_auction(state)
    elif dec == DEC_AUCTION_BID:
        if apply_bid(state, a):
            _begin_action_phase(state)
    elif dec == DEC_CHOOSE_ACTION:
        if a == A_PASS:
            emit(state, EV_PASSED, EVERYONE, p, 0, 0, 0)
            _end_action_turn(state)
        else:
            _take_box(state, p, a - A_BOX)
    elif dec <= DEC_FARMER_TOWN:
        _apply_action_choice(state, dec, p, a)
    else:
        _apply_gunfight_choice(state, dec, p, a)


@njit(cache=True, inline="always")
def _take_box(state: np.void, p: int, b: int) -> None:
    """The marker goes on box b at once (§13.2); the action's first sub-decision follows (§8)."""
    state["box_user"][b] = p
    state["pend_box"] = b
    emit(state, EV_BOX_TAKEN, EVERYONE, p, b, 0, 0)
    state["decision"] = _FIRST_DECISION[np.int64(BOX_ACTION[b])]


@njit(cache=True, inline="always")
def _apply_action_choice(state: np.void, dec: int, p: int, a: int) -> None:
    """The sub-decisions of buy, hire, move, build and farmer (§8.1-§8.6); the action ends with its last one."""
    t = a - A_TOWN
    n = a - A_COUNT + 1
    f = np.int64(state["pend_town1"])
    if dec == DEC_BUY_CATTLE_TOWN:
        state["pend_town1"] = t
        state["decision"] = DEC_BUY_CATTLE_COUNT
        return
    if dec == DEC_HIRE_TOWN_1:
        state["pend_town1"] = t
        state["decision"] = DEC_HIRE_TOWN_2
        return
    if dec == DEC_MOVE_COWBOYS_FROM or dec == DEC_MOVE_CATTLE_FROM:
        state["pend_town1"] = t
        state["decision"] = dec + 1  # ..._TO
        return
    if dec == DEC_MOVE_COWBOYS_TO or dec == DEC_MOVE_CATTLE_TO:
        state["pend_town2"] = t
        state["decision"] = dec + 1  # ..._COUNT
        return
    if dec == DEC_BUY_CATTLE_COUNT:
        buy_cattle(state, p, f, n)
    elif dec == DEC_HIRE_TOWN_2:
        hire_cowboys(state, p, f, NO_TOWN if a == A_PASS else t)
    elif dec == DEC_MOVE_COWBOYS_COUNT:
        move_cowboys(state, p, f, np.int64(state["pend_town2"]), n)
    elif dec == DEC_MOVE_CATTLE_COUNT:
        move_cattle(state, p, f, np.int64(state["pend_town2"]), n)
    elif dec == DEC_BUILD_TOWN:
        build(state, p, np.int64(BOX_BT[state["pend_box"]]), t)
    else:  # DEC_FARMER_TOWN
        place_farmer(state, p, t)
    _end_action_turn(state)


@njit(cache=True, inline="always")
def _apply_gunfight_choice(state: np.void, dec: int, p: int, a: int) -> None:
    """Declaration, sheriff, volleys, retreat and Wanted decisions of a gunfight (§9); the action ends with it."""
    over = False
    if dec == DEC_GUNFIGHT_TOWN:
        state["pend_town1"] = a - A_TOWN
        state["decision"] = DEC_GUNFIGHT_TARGET
    elif dec == DEC_GUNFIGHT_TARGET:
        x = a - A_TARGET
        state["pend_target"] = x
        if x == T_CATTLE:
            state["decision"] = DEC_GUNFIGHT_DEFENDER
        else:
            state["pend_defender"] = declared_defender(state, p, np.int64(state["pend_town1"]), x)
            over = start_fight(state)
    elif dec == DEC_GUNFIGHT_DEFENDER:
        state["pend_defender"] = (p + a - A_PLAYER) % np.int64(state["num_players"])
        over = start_fight(state)
    elif dec == DEC_SHERIFF_JOIN:
        emit(state, EV_SHERIFF_DECIDED, EVERYONE, p, 1 if a == A_YES else 0, 0, 0)
        fix_sides(state, a == A_YES)
        over = run_fight(state)
    elif dec == DEC_VOLLEY_ATTACKER or dec == DEC_VOLLEY_DEFENDER:
        over = choose_shoot(state) if a == A_SHOOT else start_retreat(state)
    elif dec == DEC_RETREAT_DESTINATION:
        over = retreat_to(state, a - A_TOWN)
    else:  # DEC_WANTED_STEAL
        steal_wanted(state, p, (p + a - A_PLAYER) % np.int64(state["num_players"]))
        over = True
    if over:
        _end_action_turn(state)


# ---- the flow of rounds (§5, §7.1, §10.1) -------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _begin_action_phase(state: np.void) -> None:
    """Phase B: lap 1 starts with turn-order position 1 (§7.1)."""
    state["phase"] = PHASE_ACTIONS
    emit(state, EV_ACTION_PHASE_STARTED, EVERYONE, state["round"], 0, 0, 0)
    state["lap"] = 0
    state["turn_index"] = 0
    for p in range(MAX_PLAYERS):
        state["turns_used"][p] = 0
    _begin_action_turn(state)


@njit(cache=True, inline="always")
def _begin_action_turn(state: np.void) -> None:
    state["decision"] = DEC_CHOOSE_ACTION
    state["current"] = state["turn_order"][state["turn_index"]]
    emit(state, EV_ACTION_TURN, EVERYONE, state["current"], state["round"], state["lap"] + 1,
         state["turn_index"] + 1)


@njit(cache=True)
def _end_action_turn(state: np.void) -> None:
    """The action is complete: frontier update, then the next action turn or the end of the round (§7.1)."""
    update_frontier(state)
    clear_pending(state)
    p = np.int64(state["turn_order"][state["turn_index"]])
    state["turns_used"][p] += 1
    state["turn_index"] += 1
    if state["turn_index"] < state["num_players"]:
        _begin_action_turn(state)
    elif state["lap"] == 0:
        state["lap"] = 1
        state["turn_index"] = 0
        _begin_action_turn(state)
    else:
        _end_round(state)


@njit(cache=True, inline="always")
def _end_round(state: np.void) -> None:
    """Phase C: markers back, income after every third round, then the next auction or the end (§10.1, §11.1)."""
    for b in range(N_BOXES):
        state["box_user"][b] = NOBODY
    r = np.int64(state["round"])
    emit(state, EV_ROUND_ENDED, EVERYONE, r, 0, 0, 0)
    if r % INCOME_EVERY == 0:
        pay_income(state)
    if r >= state["num_rounds"]:
        state["done"] = True
        state["phase"] = PHASE_OVER
        state["decision"] = DEC_NONE
        state["current"] = NOBODY
        emit_game_over(state)
        return
    state["round"] = r + 1
    begin_auction(state)
