"""``benchmarks/throughput.py``: the table has every row, ratios to the median anchor, and the batched loop
(step with masks, re-deals) plays legal games in the steady state."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

from benchmarks import throughput
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game


def test_report_has_every_row_and_ratios_to_the_median_anchor():
    report = throughput.run(0.05, [4], [1], ["way_out_west_v0"], measure_compile=False)
    rows = {tuple(c.strip() for c in line.split("|")[1:3]): line for line in report.splitlines()
            if line.startswith("| ") and "---" not in line and "environment" not in line}
    assert ("way_out_west_v0", "AEC API") in rows and ("way_out_west_v0", "batched B=4, 1 thread") in rows
    assert ("way_out_west_v0", "batched B=4, 1 thread, draws in the step") in rows
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


@pytest.mark.parametrize("name", ["way_out_west_v0", "colt_express_v0"])
def test_draws_in_the_step_play_the_same_games_as_a_sampling_pass(name):
    """``draws_in_step``: the step draws each game's next action from the mask it writes; the same games as
    sampling the masks before each step (same generators), re-deals included, only cheaper."""
    game = get_game(name)
    played = []
    for draws_in_step in (False, True):
        one_step, dealer, states = throughput.batched_player(game, 6, seed=3, draws_in_step=draws_in_step)
        decisions = sum(one_step() for _ in range(400))
        played.append((decisions, dealer.next_game, states.tobytes()))
    assert played[0][1] > 6  # games finished and were dealt again
    assert played[0] == played[1]


@pytest.mark.parametrize("draws_in_step", [False, True])
def test_the_loop_deals_again_exactly_the_games_that_ended_or_reached_the_cap(draws_in_step):
    """``redeal_ended`` finds the ended games by their -1 action (an all-zero mask), not by reading the records:
    before each step, the games it deals again are exactly those ``Game.finished`` reports, truncated ones too."""
    game = get_game("colt_express_v0")
    one_step, dealer, states = throughput.batched_player(game, 16, seed=2, draws_in_step=draws_in_step,
                                                         max_decisions=40)
    redealt = 0
    for _ in range(120):
        over = game.finished(states)
        before = dealer.next_game
        assert one_step() == 16
        redealt += dealer.next_game - before
        assert dealer.next_game - before == int(over.sum())
    assert redealt > 16  # every game reached the cap at least once and was dealt again


def test_the_sampler_draws_chosen_rows_as_a_whole_pass_would():
    """``LegalSampler.draw_rows``: the rows' draws and generators as ``__call__`` leaves them; other rows untouched."""
    game = get_game("way_out_west_v0")
    masks = game.legal_mask(game.init_batch(5, 1))
    whole, part = LegalSampler(5, 9), LegalSampler(5, 9)
    untouched = part.rng.copy()
    drawn = part.draw_rows(masks, np.array([1, 3]))
    expected = whole(masks)
    np.testing.assert_array_equal(drawn, expected[[1, 3]])
    np.testing.assert_array_equal(part.rng[[1, 3]], whole.rng[[1, 3]])
    np.testing.assert_array_equal(part.rng[[0, 2, 4]], untouched[[0, 2, 4]])


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
    """``--cold``: a row per game and path (first AEC game with and without quick start, all kernels), cold and
    cached seconds, wall and CPU."""
    monkeypatch.setattr(throughput, "cold_times", lambda name, path: {"cold": (12.34, 11.0), "cached": (0.9, 0.8)})
    lines = throughput.cold_start_table(["rail_v0", "way_out_west_v0"])
    assert len(lines) == 2 + 2 * len(throughput.COLD_PATHS) == 2 + 2 * 3
    assert "| rail_v0 | first AEC game, quick start | 12.3 (11.0) | 0.9 (0.8) |" in lines
    assert "| rail_v0 | first AEC game, compiled | 12.3 (11.0) | 0.9 (0.8) |" in lines
    assert "| way_out_west_v0 | all kernels | 12.3 (11.0) | 0.9 (0.8) |" in lines


