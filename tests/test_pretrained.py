"""Shipped networks (``agents.pretrained``): round trip, refusals, the shipped files, and the guided search."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402

from tests.conftest import GAME_NAMES  # noqa: E402
from wildwest_envs.agents import pretrained  # noqa: E402
from wildwest_envs.agents.guided_search import GuidedSearchAgent, Lookahead  # noqa: E402
from wildwest_envs.agents.policy import UnsafeCheckpointError  # noqa: E402
from wildwest_envs.agents.registry import make_agent  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402

GAME = "colt_express_v0"


def _small_policy(game_name: str = GAME, seed: int = 0) -> MaskableActorCriticPolicy:
    game = get_game(game_name)
    torch.manual_seed(seed)
    return MaskableActorCriticPolicy(spaces.Box(-np.inf, np.inf, (game.obs_size,), np.float32),
                                     spaces.Discrete(game.n_actions), lambda _: 0.0, net_arch=[16, 8])


def _positions(game_name: str, n: int, seed: int = 0, steps: int = 7) -> np.ndarray:
    """``n`` positions reached by a few random legal moves from fresh deals."""
    game = get_game(game_name)
    states = game.init_batch(n, seed=seed, num_players=3)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        live = ~game.finished(states)
        masks = game.legal_mask(states)
        actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1), axis=1)
        actions[~live] = 0
        sub = states[live]
        game.step(sub, actions[live], check=False)
        states[live] = sub
    return states[~game.finished(states)]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A small network of Colt Express written as a pretrained file, and the network itself."""
    policy = _small_policy()
    path = pretrained.export_pretrained(policy, tmp_path_factory.mktemp("pre") / "ce.npz", GAME, 3,
                                        net_arch=[16, 8], recipe="test")
    return path, policy


def test_round_trip_gives_the_same_network_and_config(exported):
    path, policy = exported
    agent = pretrained.load_pretrained(path, "colt_express", 3)
    assert agent.config["game"] == GAME and agent.config["num_players"] == 3 and agent.config["recipe"] == "test"
    assert agent.config["obs_size"] == get_game(GAME).obs_size and agent.config["dtype"] == "float32"
    for key, value in policy.state_dict().items():
        assert torch.equal(agent.policy.state_dict()[key], value), key
    states = _positions(GAME, 8)
    obs, masks = get_game(GAME).observe(states), get_game(GAME).legal_mask(states)
    expected, _ = policy.predict(obs, deterministic=True, action_masks=masks.astype(bool))
    assert (agent.act_batch(obs, masks) == expected).all()


def test_make_agent_loads_a_file_and_checks_the_player_count(exported):
    path, _ = exported
    assert make_agent(f"pretrained:{path}", "colt_express", num_players=3).name == f"pretrained:{path}"
    with pytest.raises(ValueError, match="trained for 3 players, not 4"):
        make_agent(f"pretrained:{path}", "colt_express", num_players=4)


@pytest.mark.parametrize("other", ["way_out_west", "rail"])
def test_a_file_of_another_game_is_refused(exported, other):
    path, _ = exported
    with pytest.raises(UnsafeCheckpointError, match="trained on colt_express_v0"):
        pretrained.load_pretrained(path, other, 3)


def _rewrite(path, out, config_change=None, arrays_change=None):
    """A copy of ``path`` with its config and arrays edited."""
    with np.load(path, allow_pickle=False) as data:
        members = {k: data[k] for k in data.files}
    config = json.loads(members.pop("config").tobytes())
    if config_change:
        config_change(config)
    if arrays_change:
        arrays_change(members)
    with open(out, "wb") as f:
        np.savez(f, config=np.frombuffer(json.dumps(config).encode(), np.uint8), **members)
    return out


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.update(obs_size=c["obs_size"] + 1), "observations of size"),
    (lambda c: c.update(format="other/9"), "format"),
    (lambda c: c.update(network="transformer"), "unknown network"),
    (lambda c: c.update(num_players="3"), "num_players"),
    (lambda c: c.pop("game"), "'game'"),
    (lambda c: c.update(game="chess"), "not a registered game"),
    (lambda c: c.update(net_arch=[16]), "not the network's|shape"),
    (lambda c: c.update(reward_mode="elo"), "reward_mode"),
])
def test_a_config_that_does_not_fit_is_refused(exported, tmp_path, edit, message):
    path, _ = exported
    bad = _rewrite(path, tmp_path / "bad.npz", config_change=edit)
    with pytest.raises(UnsafeCheckpointError, match=message):
        pretrained.load_pretrained(bad, "colt_express", 3)


