"""Tests of the Wild West Express renderers and action names (render.py; spec §16, §17.1, §17.6)."""

from __future__ import annotations

import numpy as np
import pytest

from tests._render import HAS_RASTER, assert_rendering_is_read_only, checked_picture, needs_raster
from tests.wild_west_express._view_states import (PLAYER_COUNTS, change_generator, permute_deck, position,
                                                  random_states, swap_drawn_card, swap_held_card)
from wildwest_envs.wild_west_express import data as D
from wildwest_envs.wild_west_express import rules
from wildwest_envs.core.kernels import serial
from wildwest_envs.wild_west_express.game import GAME
from wildwest_envs.wild_west_express.names import action_to_string
from wildwest_envs.wild_west_express import svg
from wildwest_envs.wild_west_express.render import PLAYER_COLOURS, render_ansi

NAMED_STATES = 40  # random records per player count whose 553 names are checked


def all_names(states: np.ndarray) -> list[str]:
    """The names of all 553 actions in ``states``."""
    return [action_to_string(states, a) for a in range(D.N_ACTIONS)]


def at_decision(states: np.ndarray, decision: int, seat: int = 1) -> np.ndarray:
    """A copy of a hand position with ``seat`` to decide ``decision``, its context fields filled in."""
    states = states.copy()
    s = states[0]
    s["decision"], s["current"], s["active"] = decision, seat, seat
    s["move_active"], s["move_train"], s["move_steps"], s["move_first"] = True, 0, 4, False
    s["landing_space"] = s["train_pos"][seat, 0]
    s["desp_index"], s["desp_steps"], s["sel_desperado"], s["sel_sheriff"] = 0, 3, 0, 0
    s["card_left"] = 2
    if decision == D.DEC_TELEGRAM_DRAWN:
        s["drawn_card"] = s["deck"][0]
    return states


def in_denver(states: np.ndarray) -> np.ndarray:
    """Seat 1's train 0 (large: Gold, Pacific passengers) arrived in Denver, seat 1 to trade (§8)."""
    states = at_decision(states, D.DEC_ARRIVAL)
    states[0]["train_pos"][1, 0], states[0]["landing_space"] = 12, 12
    return states


# ---- action names (§17.1, §17.6) --------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_action_names_are_unique_at_every_decision(n):
    """In one state the 553 ids have 553 different names, whatever the pending decision (§17.2)."""
    base = position(n)
    for decision in range(D.N_DECISION_TYPES):
        for seat in range(n):
            names = all_names(at_decision(base, decision, seat))
            assert len(set(name.lower() for name in names)) == D.N_ACTIONS, (decision, seat)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_action_names_over_random_games_are_unique_and_invert(n):
    """Over random legal play: unique names in every record, and each legal name maps back to its id."""
    states = random_states(n)
    picks = np.linspace(0, len(states) - 1, NAMED_STATES).astype(int)
    masks = np.zeros((len(states), D.N_ACTIONS), np.int8)
    serial(rules.legal_mask)(states.copy(), masks)  # a writeable copy: no build for read-only records
    rng = np.random.default_rng(n)
    for b in picks:
        names = all_names(states[b:b + 1])
        assert len(set(name.lower() for name in names)) == D.N_ACTIONS, names
        legal = np.flatnonzero(masks[b])
        for action in rng.choice(legal, size=min(2, len(legal)), replace=False):
            assert GAME.string_to_action(states[b:b + 1], names[action].upper()) == action


def test_pre_roll_names():
    """PRE_ROLL: purchases by good, train and city names with prices; dynamite by space; END rolls."""
    states = position(4)
    assert action_to_string(states, D.A_END) == "roll"
    assert action_to_string(states, D.A_BUY_GOOD + 9 * 1 + 1) == "buy Gold on train 1 ($160)"
    assert action_to_string(states, D.A_LOAD_PASSENGERS) == "load passengers on train 0"
    assert action_to_string(states, D.A_BUY_STATION + 12) == "buy station Denver"
    assert action_to_string(states, D.A_BUY_SMALL_TRAIN + 22) == "buy small train at Omaha"
    assert action_to_string(states, D.A_BUY_LARGE_TRAIN + 22) == "buy large train at Omaha"
    assert action_to_string(states, D.A_UPGRADE_TRAIN + 2) == "upgrade train 2"
    assert action_to_string(states, D.A_PLAY_CARD + 20) == "play Hideout (card 20)"
    assert action_to_string(states, D.A_BUY_DESPERADO + 9) == "hire desperado in Salt Lake City"
    assert action_to_string(states, D.A_SPACE + 145) == "dynamite on 145"
    assert action_to_string(states, D.A_SPACE + 26) == "dynamite on Spokane Junction"


