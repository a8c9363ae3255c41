"""The egocentric observation of one seat (spec §10, §11.6).

``observe(states, seats, out)`` writes, for every record ``b``, what seat
``seats[b]`` may know (§10.1 public facts and §10.2 its private facts, nothing
else) as one flat float32 row laid out by ``OBS``. Heuristics read the fields
by name (``OBS.get(row, "bandits")[:, BANDIT_PRESENT]``); networks read the row.
``OBS.decode(row)`` gives every field at its natural scale (counts as integers,
money in dollars, one-hots as indices, -1 for none), as the parts declared
with ``OBS`` say (``core.layout``).

Indices (§11.1, §11.6): seats are given by their offset ``(s - p) mod N`` from
the observer ``p`` (offset 0 is ``p``); bandits by their egocentric index
``((s - p) mod N) * BPS + slot`` (index 0 is ``p``'s own, first, bandit);
purse tokens by their absolute id 0..17, their holder egocentrically. Absent
seats, bandits, cars and pile positions are all-zero rows with a zero
"present" entry.

Fields (sizes as declared in ``OBS``)::

    players         5      player count one-hot (2..6)
    expert          1      expert rules
    round           5      round r one-hot (0..4)
    done            1      the game is over (ended by its rules; a truncated game is not)
    round_card      17     current round card one-hot
    round_revealed  17     multi-hot of the revealed cards (rounds 0..r)
    pattern         5x5    icons of the current card, one-hot none/N/T/S/R
    turn            5      current turn icon one-hot (PLAN decisions only)
    play_in_turn    2      first/second play of a speed-up turn (PLAN only)
    decision        12     pending decision type one-hot (DEC_NONE when done)
    car_type        7x7    per car: carriage type 0..5 or locomotive (6)
    car_present     7      cars 0..C
    marshal_car     7      marshal's car one-hot
    supply          3      neutral supply / 13, supply removed, second strongbox placed
    floor_loot      7x2x3  per (car, level): purses / 4, jewels / 3, strongboxes / 2
    bandits         6x35   per egocentric bandit, columns BANDIT_* below
    seats           6x7    per seat offset, columns SEAT_* below
    purses          18x29  per purse id: where (22 one-hot, PURSE_WHERE_*), value (7 one-hot,
                           $250..$500 or unknown)
    own_hand        13     p's hand, count per card code 0..11 / 2 and bullet cards / 6
    own_deck        13     composition of p's draw deck (never its order), same scaling
    own_discard     13     p's discard pile, same scaling
    pile            24x23  per pile position, columns PILE_* below
    pending_bandit  6      acting bandit of the Stealin'/event decision (egocentric)
    pending_victim  6      chosen Punch victim (PUNCH_LOOT, PUNCH_DEST)
    ghost           1      p may play this card face down with Ghost's ability (§7)

Scaling: money in thousands of dollars, counts divided by a typical maximum
so that values lie roughly in [0, 1] (they may exceed 1 in rare games).

Decisions where the spec is silent (or leaves the encoding open):

* The purse "where" one-hot has 22 entries, not 21: the box and "removed by
  Marshal's Revenge" are told apart (both are public, §10.3).
* A purse value is known to p when the token is a starting purse (id < B), when
  its bit is set in ``purse_known[p]`` (held by p's bandits at some time), or
  when the game is over and the token lies on a character card (§10.1, G35).
* ``turn`` and ``play_in_turn`` are encoded only during a PLAN decision, where
  they are meaningful; otherwise they are zero.
* The decision counter ``n_decisions`` is NOT observed: it grows with every
  DISCARD(k) step of a KEEP decision, so it would tell the other seats how many
  action cards a seat discarded, hence how many of its discarded cards were
  bullets (G33).
* During seat s's KEEP decision (``decision == DEC_KEEP``, ``current == s``,
  set-aside cards moved from ``hand[s]`` into ``keep_aside``) the other seats
  see s's hand size as ``hand + keep_aside`` and its discard size unchanged;
  s itself sees its set-aside cards in its discard (sizes and composition), as
  §11.3 prescribes.
* A pile card is visible to p when it was played face up, when p played it, or
  when Stealin' has reached it (it is resolved or being resolved, G22).
* ``ghost`` is 1 when the pending decision is p's PLAN in the first turn of the
  round and p's team contains Ghost (§7, §11.3): a card of Ghost's colour may
  then be played face down (which of p's cards qualify p reads in its hand).
* Nothing of the generator (``rng``), the scripted-chance queue, the round
  deck beyond the current round, the true values of unknown purses, other
  seats' hands, decks, discards or set-aside cards, or any deck order is read.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.borrowed import UNCOUNTED
from ..core.layout import Layout, count, flag, onehot
from .data import (BULLET_CARD, BULLETS_PER_BANDIT, DEC_KEEP, DEC_PLAN, GHOST, MAX_BANDITS,
                   MAX_CARS, MAX_PILE, MAX_PLAYERS, MAX_TURNS, MIN_PLAYERS, N_CARD_CODES,
                   N_CARD_KINDS_HELD, N_CARRIAGE_TYPES, N_CHARACTERS, N_DECISIONS, N_LEVELS,
                   N_LOCATIONS, N_NEUTRAL_BULLETS, N_PURSES, N_ROUND_CARDS, N_ROUNDS, PURSE_IN_BOX,
                   PURSE_ON_BANDIT, PURSE_REMOVED, RANSOM_VALUE, ROUND_CARD_TURNS)
from .state import NOBODY

# ---- scaling of counts and money (values roughly in [0, 1]) ------------------
MONEY_SCALE = 1000.0  # dollars per unit
PURSE_COUNT_SCALE = 4.0  # purses at one location or on one bandit
JEWEL_COUNT_SCALE = 3.0
STRONGBOX_COUNT_SCALE = 2.0
BULLETS_RECEIVED_SCALE = 13.0  # bullet cards received by one bandit
HAND_SIZE_SCALE = 10.0
PILE_SIZE_SCALE = 20.0  # draw deck and discard pile sizes
CODE_COUNT_SCALE = 2.0  # copies of one action card code
BULLET_COUNT_SCALE = 6.0  # bullet cards among one seat's cards

# ---- columns of the per-bandit rows -------------------------------------------
BANDIT_PRESENT = 0
BANDIT_OWN_TEAM = 1  # the bandit belongs to p
BANDIT_SEAT = 2  # + controlling seat offset, 6 entries
BANDIT_CHARACTER = BANDIT_SEAT + MAX_PLAYERS  # + character id, 6 entries
BANDIT_LOCATION = BANDIT_CHARACTER + N_CHARACTERS  # + car * 2 + level, 14 entries
BANDIT_BULLETS_LEFT = BANDIT_LOCATION + N_LOCATIONS  # / 6
BANDIT_BULLETS_RECEIVED = BANDIT_BULLETS_LEFT + 1  # / 13
BANDIT_PURSES = BANDIT_BULLETS_RECEIVED + 1  # purse tokens held / 4
BANDIT_JEWELS = BANDIT_PURSES + 1  # / 3
BANDIT_STRONGBOXES = BANDIT_JEWELS + 1  # / 2
BANDIT_RANSOM = BANDIT_STRONGBOXES + 1  # ransom money / 1000
BANDIT_KNOWN_PURSE_VALUE = BANDIT_RANSOM + 1  # sum of the purse values p knows / 1000
BANDIT_COLUMNS = BANDIT_KNOWN_PURSE_VALUE + 1  # 35

# ---- columns of the per-seat rows ---------------------------------------------
SEAT_PRESENT = 0
SEAT_FIRST_PLAYER = 1
SEAT_ACTING = 2
SEAT_HAND_SIZE = 3  # / 10
SEAT_DECK_SIZE = 4  # / 20
SEAT_DISCARD_SIZE = 5  # / 20
SEAT_KNOWN_BULLETS_ON_TOP = 6  # / 6
SEAT_COLUMNS = 7

# ---- columns of the per-purse rows --------------------------------------------
PURSE_WHERE_TRAIN = 0  # + location index car * 2 + level, 14 entries
PURSE_WHERE_BANDIT = N_LOCATIONS  # + egocentric bandit index, 6 entries
PURSE_WHERE_BOX = PURSE_WHERE_BANDIT + MAX_BANDITS
PURSE_WHERE_REMOVED = PURSE_WHERE_BOX + 1
PURSE_VALUE = PURSE_WHERE_REMOVED + 1  # + (value - 250) / 50, 6 entries
N_PURSE_VALUE_CLASSES = 6  # $250, $300, ..., $500
PURSE_VALUE_UNKNOWN = PURSE_VALUE + N_PURSE_VALUE_CLASSES
PURSE_COLUMNS = PURSE_VALUE_UNKNOWN + 1  # 29
PURSE_VALUE_BASE = 250
PURSE_VALUE_STEP = 50

# ---- columns of the per-pile-position rows ------------------------------------
PILE_PRESENT = 0
PILE_OWNER = 1  # + owner seat offset, 6 entries
PILE_FACE_DOWN = PILE_OWNER + MAX_PLAYERS
PILE_VISIBLE = PILE_FACE_DOWN + 1  # p may see the card's face
PILE_CARD = PILE_VISIBLE + 1  # + card code, 12 entries, zero when not visible
PILE_RESOLVED = PILE_CARD + N_CARD_CODES
PILE_RESOLVING = PILE_RESOLVED + 1
PILE_COLUMNS = PILE_RESOLVING + 1  # 23

N_TURN_ICONS = 5  # none, N, T, S, R

# natural scales of the fields (``OBS.decode``, ``core.layout`` docstring "Natural scales"); money in dollars
_BANDIT_PARTS = (
    flag("present"), flag("own_team"), onehot("seat", MAX_PLAYERS),  # seat: controlling seat offset
    onehot("character", N_CHARACTERS), onehot("location", N_LOCATIONS),  # location: car * 2 + level
    count("bullets_left", BULLETS_PER_BANDIT), count("bullets_received", BULLETS_RECEIVED_SCALE),
    count("purses", PURSE_COUNT_SCALE), count("jewels", JEWEL_COUNT_SCALE),
    count("strongboxes", STRONGBOX_COUNT_SCALE), count("ransom", MONEY_SCALE),  # ransom money, $
    count("known_purse_value", MONEY_SCALE),  # $
)
_SEAT_PARTS = (
    flag("present"), flag("first_player"), flag("acting"), count("hand_size", HAND_SIZE_SCALE),
    count("deck_size", PILE_SIZE_SCALE), count("discard_size", PILE_SIZE_SCALE),
    count("known_bullets_on_top", BULLET_COUNT_SCALE),
)
_PURSE_PARTS = (
    onehot("train_location", N_LOCATIONS),  # car * 2 + level of a token on the train, -1 elsewhere
    onehot("holder", MAX_BANDITS),  # egocentric bandit index of the holder, -1 for none
    flag("in_box"), flag("removed"),
    onehot("value_class", N_PURSE_VALUE_CLASSES),  # value = $250 + $50 * class, -1 when unknown
    flag("value_unknown"),
)
_PILE_PARTS = (
    flag("present"), onehot("owner", MAX_PLAYERS),  # owner: seat offset
    flag("face_down"), flag("visible"), onehot("card", N_CARD_CODES),  # card: code, -1 when not visible
    flag("resolved"), flag("resolving"),
)
_CARD_COUNT_PARTS = (count("action_cards", CODE_COUNT_SCALE, width=N_CARD_CODES),  # per card code 0..11
                     count("bullet_cards", BULLET_COUNT_SCALE))

OBS = Layout(
    ("players", MAX_PLAYERS - MIN_PLAYERS + 1, onehot("num_players", MAX_PLAYERS - MIN_PLAYERS + 1, first=MIN_PLAYERS)),
    ("expert", 1, flag("expert")),
    ("round", N_ROUNDS, onehot("round", N_ROUNDS)),
    ("done", 1, flag("done")),
    ("round_card", N_ROUND_CARDS, onehot("round_card", N_ROUND_CARDS)),
    ("round_revealed", N_ROUND_CARDS, flag("revealed")),
    ("pattern", (MAX_TURNS, N_TURN_ICONS), onehot("icon", N_TURN_ICONS)),  # TURN_NONE .. TURN_SWITCH
    ("turn", MAX_TURNS, onehot("turn", MAX_TURNS)),
    ("play_in_turn", 2, onehot("play_in_turn", 2)),
    ("decision", N_DECISIONS, onehot("decision", N_DECISIONS)),
    ("car_type", (MAX_CARS, N_CARRIAGE_TYPES + 1), onehot("car_type", N_CARRIAGE_TYPES + 1)),  # -1: no car
    ("car_present", MAX_CARS, flag("present")),
    ("marshal_car", MAX_CARS, onehot("car", MAX_CARS)),
    ("supply", 3, (count("neutral_bullets", N_NEUTRAL_BULLETS), flag("supply_removed"),
                   flag("second_strongbox_placed"))),
    ("floor_loot", (MAX_CARS, N_LEVELS, 3), (count("purses", PURSE_COUNT_SCALE), count("jewels", JEWEL_COUNT_SCALE),
                                             count("strongboxes", STRONGBOX_COUNT_SCALE))),
    ("bandits", (MAX_BANDITS, BANDIT_COLUMNS), _BANDIT_PARTS),
    ("seats", (MAX_PLAYERS, SEAT_COLUMNS), _SEAT_PARTS),
    ("purses", (N_PURSES, PURSE_COLUMNS), _PURSE_PARTS),
    ("own_hand", N_CARD_KINDS_HELD, _CARD_COUNT_PARTS),
    ("own_deck", N_CARD_KINDS_HELD, _CARD_COUNT_PARTS),
    ("own_discard", N_CARD_KINDS_HELD, _CARD_COUNT_PARTS),
    ("pile", (MAX_PILE, PILE_COLUMNS), _PILE_PARTS),
    ("pending_bandit", MAX_BANDITS, onehot("bandit", MAX_BANDITS)),  # egocentric bandit index
    ("pending_victim", MAX_BANDITS, onehot("bandit", MAX_BANDITS)),
    ("ghost", 1, flag("ghost")),
)
OBS_SIZE = OBS.size

# integer offsets frozen into the kernels
_PLAYERS = OBS.start("players")
_EXPERT = OBS.start("expert")
_ROUND = OBS.start("round")
_DONE = OBS.start("done")
_ROUND_CARD = OBS.start("round_card")
_ROUND_REVEALED = OBS.start("round_revealed")
_PATTERN = OBS.start("pattern")
_TURN = OBS.start("turn")
_PLAY_IN_TURN = OBS.start("play_in_turn")
_DECISION = OBS.start("decision")
_CAR_TYPE = OBS.start("car_type")
_CAR_PRESENT = OBS.start("car_present")
_MARSHAL_CAR = OBS.start("marshal_car")
_SUPPLY = OBS.start("supply")
_FLOOR = OBS.start("floor_loot")
_BANDITS = OBS.start("bandits")
_SEATS = OBS.start("seats")
_PURSES = OBS.start("purses")
_OWN_HAND = OBS.start("own_hand")
_OWN_DECK = OBS.start("own_deck")
_OWN_DISCARD = OBS.start("own_discard")
_PILE = OBS.start("pile")
_PENDING_BANDIT = OBS.start("pending_bandit")
_PENDING_VICTIM = OBS.start("pending_victim")
_GHOST = OBS.start("ghost")
_CAR_TYPE_WIDTH = N_CARRIAGE_TYPES + 1
_FLOOR_WIDTH = 3


@njit(cache=True)
def _seat_offset(state, seat: int, observer: int) -> int:
    """Seat offset ``(s - p) mod N`` of seat s seen by p (§11.6)."""
    n = np.int64(state["num_players"])
    return (np.int64(seat) - np.int64(observer) + n) % n


@njit(cache=True)
def _ego_bandit(state, bandit: int, observer: int) -> int:
    """Egocentric index ``((s - p) mod N) * BPS + slot`` of a bandit id (§11.1)."""
    bps = np.int64(state["bandits_per_seat"])
    b = np.int64(bandit)
    return _seat_offset(state, b // bps, observer) * bps + b % bps


@njit(cache=True)
def purse_value_known(state, purse: int, seat: int) -> bool:
    """Seat knows purse ``purse``'s value: a starting purse, one its bandits
    ever held, or one on a character card once the game is over (§10.3, G35)."""
    if purse < state["n_bandits"]:
        return True
    if (np.int64(state["purse_known"][seat]) >> np.int64(purse)) & 1:
        return True
    loc = np.int64(state["purse_location"][purse])
    return bool(state["done"]) and PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + MAX_BANDITS


@njit(cache=True)
def pile_revealed(state, index: int) -> bool:
    """Stealin' has reached pile card ``index``: it is turned face up (§4.5, G22)."""
    resolving = np.int64(state["resolving"])
    return resolving != NOBODY and index <= resolving


