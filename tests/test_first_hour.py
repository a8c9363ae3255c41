"""What a new user meets first: installable commands, SB3-style actions, copyable envs, clear command lines."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from wildwest_envs import make
from wildwest_envs.agents import registry
from wildwest_envs.registry import get_game


def _play_some(env, n: int, rng: np.random.Generator) -> None:
    """``n`` random legal moves through the AEC loop (stopping at the end of the game)."""
    for i, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if i + 1 >= n:
            return


def _rest_of_game(env) -> list:
    """Play the last legal action to the end; the agents, actions and rewards seen."""
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1])
        seen.append((agent, action, reward))
        env.step(action)
    return seen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_deepcopy_of_an_env_in_mid_game_plays_on_identically_and_independently(name):
    env = make(name, num_players=3)
    env.reset(seed=4)
    _play_some(env, 12, np.random.default_rng(0))
    clone = copy.deepcopy(env)
    assert clone.unwrapped.states is not env.unwrapped.states
    assert clone.unwrapped.agent_selection == env.unwrapped.agent_selection
    first = _rest_of_game(clone)
    assert env.unwrapped.states["n_decisions"][0] < clone.unwrapped.states["n_decisions"][0]  # untouched by it
    assert _rest_of_game(env) == first


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_0d_integer_array_is_an_action_as_sb3_predict_returns_it(name):
    env = make(name, num_players=3)
    env.reset(seed=1)
    obs, *_ = env.last()
    action = np.array(int(np.flatnonzero(obs["action_mask"])[0]))  # what model.predict(obs) gives
    assert env.action_space(env.agent_selection).contains(action)
    before = env.unwrapped.states.copy()
    env.step(action)
    assert not np.array_equal(before, env.unwrapped.states)
    for bad in (np.array([int(action)]), np.array(1.0), np.array(True)):
        state = env.unwrapped.states.copy()
        with pytest.raises(ValueError):
            env.step(bad)
        assert np.array_equal(state, env.unwrapped.states)


def test_help_of_raw_env_shows_the_game_options():
    from wildwest_envs import colt_express_v0
    assert "max_decisions" in colt_express_v0.raw_env.__doc__ and "Options" in colt_express_v0.raw_env.__doc__


def test_commands_import_from_any_directory_without_torch_for_help(tmp_path):
    """``training`` and ``agents`` live in the package: a script elsewhere imports them; --help needs no torch."""
    code = ("import sys, wildwest_envs.training.train as t, wildwest_envs.agents.registry; "
            "print('torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
    text = subprocess.run([sys.executable, "-m", "wildwest_envs.training.train", "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120).stdout
    for game in ("colt_express", "wild_west_express", "way_out_west", "rail"):
        assert f"--preset default --game {game}" in text or game in text
    assert "mcts+pretrained" in text and "--preset reference --game colt_express" in text


def test_train_lists_take_spaces_or_commas_and_bad_values_are_refused():
    from wildwest_envs.training.train import parse_args
    assert parse_args(["--opponents", "heuristic", "random"]).opponents == "heuristic,random"
    assert parse_args(["--opponents", "heuristic,random"]).opponents == "heuristic,random"
    for argv in (["--total-timesteps", "0"], ["--preset", "fast"], ["--game", "chess"]):
        with pytest.raises(SystemExit):
            parse_args(argv)


def test_a_run_directory_is_not_silently_replaced(tmp_path):
    from wildwest_envs.training.train import prepare_run_dir
    run = tmp_path / "run"
    prepare_run_dir(run, overwrite=False)
    (run / "model.zip").write_text("earlier")
    (run / "events.out.tfevents.1.host").write_text("earlier")
    (run / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit, match="--overwrite"):
        prepare_run_dir(run, overwrite=False)
    prepare_run_dir(run, overwrite=True)
    assert sorted(p.name for p in run.iterdir()) == ["notes.txt"]  # only the run's own outputs are removed


def test_a_bad_spec_is_one_line_and_leaves_no_run_directory(tmp_path, capsys):
    from wildwest_envs.training.train import main
    run = tmp_path / "run"
    for argv in (["--opponents", "nonsense"], ["--eval-opponents", "random", "mcts:0"], ["--imitate", "nope"]):
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--run-dir", str(run)])
        assert stop.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("wildwest-train: error:") and "\n" not in err
    assert not run.exists()


@pytest.mark.parametrize("module, argv", [
    ("wildwest_envs.training.evaluate", ["--agents", "heuristic", "nonsense", "random"]),
    ("wildwest_envs.training.play", ["--opponents", "heuristic,nonsense"]),
    ("benchmarks.ladder", ["--game", "colt_express", "--agents", "random", "heuristic", "nonsense"]),
])
def test_commands_report_a_bad_spec_in_one_line(module, argv, capsys):
    import importlib
    with pytest.raises(SystemExit) as stop:
        importlib.import_module(module).main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "error:" in err and "nonsense" in err and "Traceback" not in err


def test_timesteps_are_whole_rollouts():
    from wildwest_envs.training.train import Args, rounded_timesteps
    assert rounded_timesteps(Args(total_timesteps=20_000, num_envs=64, n_steps=128)) == 24_576
    assert rounded_timesteps(Args(total_timesteps=8192, num_envs=64, n_steps=128)) == 8192


def test_evaluate_takes_commas_refuses_zero_games_and_names_agents_by_spec():
    from wildwest_envs.training.evaluate import parse_args
    assert parse_args(["--agents", "heuristic,random", "mcts:3"]).agents == ["heuristic", "random", "mcts:3"]
    with pytest.raises(SystemExit):
        parse_args(["--agents", "heuristic", "random", "--games", "0"])
    assert parse_args(["--agents", "random", "random", "random"]).out == ""
    names = [registry.make_agent(spec, "colt_express").name for spec in ("mcts", "mcts:10", "mcts:30")]
    assert names == ["mcts", "mcts:10", "mcts:30"]


def test_evaluate_writes_under_runs_by_default(tmp_path, monkeypatch):
    from wildwest_envs.training.evaluate import main
    monkeypatch.chdir(tmp_path)
    main(["--agents", "random", "random", "random", "--games", "6", "--batch", "6"])
    assert (tmp_path / "runs" / "tournaments" / "colt_express_3p.md").is_file()


def test_a_checkpoint_for_another_player_count_is_refused():
    with pytest.raises(ValueError, match="trained for 3 players, not 4"):
        registry._check_players("runs/x/model.zip", {"num_players": 3}, 4)
    registry._check_players("runs/x/model.zip", {"num_players": 3}, 3)
    registry._check_players("runs/x/model.zip", {}, 4)  # no record of the count: nothing to check


def test_rendering_rail_keeps_the_matplotlib_backend():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("svg")
    game = get_game("rail")
    image = game.render_rgb(game.init_batch(1, seed=0, num_players=3)[0])
    assert image.ndim == 3 and image.shape[2] == 3 and image.std() > 0
    assert matplotlib.get_backend() == "svg"


def test_learning_curve_of_a_run_without_finished_games_is_a_clear_error(tmp_path):
    from wildwest_envs.training.report import plot_learning_curve
    (tmp_path / "progress.csv").write_text("time/total_timesteps,train/loss\n64,0.5\n")
    (tmp_path / "config.json").write_text(json.dumps({"game": "colt_express_v0"}))
    with pytest.raises(ValueError, match="needs"):
        plot_learning_curve(tmp_path)


def test_a_run_resumes_from_its_latest_checkpoint(tmp_path):
    """``--resume`` goes on from the checkpoint with its settings; the progress log keeps the earlier rows."""
    pytest.importorskip("sb3_contrib")
    from wildwest_envs.training.train import main
    run = tmp_path / "run"
    tiny = ["--game", "way_out_west", "--num-envs", "8", "--n-steps", "32", "--batch-size", "64", "--eval-games", "6",
            "--eval-opponents", "random", "--snapshot-every", "0", "--checkpoint-every", "256", "--run-dir", str(run)]
    main([*tiny, "--total-timesteps", "512"])
    rows_before = (run / "progress.csv").read_text().count("\n")
    with pytest.raises(SystemExit, match="differ"):
        main([*tiny, "--total-timesteps", "1024", "--resume", "--learning-rate", "0.1"])
    main([*tiny, "--total-timesteps", "1024", "--resume"])
    config = json.loads((run / "config.json").read_text())
    assert config["total_timesteps"] == 1024 and config["resume"]
    assert (run / "progress.csv").read_text().count("\n") > rows_before
    assert not (run / "progress_before_resume.csv").exists()
    from wildwest_envs.agents.pretrained import load_pretrained
    assert load_pretrained(run / "pretrained.npz", "way_out_west", 3).config["total_timesteps"] == 1024


@pytest.mark.parametrize("name", ["colt_express_v0", "way_out_west_v0"])
def test_pickle_and_saved_positions_play_on_like_the_original(name):
    import pickle
    env = make(name, num_players=3)
    env.reset(seed=8)
    _play_some(env, 9, np.random.default_rng(2))
    saved = env.unwrapped.save_state()
    pickled = pickle.loads(pickle.dumps(env))
    loaded = make(name, num_players=3)
    loaded.reset(seed=123)  # another game: load_state replaces it
    loaded.unwrapped.load_state(saved)
    assert loaded.unwrapped.agent_selection == env.unwrapped.agent_selection
    expected = _rest_of_game(env)
    assert _rest_of_game(pickled) == expected
    assert _rest_of_game(loaded) == expected


def test_load_state_refuses_bad_positions_and_changes_nothing():
    env = make("colt_express", num_players=3)
    env.reset(seed=1)
    before = env.unwrapped.states.copy()
    other = make("colt_express", num_players=4)
    other.reset(seed=1)
    for bad, error in ((other.unwrapped.save_state(), ValueError), ("{not json", ValueError), (42, TypeError)):
        with pytest.raises(error):
            env.unwrapped.load_state(bad)
        assert np.array_equal(before, env.unwrapped.states)


@pytest.mark.parametrize("check", [True, False])
def test_game_step_of_one_game_takes_a_numpy_scalar_or_0d_array(check):
    from wildwest_envs.core.vector import VectorEnv
    game = get_game("colt_express")
    for action_of in (np.int64, np.int32, np.array):
        states = game.init_batch(1, seed=3, num_players=3)
        expected = states.copy()
        first = int(np.flatnonzero(game.legal_mask(states)[0])[0])
        game.step(expected, [first])
        game.step(states, action_of(first), check=check)
        assert np.array_equal(states, expected)
    venv = VectorEnv(game, 1, seed=0)
    step = venv.reset()
    venv.step(np.array(int(np.flatnonzero(step.masks[0])[0])))
    with pytest.raises(ValueError):
        game.step(game.init_batch(2, seed=3, num_players=3), np.array(first))  # two games need two actions


def test_rllib_train_reports_a_bad_spec_in_one_line_before_ray_starts(capsys):
    pytest.importorskip("ray")
    from wildwest_envs.training.rllib_train import main
    with pytest.raises(SystemExit) as stop:
        main(["--opponents", "heuristic", "nonsense"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rllib_train: error:") and "nonsense" in err and "\n" not in err
