"""The RLlib adapter (training.rllib_env), its RLModules and the RLlib policy agent, on every registered game.

No Ray cluster is started here: RLlib's env runners are built in this process.
"""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")

import torch  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner  # noqa: E402

from wildwest_envs.agents.registry import make_agent  # noqa: E402
from wildwest_envs.agents.rllib_policy import RLlibPolicyAgent  # noqa: E402
from tests.conftest import GAME_NAMES, random_game_length  # noqa: E402
from wildwest_envs.training.rllib_env import (  # noqa: E402
    MASK_KEY, OBS_KEY, BatchedMultiAgentEnvRunner, BatchedTurnBasedVectorEnv, TurnBasedGameEnv, observation_space)
from wildwest_envs.training.rllib_module import ActionMaskingPPOModule, FrozenAgentModule, mask_logits  # noqa: E402
from wildwest_envs.core.rng import game_seed  # noqa: E402
from wildwest_envs.registry import get_game, make  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():
    """Small forward passes are many times slower with a second torch thread on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


LONG_GAME = 1000  # mean random-game decisions above which the RLlib episode test samples one game, not two


def legal_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal action of a float mask."""
    return int(rng.choice(np.flatnonzero(mask > 0)))


def masking_module(game, hidden=(32,)) -> ActionMaskingPPOModule:
    """An untrained masking PPO module for ``game``."""
    return ActionMaskingPPOModule(observation_space=observation_space(game), action_space=gym.spaces.Discrete(
        game.n_actions), model_config={"fcnet_hiddens": list(hidden), "fcnet_activation": "relu"})


