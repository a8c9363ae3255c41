"""Declared game options: one table per game gives parsing, defaults, the kernels' option vector and the docs.

A game declares its options once, in order, as ``Option`` rows of an
``OptionTable``::

    OPTIONS = OptionTable("Colt Express", size=N_OPTION_VALUES, options=(
        Option("num_players", 3, integer(2, 6), slot=OPT_NUM_PLAYERS, doc="players", section="§3"),
        Option("auto_forced", True, boolean(), slot=OPT_AUTO_FORCED, doc="apply forced decisions", section="§11.4"),
        ...
    ))
    options = OPTIONS.parse(num_players=4)     # a dict of every option, defaults filled in, or ValueError
    vector = OPTIONS.kernel_vector(options)    # the int64 vector every game's ``rules.init`` reads

From the table, ``core`` gets for every game alike:

* **parsing**: keyword options are checked in declaration order (a parser sees
  the options parsed before it, so a range may depend on ``num_players``;
  ``parse_first`` moves an option that others depend on to the front);
  an unknown name, a wrong type or a value out of range is a ``ValueError``
  naming the option, what it accepts and what was given;
* **defaults**: a value, or a function of the options parsed before it
  (``Option.default`` callable), e.g. a rule that is on by default only with
  two players;
* **the kernels' options**: every option with a ``slot`` is written into one
  int64 vector at that index (``width`` slots for a list, its length at
  ``count_slot``), so the init kernel
  of every game has the same signature ``init(states, seeds, options)`` and
  adding an option is one row here plus the kernel code that reads its slot;
* **aliases**: an older name of an option is still accepted, with a
  ``DeprecationWarning`` naming the one to use;
* **documentation**: ``markdown_table`` (name, default, accepted values, spec
  section), so the docs cannot drift from the code.

The slots are constants of the game's ``data`` module (the kernels read them
as compile-time globals); the table checks at import that they do not overlap
and fit the vector.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

Parser = Callable[[str, Any, dict], Any]  # (option name, given value, options parsed so far) -> parsed value


@dataclass(frozen=True)
class Option:
    """One option of a game.

    Attributes:
        name: keyword of ``env(**options)`` and ``Game.init``.
        default: the value when the option is not given, or a function of the options parsed before it.
        parse: ``(name, value, parsed_so_far) -> value``; raises ``ValueError`` for a bad value
            (``integer``, ``boolean``, ``choice``, ``optional`` build the common ones).
        slot: index of the option in the kernels' int64 vector, ``None`` if the kernels do not read it.
        width: slots it takes (a list option); shorter lists are padded with ``pad``.
        count_slot: for a list option, the slot that receives its length.
        encode: parsed value -> int or sequence of ints for the vector (default: the value itself, a
            choice's code, a list's items).
        pad: value of the vector slots a shorter list leaves empty.
        accepts: the accepted values in words, for the docs (default: from the parser).
        doc: what the option does; section: where the rules spec says so.
        aliases: older names, still accepted with a ``DeprecationWarning``.
    """

    name: str
    default: Any
    parse: Parser
    slot: int | None = None
    width: int = 1
    count_slot: int | None = None
    encode: Callable[[Any], Any] | None = None
    pad: int = 0
    accepts: str = ""
    doc: str = ""
    section: str = ""
    aliases: tuple[str, ...] = ()

    def default_for(self, parsed: dict) -> Any:
        """The default value, given the options parsed before this one."""
        return self.default(parsed) if callable(self.default) else self.default

    def codes(self, value) -> list[int]:
        """The option's parsed value as the ints of its ``width`` vector slots."""
        raw = self.encode(value) if self.encode is not None else getattr(self.parse, "encode", _identity)(value)
        items = [int(v) for v in raw] if isinstance(raw, (tuple, list, np.ndarray)) else [int(raw)]
        if len(items) > self.width:
            raise ValueError(f"option {self.name}: {len(items)} values do not fit its {self.width} kernel slots")
        return items + [self.pad] * (self.width - len(items))


class OptionTable:
    """The ordered options of one game (module docstring)."""

    def __init__(self, game_label: str, options: tuple[Option, ...], size: int, parse_first: tuple[str, ...] = ()):
        """``game_label`` names the game in errors; ``size`` is the length of the kernels' vector;
        ``parse_first`` names options that others depend on but that are declared (and listed) later."""
        self.game_label = game_label
        self.options = tuple(options)
        self.size = size
        self.names = tuple(o.name for o in self.options)
        by_name = {o.name: o for o in self.options}
        self._parse_order = tuple(by_name[n] for n in parse_first) + tuple(
            o for o in self.options if o.name not in parse_first)
        self._by_alias = {alias: o.name for o in self.options for alias in o.aliases}
        _check_slots(self.options, size)

    def parse(self, **given) -> dict:
        """Every option, parsed and with defaults filled in, in declaration order; ``ValueError`` if invalid."""
        for alias, name in self._by_alias.items():
            if alias in given:
                if name in given:
                    raise ValueError(f"{alias} is the old name of {name}: give one of them, not both")
                warnings.warn(f"the {self.game_label} option {alias!r} is now called {name!r}",
                              DeprecationWarning, stacklevel=3)
                given[name] = given.pop(alias)
        unknown = sorted(set(given) - set(self.names))
        if unknown:
            raise ValueError(f"unknown {self.game_label} option(s) {unknown}; options are {list(self.names)}")
        parsed: dict = {}
        for option in self._parse_order:
            if option.name in given:
                parsed[option.name] = option.parse(option.name, given[option.name], parsed)
            else:
                parsed[option.name] = option.default_for(parsed)
        return {name: parsed[name] for name in self.names}

    def kernel_vector(self, parsed: dict) -> np.ndarray:
        """The parsed options as the int64 vector of the game's ``rules.init`` (slots of the table)."""
        out = np.zeros(self.size, dtype=np.int64)
        for option in self.options:
            if option.slot is not None:
                out[option.slot:option.slot + option.width] = option.codes(parsed[option.name])
                if option.count_slot is not None:
                    out[option.count_slot] = len(parsed[option.name])
        return out

    def markdown_table(self) -> str:
        """The options as a Markdown table: name, default, accepted values, what it does, spec section."""
        rows = ["| option | default | values | meaning | § |", "|---|---|---|---|---|"]
        for o in self.options:
            default = "derived" if callable(o.default) else f"``{o.default!r}``"
            accepts = o.accepts or getattr(o.parse, "accepts", "")
            rows.append(f"| ``{o.name}`` | {default} | {accepts} | {o.doc} | {o.section} |")
        return "\n".join(rows)


