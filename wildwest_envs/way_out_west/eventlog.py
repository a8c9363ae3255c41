"""Way Out West events (``core.eventlog``): what a step reports, who may see it, and the codes the kernels write.

| code | event | arguments | who sees it | § |
|---|---|---|---|---|
| 1 | ``setup_cowboy`` | seat, town, placed | everybody | §4 |
| 2 | ``auction_started`` | round, first_bidder | everybody | §5, §6.1 |
| 3 | ``bid_raised`` | seat, raise, bid | everybody | §6.1 |
| 4 | ``position_taken`` | seat, position, bid, cause | everybody | §6.1, §6.2 |
| 5 | ``bid_paid`` | seat, amount | everybody | §6.1 |
| 6 | ``action_phase_started`` | round | everybody | §5, §7.1 |
| 7 | ``action_turn`` | seat, round, lap, position | everybody | §7.1 |
| 8 | ``passed`` | seat | everybody | §7.1 |
| 9 | ``box_taken`` | seat, box | everybody | §7.1, §7.2 |
| 10 | ``cattle_bought`` | seat, town, count, price | everybody | §8.1 |
| 11 | ``cowboy_hired`` | seat, town, price | everybody | §8.2 |
| 12 | ``cowboys_moved`` | seat, from_town, to_town, count | everybody | §8.3 |
| 13 | ``fare_paid`` | owner, mover, town, amount | everybody | §8.8 |
| 14 | ``cattle_moved`` | seat, from_town, to_town, count | everybody | §8.4 |
| 15 | ``built`` | seat, type, town, price | everybody | §8.5 |
| 16 | ``farmer_placed`` | seat, town | everybody | §8.6 |
| 17 | ``frontier_opened`` | town | everybody | §8.1 |
| 18 | ``gunfight_declared`` | attacker, town, target, defender | everybody | §9.1 |
| 19 | ``sheriff_decided`` | seat, joins | everybody | §9.3 |
| 20 | ``attacker_side`` | seat, cowboys, sheriff | everybody | §9.3 |
| 21 | ``defender_side`` | cowboys, virtual, sheriff, farmer | everybody | §9.3 |
| 22 | ``volley_started`` | volley, attackers, defenders, first | everybody | §9.4 |
| 23 | ``die_rolled`` | cause, side, face, volley | everybody | §9.4, §9.8, §13.3 |
| 24 | ``side_fired`` | side, dice, hits, volley | everybody | §9.4 |
| 25 | ``casualty`` | side, combatant, count, seat | everybody | §9.3, §9.4 |
| 26 | ``retreated`` | seat, town, cowboys, eliminated | everybody | §9.5 |
| 27 | ``retreat_cowboy`` | seat, from_town, to_town | everybody | §9.5 |
| 28 | ``gunfight_over`` | outcome, attacker, defender, volleys | everybody | §9.4, §9.6 |
| 29 | ``captured`` | seat, type, town, victim | everybody | §9.2 |
| 30 | ``bank_robbed`` | seat, victim, roll, paid | everybody | §9.8 |
| 31 | ``counter_removed`` | owner, type, town | everybody | §9.2, §9.8 |
| 32 | ``rustled`` | seat, victim, town, count | everybody | §9.2 |
| 33 | ``wanted_taken`` | seat, source, held, supply | everybody | §9.7 |
| 34 | ``round_ended`` | round | everybody | §10.1 |
| 35 | ``income_paid`` | seat, amount, round | everybody | §10.2 |
| 36 | ``game_over`` | round, winners | everybody | §11.1, §11.4 |
| 37 | ``vp_scored`` | seat, category, vp | everybody | §11.2, §11.3 |
| 38 | ``final_score`` | seat, vp, cash, won | everybody | §11.3, §11.4 |

Arguments are in the rules' own numbering (§0.2): seats absolute ``0..N-1`` (``NOBODY`` = -1: none), towns
``0..4``, B&T types ``0..5`` (``data.STAGECOACH`` .. ``data.JAIL``), boxes ``0..18``, gunfight targets ``0..7``
(the six types, ``data.T_CATTLE``, ``data.T_FARMER``); rounds, laps (1, 2), turn-order positions (1..N, the
rules' position 1 is the record's index 0) and volleys (1..50) count from 1; money in dollars.

* ``setup_cowboy``: ``placed`` the number of setup cowboys placed so far, this one included (1..3N).
* ``auction_started``: the bidding order is the previous turn order from its position 1, ``first_bidder``.
  ``bid_raised``: ``raise`` the step k, ``bid`` the new committed (and high) bid.
* ``position_taken``: the seat's place in the new turn order and its committed ``bid``; ``cause``
  ``TAKEN_*`` below: a drop-out (the highest-numbered free position), the last bidder (position 1) or the
  §6.2 guard (the best free positions by bid). Every seat takes exactly one position an auction; then
  ``bid_paid`` for every seat (0 included), and the order takes effect.
* ``action_turn``: a seat's action turn begins (CHOOSE_ACTION); ``passed`` or ``box_taken`` follows. The
  sub-decisions of an action report nothing; its effect is reported when the last one is made (§13.2).
* ``cattle_bought``: ``price`` the whole payment ($1 a counter). ``cowboy_hired``: one per cowboy.
  ``fare_paid``: the bank pays a stagecoach ``owner`` for ``mover``'s cowboys placed in, moved into or out
  of ``town`` (§8.8); it follows the ``cowboy_hired`` or ``cowboys_moved`` that caused it.
* ``frontier_opened``: ``town`` the new frontier (one event per step of the frontier).
* ``gunfight_declared``: ``target`` a target kind, ``defender`` the defending seat (``NOBODY`` for a
  farmer). ``sheriff_decided``: the jail owner's SHERIFF_JOIN (``joins`` 0 or 1); no jail, no event.
* ``attacker_side``, ``defender_side``: the sides as they are fixed (§9.3): the record's ``a_cow``,
  ``a_sher`` and ``d_cow``, ``d_virt``, ``d_sher``, ``d_farm`` (the record clears them when the fight
  ends). ``virtual`` is the intrinsic defender of a bank or train target, else the default defender.
* ``volley_started``: the side sizes before the volley; ``first`` the side that shoots first
  (``data.SIDE_ATTACKER`` 1, ``data.SIDE_DEFENDER`` 2), ``data.SIDE_NONE`` (0) when both fire together.
* ``die_rolled``: one die in the order drawn (§13.3); ``cause`` ``ROLL_VOLLEY`` or ``ROLL_ROBBERY`` (the
  three robbery dice, rolled for the attacker: ``side`` ``SIDE_ATTACKER``, ``volley`` the volley reached).
  ``side_fired``: after a side's dice, its ``hits`` (faces of 5 or 6); the casualties they cause follow,
  in a simultaneous volley after both sides' dice (the defender side's first). SHOOT decisions report
  nothing themselves: the volley they let happen does.
* ``casualty``: combatants removed from a side at once (§9.4 order); ``combatant`` ``COMBATANT_*`` below;
  ``seat`` whose they are (the cowboys' owner, the jail owner for the sheriff, ``NOBODY`` for the virtual
  defender and the farmer). Cowboys go back to supply; a farmer casualty is the farmer's death: it leaves
  the game (§9.3, §16 #45).
* ``retreated``: RETREAT by ``seat``, with ``cowboys`` in the fight; ``eliminated`` of them go back to
  supply (more than 4, §9.5); each one that leaves reports ``retreat_cowboy``.
* ``gunfight_over``: ``outcome`` ``data.WIN_NOBODY`` (0), ``WIN_ATTACKER`` (1), ``WIN_DEFENDER`` (2; the
  farmer side of a farmer target); ``volleys`` the volley number reached. The result follows
  (``captured``, ``bank_robbed`` after its dice, ``counter_removed``, ``rustled``), then ``wanted_taken``.
* ``bank_robbed``: ``roll`` the 3d6 total, ``paid`` what the owner ``victim`` paid the attacker; the bank
  is ``counter_removed`` when ``paid < roll``. A jail taken is ``counter_removed`` too.
* ``wanted_taken``: ``source`` ``NOBODY`` from the supply, else the seat stolen from (WANTED_STEAL);
  ``held`` the winner's count after, ``supply`` the supply after. A winner with nothing to take: no event.
* ``income_paid``: one per seat after every third round (0 included). ``game_over``: after the last
  income; ``winners`` the bit set (``1 << seat``) of the seats no seat beats on (VP, then the §11.4
  tie-break key ``scoring.tiebreak_seats``). Then per seat one ``vp_scored`` per ``category``
  (``scoring.VP_BT`` .. ``scoring.VP_WANTED``, as the env's ``vp_categories`` info) and ``final_score``:
  its ``vp``, the sum of its categories, is ``Game.scores``; ``won`` 0 or 1.

Money: every change of a seat's cash in a step is one of the events of ``MONEY`` (``cash_changes`` adds
them up), so the events of a step sum, per seat, to its cash change (a test checks it over random play).

Hidden information (§12): none on the table; every event goes to everybody. The only secret is future
chance (the generator and the die queue); a die is reported once it is rolled, when every player sees it.
What ``init`` does (the start player, the components and money) is not a step and reports nothing.

Emit arguments are evaluated in play too (only the write is compiled away), so they are fields, locals
and cheap expressions; ``emit_game_over``, which writes many rows, compiles to nothing on a plain record.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..core import eventlog as core_eventlog
from ..core.borrowed import COUNTED
from ..core.eventlog import EVERYONE, EventKinds, emit, is_logged
from .data import MAX_PLAYERS

(EV_SETUP_COWBOY, EV_AUCTION_STARTED, EV_BID_RAISED, EV_POSITION_TAKEN, EV_BID_PAID, EV_ACTION_PHASE_STARTED,
 EV_ACTION_TURN, EV_PASSED, EV_BOX_TAKEN, EV_CATTLE_BOUGHT, EV_COWBOY_HIRED, EV_COWBOYS_MOVED, EV_FARE_PAID,
 EV_CATTLE_MOVED, EV_BUILT, EV_FARMER_PLACED, EV_FRONTIER_OPENED, EV_GUNFIGHT_DECLARED, EV_SHERIFF_DECIDED,
 EV_ATTACKER_SIDE, EV_DEFENDER_SIDE, EV_VOLLEY_STARTED, EV_DIE_ROLLED, EV_SIDE_FIRED, EV_CASUALTY, EV_RETREATED,
 EV_RETREAT_COWBOY, EV_GUNFIGHT_OVER, EV_CAPTURED, EV_BANK_ROBBED, EV_COUNTER_REMOVED, EV_RUSTLED,
 EV_WANTED_TAKEN, EV_ROUND_ENDED, EV_INCOME_PAID, EV_GAME_OVER, EV_VP_SCORED, EV_FINAL_SCORE) = range(1, 39)

# cause of position_taken (§6.1, §6.2)
TAKEN_DROPPED_OUT, TAKEN_LAST_BIDDER, TAKEN_GUARD = range(3)
# cause of die_rolled (§13.3)
ROLL_VOLLEY, ROLL_ROBBERY = range(2)
# combatant of casualty (§9.3)
COMBATANT_COWBOYS, COMBATANT_SHERIFF, COMBATANT_VIRTUAL, COMBATANT_FARMER = range(4)

EVERYBODY = "everybody"
_KINDS = (  # code, name, arguments, who sees it, section, what it reports
    (EV_SETUP_COWBOY, "setup_cowboy", ("seat", "town", "placed"), EVERYBODY, "§4",
     "a setup cowboy placed (no payment)"),
    (EV_AUCTION_STARTED, "auction_started", ("round", "first_bidder"), EVERYBODY, "§5, §6.1",
     "a round begins with its turn-order auction"),
    (EV_BID_RAISED, "bid_raised", ("seat", "raise", "bid"), EVERYBODY, "§6.1", "a bidder raised the high bid"),
    (EV_POSITION_TAKEN, "position_taken", ("seat", "position", "bid", "cause"), EVERYBODY, "§6.1, §6.2",
     "a seat's position in the new turn order (drop-out, last bidder, guard)"),
    (EV_BID_PAID, "bid_paid", ("seat", "amount"), EVERYBODY, "§6.1", "a committed bid paid to the bank"),
    (EV_ACTION_PHASE_STARTED, "action_phase_started", ("round",), EVERYBODY, "§5, §7.1",
     "phase B begins in the new turn order"),
    (EV_ACTION_TURN, "action_turn", ("seat", "round", "lap", "position"), EVERYBODY, "§7.1",
     "a seat's action turn begins"),
    (EV_PASSED, "passed", ("seat",), EVERYBODY, "§7.1", "a seat passed its action turn"),
    (EV_BOX_TAKEN, "box_taken", ("seat", "box"), EVERYBODY, "§7.1, §7.2", "an action marker placed on a box"),
    (EV_CATTLE_BOUGHT, "cattle_bought", ("seat", "town", "count", "price"), EVERYBODY, "§8.1",
     "cattle bought into a town"),
    (EV_COWBOY_HIRED, "cowboy_hired", ("seat", "town", "price"), EVERYBODY, "§8.2", "a cowboy hired into a town"),
    (EV_COWBOYS_MOVED, "cowboys_moved", ("seat", "from_town", "to_town", "count"), EVERYBODY, "§8.3",
     "cowboys moved between towns"),
    (EV_FARE_PAID, "fare_paid", ("owner", "mover", "town", "amount"), EVERYBODY, "§8.8",
     "the bank paid a stagecoach owner for another player's cowboys"),
    (EV_CATTLE_MOVED, "cattle_moved", ("seat", "from_town", "to_town", "count"), EVERYBODY, "§8.4",
     "cattle moved between towns"),
    (EV_BUILT, "built", ("seat", "type", "town", "price"), EVERYBODY, "§8.5", "a B&T counter built"),
    (EV_FARMER_PLACED, "farmer_placed", ("seat", "town"), EVERYBODY, "§8.6", "a seat's farmer placed"),
    (EV_FRONTIER_OPENED, "frontier_opened", ("town",), EVERYBODY, "§8.1", "the next town opened for cattle"),
    (EV_GUNFIGHT_DECLARED, "gunfight_declared", ("attacker", "town", "target", "defender"), EVERYBODY, "§9.1",
     "a gunfight declared"),
    (EV_SHERIFF_DECIDED, "sheriff_decided", ("seat", "joins"), EVERYBODY, "§9.3",
     "the jail owner decided whether his sheriff joins"),
    (EV_ATTACKER_SIDE, "attacker_side", ("seat", "cowboys", "sheriff"), EVERYBODY, "§9.3",
     "the attacker side as fixed at the start"),
    (EV_DEFENDER_SIDE, "defender_side", ("cowboys", "virtual", "sheriff", "farmer"), EVERYBODY, "§9.3",
     "the defender side as fixed at the start"),
    (EV_VOLLEY_STARTED, "volley_started", ("volley", "attackers", "defenders", "first"), EVERYBODY, "§9.4",
     "a volley begins: the side sizes and who shoots first"),
    (EV_DIE_ROLLED, "die_rolled", ("cause", "side", "face", "volley"), EVERYBODY, "§9.4, §9.8, §13.3",
     "one die rolled (a volley die or a bank-robbery die)"),
    (EV_SIDE_FIRED, "side_fired", ("side", "dice", "hits", "volley"), EVERYBODY, "§9.4",
     "a side's dice of a volley and its hits"),
    (EV_CASUALTY, "casualty", ("side", "combatant", "count", "seat"), EVERYBODY, "§9.3, §9.4",
     "combatants removed from a side (a farmer dies)"),
    (EV_RETREATED, "retreated", ("seat", "town", "cowboys", "eliminated"), EVERYBODY, "§9.5",
     "a player retreated and conceded the gunfight"),
    (EV_RETREAT_COWBOY, "retreat_cowboy", ("seat", "from_town", "to_town"), EVERYBODY, "§9.5",
     "a retreating cowboy reached another town"),
    (EV_GUNFIGHT_OVER, "gunfight_over", ("outcome", "attacker", "defender", "volleys"), EVERYBODY, "§9.4, §9.6",
     "a gunfight ended: who won"),
    (EV_CAPTURED, "captured", ("seat", "type", "town", "victim"), EVERYBODY, "§9.2",
     "a B&T counter captured by the attacker"),
    (EV_BANK_ROBBED, "bank_robbed", ("seat", "victim", "roll", "paid"), EVERYBODY, "§9.8",
     "a bank robbed: 3d6 and what its owner paid"),
    (EV_COUNTER_REMOVED, "counter_removed", ("owner", "type", "town"), EVERYBODY, "§9.2, §9.8",
     "a jail or bank removed from the game"),
    (EV_RUSTLED, "rustled", ("seat", "victim", "town", "count"), EVERYBODY, "§9.2", "cattle rustled"),
    (EV_WANTED_TAKEN, "wanted_taken", ("seat", "source", "held", "supply"), EVERYBODY, "§9.7",
     "a gunfight winner took a Wanted counter"),
    (EV_ROUND_ENDED, "round_ended", ("round",), EVERYBODY, "§10.1", "phase C: the markers come back"),
    (EV_INCOME_PAID, "income_paid", ("seat", "amount", "round"), EVERYBODY, "§10.2", "a seat's income"),
    (EV_GAME_OVER, "game_over", ("round", "winners"), EVERYBODY, "§11.1, §11.4", "the game ends"),
    (EV_VP_SCORED, "vp_scored", ("seat", "category", "vp"), EVERYBODY, "§11.2, §11.3",
     "a seat's final VP in one category"),
    (EV_FINAL_SCORE, "final_score", ("seat", "vp", "cash", "won"), EVERYBODY, "§11.3, §11.4",
     "a seat's final VP and cash, and whether it won"),
)

EVENT_KINDS, WHO_SEES = EventKinds.declare(_KINDS)  # WHO_SEES: the docstring's "who sees it" column

# the events that move money: kind -> ((seat argument, amount argument, sign), ...)
MONEY = {
    "bid_paid": (("seat", "amount", -1),),
    "cattle_bought": (("seat", "price", -1),),
    "cowboy_hired": (("seat", "price", -1),),
    "built": (("seat", "price", -1),),
    "fare_paid": (("owner", "amount", 1),),
    "bank_robbed": (("victim", "paid", -1), ("seat", "paid", 1)),
    "income_paid": (("seat", "amount", 1),),
}


def cash_changes(events, num_players: int) -> list[int]:
    """The cash each seat gained (negative: lost) by the ``events`` of a step (``MONEY``)."""
    return core_eventlog.cash_changes(events, num_players, MONEY)


# ---- the end-of-game rows: nothing at all on a plain record (as core.eventlog.emit) ----------------------------
def emit_game_over(state):
    """Report the end of the game (§11): the winners, each seat's VP by category and its final score."""
    if "events" in state.dtype.names:  # plain Python (NUMBA_DISABLE_JIT)
        _game_over_rows()(state)


