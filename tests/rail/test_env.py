"""The Rail env and Game: documentation against code, observations (§10), actions and their names (§11),
saved states, bad input, rendering."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.heuristic_rail import RailHeuristic
from tests.rail._helpers import BASE, MAP, MP, hex_id, step_id
from wildwest_envs import rail_v0
from wildwest_envs.rail import env as env_module
from wildwest_envs.rail.data import (CTX_RACE_ENTRY, N_OTHER_ACTIONS, OFF_CHOOSE_START, action_hex_dir,
                                     hex_dir_action)
from wildwest_envs.rail.game import GAME
from wildwest_envs.rail.observation import N_PLANES, P_CANDIDATE, P_NET, P_ROUTE, P_TRACK
from wildwest_envs.rail.positions import legal_actions as legal
from wildwest_envs.rail.positions import play, position

N = MAP.n_hexes


def _mid_game(seed: int = 4, race: bool = False) -> np.ndarray:
    """A position reached by two heuristic players and one random player (a race pending if ``race``)."""
    s = GAME.init(np.array([seed], np.uint64), num_players=3)
    agents = [RailHeuristic(1), RailHeuristic(2), RandomAgent(3)]
    while not s[0]["done"]:
        if (race and s[0]["context"] == CTX_RACE_ENTRY and s[0]["race_k"] >= 2) or \
                (not race and s[0]["operating"] and s[0]["race_k"] >= 2):
            break
        p = int(s[0]["current"])
        GAME.step(s, agents[p].act_batch(GAME.observe(s, [p]), GAME.legal_mask(s)))
    return s


# ---- documentation ------------------------------------------------------------------------------------------------
def test_documentation_page_matches_the_code():
    """The env docstring's sizes and start-city list are the Game's."""
    doc = env_module.__doc__
    assert f"Discrete({GAME.n_actions})" in doc and f"(float32, ({GAME.obs_size},))" in doc
    assert f"[0, {MAP.n_steps})" in doc and f"base = {MAP.n_steps}" in doc
    starts = re.search(r"start city i: (.*) \(4", doc).group(1)
    assert starts == ", ".join(f"{i} {MAP.city_names[c]}" for i, c in enumerate(MP.start_cities))
    assert GAME.n_actions == MAP.n_steps + N_OTHER_ACTIONS == 1797
    assert rail_v0.raw_env.metadata["name"] == GAME.name == "rail_v0"


# ---- actions (§11.1) -----------------------------------------------------------------------------------------------
def test_spec_hex_dir_ids_convert_both_ways():
    """§11.1: BUILD(h, d) = 6h + d of the spec's default encoding maps to the step id, the others to base +
    offset; both ends of a step give the same id (G42); impassable directions have none."""
    chicago = hex_id(29, 9)
    e = step_id((29, 9), (28, 9))
    assert hex_dir_action(MAP, 6 * chicago + 3) == e  # W
    assert hex_dir_action(MAP, 6 * hex_id(28, 9) + 0) == e  # the same step from its other end
    assert hex_dir_action(MAP, 6 * chicago + 0) == -1  # E of Chicago is Lake Michigan
    assert hex_dir_action(MAP, 6 * N + 9) == BASE + 9  # RACE_DECLINE
    assert action_hex_dir(MAP, e, source=hex_id(28, 9)) == 6 * hex_id(28, 9)
    assert action_hex_dir(MAP, BASE + OFF_CHOOSE_START) == 6 * N + 1


def test_action_names_name_hexes_and_directions():
    """Action strings: the source hex of the builder's network first, the direction, the other hex."""
    s = position(start={0: 63}, lines=[[0, [[29, 9], [28, 9]]]], turn=0, bp=8)
    names = GAME.legal_action_strings(s[0])
    assert "build 28,9 W 27,9" in names and "build 29,9 Chicago SW 29,10" in names and names[-1] == "end turn"
    for a in legal(s):
        assert GAME.string_to_action(s[0], GAME.action_to_string(s[0], a)) == a
    assert len(set(GAME.action_to_string(s[0], a) for a in range(GAME.n_actions))) == GAME.n_actions


def test_action_names_round_trip_in_played_positions():
    """string_to_action inverts action_to_string for every legal action of positions of a real game."""
    s = GAME.init(np.array([9], np.uint64), num_players=4)
    rng = np.random.default_rng(0)
    for _ in range(120):
        if s[0]["done"]:
            break
        for a in legal(s):
            assert GAME.string_to_action(s[0], GAME.action_to_string(s[0], a)) == a
        play(s, int(rng.choice(legal(s))))


def test_illegal_actions_raise_and_change_nothing():
    """§11.4, G51: an illegal or out-of-range action raises ValueError naming it; the state is unchanged."""
    s = position(start={0: 63}, turn=0, bp=1)
    before = s.tobytes()
    for bad in (step_id((28, 9), (27, 9)), BASE + 9, GAME.n_actions, -1):
        with pytest.raises(ValueError):
            GAME.step(s, np.array([bad]))
    assert s.tobytes() == before
    env = rail_v0.env(num_players=3)
    env.reset(seed=1)
    state = env.unwrapped.states.tobytes()
    with pytest.raises(ValueError, match="illegal action"):
        env.step(BASE + 9)
    assert env.unwrapped.states.tobytes() == state


