"""Colt Express constants, component tables and the action layout.

Everything here is read-only data taken from ``rules/colt_express.md`` (the spec);
each table cites its section. Sizes are the fixed maxima of §2.10.

Action layout (Discrete(73), §11.2)::

    [0, 12)    PLAY_UP(k)      put card code k on the pile face up
    [12, 24)   PLAY_DOWN(k)    put card code k on the pile face down
    24         DRAW            draw 3 cards
    [25, 32)   CAR(c)          destination car c = 0..6
    [32, 38)   BANDIT(r)       egocentric bandit index r = 0..5
    [38, 56)   PURSE(i)        purse token i = 0..17
    56         JEWEL
    57         STRONGBOX
    58         BULLETS_DISCARD
    59         BULLETS_KEEP
    [60, 72)   DISCARD(k)      expert end of Schemin': set card code k aside
    72         KEEP_REST       expert end of Schemin': keep the rest
"""

from __future__ import annotations

import numpy as np

from ..core.tables import frozen as _frozen


# ---- sizes (§2.10) -------------------------------------------------------
MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_BANDITS = 6
MAX_CARS = 7  # locomotive + 6 carriages
N_LEVELS = 2
IN = 0  # inside a car (§0.2)
ROOF = 1  # on its roof (§0.2)
N_LOCATIONS = MAX_CARS * N_LEVELS  # location index = car * 2 + level
N_ROUNDS = 5
MAX_TURNS = 5  # turn icons on one round card
MAX_PILE = 24
MAX_DECK = 53  # cards owned by one seat: 10 (11) actions + 43 received bullets
N_PURSES = 18
N_JEWELS = 6
N_STRONGBOXES = 2
N_NEUTRAL_BULLETS = 13
BULLETS_PER_BANDIT = 6
START_MONEY_PURSE = 250
HAND_SIZE = 6
DOC_HAND_SIZE = 7
DRAW_COUNT = 3
MAX_DECISIONS = 700  # §2.10: every game takes fewer agent decisions

# ---- characters (§2.3) -----------------------------------------------------
GHOST, CHEYENNE, DJANGO, TUCO, DOC, BELLE = range(6)
N_CHARACTERS = 6
CHARACTER_NAMES = ("Ghost", "Cheyenne", "Django", "Tuco", "Doc", "Belle")

# ---- action cards (§2.4, §11.1) -------------------------------------------
MOVE, FLOOR, FIRE, PUNCH, ROB, MARSHAL = range(6)
N_KINDS = 6
KIND_NAMES = ("Move", "Floor change", "Fire", "Punch", "Rob", "Marshal")
CARD_COPIES = _frozen([2, 2, 2, 1, 2, 1], np.int8)  # copies of each kind per character
N_CARD_CODES = 12  # card code = 6 * slot + kind (§11.1)
BULLET_CARD = 12  # code of a (dead) bullet card in hands, decks, discards
N_CARD_KINDS_HELD = 13  # card codes 0..11 plus BULLET_CARD
NO_CARD = -1

# ---- carriages and loot (§2.1, §2.2) ---------------------------------------
N_CARRIAGE_TYPES = 6
LOCOMOTIVE_TYPE = 6  # the "type" of car 0 in observations
CARRIAGE_PURSES = _frozen([1, 3, 1, 3, 4, 0], np.int8)
CARRIAGE_JEWELS = _frozen([0, 0, 1, 1, 1, 3], np.int8)
PURSE_VALUES = _frozen([250] * 8 + [300, 300, 350, 350, 400, 400, 450, 450, 500, 500], np.int16)
JEWEL_VALUE = 500
STRONGBOX_VALUE = 1000
RANSOM_VALUE = 250  # Hostage of the Conductor (§8.8)
GUNSLINGER_BONUS = 1000  # §9.2

# purse token locations (§10.3): 0..13 a train location, then the holders
PURSE_ON_BANDIT = N_LOCATIONS  # + bandit id, 14..19
PURSE_IN_BOX = N_LOCATIONS + MAX_BANDITS  # 20
PURSE_REMOVED = PURSE_IN_BOX + 1  # 21, lost to Marshal's Revenge (§8.7)

# ---- round cards (§2.6, §2.7) ----------------------------------------------
TURN_NONE, TURN_NORMAL, TURN_TUNNEL, TURN_SPEEDUP, TURN_SWITCH = range(5)
TURN_CODES = ".NTSR"
EV_NONE, EV_ANGRY_MARSHAL, EV_SWIVEL_ARM, EV_BRAKING, EV_TAKE_IT_ALL, EV_REBELLION, \
    EV_PICKPOCKETING, EV_MARSHALS_REVENGE, EV_HOSTAGE = range(9)
