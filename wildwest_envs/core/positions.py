"""What every game's position builder (``<game>/positions.py``) shares: checking its terms (``flag``, ``sequence``,
``mapping``) and a position, its legal actions, and playing on from it.

A *position* is a batch of one record (shape ``(1,)``) of a game's dtype, as ``GAME.position(**terms)`` returns
it. The games' modules bind these to their ``GAME`` (``<game>.positions.legal_actions(states)``,
``play(states, *actions)``); Rail binds them to a map's game (``game=``).
"""

from __future__ import annotations

from collections.abc import Mapping

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