def _game_over_rows():
    """The function that writes the end-of-game rows. ``scoring`` is imported here, not at the top: it imports
    this module (through ``pieces``), so it is read when the rows are first compiled or written."""
    from .scoring import N_VP_CATEGORIES, tiebreak_seats, vp_by_category

    def rows(state):
        n = np.int64(state["num_players"])
        by_category = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), np.int64)
        vp_by_category(state, by_category)
        ties = np.zeros(MAX_PLAYERS, np.int64)
        tiebreak_seats(state, ties)
        totals = np.zeros(MAX_PLAYERS, np.int64)
        for p in range(n):
            totals[p] = by_category[p].sum()
        winners = np.int64(0)
        for p in range(n):
            beaten = False
            for q in range(n):
                if totals[q] > totals[p] or (totals[q] == totals[p] and ties[q] > ties[p]):
                    beaten = True
            if not beaten:
                winners |= np.int64(1) << np.int64(p)
        emit(state, EV_GAME_OVER, EVERYONE, state["round"], winners, 0, 0)
        for p in range(n):
            for c in range(N_VP_CATEGORIES):
                emit(state, EV_VP_SCORED, EVERYONE, p, c, by_category[p, c], 0)
            emit(state, EV_FINAL_SCORE, EVERYONE, p, totals[p], state["cash"][p], (winners >> np.int64(p)) & 1)

    return rows


def _nothing_game_over(state):
    return None


@overload(emit_game_over, jit_options=COUNTED)  # the rows allocate; the step that calls them is UNCOUNTED
def _emit_game_over_impl(state):
    """The compiled ``emit_game_over``: the rows on a logged record, nothing on any other."""
    if is_logged(state):
        return _game_over_rows()
    return _nothing_game_over
