"""RLlib training on a local two-node Ray cluster (``ray.cluster_utils.Cluster``).

The head node has no CPU for actors, so every env runner lands on the second node:
those runners deal and step the games, and their samples are what the learner (in
the driver, on the head) trains on. The command line's ``--address`` path runs on the
same cluster. Workers import this checkout from the driver's working directory (same
machine), so ``--no-ship-code`` keeps numba's compiled kernels cached.
"""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")
torch = pytest.importorskip("torch")

from ray.cluster_utils import Cluster  # noqa: E402

from tests.conftest import GAME_NAMES  # noqa: E402
from wildwest_envs.training.rllib_train import MODULE_ID, Args, build_config, main  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402

NAME = GAME_NAMES[0]
PLAYERS = min(max(3, get_game(NAME).min_players), get_game(NAME).max_players)


@pytest.fixture(scope="module")
def two_nodes():
    """A head without CPUs and a second node with 2; shut down (all processes) afterwards."""
    if ray.is_initialized():
        ray.shutdown()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    second = cluster.add_node(num_cpus=2, resources={"second_node": 2})
    cluster.wait_for_nodes()
    yield cluster, second
    if ray.is_initialized():
        ray.shutdown()
    cluster.shutdown()
    torch.set_num_threads(threads)


def test_env_runners_on_the_second_node_step_games_and_feed_the_learner(two_nodes):
    """Both env runners sit on the second node, deal and step games; the learner trains on exactly their steps."""
    cluster, second = two_nodes
    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
    try:
        args = Args(game=NAME, players=PLAYERS, num_env_runners=2, num_envs_per_env_runner=2, train_batch_size=64,
                    minibatch_size=32, num_epochs=1, net_arch="32")
        algo = build_config(args).build_algo()
        try:
            result = algo.train()
            runners = algo.env_runner_group.foreach_env_runner(
                lambda r: (ray.get_runtime_context().get_node_id(), r.env.games.dealer.next_game, r.sample_seconds,
                           r.sampled_steps),
                local_env_runner=False)
            assert [node for node, *_ in runners] == [second.node_id] * 2
            assert all(dealt >= args.num_envs_per_env_runner and seconds > 0 for _, dealt, seconds, _ in runners)
            assert algo.env_runner is None or algo.env_runner.env is None  # the driver samples nothing
            sampled = result["env_runners"]["num_env_steps_sampled"]
            assert sampled >= args.train_batch_size
            assert sum(steps for *_, steps in runners) == sampled  # every sampled step came from those runners
            learner = result["learners"]["__all_modules__"]
            assert learner["learner_connector_sum_episodes_length_in"] == sampled  # ... and reached the learner
            assert result["learners"][MODULE_ID]["num_module_steps_trained"] > 0
        finally:
            algo.stop()
    finally:
        ray.shutdown()


def test_command_line_trains_on_an_existing_cluster_with_address(two_nodes, tmp_path, capsys):
    """``--address`` connects to the running cluster instead of starting Ray, trains and evaluates."""
    cluster, _ = two_nodes
    run_dir = tmp_path / "run"
    main(["--game", NAME, "--players", str(PLAYERS), "--address", cluster.address, "--no-ship-code",
          "--run-dir", str(run_dir), "--num-env-runners", "1", "--num-envs-per-env-runner", "2",
          "--train-batch-size", "64", "--minibatch-size", "32", "--num-epochs", "1", "--net-arch", "32",
          "--max-iterations", "1", "--eval-every", "0", "--checkpoint-every", "0", "--eval-games", "6",
          "--eval-opponents", "random"])
    printed = capsys.readouterr().out
    assert "cluster CPUs 2" in printed and "iter    1 |" in printed
    assert "| agent | seats | wins |" in (run_dir / "evaluation.md").read_text()
    assert not ray.is_initialized()  # the script disconnects from the cluster it connected to
