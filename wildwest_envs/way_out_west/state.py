"""The record of one Way Out West game (a batch is an array of these records), spec §14 sizes.

Indices used by the fields (§0.2): seats ``0..N-1`` (arrays sized for
``MAX_PLAYERS`` = 5; unused seats hold 0 or ``NOBODY``), towns ``0..4``, B&T types
``0..5``, action boxes ``0..18``, turn-order positions ``0..N-1`` (position 1 of
the rules is index 0). Board arrays are indexed ``[town, seat]`` or
``[town, type]``.

A record is always either at an agent decision (``decision`` >= 0, ``current``
the seat to decide, §13.2) or finished (``done``; ``decision`` = ``DEC_NONE``,
``current`` = ``NOBODY``). The pending action and gunfight are kept in the
``pend_*``, ``gf_*`` and ``retreat_*`` fields, so a record says everything about
the game and nothing lives outside it.

Supplies are stored, not derived, so that the conservation invariants of §14
(board + supply + removed = components) are real checks. ``bank_in`` /
``bank_out`` count every dollar paid to / by the bank, so that
``sum(cash) + bank_in - bank_out`` equals the starting money at all times
(robbery moves money between players and keeps the sum).
"""

from __future__ import annotations

import numpy as np

from ..core.fields import empty_record
from ..core.rng import rng_fields
from .data import MAX_PLAYERS, N_BOXES, N_BT, N_DIE_QUEUE, N_TOWNS, N_WANTED, SIDE_NONE

NOBODY = -1  # no seat / no owner / nothing chosen
NO_TOWN = -1
NO_BOX = -1
NO_TARGET = -1

# steps of one volley (``gf_step``, §9.4): where the volley loop resumes
STEP_ATTACKER = 0  # 1. the attacker's SHOOT / RETREAT (from volley 2)
STEP_DEFENDER = 1  # 2. the defending player's SHOOT / RETREAT (while he has cowboys in the fight)
STEP_SHOOT = 2  # 3. the dice

