"""What the games' data modules (``<game>/data.py``) share: their JSON files and read-only tables."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def frozen(values, dtype) -> np.ndarray:
    """``values`` as a read-only array of ``dtype`` (a table of the rules, never written)."""
    array = np.array(values, dtype=dtype)
    array.setflags(write=False)
    return array


def game_json(module_file: str, name: str) -> tuple[Path, dict]:
    """The JSON file ``name`` of the ``data`` folder beside the module ``module_file``: its path and content."""
    path = Path(module_file).parent / "data" / name
    return path, json.loads(path.read_text())
