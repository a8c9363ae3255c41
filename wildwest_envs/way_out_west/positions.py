"""Way Out West positions in the game's own terms: build a record, edit its board, play on (issue 19).

A *position* is a batch of one record (shape ``(1,)``) that ``GAME.step`` accepts.
``position`` builds one from the game's own ``init`` (the options as ``env()``
takes them), stops at the decision asked for and puts on the board what the
terms say, keeping every book consistent; ``place`` edits an existing position
the same way; ``play`` steps through legal moves::

    from wildwest_envs.way_out_west.positions import ABILENE, DEADWOOD, box, place, play, position, town
    from wildwest_envs.way_out_west_v0 import GAME

    states = position(3, seed=7, turn=1,                      # seat 1 takes the first action turn of round 1
                      cowboys={ABILENE: [0, 2, 1]},           # per town: cowboys of seats 0, 1, 2
                      buildings={ABILENE: {"store": 2}},      # per town: counter type -> owner seat
                      cash=[20, 12, 30])
    play(states, box(16), town(ABILENE))                      # seat 1 declares a gunfight in Abilene
    place(states, cattle={DEADWOOD: {0: 3}})                  # edit: seat 0 now has 3 cattle in Deadwood
    GAME.position(num_players=3, seed=7, turn=1)              # the same builder through the Game API

Terms (seats are absolute, ``0..N-1``; towns are indices ``0..4`` or names such
as ``"Abilene"``; counter types are indices ``0..5`` or keys such as ``"bank"``)::

    decision    "action" (CHOOSE_ACTION, default), "auction" (the first bid of the round's auction, AUCTION_BID)
                or "setup" (the first setup placement, SETUP_PLACE_COWBOY); the §13.2 names and codes work too
    turn        the seat to decide; turn_order: the seats of turn-order positions 1..N (§7.1)
    lap         1 or 2: the action lap (§7.1)
    round       1..num_rounds (§5)
    cowboys     {town: [count per seat] or {seat: count}}, cattle likewise (§3)
    buildings   {town: {type: owner seat, or None for no counter}}   (B&T counters, §8.5)
    farmers     {town: [seats whose farmer stands there]}            (§8.6)
    frontier    the highest town open for cattle (derived when not given, §8.1)
    cash        dollars: one int for every seat, [per seat] or {seat: dollars}; wanted: Wanted counters likewise

Books kept: pieces come from and go back to their owner's supply (cowboys,
cattle, B&T counters), Wanted counters from and to the shared supply, and a cash
change is booked with the bank (``bank_out`` when a seat gains, ``bank_in`` when
it loses), so ``sum(cash) + bank_in - bank_out`` stays the starting money. Too
many pieces, a full town, an unknown term or a bad value raise ``ValueError``
(``TypeError`` for a term of the wrong type) naming the term, and every built
or edited record is checked with ``GAME.validate`` before it is returned.

Decisions where the spec is silent (what a built position holds):

* The board holds exactly what the terms put there: the setup cowboys go back
  to their owners' supply (a position reached by play places them, §4 step 4),
  no B&T counter is removed from the game and no farmer has died.
* ``n_decisions`` is 0: the decision cap counts from the built position.
* Whose turn: with neither ``turn`` nor ``turn_order`` the turn order is the one
  play reaches when everybody drops out of the round-1 auction at once
  (``start_player`` last, §6.1) and position 1 is on turn; ``turn`` alone gives the
  order ``turn, turn + 1, ...`` (clockwise, as §4 step 2 orders the seats from
  the start player); ``turn_order`` alone puts its position 1 on turn.
* An action-phase position follows an auction in which everybody dropped out at
  once in the order that gives ``turn_order`` (so the bidding order is
  ``turn_order`` reversed, nobody paid); the players before ``turn`` in this lap
  have passed (their turn is used, no marker is placed); no box is taken.
* An auction position is the first decision of its auction: ``turn_order`` is
  the previous round's order (this round's bidding order) and ``turn`` must be
  its position 1. Bids, sub-decisions of an action and gunfights are reached by
  ``play`` from a built position.
* ``round`` changes the round marker only: earlier rounds' income is whatever
  ``cash`` says.
* The frontier, when not given, is the lowest one the board allows: at least
  the highest town holding cattle (and, for ``place``, never below the record's),
  moved on while its corrals are full (§8.1). A given frontier must allow the
  cattle on the board.
* ``buildings`` ignores the two-counters-per-player-per-town build limit:
  captures ignore it too (§16 #30), so such towns occur in play.
* With ``auto_forced=True`` the position is returned at the decision asked for
  even when it has a single legal action; the engine applies forced decisions
  after the next step.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core import positions as core_positions
from ..core.positions import seat as _seat
from ..core.options import is_integer
from .data import (A_BOX, A_PASS, A_TOWN, BT_KEYS, BT_NAMES, BUILDING_SPACES, CORRALS, DEC_AUCTION_BID,
                   DEC_CHOOSE_ACTION, DEC_SETUP_PLACE_COWBOY, DECISION_NAMES, LAST_TOWN, N_BOXES, N_BT, N_CATTLE,
                   N_COWBOYS, N_PER_BT_TYPE, N_TOWNS, N_WANTED, TOWN_NAMES)
from .state import NOBODY

SAN_ANTONIA, KANSAS_CITY, ABILENE, DODGE_CITY, DEADWOOD = range(N_TOWNS)  # town indices (§0.2)
assert TOWN_NAMES[DEADWOOD] == "Deadwood" and TOWN_NAMES[SAN_ANTONIA] == "San Antonia"

DECISIONS = {"setup": DEC_SETUP_PLACE_COWBOY, "auction": DEC_AUCTION_BID, "action": DEC_CHOOSE_ACTION}
BOARD_TERMS = ("cowboys", "cattle", "buildings", "farmers", "frontier")
MONEY_TERMS = ("cash", "wanted")
TURN_TERMS = ("decision", "turn", "turn_order", "lap", "round")
_UNCAPPED = 2**31 - 1  # the decision cap while the builder plays its way to the decision asked for
MAX_CASH = 10**8  # dollars a seat may be given: 5 seats' worth keeps the int32 bank ledger exact (§14 sizes)


# ---- building a position ------------------------------------------------------------------------------------------
def position(num_players: int = 3, seed: int = 0, *, decision="action", turn: int | None = None,
             turn_order=None, lap: int = 1, round: int = 1, cowboys=None, cattle=None, buildings=None,
             farmers=None, frontier=None, cash=None, wanted=None, **options) -> np.ndarray:
    """A position (a batch of one record) at ``decision``, with the board, money and turn the terms give.

    ``seed`` is the record's generator state (as ``GAME.init(seed)`` takes it); ``options`` are the game's
    options (``num_rounds``, ``start_player``, ``preset_dice``, ``auto_forced``, ``max_decisions``). The terms,
    the decisions taken where the spec is silent and the errors are in the module docstrings (this one's and
    ``core.positions``').
    """
    from .game import GAME

    core_positions.check_start(GAME, "Way Out West", seed, options, TURN_TERMS + BOARD_TERMS + MONEY_TERMS)
    code = decision_code(decision)
    opts = GAME.parse_options(num_players=num_players, **options)
    board = {"cowboys": cowboys, "cattle": cattle, "buildings": buildings, "farmers": farmers, "frontier": frontier}
    if code == DEC_SETUP_PLACE_COWBOY:
        _check_setup_terms(board, turn_order, lap, round)
        if turn is not None:
            opts["start_player"] = _setup_player(turn, opts)
        states = GAME.init(seed, **opts)
    else:
        states = GAME.init(seed, **opts)
        _play_until(states, code)
        _set_round(states[0], round)
        _set_turn(states[0], code, turn, turn_order, lap)
        _clear_board(states[0])
        _apply_board(states[0], **board)
    _apply_money(states[0], cash, wanted)
    GAME.validate(states)
    return states


def place(states: np.ndarray, *, cowboys=None, cattle=None, buildings=None, farmers=None, frontier=None,
          cash=None, wanted=None) -> np.ndarray:
    """Edit the position ``states`` (a batch of one) in place: only the entries the terms name change.

    ``cowboys={ABILENE: {1: 2}}`` gives seat 1 exactly 2 cowboys in Abilene (the difference from or to his
    supply); ``buildings={ABILENE: {"bank": None}}`` takes the bank of Abilene back to its owner's supply;
    ``farmers`` adds farmers; ``cash`` and ``wanted`` set the seats named. Books are kept as ``position``
    keeps them (module docstring). The edited copy is validated before it is written back, so on any
    error ``states`` is unchanged. Returns ``states``.

    Raises:
        ValueError: an impossible value, or an edit that leaves no valid game state (e.g. cowboys of a
            running gunfight); TypeError: a term of the wrong type or ``states`` not a batch of one.
    """
    from .game import GAME

    _check_single(states, GAME)
    work = states.copy()
    _apply_board(work[0], cowboys=cowboys, cattle=cattle, buildings=buildings, farmers=farmers, frontier=frontier)
    _apply_money(work[0], cash, wanted)
    GAME.validate(work)
    states[...] = work
    return states


# ---- playing on ----------------------------------------------------------------------------------------------------
legal_actions, play = core_positions.bound_to(f"{__package__}.game")  # (states), (states, *actions)


def box(b: int) -> int:
    """The action id of BOX_b (CHOOSE_ACTION, §13.1)."""
    if not is_integer(b) or not 0 <= b < N_BOXES:
        raise ValueError(f"box must be 0..{N_BOXES - 1}, got {b!r}")
    return A_BOX + int(b)


def town(t) -> int:
    """The action id of TOWN_t (every town decision, §13.1); ``t`` an index or a town name."""
    return A_TOWN + town_index(t, "town")


def decision_code(decision) -> int:
    """The ``DEC_*`` code of a decision a position can be built at (module docstring: ``decision``)."""
    return core_positions.decision_code(decision, DECISIONS, DECISION_NAMES, _reached_by_play)


def _reached_by_play(key: str) -> str | None:
    """How a decision that positions are not built at is reached (``core.positions.decision_code``)."""
    if key.upper() in DECISION_NAMES:
        return (f"positions are built at {list(DECISIONS)}; reach {key.upper()} by play from an action-turn "
                f"position, e.g. play(states, box(16), ...)")
    return None


# ---- names in the game's terms -----------------------------------------------------------------------------------
def town_index(t, term: str) -> int:
    """Town ``t`` (an index 0..4 or a name, any case) as an index; ``ValueError`` naming ``term`` otherwise."""
    index = core_positions.index_or_name(t, N_TOWNS, TOWN_NAMES)
    if index is not None:
        return index
    raise ValueError(f"{term}: unknown town {t!r}; towns are 0..{N_TOWNS - 1} or {list(TOWN_NAMES)}")


def counter_type(k, term: str = "buildings") -> int:
    """B&T type ``k`` (an index 0..5, a key such as ``"bank"`` or a name) as an index."""
    kind = core_positions.index_or_name(k, N_BT, BT_KEYS, BT_NAMES)
    if kind is not None:
        return kind
    raise ValueError(f"{term}: unknown counter type {k!r}; types are 0..{N_BT - 1} or {list(BT_KEYS)}")


# ---- the decision and whose turn --------------------------------------------------------------------------------
def _check_setup_terms(board: dict, turn_order, lap, round_) -> None:
    """A setup position is the fresh game: its board fills by placement (§4 step 4)."""
    for name, value in board.items():
        if value is not None:
            raise ValueError(f"{name}: a setup position has an empty board (the setup cowboys are placed by play)")
    if turn_order is not None:
        raise ValueError("turn_order: the setup order is the start player, then clockwise (§4 step 2); "
                         "give turn= or start_player=")
    for name, value in (("lap", lap), ("round", round_)):
        if value != 1:
            raise ValueError(f"{name}: a setup position comes before round 1 and its action laps, got {value!r}")


def _setup_player(turn, opts: dict) -> int:
    """The start player that makes ``turn`` the first to place a setup cowboy."""
    seat = _seat(turn, opts["num_players"], "turn")
    if opts["start_player"] is not None and opts["start_player"] != seat:
        raise ValueError(f"turn: the first setup placement is the start player's ({opts['start_player']}), "
                         f"not seat {seat}")
    return seat


def _play_until(states: np.ndarray, code: int) -> None:
    """Play from init to ``code``: every setup cowboy in San Antonia, then everybody drops out of the auction."""
    from .game import GAME

    s = states[0]
    cap = int(s["max_decisions"])
    s["max_decisions"] = _UNCAPPED
    while s["decision"] == DEC_SETUP_PLACE_COWBOY:
        GAME.step(states, np.array([A_TOWN + SAN_ANTONIA]))
    while code == DEC_CHOOSE_ACTION and s["decision"] == DEC_AUCTION_BID:
        GAME.step(states, np.array([A_PASS]))
    s["max_decisions"] = cap
    s["n_decisions"] = 0


def _set_round(s: np.void, round_) -> None:
    """The round marker on ``round_`` (§5)."""
    if not is_integer(round_) or not 1 <= round_ <= s["num_rounds"]:
        raise ValueError(f"round must be an integer 1..{int(s['num_rounds'])} (num_rounds), got {round_!r}")
    s["round"] = round_


def _set_turn(s: np.void, code: int, turn, turn_order, lap) -> None:
    """Turn order, seat on turn and lap of an auction or action-phase position (module docstring)."""
    n = int(s["num_players"])
    played = [int(q) for q in s["turn_order"][:n]]
    if turn_order is not None:
        order = _permutation(turn_order, n)
    elif turn is not None:
        first = _seat(turn, n, "turn")
        order = [(first + i) % n for i in range(n)]
    else:
        order = played
    seat = order[0] if turn is None else _seat(turn, n, "turn")
    if code == DEC_AUCTION_BID:
        if lap != 1:
            raise ValueError("lap: an auction position has no action lap (it comes before the action phase)")
        if seat != order[0]:
            raise ValueError(f"turn: the first bidder of an auction is turn_order's position 1 (seat {order[0]}), "
                             f"not seat {seat} (§6.1)")
        _set_bidding_order(s, order)
    else:
        _set_action_turn(s, order, seat, lap)


def _permutation(turn_order, n: int) -> list[int]:
    """``turn_order`` as a list holding each of the n seats once."""
    if isinstance(turn_order, (str, bytes, Mapping)) or not hasattr(turn_order, "__iter__"):
        raise TypeError(f"turn_order must be a sequence of the {n} seats, got {turn_order!r}")
    order = list(turn_order)
    if not all(is_integer(q) for q in order) or sorted(order) != list(range(n)):
        raise ValueError(f"turn_order must hold each seat 0..{n - 1} once, got {order!r}")
    return [int(q) for q in order]


def _set_bidding_order(s: np.void, order: list[int]) -> None:
    """The first bid of an auction that goes round ``order`` from its position 1 (§6.1)."""
    n = len(order)
    s["turn_order"][:n] = order
    s["bidding_order"][:n] = order
    s["bidder_index"] = 0
    s["current"] = order[0]


def _set_action_turn(s: np.void, order: list[int], seat: int, lap) -> None:
    """``seat``'s turn in lap ``lap`` of the action phase; the earlier positions of the lap have passed (§7.1)."""
    if not is_integer(lap) or lap not in (1, 2):
        raise ValueError(f"lap must be 1 or 2 (§7.1), got {lap!r}")
    n, index = len(order), order.index(seat)
    s["turn_order"][:n] = order
    s["new_order"][:n] = order
    s["bidding_order"][:n] = order[::-1]  # everybody dropped out at once: position N first (§6.1)
    s["lap"] = lap - 1
    s["turn_index"] = index
    for pos, q in enumerate(order):
        s["turns_used"][q] = lap if pos < index else lap - 1
    s["current"] = seat


# ---- the board ------------------------------------------------------------------------------------------------------
def _clear_board(s: np.void) -> None:
    """Every piece back in its owner's supply; only San Antonia open for cattle (§4 step 5)."""
    n = int(s["num_players"])
    s["cowboys"][:] = 0
    s["cattle"][:] = 0
    s["bt_owner"][:] = NOBODY
    s["farmers"][:] = 0
    s["frontier"] = 0
    for p in range(n):
        s["cowboy_supply"][p] = N_COWBOYS
        s["cattle_supply"][p] = N_CATTLE
        s["bt_supply"][p] = N_PER_BT_TYPE - s["bt_removed"][p]


def _apply_board(s: np.void, cowboys, cattle, buildings, farmers, frontier) -> None:
    """Put the pieces the terms name on the board of record s, from and to the supplies, then the frontier."""
    n = int(s["num_players"])
    if cowboys is not None:
        _set_counts(s, "cowboys", "cowboy_supply", N_COWBOYS, _town_rows("cowboys", cowboys, n))
    if cattle is not None:
        _set_counts(s, "cattle", "cattle_supply", N_CATTLE, _town_rows("cattle", cattle, n))
        _check_corrals(s)
    if buildings is not None:
        _set_buildings(s, buildings, n)
    if farmers is not None:
        _add_farmers(s, farmers, n)
    _set_frontier(s, frontier)


def _town_rows(term: str, value, n: int) -> dict[int, dict[int, int]]:
    """``{town: {seat: count}}`` from ``{town: [per seat] or {seat: count}}`` or a list of 5 rows."""
    if not isinstance(value, Mapping):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != N_TOWNS:
            raise TypeError(f"{term} must be a mapping {{town: counts per seat}} or {N_TOWNS} rows, got {value!r}")
        value = dict(enumerate(value))
    rows = {}
    for t, row in value.items():
        t = town_index(t, term)
        rows[t] = _seat_values(f"{term} in {TOWN_NAMES[t]}", row, n)
    return rows


def _seat_values(term: str, value, n: int) -> dict[int, object]:
    """``{seat: value}`` from one value for every seat, a sequence of N values or a mapping by seat."""
    if isinstance(value, Mapping):
        return {_seat(p, n, term): v for p, v in value.items()}
    if is_integer(value):
        return dict.fromkeys(range(n), value)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(f"{term} must be a number, a sequence of {n} (one per seat) or {{seat: value}}, "
                        f"got {value!r}")
    if len(value) != n:
        raise ValueError(f"{term} must give one value per seat ({n}), got {len(value)}: {list(value)!r}")
    return dict(enumerate(value))



def _count(term: str, value, high: int) -> int:
    """``value`` as a count 0..high, or a ``ValueError`` naming ``term``."""
    if not is_integer(value) or not 0 <= value <= high:
        raise ValueError(f"{term}: {value!r} is not a count 0..{high}")
    return int(value)


def _set_counts(s: np.void, field: str, supply: str, total: int, rows: dict) -> None:
    """Cowboys or cattle: seat p has exactly the given count in each town named, from / to his supply (§2)."""
    for t, row in rows.items():
        for p, value in row.items():
            wanted = _count(f"{field} of seat {p} in {TOWN_NAMES[t]}", value, total)
            left = int(s[supply][p]) - (wanted - int(s[field][t, p]))
            if left < 0:
                raise ValueError(f"{field}: seat {p} would have {total - left} {field} on the board; "
                                 f"he has {total} (§2)")
            s[field][t, p] = wanted
            s[supply][p] = left


def _check_corrals(s: np.void) -> None:
    """No town holds more cattle than it has corrals (§3)."""
    for t in range(N_TOWNS):
        held = int(s["cattle"][t].sum())
        if held > CORRALS[t]:
            raise ValueError(f"cattle: {TOWN_NAMES[t]} would hold {held} cattle in its {CORRALS[t]} corrals (§3)")


def _set_buildings(s: np.void, buildings, n: int) -> None:
    """Each named counter belongs to its new owner (from his supply) or to nobody (back to the old owner's)."""
    if not isinstance(buildings, Mapping):
        raise TypeError(f"buildings must be a mapping {{town: {{type: owner seat}}}}, got {buildings!r}")
    for t, counters in buildings.items():
        t = town_index(t, "buildings")
        if not isinstance(counters, Mapping):
            raise TypeError(f"buildings in {TOWN_NAMES[t]} must be a mapping {{type: owner seat or None}}, "
                            f"got {counters!r}")
        for k, owner in counters.items():
            _set_owner(s, t, counter_type(k), NOBODY if owner is None or owner == NOBODY
                       else _seat(owner, n, "buildings"))
        size = int((s["bt_owner"][t] != NOBODY).sum())
        if size > BUILDING_SPACES[t]:
            raise ValueError(f"buildings: {TOWN_NAMES[t]} would hold {size} counters on its "
                             f"{BUILDING_SPACES[t]} building spaces (§3)")


def _set_owner(s: np.void, t: int, k: int, owner: int) -> None:
    """The counter of type k in town t belongs to ``owner`` (NOBODY: none); the supplies follow."""
    old = int(s["bt_owner"][t, k])
    if old != NOBODY:
        s["bt_supply"][old, k] += 1
    if owner != NOBODY:
        if s["bt_supply"][owner, k] == 0:
            raise ValueError(f"buildings: seat {owner} has no {BT_NAMES[k]} left in supply for "
                             f"{TOWN_NAMES[t]} (3 of each type, §2)")
        s["bt_supply"][owner, k] -= 1
    s["bt_owner"][t, k] = owner


def _add_farmers(s: np.void, farmers, n: int) -> None:
    """The farmers of the seats named stand in their towns; each seat has one farmer a game (§8.6)."""
    if not isinstance(farmers, Mapping):
        raise TypeError(f"farmers must be a mapping {{town: [seats]}}, got {farmers!r}")
    for t, seats in farmers.items():
        t = town_index(t, "farmers")
        if isinstance(seats, (str, bytes, Mapping)) or not hasattr(seats, "__iter__"):
            raise TypeError(f"farmers in {TOWN_NAMES[t]} must be a list of seats, got {seats!r}")
        for p in seats:
            p = _seat(p, n, "farmers")
            if s["farmer_used"][p]:
                raise ValueError(f"farmers: seat {p} has placed his farmer already (one a game, §8.6)")
            s["farmer_used"][p] = 1
            s["farmers"][t] += 1


def _set_frontier(s: np.void, frontier) -> None:
    """The given frontier if the cattle allow it, else the lowest one they allow (module docstring, §8.1)."""
    highest = max([t for t in range(N_TOWNS) if s["cattle"][t].any()], default=0)
    if frontier is None:
        f = max(int(s["frontier"]), highest)
        while f < LAST_TOWN and s["cattle"][f].sum() >= CORRALS[f]:
            f += 1
    else:
        f = town_index(frontier, "frontier")
        if f < highest:
            raise ValueError(f"frontier: {TOWN_NAMES[highest]} holds cattle, above {TOWN_NAMES[f]} (§8.1)")
        if f < LAST_TOWN and s["cattle"][f].sum() >= CORRALS[f]:
            raise ValueError(f"frontier: the corrals of {TOWN_NAMES[f]} are full, so the next town is open (§8.1)")
    s["frontier"] = f


# ---- money and Wanted counters ------------------------------------------------------------------------------------
def _apply_money(s: np.void, cash, wanted) -> None:
    """The ``cash`` and ``wanted`` terms (one value, one per seat, or by seat)."""
    n = int(s["num_players"])
    if cash is not None:
        for p, dollars in _seat_values("cash", cash, n).items():
            _set_cash(s, p, dollars)
    if wanted is not None:
        for p, held in _seat_values("wanted", wanted, n).items():
            _set_wanted(s, p, held)


def _set_cash(s: np.void, p: int, dollars) -> None:
    """Seat p holds ``dollars``; the bank paid the difference or was paid it (money conserved, §14)."""
    if not is_integer(dollars) or not 0 <= dollars <= MAX_CASH:
        raise ValueError(f"cash of seat {p}: {dollars!r} is not a number of dollars 0..{MAX_CASH} (§0.2)")
    change = int(dollars) - int(s["cash"][p])
    s["cash"][p] = dollars
    if change > 0:
        s["bank_out"] += change
    else:
        s["bank_in"] -= change


def _set_wanted(s: np.void, p: int, held) -> None:
    """Seat p holds ``held`` Wanted counters, from or to the shared supply of 13 (§9.7)."""
    left = int(s["wanted_supply"]) - (_count(f"wanted of seat {p}", held, N_WANTED) - int(s["wanted"][p]))
    if left < 0:
        raise ValueError(f"wanted: the seats would hold {N_WANTED - left} Wanted counters; there are {N_WANTED} "
                         "(§2)")
    s["wanted"][p] = held
    s["wanted_supply"] = left


def _check_single(states, game) -> None:
    """``states`` must be a position: a ``(1,)`` array of the game's records."""
    core_positions.check_position(game, states)

