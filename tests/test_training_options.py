"""Per-game training presets: valid fields, registered games, and the order of precedence."""

from __future__ import annotations

import dataclasses
import json

import pytest

pytest.importorskip("sb3_contrib")

from wildwest_envs.training import presets  # noqa: E402
from wildwest_envs.training.train import Args, parse_args  # noqa: E402
from wildwest_envs.registry import GAMES  # noqa: E402


ALL_PRESETS = [(f"default:{g}", g, p) for g, p in presets.PRESETS.items()] + \
    [(f"reference:{g}", g, p) for g, p in presets.REFERENCE.items()] + \
    [(f"stage:{name}:{g}", g, p) for g, stages in presets.STAGES.items() for name, p in stages.items()]


@pytest.mark.parametrize("label, game_name, preset", ALL_PRESETS, ids=[label for label, _, _ in ALL_PRESETS])
def test_every_preset_names_a_registered_game_and_real_fields(label, game_name, preset):
    """A typo in a preset would otherwise be silently ignored or crash at training time; stages must exist."""
    fields = {f.name: f for f in dataclasses.fields(Args)}
    assert game_name in GAMES
    for key, value in preset.items():
        assert key in fields and key != "game", key
        assert isinstance(value, type(fields[key].default)), (key, value)
    tokens = [preset.get("init_from", ""), *str(preset.get("opponents", "")).split(",")]
    for token in tokens:
        if token.startswith(presets.STAGE_PREFIX):
            assert token.removeprefix(presets.STAGE_PREFIX) in presets.STAGES[game_name], token


def test_command_line_beats_preset_beats_args_default(monkeypatch):
    """Args defaults < PRESETS[game] < flags on the command line."""
    monkeypatch.setitem(presets.PRESETS, "colt_express_v0", {"total_timesteps": 1234, "num_envs": 7})
    args = parse_args(["--game", "colt_express", "--num-envs", "9"])
    assert (args.total_timesteps, args.num_envs, args.n_steps) == (1234, 9, Args.n_steps)


def test_colt_express_uses_the_args_defaults():
    """The README's main command trains with exactly the documented defaults."""
    assert parse_args([]) == Args()


def test_unknown_reward_mode_is_refused_before_any_game_is_played():
    """A typo in ``--reward-mode`` fails at once, naming the valid modes."""
    from wildwest_envs.agents.base import RandomAgent
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv
    from wildwest_envs.registry import get_game

    with pytest.raises(ValueError, match="reward_mode"):
        SelfPlayVecEnv(get_game("colt_express"), 2, OpponentPool([RandomAgent(0)]), reward_mode="wins")


def test_rank_reward_reaches_the_learner():
    """With ``reward_mode="rank"`` the learner's final reward is its rank reward, in [-1, 1]."""
    import numpy as np

    from wildwest_envs.agents.base import RandomAgent
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv
    from wildwest_envs.registry import get_game

    game = get_game("colt_express")
    env = SelfPlayVecEnv(game, 4, OpponentPool([RandomAgent(0)]), seed=3, reward_mode="rank", num_players=3)
    env.reset()
    rng, seen = np.random.default_rng(0), set()
    while len(seen) < 3:
        masks = env.action_masks()
        _, rewards, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for reward, done, info in zip(rewards, dones, infos):
            if done:
                scores = np.array(info["scores"], dtype=float)
                mine = scores[info["learner_seat"]]
                if np.sum(scores == mine) == 1:  # no tie on score: the rank follows from the scores alone
                    expected = (np.sum(scores < mine) - np.sum(scores > mine)) / 2
                    assert reward == pytest.approx(expected)
                    seen.add(expected)
            else:
                assert reward == 0.0


def test_init_from_starts_ppo_from_the_shipped_network(tmp_path):
    """``--init-from pretrained`` copies the shipped policy and value weights; at learning rate 0 they stay so."""
    import numpy as np

    from wildwest_envs.agents import pretrained
    from wildwest_envs.training.train import main

    run = tmp_path / "run"
    main(["--game", "way_out_west", "--init-from", "pretrained", "--learning-rate", "0", "--total-timesteps", "64",
          "--num-envs", "4", "--n-steps", "16", "--batch-size", "32", "--eval-games", "3", "--eval-opponents",
          "random", "--snapshot-every", "0", "--run-dir", str(run)])
    with np.load(pretrained.shipped_path("way_out_west")) as shipped, np.load(run / "pretrained.npz") as trained:
        weights = [k for k in shipped.files if k.startswith(pretrained.WEIGHT_PREFIX)]
        assert weights and sorted(weights) == sorted(k for k in trained.files if k != pretrained.CONFIG_KEY)
        for key in weights:
            np.testing.assert_array_equal(shipped[key], trained[key], err_msg=key)


