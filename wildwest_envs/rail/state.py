"""The record of one Rail game (a batch is an array of these records), spec §12.1.

The record's dtype depends on the map (its hex and step counts):
``state_dtype(rail_map)``. Indices used by the fields:

* seats ``0..n-1`` (n = ``num_players`` <= 6); arrays are sized for 6 seats and
  unused seats hold 0 / -1;
* hexes ``h = row * W + col`` (§0.2); buildable steps ``e`` numbered as in
  ``maps`` (the ids of the BUILD actions); cities ``i`` in the order of the map
  file (``connected``, ``city_uses``); start cities in the map's list order.

``frontier`` is kept up to date as networks grow, so the legal steps of a
turn are a few word operations: ``frontier & allowed & cost <= BP`` (``building``).

Ownership is the spec's ``owner_t`` over buildable steps: ``own_t[e, s]`` is the
timestamp at which seat s built step e (0 = not owned, §0.2); a step's owners share one
cache line (every reader looks them up by step: fees, routes, invariants). The network of a
seat is kept as a bit mask per hex (``net[h]`` bit s set iff h is in Net(s),
§0.3); presence times are not stored: ``pres(s, H)`` is 0 in s's start city and
otherwise the smallest timestamp of s's steps and ferries ending in H
(``fees.presence``).

The build-fee bookkeeping ``paid[p][q][H]`` of §6.8 is not stored either: it
is always ``max(par(p, q, H), 1 if q = T(p, H) and touch bit p of touched[H])``,
because the parallel amount only grows and the touch fee is the only other
amount ever owed (``fees`` module docstring). ``touched[H]`` bit p records that
p paid the touch fee of H.

Candidate routes of the current race (§7.5) are summarised per seat and slot
(``cand_*``) and their hexes kept as bits of ``cand_hexes[h]`` (bit
``4 s + k``: hex h lies on slot k of seat s); an entrant's declared route is
his chosen slot. The race runs on what the candidates found (the rail graph
does not change during a race, §12.1): the pips of each step of the route in
order (``cand_need``, for a route of at most ``MAX_KEPT_STEPS`` steps; a longer
one, which no game on the shipped map has come near, is searched again) and its
raw fees (``cand_fee``).

Flag arrays are int8 0/1 (numba cannot type nested boolean arrays in a record).

A record stands either at a decision (``context`` < ``CTX_GAME_OVER``,
``current`` the seat to decide) or is finished (``done``, ``context`` =
``CTX_GAME_OVER``, ``current`` = -1).
"""

from __future__ import annotations

import numpy as np

from ..core.fields import empty_record
from ..core.rng import rng_fields
from .data import MAX_KEPT_STEPS, MAX_PLAYERS, MAX_PRIZES, N_SLOTS
from .maps import MAX_CITIES, MAX_FERRIES, RailMap, n_words

N_FORCED = 127  # scripted-chance queue: a scripted race needs many dice (core.rng)


