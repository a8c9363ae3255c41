"""Event logs: what happened inside a step, as structured events tagged with who may see them.

A rule that does something worth reporting (a die rolled, a robbery, a race's
placing, a phase change) calls, inside the kernels::

    emit(state, KIND, seen, a, b, c, d)   # seen: a bit set of seats (EVERYONE: every seat)

``emit`` costs nothing in play: on the game's own record type it compiles to
nothing. Only a *logged* record (``logged_dtype``: the same fields after an
event buffer, ``n_events``, ``events_from`` and ``events``) makes numba compile the kernels once
more with the writes in, the first time events are asked for
(``Game.step_with_events``, or the AEC env's ``events=True``). So the rules
stay one code path, with no buffer argument threaded through them. The buffer has
one size (``DEFAULT_CAPACITY`` rows), so that build is the only one: a step that
writes more is run again for its later rows (``Game.step_logged``).

Each game declares its kinds once (``EventKinds``: a code, a name, the names of
up to four integer arguments, the spec section; ``declare`` reads them from a
table that also says who sees each kind) and reads the rows back as ``Event``
objects. ``seen`` is decided where the event happens, by the rule
that knows what each seat may know: a private event (the card a seat drew) goes
to that seat only and a public twin without the secret to the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numba import njit, types
from numba.extending import overload

EVENT_WIDTH = 6  # kind, seen, a, b, c, d
EVERYONE = -1  # every bit: every seat may see it
DEFAULT_CAPACITY = 256  # rows of a logged record's buffer; a step that writes more is run again (Game.step_logged)
N_ARGS = EVENT_WIDTH - 2


def emit(state, kind, seen, a, b, c, d):
    """Append the event ``kind`` with arguments ``a..d``, seen by the seats in the bit set ``seen``.

    A no-op on a record without an event buffer (the kernels' normal case); see the module docstring.
    """
    if "events" in state.dtype.names:  # plain Python (NUMBA_DISABLE_JIT): the same rule as the compiled one
        _append(state, kind, seen, a, b, c, d)


def _append(state, kind, seen, a, b, c, d):
    n = state["n_events"]
    i = n - state["events_from"]
    if 0 <= i < state["events"].shape[0]:
        row = state["events"][i]
        row[0] = kind
        row[1] = seen
        row[2] = a
        row[3] = b
        row[4] = c
        row[5] = d
    state["n_events"] = n + 1  # counted past the end: the caller sees the overflow and runs the step again


@overload(emit, inline="always")
def _emit_impl(state, kind, seen, a, b, c, d):
    """The compiled ``emit``: ``_append`` on a logged record, nothing on any other (chosen at compile time)."""
    return _append if is_logged(state) else _nothing


def is_logged(state) -> bool:
    """Whether the numba type ``state`` is a logged record, with an event buffer (for the overloads of the games'
    emit helpers, chosen at compile time as ``emit`` is)."""
    return isinstance(state, types.Record) and "events" in state.fields


def _nothing(state, kind, seen, a, b, c, d):
    return None


@njit(cache=True, inline="always")
def seat_bit(seat: int) -> int:
    """The bit of ``seat`` in a ``seen`` set: the ``seen`` set of that seat alone."""
    return np.int64(1) << np.int64(seat)


@lru_cache(maxsize=64)
def logged_dtype(dtype: np.dtype, capacity: int = DEFAULT_CAPACITY) -> np.dtype:
    """``dtype`` with an event buffer in front (module docstring): ``n_events``, the events the step wrote (counted
    past the buffer's end too), ``events_from``, the index of the first event the buffer keeps (0 unless a step
    that overflowed is run again for its later events), and ``events``, ``capacity`` rows."""
    fields = [(name, dtype.fields[name][0]) for name in dtype.names]
    return np.dtype([("n_events", np.int32), ("events_from", np.int32), ("events", np.int32, (capacity, EVENT_WIDTH)),
                     *fields])


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its code in the buffer, its name, the names of its arguments, the spec section."""

    code: int
    name: str
    args: tuple[str, ...] = ()
    doc: str = ""
    section: str = ""

    def __post_init__(self):
        if len(self.args) > N_ARGS:
            raise ValueError(f"event {self.name!r}: at most {N_ARGS} arguments, got {self.args}")


@dataclass(frozen=True)
class Event:
    """What happened: ``kind`` (a name), its arguments by name, and the seats that may see it."""

    kind: str
    data: dict = field(default_factory=dict)
    seen_by: tuple[int, ...] = ()

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` may see this event."""
        return seat in self.seen_by

    def to_dict(self) -> dict:
        """The event as JSON values."""
        return {"kind": self.kind, **self.data, "seen_by": list(self.seen_by)}


class EventKinds:
    """A game's event kinds (codes 1..n, declared in order) and the reading of its buffer rows."""

    def __init__(self, *kinds: EventKind):
        self.by_code = {k.code: k for k in kinds}
        if len(self.by_code) != len(kinds) or 0 in self.by_code:
            raise ValueError("event codes must be distinct and not 0")
        self.by_name = {k.name: k for k in kinds}

    def decode(self, rows: np.ndarray, num_players: int) -> list[Event]:
        """The events of buffer ``rows`` (``(n, EVENT_WIDTH)`` int32), in order."""
        events = []
        for row in rows:
            kind = self.by_code.get(int(row[0]))
            if kind is None:
                raise ValueError(f"unknown event code {int(row[0])} in an event buffer")
            seen = int(row[1])
            seats = tuple(s for s in range(num_players) if seen == EVERYONE or seen >> s & 1)
            events.append(Event(kind.name, {a: int(v) for a, v in zip(kind.args, row[2:2 + len(kind.args)])},
                                seats))
        return events

    @classmethod
    def declare(cls, table) -> tuple[EventKinds, dict[str, str]]:
        """The kinds of a game's ``table`` of rows ``(code, name, arguments, who sees it, section, what it
        reports)``, and ``{name: who sees it}`` (the words of its module docstring's table)."""
        kinds = cls(*(EventKind(code, name, args, doc, section) for code, name, args, _, section, doc in table))
        return kinds, {name: who for _, name, _, who, _, _ in table}

    def markdown_table(self) -> str:
        """The kinds as a Markdown table: name, arguments, what it reports, spec section."""
        rows = ["| event | arguments | meaning | § |", "|---|---|---|---|"]
        rows += [f"| ``{k.name}`` | {', '.join(k.args)} | {k.doc} | {k.section} |" for k in self.by_code.values()]
        return "\n".join(rows)


def cash_changes(events, num_players: int, money: dict) -> list[int]:
    """The cash each seat gained (negative: lost) by the ``events`` of a step; ``money`` names the events that move
    money: ``{kind: ((seat argument, amount argument, sign), ...)}``."""
    change = [0] * num_players
    for event in events:
        for seat_arg, amount_arg, sign in money.get(event.kind, ()):
            change[event.data[seat_arg]] += sign * event.data[amount_arg]
    return change


def to_logged(states: np.ndarray, capacity: int, events_from: int = 0) -> np.ndarray:
    """A copy of ``states`` as logged records with an empty buffer that keeps the events from ``events_from`` on."""
    logged = np.zeros(states.shape, dtype=logged_dtype(states.dtype, capacity))
    logged["events_from"] = events_from
    for name in states.dtype.names:
        logged[name] = states[name]
    return logged


def from_logged(logged: np.ndarray, states: np.ndarray) -> None:
    """Copy the game fields of ``logged`` back into ``states``."""
    for name in states.dtype.names:
        states[name] = logged[name]
