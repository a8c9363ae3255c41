"""The single-agent view of any game (``core.selfplay``): gymnasium ``Env`` and ``VectorEnv``, no torch."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.core.selfplay import OpponentPool, SelfPlayVectorEnv, SingleAgentEnv

LOOP_GAMES = ["colt_express", "way_out_west"]  # short games (tens of learner decisions); the others are long
COLT_DRAW = 24  # Colt Express "draw 3 cards" (colt_express/data.py): legal at every player's first decision


def lowest_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A deterministic opponent given as a plain function."""
    return int(np.flatnonzero(action_mask)[0])


def play_randomly(env: SingleAgentEnv, episodes: int, seed: int = 0):
    """Yield ``(observation, reward, terminated, truncated, info)`` of every step of random legal play."""
    rng = np.random.default_rng(seed)
    for _ in range(episodes):
        observation, info = env.reset()
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            yield observation, reward, terminated, truncated, info


class SeatRecorder(RandomAgent):
    """A random agent that notes the seats it is asked to play."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.seats: set[int] = set()

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """Note the seats, then play randomly."""
        self.seats.update(int(s) for s in seats)
        return super().act_batch(observations, masks)


def test_importing_the_single_agent_envs_loads_no_torch():
    """``core.selfplay`` (and ``wildwest_envs.SingleAgentEnv``) need numpy and gymnasium only."""
    code = ("import sys, wildwest_envs, wildwest_envs.core.selfplay\n"
            "assert wildwest_envs.SingleAgentEnv is wildwest_envs.core.selfplay.SingleAgentEnv\n"
            "assert wildwest_envs.SelfPlayVectorEnv is wildwest_envs.core.selfplay.SelfPlayVectorEnv\n"
            "heavy = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'ray') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_maskable_ppo_trains_on_the_env_with_no_glue():
    """``MaskablePPO("MlpPolicy", SingleAgentEnv(...))`` learns a few hundred steps and predicts legal actions."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        env = SingleAgentEnv("colt_express", [RandomAgent(0), RandomAgent(1)], seed=0, num_players=3)
        model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
        model.learn(total_timesteps=256)
        assert model.num_timesteps >= 256
        observation, _ = env.reset(seed=1)
        action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        env.step(action)  # what predict returns (a 0-d array) is a valid action
    finally:
        torch.set_num_threads(threads)


def test_gymnasium_check_env_passes():
    """Gymnasium's ``check_env`` on a seeded Colt Express env with deterministic opponents and ansi rendering.

    Two game-specific adjustments: ``check_env`` steps with an unmasked ``action_space.sample()``, which in a board
    game is almost always illegal and refused (STYLE.md §8), so the sampler returns Colt Express's "draw 3 cards",
    legal at each player's first decision (the only positions ``check_env`` steps from); and it replays a seed
    expecting the same step, which needs opponents without generators of their own (``reset`` does not reseed
    them). Expected warnings: the observation ``Box`` is unbounded (the layout mixes counts, flags and scaled
    values), and the env has no gymnasium ``spec`` (it is built directly, not through ``gymnasium.make``).
    """
    from gymnasium.utils.env_checker import check_env

    env = SingleAgentEnv("colt_express", lowest_legal, seed=1, render_mode="ansi", num_players=3)
    env.action_space.sample = lambda mask=None, probability=None: COLT_DRAW
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(infinity|not having a spec).*")
        check_env(env)