def state_dtype(rail_map: RailMap) -> np.dtype:
    """The record dtype of a game on ``rail_map``."""
    n_hexes, n_steps = rail_map.n_hexes, rail_map.n_steps
    return np.dtype(rng_fields(N_FORCED) + [
        # ---- options (§4), fixed at init ----
        ("num_players", np.int8),                       # n, 2..6
        ("build_dice", np.int8),                        # 2 (both dice) or 1 (white die) (§6.3)
        ("shared_roll", np.bool_),                      # shared_build_roll (§6.3)
        ("build_rounds", np.int16),                     # build rounds for this n (§6.10)
        ("early_end", np.bool_),                        # build_early_end (§6.10)
        ("bonus", np.int16),                            # connection_bonus (§6.9)
        ("d_min", np.int16),                            # min(race_min_distance, largest city distance) (§7.2)
        ("n_candidates", np.int8),                      # route_candidates K, 1..3 (§7.5)
        ("fee_per_step", np.int16),                     # usage_fee_per_step (§7.7)
        ("fee_cap", np.int16),                          # usage_fee_cap (§7.7)
        ("prizes", np.int16, (MAX_PRIZES,)),            # prize of each place, best first (§7.9)
        ("n_prizes", np.int8),                          # len(prizes), 1..6
        ("resolution", np.int8),                        # RESOLUTION_* (§7.8, §9.6)
        ("ext_mode", np.int8),                          # EXT_* extension_mode (§7.10)
        ("ext_cap", np.int16),                          # extension_cap, BP per window (§7.10)
        ("ext_10pct", np.bool_),                        # extension_10pct (§9.6)
        ("end_mode", np.int8),                          # END_POINTS or END_RACES (§7.11)
        ("target", np.int32),                           # points_target for this n (§7.11)
        ("races_total", np.int16),                      # races of "races" mode; sizes the repeat rule (§7.2)
        ("avoid_repeat", np.bool_),                     # avoid_repeat_cities (§7.2)
        ("repeat_limit", np.int16),                     # ceil(2 races_total / cities) (§7.2)
        ("max_races", np.int16),                        # guard of "points" mode (§7.11)
        ("coop", np.bool_),                             # coop_building (§9.1)
        ("international", np.bool_),                    # international lines and races (§9.2, §9.3)
        ("intl_every", np.int16),                       # international_every (§9.3)
        ("flat_fee", np.bool_),                         # flat_usage_fee (§9.4)
        ("ferries_on", np.bool_),                       # ferries (§9.5)
        ("distinct_dirs", np.bool_),                    # the map's start_rule is distinct_directions (§3.5)
        ("auto_forced", np.bool_),                      # auto_forced (§11.4)
        ("max_decisions", np.int32),                    # max_env_steps: decisions before truncation (§11.4)
        # ---- progress ----
        ("n_decisions", np.int32),                      # agent decisions taken (steps with an action)
        ("context", np.int8),                           # CTX_* pending decision (§11.2)
        ("current", np.int8),                           # seat to decide, -1 when done
        ("done", np.bool_),                             # the game is over (§7.11)
        ("start_player", np.int8),                      # S (§5)
        ("start_rolls", np.int8, (MAX_PLAYERS,)),       # last start-player roll of each seat (§5)
        ("operating", np.bool_),                        # the operation phase has begun (§7)
        ("round", np.int16),                            # build round k (§6.1); after the build phase: R
        ("turn_pos", np.int8),                          # position of the turn in its round / race order, 0..n-1
        ("turn_used", np.int8, (MAX_PLAYERS,)),         # 1: seat's build turn of this round is taken or used up
        ("t", np.int16),                                # timestamp counter (§0.2)
        ("red", np.int8),                               # last red die rolled (0 before any roll)
        ("white", np.int8),                             # last white die rolled
        ("shared_bp", np.int8),                         # this round's shared BP (shared_build_roll)
        # ---- the turn being built (§6.2, §7.10, §9.1) ----
        ("builder", np.int8),                           # seat whose turn it is (proposer in a co-build)
        ("partner", np.int8),                           # co-build partner or proposed partner, -1
        ("funding", np.int8),                           # FUND_* of the turn
        ("bp_left", np.int16),                          # BP left (pooled BP in a co-build)
        ("own_bp", np.int8),                            # the builder's own roll this turn (for the pooled BP)
        ("turn_builds", np.int16),                      # steps and ferries built this turn
        ("coop_declined", np.bool_),                    # a proposal was declined this turn (§11.2)
        # ---- players ----
        ("balance", np.int32, (MAX_PLAYERS,)),          # money (§7.12)
        ("start_city", np.int8, (MAX_PLAYERS,)),        # index into the start-city list, -1 before the choice
        ("first_dir", np.int8, (MAX_PLAYERS,)),         # direction of the seat's first step out of its start city
        ("n_owned", np.int16, (MAX_PLAYERS,)),          # steps owned (invariant bookkeeping)
        ("window_bp", np.int16, (MAX_PLAYERS,)),        # account BP bought in this extension window (§7.10)
        ("race_income", np.int32, (MAX_PLAYERS,)),      # prizes + travel fees received (§9.6)
        ("bp_bought", np.int32, (MAX_PLAYERS,)),        # account BP bought over the game (§9.6)
        # ---- money bookkeeping (invariants: sum(balance) = prizes + bonuses - bank) ----
        ("total_prizes", np.int32),                     # all prizes paid
        ("total_bonus", np.int32),                      # all connection bonuses paid
        ("total_bank", np.int32),                       # all account-funded building paid to the bank
        ("bp_spent", np.int32),                         # BP of every build event (joint steps once)
        # ---- the board ----
        ("own_t", np.int16, (n_steps, MAX_PLAYERS)),    # timestamp of seat s's step e, 0 = not owned (§12.1)
        ("owners", np.uint8, (n_steps,)),               # bit s: seat s owns step e (the rail graph, §7.3)
        ("net", np.uint8, (n_hexes,)),                  # bit s: hex in Net(s) (§0.3)
        ("touched", np.uint8, (n_hexes,)),              # bit p: p paid the touch fee of the hex (§6.8)
        ("frontier", np.uint64, (MAX_PLAYERS, n_words(n_steps))),  # bit e: step e has an end in s's home network
                                                        # and s does not own it (the candidates of §6.5)
        ("connected", np.int8, (MAX_CITIES,)),          # 1: city i already connected (§6.9)
        ("ferry_owner", np.int8, (MAX_FERRIES,)),       # seat owning ferry f, -1 unbuilt (§9.5)
        ("ferry_t", np.int16, (MAX_FERRIES,)),          # its timestamp
        # ---- races (§7) ----
        ("race_k", np.int16),                           # index of the current (or next) race
        ("race_first", np.int8),                        # F_k (§7.1)
        ("race_start", np.int16),                       # start hex of the current race, -1 none
        ("race_goal", np.int16),                        # goal hex of a domestic race, -1 otherwise
        ("race_country", np.int8),                      # goal country of an international race, -1 domestic
        ("entry", np.int8, (MAX_PLAYERS,)),             # ENTRY_* per seat (§7.6)
        ("entry_slot", np.int8, (MAX_PLAYERS,)),        # chosen slot of an entrant, -1
        ("city_uses", np.int16, (MAX_CITIES,)),         # repeat-rule counts per city (§7.2)
        ("cand_valid", np.int8, (MAX_PLAYERS, N_SLOTS)),    # 1: candidate slot k of seat s is filled (§7.5)
        ("cand_pips", np.int16, (MAX_PLAYERS, N_SLOTS)),    # route pips
        ("cand_steps", np.int16, (MAX_PLAYERS, N_SLOTS)),   # steps of the route
        ("cand_own", np.int16, (MAX_PLAYERS, N_SLOTS)),     # own steps (and own ferries)
        ("cand_fee", np.int32, (MAX_PLAYERS, N_SLOTS, MAX_PLAYERS)),  # raw fee f(s -> q) (§7.7)
        ("cand_need", np.int8, (MAX_PLAYERS, N_SLOTS, MAX_KEPT_STEPS)),  # pips of the route's steps, in order
        ("cand_hexes", np.uint32, (n_hexes,)),          # bit 4 s + k: the hex lies on slot k of seat s
        ("last_place", np.int8, (MAX_PLAYERS,)),        # place of each seat in the last race (0 = first), -1
        ("last_prize", np.int16, (MAX_PLAYERS,)),       # prize of each seat in the last race
        ("last_fees", np.int16, (MAX_PLAYERS,)),        # net travel fees received (+) or paid (-) in the last race
        ("last_rounds", np.int16),                      # dice rounds of the last race
    ])


# The fields whose empty value is not 0 (core.fields): no seat to decide, no start city or first direction, no
# partner, race, entry or last place, no ferry built
EMPTY_VALUES = {
    "current": -1, "partner": -1, "start_city": -1, "first_dir": -1, "ferry_owner": -1, "race_start": -1,
    "race_goal": -1, "race_country": -1, "entry_slot": -1, "last_place": -1,
}


def empty_state(rail_map: RailMap) -> np.ndarray:
    """The record of a game on ``rail_map`` with every field empty (``core.fields.empty_record``), an array of
    one: ``rules.init`` copies it over every record before setting the game up."""
    return empty_record(state_dtype(rail_map), EMPTY_VALUES)