@pytest.mark.parametrize("argv, message", [
    (["--game", "colt_express", "--init-from", "pretrained", "--net-arch", "64,64"], "network of layers"),
    (["--game", "way_out_west", "--init-from", "nowhere.npz"], "no pretrained network"),
])
def test_init_from_refuses_a_network_that_does_not_fit_before_writing(tmp_path, capsys, argv, message):
    from wildwest_envs.training.train import main

    run = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--run-dir", str(run)])
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and message in err and "\n" not in err
    assert not run.exists()


def test_init_from_refuses_another_games_network(tmp_path, capsys):
    import shutil

    from wildwest_envs.agents import pretrained
    from wildwest_envs.training.train import main

    foreign = tmp_path / "rail.npz"
    shutil.copy(pretrained.shipped_path("rail"), foreign)
    with pytest.raises(SystemExit):
        main(["--game", "way_out_west", "--init-from", str(foreign), "--run-dir", str(tmp_path / "run")])
    assert "trained on rail_v0" in capsys.readouterr().err


def test_a_recipe_in_stages_trains_its_earlier_stage_first_then_reuses_it(tmp_path, monkeypatch, capsys):
    """``stage:<name>`` as init_from and opponent: trained once in run_dir/stages/<name> with the seed its preset
    names, then its network is used."""
    import numpy as np

    from wildwest_envs.training.train import main

    tiny = {"total_timesteps": 64, "num_envs": 4, "n_steps": 16, "batch_size": 32, "eval_games": 3,
            "eval_opponents": "random", "snapshot_every": 0, "checkpoint_every": 64}
    monkeypatch.setitem(presets.STAGES, "way_out_west_v0", {"first": dict(tiny, seed=7)})
    monkeypatch.setitem(presets.REFERENCE, "way_out_west_v0", {**tiny, "init_from": "stage:first", "seed": 3,
                                                               "opponents": "random,stage:first", "learning_rate": 0.0})
    run = tmp_path / "run"
    main(["--game", "way_out_west", "--preset", "reference", "--run-dir", str(run)])
    stage = run / "stages" / "first" / "pretrained.npz"
    assert "stage:first: training" in capsys.readouterr().out
    with np.load(stage) as first, np.load(run / "pretrained.npz") as final:  # learning rate 0: the stage's weights
        weights = [k for k in first.files if k.startswith("w:")]
        assert weights
        for key in weights:
            np.testing.assert_array_equal(first[key], final[key], err_msg=key)
    assert json.loads((run / "config.json").read_text())["init_from"] == "stage:first"
    assert json.loads((run / "config.json").read_text())["seed"] == 3
    assert json.loads((stage.parent / "config.json").read_text())["seed"] == 7
    before = stage.stat().st_mtime_ns
    main(["--game", "way_out_west", "--preset", "reference", "--run-dir", str(run), "--overwrite"])
    assert "stage:first: reusing" in capsys.readouterr().out and stage.stat().st_mtime_ns == before


def test_an_unknown_stage_is_refused_by_the_parser(capsys):
    for argv in (["--preset", "stage:nope"], ["--game", "way_out_west", "--opponents", "heuristic,stage:nope"]):
        with pytest.raises(SystemExit) as stop:
            parse_args(argv)
        assert stop.value.code == 2 and "no stage 'nope'" in capsys.readouterr().err


def test_init_from_a_runs_checkpoint_names_the_network_beside_it(tmp_path, capsys):
    """``--init-from runs/x/model.zip`` (an SB3 checkpoint, not a network file) names the run's ``pretrained.npz``."""
    import shutil

    from wildwest_envs.agents import pretrained
    from wildwest_envs.training.train import main

    run = tmp_path / "earlier"
    run.mkdir()
    (run / "model.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: no config inside
    shutil.copy(pretrained.shipped_path("way_out_west"), run / "pretrained.npz")
    with pytest.raises(SystemExit) as stop:
        main(["--game", "way_out_west", "--init-from", str(run / "model.zip"), "--run-dir", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and f"--init-from is {run / 'pretrained.npz'}" in err and "\n" not in err
