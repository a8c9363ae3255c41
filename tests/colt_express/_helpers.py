"""Test-only helpers of the Colt Express rule tests; positions come from ``wildwest_envs.colt_express.positions``
(``position``, ``place``, ``play``, ``legal_actions``).

* ``stealin`` is the rule tests' usual stage: the end of a round's Schemin' with the
  pile given, on the event-free Bridge card unless another is named, with the
  carriages fixed (``CARRIAGES``, so that the purse ids a test names are in play)
  and all the train's loot inside the locomotive (``LOCOMOTIVE``), out of the way
  of the bandits the test places; ``jewels`` names some holders, the rest of the
  train's jewels lie in the locomotive too;
* ``purses_of`` / ``purses_at`` read which purse tokens a bandit holds or lie at a
  location;
* ``kernel_init`` calls the ``init`` kernel with an option vector the public
  option parser would refuse (``expert=False`` with 2 players), so that a test can
  show the kernel's own rule.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.colt_express.data import CARRIAGE_JEWELS, IN, N_PURSES, OPT_EXPERT, PURSE_ON_BANDIT
from wildwest_envs.colt_express.options import kernel_options, parse_options
from wildwest_envs.colt_express.positions import position
from wildwest_envs.colt_express.state import STATE_DTYPE
from wildwest_envs.registry import get_game

_INIT = get_game("colt_express_v0").init_kernel  # the serial deal build the library runs (core.kernels.serial)

LOCOMOTIVE = (0, "in")  # where ``stealin`` puts the train's loot (the marshal's car unless a test moves him)
# carriage types front to back: 11 purses in cars 1-4 (ids B..B+10 in play), 2 jewels; more with 5-6 players
CARRIAGES = {2: (1, 3, 4, 0), 3: (1, 3, 4), 4: (1, 3, 4, 0), 5: (1, 3, 4, 0, 2), 6: (1, 3, 4, 0, 2, 5)}


def stealin(num_players: int = 4, pile=(), bandits=None, jewels=None, round_card="Bridge", **terms) -> np.ndarray:
    """The end of Schemin' with ``pile`` (``(seat, card[, face_down])``), the record at the first decision it
    poses (or later); ``terms`` are further terms and options of ``position`` (``characters``, ``marshal``...)."""
    carriages = CARRIAGES[num_players]
    if jewels is not None:
        total = sum(int(CARRIAGE_JEWELS[t]) for t in carriages)
        jewels = dict(jewels)
        jewels[LOCOMOTIVE] = jewels.get(LOCOMOTIVE, 0) + total - sum(jewels.values())
    terms.setdefault("carriages", carriages)
    return position(num_players, decision="stealin", round_card=round_card, train_loot=LOCOMOTIVE, pile=list(pile),
                    bandits=bandits, jewels=jewels, **terms)


def purses_of(states: np.ndarray, bandit: int) -> list[int]:
    """Ids of the purses held by a bandit."""
    return [i for i in range(N_PURSES) if states[0]["purse_location"][i] == PURSE_ON_BANDIT + bandit]


def purses_at(states: np.ndarray, car: int, level: int = IN) -> list[int]:
    """Ids of the purses lying at (car, level)."""
    return [i for i in range(N_PURSES) if states[0]["purse_location"][i] == car * 2 + level]


def kernel_init(num_players: int, seed: int, expert: bool, **options) -> np.ndarray:
    """``rules.init`` with the options parsed as ``env`` parses them, then ``expert`` written into the vector as
    given (the parser refuses ``expert=False`` with 2 players, §3.5)."""
    vector = kernel_options(parse_options(num_players=num_players, **options))
    vector[OPT_EXPERT] = expert
    states = np.zeros(1, dtype=STATE_DTYPE)
    _INIT(states, np.array([seed], dtype=np.uint64), vector)
    return states