def _poison(members):
    key = next(k for k in members if members[k].dtype.kind == "f")
    members[key] = members[key].copy()
    members[key].flat[0] = np.nan


@pytest.mark.parametrize("edit, message", [
    (_poison, "NaN"),
    (lambda m: m.update({"extra": np.zeros(3)}), "unexpected members"),
    (lambda m: m.pop(next(iter(m))), "missing"),
])
def test_weights_that_do_not_fit_are_refused(exported, tmp_path, edit, message):
    path, _ = exported
    bad = _rewrite(path, tmp_path / "bad.npz", arrays_change=edit)
    with pytest.raises(UnsafeCheckpointError, match=message):
        pretrained.load_pretrained(bad, "colt_express", 3)


def test_corrupt_truncated_and_foreign_files_are_refused(exported, tmp_path):
    path, _ = exported
    data = path.read_bytes()
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xFF  # inside a compressed member: its CRC (or inflate) fails
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(bytes(flipped))
    foreign = tmp_path / "foreign.npz"
    foreign.write_text("not a zip at all")
    for bad in (truncated, corrupt, foreign):
        with pytest.raises(UnsafeCheckpointError):
            pretrained.load_pretrained(bad, "colt_express", 3)
    with pytest.raises(FileNotFoundError):
        pretrained.load_pretrained(tmp_path / "missing.npz")


def test_pickled_arrays_are_refused_and_never_run(exported, tmp_path):
    """An object array would need unpickling: ``allow_pickle=False`` refuses it before any code runs."""
    path, _ = exported
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (marker.touch, ())

    bad = _rewrite(path, tmp_path / "bad.npz", arrays_change=lambda m: m.update(
        {"w:evil": np.array([Payload()], dtype=object)}))
    with pytest.raises(UnsafeCheckpointError):
        pretrained.load_pretrained(bad)
    assert not marker.exists()


def test_large_networks_are_stored_as_float16_and_load_back(tmp_path, monkeypatch):
    monkeypatch.setattr(pretrained, "MAX_BYTES", 1000)
    policy = _small_policy()
    path = pretrained.export_pretrained(policy, tmp_path / "half.npz", GAME, 3, net_arch=[16, 8])
    agent = pretrained.load_pretrained(path, GAME, 3)
    assert agent.config["dtype"] == "float16"
    for key, value in policy.state_dict().items():
        assert torch.allclose(agent.policy.state_dict()[key], value, atol=1e-2, rtol=1e-2), key


def test_no_shipped_network_for_another_player_count():
    with pytest.raises(ValueError, match="no pretrained network ships for colt_express_v0 at 5 players"):
        make_agent("pretrained", "colt_express", num_players=5)


# ---- the shipped files -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_every_game_ships_a_small_network_that_plays_legal_moves(game_name):
    path = pretrained.shipped_path(game_name, 3)
    assert path.is_file(), f"no shipped network for {game_name}"
    assert path.stat().st_size <= pretrained.MAX_BYTES
    agent = make_agent("pretrained", game_name, num_players=3)
    assert agent.name == "pretrained" and agent.config["game"] == game_name and agent.config["recipe"]
    game = get_game(game_name)
    states = _positions(game_name, 16, seed=3)
    for _ in range(40):  # legal moves all along: the agent plays every seat for a while
        live = ~game.finished(states)
        if not live.any():
            break
        sub = states[live]
        masks = game.legal_mask(sub)
        actions = agent.act_batch(game.observe(sub), masks)
        assert masks[np.arange(len(sub)), actions].all()
        game.step(sub, actions)
        states[live] = sub


def test_the_shipped_network_is_refused_for_another_game():
    path = pretrained.shipped_path(GAME, 3)
    with pytest.raises(UnsafeCheckpointError, match="trained on colt_express_v0, not way_out_west_v0"):
        pretrained.load_pretrained(path, "way_out_west", 3)


