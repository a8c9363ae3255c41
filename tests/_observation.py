"""What the games' observation tests share: every row written, byte-equal rows, the layout's field table,
egocentric seats (rotating the seats rotates the observations), and the hidden-information checks: pairs of
records that differ in one thing, which some seats must not see and others must, and a change that no seat may
see (the generator)."""

from __future__ import annotations

import numpy as np


def observe_all(observe, obs_size: int, states: np.ndarray, seat) -> np.ndarray:
    """Observations of ``seat`` (one seat, or one a record) for every record of a batch, by the observation
    kernel ``observe``; rows start as NaN, so every float must be written."""
    out = np.full((len(states), obs_size), np.nan, dtype=np.float32)
    observe(states, np.broadcast_to(np.asarray(seat, dtype=np.int64), (len(states),)).copy(), out)
    return out


def same_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise byte equality of two observation batches."""
    return np.array([x.tobytes() == y.tobytes() for x, y in zip(a, b)])


def assert_fields(layout, expected_fields: dict) -> None:
    """The layout's fields are ``expected_fields`` (name: shape), in that order."""
    assert list(layout.fields) == list(expected_fields)
    for name, shape in expected_fields.items():
        assert layout.fields[name].shape == shape, name


def assert_rotating_seats_rotates_observations(observe_all, states: np.ndarray, num_players: int,
                                               rotate_seats) -> None:
    """For every shift k, relabelling every seat s as s + k (``rotate_seats(record, k)``, in place) gives seat
    p + k exactly seat p's old observation (``observe_all(states, seat)``)."""
    for k in range(1, num_players):
        rotated = states.copy()
        for record in rotated:
            rotate_seats(record, k)
        for seat in range(num_players):
            assert same_rows(observe_all(states, seat), observe_all(rotated, (seat + k) % num_players)).all()


def variants(states: np.ndarray, change, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Apply ``change(record, rng) -> bool`` to a copy of every record; the copy and which changed."""
    rng = np.random.default_rng(seed)
    changed = states.copy()
    applied = np.array([bool(change(record, rng)) for record in changed], dtype=bool)
    return changed, applied


def check_pair(observe_all, states: np.ndarray, changed: np.ndarray, applied: np.ndarray, hidden_from,
               visible_to=()) -> None:
    """Seats in ``hidden_from`` see no difference on the applied rows; seats in ``visible_to`` see one."""
    assert applied.any(), "the change never applied: the test would be vacuous"
    for seat in hidden_from:
        same = same_rows(observe_all(states, seat), observe_all(changed, seat))
        assert same[applied].all(), f"seat {seat} sees hidden data in rows {np.flatnonzero(applied & ~same)[:5]}"
    for seat in visible_to:
        same = same_rows(observe_all(states, seat), observe_all(changed, seat))
        assert not same[applied].any(), f"seat {seat} misses visible data in rows {np.flatnonzero(applied & same)[:5]}"


def change_generator(record: np.void, rng: np.random.Generator, fewest_forced: int = 0) -> bool:
    """New generator state and scripted-chance queue (at least ``fewest_forced`` long): never observed
    (DESIGN.md)."""
    record["rng"] = rng.integers(0, 2**63, dtype=np.uint64)
    record["n_forced"] = rng.integers(fewest_forced, 17)
    record["forced_pos"] = rng.integers(0, int(record["n_forced"]) + 1)
    record["forced"][:] = rng.integers(0, 1000, size=len(record["forced"]))
    return True