def test_finished_game_has_an_empty_mask():
    """§11.2 GAME_OVER: nobody decides, every mask is all zeros."""
    s = position(max_races=1, start={0: 63}, lines=[[0, [[29, 9], [29, 10]]]], race=(63, 51), first=0)
    while not s[0]["done"]:
        play(s, legal(s)[0])
    assert GAME.legal_mask(s).sum() == 0 and s[0]["current"] == -1


# ---- options ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [{"num_players": 7}, {"build_dice": 3}, {"prizes": []}, {"prizes": [20] * 7},
                                 {"route_candidates": 4}, {"extension_mode": "bank"}, {"end_mode": "time"},
                                 {"points_target": {"9": 100}}, {"max_races": 0}, {"colour": "red"},
                                 {"coop_building": 1}, {"race_min_distance": 0}])
def test_bad_options_are_rejected(bad):
    """§4: a configuration outside the listed values is rejected with a clear error."""
    with pytest.raises(ValueError):
        GAME.parse_options(**bad)


def test_option_defaults_follow_the_spec_tables():
    """§4: targets 250/225/200 and build rounds 20/14/11/9/8 by player count; repeat rule on in races mode;
    expert=True switches on the three expert rules."""
    for n, target, rounds in [(2, 250, 20), (3, 250, 14), (4, 225, 11), (5, 200, 9), (6, 200, 8)]:
        o = GAME.parse_options(num_players=n)
        assert (o["points_target"], o["build_rounds"]) == (target, rounds)
    assert GAME.parse_options(end_mode="races")["avoid_repeat_cities"]
    assert not GAME.parse_options()["avoid_repeat_cities"]
    o = GAME.parse_options(expert=True)
    assert o["coop_building"] and o["international"] and o["flat_usage_fee"]
    assert not GAME.parse_options(expert=True, international=False)["international"]
    assert GAME.parse_options(points_target={"3": 120})["points_target"] == 120


# ---- observations (§10) ----------------------------------------------------------------------------------------------
def test_observation_is_egocentric():
    """§10.2: relative seat k of observer i is seat (i + k) mod n: rotating the observer rotates the planes."""
    s = _mid_game(race=True)
    obs = GAME.observe(np.repeat(s, 3), np.arange(3))
    board = [GAME.obs_layout.get(o, "board").reshape(N_PLANES, N) for o in obs]
    for i in range(3):
        for k in range(3):
            seat = (i + k) % 3
            owned = np.flatnonzero(s[0]["owners"] & (1 << seat))
            track = board[i][P_TRACK + 3 * k:P_TRACK + 3 * k + 3].reshape(-1)
            assert int(track.sum()) == len(owned)
            np.testing.assert_array_equal(board[i][P_NET + k] > 0, (s[0]["net"] >> seat) & 1 == 1)
        bal = GAME.obs_layout.get(obs[i], "balance")
        assert bal[0] * 100 == pytest.approx(float(s[0]["balance"][i]))
    assert not board[0][P_TRACK + 9:P_TRACK + 18].any() and not board[0][P_NET + 3:P_NET + 6].any()


def test_board_planes_show_the_map_and_the_race():
    """§10.2: terrain, foreign, city, start-city and river planes carry the map (§3.9 figures: 574 open, 81
    mountain, 120 water, 56 foreign hexes, 339 river sides, 36 cities, 4 start cities); the track plane of a
    relative seat shows its steps; the race planes and vector fields show start and goal (a whole country in an
    international race)."""
    from wildwest_envs.rail.observation import (P_CITY, P_FOREIGN, P_MOUNTAIN, P_OPEN, P_RACE_GOAL, P_RACE_START,
                                                P_RIVER, P_START, P_WATER)
    s = position(start={0: 63}, lines=[[0, [[29, 9], [28, 9], [27, 9]]]], race=(63, 51), first=0)
    obs = GAME.observe(s, [1])[0]
    board = GAME.obs_layout.get(obs, "board").reshape(N_PLANES, N)
    counts = [int(board[p].sum()) for p in (P_OPEN, P_MOUNTAIN, P_WATER, P_FOREIGN, P_CITY, P_START)]
    assert counts == [574, 81, 120, 56, 36, 4]
    assert int(board[P_RIVER:P_RIVER + 3].sum()) == 339
    assert board[P_RIVER + 0, hex_id(27, 9)] == 1  # the Mississippi between (27, 9) and its E neighbour (28, 9)
    assert board[P_MOUNTAIN, hex_id(25, 15)] == 1 and board[P_WATER, hex_id(30, 9)] == 1  # Lake Michigan
    assert board[P_START, hex_id(29, 9)] == 1 and board[P_CITY, hex_id(23, 10)] == 1 and not board[P_START,
                                                                                                   hex_id(23, 10)]
    # seat 0 is relative seat 2 of observer 1; its two steps are on canonical side E of (28, 9) and (27, 9)
    track = board[P_TRACK + 6:P_TRACK + 9]
    assert int(track.sum()) == 2 and track[0, hex_id(28, 9)] == 1 and track[0, hex_id(27, 9)] == 1
    assert not board[P_TRACK:P_TRACK + 6].any()
    assert np.flatnonzero(board[P_RACE_START]).tolist() == [hex_id(29, 9)]
    assert np.flatnonzero(board[P_RACE_GOAL]).tolist() == [hex_id(23, 10)]
    cities = GAME.obs_layout.get(obs, "race_cities")
    assert np.flatnonzero(cities[0]).tolist() == [MAP.city_index(63)]
    assert np.flatnonzero(cities[1]).tolist() == [MAP.city_index(51)]
    assert np.flatnonzero(GAME.obs_layout.get(obs, "context")).tolist() == [CTX_RACE_ENTRY]
    intl = position(international=True, start={0: 62}, race=(62, "Canada"), races_run=5, first=0)  # race 5 (§9.3)
    board = GAME.obs_layout.get(GAME.observe(intl, [0])[0], "board").reshape(N_PLANES, N)
    goal = np.flatnonzero(board[P_RACE_GOAL])
    assert len(goal) == 30 and (goal < MAP.width).all()  # Canada: the 30 land hexes of row 0 (§3.9)
    assert GAME.obs_layout.get(GAME.observe(intl, [0])[0], "race_country").tolist()[:2] == [1, 0]


