"""The egocentric observation of one seat (spec §16, recommended layout §16.4).

``observe(states, seats, out)`` writes, for every record ``b``, what seat
``p = seats[b]`` may know (§16.1 public facts and §16.2 its private facts,
nothing of §16.3) as one flat float32 row laid out by ``OBS``. Heuristics read
fields by name (``OBS.get(row, "seats")[:, SEAT_CASH]``); networks read the row.

Seats are given by their offset ``o = (s - p) mod N`` from the observer (offset
0 is ``p``, 1 the next seat clockwise, ...); seats beyond ``N`` are all-zero
rows. Board-sized fields are planes of ``N_SPACES`` = 314 entries indexed by
space id (cities 0..25, junctions 26..30, track spaces 31..313).

Fields (sizes as declared in ``OBS``; the table of §16.4, total 15,744)::

    decision_type     17        pending decision one-hot (§17.2); all zero when the game is over
    -- the §16.4 "context" slice (66), split into named parts --
    move_train        6         slot of the active player's train whose move (or played card) is in progress
    desperado         3         the active player's desperado that moves (DESPERADO_STEP, REHIRE_TARGET)
                                or was chosen for Hideout (CARD_HIDEOUT_CITY)
    steps_left        1         steps left of the train move / of the desperado move, / 18
    first_step        1         the moving piece has not yet taken a step
    drawn_card        52        the personal card p has just drawn (TELEGRAM_DRAWN, p to decide only)
    card_left         1         placements / removals left of Crate of Dynamite / Track Crew, / 2
    sheriff           2         the sheriff being placed (SHERIFF_SPACE)
    -- end of context --
    dice              6         sorted dice a >= b >= c / 6; a+b, a+b+c and a / 18; zero before the roll
    game              6         round / max_rounds, player count one-hot (2..5), victory target / 11
    seats             5x11      per seat offset, columns SEAT_* below
    city_owner        26x6      per city: unowned (column 0) or owner offset o (column 1 + o)
    space_static      7x314     planes: is city, is junction, telegram space, sheriff star, zone one-hot (3)
    dynamite          314       a dynamite token lies on the space
    sheriffs          2x314     per sheriff index: its space one-hot, all zero = off the board
    desperados        5x314     per seat offset: desperados on the space (count)
    trains_small      5x314     per seat offset: small trains on the space (count)
    trains_large      5x314     per seat offset: large trains on the space (count)
    cargo_tokens      5x314     per seat offset: goods and passenger tokens on its trains there (count)
    own_trains        6x660     p's train slots, columns OWN_TRAIN_* below
    other_trains      4x6x36    per seat offset 1..4 and slot, columns OTHER_TRAIN_* below
    own_desperados    3x315     p's desperado index 0..2: exists, then its space one-hot
    own_cards         52        personal card ids p holds
    own_card_trains   6x6       per movement card id 0..5 that p holds: its bound train slot one-hot
    competitions      3x53      per slot: card id one-hot (52), countdown / (expiry rounds x N)
    deck              2         deck size / 52, never-drawn cards / 52

Cargo (13 entries per cargo slot, §4.1): goods 0..8, passenger picked up in
zone 0..2 (entries 9..11, the cargo code of ``data``), empty (12). The second
cargo slot of a small train does not exist and is all zero.

Natural scales (``OBS.decode(row)``, ``core.layout``): every field declares how
its floats read in the game's terms, at the scale the kernel divides by, so
counts come back as the record's integers::

    decision_type      decision: the DEC_* code, -1 when the game is over
    move_train         train: slot 0..5 or -1;  desperado: index 0..2 or -1;  sheriff: index 0..1 or -1
    steps_left         steps (x 18);  first_step: flag;  card_left: placements (x 2);  drawn_card: card id or -1
    dice               faces (a, b, c, x 6), small_move, large_move, desperado_move (x 18)
    game               round_share, num_players (2..5), victory_target (x 11)
    seats              present, active, start_player (flags), cash ($, x 1000), vp_share, stations (x 6),
                       small_trains (x 4), large_trains (x 2), desperados (x 3), cards (x 5), dynamite_bought (x 3)
    city_owner         owner: seat offset 0..4, -1 unowned
    space_static       marked: one flag per plane and space (planes in the order of the table above)
    dynamite           flag per space;  sheriffs: space of each sheriff, -1 off the board
    desperados, trains_small, trains_large, cargo_tokens    counts per seat offset and space
    own_trains         exists, large, wait (count), debt, moved, armed, space, came_from (-1 free),
                       cargo_0, cargo_1 (entry 0..12 as above, -1 for a slot the train lacks)
    other_trains       the same flags, bound_cards (x 5), cargo_0, cargo_1, space, came_from (x 313), free
    own_desperados     exists, space (-1 absent);  own_cards: held flag per card id
    own_card_trains    train: the slot card 0..5 is bound to, -1 when not held
    competitions       card: card id or -1, countdown_share;  deck: size, never_drawn (x 52)

Three values are stored relative to a number the row does not hold at a fixed
scale, so they decode as ``real`` fractions, not counts: ``round_share`` =
round / ``max_rounds`` (an option), ``vp_share`` = VP / victory target (the
target decodes from ``game``: VP = round(vp_share x victory_target)), and
``countdown_share`` = countdown / (``competition_expiry_rounds`` x N), 0 when
expiry is off. No kernel clips or squashes a value.

Decisions where the spec is silent (or leaves the encoding open):

* The §16.4 slices ``context`` (66) and ``own_cards`` (88) are split into
  named parts of the same sizes in the same order, so the total is the spec's
  15,744 and heuristics can read each part by name.
* Context entries are written only at the decisions where they mean
  something, read from the record fields that the engine keeps for them:
  ``move_train``, ``steps_left`` and ``first_step`` of a train while
  ``move_active`` (its landing included, so a card drawn or played at that
  landing shows the train it is bound to). A card played from the hand in
  PRE_ROLL without a move shows no train: the record forgets the bound train
  of a played card (``rules._play_card``). The desperado's steps
  and first-step flag (``desp_from`` = none) at DESPERADO_STEP. ``card_left``
  only at CARD_DYNAMITE_PLACE / CARD_DYNAMITE_REMOVE, ``sheriff`` only at
  SHERIFF_SPACE, ``drawn_card`` only at TELEGRAM_DRAWN and only for the seat
  that drew it. Gating on the decision keeps a stale or not-yet-revealed field
  (for example the card id of a drawn card that is then kept) out of view.
* The id of the card being resolved is not encoded: the decision type says
  which card procedure runs, and a card held back at TELEGRAM_DRAWN must
  never show.
* ``seats`` columns: ``SEAT_ACTIVE`` is the ``active`` field (the drafting or
  placing seat during setup); held personal cards count ``card_holder``
  entries. A card waiting at TELEGRAM_DRAWN is not held yet (the engine
  records its holder when it is kept, ``rules``), so it shows only in the
  drawer's ``drawn_card``.
* ``other_trains`` gives the number of held personal cards bound to each
  train (§16.1, public) and never their ids; position and came_from are
  scalars ``space / 313`` with a free-direction flag (§16.4), the "exists"
  column telling an absent train from one in Seattle (space 0).
* Counts (desperados, trains, tokens, ``wait``) are not scaled; they are small
  integers. Money is in thousands of dollars (it may exceed 1).
* Not observed: the generator (``rng``) and the scripted-chance queue, the
  deck's contents and order (not even the public tail of revealed cards,
  §16.3 allows leaving it out), other seats' held card ids and the card drawn
  by another seat, creditors (always the owner of the city where the indebted
  train stands, §16.4), and the decision counters (``n_decisions``,
  ``turn_decisions``).
* Public facts that §16.4's table leaves out stay out, as the mask carries
  what a decision needs: the moving desperado's previous space (``desp_from``),
  the hire-used flags of ``alt_extra_gang``, a queued extra move, the order of
  a player's two start cities during setup, the turn phase (implied by the
  decision type and the dice).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.borrowed import UNCOUNTED
from ..core.layout import Layout, count, flag, onehot, real
from .data import (CARGO_EMPTY, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE, DEC_CARD_HIDEOUT_CITY,
                   DEC_DESPERADO_STEP, DEC_REHIRE_TARGET, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN, DIE_SIDES, FREE,
                   IS_CITY, LIMIT_LARGE, LIMIT_SMALL, LIMIT_STATIONS, MAX_DESPERADOS, MAX_PLAYERS, MAX_TRAINS,
                   MIN_PLAYERS, NO_CARD, NO_SPACE, N_CARDS, N_CARGO, N_CARGO_CODES, N_CITIES, N_COMPETITION_SLOTS,
                   N_DECISION_TYPES, N_DICE, N_SHERIFFS, N_SPACES, N_ZONES, SPACE_JUNCTION, SPACE_SPECIAL,
                   SPACE_TYPE, SPACE_ZONE, SPECIAL_STAR, SPECIAL_TELEGRAM)
from .scoring import victory_points
from .state import NOBODY

# ---- scaling (values roughly in [0, 1]) --------------------------------------------------------
MONEY_SCALE = 1000.0  # dollars per unit (§16.4 "cash / 1000")
STEPS_SCALE = 18.0  # longest dice move a+b+c (§16.4)
TARGET_SCALE = 11.0  # highest victory target of §14.2
CARD_COUNT_SCALE = 5.0  # held personal cards (§16.4)
PLACEMENTS_SCALE = 2.0  # Crate of Dynamite / Track Crew tokens per card (§13.5)
DYNAMITE_BOUGHT_SCALE = 3.0  # dynamite per turn (§11.1)
SPACE_SCALE = float(N_SPACES - 1)  # scalar space ids of other_trains: space / 313
N_MOVE_CARDS = 6  # card ids 0..5 make extra moves (§13.5 type ids 0..2)

# ---- columns of the per-seat rows (§16.4 seats) -------------------------------------------------
SEAT_PRESENT = 0
SEAT_ACTIVE = 1
SEAT_START = 2  # start player (§5 item 1)
SEAT_CASH = 3  # / 1000
SEAT_VP = 4  # / victory target
SEAT_STATIONS = 5  # / 6
SEAT_SMALL = 6  # small trains / 4
SEAT_LARGE = 7  # large trains / 2
SEAT_DESPERADOS = 8  # / 3
SEAT_CARDS = 9  # held personal cards / 5
SEAT_DYNAMITE = 10  # dynamite bought this turn / 3
SEAT_COLUMNS = 11

# ---- cargo entries (§4.1): good 0..8, passenger zone 0..2 (9..11), empty (12) --------------------
CARGO_EMPTY_COLUMN = N_CARGO_CODES
CARGO_COLUMNS = N_CARGO_CODES + 1  # 13

# ---- columns of the train rows -------------------------------------------------------------------
TRAIN_EXISTS = 0
TRAIN_LARGE = 1
TRAIN_WAIT = 2  # dice moves to sit out (count)
TRAIN_DEBT = 3  # an unpaid fee (flag)
TRAIN_MOVED = 4
TRAIN_ARMED = 5
N_TRAIN_FLAGS = 6
OWN_TRAIN_POSITION = N_TRAIN_FLAGS  # + space, 314 entries
OWN_TRAIN_CAME_FROM = OWN_TRAIN_POSITION + N_SPACES  # + space, all zero = free direction
OWN_TRAIN_CARGO = OWN_TRAIN_CAME_FROM + N_SPACES  # + cargo slot * 13 + entry
OWN_TRAIN_COLUMNS = OWN_TRAIN_CARGO + N_CARGO * CARGO_COLUMNS  # 660
OTHER_TRAIN_BOUND_CARDS = N_TRAIN_FLAGS  # held personal cards bound to the train / 5
OTHER_TRAIN_CARGO = OTHER_TRAIN_BOUND_CARDS + 1  # + cargo slot * 13 + entry
OTHER_TRAIN_POSITION = OTHER_TRAIN_CARGO + N_CARGO * CARGO_COLUMNS  # space / 313
OTHER_TRAIN_CAME_FROM = OTHER_TRAIN_POSITION + 1  # space / 313, 0 when free
OTHER_TRAIN_FREE = OTHER_TRAIN_CAME_FROM + 1  # free direction
OTHER_TRAIN_COLUMNS = OTHER_TRAIN_FREE + 1  # 36

# ---- planes of space_static, columns of the competition rows --------------------------------------
STATIC_CITY, STATIC_JUNCTION, STATIC_TELEGRAM, STATIC_STAR, STATIC_ZONE = 0, 1, 2, 3, 4  # zone: + zone id
N_STATIC_PLANES = STATIC_ZONE + N_ZONES  # 7
COMPETITION_COUNTDOWN = N_CARDS  # after the card id one-hot
COMPETITION_COLUMNS = N_CARDS + 1  # 53

# natural scales of the fields (``OBS.decode``, module docstring "Natural scales")
_TRAIN_FLAGS = (flag("exists"), flag("large"), count("wait"), flag("debt"), flag("moved"), flag("armed"))
_CARGO = (onehot("cargo_0", CARGO_COLUMNS), onehot("cargo_1", CARGO_COLUMNS))

OBS = Layout(
    ("decision_type", N_DECISION_TYPES, onehot("decision", N_DECISION_TYPES)),
    ("move_train", MAX_TRAINS, onehot("train", MAX_TRAINS)),
    ("desperado", MAX_DESPERADOS, onehot("desperado", MAX_DESPERADOS)),
    ("steps_left", 1, count("steps_left", STEPS_SCALE)),
    ("first_step", 1, flag("first_step")),
    ("drawn_card", N_CARDS, onehot("card", N_CARDS)),
    ("card_left", 1, count("card_left", PLACEMENTS_SCALE)),
    ("sheriff", N_SHERIFFS, onehot("sheriff", N_SHERIFFS)),
    ("dice", 2 * N_DICE, (count("faces", DIE_SIDES, width=N_DICE), count("small_move", STEPS_SCALE),
                          count("large_move", STEPS_SCALE), count("desperado_move", STEPS_SCALE))),
    ("game", 2 + MAX_PLAYERS - MIN_PLAYERS + 1,
     (real("round_share"), onehot("num_players", MAX_PLAYERS - MIN_PLAYERS + 1, first=MIN_PLAYERS),
      count("victory_target", TARGET_SCALE))),
    ("seats", (MAX_PLAYERS, SEAT_COLUMNS),
     (flag("present"), flag("active"), flag("start_player"), count("cash", MONEY_SCALE), real("vp_share"),
      count("stations", LIMIT_STATIONS), count("small_trains", LIMIT_SMALL), count("large_trains", LIMIT_LARGE),
      count("desperados", MAX_DESPERADOS), count("cards", CARD_COUNT_SCALE),
      count("dynamite_bought", DYNAMITE_BOUGHT_SCALE))),
    ("city_owner", (N_CITIES, 1 + MAX_PLAYERS), onehot("owner", 1 + MAX_PLAYERS, first=-1)),
    ("space_static", (N_STATIC_PLANES, N_SPACES), flag("marked")),
    ("dynamite", N_SPACES, flag("dynamite")),
    ("sheriffs", (N_SHERIFFS, N_SPACES), onehot("space", N_SPACES)),
    ("desperados", (MAX_PLAYERS, N_SPACES), count("desperados")),
    ("trains_small", (MAX_PLAYERS, N_SPACES), count("trains")),
    ("trains_large", (MAX_PLAYERS, N_SPACES), count("trains")),
    ("cargo_tokens", (MAX_PLAYERS, N_SPACES), count("tokens")),
    ("own_trains", (MAX_TRAINS, OWN_TRAIN_COLUMNS),
     _TRAIN_FLAGS + (onehot("space", N_SPACES), onehot("came_from", N_SPACES)) + _CARGO),
    ("other_trains", (MAX_PLAYERS - 1, MAX_TRAINS, OTHER_TRAIN_COLUMNS),
     _TRAIN_FLAGS + (count("bound_cards", CARD_COUNT_SCALE),) + _CARGO
     + (count("space", SPACE_SCALE), count("came_from", SPACE_SCALE), flag("free"))),
    ("own_desperados", (MAX_DESPERADOS, 1 + N_SPACES), (flag("exists"), onehot("space", N_SPACES))),
    ("own_cards", N_CARDS, flag("held")),
    ("own_card_trains", (N_MOVE_CARDS, MAX_TRAINS), onehot("train", MAX_TRAINS)),
    ("competitions", (N_COMPETITION_SLOTS, COMPETITION_COLUMNS), (onehot("card", N_CARDS), real("countdown_share"))),
    ("deck", 2, (count("size", N_CARDS), count("never_drawn", N_CARDS))),
)
OBS_SIZE = OBS.size  # 15,744 (§16.4, §17.7)


def _build_space_static() -> np.ndarray:
    """The constant planes of §16.4 ``space_static`` as one flat row."""
    planes = np.zeros((N_STATIC_PLANES, N_SPACES), dtype=np.float32)
    planes[STATIC_CITY] = IS_CITY
    planes[STATIC_JUNCTION] = SPACE_TYPE == SPACE_JUNCTION
    planes[STATIC_TELEGRAM] = SPACE_SPECIAL == SPECIAL_TELEGRAM
    planes[STATIC_STAR] = SPACE_SPECIAL == SPECIAL_STAR
    planes[STATIC_ZONE + SPACE_ZONE, np.arange(N_SPACES)] = 1.0
    flat = planes.ravel()
    flat.setflags(write=False)
    return flat


SPACE_STATIC = _build_space_static()

# integer offsets frozen into the kernels
_DECISION = OBS.start("decision_type")
_MOVE_TRAIN = OBS.start("move_train")
_DESPERADO = OBS.start("desperado")
_STEPS_LEFT = OBS.start("steps_left")
_FIRST_STEP = OBS.start("first_step")
_DRAWN_CARD = OBS.start("drawn_card")
_CARD_LEFT = OBS.start("card_left")
_SHERIFF = OBS.start("sheriff")
_DICE = OBS.start("dice")
_GAME = OBS.start("game")
_SEATS = OBS.start("seats")
_CITY_OWNER = OBS.start("city_owner")
_SPACE_STATIC = OBS.start("space_static")
_DYNAMITE = OBS.start("dynamite")
_SHERIFFS = OBS.start("sheriffs")
_DESPERADOS = OBS.start("desperados")
_TRAINS_SMALL = OBS.start("trains_small")
_TRAINS_LARGE = OBS.start("trains_large")
_CARGO_TOKENS = OBS.start("cargo_tokens")
_OWN_TRAINS = OBS.start("own_trains")
_OTHER_TRAINS = OBS.start("other_trains")
_OWN_DESPERADOS = OBS.start("own_desperados")
_OWN_CARDS = OBS.start("own_cards")
_OWN_CARD_TRAINS = OBS.start("own_card_trains")
_COMPETITIONS = OBS.start("competitions")
_DECK = OBS.start("deck")
_CITY_OWNER_WIDTH = 1 + MAX_PLAYERS
_OWN_DESPERADO_WIDTH = 1 + N_SPACES


@njit(cache=True)
def seat_offset(state, seat: int, observer: int) -> int:
    """Seat offset ``(s - p) mod N`` of seat s seen by p (§16.4)."""
    n = np.int64(state["num_players"])
    return (np.int64(seat) - np.int64(observer) + n) % n


@njit(cache=True)
def _observe_context(state, p: int, out_row) -> None:
    """Decision type and the context of the pending decision (§16.4 ``decision_type``, ``context``)."""
    decision = np.int64(state["decision"])
    if 0 <= decision < N_DECISION_TYPES:
        out_row[_DECISION + decision] = 1.0
    if state["move_active"]:
        out_row[_MOVE_TRAIN + np.int64(state["move_train"])] = 1.0
        out_row[_STEPS_LEFT] = state["move_steps"] / STEPS_SCALE
        out_row[_FIRST_STEP] = 1.0 if state["move_first"] else 0.0
    if decision == DEC_DESPERADO_STEP:
        out_row[_STEPS_LEFT] = state["desp_steps"] / STEPS_SCALE
        out_row[_FIRST_STEP] = 1.0 if state["desp_from"] == NO_SPACE else 0.0
    if decision == DEC_DESPERADO_STEP or decision == DEC_REHIRE_TARGET:
        out_row[_DESPERADO + np.int64(state["desp_index"])] = 1.0
    elif decision == DEC_CARD_HIDEOUT_CITY:
        out_row[_DESPERADO + np.int64(state["sel_desperado"])] = 1.0
    if decision == DEC_TELEGRAM_DRAWN and state["current"] == p and state["drawn_card"] != NO_CARD:
        out_row[_DRAWN_CARD + np.int64(state["drawn_card"])] = 1.0  # private to the drawer (§16.2)
    if decision == DEC_CARD_DYNAMITE_PLACE or decision == DEC_CARD_DYNAMITE_REMOVE:
        out_row[_CARD_LEFT] = state["card_left"] / PLACEMENTS_SCALE
    if decision == DEC_SHERIFF_SPACE and state["sel_sheriff"] != NOBODY:
        out_row[_SHERIFF + np.int64(state["sel_sheriff"])] = 1.0


@njit(cache=True)
def _observe_dice_and_game(state, out_row) -> None:
    """Dice and move lengths (zero before the roll, §6.2); round, player count, target (§16.4)."""
    a = np.int64(state["dice"][0])
    b = np.int64(state["dice"][1])
    c = np.int64(state["dice"][2])
    out_row[_DICE + 0] = a / np.float32(DIE_SIDES)
    out_row[_DICE + 1] = b / np.float32(DIE_SIDES)
    out_row[_DICE + 2] = c / np.float32(DIE_SIDES)
    out_row[_DICE + 3] = (a + b) / STEPS_SCALE
    out_row[_DICE + 4] = (a + b + c) / STEPS_SCALE
    out_row[_DICE + 5] = a / STEPS_SCALE
    out_row[_GAME] = np.float32(state["round"]) / max(np.float32(state["max_rounds"]), np.float32(1.0))
    out_row[_GAME + 1 + np.int64(state["num_players"]) - MIN_PLAYERS] = 1.0
    out_row[_GAME + 1 + MAX_PLAYERS - MIN_PLAYERS + 1] = np.float32(state["victory_target"]) / TARGET_SCALE


@njit(cache=True)
def _observe_seats(state, p: int, out_row) -> None:
    """Per seat: turn markers, cash, VP, pieces, held card count, dynamite bought (§16.1, §16.4)."""
    n = np.int64(state["num_players"])
    target = max(np.float32(state["victory_target"]), np.float32(1.0))
    for s in range(n):
        base = _SEATS + seat_offset(state, s, p) * SEAT_COLUMNS
        small = 0
        large = 0
        for t in range(MAX_TRAINS):
            if state["train_exists"][s, t]:
                if state["train_large"][s, t]:
                    large += 1
                else:
                    small += 1
        stations = 0
        for c in range(N_CITIES):
            if state["city_owner"][c] == s:
                stations += 1
        cards = 0
        for k in range(N_CARDS):
            if state["card_holder"][k] == s:
                cards += 1
        out_row[base + SEAT_PRESENT] = 1.0
        out_row[base + SEAT_ACTIVE] = 1.0 if state["active"] == s else 0.0
        out_row[base + SEAT_START] = 1.0 if state["start_player"] == s else 0.0
        out_row[base + SEAT_CASH] = state["cash"][s] / MONEY_SCALE
        out_row[base + SEAT_VP] = victory_points(state, s) / target
        out_row[base + SEAT_STATIONS] = stations / np.float32(LIMIT_STATIONS)
        out_row[base + SEAT_SMALL] = small / np.float32(LIMIT_SMALL)
        out_row[base + SEAT_LARGE] = large / np.float32(LIMIT_LARGE)
        out_row[base + SEAT_DESPERADOS] = state["n_desperados"][s] / np.float32(MAX_DESPERADOS)
        out_row[base + SEAT_CARDS] = cards / CARD_COUNT_SCALE
        out_row[base + SEAT_DYNAMITE] = state["dynamite_bought"][s] / DYNAMITE_BOUGHT_SCALE


@njit(cache=True)
def _observe_board(state, p: int, out_row) -> None:
    """City owners, constant space planes, dynamite and sheriffs (§16.1, §16.4)."""
    for c in range(N_CITIES):
        owner = np.int64(state["city_owner"][c])
        column = 0 if owner == NOBODY else 1 + seat_offset(state, owner, p)
        out_row[_CITY_OWNER + c * _CITY_OWNER_WIDTH + column] = 1.0
    for i in range(SPACE_STATIC.shape[0]):
        out_row[_SPACE_STATIC + i] = SPACE_STATIC[i]
    for x in range(N_SPACES):
        if state["dynamite"][x]:
            out_row[_DYNAMITE + x] = 1.0
    for k in range(N_SHERIFFS):
        x = np.int64(state["sheriff_pos"][k])
        if x != NO_SPACE:
            out_row[_SHERIFFS + k * N_SPACES + x] = 1.0


@njit(cache=True)
def _observe_piece_planes(state, p: int, out_row) -> None:
    """Desperados, small and large trains and their tokens per seat offset and space (§16.4)."""
    n = np.int64(state["num_players"])
    for s in range(n):
        plane = seat_offset(state, s, p) * N_SPACES
        for k in range(MAX_DESPERADOS):
            x = np.int64(state["desp_pos"][s, k])
            if x != NO_SPACE:
                out_row[_DESPERADOS + plane + x] += 1.0
        for t in range(MAX_TRAINS):
            if not state["train_exists"][s, t]:
                continue
            x = np.int64(state["train_pos"][s, t])
            if state["train_large"][s, t]:
                out_row[_TRAINS_LARGE + plane + x] += 1.0
            else:
                out_row[_TRAINS_SMALL + plane + x] += 1.0
            for j in range(N_CARGO):
                if state["train_cargo"][s, t, j] != CARGO_EMPTY:
                    out_row[_CARGO_TOKENS + plane + x] += 1.0


@njit(cache=True)
def _write_train_flags(state, s: int, t: int, out_row, base: int) -> None:
    """Exists, large, wait, debt > 0, moved, armed of train (s, t) (§16.1)."""
    out_row[base + TRAIN_EXISTS] = 1.0
    out_row[base + TRAIN_LARGE] = 1.0 if state["train_large"][s, t] else 0.0
    out_row[base + TRAIN_WAIT] = np.float32(state["train_wait"][s, t])
    out_row[base + TRAIN_DEBT] = 1.0 if state["train_debt"][s, t] > 0 else 0.0
    out_row[base + TRAIN_MOVED] = 1.0 if state["train_moved"][s, t] else 0.0
    out_row[base + TRAIN_ARMED] = 1.0 if state["train_armed"][s, t] else 0.0


@njit(cache=True)
def _write_cargo(state, s: int, t: int, out_row, base: int) -> None:
    """Cargo of train (s, t): 13 entries per existing cargo slot (§4.1, §16.1)."""
    n_slots = 2 if state["train_large"][s, t] else 1
    for j in range(n_slots):
        code = np.int64(state["train_cargo"][s, t, j])
        column = CARGO_EMPTY_COLUMN if code == CARGO_EMPTY else code
        out_row[base + j * CARGO_COLUMNS + column] = 1.0


@njit(cache=True)
def _observe_own_trains(state, p: int, out_row) -> None:
    """p's trains: flags, position and came_from one-hot, cargo (§16.4 own_trains)."""
    for t in range(MAX_TRAINS):
        if not state["train_exists"][p, t]:
            continue
        base = _OWN_TRAINS + t * OWN_TRAIN_COLUMNS
        _write_train_flags(state, p, t, out_row, base)
        out_row[base + OWN_TRAIN_POSITION + np.int64(state["train_pos"][p, t])] = 1.0
        came_from = np.int64(state["train_from"][p, t])
        if came_from != FREE:
            out_row[base + OWN_TRAIN_CAME_FROM + came_from] = 1.0
        _write_cargo(state, p, t, out_row, base + OWN_TRAIN_CARGO)


