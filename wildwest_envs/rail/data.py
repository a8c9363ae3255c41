"""Rail constants, the default map and the action layout (spec §4, §11).

The map tables live in ``maps`` (one ``RailMap`` per map file); this module
loads the shipped western USA map (``data/western_usa.json``, a copy of
``rules/rail_western_usa.json``) as ``DEFAULT_MAP`` and holds the codes every
layer shares.

Action layout (one flat ``Discrete(A)``, ``A = n_steps + 27``; 1,797 on the
western USA map). ``base = n_steps``; the 27 ids after it keep the offsets of
§11.1::

    [0, n_steps)            BUILD_STEP(e)    build buildable step e (maps: ids in canonical step order)
    base + 0                END_TURN         end the build turn, co-build or extension turn
    base + 1 .. base + 8    CHOOSE_START(i)  start city i of the map's list
    base + 9                RACE_DECLINE
    base + 10 .. base + 13  RACE_ENTER(k)    candidate slot k: 0 cheapest, 1 fastest, 2 balanced, 3 never legal
    base + 14 .. base + 18  COOP_PROPOSE(j)  id base + 13 + j: partner seat (p + j) mod n, j = 1..5
    base + 19               COOP_ACCEPT
    base + 20               COOP_DECLINE
    base + 21               FUND_DICE
    base + 22               FUND_ACCOUNT
    base + 23 .. base + 26  BUILD_FERRY(f)

This is the spec's ``action_encoding = "steps"`` idea (one id per step, the
same effect from either end, §11.1 G42) with the ids of never-buildable
canonical steps (off the grid, into water, between two foreign hexes) left
out: the BUILD block has one id per buildable step and nothing else.
``hex_dir_action`` / ``action_hex_dir`` convert from and to the spec's default
``6h + d`` ids.
"""

from __future__ import annotations

from pathlib import Path

from .maps import HX_NBR, HX_STEP, RailMap, load_map

MAP_PATH = Path(__file__).parent / "data" / "western_usa.json"
DEFAULT_MAP: RailMap = load_map(MAP_PATH)

# ---- players and fixed maxima (§0.2, §12.1) ---------------------------------------------------------------------
MIN_PLAYERS, MAX_PLAYERS = 2, 6
N_SLOTS = 4  # candidate slots in the action encoding (§7.5)
N_ROUTE_OBJECTIVES = 3  # slots 0..2 are filled; slot 3 is reserved (§7.5)
MAX_KEPT_STEPS = 64  # a candidate route keeps the pips of its steps (``cand_need``) when it has at most this many
MAX_PRIZES = 6
NOBODY = -1
MAX_RACE_ROUNDS = 1000  # race guard (§7.8)
DIE_SIDES = 6

# ---- action offsets from base = n_steps (§11.1) -----------------------------------------------------------------
OFF_END_TURN = 0
OFF_CHOOSE_START = 1  # + i
OFF_RACE_DECLINE = 9
OFF_RACE_ENTER = 10  # + k
OFF_COOP_PROPOSE = 13  # + j, j = 1..5
OFF_COOP_ACCEPT = 19
OFF_COOP_DECLINE = 20
OFF_FUND_DICE = 21
OFF_FUND_ACCOUNT = 22
OFF_BUILD_FERRY = 23  # + f
N_OTHER_ACTIONS = 27

# ---- decision contexts (§11.2) ------------------------------------------------------------------------------------
CTX_START_CHOICE, CTX_BUILD, CTX_COOP_RESPONSE, CTX_COOP_BUILD, CTX_RACE_ENTRY, CTX_EXT_FUNDING, CTX_EXT_BUILD, \
    CTX_GAME_OVER = range(8)
CONTEXT_NAMES = ("START_CHOICE", "BUILD", "COOP_RESPONSE", "COOP_BUILD", "RACE_ENTRY", "EXT_FUNDING", "EXT_BUILD",
                 "GAME_OVER")
N_CONTEXTS = 8

# ---- entry states of a race (§7.6) --------------------------------------------------------------------------------
ENTRY_UNDECIDED, ENTRY_DECLINED, ENTRY_ENTERED = 0, 1, 2

