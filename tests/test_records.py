"""Game records (``core.records``): written by play, replayed byte for byte, refused when they do not fit."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from wildwest_envs import make
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.core.records import FORMAT, GameRecord, make_record
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game
from wildwest_envs.training import play
from wildwest_envs.training.tournament import play_matches


def random_game(game, seed: int = 4, num_players: int = 3):
    """A seeded random game: its generator state, its ``(seat, action)`` moves and every state from the deal."""
    deal = int(game_seeds(seed, 1)[0])
    states = game.init(np.array([deal], np.uint64), num_players=num_players)
    sample = LegalSampler(1, seed)
    moves, history = [], [states.copy()]
    while not game.finished(states)[0]:
        action = int(sample(game.legal_mask(states))[0])
        moves.append((int(states["current"][0]), action))
        game.step(states, [action])
        history.append(states.copy())
    return deal, moves, np.concatenate(history)


@pytest.fixture(scope="module", params=GAME_NAMES)
def recorded(request):
    """``(game, record, states)``: a random game of each game, its record as JSON text and every state."""
    game = get_game(request.param)
    deal, moves, history = random_game(game)
    record = make_record(game, deal, {"num_players": 3}, moves, ("random",) * 3, history[-1])
    return game, record.to_json(), history


def test_a_record_replays_every_state_byte_for_byte(recorded):
    """The record's JSON, read back, deals the same game and plays it through the same states to the same result."""
    game, text, history = recorded
    record = GameRecord.from_json(text)
    assert json.loads(text)["format"] == FORMAT and record.game == game.name
    replayed = game.replay(record, every_state=True)
    assert replayed.tobytes() == history.tobytes()
    assert game.replay(text).tobytes() == history[-1:].tobytes()
    assert record.result["decisions"] == int(history[-1]["n_decisions"])
    assert record.names[0] == game.action_to_string(history[0], record.actions[0][1])


def test_a_record_of_another_game_or_version_is_refused(recorded):
    game, text, _ = recorded
    other = get_game(next(n for n in GAME_NAMES if n != game.name))
    with pytest.raises(ValueError, match="cannot be replayed by"):
        other.replay(text)
    data = json.loads(text)
    data["game"] = game.name.replace("_v0", "_v9")
    with pytest.raises(ValueError, match="another game or version"):
        game.replay(json.dumps(data))


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: d.update(format="something/2"), "not a game record"),
    (lambda d: d.pop("seed"), "'seed' must be"),
    (lambda d: d.update(seed=-3), "not a 64-bit"),
    (lambda d: d["actions"].append("oops"), "action .* must be"),
    (lambda d: d["options"].update(no_such_option=1), "no_such_option"),
    (lambda d: d["result"].update(scores=[-99, -99, -99]), "result differs"),
    (lambda d: d["actions"].__setitem__(0, [d["actions"][0][0], 10**6, ""]), "record action 0: .*range"),
    (lambda d: d["actions"].__setitem__(0, [(d["actions"][0][0] + 1) % 3, d["actions"][0][1], ""]),
     "record action 0: seat"),
    (lambda d: d["actions"].append(d["actions"][-1]), "already over"),
])
def test_a_corrupt_record_is_refused_naming_the_problem(recorded, corrupt, message):
    game, text, _ = recorded
    data = json.loads(text)
    corrupt(data)
    with pytest.raises(ValueError, match=message):
        game.replay(json.dumps(data))


