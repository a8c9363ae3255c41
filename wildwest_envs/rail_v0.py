"""Rail, version 0: ``env(**options)``, ``raw_env`` and the batched ``GAME``.

See ``wildwest_envs.rail.env`` for the documentation page.
"""

from .rail.env import GAME, env, raw_env

__all__ = ["GAME", "env", "raw_env"]