@njit(cache=True)
def _bound_cards(state, s: int, t: int) -> int:
    """Personal cards held by seat s bound to its train t (a public count, §16.1)."""
    count = 0
    for k in range(N_CARDS):
        if state["card_holder"][k] == s and state["card_bound"][k] == t:
            count += 1
    return count


@njit(cache=True)
def _observe_other_trains(state, p: int, out_row) -> None:
    """Other seats' trains: flags, bound card counts, cargo, scalar position and direction (§16.4)."""
    n = np.int64(state["num_players"])
    for s in range(n):
        if s == p:
            continue
        row = seat_offset(state, s, p) - 1
        for t in range(MAX_TRAINS):
            if not state["train_exists"][s, t]:
                continue
            base = _OTHER_TRAINS + (row * MAX_TRAINS + t) * OTHER_TRAIN_COLUMNS
            _write_train_flags(state, s, t, out_row, base)
            out_row[base + OTHER_TRAIN_BOUND_CARDS] = _bound_cards(state, s, t) / CARD_COUNT_SCALE
            _write_cargo(state, s, t, out_row, base + OTHER_TRAIN_CARGO)
            out_row[base + OTHER_TRAIN_POSITION] = state["train_pos"][s, t] / SPACE_SCALE
            came_from = np.int64(state["train_from"][s, t])
            if came_from == FREE:
                out_row[base + OTHER_TRAIN_FREE] = 1.0
            else:
                out_row[base + OTHER_TRAIN_CAME_FROM] = came_from / SPACE_SCALE


