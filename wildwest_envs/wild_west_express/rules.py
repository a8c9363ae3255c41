"""Wild West Express rules engine: the public batch kernels and the flow of a game (spec §5-§14, §17).

Public kernels: ``init``, ``legal_mask``, ``step``, ``step_and_mask``, ``scores`` and ``tiebreak``, the
batch loops of ``core.engine`` (signatures there) over the per-record forms ``init_one``, ``legal_mask_one``,
``step_one``, which fused loops call. Masks have 553 actions and scores 5 seats: ``scores`` is the §14.1 VP,
``tiebreak`` the cash (§14.3). In the option vector, ``victory_target`` 0 = the table of §14.2;
``cash_vp_mode`` and ``cap_scoring`` are the codes of ``data``. ``step`` assumes the
action is legal: legality is decided only by ``_enumerate`` (and the
predicates of the rule modules it calls), which also serves the auto-forced
check, so the mask and the automatic play can never disagree.

After ``init`` and after every ``step`` a record stands at an agent decision
or is finished. Everything automatic in between (forced steps, duels,
explosions, fees, public cards, competition claims, single-option decisions
with ``auto_forced``) is resolved inside the kernel by ``_advance``, a small
state machine: each continuation (``_K_*``) returns the next one, or
``_K_WAIT`` once a decision is posed. The pending-decision stack of §17.5 is
kept in the record (``move_*``, ``landing_*``, ``card_*``, ``sel_*``,
``queue_*``, ``desp_*``), so a continuation is always recomputed from the
record and nothing lives outside it.

The rules live in one module per job: ``setup`` (§5), ``preroll`` (§6.3),
``movement`` (§7), ``arrival`` (§8), ``desperados`` (§9-§10), ``dynamite``
(§11), ``sheriffs`` (§12), ``telegrams`` (§13), ``scoring`` (§14), ``pieces``
(counting helpers).

Decisions where the spec is silent or leaves the implementation open:

* The turn cap ``max_decisions``: a record that reaches it unfinished is left
  alone by ``step`` (``core.kernels.finished``; core.game reports it truncated). The game's own caps are: the
  end of round ``max_rounds`` and 1000 decisions in one turn (§14.4); both end
  the game with ``done`` and ``capped`` set. The safety limit is exact: the
  game ends right after the turn's 1000th decision, also when that decision
  ends the turn (checked in ``_end_turn`` after the victory check, so a victory
  at that moment stands; otherwise after the decision's automatic play).
* ``current`` is the active player during play and the drafting/placing seat
  during setup; ``active`` is the same seat.
* A played personal card is neither held nor in the deck while it resolves
  (``card_active`` / ``move_card`` / ``queue_card`` name it).
* A card drawn at a landing during an extra move started from PRE_ROLL and
  kept may be played in that same PRE_ROLL (§13.3): the hand is one list.
* With ``auto_forced``, a single-option decision is applied without counting
  as an agent decision (``n_decisions`` counts agent steps only).
* Extra moves per turn are counted in ``extra_moves``; the bound of 12 (§13.3)
  follows from the rules and is also enforced as a guard (a movement card is
  not playable at 12, ``telegrams.card_playable``).

Compile time: numba compiles a helper once per argument type, and a literal
argument (``0``, ``True``, a module constant) is its own type, so constants
passed to helpers are wrapped in ``np.int64`` / ``np.bool_`` (and loop
variables start as ``np.int64``) to keep one build per helper. Tiny helpers
and the single-use continuations of ``_advance`` are ``inline="always"``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.engine import batch_kernels, count_decision, mark
from ..core.kernels import finished
from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below
from .arrival import pay_fee, settle_debts, unload, unload_legal
from .data import (A_DESPERADO, A_END, A_HOLD, A_PLAY_CARD, A_REHIRE, A_SHERIFF, A_SPACE, A_STOP, A_TRAIN,
                   A_UNLOAD_SLOT, CARD_AMOUNT, CARD_BACKTRACK, CARD_STEPS, CARD_TYPE, DEC_ARRIVAL,
                   DEC_CARD_CITY, DEC_CARD_DESPERADO, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE,
                   DEC_CARD_HIDEOUT_CITY, DEC_CARD_TRAIN, DEC_DESPERADO_STEP, DEC_DRAFT_CITY, DEC_NONE,
                   DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DEC_REHIRE_TARGET, DEC_SELECT_TRAIN, DEC_SHERIFF_PIECE,
                   DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN, DEC_TRAIN_STEP, DIE_SIDES, FREE, IS_CITY,
                   LAND_GRANT_PRICE, MAX_DEGREE, MAX_TRAINS, MAX_TURN_DECISIONS, N_ACTIONS, N_CARGO, N_CITIES,
                   N_SHERIFFS, N_SPACES, NEIGHBOURS, NO_CARD, NO_SPACE, OPT_START_PLAYER, PHASE_DESPERADO,
                   PHASE_MOVEMENT, PHASE_OVER, PHASE_PRE_ROLL, SPACE_SPECIAL, SPECIAL_STAR, SPECIAL_TELEGRAM,
                   T_ARMED_GUARDS, T_DYNAMITE_CRATE, T_FRIEND_OF_THE_LAW, T_HIDEOUT, T_LAND_GRANT, T_MAIL_RACE,
                   T_SUBSIDY_100, T_SUBSIDY_200, T_TRACK_CREW)
from .desperados import can_rehire, nearest_stations, step_legal
from .eventlog import (EV_CARD_PLAYED, EV_CARD_PAYMENT, EV_DESPERADO_MOVED, EV_DESPERADO_PLACED, EV_DICE_ROLLED,
                       EV_DYNAMITE_PLACED, EV_DYNAMITE_REMOVED, EV_PHASE_BEGINS, EV_TRAIN_ARMED, EV_TRAIN_HELD,
                       EV_TRAIN_LANDED, EV_TRAIN_SAT_OUT, EV_TURN_BEGINS, PLACED_HIDEOUT, PLACED_REHIRE,
                       REMOVED_BY_TRACK_CREW, SAT_OUT_DEBT, SAT_OUT_WAIT, emit_card_drawn, emit_card_kept,
                       emit_game_over)
from .dynamite import any_dynamite, any_dynamite_space, can_place_dynamite, explode, place_dynamite, \
    remove_dynamite
from .pieces import bank_pays
from .movement import can_hold, can_stop, next_space_legal, start_move, take_step
from .preroll import any_pre_roll_option, apply_pre_roll, buy_station, mark_pre_roll
from .scoring import score_seats, target_reached, tiebreak_seats
from .setup import (apply_draft, apply_placement, choose_start_player, clear_procedures, draft_seat, finish_setup,
                    n_placements, placement_seat, setup_game)
from .sheriffs import off_board_sheriff, place_sheriff, sheriff_space_legal
from .state import EMPTY_RECORD, LANDING_DONE, LANDING_NONE, NOBODY, RET_CARD, RET_LANDING, RET_PRE_ROLL
from .telegrams import (card_playable, claim_competitions, count_down_competitions, draw_card,
                        holds_personal_card, is_move_card, reveal_drawn, to_bottom)

# continuations of the flow (module docstring)
(_K_WAIT, _K_DRAFT, _K_PLACE, _K_TURN_START, _K_PRE_ROLL, _K_ROLL, _K_SELECT, _K_MOVE, _K_LANDING, _K_MOVE_DONE,
 _K_CARD, _K_CARD_DONE, _K_SHERIFF, _K_SHERIFF_DONE, _K_DESPERADOS, _K_DESP_MOVE, _K_REHIRE, _K_TURN_END) = range(18)


# ---- public per-record kernels ---------------------------------------------------------------------------------
@njit(cache=True)
def init_one(state: np.void, seed: np.uint64, options: np.ndarray) -> None:
    """Set up one record and advance it to the first decision (the first draft pick, §5)."""
    setup_game(state, seed, options)
    if options[OPT_START_PLAYER] >= 0:  # scripted: the draw was made, so the deck is the seed's either way
        choose_start_player(state, options[OPT_START_PLAYER])
    _advance(state, np.int64(_K_DRAFT))


@njit(cache=True)
def legal_mask_one(state: np.void, out_row: np.ndarray) -> None:
    """Legal actions of the pending decision of one record (§17.2)."""
    for a in range(N_ACTIONS):
        out_row[a] = 0
    if not finished(state):  # ended, or at the decision cap: no legal action
        _enumerate(state, out_row)


@njit(cache=True)
def step_one(state: np.void, action: int) -> None:
    """Apply one legal action to one record, then resolve everything automatic up to the next decision; a
    finished record (ended, or at the decision cap) is left alone."""
    if not count_decision(state):
        return
    state["turn_decisions"] += 1
    _advance(state, _apply(state, np.int64(action)))
    if not state["done"] and state["turn_decisions"] >= MAX_TURN_DECISIONS:
        _end_game(state, np.bool_(True))  # the safety limit of §14.4


# ---- public batch kernels (core.engine: loops over the per-record kernels) -------------------------------------
init, legal_mask, step_and_mask, step, scores, tiebreak = batch_kernels(
    __name__, EMPTY_RECORD, init_one, legal_mask_one, step_one, score_seats, tiebreak_seats, init="§5",
    legal_mask="§17.2", step_and_mask="§6-§14", scores="victory points (§14.1)", tiebreak="cash, §14.3",
    prefetch_ahead=2, uncounted=True)  # B = 8192: its step 1.7x as fast on one thread and on two (core.prefetch)


# ---- legality: the one place (§17.2) ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _no_out(state: np.void) -> np.ndarray:
    """An empty int8 view used when ``_enumerate`` only counts: nothing is allocated or written."""
    return state["deck"][:0]


@njit(cache=True)
def _enumerate(state: np.void, out: np.ndarray) -> tuple:
    """Mark the legal actions of the pending decision in ``out``; return (their count, the last one)."""
    dec = np.int64(state["decision"])
    seat = np.int64(state["active"])
    count = 0
    last = -1
    if dec == DEC_DRAFT_CITY or dec == DEC_CARD_CITY:
        for c in range(N_CITIES):
            if state["city_owner"][c] == NOBODY:
                mark(out, A_SPACE + c)
                count, last = count + 1, A_SPACE + c
    elif dec == DEC_PLACE_DESPERADO:
        for i in range(2):
            c = np.int64(state["start_city"][seat, i])
            mark(out, A_SPACE + c)
            count, last = count + 1, A_SPACE + c
    elif dec == DEC_PRE_ROLL:
        count, last = mark_pre_roll(state, seat, out, np.bool_(False))  # = pre_roll_legal over every action
    elif dec == DEC_SELECT_TRAIN:
        for t in range(MAX_TRAINS):
            if state["train_exists"][seat, t] and not state["train_moved"][seat, t]:
                mark(out, A_TRAIN + t)
                count, last = count + 1, A_TRAIN + t
    elif dec == DEC_TRAIN_STEP:
        t = np.int64(state["move_train"])
        x = np.int64(state["train_pos"][seat, t])
        for i in range(MAX_DEGREE):
            o = np.int64(NEIGHBOURS[x, i])
            if o >= 0 and next_space_legal(state, seat, t, o):
                mark(out, A_SPACE + o)
                count, last = count + 1, A_SPACE + o
        if can_stop(state, seat, t):
            mark(out, A_STOP)
            count, last = count + 1, A_STOP
        if can_hold(state, seat, t):
            mark(out, A_HOLD)
            count, last = count + 1, A_HOLD
    elif dec == DEC_ARRIVAL:
        t = np.int64(state["move_train"])
        for j in range(N_CARGO):
            if unload_legal(state, seat, t, np.int64(state["landing_space"]), j):
                mark(out, A_UNLOAD_SLOT + j)
                count, last = count + 1, A_UNLOAD_SLOT + j
        mark(out, A_END)
        count, last = count + 1, A_END
    elif dec == DEC_SHERIFF_PIECE:
        for k in range(N_SHERIFFS):
            mark(out, A_SHERIFF + k)
        mark(out, A_END)
        count, last = N_SHERIFFS + 1, A_END
    elif dec == DEC_SHERIFF_SPACE:
        k = np.int64(state["sel_sheriff"])
        for s in range(N_SPACES):
            if sheriff_space_legal(state, k, s):
                mark(out, A_SPACE + s)
                count += 1
        mark(out, A_END)
        count, last = count + 1, A_END
    elif dec == DEC_TELEGRAM_DRAWN:
        card = np.int64(state["drawn_card"])
        if card_playable(state, seat, card, np.int64(state["move_train"])):
            mark(out, A_PLAY_CARD + card)
            count += 1
        mark(out, A_END)
        count, last = count + 1, A_END
    elif dec == DEC_CARD_TRAIN:
        for t in range(MAX_TRAINS):
            if state["train_exists"][seat, t]:
                mark(out, A_TRAIN + t)
                count, last = count + 1, A_TRAIN + t
    elif dec == DEC_CARD_DYNAMITE_PLACE or dec == DEC_CARD_DYNAMITE_REMOVE:
        for s in range(N_SPACES):
            ok = can_place_dynamite(state, s) if dec == DEC_CARD_DYNAMITE_PLACE else state["dynamite"][s] != 0
            if ok:
                mark(out, A_SPACE + s)
                count += 1
        mark(out, A_END)
        count, last = count + 1, A_END
    elif dec == DEC_CARD_DESPERADO:
        for k in range(np.int64(state["n_desperados"][seat])):
            mark(out, A_DESPERADO + k)
            count, last = count + 1, A_DESPERADO + k
    elif dec == DEC_CARD_HIDEOUT_CITY:
        here = np.int64(state["desp_pos"][seat, np.int64(state["sel_desperado"])])
        for c in range(N_CITIES):
            if state["city_owner"][c] == seat and c != here:
                mark(out, A_SPACE + c)
                count, last = count + 1, A_SPACE + c
    elif dec == DEC_DESPERADO_STEP:
        k = np.int64(state["desp_index"])
        x = np.int64(state["desp_pos"][seat, k])
        y = np.int64(state["desp_from"])
        r = np.int64(state["desp_steps"])
        for i in range(MAX_DEGREE):
            n = np.int64(NEIGHBOURS[x, i])
            if n >= 0 and step_legal(state, x, y, n, r):
                mark(out, A_SPACE + n)
                count, last = count + 1, A_SPACE + n
        if y == NO_SPACE and can_rehire(state, seat, x, r):
            mark(out, A_REHIRE)
            count, last = count + 1, A_REHIRE
    elif dec == DEC_REHIRE_TARGET:
        k = np.int64(state["desp_index"])
        x = np.int64(state["desp_pos"][seat, k])
        _, n_nearest, nearest = nearest_stations(state, seat, x, np.int64(state["dice"][0]))
        for c in range(N_CITIES):
            if state["city_owner"][c] == seat and (n_nearest > 1 or c != nearest):
                mark(out, A_SPACE + c)
                count, last = count + 1, A_SPACE + c
    return count, last


# ---- applying a decision ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _apply(state: np.void, a: int) -> int:
    """Carry out legal action a of the pending decision; return the continuation that follows."""
    dec = np.int64(state["decision"])
    seat = np.int64(state["active"])
    state["decision"] = DEC_NONE
    if dec == DEC_DRAFT_CITY:
        apply_draft(state, seat, a - A_SPACE)
        return _K_DRAFT
    if dec == DEC_PLACE_DESPERADO:
        apply_placement(state, seat, a - A_SPACE)
        return _K_PLACE
    if dec == DEC_PRE_ROLL:
        if a == A_END:
            return _K_ROLL
        if A_PLAY_CARD <= a < A_PLAY_CARD + 52:
            card = a - A_PLAY_CARD
            return _play_card(state, card, np.int64(state["card_bound"][card]), np.int64(RET_PRE_ROLL))
        apply_pre_roll(state, seat, a)
        return _K_PRE_ROLL
    if dec == DEC_SELECT_TRAIN:
        t = a - A_TRAIN
        state["train_moved"][seat, t] = 1  # moved from the moment it is chosen (§7.1)
        start_move(state, t, _dice_move(state, seat, t), np.bool_(True), np.bool_(False), np.int64(NO_CARD),
                   np.int64(PHASE_MOVEMENT))
        return _K_MOVE
    if dec == DEC_TRAIN_STEP:
        if a == A_HOLD:
            emit(state, EV_TRAIN_HELD, EVERYONE, seat, state["move_train"],
                 state["train_pos"][seat, np.int64(state["move_train"])], 0)
            return _K_MOVE_DONE  # no landing resolution (§7.4)
        if a == A_STOP:
            _begin_landing(state)
            return _K_LANDING
        take_step(state, seat, np.int64(state["move_train"]), a - A_SPACE)
        return _K_MOVE
    if dec == DEC_ARRIVAL:
        if a == A_END:
            state["landing_step"] += 1
        else:
            unload(state, seat, np.int64(state["move_train"]), np.int64(state["landing_space"]), a - A_UNLOAD_SLOT)
        return _K_LANDING
    if dec == DEC_SHERIFF_PIECE:
        if a == A_END:
            return _K_SHERIFF_DONE
        state["sel_sheriff"] = a - A_SHERIFF
        return _K_SHERIFF
    if dec == DEC_SHERIFF_SPACE:
        if a != A_END:
            place_sheriff(state, np.int64(state["sel_sheriff"]), a - A_SPACE)
        return _K_SHERIFF_DONE
    if dec == DEC_TELEGRAM_DRAWN:
        card = np.int64(state["drawn_card"])
        state["drawn_card"] = NO_CARD
        if a == A_END:  # keep it, bound to the train that drew it (§13.3)
            emit_card_kept(state, seat, np.int64(state["move_train"]), card)
            state["card_holder"][card] = seat
            state["card_bound"][card] = state["move_train"]
            state["landing_step"] += 1
            return _K_LANDING
        return _play_card(state, card, np.int64(state["move_train"]), np.int64(RET_LANDING))
    return _apply_card_choice(state, dec, seat, a)


@njit(cache=True)
def _apply_card_choice(state: np.void, dec: int, seat: int, a: int) -> int:
    """Sub-decisions of personal cards and desperado moves (§9, §13.5)."""
    if dec == DEC_CARD_TRAIN:
        state["train_armed"][seat, a - A_TRAIN] = 1
        emit(state, EV_TRAIN_ARMED, EVERYONE, seat, a - A_TRAIN, 0, 0)
        state["card_left"] = 0
        return _K_CARD_DONE
    if dec == DEC_CARD_DYNAMITE_PLACE or dec == DEC_CARD_DYNAMITE_REMOVE:
        if a == A_END:
            return _K_CARD_DONE
        if dec == DEC_CARD_DYNAMITE_PLACE:
            place_dynamite(state, a - A_SPACE)
            emit(state, EV_DYNAMITE_PLACED, EVERYONE, seat, a - A_SPACE, 0, 0)  # a free token (§13.5)
        else:
            emit(state, EV_DYNAMITE_REMOVED, EVERYONE, a - A_SPACE, REMOVED_BY_TRACK_CREW, seat, 0)
            remove_dynamite(state, a - A_SPACE)
        state["card_left"] -= 1
        return _K_CARD
    if dec == DEC_CARD_CITY:
        buy_station(state, seat, a - A_SPACE, np.int64(LAND_GRANT_PRICE))
        state["card_left"] = 0
        return _K_CARD_DONE
    if dec == DEC_CARD_DESPERADO:
        state["sel_desperado"] = a - A_DESPERADO
        return _K_CARD
    if dec == DEC_CARD_HIDEOUT_CITY:
        state["desp_pos"][seat, np.int64(state["sel_desperado"])] = a - A_SPACE  # placed, not moved (§9.3)
        emit(state, EV_DESPERADO_PLACED, EVERYONE, seat, state["sel_desperado"], a - A_SPACE, PLACED_HIDEOUT)
        state["card_left"] = 0
        return _K_CARD_DONE
    if dec == DEC_DESPERADO_STEP:
        if a == A_REHIRE:
            return _K_REHIRE
        _desperado_step(state, seat, a - A_SPACE)
        return _K_DESP_MOVE
    # DEC_REHIRE_TARGET: the jump is not a step (§9.3)
    state["desp_pos"][seat, np.int64(state["desp_index"])] = a - A_SPACE
    emit(state, EV_DESPERADO_PLACED, EVERYONE, seat, state["desp_index"], a - A_SPACE, PLACED_REHIRE)
    state["desp_index"] += 1
    return _K_DESPERADOS


# ---- the flow --------------------------------------------------------------------------------------------------------
@njit(cache=True)
def _advance(state: np.void, k: int) -> None:
    """Run the automatic parts of the game until a decision is posed or the game ends."""
    while k != _K_WAIT:
        if k == _K_MOVE:
            k = _continue_move(state)
        elif k == _K_LANDING:
            k = _continue_landing(state)
        elif k == _K_MOVE_DONE:
            k = _finish_move(state)
        elif k == _K_SELECT:
            k = _select_train(state)
        elif k == _K_PRE_ROLL:
            k = _pre_roll(state)
        elif k == _K_DESP_MOVE:
            k = _continue_desperado(state)
        elif k == _K_DESPERADOS:
            k = _next_desperado(state)
        elif k == _K_CARD:
            k = _continue_card(state)
        elif k == _K_CARD_DONE:
            k = _finish_card(state)
        elif k == _K_SHERIFF:
            k = _choose_sheriff(state)
        elif k == _K_SHERIFF_DONE:
            k = _finish_sheriff(state)
        elif k == _K_REHIRE:
            k = _pose(state, np.int64(DEC_REHIRE_TARGET))
        elif k == _K_ROLL:
            k = _roll(state)
        elif k == _K_TURN_START:
            k = _start_turn(state)
        elif k == _K_TURN_END:
            k = _end_turn(state)
        elif k == _K_DRAFT:
            k = _next_draft(state)
        else:
            k = _next_placement(state)


@njit(cache=True)
def _pose(state: np.void, dec: int) -> int:
    """Ask the active player; with auto_forced a single legal action is applied at once (§17.3)."""
    state["decision"] = dec
    state["current"] = state["active"]
    if state["auto_forced"] and dec != DEC_TELEGRAM_DRAWN:  # TELEGRAM_DRAWN is always asked (§17.3)
        count, last = _enumerate(state, _no_out(state))
        if count == 1:
            return _apply(state, last)
    return _K_WAIT


@njit(cache=True)
def _end_game(state: np.void, capped: bool) -> int:
    """The game is over: by victory (§14.3) or by a cap (§14.4)."""
    emit_game_over(state, capped)
    clear_procedures(state)
    state["done"] = True
    state["capped"] = capped
    state["phase"] = PHASE_OVER
    state["decision"] = DEC_NONE
    state["current"] = NOBODY
    return _K_WAIT


# ---- setup (§5) ------------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _next_draft(state: np.void) -> int:
    """Ask the next pick of the snake draft, then the desperado placement (§5 items 2-3)."""
    i = np.int64(state["setup_step"])
    if i < 2 * np.int64(state["num_players"]):
        state["active"] = draft_seat(state, i)
        return _pose(state, np.int64(DEC_DRAFT_CITY))
    return _K_PLACE


@njit(cache=True, inline="always")
def _next_placement(state: np.void) -> int:
    """Ask the next desperado placement; after the last, trains and money, and the first turn (§5 items 3-7)."""
    j = np.int64(state["setup_step"]) - 2 * np.int64(state["num_players"])
    if j < n_placements(state):
        state["active"] = placement_seat(state, j)
        return _pose(state, np.int64(DEC_PLACE_DESPERADO))
    finish_setup(state)
    state["active"] = state["start_player"]
    state["round"] = 1
    return _K_TURN_START


# ---- the turn (§6) ---------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _start_turn(state: np.void) -> int:
    """Reset the per-turn counters, clear the dice, settle debts (§6.2)."""
    seat = np.int64(state["active"])
    state["phase"] = PHASE_PRE_ROLL
    state["turn"] += 1
    state["turn_decisions"] = 0
    state["extra_moves"] = 0
    state["dynamite_bought"][seat] = 0
    for t in range(MAX_TRAINS):
        state["train_moved"][seat, t] = 0
    for i in range(3):
        state["dice"][i] = 0
    emit(state, EV_TURN_BEGINS, EVERYONE, seat, state["round"], state["turn"], 0)
    emit(state, EV_PHASE_BEGINS, EVERYONE, seat, PHASE_PRE_ROLL, 0, 0)
    settle_debts(state, seat)
    return _K_PRE_ROLL


@njit(cache=True, inline="always")
def _pre_roll(state: np.void) -> int:
    """Ask PRE_ROLL; skipped when only END is legal, auto_forced is on and no personal card is held (§17.3)."""
    seat = np.int64(state["active"])
    state["phase"] = PHASE_PRE_ROLL
    state["decision"] = DEC_PRE_ROLL
    state["current"] = seat
    if state["auto_forced"] and not holds_personal_card(state, seat) and not any_pre_roll_option(state, seat):
        state["decision"] = DEC_NONE
        return _K_ROLL
    return _K_WAIT


@njit(cache=True, inline="always")
def _roll(state: np.void) -> int:
    """Three d6 sorted a >= b >= c, then debts are settled once more (§6.4, §17.4)."""
    d0 = draw_below(state, np.int64(DIE_SIDES)) + 1
    d1 = draw_below(state, np.int64(DIE_SIDES)) + 1
    d2 = draw_below(state, np.int64(DIE_SIDES)) + 1
    hi = max(d0, max(d1, d2))
    lo = min(d0, min(d1, d2))
    state["dice"][0] = hi
    state["dice"][1] = d0 + d1 + d2 - hi - lo
    state["dice"][2] = lo
    emit(state, EV_DICE_ROLLED, EVERYONE, state["active"], hi, d0 + d1 + d2 - hi - lo, lo)
    settle_debts(state, np.int64(state["active"]))
    state["phase"] = PHASE_MOVEMENT
    emit(state, EV_PHASE_BEGINS, EVERYONE, state["active"], PHASE_MOVEMENT, 0, 0)
    return _K_SELECT


@njit(cache=True, inline="always")
def _dice_move(state: np.void, seat: int, t: int) -> int:
    """Small train a + b, large train a + b + c (§6.4)."""
    n = np.int64(state["dice"][0]) + np.int64(state["dice"][1])
    if state["train_large"][seat, t]:
        n += np.int64(state["dice"][2])
    return n


@njit(cache=True, inline="always")
def _select_train(state: np.void) -> int:
    """Trains that must sit out are cleared, then the player picks the next train; none left: desperados (§7.1)."""
    seat = np.int64(state["active"])
    left = 0
    for t in range(MAX_TRAINS):
        if state["train_exists"][seat, t] and not state["train_moved"][seat, t]:
            if state["train_wait"][seat, t] > 0:
                state["train_wait"][seat, t] -= 1
                state["train_moved"][seat, t] = 1
                emit(state, EV_TRAIN_SAT_OUT, EVERYONE, seat, t, SAT_OUT_WAIT, 0)
            elif state["train_debt"][seat, t] > 0:
                state["train_moved"][seat, t] = 1
                emit(state, EV_TRAIN_SAT_OUT, EVERYONE, seat, t, SAT_OUT_DEBT, 0)
            else:
                left += 1
    if left == 0:
        state["phase"] = PHASE_DESPERADO
        emit(state, EV_PHASE_BEGINS, EVERYONE, seat, PHASE_DESPERADO, 0, 0)
        state["desp_index"] = 0
        return _K_DESPERADOS
    return _pose(state, np.int64(DEC_SELECT_TRAIN))


# ---- train moves (§7.4, §7.5) ----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _continue_move(state: np.void) -> int:
    """Take forced steps; ask TRAIN_STEP where there is a choice; land when the steps are used (§7.4, §17.3)."""
    seat = np.int64(state["active"])
    t = np.int64(state["move_train"])
    while state["move_steps"] > 0:
        x = np.int64(state["train_pos"][seat, t])
        n_options = 0
        only = np.int64(-1)
        for i in range(MAX_DEGREE):
            o = np.int64(NEIGHBOURS[x, i])
            if o >= 0 and next_space_legal(state, seat, t, o):
                n_options += 1
                only = o
        if n_options == 0:
            break  # forced stop at a dead end (§7.3)
        if n_options > 1 or can_stop(state, seat, t) or can_hold(state, seat, t):
            return _pose(state, np.int64(DEC_TRAIN_STEP))
        take_step(state, seat, t, only)
    _begin_landing(state)
    return _K_LANDING


@njit(cache=True, inline="always")
def _begin_landing(state: np.void) -> None:
    """The move ends: free direction in a city, landing resolution starts (§7.2, §7.4)."""
    seat = np.int64(state["active"])
    t = np.int64(state["move_train"])
    x = np.int64(state["train_pos"][seat, t])
    if IS_CITY[x]:
        state["train_from"][seat, t] = FREE
    emit(state, EV_TRAIN_LANDED, EVERYONE, seat, t, x, state["move_steps"])
    state["move_steps"] = 0
    state["landing_space"] = x
    state["landing_step"] = 0


@njit(cache=True, inline="always")
def _continue_landing(state: np.void) -> int:
    """The landing steps of §7.5 in order, from ``landing_step``."""
    seat = np.int64(state["active"])
    t = np.int64(state["move_train"])
    x = np.int64(state["landing_space"])
    while state["landing_step"] < LANDING_DONE:
        i = np.int64(state["landing_step"])
        if IS_CITY[x]:
            if i == 0:
                claim_competitions(state, seat, np.int64(T_MAIL_RACE), np.int64(-1), x)
            elif i == 1:
                return _pose(state, np.int64(DEC_ARRIVAL))
            else:
                pay_fee(state, seat, t, x)
        elif i == 0:
            if state["dynamite"][x]:
                explode(state, seat, t, x)
        elif i == 1:
            if SPACE_SPECIAL[x] == SPECIAL_STAR:
                state["sheriff_return"] = RET_LANDING
                state["sel_sheriff"] = NOBODY
                return _K_SHERIFF
        elif SPACE_SPECIAL[x] == SPECIAL_TELEGRAM:
            card = draw_card(state)
            emit_card_drawn(state, seat, t, card)
            if card != NO_CARD and reveal_drawn(state, card):
                state["drawn_card"] = card
                return _pose(state, np.int64(DEC_TELEGRAM_DRAWN))
        state["landing_step"] = i + 1
    state["landing_step"] = LANDING_NONE
    state["landing_space"] = NO_SPACE
    return _K_MOVE_DONE


@njit(cache=True, inline="always")
def _finish_move(state: np.void) -> int:
    """The move's card goes down; a queued extra move starts, or play returns (§7.5, §13.3)."""
    if state["move_card"] != NO_CARD:
        to_bottom(state, np.int64(state["move_card"]))
    ret = np.int64(state["move_return"])
    state["move_active"] = False
    state["move_train"] = NOBODY
    state["move_card"] = NO_CARD
    queued = np.int64(state["queue_train"])
    if queued != NOBODY:
        start_move(state, queued, np.int64(state["queue_steps"]), np.bool_(False), np.bool_(state["queue_backtrack"]),
                   np.int64(state["queue_card"]), ret)
        state["queue_train"] = NOBODY
        state["queue_steps"] = 0
        state["queue_backtrack"] = False
        state["queue_card"] = NO_CARD
        state["extra_moves"] += 1
        return _K_MOVE
    if ret == PHASE_PRE_ROLL:
        return _K_PRE_ROLL
    return _K_SELECT