def test_movement_names_follow_the_route():
    """TRAIN_STEP: a step names its space and the endpoint it heads for; STOP and HOLD name the train's place."""
    states = at_decision(position(4), D.DEC_TRAIN_STEP)  # seat 1's train 0 on 145, Salt Lake City - Cheyenne
    assert action_to_string(states, D.A_SPACE + 146) == "step to 146 (toward Cheyenne)"
    assert action_to_string(states, D.A_SPACE + 144) == "step to 144 (toward Salt Lake City)"
    assert action_to_string(states, D.A_HOLD) == "hold train 0"
    states[0]["train_pos"][1, 0] = 12
    assert action_to_string(states, D.A_STOP) == "stop in Denver"
    assert action_to_string(states, D.A_SPACE + 217) == "step to 217 (toward La Junta Junction)"
    assert action_to_string(states, D.A_SPACE + 11) == "step to Cheyenne"
    assert action_to_string(at_decision(position(4), D.DEC_SELECT_TRAIN), D.A_TRAIN + 1) == "move train 1"


def test_arrival_names_show_prices_fares_and_the_owner_bonus():
    """§8.1-§8.2: selling names the good and price (+$20 at an own station), dropping off the fare."""
    states = in_denver(position(4))
    assert action_to_string(states, D.A_UNLOAD_SLOT + 0) == "sell slot 0 (Gold $290)"
    assert action_to_string(states, D.A_UNLOAD_SLOT + 1) == "drop passengers slot 1 ($30)"
    assert action_to_string(states, D.A_END) == "done trading"
    states[0]["city_owner"][12] = 1
    assert action_to_string(states, D.A_UNLOAD_SLOT + 0) == "sell slot 0 (Gold $290 + $20 bonus)"


def test_decision_verbs():
    """The pending decision picks the verb of SPACE, TRAIN, SHERIFF, DESPERADO and END (§17.2)."""
    base = position(4)
    cases = [(D.DEC_DRAFT_CITY, D.A_SPACE + 12, "draft Denver"),
             (D.DEC_PLACE_DESPERADO, D.A_SPACE + 2, "place desperado in Sacramento"),
             (D.DEC_SHERIFF_SPACE, D.A_SPACE + 231, "sheriff to 231"),
             (D.DEC_SHERIFF_SPACE, D.A_END, "decline sheriff"),
             (D.DEC_SHERIFF_PIECE, D.A_SHERIFF + 0, "move sheriff 0 (at Denver)"),
             (D.DEC_TELEGRAM_DRAWN, D.A_END, "keep card"),
             (D.DEC_CARD_TRAIN, D.A_TRAIN + 1, "arm train 1"),
             (D.DEC_CARD_DYNAMITE_PLACE, D.A_SPACE + 40, "free dynamite on 40"),
             (D.DEC_CARD_DYNAMITE_REMOVE, D.A_SPACE + 37, "remove dynamite on 37"),
             (D.DEC_CARD_DYNAMITE_REMOVE, D.A_END, "stop removing dynamite"),
             (D.DEC_CARD_CITY, D.A_SPACE + 25, "land grant San Antonio"),
             (D.DEC_CARD_DESPERADO, D.A_DESPERADO + 0, "hide desperado 0 (at San Francisco)"),
             (D.DEC_CARD_HIDEOUT_CITY, D.A_SPACE + 4, "hide desperado in Los Angeles"),
             (D.DEC_DESPERADO_STEP, D.A_REHIRE, "rehire desperado 0"),
             (D.DEC_REHIRE_TARGET, D.A_SPACE + 3, "rehire to San Francisco")]
    for decision, action, name in cases:
        assert action_to_string(at_decision(base, decision), action) == name, decision


def test_bad_ids_and_names_raise():
    """An id outside 0..552 or an unknown name raises ValueError."""
    states = position(3)
    with pytest.raises(ValueError):
        action_to_string(states, D.N_ACTIONS)
    with pytest.raises(ValueError):
        action_to_string(states, -1)
    with pytest.raises(ValueError):
        GAME.string_to_action(states, "dance a jig")


