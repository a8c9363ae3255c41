"""Input checks of the ``Game`` binding: what a caller hands the kernels, checked first.

numba kernels do not check bounds, so every ``Game`` method checks what it hands
them and raises ``TypeError`` / ``ValueError`` naming the problem: ``states``
must be a 1-D array of the game's records (writeable for ``step``), ``out``
buffers of the exact shape and dtype, seats, seeds and actions integers in
range, one record where one record is asked for. Each function takes what it
needs (the game's name, its record dtype, ``n_actions``; ``check_actions`` the
``Game`` itself, for its legal masks and action names) and returns the checked
value in the form the kernels take. Loaded states are ``validation``'s job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .game import Game

LISTED_ACTIONS = 12  # legal actions an error message names before saying how many more there are


def some_of(items: list | dict) -> str:
    """The first ``LISTED_ACTIONS`` of ``items`` (action names, or ids to names) as an error shows them, then how
    many more there are: a Rail building turn has a hundred legal actions, too many to read in one message."""
    shown = list(items.items() if isinstance(items, dict) else items)[:LISTED_ACTIONS]
    text = repr(dict(shown) if isinstance(items, dict) else shown)
    more = len(items) - len(shown)
    return text if more == 0 else f"{text} and {more} more"


def check_states(name: str, state_dtype: np.dtype, states, writeable: bool = False) -> None:
    """``TypeError`` unless ``states`` is a 1-D array of game ``name``'s records (writeable if asked)."""
    if not isinstance(states, np.ndarray) or states.dtype != state_dtype:
        got = f"an array of dtype {states.dtype}" if isinstance(states, np.ndarray) else type(states).__name__
        raise TypeError(f"{name}: states must be an array of {name} records "
                        f"(Game.init, from_json, from_bytes), got {got}")
    if states.ndim != 1:
        raise ValueError(f"{name}: states must be a 1-D batch of records, got shape {states.shape}")
    if writeable and not states.flags.writeable:
        raise ValueError(f"{name}: states is read-only; step and reseed change records in place")


def check_seats(name: str, states: np.ndarray, seats, what: str) -> np.ndarray:
    """``seats`` as a contiguous int64 ``(B,)`` array of seats of each game, or ``ValueError``/``TypeError``."""
    raw = np.asarray(seats)
    if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
        raise TypeError(f"{name}: {what} must be integers, got {raw.dtype} {seats!r}")
    try:
        raw = np.broadcast_to(raw, (len(states),))
    except ValueError:
        raise ValueError(f"{name}: {what} of shape {raw.shape} do not match {len(states)} games") from None
    if np.any(raw < 0) or np.any(raw >= states["num_players"]):
        raise ValueError(f"{name}: {what} {raw.tolist()} out of range for num_players "
                         f"{states['num_players'].tolist()}")
    return np.array(raw, dtype=np.int64)  # a writeable copy: one numba type for every caller (``kernel_array``)


def kernel_array(array: np.ndarray) -> np.ndarray:
    """``array`` (records, actions) as the kernels take every argument: C-contiguous and writeable, copied if
    it is not.

    numba compiles a kernel once per argument type, and an array's layout and read-only flag are part of its
    type: a strided view (``states[::2]``) or a read-only batch would compile the game's kernels once more, for
    seconds, where a copy costs microseconds. ``Game.step`` writes a copy of its records back into the
    caller's array."""
    if array.flags.c_contiguous and array.flags.writeable:
        return array
    return np.array(array, order="C", copy=True)


def check_out(name: str, out, shape: tuple, dtype) -> None:
    """``ValueError`` unless the output buffer ``out`` is a writeable C-contiguous array of ``shape`` and ``dtype``."""
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype \
            or not out.flags.c_contiguous or not out.flags.writeable:
        got = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"{name} must be a writeable C-contiguous {np.dtype(dtype)} array of shape {shape}, got {got}")