def test_observation_shows_own_candidates_only():
    """§10.2: the candidate planes and features are the observer's; declared routes are everybody's."""
    s = _mid_game(race=True)
    p = int(s[0]["current"])
    o = GAME.observe(s, [p])[0]
    board = GAME.obs_layout.get(o, "board").reshape(N_PLANES, N)
    for k in range(3):
        expect = (s[0]["cand_hexes"] >> np.uint32(4 * p + k)) & np.uint32(1)
        np.testing.assert_array_equal(board[P_CANDIDATE + k], expect.astype(np.float32))
        assert GAME.obs_layout.get(o, "candidates")[k, 0] == s[0]["cand_valid"][p, k]
    assert not board[P_ROUTE:P_ROUTE + 6].any()  # nobody has entered yet


def test_same_public_state_same_observation():
    """§10.1: everything observable is public: two records that differ only in the generator (future dice)
    look the same to every seat, and a change of public state (a balance) is seen (control)."""
    s = _mid_game()
    other = GAME.resample_hidden(s, 0, 12345)
    for seat in range(3):
        np.testing.assert_array_equal(GAME.observe(s, [seat]), GAME.observe(other, [seat]))
    other[0]["balance"][2] += 1
    assert not np.array_equal(GAME.observe(s, [0]), GAME.observe(other, [0]))


# ---- saved states ------------------------------------------------------------------------------------------------------
def test_json_round_trip_mid_game():
    """A position saved as JSON loads back identical and plays on identically."""
    s = _mid_game(race=True)
    t = GAME.from_json(GAME.to_json(s[0]))
    assert t.tobytes() == s.tobytes()
    a = legal(s)[-1]
    play(s, a)
    play(t, a)
    assert t.tobytes() == s.tobytes()


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["state"].update(num_players=9), "num_players"),
    (lambda d: d["state"].update(start_city=[7, -1, -1, -1, -1, -1]), "start_city"),
    (lambda d: d["state"]["balance"].__setitem__(0, d["state"]["balance"][0] + 1), "money"),
    (lambda d: d["state"].update(race_start=5), "race_start"),
    (lambda d: d["state"]["own_t"][0].__setitem__(2, 9999), "ownership"),
    (lambda d: d["state"].pop("net"), "missing"),
])
def test_corrupt_saved_states_are_rejected(edit, message):
    """Saved JSON with an out-of-range or inconsistent field raises ValueError naming the problem."""
    s = _mid_game()
    doc = json.loads(GAME.to_json(s[0]))
    edit(doc)
    with pytest.raises(ValueError, match=message):
        GAME.from_json(json.dumps(doc))


# ---- rendering -------------------------------------------------------------------------------------------------------
def test_ansi_map_shows_every_players_lines_and_the_race():
    """render_mode="ansi": one cell per hex with the seat digit of its network, S/G for the race."""
    s = _mid_game(race=True)
    text = GAME.render_ansi(s[0])
    lines = text.splitlines()
    assert len(lines) >= 1 + MAP.height + 3
    grid = "\n".join(lines[1:1 + MAP.height])
    assert "S" in grid and ("G" in grid)
    for seat in range(3):
        assert f"player_{seat}: ${int(s[0]['balance'][seat])}" in text
    assert "race 2:" in text and "candidates of player_" in text


def test_rgb_picture():
    """render_mode="rgb_array": an (H, W, 3) uint8 picture; rendering changes nothing."""
    s = _mid_game(race=True)
    before = s.tobytes()
    image = GAME.render_rgb(s[0])
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 500
    assert s.tobytes() == before
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20
