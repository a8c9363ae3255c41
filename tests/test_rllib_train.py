"""RLlib PPO (training.rllib_train) for real, with Ray started locally by the tests: tiny batches, one iteration.

* one training iteration on every registered game, sampling in the driver (0 env runners), and on Rail in one
  remote env runner (a process that builds the game from its name; each such runner takes about 20 s to start,
  so one game here, and the first game with two remote runners in the cluster test);
* frozen opponents (a MaskablePPO checkpoint, an earlier RLlib run) play their seats and are never trained;
* the command line end to end: progress, checkpoints, the evaluation table, ``rllib:<run>`` agents.

The two-node cluster test is in ``test_rllib_cluster.py`` (it needs Ray started differently).
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")
torch = pytest.importorskip("torch")

from wildwest_envs.agents.registry import make_agent  # noqa: E402
from wildwest_envs.agents.rllib_policy import RLlibPolicyAgent  # noqa: E402
from tests.conftest import GAME_NAMES  # noqa: E402
from wildwest_envs.training.rllib_env import BatchedTurnBasedVectorEnv  # noqa: E402
from wildwest_envs.training.rllib_train import MODULE_ID, Args, SeatToModule, build_config, main  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402

TINY = dict(train_batch_size=64, minibatch_size=32, num_epochs=1, num_envs_per_env_runner=2, net_arch="32",
            eval_every=0, checkpoint_every=0)  # one quick iteration


def players_for(name: str) -> int:
    """Three players where the game allows, else the nearest supported count."""
    game = get_game(name)
    return min(max(3, game.min_players), game.max_players)


@pytest.fixture(scope="module")
def local_ray():
    """A quiet local Ray instance of 2 CPUs for this module, shut down afterwards."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the local learner and env runner: small forward passes
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()
    torch.set_num_threads(threads)


def train_once(args: Args) -> tuple[dict, object]:
    """Build the algorithm of ``args``, run one iteration; returns the result and the (live) algorithm."""
    algo = build_config(args).build_algo()
    return algo.train(), algo


REMOTE_RUNNER_GAME = GAME_NAMES[-1]  # Rail, built from its map in the runner; the cluster test's game is the first


@pytest.mark.parametrize("name, num_env_runners", [(name, 0) for name in GAME_NAMES] + [(REMOTE_RUNNER_GAME, 1)])
def test_one_training_iteration_on_every_game(local_ray, name, num_env_runners):
    """Samples of the batched env runner(s) reach the learner, which updates the shared module."""
    args = Args(game=name, players=players_for(name), num_env_runners=num_env_runners, **TINY)
    result, algo = train_once(args)
    try:
        sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
        assert sampled >= args.train_batch_size
        assert result["learners"][MODULE_ID]["num_module_steps_trained"] > 0
        runners = algo.env_runner_group.foreach_env_runner(
            lambda r: (r.worker_index, type(r.env).__name__ if r.env is not None else None, r.sampled_steps),
            local_env_runner=num_env_runners == 0)
        assert [(index, env) for index, env, _ in runners] == [(num_env_runners, BatchedTurnBasedVectorEnv.__name__)]
        assert runners[0][2] == sampled  # that runner sampled every step the learner saw
    finally:
        algo.stop()


def test_one_training_iteration_with_rllibs_own_env_loop(local_ray):
    """``--no-batched``: RLlib's MultiAgentEnvRunner vectorises single-game envs itself, and trains too.

    It samples in the driver (no env runner process to start): which process an env runner lives in is the same
    for both runner classes, and the batched one is run remotely above."""
    name = GAME_NAMES[0]
    result, algo = train_once(Args(game=name, players=players_for(name), num_env_runners=0, batched=False, **TINY))
    try:
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= TINY["train_batch_size"]
        assert result["learners"][MODULE_ID]["num_module_steps_trained"] > 0
        kinds = algo.env_runner_group.foreach_env_runner(lambda r: (type(r).__name__, r.env is not None),
                                                         local_env_runner=True)
        assert kinds == [("MultiAgentEnvRunner", True)]
    finally:
        algo.stop()


def test_frozen_opponents_play_their_seats_and_are_never_trained(local_ray, tmp_path):
    """A MaskablePPO checkpoint and an RLlib run as opponents: they act in their seats, only ``shared`` learns."""
    sb3 = pytest.importorskip("sb3_contrib")
    from wildwest_envs.agents.base import RandomAgent
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv

    name = GAME_NAMES[0]
    players = players_for(name)
    env = SelfPlayVecEnv(get_game(name), 2, OpponentPool([RandomAgent(0)]), seed=0, num_players=players)
    sb3.MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, seed=0, device="cpu",
                    policy_kwargs={"net_arch": [16]}).save(tmp_path / "sb3.zip")
    module_dir = tmp_path / "rllib_run" / "module"
    _, algo = train_once(Args(game=name, players=players, num_env_runners=0, **TINY))
    algo.get_module(MODULE_ID).save_to_path(str(module_dir))
    algo.stop()
    (tmp_path / "rllib_run" / "config.json").write_text(json.dumps({"game": name, "num_players": players}))

    # enough episodes that both opponents surely get a seat: each seat's opponent is drawn from the episode's
    # random id, so with one or two episodes (TINY's 64 steps) an opponent is missing in ~10% of the runs
    enough = {**TINY, "train_batch_size": 1024, "minibatch_size": 256}
    args = Args(game=name, players=players, num_env_runners=0, opponent_fraction=1.0,
                opponents=f"policy:{tmp_path / 'sb3.zip'},rllib:{module_dir}", **enough)
    result, algo = train_once(args)
    try:
        steps = result["env_runners"]["num_module_steps_sampled"]
        assert steps["opponent_0"] > 0 and steps["opponent_1"] > 0 and steps[MODULE_ID] > 0
        assert steps[MODULE_ID] < sum(steps.values())  # with fraction 1 the learner holds one seat per game
        for opponent in ("opponent_0", "opponent_1"):
            assert "num_module_steps_trained" not in result["learners"].get(opponent, {})
    finally:
        algo.stop()