def test_package_data_ships_the_weights():
    """``pip install`` copies the weights: pyproject's package data names the folder of every shipped file."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    patterns = data["wildwest_envs.agents"]
    package = root / "wildwest_envs" / "agents"
    listed = {p for pattern in patterns for p in package.glob(pattern)}
    assert set(pretrained.shipped_files()) <= listed and pretrained.shipped_files()


# ---- the guided search -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_guided_search_plays_legal_moves(game_name):
    agent = make_agent("mcts+pretrained:12", game_name, seed=1, num_players=3)
    assert isinstance(agent, GuidedSearchAgent) and agent.name == "mcts+pretrained:12"
    game = get_game(game_name)
    states = _positions(game_name, 3, seed=5)
    seats = game.current_player(states).astype(np.int64)
    masks = game.legal_mask(states)
    actions = agent.act_batch(game.observe(states, seats), masks, states.copy(), seats)
    assert masks[np.arange(len(states)), actions].all()


def test_guided_search_never_reads_what_the_seat_cannot_see():
    """Two positions that differ only in what the seat cannot see give the same move (same agent seed)."""
    game = get_game(GAME)
    states = _positions(GAME, 4, seed=9)
    seats = game.current_player(states).astype(np.int64)
    other = game.resample_hidden(states, seats, np.arange(len(states), dtype=np.uint64) + 77)
    assert (game.observe(states, seats) == game.observe(other, seats)).all()
    masks = game.legal_mask(states)
    first = make_agent("mcts+pretrained:24", GAME, seed=4).act_batch(None, masks, states, seats)
    second = make_agent("mcts+pretrained:24", GAME, seed=4).act_batch(None, masks, other, seats)
    assert (first == second).all()


def test_guided_search_follows_a_decisive_prior():
    """With a prior that puts everything on one legal action and flat values, the search plays it."""
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    agent = GuidedSearchAgent(game, network, simulations=16, seed=0)
    states = _positions(GAME, 1, seed=2)
    mask = game.legal_mask(states)[0]
    target = int(np.flatnonzero(mask)[-1])

    def evaluate(batch, actors, masks, **_):
        priors = np.where(np.asarray(masks) > 0, 1e-6, 0.0)
        priors[:, target] = 1.0
        return priors, np.zeros((len(batch), game.max_players))

    agent.evaluate = evaluate
    seat = int(game.current_player(states)[0])
    assert agent.search(states[0], seat, mask) == target


def test_guided_search_backs_up_the_reward_its_network_was_trained_on():
    """The shipped files name their critic's reward; the search backs up game results on that scale."""
    trained_on = {"colt_express_v0": "rank", "wild_west_express_v0": "rank", "way_out_west_v0": "win",
                  "rail_v0": "score"}  # the reward modes of their recipes (training.presets.REFERENCE)
    for game_name, mode in trained_on.items():
        assert make_agent("pretrained", game_name).config["reward_mode"] == mode
        assert make_agent("mcts+pretrained:4", game_name).reward_mode == mode
    agent = make_agent("mcts+pretrained:4", GAME)
    assert GuidedSearchAgent(get_game(GAME), agent.network, reward_mode="win").reward_mode == "win"


def test_guided_rollouts_play_random_games_to_their_end_and_return_that_result():
    game = get_game(GAME)
    agent = GuidedSearchAgent(game, make_agent("pretrained", GAME), simulations=4, seed=3, rollout_weight=0.5)
    states = _positions(GAME, 6, seed=4)
    before = states.tobytes()
    returns = agent.rollout(states)
    assert states.tobytes() == before  # played on copies
    assert returns.shape == (len(states), game.max_players)
    assert set(np.unique(returns[:, :3])) <= {-1.0, 0.0, 1.0}  # rank returns of 3 seats: -1, 0 or 1
    assert (returns[:, :3].sum(axis=1) == 0).all() and (returns[:, 3:] == 0).all()


def test_several_rollouts_per_leaf_average_the_returns_of_as_many_random_games():
    """``leaf_rollouts=k`` plays each position out k times and averages: the same as k single rollouts of copies
    of each position drawn from the same generator."""
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    states = _positions(GAME, 5, seed=8)
    averaged = GuidedSearchAgent(game, network, seed=3, rollout_weight=1.0, leaf_rollouts=3).rollout(states)
    single = GuidedSearchAgent(game, network, seed=3, rollout_weight=1.0).rollout(np.repeat(states, 3))
    assert averaged.shape == (len(states), game.max_players)
    np.testing.assert_allclose(averaged, single.reshape(len(states), 3, -1).mean(axis=1))
    assert not np.isin(averaged[:, :3], (-1.0, 0.0, 1.0)).all()  # some position's three games ended differently


def test_bad_leaf_rollouts_are_refused():
    network = make_agent("pretrained", GAME)
    with pytest.raises(ValueError, match="leaf_rollouts"):
        GuidedSearchAgent(get_game(GAME), network, leaf_rollouts=0)
    with pytest.raises(ValueError, match="greedy"):  # k copies of one deterministic game
        GuidedSearchAgent(get_game(GAME), network, rollout_policy="greedy", leaf_rollouts=2)
    assert GuidedSearchAgent(get_game(GAME), network, rollout_policy="network", leaf_rollouts=2).leaf_rollouts == 2


