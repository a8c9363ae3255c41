"""Rail positions in the game's own terms: build a record, edit it, play on (issue 19).

A *position* is a batch of one record (shape ``(1,)``) that ``GAME.step`` accepts.
``position`` builds one from the game's own ``init`` (the options as ``env()``
takes them): it chooses the start cities and lays the lines through the
engine's own kernels (``building.choose_start``, ``build_step``,
``build_ferry``), so every timestamp, fee, bonus, network, frontier and touch
bit is the one play gives; then it poses the decision asked for, a race
included (``races.compute_candidates`` finds the candidates). ``place`` edits
an existing position the same way; ``play`` steps on through legal moves::

    from wildwest_envs.rail.positions import build, place, play, position
    from wildwest_envs.rail_v0 import GAME

    states = position(3, seed=7, turn=1, bp=8,                  # seat 1's build turn of round 0, 8 BP
                      start={0: "Chicago", 1: "Milwaukee"},      # start cities (§6.4)
                      lines=[(0, ["Chicago", "Omaha"]),          # seat 0's cheapest line Chicago-Omaha first,
                             (1, [(29, 7), (29, 8), "Chicago"])],  # then seat 1's, hex by hex (col, row)
                      balances=[30, 12, 0])                      # dollars (§7.12)
    play(states, build("Chicago", (29, 10)), "end turn")        # seat 1 builds a step and ends his turn
    place(states, balances={2: 5})                              # edit: seat 2 now has $5
    race = position(3, turn=0, start={0: "Chicago"}, lines={0: ["Chicago", "Omaha"]},
                    race=("Chicago", "Omaha"))                  # seat 0 opens race 0's entry decisions
    GAME.position(num_players=3, seed=7, turn=1)                # the same builder through the Game API

Terms (seats are absolute, ``0..N-1``; a city is a name, any case, or its
number ``11..66``; a hex is ``(col, row)``, ``"col,row"`` or a city: a pair of
integers is always a hex)::

    decision    "build" (BUILD), "start" (START_CHOICE), "coop_response" (COOP_RESPONSE), "race_entry"
                (RACE_ENTRY), "ext_funding" (EXT_FUNDING) or "ext_build" (EXT_BUILD); the §11.2 names and codes
                work too. Default: "race_entry" with race= or entries=, else "start" if the seat to decide has
                no start city, else "build"
    turn        the seat to decide (in a co-op response the proposed partner); default: the order's next seat
    first       the seat that opens the build round (§6.1), the race's entries or the extension window (F_k,
                §7.1); default: the start player's (option start_player=), else turn (proposer), else the
                seed's roll-off (§5)
    round       build round k = 0, 1, ... (§6.1, default 0); in the operation phase R, the build rounds
                played (default build_rounds)
    bp          the turn's BP (§6.3), 0..127; default: the seed's first build roll (the one init rolled)
    proposer    coop_response: the seat whose co-building proposal the partner answers (§9.1)
    funding     ext_build: "account" or "dice" (default: the extension_mode's; "account" with "dice_or_account",
                §7.10)
    start       {seat: start city}                                               (§6.4)
    lines       {seat: route or [routes]} or [(seat, route), ...] in build order; a route is a list of hexes
                (a list of hexes only is one route), each joined to the next by one step (neighbours), by a
                ferry (its two ends) or by the cheapest line (below)             (§6.5-§6.9, §9.5)
    balances    dollars: one int for every seat, [per seat] or {seat: dollars}   (§7.12)
    race        (start city, goal city) or (start city, country name): the race posed (§7.2, §9.3);
                default for "race_entry": generated from the record's dice, as play does
    entries     {seat: slot ("cheapest", "fastest", "balanced" or 0..2) or None}: entry decisions taken (§7.6)
    races_run   races already run: the record's race_k (default 0 at race_entry, 1 in an extension window)
    city_uses   {city: count}: races that ended in each city before (the repeat rule's counts, §7.2)

Books kept: lines are laid by the build kernels, so the step owners, timestamps
(``own_t``, ``t``), counts, networks, frontier, touch bits, first directions,
connected cities, the build fees between the seats (§6.8), the connection
bonuses (§6.9, ``total_bonus``) and the BP ledger (``bp_spent``) are those of
play. ``balances`` are set after the lines; the difference is booked as
earlier race prizes (``total_prizes``), so ``sum(balance) = prizes + bonuses -
account building`` still holds. A posed race counts in ``city_uses`` as
generation counts it. An unknown term or option, a value out of range or
against the rules (an illegal step, a race closer than ``d_min``, an entry
with an empty slot...) raises ``ValueError`` (``TypeError`` for a term of the
wrong type) naming the term; every built or edited record is checked with
``GAME.validate``.

Decisions where the spec is silent (what a built position holds):

* Lines are built in the order given, each step as a build turn of its owner
  with unlimited BP would build it (in an operation-phase position too: no
  money goes to the bank): it must be legal by §6.5 (from the owner's network,
  not his own, into a foreign hex only with ``international``, a first step out
  of the start city by a free side under distinct directions); the pending
  turn's BP and counters are not touched. A step or ferry the owner already
  owns is passed over, so a route may run along his own track. Between two
  hexes that are not neighbours a route takes the cheapest line (build cost of
  §6.6, own steps free; then fewest new steps; then the first found relaxing
  hexes by id, directions 0..5), through home hexes; between the two ends of a
  ferry (with ``ferries`` on) it takes the ferry.
* A seat with lines but no ``start`` starts in the first hex of its first
  line when that is a start city.
* The board holds what the terms say whatever the round: a seat may own a
  start city and lines before its first turn has come (play gives a start
  city on that turn, §6.2). Rule tests use this to isolate one rule.
* Whose turn: the seats of the order before ``turn`` have used their turn of
  this round (``turn_used``; their extension turns, or their entry decisions:
  declined unless ``entries`` says otherwise); no co-build used up another
  seat's turn. Without ``start_player`` the start player is the one that
  makes ``first`` open the round (race, window): ``(first - round) mod N`` in
  the build phase, ``(first - R - k) mod N`` for race k (§7.1).
* ``balances`` may be negative (building fees can make them so, §7.12); they
  do not count as race income (``race_income``, the 10 % budget of §9.6).
* ``bp`` is not checked against the dice (1 BP with two dice is accepted);
  with ``shared_build_roll`` it is the round's shared BP too. The dice shown
  (``red``, ``white``, ``start_rolls``) are what ``init`` rolled, and the
  leftovers of the last build turn that play keeps into the operation phase
  (``own_bp``, ``turn_builds``) are 0 there.
* An operation-phase position follows a build phase of ``round`` rounds in
  which every turn was used (``turn_used`` all 1); fewer rounds than
  ``build_rounds`` need ``build_early_end`` and every city joined (§6.10).
  An extension window follows a race nobody entered: no outcome (``last_*``),
  no candidate summaries. ``city_uses`` counts only what the terms say.
* ``races_run`` must leave the game running (below ``max_races`` or
  ``races_total``, §7.11); at a race entry nobody holds the points target.
* A co-build (COOP_BUILD) is reached by play from a co-op response position:
  ``GAME.script`` the partner's dice, then ``play(states, "accept co-build")``.
* ``n_decisions`` is 0: the decision cap counts from the built position. With
  ``auto_forced=True`` the position is returned at the decision asked for even
  when it has a single legal action (a seat without candidates at its race
  entry, a start choice on a one-start-city map); the engine applies forced
  decisions after the next step.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from itertools import pairwise

import numpy as np

from ..core import positions as core_positions
from ..core.positions import mapping as _mapping, seat as _seat, seat_values as _seat_values
from ..core.positions import sequence as _sequence
from ..core.options import is_integer
from . import building, races
from .data import (CONTEXT_NAMES, CTX_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD, CTX_EXT_FUNDING, CTX_RACE_ENTRY,
                   CTX_START_CHOICE, END_POINTS, ENTRY_DECLINED, ENTRY_ENTERED, EXT_DICE, EXT_DICE_OR_ACCOUNT,
                   FUND_ACCOUNT, FUND_BP, FUND_NONE, N_ROUTE_OBJECTIVES)
from .maps import FE_A, FE_B, HOME, HX_CITY, HX_COUNTRY, HX_NBR, HX_STEP, ST_A, ST_B, ST_COST, ST_FOREIGN, RailMap

DECISIONS = {"build": CTX_BUILD, "start": CTX_START_CHOICE, "coop_response": CTX_COOP_RESPONSE,
             "race_entry": CTX_RACE_ENTRY, "ext_funding": CTX_EXT_FUNDING, "ext_build": CTX_EXT_BUILD}
BUILD_PHASE = (CTX_START_CHOICE, CTX_BUILD, CTX_COOP_RESPONSE)
WINDOW = (CTX_EXT_FUNDING, CTX_EXT_BUILD)
SLOTS = {"cheapest": 0, "fastest": 1, "balanced": 2}  # candidate slots (§7.5)
FUNDINGS = {"account": FUND_ACCOUNT, "dice": FUND_BP}  # extension funding (§7.10)
TURN_TERMS = ("decision", "turn", "first", "round", "bp", "proposer", "funding")
BOARD_TERMS = ("start", "lines", "balances", "race", "entries", "races_run", "city_uses")
MAX_BP = 127  # own_bp is int8
MAX_BALANCE = 10**6  # dollars a seat may be given: 6 seats' worth keeps the int32 ledgers exact
MAX_USES = 10_000  # city_uses entries (int16; races_total is at most 10,000)
STAGING_BP = 1000  # BP while a line is laid: more than any step or ferry costs
_STAGED = ("context", "builder", "current", "partner", "funding", "bp_left", "turn_builds")  # restored after lines


# ---- building a position ---------------------------------------------------------------------------------------
def position(num_players: int = 3, seed: int = 0, *, decision=None, turn: int | None = None,
             first: int | None = None, round: int | None = None, bp: int | None = None, proposer=None,
             funding=None, start=None, lines=None, balances=None, race=None, entries=None, races_run=None,
             city_uses=None, game=None, **options) -> np.ndarray:
    """A position (a batch of one record) at ``decision``, with the lines, money and turn the terms give.

    ``seed`` is the record's generator state (as ``GAME.init(seed)`` takes it); ``options`` are the game's
    options (``start_player``, ``build_rounds``, ``coop_building``, ``extension_mode``, ``auto_forced``...);
    ``game`` is the map's ``Game`` (default: the western USA map's, ``rail_v0.GAME``). The terms, the decisions
    taken where the spec is silent and the errors are in the module docstrings (this one's and ``core.positions``').
    """
    game = _game(game)
    aliases = {alias for o in game.options.options for alias in o.aliases}
    core_positions.check_start(game, "Rail", seed, options, TURN_TERMS + BOARD_TERMS, aliases)
    code = _decision(decision, race, entries)
    _check_terms_of(code, turn=turn, bp=bp, proposer=proposer, funding=funding, race=race, entries=entries,
                    races_run=races_run)
    opts = game.parse_options(num_players=num_players, **options)
    n = opts["num_players"]
    operating = code is not None and code not in BUILD_PHASE
    k = _races_run(races_run, code, opts)
    rounds = _rounds_played(round, opts) if operating else _build_round(round, opts)
    offset = rounds + k - (1 if code in WINDOW else 0) if operating else rounds  # the order opens (S + offset) % n
    decided = len(_mapping(entries, "entries", "{seat: slot or None}")) if entries is not None else 0
    opener = _opener(first, (proposer, "proposer") if code == CTX_COOP_RESPONSE else (turn, "turn"), decided,
                     offset, opts)
    states = game.init(seed, **opts)
    s = states[0]
    if opener is None:
        opener = (int(s["start_player"]) + offset) % n
    first_roll = int(s["bp_left"])
    rail_map = game.rail_map
    _lay(s, rail_map, start, lines)
    if city_uses is not None:
        _set_city_uses(s, rail_map, city_uses)
    if balances is not None:
        _set_balances(s, balances)
    seat = _seat(turn, n, "turn") if turn is not None else (opener + decided) % n
    if not operating:
        _pose_build_phase(s, rail_map, code, seat, opener, rounds, first_roll if bp is None else bp, proposer)
    elif code == CTX_RACE_ENTRY:
        _pose_race_entry(s, rail_map, seat, opener, rounds, k, race, entries or {})
    else:
        _pose_window(s, rail_map, code, seat, opener, rounds, k, funding, bp, first_roll)
    s["n_decisions"] = 0
    game.validate(states)
    return states


def place(states: np.ndarray, *, start=None, lines=None, balances=None, city_uses=None, game=None) -> np.ndarray:
    """Edit the position ``states`` (a batch of one) in place: only what the terms name changes.

    ``start`` gives seats without a start city one, ``lines`` adds lines after those on the board (in build
    order, each step legal as in ``position``), ``balances`` sets the seats named (booked as prizes),
    ``city_uses`` sets the repeat-rule counts of the cities named. The pending decision stays. The edited copy is
    validated before it is written back, so on any error ``states`` is unchanged. Returns ``states``.

    Raises:
        ValueError: an impossible value, lines during a race's entries (the rail graph does not change during a
            race, §12.1), a start city for the seat choosing one now, or a finished game.
        TypeError: a term of the wrong type or ``states`` not a batch of one record of ``game``.
    """
    game = _game(game)
    _check_single(states, game)
    s0 = states[0]
    if s0["done"]:
        raise ValueError("place: the game is over; build a new position")
    if lines is not None and s0["context"] == CTX_RACE_ENTRY:
        raise ValueError("lines: the rail graph does not change during a race's entries (§12.1): build the lines "
                         "with position(..., lines=..., race=...)")
    work = states.copy()
    s = work[0]
    _lay(s, game.rail_map, start, lines)
    choosing = int(s["current"])
    if s["context"] == CTX_START_CHOICE and s["start_city"][choosing] >= 0:
        raise ValueError(f"start: seat {choosing} is choosing its start city now (§6.4): play CHOOSE_START, then "
                         "place its lines")
    if city_uses is not None:
        _set_city_uses(s, game.rail_map, city_uses)
    if balances is not None:
        _set_balances(s, balances)
    game.validate(work)
    states[...] = work
    return states


# ---- playing on ------------------------------------------------------------------------------------------------
def legal_actions(states: np.ndarray, game=None) -> list[int]:
    """The legal action ids of the pending decision of the position ``states`` (empty once it is over)."""
    game = _game(game)
    _check_single(states, game)
    return core_positions.legal_actions(game, states)


def play(states: np.ndarray, *actions, game=None) -> np.ndarray:
    """Step the position ``states`` with each action in turn (an id, or a name as ``GAME.action_to_string``
    gives it: ``"end turn"``, ``"decline race"``...); returns ``states``. Raises as ``core.positions.play`` does
    (``ValueError``: an illegal action or unknown name; ``RuntimeError``: a step broke an invariant that held
    before it)."""
    game = _game(game)
    _check_single(states, game)
    return core_positions.play(game, states, actions)


def build(a, b, game=None) -> int:
    """The BUILD action id of the step between the neighbouring hexes ``a`` and ``b`` (§11.1)."""
    rail_map = _game(game).rail_map
    ha, hb = _hex(a, "build", rail_map), _hex(b, "build", rail_map)
    try:
        return rail_map.step_between(ha, hb)
    except ValueError:
        raise ValueError(f"build: no buildable step between {_hex_text(rail_map, ha)} and "
                         f"{_hex_text(rail_map, hb)} (neighbours, not across water, §6.5)") from None


def decision_code(decision) -> int:
    """The ``CTX_*`` code of a decision a position can be built at (module docstring: ``decision``)."""
    return core_positions.decision_code(decision, DECISIONS, CONTEXT_NAMES, _reached_by_play)


def _reached_by_play(key: str) -> str | None:
    """How a decision that positions are not built at is reached (``core.positions.decision_code``)."""
    if key in ("coop_build", "co-build"):
        return "a co-build is reached by play from decision='coop_response' (script the partner's dice, then play " \
               "'accept co-build')"
    return None


# ---- names in the game's terms -----------------------------------------------------------------------------------
def hex_id(x, game=None) -> int:
    """Hex ``x`` (``(col, row)``, ``"col,row"``, or a city by name or number) as a hex id of the map (§0.2)."""
    return _hex(x, "hex", _game(game).rail_map)


def _city(c, term: str, rail_map: RailMap) -> int:
    """City ``c`` (a name, any case, or its number 11..66) as a city index of the map."""
    if isinstance(c, str):
        names = [name.lower() for name in rail_map.city_names]
        if c.strip().lower() in names:
            return names.index(c.strip().lower())
    elif is_integer(c) and 0 <= c < len(rail_map.tables.city_by_number) and rail_map.tables.city_by_number[c] >= 0:
        return int(rail_map.tables.city_by_number[c])
    raise ValueError(f"{term}: unknown city {c!r}; cities are names such as {rail_map.city_names[0]!r} or "
                     f"numbers such as {int(rail_map.tables.city_number[0])}")


def _hex(x, term: str, rail_map: RailMap) -> int:
    """Hex ``x`` (``hex_id``), or an error naming ``term``."""
    if isinstance(x, str) and "," in x:
        parts = x.split(",")
        if len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
            x = (int(parts[0]), int(parts[1]))
    if _is_pair(x):
        col, row = int(x[0]), int(x[1])
        if not (0 <= col < rail_map.width and 0 <= row < rail_map.height):
            raise ValueError(f"{term}: hex {tuple(x)!r} is off the {rail_map.width} x {rail_map.height} grid")
        return rail_map.hex_of(col, row)
    if isinstance(x, str) or is_integer(x):
        return int(rail_map.tables.city_hex[_city(x, term, rail_map)])
    raise TypeError(f"{term}: a hex is (col, row), 'col,row' or a city (name or number), got {x!r}")


def _is_pair(x) -> bool:
    return (isinstance(x, (tuple, list)) and len(x) == 2 and all(is_integer(v) for v in x))


def _hex_text(rail_map: RailMap, h: int) -> str:
    col, row = rail_map.col_row(h)
    return f"({col}, {row})"


# ---- checking terms ----------------------------------------------------------------------------------------------
def _game(game):
    """The map's Game: ``game``, or the western USA map's."""
    if game is None:
        from .game import GAME

        return GAME
    if getattr(game, "rail_map", None) is None:
        raise TypeError(f"game must be a Rail Game (rail.game.make_game), got {type(game).__name__}")
    return game


def _check_single(states, game) -> None:
    """``states`` must be a position: a ``(1,)`` array of the map's records."""
    core_positions.check_position(game, states, hint=" (another map's? pass game=)")


