"""Way Out West — the PettingZoo AEC environment (``way_out_west_v0``).

Martin Wallace's area-control game of the cattle towns (Warfrog, 2000),
implemented from ``rules/way_out_west.md`` (spec v1.1, cited as §N) and its data
file (``wildwest_envs/way_out_west/data/way_out_west.json``): a turn-order
auction every round, two action turns per player on limited action boxes,
cattle, cowboys, buildings, farmers and gunfights in five towns over twelve
rounds.

| | |
|---|---|
| import | ``from wildwest_envs import way_out_west_v0`` |
| agents | ``player_0`` … ``player_{N-1}``; the jail owner, defender or retreating player may act off turn |
| players | 3-5 (option ``num_players``, default 3) |
| action space | ``Discrete(59)`` (§13.1, layout below) |
| observation space | ``Dict(observation=Box(float32, (674,)), action_mask=Box(int8, (59,)))`` (§12) |
| reward modes | ``"win"`` (default: +1 each winner, -1 others), ``"rank"``, ``"score"`` (VP / 20) |
| render modes | ``"ansi"``, ``"human"``, ``"rgb_array"`` (the five towns with every counter) |

**Options**: ``num_players`` (3-5), ``num_rounds`` (3, 6, 9 or 12; default 12,
§4), ``start_player`` (None = random, §4), ``preset_dice`` (up to 64 die values
used before the generator, §13.3), ``auto_forced`` (apply single-option
decisions automatically, default False, §13.2), ``max_decisions`` (library turn
cap, default 20,000: above the longest legal game), plus ``reward_mode`` and
``render_mode``. Unknown or out-of-range options raise ``ValueError``
(``wildwest_envs.way_out_west.options``).

**Actions** (§13.1)::

    0 PASS (drop out / pass / stop)   1 YES   2 NO   3 SHOOT   4 RETREAT
    [5, 10)  TOWN_t                   [10, 15) PLAYER_r (relative seat: (actor + r) mod N)
    [15, 34) BOX_b                    [34, 42) RAISE_k, k = 1, 2, 3, 4, 5, 8, 12, 20
    [42, 51) COUNT_n, n = 1..9        [51, 59) TARGET: stagecoach, train, bank, store, hotel, jail, cattle, farmer

``GAME.action_to_string(state, a)`` names any action in context ("raise by 3 to
$4", "box 11: build Bank ($10)", "retreat a cowboy to Deadwood"). An illegal or
non-integer action raises ``ValueError`` naming the legal ones; the game is
unchanged.

**Observations** are egocentric (observer first, then the others clockwise;
every seat reference relative, §12); the game has no hidden information, so
only the generator and the die queue stay out of view. The layout is
``way_out_west_v0.GAME.obs_layout`` (named slices, documented in
``wildwest_envs.way_out_west.observation``); ``GAME.obs_layout.decode(vec)``
gives every field in the game's terms (cash, cowboys, owners, round, bids...),
counts as the integers of the game record.

**Positions**: ``GAME.position(num_players=3, seed=0, turn=1, cowboys={...},
buildings={...}, cash=[...], round=..., decision="action")`` builds a valid
position in the game's own terms (``wildwest_envs.way_out_west.positions``,
which also offers ``place`` to edit one and ``play`` to play on).

**Termination**: after the income of round R (§11.1); the final VP decide
(ties: money, then B&T counters on the board, then shared). ``infos`` then hold
``scores`` (VP by seat), ``winners``, ``truncated`` and ``vp_categories`` (per
agent: buildings, cattle, control, richest, wanted). The game is bounded
(auction guard, 50-volley guard), so no game of the rules is ever truncated.

**Rules decisions** where the spec is silent are listed in the docstrings of
``wildwest_envs.way_out_west.rules`` and the rule modules it imports
(``setup``, ``auction``, ``actions``, ``gunfight``, ``scoring``,
``observation``). The ``"score"`` reward is the library's (final VP / 20), not
the relative form ``(VP - mean VP of the others) / 20`` that §14 sketches: all
games of the library share one convention (§16 #50).

Version history: v0 — first release (spec v1.1).
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils import wrappers

from ..core import quickstart
from ..core.aec import GameAECEnv, agent_name
from . import scoring
from .data import MAX_PLAYERS
from .game import GAME
from .scoring import N_VP_CATEGORIES, VP_CATEGORY_NAMES


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo naming)
    """Way Out West AEC environment without wrappers (see the module docstring)."""

    game = GAME

    def _finish(self) -> None:
        """The library's end-of-game infos, plus the final VP by category of every agent (§14)."""
        super()._finish()
        by_category = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), dtype=np.int64)
        quickstart.counterpart(scoring, self.game).vp_by_category(self.states[0], by_category)  # the game's build
        categories = {agent_name(s): dict(zip(VP_CATEGORY_NAMES, by_category[s].tolist()))
                      for s in range(len(self.possible_agents))}
        for agent in self.agents:
            self.infos[agent]["vp_categories"] = categories


def env(**options) -> GameAECEnv:
    """Way Out West AEC env, wrapped the PettingZoo way (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
