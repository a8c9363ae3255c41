"""JSON save and load of one game record, with readable field names.

The document is ``{"game": "<name>", "state": {"<field>": value, ...}}``: every
field of the record dtype by name, one line each, scalars as numbers or booleans, array fields
as nested lists. A position can therefore be written by hand, loaded, stepped
and compared. Loading checks the document field by field before any kernel can
see it (numba kernels do not check bounds): the game name, missing and extra
fields, shapes, types (no floats or strings where integers belong, no integer
outside the field's type, no list nested deeper than the field), and then the
core and game consistency checks (``Game.validate``). Every problem found is
named in one ``ValueError``; a hostile document (deeply nested, huge numbers,
bytes that are not UTF-8) is a ``ValueError`` too, with values cut short in
the message.
"""

from __future__ import annotations

import json
from itertools import chain

import numpy as np


def to_json(game_name: str, record) -> str:
    """The JSON text of one record: one line per field (each written by ``json``'s C encoder, where an indented
    document is written element by element in Python: 40 ms for a Rail record)."""
    fields = ",\n".join(f"  {json.dumps(name)}: {json.dumps(record[name].tolist())}" for name in record.dtype.names)
    return f'{{\n "game": {json.dumps(game_name)},\n "state": {{\n{fields}\n }}\n}}'


def from_json(game_name: str, dtype: np.dtype, text: str) -> np.ndarray:
    """A ``(1,)`` batch from JSON text; raises ``ValueError`` on any malformed field."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ValueError(f"saved state must be JSON text, got {type(text).__name__}")
    try:
        document = json.loads(text)
    except (TypeError, ValueError) as error:  # JSONDecodeError, or bytes that are not UTF-8
        raise ValueError(f"saved state is not valid JSON: {error}") from None
    except RecursionError:
        raise ValueError("saved state is not valid JSON: nested too deeply") from None
    if not isinstance(document, dict) or set(document) != {"game", "state"}:
        raise ValueError('saved state must be an object with exactly the keys "game" and "state"')
    if document["game"] != game_name:
        raise ValueError(f"saved state is of game {_short(document['game'])}, expected {game_name!r}")
    fields = document["state"]
    if not isinstance(fields, dict):
        raise ValueError('"state" must be an object of fields')
    errors = []
    missing = [n for n in dtype.names if n not in fields]
    extra = [n if len(n) <= 60 else n[:57] + "..." for n in fields if n not in dtype.names]
    if missing:
        errors.append(f"missing fields {missing}")
    if extra:
        errors.append(f"unknown fields {extra}")
    states = np.zeros(1, dtype=dtype)
    for name in dtype.names:
        if name in fields:
            error = _load_field(states[0], name, dtype.fields[name][0], fields[name])
            if error:
                errors.append(error)
    if errors:
        raise ValueError("invalid saved state: " + "; ".join(errors))
    return states


def _load_field(record, name: str, field_dtype: np.dtype, value) -> str | None:
    """Store ``value`` into ``record[name]``; return an error message or None."""
    base, shape = field_dtype.base, field_dtype.shape
    if not _nesting_at_most(value, len(shape)):
        return f"field {name!r} is nested deeper than its shape {shape}"
    try:
        array = np.array(value, dtype=object)
    except ValueError:
        return f"field {name!r} is a ragged list"
    if array.shape != shape:
        return f"field {name!r} has shape {array.shape}, expected {shape}"
    flat = array.reshape(-1).tolist()
    if not _plainly_in_range(flat, base):  # the common case at C speed; the loop below names the first bad item
        error = _first_bad_item(name, base, flat)
        if error:
            return error
    record[name] = np.array(flat, dtype=base).reshape(shape) if shape else base.type(flat[0])
    return None


def _plainly_in_range(flat: list, base: np.dtype) -> bool:
    """Whether every item is a bool (for a bool field) or an int, not a bool, within ``base``'s range: exact
    types only (what ``json.loads`` makes), so a True here means ``_first_bad_item`` finds nothing."""
    kinds = set(map(type, flat))
    if base == np.bool_:
        return kinds <= {bool}
    info = np.iinfo(base)
    return kinds <= {int} and (not flat or (info.min <= min(flat) and max(flat) <= info.max))


def _first_bad_item(name: str, base: np.dtype, flat: list) -> str | None:
    """The error message of the first item of ``flat`` that a field of type ``base`` cannot hold, or None."""
    for item in flat:
        if base == np.bool_:
            if not isinstance(item, bool):
                return f"field {name!r} must hold booleans, got {_short(item)}"
        elif isinstance(item, bool) or not isinstance(item, int):
            return f"field {name!r} must hold integers, got {_short(item)}"
        else:
            info = np.iinfo(base)
            if not info.min <= item <= info.max:
                return f"field {name!r} value {_short(item)} does not fit {base} [{info.min}, {info.max}]"
    return None


def _nesting_at_most(value, depth: int) -> bool:
    """Whether ``value`` has no list nested deeper than ``depth`` levels (checked level by level, without
    recursion)."""
    level = [value]
    for _ in range(depth):
        level = list(chain.from_iterable(item for item in level if isinstance(item, list)))
    return not any(issubclass(kind, list) for kind in set(map(type, level)))


def _short(value, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a hostile document may hold huge values)."""
    if isinstance(value, int) and abs(value) >= 10**limit:
        return f"<integer of {len(str(value))} digits>"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
