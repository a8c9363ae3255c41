"""Wild West Express options (spec §15), declared once (``core.options``) and validated with clear errors.

| option | values | default |
|---|---|---|
| ``num_players`` | 2-5 | 4 |
| ``victory_target`` | int >= 5, or None (table of §14.2) | None |
| ``cash_vp_mode`` | ``"per_1200"``, ``"threshold"`` | ``"per_1200"`` |
| ``two_player_extra_desperado`` | bool (no effect with N > 2) | True |
| ``alt_dynamite`` | bool | False |
| ``alt_extra_gang`` | bool | False |
| ``dynamite_price_alt`` | int 0..32767 | 50 |
| ``extra_gang_price`` | int 0..32767 | 250 |
| ``component_limits`` | bool | True |
| ``allow_hold_in_city`` | bool | True |
| ``competition_expiry_rounds`` | int >= 0 (0 = never) | 8 |
| ``max_rounds`` | int >= 1 | 150 |
| ``cap_scoring`` | ``"vp"``, ``"draw"`` | ``"vp"`` |
| ``auto_forced`` | bool | True |
| ``max_decisions`` | int >= 1: engine decision cap (core truncation) | 2,000,000,000 |
| ``start_player`` | None (drawn, §5 item 1) or a seat 0..N-1 (the deck is the seed's either way) | None |

``reward_mode`` (§14.5) belongs to the environment layer, not to the rules
engine, and is not an option here. Upper bounds not in the spec come from the
field sizes of ``state.STATE_DTYPE`` (victory_target <= 127, max_rounds and
competition_expiry_rounds <= 32767 / N so a countdown fits int16).
``OPTIONS.kernel_vector`` lays them out for ``rules.init`` at the ``data.OPT_*`` slots.
"""

from __future__ import annotations

from ..core.options import (Option, OptionTable, auto_forced_option, boolean, choice, integer, max_decisions_option,
                             optional, start_player_option)
from .data import (CAP_SCORING_DRAW, CAP_SCORING_VP, CASH_VP_PER_1200, CASH_VP_THRESHOLD, COMPETITION_EXPIRY_ROUNDS,
                   MAX_DECISIONS, MAX_PLAYERS, MIN_PLAYERS, N_OPTION_VALUES, OPT_ALLOW_HOLD_IN_CITY, OPT_ALT_DYNAMITE,
                   OPT_ALT_EXTRA_GANG, OPT_AUTO_FORCED, OPT_CAP_SCORING, OPT_CASH_VP_MODE,
                   OPT_COMPETITION_EXPIRY_ROUNDS, OPT_COMPONENT_LIMITS, OPT_DYNAMITE_PRICE_ALT, OPT_EXTRA_GANG_PRICE,
                   OPT_MAX_DECISIONS, OPT_MAX_ROUNDS, OPT_NUM_PLAYERS, OPT_START_PLAYER, OPT_TWO_PLAYER_EXTRA_DESPERADO,
                   OPT_VICTORY_TARGET, PRICE_DYNAMITE_ALT, PRICE_EXTRA_GANG, TURN_CAP_ROUNDS)

CASH_VP_MODES = {"per_1200": CASH_VP_PER_1200, "threshold": CASH_VP_THRESHOLD}
CAP_SCORINGS = {"vp": CAP_SCORING_VP, "draw": CAP_SCORING_DRAW}
TABLE_TARGET = 0  # kernel code of victory_target=None: the table of §14.2

OPTIONS = OptionTable("Wild West Express", size=N_OPTION_VALUES, options=(
    Option("num_players", 4, integer(MIN_PLAYERS, MAX_PLAYERS), slot=OPT_NUM_PLAYERS, doc="players", section="§5"),
    Option("victory_target", None, optional(integer(5, 127), TABLE_TARGET), slot=OPT_VICTORY_TARGET,
           doc="victory points that end the game (None: the table by player count)", section="§14.2"),
    Option("cash_vp_mode", "per_1200", choice(CASH_VP_MODES), slot=OPT_CASH_VP_MODE,
           doc="how cash scores victory points: 1 per full $1,200, or the threshold reading", section="§14.1"),
    Option("two_player_extra_desperado", True, boolean(), slot=OPT_TWO_PLAYER_EXTRA_DESPERADO,
           doc="with 2 players each player has 2 desperados (no effect with more players)", section="§5"),
    Option("alt_dynamite", False, boolean(), slot=OPT_ALT_DYNAMITE,
           doc="dynamite costs more and an exploding train loses its goods", section="§11.4"),
    Option("alt_extra_gang", False, boolean(), slot=OPT_ALT_EXTRA_GANG, doc="BUY_DESPERADO in the pre-roll phase",
           section="§15"),
    Option("dynamite_price_alt", PRICE_DYNAMITE_ALT, integer(0, 32767), slot=OPT_DYNAMITE_PRICE_ALT,
           doc="price of dynamite under the alternative rule", section="§15"),
    Option("extra_gang_price", PRICE_EXTRA_GANG, integer(0, 32767), slot=OPT_EXTRA_GANG_PRICE,
           doc="price of an extra desperado under the alternative rule", section="§15"),
    Option("component_limits", True, boolean(), slot=OPT_COMPONENT_LIMITS,
           doc="pieces are limited to those in the box", section="§2.1"),
    Option("allow_hold_in_city", True, boolean(), slot=OPT_ALLOW_HOLD_IN_CITY, doc="a train may hold in a city",
           section="§7.1"),
    Option("competition_expiry_rounds", COMPETITION_EXPIRY_ROUNDS, integer(0, 32767 // MAX_PLAYERS),
           slot=OPT_COMPETITION_EXPIRY_ROUNDS, doc="rounds until an unclaimed competition expires (0: never)",
           section="§13.4"),
    Option("max_rounds", TURN_CAP_ROUNDS, integer(1, 32767), slot=OPT_MAX_ROUNDS,
           doc="the game's own round cap", section="§14.4"),
    Option("cap_scoring", "vp", choice(CAP_SCORINGS), slot=OPT_CAP_SCORING,
           doc="a game ended by the round cap is scored by victory points or is a draw", section="§14.4"),
    auto_forced_option(True, OPT_AUTO_FORCED, "§17.3"),
    max_decisions_option(MAX_DECISIONS, OPT_MAX_DECISIONS),
    start_player_option(OPT_START_PLAYER, "§5"),
))
OPTION_NAMES = OPTIONS.names
parse_options = OPTIONS.parse
kernel_options = OPTIONS.kernel_vector