@pytest.mark.parametrize("weight, critic_matters", [(0.0, True), (1.0, False)])
def test_the_rollout_weight_sets_what_a_leaf_is_worth(weight, critic_matters):
    """With weight 1 a leaf is worth its rollout alone (the critic's values are never read, only its prior);
    with weight 0 it is worth the critic's value: two critics give two searches only then (flat priors)."""
    import zlib
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    states = _positions(GAME, 1, seed=6)
    mask = game.legal_mask(states)[0]
    seat = int(game.current_player(states)[0])
    assert mask.sum() > 2

    def search(critic) -> np.ndarray:
        agent = GuidedSearchAgent(game, network, simulations=48, seed=2, rollout_weight=weight)
        agent.evaluate = lambda batch, actors, masks, **_: (masks / masks.sum(axis=1, keepdims=True), critic(batch))
        root = agent._new_root(states[0], seat, mask)
        for _ in range(3):
            agent._run_wave(root, states[0], seat, 16)
        return root.visits

    def flat(batch):
        return np.zeros((len(batch), game.max_players))

    def arbitrary(batch):  # a fixed value in [-1, 1] per position and seat
        seeds = [zlib.crc32(record.tobytes()) for record in batch]
        return np.array([np.random.default_rng(s).uniform(-1, 1, game.max_players) for s in seeds])

    assert (not np.array_equal(search(flat), search(arbitrary))) == critic_matters


def test_a_small_budget_plays_the_best_prior_among_equally_visited_moves():
    """Two simulations visit two moves once each with equal values: the move is the higher prior's, not the
    lower action id's."""
    game = get_game(GAME)
    agent = GuidedSearchAgent(game, make_agent("pretrained", GAME), simulations=2, seed=0)
    states = _positions(GAME, 1, seed=2)
    mask = game.legal_mask(states)[0]
    legal = np.flatnonzero(mask)
    assert len(legal) > 2
    favourite, runner_up = int(legal[-1]), int(legal[0])

    def evaluate(batch, actors, masks, **_):
        priors = np.where(np.asarray(masks) > 0, 0.01, 0.0)
        priors[:, favourite], priors[:, runner_up] = 0.6, 0.5
        return priors, np.zeros((len(batch), game.max_players))

    agent.evaluate = evaluate
    seat = int(game.current_player(states)[0])
    assert agent.search(states[0], seat, mask) == favourite


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_the_search_reads_the_networks_own_policy_and_values(game_name):
    """``evaluate`` (the search's lean forward pass) gives the probabilities of the network's masked distribution
    (at the spec's prior temperature) and its critic's values, as ``MaskableActorCriticPolicy`` computes them."""
    game = get_game(game_name)
    agent = make_agent("mcts+pretrained:4", game_name, num_players=3)
    states = _positions(game_name, 5, seed=3)
    actors = game.current_player(states).astype(np.int64)
    masks = game.legal_mask(states)
    priors, values = agent.evaluate(states, actors, masks)
    policy = agent.network.policy
    with torch.no_grad():
        own = torch.as_tensor(game.observe(states, actors))
        log_probs = policy.get_distribution(own, action_masks=masks.astype(bool)).distribution.logits
        expected = torch.softmax(log_probs / agent.prior_temperature, dim=1).numpy()
        critic = [policy.predict_values(torch.as_tensor(game.observe(states, np.full(len(states), s)))).numpy()[:, 0]
                  for s in range(3)]
    np.testing.assert_allclose(priors, expected, atol=1e-6)
    assert (priors[masks == 0] == 0).all()
    np.testing.assert_allclose(values[:, :3], np.stack(critic, axis=1), rtol=1e-5, atol=1e-6)
    assert (values[:, 3:] == 0).all()


def test_network_rollouts_play_the_networks_policy_to_the_end():
    """With ``rollout_policy="network"`` every seat plays what the network's policy puts its weight on: a policy
    that always wants the highest legal action gives the returns of playing that action to the end."""
    game = get_game(GAME)
    agent = GuidedSearchAgent(game, make_agent("pretrained", GAME), simulations=4, seed=3, rollout_weight=1.0,
                              rollout_policy="network")

    def highest_legal(batch, actors, masks, **_):
        priors = np.zeros(np.shape(masks))
        priors[np.arange(len(masks)), [np.flatnonzero(m)[-1] for m in masks]] = 1.0
        return priors, np.zeros((len(batch), game.max_players))

    agent.evaluate = highest_legal
    states = _positions(GAME, 4, seed=8)
    before = states.tobytes()
    returns = agent.rollout(states)
    assert states.tobytes() == before  # played on copies
    played = states.copy()
    while not game.finished(played).all():
        masks = game.legal_mask(played)
        actions = np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in masks])
        game.step(played, actions)  # checked: every action legal
    np.testing.assert_array_equal(returns, game.returns(played, agent.reward_mode))
    random_agent = GuidedSearchAgent(game, agent.network, simulations=4, seed=3, rollout_weight=1.0)
    random_agent.evaluate = highest_legal
    assert not np.array_equal(random_agent.rollout(states), returns)  # random rollouts do not read the policy