def _decision(decision, race, entries) -> int | None:
    """The decision asked for; None: "start" or "build", decided once the seat to decide is known."""
    if decision is not None:
        return decision_code(decision)
    return CTX_RACE_ENTRY if race is not None or entries is not None else None


def _check_terms_of(code, turn, **terms) -> None:
    """Terms that only some decisions take (module docstring)."""
    only = {"proposer": (CTX_COOP_RESPONSE,), "funding": (CTX_EXT_BUILD,), "race": (CTX_RACE_ENTRY,),
            "entries": (CTX_RACE_ENTRY,), "races_run": (CTX_RACE_ENTRY,) + WINDOW,
            "bp": (None, CTX_START_CHOICE, CTX_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD)}
    for name, value in terms.items():
        if value is not None and code not in only[name]:
            wanted = [CONTEXT_NAMES[c] for c in only[name] if c is not None]
            raise ValueError(f"{name}: only a position at {wanted} takes it, not "
                             f"{CONTEXT_NAMES[code] if code is not None else 'a build turn'}")
    if code == CTX_COOP_RESPONSE and (terms["proposer"] is None or turn is None):
        raise ValueError(f"{'proposer' if terms['proposer'] is None else 'turn'}: a coop_response position is a "
                         "partner's answer to a proposal: give proposer= (the builder) and turn= (the partner)")