EVENT_NAMES = ("none", "Angry Marshal", "Swivel Arm", "Braking", "Take It All",
               "Passengers' Rebellion", "Pickpocketing", "Marshal's Revenge",
               "Hostage of the Conductor")
N_ROUND_CARDS = 17


def _pattern(text: str) -> list[int]:
    icons = [TURN_CODES.index(c) for c in text.replace(" ", "")]
    return icons + [TURN_NONE] * (MAX_TURNS - len(icons))


_ROUND_CARD_TABLE = [  # (name, turn icons, event), §2.6
    ("Angry Marshal", "NNTR", EV_ANGRY_MARSHAL),
    ("Swivel Arm", "NTNN", EV_SWIVEL_ARM),
    ("Braking", "NNNN", EV_BRAKING),
    ("Take It All", "NTSN", EV_TAKE_IT_ALL),
    ("Passengers' Rebellion", "NNTNN", EV_REBELLION),
    ("Tunnel", "NTNTN", EV_NONE),
    ("Bridge", "NSN", EV_NONE),
    ("Angry Marshal", "NNR", EV_ANGRY_MARSHAL),
    ("Swivel Arm", "NTN", EV_SWIVEL_ARM),
    ("Braking", "NTNN", EV_BRAKING),
    ("Take It All", "NSR", EV_TAKE_IT_ALL),
    ("Passengers' Rebellion", "NTNR", EV_REBELLION),
    ("Tunnel", "NTNT", EV_NONE),
    ("Bridge", "NS", EV_NONE),
    ("Pickpocketing", "NNTN", EV_PICKPOCKETING),
    ("Marshal's Revenge", "NNTN", EV_MARSHALS_REVENGE),
    ("Hostage of the Conductor", "NNTN", EV_HOSTAGE),
]
ROUND_CARD_NAMES = tuple(name for name, _, _ in _ROUND_CARD_TABLE)
ROUND_CARD_TURNS = _frozen([_pattern(t) for _, t, _ in _ROUND_CARD_TABLE], np.int8)
ROUND_CARD_EVENT = _frozen([e for _, _, e in _ROUND_CARD_TABLE], np.int8)
SMALL_GROUP_CARDS = _frozen(range(0, 7), np.int8)  # 2-4 players
LARGE_GROUP_CARDS = _frozen(range(7, 14), np.int8)  # 5-6 players
STATION_CARDS = _frozen(range(14, 17), np.int8)

# ---- decisions (§11.3) -------------------------------------------------------
(DEC_NONE, DEC_PLAN, DEC_BULLETS, DEC_KEEP, DEC_MOVE_DEST, DEC_FIRE_TARGET, DEC_ROB_LOOT,
 DEC_PUNCH_TARGET, DEC_PUNCH_LOOT, DEC_PUNCH_DEST, DEC_MARSHAL_DEST, DEC_PICKPOCKET) = range(12)
N_DECISIONS = 12
DECISION_NAMES = ("NONE", "PLAN", "BULLETS", "KEEP", "MOVE_DEST", "FIRE_TARGET", "ROB_LOOT",
                  "PUNCH_TARGET", "PUNCH_LOOT", "PUNCH_DEST", "MARSHAL_DEST", "PICKPOCKET")

# ---- actions (§11.2) ---------------------------------------------------------
A_PLAY_UP = 0
A_PLAY_DOWN = 12
A_DRAW = 24
A_CAR = 25
A_BANDIT = 32
A_PURSE = 38
A_JEWEL = 56
A_STRONGBOX = 57
A_BULLETS_DISCARD = 58
A_BULLETS_KEEP = 59
A_DISCARD = 60
A_KEEP_REST = 72
N_ACTIONS = 73

# ---- options (§3.5) ----------------------------------------------------------
RANDOM = -1  # "draw this setup choice at random"
# slots of the option vector of ``rules.init`` (``options.OPTIONS`` declares what each holds)
OPT_NUM_PLAYERS = 0
OPT_EXPERT = 1
OPT_CHARACTERS = 2  # MAX_BANDITS slots: a character id per bandit, or RANDOM
OPT_CARRIAGES = OPT_CHARACTERS + MAX_BANDITS  # MAX_CARS - 1 slots: carriage types front to back, or RANDOM
OPT_AUTO_FORCED = OPT_CARRIAGES + MAX_CARS - 1
OPT_MAX_DECISIONS = OPT_AUTO_FORCED + 1
OPT_START_PLAYER = OPT_MAX_DECISIONS + 1  # a seat, or -1: drawn (G26)
N_OPTION_VALUES = OPT_START_PLAYER + 1
