"""The record of one Wild West Express game (a batch is an array of these records).

Indices used by the fields (spec §0.2, §17.5):

* seats ``0..N-1`` (N = ``num_players``, at most ``MAX_PLAYERS`` = 5); arrays are
  sized for 5 seats and unused seats hold 0 / ``NOBODY`` / ``NO_SPACE``;
* spaces ``0..313`` (cities 0..25 have space id == city id), ``NO_SPACE`` = -1
  for "off the board" / "none";
* train slots ``0..5`` per seat (``train_exists`` says which are in play), cargo
  slots ``0..1`` holding a cargo code (``data.CARGO_EMPTY``, good 0..8, or
  ``PASSENGER_BASE + pickup zone``);
* desperado index ``0..2`` per seat (``desp_pos`` = ``NO_SPACE`` if absent),
  sheriff index ``0..1``;
* telegram card ids ``0..51``; ``deck`` is a queue, top first: ``deck[0]`` is
  drawn next, ``deck[deck_size - 1]`` is the bottom; the first ``never_drawn``
  cards are the ones never drawn since the shuffle (hidden, §16.3).

Flag arrays are int8 0/1 (numba cannot type nested boolean arrays in a record).

A record is always either at an agent decision (``decision`` >= 0, ``current``
the seat to decide) or finished (``done``; ``decision`` = ``DEC_NONE``,
``current`` = ``NOBODY``). The pending-decision stack of §17.5 is held in the
fields of sections "move", "landing", "card / sheriff" and "queued move";
a level is inactive when its marker (``move_active``, ``landing_step``,
``card_active``, ``queue_train``) says so.
"""

from __future__ import annotations

import numpy as np

from ..core.fields import empty_record
from ..core.rng import RNG_FIELDS
from .data import (CARGO_EMPTY, DEC_NONE, DYNAMITE_SUPPLY, MAX_DESPERADOS, MAX_PLAYERS, MAX_TRAINS, N_CARDS, N_CARGO,
                   N_CITIES, N_COMPETITION_SLOTS, N_DICE, N_SHERIFFS, N_SPACES, NO_CARD, NO_SPACE, PHASE_SETUP)

NOBODY = -1  # no seat / no train / no desperado / no sheriff / no card

# where a card procedure returns when it is over (``card_return``, §13.3)
RET_PRE_ROLL = 0  # back to the PRE_ROLL decision (card played from the hand)
RET_LANDING = 1  # back to the landing resolution (card played at TELEGRAM_DRAWN)
# where a sheriff procedure returns (``sheriff_return``, §12)
RET_CARD = 2  # Friend of the Law: the card procedure ends

# landing steps (``landing_step``, §7.5): in a city 0 mail race, 1 arrival, 2 fee;
# on a junction/track space 0 dynamite, 1 sheriff star, 2 telegram; 3 = finished
LANDING_NONE = -1
LANDING_FIRST = 0
LANDING_DONE = 3

