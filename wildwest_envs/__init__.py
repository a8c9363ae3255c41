"""wildwest_envs: multi-agent RL environments for Wild-West board games.

Each game is a batched numba rules engine (``<game>_v0.GAME``) with a PettingZoo
AEC env on top (``<game>_v0.env(**options)``)::

    from wildwest_envs import colt_express_v0
    env = colt_express_v0.env(num_players=4, render_mode="ansi")

``make(name, **options)`` builds an env by name; ``GAMES`` lists the names.
Game modules are imported on first use, so importing this package is cheap.
"""

import os as _os

# numba's OpenMP worker threads spin briefly between kernels, then sleep (see ``core.kernels``);
# set OMP_WAIT_POLICY or GOMP_SPINCOUNT yourself to choose otherwise.
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["GOMP_SPINCOUNT"] = "1000"

from .registry import GAMES, get_game, make, register_with_pettingzoo

__all__ = ["GAMES", "get_game", "make"]
__version__ = "0.1.0"

register_with_pettingzoo()