STATE_DTYPE = np.dtype(rng_fields(N_DIE_QUEUE) + [  # ``forced``: the 64-entry die queue of §13.3 (value - 1)
    # ---- options (§4, §13.2), fixed at init ----
    ("num_players", np.int8),                     # N, 3..5
    ("num_rounds", np.int8),                      # R: 3, 6, 9 or 12 (§4)
    ("auto_forced", np.bool_),                    # decisions with one legal id are applied automatically (§13.2)
    ("max_decisions", np.int32),                  # library decision cap (core.game truncation)
    # ---- progress (§5) ----
    ("n_decisions", np.int32),                    # agent decisions taken so far
    ("phase", np.int8),                           # PHASE_* (setup, auction, actions, over)
    ("decision", np.int8),                        # DEC_* pending decision (§13.2), DEC_NONE when done
    ("current", np.int8),                         # seat to decide, NOBODY when done
    ("done", np.bool_),                           # the game is over (§11.1)
    ("round", np.int8),                           # current round 1..R (§5)
    ("start_player", np.int8),                    # seat chosen at setup (§4 step 2)
    ("setup_placed", np.int8),                    # setup cowboys placed so far, 0..3N (§4 step 4)
    ("turn_order", np.int8, (MAX_PLAYERS,)),      # seat at each turn-order position (this round's, or the last)
    # ---- auction (§6) ----
    ("bidding_order", np.int8, (MAX_PLAYERS,)),   # seats in this round's bidding order
    ("bidder_index", np.int8),                    # index into bidding_order of the seat to bid
    ("bid", np.int32, (MAX_PLAYERS,)),            # committed bid of each seat this round
    ("bidding", np.int8, (MAX_PLAYERS,)),         # 1: still bidding
    ("new_order", np.int8, (MAX_PLAYERS,)),       # seat that has won each position, NOBODY while free
    ("high_bid", np.int32),                       # largest committed bid
    ("high_bidder", np.int8),                     # seat of the high bid, NOBODY before the first raise
    ("auction_decisions", np.int8),               # decisions taken in this auction, 0..60 (§6.2)
    # ---- action phase (§7) ----
    ("lap", np.int8),                             # 0: first lap, 1: second lap
    ("turn_index", np.int8),                      # turn-order position of the player on his action turn
    ("turns_used", np.int8, (MAX_PLAYERS,)),      # action turns taken this round, 0..2
    ("box_user", np.int8, (N_BOXES,)),            # seat whose marker is on each box, NOBODY if free
    # ---- board (§3) ----
    ("cowboys", np.int8, (N_TOWNS, MAX_PLAYERS)), # cowboys of each seat in each town
    ("cattle", np.int8, (N_TOWNS, MAX_PLAYERS)),  # cattle counters of each seat in each town
    ("bt_owner", np.int8, (N_TOWNS, N_BT)),       # owner seat of the B&T counter of each type, NOBODY if none
    ("farmers", np.int8, (N_TOWNS,)),             # farmer counters in each town (neutral)
    ("frontier", np.int8),                        # highest town open for cattle (§8.1), 0..4
    # ---- players (§2) ----
    ("cash", np.int32, (MAX_PLAYERS,)),           # dollars, never negative
    ("cowboy_supply", np.int8, (MAX_PLAYERS,)),   # cowboys not on the board
    ("cattle_supply", np.int8, (MAX_PLAYERS,)),   # cattle counters not on the board
    ("bt_supply", np.int8, (MAX_PLAYERS, N_BT)),  # B&T counters in supply
    ("bt_removed", np.int8, (MAX_PLAYERS, N_BT)), # B&T counters removed from the game (banks, jails)
    ("farmer_used", np.int8, (MAX_PLAYERS,)),     # 1: the seat has placed its farmer (§8.6)
    ("farmers_removed", np.int8),                 # farmers killed in gunfights (§9.3)
    ("wanted", np.int8, (MAX_PLAYERS,)),          # Wanted counters held (§9.7)
    ("wanted_supply", np.int8),                   # Wanted counters in the shared supply
    ("bank_in", np.int32),                        # dollars paid to the bank so far (bids, prices)
    ("bank_out", np.int32),                       # dollars paid by the bank so far (income, stagecoach fares)
    # ---- the action being carried out (§8, §13.2) ----
    ("pend_box", np.int8),                        # box chosen at CHOOSE_ACTION, NO_BOX between actions
    ("pend_town1", np.int8),                      # first town chosen (buy, hire 1, from, build, farmer, fight)
    ("pend_town2", np.int8),                      # second town chosen (hire 2, move destination)
    ("pend_target", np.int8),                     # gunfight target kind, NO_TARGET
    ("pend_defender", np.int8),                   # defending seat of the gunfight, NOBODY (farmer / none yet)
    # ---- gunfight (§9) ----
    ("gf_active", np.bool_),                      # a gunfight is running (after its declaration)
    ("gf_step", np.int8),                         # STEP_* of the volley loop
    ("gf_volley", np.int8),                       # volley number, 1..50
    ("sheriff_side", np.int8),                    # SIDE_* where the jail's sheriff fights
    ("a_cow", np.int8),                           # attacker's cowboys still in the fight
    ("a_sher", np.int8),                          # the sheriff on the attacker side (0/1)
    ("d_cow", np.int8),                           # defender's cowboys still in the fight
    ("d_virt", np.int8),                          # intrinsic or default defender (0/1)
    ("d_sher", np.int8),                          # the sheriff on the defender side (0/1)
    ("d_farm", np.int8),                          # the fighting farmer (0/1)
    ("gf_attacker", np.int8),                     # attacking seat (the player on his action turn), NOBODY
    ("gf_winner", np.int8),                       # seat taking a Wanted counter (WANTED_STEAL), NOBODY
    ("retreat_seat", np.int8),                    # seat placing retreating cowboys, NOBODY
    ("retreat_left", np.int8),                    # retreating cowboys still to place, 0..3
    ("retreat_used", np.int8),                    # bit t: town t already received a retreating cowboy
])

# The fields whose empty value is not 0 or is a named code (core.fields): no building owner, bidder, box user or turn
# order yet, the full Wanted supply, no action in progress (``setup.clear_pending``) and no gunfight
EMPTY_VALUES = {
    "current": NOBODY, "turn_order": NOBODY, "bt_owner": NOBODY, "wanted_supply": N_WANTED,
    "bidding_order": NOBODY, "new_order": NOBODY, "high_bidder": NOBODY, "box_user": NOBODY, "pend_box": NO_BOX,
    "pend_town1": NO_TOWN, "pend_town2": NO_TOWN, "pend_target": NO_TARGET, "pend_defender": NOBODY,
    "gf_step": STEP_ATTACKER, "sheriff_side": SIDE_NONE, "gf_attacker": NOBODY, "gf_winner": NOBODY,
    "retreat_seat": NOBODY,
}
EMPTY_RECORD = empty_record(STATE_DTYPE, EMPTY_VALUES)