@pytest.mark.parametrize("reward_mode", ["win", "rank"])
@pytest.mark.parametrize("name", LOOP_GAMES)
def test_random_play_ends_every_game_with_the_learner_on_turn(name, reward_mode):
    """Every returned observation waits for the learner; each game ends with a reward in [-1, 1] and a result,
    also when an opponent's move ended it."""
    env = SingleAgentEnv(name, [RandomAgent(1), RandomAgent(2)], seed=3, reward_mode=reward_mode, num_players=3)
    endings = ended_by_opponent = 0
    rng = np.random.default_rng(0)
    observation, info = env.reset()
    while endings < 12:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        after_own_move = env.batch.states.copy()
        env.game.step(after_own_move, np.array([action]))
        observation, reward, terminated, truncated, info = env.step(action)
        ended_by_opponent += (terminated or truncated) and not env.game.finished(after_own_move)[0]
        assert observation.dtype == np.float32 and observation in env.observation_space
        if terminated or truncated:
            endings += 1
            assert terminated != truncated and -1.0 <= reward <= 1.0
            assert len(info["scores"]) == 3 and isinstance(info["won"], bool)
            assert not env.action_masks().any()
            if reward_mode == "win" and terminated:
                assert reward in (-1.0, 0.0, 1.0) and (reward == 1.0) <= info["won"]
            with pytest.raises(RuntimeError, match="reset"):
                env.step(0)
            observation, info = env.reset()
            assert int(env.batch.states[0]["current"]) == info["seat"] and info["action_mask"].any()
        else:
            assert reward == 0.0 and "scores" not in info
            assert int(env.batch.states[0]["current"]) == info["seat"]
            assert info["action_mask"].dtype == bool and info["action_mask"].any()
            assert (env.action_masks() == info["action_mask"]).all()
    assert ended_by_opponent > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_few_steps_of_every_game(name):
    """Each registered game resets and steps as a single-agent env (long games: only a few steps)."""
    env = SingleAgentEnv(name, RandomAgent(0), seed=0)
    observation, info = env.reset()
    assert observation in env.observation_space and env.action_space.n == env.game.n_actions
    rng = np.random.default_rng(0)
    for _ in range(10):
        observation, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        assert observation in env.observation_space and reward == 0.0 and not (terminated or truncated)
        assert int(env.batch.states[0]["current"]) == info["seat"]


def test_callables_and_act_only_objects_play_as_opponents():
    """Plain functions and objects with only ``act`` are opponents; an illegal choice names the culprit."""
    calls = []

    def counting(observation, action_mask):
        calls.append(action_mask.copy())
        return lowest_legal(observation, action_mask)

    class ActOnly:
        name = "act-only"

        def act(self, observation, action_mask):
            return np.int64(np.flatnonzero(action_mask)[-1])

    env = SingleAgentEnv("colt_express", [counting, ActOnly()], seed=0, num_players=3)
    assert sum(1 for _ in play_randomly(env, episodes=2)) > 0
    assert calls and all(mask.any() for mask in calls)

    def cheat(observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])

    with pytest.raises(ValueError, match="cheat.*illegal"):
        for _ in play_randomly(SingleAgentEnv("colt_express", cheat, seed=0, num_players=3), episodes=1):
            pass


def test_fixed_seat_and_seated_opponents_versus_random_seats():
    """``seat=k`` keeps the learner in seat k, ``opponents[i]`` ``i + 1`` seats after it; ``None`` varies the seat."""
    left, right = SeatRecorder(0), SeatRecorder(1)
    env = SingleAgentEnv("colt_express", [left, right], seat=2, seed=0, num_players=3)
    seats = {info["seat"] for *_, info in play_randomly(env, episodes=4)}
    assert seats == {2} and left.seats == {0} and right.seats == {1}
    env = SingleAgentEnv("colt_express", OpponentPool([RandomAgent(0)]), seed=0, num_players=3)
    assert len({env.reset()[1]["seat"] for _ in range(20)}) == 3


def trajectory(env: SingleAgentEnv, seed: int | None, steps: int = 120) -> list:
    """Observations, rewards and ends of ``steps`` random learner steps after ``reset(seed=seed)``."""
    rng = np.random.default_rng(0)
    observation, info = env.reset(seed=seed)
    out = [observation.copy(), info["seat"]]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        out += [observation.copy(), reward, terminated, truncated]
        if terminated or truncated:
            observation, info = env.reset()
            out += [observation.copy(), info["seat"]]
    return out


