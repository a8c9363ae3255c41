"""Way Out West constants, board tables and the action layout (spec §0-§4, §7.2, §13).

Everything here is read-only data built at import time from
``data/way_out_west.json`` (a copy of ``rules/way_out_west_data.json``; the JSON
wins for component data, the spec ``rules/way_out_west.md`` for rules). Each
table cites its section.

Indices (§0.2): seats ``0..N-1``, towns ``0..4`` (board numbers 1-5), building /
transport ("B&T") counter types ``0..5`` (stagecoach, train, bank, store, hotel,
jail), action boxes ``0..18``, gunfight target kinds ``0..7`` (the six B&T types,
cattle, farmer).

Action layout (``Discrete(59)``, §13.1)::

    0          PASS      drop out (AUCTION_BID), pass (CHOOSE_ACTION), stop (HIRE_TOWN_2)
    1, 2       YES, NO   SHERIFF_JOIN
    3, 4       SHOOT, RETREAT
    [5, 10)    TOWN_t
    [10, 15)   PLAYER_r  relative seat r: seat (actor + r) mod N; PLAYER_0 is never legal
    [15, 34)   BOX_b
    [34, 42)   RAISE_k   k = 1, 2, 3, 4, 5, 8, 12, 20
    [42, 51)   COUNT_n   n = 1..9
    [51, 59)   TARGET_x  stagecoach, train, bank, store, hotel, jail, cattle, farmer
"""

from __future__ import annotations

import numpy as np

from ..core.tables import frozen as _frozen, game_json

DATA_PATH, DATA = game_json(__file__, "way_out_west.json")


# ---- players and components (§2, §4) -----------------------------------------------------------
MIN_PLAYERS = DATA["players"]["min"]  # 3
MAX_PLAYERS = DATA["players"]["max"]  # 5
N_COWBOYS = DATA["per_player_components"]["cowboys"]  # 9 per player (§2)
N_CATTLE = DATA["per_player_components"]["cattle"]  # 9 per player
N_PER_BT_TYPE = DATA["per_player_components"]["each_building_transport_type"]  # 3 of each type per player
N_WANTED = DATA["shared_components"]["wanted_counters"]  # 13 in the shared supply
N_ACTION_MARKERS = DATA["per_player_components"]["action_markers"]  # 2 action turns per round (§7.1)
START_COWBOYS = DATA["setup"]["starting_cowboys_on_board"]  # 3 placed at setup (§4 step 4)
START_MONEY = _frozen([0, 0, 0] + [DATA["setup"]["starting_money"][str(n)] for n in range(3, MAX_PLAYERS + 1)],
                      np.int32)  # indexed by N: $20 (3-4 players), $25 (5 players) (§4)

# ---- towns (§3) ----------------------------------------------------------------------------------
N_TOWNS = len(DATA["towns"])  # 5
TOWN_NAMES = tuple(t["name"] for t in DATA["towns"])
BUILDING_SPACES = _frozen([t["building_spaces"] for t in DATA["towns"]], np.int8)  # 3, 4, 4, 5, 6
CORRALS = _frozen([t["corrals"] for t in DATA["towns"]], np.int8)  # 4, 5, 5, 6, 7
LAST_TOWN = N_TOWNS - 1  # the frontier never passes Deadwood (§8.1)
assert [t["id"] for t in DATA["towns"]] == list(range(N_TOWNS))

# ---- building / transport counters (§0.2, §8.5) --------------------------------------------------
BT_KEYS = tuple(c["key"] for c in DATA["counter_types"])
BT_NAMES = tuple(c["name"] for c in DATA["counter_types"])
N_BT = len(BT_KEYS)  # 6
STAGECOACH, TRAIN, BANK, STORE, HOTEL, JAIL = range(N_BT)
assert BT_KEYS == ("stagecoach", "train", "bank", "store", "hotel", "jail")
BT_PRICE = _frozen([c["price"] for c in DATA["counter_types"]], np.int32)  # $5, $20, $10, $5, $8, $3
INTRINSIC_DEFENDERS = _frozen([c["intrinsic_defenders"] for c in DATA["counter_types"]], np.int8)  # bank, train
MAX_BUILT_PER_TOWN = DATA["counter_rules"]["max_built_per_player_per_town"]  # 2 (§8.5)

# ---- gunfight target kinds (§9.2) ----------------------------------------------------------------
T_CATTLE = N_BT  # 6
T_FARMER = N_BT + 1  # 7
N_TARGETS = N_BT + 2  # 8
TARGET_NAMES = BT_NAMES + ("Cattle", "Farmer")

