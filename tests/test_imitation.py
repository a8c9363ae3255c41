"""The imitation warm start: demonstrations, discounting, and behaviour cloning that learns."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from wildwest_envs.agents.base import BatchAgent, RandomAgent  # noqa: E402
from wildwest_envs.training.imitation import _later_decisions, collect_demonstrations, pretrain_policy  # noqa: E402
from wildwest_envs.training.opponents import OpponentPool  # noqa: E402
from wildwest_envs.training.selfplay_env import SelfPlayVecEnv  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402


class LowestLegalAgent(BatchAgent):
    """A deterministic teacher: always the lowest legal action id."""

    name = "lowest"

    def act_batch(self, observations, masks, states=None, seats=None):
        return np.argmax(np.asarray(masks) > 0, axis=1)


def test_later_decisions_counts_the_same_seats_remaining_moves_in_the_same_game():
    """Discount exponents: game 0 seat 1 decides at rows 0, 2, 3; game 1 seat 1 at row 1."""
    games = np.array([0, 1, 0, 0, 0])
    seats = np.array([1, 1, 1, 1, 0])
    assert _later_decisions(games, seats, max_players=2).tolist() == [2, 0, 1, 0, 0]


def test_demonstrations_are_reproducible_and_discount_the_final_reward():
    """Same seed, same demonstrations; returns are ±gamma**k of the acting seat's result (win mode)."""
    game = get_game("colt_express")
    first = collect_demonstrations(game, LowestLegalAgent(), 400, seed=3, gamma=0.9, progress=False,
                                   batch_games=4, num_players=3)
    again = collect_demonstrations(game, LowestLegalAgent(), 400, seed=3, gamma=0.9, progress=False,
                                   batch_games=4, num_players=3)
    assert len(first) == 400
    assert np.array_equal(first.actions, again.actions) and np.array_equal(first.observations, again.observations)
    assert first.masks[np.arange(400), first.actions].all()  # the teacher's actions were legal
    exponents = np.log(np.abs(first.returns)) / np.log(0.9)
    assert np.allclose(exponents, np.rint(exponents), atol=1e-3)  # |return| = 0.9 ** k
    assert {1.0, -1.0} <= set(np.sign(first.returns).tolist())


@pytest.fixture
def one_torch_thread():
    """A tiny network gains nothing from threads, which only spin (badly so on a busy machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_behaviour_cloning_copies_a_deterministic_teacher(one_torch_thread):
    """After pretraining, the greedy policy agrees with the teacher far above a random policy."""
    from sb3_contrib import MaskablePPO

    game = get_game("colt_express")
    demos = collect_demonstrations(game, LowestLegalAgent(), 3000, seed=1, gamma=0.99, progress=False,
                                   batch_games=16, num_players=3)
    env = SelfPlayVecEnv(game, 2, OpponentPool([RandomAgent(0)]), seed=0, num_players=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, policy_kwargs={"net_arch": [64]}, seed=0,
                        device="cpu")
    before = pretrain_policy(model, demos, epochs=0, progress=False)
    after = pretrain_policy(model, demos, epochs=8, batch_size=256, learning_rate=3e-3, progress=False)
    assert after["accuracy"] > 0.9 > before["accuracy"] + 0.3
    assert after["cross_entropy"] < before["cross_entropy"]