# ---- the library stays free of ray ---------------------------------------------------------------
def test_importing_the_library_and_every_game_never_imports_ray():
    """``wildwest_envs`` (every registered game, its vector env and AEC env) loads no ray module."""
    code = ("import sys, wildwest_envs, wildwest_envs.core.vector\n"
            "for name in wildwest_envs.GAMES: wildwest_envs.make(name)\n"
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---- the turn-based adapter -----------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("reward_mode", ["win", "score"])
def test_final_rewards_reach_every_seat_as_in_the_pettingzoo_env(name, reward_mode):
    """Only the acting seat observes until the end; then every seat (movers or not) gets its final reward.

    The same seeded games are played through the PettingZoo AEC env with the same actions:
    each seat's summed RLlib rewards equal its summed PettingZoo rewards, and the
    observations and masks are the AEC env's ones under RLlib's key names.
    """
    env = TurnBasedGameEnv({"game": name, "reward_mode": reward_mode})
    aec = make(name, reward_mode=reward_mode)
    rng = np.random.default_rng(11)
    finals_without_last_move = 0
    for k in range(3):
        obs, _ = env.reset(seed=40 + k)
        aec.reset(seed=40 + k)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        aec_totals = dict.fromkeys(env.possible_agents, 0.0)
        while True:
            (agent, seat_obs), = obs.items()  # exactly one seat observes before the end
            assert agent == aec.agent_selection
            expected = aec.observe(agent)
            np.testing.assert_array_equal(seat_obs[OBS_KEY], expected["observation"])
            np.testing.assert_array_equal(seat_obs[MASK_KEY], expected["action_mask"].astype(np.float32))
            action = legal_choice(rng, seat_obs[MASK_KEY])
            obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
            aec.step(action)
            for a in env.possible_agents:
                aec_totals[a] += aec.rewards[a]
            for a, r in rewards.items():
                totals[a] += r
            if terminateds["__all__"] or truncateds["__all__"]:
                break
            assert rewards == {agent: 0.0}
        assert set(obs) == set(rewards) == set(infos) == set(env.possible_agents)
        assert all(terminateds[a] == terminateds["__all__"] and truncateds[a] == truncateds["__all__"]
                   for a in env.possible_agents)
        assert all(aec.terminations[a] or aec.truncations[a] for a in env.possible_agents)
        assert terminateds["__all__"] == all(aec.terminations.values())
        assert totals == pytest.approx(aec_totals)
        finals_without_last_move += sum(abs(rewards[a]) > 0 for a in env.possible_agents if a != agent)
    assert finals_without_last_move > 0  # seats that did not make the last move were paid at the end


# the batched runner on every game; RLlib's own loop over single-game envs on the first (the env-level
# test above covers the single-game env on every game, and long games keep every observation in memory)
RUNNER_CASES = [(name, BatchedMultiAgentEnvRunner) for name in GAME_NAMES] + [(GAME_NAMES[0], MultiAgentEnvRunner)]


@pytest.mark.parametrize(("name", "runner_class"), RUNNER_CASES, ids=[f"{n}-{c.__name__}" for n, c in RUNNER_CASES])
def test_rllib_episodes_credit_each_seat_its_final_score(name, runner_class):
    """Through RLlib's own episodes: each seat's return is its final score, paid on its last action.

    ``reward_mode="score"`` gives every seat a different final reward, so a reward sent to
    the wrong seat (or lost because the seat did not move last) shows.
    """
    game = get_game(name)
    n_episodes = 2 if random_game_length(name)[0] <= LONG_GAME else 1  # every observation stays in memory
    config = (PPOConfig().environment(TurnBasedGameEnv, env_config={"game": name, "reward_mode": "score"},
                                      disable_env_checking=True)
              .env_runners(num_env_runners=0, num_envs_per_env_runner=n_episodes)
              .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
              .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
                  module_class=ActionMaskingPPOModule, model_config={"fcnet_hiddens": [16]})}))
              .debugging(seed=3))
    runner = runner_class(config=config)
    try:
        episodes = [e for e in runner.sample(num_episodes=n_episodes, random_actions=False) if e.is_done]
    finally:
        runner.stop()
    assert len(episodes) >= n_episodes
    for episode in episodes:
        agent_steps = 0
        for agent, seat_episode in episode.agent_episodes.items():
            info = seat_episode.get_infos(-1)
            rewards = np.asarray(seat_episode.get_rewards())
            assert seat_episode.get_return() == pytest.approx(info["score"] / game.score_scale, abs=1e-6)
            assert np.all(rewards[:-1] == 0)  # the result is paid on the seat's last action only
            assert seat_episode.is_terminated or seat_episode.is_truncated
            agent_steps += len(seat_episode)
        assert agent_steps == len(episode)  # one seat acts per env step


@pytest.mark.parametrize("name", GAME_NAMES)
def test_batched_env_deals_the_run_in_order_and_autoresets_on_the_next_step(name):
    """Slot ``b`` starts with game ``b`` of the run; a slot whose game ended gets the next game one step later."""
    game = get_game(name)
    num_envs, seed = 3, 9
    env = BatchedTurnBasedVectorEnv({"game": name, "max_decisions": 12}, num_envs)  # short games: truncation
    obs, infos = env.reset(seed=seed)
    assert len(obs) == len(infos) == num_envs
    for b in range(num_envs):
        first = game.init(np.array([game_seed(seed, b)], np.uint64))
        (agent, seat_obs), = obs[b].items()
        assert agent == f"player_{int(first['current'][0])}"
        np.testing.assert_array_equal(seat_obs[OBS_KEY], game.observe(first)[0])
    rng = np.random.default_rng(0)
    ended = np.zeros(num_envs, dtype=bool)
    next_game = num_envs
    for _ in range(13):
        actions = [{a: legal_choice(rng, o[MASK_KEY]) for a, o in obs[b].items()} if not ended[b] else {}
                   for b in range(num_envs)]
        obs, rewards, terminateds, truncateds, _ = env.step(actions)
        fresh = ended.copy()
        ended = np.array([t["__all__"] or u["__all__"] for t, u in zip(terminateds, truncateds)])
        for b in np.flatnonzero(fresh):  # dealt this step: the next games of the run, in slot order
            assert rewards[b] == dict.fromkeys(env.games.agents, 0.0) and not terminateds[b]["__all__"]
            (agent, seat_obs), = obs[b].items()
            dealt = game.init(np.array([game_seed(seed, next_game)], np.uint64))
            np.testing.assert_array_equal(seat_obs[OBS_KEY], game.observe(dealt)[0])
            next_game += 1
    assert next_game == env.games.dealer.next_game == 2 * num_envs  # every slot truncated at 12 decisions, dealt again


