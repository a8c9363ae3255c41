"""Tests of the Colt Express SVG drawing (``svg.draw``; spec §10, issue 20 item 1).

The drawing must be a standalone SVG document of fixed size, hold every piece the record holds (read back
from the pieces' classes and ``data-`` attributes), draw for a seat exactly what that seat may know (§10:
other seats' hands as backs, unknown purse values as ``?``, face-down pile cards as backs, no future round
card) and be deterministic.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from tests._svg import (assert_bad_arguments_refused, assert_batch_of_one_draws_as_its_record, foreign_record,
                        parse, pieces, read_only, standalone_svg)
from wildwest_envs.colt_express import svg
from wildwest_envs.colt_express.data import (DEC_KEEP, N_LEVELS, N_LOCATIONS, N_PURSES, N_ROUNDS, PURSE_IN_BOX,
                                             PURSE_ON_BANDIT, ROOF, ROUND_CARD_NAMES)
from wildwest_envs.colt_express.observation import pile_revealed, purse_value_known
from wildwest_envs.colt_express.positions import position
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game

GAME = get_game("colt_express_v0")
PLAYER_COUNTS = tuple(range(GAME.min_players, GAME.max_players + 1))
CONFIGS = [(n, expert) for n in PLAYER_COUNTS for expert in ((True,) if n == 2 else (False, True))]
CONFIG_IDS = [f"{n}p-{'expert' if e else 'standard'}" for n, e in CONFIGS]
N_GAMES = 3  # seeded random games per configuration
MAX_STEPS = 400  # random decisions per game at most
EVERY = 25  # keep every 25th position
EXTRA = 8  # and at most 8 steps' positions of each rarer kind


@lru_cache(maxsize=None)
def positions(num_players: int, expert: bool) -> np.ndarray:
    """Positions of seeded random games (uniformly random legal actions), read-only: every ``EVERY``-th one,
    up to ``EXTRA`` more of each rarer kind (Stealin' decisions, KEEP decisions with cards set aside, records
    with face-down cards on the pile) and the final ones."""
    states = GAME.init(game_seeds(200 + num_players + 10 * expert, N_GAMES), num_players=num_players,
                       expert=expert)
    rng = np.random.default_rng(num_players + 10 * expert)
    kept = [states.copy()]
    extra = Counter()
    for step in range(1, MAX_STEPS + 1):
        if states["done"].all():
            break
        masks = GAME.legal_mask(states)
        live = ~states["done"]
        actions = np.argmax(rng.random(masks.shape) * (masks > 0), axis=1)
        sub = states[live]  # a copy: finished games are not stepped
        GAME.step(sub, actions[live])
        states[live] = sub
        take = np.full(len(states), step % EVERY == 0) & live
        kinds = {"stealin": states["resolving"] >= 0,
                 "keep": (states["decision"] == DEC_KEEP) & (states["keep_aside"].sum(axis=1) > 0),
                 "down": states["pile_down"].any(axis=1) & (states["resolving"] < 0)}
        for kind, where in kinds.items():
            where = where & live & ~take
            if where.any() and extra[kind] < EXTRA and rng.random() < 0.3:
                extra[kind] += 1
                take |= where
        if take.any():
            kept.append(states[take].copy())
    kept.append(states.copy())
    return read_only(kept)


def level_word(level: int) -> str:
    return "roof" if level == ROOF else "in"


# ---- the document ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,expert", CONFIGS, ids=CONFIG_IDS)
def test_every_view_of_random_play_is_a_standalone_svg_of_the_declared_size(n, expert):
    """States from a few hundred random steps all draw, in every view: an ``svg`` root of ``WIDTH`` x ``HEIGHT``
    with that viewBox and a title."""
    records = positions(n, expert)
    assert len(records) > 10 and records["done"].any() | (records["round"] > 0).any()
    for record in records:
        for seat in [None, *range(n)]:
            root = standalone_svg(svg.draw(record, seat), svg.WIDTH, svg.HEIGHT)
            assert len(pieces(root, "legend")) == 1


def test_a_batch_of_one_draws_as_its_record_and_the_state_is_not_changed():
    states = positions(4, False)[7:8].copy()
    assert_batch_of_one_draws_as_its_record(svg.draw, states)
    frozen = positions(4, False)[7:8]  # a read-only batch draws too
    assert svg.draw(frozen, 2) == svg.draw(states, 2)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_drawing_is_deterministic(n):
    """The same record gives the same bytes, whatever was drawn before."""
    records = positions(n, True)
    first = [svg.draw(r, s) for r in records[::5] for s in (None, 0)]
    svg.draw(records[-1], n - 1)
    assert first == [svg.draw(r, s) for r in records[::5] for s in (None, 0)]


def test_bad_arguments_are_refused():
    assert_bad_arguments_refused(svg.draw, positions(3, False)[0], 3, positions(3, False)[:2],
                                 foreign_record("wild_west_express_v0"))


def test_a_seat_view_names_the_viewer():
    record = positions(3, False)[3]
    assert "view of player_2" in svg.draw(record, 2)
    assert "omniscient view" in svg.draw(record)


# ---- the pieces: public, drawn the same in every view --------------------------------------------------------------
@pytest.mark.parametrize("n,expert", CONFIGS, ids=CONFIG_IDS)
def test_the_drawing_holds_every_piece_of_the_record(n, expert):
    """Cars, bandits (car and level), the marshal, the loot of every location (purse ids, jewels, strongboxes),
    the bandits' loot and bullets, the pile's owners and progress and the round card are drawn exactly as the
    record has them, in every view (they are public, §10.1)."""
    for record in positions(n, expert):
        n_cars, n_bandits = int(record["n_carriages"]) + 1, int(record["n_bandits"])
        for seat in (None, int(record["n_decisions"]) % n):
            root = parse(svg.draw(record, seat))
            assert [(int(p["car"]), int(p["type"])) for p in pieces(root, "car")] == \
                [(c, int(record["car_type"][c])) for c in range(n_cars)]
            assert sorted((int(p["bandit"]), int(p["car"]), p["level"]) for p in pieces(root, "bandit")) == \
                [(b, int(record["bandit_car"][b]), level_word(int(record["bandit_level"][b])))
                 for b in range(n_bandits)]
            assert [int(p["car"]) for p in pieces(root, "marshal")] == [int(record["marshal_car"])]
            loot = {(int(p["car"]), p["level"]): p for p in pieces(root, "loot")}
            assert len(loot) == 2 * n_cars
            for loc in range(2 * n_cars):
                car, level = divmod(loc, N_LEVELS)
                here = loot[(car, level_word(level))]
                ids = [i for i in range(N_PURSES) if record["purse_location"][i] == loc]
                assert here["purse-ids"] == ",".join(map(str, ids))
                assert int(here["purses"]) == len(ids)
                assert int(here["jewels"]) == int(record["floor_jewels"][loc])
                assert int(here["strongboxes"]) == int(record["floor_strongboxes"][loc])
            cards = {int(p["bandit"]): p for p in pieces(root, "bandit-card")}
            assert sorted(cards) == list(range(n_bandits))
            for b, p in cards.items():
                assert int(p["bullets-left"]) == int(record["bullets_left"][b])
                assert int(p["bullets-received"]) == int(record["bullets_received"][b])
                assert int(p["purses"]) == int(np.count_nonzero(record["purse_location"] == PURSE_ON_BANDIT + b))
                assert (int(p["jewels"]), int(p["strongboxes"]), int(p["ransoms"])) == \
                    (int(record["jewels_held"][b]), int(record["strongboxes_held"][b]), int(record["ransoms"][b]))
            size, resolving = int(record["pile_size"]), int(record["resolving"])
            pile = pieces(root, "pile-card")
            assert [(int(p["index"]), int(p["owner"]), int(p["down"])) for p in pile] == \
                [(i, int(record["pile_owner"][i]), int(record["pile_down"][i])) for i in range(size)]
            assert [p["status"] for p in pile] == \
                ["waiting" if resolving < 0 or i > resolving else "resolving" if i == resolving else "done"
                 for i in range(size)]
            round_card = pieces(root, "round-card")
            assert [(int(p["round"]), int(p["card"])) for p in round_card] == \
                [(int(record["round"]), int(record["round_deck"][record["round"]]))]
            supply = pieces(root, "supply")[0]
            assert (int(supply["neutral"]), int(supply["removed"]), int(supply["second-strongbox"])) == \
                (int(record["neutral_supply"]), int(record["supply_removed"]), int(record["second_strongbox_placed"]))
            seats = pieces(root, "seat")
            assert [int(p["seat"]) for p in seats] == list(range(n))
            assert [int(p["deck"]) for p in seats] == [int(d) for d in record["deck_size"][:n]]
            assert [int(p["known-bullets"]) for p in seats] == [int(k) for k in record["known_bullets_on_top"][:n]]
            decision = pieces(root, "decision")[0]
            assert int(decision["current"]) == int(record["current"])
            if record["done"]:
                scores = pieces(root, "score")
                assert [int(p["score"]) for p in scores] == [int(v) for v in GAME.scores(record[None])[0, :n]]
                assert any(p["winner"] == "1" for p in scores)
            else:
                assert not pieces(root, "score")


# ---- views (§10) ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,expert", CONFIGS, ids=CONFIG_IDS)
def test_the_omniscient_view_shows_every_hidden_part(n, expert):
    """seat=None: every hand by card, every pile face, every purse value on the train and the round cards to
    come; no card backs."""
    for record in positions(n, expert):
        root = parse(svg.draw(record))
        assert not pieces(root, "card-back")
        for s in range(n):
            named = {int(p["card"]): int(p["count"]) for p in pieces(root, "hand-card") if int(p["seat"]) == s}
            assert named == {k: int(c) for k, c in enumerate(record["hand"][s]) if c}
        aside = {int(p["card"]): int(p["count"]) for p in pieces(root, "aside-card")}
        assert aside == ({k: int(c) for k, c in enumerate(record["keep_aside"]) if c}
                         if record["decision"] == DEC_KEEP else {})
        assert [int(p["card"]) for p in pieces(root, "pile-card")] == \
            [int(c) for c in record["pile_card"][:record["pile_size"]]]
        assert {int(p["purse"]): int(p["value"]) for p in pieces(root, "purse")} == \
            {int(p["purse"]): int(record["purse_value"][int(p["purse"])]) for p in pieces(root, "purse")}
        assert [int(p["card"]) for p in pieces(root, "future-round")] == \
            [int(c) for c in record["round_deck"][record["round"] + 1:N_ROUNDS]]


@pytest.mark.parametrize("n,expert", CONFIGS, ids=CONFIG_IDS)
def test_a_seat_sees_its_own_cards_and_only_what_is_public_of_the_others(n, expert):
    """seat=k: k's hand by card, the others' as backs (as many as §10.1 says they hold, KEEP counted before the
    choice), pile faces only when face up, k's or reached by Stealin' (G22), purse values only where k knows
    them (§10.3), no round card to come."""
    for record in positions(n, expert):
        keeping = int(record["current"]) if record["decision"] == DEC_KEEP else -1
        for k in range(n):
            root = parse(svg.draw(record, k))
            named = pieces(root, "hand-card")
            assert {int(p["seat"]) for p in named} <= {k}
            assert {int(p["card"]): int(p["count"]) for p in named} == \
                {c: int(x) for c, x in enumerate(record["hand"][k]) if x}
            assert not pieces(root, "aside-card") and not pieces(root, "future-round")
            backs = {int(p["seat"]): int(p["count"]) for p in pieces(root, "card-back")}
            expected = {s: int(record["hand"][s].sum()) + (int(record["keep_aside"].sum()) if s == keeping else 0)
                        for s in range(n) if s != k}
            assert backs == {s: c for s, c in expected.items() if c}
            hands = {int(p["seat"]): int(p["hand"]) for p in pieces(root, "seat")}
            assert {s: h for s, h in hands.items() if s != k} == expected
            for p in pieces(root, "pile-card"):
                i = int(p["index"])
                visible = (not record["pile_down"][i] or int(record["pile_owner"][i]) == k
                           or bool(pile_revealed(record, i)))
                assert ("card" in p) == visible
                if visible:
                    assert int(p["card"]) == int(record["pile_card"][i])
            for p in pieces(root, "purse"):
                i = int(p["purse"])
                assert ("value" in p) == bool(purse_value_known(record, i, k))
            for p in pieces(root, "bandit-card"):
                b = int(p["bandit"])
                held = [i for i in range(N_PURSES) if record["purse_location"][i] == PURSE_ON_BANDIT + b]
                unknown = [i for i in held if not purse_value_known(record, i, k)]
                assert int(p["unknown-purses"]) == len(unknown)


def _omniscient_key(record: np.void) -> bytes:
    """What ``resample_hidden`` may change that the omniscient view draws: hands, cards set aside, bullet cards
    in decks and discards, pile faces, the round cards to come and the values of the purses on the train or on
    a character card."""
    n, size, r = int(record["num_players"]), int(record["pile_size"]), int(record["round"])
    deck_bullets = [int(np.count_nonzero(record["deck"][s][:record["deck_size"][s]] == 12)) for s in range(n)]
    shown = [int(record["purse_value"][i]) for i in range(N_PURSES) if record["purse_location"][i] < PURSE_IN_BOX]
    return b"".join([record["hand"].tobytes(), record["keep_aside"].tobytes(), record["discard"][:, 12].tobytes(),
                     np.array(deck_bullets).tobytes(), record["pile_card"][:size].tobytes(),
                     record["round_deck"][r + 1:].tobytes(), np.array(shown).tobytes()])


@pytest.mark.parametrize("n,expert", CONFIGS, ids=CONFIG_IDS)
def test_records_a_seat_cannot_tell_apart_draw_the_same_for_it(n, expert):
    """Redrawing what seat k cannot see (``Game.resample_hidden``, §10) leaves k's drawing byte-identical; the
    omniscient drawings differ exactly where what they show of the hidden parts differs."""
    records = positions(n, expert)
    rng = np.random.default_rng(n + 10 * expert)
    changed = 0
    for trial in range(2):
        seats = rng.integers(0, n, len(records))
        redrawn = GAME.resample_hidden(records, seats, game_seeds(trial, len(records)))
        for b in range(len(records)):
            k = int(seats[b])
            assert svg.draw(redrawn[b], k) == svg.draw(records[b], k), b
            same = _omniscient_key(redrawn[b]) == _omniscient_key(records[b])
            assert (svg.draw(redrawn[b]) == svg.draw(records[b])) == same, b
            changed += not same
    assert changed > 0  # some positions had hidden parts to redraw


# ---- a built position ------------------------------------------------------------------------------------------------
def test_a_built_position_shows_what_was_set():
    """``positions.position``: the bandits, the marshal, a purse and its value, the round card and the pile are
    drawn where the terms put them; the purse's value only for those who know it."""
    states = position(4, seed=7, characters=["Ghost", "Doc", "Cheyenne", "Tuco"], decision="stealin",
                      round_card="Bridge", bandits={"Ghost": (2, "roof"), "Doc": (3, "roof"), 2: (1, "roof"), 3: 1},
                      marshal=4, train_loot=(4, "in"), purses={9: (2, "roof")}, purse_values={9: 450},
                      pile=[(0, "Fire"), (1, "Move"), (0, "Rob")])
    before = states.tobytes()
    document = svg.draw(states)
    root = parse(document)
    assert sorted((int(p["bandit"]), p["character"], int(p["car"]), p["level"]) for p in pieces(root, "bandit")) == \
        [(0, "Ghost", 2, "roof"), (1, "Doc", 3, "roof"), (2, "Cheyenne", 1, "roof"), (3, "Tuco", 1, "in")]
    assert [int(p["car"]) for p in pieces(root, "marshal")] == [4]
    roof2 = [p for p in pieces(root, "loot") if (p["car"], p["level"]) == ("2", "roof")][0]
    assert roof2["purse-ids"] == "9"
    assert {p["purse"]: p.get("value") for p in pieces(root, "purse")}["9"] == "450"
    assert "$450" in document
    assert int(pieces(root, "round-card")[0]["card"]) == ROUND_CARD_NAMES.index("Bridge")
    assert [(int(p["owner"]), int(p["card"])) for p in pieces(root, "pile-card")] == [(0, 2), (1, 0), (0, 4)]
    assert [p["status"] for p in pieces(root, "pile-card")] == ["resolving", "waiting", "waiting"]
    assert "whom Ghost shoots (Fire)" in document
    for k in range(4):  # nobody has held purse 9: its value is unknown to every seat (§10.3)
        seen = {p["purse"]: p.get("value") for p in pieces(parse(svg.draw(states, k)), "purse")}
        assert seen["9"] is None
    inside = [p for p in pieces(root, "loot") if (p["car"], p["level"]) == ("4", "in")][0]
    assert int(inside["purses"]) == int(np.count_nonzero(states[0]["purse_location"] == 4 * N_LEVELS))
    assert int(inside["purses"]) > 0 and N_LOCATIONS == 14
    assert states.tobytes() == before


def test_a_built_schemin_position_shows_the_hands():
    """A Schemin' position with a hand given: its seat sees it by name, the others see as many backs."""
    states = position(3, seed=2, hands={0: ["Move", "Fire", "Fire"], 1: ["Rob"]})
    root = parse(svg.draw(states, 0))
    assert {int(p["card"]): int(p["count"]) for p in pieces(root, "hand-card")} == {0: 1, 2: 2}
    backs = {int(p["seat"]): int(p["count"]) for p in pieces(root, "card-back")}
    assert backs[1] == 1
    root = parse(svg.draw(states, 1))
    assert {int(p["card"]): int(p["count"]) for p in pieces(root, "hand-card")} == {4: 1}
    assert {int(p["seat"]): int(p["count"]) for p in pieces(root, "card-back")}[0] == 3
