"""What ``tests/test_quickstart.py`` runs in a fresh process, as a new user's first program does.

``python -m tests._quickstart_run NAME`` (with ``WILDWEST_QUICKSTART`` on and ``WILDWEST_QUICKSTART_DIR`` an empty
folder): plays one seeded random PettingZoo AEC game of ``NAME`` from the start, waits for the background warm-up,
plays the same game again, and prints one JSON line: for each game whether the env played a plain twin, how many
functions numba compiled in this process meanwhile, and a SHA-256 of every observation, mask, action and reward.
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np
from numba.core import event

from wildwest_envs.core import quickstart
from wildwest_envs.registry import make


class CompileCounter(event.Listener):
    """Counts numba's compilations in this process (not its loads from the cache)."""

    def __init__(self):
        self.count = 0

    def on_start(self, ev):
        self.count += 1

    def on_end(self, ev):
        pass


def play(env, seed: int) -> str:
    """One seeded random game to the end; the digest of everything the agents saw and did."""
    digest = hashlib.sha256()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes() + repr((action, reward)).encode())
        env.step(action)
    return digest.hexdigest()


def main(name: str) -> dict:
    """The JSON of the module docstring."""
    counter = CompileCounter()
    event.register("numba:compile", counter)
    env = make(name)
    report = {"first": {"digest": play(env, seed=0), "plain": quickstart.is_plain(env.unwrapped.game),
                        "compiled": counter.count}}
    report["warm"] = quickstart.wait_for_warmup(type(env.unwrapped).game, timeout=600)
    before = counter.count
    report["second"] = {"digest": play(env, seed=0), "plain": quickstart.is_plain(env.unwrapped.game),
                        "compiled": counter.count - before}
    return report


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
