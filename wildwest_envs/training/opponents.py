"""The opponent pool of self-play training: fixed baselines plus snapshots of the learner.

``OpponentPool`` lives in the library's self-play core (``wildwest_envs.core.selfplay``), which
needs no torch; it is re-exported here, where the training scripts have always imported it.
"""

from __future__ import annotations

from wildwest_envs.core.selfplay import OpponentPool

__all__ = ["OpponentPool"]
