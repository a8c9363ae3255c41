"""The self-play VecEnv and a short real MaskablePPO run on every registered game."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from wildwest_envs.agents.base import RandomAgent  # noqa: E402
from tests.conftest import GAME_NAMES, random_game_length  # noqa: E402
from wildwest_envs.training.opponents import OpponentPool  # noqa: E402
from wildwest_envs.training.selfplay_env import SelfPlayVecEnv  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402


def random_learner_steps(env: SelfPlayVecEnv, n_steps: int, seed: int = 0):
    """Yield (state before, action, reward, done, info) of one-env random learner play."""
    rng = np.random.default_rng(seed)
    env.reset()
    for _ in range(n_steps):
        mask = env.action_masks()[0]
        action = int(rng.choice(np.flatnonzero(mask)))
        before = env.states.copy()
        learner = int(env.learner_seat[0])
        _, rewards, dones, infos = env.step(np.array([action]))
        yield before, learner, action, float(rewards[0]), bool(dones[0]), infos[0]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_final_reward_reaches_the_learner_when_an_opponent_ends_the_game(name):
    """A game ended by an opponent's move still gives the learner its final reward and done."""
    game = get_game(name)
    env = SelfPlayVecEnv(game, 1, OpponentPool([RandomAgent(3)]), seed=5)
    learner_steps_per_game = random_game_length(name)[0] / env.num_players
    n_steps = max(3000, int(12 * learner_steps_per_game))  # about a dozen games, whatever their length
    ended_by_opponent = ended_by_learner = 0
    for before, learner, action, reward, done, info in random_learner_steps(env, n_steps):
        after_own_move = before.copy()
        game.step(after_own_move, np.array([action]))
        if done:
            assert info["learner_seat"] == learner
            scores = np.asarray(info["scores"])[:env.num_players]
            if reward == 0.0:  # a draw (every seat ties): every seat shares the win, nobody is paid
                assert info["won"] and (scores == scores[0]).all()
            else:
                assert reward == (1.0 if info["won"] else -1.0)
            assert "terminal_observation" in info and info["episode"]["r"] == reward
            if after_own_move["done"][0]:
                ended_by_learner += 1
            else:
                ended_by_opponent += 1
        else:
            assert reward == 0.0
    assert ended_by_opponent > 0 and ended_by_learner + ended_by_opponent >= 5


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_returned_mask_row_has_a_legal_action_and_learner_is_on_turn(name):
    """Masks handed to MaskablePPO never have an all-zero row; every game waits for its learner."""
    game = get_game(name)
    env = SelfPlayVecEnv(game, 16, OpponentPool([RandomAgent(0)]), seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = env.action_masks()
        assert masks.any(axis=1).all()
        assert (env.states["current"] == env.learner_seat).all()
        assert np.stack(env.env_method("action_masks")).shape == masks.shape
        env.step(np.array([rng.choice(np.flatnonzero(row)) for row in masks]))


def test_opponent_pool_samples_by_weight_and_evicts_old_snapshots():
    """Pool sampling follows the weights; only the newest snapshots are kept."""
    pool = OpponentPool([RandomAgent(0), RandomAgent(1)], weights=[3.0, 1.0], max_snapshots=2)
    draws = pool.sample(np.random.default_rng(0), 4000)
    assert 0.70 < np.mean(draws == 0) < 0.80
    for k in range(3):
        agent = RandomAgent(10 + k)
        agent.name = f"snapshot-{k}"
        pool.add(agent)
    assert pool.names() == ["random", "random", "snapshot-1", "snapshot-2"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_maskable_ppo_learns_for_a_few_hundred_steps(name):
    """A short real ``learn()`` through the same VecEnv runs, and its policy plays legal moves."""
    from sb3_contrib import MaskablePPO

    game = get_game(name)
    env = SelfPlayVecEnv(game, 8, OpponentPool([RandomAgent(0)]), seed=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=1, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[np.arange(8), actions].all()


def test_train_script_smoke(tmp_path):
    """``python -m wildwest_envs.training.train`` with a tiny budget writes the model, logs, config and evaluation."""
    import sys
    from unittest import mock

    from wildwest_envs.training import train

    argv = ["train", "--total-timesteps", "512", "--num-envs", "8", "--n-steps", "32", "--batch-size", "64",
            "--eval-games", "12", "--snapshot-every", "256", "--checkpoint-every", "256",
            "--run-dir", str(tmp_path / "run")]
    with mock.patch.object(sys, "argv", argv):
        train.main()
    run = tmp_path / "run"
    for name in ("model.zip", "config.json", "progress.csv", "evaluation.md"):
        assert (run / name).exists(), name
    assert "win rate" in (run / "evaluation.md").read_text()