def _races_run(races_run, code, opts: dict) -> int:
    """``races_run`` (default 0 at a race entry, 1 in a window), checked to leave the game running (§7.11)."""
    window = code in WINDOW
    if races_run is None:
        return 1 if window else 0
    last = opts["max_races"] if opts["end_mode"] == "points" else opts["races_total"]
    low = 1 if window else 0
    if not is_integer(races_run) or not low <= races_run < last:
        what = "max_races" if opts["end_mode"] == "points" else "races_total"
        raise ValueError(f"races_run must be an integer {low}..{last - 1} ({what} {last}: the game would be over, "
                         f"§7.11{'; a window follows a race' if window else ''}), got {races_run!r}")
    return int(races_run)


def _build_round(round_, opts: dict) -> int:
    """The build round k of a build-phase position (default 0)."""
    if round_ is None:
        return 0
    if not is_integer(round_) or not 0 <= round_ < opts["build_rounds"]:
        raise ValueError(f"round must be a build round 0..{opts['build_rounds'] - 1} (build_rounds, §6.1), "
                         f"got {round_!r}")
    return int(round_)


def _rounds_played(round_, opts: dict) -> int:
    """R, the build rounds played before an operation-phase position (default build_rounds)."""
    if round_ is None:
        return int(opts["build_rounds"])
    if not is_integer(round_) or not 1 <= round_ <= opts["build_rounds"]:
        raise ValueError(f"round: an operation-phase position follows 1..{opts['build_rounds']} build rounds "
                         f"(build_rounds, §6.10), got {round_!r}")
    return int(round_)