@njit(cache=True)
def _in_keep(state, seat: int) -> bool:
    """Seat is in the middle of its expert KEEP decision (§4.4, §11.3)."""
    return state["decision"] == DEC_KEEP and state["current"] == seat


@njit(cache=True)
def _observe_game(state, out_row) -> None:
    """Game slices: options, round, round cards, pattern, progress (§10.1)."""
    n = np.int64(state["num_players"])
    rnd = np.int64(state["round"])
    out_row[_PLAYERS + n - MIN_PLAYERS] = 1.0
    out_row[_EXPERT] = 1.0 if state["expert"] else 0.0
    out_row[_ROUND + rnd] = 1.0
    out_row[_DONE] = 1.0 if state["done"] else 0.0
    for r in range(rnd + 1):  # only the cards revealed so far (§10.4)
        out_row[_ROUND_REVEALED + np.int64(state["round_deck"][r])] = 1.0
    card = np.int64(state["round_deck"][rnd])
    out_row[_ROUND_CARD + card] = 1.0
    for t in range(MAX_TURNS):
        out_row[_PATTERN + t * N_TURN_ICONS + np.int64(ROUND_CARD_TURNS[card, t])] = 1.0
    decision = np.int64(state["decision"])
    out_row[_DECISION + decision] = 1.0
    if decision == DEC_PLAN:
        out_row[_TURN + np.int64(state["turn"])] = 1.0
        out_row[_PLAY_IN_TURN + np.int64(state["play_in_turn"])] = 1.0