# ---- parsers of the common kinds ---------------------------------------------------------------------------------
def is_integer(value) -> bool:
    """True for Python and numpy integers, False for booleans and everything else."""
    return not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, np.integer))


def check_integer(name: str, value, low: int, high: int) -> int:
    """``value`` as an int in ``[low, high]``, or the library's ``ValueError`` for integer options."""
    if not is_integer(value) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def integer(low: int, high: int | Callable[[dict], int]) -> Parser:
    """An integer in ``[low, high]``; ``high`` may depend on the options parsed before (e.g. a seat)."""

    def parse(name: str, value, parsed: dict) -> int:
        return check_integer(name, value, low, high(parsed) if callable(high) else high)

    parse.accepts = f"int {low}..{'N-1' if callable(high) else high}"
    return parse


def boolean() -> Parser:
    """``True`` or ``False`` (numpy booleans too), as a Python bool."""

    def parse(name: str, value, parsed: dict) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {value!r}")
        return bool(value)

    parse.accepts = "bool"
    return parse


def choice(codes: Mapping) -> Parser:
    """One of the keys of ``codes`` (of the keys' type: no ``True`` for ``1``); the vector holds its code."""
    key_type = type(next(iter(codes)))

    def parse(name: str, value, parsed: dict):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, key_type) or value not in codes:
            raise ValueError(f"{name} must be one of {list(codes)}, got {value!r}")
        return value

    parse.accepts = ", ".join(f"``{k!r}``" for k in codes)
    parse.encode = lambda value: codes[value]
    return parse


def optional(parser: Parser, none_code: int) -> Parser:
    """``None`` or what ``parser`` accepts; ``None`` is ``none_code`` in the vector."""

    def parse(name: str, value, parsed: dict):
        return None if value is None else parser(name, value, parsed)

    inner = getattr(parser, "encode", _identity)
    parse.accepts = f"None or {getattr(parser, 'accepts', 'a value')}"
    parse.encode = lambda value: none_code if value is None else inner(value)
    return parse


# ---- the options every game has, under one name -----------------------------------------------------------------
def auto_forced_option(default: bool, slot: int, section: str, aliases: tuple[str, ...] = ()) -> Option:
    """``auto_forced``: apply a decision with a single legal action without asking (``aliases``: a spec's name)."""
    return Option("auto_forced", default, boolean(), slot=slot, aliases=aliases, section=section,
                  doc="apply a decision with a single legal action without asking")


def max_decisions_option(default: int, slot: int, high: int = 2**31 - 1, section: str = "") -> Option:
    """``max_decisions``: the decision cap; a game that reaches it is truncated (``core.game``)."""
    return Option("max_decisions", default, integer(1, high), slot=slot, section=section,
                  doc="decision cap: the game is truncated after this many decisions")


RANDOM_START = -1  # kernel code of start_player=None


def start_player_option(slot: int, section: str) -> Option:
    """``start_player``: the seat that starts the game, or ``None`` to draw it as the rules do."""
    return Option("start_player", None, optional(integer(0, _last_seat), RANDOM_START), slot=slot, section=section,
                  doc="the start player (None: drawn at random)")


def _last_seat(parsed: dict) -> int:
    return parsed["num_players"] - 1


def sequence(name: str, value) -> list:
    """``value`` as a list, or ``ValueError`` if it is a string or not iterable."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name} must be a list, got {value!r}")
    return list(value)


def _identity(value):
    return value


def _check_slots(options: tuple[Option, ...], size: int) -> None:
    """``ValueError`` at import if two options share a slot, a slot leaves the vector, or a name repeats."""
    names = [o.name for o in options] + [a for o in options for a in o.aliases]
    if len(set(names)) != len(names):
        raise ValueError(f"option names repeat: {names}")
    used: dict[int, str] = {}
    for o in options:
        if o.slot is None:
            continue
        slots = list(range(o.slot, o.slot + o.width)) + ([] if o.count_slot is None else [o.count_slot])
        for s in slots:
            if not 0 <= s < size or s in used:
                raise ValueError(f"option {o.name}: slot {s} is outside 0..{size - 1} or taken by {used.get(s)}")
            used[s] = o.name