def test_greedy_rollouts_play_the_networks_most_probable_action_to_the_end():
    """With ``rollout_policy="greedy"`` every seat plays the legal action the network rates highest, even where
    it is far from certain: a policy giving the highest legal action 0.4 (0.55 of two) and every other legal
    action less gives the returns of always playing the highest legal action."""
    game = get_game(GAME)
    agent = GuidedSearchAgent(game, make_agent("pretrained", GAME), simulations=4, seed=3, rollout_weight=1.0,
                              rollout_policy="greedy")

    def highest_legal_likeliest(batch, actors, masks, **_):
        priors = np.zeros(np.shape(masks))
        for row, mask in enumerate(masks):
            legal = np.flatnonzero(mask)
            top = {1: 1.0, 2: 0.55}.get(len(legal), 0.4)  # three or more: every other one at most 0.3
            priors[row, legal] = (1.0 - top) / max(len(legal) - 1, 1)
            priors[row, legal[-1]] = top
        return priors, np.zeros((len(batch), game.max_players))

    agent.evaluate = highest_legal_likeliest
    states = _positions(GAME, 4, seed=8)
    returns = agent.rollout(states)
    played = states.copy()
    while not game.finished(played).all():
        masks = game.legal_mask(played)
        game.step(played, np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in masks]))
    np.testing.assert_array_equal(returns, game.returns(played, agent.reward_mode))


def test_sampled_rollout_actions_follow_the_probabilities_and_never_an_impossible_one():
    agent = GuidedSearchAgent(get_game(GAME), make_agent("pretrained", GAME), seed=5, rollout_policy="network")
    probs = np.tile([0.0, 0.2, 0.0, 0.8, 0.0], (20_000, 1))
    chosen = agent._sample(probs)
    assert set(np.unique(chosen)) == {1, 3}
    assert abs((chosen == 3).mean() - 0.8) < 0.02  # 20,000 draws: the standard error is 0.003


def test_the_spec_rolls_out_as_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained", GAME).rollout_policy == "random"
    monkeypatch.setitem(guided_search.ROLLOUT_POLICY, GAME, "network")
    assert make_agent("mcts+pretrained", GAME).rollout_policy == "network"
    assert make_agent("mcts+pretrained", "way_out_west").rollout_policy == "random"


def test_the_spec_plays_as_many_rollouts_per_leaf_as_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained:8", GAME).leaf_rollouts == guided_search.LEAF_ROLLOUTS[GAME] > 1
    assert make_agent("mcts+pretrained", "way_out_west").leaf_rollouts == 1
    monkeypatch.setitem(guided_search.LEAF_ROLLOUTS, "way_out_west_v0", 4)
    assert make_agent("mcts+pretrained", "way_out_west").leaf_rollouts == 4


def test_the_spec_searches_by_lookahead_where_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    for game_name in ("rail_v0", "wild_west_express_v0"):
        assert make_agent("mcts+pretrained:16", game_name).lookahead == guided_search.LOOKAHEAD[game_name]
    assert make_agent("mcts+pretrained", "way_out_west").lookahead is None
    monkeypatch.setitem(guided_search.LOOKAHEAD, "way_out_west_v0", Lookahead(candidates=2))
    assert make_agent("mcts+pretrained", "way_out_west").lookahead == Lookahead(candidates=2)


def test_the_spec_flattens_the_prior_as_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained:8", GAME).prior_temperature == 4.0
    assert make_agent("mcts+pretrained", "way_out_west").prior_temperature == 1.0
    monkeypatch.setitem(guided_search.PRIOR_TEMPERATURES, "way_out_west_v0", 2.5)
    assert make_agent("mcts+pretrained", "way_out_west").prior_temperature == 2.5


def test_bad_rollout_policies_are_refused():
    with pytest.raises(ValueError, match="rollout_policy"):
        GuidedSearchAgent(get_game(GAME), make_agent("pretrained", GAME), rollout_policy="heuristic")


def test_bad_rollout_weights_are_refused():
    network = make_agent("pretrained", GAME)
    for weight in (-0.1, 1.5):
        with pytest.raises(ValueError, match="rollout_weight"):
            GuidedSearchAgent(get_game(GAME), network, rollout_weight=weight)


