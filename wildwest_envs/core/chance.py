"""Scripted chance in the rules' own terms: die faces, tie-break draws (``Game.script``).

Every record answers its draws from a small queue of scripted values before its
generator (``core.rng``: the next ``draw_below(n)`` returns the next queued
value). A game declares the kinds of outcome it draws during play (``Chance``:
a die's faces 1..6, a uniform draw among tied seats 0..m-1) and ``script``
turns outcomes named that way into queued values::

    states = GAME.init(7)
    GAME.script(states, [("die", 6), ("die", 1)])  # the next two dice show 6, then 1
    GAME.step(states, action)                       # the step that rolls them

Outcomes are consumed in the order the rules draw them (each game's rules module
documents that order; the event log shows what was drawn). What ``init`` draws
is scripted through options, as the rules name it: the start player
(``start_player=`` in every game; Rail rolls for it in its first step, so its
dice are scripted here).

A script ends in one of two ways (``then``): ``"error"`` (the default) queues an
end marker after the outcomes; a step that needs a draw after the last scripted
outcome raises ``ValueError`` and changes nothing (``Game.step`` with
``check=True``); ``"random"`` lets the record's generator answer the draws after
the script, as an unscripted game would.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .options import is_integer

SCRIPT_END = -1  # queued after a script that must not run out; a draw that reaches it is refused
THEN = ("error", "random")


@dataclass(frozen=True)
class Chance:
    """A kind of chance outcome: ``name`` with outcomes ``first .. first + size - 1`` (a d6: 1..6)."""

    name: str
    size: int
    first: int = 0
    doc: str = ""

    def encode(self, outcome) -> int:
        """The queued value of ``outcome``; ``ValueError`` for an impossible one."""
        last = self.first + self.size - 1
        if not is_integer(outcome) or not self.first <= outcome <= last:
            raise ValueError(f"impossible {self.name} outcome {outcome!r}: it must be an integer "
                             f"{self.first}..{last}")
        return int(outcome) - self.first


def die(sides: int = 6) -> Chance:
    """A die's face, 1..``sides``."""
    return Chance("die", sides, 1, f"the face of a d{sides}")


def encode_script(kinds: tuple[Chance, ...], outcomes, game_name: str) -> list[int]:
    """The queued values of ``outcomes``: ``(kind, outcome)`` pairs, or bare outcomes when the game has one kind."""
    by_name = {k.name: k for k in kinds}
    if not by_name:
        raise ValueError(f"{game_name} draws no chance outcome during play that a script could name")
    if isinstance(outcomes, (str, bytes)) or not hasattr(outcomes, "__iter__"):
        raise TypeError(f"outcomes must be a list of (kind, outcome) pairs, got {type(outcomes).__name__}")
    values = []
    for entry in outcomes:
        if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str):
            name, outcome = entry
        elif len(by_name) == 1:
            name, outcome = next(iter(by_name)), entry
        else:
            raise ValueError(f"{game_name} draws several kinds of outcome {sorted(by_name)}: name each one, "
                             f"e.g. ({next(iter(by_name))!r}, value); got {entry!r}")
        if name not in by_name:
            raise ValueError(f"unknown chance outcome kind {name!r} for {game_name}; kinds: {sorted(by_name)}")
        values.append(by_name[name].encode(outcome))
    return values


def write_script(states: np.ndarray, values: list[int], then: str, game_name: str) -> None:
    """Queue ``values`` (and the end marker unless ``then == "random"``) in every record, replacing its queue."""
    if then not in THEN:
        raise ValueError(f"then must be one of {THEN}, got {then!r}")
    queue = values + ([SCRIPT_END] if then == "error" else [])
    capacity = states.dtype["forced"].shape[0]
    if len(queue) > capacity:
        raise ValueError(f"a {game_name} record holds at most {capacity - (then == 'error')} scripted outcomes "
                         f"(its queue has {capacity} entries), got {len(values)}; script the rest after a step")
    states["forced"] = 0
    states["forced"][:, :len(queue)] = queue
    states["n_forced"] = len(queue)
    states["forced_pos"] = 0


def ran_out(states: np.ndarray) -> np.ndarray:
    """Records whose step drew past the end of a script that had to last (its end marker was consumed)."""
    n = states["n_forced"].astype(np.int64)
    last = np.take_along_axis(states["forced"], np.maximum(n - 1, 0)[:, None], axis=1)[:, 0]
    return (n > 0) & (last == SCRIPT_END) & (states["forced_pos"] == n)
