"""Wild West Express, version 0: ``env(**options)``, ``raw_env`` and the batched ``GAME``.

See ``wildwest_envs.wild_west_express.env`` for the documentation page.
"""

from .wild_west_express.env import GAME, env, raw_env

__all__ = ["GAME", "env", "raw_env"]
