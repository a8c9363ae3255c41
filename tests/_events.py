"""What the games' event-log tests share: stepping with events next to a twin stepped without, in the batch
API and in the AEC env, where the events must change nothing."""

from __future__ import annotations

import numpy as np


def step_beside_twin(game, states: np.ndarray, twin: np.ndarray, actions) -> tuple[np.ndarray, list]:
    """Steps ``states`` with ``step_with_events`` and ``twin`` with plain ``step``, checks that they stay
    byte-identical (events change nothing); returns the records before the step and each record's events."""
    before = states.copy()
    events = game.step_with_events(states, actions)
    game.step(twin, actions)
    assert states.tobytes() == twin.tobytes(), "events changed the game"
    return before, events


def env_with_events_and_plain(make_env, seed: int, **options) -> tuple:
    """An AEC env with ``events=True`` and a plain one of the same ``options``, both reset with ``seed``."""
    env, plain = make_env(events=True, **options), make_env(**options)
    env.reset(seed=seed)
    plain.reset(seed=seed)
    return env, plain


def random_legal_action(env, rng: np.random.Generator) -> int | None:
    """A uniformly random legal action of the agent to act (None for an agent whose game is over)."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return None
    return int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))


def step_both(env, plain, action) -> None:
    """Steps both envs with ``action``; the events change nothing: both save the same state."""
    env.step(action)
    plain.step(action)
    assert env.unwrapped.save_state() == plain.unwrapped.save_state()
