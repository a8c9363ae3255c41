"""Training and evaluation commands (torch, stable-baselines3, sb3-contrib; the ``train`` extra).

``wildwest-train`` (``train``), ``wildwest-evaluate`` (``evaluate``), ``wildwest-play`` (``play``) and
``python -m wildwest_envs.training.rllib_train`` run from any directory once the project is installed.
"""

# first, before any module here imports torch: sets numba's OpenMP spin count while libgomp is not loaded yet
import wildwest_envs  # noqa: E402,F401