STATE_DTYPE = np.dtype(RNG_FIELDS + [
    # ---- options (§15), fixed at init ----
    ("num_players", np.int8),                       # N, 2..5
    ("victory_target", np.int8),                    # VP that end the game (§14.2, or the option)
    ("cash_vp_mode", np.int8),                      # CASH_VP_PER_1200 or CASH_VP_THRESHOLD (§14.1)
    ("alt_dynamite", np.bool_),                     # alternative dynamite rule (§11.4)
    ("alt_extra_gang", np.bool_),                   # BUY_DESPERADO allowed (§6.3, §15)
    ("dynamite_price", np.int16),                   # $ per bought dynamite token: 20, or dynamite_price_alt (§11.1)
    ("extra_gang_price", np.int16),                 # $ per hired desperado (alt_extra_gang, §15)
    ("component_limits", np.bool_),                 # §2.1 piece limits
    ("allow_hold", np.bool_),                       # allow_hold_in_city (§7.1)
    ("expiry_rounds", np.int16),                    # competition_expiry_rounds, 0 = never (§13.4)
    ("max_rounds", np.int16),                       # turn cap in rounds (§14.4)
    ("cap_scoring", np.int8),                       # CAP_SCORING_VP or CAP_SCORING_DRAW (§14.4)
    ("auto_forced", np.bool_),                      # apply single-option decisions automatically (§17.3)
    ("max_decisions", np.int32),                    # engine turn cap in decisions (core.game truncation)
    # ---- progress (§6, §17.5) ----
    ("n_decisions", np.int32),                      # agent decisions taken so far
    ("turn_decisions", np.int32),                   # decisions taken in the current turn (safety limit 1000, §14.4)
    ("phase", np.int8),                             # PHASE_* of the turn (§17.5 level 1)
    ("decision", np.int8),                          # DEC_* pending decision (§17.2), DEC_NONE when done
    ("current", np.int8),                           # seat to decide, NOBODY when done
    ("active", np.int8),                            # seat whose turn it is (drafting/placing seat during setup)
    ("start_player", np.int8),                      # seat s of §5 item 1
    ("round", np.int16),                            # round counter, 1-based (§6.1); 0 during setup
    ("turn", np.int32),                             # turns started so far (1 = the first turn)
    ("done", np.bool_),                             # the game is over (victory or cap)
    ("capped", np.bool_),                           # it ended by the turn cap or the safety limit: truncated (§14.4)
    ("dice", np.int8, (N_DICE,)),                   # this turn's roll sorted a >= b >= c; 0 before the roll (§6.2)
    # ---- setup (§5) ----
    ("setup_step", np.int8),                        # picks made (0..2N-1), then 2N + desperados placed
    ("start_city", np.int8, (MAX_PLAYERS, 2)),      # drafted cities: first pick, second pick; NOBODY before
    # ---- players (§17.5) ----
    ("cash", np.int32, (MAX_PLAYERS,)),             # dollars, never negative
    ("bank_paid", np.int64),                        # net $ the bank paid to players since setup (payments less
                                                    # purchases and taxes): sum(cash) = N x $450 + bank_paid (§0.2)
    ("dynamite_bought", np.int8, (MAX_PLAYERS,)),   # dynamite bought in this turn (§11.1), reset at turn start
    ("hire_used", np.int8, (MAX_PLAYERS,)),         # 1: the player has hired his extra desperado (§15)
    ("n_desperados", np.int8, (MAX_PLAYERS,)),      # desperados in play (index 0..n-1)
    # ---- trains (§7, §17.5): per seat and slot ----
    ("train_exists", np.int8, (MAX_PLAYERS, MAX_TRAINS)),   # 1: the slot holds a train in play
    ("train_large", np.int8, (MAX_PLAYERS, MAX_TRAINS)),    # 1: large train (2 cargo slots)
    ("train_pos", np.int16, (MAX_PLAYERS, MAX_TRAINS)),     # space of the train, NO_SPACE if absent
    ("train_from", np.int16, (MAX_PLAYERS, MAX_TRAINS)),    # came_from space, FREE (-1) = free direction (§7.2)
    ("train_cargo", np.int8, (MAX_PLAYERS, MAX_TRAINS, N_CARGO)),  # cargo code per slot (module docstring)
    ("train_wait", np.int8, (MAX_PLAYERS, MAX_TRAINS)),     # dice moves to sit out (derailment, blizzard, §7.1)
    ("train_debt", np.int16, (MAX_PLAYERS, MAX_TRAINS)),    # unpaid coal-and-water fee in $ (§8.3)
    ("train_creditor", np.int8, (MAX_PLAYERS, MAX_TRAINS)), # seat owed the debt, NOBODY if none
    ("train_moved", np.int8, (MAX_PLAYERS, MAX_TRAINS)),    # 1: moved / held / sat out this turn (§7.1)
    ("train_armed", np.int8, (MAX_PLAYERS, MAX_TRAINS)),    # 1: Armed Guards until the end of this turn (§13.5)
    # ---- desperados and sheriffs (§9, §12) ----
    ("desp_pos", np.int16, (MAX_PLAYERS, MAX_DESPERADOS)),  # space of each desperado, NO_SPACE if absent
    ("sheriff_pos", np.int16, (N_SHERIFFS,)),       # space of each sheriff, NO_SPACE = off the board
    # ---- board (§3, §11) ----
    ("city_owner", np.int8, (N_CITIES,)),           # seat owning each station, NOBODY if unowned
    ("dynamite", np.int8, (N_SPACES,)),             # 1: a dynamite token lies on the space
    ("dynamite_supply", np.int8),                   # tokens left in the supply, 18..0
    # ---- telegrams (§13) ----
    ("deck", np.int8, (N_CARDS,)),                  # the deck queue, top first, NO_CARD-padded (hidden order)
    ("deck_size", np.int8),                         # cards in the deck
    ("never_drawn", np.int8),                       # the first never_drawn deck cards were never drawn (§16.1)
    ("card_holder", np.int8, (N_CARDS,)),           # seat holding personal card k, NOBODY otherwise (hidden id)
    ("card_bound", np.int8, (N_CARDS,)),            # train slot a held card is bound to, NOBODY otherwise
    ("comp_card", np.int8, (N_COMPETITION_SLOTS,)), # competition card in each slot, NO_CARD if free (§13.4)
    ("comp_countdown", np.int16, (N_COMPETITION_SLOTS,)),  # turns left before expiry (0 with expiry off)
    ("drawn_card", np.int8),                        # personal card at TELEGRAM_DRAWN (private to current), else NO_CARD
    # ---- move in progress (§7.4, §17.5 level 2): a train of the active player ----
    ("move_active", np.bool_),                      # a train move is in progress (its landing included)
    ("move_train", np.int8),                        # slot of the moving train, NOBODY
    ("move_steps", np.int8),                        # steps left
    ("move_first", np.bool_),                       # no step taken yet
    ("move_dice", np.bool_),                        # the dice move (only it may HOLD)
    ("move_backtrack", np.bool_),                   # Backtrack card: first step goes back to came_from
    ("move_card", np.int8),                         # card that started this extra move, NO_CARD for a dice move
    ("move_return", np.int8),                       # PHASE_PRE_ROLL or PHASE_MOVEMENT: where play returns
    # ---- landing resolution (§7.5, level 3) ----
    ("landing_step", np.int8),                      # next landing step (see LANDING_*), LANDING_NONE if none
    ("landing_space", np.int16),                    # space being resolved
    # ---- card / sheriff sub-procedure (§12, §13.5, level 4) ----
    ("card_active", np.int8),                       # personal card being resolved, NO_CARD if none
    ("card_left", np.int8),                         # placements / removals / choices left for that card
    ("card_return", np.int8),                       # RET_PRE_ROLL or RET_LANDING
    ("sel_desperado", np.int8),                     # desperado chosen for Hideout, NOBODY
    ("sel_sheriff", np.int8),                       # sheriff being placed, NOBODY
    ("sheriff_return", np.int8),                    # RET_LANDING (star) or RET_CARD (Friend of the Law)
    # ---- queued extra move (§7.5, §13.5) ----
    ("queue_train", np.int8),                       # slot of the train with a queued extra move, NOBODY if none
    ("queue_steps", np.int8),                       # its length
    ("queue_backtrack", np.bool_),                  # Backtrack card
    ("queue_card", np.int8),                        # the card that queued it
    ("extra_moves", np.int8),                       # extra moves started this turn (at most 12, §13.3)
    # ---- desperado phase (§9) ----
    ("desp_index", np.int8),                        # desperado moving (or rehiring), NOBODY
    ("desp_from", np.int16),                        # the space it came from in this move, NO_SPACE at the start
    ("desp_steps", np.int8),                        # steps left in its move
])

