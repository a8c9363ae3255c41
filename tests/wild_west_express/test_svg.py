"""Tests of the Wild West Express SVG drawing (``svg.draw``; spec §16, issue 20 item 1).

The drawing must be a standalone SVG document of fixed size, hold every piece the record holds (read back
from the pieces' classes and ``data-`` attributes), draw for a seat exactly what that seat may know (§16:
other seats' held personal cards as backs, the deck order never) and be deterministic.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from tests._svg import (assert_bad_arguments_refused, assert_batch_of_one_draws_as_its_record, foreign_record,
                        parse, pieces, read_only, standalone_svg)
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game
from wildwest_envs.wild_west_express import svg
from wildwest_envs.wild_west_express.data import (DEC_TELEGRAM_DRAWN, MAX_DESPERADOS, MAX_TRAINS, NO_CARD, NO_SPACE,
                                                  N_CITIES, N_SHERIFFS)
from wildwest_envs.wild_west_express.state import NOBODY

GAME = get_game("wild_west_express_v0")
PLAYER_COUNTS = tuple(range(GAME.min_players, GAME.max_players + 1))
N_GAMES = 3  # seeded random games per player count
MAX_STEPS = 1500  # random decisions per game at most
EVERY = 100  # keep every 100th position, and every TELEGRAM_DRAWN one (a private drawn card, §16.2)


@lru_cache(maxsize=None)
def positions(num_players: int) -> np.ndarray:
    """Positions of seeded random games (uniformly random legal actions), read-only."""
    states = GAME.init(game_seeds(100 + num_players, N_GAMES), num_players=num_players)
    rng = np.random.default_rng(num_players)
    kept = [states.copy()]
    drawn = 0
    for step in range(1, MAX_STEPS + 1):
        live = ~states["done"]
        if not live.any():
            break
        masks = GAME.legal_mask(states)
        GAME.step(states, np.argmax(rng.random(masks.shape) * (masks > 0), axis=1))  # finished games stay
        at_drawn = (states["decision"] == DEC_TELEGRAM_DRAWN) & ~states["done"]
        if step % EVERY == 0 or (at_drawn.any() and drawn < 12):
            drawn += int(at_drawn.any())
            kept.append(states[at_drawn | (step % EVERY == 0)].copy())
    kept.append(states.copy())
    return read_only(kept)


def held(record: np.void, seat: int) -> Counter:
    """(card, bound train) pairs the seat holds."""
    return Counter((int(k), int(record["card_bound"][k])) for k in np.flatnonzero(record["card_holder"] == seat))


# ---- the document ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_is_a_standalone_svg_of_the_declared_size(n):
    """Every view of every position parses as XML: an ``svg`` root of ``WIDTH`` x ``HEIGHT`` with that viewBox."""
    for record in positions(n)[::4]:
        for seat in [None, *range(n)]:
            standalone_svg(svg.draw(record, seat), svg.WIDTH, svg.HEIGHT)


def test_a_batch_of_one_draws_as_its_record_and_the_state_is_not_changed():
    assert_batch_of_one_draws_as_its_record(svg.draw, positions(3)[5:6].copy())


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_is_deterministic(n):
    """The same record gives the same bytes, whatever was drawn before."""
    records = positions(n)
    first = [svg.draw(r, s) for r in records[::7] for s in (None, 0)]
    svg.draw(records[-1], n - 1)
    assert first == [svg.draw(r, s) for r in records[::7] for s in (None, 0)]


def test_bad_arguments_are_refused():
    assert_bad_arguments_refused(svg.draw, positions(2)[0], 2, positions(2)[:2],
                                 foreign_record("rail_v0"), wrong_seat_types=("0",))


def test_text_is_escaped():
    """Titles and names go through XML escaping: the document stays well formed whatever the text holds."""
    assert svg._text(0, 0, "a < b & c") == '<text x="0" y="0" font-size="11">a &lt; b &amp; c</text>'
    tricky = 'say "hi" & <go> \'now\''
    assert ET.fromstring(svg._el("g", data_x=tricky)).get("data-x") == tricky


# ---- the pieces ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_holds_every_piece_of_the_record(n):
    """Trains (seat, slot, space, size, cargo), desperados, sheriffs, dynamite, station owners, cash, VP and
    competitions are drawn exactly as the record has them, in every view (they are public, §16.1)."""
    for record in positions(n):
        for seat in (None, int(record["turn"]) % n):
            root = parse(svg.draw(record, seat))
            trains = Counter((int(p["seat"]), int(p["slot"]), int(p["space"]), p["size"], p["cargo"])
                             for p in pieces(root, "train"))
            expected = Counter()
            for s in range(n):
                for t in range(MAX_TRAINS):
                    if record["train_exists"][s, t]:
                        slots = 2 if record["train_large"][s, t] else 1
                        expected[(s, t, int(record["train_pos"][s, t]), "large" if slots == 2 else "small",
                                  ",".join(str(int(c)) for c in record["train_cargo"][s, t, :slots]))] += 1
            assert trains == expected
            assert Counter((int(p["seat"]), int(p["index"]), int(p["space"])) for p in pieces(root, "desperado")) \
                == Counter((s, k, int(record["desp_pos"][s, k])) for s in range(n) for k in range(MAX_DESPERADOS)
                           if record["desp_pos"][s, k] != NO_SPACE)
            assert sorted((int(p["index"]), int(p["space"])) for p in pieces(root, "sheriff")) == \
                [(k, int(record["sheriff_pos"][k])) for k in range(N_SHERIFFS) if record["sheriff_pos"][k] != NO_SPACE]
            assert sorted(int(p["space"]) for p in pieces(root, "dynamite")) == \
                [int(x) for x in np.flatnonzero(record["dynamite"])]
            assert [(int(p["city"]), int(p["owner"])) for p in pieces(root, "city")] == \
                [(c, int(record["city_owner"][c])) for c in range(N_CITIES)]
            seats = pieces(root, "seat")
            assert [int(p["seat"]) for p in seats] == list(range(n))
            assert [int(p["cash"]) for p in seats] == [int(c) for c in record["cash"][:n]]
            assert [int(p["vp"]) for p in seats] == [int(v) for v in GAME.scores(record[None])[0, :n]]
            assert [(int(p["slot"]), int(p["card"])) for p in pieces(root, "competition")] == \
                [(i, int(c)) for i, c in enumerate(record["comp_card"])]
            assert [int(p["value"]) for p in pieces(root, "die")] == [int(d) for d in record["dice"]]
            assert len(pieces(root, "train-row")) == int(record["train_exists"][:n].sum())


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_omniscient_view_names_every_held_card(n):
    """seat=None: every seat's held personal cards by id with their bound train, no backs; the drawn card named."""
    for record in positions(n):
        root = parse(svg.draw(record))
        assert not pieces(root, "card-back") and not pieces(root, "drawn-card-back")
        for s in range(n):
            assert Counter((int(p["card"]), int(p["train"])) for p in pieces(root, "card")
                           if int(p["seat"]) == s) == held(record, s)
        drawn = pieces(root, "drawn-card")
        if record["decision"] == DEC_TELEGRAM_DRAWN and record["drawn_card"] != NO_CARD:
            assert drawn == [{"seat": str(int(record["current"])), "card": str(int(record["drawn_card"]))}]
        else:
            assert drawn == []
        deck = pieces(root, "deck")[0]
        size = int(record["deck_size"])
        assert deck["order"] == ",".join(str(int(c)) for c in record["deck"][:size])
        assert (int(deck["size"]), int(deck["never-drawn"])) == (size, int(record["never_drawn"]))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_seat_sees_its_own_cards_and_only_backs_of_the_others(n):
    """§16.1-16.2: seat k's view names k's cards; another seat's cards are backs, as many per bound train as
    it holds; another seat's just-drawn card is a back; the deck shows its counts, never its order."""
    for record in positions(n):
        for k in range(n):
            root = parse(svg.draw(record, k))
            cards = pieces(root, "card")
            assert {int(p["seat"]) for p in cards} <= {k}
            assert Counter((int(p["card"]), int(p["train"])) for p in cards) == held(record, k)
            for s in range(n):
                if s != k:
                    backs = Counter(int(p["train"]) for p in pieces(root, "card-back") if int(p["seat"]) == s)
                    assert backs == Counter(train for _, train in held(record, s).elements())
            deck = pieces(root, "deck")[0]
            assert "order" not in deck
            drawing = record["decision"] == DEC_TELEGRAM_DRAWN and record["drawn_card"] != NO_CARD
            drawer = int(record["current"])
            named, backs = pieces(root, "drawn-card"), pieces(root, "drawn-card-back")
            assert len(named) == int(drawing and drawer == k) and len(backs) == int(drawing and drawer != k)
            if named:
                assert int(named[0]["card"]) == int(record["drawn_card"])


