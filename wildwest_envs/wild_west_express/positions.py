"""Wild West Express positions in the game's own terms: build a record, edit it, play on (issue 19).

A *position* is a batch of one record (shape ``(1,)``) that ``GAME.step`` accepts.
``position`` builds one from the game's own ``init`` (the options as ``env()``
takes them): it plays the setup draft and desperado placements through the
kernels, stops at the decision asked for and puts on the board what the terms
say, keeping every book consistent. ``place`` edits an existing position the
same way; ``play`` and ``roll`` step on through legal moves; ``terms_of`` reads a
record back into terms::

    from wildwest_envs.wild_west_express.positions import Train, place, play, position, roll
    from wildwest_envs.wild_west_express_v0 import GAME

    states = position(3, seed=7, turn=1, round=4,             # seat 1's PRE_ROLL in round 4
                      board="empty",                          # no setup pieces: only what the terms say
                      owners={"Denver": 1, "Seattle": 0},     # station owners
                      trains={1: [Train("Denver", cargo=["gold"]),            # slot 0: small, a Gold token
                                  Train(31, came_from="Seattle", large=True, cargo=["passenger:Pacific"])]},
                      desperados={0: [32], 1: ["Denver"]}, sheriffs=[100], dynamite=[34, 200],
                      cash=[300, 450, 120], cards={1: {0: 1}},   # seat 1 holds card 0, bound to its train 1
                      deck_top=[31])                              # Bank Dividend is drawn next
    roll(states, (6, 3, 1))               # seat 1 rolls 6, 3, 1 (duel dice may follow: duels=[...])
    play(states, "move train 0")          # actions by id or by name (GAME.action_to_string)
    place(states, cash={2: 500})          # edit: seat 2 now has $500, booked with the bank
    GAME.position(num_players=3, seed=7)  # the same builder through the Game API (validated)

Terms (seats are absolute, ``0..N-1``; a space is an id ``0..313`` or the name of
a city or junction, any case; a city an id ``0..25`` or a name; a card an id
``0..51`` or a name, which stands for the lowest id of that name still free)::

    decision     "pre_roll" (PRE_ROLL, default), "draft" (DRAFT_CITY) or "place_desperado" (PLACE_DESPERADO);
                 the §17.2 names and codes work too
    picks        the cities drafted, in draft order (§5 item 2): all 2N (default: cities 0..2N-1) or, for
                 "draft", the picks made so far
    placements   the start city of each setup desperado, in placement order (§5 item 3): all of them
                 (default: each seat's first pick) or, for "place_desperado", those made so far
    turn         the seat to decide; round: 1..max_rounds (PRE_ROLL only, §6.1)
    board        "setup" (default: the draft's stations, trains and desperados stay) or "empty" (none)
    owners       {city: seat or None}                       station owners (§3.3)
    trains       {seat: [train per slot]} (the seat's trains) or {seat: {slot: train or None}} (those slots);
                 a train is a space or a ``Train`` (space, came_from, cargo, large, wait, debt, moved, armed)
    desperados   {seat: [space per desperado]}              the seat's desperados, index order (§9)
    sheriffs     [space of sheriff 0, space of sheriff 1]   fewer entries: off the board (§12)
    dynamite     [spaces]                                   every token on the board; the rest in the supply
    cash         dollars: one int for every seat, [per seat] or {seat: dollars}
    cards        {seat: {card: train slot or None}}         held personal cards (§13.3); None: to the bottom
    competitions {slot: card, (card, countdown) or None}    posted competitions (§13.4)
    deck_top     [cards]                                    the next cards drawn, top first (§13.1)

Books kept: a cash change is booked with the bank (``bank_paid``, so the
players' cash stays N x $450 plus what the bank paid, §0.2); dynamite comes
from and goes back to the supply of 18 (§11); a card given to a hand, posted
or stacked comes out of the deck (or another hand), and one sent back goes to
the bottom of the deck, so every card is in one place (§13.1); a debt is owed
to the owner of the city where the train stands (§8.3, §16.4). Piece limits
hold: at most 6 trains a seat, 4 small, 2 large and 6 stations with
``component_limits``, 2 desperados with it and 3 without (§2.1, §15). An
unknown term or option, a value out of range or against these rules raises
``ValueError`` (``TypeError`` for a term of the wrong type) naming the term;
every built or edited record is checked with ``GAME.validate``.

Decisions where the spec is silent (what a built position holds):

* A PRE_ROLL position is the start of ``turn``'s turn in round ``round``: the
  turn counter is the one play reaches (``(round - 1) x N`` plus the seats
  since the start player, plus 1), the dice read zero, no procedure is in
  progress, nobody's trains have moved and nobody has bought dynamite in his
  last turn (the seats' ``dynamite_bought`` columns are 0), nobody has hired
  an extra desperado. A debt of ``turn`` that his cash covers is refused: it
  is settled at the start of the turn (§6.2). ``place`` does not check this.
* ``n_decisions`` is 0: the decision cap counts from the built position. The
  generator is the one ``init(seed)`` leaves after setup (the start player
  draw and the shuffle, §17.4), so the deck is the seed's unless the terms
  move cards; ``start_player=`` (an option) fixes the start player.
* ``board="empty"`` removes the trains, desperados and stations of the draft
  (the start cities stay recorded); a seat may then own fewer than 2
  stations or have no desperado, which play never gives (§5 item 7, §9.1).
  Rule tests use it to isolate one rule. The engine relies on those two facts
  in one place: Hideout is always playable (§13.5), so a seat holding it must
  have a desperado and 2 stations (refused otherwise); one that draws it on a
  T without them would face a decision with no legal action.
* A train in a city has free direction and one on track or a junction has
  come from a neighbour (§7.2); ``wait`` (0..127) stands only off the cities
  (§6.3 notes; play gives 0 or 1); ``debt`` (True, or the fee: $20 small,
  $40 large) only in a city another seat owns (§8.3). ``moved`` and ``armed``
  are cleared at every end of turn (§6.7), so only the active seat's trains
  may carry them; ``moved`` at PRE_ROLL makes the train sit out this turn's
  dice move, which play never gives.
* Cargo: a good's key or name (``"gold"``, ``"Luxury goods"``), a passenger
  ``"passenger:<zone name or index>"``, a cargo code 0..11, or None for an
  empty slot (a large train may carry its token in slot 1 only, as after a
  sale from slot 0).
* Sheriffs never leave the board and the lowest off-board one is placed first
  (§12 item 2), so sheriff 1 is on the board only with sheriff 0; no sheriff
  shares a space with the other or with dynamite (§11.1, §12 item 4).
* Dynamite: not in a city, under a sheriff or in a group of more than 3
  (§11.1). A seat may be at or above the victory target: the game ends at
  the end of the turn (§14.3).
* The deck: taking a card out keeps the never-drawn count right (a card
  taken from the never-drawn top part is drawn); a card stacked on top that
  was revealed before ends the never-drawn part there (cards below it count
  as revealed, §16.1). A competition's countdown defaults to a fresh posting,
  ``competition_expiry_rounds x N`` (0 with expiry off, §13.3).
* With ``auto_forced=True`` the position is returned at the decision asked
  for even when it has a single legal action (a PRE_ROLL with only END, which
  play would skip, §17.3); the engine applies forced decisions after the next
  step. Decisions inside a turn (SELECT_TRAIN, TRAIN_STEP, card and sheriff
  choices...) are reached by ``roll`` and ``play`` from a PRE_ROLL position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from ..core import positions as core_positions
from ..core.positions import flag as _flag, mapping as _mapping, seat as _seat, seat_values as _seat_values
from ..core.positions import sequence as _sequence
from ..core.options import is_integer
from .data import (A_END, A_SPACE, CARD_CLASS, CARD_NAMES, CARD_TYPE, CARGO_EMPTY, CITY_KEYS, CITY_NAMES,
                   CLASS_COMPETITION, CLASS_PERSONAL, DEC_DRAFT_CITY, DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DECISION_NAMES,
                   DYNAMITE_MAX_GROUP, DYNAMITE_SUPPLY, FEE_LARGE, FEE_SMALL, FREE, GOOD_KEYS, GOOD_NAMES, IS_CITY,
                   LIMIT_DESPERADOS, LIMIT_LARGE, LIMIT_SMALL, LIMIT_STATIONS, MAX_DESPERADOS, MAX_TRAINS, N_CARDS,
                   N_CARGO, N_CARGO_CODES, N_CITIES, N_COMPETITION_SLOTS, N_DICE, N_SHERIFFS, N_SPACES, N_ZONES,
                   NEIGHBOURS, NO_CARD, NO_SPACE, PASSENGER_BASE, PHASE_PRE_ROLL, SPACE_NAMES, T_HIDEOUT, ZONE_NAMES)
from .state import NOBODY

DECISIONS = {"pre_roll": DEC_PRE_ROLL, "draft": DEC_DRAFT_CITY, "place_desperado": DEC_PLACE_DESPERADO}
BOARDS = ("setup", "empty")
SETUP_TERMS = ("decision", "picks", "placements", "turn")
TURN_TERMS = ("round", "board")
PIECE_TERMS = ("owners", "trains", "desperados", "sheriffs", "dynamite", "cash", "cards", "competitions",
               "deck_top")
MAX_CASH = 10**8  # dollars a seat may be given: far inside int32, and N seats' worth inside the int64 ledger
MAX_WAIT = 127  # int8 train_wait
_UNCAPPED = 2**31 - 1  # the decision cap while the builder plays the setup


@dataclass(frozen=True)
class Train:
    """A train in the terms of ``position`` and ``place`` (module docstring: the rules each value follows).

    Attributes:
        at: its space.
        came_from: the neighbour it entered ``at`` from; None (or -1): free direction (§7.2).
        cargo: one cargo item per slot, in slot order (1 slot small, 2 large, §4.1).
        large: a large train.
        wait: dice moves to sit out (§7.1).
        debt: an unpaid coal-and-water fee: True, or the fee in dollars (§8.3).
        moved: it has moved, held or sat out this turn (§7.1); armed: Armed Guards this turn (§13.5).
    """

    at: int | str
    came_from: int | str | None = None
    cargo: tuple | list = ()
    large: bool = False
    wait: int = 0
    debt: bool | int = False
    moved: bool = False
    armed: bool = False


TRAIN_FIELDS = tuple(f.name for f in fields(Train))


# ---- building a position -------------------------------------------------------------------------------------------
def position(num_players: int = 3, seed: int = 0, *, decision="pre_roll", picks=None, placements=None,
             turn: int | None = None, round: int | None = None, board: str = "setup", owners=None, trains=None,
             desperados=None, sheriffs=None, dynamite=None, cash=None, cards=None, competitions=None,
             deck_top=None, **options) -> np.ndarray:
    """A position (a batch of one record) at ``decision``, with the pieces, money and turn the terms give.

    ``seed`` is the record's generator state (as ``GAME.init(seed)`` takes it); ``options`` are the game's
    options (``start_player``, ``max_rounds``, ``component_limits``, ``auto_forced``...). The terms, the
    decisions taken where the spec is silent and the errors are in the module docstrings (this one's and
    ``core.positions``').
    """
    from .game import GAME

    core_positions.check_start(GAME, "Wild West Express", seed, options, SETUP_TERMS + TURN_TERMS + PIECE_TERMS)
    code = decision_code(decision)
    pieces = {"owners": owners, "trains": trains, "desperados": desperados, "sheriffs": sheriffs,
              "dynamite": dynamite, "cash": cash, "cards": cards, "competitions": competitions, "deck_top": deck_top}
    opts = GAME.parse_options(num_players=num_players, **options)
    states = GAME.init(seed, **opts)
    s = states[0]
    if code != DEC_PRE_ROLL:
        _check_setup_terms(code, round, board, pieces)
    _play_setup(states, code, picks, placements)
    if code == DEC_PRE_ROLL:
        _start_turn(s, turn, round)
        if board not in BOARDS:
            raise ValueError(f"board must be one of {BOARDS}, got {board!r}")
        if board == "empty":
            _clear_board(s)
        _apply_pieces(s, **pieces)
        _check_no_payable_debt(s)
    elif turn is not None and _seat(turn, int(s["num_players"]), "turn") != s["current"]:
        raise ValueError(f"turn: the next {DECISION_NAMES[code]} is seat {int(s['current'])}'s (the order of "
                         f"§5 from the start player {int(s['start_player'])}); give start_player= to change it")
    GAME.validate(states)
    return states


def place(states: np.ndarray, *, owners=None, trains=None, desperados=None, sheriffs=None, dynamite=None,
          cash=None, cards=None, competitions=None, deck_top=None) -> np.ndarray:
    """Edit the position ``states`` (a batch of one) in place: only what the terms name changes.

    ``trains={0: {1: Train(31, came_from=0)}}`` puts seat 0's train 1 on space 31, ``owners={"Denver": None}``
    makes Denver unowned, ``cash={2: 500}`` gives seat 2 $500; ``trains={0: [...]}``, ``desperados``,
    ``sheriffs`` and ``dynamite`` replace what they name. Books are kept as ``position`` keeps them (module
    docstring). The edited copy is validated before it is written back, so on any error ``states`` is
    unchanged. Returns ``states``.

    Raises:
        ValueError: an impossible value, or an edit that leaves no valid game state; TypeError: a term of the
            wrong type or ``states`` not a batch of one.
    """
    from .game import GAME

    _check_single(states)
    if states[0]["done"]:
        raise ValueError("place: the game is over; build a new position")
    work = states.copy()
    _apply_pieces(work[0], owners=owners, trains=trains, desperados=desperados, sheriffs=sheriffs,
                  dynamite=dynamite, cash=cash, cards=cards, competitions=competitions, deck_top=deck_top)
    GAME.validate(work)
    states[...] = work
    return states


def terms_of(states: np.ndarray) -> dict:
    """The pieces, money and turn of the position ``states`` as terms of ``position`` (with ``board="empty"``).

    ``position(N, seed, board="empty", picks=..., **terms_of(states))`` rebuilds a PRE_ROLL position reached
    by play whose deck is still the seed's (no card drawn) and in which nobody bought dynamite in his last
    turn, as the module docstring says a built position is.
    """
    s = _check_single(states)[0]
    n = int(s["num_players"])
    return {"turn": int(s["active"]), "round": int(s["round"]),
            "owners": {c: int(s["city_owner"][c]) for c in range(N_CITIES) if s["city_owner"][c] != NOBODY},
            "trains": {p: {t: _train_of(s, p, t) for t in range(MAX_TRAINS) if s["train_exists"][p, t]}
                       for p in range(n)},
            "desperados": {p: [int(x) for x in s["desp_pos"][p, :s["n_desperados"][p]]] for p in range(n)},
            "sheriffs": [int(x) for x in s["sheriff_pos"] if x != NO_SPACE],
            "dynamite": [int(x) for x in np.flatnonzero(s["dynamite"])],
            "cash": [int(c) for c in s["cash"][:n]],
            "cards": {p: {k: int(s["card_bound"][k]) for k in range(N_CARDS) if s["card_holder"][k] == p}
                      for p in range(n)},
            "competitions": {i: (int(s["comp_card"][i]), int(s["comp_countdown"][i]))
                             for i in range(N_COMPETITION_SLOTS) if s["comp_card"][i] != NO_CARD}}


def _train_of(s: np.void, p: int, t: int) -> Train:
    """Train slot t of seat p as a ``Train``."""
    came_from = int(s["train_from"][p, t])
    slots = 2 if s["train_large"][p, t] else 1
    cargo = tuple(None if c == CARGO_EMPTY else int(c) for c in s["train_cargo"][p, t, :slots])
    while cargo and cargo[-1] is None:
        cargo = cargo[:-1]
    return Train(int(s["train_pos"][p, t]), None if came_from == FREE else came_from, cargo,
                 bool(s["train_large"][p, t]), int(s["train_wait"][p, t]), int(s["train_debt"][p, t]),
                 bool(s["train_moved"][p, t]), bool(s["train_armed"][p, t]))


# ---- playing on ----------------------------------------------------------------------------------------------------
legal_actions, play = core_positions.bound_to(f"{__package__}.game")  # (states), (states, *actions)


def roll(states: np.ndarray, dice, duels=()) -> np.ndarray:
    """End the PRE_ROLL of ``states`` (END) with the three dice showing ``dice`` (faces 1..6, any order, §6.4).

    ``duels`` are the faces of the next die rolls after them, in the order the rules roll them (the duels of
    the moves that follow, §10.2: by desperado owner clockwise from the active seat, then desperado index;
    the train's die first). Later draws come from the record's generator. Returns ``states``.

    Raises:
        ValueError: not at PRE_ROLL, not three dice, or a face outside 1..6.
    """
    from .game import GAME

    _check_single(states)
    if states[0]["decision"] != DEC_PRE_ROLL:
        raise ValueError(f"roll: the pending decision is {_decision_name(int(states[0]['decision']))}, "
                         f"not PRE_ROLL")
    dice, duels = _faces(dice, "dice"), _faces(duels, "duels")
    if len(dice) != N_DICE:
        raise ValueError(f"dice: a roll is {N_DICE} dice, got {dice!r}")
    GAME.script(states, [("die", face) for face in dice + duels], then="random")
    return play(states, A_END)


def _faces(values, term: str) -> list[int]:
    """``values`` as a list of die faces (checked by ``GAME.script``)."""
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{term} must be a sequence of die faces 1..6, got {values!r}")
    return list(values)


# ---- names in the game's terms -------------------------------------------------------------------------------------
def decision_code(decision) -> int:
    """The ``DEC_*`` code of a decision a position can be built at (module docstring: ``decision``)."""
    return core_positions.decision_code(decision, DECISIONS, DECISION_NAMES, _reached_by_play)


def _reached_by_play(key: str) -> str | None:
    """How a decision that positions are not built at is reached (``core.positions.decision_code``)."""
    if key.upper() in DECISION_NAMES:
        return (f"positions are built at {list(DECISIONS)}; reach {key.upper()} by roll() and play() from a "
                "PRE_ROLL position")
    return None


def space_id(x, term: str = "space") -> int:
    """Space ``x`` (an id 0..313, or a city's or junction's name or a city key, any case) as an id."""
    space = core_positions.index_or_name(x, N_SPACES, SPACE_NAMES, CITY_KEYS)
    if space is not None:
        return space
    raise ValueError(f"{term}: unknown space {x!r}; spaces are 0..{N_SPACES - 1} or the names of cities and "
                     f"junctions ({CITY_NAMES[0]!r}, ...)")


def city_id(c, term: str = "city") -> int:
    """City ``c`` (an id 0..25, a name or a key such as ``"DEN"``) as an id."""
    x = space_id(c, term)
    if not IS_CITY[x]:
        raise ValueError(f"{term}: {c!r} is not a city; cities are 0..{N_CITIES - 1} or {list(CITY_NAMES)}")
    return x


def cargo_code(item, term: str = "cargo") -> int:
    """A cargo item (module docstring: cargo) as a cargo code; ``CARGO_EMPTY`` for None."""
    if item is None or (is_integer(item) and item == CARGO_EMPTY):
        return CARGO_EMPTY
    code = core_positions.index_or_name(item, N_CARGO_CODES, GOOD_KEYS, GOOD_NAMES)
    if code is not None:
        return code
    key = item.strip().lower() if isinstance(item, str) else ""
    if key.startswith("passenger:"):
        zone = key.split(":", 1)[1].strip()
        zones = [z.lower() for z in ZONE_NAMES]
        if zone in zones:
            return PASSENGER_BASE + zones.index(zone)
        if zone.isdigit() and int(zone) < N_ZONES:
            return PASSENGER_BASE + int(zone)
    raise ValueError(f"{term}: unknown cargo {item!r}; cargo is a good ({list(GOOD_KEYS)}), "
                     f"'passenger:<zone>' (zones {list(ZONE_NAMES)}), a code 0..{N_CARGO_CODES - 1} or None")


def card_ids(card) -> list[int]:
    """The card ids ``card`` may stand for: itself (an id 0..51), or every id of that name (§13.5)."""
    if is_integer(card) and 0 <= card < N_CARDS:
        return [int(card)]
    if isinstance(card, str):
        key = card.strip().lower()
        ids = [k for k, name in enumerate(CARD_NAMES) if name.lower() == key]
        if ids:
            return ids
    raise ValueError(f"unknown telegram card {card!r}; cards are ids 0..{N_CARDS - 1} or names such as "
                     f"{CARD_NAMES[0]!r}")


def _decision_name(code: int) -> str:
    return DECISION_NAMES[code] if 0 <= code < len(DECISION_NAMES) else "none (the game is over)"


# ---- checking terms ------------------------------------------------------------------------------------------------
def _check_single(states: np.ndarray) -> np.ndarray:
    """``states`` must be a batch of one Wild West Express record."""
    from .game import GAME

    return core_positions.check_position(GAME, states)


def _check_setup_terms(code: int, round_, board, pieces: dict) -> None:
    """A setup position has no pieces in play yet and no round (§5)."""
    for name, value in pieces.items():
        if value is not None:
            raise ValueError(f"{name}: a {DECISION_NAMES[code]} position comes before the trains, cash and cards "
                             f"are dealt (§5); build decision='pre_roll' for it")
    if round_ is not None or board != "setup":
        raise ValueError(f"{'round' if round_ is not None else 'board'}: a {DECISION_NAMES[code]} position comes "
                         f"before round 1 (§5)")





# ---- setup and the turn ----------------------------------------------------------------------------------------------
def _play_setup(states: np.ndarray, code: int, picks, placements) -> None:
    """Play the draft and the desperado placements through the kernels, up to the decision ``code`` (§5)."""
    from .game import GAME

    s = states[0]
    n = int(s["num_players"])
    cap, auto = int(s["max_decisions"]), bool(s["auto_forced"])
    s["max_decisions"], s["auto_forced"] = _UNCAPPED, False  # PRE_ROLL is asked even with only END legal
    cities = _picks(picks, n, code)
    for c in cities:
        GAME.step(states, np.array([A_SPACE + c]))
    if code != DEC_DRAFT_CITY:
        for j, c in enumerate(_placements(s, placements, code)):
            if s["decision"] != DEC_PLACE_DESPERADO:
                raise ValueError(f"placements: {j} desperados are placed in setup (§5 item 3), got more")
            seat = int(s["current"])
            if c not in s["start_city"][seat]:
                raise ValueError(f"placements: entry {j} is seat {seat}'s desperado; it goes to one of his start "
                                 f"cities {[CITY_NAMES[x] for x in s['start_city'][seat]]}, not {CITY_NAMES[c]}")
            GAME.step(states, np.array([A_SPACE + c]))
        if code == DEC_PLACE_DESPERADO and s["decision"] != DEC_PLACE_DESPERADO:
            raise ValueError("placements: a place_desperado position needs a placement left to make (§5 item 3)")
        if code == DEC_PRE_ROLL and s["decision"] != DEC_PRE_ROLL:
            raise ValueError("placements: a pre_roll position comes after every setup desperado is placed "
                             "(§5 item 3): give them all, or leave placements out")
    s["max_decisions"], s["auto_forced"], s["n_decisions"] = cap, auto, 0


def _picks(picks, n: int, code: int) -> list[int]:
    """The draft's cities: all 2N (default 0..2N-1), or fewer than 2N for a draft position (§5 item 2)."""
    if picks is None:
        return [] if code == DEC_DRAFT_CITY else list(range(2 * n))
    cities = [city_id(c, "picks") for c in _sequence(picks, "picks")]
    if len(set(cities)) != len(cities):
        raise ValueError(f"picks: a city is picked once (§5 item 2), got {cities!r}")
    if code == DEC_DRAFT_CITY and len(cities) >= 2 * n:
        raise ValueError(f"picks: a draft position has a pick left to make: fewer than {2 * n} picks, "
                         f"got {len(cities)}")
    if code != DEC_DRAFT_CITY and len(cities) != 2 * n:
        raise ValueError(f"picks: the draft of {n} players is {2 * n} picks (§5 item 2), got {len(cities)}")
    return cities


def _placements(s: np.void, placements, code: int) -> list[int]:
    """Setup desperado cities: given, or (default) each placing seat's first pick (§5 item 3)."""
    if placements is not None:
        return [city_id(c, "placements") for c in _sequence(placements, "placements")]
    if code == DEC_PLACE_DESPERADO:
        return []
    n = int(s["num_players"])
    total = n * int(s["n_desperados"][0])
    return [int(s["start_city"][(int(s["start_player"]) + j) % n, 0]) for j in range(total)]


def _start_turn(s: np.void, turn, round_) -> None:
    """The start of ``turn``'s turn in round ``round_``: PRE_ROLL, nothing in progress (module docstring)."""
    n, start = int(s["num_players"]), int(s["start_player"])
    seat = start if turn is None else _seat(turn, n, "turn")
    round_ = 1 if round_ is None else round_
    if not is_integer(round_) or not 1 <= round_ <= s["max_rounds"]:
        raise ValueError(f"round must be an integer 1..{int(s['max_rounds'])} (max_rounds), got {round_!r}")
    s["round"] = round_
    s["turn"] = (round_ - 1) * n + (seat - start) % n + 1
    s["active"] = s["current"] = seat
    s["phase"], s["decision"] = PHASE_PRE_ROLL, DEC_PRE_ROLL
    s["dice"][:] = 0
    s["dynamite_bought"][:] = 0
    s["train_moved"][:] = 0
    s["turn_decisions"] = 0
    s["extra_moves"] = 0


def _clear_board(s: np.void) -> None:
    """No train, desperado or station on the board (``board="empty"``)."""
    for p in range(int(s["num_players"])):
        for t in range(MAX_TRAINS):
            _remove_train(s, p, t)
        s["desp_pos"][p] = NO_SPACE
        s["n_desperados"][p] = 0
    s["city_owner"][:] = NOBODY


def _check_no_payable_debt(s: np.void) -> None:
    """At the start of a turn the active seat's debts that his cash covers are paid (§6.2 step 2)."""
    seat = int(s["active"])
    for t in range(MAX_TRAINS):
        debt = int(s["train_debt"][seat, t])
        if debt > 0 and debt <= s["cash"][seat]:
            raise ValueError(f"trains: seat {seat}'s train {t} owes ${debt} and seat {seat} has "
                             f"${int(s['cash'][seat])}: the debt is paid at the start of his turn (§6.2)")


# ---- the pieces ------------------------------------------------------------------------------------------------------
def _apply_pieces(s: np.void, owners, trains, desperados, sheriffs, dynamite, cash, cards, competitions,
                  deck_top) -> None:
    """Apply the piece terms to record s in an order that lets each check the ones before, then cross-check."""
    n = int(s["num_players"])
    if owners is not None:
        _set_owners(s, owners, n)
    if trains is not None:
        _set_trains(s, trains, n)
    if desperados is not None:
        _set_desperados(s, desperados, n)
    if sheriffs is not None:
        _set_sheriffs(s, sheriffs)
    if dynamite is not None:
        _set_dynamite(s, dynamite)
    if competitions is not None:
        _set_competitions(s, competitions)
    if cards is not None:
        _set_cards(s, cards, n)
    if deck_top is not None:
        _stack_deck(s, deck_top)
    if cash is not None:
        _set_cash(s, cash, n)
    _check_pieces(s, n)


def _set_owners(s: np.void, owners, n: int) -> None:
    """Each named city's station belongs to the seat given, or to nobody (§3.3)."""
    for c, owner in _mapping(owners, "owners", "{city: seat or None}").items():
        c = city_id(c, "owners")
        owner = NOBODY if owner is None or owner == NOBODY else _seat(owner, n, f"owners of {CITY_NAMES[c]}")
        s["city_owner"][c] = owner


def _set_trains(s: np.void, trains, n: int) -> None:
    """A seat's trains replaced (a list, slot order) or the named slots set (a mapping; None removes)."""
    for p, spec in _mapping(trains, "trains", "{seat: [trains] or {slot: train}}").items():
        p = _seat(p, n, "trains")
        if isinstance(spec, Mapping):
            slots = dict(spec)
        else:
            spec = _sequence(spec, f"trains of seat {p}")
            if len(spec) > MAX_TRAINS:
                raise ValueError(f"trains: seat {p} would have {len(spec)} trains; at most {MAX_TRAINS} (§2.1)")
            slots = {t: spec[t] if t < len(spec) else None for t in range(MAX_TRAINS)}
        for t, train in slots.items():
            if not is_integer(t) or not 0 <= t < MAX_TRAINS:
                raise ValueError(f"trains: seat {p} has train slots 0..{MAX_TRAINS - 1}, got {t!r}")
            if train is None:
                _remove_train(s, p, int(t))
            else:
                _put_train(s, p, int(t), _train(train, f"trains of seat {p}, slot {t}"))


def _train(spec, term: str) -> Train:
    """A train term (a space, a mapping of ``Train`` fields or a ``Train``) as a ``Train``."""
    if isinstance(spec, Train):
        return spec
    if isinstance(spec, Mapping):
        unknown = sorted(set(spec) - set(TRAIN_FIELDS))
        if unknown:
            raise ValueError(f"{term}: unknown train field(s) {unknown}; fields are {list(TRAIN_FIELDS)}")
        if "at" not in spec:
            raise ValueError(f"{term}: a train needs its space 'at'")
        return Train(**spec)
    return Train(spec)


def _put_train(s: np.void, p: int, t: int, train: Train) -> None:
    """Train slot t of seat p is ``train`` (module docstring: its rules)."""
    term = f"trains of seat {p}, slot {t}"
    at = space_id(train.at, term)
    large = _flag(train.large, f"{term}: large")
    came_from = _came_from(train.came_from, at, term)
    cargo = [cargo_code(item, f"{term}: cargo") for item in _sequence(train.cargo, f"{term}: cargo")]
    if len(cargo) > (N_CARGO if large else 1):
        raise ValueError(f"{term}: a {'large' if large else 'small'} train has {N_CARGO if large else 1} cargo "
                         f"slot(s) (§4.1), got {len(cargo)} items")
    wait = train.wait
    if not is_integer(wait) or not 0 <= wait <= MAX_WAIT:
        raise ValueError(f"{term}: wait must be an integer 0..{MAX_WAIT}, got {wait!r}")
    if wait and IS_CITY[at]:
        raise ValueError(f"{term}: a train waits only off the cities (derailment or blizzard, §6.3 notes), "
                         f"not in {CITY_NAMES[at]}")
    for flag_name in ("moved", "armed"):
        if _flag(getattr(train, flag_name), f"{term}: {flag_name}") and p != s["active"]:
            raise ValueError(f"{term}: {flag_name} is cleared at the end of every turn (§6.7): only the active "
                             f"seat {int(s['active'])}'s trains carry it")
    s["train_exists"][p, t], s["train_large"][p, t] = 1, large
    s["train_pos"][p, t], s["train_from"][p, t] = at, came_from
    s["train_cargo"][p, t] = CARGO_EMPTY
    s["train_cargo"][p, t, :len(cargo)] = cargo
    s["train_wait"][p, t] = wait
    s["train_moved"][p, t], s["train_armed"][p, t] = bool(train.moved), bool(train.armed)
    _set_debt(s, p, t, train.debt, term)


def _came_from(value, at: int, term: str) -> int:
    """Free in a city, a neighbour of ``at`` elsewhere (§7.2)."""
    if value is None or (is_integer(value) and value == FREE):
        if not IS_CITY[at]:
            raise ValueError(f"{term}: a train on {SPACE_NAMES[at]} (not a city) has come from a neighbour: give "
                             f"came_from, one of {[int(x) for x in NEIGHBOURS[at] if x >= 0]} (§7.2)")
        return FREE
    came_from = space_id(value, f"{term}: came_from")
    if IS_CITY[at]:
        raise ValueError(f"{term}: a train standing in {CITY_NAMES[at]} has free direction (§7.2): leave "
                         f"came_from out")
    if came_from not in NEIGHBOURS[at]:
        raise ValueError(f"{term}: came_from {SPACE_NAMES[came_from]} is not a neighbour of {SPACE_NAMES[at]} "
                         f"({[int(x) for x in NEIGHBOURS[at] if x >= 0]})")
    return came_from


def _set_debt(s: np.void, p: int, t: int, debt, term: str) -> None:
    """An unpaid fee of the train's size, owed to the owner of the city it stands in (§8.3)."""
    fee = FEE_LARGE if s["train_large"][p, t] else FEE_SMALL
    if isinstance(debt, (bool, np.bool_)):
        amount = fee if debt else 0
    elif is_integer(debt) and debt in (0, fee):
        amount = int(debt)
    else:
        raise ValueError(f"{term}: debt is True, False or the train's fee ${fee} (§8.3), got {debt!r}")
    s["train_debt"][p, t], s["train_creditor"][p, t] = amount, NOBODY
    if amount:
        at = int(s["train_pos"][p, t])
        owner = int(s["city_owner"][at]) if IS_CITY[at] else NOBODY
        if owner == NOBODY or owner == p:
            raise ValueError(f"{term}: a debt is owed for a fee at another seat's station (§8.3); "
                             f"{SPACE_NAMES[at]} is {'not a city' if not IS_CITY[at] else 'not another seat`s'}")
        s["train_creditor"][p, t] = owner


def _remove_train(s: np.void, p: int, t: int) -> None:
    """Train slot t of seat p is free (as setup leaves it)."""
    s["train_exists"][p, t] = s["train_large"][p, t] = 0
    s["train_pos"][p, t], s["train_from"][p, t] = NO_SPACE, FREE
    s["train_cargo"][p, t] = CARGO_EMPTY
    s["train_wait"][p, t] = s["train_debt"][p, t] = s["train_moved"][p, t] = s["train_armed"][p, t] = 0
    s["train_creditor"][p, t] = NOBODY


def _set_desperados(s: np.void, desperados, n: int) -> None:
    """Each named seat's desperados stand on the spaces given, index order (§9)."""
    cap = LIMIT_DESPERADOS if s["component_limits"] else MAX_DESPERADOS
    for p, spaces in _mapping(desperados, "desperados", "{seat: [spaces]}").items():
        p = _seat(p, n, "desperados")
        spaces = [space_id(x, f"desperados of seat {p}") for x in _sequence(spaces, f"desperados of seat {p}")]
        if len(spaces) > cap:
            raise ValueError(f"desperados: seat {p} may have at most {cap} desperados "
                             f"({'with' if s['component_limits'] else 'without'} component_limits, §15), "
                             f"got {len(spaces)}")
        s["desp_pos"][p] = NO_SPACE
        s["desp_pos"][p, :len(spaces)] = spaces
        s["n_desperados"][p] = len(spaces)


def _set_sheriffs(s: np.void, sheriffs) -> None:
    """Sheriff k stands on ``sheriffs[k]``; the others are off the board (§12)."""
    spaces = [space_id(x, "sheriffs") for x in _sequence(sheriffs, "sheriffs")]
    if len(spaces) > N_SHERIFFS:
        raise ValueError(f"sheriffs: there are {N_SHERIFFS} sheriffs, got {len(spaces)} spaces")
    if len(set(spaces)) != len(spaces):
        raise ValueError(f"sheriffs: the two sheriffs never share a space (§12 item 3), got {spaces!r}")
    s["sheriff_pos"][:] = NO_SPACE
    s["sheriff_pos"][:len(spaces)] = spaces


def _set_dynamite(s: np.void, dynamite) -> None:
    """Tokens on exactly the spaces given, the rest of the 18 in the supply (§11)."""
    spaces = [space_id(x, "dynamite") for x in _sequence(dynamite, "dynamite")]
    if len(set(spaces)) != len(spaces):
        raise ValueError(f"dynamite: one token a space (§11.1), got {spaces!r}")
    if len(spaces) > DYNAMITE_SUPPLY:
        raise ValueError(f"dynamite: the box holds {DYNAMITE_SUPPLY} tokens (§2), got {len(spaces)}")
    for x in spaces:
        if IS_CITY[x]:
            raise ValueError(f"dynamite: never in a city (§11.1), got {CITY_NAMES[x]}")
    s["dynamite"][:] = 0
    s["dynamite"][spaces] = 1
    s["dynamite_supply"] = DYNAMITE_SUPPLY - len(spaces)


def _set_cash(s: np.void, cash, n: int) -> None:
    """Each named seat holds the dollars given; the difference is paid by or to the bank (§0.2)."""
    for p, dollars in _seat_values("cash", cash, n).items():
        if not is_integer(dollars) or not 0 <= dollars <= MAX_CASH:
            raise ValueError(f"cash of seat {p}: dollars 0..{MAX_CASH}, got {dollars!r}")
        s["bank_paid"] += int(dollars) - int(s["cash"][p])
        s["cash"][p] = dollars


# ---- telegrams (§13) -----------------------------------------------------------------------------------------------
def _deck(s: np.void) -> list[int]:
    return [int(k) for k in s["deck"][:s["deck_size"]]]


def _write_deck(s: np.void, cards: list[int], never_drawn: int) -> None:
    s["deck"][:] = NO_CARD
    s["deck"][:len(cards)] = cards
    s["deck_size"], s["never_drawn"] = len(cards), never_drawn


def _take_from_deck(s: np.void, card: int) -> None:
    """Card ``card`` leaves the deck; a never-drawn one is drawn now (§13.1, §16.1)."""
    deck = _deck(s)
    i = deck.index(card)
    _write_deck(s, deck[:i] + deck[i + 1:], int(s["never_drawn"]) - (1 if i < s["never_drawn"] else 0))


def _to_bottom(s: np.void, card: int) -> None:
    """Card ``card`` goes to the bottom of the deck (§13.1)."""
    _write_deck(s, _deck(s) + [card], int(s["never_drawn"]))


def _where(s: np.void, card: int) -> str:
    """Where card ``card`` is: "deck", "seat p", "slot i" or "in play"."""
    if card in _deck(s):
        return "deck"
    if s["card_holder"][card] != NOBODY:
        return f"seat {int(s['card_holder'][card])}"
    slots = [i for i in range(N_COMPETITION_SLOTS) if s["comp_card"][i] == card]
    return f"slot {slots[0]}" if slots else "in play"


def _free_card(s: np.void, card, term: str, wanted_class: int, taken: set, usable) -> int:
    """The id ``card`` stands for: of ``wanted_class``, not yet named in this term, and ``usable``."""
    ids = card_ids(card)
    ids = [k for k in ids if CARD_CLASS[k] == wanted_class] or ids
    for k in ids:
        if CARD_CLASS[k] == wanted_class and k not in taken and usable(k):
            taken.add(k)
            return k
    k = ids[0]
    if CARD_CLASS[k] != wanted_class:
        kind = "personal" if wanted_class == CLASS_PERSONAL else "competition"
        raise ValueError(f"{term}: card {k} ({CARD_NAMES[k]}) is not a {kind} card (§13.3)")
    raise ValueError(f"{term}: card {card!r} is not available here (it is {_where(s, k)}, or named twice)")


def _set_competitions(s: np.void, competitions) -> None:
    """Each named slot holds the competition given (from the deck) or none (its card to the bottom) (§13.4)."""
    horizon = int(s["expiry_rounds"]) * int(s["num_players"])
    taken: set = set()
    for i, entry in _mapping(competitions, "competitions", "{slot: card or (card, countdown)}").items():
        if not is_integer(i) or not 0 <= i < N_COMPETITION_SLOTS:
            raise ValueError(f"competitions: slots are 0..{N_COMPETITION_SLOTS - 1}, got {i!r}")
        old = int(s["comp_card"][i])
        if old != NO_CARD:
            s["comp_card"][i], s["comp_countdown"][i] = NO_CARD, 0
            _to_bottom(s, old)
        if entry is None:
            continue
        card, countdown = entry if isinstance(entry, tuple) else (entry, horizon)
        term = f"competitions, slot {i}"
        card = _free_card(s, card, term, CLASS_COMPETITION, taken, lambda k: k in _deck(s))
        low = 1 if horizon else 0
        if not is_integer(countdown) or not low <= countdown <= horizon:
            raise ValueError(f"{term}: countdown must be {low}..{horizon} (competition_expiry_rounds x N, §13.4), "
                             f"got {countdown!r}")
        _take_from_deck(s, card)
        s["comp_card"][i], s["comp_countdown"][i] = card, countdown


def _set_cards(s: np.void, cards, n: int) -> None:
    """Each named seat holds the named personal cards bound to the trains given, or sends them back (§13.3)."""
    taken: set = set()
    for p, hand in _mapping(cards, "cards", "{seat: {card: train slot or None}}").items():
        p = _seat(p, n, "cards")
        for card, slot in _mapping(hand, f"cards of seat {p}", "{card: train slot or None}").items():
            term = f"cards of seat {p}"
            if slot is None:
                k = _free_card(s, card, term, CLASS_PERSONAL, taken, lambda k, p=p: s["card_holder"][k] == p)
                s["card_holder"][k] = s["card_bound"][k] = NOBODY
                _to_bottom(s, k)
                continue
            k = _free_card(s, card, term, CLASS_PERSONAL, taken,
                           lambda k: k in _deck(s) or s["card_holder"][k] != NOBODY)
            if not is_integer(slot) or not 0 <= slot < MAX_TRAINS or not s["train_exists"][p, slot]:
                raise ValueError(f"{term}: card {k} is bound to a train of seat {p} (§13.3); seat {p} has trains "
                                 f"{[t for t in range(MAX_TRAINS) if s['train_exists'][p, t]]}, got {slot!r}")
            if k in _deck(s):
                _take_from_deck(s, k)
            s["card_holder"][k], s["card_bound"][k] = p, slot


def _stack_deck(s: np.void, deck_top) -> None:
    """The cards given are drawn next, in order; the deck's other cards follow in their order (§13.1)."""
    deck, never = _deck(s), set(_deck(s)[:int(s["never_drawn"])])
    taken: set = set()
    top = []
    for card in _sequence(deck_top, "deck_top"):
        ids = [k for k in card_ids(card) if k in deck and k not in taken]
        if not ids:
            k = card_ids(card)[0]
            raise ValueError(f"deck_top: card {card!r} is not in the deck (it is {_where(s, k)}, or named twice)")
        taken.add(ids[0])
        top.append(ids[0])
    cards = top + [k for k in deck if k not in taken]
    run = 0
    while run < len(cards) and cards[run] in never:
        run += 1
    _write_deck(s, cards, min(run, len(never)))


# ---- checks across the terms -----------------------------------------------------------------------------------------
def _check_pieces(s: np.void, n: int) -> None:
    """Piece limits (§2.1), debts owed to station owners (§8.3), cards bound to trains (§13.3), sheriffs and
    dynamite apart (§11.1, §12)."""
    limits = bool(s["component_limits"])
    for p in range(n):
        stations = int((s["city_owner"] == p).sum())
        if limits and stations > LIMIT_STATIONS:
            raise ValueError(f"owners: seat {p} would own {stations} stations; at most {LIMIT_STATIONS} (§2.1)")
        large = int((s["train_exists"][p] & s["train_large"][p]).sum())
        small = int(s["train_exists"][p].sum()) - large
        if limits and (small > LIMIT_SMALL or large > LIMIT_LARGE):
            raise ValueError(f"trains: seat {p} would have {small} small and {large} large trains; at most "
                             f"{LIMIT_SMALL} and {LIMIT_LARGE} with component_limits (§2.1)")
        for t in range(MAX_TRAINS):
            _check_creditor(s, p, t)
    for k in range(N_CARDS):
        holder = int(s["card_holder"][k])
        if holder != NOBODY and not s["train_exists"][holder, s["card_bound"][k]]:
            raise ValueError(f"trains: seat {holder} holds card {k} bound to his train {int(s['card_bound'][k])}, "
                             f"which the terms removed; send the card back with cards={{{holder}: {{{k}: None}}}}")
        if holder != NOBODY and CARD_TYPE[k] == T_HIDEOUT and (
                s["n_desperados"][holder] < 1 or (s["city_owner"] == holder).sum() < 2):
            raise ValueError(f"cards: seat {holder} holds Hideout (card {k}), always playable, which moves one of his "
                             f"desperados to another own station: he needs a desperado and 2 stations (§13.5)")
    sheriffs = [int(x) for x in s["sheriff_pos"]]
    if sheriffs[0] == NO_SPACE and sheriffs[1] != NO_SPACE:
        raise ValueError("sheriffs: sheriff 1 is on the board only with sheriff 0 (the lowest off-board one is "
                         "placed first and none leaves, §12 item 2)")
    for x in sheriffs:
        if x != NO_SPACE and s["dynamite"][x]:
            raise ValueError(f"dynamite: no token under a sheriff (§11.1, §12 item 4), got space {x}")
    _check_dynamite_groups(s)


def _check_creditor(s: np.void, p: int, t: int) -> None:
    """A debt is owed to the owner of the city where the train stands (§8.3, §16.4)."""
    if not s["train_debt"][p, t]:
        return
    at = int(s["train_pos"][p, t])
    if s["train_creditor"][p, t] != s["city_owner"][at]:
        raise ValueError(f"owners: seat {p}'s train {t} owes its fee to seat {int(s['train_creditor'][p, t])}, "
                         f"the owner of {CITY_NAMES[at]} (stations are never sold, §3.3)")


def _check_dynamite_groups(s: np.void) -> None:
    """No connected group of more than 3 dynamite spaces (§11.1)."""
    seen: set = set()
    for x in np.flatnonzero(s["dynamite"]):
        if x in seen:
            continue
        group, todo = {int(x)}, [int(x)]
        while todo:
            y = todo.pop()
            for z in NEIGHBOURS[y]:
                if z >= 0 and s["dynamite"][z] and int(z) not in group:
                    group.add(int(z))
                    todo.append(int(z))
        seen |= group
        if len(group) > DYNAMITE_MAX_GROUP:
            raise ValueError(f"dynamite: at most {DYNAMITE_MAX_GROUP} tokens next to each other (§11.1), got the "
                             f"group {sorted(group)}")