# The fields whose empty value is not 0 or is a named code (core.fields): the setup phase; no start city, piece on the
# board, city owner, card or cargo; the full dynamite supply; the deck in card order, none drawn (setup shuffles it,
# §5); no procedure of §17.5 in progress
EMPTY_VALUES = {
    "phase": PHASE_SETUP, "decision": DEC_NONE, "current": NOBODY, "active": NOBODY, "start_city": NOBODY,
    "desp_pos": NO_SPACE, "train_pos": NO_SPACE, "train_from": -1, "train_cargo": CARGO_EMPTY,
    "train_creditor": NOBODY, "sheriff_pos": NO_SPACE, "city_owner": NOBODY, "dynamite_supply": DYNAMITE_SUPPLY,
    "deck": np.arange(N_CARDS), "card_holder": NOBODY, "card_bound": NOBODY, "deck_size": N_CARDS,
    "never_drawn": N_CARDS, "comp_card": NO_CARD, "drawn_card": NO_CARD,
    "move_train": NOBODY, "move_card": NO_CARD, "landing_step": LANDING_NONE, "landing_space": NO_SPACE,
    "card_active": NO_CARD, "sel_desperado": NOBODY, "sel_sheriff": NOBODY, "queue_train": NOBODY,
    "queue_card": NO_CARD, "desp_index": NOBODY, "desp_from": NO_SPACE,
}
EMPTY_RECORD = empty_record(STATE_DTYPE, EMPTY_VALUES)
