"""Test-only helpers of the Way Out West rule tests; positions come from ``wildwest_envs.way_out_west.positions``.

* ``setup_done`` plays the setup placements (§4 step 4) through the public
  kernels, for the tests of setup and of the auction that follows it;
* ``force_dice`` / ``dice_left`` fix the next dice and count the unused ones, so
  a rule test states the exact rolls it checks (§13.3).
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.way_out_west.data import DEC_SETUP_PLACE_COWBOY
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.positions import SAN_ANTONIA, play, position, town


def setup_done(num_players: int = 3, towns: list[int] | None = None, **options) -> np.ndarray:
    """A game after its setup placements, played one by one (each in the next town of ``towns``, cycling),
    at the first bid of round 1; the start player is seat 0 unless ``start_player`` says otherwise."""
    options.setdefault("start_player", 0)
    states = position(num_players, decision="setup", **options)
    towns = towns or [SAN_ANTONIA]
    k = 0
    while states[0]["decision"] == DEC_SETUP_PLACE_COWBOY:
        play(states, town(towns[k % len(towns)]))
        k += 1
    return states


def force_dice(states: np.ndarray, dice: list[int]) -> None:
    """The next dice are ``dice`` (values 1..6), then the record's generator takes over (§13.3)."""
    GAME.script(states, dice, then="random")


def dice_left(states: np.ndarray) -> int:
    """Preset dice not yet used."""
    return int(states[0]["n_forced"] - states[0]["forced_pos"])