def same(a: list, b: list) -> bool:
    """Element-wise equality of two trajectories."""
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("name", LOOP_GAMES)
def test_the_same_seed_replays_the_same_trajectory(name):
    """Same seed, same games, seats and results (across automatic next games); another seed, other games."""
    def build():
        return SingleAgentEnv(name, [lowest_legal, RandomAgent(5)], seed=9, num_players=3)

    env = build()
    first = trajectory(env, seed=4)
    assert same(first, trajectory(build(), seed=4))  # fresh opponents built from the same seeds
    assert same(trajectory(build(), seed=None), trajectory(build(), seed=None))  # the constructor's run seed
    assert not same(first, trajectory(build(), seed=5))
    assert same(trajectory(SingleAgentEnv(name, lowest_legal, num_players=3), seed=4)[:60],
                trajectory(SingleAgentEnv(name, lowest_legal, num_players=3), seed=4)[:60])


def test_an_illegal_or_malformed_action_is_refused_and_changes_nothing():
    """Out of range, illegal, float or bool actions raise ``ValueError``; numpy integers and 0-d arrays play."""
    env = SingleAgentEnv("colt_express", lowest_legal, seed=0, num_players=3)
    _, info = env.reset()
    before, mask = env.batch.states.copy(), env.action_masks()
    illegal = int(np.flatnonzero(~mask)[0])
    for action, match in [(illegal, "illegal action"), (env.game.n_actions, "out of range"), (-1, "out of range"),
                          (1.0, "integer"), (True, "integer"), (np.array([0]), "integer")]:
        with pytest.raises(ValueError, match=match):
            env.step(action)
        assert env.batch.states.tobytes() == before.tobytes() and (env.action_masks() == mask).all()
    legal = np.flatnonzero(mask)[0]
    env.step(np.array(legal))
    env.reset(seed=0)
    env.step(np.int32(legal))


def test_arguments_are_validated_with_clear_errors():
    """Wrong opponent counts, seats, options, reward modes and reset options are refused when given."""
    with pytest.raises(ValueError, match="3 opponents given for the 2 other seats"):
        SingleAgentEnv("colt_express", [lowest_legal] * 3, num_players=3)
    for seat in (3, -1, True, "0"):
        with pytest.raises(ValueError, match="seat must be"):
            SingleAgentEnv("colt_express", lowest_legal, seat=seat, num_players=3)
    with pytest.raises(ValueError, match="reward_mode"):
        SingleAgentEnv("colt_express", lowest_legal, reward_mode="wins")
    with pytest.raises(ValueError):
        SingleAgentEnv("colt_express", lowest_legal, num_player=3)
    with pytest.raises(TypeError, match="opponent"):
        SingleAgentEnv("colt_express", [lowest_legal, 42], num_players=3)
    with pytest.raises(ValueError, match="unknown game"):
        SingleAgentEnv("poker", lowest_legal)
    env = SingleAgentEnv("colt_express", lowest_legal, num_players=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"num_players": 4})
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed=1.5)


@pytest.mark.parametrize("name", LOOP_GAMES)
def test_vector_env_autoresets_in_the_same_step(name):
    """A finished game is replaced at once: fresh observation, the old one in ``final_obs``; masks never empty."""
    env = SelfPlayVectorEnv(name, 6, [RandomAgent(0), lowest_legal], seed=2, num_players=3)
    assert env.metadata["autoreset_mode"].value == "SameStep"
    assert env.single_action_space.n == env.game.n_actions and env.action_space.shape == (6,)
    observations, infos = env.reset(seed=2)
    assert observations in env.observation_space and (infos["action_mask"] == env.action_masks()).all()
    rng, endings = np.random.default_rng(0), 0
    for _ in range(250):
        masks = env.action_masks()
        assert masks.shape == (6, env.game.n_actions) and masks.any(axis=1).all()
        assert (env.batch.states["current"] == env.batch.learner_seat).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, terminated, truncated, infos = env.step(actions)
        ended = terminated | truncated
        assert (rewards[~ended] == 0).all() and (np.abs(rewards) <= 1).all()
        if ended.any():
            endings += int(ended.sum())
            assert (infos["_final_obs"] == ended).all() and (infos["final_info"]["_won"] == ended).all()
            for b in np.flatnonzero(ended):
                assert infos["final_obs"][b].shape == observations[b].shape
                assert not np.array_equal(infos["final_obs"][b], observations[b])
    assert endings >= 6
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([int(np.flatnonzero(~row)[0]) for row in env.action_masks()]))