def _opener(first, actor: tuple, decided: int, offset: int, opts: dict) -> int | None:
    """The seat that opens the order (module docstring); sets ``opts["start_player"]`` to the start player that
    gives it. None: the seed's roll-off decides (``init``)."""
    n, given = opts["num_players"], opts["start_player"]
    if given is not None:
        opener = (given + offset) % n
        if first is not None and _seat(first, n, "first") != opener:
            raise ValueError(f"first: with start_player {given} the order opens with seat {opener} (§6.1, §7.1), "
                             f"not seat {first}; give one of them")
        return opener
    seat, term = actor
    if first is not None:
        opener = _seat(first, n, "first")
    elif seat is not None:
        opener = (_seat(seat, n, term) - decided) % n
    else:
        return None
    opts["start_player"] = (opener - offset) % n
    return opener




# ---- start cities and lines --------------------------------------------------------------------------------------
def _lay(s: np.void, rail_map: RailMap, start, lines) -> None:
    """Choose the start cities, then lay the lines in order (module docstring)."""
    n = int(s["num_players"])
    routes = _routes(lines, n, rail_map) if lines is not None else []
    starts = {} if start is None else {_seat(p, n, "start"): c
                                       for p, c in _mapping(start, "start", "{seat: city}").items()}
    for p, hexes in routes:  # a seat without a start city starts where its first line does, if it may
        if p not in starts and s["start_city"][p] < 0 and _start_index(rail_map, hexes[0]) >= 0:
            starts[p] = int(rail_map.tables.city_number[rail_map.tables.hexes[hexes[0], HX_CITY]])
    for p, c in starts.items():
        _choose_start(s, rail_map, p, c)
    if routes:
        saved = {name: s[name].item() for name in _STAGED}
        for p, hexes in routes:
            _lay_route(s, rail_map, p, hexes)
        for name, value in saved.items():
            s[name] = value