# ---- the text board ---------------------------------------------------------------------------------------
def test_ansi_board_shows_hand_placed_pieces():
    """Trains with place, direction, cargo and bound cards; desperados, dynamite, sheriffs; the decision."""
    text = render_ansi(position(4))
    assert ("train 0 large at 145 (Salt Lake City - Cheyenne 5/10), from 144: Gold, passengers (Pacific) "
            "[1 card bound]") in text
    assert "desperado 0 at 145 (Salt Lake City - Cheyenne 5/10)" in text
    assert "dynamite (supply 17): 37" in text
    assert "sheriffs: 0 at Denver; 1 off the board" in text
    assert "telegram deck: 51 cards, 51 never drawn" in text
    assert "player_1    $450, 5 VP, personal cards 1" in text
    assert "player_2 *> $450" in text and "decision: player_2 - pre-roll" in text
    assert "dice: not rolled" in text and "DEN -" in text


def test_ansi_board_shows_dice_and_competitions():
    """The dice with the move lengths (§6.4) and a competition with its countdown (§13.4)."""
    states = position(4)
    s = states[0]
    s["dice"] = [5, 4, 2]
    s["comp_card"][1], s["comp_countdown"][1] = 34, 12
    text = render_ansi(states)
    assert "dice: 5 4 2 (small train 9, large train 11, desperado 5)" in text
    assert "1: Delivery Contract" in text and "Kansas City $300 (12 turns left)" in text


def _hidden_variant(states: np.ndarray, seed: int = 0) -> np.ndarray:
    """The same public position with other held cards, deck order, drawn card and generator (§16.3)."""
    other = states.copy()
    rng = np.random.default_rng(seed)
    for record in other:
        for seat in range(int(record["num_players"])):
            swap_held_card(record, seat, rng)
        swap_drawn_card(record, rng)
        permute_deck(record, int(record["deck_size"]), rng)
        change_generator(record, rng)
    return other


def test_hidden_information_never_shows_in_the_hand_position():
    """§16.3: a position differing only in hidden facts gives the identical text board and picture."""
    states = at_decision(position(4), D.DEC_TELEGRAM_DRAWN)
    other = _hidden_variant(states)
    assert other.tobytes() != states.tobytes()
    assert render_ansi(states) == render_ansi(other)
    assert all_names(states) == all_names(other)
    if HAS_RASTER:
        assert np.array_equal(GAME.render_rgb(states), GAME.render_rgb(other))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_hidden_information_never_shows_in_random_games(n):
    """§16.3 over random play: hidden variants give identical text boards, and nothing is changed."""
    states = random_states(n)
    other = _hidden_variant(states, seed=n)
    for b in np.linspace(0, len(states) - 1, NAMED_STATES).astype(int):
        assert render_ansi(states[b:b + 1]) == render_ansi(other[b:b + 1])


def test_game_over_shows_final_vp_and_winner():
    """§14.3: a finished game shows VP and cash of every player and marks the winner(s)."""
    states = random_states(4)
    final = states[states["done"]][:1]
    text = render_ansi(final)
    assert "game over" in text and "WINNER" in text and "decision:" not in text


# ---- read-only, pictures -----------------------------------------------------------------------------------
def test_rendering_never_changes_the_state():
    """Rendering and naming are read-only: the record bytes are unchanged."""
    assert_rendering_is_read_only(GAME, in_denver(position(3)), render_ansi, all_names)


@needs_raster
@pytest.mark.parametrize("n", [2, 5])
@pytest.mark.parametrize("done", [False, True])
def test_rgb_picture_has_a_constant_shape_and_is_not_blank(n, done):
    """The picture is the drawing's size, (990, 1600, 3) uint8, at every player count and at the end, with the
    player colours."""
    states = position(n)
    if done:  # the end shows the scores and dollar amounts
        states[0]["done"], states[0]["current"], states[0]["decision"] = True, -1, D.DEC_NONE
    image = checked_picture(GAME, svg, states[0], min_colours=50)
    for seat in range(n):
        colour = np.array([int(PLAYER_COLOURS[seat][i:i + 2], 16) for i in (1, 3, 5)])
        assert np.any(np.all(image == colour, axis=-1)), seat
