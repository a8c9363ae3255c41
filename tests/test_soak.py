"""The soak harness itself (``benchmarks/soak.py``): a small soak of every game passes and writes its table;
a run for one game keeps the rows of others written meanwhile; a dying worker is counted as a crash.

The million-game soak is not run here (see ``benchmarks/results/soak.md``).
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from benchmarks import soak
from wildwest_envs.registry import GAMES, get_game

pytestmark = pytest.mark.slow


def _args(tmp_path, *extra: str) -> list[str]:
    return ["--games", "40", "--workers", "1", "--chunk", "20", "--width", "8", "--output",
            str(tmp_path / "soak.md"), *extra]


def test_small_soak_of_every_game_passes_and_writes_the_table(tmp_path):
    assert soak.main(_args(tmp_path)) == 0
    results = soak.read_results(tmp_path / "soak.md")
    assert sorted(results) == sorted(GAMES)
    assert (tmp_path / "soak_memory.png").read_bytes().startswith(b"\x89PNG")
    for name, data in results.items():
        n_variants = len(soak.variants(get_game(name)))
        assert data["games"] == n_variants * -(-40 // n_variants)  # 40 games split evenly over the variants
        assert data["crashes"] == 0 and data["failures"] == 0 and data["decisions"] > data["games"]
        assert sum(v["games"] for v in data["variants"]) == data["games"]


def test_a_run_keeps_the_rows_another_run_wrote_meanwhile(tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    assert soak.main(_args(other, "--game", "colt_express_v0")) == 0
    colt = soak.read_results(other / "soak.md")["colt_express_v0"]
    out = tmp_path / "soak.md"
    real_soak_game = soak.soak_game

    def soak_while_another_run_writes(name, args, bar, **kwargs):
        report = real_soak_game(name, args, bar, **kwargs)
        out.write_text(soak.render_results({"colt_express_v0": colt}, list(GAMES)))  # a concurrent run finished
        return report

    monkeypatch.setattr(soak, "soak_game", soak_while_another_run_writes)
    assert soak.main(_args(tmp_path, "--game", "way_out_west_v0")) == 0
    results = soak.read_results(out)
    assert set(results) == {"colt_express_v0", "way_out_west_v0"}
    assert results["colt_express_v0"] == colt


def die_in_first_variant(chunk):
    """Play a chunk, except that a worker given variant 0 dies as a segfault would (no Python exception)."""
    if chunk.variant == 0:
        os._exit(139)
    return soak.play_chunk(chunk)


class _Bar:
    """Counts what the soak reports to its progress bar."""

    n = 0

    def update(self, n):
        self.n += n

    def set_postfix(self, **kwargs):
        pass


def test_a_dying_worker_is_one_crash_and_the_soak_goes_on():
    game = get_game("colt_express_v0")
    n_variants = len(soak.variants(game))
    args = SimpleNamespace(games=n_variants, chunk=1, seed=0, width=1, observe_every=0, step_guard=1000, workers=1,
                           warmup=1)
    bar = _Bar()
    report = soak.soak_game("colt_express_v0", args, bar, play=die_in_first_variant)
    assert report.crashes == 1  # the chunk in flight is rerun alone, so the crash is pinned on it
    assert report.messages[0].startswith("crash: worker died in variant 0 ")
    assert report.games == n_variants - 1 and report.failures == 0  # every other chunk still played
    assert bar.n == n_variants


def test_an_interrupted_soak_resumes_to_the_table_of_an_uninterrupted_one(tmp_path, monkeypatch):
    whole = tmp_path / "whole"
    whole.mkdir()
    assert soak.main(_args(whole, "--game", "colt_express_v0")) == 0
    expected = soak.read_results(whole / "soak.md")["colt_express_v0"]
    expected_chunks = len(soak.plan_chunks("colt_express_v0", get_game("colt_express_v0"), 40, 20, 0, 8, 0, 0))

    real_record = soak.Journal.record
    recorded = []

    def record_then_interrupt(self, chunk, result, seconds_so_far):
        real_record(self, chunk, result, seconds_so_far)
        recorded.append((chunk.variant, chunk.first))
        if len(recorded) == 3:
            raise KeyboardInterrupt  # Ctrl-C after the third chunk

    monkeypatch.setattr(soak.Journal, "record", record_then_interrupt)
    assert soak.main(_args(tmp_path, "--game", "colt_express_v0")) == 130
    journal = soak.journal_path(tmp_path / "soak.md", "colt_express_v0")
    assert len(journal.read_text().splitlines()) == 1 + 3  # the settings, then the three chunks
    assert not (tmp_path / "soak.md").exists()

    replayed = []

    def record_and_count(self, chunk, result, seconds_so_far):
        replayed.append((chunk.variant, chunk.first))
        real_record(self, chunk, result, seconds_so_far)

    monkeypatch.setattr(soak.Journal, "record", record_and_count)
    assert soak.main(_args(tmp_path, "--game", "colt_express_v0", "--resume")) == 0
    assert len(replayed) == expected_chunks - 3 and not set(replayed) & set(recorded)  # journaled: not replayed
    got = soak.read_results(tmp_path / "soak.md")["colt_express_v0"]
    for key in ("games", "decisions", "truncated", "crashes", "failures", "variants"):
        assert got[key] == expected[key], key
    assert not journal.exists()


def test_resume_refuses_a_journal_of_other_settings(tmp_path):
    journal = soak.journal_path(tmp_path / "soak.md", "colt_express_v0")
    journal.write_text('{"game": "colt_express_v0", "games": 7}\n')
    with pytest.raises(SystemExit, match="other settings"):
        soak.main(_args(tmp_path, "--game", "colt_express_v0", "--resume"))
