"""Test-only helpers of the Wild West Express rule tests; positions come from
``wildwest_envs.wild_west_express.positions`` (``position``, ``place``, ``play``, ``roll``).

* ``seat0_turn`` is the rule tests' usual stage: seat 0's PRE_ROLL in a
  3-player game on an empty board, the other seats with $100 (so that their
  PRE_ROLL is asked and play stops there once seat 0's turn is over);
* ``deck_bottom`` reads the cards that went to the bottom of the deck last.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.wild_west_express.positions import position


def seat0_turn(cash: int = 450, **terms) -> np.ndarray:
    """Seat 0 to play PRE_ROLL of a 3-player game (seed 0) with no train, desperado or station; seat 0 has
    ``cash``, seats 1-2 $100. ``terms`` are further terms and options of ``position``."""
    return position(3, board="empty", turn=0, cash=[cash, 100, 100], **terms)


def deck_bottom(states: np.ndarray, n: int) -> list[int]:
    """The last ``n`` cards of the deck, bottom last."""
    s = states[0]
    size = int(s["deck_size"])
    return [int(k) for k in s["deck"][size - n:size]]
