"""Named slices of a flat float32 observation vector (STYLE.md §9).

A game declares its observation once::

    OBS = Layout(("game", 11), ("bandits", (6, 35)), ("ghost", 1))

Networks read the flat vector (``OBS.size`` floats); heuristics read fields by
name with ``OBS.get(vec, "bandits")``, which returns a view shaped as declared.
Kernels index the vector with the integer offsets ``OBS.start("bandits")``.

Natural scales (``Layout.decode``): a field may say how its floats read in
the game's own terms, as a third element: one ``Part`` for every element of
the field, or a tuple of parts that tile its last axis::

    OBS = Layout(("round", 5, onehot("round", 5)),
                 ("seats", (6, 4), (count("cash", scale=20), flag("in_play"), onehot("car", 2))))
    OBS.decode(vec)  # {"round": 2, "seats": {"cash": array([40, 0, ...]), "in_play": ..., "car": ...}}

Kinds: ``count`` (the float times ``scale``, rounded to an integer), ``flag``
(a boolean), ``onehot`` (the index of the 1 among ``width`` floats, -1 when
none is set) and ``real`` (the float times ``scale``). A field without one
decodes as its raw floats (``Layout.undecoded`` names such fields).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

PART_KINDS = ("count", "flag", "onehot", "real")


@dataclass(frozen=True)
class Part:
    """How ``width`` floats of a field read at their natural scale (module docstring: the kinds)."""

    name: str
    kind: str = "count"
    width: int = 1
    scale: float = 1.0
    first: int = 0  # onehot: the value of its first float (a round numbered from 1: first=1)

    def __post_init__(self):
        if self.kind not in PART_KINDS:
            raise ValueError(f"unknown part kind {self.kind!r}; choose one of {PART_KINDS}")
        if self.width < 1:
            raise ValueError(f"part {self.name!r}: width must be >= 1, got {self.width}")

    def read(self, floats: np.ndarray):
        """``floats`` (last axis: this part's ``width``) at the natural scale; ``onehot`` drops that axis."""
        if self.kind == "onehot":
            index = np.argmax(floats, axis=-1) + self.first
            return np.where(floats.max(axis=-1, initial=0.0) > 0.5, index, -1).astype(np.int64)
        if self.width == 1:
            floats = floats[..., 0]
        if self.kind == "count":
            return np.rint(floats.astype(np.float64) * self.scale).astype(np.int64)
        if self.kind == "flag":
            return floats > 0.5
        return floats.astype(np.float64) * self.scale


def count(name: str, scale: float = 1.0, width: int = 1) -> Part:
    """Integers stored as ``value / scale``."""
    return Part(name, "count", width, scale)


def flag(name: str, width: int = 1) -> Part:
    """Booleans stored as 0.0 / 1.0."""
    return Part(name, "flag", width)


def onehot(name: str, width: int, first: int = 0) -> Part:
    """An index stored as ``width`` floats, one of them 1: ``first`` plus its position (-1 when none is set)."""
    return Part(name, "onehot", width, first=first)


def real(name: str, scale: float = 1.0, width: int = 1) -> Part:
    """Real numbers stored as ``value / scale``."""
    return Part(name, "real", width, scale)


@dataclass(frozen=True)
class Field:
    """One named slice: ``[start, start + size)`` of the flat vector, reshaped to ``shape``.

    ``size`` and ``stop`` are computed once: heuristics read fields thousands of
    times per second.
    """

    name: str
    start: int
    shape: tuple[int, ...]
    parts: Part | tuple[Part, ...] | None = None
    size: int = field(init=False)
    stop: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "size", math.prod(self.shape))
        object.__setattr__(self, "stop", self.start + self.size)
        if isinstance(self.parts, tuple):
            widths = sum(p.width for p in self.parts)
            if widths != self.shape[-1]:
                raise ValueError(f"observation field {self.name!r}: its parts are {widths} floats wide, its last "
                                 f"axis {self.shape[-1]}")
            names = [p.name for p in self.parts]
            if len(set(names)) != len(names):
                raise ValueError(f"observation field {self.name!r}: duplicate part names {names}")
        elif isinstance(self.parts, Part):  # a onehot over the last axis, or any other kind element by element
            wide = self.shape[-1] if self.parts.kind == "onehot" else 1
            if self.parts.width != wide:
                raise ValueError(f"observation field {self.name!r}: a single {self.parts.kind} part must be {wide} "
                                 f"wide, got {self.parts.width}")

    def decode(self, part: np.ndarray):
        """This field's floats (``part``, shaped ``lead + shape``) at their natural scale."""
        if self.parts is None:
            return part
        if isinstance(self.parts, Part):
            if self.parts.kind != "onehot" and self.shape == (1,):  # a field of one float: one value
                return self.parts.read(part)
            return self.parts.read(part if self.parts.kind == "onehot" else part[..., None])
        out, start = {}, 0
        for p in self.parts:
            out[p.name] = p.read(part[..., start:start + p.width])
            start += p.width
        return out


class Layout:
    """An ordered set of named fields that tile a flat vector without gaps."""

    def __init__(self, *fields: tuple):
        self.fields: dict[str, Field] = {}
        start = 0
        for name, shape, *parts in fields:
            if name in self.fields:
                raise ValueError(f"duplicate observation field {name!r}")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            entry = Field(name, start, shape, parts[0] if parts else None)
            self.fields[name] = entry
            start = entry.stop
        self.size = start

    def start(self, name: str) -> int:
        """Offset of field ``name`` in the flat vector."""
        return self.fields[name].start

    def get(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The view of field ``name`` in ``vector`` (last axis flat), shaped as declared."""
        try:
            entry = self.fields[name]
        except KeyError:
            raise KeyError(f"unknown observation field {name!r}; fields: {list(self.fields)}") from None
        part = vector[..., entry.start:entry.stop]
        return part.reshape(vector.shape[:-1] + entry.shape)

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Every field of ``vector`` by name."""
        return {name: self.get(vector, name) for name in self.fields}

    def decode(self, vector: np.ndarray) -> dict:
        """Every field of ``vector`` (one observation, or a batch: leading axes) at its natural scale.

        A field with one part gives an array (or, for one observation and a single value, a Python
        ``int``, ``bool`` or ``float``); a field with several gives a dict of them by part name; a field
        without parts its raw floats (module docstring). Raises ``ValueError`` for a vector of the wrong size.
        """
        vector = np.asarray(vector)
        if vector.shape[-1:] != (self.size,):
            raise ValueError(f"expected observations of {self.size} floats, got shape {vector.shape}")
        return {name: _plain(entry.decode(self.get(vector, name))) for name, entry in self.fields.items()}

    def undecoded(self) -> list[str]:
        """The fields that declare no natural scale (``decode`` gives their raw floats)."""
        return [name for name, entry in self.fields.items() if entry.parts is None]

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}{list(f.shape)}" for f in self.fields.values())
        return f"Layout({inner}; size={self.size})"


def _plain(value):
    """A 0-d array or numpy scalar as a Python scalar; dicts value by value; anything else as it is."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    return value
