"""Scripted chance through the API (issue 19 item 2): ``start_player`` at ``init``, ``Game.script`` in play.

Outcomes are named as the rules name them (die faces 1..6, a seat); an impossible outcome, an unknown
kind or a script that runs out is a ``ValueError`` that changes nothing (``core.chance``).
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.core.records import GameRecord, make_record, replay
from wildwest_envs.registry import get_game

START_FIELD = {"colt_express_v0": "first_player", "wild_west_express_v0": "start_player",
               "way_out_west_v0": "start_player", "rail_v0": "start_player"}


def _game(name: str):
    return get_game(name)


@pytest.mark.parametrize("name", sorted(START_FIELD))
def test_start_player_option_sets_the_seat_that_starts(name):
    game = _game(name)
    for seat in range(3):
        states = game.init([11, 12, 13], num_players=3, start_player=seat)
        assert (states[START_FIELD[name]] == seat).all()
        game.validate(states)
    drawn = game.init(list(range(40)), num_players=3)[START_FIELD[name]]
    assert len(set(drawn.tolist())) == 3  # None still draws it: every seat starts some game


@pytest.mark.parametrize("name", sorted(START_FIELD))
def test_start_player_out_of_range_is_refused(name):
    with pytest.raises(ValueError, match="start_player"):
        _game(name).init(1, num_players=3, start_player=3)


@pytest.mark.parametrize("name,dealt", [("colt_express_v0", ("deck", "hand", "purse_value", "round_deck")),
                                        ("wild_west_express_v0", ("deck",))])
def test_start_player_keeps_the_rest_of_the_deal(name, dealt):
    """Where ``init`` draws the start player and then deals, the deal is the seed's either way (options doc)."""
    game = _game(name)
    free = game.init(list(range(8)), num_players=3)
    for seat in range(3):
        fixed = game.init(list(range(8)), num_players=3, start_player=seat)
        for field in dealt:
            if name == "colt_express_v0" and field in ("deck", "hand"):
                continue  # decks are the same cards per seat; compared as multisets below
            assert (fixed[field] == free[field]).all(), field
        if name == "colt_express_v0":
            assert (np.sort(fixed["deck"], axis=-1) == np.sort(free["deck"], axis=-1)).all()


def _play_until(game, states, rng, stop, limit=400):
    """Random legal actions until ``stop(states)`` holds after a step; returns the action that got there."""
    for _ in range(limit):
        legal = np.flatnonzero(game.legal_mask(states)[0])
        action = int(rng.choice(legal))
        game.step(states, [action])
        if stop(states):
            return action
    raise AssertionError("the situation was not reached")


def test_scripted_dice_are_the_first_roll_of_wild_west_express():
    game = _game("wild_west_express_v0")
    states = game.init(5, num_players=3)
    game.script(states, [2, ("die", 5), 3], then="random")
    _play_until(game, states, np.random.default_rng(0), lambda s: s["dice"][0].any())
    assert states["dice"][0].tolist() == [5, 3, 2]  # sorted a >= b >= c (§6.4)
    assert int(states["forced_pos"][0]) == 3


def test_a_script_that_runs_out_is_refused_and_changes_nothing():
    game = _game("wild_west_express_v0")
    states = game.init(5, num_players=3)
    game.script(states, [6, 6])  # one die short of the first roll; then="error"
    rng = np.random.default_rng(0)
    for _ in range(400):
        legal = np.flatnonzero(game.legal_mask(states)[0])
        action = int(rng.choice(legal))
        before = states.copy()
        try:
            game.step(states, [action])
        except ValueError as error:
            assert "ran out" in str(error)
            assert states.tobytes() == before.tobytes()
            break
    else:
        raise AssertionError("the roll was never reached")
    game.script(states, [1, 4, 6])  # the same step goes through once the script holds enough
    game.step(states, [action])
    assert states["dice"][0].tolist() == [6, 4, 1]


@pytest.mark.parametrize("outcomes,message", [
    ([7], "impossible die outcome 7"), ([0], "impossible die outcome 0"), ([2.5], "impossible die"),
    ([True], "impossible die"), ([("card", 3)], "unknown chance outcome kind 'card'"),
    ([1] * 16, "at most 15 scripted outcomes"), ("66", "must be a list")])
