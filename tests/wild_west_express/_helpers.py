"""Test-only helpers of the Wild West Express rule tests; positions come from
``wildwest_envs.wild_west_express.positions`` (``position``, ``place``, ``play``, ``roll``).

* ``seat0_turn`` is the rule tests' usual stage: seat 0's PRE_ROLL in a
  3-player game on an empty board, the other seats with $100 (so that their
  PRE_ROLL is asked and play stops there once seat 0's turn is over);
* ``setup_played`` plays the setup draft and placements one decision at a time
  through the kernels (not through the builder), for the setup rule tests and
  for comparing built positions with played ones;
* ``deck_bottom`` reads the cards that went to the bottom of the deck last.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.wild_west_express.data import A_SPACE, DEC_PLACE_DESPERADO
from wildwest_envs.wild_west_express.positions import legal_actions, play, position


def seat0_turn(cash: int = 450, **terms) -> np.ndarray:
    """Seat 0 to play PRE_ROLL of a 3-player game (seed 0) with no train, desperado or station; seat 0 has
    ``cash``, seats 1-2 $100. ``terms`` are further terms and options of ``position``."""
    return position(3, board="empty", turn=0, cash=[cash, 100, 100], **terms)


def setup_played(num_players: int = 3, seed: int = 0, picks: list[int] | None = None, **options) -> np.ndarray:
    """A game played through setup: the draft picks ``picks`` (default cities 0..2N-1) in draft order, each
    desperado placed in the lower-numbered of its owner's start cities (§5); the start player's PRE_ROLL."""
    states = position(num_players, seed, decision="draft", **options)
    for c in picks if picks is not None else range(2 * num_players):
        play(states, A_SPACE + c)
    while states[0]["decision"] == DEC_PLACE_DESPERADO:
        play(states, legal_actions(states)[0])
    return states


def deck_bottom(states: np.ndarray, n: int) -> list[int]:
    """The last ``n`` cards of the deck, bottom last."""
    s = states[0]
    size = int(s["deck_size"])
    return [int(k) for k in s["deck"][size - n:size]]
