"""Colt Express positions in the game's own terms: build a record, edit it, play on (issue 19).

A *position* is a batch of one record (shape ``(1,)``) that ``GAME.step`` accepts.
``position`` builds one from the game's own ``init`` (the options as ``env()``
takes them): it moves the round, the bandits, the loot, the bullets and the
cards to what the terms say, keeping every book consistent, and stands the
record at the decision asked for; for ``decision="stealin"`` it ends Schemin'
itself and lets the engine carry the pile out up to the first decision.
``place`` edits an existing position the same way; ``play`` steps on through
legal moves; ``terms_of`` reads a record back into terms::

    from wildwest_envs.colt_express.positions import place, play, position
    from wildwest_envs.colt_express_v0 import GAME

    states = position(4, seed=7, characters=["Ghost", "Doc", "Cheyenne", "Tuco"],
                      decision="stealin", round_card="Bridge",          # Schemin' is over, N S N
                      bandits={"Ghost": (2, "roof"), "Doc": (3, "roof"), 2: (1, "roof"), 3: 1},
                      marshal=4, train_loot=(4, "in"),                   # the carriages' loot out of the way
                      purses={9: (2, "roof")}, purse_values={9: 450},   # purse 9 ($450) lies on roof 2
                      pile=[(0, "Fire"), (1, "Move"), (0, "Rob")])      # seat 0's Fire resolves first
    play(states, "shoot Doc")             # actions by id or by name (GAME.action_to_string)
    place(states, bullets_left={"Doc": 5}, bullets_received={"Ghost": 1})  # edit: Doc has shot Ghost
    GAME.position(num_players=4, seed=7)  # the same builder through the Game API (validated)

Terms (seats are absolute, ``0..N-1``; a *bandit* is a bandit id ``0..B-1`` (the
seat, with 3-6 players) or a character name; a *car* is ``0..C`` (0 the
locomotive, also ``"locomotive"``); a *location* is always a pair
``(car, level)``, level ``"in"`` or ``"roof"``; a *card* is a card code ``0..12``
or a name: ``"Fire"``, ``"Fire of Tuco"`` (2 players), ``"bullet"``)::

    decision         "schemin" (PLAN, default), "bullets" (BULLETS), "keep" (KEEP) or "stealin" (the end of
                     Schemin': the record stands at the first decision the pile asks, or later, §4.5)
    turn             the seat to decide (PLAN, BULLETS, KEEP); icon: the index 0.. of the round card's turn icon
                     (PLAN, default 0); second_play: the second play of a speed-up turn (§2.7)
    round            0..4 (§0.2); round_card: its card, an id 0..16 or a name; first_player: its first player
    bandits          {bandit: (car, level) or car}        where the bandits stand (a bare car: inside)
    marshal          car                                  the marshal (always inside, §2.5)
    train_loot       "setup" (default) or a location      the loot lying on the train: as dealt, or all there
    purses           {purse id: bandit or location}       where those purse tokens are (§10.3)
    purse_values     {purse id: dollars}                  their true values (§2.2)
    jewels           {bandit or location: count}          every holder of jewels (the others hold none)
    strongboxes      {bandit or location: count}          every holder of strongboxes (1, or 2 after Take It All)
    ransoms          {bandit: count}                      $250 ransoms (§8.8)
    known            {seat: [purse ids]}                  purse values a seat knows besides those it holds (§10.3)
    bullets_left     {bandit: 0..6}                       bullet cards left in the bandit's stack (§2.4)
    bullets_received {bandit: count}                      bullet cards the bandit has received (§6.7, §9.4)
    supply_removed   True: the neutral supply has left the game (§5.3)
    hands            {seat: [cards] or {card: count}}     cards in hand
    decks            {seat: [cards]}                      the draw deck, TOP FIRST (the first card is drawn first)
    discards         {seat: [cards] or {card: count}}     the expert discard pile (§3.4)
    known_bullets    {seat: count}                        expert: known bullet cards on top of the deck (§10.1)
    pile             [(seat, card) or (seat, card, face_down)]   the pile, first played first (§4.3)

Books kept: a bandit's purses are known to his seat (§10.3); the neutral
supply is what the shots leave over (bullets received = shots fired + neutral
bullets handed out, §5.3); a bullet card received is a card of the bandit's
seat, which a term places or which goes on top of its draw deck (in view of
everybody with the expert rules: a known bullet card, §6.7, G34); every card
of a seat is in exactly one of its hand, draw deck, discard pile and the pile
(§2.4, §3.3, §4.5); the jewels and strongboxes add up to those of the train,
and two strongboxes mean the second one has been placed (§2.1, §8.4); the
starting purses are worth $250 and the 18 values stay those of §2.2. An unknown
term or option, a value out of range or against these rules raises
``ValueError`` (``TypeError`` for a term of the wrong type) naming the term;
every built or edited record is checked with ``GAME.validate``.

Decisions where the spec is silent (what a built position holds):

* The round: ``round_card`` is put at the round's place in the round deck,
  swapped with the round that held it (the cards after the current round stay
  the seed's otherwise); a name stands for the card of the player-count group
  (§2.6), the station card in round 4. The first player is the one play
  reaches, the seed's (or ``start_player``'s) moved on one seat a round (§4.7),
  unless ``first_player`` says otherwise.
* A Schemin' position is ``turn``'s play at icon ``icon``: the seats before
  him in this turn's order (§2.7) have played. The pile must be a sequence
  of the plays made so far, each seat's cards in its plays, face down exactly
  in tunnel turns and, at will, for Ghost's cards in the first turn (§4.3,
  §7); plays missing from the pile were draws. A BULLETS position asks
  ``turn`` (default: the first seat from the first player that has received a
  bullet card, §4.2 step 3), a KEEP position ``turn`` with nothing set aside
  yet (default: the first seat with a non-empty hand, §4.4); the seats before
  him have answered (a seat past its KEEP choice holds no bullet card). Their pile is
  empty (BULLETS) or the whole Schemin' (KEEP). The builder does not check
  that a round's hands and draws add up (seats draw freely): a hand is any
  part of the seat's cards; a BULLETS question in round 0 is allowed, though
  play never asks it (nobody has been hit yet).
* A Stealin' position is the end of Schemin': with the standard rules every
  hand is empty (the cards of a hand the terms do not name go on top of the
  deck in card-code order, as §4.4 returns them), with the expert rules every
  seat has made its KEEP choice (the bullet cards of a hand the terms do not
  name go to the discard pile, §4.4). The engine's own flow then turns the
  pile over (``rules._advance`` from the start of Stealin', the very code
  ``step`` runs after the last play or KEEP): cards without a decision, forced
  decisions with ``auto_forced`` and, when nothing is asked, the event and the
  next round's start are carried out, so the record stands at the first
  decision they pose (or the game is over). Later decisions of the pile are
  reached by ``play``.
* Loot: ``train_loot`` moves every token lying on the train to one location
  before the other terms apply (the bandits keep theirs), so a rule test keeps
  the printed loot out of its way. Purse tokens move one by one; only the
  tokens in play can (ids below B plus the carriages' purses, §10.3: the rest
  stay in the box). A value given to a purse is taken from the purse that has
  it, which gets the value given up (a box purse when one can, so the purses
  in play keep theirs). ``jewels`` and ``strongboxes`` list every holder.
  Knowledge of purse values is never lost (``place`` keeps it, §10.3).
* Bullets: who shot whom is not recorded, only the totals must agree; with
  ``supply_removed`` the supply is 0 and 14 - B .. 13 neutral bullets have
  been handed out (the invariant of ``invariants.py``).
* Cards: the terms name a seat's places exactly; the seat's cards they do not
  place stay where they are as far as they can (the draw deck keeps its cards
  first, so a card the pile or another place takes leaves the hand before the
  deck, and the top copies of the deck before the bottom ones) and the rest
  goes on top of the draw deck in card-code order (bullet cards last), or, when
  ``decks`` names it, into the hand, then the discard pile. A seat whose
  places are all named must have exactly its cards there. Expert known bullet
  cards on top: ``known_bullets``, or the record's count plus the bullet cards
  put on top, never more than the bullet cards lying on top.
* ``n_decisions`` is 0: the decision cap counts from the built position. The
  generator is the one ``init(seed)`` leaves after setup (§3.5), so the next
  shuffles are the seed's. With ``auto_forced=True`` a PLAN, BULLETS or KEEP
  is asked even with a single legal action, as in play (§11.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np

from ..core import positions as core_positions
from ..core.positions import flag as _flag, mapping as _mapping, sequence as _sequence
from ..core.options import is_integer
from .data import (BULLET_CARD, BULLETS_PER_BANDIT, CARD_COPIES, CARRIAGE_JEWELS, CARRIAGE_PURSES,
                   CHARACTER_NAMES, DEC_BULLETS, DEC_FIRE_TARGET, DEC_KEEP, DEC_MARSHAL_DEST, DEC_MOVE_DEST,
                   DEC_NONE, DEC_PLAN, DEC_PUNCH_TARGET, DEC_ROB_LOOT, DECISION_NAMES, GHOST, IN, KIND_NAMES,
                   LARGE_GROUP_CARDS, MARSHAL, MAX_DECK, MAX_PILE, N_CARD_CODES, N_CARD_KINDS_HELD, N_KINDS,
                   N_LEVELS, N_LOCATIONS, N_NEUTRAL_BULLETS, N_PURSES, N_ROUNDS, N_STRONGBOXES, PURSE_IN_BOX,
                   PURSE_ON_BANDIT, PURSE_VALUES, ROOF, ROUND_CARD_NAMES, ROUND_CARD_TURNS,
                   SMALL_GROUP_CARDS, STATION_CARDS, TURN_NONE, TURN_SPEEDUP, TURN_SWITCH, TURN_TUNNEL)
from .state import NOBODY

DECISIONS = ("schemin", "bullets", "keep", "stealin")  # decisions a position is built at (module docstring)
DECISION_CODES = {"schemin": DEC_PLAN, "bullets": DEC_BULLETS, "keep": DEC_KEEP}
LEVELS = {"in": IN, "roof": ROOF}  # §0.2
STEALIN_FIRST_DECISIONS = (DEC_MOVE_DEST, DEC_FIRE_TARGET, DEC_ROB_LOOT, DEC_PUNCH_TARGET, DEC_MARSHAL_DEST)
TURN_TERMS = ("decision", "turn", "icon", "second_play", "round", "round_card", "first_player")
BOARD_TERMS = ("bandits", "marshal", "train_loot", "purses", "purse_values", "jewels", "strongboxes", "ransoms",
               "known", "bullets_left", "bullets_received", "supply_removed")
CARD_TERMS = ("hands", "decks", "discards", "known_bullets", "pile")


# ---- building a position -------------------------------------------------------------------------------------------
def position(num_players: int = 3, seed: int = 0, *, decision="schemin", turn=None, icon=None, second_play=False,
             round=None, round_card=None, first_player=None, bandits=None, marshal=None, train_loot="setup",
             purses=None, purse_values=None, jewels=None, strongboxes=None, ransoms=None, known=None,
             bullets_left=None, bullets_received=None, supply_removed=None, hands=None, decks=None, discards=None,
             known_bullets=None, pile=None, **options) -> np.ndarray:
    """A position (a batch of one record) at ``decision``, with the round, board and cards the terms give.

    ``seed`` is the record's generator state (as ``GAME.init(seed)`` takes it); ``options`` are the game's
    options (``expert``, ``characters``, ``carriages``, ``auto_forced``, ``max_decisions``, ``start_player``).
    The terms, the decisions taken where the spec is silent and the errors are in the module docstrings (this
    one's and ``core.positions``').
    """
    from .game import GAME

    core_positions.check_start(GAME, "Colt Express", seed, options, TURN_TERMS + BOARD_TERMS + CARD_TERMS)
    stage = decision_key(decision)
    opts = GAME.parse_options(num_players=num_players, **options)
    states = GAME.init(seed, **opts)
    s = states[0]
    if stage in ("bullets", "keep") and not s["expert"]:
        raise ValueError(f"decision {decision!r}: {stage.upper()} is a decision of the expert rules (§3.4, §4.2, "
                         f"§4.4); give expert=True")
    _set_round(s, round, round_card, first_player, opts["start_player"])
    if train_loot != "setup":
        _gather_train_loot(s, _location(s, train_loot, "train_loot"))
    _apply_board(s, bandits=bandits, marshal=marshal, purses=purses, purse_values=purse_values, jewels=jewels,
                 strongboxes=strongboxes, ransoms=ransoms, known=known, bullets_left=bullets_left,
                 bullets_received=bullets_received, supply_removed=supply_removed)
    plays = _set_stage(s, stage, turn, icon, second_play)
    _set_pile(s, stage, pile, plays)
    _apply_cards(s, _card_rules(s, stage), hands=hands, decks=decks, discards=discards, known_bullets=known_bullets)
    _set_asked_seat(s, stage, turn)
    if stage == "stealin":
        _start_stealin(s)
    s["n_decisions"] = 0
    GAME.validate(states)
    return states


def place(states: np.ndarray, *, bandits=None, marshal=None, purses=None, purse_values=None, jewels=None,
          strongboxes=None, ransoms=None, known=None, bullets_left=None, bullets_received=None, supply_removed=None,
          hands=None, decks=None, discards=None, known_bullets=None) -> np.ndarray:
    """Edit the position ``states`` (a batch of one) in place: only what the terms name changes.

    ``bandits={"Belle": (2, "roof")}`` moves Belle, ``purses={9: "Belle"}`` gives her purse 9,
    ``hands={1: ["Move", "Fire"]}`` sets seat 1's hand (its other cards go where the module docstring says);
    ``jewels`` and ``strongboxes`` replace every holder. The decision, the round and the pile stay. Books are
    kept as ``position`` keeps them. The edited copy is validated before it is written back, so on any error
    ``states`` is unchanged. Returns ``states``.

    Raises:
        ValueError: an impossible value, or an edit that leaves no valid game state (e.g. a pending decision
            without a legal action); TypeError: a term of the wrong type or ``states`` not a batch of one.
    """
    from .game import GAME

    _check_single(states)
    if states[0]["done"]:
        raise ValueError("place: the game is over; build a new position")
    work = states.copy()
    s = work[0]
    _apply_board(s, bandits=bandits, marshal=marshal, purses=purses, purse_values=purse_values, jewels=jewels,
                 strongboxes=strongboxes, ransoms=ransoms, known=known, bullets_left=bullets_left,
                 bullets_received=bullets_received, supply_removed=supply_removed)
    _apply_cards(s, _card_rules(s, None), hands=hands, decks=decks, discards=discards, known_bullets=known_bullets)
    GAME.validate(work)
    states[...] = work
    return states


def terms_of(states: np.ndarray) -> dict:
    """The decision, round, board and cards of the position ``states`` as terms of ``position``.

    ``position(N, seed, **terms_of(states))`` (with the options ``states`` was played with) rebuilds a position
    reached by play from ``seed``: a PLAN, a BULLETS question, a KEEP decision before anything is set aside, or
    the first decision of Stealin' (its first card's). Every purse value and place is given, so the values
    need not be the seed's.

    Raises:
        ValueError: a record at another decision (a later step of Stealin', an event decision, the end).
    """
    s = _check_single(states)[0]
    decision = int(s["decision"])
    n, n_bandits = int(s["num_players"]), int(s["n_bandits"])
    terms: dict = {}
    if decision == DEC_PLAN:
        terms.update(decision="schemin", turn=int(s["current"]), icon=int(s["turn"]),
                     second_play=bool(s["play_in_turn"]))
    elif decision == DEC_BULLETS:
        terms.update(decision="bullets", turn=int(s["current"]))
    elif decision == DEC_KEEP and not s["keep_aside"].any():
        terms.update(decision="keep", turn=int(s["current"]))
    elif decision in STEALIN_FIRST_DECISIONS and s["resolving"] == 0:
        terms.update(decision="stealin")
    else:
        where = f" (resolving pile card {int(s['resolving'])})" if s["resolving"] >= 0 else ""
        raise ValueError(f"terms_of: a {_decision_name(decision)} record{where} is not at a decision a position "
                         f"is built at; build the one before it and play")
    locations = _purse_holders(s)
    terms.update(
        round=int(s["round"]), round_card=int(s["round_deck"][s["round"]]), first_player=int(s["first_player"]),
        bandits={b: (int(s["bandit_car"][b]), _level_name(int(s["bandit_level"][b]))) for b in range(n_bandits)},
        marshal=int(s["marshal_car"]),
        purses={i: locations[i] for i in range(_dealt(s))},
        purse_values={i: int(s["purse_value"][i]) for i in range(n_bandits, N_PURSES)},
        jewels=_holders_of(s, "floor_jewels", "jewels_held"),
        strongboxes=_holders_of(s, "floor_strongboxes", "strongboxes_held"),
        ransoms={b: int(s["ransoms"][b]) for b in range(n_bandits)},
        known={p: [i for i in range(N_PURSES) if (int(s["purse_known"][p]) >> i) & 1] for p in range(n)},
        bullets_left={b: int(s["bullets_left"][b]) for b in range(n_bandits)},
        bullets_received={b: int(s["bullets_received"][b]) for b in range(n_bandits)},
        supply_removed=bool(s["supply_removed"]),
        hands={p: _codes(s["hand"][p]) for p in range(n)},
        decks={p: [int(c) for c in s["deck"][p, :s["deck_size"][p]][::-1]] for p in range(n)},
        pile=[(int(s["pile_owner"][i]), int(s["pile_card"][i]), bool(s["pile_down"][i]))
              for i in range(int(s["pile_size"]))])
    if s["expert"]:
        terms.update(discards={p: _codes(s["discard"][p]) for p in range(n)},
                     known_bullets={p: int(s["known_bullets_on_top"][p]) for p in range(n)})
    return terms


def _purse_holders(s: np.void) -> dict:
    """Each purse id's place as a term: a bandit id, a location pair, or None (box, removed)."""
    out = {}
    for i in range(N_PURSES):
        loc = int(s["purse_location"][i])
        if loc < N_LOCATIONS:
            out[i] = (loc // N_LEVELS, _level_name(loc % N_LEVELS))
        elif loc < PURSE_IN_BOX:
            out[i] = loc - PURSE_ON_BANDIT
        else:
            out[i] = None
    return out


def _holders_of(s: np.void, floor: str, held: str) -> dict:
    """``{holder: count}`` of the jewels or strongboxes (every holder with some)."""
    out: dict = {}
    for loc in range(N_LOCATIONS):
        if s[floor][loc]:
            out[(loc // N_LEVELS, _level_name(loc % N_LEVELS))] = int(s[floor][loc])
    for b in range(int(s["n_bandits"])):
        if s[held][b]:
            out[b] = int(s[held][b])
    return out


def _codes(counts: np.ndarray) -> list[int]:
    """A count-per-code row as a sorted list of card codes."""
    return [code for code in range(N_CARD_KINDS_HELD) for _ in range(int(counts[code]))]


def _level_name(level: int) -> str:
    return "roof" if level == ROOF else "in"


# ---- playing on ----------------------------------------------------------------------------------------------------
legal_actions, play = core_positions.bound_to(f"{__package__}.game")  # (states), (states, *actions)


# ---- names in the game's terms -------------------------------------------------------------------------------------
def decision_key(decision) -> str:
    """The decision a position is built at (module docstring: ``decision``), as one of ``DECISIONS``."""
    if isinstance(decision, str):
        key = decision.strip().lower().rstrip("'")
        if key in DECISIONS:
            return key
        by_name = {DECISION_NAMES[code].lower(): name for name, code in DECISION_CODES.items()}
        if key in by_name:
            return by_name[key]
        if key.upper() in DECISION_NAMES:
            raise ValueError(f"decision {decision!r}: positions are built at {list(DECISIONS)}; reach "
                             f"{key.upper()} by play() from a 'stealin' position (or a later one)")
    elif is_integer(decision) and decision in DECISION_CODES.values():
        return next(name for name, code in DECISION_CODES.items() if code == decision)
    names = [DECISION_NAMES[code] for code in DECISION_CODES.values()]
    raise ValueError(f"decision must be one of {list(DECISIONS)} (or {names}), got {decision!r}")


def bandit_id(s: np.void, x, term: str) -> int:
    """Bandit ``x`` (an id 0..B-1, the seat with 3-6 players, or the name of a character in the game) as an id."""
    n_bandits = int(s["n_bandits"])
    if is_integer(x) and 0 <= x < n_bandits:
        return int(x)
    if isinstance(x, str):
        names = [CHARACTER_NAMES[int(c)].lower() for c in s["character"][:n_bandits]]
        if x.strip().lower() in names:
            return names.index(x.strip().lower())
    playing = [CHARACTER_NAMES[int(c)] for c in s["character"][:n_bandits]]
    raise ValueError(f"{term}: unknown bandit {x!r}; bandits are ids 0..{n_bandits - 1} or the characters in "
                     f"the game {playing}")


def car_id(s: np.void, x, term: str) -> int:
    """Car ``x`` (0..C, 0 the locomotive, or ``"locomotive"``) as an index."""
    last = int(s["n_carriages"])
    if isinstance(x, str) and x.strip().lower() == "locomotive":
        return 0
    if is_integer(x) and 0 <= x <= last:
        return int(x)
    raise ValueError(f"{term}: unknown car {x!r}; cars are 0..{last} (0 the locomotive, §0.2)")


def level_id(x, term: str) -> int:
    """Level ``x`` (``"in"``, ``"roof"``, or ``IN``/``ROOF``) as ``IN`` or ``ROOF``."""
    if isinstance(x, str) and x.strip().lower() in LEVELS:
        return LEVELS[x.strip().lower()]
    if is_integer(x) and x in (IN, ROOF):
        return int(x)
    raise ValueError(f"{term}: unknown level {x!r}; levels are 'in' and 'roof' (§0.2)")


def _location(s: np.void, x, term: str) -> int:
    """A location pair ``(car, level)`` as a location index ``car * 2 + level``."""
    if isinstance(x, (str, bytes, Mapping)) or not hasattr(x, "__len__") or len(x) != 2:
        raise TypeError(f"{term}: a location is a pair (car, level), e.g. (2, 'roof'), got {x!r}")
    return car_id(s, x[0], term) * N_LEVELS + level_id(x[1], term)


def _holder(s: np.void, x, term: str) -> tuple[str, int]:
    """A loot holder: ``("bandit", id)`` for a bandit, ``("floor", location)`` for a location pair."""
    if isinstance(x, (tuple, list)):
        return "floor", _location(s, x, term)
    return "bandit", bandit_id(s, x, term)


def card_code(s: np.void, seat: int, card, term: str) -> int:
    """Card ``card`` of ``seat``: a code 0..12 it owns, or a name (``"Fire"``, ``"Fire of Tuco"``, ``"bullet"``)."""
    copies = _action_copies(s)
    if is_integer(card) and (card == BULLET_CARD or (0 <= card < N_CARD_CODES and copies[card])):
        return int(card)
    if isinstance(card, str):
        code = _named_card(s, seat, card.strip().lower())
        if code is not None:
            return code
    bps = int(s["bandits_per_seat"])
    example = "'Fire of " + CHARACTER_NAMES[int(s["character"][seat * bps])] + "'" if bps == 2 else "'Fire'"
    raise ValueError(f"{term}: unknown card {card!r} of seat {seat}; cards are the codes "
                     f"{[k for k in range(N_CARD_CODES) if copies[k]]} and {BULLET_CARD} (a bullet card), or names "
                     f"such as {example} or 'bullet' (§2.4, §11.1)")


def _named_card(s: np.void, seat: int, key: str) -> int | None:
    """The code of a card name (kind, kind of a character of the seat, or bullet), None if it is none."""
    if key in ("bullet", "bullet card"):
        return BULLET_CARD
    kinds = [name.lower() for name in KIND_NAMES]
    kind_name, _, who = key.partition(" of ")
    if kind_name not in kinds:
        return None
    kind = kinds.index(kind_name)
    bps = int(s["bandits_per_seat"])
    team = [CHARACTER_NAMES[int(s["character"][seat * bps + k])].lower() for k in range(bps)]
    if who and who.strip() not in team:
        return None
    if kind == MARSHAL:
        return MARSHAL  # one Marshal card a seat, code 5 (§3.3 step 4)
    if not who:
        return kind if bps == 1 else None
    return N_KINDS * team.index(who.strip()) + kind


def round_card_id(s: np.void, card, round_: int, term: str = "round_card") -> int:
    """Round card ``card`` (an id 0..16 or a name) for round ``round_``: of the player-count group, or a station
    card in round 4 (§2.6, §3.1 step 8)."""
    allowed = _round_cards_allowed(s, round_)
    if is_integer(card) and card in allowed:
        return int(card)
    if isinstance(card, str):
        for k in allowed:
            if ROUND_CARD_NAMES[k].lower() == card.strip().lower():
                return k
    raise ValueError(f"{term}: round {round_} takes one of the cards {allowed} "
                     f"({sorted({ROUND_CARD_NAMES[k] for k in allowed})}), got {card!r} (§2.6, §3.1 step 8)")


def _round_cards_allowed(s: np.void, round_: int) -> list[int]:
    if round_ == N_ROUNDS - 1:
        return [int(k) for k in STATION_CARDS]
    group = SMALL_GROUP_CARDS if s["num_players"] <= 4 else LARGE_GROUP_CARDS
    return [int(k) for k in group]


def _decision_name(code: int) -> str:
    return DECISION_NAMES[code] if 0 <= code < len(DECISION_NAMES) and code != DEC_NONE else "finished"


# ---- checking terms ------------------------------------------------------------------------------------------------
def _check_single(states: np.ndarray) -> np.ndarray:
    """``states`` must be a batch of one Colt Express record."""
    from .game import GAME

    return core_positions.check_position(GAME, states)


def _seat(s: np.void, p, term: str) -> int:
    """``p`` as a seat of the game, or a ``ValueError`` naming ``term``."""
    n = int(s["num_players"])
    if not is_integer(p) or not 0 <= p < n:
        raise ValueError(f"{term}: seat {p!r} is not a seat of this {n}-player game (0..{n - 1})")
    return int(p)


def _count(value, high: int, term: str) -> int:
    if not is_integer(value) or not 0 <= value <= high:
        raise ValueError(f"{term}: a count 0..{high}, got {value!r}")
    return int(value)





def _by_bandit(s: np.void, value, term: str) -> dict[int, object]:
    """``{bandit id: value}`` from a mapping by bandit (id or name) or a sequence of B values."""
    if isinstance(value, Mapping):
        out = {}
        for key, v in value.items():
            b = bandit_id(s, key, term)
            if b in out:
                raise ValueError(f"{term}: bandit {b} ({CHARACTER_NAMES[int(s['character'][b])]}) is named twice")
            out[b] = v
        return out
    values = _sequence(value, term)
    if len(values) != int(s["n_bandits"]):
        raise ValueError(f"{term} must give one value per bandit ({int(s['n_bandits'])}) or be a mapping "
                         f"{{bandit: value}}, got {len(values)}: {values!r}")
    return dict(enumerate(values))


def _by_seat(s: np.void, value, term: str, shape: str) -> dict[int, object]:
    return {_seat(s, p, term): v for p, v in _mapping(value, term, shape).items()}


# ---- the round and the decision ------------------------------------------------------------------------------------
def _set_round(s: np.void, round_, card, first, start_player) -> None:
    """Round ``round_`` with round card ``card`` and first player ``first`` (module docstring)."""
    n = int(s["num_players"])
    round_ = 0 if round_ is None else round_
    if not is_integer(round_) or not 0 <= round_ < N_ROUNDS:
        raise ValueError(f"round must be an integer 0..{N_ROUNDS - 1} (r = 0..4, the fifth round is r = 4, §0.2), "
                         f"got {round_!r}")
    s["round"] = round_
    if card is not None:
        k = round_card_id(s, card, round_)
        deck = [int(x) for x in s["round_deck"]]
        if k in deck:
            j = deck.index(k)
            deck[j] = deck[round_]
        deck[round_] = k
        s["round_deck"][:] = deck
    played = (int(s["first_player"]) + round_) % n  # the first player moves on one seat a round (§4.7)
    if first is not None:
        first = _seat(s, first, "first_player")
        if start_player is not None and first != played:
            raise ValueError(f"first_player: with start_player={start_player} round {round_}'s first player is "
                             f"seat {played} (§4.7); give one of the two")
        played = first
    s["first_player"] = played


def _icons(s: np.void) -> list[int]:
    """The turn icons of the current round card (§2.6)."""
    card = int(s["round_deck"][s["round"]])
    return [int(t) for t in ROUND_CARD_TURNS[card] if t != TURN_NONE]


def _play_slots(s: np.void) -> list[tuple[int, int, int, int]]:
    """Every play of the round's Schemin' in order: ``(icon index, turn position, play in turn, seat)`` (§2.7)."""
    n, first = int(s["num_players"]), int(s["first_player"])
    slots = []
    for t, icon in enumerate(_icons(s)):
        step = -1 if icon == TURN_SWITCH else 1
        for pos in range(n):
            for k in range(2 if icon == TURN_SPEEDUP else 1):
                slots.append((t, pos, k, (first + step * pos) % n))
    return slots


def _set_stage(s: np.void, stage: str, turn, icon, second_play) -> list:
    """The Schemin' progress fields of the decision; returns the plays made before it (§4.3, rules docstring)."""
    slots = _play_slots(s)
    if stage != "schemin":
        for name, value in (("icon", icon), ("second_play", second_play or None)):
            if value is not None:
                raise ValueError(f"{name}: only a 'schemin' position is inside a turn of Schemin' (§4.3)")
        if stage == "stealin" and turn is not None:
            raise ValueError("turn: a 'stealin' position's decisions belong to the owners of the pile cards "
                             "(§4.5 step 3); the engine poses them")
        last = len(_icons(s)) - 1
        s["turn"] = 0 if stage == "bullets" else last  # the fields' values at these decisions (rules docstring)
        s["turn_position"] = s["play_in_turn"] = 0
        return [] if stage == "bullets" else slots
    icons = _icons(s)
    t = 0 if icon is None else icon
    if not is_integer(t) or not 0 <= t < len(icons):
        raise ValueError(f"icon: the round card {ROUND_CARD_NAMES[int(s['round_deck'][s['round']])]} (id "
                         f"{int(s['round_deck'][s['round']])}) has turn icons 0..{len(icons) - 1}, got {icon!r}")
    second = _flag(second_play, "second_play")
    if second and icons[t] != TURN_SPEEDUP:
        raise ValueError(f"second_play: icon {t} is not a speed-up turn; only a speed-up turn has two plays (§2.7)")
    seat = int(s["first_player"]) if turn is None else _seat(s, turn, "turn")
    here = [i for i, (ti, _, k, q) in enumerate(slots) if ti == t and q == seat and k == int(second)]
    s["turn"], s["turn_position"], s["play_in_turn"] = t, slots[here[0]][1], int(second)
    s["decision"], s["current"] = DEC_PLAN, seat
    return slots[:here[0]]


def _set_asked_seat(s: np.void, stage: str, turn) -> None:
    """BULLETS and KEEP: the seat asked and the seats before it in the order of §4.2 step 3 / §4.4."""
    if stage not in ("bullets", "keep"):
        return
    n, first, bps = int(s["num_players"]), int(s["first_player"]), int(s["bandits_per_seat"])
    order = [(first + j) % n for j in range(n)]
    if stage == "bullets":
        asked = [q for q in order if s["bullets_received"][q * bps:(q + 1) * bps].sum() > 0]
        why = "has received a bullet card this game (§4.2 step 3, G33)"
    else:
        asked = [q for q in order if s["hand"][q].sum() > 0]
        why = "holds a card (§4.4: an empty hand is not asked)"
    if not asked:
        raise ValueError(f"decision '{stage}': no seat {why}, so {stage.upper()} is not asked")
    seat = asked[0] if turn is None else _seat(s, turn, "turn")
    if seat not in asked:
        raise ValueError(f"turn: {stage.upper()} goes to a seat that {why}; seat {seat} does not "
                         f"(asked: {asked})")
    s["cursor"] = order.index(seat)
    s["decision"], s["current"] = DEC_BULLETS if stage == "bullets" else DEC_KEEP, seat
    if stage == "keep":
        for q in order[:s["cursor"]]:
            if s["hand"][q, BULLET_CARD]:
                raise ValueError(f"hands: seat {q} has made its KEEP choice before seat {seat} (clockwise from the "
                                 f"first player {first}): its bullet cards are discarded (§4.4)")


def _start_stealin(s: np.void) -> None:
    """The end of Schemin': check the record, then let the engine's flow turn the pile over (§4.5)."""
    from .invariants import validate_state
    from .rules import _PH_CARD, _advance

    s["cursor"], s["resolving"] = 0, 0
    probe = np.zeros(1, dtype=s.dtype)  # a Stealin' decision stands in for "Stealin' starts" in the checks
    probe[0] = s
    probe[0]["decision"], probe[0]["current"] = DEC_MOVE_DEST, 0
    if probe[0]["pile_size"] == 0:
        probe[0]["resolving"] = NOBODY
    errors = validate_state(probe[0])
    if errors:
        raise ValueError(f"Colt Express position: the end of Schemin' is not a consistent game state: {errors[0]}")
    s["decision"] = DEC_NONE
    _advance(s, np.int64(_PH_CARD))


# ---- the pile (§4.3) -----------------------------------------------------------------------------------------------
def _set_pile(s: np.void, stage: str, pile, plays: list) -> None:
    """The pile cards in play order, each a play of its owner among ``plays`` (module docstring)."""
    if pile is None:
        pile = []
    entries = [_pile_entry(s, entry, i) for i, entry in enumerate(_sequence(pile, "pile"))]
    if entries and stage == "bullets":
        raise ValueError("pile: a BULLETS position comes before the first play of the round (§4.2 step 3)")
    if len(entries) > MAX_PILE:
        raise ValueError(f"pile: at most {MAX_PILE} cards (§2.6), got {len(entries)}")
    icons = _icons(s)
    j = 0
    for i, (owner, code, down) in enumerate(entries):
        while j < len(plays) and not _fits(s, plays[j], icons, owner, code, down):
            j += 1
        if j == len(plays):
            raise ValueError(f"pile: entry {i} (seat {owner}'s card {code}, face {'down' if down else 'up'}) is not a "
                             f"play of seat {owner} after the entries before it, among the plays so far (the order "
                             f"of §2.7 from the first player {int(s['first_player'])}; face down in a tunnel turn, "
                             f"or Ghost's card in the first turn, §4.3, §7)")
        j += 1
    s["pile_owner"][:] = NOBODY
    s["pile_card"][:] = NOBODY
    s["pile_down"][:] = 0
    for i, (owner, code, down) in enumerate(entries):
        s["pile_owner"][i], s["pile_card"][i], s["pile_down"][i] = owner, code, int(down)
    s["pile_size"] = len(entries)
    s["resolving"] = NOBODY


def _pile_entry(s: np.void, entry, i: int) -> tuple[int, int, bool]:
    """``(seat, card[, face_down])`` as ``(seat, code, down)``."""
    term = f"pile, entry {i}"
    if isinstance(entry, (str, bytes, Mapping)) or not hasattr(entry, "__len__") or len(entry) not in (2, 3):
        raise TypeError(f"{term}: a pile card is (seat, card) or (seat, card, face_down), got {entry!r}")
    owner = _seat(s, entry[0], term)
    code = card_code(s, owner, entry[1], term)
    if code == BULLET_CARD:
        raise ValueError(f"{term}: bullet cards can never be played (§4.3 step 4)")
    down = entry[2] if len(entry) == 3 else False
    if isinstance(down, str) and down.strip().lower() in ("up", "down"):
        down = down.strip().lower() == "down"
    return owner, code, _flag(down, f"{term}: face_down (True, False, 'down' or 'up')")


def _fits(s: np.void, slot: tuple, icons: list[int], owner: int, code: int, down: bool) -> bool:
    """The card could have been put on the pile at play ``slot``: its owner's play, face as §4.3 and §7 allow."""
    t, _, _, seat = slot
    if seat != owner:
        return False
    if icons[t] == TURN_TUNNEL:
        return down
    return not down or (t == 0 and _ghost_card(s, seat, code))


def _ghost_card(s: np.void, seat: int, code: int) -> bool:
    """A card of Ghost's colour, the 2-player team Marshal of a team with Ghost included (§7, G13)."""
    bps = int(s["bandits_per_seat"])
    if bps == 2 and code == MARSHAL:
        return GHOST in (int(s["character"][2 * seat]), int(s["character"][2 * seat + 1]))
    return int(s["character"][seat * bps + code // N_KINDS]) == GHOST


# ---- bandits, marshal, loot, bullets -------------------------------------------------------------------------------
def _apply_board(s: np.void, bandits, marshal, purses, purse_values, jewels, strongboxes, ransoms, known,
                 bullets_left, bullets_received, supply_removed) -> None:
    """The board terms, in an order that lets each check the ones before, then the cross-checks."""
    if bandits is not None:
        for b, spot in _by_bandit(s, bandits, "bandits").items():
            s["bandit_car"][b], s["bandit_level"][b] = _spot(s, spot, f"bandits: {_name(s, b)}")
    if marshal is not None:
        s["marshal_car"] = car_id(s, marshal, "marshal")
    if purses is not None:
        _set_purses(s, purses)
    if purse_values is not None:
        _set_purse_values(s, purse_values)
    if jewels is not None:
        _set_holders(s, jewels, "jewels", "floor_jewels", "jewels_held", [_printed_jewels(s)])
    if strongboxes is not None:
        _set_holders(s, strongboxes, "strongboxes", "floor_strongboxes", "strongboxes_held", [1, N_STRONGBOXES])
        s["second_strongbox_placed"] = (s["floor_strongboxes"].sum() + s["strongboxes_held"].sum()) == N_STRONGBOXES
    if ransoms is not None:
        for b, k in _by_bandit(s, ransoms, "ransoms").items():
            s["ransoms"][b] = _count(k, 127, f"ransoms of {_name(s, b)}")
    if known is not None:
        for p, ids in _by_seat(s, known, "known", "{seat: [purse ids]}").items():
            for i in _sequence(ids, f"known of seat {p}"):
                i = _purse_id(i, f"known of seat {p}")
                if i >= _dealt(s):
                    raise ValueError(f"known of seat {p}: purse {i} is in the box: nobody has seen its value (§10.3)")
                s["purse_known"][p] |= np.uint32(1 << i)
    _learn_held_purses(s)
    _set_bullets(s, bullets_left, bullets_received, supply_removed)
    _check_marshal_rule(s)


def _name(s: np.void, b: int) -> str:
    return f"bandit {b} ({CHARACTER_NAMES[int(s['character'][b])]})"


def _spot(s: np.void, spot, term: str) -> tuple[int, int]:
    """A bandit's place: ``(car, level)``, or a bare car (inside)."""
    if isinstance(spot, (tuple, list)):
        loc = _location(s, spot, term)
        return loc // N_LEVELS, loc % N_LEVELS
    return car_id(s, spot, term), IN


def _check_marshal_rule(s: np.void) -> None:
    """No bandit inside the marshal's car (§5.2)."""
    m = int(s["marshal_car"])
    for b in range(int(s["n_bandits"])):
        if s["bandit_car"][b] == m and s["bandit_level"][b] == IN:
            raise ValueError(f"bandits: {_name(s, b)} stands inside car {m}, the marshal's car: a bandit never does "
                             f"(§5.2, he flees to the roof); move him or the marshal")


def _dealt(s: np.void) -> int:
    """Purse ids in play: the starting purses and the carriages' purses (§3.1 step 6, §10.3)."""
    return int(s["n_bandits"]) + sum(int(CARRIAGE_PURSES[s["car_type"][c]]) for c in range(1, s["n_carriages"] + 1))


def _printed_jewels(s: np.void) -> int:
    return sum(int(CARRIAGE_JEWELS[s["car_type"][c]]) for c in range(1, s["n_carriages"] + 1))


def _purse_id(i, term: str) -> int:
    if not is_integer(i) or not 0 <= i < N_PURSES:
        raise ValueError(f"{term}: purse ids are 0..{N_PURSES - 1} (§10.3), got {i!r}")
    return int(i)


def _gather_train_loot(s: np.void, loc: int) -> None:
    """Every token lying on the train moves to location ``loc`` (``train_loot``)."""
    for i in range(N_PURSES):
        if s["purse_location"][i] < N_LOCATIONS:
            s["purse_location"][i] = loc
    for floor in ("floor_jewels", "floor_strongboxes"):
        total = int(s[floor].sum())
        s[floor][:] = 0
        s[floor][loc] = total


def _set_purses(s: np.void, purses) -> None:
    """Each named purse token is at the place given: a bandit or a location (§10.3)."""
    dealt = _dealt(s)
    for i, where in _mapping(purses, "purses", "{purse id: bandit or (car, level)}").items():
        i = _purse_id(i, "purses")
        if i >= dealt:
            raise ValueError(f"purses: purse {i} is in the box: the purses in play are 0..{dealt - 1} (the starting "
                             f"purses and those of the carriages in use, §3.1 step 6, §10.3)")
        kind, where = _holder(s, where, f"purses: purse {i}")
        s["purse_location"][i] = where if kind == "floor" else PURSE_ON_BANDIT + where


def _set_purse_values(s: np.void, values) -> None:
    """The named purses get the values given; the 18 values stay those of §2.2 (module docstring)."""
    n_bandits = int(s["n_bandits"])
    wanted = {}
    pool = Counter(int(v) for v in PURSE_VALUES[n_bandits:])
    for i, v in _mapping(values, "purse_values", "{purse id: dollars}").items():
        i = _purse_id(i, "purse_values")
        if not is_integer(v) or int(v) not in set(PURSE_VALUES.tolist()):
            raise ValueError(f"purse_values: purse {i}: a purse is worth one of {sorted(set(PURSE_VALUES.tolist()))} "
                             f"dollars (§2.2), got {v!r}")
        if i < n_bandits:
            if v != PURSE_VALUES[0]:
                raise ValueError(f"purse_values: purse {i} is a starting purse, worth ${int(PURSE_VALUES[0])} "
                                 f"(§3.1 step 4), not ${v}")
            continue
        wanted[i] = int(v)
        pool[int(v)] -= 1
        if pool[int(v)] < 0:
            raise ValueError(f"purse_values: the terms give more purses of ${v} than the "
                             f"{Counter(PURSE_VALUES[n_bandits:].tolist())[v]} that are not starting purses (§2.2)")
    dealt = _dealt(s)
    others = [i for i in range(n_bandits, N_PURSES) if i not in wanted]
    others.sort(key=lambda i: i >= dealt)  # the purses in play keep their values first, the box ones give way
    given_up = []
    for i in others:
        v = int(s["purse_value"][i])
        if pool[v] > 0:
            pool[v] -= 1
            wanted[i] = v
        else:
            given_up.append(i)
    for i, v in zip(given_up, sorted(pool.elements())):
        wanted[i] = v
    for i, v in wanted.items():
        s["purse_value"][i] = v


def _set_holders(s: np.void, value, term: str, floor: str, held: str, totals: list[int]) -> None:
    """Jewels or strongboxes: exactly the holders named hold them, the total one of ``totals`` (§2.1, §8.4)."""
    counts = _mapping(value, term, "{bandit or (car, level): count}")
    s[floor][:] = 0
    s[held][:] = 0
    for where, k in counts.items():
        kind, where = _holder(s, where, term)
        k = _count(k, max(totals), f"{term} at {where}")
        if kind == "floor":
            s[floor][where] += k
        else:
            s[held][where] += k
    total = int(s[floor].sum() + s[held].sum())
    if total not in totals:
        why = (f"the carriages in use print {totals[0]} (§2.1)" if term == "jewels"
               else "1, or 2 once Take It All has placed the second one (§2.1, §8.4)")
        raise ValueError(f"{term}: the term lists every holder: the train has {' or '.join(map(str, totals))} "
                         f"{term} ({why}), the term places {total}")


def _learn_held_purses(s: np.void) -> None:
    """A seat knows the value of every purse on its bandits (§10.3)."""
    bps = int(s["bandits_per_seat"])
    for i in range(N_PURSES):
        loc = int(s["purse_location"][i])
        if PURSE_ON_BANDIT <= loc < PURSE_IN_BOX:
            seat = (loc - PURSE_ON_BANDIT) // bps
            s["purse_known"][seat] |= np.uint32(1 << i)


def _set_bullets(s: np.void, left, received, removed) -> None:
    """Bullet stacks and bullets received; the neutral supply is what the shots leave over (§5.3, §6.3)."""
    n_bandits = int(s["n_bandits"])
    if left is not None:
        for b, k in _by_bandit(s, left, "bullets_left").items():
            s["bullets_left"][b] = _count(k, BULLETS_PER_BANDIT, f"bullets_left of {_name(s, b)}")
    if received is not None:
        high = MAX_DECK - sum(_action_copies(s))
        for b, k in _by_bandit(s, received, "bullets_received").items():
            s["bullets_received"][b] = _count(k, high, f"bullets_received of {_name(s, b)}")
        bps = int(s["bandits_per_seat"])
        for p in range(int(s["num_players"])):
            if s["bullets_received"][p * bps:(p + 1) * bps].sum() > high:
                raise ValueError(f"bullets_received: seat {p} would own more than {MAX_DECK} cards (§2.10)")
    if removed is not None:
        s["supply_removed"] = _flag(removed, "supply_removed")
    shots = sum(BULLETS_PER_BANDIT - int(s["bullets_left"][b]) for b in range(n_bandits))
    handed = int(s["bullets_received"].sum()) - shots
    low = N_NEUTRAL_BULLETS + 1 - n_bandits if s["supply_removed"] else 0
    if not low <= handed <= N_NEUTRAL_BULLETS:
        raise ValueError(f"bullets_received: the bandits have received {int(s['bullets_received'].sum())} bullet "
                         f"cards and fired {shots}, so {handed} neutral bullets were handed out; every shot is "
                         f"received (§6.3) and {low}..{N_NEUTRAL_BULLETS} neutral bullets can have been "
                         f"{'handed out before the supply was removed' if s['supply_removed'] else 'handed out'} "
                         f"(§2.5, §5.3)")
    s["neutral_supply"] = 0 if s["supply_removed"] else N_NEUTRAL_BULLETS - handed


# ---- the cards of the seats (§2.4, §3.4, §4.4, §6.7) ----------------------------------------------------------------
def _action_copies(s: np.void) -> list[int]:
    """Copies of each action card code a seat owns: 10 cards, or the 11-card team deck (§2.4, §3.3)."""
    if s["bandits_per_seat"] == 2:
        return [1] * (N_CARD_CODES - 1) + [0]  # codes 0-10: both bandits' Move..Rob and one Marshal (code 5)
    return [int(k) for k in CARD_COPIES] + [0] * (N_CARD_CODES - N_KINDS)


def _owned(s: np.void, seat: int) -> list[int]:
    """Count per code (13) of every card the seat owns: its action cards and the bullet cards received."""
    bps = int(s["bandits_per_seat"])
    return _action_copies(s) + [int(s["bullets_received"][seat * bps:(seat + 1) * bps].sum())]


def _card_rules(s: np.void, stage: str | None) -> dict:
    """Which seats' hands must be empty or free of bullet cards at this point of the round (§4.4)."""
    n, first = int(s["num_players"]), int(s["first_player"])
    decision = int(s["decision"])
    stealin = stage == "stealin" or (stage is None and decision >= DEC_MOVE_DEST)
    if not s["expert"]:
        return {"empty_hands": set(range(n)) if stealin else set(), "no_hand_bullets": set()}
    if stealin:
        done = set(range(n))
    elif stage is None and decision == DEC_KEEP:
        done = {(first + j) % n for j in range(int(s["cursor"]))}
    else:
        done = set()  # "keep" positions are checked once the asked seat is known (_set_asked_seat)
    return {"empty_hands": set(), "no_hand_bullets": done}


def _card_list(s: np.void, seat: int, value, term: str) -> list[int]:
    """A list of cards (or ``{card: count}``) of ``seat`` as card codes."""
    if isinstance(value, Mapping):
        codes = []
        for card, k in value.items():
            codes += [card_code(s, seat, card, term)] * _count(k, MAX_DECK, f"{term}: count of {card!r}")
        return codes
    return [card_code(s, seat, card, term) for card in _sequence(value, term)]


def _apply_cards(s: np.void, rules: dict, hands, decks, discards, known_bullets) -> None:
    """Every seat's hand, draw deck, discard pile and known bullets on top, keeping its cards (module docstring)."""
    named = {}
    for term, value in (("hands", hands), ("decks", decks), ("discards", discards)):
        named[term] = {} if value is None else {p: _card_list(s, p, v, f"{term} of seat {p}")
                                                for p, v in _by_seat(s, value, term, "{seat: [cards]}").items()}
    known = {} if known_bullets is None else _by_seat(s, known_bullets, "known_bullets", "{seat: count}")
    if known and not s["expert"]:
        raise ValueError("known_bullets: with the standard rules no bullet card is known on top of a deck (G34)")
    for p in range(int(s["num_players"])):
        _arrange_seat(s, p, named["hands"].get(p), named["decks"].get(p), named["discards"].get(p), known.get(p),
                      p in rules["empty_hands"], p in rules["no_hand_bullets"])


def _fixed_cards(s: np.void, seat: int) -> list[int]:
    """Counts per code of the seat's cards on the unresolved pile and set aside in a KEEP decision."""
    fixed = [0] * N_CARD_KINDS_HELD
    start = 0 if s["resolving"] == NOBODY else int(s["resolving"])
    for i in range(start, int(s["pile_size"])):
        if s["pile_owner"][i] == seat:
            fixed[int(s["pile_card"][i])] += 1
    if s["decision"] == DEC_KEEP and s["current"] == seat:
        fixed = [a + int(b) for a, b in zip(fixed, s["keep_aside"])]
    return fixed


def _arrange_seat(s: np.void, p: int, hand, deck, discard, known, empty_hand: bool, no_hand_bullets: bool) -> None:
    """Seat p's cards placed as the terms say; the others stay where they can, the rest on top of the deck."""
    hand, discard = _stage_places(s, p, hand, discard, empty_hand, no_hand_bullets)
    rest = _unplaced(s, p, (hand, deck, discard))
    new_deck = deck[::-1] if deck is not None else _keep_deck(s, p, rest)  # the record keeps decks bottom first
    new_discard = discard if discard is not None else _keep_counts(s["discard"][p], rest, allow_bullets=True)
    new_hand = hand
    if hand is None:
        new_hand = _keep_counts(s["hand"][p], rest, allow_bullets=not no_hand_bullets)
        if no_hand_bullets and discard is None:  # past his KEEP choice: his bullet cards are discarded (§4.4)
            k = min(int(s["hand"][p, BULLET_CARD]), rest[BULLET_CARD])
            new_discard, rest[BULLET_CARD] = new_discard + [BULLET_CARD] * k, rest[BULLET_CARD] - k
    extra = [code for code in range(N_CARD_KINDS_HELD) for _ in range(rest[code])]
    on_top = 0
    if extra and deck is None:
        new_deck, on_top = new_deck + extra, rest[BULLET_CARD]
    elif extra and hand is None and not empty_hand and not (no_hand_bullets and rest[BULLET_CARD]):
        new_hand = new_hand + extra
    elif extra and discard is None:
        new_discard = new_discard + extra
    elif extra:
        raise ValueError(f"cards of seat {p}: the terms name all its places, which leave out "
                         f"{[_card_word(s, p, c) for c in extra]}; every card of a seat is in its hand, draw deck, "
                         f"discard pile or the pile (§2.4, §4.5)")
    s["hand"][p] = np.bincount(np.array(new_hand, dtype=np.int64), minlength=N_CARD_KINDS_HELD)
    s["discard"][p] = np.bincount(np.array(new_discard, dtype=np.int64), minlength=N_CARD_KINDS_HELD)
    s["deck"][p] = NOBODY
    s["deck"][p, :len(new_deck)] = new_deck
    s["deck_size"][p] = len(new_deck)
    s["known_bullets_on_top"][p] = _known_on_top(s, p, new_deck, known, deck is None, on_top)


def _stage_places(s: np.void, p: int, hand, discard, empty_hand: bool, no_hand_bullets: bool) -> tuple:
    """The hand and discard terms checked against the point of the round; places the rules keep empty named
    empty (a standard hand after Schemin', a standard discard pile, §3.4, §4.4)."""
    if empty_hand and hand:
        raise ValueError(f"hands of seat {p}: with the standard rules the hands are empty after Schemin' (§4.4)")
    if no_hand_bullets and hand and BULLET_CARD in hand:
        raise ValueError(f"hands of seat {p}: seat {p} has made its KEEP choice: its bullet cards are discarded "
                         f"(§4.4)")
    if discard and not s["expert"]:
        raise ValueError(f"discards of seat {p}: the discard pile is part of the expert rules (§3.4)")
    return ([] if empty_hand and hand is None else hand), ([] if not s["expert"] and discard is None else discard)


def _unplaced(s: np.void, p: int, named: tuple) -> list[int]:
    """Counts per code of seat p's cards that neither the named places nor the pile (and set-aside cards) hold."""
    owned, placed = _owned(s, p), _fixed_cards(s, p)
    for cards in named:
        for code in cards or []:
            placed[code] += 1
    for code in range(N_CARD_KINDS_HELD):
        if placed[code] > owned[code]:
            raise ValueError(f"cards of seat {p}: the terms and the pile place {placed[code]} of card {code} "
                             f"({_card_word(s, p, code)}); seat {p} owns {owned[code]} (§2.4, §3.3, §6.7)")
    return [owned[code] - placed[code] for code in range(N_CARD_KINDS_HELD)]


def _keep_deck(s: np.void, p: int, rest: list[int]) -> list[int]:
    """Seat p's draw deck (bottom first) without the cards ``rest`` does not leave it: the top copies give way."""
    kept = []
    for code in (int(c) for c in s["deck"][p, :s["deck_size"][p]]):
        if rest[code] > 0:
            rest[code] -= 1
            kept.append(code)
    return kept


def _keep_counts(counts: np.ndarray, rest: list[int], allow_bullets: bool) -> list[int]:
    """The cards of a place that stay in it (as far as ``rest`` allows), taken from ``rest``, as codes."""
    kept = []
    for code in range(N_CARD_KINDS_HELD):
        k = min(int(counts[code]), rest[code]) if allow_bullets or code != BULLET_CARD else 0
        rest[code] -= k
        kept += [code] * k
    return kept


def _known_on_top(s: np.void, p: int, deck: list[int], known, kept_deck: bool, added: int) -> int:
    """Expert known bullet cards on top of the deck (§10.1, G34): given, or kept plus those put on top."""
    run = 0
    while run < len(deck) and deck[len(deck) - 1 - run] == BULLET_CARD:
        run += 1
    if not s["expert"]:
        return 0
    if known is not None:
        k = _count(known, MAX_DECK, f"known_bullets of seat {p}")
        if k > run:
            raise ValueError(f"known_bullets of seat {p}: {k} known bullet cards on top, but the deck has {run} "
                             f"bullet cards on top (§10.1)")
        return k
    return min((int(s["known_bullets_on_top"][p]) if kept_deck else 0) + added, run)


def _card_word(s: np.void, seat: int, code: int) -> str:
    if code == BULLET_CARD:
        return "bullet card"
    bps = int(s["bandits_per_seat"])
    kind = KIND_NAMES[code % N_KINDS]
    if bps == 1 or code == MARSHAL:
        return kind
    return f"{kind} of {CHARACTER_NAMES[int(s['character'][seat * bps + code // N_KINDS])]}"

