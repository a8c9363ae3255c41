"""Wild West Express constants, board tables and the action layout.

Everything here is read-only data built at import time from
``data/board.json`` (a copy of ``rules/wild_west_express_board.json``; the JSON
wins for board data, the spec ``rules/wild_west_express.md`` for rules). Each
table cites its section. Sizes are the fixed maxima of §17.5.

Space ids (§0.2): cities 0..25 (space id == city id), junctions 26..30, track
spaces 31..313. Cargo codes (one int8 per cargo slot, §4.1, §17.5)::

    CARGO_EMPTY = -1     empty slot
    0..8                 a goods token of good g
    9..11                a passenger token picked up in zone z = code - PASSENGER_BASE

Action layout (Discrete(553), §17.1)::

    [0, 314)    SPACE(s)              space s (meaning depends on the decision)
    [314, 320)  TRAIN(t)              own train slot t
    [320, 374)  BUY_GOOD(t, g)        id = 320 + 9 t + g
    [374, 380)  LOAD_PASSENGERS(t)
    [380, 406)  BUY_STATION(c)
    [406, 432)  BUY_SMALL_TRAIN(c)
    [432, 458)  BUY_LARGE_TRAIN(c)
    [458, 464)  UPGRADE_TRAIN(t)
    [464, 516)  PLAY_CARD(k)          held personal card id k
    [516, 518)  UNLOAD_SLOT(j)
    518         STOP
    519         HOLD
    520         REHIRE
    [521, 523)  SHERIFF(k)
    [523, 526)  DESPERADO(k)
    [526, 552)  BUY_DESPERADO(c)      alternative rule only
    552         END
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..core.tables import frozen as _frozen, game_json

BOARD_PATH, BOARD = game_json(__file__, "board.json")


# ---- fixed maxima (§17.5) --------------------------------------------------------------------
MIN_PLAYERS = BOARD["constants"]["players_min"]  # 2
MAX_PLAYERS = BOARD["constants"]["players_max"]  # 5
MAX_TRAINS = BOARD["constants"]["max_trains_per_player"]  # 6 train slots per player (§0.2)
N_CARGO = BOARD["constants"]["cargo_slots"]["large"]  # 2 cargo slots per train (§4.1)
MAX_DESPERADOS = 3  # desperados per player: cap with component_limits off (§15)
N_SHERIFFS = BOARD["constants"]["sheriffs"]  # 2
DYNAMITE_SUPPLY = BOARD["constants"]["dynamite_supply"]  # 18 tokens (§2)
N_COMPETITION_SLOTS = BOARD["constants"]["competition_slots"]  # 3 (§13.3)
N_CARDS = BOARD["constants"]["telegram_deck_size"]  # 52 telegram cards (§13.1)
MAX_DUELS = 12  # duels on one space: 4 opponents x 3 desperados (§17.5)
MAX_EXTRA_MOVES = 12  # extra moves in one turn (§13.3)
MAX_TURN_DECISIONS = 1000  # safety limit of decisions in one turn (§14.4)
N_DICE = BOARD["constants"]["dice"]["count"]  # 3
DIE_SIDES = BOARD["constants"]["dice"]["sides"]  # 6

# ---- the board (§3) ------------------------------------------------------------------------------
N_SPACES = len(BOARD["spaces"])  # 314
N_CITIES = len(BOARD["cities"])  # 26
N_JUNCTIONS = len(BOARD["junctions"])  # 5
N_ROUTES = len(BOARD["routes"])  # 46
N_ZONES = len(BOARD["time_zones"])  # 3
N_GOODS = len(BOARD["goods"])  # 9
FIRST_JUNCTION = N_CITIES  # 26
FIRST_TRACK = N_CITIES + N_JUNCTIONS  # 31
NO_SPACE = -1  # no space / off the board
FREE = -1  # a train's came_from when its direction is free (§7.2)
MOUNTAIN_ZONE = 1  # Blizzard zone (§13.5)

SPACE_CITY, SPACE_JUNCTION, SPACE_TRACK = range(3)  # space types (§3.1)
SPECIAL_NONE, SPECIAL_TELEGRAM, SPECIAL_STAR = range(3)  # track-space symbols (§3.1)
_TYPE_CODES = {"city": SPACE_CITY, "junction": SPACE_JUNCTION, "track": SPACE_TRACK}
_SPECIAL_CODES = {None: SPECIAL_NONE, "telegram": SPECIAL_TELEGRAM, "sheriff_star": SPECIAL_STAR}

MAX_DEGREE = max(len(s["neighbours"]) for s in BOARD["spaces"])  # 4


def _build_neighbours(spaces: list[dict]) -> np.ndarray:
    """Neighbours of each space, NO_SPACE-padded to MAX_DEGREE (§3.1 adjacency)."""
    out = np.full((len(spaces), MAX_DEGREE), NO_SPACE, dtype=np.int16)
    for s in spaces:
        out[s["id"], :len(s["neighbours"])] = sorted(s["neighbours"])
    return out


def _build_distances(neighbours: np.ndarray) -> np.ndarray:
    """Fewest steps between every pair of spaces, over the whole graph (§13.5 Round-up)."""
    n = len(neighbours)
    dist = np.full((n, n), -1, dtype=np.int16)
    for src in range(n):
        dist[src, src] = 0
        queue = deque([src])
        while queue:
            x = queue.popleft()
            for y in neighbours[x]:
                if y >= 0 and dist[src, y] < 0:
                    dist[src, y] = dist[src, x] + 1
                    queue.append(int(y))
    return dist


assert [s["id"] for s in BOARD["spaces"]] == list(range(N_SPACES))
NEIGHBOURS = _frozen(_build_neighbours(BOARD["spaces"]), np.int16)  # (314, 4), sorted, -1-padded
DEGREE = _frozen([len(s["neighbours"]) for s in BOARD["spaces"]], np.int8)
SPACE_TYPE = _frozen([_TYPE_CODES[s["type"]] for s in BOARD["spaces"]], np.int8)
IS_CITY = _frozen([s["type"] == "city" for s in BOARD["spaces"]], np.bool_)
SPACE_SPECIAL = _frozen([_SPECIAL_CODES[s["special"]] for s in BOARD["spaces"]], np.int8)
SPACE_ZONE = _frozen([s["zone"] for s in BOARD["spaces"]], np.int8)
SPACE_X = _frozen([s["x"] for s in BOARD["spaces"]], np.float64)  # rendering only (§3.1)
SPACE_Y = _frozen([s["y"] for s in BOARD["spaces"]], np.float64)
SPACE_ROUTE = _frozen([-1 if s["route"] is None else s["route"] for s in BOARD["spaces"]], np.int8)
DISTANCE = _frozen(_build_distances(NEIGHBOURS), np.int16)  # (314, 314) fewest steps
SPACE_NAMES = tuple(s["name"] or str(s["id"]) for s in BOARD["spaces"])

MAX_ROUTE_LENGTH = max(len(r["spaces"]) for r in BOARD["routes"])  # endpoints included
ROUTE_ENDPOINTS = _frozen([r["endpoints"] for r in BOARD["routes"]], np.int16)  # (46, 2) from, to
ROUTE_SPACES = _frozen([r["spaces"] + [NO_SPACE] * (MAX_ROUTE_LENGTH - len(r["spaces"]))
                        for r in BOARD["routes"]], np.int16)  # from, track spaces..., to; -1-padded

# ---- cities, goods, prices (§3.3, §4.3) --------------------------------------------------------------
GOOD_KEYS = tuple(g["key"] for g in BOARD["goods"])
GOOD_NAMES = tuple(g["name"] for g in BOARD["goods"])
PURCHASE_PRICE = _frozen([g["purchase_price"] for g in BOARD["goods"]], np.int32)  # §4.3
PREMIUM_PER_STEP = _frozen([g["premium_per_step"] for g in BOARD["goods"]], np.int32)  # §4.3 price formula
CITY_KEYS = tuple(c["key"] for c in BOARD["cities"])
CITY_NAMES = tuple(c["name"] for c in BOARD["cities"])
CITY_ZONE = _frozen([c["zone"] for c in BOARD["cities"]], np.int8)
ZONE_NAMES = tuple(z["name"] for z in BOARD["time_zones"])


def _price_table(field: str) -> np.ndarray:
    table = np.zeros((N_CITIES, N_GOODS), dtype=np.int32)
    for c in BOARD["cities"]:
        for key, price in c[field].items():
            table[c["id"], GOOD_KEYS.index(key)] = price
    return table


SELL_PRICE = _frozen(_price_table("supply"), np.int32)  # (26, 9) price a player PAYS to buy g in c; 0 = not sold
BUY_PRICE = _frozen(_price_table("demand"), np.int32)  # (26, 9) price a player RECEIVES selling g in c; 0 = not bought
START_CARGO = _frozen([GOOD_KEYS.index(c["start_cargo"]) for c in BOARD["cities"]], np.int8)  # §5 item 4

# ---- cargo codes (§4.1, §4.4) -------------------------------------------------------------------
CARGO_EMPTY = -1
PASSENGER_BASE = N_GOODS  # passenger of pickup zone z = PASSENGER_BASE + z
N_CARGO_CODES = N_GOODS + N_ZONES  # 12

# ---- constants of the rules (§4, §8, §10, §11, §14, §19) ------------------------------------------
_C = BOARD["constants"]
START_CASH = _C["start_cash"]  # $450 (§5 item 5)
VICTORY_TARGET = _frozen([0, 0] + [_C["victory_target"][str(n)] for n in range(2, MAX_PLAYERS + 1)],
                         np.int8)  # indexed by N (§14.2)
VP_SMALL_TRAIN = _C["vp"]["small_train"]  # 1
VP_LARGE_TRAIN = _C["vp"]["large_train"]  # 2
VP_STATION = _C["vp"]["station"]  # 1
CASH_UNIT = _C["vp"]["cash_unit"]  # $1200
VP_PER_CASH_UNIT = _C["vp"]["vp_per_cash_unit"]  # 2
PRICE_SMALL_TRAIN = _C["price"]["small_train"]  # $500
PRICE_LARGE_TRAIN = _C["price"]["large_train"]  # $1100
PRICE_UPGRADE = _C["price"]["upgrade"]  # $600
PRICE_STATION = _C["price"]["station"]  # $400
PRICE_DYNAMITE = _C["price"]["dynamite"]  # $20
PRICE_DYNAMITE_ALT = _C["price"]["dynamite_alternative"]  # $50 (default of option dynamite_price_alt)
PRICE_EXTRA_GANG = _C["price"]["extra_desperado_alternative"]  # $250 (default of option extra_gang_price)
FEE_SMALL = _C["coal_and_water_fee"]["small"]  # $20 (§8.3)
FEE_LARGE = _C["coal_and_water_fee"]["large"]  # $40
OWNER_BONUS = _C["owner_bonus_per_goods_token"]  # $20 per goods token (§8.1)
FARE_BY_LINES = _frozen(_C["passenger_fare_by_lines_crossed"], np.int32)  # $0, $30, $90 (§4.4)
LOOT_PER_TOKEN = _C["loot_per_token"]  # $100 (§10.3)
DYNAMITE_PER_TURN = _C["dynamite_max_bought_per_turn"]  # 3 (§11.1)
DYNAMITE_MAX_GROUP = _C["dynamite_max_group"]  # 3 (§11.1)
LIMIT_STATIONS = _C["component_limits_per_player"]["station_flags"]  # 6 (§2.1)
LIMIT_SMALL = _C["component_limits_per_player"]["small_trains"]  # 4
LIMIT_LARGE = _C["component_limits_per_player"]["large_trains"]  # 2
LIMIT_DESPERADOS = _C["component_limits_per_player"]["desperados"]  # 2
START_DESPERADOS = _C["desperados_per_player"]["default"]  # 1 (§5 item 3)
START_DESPERADOS_TWO_PLAYER = _C["desperados_per_player"]["two_player_variant"]  # 2
COMPETITION_EXPIRY_ROUNDS = _C["competition_expiry_rounds"]  # 8 (§13.3)
TURN_CAP_ROUNDS = _C["turn_cap_rounds"]  # 150 (§14.4)
LAND_GRANT_PRICE = 200  # §13.5 Land Grant (card params)

# ---- telegram cards (§13.5) ----------------------------------------------------------------------
CARD_TYPE_KEYS = tuple(t["type"] for t in sorted(BOARD["telegram_card_types"], key=lambda t: t["type_id"]))
(T_EXTRA_MOVE_3, T_EXTRA_MOVE_6, T_BACKTRACK_3, T_SUBSIDY_100, T_SUBSIDY_200, T_DYNAMITE_CRATE, T_ARMED_GUARDS,
 T_FRIEND_OF_THE_LAW, T_TRACK_CREW, T_LAND_GRANT, T_HIDEOUT, T_BLIZZARD, T_MAIL_CONTRACT, T_TERRITORIAL_TAX,
 T_ARMY_ENGINEERS, T_SHERIFF_ROUNDUP, T_BANK_DIVIDEND, T_QUARANTINE, T_DELIVERY_CONTRACT, T_GRAND_EXCURSION,
 T_LAND_BOOM, T_MAIL_RACE, T_RAILROAD_EXPO) = range(23)
N_CARD_TYPES = 23
CLASS_PERSONAL, CLASS_PUBLIC, CLASS_COMPETITION = range(3)
_CLASS_CODES = {"personal": CLASS_PERSONAL, "public": CLASS_PUBLIC, "competition": CLASS_COMPETITION}
assert CARD_TYPE_KEYS[T_RAILROAD_EXPO] == "RAILROAD_EXPO" and CARD_TYPE_KEYS[T_HIDEOUT] == "HIDEOUT"

_CARDS = BOARD["telegram_cards"]
assert [c["id"] for c in _CARDS] == list(range(N_CARDS))
CARD_NAMES = tuple(c["name"] for c in _CARDS)
CARD_TYPE = _frozen([CARD_TYPE_KEYS.index(c["type"]) for c in _CARDS], np.int8)  # type id of each card
CARD_CLASS = _frozen([_CLASS_CODES[c["class"]] for c in _CARDS], np.int8)
CARD_STEPS = _frozen([c["params"].get("spaces", 0) for c in _CARDS], np.int8)  # extra-move length, 0 otherwise
CARD_BACKTRACK = _frozen([c["type"] == "BACKTRACK_3" for c in _CARDS], np.bool_)
CARD_AMOUNT = _frozen([c["params"].get("amount", c["params"].get("per_station", 0)) for c in _CARDS],
                      np.int32)  # subsidies, dividend, tax, mail contract per station
CARD_BONUS = _frozen([c["params"].get("bonus", 0) for c in _CARDS], np.int32)  # competition bonus
CARD_GOOD = _frozen([c["params"].get("good", -1) for c in _CARDS], np.int8)  # delivery contract good
CARD_CITY = _frozen([c["params"].get("city", -1) for c in _CARDS], np.int8)  # delivery contract / mail race city
CARD_MAX_TOKENS = _frozen([c["params"].get("max_tokens", 0) for c in _CARDS], np.int8)  # Crate, Track Crew
NO_CARD = -1

# ---- decisions (§17.2) ------------------------------------------------------------------------------
(DEC_DRAFT_CITY, DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DEC_SELECT_TRAIN, DEC_TRAIN_STEP, DEC_ARRIVAL,
 DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN, DEC_CARD_TRAIN, DEC_CARD_DYNAMITE_PLACE,
 DEC_CARD_DYNAMITE_REMOVE, DEC_CARD_CITY, DEC_CARD_DESPERADO, DEC_CARD_HIDEOUT_CITY, DEC_DESPERADO_STEP,
 DEC_REHIRE_TARGET) = range(17)
N_DECISION_TYPES = 17
DEC_NONE = -1  # no pending decision (the game is over)
DECISION_NAMES = tuple(d["name"] for d in BOARD["decision_types"])
assert DECISION_NAMES[DEC_REHIRE_TARGET] == "REHIRE_TARGET" and len(DECISION_NAMES) == N_DECISION_TYPES

# ---- actions (§17.1) -------------------------------------------------------------------------------
A_SPACE = 0
A_TRAIN = A_SPACE + N_SPACES  # 314
A_BUY_GOOD = A_TRAIN + MAX_TRAINS  # 320, + 9 t + g
A_LOAD_PASSENGERS = A_BUY_GOOD + MAX_TRAINS * N_GOODS  # 374
A_BUY_STATION = A_LOAD_PASSENGERS + MAX_TRAINS  # 380
A_BUY_SMALL_TRAIN = A_BUY_STATION + N_CITIES  # 406
A_BUY_LARGE_TRAIN = A_BUY_SMALL_TRAIN + N_CITIES  # 432
A_UPGRADE_TRAIN = A_BUY_LARGE_TRAIN + N_CITIES  # 458
A_PLAY_CARD = A_UPGRADE_TRAIN + MAX_TRAINS  # 464
A_UNLOAD_SLOT = A_PLAY_CARD + N_CARDS  # 516
A_STOP = A_UNLOAD_SLOT + N_CARGO  # 518
A_HOLD = A_STOP + 1  # 519
A_REHIRE = A_HOLD + 1  # 520
A_SHERIFF = A_REHIRE + 1  # 521
A_DESPERADO = A_SHERIFF + N_SHERIFFS  # 523
A_BUY_DESPERADO = A_DESPERADO + MAX_DESPERADOS  # 526
A_END = A_BUY_DESPERADO + N_CITIES  # 552
N_ACTIONS = A_END + 1  # 553

ACTION_RANGES = (  # (name, start, size), in id order (§17.1)
    ("SPACE", A_SPACE, N_SPACES), ("TRAIN", A_TRAIN, MAX_TRAINS), ("BUY_GOOD", A_BUY_GOOD, MAX_TRAINS * N_GOODS),
    ("LOAD_PASSENGERS", A_LOAD_PASSENGERS, MAX_TRAINS), ("BUY_STATION", A_BUY_STATION, N_CITIES),
    ("BUY_SMALL_TRAIN", A_BUY_SMALL_TRAIN, N_CITIES), ("BUY_LARGE_TRAIN", A_BUY_LARGE_TRAIN, N_CITIES),
    ("UPGRADE_TRAIN", A_UPGRADE_TRAIN, MAX_TRAINS), ("PLAY_CARD", A_PLAY_CARD, N_CARDS),
    ("UNLOAD_SLOT", A_UNLOAD_SLOT, N_CARGO), ("STOP", A_STOP, 1), ("HOLD", A_HOLD, 1), ("REHIRE", A_REHIRE, 1),
    ("SHERIFF", A_SHERIFF, N_SHERIFFS), ("DESPERADO", A_DESPERADO, MAX_DESPERADOS),
    ("BUY_DESPERADO", A_BUY_DESPERADO, N_CITIES), ("END", A_END, 1),
)
assert N_ACTIONS == BOARD["action_layout"]["n_actions"] == 553
assert [(r["name"], r["start"], r["size"]) for r in BOARD["action_layout"]["ranges"]] == list(ACTION_RANGES)

# ---- option codes passed to the kernels (§15) -----------------------------------------------------------
CASH_VP_PER_1200, CASH_VP_THRESHOLD = range(2)  # cash_vp_mode
CAP_SCORING_VP, CAP_SCORING_DRAW = range(2)  # cap_scoring
MAX_DECISIONS = 2_000_000_000  # default engine turn cap in decisions; the game's own cap is max_rounds (§14.4)
# slots of the option vector of ``rules.init`` (``options.OPTIONS`` declares what each holds)
(OPT_NUM_PLAYERS, OPT_VICTORY_TARGET, OPT_CASH_VP_MODE, OPT_TWO_PLAYER_EXTRA_DESPERADO, OPT_ALT_DYNAMITE,
 OPT_ALT_EXTRA_GANG, OPT_DYNAMITE_PRICE_ALT, OPT_EXTRA_GANG_PRICE, OPT_COMPONENT_LIMITS, OPT_ALLOW_HOLD_IN_CITY,
 OPT_COMPETITION_EXPIRY_ROUNDS, OPT_MAX_ROUNDS, OPT_CAP_SCORING, OPT_AUTO_FORCED, OPT_MAX_DECISIONS,
 OPT_START_PLAYER) = range(16)
N_OPTION_VALUES = 16

# ---- phases of the turn (§6, §17.5 level 1) ------------------------------------------------------------
PHASE_SETUP, PHASE_PRE_ROLL, PHASE_MOVEMENT, PHASE_DESPERADO, PHASE_OVER = range(5)
PHASE_NAMES = ("SETUP", "PRE_ROLL", "MOVEMENT", "DESPERADO", "OVER")
