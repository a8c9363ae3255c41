"""Validation of loaded game records, before any kernel sees them (``Game.validate``).

Records from ``from_json`` / ``from_bytes`` (or edited by hand) are checked in
three steps, each only on records that passed the one before:

1. ``validate_core``: the fields every record has (``core.game`` module docstring);
2. the game's own ``validate_state_fn``, whose job is to prove every index a
   kernel uses in range;
3. ``kernel_errors``: every invariant holds, an unfinished game has a legal
   action and a finished one none.

The first record that fails raises ``ValueError`` naming the record and every
problem found in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .game import Game


def validate(game: Game, states: np.ndarray) -> None:
    """``Game.validate``: ``ValueError`` naming the first record that fails a step (module docstring).

    ``TypeError`` for anything but an array of ``game``'s records. An exception raised by
    ``validate_state_fn`` on a malformed record counts as the record being invalid.
    """
    if not isinstance(states, np.ndarray) or states.dtype != game.state_dtype:
        raise TypeError(f"expected an array of {game.name} records, got "
                        f"{type(states).__name__} {getattr(states, 'dtype', '')}".rstrip())
    batch = np.atleast_1d(states).reshape(-1)
    for b, record in enumerate(batch):
        errors = game.validate_core(record)
        if not errors:
            try:
                errors = list(game.validate_state_fn(record))
            except Exception as error:  # noqa: BLE001 - a malformed record, reported as such
                errors = [f"the record cannot be checked ({type(error).__name__}: {error})"]
        if not errors:  # its indices are in range now: the kernels may look at it
            errors = kernel_errors(game, batch[b:b + 1])
        if errors:
            raise ValueError(f"{game.name} state {b} is invalid: " + "; ".join(errors))


def kernel_errors(game: Game, one: np.ndarray) -> list[str]:
    """The checks that need the kernels, on a ``(1,)`` batch the game's own checks passed.

    Every invariant holds; an unfinished game has a legal action and a finished one none.
    """
    codes = np.zeros(1, dtype=np.int32)
    game.invariants_kernel(one, codes)
    if codes[0]:
        return [f"invariant {int(codes[0])}: {game.invariant_messages[codes[0]]}"]
    mask = np.zeros((1, game.n_actions), dtype=np.int8)
    game.legal_mask_kernel(one, mask)
    if bool(one["done"][0]) and mask.any():
        return ["a finished game has legal actions"]
    if not game.finished(one)[0] and not mask.any():
        return [f"the pending decision of seat {int(one['current'][0])} has no legal action"]
    return []


def validate_core(record, min_players: int, max_players: int) -> list[str]:
    """``Game.validate_core``: errors in the fields every record has (``core.game`` module docstring).

    Stored booleans 0 or 1, ``num_players`` in ``min_players..max_players``, ``current`` a seat or -1,
    the decision counter and cap, the scripted-chance queue (``core.rng``).
    """
    errors = []
    raw = np.frombuffer(record.tobytes(), dtype=np.uint8)  # booleans as stored, not as numpy reads them
    for name in record.dtype.names:
        field_dtype, offset = record.dtype.fields[name][:2]
        if field_dtype.base == np.bool_ and raw[offset:offset + field_dtype.itemsize].max(initial=0) > 1:
            errors.append(f"field {name!r} holds a boolean that is neither 0 nor 1")
    n = int(record["num_players"])
    if not min_players <= n <= max_players:
        errors.append(f"num_players {n} is outside {min_players}..{max_players}")
    if not -1 <= int(record["current"]) < max(n, 0):
        errors.append(f"current {int(record['current'])} is neither -1 nor a seat 0..{n - 1}")
    if int(record["n_decisions"]) < 0 or int(record["max_decisions"]) < 1:
        errors.append(f"n_decisions {int(record['n_decisions'])} must be >= 0 and max_decisions "
                      f"{int(record['max_decisions'])} >= 1")
    capacity = record["forced"].shape[0]
    n_forced, pos = int(record["n_forced"]), int(record["forced_pos"])
    if not (0 <= n_forced <= capacity and 0 <= pos):
        errors.append(f"scripted chance: n_forced {n_forced} / forced_pos {pos} outside the queue of {capacity}")
    return errors
