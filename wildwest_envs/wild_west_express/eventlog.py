"""Wild West Express events (``core.eventlog``): what a step reports, who may see it, and the codes the kernels write.

| code | event | arguments | who sees it | § |
|---|---|---|---|---|
| 1 | ``dice_rolled`` | seat, a, b, c | everybody | §6.4 |
| 2 | ``turn_begins`` | seat, round, turn | everybody | §6.1, §6.2 |
| 3 | ``phase_begins`` | seat, phase | everybody | §6.3, §6.5, §6.6 |
| 4 | ``city_drafted`` | seat, city, pick | everybody | §5 |
| 5 | ``desperado_placed`` | seat, desperado, city, cause | everybody | §5, §9.3, §13.5 |
| 6 | ``start_cash`` | seat, amount | everybody | §5 |
| 7 | ``train_placed`` | seat, train, city | everybody | §5 |
| 8 | ``cargo_loaded`` | seat, train, cargo, price | everybody | §4.2, §4.4, §5, §6.3 |
| 9 | ``station_bought`` | seat, city, price | everybody | §6.3, §13.5 |
| 10 | ``train_bought`` | seat, train, city, price | everybody | §6.3 |
| 11 | ``train_upgraded`` | seat, train, price | everybody | §6.3 |
| 12 | ``dynamite_placed`` | seat, space, price | everybody | §6.3, §11.1, §13.5 |
| 13 | ``desperado_hired`` | seat, desperado, city, price | everybody | §6.3, §15 |
| 14 | ``card_played`` | seat, card, train | everybody | §13.3, §13.5 |
| 15 | ``move_started`` | seat, train, steps, card | everybody | §7.4, §13.5 |
| 16 | ``train_moved`` | seat, train, from_space, to_space | everybody | §7.4 |
| 17 | ``duel`` | owner, desperado, train_die, desperado_die | everybody | §10.1, §10.2 |
| 18 | ``robbed`` | seat, victim, train, loot | everybody | §10.3 |
| 19 | ``cargo_lost`` | seat, train, cargo, cause | everybody | §10.3, §11.2, §11.4, §13.5 |
| 20 | ``train_landed`` | seat, train, space, steps_left | everybody | §7.3, §7.4, §7.5 |
| 21 | ``train_held`` | seat, train, space | everybody | §7.1 |
| 22 | ``train_sat_out`` | seat, train, reason | everybody | §7.1 |
| 23 | ``cargo_delivered`` | seat, train, cargo, income | everybody | §8.1, §8.2 |
| 24 | ``fee_paid`` | payer, payee, amount, train | everybody | §8.3 |
| 25 | ``debt_incurred`` | seat, train, creditor, fee | everybody | §8.3 |
| 26 | ``debt_paid`` | payer, payee, amount, train | everybody | §6.2, §6.4, §8.3 |
| 27 | ``dynamite_exploded`` | seat, train, space | everybody | §11.2 |
| 28 | ``train_delayed`` | seat, train, wait, cause | everybody | §11.2, §13.5 |
| 29 | ``dynamite_removed`` | space, cause, seat | everybody | §11.3, §12 |
| 30 | ``sheriff_moved`` | seat, sheriff, from_space, to_space | everybody | §12 |
| 31 | ``desperado_moved`` | seat, desperado, from_space, to_space | everybody | §9.2 |
| 32 | ``card_drawn`` | seat, train, card, card_class | everybody; a personal card: the seat, the others get card -1 | §13.2, §13.3, §16.2 |
| 33 | ``card_kept`` | seat, train, card | the seat, the others get card -1 | §13.3, §16.2 |
| 34 | ``card_payment`` | seat, card, amount | everybody | §13.5 |
| 35 | ``train_armed`` | seat, train | everybody | §13.5 |
| 36 | ``competition_posted`` | card, slot, countdown | everybody | §13.3 |
| 37 | ``competition_won`` | seat, card, slot, bonus | everybody | §13.4 |
| 38 | ``competition_expired`` | card, slot | everybody | §13.4 |
| 39 | ``card_to_bottom`` | card, position | everybody | §13.1 |
| 40 | ``game_over`` | reason, winners, round | everybody | §14.3, §14.4 |
| 41 | ``final_score`` | seat, vp, cash, won | everybody | §14.1, §14.3 |

Arguments (indices as in ``state``): seats are absolute; ``train`` a train slot 0..5 of the seat named
first (the moving train is always the active seat's, §0.3); ``city`` 0..25, spaces 0..313 (-1: off the
board); ``card`` 0..51; ``cargo`` a cargo code (a good 0..8, a passenger ``PASSENGER_BASE`` + pickup zone,
9..11, §4.4); money in dollars.

* ``dice_rolled``: the turn roll, sorted ``a >= b >= c`` (§6.4).
* ``turn_begins``: ``turn`` the turn counter; the start of the turn (§6.2), before its debt settlement.
  ``phase_begins``: ``phase`` ``data.PHASE_PRE_ROLL`` (1, with the turn), ``PHASE_MOVEMENT`` (2, after the
  roll and its debt settlement) or ``PHASE_DESPERADO`` (3, once no train is left to choose).
* ``city_drafted``: ``pick`` 0..2N-1 in draft order. ``desperado_placed``: placed, not moved, so a
  sheriff never blocks it (G51); ``cause`` ``PLACED_*`` below. Sheriff's Round-up reports every
  desperado, also one already in its nearest station.
* ``start_cash``, ``train_placed``, ``cargo_loaded`` (``price`` 0: the free start cargo): the end of
  the setup (§5 items 4-5), in the step that places the last desperado.
* ``cargo_loaded``: ``price`` the purchase price of a good; 0 for passengers (free, §4.4).
* ``station_bought``: ``price`` $400 (BUY_STATION) or $200 (Land Grant, after its ``card_played``).
* ``train_bought``: ``price`` $500 for a small train, $1100 for a large one (§6.3): the price names the
  size. ``train_upgraded``: $600.
* ``dynamite_placed``: ``price`` the dynamite price ($20, or the alternative price), 0 for a token of
  the Crate of Dynamite.
* ``card_played``: the card is revealed (§13.3); ``train`` the train it is bound to. Its effect follows:
  ``move_started`` (a movement card; played at TELEGRAM_DRAWN, the move starts once the landing is over),
  ``card_payment``, ``train_armed``, ``dynamite_placed``, ``dynamite_removed``, ``station_bought``,
  ``desperado_placed``, ``sheriff_moved``; then ``card_to_bottom`` when its effect is over.
* ``move_started``: ``steps`` the move's length; ``card`` -1 for the dice move, else the card.
  ``train_moved``: one step; ``from_space`` the space left. A train's last ``train_moved`` of a step ends
  where it stands.
* ``duel``: one duel of the train that just entered the space (the latest ``train_moved``) against
  desperado ``desperado`` of ``owner``, in the rolling order of §10.2; the desperado wins iff
  ``desperado_die > train_die``; both 0 under Armed Guards (no dice, the train wins).
* ``robbed``: after the duels, each winning desperado's share: ``seat`` its owner, ``victim`` the train's
  owner (§10.3). Each ``cargo_lost`` (``LOST_ROBBERY``) follows.
* ``cargo_lost``: a token leaves a train without pay; ``cause`` ``LOST_*`` below.
* ``train_landed``: the move ended (last pip, STOP or a dead end); ``steps_left`` > 0 after a STOP (§7.3).
  Landing resolution follows (§7.5). ``train_held``: HOLD, no landing (§7.4).
* ``train_sat_out``: ``reason`` ``SAT_OUT_WAIT`` (its wait falls by 1) or ``SAT_OUT_DEBT`` (§7.1).
* ``cargo_delivered``: UNLOAD_SLOT; ``income`` the sale price plus the $20 owner bonus at an own station,
  or the fare ($0 / $30 / $90).
* ``fee_paid``: the coal-and-water fee at another seat's station; ``debt_incurred`` when the cash does
  not cover it (nothing is paid); ``debt_paid`` when it is settled in full (§6.2 step 2, §6.4).
* ``dynamite_exploded``: the landing train; ``cargo_lost`` (``LOST_EXPLOSION``) and ``train_delayed``
  follow. ``train_delayed``: ``wait`` the train's new wait; ``cause`` ``DELAYED_BY_*`` below (Blizzard:
  only trains whose wait rises).
* ``dynamite_removed``: ``cause`` ``REMOVED_BY_*`` below; ``seat`` the active seat (who placed the sheriff,
  played Track Crew or drew Army Engineers). An explosion is ``dynamite_exploded``. Sheriffs arrest
  nobody: "the one behind it is not caught" (§12 item 4), so there is no arrest event.
* ``sheriff_moved``: ``seat`` who placed it (a star landing or Friend of the Law); ``from_space`` -1: from
  the bank. Declining (END) reports nothing.
* ``card_drawn``: ``card_class`` ``data.CLASS_*`` (0 personal, 1 public, 2 competition). A public or
  competition card is revealed to everybody and its effect follows (a public card's effect, then
  ``card_to_bottom``; or ``competition_posted``). A personal card goes to the drawer alone; the others
  get the same event with ``card`` -1, since only its class and the train that drew it are public
  (§16.1-§16.2). An empty deck (a guard only, §13.1) draws and reports nothing. ``card_kept``: END at
  TELEGRAM_DRAWN, with the same twin.
* ``card_payment``: money a card moves, by card (the subsidies, Mail Contract, Bank Dividend; the
  Territorial Tax with a negative ``amount``), one event per seat for a public card.
* ``competition_posted``: ``slot`` -1 when no slot was free (the card goes to the bottom, §13.3).
  ``competition_won``: the bonus, then ``card_to_bottom``. ``competition_expired``: its countdown reached 0.
* ``card_to_bottom``: every card that goes to the bottom of the deck was revealed first, so the deck's
  revealed tail is public knowledge (§16.3 allows showing it; the observation does not); ``position`` its
  index in the deck when it arrives, 0 = the top (later draws move it up).
* ``game_over``: ``reason`` ``END_VICTORY``, ``END_ROUND_CAP``, ``END_SAFETY_LIMIT`` below; ``winners`` the
  bit set of the winning seats (``1 << seat``; 0 when a capped game is scored as a draw, §14.5), as
  ``Game.winners`` gives them; one ``final_score`` per seat follows (``won`` 0 or 1).

Money: every change of a seat's cash in a step is one of the events of ``MONEY`` (``cash_changes`` adds
them up), so the events of a step sum, per seat, to its cash change (a test checks it over random play).

Hidden information (§16): the only secrets are the identities of personal cards held or just drawn and
the deck's never-drawn part. Every card an event names to a seat is one it may know: its own, or one
revealed to everybody; the deck's never-drawn cards are named only once drawn. What ``init`` does (the
start player, the shuffle and the first draft decision) is not a step and reports nothing.

Emit arguments are evaluated in play too (only the write is compiled away), so they are fields, locals
and cheap queries; the helpers below that write several rows compile to nothing on a plain record.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from ..core import eventlog as core_eventlog
from ..core.eventlog import EVERYONE, EventKinds, emit, is_logged, seat_bit
from .data import (CAP_SCORING_DRAW, CARD_CLASS, CARGO_EMPTY, CLASS_PERSONAL, MAX_TURN_DECISIONS, N_CARGO, NO_CARD,
                   PASSENGER_BASE)
from .scoring import victory_points

(EV_DICE_ROLLED, EV_TURN_BEGINS, EV_PHASE_BEGINS, EV_CITY_DRAFTED, EV_DESPERADO_PLACED, EV_START_CASH,
 EV_TRAIN_PLACED, EV_CARGO_LOADED, EV_STATION_BOUGHT, EV_TRAIN_BOUGHT, EV_TRAIN_UPGRADED, EV_DYNAMITE_PLACED,
 EV_DESPERADO_HIRED, EV_CARD_PLAYED, EV_MOVE_STARTED, EV_TRAIN_MOVED, EV_DUEL, EV_ROBBED, EV_CARGO_LOST,
 EV_TRAIN_LANDED, EV_TRAIN_HELD, EV_TRAIN_SAT_OUT, EV_CARGO_DELIVERED, EV_FEE_PAID, EV_DEBT_INCURRED,
 EV_DEBT_PAID, EV_DYNAMITE_EXPLODED, EV_TRAIN_DELAYED, EV_DYNAMITE_REMOVED, EV_SHERIFF_MOVED, EV_DESPERADO_MOVED,
 EV_CARD_DRAWN, EV_CARD_KEPT, EV_CARD_PAYMENT, EV_TRAIN_ARMED, EV_COMPETITION_POSTED, EV_COMPETITION_WON,
 EV_COMPETITION_EXPIRED, EV_CARD_TO_BOTTOM, EV_GAME_OVER, EV_FINAL_SCORE) = range(1, 42)

# cause of desperado_placed
PLACED_SETUP, PLACED_REHIRE, PLACED_HIDEOUT, PLACED_ROUNDUP = range(4)
# cause of cargo_lost
LOST_ROBBERY, LOST_EXPLOSION, LOST_QUARANTINE = range(3)
# reason of train_sat_out
SAT_OUT_WAIT, SAT_OUT_DEBT = range(2)
# cause of train_delayed
DELAYED_BY_DYNAMITE, DELAYED_BY_BLIZZARD = range(2)
# cause of dynamite_removed
REMOVED_BY_SHERIFF, REMOVED_BY_TRACK_CREW, REMOVED_BY_ARMY_ENGINEERS = range(3)
# reason of game_over
END_VICTORY, END_ROUND_CAP, END_SAFETY_LIMIT = range(3)
NO_DIE = 0  # duel dice under Armed Guards: none rolled (§10.2)

EVERYBODY = "everybody"
_PRIVATE = "the seat, the others get card -1"
_KINDS = (  # code, name, arguments, who sees it, section, what it reports
    (EV_DICE_ROLLED, "dice_rolled", ("seat", "a", "b", "c"), EVERYBODY, "§6.4",
     "the active seat rolled three dice"),
    (EV_TURN_BEGINS, "turn_begins", ("seat", "round", "turn"), EVERYBODY, "§6.1, §6.2", "a seat's turn begins"),
    (EV_PHASE_BEGINS, "phase_begins", ("seat", "phase"), EVERYBODY, "§6.3, §6.5, §6.6",
     "the pre-roll, movement or desperado phase begins"),
    (EV_CITY_DRAFTED, "city_drafted", ("seat", "city", "pick"), EVERYBODY, "§5", "a start city picked"),
    (EV_DESPERADO_PLACED, "desperado_placed", ("seat", "desperado", "city", "cause"), EVERYBODY,
     "§5, §9.3, §13.5", "a desperado placed in a city (setup, rehire, Hideout, Round-up)"),
    (EV_START_CASH, "start_cash", ("seat", "amount"), EVERYBODY, "§5", "the start money"),
    (EV_TRAIN_PLACED, "train_placed", ("seat", "train", "city"), EVERYBODY, "§5", "a start train"),
    (EV_CARGO_LOADED, "cargo_loaded", ("seat", "train", "cargo", "price"), EVERYBODY, "§4.2, §4.4, §5, §6.3",
     "a good bought or a passenger loaded onto a train"),
    (EV_STATION_BOUGHT, "station_bought", ("seat", "city", "price"), EVERYBODY, "§6.3, §13.5",
     "a station bought from the bank"),
    (EV_TRAIN_BOUGHT, "train_bought", ("seat", "train", "city", "price"), EVERYBODY, "§6.3",
     "a new train bought"),
    (EV_TRAIN_UPGRADED, "train_upgraded", ("seat", "train", "price"), EVERYBODY, "§6.3",
     "a small train made large"),
    (EV_DYNAMITE_PLACED, "dynamite_placed", ("seat", "space", "price"), EVERYBODY, "§6.3, §11.1, §13.5",
     "a dynamite token placed"),
    (EV_DESPERADO_HIRED, "desperado_hired", ("seat", "desperado", "city", "price"), EVERYBODY, "§6.3, §15",
     "an extra desperado hired (alt_extra_gang)"),
    (EV_CARD_PLAYED, "card_played", ("seat", "card", "train"), EVERYBODY, "§13.3, §13.5",
     "a personal card played and revealed"),
    (EV_MOVE_STARTED, "move_started", ("seat", "train", "steps", "card"), EVERYBODY, "§7.4, §13.5",
     "a dice move or an extra move begins"),
    (EV_TRAIN_MOVED, "train_moved", ("seat", "train", "from_space", "to_space"), EVERYBODY, "§7.4",
     "a train took one step"),
    (EV_DUEL, "duel", ("owner", "desperado", "train_die", "desperado_die"), EVERYBODY, "§10.1, §10.2",
     "a duel of the moving train with a desperado"),
    (EV_ROBBED, "robbed", ("seat", "victim", "train", "loot"), EVERYBODY, "§10.3",
     "a winning desperado's owner takes his share of the loot"),
    (EV_CARGO_LOST, "cargo_lost", ("seat", "train", "cargo", "cause"), EVERYBODY,
     "§10.3, §11.2, §11.4, §13.5", "a token lost without pay (robbery, explosion, Quarantine)"),
    (EV_TRAIN_LANDED, "train_landed", ("seat", "train", "space", "steps_left"), EVERYBODY, "§7.3, §7.4, §7.5",
     "a train's move ended; landing resolution follows"),
    (EV_TRAIN_HELD, "train_held", ("seat", "train", "space"), EVERYBODY, "§7.1", "a train held in its city"),
    (EV_TRAIN_SAT_OUT, "train_sat_out", ("seat", "train", "reason"), EVERYBODY, "§7.1",
     "a train sat out its dice move"),
    (EV_CARGO_DELIVERED, "cargo_delivered", ("seat", "train", "cargo", "income"), EVERYBODY, "§8.1, §8.2",
     "a good sold or a passenger dropped off"),
    (EV_FEE_PAID, "fee_paid", ("payer", "payee", "amount", "train"), EVERYBODY, "§8.3",
     "a coal-and-water fee paid to the station's owner"),
    (EV_DEBT_INCURRED, "debt_incurred", ("seat", "train", "creditor", "fee"), EVERYBODY, "§8.3",
     "a fee the cash did not cover: the train owes it"),
    (EV_DEBT_PAID, "debt_paid", ("payer", "payee", "amount", "train"), EVERYBODY, "§6.2, §6.4, §8.3",
     "an unpaid fee settled in full"),
    (EV_DYNAMITE_EXPLODED, "dynamite_exploded", ("seat", "train", "space"), EVERYBODY, "§11.2",
     "a train landed on dynamite"),
    (EV_TRAIN_DELAYED, "train_delayed", ("seat", "train", "wait", "cause"), EVERYBODY, "§11.2, §13.5",
     "a train must wait (dynamite, Blizzard)"),
    (EV_DYNAMITE_REMOVED, "dynamite_removed", ("space", "cause", "seat"), EVERYBODY, "§11.3, §12",
     "a dynamite token back to the supply (sheriff, Track Crew, Army Engineers)"),
    (EV_SHERIFF_MOVED, "sheriff_moved", ("seat", "sheriff", "from_space", "to_space"), EVERYBODY, "§12",
     "a sheriff placed or moved"),
    (EV_DESPERADO_MOVED, "desperado_moved", ("seat", "desperado", "from_space", "to_space"), EVERYBODY, "§9.2",
     "a desperado took one step"),
    (EV_CARD_DRAWN, "card_drawn", ("seat", "train", "card", "card_class"),
     "everybody; a personal card: the seat, the others get card -1", "§13.2, §13.3, §16.2",
     "a telegram drawn by the train that landed on a T"),
    (EV_CARD_KEPT, "card_kept", ("seat", "train", "card"), _PRIVATE, "§13.3, §16.2",
     "a drawn personal card kept, bound to the train"),
    (EV_CARD_PAYMENT, "card_payment", ("seat", "card", "amount"), EVERYBODY, "§13.5",
     "money paid by a card (negative: the tax)"),
    (EV_TRAIN_ARMED, "train_armed", ("seat", "train"), EVERYBODY, "§13.5", "Armed Guards on a train"),
    (EV_COMPETITION_POSTED, "competition_posted", ("card", "slot", "countdown"), EVERYBODY, "§13.3",
     "a competition posted (slot -1: turned away)"),
    (EV_COMPETITION_WON, "competition_won", ("seat", "card", "slot", "bonus"), EVERYBODY, "§13.4",
     "a competition claimed"),
    (EV_COMPETITION_EXPIRED, "competition_expired", ("card", "slot"), EVERYBODY, "§13.4",
     "a competition's countdown ran out"),
    (EV_CARD_TO_BOTTOM, "card_to_bottom", ("card", "position"), EVERYBODY, "§13.1",
     "a revealed card went to the bottom of the deck"),
    (EV_GAME_OVER, "game_over", ("reason", "winners", "round"), EVERYBODY, "§14.3, §14.4", "the game ends"),
    (EV_FINAL_SCORE, "final_score", ("seat", "vp", "cash", "won"), EVERYBODY, "§14.1, §14.3",
     "a seat's final VP and cash, and whether it won"),
)

EVENT_KINDS, WHO_SEES = EventKinds.declare(_KINDS)  # WHO_SEES: the docstring's "who sees it" column

# the events that move money: kind -> ((seat argument, amount argument, sign), ...)
MONEY = {
    "start_cash": (("seat", "amount", 1),),
    "cargo_loaded": (("seat", "price", -1),),
    "station_bought": (("seat", "price", -1),),
    "train_bought": (("seat", "price", -1),),
    "train_upgraded": (("seat", "price", -1),),
    "dynamite_placed": (("seat", "price", -1),),
    "desperado_hired": (("seat", "price", -1),),
    "robbed": (("seat", "loot", 1),),
    "cargo_delivered": (("seat", "income", 1),),
    "fee_paid": (("payer", "amount", -1), ("payee", "amount", 1)),
    "debt_paid": (("payer", "amount", -1), ("payee", "amount", 1)),
    "card_payment": (("seat", "amount", 1),),
    "competition_won": (("seat", "bonus", 1),),
}


def cash_changes(events, num_players: int) -> list[int]:
    """The cash each seat gained (negative: lost) by the ``events`` of a step (``MONEY``)."""
    return core_eventlog.cash_changes(events, num_players, MONEY)


# ---- helpers that write several rows, or decide who sees a row: nothing at all on a plain record ----------------
# (as ``core.eventlog.emit``: the Python function runs under NUMBA_DISABLE_JIT, the overload in the kernels)
@njit(cache=True, inline="always")
def _others(state: np.void, seat: int) -> int:
    """The ``seen`` set of every seat of the game but ``seat``."""
    return ((np.int64(1) << np.int64(state["num_players"])) - 1) & ~seat_bit(seat)


def emit_card_drawn(state, seat, train, card):
    """Report the telegram ``card`` drawn by ``train`` of ``seat`` (nothing for NO_CARD, the empty-deck
    guard of §13.1): a personal card to the drawer alone and card -1 to the others (§16.2)."""
    if "events" in state.dtype.names:
        _emit_card_drawn(state, seat, train, card)


def _emit_card_drawn(state, seat, train, card):
    if card != NO_CARD:
        cls = np.int64(CARD_CLASS[card])
        if cls == CLASS_PERSONAL:
            emit(state, EV_CARD_DRAWN, seat_bit(seat), seat, train, card, cls)
            emit(state, EV_CARD_DRAWN, _others(state, seat), seat, train, NO_CARD, cls)
        else:
            emit(state, EV_CARD_DRAWN, EVERYONE, seat, train, card, cls)


def emit_card_kept(state, seat, train, card):
    """Report the personal ``card`` kept, bound to ``train``: to its holder alone, card -1 to the others."""
    if "events" in state.dtype.names:
        _emit_card_kept(state, seat, train, card)


def _emit_card_kept(state, seat, train, card):
    emit(state, EV_CARD_KEPT, seat_bit(seat), seat, train, card, 0)
    emit(state, EV_CARD_KEPT, _others(state, seat), seat, train, NO_CARD, 0)


def emit_cargo_lost(state, seat, train, cause, passengers_only):
    """Report each token of the train about to be lost: every token, or its passengers only (§10.3, §13.5)."""
    if "events" in state.dtype.names:
        _emit_cargo_lost(state, seat, train, cause, passengers_only)


def _emit_cargo_lost(state, seat, train, cause, passengers_only):
    for j in range(N_CARGO):
        code = np.int64(state["train_cargo"][seat, train, j])
        if code != CARGO_EMPTY and (code >= PASSENGER_BASE or not passengers_only):
            emit(state, EV_CARGO_LOST, EVERYONE, seat, train, code, cause)


def emit_dynamite_removed(state, space, cause):
    """Report the dynamite token on ``space``, if any, about to return to the supply (§11.3)."""
    if "events" in state.dtype.names:
        _emit_dynamite_removed(state, space, cause)


def _emit_dynamite_removed(state, space, cause):
    if state["dynamite"][space]:
        emit(state, EV_DYNAMITE_REMOVED, EVERYONE, space, cause, state["active"], 0)


def emit_game_over(state, capped):
    """Report the end: why, the winners as ``Game.winners`` gives them (most VP, then most cash; nobody
    when a capped game is a draw, §14.3-§14.5), then each seat's VP and cash."""
    if "events" in state.dtype.names:
        _emit_game_over(state, capped)


