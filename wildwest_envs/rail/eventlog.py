"""Rail events (``core.eventlog``): the kinds a step reports, their codes for the kernels, and two helpers.

Rail is a game of perfect information but for future dice (§10.1), so every
event is seen by every seat (``seen`` = ``EVERYONE``; "all" below).

| code | event | arguments | meaning | seen by | § |
|---|---|---|---|---|---|
| 1 | ``start_roll`` | seat, red, white | a seat's roll for the start player | all | §5 |
| 2 | ``start_player`` | seat | the start player S | all | §5 |
| 3 | ``round_begins`` | round, first | build round k, from seat (S + k) mod n | all | §6.1 |
| 4 | ``build_roll`` | seat, red, white, bp | build points rolled (seat -1: shared) | all | §6.3 |
| 5 | ``turn_begins`` | seat, phase, funding, bp | a build or extension turn begins | all | §6.2 |
| 6 | ``start_chosen`` | seat, start, city | the seat's start city | all | §6.4 |
| 7 | ``coop_proposed`` | seat, partner | a co-building proposal | all | §9.1 |
| 8 | ``coop_accepted`` | seat, partner, bp | accepted; bp: the pooled BP | all | §9.1 |
| 9 | ``coop_declined`` | seat, partner | the partner declines | all | §9.1 |
| 10 | ``funding_chosen`` | seat, funding | an extension turn's funding | all | §7.10 |
| 11 | ``step_built`` | seat, step, cost, partner | a step built (jointly: partner >= 0) | all | §6.7 |
| 12 | ``ferry_built`` | seat, ferry, cost | a ferry built | all | §9.5 |
| 13 | ``build_fee`` | payer, payee, amount, hex | a building fee paid | all | §6.8 |
| 14 | ``connection_bonus`` | seat, city, amount | the bonus for a first line into a city | all | §6.9 |
| 15 | ``account_paid`` | seat, amount | account building paid to the bank | all | §7.10 |
| 16 | ``turn_ends`` | seat, unused_bp | END_TURN; unused BP are lost | all | §6.2 |
| 17 | ``operation_begins`` | rounds, early | the build phase ends after R rounds | all | §6.10 |
| 18 | ``generation_roll`` | what, red, white, result | a race generation roll | all | §7.2 |
| 19 | ``race_generated`` | race, start, goal, country | race k's start and goal | all | §7.2 |
| 20 | ``candidate`` | seat, slot, pips, steps | a seat's candidate route | all | §7.5 |
| 21 | ``race_entry`` | seat, slot | an entry decision (slot -1: declined) | all | §7.6 |
| 22 | ``travel_fee`` | payer, payee, amount, owed | usage fees paid, netted and capped | all | §7.7 |
| 23 | ``race_round`` | round | a round of race dice begins | all | §7.8 |
| 24 | ``train_moved`` | seat, red, white, position | an entrant's race dice and progress | all | §7.8 |
| 25 | ``train_arrived`` | seat, round, leftover | an entrant reached the goal | all | §7.8 |
| 26 | ``tie_draw`` | position, seat, among, drawn | a tie draw placed a seat | all | §7.8 |
| 27 | ``race_placed`` | seat, place, prize | an entrant's place and prize | all | §7.9 |
| 28 | ``race_ends`` | race, entrants, rounds | race k is over | all | §7.1 |
| 29 | ``window_begins`` | race | the extension window after race k | all | §7.10 |
| 30 | ``game_over`` | reason, races | the game ends | all | §7.11 |
| 31 | ``final_standing`` | seat, balance, place | a seat's final balance and place | all | §8 |

The arguments: seats are absolute; ``step`` is a BUILD action id (the map's
buildable steps), ``hex`` a hex id (§0.2), ``city`` an index of the map's city
list, ``start`` an index of its start-city list, ``country`` a country code of
the map; dice are faces 1..6, ``red`` is 0 for a one-die build roll
(``build_dice`` = 1).

* ``build_roll``: every build-points roll: a build turn's, the round's shared
  roll (``shared_build_roll``, seat -1, before the round's first turn), a
  co-build partner's (§9.1 item 4), an extension turn's (§7.10).
* ``turn_begins``: ``phase`` 0 build turn, 1 extension turn; ``funding`` as
  ``data.FUND_*`` (1 dice BP, 2 account, 0 still to choose, ``dice_or_account``);
  ``bp`` the turn's BP (0 for account funding).
* ``funding_chosen``: ``funding`` 1 (FUND_DICE) or 2 (FUND_ACCOUNT).
* ``step_built``: ``partner`` -1, or the co-build partner who owns the step too.
* ``build_fee``: ``hex`` the non-city end charged; -1 for a joint step (§9.1
  item 7: each partner's fees of both ends together). A fee that the spec
  reduces by a touch fee already paid (§6.8, "paid once") is reported net.
* ``connection_bonus``: a joint step pays each partner his share, one event each.
* ``operation_begins``: ``early`` 1 when every city was joined before
  ``build_rounds`` (§6.10).
* ``generation_roll``: ``what`` 0 a start roll, 1 a goal roll (§7.2), 2 the red
  die of an international race (``result`` the country), 3 its white die
  (``result`` the city) (§9.3); ``result`` -1 when the roll names nothing. Each
  rejected roll is reported too (G43).
* ``race_generated``: ``goal`` -1 for an international race, ``country`` -1
  for a domestic one.
* ``candidate``: ``slot`` 0 cheapest, 1 fastest, 2 balanced (§7.5).
* ``travel_fee``: ``owed`` the netted raw fees before the cap (§7.7 item 3).
* ``train_moved``: ``position`` the steps of the route done after the roll.
* ``train_arrived``: the placing key: ``round``, then ``leftover`` pips (§7.8).
* ``tie_draw``: ``drawn`` = ``uniform_int(among)`` gave ``position`` (0 first)
  to ``seat`` (§7.8, G43).
* ``race_placed``: ``place`` 0 first; ``prize`` 0 beyond the paid places. The
  trains still running when the race ends come after every arrival, by the
  pips their routes still need (§12.8): the per-step pips are the map's, not
  part of the event.
* ``race_ends``: ``rounds`` of race dice rolled (0 without dice).
* ``game_over``: ``reason`` 0 a balance reached the target, 1 the last race of
  ``"races"`` mode, 2 the ``max_races`` guard (§7.11); ``races`` run.
* ``final_standing``: ``place`` the number of seats with more money (0: a
  winner; tied seats share a place, §8).

Money events carry the amount that moved, so the balance change of a step is
the sum of its ``connection_bonus``, ``build_fee``, ``account_paid``,
``travel_fee`` and ``race_placed`` events.

Order within a step follows the rules: a build turn is ``build_roll`` then
``turn_begins``; a step is ``step_built``, its ``build_fee`` s, its bonuses,
then ``account_paid``; a race is ``generation_roll`` s, ``race_generated``,
the ``candidate`` s, the ``race_entry`` decisions, then (after the last one)
the ``travel_fee`` s, the race (``race_round``, ``train_moved``,
``train_arrived``, ``tie_draw``), ``race_placed``, ``race_ends``. What ``init``
does (the start roll-off, and play up to the first decision) is not a step:
``Game.init`` reports no events (the kernels emit them on a logged record).

A step may report many events: with ``auto_forced`` one action can run many
races in a row (every entry and extension turn forced, about a dozen events a
race), far more than the first buffer's 256 rows; ``Game.step_with_events``
then runs the step again with room for all of them.

Emit arguments are evaluated in play too (only the write is compiled away), so
they are fields, locals and table lookups; ``entrant_seat``, the one that loops
in every race round, compiles to -1 on a plain record (``seats_ahead`` and the
end test of ``game_over`` run once per game, at its end).

A logged record has the buffer in front of the game's fields, which keep their
order and their offsets relative to each other, so the kernels' prefetches by
field (``rules.prefetch_header``) still name the lines they read (and a
prefetch is only a hint: it changes no result either way).
"""