def _start_index(rail_map: RailMap, h: int) -> int:
    """Index of hex h in the map's start-city list, -1 if it is none."""
    for i, c in enumerate(rail_map.tables.start_cities):
        if rail_map.tables.city_hex[c] == h:
            return i
    return -1


def _choose_start(s: np.void, rail_map: RailMap, p: int, c) -> None:
    """Seat p chooses start city c (CHOOSE_START, §6.4)."""
    city = _city(c, f"start of seat {p}", rail_map)
    i = _start_index(rail_map, int(rail_map.tables.city_hex[city]))
    if i < 0:
        names = [rail_map.city_names[int(x)] for x in rail_map.tables.start_cities]
        raise ValueError(f"start: {rail_map.city_names[city]} is not a start city of the map; they are {names} "
                         "(§3.5)")
    if s["start_city"][p] >= 0:
        if s["start_city"][p] == i:
            return
        raise ValueError(f"start: seat {p} has chosen its start city already "
                         f"({rail_map.city_names[int(rail_map.tables.start_cities[s['start_city'][p]])]}, §6.4)")
    building.choose_start(s, rail_map.tables, p, i)


def _routes(lines, n: int, rail_map: RailMap) -> list[tuple[int, list[int]]]:
    """``[(seat, [hexes])]`` in build order from either form of ``lines``."""
    if isinstance(lines, Mapping):
        pairs = []
        for p, value in lines.items():
            p = _seat(p, n, "lines")
            value = _sequence(value, f"lines of seat {p}")
            routes = [value] if value and all(_is_waypoint(w) for w in value) else value
            pairs += [(p, route) for route in routes]
    else:
        pairs = []
        for entry in _sequence(lines, "lines"):
            if isinstance(entry, (str, bytes, Mapping)) or not hasattr(entry, "__len__") or len(entry) != 2:
                raise TypeError(f"lines: a list of lines holds (seat, route) pairs, got {entry!r}")
            pairs.append((_seat(entry[0], n, "lines"), entry[1]))
    out = []
    for p, route in pairs:
        term = f"lines of seat {p}"
        route = _sequence(route, term)
        if len(route) < 2 or not all(_is_waypoint(w) for w in route):
            raise ValueError(f"{term}: a route is a list of at least 2 hexes ((col, row), 'col,row' or cities), "
                             f"got {route!r}")
        out.append((p, [_hex(w, term, rail_map) for w in route]))
    return out


def _is_waypoint(w) -> bool:
    return isinstance(w, str) or is_integer(w) or _is_pair(w)


def _lay_route(s: np.void, rail_map: RailMap, p: int, hexes: list[int]) -> None:
    """Seat p builds the route, piece by piece, as in a build turn with unlimited BP (module docstring)."""
    t = rail_map.tables
    for a, b in pairwise(hexes):
        if a == b:
            raise ValueError(f"lines of seat {p}: hex {_hex_text(rail_map, a)} follows itself")
        ferry = _ferry_between(s, rail_map, a, b)
        if ferry >= 0 and s["ferry_owner"][ferry] == p:
            continue  # along the seat's own ferry
        if ferry >= 0:
            _stage(s, p)
            if not building.ferry_legal(s, t, ferry):
                raise ValueError(f"lines of seat {p}: the ferry {rail_map.ferry_names[ferry]} is not for seat {p} "
                                 f"to build (owned, or no end in his network, §9.5)")
            building.build_ferry(s, t, ferry)
            continue
        if b in [int(t.hexes[a, HX_NBR + d]) for d in range(6)]:
            path = [_step(rail_map, a, b, p)]
        else:
            path = _cheapest_line(s, rail_map, p, a, b)
        for e in path:
            if (int(s["owners"][e]) >> p) & 1:
                continue  # along the seat's own track
            _stage(s, p)
            if not building.step_legal(s, t, e):
                raise ValueError(f"lines of seat {p}: the step {_step_text(rail_map, e)} is not legal: "
                                 f"{_why_illegal(s, rail_map, p, e)}")
            building.build_step(s, t, e)


