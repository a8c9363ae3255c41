"""JSON save and load of one game record, with readable field names.

The document is ``{"game": "<name>", "state": {"<field>": value, ...}}``: every
field of the record dtype by name, scalars as numbers or booleans, array fields
as nested lists. A position can therefore be written by hand, loaded, stepped
and compared. Loading checks the document field by field before any kernel can
see it (numba kernels do not check bounds): the game name, missing and extra
fields, shapes, types (no floats or strings where integers belong, no integer
outside the field's type), and then the game's own consistency checks
(``Game.validate``). Every problem found is named in one ``ValueError``.
"""

from __future__ import annotations

import json

import numpy as np


def to_json(game_name: str, record) -> str:
    """The JSON text of one record."""
    fields = {name: record[name].tolist() for name in record.dtype.names}
    return json.dumps({"game": game_name, "state": fields}, indent=1)


def from_json(game_name: str, dtype: np.dtype, text: str) -> np.ndarray:
    """A ``(1,)`` batch from JSON text; raises ``ValueError`` on any malformed field."""
    try:
        document = json.loads(text)
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"saved state is not valid JSON: {error}") from None
    if not isinstance(document, dict) or set(document) != {"game", "state"}:
        raise ValueError('saved state must be an object with exactly the keys "game" and "state"')
    if document["game"] != game_name:
        raise ValueError(f"saved state is of game {document['game']!r}, expected {game_name!r}")
    fields = document["state"]
    if not isinstance(fields, dict):
        raise ValueError('"state" must be an object of fields')
    errors = []
    missing = [n for n in dtype.names if n not in fields]
    extra = [n for n in fields if n not in dtype.names]
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
    try:
        array = np.array(value, dtype=object)
    except ValueError:
        return f"field {name!r} is a ragged list"
    if array.shape != shape:
        return f"field {name!r} has shape {array.shape}, expected {shape}"
    flat = array.reshape(-1)
    for item in flat:
        if base == np.bool_:
            if not isinstance(item, bool):
                return f"field {name!r} must hold booleans, got {item!r}"
        elif isinstance(item, bool) or not isinstance(item, int):
            return f"field {name!r} must hold integers, got {item!r}"
        else:
            info = np.iinfo(base)
            if not info.min <= item <= info.max:
                return f"field {name!r} value {item} does not fit {base} [{info.min}, {info.max}]"
    record[name] = np.array(flat.tolist(), dtype=base).reshape(shape) if shape else base.type(flat[0])
    return None