@pytest.mark.parametrize("name", GAME_NAMES)
def test_illegal_or_misaddressed_actions_raise_and_change_nothing(name):
    """An illegal action, or an action for a seat not on turn, is a ValueError; the game is untouched."""
    env = TurnBasedGameEnv({"game": name})
    obs, _ = env.reset(seed=1)
    (agent, seat_obs), = obs.items()
    before = env.games.states.copy()
    illegal = int(np.flatnonzero(seat_obs[MASK_KEY] == 0)[0])
    with pytest.raises(ValueError, match="illegal"):
        env.step({agent: illegal})
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match="expected an action for"):
        env.step({other: legal_choice(np.random.default_rng(0), seat_obs[MASK_KEY])})
    assert env.games.states.tobytes() == before.tobytes()
    batched = BatchedTurnBasedVectorEnv({"game": name}, 2)
    obs, _ = batched.reset(seed=1)
    states = batched.games.states.copy()
    with pytest.raises(ValueError, match="illegal"):
        batched.step([{a: int(np.flatnonzero(o[MASK_KEY] == 0)[0]) for a, o in ob.items()} for ob in obs])
    assert batched.games.states.tobytes() == states.tobytes()


def test_bad_env_config_is_a_clear_error():
    """No game, an unknown game, reward mode or option: ValueError naming it."""
    with pytest.raises(ValueError, match="game"):
        TurnBasedGameEnv({})
    with pytest.raises(ValueError, match="unknown game"):
        TurnBasedGameEnv({"game": "chess"})
    with pytest.raises(ValueError, match="reward_mode"):
        TurnBasedGameEnv({"game": GAME_NAMES[0], "reward_mode": "money"})
    with pytest.raises((ValueError, TypeError)):
        TurnBasedGameEnv({"game": GAME_NAMES[0], "no_such_option": 1})


# ---- the RLModules ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_masking_module_never_samples_or_trains_on_illegal_actions(name):
    """Exploration samples, greedy actions and the training distribution give illegal actions probability 0."""
    game = get_game(name)
    torch.manual_seed(0)
    module = masking_module(game)
    rng = np.random.default_rng(0)
    n = 64
    masks = (rng.random((n, game.n_actions)) < 0.05).astype(np.float32)
    masks[np.arange(n), rng.integers(game.n_actions, size=n)] = 1.0  # at least one legal action per row
    obs = {OBS_KEY: torch.from_numpy(rng.normal(size=(n, game.obs_size)).astype(np.float32)) * 10,
           MASK_KEY: torch.from_numpy(masks)}
    legal = torch.from_numpy(masks > 0)
    for forward in (module.forward_exploration, module.forward_inference):
        logits = forward({Columns.OBS: dict(obs)})[Columns.ACTION_DIST_INPUTS]
        dist = TorchCategorical(logits=logits)
        samples = torch.stack([dist.sample() for _ in range(50)])
        assert legal.gather(1, samples.T).all()
        assert legal[torch.arange(n), logits.argmax(dim=1)].all()
    train_out = module.forward_train({Columns.OBS: dict(obs)})
    train_dist = TorchCategorical(logits=train_out[Columns.ACTION_DIST_INPUTS])
    assert torch.isfinite(train_dist.entropy()).all()
    assert (train_dist.logp(torch.arange(game.n_actions)[None].expand(n, -1).T).T[~legal] < -1e30).all()
    values = module.compute_values({Columns.OBS: dict(obs)})
    assert values.shape == (n,) and torch.isfinite(values).all()


