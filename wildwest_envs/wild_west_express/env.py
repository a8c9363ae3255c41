"""Wild West Express — the PettingZoo AEC environment (``wild_west_express_v0``).

A Danish railway game of the 1880s West, implemented from
``rules/wild_west_express.md`` (spec v1.1, cited as §N) and its board JSON
(``wildwest_envs/wild_west_express/data/board.json``).

| | |
|---|---|
| import | ``from wildwest_envs import wild_west_express_v0`` |
| agents | ``player_0`` … ``player_{N-1}``; only the active player ever decides (§17) |
| players | 2-5 (option ``num_players``, default 4) |
| action space | ``Discrete(553)`` (§17.1) |
| observation space | ``Dict(observation=Box(float32, (15744,)), action_mask=Box(int8, (553,)))`` (§16.4) |
| reward modes | ``"win"`` (default: +1 each winner, -1 others), ``"rank"`` (§14.5), ``"score"`` (final VP) |
| render modes | ``"ansi"``, ``"human"``, ``"rgb_array"`` (the map with every piece) |

**Options** (§15): ``num_players``, ``victory_target``, ``cash_vp_mode``,
``two_player_extra_desperado``, ``alt_dynamite``, ``alt_extra_gang``,
``dynamite_price_alt``, ``extra_gang_price``, ``component_limits``,
``allow_hold_in_city``, ``competition_expiry_rounds``, ``max_rounds`` (the game's
turn cap, §14.4), ``cap_scoring``, ``auto_forced``, ``max_decisions`` (the
library's decision cap), plus ``reward_mode`` and ``render_mode``. Unknown or
out-of-range options raise ``ValueError``; see ``wild_west_express.options``.

**Termination**: at the end of the turn in which a player reaches the victory
target (§14.3). A game that completes ``max_rounds`` rounds without a winner is
*truncated* (§14.4): with ``cap_scoring="vp"`` the VP leaders still win, with
``"draw"`` everybody gets 0. ``infos`` hold the scores by seat at the end.

**Observations** are egocentric and never show other players' held telegram
cards, the deck order or never-drawn cards (§16); the layout is
``wild_west_express_v0.GAME.obs_layout``, and ``GAME.obs_layout.decode(vec)``
gives every field in the game's terms (cash in dollars, spaces, cards, counts;
``wild_west_express.observation`` lists the parts).

**Positions**: ``GAME.position(num_players=3, seed=0, turn=1, trains={1:
[Train(31, came_from="Seattle", cargo=["gold"])]}, cash=[300, 450, 120], ...)``
builds a PRE_ROLL (or setup) position in the game's terms, with every book
kept; ``wild_west_express.positions`` documents the terms and has ``place``,
``play``, ``roll`` (fixed dice) and ``terms_of``.

**Search agents**: ``GAME.resample_hidden(states, seats, seeds)`` redraws what a
seat cannot see (other players' held personal cards, another player's drawn
card, the never-drawn cards and their order) uniformly among the assignments
consistent with what it knows, and reseeds chance (``wild_west_express.hidden``),
so ``agents.mcts`` (ISMCTS) plays this game.

**Decisions where the spec is silent** (details in the module docstrings):
the per-turn safety limit of 1000 decisions is exact (the turn's 1000th
decision ends the game as truncated even when it ends the turn; a victory at
that moment stands); the bound of 12 extra moves per turn (§13.3) is also
enforced as a guard (a movement card is not playable at 12); a truncated game
that reached ``max_rounds`` keeps its VP result with ``cap_scoring="vp"``, and
``training.evaluate`` counts it.

Version history: v0 — first release.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from ..core.aec import GameAECEnv
from .game import GAME


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo naming)
    """Wild West Express AEC environment without wrappers (see the module docstring)."""

    game = GAME


def env(**options) -> GameAECEnv:
    """Wild West Express AEC env, wrapped the PettingZoo way (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