def test_the_prior_temperature_flattens_the_prior_and_keeps_its_order():
    """The prior is the softmax of the network's logits over the temperature: 1 is the network's policy, 3 a flatter
    one (higher entropy) that ranks the legal actions the same way; a temperature that is not positive is refused."""
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    states = _positions(GAME, 4, seed=8)
    masks = game.legal_mask(states)
    actors = game.current_player(states).astype(np.int64)
    policy = network.policy
    obs = torch.as_tensor(game.observe(states, actors))
    with torch.no_grad():
        own = policy.get_distribution(obs, action_masks=masks.astype(bool)).distribution.probs.numpy()
    sharp, _ = GuidedSearchAgent(game, network).evaluate(states, actors, masks, with_values=False)
    flat, _ = GuidedSearchAgent(game, network, prior_temperature=3.0).evaluate(states, actors, masks, with_values=False)
    np.testing.assert_allclose(sharp, own, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(flat.sum(axis=1), 1.0)
    assert (flat[masks == 0] == 0).all()

    def entropy(p):
        return -(np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)).sum(axis=1)

    assert (entropy(flat) > entropy(sharp)).all()
    for row in range(len(states)):
        legal = np.flatnonzero(masks[row])
        assert (np.argsort(-flat[row, legal], kind="stable") == np.argsort(-sharp[row, legal], kind="stable")).all()
    for temperature in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="prior_temperature"):
            GuidedSearchAgent(game, network, prior_temperature=temperature)


def test_bad_guided_specs_are_refused():
    for spec in ("mcts+pretrained:0", "mcts+pretrained:x", "mcts+pretrained:-3"):
        with pytest.raises(ValueError, match="positive integer"):
            make_agent(spec, GAME)


def test_export_command_writes_a_loadable_file(tmp_path):
    """``python -m wildwest_envs.agents.pretrained export RUN OUT`` reads a run's model.zip and config.json."""
    from sb3_contrib import MaskablePPO

    from wildwest_envs.agents.base import RandomAgent
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv

    env = SelfPlayVecEnv(get_game(GAME), 2, OpponentPool([RandomAgent(0)]), seed=0, num_players=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, policy_kwargs={"net_arch": [8]}, seed=0)
    run = tmp_path / "run"
    run.mkdir()
    model.save(run / "model.zip")
    (run / "config.json").write_text(json.dumps({"game": GAME, "num_players": 3, "net_arch": "8", "seed": 0}))
    pretrained.main(["export", str(run), str(tmp_path / "out.npz"), "--recipe", "a command"])
    agent = pretrained.load_pretrained(tmp_path / "out.npz", GAME, 3)
    assert agent.config["recipe"] == "a command" and agent.config["net_arch"] == [8]
    assert zipfile.is_zipfile(tmp_path / "out.npz")


class _HighestLegal:
    """An advisor that names the highest legal action of each row and remembers what it was handed."""

    def __init__(self):
        self.asked = []

    def act_batch(self, observations, masks, states=None, seats=None):
        self.asked.append((len(masks), states, seats))
        return np.array([np.flatnonzero(m)[-1] for m in masks])


def test_the_advisors_move_gets_its_share_of_the_root_prior():
    """``advice_weight`` w: the root prior is (1 - w) times the network's plus w on the advisor's move."""
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    states = _positions(GAME, 4, seed=4)
    masks, seats = game.legal_mask(states), game.current_player(states)
    plain = GuidedSearchAgent(game, network, simulations=4, seed=1)
    advised = GuidedSearchAgent(game, network, simulations=4, seed=1, advisor=_HighestLegal(), advice_weight=0.3)
    for i in range(len(states)):
        move = int(np.flatnonzero(masks[i])[-1])
        advised._advised = move
        prior = plain._new_root(states[i], int(seats[i]), masks[i]).prior
        expected = 0.7 * prior
        expected[move] += 0.3
        np.testing.assert_allclose(advised._new_root(states[i], int(seats[i]), masks[i]).prior, expected)
        assert abs(expected.sum() - 1.0) < 1e-6  # the network's softmax is float32