# ---- cards (§13.5) and sheriffs (§12) --------------------------------------------------------------------------------
@njit(cache=True)
def _play_card(state: np.void, card: int, train: int, ret: int) -> int:
    """Play personal card ``card`` bound to ``train``: a move, a queued move, or a card procedure (§13.3, §13.5)."""
    seat = np.int64(state["active"])
    emit(state, EV_CARD_PLAYED, EVERYONE, seat, card, train, 0)  # revealed (§13.3)
    state["card_holder"][card] = NOBODY
    state["card_bound"][card] = NOBODY
    kind = np.int64(CARD_TYPE[card])
    if is_move_card(card):
        steps = np.int64(CARD_STEPS[card])
        if ret == RET_PRE_ROLL:  # runs at once, then back to PRE_ROLL
            start_move(state, train, steps, np.bool_(False), np.bool_(CARD_BACKTRACK[card]), card,
                       np.int64(PHASE_PRE_ROLL))
            state["extra_moves"] += 1
            return _K_MOVE
        state["queue_train"] = train  # starts once the landing is over (§7.5)
        state["queue_steps"] = steps
        state["queue_backtrack"] = CARD_BACKTRACK[card]
        state["queue_card"] = card
        state["landing_step"] += 1
        return _K_LANDING
    state["card_active"] = card
    state["card_return"] = ret
    state["card_left"] = 1
    state["sel_desperado"] = NOBODY
    if kind == T_SUBSIDY_100 or kind == T_SUBSIDY_200:
        bank_pays(state, seat, np.int64(CARD_AMOUNT[card]))
        emit(state, EV_CARD_PAYMENT, EVERYONE, seat, card, CARD_AMOUNT[card], 0)
        state["card_left"] = 0
        return _K_CARD_DONE
    if kind == T_DYNAMITE_CRATE or kind == T_TRACK_CREW:
        state["card_left"] = 2
    if kind == T_FRIEND_OF_THE_LAW:
        state["sheriff_return"] = RET_CARD
        state["sel_sheriff"] = NOBODY
        return _K_SHERIFF
    return _K_CARD