# ---- action boxes (§7.2) ---------------------------------------------------------------------------
N_BOXES = len(DATA["action_boxes"])  # 19
ACT_BUY_CATTLE, ACT_HIRE, ACT_MOVE_COWBOYS, ACT_MOVE_CATTLE, ACT_BUILD, ACT_FARMER, ACT_GUNFIGHT = range(7)
_ACTION_CODES = {"buy_cattle": ACT_BUY_CATTLE, "hire_cowboys": ACT_HIRE, "move_cowboys": ACT_MOVE_COWBOYS,
                 "move_cattle": ACT_MOVE_CATTLE, "build": ACT_BUILD, "place_farmer": ACT_FARMER,
                 "gunfight": ACT_GUNFIGHT}
assert [b["id"] for b in DATA["action_boxes"]] == list(range(N_BOXES))
BOX_ACTION = _frozen([_ACTION_CODES[b["action"]] for b in DATA["action_boxes"]], np.int8)  # ACT_* of each box
BOX_MIN_PLAYERS = _frozen([b["min_players"] for b in DATA["action_boxes"]], np.int8)  # active with N >= this
BOX_BT = _frozen([BT_KEYS.index(b["counter"]) if "counter" in b else -1 for b in DATA["action_boxes"]],
                 np.int8)  # B&T type built by a build box, -1 otherwise
BOX_KEYS = tuple(b["key"] for b in DATA["action_boxes"])
ACTION_NAMES = ("buy cattle", "hire cowboys", "move cowboys", "move cattle", "build", "place farmer", "gunfight")
PRICE_CATTLE = DATA["prices"]["cattle_per_counter"]  # $1 (§8.1)
PRICE_COWBOY = DATA["prices"]["cowboy_per_counter"]  # $1 (§8.2)
MAX_BUY = DATA["action_limits"]["buy_cattle_max_counters"]  # 2 (§8.1)
MAX_HIRE = DATA["action_limits"]["hire_cowboys_max"]  # 2 (§8.2)
MAX_MOVE_CATTLE = DATA["action_limits"]["move_cattle_max_counters"]  # 2 (§8.4)
STAGECOACH_FARE = DATA["stagecoach_trigger"]["amount_per_cowboy"]  # $1 per other player's cowboy (§8.8)

# ---- auction (§6) ------------------------------------------------------------------------------------
RAISE_STEPS = _frozen(DATA["auction"]["raise_steps_k"], np.int32)  # 1, 2, 3, 4, 5, 8, 12, 20 (§6.1)
N_RAISES = len(RAISE_STEPS)  # 8
MAX_AUCTION_DECISIONS = DATA["auction"]["max_decisions_per_auction"]  # 60 (§6.2)

# ---- gunfights (§9) -------------------------------------------------------------------------------------
HIT_MIN = min(DATA["gunfight"]["hit_on"])  # a die of 5 or 6 hits (§9.4)
DIE_SIDES = 6
MAX_VOLLEYS = DATA["gunfight"]["max_volleys"]  # 50 (§9.4 guard)
MAX_RUSTLED = DATA["gunfight"]["cattle_rustled_max"]  # 2 (§9.2)
ROBBERY_DICE = DATA["gunfight"]["bank_robbery_dice"]  # 3d6 (§9.8)
N_RETREAT_TOWNS = N_TOWNS - 1  # 4 other towns take one retreating cowboy each (§9.5)
N_DIE_QUEUE = DATA["state_limits"]["die_queue_size"]  # 64 preset dice (§13.3)

# ---- income and scoring (§10.2, §11) -----------------------------------------------------------------
_INCOME = DATA["income"]
CATTLE_INCOME = _INCOME["cattle_base"]  # $2
CATTLE_INCOME_FARMER = _INCOME["cattle_with_farmer"]  # $1
TRAIN_MULTIPLIER = _INCOME["train_multiplier"]  # x2
BANK_PER_COUNTER = _INCOME["bank_per_bt_counter_in_town"]  # $2 per counter in town, itself included
STORE_PER_CATTLE = _INCOME["store_per_other_cattle"]  # $1 per other players' cattle
STORE_PER_FARMER = _INCOME["store_per_farmer"]  # $2 per farmer
HOTEL_PER_COWBOY = _INCOME["hotel_per_other_cowboy"]  # $1 per other players' cowboy
INCOME_EVERY = 3  # income after every third round (§5, §10.1)
RICHEST_BONUS = DATA["scoring"]["richest_bonus"]  # 5 VP, split floor(5/k) (§11.3)
WANTED_BONUS = DATA["scoring"]["most_wanted_bonus"]  # 5 VP, split floor(5/k), at least 1 Wanted
ALLOWED_ROUNDS = tuple(DATA["rounds"]["allowed_number_of_rounds"])  # 3, 6, 9, 12 (§4)
DEFAULT_ROUNDS = DATA["rounds"]["default_number_of_rounds"]  # 12
MAX_ROUNDS = max(ALLOWED_ROUNDS)

