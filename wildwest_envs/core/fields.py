"""Declared facts of a game's record fields: their ranges (the range check of a loaded state, written once)
and their empty values (the record a new game starts from).

Numba kernels do not check bounds, so a record loaded from a file or built by
hand must prove every field a kernel uses as an index or a loop bound in range
before any kernel sees it (``core.validation``). Each game declares those
ranges as a table, in the order they are checked::

    FIELD_RANGES = {
        "num_players": (MIN_PLAYERS, MAX_PLAYERS),
        "first_player": (0, LAST_SEAT),                    # a bound read from the record
        "pile_owner": (0, LAST_SEAT, first("pile_size")),  # only the entries in use are checked
    }

A bound is an integer, or a ``Bound`` read from the record (another field, the
last seat), named in the message; its value may be an array that broadcasts to
the field (per-seat limits). The optional third element, an ``Entries``, says
which entries are checked (those of present seats, the first ``pile_size``
ones); the others are free. A field whose bound or entries read a field that
failed earlier in the table is not checked (its limits are unknown), so a
table lists a field before the fields it bounds. ``range_errors`` returns one
message per field out of range, naming the first bad entry::

    pile_owner[1] = 4 is outside 0..N-1=3

What a range cannot say (a set of allowed values, a field that must match the
player count) stays with the game's own checks, next to its table.

Each game also declares the empty value of every field whose empty value is not
0 or is a named code (no seat, no card, a full supply, the setup phase) in its
``state`` module::

    EMPTY_VALUES = {"character": NOBODY, "neutral_supply": N_NEUTRAL_BULLETS, "purse_value": PURSE_VALUES}

``empty_record(STATE_DTYPE, EMPTY_VALUES)`` is the record with those values
(each broadcast to its field) and 0 everywhere else. A game's ``init`` kernel
copies it over every record before setting the game up (``core.engine``), so
a deal never depends on what the array held before, and no game writes its
record clearing by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

INT32_MAX = 2**31 - 1  # the largest count or amount a record may hold


@dataclass(frozen=True)
class Bound:
    """A limit read from the record.

    Attributes:
        text: its name in messages (``"N-1"`` reads ``... is outside 0..N-1=3``); empty: the number only.
        of: ``record -> int or array`` (an array broadcasts to the field's shape).
        reads: the fields ``of`` reads; a failure of one of them earlier in the table skips the check.
    """

    text: str
    of: Callable
    reads: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entries:
    """The entries of a field that are checked: ``of(record, shape)`` a bool array of the field's shape."""

    of: Callable
    reads: tuple[str, ...] = ()


def leading_rows(count_field: str) -> Entries:
    """The first ``record[count_field]`` rows of a field (along its first axis: seats, bandits)."""
    return Entries(lambda record, shape: _fit(np.arange(shape[0]) < int(record[count_field]), shape), (count_field,))


LAST_SEAT = Bound("N-1", lambda record: int(record["num_players"]) - 1, ("num_players",))
PRESENT_SEATS = leading_rows("num_players")  # the rows of the seats in the game (first axis: seats)


def field_bound(name: str, offset: int = 0) -> Bound:
    """The value of the record's field ``name`` plus ``offset``, named ``name`` (``name-1`` for offset -1)."""
    text = name if offset == 0 else f"{name}{offset:+d}"
    return Bound(text, lambda record: int(record[name]) + offset, (name,))


def first(count_field: str) -> Entries:
    """The first ``record[count_field]`` entries along a field's last axis (a count per row if it is an array)."""
    return Entries(lambda record, shape: np.arange(shape[-1]) < np.asarray(record[count_field])[..., None],
                   (count_field,))


def empty_record(dtype: np.dtype, empty_values: dict) -> np.ndarray:
    """The record of ``dtype`` whose fields hold their declared empty values (module docstring), as an array of
    one record: ``empty_values[name]``, broadcast to the field, for each field named there, 0 for the others.

    Raises:
        ValueError: ``empty_values`` names a field that ``dtype`` does not have.
    """
    unknown = sorted(set(empty_values) - set(dtype.names))
    if unknown:
        raise ValueError(f"empty values for fields the record does not have: {unknown}")
    record = np.zeros(1, dtype=dtype)
    for name, value in empty_values.items():
        record[name][0] = value
    return record


def range_errors(record, ranges: dict) -> list[str]:
    """Messages for the fields of one record outside their declared ranges (module docstring); ``[]`` if none."""
    errors, failed = [], set()
    for name, declared in ranges.items():
        low, high, entries = (*declared, None) if len(declared) == 2 else declared
        depends = {f for part in (low, high, entries) if isinstance(part, (Bound, Entries)) for f in part.reads}
        if depends & failed:
            failed.add(name)
            continue
        message = _first_outside(record, name, low, high, entries)
        if message:
            errors.append(message)
            failed.add(name)
    return errors


def _first_outside(record, name: str, low, high, entries) -> str:
    """The message for the first entry of ``record[name]`` outside ``low..high``, or ``""``."""
    values = np.asarray(record[name]).astype(np.int64)
    lows, highs = _limit(low, record, values.shape), _limit(high, record, values.shape)
    bad = (values < lows) | (values > highs)
    if entries is not None:
        bad &= _fit(np.asarray(entries.of(record, values.shape), dtype=bool), values.shape)
    if not bad.any():
        return ""
    at = tuple(int(i) for i in np.argwhere(bad)[0])
    where = f"[{', '.join(map(str, at))}]" if at else ""
    return f"{name}{where} = {int(values[at])} is outside {_text(low, lows[at])}..{_text(high, highs[at])}"


def _limit(bound, record, shape) -> np.ndarray:
    """A bound's value for every entry of a field of ``shape``."""
    value = bound.of(record) if isinstance(bound, Bound) else bound
    return _fit(np.asarray(value, dtype=np.int64), shape)


def _fit(array: np.ndarray, shape) -> np.ndarray:
    """``array`` broadcast to a field's ``shape``, trailing axes added where it covers only the leading ones."""
    if array.ndim and array.ndim < len(shape) and array.shape == tuple(shape[:array.ndim]):
        array = array.reshape(array.shape + (1,) * (len(shape) - array.ndim))
    return np.broadcast_to(array, shape)


def _text(bound, value) -> str:
    """A limit as a message shows it: ``N-1=3`` for a named bound, the number otherwise."""
    number = str(int(value))
    return f"{bound.text}={number}" if isinstance(bound, Bound) and bound.text else number
