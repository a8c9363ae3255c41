"""Declared options (``core.options``): parsing, defaults, aliases, the kernels' vector and the docs table."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from wildwest_envs.core.options import Option, OptionTable, boolean, choice, integer, optional
from wildwest_envs.registry import GAMES, get_game

TABLE = OptionTable("Test", size=8, parse_first=("num_players",), options=(
    Option("mode", "a", choice({"a": 0, "b": 5}), slot=0),
    Option("seat", None, optional(integer(0, lambda parsed: parsed["num_players"] - 1), -1), slot=1),
    Option("num_players", 3, integer(2, 4), slot=2),
    Option("fast", lambda parsed: parsed["num_players"] == 2, boolean(), slot=3, aliases=("quick",)),
    Option("dice", (), lambda name, value, parsed: tuple(value), slot=5, width=3, count_slot=4, pad=-1),
    Option("label", "x", lambda name, value, parsed: str(value)),  # not read by the kernels
))


def test_defaults_fill_in_and_follow_the_options_they_depend_on():
    assert TABLE.parse() == {"mode": "a", "seat": None, "num_players": 3, "fast": False, "dice": (), "label": "x"}
    assert TABLE.parse(num_players=2)["fast"] is True
    assert list(TABLE.parse()) == list(TABLE.names)  # declaration order, whatever the parse order


def test_a_range_may_depend_on_an_option_parsed_first():
    assert TABLE.parse(num_players=4, seat=3)["seat"] == 3
    with pytest.raises(ValueError, match="seat must be an integer from 0 to 2, got 3"):
        TABLE.parse(seat=3)


@pytest.mark.parametrize("bad, message", [
    ({"colour": 1}, r"unknown Test option\(s\) \['colour'\]; options are"),
    ({"num_players": 5}, "num_players must be an integer from 2 to 4, got 5"),
    ({"num_players": True}, "num_players must be an integer"),
    ({"num_players": 3.0}, "num_players must be an integer"),
    ({"fast": 1}, "fast must be True or False, got 1"),
    ({"mode": "c"}, r"mode must be one of \['a', 'b'\], got 'c'"),
    ({"mode": 0}, "mode must be one of"),
])
def test_bad_options_are_named_in_the_error(bad, message):
    with pytest.raises(ValueError, match=message):
        TABLE.parse(**bad)


def test_an_old_name_still_works_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="'quick' is now called 'fast'"):
        assert TABLE.parse(quick=True)["fast"] is True
    with pytest.raises(ValueError, match="quick is the old name of fast"):
        TABLE.parse(quick=True, fast=True)


def test_the_kernel_vector_holds_every_slot_with_codes_padding_and_counts():
    vector = TABLE.kernel_vector(TABLE.parse(mode="b", num_players=4, seat=2, fast=True, dice=[6, 1]))
    assert vector.dtype == np.int64
    assert vector.tolist() == [5, 2, 4, 1, 2, 6, 1, -1]
    assert TABLE.kernel_vector(TABLE.parse()).tolist() == [0, -1, 3, 0, 0, -1, -1, -1]


def test_a_list_longer_than_its_slots_is_refused():
    with pytest.raises(ValueError, match="do not fit its 3 kernel slots"):
        TABLE.kernel_vector(TABLE.parse(dice=[1, 2, 3, 4]))


@pytest.mark.parametrize("options", [
    (Option("a", 0, integer(0, 1), slot=0), Option("b", 0, integer(0, 1), slot=0)),
    (Option("a", 0, integer(0, 1), slot=1, width=2),),
    (Option("a", 0, integer(0, 1), slot=0), Option("b", 0, integer(0, 1), aliases=("a",))),
])
def test_overlapping_or_outside_slots_and_repeated_names_fail_at_declaration(options):
    with pytest.raises(ValueError):
        OptionTable("Bad", size=2, options=options)


def test_the_docs_table_lists_every_option():
    table = TABLE.markdown_table()
    for name in TABLE.names:
        assert f"``{name}``" in table
    assert "| ``fast`` | derived | bool |" in table
    assert "| ``num_players`` | ``3`` | int 2..4 |" in table


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_auto_forced_and_max_decisions_under_one_name(name):
    """One name per option across the library; the spec names of two games still load, with a warning."""
    game = get_game(name)
    defaults = game.parse_options()
    assert {"num_players", "auto_forced", "max_decisions"} <= set(defaults)
    old = {"colt_express_v0": "auto_resolve_forced", "rail_v0": "auto_forced_actions"}.get(name)
    if old is not None:
        with pytest.warns(DeprecationWarning):
            assert game.parse_options(**{old: not defaults["auto_forced"]})["auto_forced"] is (
                not defaults["auto_forced"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the library's own name warns about nothing
        game.parse_options(auto_forced=defaults["auto_forced"])