from __future__ import annotations

from numba import njit
from numba.extending import overload

from ..core.eventlog import EventKind, EventKinds, is_logged
from .data import ENTRY_ENTERED

(EV_START_ROLL, EV_START_PLAYER, EV_ROUND_BEGINS, EV_BUILD_ROLL, EV_TURN_BEGINS, EV_START_CHOSEN, EV_COOP_PROPOSED,
 EV_COOP_ACCEPTED, EV_COOP_DECLINED, EV_FUNDING_CHOSEN, EV_STEP_BUILT, EV_FERRY_BUILT, EV_BUILD_FEE,
 EV_CONNECTION_BONUS, EV_ACCOUNT_PAID, EV_TURN_ENDS, EV_OPERATION_BEGINS, EV_GENERATION_ROLL, EV_RACE_GENERATED,
 EV_CANDIDATE, EV_RACE_ENTRY, EV_TRAVEL_FEE, EV_RACE_ROUND, EV_TRAIN_MOVED, EV_TRAIN_ARRIVED, EV_TIE_DRAW,
 EV_RACE_PLACED, EV_RACE_ENDS, EV_WINDOW_BEGINS, EV_GAME_OVER, EV_FINAL_STANDING) = range(1, 32)

SHARED_SEAT = -1  # build_roll: the round's shared roll (§6.3)
TURN_BUILD, TURN_EXTENSION = 0, 1  # turn_begins phase
ROLL_START, ROLL_GOAL, ROLL_COUNTRY, ROLL_TERMINAL = 0, 1, 2, 3  # generation_roll what (§7.2, §9.3)
END_TARGET, END_LAST_RACE, END_RACE_CAP = 0, 1, 2  # game_over reason (§7.11)