def test_a_truncated_or_non_json_record_is_refused(recorded, tmp_path):
    game, text, _ = recorded
    for bad in (text[: len(text) // 2], "[1, 2, 3]", ""):
        with pytest.raises(ValueError, match="game record"):
            GameRecord.from_json(bad)
    path = tmp_path / "cut.json"
    path.write_text(text[:-40])
    with pytest.raises(ValueError):
        game.replay(path)


def test_the_aec_env_resumes_a_record_and_plays_it_to_the_same_end(recorded):
    """``load_record(record, upto=k)``: the env continues from the k-th decision; the recorded rest of the
    game, stepped through the env, ends with the recorded scores."""
    game, text, history = recorded
    record = GameRecord.from_json(text)
    env = make(game.name, num_players=3)
    env.reset(seed=0)
    k = len(record.actions) // 2
    env.unwrapped.load_record(record, upto=k)
    assert env.unwrapped.states.tobytes() == history[k:k + 1].tobytes()
    for seat, action in record.actions[k:]:
        assert env.agent_selection == f"player_{seat}"
        env.step(action)
    assert env.unwrapped.states.tobytes() == history[-1:].tobytes()
    with pytest.raises(ValueError, match="upto"):
        env.unwrapped.load_record(record, upto=len(record.actions) + 1)
    with pytest.raises(ValueError, match="other options"):
        make(game.name, num_players=3, max_decisions=12345).unwrapped.load_record(record)


def test_tournament_games_saved_as_records_replay_to_their_results(tmp_path):
    """``play_matches(..., save_games=DIR)`` (``training.evaluate --save-games``): one record per game, naming
    the agents of its seats, each replaying to the scores the tournament reported."""
    name = "way_out_west_v0"
    results = play_matches(name, [RandomAgent(1), RandomAgent(2)], 3, 6, seed=5, batch=4, progress=False,
                           save_games=tmp_path)
    files = sorted(tmp_path.glob("game_*.json"))
    assert len(files) == 6
    game = get_game(name)
    for result, path in zip(results, files):
        record = GameRecord.load(path)
        assert record.players == tuple("random" for _ in range(3))
        final = game.replay(record)
        assert tuple(int(s) for s in game.scores(final)[0, :3]) == result.scores


def test_the_terminal_game_writes_a_record_of_the_finished_game(tmp_path):
    """``wildwest-play --save-game FILE``: the person's game, replayed, ends with the printed scores."""
    game = get_game("way_out_west_v0")
    path = tmp_path / "mine.json"
    moves = io.StringIO("\n".join(["1"] * 3000))  # always the first legal action
    scores = play.main(["--game", "way_out_west", "--opponents", "random", "--seed", "3", "--save-game",
                        str(path)], input_stream=moves, output_stream=io.StringIO())
    record = GameRecord.load(path)
    assert record.players[0] == "you"
    assert game.scores(game.replay(record))[0, :3].tolist() == list(scores)


def test_the_evaluate_command_saves_every_game_as_a_record(tmp_path):
    """``wildwest-evaluate --save-games DIR``: as many records as games, each replaying without error."""
    from wildwest_envs.training import evaluate

    text = evaluate.main(["--game", "way_out_west", "--agents", "random", "heuristic", "--games", "3",
                          "--out", str(tmp_path / "t"), "--save-games", str(tmp_path / "games")])
    files = sorted((tmp_path / "games").glob("game_*.json"))
    assert len(files) == 3 and "3 game records" in text
    game = get_game("way_out_west_v0")
    assert all(game.finished(game.replay(path))[0] for path in files)


EVENT_GAMES = [name for name in GAME_NAMES if get_game(name).event_kinds is not None]


@pytest.mark.parametrize("name", EVENT_GAMES)
def test_a_record_with_events_replays_to_the_same_events(name):
    """Issue 19 item 4: a record may hold every step's events; its replay reports the same ones, and a record
    whose events were altered is refused at the first step that differs."""
    game = get_game(name)
    deal, moves, history = random_game(game, seed=6)
    moves = moves[:60]
    record = GameRecord.from_json(make_record(game, deal, {"num_players": 3}, moves, events=True).to_json())
    assert len(record.events) == len(moves) and any(record.events)
    states = game.init(np.array([deal], np.uint64), num_players=3)
    for (_, action), stored in zip(moves, record.events):
        assert [e.to_dict() for e in game.step_with_events(states, [action])[0]] == list(stored)
    assert game.replay(record).tobytes() == history[len(moves):len(moves) + 1].tobytes()
    at = next(i for i, step in enumerate(record.events) if step)
    data = json.loads(record.to_json())
    data["events"][at][0]["seen_by"] = [99]
    with pytest.raises(ValueError, match=f"record action {at}: the record's events differ"):
        game.replay(json.dumps(data))


@pytest.mark.parametrize("events, message", [
    ({"kind": "x"}, "must be a list of"),
    ([[{"kind": "x", "seen_by": []}]], "must be a list of 2 lists"),
    ([[7], []], "events of action 0"),
])
def test_malformed_events_in_a_record_are_refused(events, message):
    text = json.dumps({"format": FORMAT, "game": "wild_west_express_v0", "options": {}, "seed": 1,
                       "actions": [[0, 1], [1, 2]], "events": events})
    with pytest.raises(ValueError, match=message):
        GameRecord.from_json(text)


def test_the_evaluate_command_saves_events_when_asked(tmp_path):
    """``wildwest-evaluate --save-games DIR --save-events``: records with one event list per action; the flag
    alone is refused."""
    from wildwest_envs.training import evaluate

    name = EVENT_GAMES[0].removesuffix("_v0")
    evaluate.main(["--game", name, "--agents", "random", "--games", "2", "--out", str(tmp_path / "t"),
                   "--save-games", str(tmp_path / "games"), "--save-events"])
    for path in sorted((tmp_path / "games").glob("game_*.json")):
        record = GameRecord.load(path)
        assert len(record.events) == len(record.actions) > 0
        get_game(EVENT_GAMES[0]).replay(record)
    with pytest.raises(SystemExit):
        evaluate.main(["--game", name, "--agents", "random", "--games", "2", "--save-events"])