@njit(cache=True)
def _observe_train(state, out_row) -> None:
    """Train slices: cars, marshal, neutral supply, loot on the floor (§10.1)."""
    n_cars = np.int64(state["n_carriages"]) + 1
    for c in range(n_cars):
        out_row[_CAR_TYPE + c * _CAR_TYPE_WIDTH + np.int64(state["car_type"][c])] = 1.0
        out_row[_CAR_PRESENT + c] = 1.0
    out_row[_MARSHAL_CAR + np.int64(state["marshal_car"])] = 1.0
    out_row[_SUPPLY] = np.float32(state["neutral_supply"]) / N_NEUTRAL_BULLETS
    out_row[_SUPPLY + 1] = 1.0 if state["supply_removed"] else 0.0
    out_row[_SUPPLY + 2] = 1.0 if state["second_strongbox_placed"] else 0.0
    for loc in range(2 * n_cars):
        out_row[_FLOOR + loc * _FLOOR_WIDTH + 1] = state["floor_jewels"][loc] / JEWEL_COUNT_SCALE
        out_row[_FLOOR + loc * _FLOOR_WIDTH + 2] = state["floor_strongboxes"][loc] / STRONGBOX_COUNT_SCALE
    for i in range(N_PURSES):
        loc = np.int64(state["purse_location"][i])
        if loc < N_LOCATIONS:
            out_row[_FLOOR + loc * _FLOOR_WIDTH] += 1.0 / PURSE_COUNT_SCALE


