"""Per-game training presets: valid fields, registered games, and the order of precedence."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("sb3_contrib")

from wildwest_envs.training import presets  # noqa: E402
from wildwest_envs.training.train import Args, parse_args  # noqa: E402
from wildwest_envs.registry import GAMES  # noqa: E402


@pytest.mark.parametrize("game_name", sorted(presets.PRESETS))
def test_every_preset_names_a_registered_game_and_real_fields(game_name):
    """A typo in a preset would otherwise be silently ignored or crash at training time."""
    fields = {f.name: f for f in dataclasses.fields(Args)}
    assert game_name in GAMES
    for key, value in presets.PRESETS[game_name].items():
        assert key in fields and key != "game", key
        assert isinstance(value, type(fields[key].default)), (key, value)


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
