"""Tests of the Colt Express renderers and action names (render.py; spec §10, §11.2)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tests._render import HAS_RASTER, assert_rendering_is_read_only, checked_picture, needs_raster
from wildwest_envs.colt_express import data as D
from wildwest_envs.colt_express.game import GAME
from wildwest_envs.colt_express.names import action_to_string
from wildwest_envs.colt_express import svg
from wildwest_envs.colt_express.render import render_ansi
from wildwest_envs.colt_express.options import kernel_options, parse_options
from wildwest_envs.colt_express.state import NOBODY, STATE_DTYPE

HAS_RULES = importlib.util.find_spec("wildwest_envs.colt_express.rules") is not None
CARRIAGE_ORDER = (3, 0, 5, 1, 2, 4)  # carriage types of cars 1..6 in the hand-built positions
CHARACTER_ORDER = (D.TUCO, D.GHOST, D.DJANGO, D.BELLE, D.DOC, D.CHEYENNE)


# ---- hand-built positions -------------------------------------------------------------

def _setup_fields(s: np.void, n: int) -> tuple[int, int]:
    """Options, train and characters of a hand-built game of ``n`` players; returns (B, C)."""
    bps = 2 if n == 2 else 1
    n_bandits, n_cars = n * bps, (4 if n == 2 else n)
    s["num_players"], s["n_bandits"], s["bandits_per_seat"], s["n_carriages"] = n, n_bandits, bps, n_cars
    s["expert"], s["auto_resolve"], s["max_decisions"] = n == 2, True, D.MAX_DECISIONS
    s["car_type"][:] = NOBODY
    s["car_type"][0] = D.LOCOMOTIVE_TYPE
    s["car_type"][1:n_cars + 1] = CARRIAGE_ORDER[:n_cars]
    s["character"][:] = NOBODY
    s["character"][:n_bandits] = CHARACTER_ORDER[:n_bandits]
    return n_bandits, n_cars


def _loot_fields(s: np.void, n_bandits: int, n_cars: int) -> None:
    """Starting purses on the bandits, the printed loot in the carriages, a strongbox in the locomotive."""
    values = np.array(D.PURSE_VALUES)
    s["purse_value"][:n_bandits] = 250
    s["purse_value"][n_bandits:] = np.sort(values)[::-1][:D.N_PURSES - n_bandits]
    s["purse_location"][:] = D.PURSE_IN_BOX
    s["purse_location"][:n_bandits] = D.PURSE_ON_BANDIT + np.arange(n_bandits)
    token = n_bandits
    for car in range(1, n_cars + 1):
        kind = s["car_type"][car]
        for _ in range(D.CARRIAGE_PURSES[kind]):
            s["purse_location"][token] = car * D.N_LEVELS + D.IN
            token += 1
        s["floor_jewels"][car * D.N_LEVELS + D.IN] = D.CARRIAGE_JEWELS[kind]
    s["floor_strongboxes"][0] = 1
    s["neutral_supply"] = D.N_NEUTRAL_BULLETS


def position(n: int = 4) -> np.ndarray:
    """A consistent batch of one at the second play of round 2 (a Tunnel card), seat 2 to play."""
    states = np.zeros(1, STATE_DTYPE)
    s = states[0]
    n_bandits, n_cars = _setup_fields(s, n)
    _loot_fields(s, n_bandits, n_cars)
    s["bandit_car"][:n_bandits] = [n_cars - (i % 2) for i in range(n_bandits)]
    s["bullets_left"][:n_bandits] = D.BULLETS_PER_BANDIT
    s["round_deck"][:] = [2, 5, 3, 1, 15]
    s["round"], s["turn"], s["first_player"] = 1, 1, 1
    s["current"], s["decision"] = 2 % n, D.DEC_PLAN
    s["hand"][:n, D.MOVE] = 3
    s["hand"][:n, D.FIRE] = 3
    s["deck_size"][:n] = 4
    s["pile_owner"][:2] = [1, 2 % n]
    s["pile_card"][:2] = [D.MOVE, D.ROB]
    s["pile_down"][1] = True
    s["pile_size"] = 2
    s["resolving"] = s["acting_bandit"] = s["victim"] = NOBODY
    return states


def at_decision(states: np.ndarray, decision: int, current: int) -> np.ndarray:
    """A copy of ``states`` with the pending decision set (a Stealin' decision resolves pile card 1)."""
    states = states.copy()
    s = states[0]
    s["decision"], s["current"] = decision, current
    if decision not in (D.DEC_PLAN, D.DEC_BULLETS, D.DEC_KEEP):
        s["resolving"] = 1
        s["acting_bandit"] = current * s["bandits_per_seat"]
        s["victim"] = (s["acting_bandit"] + 1) % s["n_bandits"]
    return states


def all_names(states: np.ndarray) -> list[str]:
    """The names of all 73 actions in ``states``."""
    return [action_to_string(states, a) for a in range(D.N_ACTIONS)]


def line_of(text: str, label: str) -> str:
    """The board line whose row label is ``label`` (``roof`` or ``inside``)."""
    return next(line for line in text.splitlines() if line.strip().startswith(label + " "))


def column_of(text: str, header: str) -> int:
    """The column where the train header ``header`` starts."""
    return next(line for line in text.splitlines() if header in line).index(header)


# ---- action names (§11.2) -------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_action_names_are_unique_at_every_decision(n):
    """§11.2: in one state the 73 action ids have 73 different names, whatever the decision."""
    base = position(n)
    for decision in range(1, D.N_DECISIONS):
        for current in range(n):
            names = all_names(at_decision(base, decision, current))
            assert len(set(names)) == D.N_ACTIONS, (decision, current, names)


def test_action_names_after_the_end_are_unique():
    """A finished game (no current seat) still names every action, uniquely."""
    states = position(4)
    states[0]["done"], states[0]["current"], states[0]["decision"] = True, NOBODY, D.DEC_NONE
    assert len(set(all_names(states))) == D.N_ACTIONS


def test_action_names_use_decision_verbs_and_characters():
    """Verbs follow the decision; BANDIT(r) is egocentric (§11.1); 2-player cards name their bandit."""
    base = position(4)  # bandits 0..3 = Tuco, Ghost, Django, Belle
    assert action_to_string(at_decision(base, D.DEC_FIRE_TARGET, 2), D.A_BANDIT + 1) == "shoot Belle"
    assert action_to_string(at_decision(base, D.DEC_PUNCH_TARGET, 3), D.A_BANDIT + 1) == "punch Tuco"
    assert action_to_string(at_decision(base, D.DEC_MOVE_DEST, 2), D.A_CAR + 0) == "move to locomotive"
    assert action_to_string(at_decision(base, D.DEC_MARSHAL_DEST, 2), D.A_CAR + 3) == "marshal to car 3"
    assert action_to_string(at_decision(base, D.DEC_PUNCH_DEST, 2), D.A_CAR + 1) == "knock to car 1"
    assert action_to_string(at_decision(base, D.DEC_ROB_LOOT, 2), D.A_PURSE + 7) == "take purse 7"
    assert action_to_string(at_decision(base, D.DEC_ROB_LOOT, 2), D.A_JEWEL) == "take a jewel"
    assert action_to_string(base, D.A_PLAY_UP + D.MOVE) == "play Move (face up)"
    assert action_to_string(base, D.A_DRAW) == "draw 3 cards"
    two = position(2)  # seat 0: Tuco (slot 0), Ghost (slot 1)
    two[0]["current"] = 0
    assert action_to_string(two, D.A_PLAY_DOWN + D.FIRE) == "play Fire of Tuco (face down)"
    assert action_to_string(two, D.A_PLAY_UP + 6 + D.MOVE) == "play Move of Ghost (face up)"
    assert action_to_string(two, D.A_PLAY_UP + D.MARSHAL) == "play Marshal of Ghost (face up)"


def test_string_to_action_inverts_action_to_string():
    """Every name maps back to its id; an unknown name raises ValueError."""
    states = at_decision(position(3), D.DEC_PUNCH_LOOT, 1)
    for action in range(D.N_ACTIONS):
        assert GAME.string_to_action(states, action_to_string(states, action)) == action
    with pytest.raises(ValueError):
        GAME.string_to_action(states, "dance")
    with pytest.raises(ValueError):
        action_to_string(states, D.N_ACTIONS)


# ---- the text board ---------------------------------------------------------------------------

def test_ansi_board_shows_tuco_on_the_roof_of_car_2():
    """The train puts each bandit in its car's column, on the roof or inside row (§5.1)."""
    states = position(4)
    states[0]["bandit_car"][0], states[0]["bandit_level"][0] = 2, D.ROOF  # Tuco
    text = render_ansi(states)
    column = column_of(text, "car 2 (")
    assert line_of(text, "roof")[column:].startswith("Tuco")
    assert "Tuco" not in line_of(text, "inside")
    assert line_of(text, "inside").rstrip().endswith("Marshal S1")  # locomotive at the right
    assert column_of(text, "car 4 (") < column < column_of(text, "locomotive")


def test_ansi_board_shows_round_decision_and_pile():
    """Title with the round card and the current turn marked; face-down cards as ??."""
    text = render_ansi(position(4))
    assert "round 2/5: Tunnel (no event)  N [T] N T N" in text
    assert "decision: player_2 - play a card or draw" in text
    assert "2 player_2 ??" in text and "1 player_1 Move" in text


def test_revealed_face_down_card_shows_its_face():
    """G22: a face-down card shows its face once it is being resolved."""
    states = at_decision(position(4), D.DEC_ROB_LOOT, 2)
    text = render_ansi(states)
    assert ">2 player_2 Rob (down)<" in text and "1 player_1 Move done" in text


def _hidden_variant(states: np.ndarray) -> np.ndarray:
    """The same public position with different hidden facts (§10.4)."""
    other = states.copy()
    s = other[0]
    s["purse_value"][s["n_bandits"]:] = s["purse_value"][s["n_bandits"]:][::-1]
    s["purse_known"][:] = 0xFFFF
    s["hand"][:, D.MOVE], s["hand"][:, D.FIRE] = 1, 5  # same sizes, other cards
    s["pile_card"][1] = D.PUNCH  # the face-down card
    s["round_deck"][2:] = [6, 0, 16]  # future round cards
    s["deck"][:, :4] = D.BULLET_CARD
    s["rng"] = 12345
    return other


@pytest.mark.parametrize("n", [2, 4, 6])
def test_hidden_information_never_shows(n):
    """§10.4: two states differing only in hidden facts give the identical board."""
    states = position(n)
    states[0]["purse_location"][0] = D.PURSE_ON_BANDIT + 1  # a purse held by another bandit
    assert render_ansi(states) == render_ansi(_hidden_variant(states))
    if HAS_RASTER:
        assert np.array_equal(GAME.render_rgb(states), GAME.render_rgb(_hidden_variant(states)))


def test_purse_values_on_bandits_show_at_the_end():
    """§10.1, G35: at the end the values of the purses on the bandits are public, with the scores."""
    states = position(4)
    s = states[0]
    s["purse_location"][4] = D.PURSE_ON_BANDIT + 2  # worth $500 here, $250 in the variant
    s["done"], s["current"], s["decision"] = True, NOBODY, D.DEC_NONE
    text = render_ansi(states)
    assert f"#4 ${int(s['purse_value'][4])}" in text and "game over" in text and "WINNER" in text
    assert render_ansi(states) != render_ansi(_hidden_variant(states))


def test_keep_decision_shows_the_sizes_before_it():
    """§4.4: during a seat's KEEP decision the others see its old hand and discard sizes."""
    states = at_decision(position(3), D.DEC_KEEP, 0)
    s = states[0]
    s["expert"] = True
    before = render_ansi(states)
    s["hand"][0, D.MOVE] -= 2
    s["keep_aside"][D.MOVE] = 2
    assert render_ansi(states) == before


# ---- read-only, pictures ---------------------------------------------------------------------

def test_rendering_never_changes_the_state():
    """Rendering and naming are read-only: the record bytes are unchanged."""
    assert_rendering_is_read_only(GAME, at_decision(position(2), D.DEC_PUNCH_LOOT, 1), render_ansi, all_names)


@needs_raster
@pytest.mark.parametrize("n", [2, 6])
@pytest.mark.parametrize("done", [False, True])
def test_rgb_picture_has_a_constant_shape_and_is_not_blank(n, done):
    """The picture is the drawing's size, (900, 1400, 3) uint8, at every player count and at the end, with the
    character colours."""
    states = position(n)
    if done:  # the end shows the scores and dollar amounts
        states[0]["done"], states[0]["current"], states[0]["decision"] = True, NOBODY, D.DEC_NONE
    image = checked_picture(GAME, svg, states[0], min_colours=20)
    tuco_red = np.array([0xC6, 0x28, 0x28])
    assert np.any(np.all(image == tuco_red, axis=-1))


# ---- random play (needs the rules engine) ------------------------------------------------------

def _random_play(n: int, seed: int, expert: bool, check) -> None:
    """Play one random legal game with the rules kernels, calling ``check(states, mask)`` each step."""
    from wildwest_envs.colt_express import rules
    from wildwest_envs.core.kernels import serial

    states = np.zeros(1, STATE_DTYPE)
    GAME.init_kernel(states, np.array([seed], np.uint64), kernel_options(parse_options(num_players=n, expert=expert)))
    rng = np.random.default_rng(seed)
    mask = np.zeros((1, D.N_ACTIONS), np.int8)
    while not states[0]["done"] and states[0]["n_decisions"] < states[0]["max_decisions"]:
        serial(rules.legal_mask)(states, mask)
        check(states, mask[0])
        rules.step(states, np.array([rng.choice(np.flatnonzero(mask[0]))], np.int64))
    check(states, mask[0] * 0)


def _scramble_hidden(states: np.ndarray) -> np.ndarray:
    """A copy with every hidden fact of a live game changed, its public view kept (§10.4)."""
    other = states.copy()
    s = other[0]
    s["purse_value"][s["n_bandits"]:] = s["purse_value"][s["n_bandits"]:][::-1].copy()
    s["round_deck"][s["round"] + 1:] = s["round_deck"][s["round"] + 1:][::-1].copy()
    s["deck"][:] = s["deck"][:, ::-1].copy()
    s["rng"] ^= np.uint64(0xDEADBEEF)
    for index in range(s["pile_size"]):
        if s["pile_down"][index] and (s["resolving"] == NOBODY or index > s["resolving"]):
            code = int(s["pile_card"][index])
            s["pile_card"][index] = code - code % D.N_KINDS + (code % D.N_KINDS + 1) % D.N_KINDS
    for seat in range(s["num_players"]):
        held = np.flatnonzero(s["hand"][seat])
        if len(held):
            s["hand"][seat, held[0]] -= 1
            s["hand"][seat, (held[0] + 1) % D.N_CARD_KINDS_HELD] += 1
    return other


@pytest.mark.skipif(not HAS_RULES, reason="the rules engine is not written yet")
@pytest.mark.parametrize("n,expert", [(2, True), (3, False), (4, True), (5, False), (6, True)])
def test_random_games_name_render_and_stay_unchanged(n, expert):
    """Over random legal games: unique, invertible names; boards blind to hidden facts; no mutation."""
    def check(states: np.ndarray, mask: np.ndarray) -> None:
        before = states.tobytes()
        names = all_names(states)
        assert len(set(names)) == D.N_ACTIONS, names
        for action in np.flatnonzero(mask):
            assert GAME.string_to_action(states, names[action]) == action
        text = render_ansi(states)
        if not states[0]["done"]:
            assert text == render_ansi(_scramble_hidden(states))
        assert states.tobytes() == before

    for seed in range(3):
        _random_play(n, 100 * n + seed, expert, check)