@njit(cache=True)
def _observe_bandits(state, p: int, out_row) -> None:
    """Per-bandit rows: identity, place, bullets, loot (§10.1; known values §10.3)."""
    n_bandits = np.int64(state["n_bandits"])
    bps = np.int64(state["bandits_per_seat"])
    for b in range(n_bandits):
        base = _BANDITS + _ego_bandit(state, b, p) * BANDIT_COLUMNS
        seat = b // bps
        out_row[base + BANDIT_PRESENT] = 1.0
        out_row[base + BANDIT_OWN_TEAM] = 1.0 if seat == p else 0.0
        out_row[base + BANDIT_SEAT + _seat_offset(state, seat, p)] = 1.0
        out_row[base + BANDIT_CHARACTER + np.int64(state["character"][b])] = 1.0
        loc = np.int64(state["bandit_car"][b]) * N_LEVELS + np.int64(state["bandit_level"][b])
        out_row[base + BANDIT_LOCATION + loc] = 1.0
        out_row[base + BANDIT_BULLETS_LEFT] = state["bullets_left"][b] / np.float32(BULLETS_PER_BANDIT)
        out_row[base + BANDIT_BULLETS_RECEIVED] = state["bullets_received"][b] / BULLETS_RECEIVED_SCALE
        out_row[base + BANDIT_JEWELS] = state["jewels_held"][b] / JEWEL_COUNT_SCALE
        out_row[base + BANDIT_STRONGBOXES] = state["strongboxes_held"][b] / STRONGBOX_COUNT_SCALE
        out_row[base + BANDIT_RANSOM] = np.float32(state["ransoms"][b]) * RANSOM_VALUE / MONEY_SCALE
    for i in range(N_PURSES):
        loc = np.int64(state["purse_location"][i])
        if PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + MAX_BANDITS:
            base = _BANDITS + _ego_bandit(state, loc - PURSE_ON_BANDIT, p) * BANDIT_COLUMNS
            out_row[base + BANDIT_PURSES] += 1.0 / PURSE_COUNT_SCALE
            if purse_value_known(state, i, p):
                out_row[base + BANDIT_KNOWN_PURSE_VALUE] += state["purse_value"][i] / MONEY_SCALE


