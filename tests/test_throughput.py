"""``benchmarks/throughput.py``: the table has every row, ratios to the median anchor, and the batched loop
(step with masks, re-deals) plays legal games in the steady state."""

from __future__ import annotations

import re
import time

import numpy as np

from benchmarks import throughput
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import get_game


def test_report_has_every_row_and_ratios_to_the_median_anchor():
    report = throughput.run(0.05, [4], [1], ["way_out_west_v0"], measure_compile=False)
    rows = {tuple(c.strip() for c in line.split("|")[1:3]): line for line in report.splitlines()
            if line.startswith("| ") and "---" not in line and "environment" not in line}
    assert ("way_out_west_v0", "AEC API") in rows and ("way_out_west_v0", "batched B=4, 1 thread") in rows
    anchors = [float(a.replace(",", "")) for a in re.search(r"measured 2 times, before the first game and after "
                                                             r"each: ([\d,]+, [\d,]+)", report).group(1).split(", ")]
    anchor_row = rows[("PettingZoo connect_four_v3", "AEC API")]
    assert abs(float(anchor_row.split("|")[3].strip().replace(",", "")) - np.median(anchors)) <= 1  # rounding
    for line in rows.values():
        rate, ratio = (float(c.strip().replace(",", "")) for c in line.split("|")[3:5])
        assert abs(ratio - rate / np.median(anchors)) < 0.01 + 1e-3 * ratio


def test_batched_play_warms_up_until_the_batch_has_turned_over():
    game = get_game("way_out_west_v0")
    calls = []
    real_init = game.init_from_vector  # what core.runner.Dealer deals with

    def counting_init(seeds, vector):
        calls.append(np.asarray(seeds).copy())
        return real_init(seeds, vector)

    object.__setattr__(game, "init_from_vector", counting_init)
    try:
        assert throughput.batched_random_play(game, 8, 1, 0.01) > 0
    finally:
        object.__delattr__(game, "init_from_vector")
    dealt = np.concatenate(calls)
    assert len(dealt) >= 2 * 8  # the first batch plus at least as many re-dealt games before timing
    np.testing.assert_array_equal(dealt, game_seeds(0, len(dealt)))  # the run's games in order: fresh seeds


def test_aec_play_times_only_games_after_a_warm_up_game():
    """The first game (kernel compilation or cache loading) is played before the clock starts."""
    from wildwest_envs.way_out_west import env as wow_env

    resets = []

    def make_env():
        env = wow_env.env()
        real_reset = env.reset

        def counting_reset(*args, **kwargs):
            resets.append(time.perf_counter())
            return real_reset(*args, **kwargs)

        env.reset = counting_reset
        return env

    assert throughput.aec_random_play(make_env, 0.0) == 0  # no time to measure: no game is timed ...
    assert len(resets) == 2  # ... yet one game was played (after the env's first reset)


def test_cold_start_table_has_both_paths_of_every_game(monkeypatch):
    """``--cold``: a row per game and path (first AEC game, all kernels), cold and cached seconds, wall and CPU."""
    monkeypatch.setattr(throughput, "cold_times", lambda name, path: {"cold": (12.34, 11.0), "cached": (0.9, 0.8)})
    lines = throughput.cold_start_table(["rail_v0", "way_out_west_v0"])
    assert len(lines) == 2 + 2 * len(throughput.COLD_PATHS)
    assert "| rail_v0 | cold first AEC game | 12.3 (11.0) | 0.9 (0.8) |" in lines
    assert "| way_out_west_v0 | cold all kernels | 12.3 (11.0) | 0.9 (0.8) |" in lines
