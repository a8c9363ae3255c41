"""The record of one Colt Express game (a batch is an array of these records).

Indices used by the fields (spec §0.2, §10.3):

* seats ``0..N-1`` (N = ``num_players``); bandit ids ``0..B-1`` with
  ``bandit = seat * bandits_per_seat + slot``; unused seats/bandits hold
  ``NOBODY`` (-1) or 0 as the comment says;
* cars ``0..C`` (0 the locomotive), levels ``IN``/``ROOF``; a *location* index
  is ``car * 2 + level`` (``N_LOCATIONS`` = 14);
* card codes ``0..11`` (``6 * slot + kind``, §11.1) and ``BULLET_CARD`` = 12;
  hands and discard piles are counts per code, draw decks are ordered (top =
  ``deck[seat, deck_size[seat] - 1]``);
* purse ``purse_location`` is a location ``0..13``, ``PURSE_ON_BANDIT + bandit``,
  ``PURSE_IN_BOX`` or ``PURSE_REMOVED``.

A record is always either at an agent decision (``decision`` != ``DEC_NONE``,
``current`` = the seat to decide) or finished (``done``; ``current`` = ``NOBODY``).
"""

from __future__ import annotations

import numpy as np

from ..core.fields import empty_record
from ..core.rng import RNG_FIELDS
from .data import (DEC_NONE, IN, MAX_BANDITS, MAX_CARS, MAX_DECK, MAX_PILE, MAX_PLAYERS, N_CARD_KINDS_HELD,
                   N_LOCATIONS, N_NEUTRAL_BULLETS, N_PURSES, N_ROUNDS, PURSE_IN_BOX, PURSE_VALUES)

NOBODY = -1  # no seat / no bandit / no card