@njit(cache=True, inline="always")  # tiny, called with several types
def _sum_counts(counts) -> int:
    """Total of a count-per-card-code row."""
    total = 0
    for k in range(N_CARD_KINDS_HELD):
        total += np.int64(counts[k])
    return total


@njit(cache=True)
def _observe_seats(state, p: int, out_row) -> None:
    """Per-seat rows: turn order and card pile sizes; KEEP shows old sizes to others (§10.1, §11.3)."""
    n = np.int64(state["num_players"])
    aside = _sum_counts(state["keep_aside"])
    for s in range(n):
        base = _SEATS + _seat_offset(state, s, p) * SEAT_COLUMNS
        hand = _sum_counts(state["hand"][s])
        discard = _sum_counts(state["discard"][s])
        if _in_keep(state, s):
            if s == p:
                discard += aside
            else:
                hand += aside
        out_row[base + SEAT_PRESENT] = 1.0
        out_row[base + SEAT_FIRST_PLAYER] = 1.0 if s == state["first_player"] else 0.0
        out_row[base + SEAT_ACTING] = 1.0 if s == state["current"] else 0.0
        out_row[base + SEAT_HAND_SIZE] = hand / HAND_SIZE_SCALE
        out_row[base + SEAT_DECK_SIZE] = state["deck_size"][s] / PILE_SIZE_SCALE
        out_row[base + SEAT_DISCARD_SIZE] = discard / PILE_SIZE_SCALE
        out_row[base + SEAT_KNOWN_BULLETS_ON_TOP] = state["known_bullets_on_top"][s] / BULLET_COUNT_SCALE