@njit(cache=True)
def _observe_own_pieces(state, p: int, out_row) -> None:
    """p's desperados by index, p's held personal cards and the trains its movement cards are bound to (§16.2)."""
    for k in range(MAX_DESPERADOS):
        x = np.int64(state["desp_pos"][p, k])
        if x != NO_SPACE:
            base = _OWN_DESPERADOS + k * _OWN_DESPERADO_WIDTH
            out_row[base] = 1.0
            out_row[base + 1 + x] = 1.0
    for k in range(N_CARDS):
        if state["card_holder"][k] == p:
            out_row[_OWN_CARDS + k] = 1.0
            bound = np.int64(state["card_bound"][k])
            if k < N_MOVE_CARDS and bound != NOBODY:
                out_row[_OWN_CARD_TRAINS + k * MAX_TRAINS + bound] = 1.0


@njit(cache=True)
def _observe_cards(state, out_row) -> None:
    """Competition slots with countdowns, deck size and never-drawn count (§13.4, §16.1)."""
    horizon = np.float32(state["expiry_rounds"]) * np.float32(state["num_players"])
    for i in range(N_COMPETITION_SLOTS):
        card = np.int64(state["comp_card"][i])
        if card == NO_CARD:
            continue
        base = _COMPETITIONS + i * COMPETITION_COLUMNS
        out_row[base + card] = 1.0
        if horizon > 0:
            out_row[base + COMPETITION_COUNTDOWN] = state["comp_countdown"][i] / horizon
    out_row[_DECK] = state["deck_size"] / np.float32(N_CARDS)
    out_row[_DECK + 1] = state["never_drawn"] / np.float32(N_CARDS)


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def observe_one(state, seat: int, out_row) -> None:
    """Write seat ``seat``'s observation of one record into ``out_row`` (§16.4).

    The row is fully overwritten. The record must be valid: indices are not
    bounds-checked.
    """
    out_row[:] = 0.0
    p = np.int64(seat)
    _observe_context(state, p, out_row)
    _observe_dice_and_game(state, out_row)
    _observe_seats(state, p, out_row)
    _observe_board(state, p, out_row)
    _observe_piece_planes(state, p, out_row)
    _observe_own_trains(state, p, out_row)
    _observe_other_trains(state, p, out_row)
    _observe_own_pieces(state, p, out_row)
    _observe_cards(state, out_row)


@njit(cache=True, parallel=True, **UNCOUNTED)  # no reference counting (core.borrowed)
def observe(states: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    """Write ``out[b]`` = seat ``seats[b]``'s observation of game ``b`` (§16.4)."""
    for b in prange(states.shape[0]):
        observe_one(states[b], seats[b], out[b])