def test_rows_without_a_legal_action_get_finite_uniform_logits():
    """A finished seat's last observation (all-zero mask) gives uniform logits, not NaN."""
    logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    out = mask_logits(logits, torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    assert out[0].argmax() == 1 and out[0, 0] < -1e30
    assert torch.equal(out[1], torch.zeros(3))


def test_masking_module_refuses_an_observation_without_mask():
    """A plain Box observation space is refused with the key names it needs."""
    game = get_game(GAME_NAMES[0])
    with pytest.raises(ValueError, match="action_mask"):
        ActionMaskingPPOModule(observation_space=gym.spaces.Box(0, 1, (game.obs_size,)),
                               action_space=gym.spaces.Discrete(game.n_actions), model_config={})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_frozen_agent_module_plays_its_agents_legal_actions(name):
    """A frozen ``random`` opponent module returns legal actions; agents that need the state are refused."""
    game = get_game(name)
    space, actions = observation_space(game), gym.spaces.Discrete(game.n_actions)
    module = FrozenAgentModule(observation_space=space, action_space=actions,
                               model_config={"agent": "random", "game": name, "seed": 1})
    states = game.init_batch(8, seed=2)
    masks = game.legal_mask(states).astype(np.float32)
    out = module.forward_exploration({Columns.OBS: {OBS_KEY: torch.from_numpy(game.observe(states)),
                                                   MASK_KEY: torch.from_numpy(masks)}})
    assert (masks[np.arange(8), out[Columns.ACTIONS]] == 1).all()
    with pytest.raises(ValueError, match="needs the game state"):
        FrozenAgentModule(observation_space=space, action_space=actions, model_config={"agent": "mcts", "game": name})


# ---- the RLlib policy agent ------------------------------------------------------------------------------
def test_rllib_policy_agent_loads_a_module_checkpoint_and_plays_its_greedy_legal_action(tmp_path):
    """``rllib:<path>`` loads a saved RLModule; greedy play is the masked argmax; the game is checked."""
    name = GAME_NAMES[0]
    game = get_game(name)
    torch.manual_seed(1)
    module = masking_module(game)
    module.save_to_path(str(tmp_path / "run" / "module"))
    (tmp_path / "run" / "config.json").write_text(json.dumps({"game": name, "num_players": 3}))
    agent = make_agent(f"rllib:{tmp_path / 'run' / 'module'}", name, seed=4)
    assert isinstance(agent, RLlibPolicyAgent) and agent.config["game"] == name
    states = game.init_batch(16, seed=3)
    obs, masks = game.observe(states), game.legal_mask(states)
    actions = agent.act_batch(obs, masks)
    assert (masks[np.arange(16), actions] == 1).all()
    logits = module.forward_inference({Columns.OBS: {OBS_KEY: torch.from_numpy(obs),
                                                     MASK_KEY: torch.from_numpy(masks.astype(np.float32))}})
    np.testing.assert_array_equal(actions, logits[Columns.ACTION_DIST_INPUTS].argmax(dim=1).numpy())
    sampler = make_agent(f"rllib:{tmp_path / 'run' / 'module'}", name, seed=4, deterministic=False)
    assert (masks[np.arange(16), sampler.act_batch(obs, masks)] == 1).all()
    (tmp_path / "run" / "config.json").write_text(json.dumps({"game": "not_this_game_v0"}))
    with pytest.raises(ValueError):
        make_agent(f"rllib:{tmp_path / 'run' / 'module'}", name)
    with pytest.raises(FileNotFoundError, match="no RLlib checkpoint"):
        make_agent(f"rllib:{tmp_path / 'nothing'}", name)