@njit(cache=True, inline="always")
def _continue_card(state: np.void) -> int:
    """Ask the next sub-decision of the card in play, or end it when nothing is left to do (§13.5)."""
    card = np.int64(state["card_active"])
    kind = np.int64(CARD_TYPE[card])
    if state["card_left"] <= 0:
        return _K_CARD_DONE
    if kind == T_DYNAMITE_CRATE:
        if any_dynamite_space(state):
            return _pose(state, np.int64(DEC_CARD_DYNAMITE_PLACE))
        return _K_CARD_DONE
    if kind == T_TRACK_CREW:
        if any_dynamite(state):
            return _pose(state, np.int64(DEC_CARD_DYNAMITE_REMOVE))
        return _K_CARD_DONE
    if kind == T_ARMED_GUARDS:
        return _pose(state, np.int64(DEC_CARD_TRAIN))
    if kind == T_LAND_GRANT:
        return _pose(state, np.int64(DEC_CARD_CITY))
    if kind == T_HIDEOUT:
        if state["sel_desperado"] == NOBODY:
            return _pose(state, np.int64(DEC_CARD_DESPERADO))
        return _pose(state, np.int64(DEC_CARD_HIDEOUT_CITY))
    return _K_CARD_DONE


@njit(cache=True, inline="always")
def _finish_card(state: np.void) -> int:
    """The card goes to the bottom; back to PRE_ROLL or to the landing (§13.3)."""
    to_bottom(state, np.int64(state["card_active"]))
    state["card_active"] = NO_CARD
    state["card_left"] = 0
    state["sel_desperado"] = NOBODY
    if state["card_return"] == RET_PRE_ROLL:
        return _K_PRE_ROLL
    state["landing_step"] += 1
    return _K_LANDING


