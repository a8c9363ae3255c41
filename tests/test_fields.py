"""The declared facts of ``core.fields``: field ranges (what they accept, what they refuse and how they say it)
and empty values (the record every deal starts from)."""

import numpy as np
import pytest

from wildwest_envs.core.fields import (INT32_MAX, LAST_SEAT, PRESENT_SEATS, Bound, empty_record, field_bound,
                                       first, range_errors)
from wildwest_envs.registry import GAMES, get_game

DTYPE = np.dtype([("num_players", np.int8), ("current", np.int8), ("pile_size", np.int8),
                  ("pile_owner", np.int8, (4,)), ("hand", np.int16, (3, 2)), ("deck_size", np.int8, (3,)),
                  ("deck", np.int8, (3, 5))])
RANGES = {
    "num_players": (2, 3),
    "current": (-1, LAST_SEAT),
    "pile_size": (0, 4),
    "pile_owner": (0, LAST_SEAT, first("pile_size")),
    "hand": (0, 9, PRESENT_SEATS),
    "deck_size": (0, Bound("", lambda r: np.where(np.arange(3) < r["num_players"], 5, 0), ("num_players",))),
    "deck": (0, 6, first("deck_size")),
}


def record(**values):
    """A consistent record of 2 players, then ``values`` written over it."""
    r = np.zeros((), dtype=DTYPE)
    r["num_players"], r["pile_size"], r["pile_owner"] = 2, 2, [1, 0, -9, 99]  # entries beyond the pile are free
    r["deck_size"] = [2, 0, 0]
    r["deck"][0, :2] = [3, 4]
    r["deck"][2] = 77  # a row of an absent seat, beyond its deck size: free
    for name, value in values.items():
        r[name] = value
    return r


def test_a_consistent_record_has_no_errors():
    """Entries outside the declared entries (beyond a count, of absent seats) are not checked."""
    assert range_errors(record(), RANGES) == []


@pytest.mark.parametrize("values, message", [
    ({"num_players": 4}, "num_players = 4 is outside 2..3"),
    ({"current": 2}, "current = 2 is outside -1..N-1=1"),
    ({"pile_owner": [1, 2, 0, 0]}, "pile_owner[1] = 2 is outside 0..N-1=1"),
    ({"hand": [[0, 0], [0, 10], [50, 0]]}, "hand[1, 1] = 10 is outside 0..9"),
    ({"deck_size": [2, 0, 1]}, "deck_size[2] = 1 is outside 0..0"),
    ({"deck": np.full((3, 5), 7)}, "deck[0, 0] = 7 is outside 0..6"),
])
def test_the_first_bad_entry_is_named_with_its_value_and_limits(values, message):
    """One message per bad field: the field, the first bad entry's index and value, the limits (a named bound
    shows its name and value)."""
    assert range_errors(record(**values), RANGES) == [message]


def test_a_field_bounded_by_a_bad_field_is_not_checked():
    """When the count or the player number is out of range, what it bounds is skipped, not misjudged."""
    errors = range_errors(record(num_players=9, pile_size=7), RANGES)
    assert errors == ["num_players = 9 is outside 2..3", "pile_size = 7 is outside 0..4"]


def test_field_bound_names_the_field_and_offset():
    """``field_bound("pile_size", -1)`` reads ``pile_size-1=...`` in the message."""
    ranges = {"current": (-1, field_bound("pile_size", -1))}
    assert range_errors(record(current=2), ranges) == ["current = 2 is outside -1..pile_size-1=1"]
    assert range_errors(record(current=1), ranges) == []
    assert INT32_MAX == 2**31 - 1


@pytest.mark.parametrize("name", list(GAMES))
def test_every_declared_field_exists_and_fresh_games_pass(name):
    """Each game's table names fields of its record, and the records of fresh games are in range."""
    game = get_game(name)
    module = __import__(f"wildwest_envs.{game.name.removesuffix('_v0')}.invariants", fromlist=["FIELD_RANGES"])
    assert set(module.FIELD_RANGES) <= set(game.state_dtype.names)
    for n in range(game.min_players, game.max_players + 1):
        states = game.init_batch(4, seed=n, num_players=n)
        for one in states:
            assert range_errors(one, module.FIELD_RANGES) == [], (name, n)


def test_the_empty_record_holds_the_declared_values_and_zeros_elsewhere():
    """Each declared empty value broadcasts to its field (a scalar over an array, an array entry by entry); every
    field not declared is 0."""
    empty = empty_record(DTYPE, {"current": -1, "pile_owner": -1, "deck": np.arange(5)})
    assert empty.shape == (1,) and empty.dtype == DTYPE
    assert empty["current"][0] == -1 and (empty["pile_owner"][0] == -1).all()
    assert (empty["deck"][0] == np.tile(np.arange(5), (3, 1))).all()
    for name in ("num_players", "pile_size", "hand", "deck_size"):
        assert not empty[name].any(), name


def test_an_empty_value_for_a_field_the_record_lacks_is_refused():
    """A misspelt field in a game's ``EMPTY_VALUES`` fails when the table is built, naming it."""
    with pytest.raises(ValueError, match=r"\['decks'\]"):
        empty_record(DTYPE, {"current": -1, "decks": -1})


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_sets_every_field_whatever_the_array_held(name):
    """The ``init`` kernel copies the game's empty record over each record first (``core.engine``), so a record
    reused by an auto-reset, holding random bytes, is dealt byte for byte as a zeroed one, at every player
    count."""
    game = get_game(name)
    for n in range(game.min_players, game.max_players + 1):
        seeds = np.arange(4, dtype=np.uint64) + np.uint64(n)
        vector = game.options.kernel_vector(game.parse_options(num_players=n))
        clean = np.zeros(4, dtype=game.state_dtype)
        dirty = np.frombuffer(np.random.default_rng(n).bytes(4 * game.state_bytes), dtype=game.state_dtype).copy()
        for states in (clean, dirty):
            game.init_kernel(states, seeds, vector)
        assert clean.tobytes() == dirty.tobytes(), (name, n)
        assert clean.tobytes() == game.init(seeds, num_players=n).tobytes(), (name, n)
