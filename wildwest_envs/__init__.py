"""wildwest_envs: multi-agent RL environments for Wild-West board games.

Each game is a batched numba rules engine (``<game>_v0.GAME``) with a PettingZoo
AEC env on top (``<game>_v0.env(**options)``)::

    from wildwest_envs import colt_express_v0
    env = colt_express_v0.env(num_players=4, render_mode="ansi")

``make(name, **options)`` builds an env by name; ``GAMES`` lists the names.
``SingleAgentEnv`` (a gymnasium ``Env`` of one seat against opponents, ready for
``MaskablePPO("MlpPolicy", env)``) and ``SelfPlayVectorEnv`` (the same as a gymnasium
``VectorEnv``) come from ``core.selfplay``, which needs no torch.
Game modules and ``core.selfplay`` are imported on first use, so importing this
package is cheap.
"""

from .core.threads import choose_waiting as _choose_waiting

# numba's worker threads: TBB where pip installed it, else OpenMP spinning briefly between kernels (``core.threads``);
# set NUMBA_THREADING_LAYER, OMP_WAIT_POLICY or GOMP_SPINCOUNT yourself to choose otherwise.
_choose_waiting()

from .registry import GAMES, get_game, make, register_with_pettingzoo

__all__ = ["GAMES", "SelfPlayVectorEnv", "SingleAgentEnv", "get_game", "make"]
__version__ = "0.1.0"

_LAZY_EXPORTS = {"SingleAgentEnv": "wildwest_envs.core.selfplay", "SelfPlayVectorEnv": "wildwest_envs.core.selfplay"}


def __getattr__(name: str):
    """The lazy exports: ``core.selfplay`` loads numba's kernels, so it is imported on first use."""
    if name in _LAZY_EXPORTS:
        import importlib
        return getattr(importlib.import_module(_LAZY_EXPORTS[name]), name)
    raise AttributeError(f"module 'wildwest_envs' has no attribute {name!r}")

register_with_pettingzoo()