def seed_array(seeds, n: int) -> np.ndarray:
    """``seeds`` (one integer or ``n`` integers) as a contiguous uint64 ``(n,)`` array; negatives wrap."""
    raw = np.asarray(seeds)
    if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
        raise TypeError(f"seeds must be integers (64-bit generator states), got {raw.dtype} {seeds!r}")
    try:
        raw = np.broadcast_to(raw, (n,))
    except ValueError:
        raise ValueError(f"seeds of shape {raw.shape} do not match {n} games") from None
    return np.ascontiguousarray(raw.astype(np.uint64))


def check_action_id(name: str, n_actions: int, action) -> int:
    """``Game.check_action_id``: ``action`` as an int in ``[0, n_actions)``, or ``ValueError``.

    A 0-d integer array counts as its integer.
    """
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"{name}: action must be an integer, got {type(action).__name__} {action!r}")
    if not 0 <= int(action) < n_actions:
        raise ValueError(f"{name}: action {action} is out of range [0, {n_actions})")
    return int(action)


def check_actions(game: Game, states: np.ndarray, actions) -> np.ndarray:
    """One int64 action per game of ``states`` (checked records), each legal in its unfinished game.

    The actions of finished games are not looked at and come back as 0. ``ValueError`` names the
    first problem: the count or shape, a non-integer dtype, an id out of range, an illegal action
    (with its name and the legal ones).
    """
    name, n_actions = game.name, game.n_actions
    if actions is None:
        raise ValueError(f"{name}: expected {len(states)} actions, got None")
    try:
        raw = np.asarray(actions)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{name}: actions must be an array of {len(states)} integers ({error})") from None
    if raw.shape == () and len(states) == 1:  # one game: a numpy integer scalar or 0-d array is its action
        raw = raw.reshape(1)
    if raw.shape != (len(states),):
        raise ValueError(f"{name}: expected {len(states)} actions, got shape {raw.shape}")
    if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
        raise ValueError(f"{name}: actions must be integers, got dtype {raw.dtype}")
    live = ~game.finished(states)
    bad = live & ((raw < 0) | (raw >= n_actions))  # compared before any cast: no wrap-around
    if bad.any():
        b = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}: action {raw[b]} of game {b} is out of range [0, {n_actions})")
    actions = np.where(live, raw, 0).astype(np.int64)
    masks = game.legal_mask(states)
    rows = np.arange(len(states))
    illegal = live & (masks[rows, np.clip(actions, 0, n_actions - 1)] == 0)
    if illegal.any():
        b = int(np.flatnonzero(illegal)[0])
        label = game.action_to_string_fn(states[b], int(actions[b]))
        legal = {int(a): game.action_to_string_fn(states[b], int(a)) for a in np.flatnonzero(masks[b])}
        raise ValueError(f"{name}: illegal action {actions[b]} ({label!r}) in game {b}; legal: {some_of(legal)}")
    return actions


def one_record(state):
    """The single record of ``state``: a record, a 0-d array, or a batch of exactly one."""
    if isinstance(state, np.ndarray) and state.shape != ():
        if state.shape != (1,):
            raise ValueError(f"expected one game record, got an array of shape {state.shape}")
        return state[0]
    return state[()] if isinstance(state, np.ndarray) else state


def record_and_action(state, action, n_actions: int) -> tuple[np.void, int]:
    """What a game's ``action_to_string`` reads: the one record of ``state`` (``one_record``) and ``action`` as an
    int; ``ValueError`` when it is outside ``range(n_actions)``."""
    record, action = one_record(state), int(action)
    if not 0 <= action < n_actions:
        raise ValueError(f"action {action} is outside 0..{n_actions - 1}")
    return record, action


def check_record(name: str, state_dtype: np.dtype, state):
    """The one record of ``state`` (``one_record``), checked to be of game ``name``."""
    record = one_record(state)
    if getattr(record, "dtype", None) != state_dtype:
        raise TypeError(f"{name}: expected one {name} record, got {type(record).__name__} "
                        f"{getattr(record, 'dtype', '')}".rstrip())
    return record
