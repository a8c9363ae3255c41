"""Pieces shared by the command lines of ``training.train``, ``rllib_train`` and ``evaluate`` (no torch import)."""

from __future__ import annotations

import ast
import inspect
import random


def field_docs(cls) -> dict[str, str]:
    """The docstring under each field of a dataclass (the flags' ``--help``)."""
    body = ast.parse(inspect.getsource(cls)).body[0].body
    return {a.target.id: b.value.value for a, b in zip(body, body[1:])
            if isinstance(a, ast.AnnAssign) and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)}


def join_agent_lists(given: dict, names: tuple[str, ...]) -> None:
    """Turn each agent list ``given[name]`` of the command line (its words, each space- or comma-separated)
    into one comma-separated string, in place; a name not given is left out."""
    for name in names:
        if name in given:
            given[name] = ",".join(x for item in given[name] for x in item.split(",") if x)


def seed_everything(seed: int, threads: int) -> None:
    """Seed python's, numpy's and torch's global generators with ``seed``; torch runs on ``threads`` threads."""
    import numpy as np
    import torch
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