def _hidden_cards(record: np.void) -> bytes:
    """What ``resample_hidden`` may change that the omniscient view shows: holders, bound trains, drawn card,
    deck."""
    return b"".join(np.ascontiguousarray(record[f]).tobytes() for f in ("card_holder", "card_bound", "drawn_card",
                                                                       "deck"))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_records_a_seat_cannot_tell_apart_draw_the_same_for_it(n):
    """Redrawing what seat k cannot see (``Game.resample_hidden``, §16.3) leaves k's drawing byte-identical;
    the omniscient drawings differ exactly where the hidden cards differ."""
    records = positions(n)
    rng = np.random.default_rng(n)
    seats = rng.integers(0, n, len(records))
    changed = 0
    for trial in range(2):
        redrawn = GAME.resample_hidden(records, seats, game_seeds(trial, len(records)))
        for b in range(len(records)):
            assert svg.draw(redrawn[b], int(seats[b])) == svg.draw(records[b], int(seats[b])), b
            same_cards = _hidden_cards(redrawn[b]) == _hidden_cards(records[b])
            assert (svg.draw(redrawn[b]) == svg.draw(records[b])) == same_cards, b
            others = (records[b]["card_holder"] != NOBODY) & (records[b]["card_holder"] != seats[b])
            if others.any() and not (redrawn[b]["card_holder"] == records[b]["card_holder"]).all():
                changed += 1
                named = {int(p["card"]) for p in pieces(parse(svg.draw(redrawn[b])), "card")}
                assert named == {int(c) for c in np.flatnonzero(redrawn[b]["card_holder"] != NOBODY)}
    assert changed > 0  # some positions had other seats' cards to redraw


def test_a_seat_view_shows_the_viewer():
    record = positions(3)[3]
    assert "view of player_2" in svg.draw(record, 2)
    assert "omniscient view" in svg.draw(record)