@njit(cache=True, inline="always")
def _choose_sheriff(state: np.void) -> int:
    """The lowest off-board sheriff is placed; with both on the board the player picks one (§12 item 2)."""
    if state["sel_sheriff"] == NOBODY:
        k = off_board_sheriff(state)
        if k == NOBODY:
            return _pose(state, np.int64(DEC_SHERIFF_PIECE))
        state["sel_sheriff"] = k
    return _pose(state, np.int64(DEC_SHERIFF_SPACE))


@njit(cache=True, inline="always")
def _finish_sheriff(state: np.void) -> int:
    """Back to the landing (star) or end Friend of the Law (§12, §13.5)."""
    state["sel_sheriff"] = NOBODY
    if state["sheriff_return"] == RET_LANDING:
        state["landing_step"] += 1
        return _K_LANDING
    state["card_left"] = 0
    return _K_CARD_DONE


# ---- desperados (§9) -------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _next_desperado(state: np.void) -> int:
    """Start the move of the next own desperado, index order; after the last, the end of the turn (§6.6, §9.2)."""
    seat = np.int64(state["active"])
    k = np.int64(state["desp_index"])
    if k >= state["n_desperados"][seat]:
        state["desp_index"] = NOBODY
        return _K_TURN_END
    state["desp_from"] = NO_SPACE
    state["desp_steps"] = state["dice"][0]
    return _K_DESP_MOVE