def test_each_searched_row_gets_the_advice_for_its_own_position(monkeypatch):
    """The advisor is asked once per ``act_batch`` for every row, from observations and masks alone (never the
    game records, which hold what the seat may not see); each row's search roots on that row's advice, rows with
    a single legal action (answered without searching) included in the count."""
    game = get_game(GAME)
    advisor = _HighestLegal()
    agent = GuidedSearchAgent(game, make_agent("pretrained", GAME), simulations=2, seed=1, advisor=advisor,
                              advice_weight=0.5)
    seen = []
    original = agent._new_root

    def recording(state, seat, mask):
        seen.append((agent._advised, int(np.flatnonzero(mask)[-1])))
        return original(state, seat, mask)

    monkeypatch.setattr(agent, "_new_root", recording)
    states = _positions(GAME, 5, seed=6)
    masks, seats = game.legal_mask(states), game.current_player(states)
    agent.act_batch(game.observe(states, seats), masks, states, seats)
    assert advisor.asked == [(5, None, None)]
    assert len(seen) == sum(m.sum() > 1 for m in masks) > 0
    assert all(advice == highest for advice, highest in seen)


def test_advice_needs_an_advisor_and_a_weight_in_range():
    network = make_agent("pretrained", GAME)
    with pytest.raises(ValueError, match="advisor"):
        GuidedSearchAgent(get_game(GAME), network, advice_weight=0.5)
    with pytest.raises(ValueError, match="advice_weight"):
        GuidedSearchAgent(get_game(GAME), network, advisor=_HighestLegal(), advice_weight=1.5)


def test_the_spec_takes_the_heuristics_advice_as_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained", GAME).advisor is None
    monkeypatch.setitem(guided_search.ADVICE_WEIGHTS, GAME, 0.5)
    agent = make_agent("mcts+pretrained:8", GAME)
    assert agent.advice_weight == 0.5 and type(agent.advisor) is type(make_agent("heuristic", GAME))


# ---- relative values -------------------------------------------------------------------------------------------

def test_margins_are_each_seats_value_minus_the_best_other_seats():
    from wildwest_envs.core.game import margins
    values = np.array([[3.0, 1.0, 2.0, 9.0], [5.0, 5.0, 1.0, 0.0], [0.5, -1.0, 0.0, 0.0]])
    present = np.array([[True, True, True, False], [True, True, True, False], [True, True, False, False]])
    np.testing.assert_allclose(margins(values, present), [[1.0, -2.0, -1.0, 0.0],  # seat 3 is absent: ignored
                                                          [0.0, 0.0, -4.0, 0.0],   # a shared lead is worth 0
                                                          [1.5, -1.5, 0.0, 0.0]])


def test_relative_values_back_up_each_seats_lead_over_the_best_other_seat():
    """``value_mode="relative"``: the leaf values and the final returns the search backs up are each seat's value
    minus the best other present seat's; ``"own"`` leaves them as the critic and the game give them."""
    game = get_game(GAME)
    network = make_agent("pretrained", GAME)
    states = _positions(GAME, 6, seed=8)
    actors, masks = game.current_player(states).astype(np.int64), game.legal_mask(states)
    own = GuidedSearchAgent(game, network, simulations=4, seed=1)
    relative = GuidedSearchAgent(game, network, simulations=4, seed=1, value_mode="relative")
    own_priors, own_values = own.leaf_values(states, actors, masks)
    priors, values = relative.leaf_values(states, actors, masks)
    np.testing.assert_allclose(priors, own_priors)
    for row, mine in zip(values, own_values):
        for seat in range(3):
            assert row[seat] == pytest.approx(mine[seat] - np.delete(mine[:3], seat).max())
    assert not np.allclose(values, own_values)
    ended = game.init_batch(4, seed=2, num_players=3)
    while not game.finished(ended).all():
        masks = game.legal_mask(ended)
        game.step(ended, np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]), check=False)
    scores = game.returns(ended, "score").astype(np.float64)
    np.testing.assert_allclose(relative.backed_up(scores, ended), game.returns(ended, "margin"), atol=1e-6)


def test_the_spec_backs_up_the_values_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained", GAME).value_mode == "own"
    monkeypatch.setitem(guided_search.VALUE_MODE, GAME, "relative")
    assert make_agent("mcts+pretrained:8", GAME).value_mode == "relative"
    with pytest.raises(ValueError, match="value_mode"):
        GuidedSearchAgent(get_game(GAME), make_agent("pretrained", GAME), value_mode="margin")


# ---- the root lookahead ------------------------------------------------------------------------------------------

def _lookahead_agent(**settings) -> GuidedSearchAgent:
    return GuidedSearchAgent(get_game(GAME), make_agent("pretrained", GAME), simulations=8, seed=3,
                             lookahead=Lookahead(**settings))


