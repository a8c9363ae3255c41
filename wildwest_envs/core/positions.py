"""What every game's position builder (``<game>/positions.py``) shares: checking its terms (``flag``, ``sequence``,
``mapping``, ``seat``, ``seat_values``, ``check_start``, ``decision_code``) and a position, its legal actions, and
playing on from it.

A *position* is a batch of one record (shape ``(1,)``) of a game's dtype, as ``GAME.position(**terms)`` returns
it. The games' modules bind these to their ``GAME`` (``<game>.positions.legal_actions(states)``,
``play(states, *actions)``, made by ``bound_to``); Rail binds them to a map's game (``game=``).

Errors: a builder (``position``, ``place``) raises ``ValueError`` for an unknown term or option or an impossible
value (named in the message) and ``TypeError`` for a term of the wrong type.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

import numpy as np

from .options import is_integer


def flag(value, term: str) -> bool:
    """The term ``value`` as a bool (True/False or 0/1); ``TypeError`` naming ``term`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or (is_integer(value) and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{term} must be True or False, got {value!r}")


def sequence(value, term: str) -> list:
    """The term ``value`` as a list (not a string or a mapping); ``TypeError`` naming ``term`` otherwise."""
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{term} must be a list, got {value!r}")
    return list(value)


def mapping(value, term: str, shape: str) -> Mapping:
    """The term ``value`` if it is a mapping (``shape`` says of what, for the message); ``TypeError`` otherwise."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{term} must be a mapping {shape}, got {value!r}")
    return value


def index_or_name(x, count: int, *name_lists) -> int | None:
    """``x`` as an index 0..count-1: an integer in that range, or a name of one of ``name_lists`` (its index
    there; any case, spaces around ignored). None for anything else."""
    if is_integer(x) and 0 <= x < count:
        return int(x)
    if isinstance(x, str):
        key = x.strip().lower()
        for names in name_lists:
            lowered = [name.lower() for name in names]
            if key in lowered:
                return lowered.index(key)
    return None


def seat(p, n: int, term: str) -> int:
    """``p`` as a seat of an n-player game, or a ``ValueError`` naming ``term``."""
    if not is_integer(p) or not 0 <= p < n:
        raise ValueError(f"{term}: seat {p!r} is not a seat of this {n}-player game (0..{n - 1})")
    return int(p)


def seat_values(term: str, value, n: int) -> dict[int, object]:
    """``{seat: value}`` from one value for every seat, a sequence of N values or a mapping by seat."""
    if isinstance(value, Mapping):
        return {seat(p, n, term): v for p, v in value.items()}
    if is_integer(value):
        return dict.fromkeys(range(n), value)
    values = sequence(value, term)
    if len(values) != n:
        raise ValueError(f"{term} must give one value per seat ({n}), got {len(values)}: {values!r}")
    return dict(enumerate(values))


def check_start(game, title: str, seed, options: dict, terms, aliases=()) -> None:
    """A position builder's first checks: every keyword of ``options`` is an option of ``game`` (or one of
    ``aliases``, older option names the builder accepts), and ``seed`` is a generator state.

    Raises:
        ValueError: an unknown keyword (the message lists the builder's ``terms`` and the game's options; ``title``
            names the game), or a seed outside 0..2**64-1.
    """
    unknown = sorted(set(options) - set(game.options.names) - set(aliases))
    if unknown:
        raise ValueError(f"unknown {title} position term(s) {unknown}; terms are {list(terms)}, "
                         f"options are {list(game.options.names)}")
    if not is_integer(seed) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer 0..2**64-1 (the record's generator state), got {seed!r}")


def decision_code(decision, decisions: Mapping[str, int], names, reached_by_play: Callable[[str], str | None]) -> int:
    """The code of a decision a position can be built at: a code of ``decisions`` (key -> code), a key, or a code's
    name in ``names`` (indexed by code), any case.

    ``reached_by_play(key)`` says, for a decision positions are not built at but play reaches, how to reach it (the
    error message after ``decision ...: ``); None for any other key.

    Raises:
        ValueError: any other ``decision``.
    """
    if is_integer(decision) and decision in decisions.values():
        return int(decision)
    if isinstance(decision, str):
        key = decision.strip().lower()
        if key in decisions:
            return decisions[key]
        by_name = {names[c].lower(): c for c in decisions.values()}
        if key in by_name:
            return by_name[key]
        how = reached_by_play(key)
        if how:
            raise ValueError(f"decision {decision!r}: {how}")
    listed = [names[c] for c in decisions.values()]
    raise ValueError(f"decision must be one of {list(decisions)} (or {listed}), got {decision!r}")


def check_position(game, states, hint: str = "") -> np.ndarray:
    """``states`` itself if it is a position of ``game``: a ``(1,)`` array of its records.

    Raises:
        TypeError: anything else (``hint`` is added to the message).
    """
    if not isinstance(states, np.ndarray) or states.dtype != game.state_dtype or states.shape != (1,):
        raise TypeError(f"expected a position: a batch of one {game.name} record (shape (1,)), got "
                        f"{type(states).__name__} {getattr(states, 'shape', '')}{hint}")
    return states


def legal_actions(game, states: np.ndarray) -> list[int]:
    """The legal action ids of the pending decision of the position ``states`` (empty once it is over)."""
    check_position(game, states)
    return [int(a) for a in np.flatnonzero(game.legal_mask(states)[0])]


def play(game, states: np.ndarray, actions) -> np.ndarray:
    """Step the position ``states`` with each of ``actions`` in turn (an id, or a name as
    ``game.action_to_string`` gives it); returns ``states``.

    Raises:
        ValueError: an illegal action or an unknown name (``game.step`` / ``game.string_to_action`` name it and
            the legal ones; the record is then as the earlier actions left it).
        RuntimeError: a step broke an invariant that held before it (a rules-engine bug).
    """
    check_position(game, states)
    for action in actions:
        if isinstance(action, str):
            action = game.string_to_action(states[0], action)
        was_sound = not game.invariant_violations(states)
        game.step(states, np.array([game.check_action_id(action)]))
        broken = game.invariant_violations(states) if was_sound else []
        if broken:
            raise RuntimeError(f"after action {action}: {broken[0][1]}")
    return states


def bound_to(game_module: str) -> tuple[Callable, Callable]:
    """``legal_actions(states)`` and ``play(states, *actions)`` bound to the ``GAME`` of the module named
    ``game_module`` (looked up at each call: that module imports the position builder that binds them)."""
    package = game_module.rpartition(".")[0]

    def bound_legal_actions(states: np.ndarray) -> list[int]:
        """The legal action ids of the pending decision of the position ``states`` (empty once it is over)."""
        return legal_actions(importlib.import_module(game_module).GAME, states)

    def bound_play(states: np.ndarray, *actions) -> np.ndarray:
        """Step the position ``states`` with each action in turn (an id, or a name as ``GAME.action_to_string``
        gives it); returns ``states``. Raises as ``core.positions.play`` does (``ValueError``: an illegal action or
        unknown name; ``RuntimeError``: a step broke an invariant that held before it)."""
        return play(importlib.import_module(game_module).GAME, states, actions)

    for function, name in ((bound_legal_actions, "legal_actions"), (bound_play, "play")):
        function.__name__ = function.__qualname__ = name
        function.__module__ = f"{package}.positions"
    return bound_legal_actions, bound_play