def _emit_game_over(state, capped):
    n = np.int64(state["num_players"])
    best_vp = np.int64(-1)
    best_cash = np.int64(-1)
    for p in range(n):
        vp = np.int64(victory_points(state, p))
        cash = np.int64(state["cash"][p])
        if vp > best_vp or (vp == best_vp and cash > best_cash):
            best_vp, best_cash = vp, cash
    winners = np.int64(0)
    if not (capped and state["cap_scoring"] == CAP_SCORING_DRAW):  # a capped draw has no winner (§14.5)
        for p in range(n):
            if victory_points(state, p) == best_vp and state["cash"][p] == best_cash:
                winners |= seat_bit(p)
    reason = np.int64(END_VICTORY)
    if capped:
        reason = END_SAFETY_LIMIT if state["turn_decisions"] >= MAX_TURN_DECISIONS else END_ROUND_CAP
    emit(state, EV_GAME_OVER, EVERYONE, reason, winners, state["round"], 0)
    for p in range(n):
        emit(state, EV_FINAL_SCORE, EVERYONE, p, victory_points(state, p), state["cash"][p], (winners >> p) & 1)


def _no_card_event(state, seat, train, card):
    return None


def _no_cargo_lost(state, seat, train, cause, passengers_only):
    return None


def _no_dynamite_removed(state, space, cause):
    return None


def _no_game_over(state, capped):
    return None


@overload(emit_card_drawn, inline="always")
def _emit_card_drawn_impl(state, seat, train, card):
    return _emit_card_drawn if is_logged(state) else _no_card_event


@overload(emit_card_kept, inline="always")
def _emit_card_kept_impl(state, seat, train, card):
    return _emit_card_kept if is_logged(state) else _no_card_event


@overload(emit_cargo_lost, inline="always")
def _emit_cargo_lost_impl(state, seat, train, cause, passengers_only):
    return _emit_cargo_lost if is_logged(state) else _no_cargo_lost


@overload(emit_dynamite_removed, inline="always")
def _emit_dynamite_removed_impl(state, space, cause):
    return _emit_dynamite_removed if is_logged(state) else _no_dynamite_removed


@overload(emit_game_over, inline="always")
def _emit_game_over_impl(state, capped):
    return _emit_game_over if is_logged(state) else _no_game_over
