"""What the games' observation-decode tests share: the one-hot parts of a layout and the inverse of ``decode``."""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.layout import Layout, Part


def parts_of(entry) -> tuple:
    """The parts of one layout field, as a tuple (a field of one part holds it bare)."""
    return entry.parts if isinstance(entry.parts, tuple) else (entry.parts,)


def onehot_parts(layout: Layout):
    """``(field name, part)`` of every one-hot part of ``layout``, in layout order."""
    for name, entry in layout.fields.items():
        for part in parts_of(entry):
            if part.kind == "onehot":
                yield name, part


def encode_part(part: Part, value) -> np.ndarray:
    """The floats ``part`` stores for its decoded ``value`` (last axis: the part's width)."""
    value = np.asarray(value)
    if part.kind == "onehot":
        return (np.arange(part.width) + part.first == value[..., None]).astype(np.float32)
    if part.kind == "flag":
        floats = value.astype(np.float32)
    else:
        floats = (value.astype(np.float64) / part.scale).astype(np.float32)
    return floats if part.width > 1 else floats[..., None]


def encode(layout: Layout, decoded: dict, batch: int) -> np.ndarray:
    """The flat observations ``decoded`` describes (the inverse of ``decode``, for these tests)."""
    pieces = []
    for name, entry in layout.fields.items():
        value = decoded[name]
        if isinstance(entry.parts, tuple):
            floats = np.concatenate([encode_part(p, value[p.name]) for p in entry.parts], axis=-1)
        elif entry.parts.kind == "onehot":
            floats = encode_part(entry.parts, value)
        else:
            floats = encode_part(entry.parts, value)[..., 0]
        pieces.append(floats.reshape(batch, -1))
    return np.concatenate(pieces, axis=1)