# ---- funding of the turn being built (§6.3, §7.10) ----------------------------------------------------------------
FUND_NONE, FUND_BP, FUND_ACCOUNT = 0, 1, 2  # FUND_BP: dice (build turn, co-build, dice-funded extension)

# ---- option codes (§4) --------------------------------------------------------------------------------------------
RESOLUTION_DICE, RESOLUTION_ROUTE_LENGTH = 0, 1
EXT_ACCOUNT, EXT_DICE, EXT_DICE_OR_ACCOUNT = 0, 1, 2
END_POINTS, END_RACES = 0, 1
RESOLUTIONS = {"dice": RESOLUTION_DICE, "route_length": RESOLUTION_ROUTE_LENGTH}
EXTENSION_MODES = {"account": EXT_ACCOUNT, "dice": EXT_DICE, "dice_or_account": EXT_DICE_OR_ACCOUNT}
END_MODES = {"points": END_POINTS, "races": END_RACES}
START_RULES = {"any": 0, "distinct_directions": 1}

# ---- defaults of §4 -----------------------------------------------------------------------------------------------
POINTS_TARGET = {2: 250, 3: 250, 4: 225, 5: 200, 6: 200}
DEFAULT_PRIZES = (20, 10)
MAX_DECISIONS = 50_000  # max_env_steps of §4 / §11.4


def n_actions(rail_map: RailMap) -> int:
    """Size of the action space of a map: one id per buildable step plus the 27 others (module docstring)."""
    return rail_map.n_steps + N_OTHER_ACTIONS


def hex_dir_action(rail_map: RailMap, spec_id: int) -> int:
    """The action id of a spec-default id (``6h + d`` for BUILD, ``6N + offset`` for the rest, §11.1); -1 if none."""
    n6 = 6 * rail_map.n_hexes
    if spec_id >= n6:
        offset = spec_id - n6
        return rail_map.n_steps + offset if 0 <= offset < N_OTHER_ACTIONS else -1
    h, d = divmod(spec_id, 6)
    if h < 0:
        return -1
    return int(rail_map.tables.hexes[h, HX_STEP + d])


def action_hex_dir(rail_map: RailMap, action: int, source: int | None = None) -> int:
    """The spec-default id of an action: BUILD from ``source`` (default the step's canonical end), else 6N + offset."""
    if action >= rail_map.n_steps:
        return 6 * rail_map.n_hexes + action - rail_map.n_steps
    steps = rail_map.tables.steps
    a, b = int(steps[action, 0]), int(steps[action, 1])
    source = a if source is None else source
    other = b if source == a else a
    for d in range(6):
        if rail_map.tables.hexes[source, HX_NBR + d] == other:
            return 6 * source + d
    raise ValueError(f"hex {source} is not an end of step {action}")


# ---- the option vector passed to ``rules.init`` (``options.kernel_options`` fills it) -----------------------------
(OPT_NUM_PLAYERS, OPT_BUILD_DICE, OPT_SHARED_ROLL, OPT_BUILD_ROUNDS, OPT_EARLY_END, OPT_BONUS, OPT_RACE_MIN_DISTANCE,
 OPT_N_CANDIDATES, OPT_FEE_PER_STEP, OPT_FEE_CAP, OPT_N_PRIZES, OPT_RESOLUTION, OPT_EXT_MODE, OPT_EXT_CAP,
 OPT_EXT_10PCT, OPT_END_MODE, OPT_TARGET, OPT_RACES_TOTAL, OPT_AVOID_REPEAT, OPT_MAX_RACES, OPT_COOP,
 OPT_INTERNATIONAL, OPT_INTL_EVERY, OPT_FLAT_FEE, OPT_FERRIES, OPT_DISTINCT_DIRS, OPT_AUTO_FORCED,
 OPT_MAX_DECISIONS, OPT_START_PLAYER, OPT_PRIZES) = range(30)
N_OPTION_VALUES = OPT_PRIZES + MAX_PRIZES  # prizes fill the last MAX_PRIZES entries