def test_the_kernel_profile_names_numba_functions_and_sums_perfs_rows(tmp_path):
    """``benchmarks/kernel_profile.py``: numba's mangled symbols read as module.function, a perf map covers each
    function up to the next, and the report's rows are summed by name, largest first."""
    from benchmarks import kernel_profile

    assert (kernel_profile.readable_name("_ZN13wildwest_envs4rail6routes10find_routeB3v99B38c8tJTIeFIjx")
            == "wildwest_envs.rail.routes.find_route")
    assert kernel_profile.readable_name("_ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7fd6652c5450B4v322B114c8") \
        == "<dynamic>.__numba_parfor_gufunc_0x7fd6652c5450"
    assert kernel_profile.readable_name("malloc") == "malloc"
    report = ("# comment\n    15.44%  [.] rail.routes.find_route                 -      -\n"
              "     2.00%  [.] malloc\n     1.50%  [.] rail.routes.find_route\n")
    rows = kernel_profile.top_functions(report, 5)
    assert [name for _, name in rows] == ["rail.routes.find_route", "malloc"]
    assert np.allclose([share for share, _ in rows], [16.94, 2.0])
    path = kernel_profile.write_perf_map([(0x1000, "a.f"), (0x1400, "a.g")], pid=999_999_999)
    try:
        assert path.read_text() == "1000 400 a.f\n1400 1000 a.g\n"
    finally:
        path.unlink()


def test_the_thread_scaling_table_has_the_ceiling_rows_and_a_row_per_game_and_batch():
    """``benchmarks/thread_scaling.py``: the machine's two ceiling rows, then each game's batch sizes, with rates
    and a ratio (tiny settings: the rows, not the speeds, are checked)."""
    from benchmarks import thread_scaling

    text = thread_scaling.report(["colt_express"], [4, 8], seconds=0.05, repeats=1)
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| what")]
    assert [row.split(" | ")[0] for row in rows] == ["| machine: arithmetic (prange, no memory traffic)",
                                                    "| machine: streaming (prange, 16 MB arrays, 20 passes)",
                                                    "| colt_express_v0", "| colt_express_v0"]
    assert [row.split(" | ")[1] for row in rows[2:]] == ["4", "8"]
    assert all(row.split(" | ")[4].endswith("×") for row in rows)
    assert all(row.rstrip(" |").endswith("×") for row in rows[2:])  # the step and sampling ratios of the games
    assert {len(row.strip(" |").split(" | ")) for row in rows} == {10}  # ... and the loop with the draws in the step
    low, high = (float(x) for x in rows[2].split(" | ")[5].rstrip("×").split("-"))  # the run-by-run range
    assert 0 < low <= high


def test_the_kernel_profile_names_the_callers_of_reference_counting_from_the_sampled_return_addresses():
    """``kernel_profile --callers``: from ``perf script -D`` text (each event's raw bytes, then its sample line and
    its user stack's offset), the first word of the stack is the return address; the samples inside ``NRT_*``
    count for the function holding it, as a share of all samples."""
    from benchmarks import kernel_profile

    def event(ip: int, returned_to: int) -> str:
        raw = bytes(16) + (64).to_bytes(8, "little") + returned_to.to_bytes(8, "little")  # size word at 0x10
        rows = [f".  {i:04x}:  " + " ".join(f"{b:02x}" for b in raw[i:i + 16]) + " " for i in range(0, 32, 16)]
        return "\n".join([". ... raw event: size 32 bytes", *rows,
                          f"1 0x1 [0x20]: PERF_RECORD_SAMPLE(IP, 0x2): 7/7: {ip:#x} period: 1000 addr: 0",
                          "... ustack: size 64, offset 0x10"])

    symbols = [(0x1000, "NRT_incref (in a.step)"), (0x1100, "rail.routes.find_route"), (0x2000, "a.other")]
    dump = "\n".join([event(0x1004, 0x1150), event(0x1008, 0x1160), event(0x1010, 0x2010), event(0x2004, 0x1100),
                      event(0x1004, 0x900)])
    samples = kernel_profile.sampled_return_addresses(dump)
    assert samples == [(0x1004, 0x1150), (0x1008, 0x1160), (0x1010, 0x2010), (0x2004, 0x1100), (0x1004, 0x900)]
    assert kernel_profile.callers_of(samples, symbols) == [(40.0, "rail.routes.find_route"), (20.0, "a.other"),
                                                           (20.0, "(not a numba function)")]