def test_the_lookahead_plays_the_candidate_whose_rollouts_are_worth_most_after_the_priors_doubt():
    """Candidate c of determinization j is row j * k + c; with values that favour the prior's third favourite by
    0.1, ``prior_weight`` 0 plays it and a weight worth more than 0.1 of log-prior keeps the favourite."""
    game = get_game(GAME)
    states = _positions(GAME, 6, seed=3)
    masks, seats = game.legal_mask(states), game.current_player(states).astype(np.int64)
    row = int(np.flatnonzero(masks.sum(axis=1) >= 4)[0])
    state, seat, mask = states[row], int(seats[row]), masks[row]
    for weight, favourite_kept in ((0.0, False), (50.0, True)):
        agent = _lookahead_agent(candidates=4, horizon=2, confidence=1.01, prior_weight=weight)
        prior, _ = agent.evaluate(states[row:row + 1], seats[row:row + 1], masks[row:row + 1], with_values=False)
        legal = np.flatnonzero(mask)
        ranked = legal[np.argsort(-prior[0][legal], kind="stable")]
        calls = []

        def values_of(sims, agent=agent):
            calls.append(len(sims))
            values = np.zeros((len(sims), game.max_players))
            values[2::4, seat] = 0.1  # the third candidate of every determinization
            return values

        agent._values_of = values_of
        move = agent.search(state, seat, mask)
        assert calls == [8]  # 4 candidates x 8 // 4 determinizations
        assert move == (ranked[0] if favourite_kept else ranked[2])


def test_a_confident_prior_is_played_without_rollouts():
    game = get_game(GAME)
    states = _positions(GAME, 4, seed=5)
    masks, seats = game.legal_mask(states), game.current_player(states).astype(np.int64)
    agent = _lookahead_agent(confidence=0.0)
    agent._values_of = lambda sims: pytest.fail("rolled out although the prior is confident")
    priors, _ = agent.evaluate(states, seats, masks, with_values=False)
    for i in range(len(states)):
        assert agent.search(states[i], int(seats[i]), masks[i]) == int(np.argmax(priors[i]))


def test_the_lookahead_plays_legal_moves_and_never_reads_what_the_seat_cannot_see():
    """The same agent seed gives the same move on two positions that differ only in what the seat cannot see;
    the rollouts (truncated by the horizon, or ended) are valued by the critic or the game's result."""
    game = get_game(GAME)
    states = _positions(GAME, 4, seed=9)
    seats = game.current_player(states).astype(np.int64)
    other = game.resample_hidden(states, seats, np.arange(len(states), dtype=np.uint64) + 77)
    masks = game.legal_mask(states)
    first = _lookahead_agent(confidence=1.01, horizon=3).act_batch(None, masks, states, seats)
    second = _lookahead_agent(confidence=1.01, horizon=3).act_batch(None, masks, other, seats)
    assert (first == second).all() and masks[np.arange(len(states)), first].all()


def test_network_rollouts_stop_at_the_horizon():
    agent = _lookahead_agent()
    sims = _positions(GAME, 3, seed=1)
    before = sims["n_decisions"].copy()
    agent._play_network(sims, greedy=True, max_steps=5)
    assert (sims["n_decisions"] - before <= 5).all() and (sims["n_decisions"] > before).any()


def test_the_lookahead_values_are_the_critics_or_the_games_result():
    game = get_game(GAME)
    agent = _lookahead_agent()
    sims = _positions(GAME, 3, seed=2)
    ended = sims[:1].copy()
    agent._play_network(ended, greedy=True)
    values = agent._values_of(np.concatenate([ended, sims[1:]]))
    np.testing.assert_allclose(values[0], game.returns(ended, agent.reward_mode)[0])
    _, critic = agent.evaluate(sims[1:], game.current_player(sims[1:]).astype(np.int64), game.legal_mask(sims[1:]))
    np.testing.assert_allclose(values[1:], critic)


def test_bad_lookahead_settings_are_refused():
    network = make_agent("pretrained", GAME)
    for settings, simulations in ((Lookahead(candidates=0), 8), (Lookahead(horizon=-1), 8),
                                  (Lookahead(prior_weight=-0.1), 8), (Lookahead(candidates=4), 3)):
        with pytest.raises(ValueError, match="lookahead"):
            GuidedSearchAgent(get_game(GAME), network, simulations=simulations, lookahead=settings)


def test_the_spec_looks_ahead_as_its_game_says(monkeypatch):
    from wildwest_envs.agents import guided_search
    assert make_agent("mcts+pretrained", GAME).lookahead is None
    monkeypatch.setitem(guided_search.LOOKAHEAD, GAME, Lookahead(candidates=2))
    assert make_agent("mcts+pretrained:8", GAME).lookahead == Lookahead(candidates=2)
    assert make_agent("mcts+pretrained:16", "rail_v0").lookahead == guided_search.LOOKAHEAD["rail_v0"]
