"""Action names, the ansi board and the rgb picture of Way Out West (spec §13.1, §14)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.way_out_west._random_states import random_states
from tests.way_out_west._helpers import setup_done
from wildwest_envs.way_out_west.data import (A_COUNT, A_PLAYER, A_RAISE, A_TARGET, BANK, HOTEL, JAIL,
                                             N_ACTIONS, STAGECOACH, STORE, T_CATTLE, TRAIN)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.names import action_to_string
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA, box, place,
                                                  play, position, town)
from wildwest_envs.way_out_west.render import render_ansi


def names(states) -> list[str]:
    return GAME.legal_action_strings(states[0])


def test_s13_1_action_names_in_context():
    """Each decision names its ids in words; PLAYER ids name the absolute seat (§13.1)."""
    states = setup_done(3)
    assert names(states)[:3] == ["drop out", "raise by 1 to $1", "raise by 2 to $2"]
    play(states, A_RAISE + 4)  # seat 0 raises by 5
    assert names(states)[1] == "raise by 1 to $6"
    states = position(3, turn=1, cash=30)
    assert "pass (keep the marker)" in names(states) and "box 11: build Bank ($10)" in names(states)
    assert action_to_string(states[0], box(0)) == "box 0: buy cattle (A)" and "box 15: place farmer" in names(states)
    play(states, box(3))
    assert names(states)[0] == "hire a cowboy in San Antonia"
    play(states, town(DEADWOOD))
    assert names(states)[0] == "stop (hire one cowboy)"
    states = position(3, turn=1, cowboys={ABILENE: {1: 2}}, cattle={ABILENE: {0: 1, 2: 1}})
    play(states, box(16), town(ABILENE), A_TARGET + T_CATTLE)
    assert names(states) == ["defender player_2", "defender player_0"]  # relative seats 1 and 2 of seat 1
    assert action_to_string(states[0], A_PLAYER + 1) == "defender player_2"


def test_s13_1_every_id_has_a_name_at_every_decision_and_legal_names_are_distinct():
    """``action_to_string`` names every id of every decision; legal names round-trip through string_to_action."""
    for record in random_states(n_games=5, every=7)[::5]:
        legal = np.flatnonzero(GAME.legal_mask(np.array([record]))[0])
        texts = [GAME.action_to_string(record, int(a)) for a in legal]
        assert len(set(texts)) == len(texts)
        for a, text in zip(legal, texts):
            assert GAME.string_to_action(record, text) == a
        for a in range(N_ACTIONS):
            assert GAME.action_to_string(record, a)


def test_count_and_build_names():
    """Counts say what they count; build towns say what is built."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 3}})
    play(states, box(6), town(SAN_ANTONIA), town(DODGE_CITY))
    assert names(states) == ["move 1 cowboy", "move 2 cowboys", "move 3 cowboys"]
    states = position(3, turn=0)
    play(states, box(14))
    assert names(states)[0] == "build Jail in San Antonia"
    assert action_to_string(states[0], A_COUNT) == "count 1"


def _busy_board():
    states = position(4, turn=0, cash=[11, 22, 33, 44], cowboys={KANSAS_CITY: {1: 3}, DEADWOOD: {3: 2}},
                      cattle={SAN_ANTONIA: {2: 3}},
                      buildings={DODGE_CITY: {BANK: 3, JAIL: 1}, ABILENE: {STAGECOACH: 0}}, farmers={KANSAS_CITY: [2]},
                      wanted={1: 2})
    return states


def test_ansi_shows_towns_counters_cowboys_cattle_farmers_money_and_round_track():
    """The text board lists every counter with its owner, cowboys, cattle, farmers, money and the round track."""
    states = _busy_board()
    text = render_ansi(states[0])
    for expected in ("round 1 of 12", "[1*][2][3]$", "Bank(p3)", "Jail(p1)",
                     "Stagecoach(p0)", "p1:3", "p3:2", "p2:3", "farmers 1", "$11", "$44", "Wanted 2",
                     "sheriff of p1", "San Antonia", "Deadwood", "To decide: player_0, CHOOSE_ACTION",
                     "2:buy cattle (C) [inactive]"):
        assert expected in text, expected
    assert "Kansas City  size 0/4  corrals 0/5  farmers 1" in text


def test_ansi_shows_the_auction_and_the_gunfight_in_progress():
    """The auction line (high bid, bidder) and the gunfight line (sides, volley) appear while they run."""
    states = setup_done(3)
    play(states, A_RAISE + 1)
    assert "Auction: high bid $2 by player_0" in render_ansi(states[0])
    states = position(3, turn=0, cowboys={ABILENE: {0: 2, 1: 2}}, buildings={ABILENE: {HOTEL: 1}})
    play(states, box(16), town(ABILENE), A_TARGET + HOTEL)
    text = render_ansi(states[0])
    assert "Gunfight in Abilene: player_0 attacks Hotel of player_1; volley 1" in text
    assert "To decide: player_1, VOLLEY_DEFENDER" in text


def test_rendering_never_changes_the_state():
    """Renderers are read-only."""
    states = _busy_board()
    before = states.tobytes()
    render_ansi(states[0])
    GAME.render_rgb(states[0])
    assert states.tobytes() == before


def test_rgb_picture_shape_and_content():
    """``render_rgb`` gives the drawing's (900, 1400, 3) uint8 picture, and it depends on the board."""
    pytest.importorskip("resvg_py")
    states = _busy_board()
    image = GAME.render_rgb(states[0])
    assert image.shape == (900, 1400, 3) and image.dtype == np.uint8
    other = states.copy()
    place(other, buildings={DEADWOOD: {TRAIN: 2, STORE: 2}})
    assert not np.array_equal(image, GAME.render_rgb(other[0]))
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 5


def test_final_board_says_game_over():
    """The last board of a game says so and keeps the scores visible."""
    states = GAME.init_batch(1, seed=1, num_rounds=3, preset_dice=[1] * 64)
    while not states["done"][0]:
        GAME.step(states, np.array([np.flatnonzero(GAME.legal_mask(states)[0])[0]]))
    text = GAME.render_ansi(states[0])
    assert "Game over." in text and "VP now" in text and "To decide" not in text