EVENT_KINDS = EventKinds(
    EventKind(EV_START_ROLL, "start_roll", ("seat", "red", "white"), "a seat's roll for the start player", "§5"),
    EventKind(EV_START_PLAYER, "start_player", ("seat",), "the start player S", "§5"),
    EventKind(EV_ROUND_BEGINS, "round_begins", ("round", "first"), "build round k, from seat (S + k) mod n", "§6.1"),
    EventKind(EV_BUILD_ROLL, "build_roll", ("seat", "red", "white", "bp"),
              "build points rolled (seat -1: shared)", "§6.3"),
    EventKind(EV_TURN_BEGINS, "turn_begins", ("seat", "phase", "funding", "bp"),
              "a build or extension turn begins", "§6.2"),
    EventKind(EV_START_CHOSEN, "start_chosen", ("seat", "start", "city"), "the seat's start city", "§6.4"),
    EventKind(EV_COOP_PROPOSED, "coop_proposed", ("seat", "partner"), "a co-building proposal", "§9.1"),
    EventKind(EV_COOP_ACCEPTED, "coop_accepted", ("seat", "partner", "bp"), "accepted; bp: the pooled BP", "§9.1"),
    EventKind(EV_COOP_DECLINED, "coop_declined", ("seat", "partner"), "the partner declines", "§9.1"),
    EventKind(EV_FUNDING_CHOSEN, "funding_chosen", ("seat", "funding"), "an extension turn's funding", "§7.10"),
    EventKind(EV_STEP_BUILT, "step_built", ("seat", "step", "cost", "partner"),
              "a step built (jointly: partner >= 0)", "§6.7"),
    EventKind(EV_FERRY_BUILT, "ferry_built", ("seat", "ferry", "cost"), "a ferry built", "§9.5"),
    EventKind(EV_BUILD_FEE, "build_fee", ("payer", "payee", "amount", "hex"), "a building fee paid", "§6.8"),
    EventKind(EV_CONNECTION_BONUS, "connection_bonus", ("seat", "city", "amount"),
              "the bonus for a first line into a city", "§6.9"),
    EventKind(EV_ACCOUNT_PAID, "account_paid", ("seat", "amount"), "account building paid to the bank", "§7.10"),
    EventKind(EV_TURN_ENDS, "turn_ends", ("seat", "unused_bp"), "END_TURN; unused BP are lost", "§6.2"),
    EventKind(EV_OPERATION_BEGINS, "operation_begins", ("rounds", "early"),
              "the build phase ends after R rounds", "§6.10"),
    EventKind(EV_GENERATION_ROLL, "generation_roll", ("what", "red", "white", "result"),
              "a race generation roll", "§7.2"),
    EventKind(EV_RACE_GENERATED, "race_generated", ("race", "start", "goal", "country"),
              "race k's start and goal", "§7.2"),
    EventKind(EV_CANDIDATE, "candidate", ("seat", "slot", "pips", "steps"), "a seat's candidate route", "§7.5"),
    EventKind(EV_RACE_ENTRY, "race_entry", ("seat", "slot"), "an entry decision (slot -1: declined)", "§7.6"),
    EventKind(EV_TRAVEL_FEE, "travel_fee", ("payer", "payee", "amount", "owed"),
              "usage fees paid, netted and capped", "§7.7"),
    EventKind(EV_RACE_ROUND, "race_round", ("round",), "a round of race dice begins", "§7.8"),
    EventKind(EV_TRAIN_MOVED, "train_moved", ("seat", "red", "white", "position"),
              "an entrant's race dice and progress", "§7.8"),
    EventKind(EV_TRAIN_ARRIVED, "train_arrived", ("seat", "round", "leftover"), "an entrant reached the goal", "§7.8"),
    EventKind(EV_TIE_DRAW, "tie_draw", ("position", "seat", "among", "drawn"), "a tie draw placed a seat", "§7.8"),
    EventKind(EV_RACE_PLACED, "race_placed", ("seat", "place", "prize"), "an entrant's place and prize", "§7.9"),
    EventKind(EV_RACE_ENDS, "race_ends", ("race", "entrants", "rounds"), "race k is over", "§7.1"),
    EventKind(EV_WINDOW_BEGINS, "window_begins", ("race",), "the extension window after race k", "§7.10"),
    EventKind(EV_GAME_OVER, "game_over", ("reason", "races"), "the game ends", "§7.11"),
    EventKind(EV_FINAL_STANDING, "final_standing", ("seat", "balance", "place"),
              "a seat's final balance and place", "§8"),
)


# ---- helpers of the emit arguments ------------------------------------------------------------------------------
def entrant_seat(state, i):
    """The seat of the i-th entrant in entry order, clockwise from F_k (§7.6); -1 on a record without an event
    buffer, where nothing reads it (the compiled version does no work there)."""
    if "events" not in state.dtype.names:
        return -1
    return _entrant_seat(state, i)


@njit(cache=True)
def _entrant_seat(state, i: int) -> int:
    n = int(state["num_players"])
    m = 0
    for k in range(n):
        s = (int(state["race_first"]) + k) % n
        if state["entry"][s] == ENTRY_ENTERED:
            if m == i:
                return s
            m += 1
    return -1


@overload(entrant_seat, inline="always")
def _entrant_seat_impl(state, i):
    """``entrant_seat``: the loop on a logged record, -1 on any other (chosen at compile time)."""
    if is_logged(state):
        return lambda state, i: _entrant_seat(state, i)
    return lambda state, i: -1


@njit(cache=True)
def seats_ahead(state, s: int) -> int:
    """The number of seats with a higher balance than seat s: its place, 0 for the winners (§8)."""
    ahead = 0
    for q in range(int(state["num_players"])):
        if state["balance"][q] > state["balance"][s]:
            ahead += 1
    return ahead