@njit(cache=True)
def _observe_purses(state, p: int, out_row) -> None:
    """Per-purse rows: public location, value only when known to p (§10.3)."""
    for i in range(N_PURSES):
        base = _PURSES + i * PURSE_COLUMNS
        loc = np.int64(state["purse_location"][i])
        if loc < N_LOCATIONS:
            out_row[base + PURSE_WHERE_TRAIN + loc] = 1.0
        elif loc < PURSE_ON_BANDIT + MAX_BANDITS:
            out_row[base + PURSE_WHERE_BANDIT + _ego_bandit(state, loc - PURSE_ON_BANDIT, p)] = 1.0
        elif loc == PURSE_IN_BOX:
            out_row[base + PURSE_WHERE_BOX] = 1.0
        elif loc == PURSE_REMOVED:
            out_row[base + PURSE_WHERE_REMOVED] = 1.0
        if purse_value_known(state, i, p):
            cls = (np.int64(state["purse_value"][i]) - PURSE_VALUE_BASE) // PURSE_VALUE_STEP
            out_row[base + PURSE_VALUE + cls] = 1.0
        else:
            out_row[base + PURSE_VALUE_UNKNOWN] = 1.0


@njit(cache=True, inline="always")  # tiny, called with several types
def _write_counts(out_row, start: int, code: int, count: float) -> None:
    """Add ``count`` cards of ``code`` to a composition slice, scaled per code."""
    scale = BULLET_COUNT_SCALE if code == BULLET_CARD else CODE_COUNT_SCALE
    out_row[start + code] += count / scale