def _stage(s: np.void, p: int) -> None:
    """A build turn of seat p with unlimited BP (restored after the lines, ``_lay``)."""
    s["context"], s["builder"], s["current"], s["partner"] = CTX_BUILD, p, p, -1
    s["funding"], s["bp_left"] = FUND_BP, STAGING_BP


def _step(rail_map: RailMap, a: int, b: int, p: int) -> int:
    try:
        return rail_map.step_between(a, b)
    except ValueError:
        raise ValueError(f"lines of seat {p}: no buildable step between {_hex_text(rail_map, a)} and "
                         f"{_hex_text(rail_map, b)} (water, §3.2)") from None


def _step_text(rail_map: RailMap, e: int) -> str:
    a, b = int(rail_map.tables.steps[e, ST_A]), int(rail_map.tables.steps[e, ST_B])
    return f"{_hex_text(rail_map, a)}-{_hex_text(rail_map, b)}"


def _why_illegal(s: np.void, rail_map: RailMap, p: int, e: int) -> str:
    """Why step e is not legal for seat p (the rule of §6.5 it breaks)."""
    t = rail_map.tables
    ends = [int(t.steps[e, ST_A]), int(t.steps[e, ST_B])]
    if t.steps[e, ST_FOREIGN] and not s["international"]:
        return "it enters a foreign country, and international is off (§9.2)"
    if not any((int(s["net"][h]) >> p) & 1 and t.hexes[h, HX_COUNTRY] == HOME for h in ends):
        return (f"neither end is a home hex of seat {p}'s network (its start city and the ends of its steps, "
                "§6.5 item 1); give the line from there, in build order")
    return "its first step out of the start city leaves by a side another seat's first step used (§3.5)"


def _ferry_between(s: np.void, rail_map: RailMap, a: int, b: int) -> int:
    """The ferry joining hexes a and b, if ferries are on; -1 otherwise."""
    if not s["ferries_on"]:
        return -1
    for f, row in enumerate(rail_map.tables.ferries):
        if {int(row[FE_A]), int(row[FE_B])} == {a, b}:
            return f
    return -1


def _cheapest_line(s: np.void, rail_map: RailMap, p: int, a: int, b: int) -> list[int]:
    """The steps of seat p's cheapest line from a to b (module docstring), through home hexes."""
    hexes, steps = rail_map.tables.hexes, rail_map.tables.steps
    nbr, out = hexes[:, HX_NBR:HX_NBR + 6].tolist(), hexes[:, HX_STEP:HX_STEP + 6].tolist()
    home = (hexes[:, HX_COUNTRY] == HOME).tolist()
    cost = np.where((s["owners"] >> p) & 1, 0, steps[:, ST_COST]).tolist()  # own steps are free
    usable = (~steps[:, ST_FOREIGN].astype(bool) | bool(s["international"])).tolist()
    best = {a: (0, 0)}
    prev: dict[int, tuple[int, int]] = {}
    heap = [(0, 0, a)]
    while heap:
        paid, count, h = heapq.heappop(heap)
        if h == b:
            break
        if (paid, count) > best[h] or not home[h]:
            continue
        for d in range(6):
            e = out[h][d]
            if e < 0 or not usable[e]:
                continue
            key = (paid + cost[e], count + (cost[e] > 0))
            v = nbr[h][d]
            if key < best.get(v, (1 << 30, 0)):
                best[v], prev[v] = key, (h, e)
                heapq.heappush(heap, (*key, v))
    if b not in prev:
        raise ValueError(f"lines of seat {p}: no line joins {_hex_text(rail_map, a)} to {_hex_text(rail_map, b)} "
                         "over home hexes (§6.5, §9.2)")
    path, h = [], b
    while h != a:
        h, e = prev[h]
        path.append(e)
    return path[::-1]


# ---- money and counts ------------------------------------------------------------------------------------------
def _set_balances(s: np.void, balances) -> None:
    """Each named seat holds the dollars given; the difference is booked as earlier prizes (module docstring)."""
    for p, dollars in _seat_values("balances", balances, int(s["num_players"])).items():
        if not is_integer(dollars) or not -MAX_BALANCE <= dollars <= MAX_BALANCE:
            raise ValueError(f"balances of seat {p}: dollars {-MAX_BALANCE}..{MAX_BALANCE} (fees may make a "
                             f"balance negative, §7.12), got {dollars!r}")
        s["total_prizes"] += int(dollars) - int(s["balance"][p])
        s["balance"][p] = dollars


def _set_city_uses(s: np.void, rail_map: RailMap, city_uses) -> None:
    """The repeat rule's count of each named city (§7.2)."""
    for c, count in _mapping(city_uses, "city_uses", "{city: count}").items():
        city = _city(c, "city_uses", rail_map)
        if not is_integer(count) or not 0 <= count <= MAX_USES:
            raise ValueError(f"city_uses of {rail_map.city_names[city]}: a count 0..{MAX_USES}, got {count!r}")
        s["city_uses"][city] = count


# ---- posing the decision -----------------------------------------------------------------------------------------
def _check_bp(bp) -> int:
    if not is_integer(bp) or not 0 <= bp <= MAX_BP:
        raise ValueError(f"bp must be an integer 0..{MAX_BP} (the turn's build points, §6.3), got {bp!r}")
    return int(bp)


def _open_turn(s: np.void, p: int, funding: int, bp: int) -> None:
    """The start of seat p's turn, as ``rules._open_turn`` sets it."""
    s["builder"], s["current"], s["partner"] = p, p, -1
    s["funding"], s["bp_left"], s["own_bp"] = funding, bp, bp
    s["turn_builds"] = 0
    s["coop_declined"] = False