def test_bad_scripts_are_refused_and_change_nothing(outcomes, message):
    game = _game("wild_west_express_v0")
    states = game.init(5, num_players=3)
    before = states.tobytes()
    with pytest.raises((ValueError, TypeError), match=message):
        game.script(states, outcomes)
    assert states.tobytes() == before


def test_script_errors_name_the_kinds_and_endings():
    rail = _game("rail_v0")
    states = rail.init(3, num_players=3)
    with pytest.raises(ValueError, match=r"several kinds of outcome \['die', 'tie'\]"):
        rail.script(states, [4])
    rail.script(states, [("die", 4), ("tie", 1)])
    assert states["forced"][0, :3].tolist() == [3, 1, -1]
    with pytest.raises(ValueError, match="then must be one of"):
        rail.script(states, [("die", 1)], then="later")
    colt = _game("colt_express_v0")
    with pytest.raises(ValueError, match="draws no chance outcome during play"):
        colt.script(colt.init(1), [1])
    assert [k.name for k in _game("way_out_west_v0").chance_kinds] == ["die"]


def test_scripted_chance_is_stored_in_game_records_and_replayed():
    game = _game("wild_west_express_v0")
    seed = 9
    states = game.init(seed, num_players=3)
    game.script(states, [1, 1, 2])
    rng = np.random.default_rng(3)
    actions = []
    while not game.finished(states)[0] and len(actions) < 120:
        seat = int(states["current"][0])
        action = int(rng.choice(np.flatnonzero(game.legal_mask(states)[0])))
        actions.append((seat, action))
        game.step(states, [action])
        if len(actions) == 1:
            game.script(states, [1, 1, 2], then="random")  # scripted again before action 1
    record = make_record(game, seed, {"num_players": 3}, actions,
                         chance=[(0, [1, 1, 2], "error"), (1, [("die", 1), ("die", 1), ("die", 2)], "random")])
    text = record.to_json()
    assert '"chance"' in text
    again = GameRecord.from_json(text)
    assert again.chance == record.chance
    assert replay(game, again).tobytes() == states.tobytes()
    unscripted = GameRecord(game.name, record.options, seed, record.actions)
    try:  # without the scripts the dice differ: the actions are illegal, or lead elsewhere
        assert replay(game, unscripted).tobytes() != states.tobytes()
    except ValueError as error:
        assert "record action" in str(error)


@pytest.mark.parametrize("chance", ['"chance": 3', '"chance": [[0, [["die"]], "error"]]',
                                    '"chance": [[99, [], "error"]]'])
def test_malformed_chance_in_a_record_is_refused(chance):
    game = _game("wild_west_express_v0")
    text = make_record(game, 1, {"num_players": 3}, []).to_json()
    with pytest.raises(ValueError, match="chance"):
        GameRecord.from_json(text.replace('"actions"', chance + ', "actions"'))


def test_the_pettingzoo_env_scripts_and_refuses_a_script_that_runs_out():
    from wildwest_envs import wild_west_express_v0

    env = wild_west_express_v0.env(num_players=3)
    env.reset(seed=5)
    env.unwrapped.script([6, 6])
    rng = np.random.default_rng(0)
    for _ in range(400):
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        saved = env.unwrapped.save_state()
        try:
            env.step(action)
        except ValueError as error:
            assert "ran out" in str(error)
            assert env.unwrapped.save_state() == saved
            assert env.observe(env.agent_selection)["action_mask"].tolist() == mask.tolist()
            break
    else:
        raise AssertionError("the roll was never reached")
    env.unwrapped.script([3, 2, 1], then="random")
    env.step(action)
    assert env.unwrapped.states["dice"][0].tolist() == [3, 2, 1]  # the new script replaced the old one


@pytest.mark.parametrize("name", ["wild_west_express_v0", "way_out_west_v0", "rail_v0"])
def test_a_scripted_record_is_valid_and_saves(name):
    """The end marker of a script is a valid queue entry: such a record validates and round-trips."""
    game = _game(name)
    states = game.init(4, num_players=3)
    kind = game.chance_kinds[0].name
    game.script(states, [(kind, 2), (kind, 5)])
    game.validate(states)
    assert game.from_json(game.to_json(states[0])).tobytes() == states.tobytes()