@njit(cache=True)
def _observe_own_cards(state, p: int, out_row) -> None:
    """p's hand, deck composition (no order, §10.4) and discard; set-aside cards count as discarded (§11.3)."""
    in_keep = _in_keep(state, p)
    for k in range(N_CARD_KINDS_HELD):
        _write_counts(out_row, _OWN_HAND, k, np.float32(state["hand"][p, k]))
        discard = np.int64(state["discard"][p, k])
        if in_keep:
            discard += np.int64(state["keep_aside"][k])
        _write_counts(out_row, _OWN_DISCARD, k, np.float32(discard))
    for j in range(np.int64(state["deck_size"][p])):
        _write_counts(out_row, _OWN_DECK, np.int64(state["deck"][p, j]), 1.0)


@njit(cache=True)
def _observe_pile(state, p: int, out_row) -> None:
    """Per pile card: owner, face if face up, own or revealed; progress of Stealin' (§4.5, §10.1)."""
    resolving = np.int64(state["resolving"])
    for i in range(np.int64(state["pile_size"])):
        base = _PILE + i * PILE_COLUMNS
        owner = np.int64(state["pile_owner"][i])
        down = bool(state["pile_down"][i])
        out_row[base + PILE_PRESENT] = 1.0
        out_row[base + PILE_OWNER + _seat_offset(state, owner, p)] = 1.0
        out_row[base + PILE_FACE_DOWN] = 1.0 if down else 0.0
        if (not down) or owner == p or pile_revealed(state, i):
            out_row[base + PILE_VISIBLE] = 1.0
            out_row[base + PILE_CARD + np.int64(state["pile_card"][i])] = 1.0
        if resolving != NOBODY:
            out_row[base + PILE_RESOLVED] = 1.0 if i < resolving else 0.0
            out_row[base + PILE_RESOLVING] = 1.0 if i == resolving else 0.0


@njit(cache=True)
def _team_has_ghost(state, p: int) -> bool:
    """One of p's bandits is Ghost (§7)."""
    bps = np.int64(state["bandits_per_seat"])
    for k in range(bps):
        if state["character"][p * bps + k] == GHOST:
            return True
    return False


@njit(cache=True)
def _observe_pending(state, p: int, out_row) -> None:
    """Acting bandit and Punch victim of the pending decision; Ghost's option (§7, §11.6)."""
    if state["acting_bandit"] != NOBODY:
        out_row[_PENDING_BANDIT + _ego_bandit(state, np.int64(state["acting_bandit"]), p)] = 1.0
    if state["victim"] != NOBODY:
        out_row[_PENDING_VICTIM + _ego_bandit(state, np.int64(state["victim"]), p)] = 1.0
    if (state["decision"] == DEC_PLAN and state["current"] == p and state["turn"] == 0
            and state["play_in_turn"] == 0 and _team_has_ghost(state, p)):
        out_row[_GHOST] = 1.0


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def observe_one(state, seat: int, out_row) -> None:
    """Write seat ``seat``'s observation of one record into ``out_row`` (§10, §11.6).

    The row is fully overwritten. The record must be valid (see
    ``invariants.validate_state``): indices are not bounds-checked.
    """
    out_row[:] = 0.0
    p = np.int64(seat)
    _observe_game(state, out_row)
    _observe_train(state, out_row)
    _observe_bandits(state, p, out_row)
    _observe_seats(state, p, out_row)
    _observe_purses(state, p, out_row)
    _observe_own_cards(state, p, out_row)
    _observe_pile(state, p, out_row)
    _observe_pending(state, p, out_row)


@njit(cache=True, parallel=True, **UNCOUNTED)  # no reference counting (core.borrowed)
def observe(states: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    """Write ``out[b]`` = seat ``seats[b]``'s observation of game ``b`` (§11.6)."""
    for b in prange(states.shape[0]):
        observe_one(states[b], seats[b], out[b])