def _pose_build_phase(s: np.void, rail_map: RailMap, code, seat: int, opener: int, k: int, bp, proposer) -> None:
    """A start choice, build turn or co-op response in build round ``round_`` (§6.1, §6.2, §9.1)."""
    n = int(s["num_players"])
    builder = _seat(proposer, n, "proposer") if code == CTX_COOP_RESPONSE else seat
    if code is None:
        code = CTX_START_CHOICE if s["start_city"][seat] < 0 else CTX_BUILD
    s["operating"], s["round"] = False, k
    s["turn_pos"] = (builder - opener) % n
    s["turn_used"][:] = 0
    for i in range(int(s["turn_pos"])):
        s["turn_used"][(opener + i) % n] = 1
    bp = _check_bp(bp)
    _open_turn(s, builder, FUND_BP, bp)
    if s["shared_roll"]:
        s["shared_bp"] = bp
    if code == CTX_START_CHOICE:
        if s["start_city"][builder] >= 0:
            raise ValueError(f"decision: seat {builder} has a start city; a start choice is a seat's first turn "
                             f"(§6.4): leave start of seat {builder} out, or ask for decision='build'")
        if k != 0:
            raise ValueError(f"round: a seat's first build turn, where it chooses its start city, is in round 0 "
                             f"(§6.2), got {k}")
        s["context"] = CTX_START_CHOICE
        return
    if s["start_city"][builder] < 0:
        raise ValueError(f"start: seat {builder} has no start city, so its turn is a start choice (§6.2): give "
                         f"start={{{builder}: ...}} or decision='start'")
    s["context"] = CTX_BUILD
    if code == CTX_COOP_RESPONSE:
        _pose_proposal(s, rail_map, builder, seat)


def _pose_proposal(s: np.void, rail_map: RailMap, builder: int, partner: int) -> None:
    """``builder`` has proposed co-building to ``partner``, who answers (§9.1 items 2-3)."""
    n = int(s["num_players"])
    j = (partner - builder) % n
    if j == 0 or not building.proposal_legal(s, rail_map.tables, j):
        raise ValueError(f"turn: seat {builder} may not propose co-building to seat {partner} (§9.1 item 2: "
                         "coop_building on, the partner's turn of this round still to come, its start city chosen, "
                         "a shared home hex; G50 under distinct directions)")
    s["partner"], s["current"], s["context"] = partner, partner, CTX_COOP_RESPONSE


def _pose_operation(s: np.void, rail_map: RailMap, rounds: int, k: int, opener: int) -> None:
    """After ``rounds`` build rounds, all turns used, race index ``k`` (module docstring)."""
    n = int(s["num_players"])
    if rounds < s["build_rounds"] and not (s["early_end"] and building.all_cities_joined(s, rail_map.tables)):
        raise ValueError(f"round: the build phase ends before build_rounds ({int(s['build_rounds'])}) rounds only "
                         f"with build_early_end and every city joined (§6.10), got {rounds}")
    s["operating"], s["round"], s["race_k"], s["race_first"] = True, rounds, k, opener
    s["turn_used"][:n] = 1
    s["builder"], s["partner"], s["funding"] = -1, -1, FUND_NONE
    s["bp_left"] = s["own_bp"] = s["turn_builds"] = 0


def _pose_race_entry(s: np.void, rail_map: RailMap, seat: int, opener: int, rounds: int, k: int, race,
                     entries) -> None:
    """The entry decision of ``seat`` in race k; the seats before it in order have decided (§7.1, §7.6)."""
    _pose_operation(s, rail_map, rounds, k, opener)
    _set_race(s, rail_map, race)
    races.compute_candidates(s, rail_map.tables)
    n = int(s["num_players"])
    s["turn_pos"] = (seat - opener) % n
    decided = [(opener + i) % n for i in range(int(s["turn_pos"]))]
    for q, slot in _mapping(entries, "entries", "{seat: slot or None}").items():
        q = _seat(q, n, "entries")
        if q not in decided:
            raise ValueError(f"entries: seat {q} has not decided yet: the entries go clockwise from seat {opener} "
                             f"and seat {seat} decides now (§7.6)")
        if slot is not None:
            k_slot = _slot(slot, q)
            if not s["cand_valid"][q, k_slot]:
                raise ValueError(f"entries: seat {q}'s candidate slot {k_slot} is empty (§7.5); its filled slots: "
                                 f"{[i for i in range(N_ROUTE_OBJECTIVES) if s['cand_valid'][q, i]]}")
            s["entry"][q], s["entry_slot"][q] = ENTRY_ENTERED, k_slot
    for q in decided:
        if s["entry"][q] != ENTRY_ENTERED:
            s["entry"][q] = ENTRY_DECLINED
    if s["end_mode"] == END_POINTS:
        for q in range(n):
            if s["balance"][q] >= s["target"]:
                raise ValueError(f"balances: seat {q} holds ${int(s['balance'][q])}, at least points_target "
                                 f"{int(s['target'])}: the game would have ended (§7.11)")
    s["context"], s["current"] = CTX_RACE_ENTRY, seat


def _slot(slot, seat: int) -> int:
    if isinstance(slot, str) and slot.strip().lower() in SLOTS:
        return SLOTS[slot.strip().lower()]
    if is_integer(slot) and 0 <= slot < N_ROUTE_OBJECTIVES:
        return int(slot)
    raise ValueError(f"entries of seat {seat}: a slot is one of {list(SLOTS)} or 0..{N_ROUTE_OBJECTIVES - 1}, or "
                     f"None for a decline, got {slot!r}")


