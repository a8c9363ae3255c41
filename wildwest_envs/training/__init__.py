"""Training and evaluation scripts (torch, stable-baselines3, sb3-contrib); run from the repository root."""

# first, before any module here imports torch: sets numba's OpenMP spin count while libgomp is not loaded yet
import wildwest_envs  # noqa: E402,F401
