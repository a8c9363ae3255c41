"""Rail — the PettingZoo AEC environment (``rail_v0``).

The Swedish hex railway game (the *Railway Rivals* family) implemented from
``rules/rail.md`` (spec v1.1, cited as §N) on the western USA map
(``wildwest_envs/rail/data/western_usa.json``, a copy of
``rules/rail_western_usa.json``). Players draw lines across a hex map paid with
dice points, earn 6 for the first line into each city and pay rivals for
joining, crossing and running beside their lines (build phase, §6); then they
race trains between random cities over their own and rivals' track, paying
travel fees, for prizes of 20 and 10, extending their networks from their
accounts between races (operation phase, §7). The highest balance wins when
someone reaches the target (250 / 225 / 200 by player count) or after the
race limit (§7.11, §8).

| | |
|---|---|
| import | ``from wildwest_envs import rail_v0`` |
| agents | ``player_0`` … ``player_{n-1}``; one agent decides at a time (§11.2) |
| players | 2-6 (option ``num_players``, default 3) |
| action space | ``Discrete(1797)`` (western USA map; below) |
| observation space | ``Dict(observation=Box(float32, (35284,)), action_mask=Box(int8, (1797,)))`` |
| reward modes | ``"win"`` (default: +1 each winner, ties share, -1 others), ``"rank"``, ``"score"`` (balance / 100) |
| render modes | ``"ansi"`` (text map), ``"human"`` (prints it), ``"rgb_array"`` (the hex map: ``svg.draw``, rasterized) |
| batched engine | ``rail_v0.GAME`` (``core.game.Game``); another map: ``rail.game.make_game(path)`` |

**Options** (§4): ``num_players``, ``build_dice``, ``shared_build_roll``,
``build_rounds``, ``build_early_end``, ``connection_bonus``,
``race_min_distance``, ``route_candidates``, ``usage_fee_per_step``,
``usage_fee_cap``, ``prizes``, ``race_resolution``, ``extension_mode``,
``extension_cap``, ``extension_10pct``, ``end_mode``, ``points_target``,
``races_total``, ``avoid_repeat_cities``, ``max_races``, the expert rules
``coop_building``, ``international``, ``international_every``,
``flat_usage_fee``, ``ferries``, and ``auto_forced`` (the spec's ``auto_forced_actions``),
``max_decisions`` (the spec's ``max_env_steps``), ``expert`` (switches the
three expert rules on), plus ``reward_mode`` and ``render_mode``. Defaults,
ranges and errors: ``wildwest_envs.rail.options``. Unknown or out-of-range
options raise ``ValueError``.

**Actions** (one flat ``Discrete(A)``, ``A = n_steps + 27``; the map has 1,770
buildable steps; ``base = 1770``)::

    [0, 1770)      BUILD_STEP(e)     build step e (the map's buildable steps in canonical order, maps.py)
    base + 0       END_TURN          end the build turn, co-build or extension turn
    base + 1..8    CHOOSE_START(i)   start city i: 0 Milwaukee, 1 Chicago, 2 Memphis, 3 New Orleans (4..7 unused)
    base + 9       RACE_DECLINE
    base + 10..13  RACE_ENTER(k)     candidate slot k: 0 cheapest, 1 fastest, 2 balanced, 3 reserved
    base + 14..18  COOP_PROPOSE(j)   partner (p + j) mod n, j = 1..5
    base + 19      COOP_ACCEPT       base + 20  COOP_DECLINE
    base + 21      FUND_DICE         base + 22  FUND_ACCOUNT
    base + 23..26  BUILD_FERRY(f)    (no ferries on this map)

``action_to_string`` names hexes by ``col,row`` (and city), e.g. ``build 29,9
Chicago W 28,9``, ``start in Chicago (63)``, ``enter race: fastest route (9
pips, 7 steps, fee 6)``; ``string_to_action`` is its inverse. The mask is
never empty before the end and all zeros after it (§11.2).

**Observations** are egocentric (relative seat k is seat ``(i + k) mod n``)
and complete: Rail hides nothing but future dice (§10.1). The row holds
``board`` (45 planes over the 25 x 31 grid: terrain, rivers, cities, every
seat's track, networks, connected cities, the race, the observer's candidates,
declared routes) and a vector (decision context, balances, BP and dice, seat
states, candidate features, the race, configuration); the layout is
``rail_v0.GAME.obs_layout`` and documented in ``wildwest_envs.rail.observation``.

**Positions**: ``GAME.position(num_players=3, seed=0, turn=1, start={0:
"Chicago"}, lines={0: ["Chicago", "Omaha"]}, balances=[...], race=("Chicago",
"Omaha"), ...)`` builds a valid position in the game's terms (here seat 1's
entry decision in race 0; a build turn, start choice, co-op response or
extension turn likewise), its lines laid by the engine's own build kernels
(fees, bonuses and networks as in play); ``wildwest_envs.rail.positions``
documents the terms and has ``place`` to edit one, ``play`` to play on and
``build(a, b)`` for step ids (another map: ``make_game(path).position(...)``).

**Rewards** come at the end (``reward_mode``). **Termination**: by points or
by races (§7.11); the ``max_races`` guard (100 races in points mode) is a
normal end. ``max_decisions`` (50,000 agent decisions) truncates as a last
resort (it is never reached by the rules' bounds).

**Decisions where the spec leaves a choice to the implementation** (each also
noted in the module that implements it):

* *Action encoding.* One id per buildable step (the spec's
  ``action_encoding = "steps"`` idea of §11.1, G42, without the ids of steps
  that can never be built), because a compact flat space halves the mask and
  the policy head and removes duplicate ids. The spec's default ``hex_dir``
  ids (``6h + d``) convert with ``rail.data.hex_dir_action`` and
  ``action_hex_dir``; the ``action_encoding`` option itself is not offered.
* *The map* is bound to a ``Game`` (its sizes fix the spaces): ``make_game``
  builds one for any valid map file (§3.8); it is not an env option.
* *Forced decisions* (a single legal action) are applied by the engine with
  ``auto_forced`` and are not counted as agent decisions.
* *Build-fee bookkeeping* is derived from ownership instead of stored
  (``rail.fees``; checked against a literal §12.3 in the tests).
* *Candidates* of every seat are computed when the race is generated and kept
  as summaries and hex bits; routes are recomputed when the race runs (§12.1).
* *Rewards*: the library's ``"win"`` mode (+1 / -1) instead of §8's suggested
  ``+1/w``; ``"rank"`` and ``"score"`` are available.
* *Timestamps* are int16, so a map may have at most 5,460 buildable steps.

Version history: v0 — first release.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from ..core.aec import GameAECEnv
from .game import GAME


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo naming)
    """Rail AEC environment without wrappers (see the module docstring)."""

    game = GAME


def env(**options) -> GameAECEnv:
    """Rail AEC env, wrapped the PettingZoo way (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
