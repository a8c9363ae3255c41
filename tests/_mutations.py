"""Saved states mutated field by field and byte by byte, loaded, and run through every kernel.

``fuzz(game, ...)`` takes random mid-game positions of every player count and,
for each mutation, overwrites either one element of one field with a hostile
value of the field's type (its type's extremes, -1, 0, 1, the current value
plus or minus one, a random value) or a few random bytes of the record; then
loads the bytes with ``Game.from_bytes`` (the same field-by-field validation as
``from_json``). A refused state must be a ``ValueError``; an accepted one must be
valid and survive ``exercise``: every kernel, every seat, a few random moves
with the invariants kept. ``tests/test_boundscheck.py`` runs it with numba's
bounds checking on, where a validation gap shows as an ``IndexError`` instead
of a silent out-of-range read; ``tests/test_hostile_input.py`` runs the same
idea through hypothesis in-process.
"""

from __future__ import annotations

import numpy as np

from tests._play import action_rngs, mid_game_states, play_to_end

EXERCISE_STEPS = 40  # random decisions played from an accepted mutated state


class Inconsistent(AssertionError):
    """A state that passed validation leads, by legal play or a redraw, to one that breaks an invariant."""


def exercise(game, states: np.ndarray) -> None:
    """Every kernel on a loaded ``(1,)`` state: masks, every seat's observation and redraw, text, a few moves."""
    masks = game.legal_mask(states)
    for seat in range(int(states["num_players"][0])):
        game.observe(states, seat)
        redrawn = game.resample_hidden(states, seat, 1)
        game.validate(redrawn)
        if game.invariant_violations(redrawn):
            raise Inconsistent(f"a redraw for seat {seat} breaks an invariant: "
                               f"{game.invariant_violations(redrawn)}")
    game.returns(states)
    game.render_ansi(states[0])
    assert game.from_json(game.to_json(states[0])).tobytes() == states.tobytes()
    if not game.finished(states)[0]:
        assert masks[0].any(), "a loaded unfinished game has no legal action"
        for action in np.flatnonzero(masks[0])[:3]:
            game.action_to_string(states[0], int(action))
        played = states.copy()
        play_to_end(game, played, action_rngs([0]), max_steps=EXERCISE_STEPS)
        violations = game.invariant_violations(played)
        if violations:
            raise Inconsistent(f"random moves from the loaded state break an invariant: {violations}")


def _field_mutation(rng: np.random.Generator, dtype: np.dtype, record: bytearray) -> str:
    """Overwrite one element of one field of ``record`` with a hostile value of its type; describe it."""
    name = dtype.names[rng.integers(len(dtype.names))]
    field_dtype, offset = dtype.fields[name][:2]
    base = field_dtype.base
    n_elements = max(int(np.prod(field_dtype.shape)), 1)
    element = int(rng.integers(n_elements))
    at = offset + element * base.itemsize
    current = np.frombuffer(bytes(record[at:at + base.itemsize]), dtype=base)[0]
    if base == np.bool_:
        raw = bytes([int(rng.choice([0, 1, 2, 255]))])
        value = raw[0]
    else:
        info = np.iinfo(base)
        choices = [info.min, info.max, -1, 0, 1, int(current) + 1, int(current) - 1, 2 * int(current),
                   int(rng.integers(info.min, info.max, endpoint=True, dtype=base)), int(rng.integers(-3, 60))]
        value = int(np.clip(choices[rng.integers(len(choices))], info.min, info.max))
        raw = np.array(value, dtype=base).tobytes()
    record[at:at + base.itemsize] = raw
    return f"field {name!r}[{element}] {int(current)} -> {value}"


def _byte_mutation(rng: np.random.Generator, dtype: np.dtype, record: bytearray) -> str:
    """Overwrite 1-4 random bytes of ``record``; describe it (with the field each byte belongs to)."""
    changes = []
    for _ in range(int(rng.integers(1, 5))):
        at = int(rng.integers(len(record)))
        record[at] = int(rng.integers(256))
        changes.append(f"byte {at} ({field_at(dtype, at)}) := {record[at]}")
    return ", ".join(changes)


def field_at(dtype: np.dtype, at: int) -> str:
    """The name of the field that byte ``at`` of a record belongs to."""
    for name in dtype.names:
        field_dtype, offset = dtype.fields[name][:2]
        if offset <= at < offset + field_dtype.itemsize:
            return name
    return "?"


def fuzz(game, per_count: int, n_mutations: int, seed: int = 0) -> tuple[int, int, list[str], list[str]]:
    """Mutate, load and exercise ``n_mutations`` saved states; ``(accepted, refused, unsafe, inconsistent)``.

    *Unsafe* (each described with its mutation): a state refused with anything but a
    ``ValueError``, or an accepted state on which a kernel fails (under bounds checking
    an ``IndexError`` names a validation gap: a kernel would read or write out of range).
    *Inconsistent*: an accepted state from which legal moves (or a redraw) lead to a
    broken invariant: the validation is weaker than the invariants the rules keep.
    """
    states = mid_game_states(game, per_count, seed)
    rng = np.random.default_rng(seed)
    accepted = refused = 0
    unsafe, inconsistent = [], []
    for k in range(n_mutations):
        b = int(rng.integers(len(states)))
        record = bytearray(states[b:b + 1].tobytes())
        what = (_field_mutation(rng, game.state_dtype, record) if k % 2 == 0
                else _byte_mutation(rng, game.state_dtype, record))
        try:
            loaded = game.from_bytes(bytes(record))
        except ValueError:
            refused += 1
            continue
        except Exception as error:  # noqa: BLE001 - reported with the mutation that caused it
            unsafe.append(f"{game.name} position {b}, {what}: from_bytes raised {type(error).__name__}: {error}")
            continue
        accepted += 1
        try:
            exercise(game, loaded)
        except Inconsistent as error:
            inconsistent.append(f"{game.name} position {b}, {what}: {str(error)[:300]}")
        except Exception as error:  # noqa: BLE001
            unsafe.append(f"{game.name} position {b}, {what}: the loaded state failed: "
                          f"{type(error).__name__}: {str(error)[:300]}")
    return accepted, refused, unsafe, inconsistent
