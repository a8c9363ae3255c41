"""Named slices of a flat float32 observation vector (STYLE.md §9).

A game declares its observation once::

    OBS = Layout(("game", 11), ("bandits", (6, 35)), ("ghost", 1))

Networks read the flat vector (``OBS.size`` floats); heuristics read fields by
name with ``OBS.get(vec, "bandits")``, which returns a view shaped as declared.
Kernels index the vector with the integer offsets ``OBS.start("bandits")``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Field:
    """One named slice: ``[start, start + size)`` of the flat vector, reshaped to ``shape``.

    ``size`` and ``stop`` are computed once: heuristics read fields thousands of
    times per second.
    """

    name: str
    start: int
    shape: tuple[int, ...]
    size: int = field(init=False)
    stop: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "size", math.prod(self.shape))
        object.__setattr__(self, "stop", self.start + self.size)


class Layout:
    """An ordered set of named fields that tile a flat vector without gaps."""

    def __init__(self, *fields: tuple[str, int | tuple[int, ...]]):
        self.fields: dict[str, Field] = {}
        start = 0
        for name, shape in fields:
            if name in self.fields:
                raise ValueError(f"duplicate observation field {name!r}")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            entry = Field(name, start, shape)
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

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}{list(f.shape)}" for f in self.fields.values())
        return f"Layout({inner}; size={self.size})"
