"""Training and evaluation scripts (torch, stable-baselines3, sb3-contrib); run from the repository root."""