def _set_race(s: np.void, rail_map: RailMap, race) -> None:
    """Race ``race_k``'s start and goal as generation sets them (§7.2, §9.3), or generated from the dice."""
    t = rail_map.tables
    if race is None:
        races.generate_race(s, t)
        return
    race = _sequence(race, "race")
    if len(race) != 2:
        raise ValueError(f"race is (start city, goal city) or (start city, country), got {race!r}")
    start = _city(race[0], "race", rail_map)
    country = _country(race[1], rail_map)
    international = races.is_international(s, t)
    if country >= 0:
        if not international:
            raise ValueError(f"race: race {int(s['race_k'])} is domestic: with international on, race k is "
                             f"international iff (k + 1) mod international_every = 0 (§9.3); give races_run=")
        terminals = sorted({int(c) for c in t.intl[1] if c >= 0})
        if start not in terminals or country not in {int(c) for c in t.intl[0]}:
            raise ValueError(f"race: an international race starts in one of "
                             f"{[rail_map.city_names[c] for c in terminals]} and goes to a country of the red "
                             f"table (§9.3), got {race!r}")
        s["race_start"], s["race_goal"], s["race_country"] = t.city_hex[start], -1, country
        return
    goal = _city(race[1], "race", rail_map)
    if international:
        raise ValueError(f"race: race {int(s['race_k'])} is international (§9.3): give (start city, country)")
    _check_goal(s, rail_map, start, goal)
    s["city_uses"][start] += 1
    s["city_uses"][goal] += 1
    s["race_start"], s["race_goal"], s["race_country"] = t.city_hex[start], t.city_hex[goal], -1


def _country(x, rail_map: RailMap) -> int:
    """The foreign country named ``x`` (a name, not a city), or -1."""
    if isinstance(x, str):
        names = [c.lower() for c in rail_map.country_names]
        key = x.strip().lower()
        if key in names[1:] and key not in [c.lower() for c in rail_map.city_names]:
            return names.index(key)
    return -1


def _check_goal(s: np.void, rail_map: RailMap, start: int, goal: int) -> None:
    """A valid start-goal pair: distinct, at least d_min apart, allowed by the repeat rule (§7.2)."""
    t = rail_map.tables
    names = rail_map.city_names
    if start == goal:
        raise ValueError(f"race: the goal must differ from the start ({names[start]}, §7.2)")
    if t.city_dist[start, goal] < s["d_min"]:
        raise ValueError(f"race: {names[start]} and {names[goal]} are {int(t.city_dist[start, goal])} hexes apart, "
                         f"less than d_min = {int(s['d_min'])} (race_min_distance, §7.2)")
    if s["avoid_repeat"] and _repeat_rule_applies(s, t):
        for c in (start, goal):
            if s["city_uses"][c] >= s["repeat_limit"]:
                raise ValueError(f"race: {names[c]} has ended {int(s['city_uses'][c])} races, the repeat rule's "
                                 f"limit {int(s['repeat_limit'])} (§7.2)")


def _repeat_rule_applies(s: np.void, t) -> bool:
    """Some start-goal pair is still allowed by the repeat rule (else it is ignored for this race, §7.2)."""
    free = s["city_uses"][:t.city_hex.shape[0]] < s["repeat_limit"]
    far = t.city_dist >= s["d_min"]
    np.fill_diagonal(far, False)
    return bool((far & free[:, None] & free[None, :]).any())


def _pose_window(s: np.void, rail_map: RailMap, code: int, seat: int, opener: int, rounds: int, k: int, funding,
                 bp, first_roll: int) -> None:
    """``seat``'s extension turn after race k - 1; the seats before it in order have had theirs (§7.1, §7.10)."""
    n = int(s["num_players"])
    _pose_operation(s, rail_map, rounds, k, opener)
    s["turn_pos"] = (seat - opener) % n
    mode = int(s["ext_mode"])
    if code == CTX_EXT_FUNDING:
        if mode != EXT_DICE_OR_ACCOUNT:
            raise ValueError("decision: the funding choice (EXT_FUNDING) is asked only with extension_mode="
                             "'dice_or_account' (§7.10)")
        _open_turn(s, seat, FUND_NONE, 0)
        s["context"] = CTX_EXT_FUNDING
        return
    fund = _funding(funding, mode)
    if fund == FUND_ACCOUNT and bp is not None:
        raise ValueError("bp: an account-funded extension turn pays its steps with money, not BP (§7.10)")
    _open_turn(s, seat, fund, 0 if fund == FUND_ACCOUNT else _check_bp(first_roll if bp is None else bp))
    s["context"] = CTX_EXT_BUILD


def _funding(funding, mode: int) -> int:
    """The funding of an extension turn: the extension_mode's, or the one chosen in "dice_or_account" (§7.10)."""
    modes = {FUND_ACCOUNT: "account", FUND_BP: "dice"}
    own = FUND_BP if mode == EXT_DICE else (FUND_ACCOUNT if mode != EXT_DICE_OR_ACCOUNT else None)
    if funding is None:
        return FUND_ACCOUNT if own is None else own
    if not isinstance(funding, str) or funding.strip().lower() not in FUNDINGS:
        raise ValueError(f"funding must be one of {list(FUNDINGS)}, got {funding!r}")
    fund = FUNDINGS[funding.strip().lower()]
    if own is not None and fund != own:
        raise ValueError(f"funding: with extension_mode={modes[own]!r} every extension turn is funded by "
                         f"{modes[own]!r} (§7.10); 'dice_or_account' lets the player choose")
    return fund
