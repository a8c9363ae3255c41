"""Colt Express — the PettingZoo AEC environment (``colt_express_v0``).

Christophe Raimbault's programming game of train robbery (Ludonaute, 2014),
implemented from ``rules/colt_express.md`` (spec v1.2, cited as §N).

| | |
|---|---|
| import | ``from wildwest_envs import colt_express_v0`` |
| agents | ``player_0`` … ``player_{N-1}`` (one per seat; with 2 players each controls a team of two bandits) |
| players | 2-6 (option ``num_players``, default 3) |
| action space | ``Discrete(73)`` (§11.2, layout below) |
| observation space | ``Dict(observation=Box(float32, (obs_size,)), action_mask=Box(int8, (73,)))`` |
| reward modes | ``"win"`` (default: +1 each winner, -1 others), ``"rank"``, ``"score"`` (dollars / 1000) |
| render modes | ``"ansi"``, ``"human"``, ``"rgb_array"`` |

**Options** (§3.5): ``num_players``, ``expert`` (expert variant §3.4; always on
with 2 players), ``characters`` (one per bandit, ids or names), ``carriages``
(types front to back), ``auto_forced`` (§11.4, default true; the spec's ``auto_resolve_forced``),
``max_decisions`` (turn cap, default 700), ``reward_mode``, ``render_mode``.
Unknown or out-of-range options raise ``ValueError``.

**Actions** (§11.2)::

    [0, 12)  PLAY_UP(card code)     [12, 24) PLAY_DOWN(card code)    24 DRAW
    [25, 32) CAR(c)                 [32, 38) BANDIT(egocentric r)    [38, 56) PURSE(id)
    56 JEWEL   57 STRONGBOX   58 BULLETS_DISCARD   59 BULLETS_KEEP
    [60, 72) DISCARD(card code)     72 KEEP_REST

``env.unwrapped.game.action_to_string(state, a)`` names any action. An illegal or
non-integer action raises ``ValueError`` naming the legal ones; the game is unchanged.

**Observations** are egocentric (the observer first, then the other seats in
turn order) and contain only what the seat may know (§10): never other hands,
deck order, unrevealed face-down cards or round cards, or purse values the seat
has not seen. The layout is ``colt_express_v0.GAME.obs_layout`` (named slices).

**Positions**: ``GAME.position(num_players=4, seed=0, characters=["Ghost",
"Doc", "Cheyenne", "Belle"], decision="stealin", round_card="Bridge",
bandits={"Belle": (2, "roof")}, purses={9: "Belle"}, pile=[(0, "Fire"),
(1, "Move")])`` builds a PLAN, BULLETS, KEEP or start-of-Stealin' position in
the game's terms (bandits' places, loot, bullets, hands, decks, round card and
pile), with every book kept; ``colt_express.positions`` documents the terms and
has ``place``, ``play`` and ``terms_of``.

**Termination**: after the fifth round's event (§9), with the final rewards;
``infos`` then give the scores by seat and the winners. A game that reaches
``max_decisions`` agent decisions is truncated (zero reward).

**Rules decisions** where the spec is silent are listed in the docstrings of
``wildwest_envs.colt_express.rules`` (and the modules it imports).

Version history: v0 — first release; 2026-12-03, a rules fix kept under v0: a
Punch with no bandit to punch has no effect (§6.5) - it used to go on to the
loot and destination choices of a victim that did not exist. Records made
before the fix replay only where no such Punch was played.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from ..core.aec import GameAECEnv
from .game import GAME


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo naming)
    """Colt Express AEC environment without wrappers (see the module docstring)."""

    game = GAME


def env(**options) -> GameAECEnv:
    """Colt Express AEC env, wrapped the PettingZoo way (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