STATE_DTYPE = np.dtype(RNG_FIELDS + [
    # ---- options and setup (public, §3.5) ----
    ("num_players", np.int8),                         # N, 2..6
    ("n_bandits", np.int8),                           # B = N, or 4 with 2 players (§0.2)
    ("bandits_per_seat", np.int8),                    # BPS = 1, or 2 with 2 players
    ("n_carriages", np.int8),                         # C = N, or 4 with 2 players (§3.2)
    ("expert", np.bool_),                             # expert rules (§3.4), always with 2 players
    ("auto_resolve", np.bool_),                       # auto-resolve forced Stealin'/event decisions (§11.4)
    ("max_decisions", np.int16),                      # turn cap: the game is truncated after this many decisions
    ("n_decisions", np.int16),                        # agent decisions taken so far
    ("car_type", np.int8, (MAX_CARS,)),               # LOCOMOTIVE_TYPE at 0, carriage type 0..5 at 1..C, NOBODY beyond
    # ---- bandits (§2.3-§2.5, §5) ----
    ("character", np.int8, (MAX_BANDITS,)),           # character id of each bandit, NOBODY if absent
    ("bandit_car", np.int8, (MAX_BANDITS,)),          # car 0..C of each bandit
    ("bandit_level", np.int8, (MAX_BANDITS,)),        # IN or ROOF
    ("bullets_left", np.int8, (MAX_BANDITS,)),        # bullet cards left in the bandit's stack, 6..0
    ("bullets_received", np.int8, (MAX_BANDITS,)),    # bullet cards this bandit received in the game (§9.4)
    ("jewels_held", np.int8, (MAX_BANDITS,)),         # jewels on the character card
    ("strongboxes_held", np.int8, (MAX_BANDITS,)),    # strongboxes on the character card
    ("ransoms", np.int8, (MAX_BANDITS,)),             # $250 ransoms gained (Hostage, §8.8)
    # ---- the train (§2.1, §2.5, §5) ----
    ("marshal_car", np.int8),                         # car of the marshal (always inside)
    ("floor_jewels", np.int8, (N_LOCATIONS,)),        # jewels lying at each location
    ("floor_strongboxes", np.int8, (N_LOCATIONS,)),   # strongboxes lying at each location
    ("neutral_supply", np.int8),                      # neutral bullet cards left, 13..0 (§5.3)
    ("supply_removed", np.bool_),                     # the neutral supply left the game (§5.3)
    ("second_strongbox_placed", np.bool_),            # Take It All has placed the second strongbox (§8.4)
    # ---- purse tokens (§10.3) ----
    ("purse_value", np.int16, (N_PURSES,)),           # true dollar value of each purse (hidden, §10.4)
    ("purse_location", np.int8, (N_PURSES,)),         # where each token is (see module docstring)
    ("purse_known", np.uint32, (MAX_PLAYERS,)),       # bit i set: the seat knows the value of purse i
    # ---- rounds (§4) ----
    ("round_deck", np.int8, (N_ROUNDS,)),             # round card id of each round r = 0..4 (hidden until revealed)
    ("round", np.int8),                               # current round r = 0..4
    ("first_player", np.int8),                        # seat that starts the current round
    ("turn", np.int8),                                # index of the current turn icon of the round card
    ("turn_position", np.int8),                       # how many seats already finished the current turn
    ("play_in_turn", np.int8),                        # 0, or 1 for the second play of a speed-up turn
    # ---- cards of each seat (§2.4, §3.4, §6.7) ----
    ("hand", np.int8, (MAX_PLAYERS, N_CARD_KINDS_HELD)),     # cards in hand, count per code
    ("deck", np.int8, (MAX_PLAYERS, MAX_DECK)),              # draw deck, bottom first, NOBODY-padded
    ("deck_size", np.int8, (MAX_PLAYERS,)),                  # cards in the draw deck
    ("discard", np.int8, (MAX_PLAYERS, N_CARD_KINDS_HELD)),  # expert discard pile, count per code
    ("known_bullets_on_top", np.int8, (MAX_PLAYERS,)),       # public count of bullet cards on top of the deck (§10.1)
    ("keep_aside", np.int8, (N_CARD_KINDS_HELD,)),           # cards set aside so far in the current KEEP decision
    # ---- the pile (§4.3, §4.5) ----
    ("pile_owner", np.int8, (MAX_PILE,)),             # seat that played each card, in play order
    ("pile_card", np.int8, (MAX_PILE,)),              # card code of each card
    ("pile_down", np.int8, (MAX_PILE,)),              # 1: the card was played face down (int8: numba has no nested bool arrays)
    ("pile_size", np.int8),                           # cards on the pile
    ("resolving", np.int8),                           # index of the card being resolved in Stealin', NOBODY otherwise
    # ---- the pending decision (§11.3) ----
    ("decision", np.int8),                            # DEC_* type of the pending decision, DEC_NONE when done
    ("current", np.int8),                             # seat to decide, NOBODY when done
    ("acting_bandit", np.int8),                       # bandit of the card (or event) being resolved, NOBODY otherwise
    ("victim", np.int8),                              # chosen Punch victim (PUNCH_LOOT, PUNCH_DEST), NOBODY otherwise
    ("cursor", np.int8),                              # progress through the seats (BULLETS, KEEP) or bandits (PICKPOCKET)
    ("done", np.bool_),                               # the game is over (§9)
])

# The fields whose empty value is not 0 or is a named code (core.fields): no car, character, card or pile entry yet; the
# full neutral supply; every purse in the box with its printed value (setup shuffles the values of the non-starting
# ones, §3)
EMPTY_VALUES = {
    "car_type": NOBODY, "character": NOBODY, "bandit_level": IN, "neutral_supply": N_NEUTRAL_BULLETS,
    "purse_value": PURSE_VALUES, "purse_location": PURSE_IN_BOX, "round_deck": NOBODY, "deck": NOBODY,
    "pile_owner": NOBODY, "pile_card": NOBODY, "resolving": NOBODY, "decision": DEC_NONE, "current": NOBODY,
    "acting_bandit": NOBODY, "victim": NOBODY,
}
EMPTY_RECORD = empty_record(STATE_DTYPE, EMPTY_VALUES)