def test_seat_mapping_gives_the_learner_one_seat_per_game_with_opponents():
    """Every seat of an episode agrees on the draw; without opponents all seats are the learner's."""
    class Episode:
        def __init__(self, k):
            self.id_ = f"episode-{k}"

    assert {SeatToModule(3, [], 0.5)(f"player_{s}", Episode(0)) for s in range(3)} == {MODULE_ID}
    mapping = SeatToModule(4, ["opponent_0", "opponent_1"], 1.0)
    for k in range(50):
        seats = [mapping(f"player_{s}", Episode(k)) for s in range(4)]
        assert seats == [mapping(f"player_{s}", Episode(k)) for s in range(4)]
        assert seats.count(MODULE_ID) == 1
    half = SeatToModule(3, ["opponent_0"], 0.5)
    shares = [sum(half(f"player_{s}", Episode(k)) == MODULE_ID for s in range(3)) for k in range(400)]
    assert set(shares) == {1, 3} and 0.4 < np.mean(np.array(shares) == 1) < 0.6


def test_seat_mapping_is_seeded_by_the_episode_counter_not_by_rllibs_random_episode_ids():
    """Two runs from one seed seat their k-th episodes alike although RLlib names episodes by random uuids;
    another seed seats them otherwise; interleaved seats of live episodes keep their episode's draw."""
    import uuid

    class Episode:
        def __init__(self):
            self.id_ = uuid.uuid4().hex

    def seatings(mapping, n_episodes=60):
        live = [Episode() for _ in range(n_episodes)]
        first = [mapping("player_0", e) for e in live]  # every episode met once, in order
        rest = [[mapping(f"player_{s}", e) for s in (2, 1)] for e in reversed(live)]  # later, in another order
        return [(f, *reversed(r)) for f, r in zip(first, reversed(rest))]

    run_a = seatings(SeatToModule(3, ["opponent_0", "opponent_1"], 0.7, seed=11))
    run_b = seatings(SeatToModule(3, ["opponent_0", "opponent_1"], 0.7, seed=11))
    assert run_a == run_b
    assert all(seats.count(MODULE_ID) in (1, 3) for seats in run_a)
    assert seatings(SeatToModule(3, ["opponent_0", "opponent_1"], 0.7, seed=12)) != run_a


def test_command_line_trains_checkpoints_and_prints_the_evaluation_table(local_ray, tmp_path, capsys):
    """``python -m wildwest_envs.training.rllib_train``: progress rows, checkpoints, the evaluate table, ``rllib:`` agents."""
    name = GAME_NAMES[0]
    run_dir = tmp_path / "run"
    main(["--game", name, "--players", str(players_for(name)), "--run-dir", str(run_dir), "--num-env-runners", "0",
          "--train-batch-size", "64", "--minibatch-size", "32", "--num-epochs", "1", "--num-envs-per-env-runner",
          "2", "--net-arch", "32", "--max-iterations", "2", "--checkpoint-every", "1", "--eval-every", "2",
          "--eval-progress-games", "6", "--eval-games", "6", "--eval-opponents", "random"])
    printed = capsys.readouterr().out
    assert "iter    2 |" in printed and "vs random:" in printed
    assert "### RLlib-trained agent vs 2 × random" in printed and "| agent | seats | wins |" in printed
    with open(run_dir / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["iteration"]) for r in rows] == [1, 2] and rows[1]["eval/win_rate"] != "nan"
    assert json.loads((run_dir / "config.json").read_text())["game"] == name
    for path in ("checkpoints/iter_00001", "checkpoints/iter_00002", "checkpoint", "evaluation.md",
                 "learning_curve.png", "timing.txt"):
        assert (run_dir / path).exists(), path
    game = get_game(name)
    states = game.init_batch(8, seed=1)
    for spec in (f"rllib:{run_dir}", f"rllib:{run_dir / 'checkpoints' / 'iter_00001'}"):
        agent = make_agent(spec, name)
        assert isinstance(agent, RLlibPolicyAgent) and agent.config["game"] == name
        masks = game.legal_mask(states)
        assert (masks[np.arange(8), agent.act_batch(game.observe(states), masks)] == 1).all()
