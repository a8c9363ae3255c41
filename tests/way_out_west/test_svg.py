"""Tests of the Way Out West SVG drawing (``svg.draw``; spec §12, issue 20 item 1).

The drawing must be a standalone SVG document of fixed size, hold every piece the record holds (read back
from the pieces' classes and ``data-`` attributes), be deterministic and read-only, and, the game hiding
nothing but future dice (§12), be the same for every seat and for records that differ only in their dice.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from tests._svg import (assert_bad_arguments_refused, assert_batch_of_one_draws_as_its_record, foreign_record,
                        parse, pieces, read_only, standalone_svg)
from tests.way_out_west._random_states import random_states
from wildwest_envs.way_out_west import svg
from wildwest_envs.way_out_west.data import (A_TARGET, A_YES, BANK, BOX_MIN_PLAYERS, DEC_SHERIFF_JOIN, DEC_VOLLEY_DEFENDER,
                                             JAIL, MAX_PLAYERS, N_BOXES, N_BT, N_TOWNS, PHASE_AUCTION)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.positions import ABILENE, DEADWOOD, DODGE_CITY, box, play, position, town
from wildwest_envs.way_out_west.state import NOBODY

PLAYER_COUNTS = tuple(range(GAME.min_players, GAME.max_players + 1))


@lru_cache(maxsize=None)
def positions(num_players: int) -> np.ndarray:
    """Snapshots of seeded random games (whole games, a few hundred decisions each), read-only."""
    return read_only([random_states(n_games=3, every=23, seed=40 + num_players, num_players=num_players)])


def ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",")] if text else []


def gunfight_position() -> np.ndarray:
    """Seat 1 attacks seat 0's bank in Abilene; seat 2's sheriff joins the defence; seat 0 is to shoot."""
    states = position(3, seed=7, turn=1, round=5, cowboys={ABILENE: [2, 3, 1], DEADWOOD: {0: 6, 2: 2}},
                      cattle={ABILENE: [1, 2, 0], DEADWOOD: {0: 3, 1: 4}},
                      buildings={ABILENE: {"bank": 0, "jail": 2, "store": 1, "train": 0},
                                 DEADWOOD: {"hotel": 1, "stagecoach": 2}},
                      farmers={ABILENE: [0, 1], DODGE_CITY: [2]}, cash=[14, 9, 30], wanted=[1, 3, 0])
    play(states, box(16), town(ABILENE), A_TARGET + BANK, A_YES)
    return states


# ---- the document ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_position_of_random_play_draws_a_standalone_svg_of_the_declared_size(n):
    """Whole random games (start to end) draw without error: an ``svg`` root of ``WIDTH`` x ``HEIGHT``."""
    records = positions(n)
    assert records["done"].any() and (records["n_decisions"] >= 200).any()
    for record in records:
        standalone_svg(svg.draw(record), svg.WIDTH, svg.HEIGHT)


def test_a_batch_of_one_draws_as_its_record_and_the_state_is_not_changed():
    assert_batch_of_one_draws_as_its_record(svg.draw, positions(4)[5:6].copy())
    frozen = gunfight_position()
    frozen.setflags(write=False)  # a read-only record draws: nothing is written
    assert "Gunfight in Abilene" in svg.draw(frozen[0])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_is_deterministic(n):
    """The same record gives the same bytes, whatever was drawn before."""
    records = positions(n)
    first = [svg.draw(r) for r in records[::5]]
    svg.draw(records[-1], n - 1)
    svg.draw(gunfight_position())
    assert first == [svg.draw(r) for r in records[::5]]


def test_bad_arguments_are_refused():
    assert_bad_arguments_refused(svg.draw, positions(3)[0], 3, positions(3)[:2],
                                 foreign_record("rail_v0"))


# ---- views: nothing is hidden (§12) ----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_seat_sees_the_omniscient_drawing(n):
    """Perfect information but future dice: every seat's view is the omniscient one, byte for byte, and a
    record whose dice were redrawn (``resample_hidden``) draws the same too (the dice are never read)."""
    records = positions(n)
    seats = np.arange(len(records)) % n
    redrawn = GAME.resample_hidden(records, seats, np.arange(len(records)) + 99)
    for b in range(0, len(records), 3):
        everything = svg.draw(records[b])
        assert all(svg.draw(records[b], seat) == everything for seat in range(n))
        assert svg.draw(redrawn[b], int(seats[b])) == everything
    fight = gunfight_position()
    GAME.script(fight, [6, 6, 6, 1, 1, 1, 1], then="random")  # preset dice: never shown
    assert svg.draw(fight) == svg.draw(GAME.resample_hidden(fight, 0, 5)) == svg.draw(fight, 2)


# ---- the pieces ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_holds_every_piece_of_the_record(n):
    """Per town: cowboys and cattle per seat, every B&T counter with its owner, farmers and the sheriff; per
    seat: cash, VP, Wanted, bid, turns; the boxes and their markers; the round and turn-order tracks."""
    vp = GAME.scores(positions(n))
    for b, record in enumerate(positions(n)):
        root = parse(svg.draw(record))
        towns = pieces(root, "town")
        assert [int(p["town"]) for p in towns] == list(range(N_TOWNS))
        for t, p in enumerate(towns):
            assert ints(p["cowboys"]) == [int(c) for c in record["cowboys"][t, :n]]
            assert ints(p["cattle"]) == [int(c) for c in record["cattle"][t, :n]]
            assert ints(p["buildings"]) == [int(o) for o in record["bt_owner"][t]]
            assert int(p["size"]) == int((record["bt_owner"][t] != NOBODY).sum())
            assert int(p["farmers"]) == int(record["farmers"][t])
            assert int(p["sheriff"]) == int(record["bt_owner"][t, JAIL])
            assert int(p["open"]) == int(t <= record["frontier"])
        assert sorted((int(p["town"]), int(p["seat"]), int(p["count"])) for p in pieces(root, "cowboys")) == \
            [(t, s, int(record["cowboys"][t, s])) for t in range(N_TOWNS) for s in range(n) if record["cowboys"][t, s]]
        assert sorted((int(p["town"]), int(p["seat"]), int(p["count"])) for p in pieces(root, "cattle")) == \
            [(t, s, int(record["cattle"][t, s])) for t in range(N_TOWNS) for s in range(n) if record["cattle"][t, s]]
        assert sorted((int(p["town"]), int(p["type"]), int(p["owner"])) for p in pieces(root, "building")) == \
            [(t, k, int(record["bt_owner"][t, k])) for t in range(N_TOWNS) for k in range(N_BT)
             if record["bt_owner"][t, k] != NOBODY]
        assert len(pieces(root, "farmer")) == int(record["farmers"].sum())
        assert sorted((int(p["town"]), int(p["owner"])) for p in pieces(root, "sheriff")) == \
            [(t, int(record["bt_owner"][t, JAIL])) for t in range(N_TOWNS) if record["bt_owner"][t, JAIL] != NOBODY]
        seats = pieces(root, "seat")
        assert [int(p["seat"]) for p in seats] == list(range(n))
        assert [int(p["cash"]) for p in seats] == [int(c) for c in record["cash"][:n]]
        assert [int(p["vp"]) for p in seats] == [int(v) for v in vp[b, :n]]
        assert [int(p["wanted"]) for p in seats] == [int(w) for w in record["wanted"][:n]]
        assert [int(p["bid"]) for p in seats] == [int(w) for w in record["bid"][:n]]
        assert [int(p["turns"]) for p in seats] == [int(w) for w in record["turns_used"][:n]]
        assert [(int(p["box"]), int(p["user"]), int(p["active"])) for p in pieces(root, "box")] == \
            [(k, int(record["box_user"][k]), int(n >= BOX_MIN_PLAYERS[k])) for k in range(N_BOXES)]
        rounds = pieces(root, "round")
        assert len(rounds) == int(record["num_rounds"])
        assert [int(p["round"]) for p in rounds if p["current"] == "1"] == [int(record["round"])]
        assert len(pieces(root, "turn-position")) == n
        decision = pieces(root, "decision")[0]
        assert int(decision["seat"]) == (NOBODY if record["done"] else int(record["current"]))
        assert (len(pieces(root, "gunfight")) == 1) == bool(record["gf_active"])
        assert (len(pieces(root, "auction")) == 1) == bool(record["phase"] == PHASE_AUCTION and not record["gf_active"])


def test_random_play_reaches_gunfights_and_draws_their_sides():
    """A running fight after its sides are fixed: its sizes and one blank die per combatant of each side."""
    seen = 0
    for n in PLAYER_COUNTS:
        for record in positions(n):
            if not record["gf_active"] or record["decision"] == DEC_SHERIFF_JOIN:  # sides not fixed yet
                continue
            root = parse(svg.draw(record))
            fight = pieces(root, "gunfight")[0]
            a = int(record["a_cow"] + record["a_sher"])
            d = int(record["d_cow"] + record["d_virt"] + record["d_sher"] + record["d_farm"])
            assert (int(fight["attackers"]), int(fight["defenders"])) == (a, d)
            assert int(fight["attacker"]) == int(record["gf_attacker"])
            dice = pieces(root, "die")
            assert sum(p["side"] == "attacker" for p in dice) == a and sum(p["side"] == "defender" for p in dice) == d
            seen += 1
    assert seen > 0


# ---- a built position ------------------------------------------------------------------------------------------------
def test_a_built_position_shows_what_was_set():
    """``positions.position`` then a declared gunfight: the drawing shows the terms and the fight's sides."""
    states = gunfight_position()
    r = states[0]
    assert r["decision"] == DEC_VOLLEY_DEFENDER
    document = svg.draw(states)
    root = parse(document)
    abilene = pieces(root, "town")[ABILENE]
    assert ints(abilene["cowboys"]) == [2, 3, 1] and ints(abilene["cattle"]) == [1, 2, 0]
    owners = ints(abilene["buildings"])
    assert (owners[BANK], owners[JAIL], owners[3], owners[1]) == (0, 2, 1, 0)
    assert abilene["farmers"] == "2" and abilene["sheriff"] == "2"
    deadwood = pieces(root, "town")[DEADWOOD]
    assert ints(deadwood["cowboys"]) == [6, 0, 2] and ints(deadwood["cattle"]) == [3, 4, 0]
    assert [p for p in pieces(root, "farmer") if p["town"] == str(DODGE_CITY)] == [{"town": "3", "index": "0"}]
    assert [(int(p["cash"]), int(p["wanted"])) for p in pieces(root, "seat")] == [(14, 1), (9, 3), (30, 0)]
    assert [p["current"] for p in pieces(root, "round")].index("1") == 4  # round 5
    fight = pieces(root, "gunfight")[0]
    # seat 1's 3 cowboys against seat 0's 2 cowboys, the bank's guard and seat 2's sheriff (§9.3)
    assert (fight["town"], fight["attacker"], fight["defender"], fight["target"]) == ("2", "1", "0", str(BANK))
    assert (fight["attackers"], fight["defenders"]) == ("3", "4")
    assert pieces(root, "box")[16]["user"] == "1"
    assert "player_1 attacks the Bank of player_0" in document
    assert "the sheriff rides with the defence" in document
    assert "player_0 to decide: defender: shoot or retreat (volley 1)" in document
    assert [p["seat"] for p in pieces(root, "turn-position")] == ["1", "2", "0"]


def test_a_fresh_game_and_a_finished_one():
    """The start asks for a setup cowboy; the end names the winner(s) and asks nothing."""
    states = GAME.init(3, num_players=MAX_PLAYERS)
    root = parse(svg.draw(states[0]))
    assert pieces(root, "decision")[0]["decision"] == "SETUP_PLACE_COWBOY"
    assert all(p["cowboys"] == "0,0,0,0,0" for p in pieces(root, "town"))
    finished = [r for n in PLAYER_COUNTS for r in positions(n) if r["done"]]
    assert finished
    for record in finished:
        root = parse(svg.draw(record))
        assert pieces(root, "decision")[0] == {"seat": "-1", "decision": "none"}
        winners = ints(pieces(root, "standings")[0]["winners"])
        returns = GAME.returns(record[None])[0]
        assert winners == [p for p in range(int(record["num_players"])) if returns[p] > 0]