@njit(cache=True, inline="always")
def _continue_desperado(state: np.void) -> int:
    """Take forced steps; ask DESPERADO_STEP at a choice; no path and no rehire: it stays (§9.2, §17.3)."""
    seat = np.int64(state["active"])
    k = np.int64(state["desp_index"])
    while state["desp_steps"] > 0:
        x = np.int64(state["desp_pos"][seat, k])
        y = np.int64(state["desp_from"])
        r = np.int64(state["desp_steps"])
        n_options = 0
        only = np.int64(-1)
        for i in range(MAX_DEGREE):
            n = np.int64(NEIGHBOURS[x, i])
            if n >= 0 and step_legal(state, x, y, n, r):
                n_options += 1
                only = n
        rehire = y == NO_SPACE and can_rehire(state, seat, x, r)
        if n_options == 0 and not rehire:
            break  # no legal path: the desperado stays (§9.2)
        if n_options > 1 or rehire:
            return _pose(state, np.int64(DEC_DESPERADO_STEP))
        _desperado_step(state, seat, only)
    state["desp_steps"] = 0
    state["desp_from"] = NO_SPACE
    state["desp_index"] = k + 1
    return _K_DESPERADOS


@njit(cache=True, inline="always")
def _desperado_step(state: np.void, seat: int, n: int) -> None:
    """The moving desperado steps to n; nothing is triggered (§9.2)."""
    k = np.int64(state["desp_index"])
    emit(state, EV_DESPERADO_MOVED, EVERYONE, seat, k, state["desp_pos"][seat, k], n)
    state["desp_from"] = state["desp_pos"][seat, k]
    state["desp_pos"][seat, k] = n
    state["desp_steps"] -= 1


# ---- end of turn (§6.7, §14) -----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _end_turn(state: np.void) -> int:
    """Clear flags, count down competitions, check victory and the cap, pass the turn (§6.7)."""
    seat = np.int64(state["active"])
    n = np.int64(state["num_players"])
    for t in range(MAX_TRAINS):
        state["train_armed"][seat, t] = 0
        state["train_moved"][seat, t] = 0
    count_down_competitions(state)
    if target_reached(state):
        return _end_game(state, np.bool_(False))
    if state["turn_decisions"] >= MAX_TURN_DECISIONS:  # the turn's last decision was its 1000th (§14.4)
        return _end_game(state, np.bool_(True))
    nxt = (seat + 1) % n
    if nxt == state["start_player"] and state["round"] >= state["max_rounds"]:
        return _end_game(state, np.bool_(True))
    state["active"] = nxt
    if nxt == state["start_player"]:
        state["round"] += 1
    return _K_TURN_START
