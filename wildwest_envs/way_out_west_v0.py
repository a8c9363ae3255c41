"""Way Out West, version 0: ``env(**options)``, ``raw_env`` and the batched ``GAME``.

See ``wildwest_envs.way_out_west.env`` for the documentation page.
"""

from .way_out_west.env import GAME, env, raw_env

__all__ = ["GAME", "env", "raw_env"]