# ---- decisions (§13.2) ----------------------------------------------------------------------------------
DECISION_NAMES = tuple(DATA["decision_types"])
N_DECISION_TYPES = len(DECISION_NAMES)  # 23
(DEC_SETUP_PLACE_COWBOY, DEC_AUCTION_BID, DEC_CHOOSE_ACTION, DEC_BUY_CATTLE_TOWN, DEC_BUY_CATTLE_COUNT,
 DEC_HIRE_TOWN_1, DEC_HIRE_TOWN_2, DEC_MOVE_COWBOYS_FROM, DEC_MOVE_COWBOYS_TO, DEC_MOVE_COWBOYS_COUNT,
 DEC_MOVE_CATTLE_FROM, DEC_MOVE_CATTLE_TO, DEC_MOVE_CATTLE_COUNT, DEC_BUILD_TOWN, DEC_FARMER_TOWN,
 DEC_GUNFIGHT_TOWN, DEC_GUNFIGHT_TARGET, DEC_GUNFIGHT_DEFENDER, DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER,
 DEC_VOLLEY_DEFENDER, DEC_RETREAT_DESTINATION, DEC_WANTED_STEAL) = range(N_DECISION_TYPES)
DEC_NONE = -1  # the game is over
assert DECISION_NAMES[DEC_WANTED_STEAL] == "WANTED_STEAL" and DECISION_NAMES[DEC_BUILD_TOWN] == "BUILD_TOWN"

# ---- actions (§13.1) --------------------------------------------------------------------------------------
A_PASS = 0
A_YES = 1
A_NO = 2
A_SHOOT = 3
A_RETREAT = 4
A_TOWN = 5  # + t
A_PLAYER = A_TOWN + N_TOWNS  # 10, + relative seat r
A_BOX = A_PLAYER + MAX_PLAYERS  # 15, + box
A_RAISE = A_BOX + N_BOXES  # 34, + index of k in RAISE_STEPS
A_COUNT = A_RAISE + N_RAISES  # 42, + n - 1
MAX_COUNT = N_COWBOYS  # COUNT_1..COUNT_9
A_TARGET = A_COUNT + MAX_COUNT  # 51, + target kind
N_ACTIONS = A_TARGET + N_TARGETS  # 59
assert N_ACTIONS == DATA["action_encoding"]["size"] == 59

ACTION_RANGES = (  # (name, start, size) in id order (§13.1)
    ("PASS", A_PASS, 1), ("YES", A_YES, 1), ("NO", A_NO, 1), ("SHOOT", A_SHOOT, 1), ("RETREAT", A_RETREAT, 1),
    ("TOWN", A_TOWN, N_TOWNS), ("PLAYER", A_PLAYER, MAX_PLAYERS), ("BOX", A_BOX, N_BOXES),
    ("RAISE", A_RAISE, N_RAISES), ("COUNT", A_COUNT, MAX_COUNT), ("TARGET", A_TARGET, N_TARGETS),
)

# ---- phases (§5) and fight sides (§9.3) ---------------------------------------------------------------------
PHASE_SETUP, PHASE_AUCTION, PHASE_ACTIONS, PHASE_OVER = range(4)
PHASE_NAMES = ("setup", "auction", "actions", "game over")
SIDE_NONE, SIDE_ATTACKER, SIDE_DEFENDER = range(3)  # where the sheriff fights
WIN_NOBODY, WIN_ATTACKER, WIN_DEFENDER = range(3)  # gunfight outcomes (§9.6)

# ---- option defaults -----------------------------------------------------------------------------------------
MAX_DECISIONS = 20_000  # default decision cap: above the longest game the rules allow (§14 bound, env docstring)
# slots of the option vector of ``rules.init`` (``options.OPTIONS`` declares what each holds)
OPT_NUM_PLAYERS, OPT_NUM_ROUNDS, OPT_START_PLAYER, OPT_AUTO_FORCED, OPT_MAX_DECISIONS, OPT_N_DICE = range(6)
OPT_DICE = OPT_N_DICE + 1  # N_DIE_QUEUE slots: the preset dice, OPT_N_DICE of them
N_OPTION_VALUES = OPT_DICE + N_DIE_QUEUE
