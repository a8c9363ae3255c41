"""``benchmarks/ladder.py``: the two-part round robin, its report and its picture."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from benchmarks import ladder  # noqa: E402
from wildwest_envs.training.tournament import seat_schedule  # noqa: E402

SPECS = ["random", "heuristic", "mcts:4", "pretrained", "mcts+pretrained:4"]


def test_the_two_parts_split_every_seating_once():
    fast, slow = ladder.split_schedule(SPECS)
    assert sorted(fast + slow) == sorted(seat_schedule(len(SPECS), 3))
    searchers = {i for i, spec in enumerate(SPECS) if ladder.is_search(spec)}
    assert searchers == {2, 4}
    assert all(not searchers & set(s) for s in fast) and all(searchers & set(s) for s in slow)
    assert len(fast) == 6  # 3 fast agents: 3! orders; every other seating holds a search agent


def test_default_agents_name_the_six_and_skip_a_missing_default_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert ladder.default_agents("colt_express", 50) == ["random", "heuristic", "mcts:50", "pretrained",
                                                         "mcts+pretrained:50"]
    assert "no README-default run" in capsys.readouterr().err
    run = tmp_path / "runs" / "colt_express_v0_3p_seed1"
    run.mkdir(parents=True)
    (run / "model.zip").write_text("")
    assert ladder.default_agents("colt_express", 50)[3] == "runs/colt_express_v0_3p_seed1/model.zip"


def test_a_small_ladder_writes_its_report_and_picture(tmp_path):
    out = tmp_path / "ladder"
    markdown = ladder.main(["--game", "colt_express", "--agents", *SPECS, "--games", "12", "--search-games", "9",
                            "--batch", "12", "--out", str(out)])
    assert (tmp_path / "ladder.md").read_text() == markdown
    assert (tmp_path / "ladder.png").stat().st_size > 10_000
    for spec in SPECS:
        assert f"| {spec} |" in markdown
    assert "21 games" in markdown and "without search: 12 games over 6 seatings" in markdown
    assert "with search: 9 games over 54 seatings" in markdown
    rows = [line for line in markdown.split("### Head to head")[1].splitlines() if line.startswith("| ") and
            not line.startswith("| row")]
    assert [r.split(" | ")[0][2:] for r in rows] == SPECS
    fast = ["random", "heuristic", "pretrained"]
    for row in rows:  # the fast agents all meet each other in part 1: those cells carry a share and a count
        name, cells = row.split(" | ")[0][2:], row.strip(" |").split(" | ")[1:]
        for other, cell in zip(SPECS, cells):
            if name in fast and other in fast and name != other:
                assert "n=" in cell and "%" in cell
            if name == other:
                assert cell == "–"


def test_a_journaled_ladder_goes_on_from_its_journal_and_refuses_another_ladders(tmp_path, capsys):
    """``--journal``: each part's finished games are on disk; started again with more games, the ladder plays only
    the missing ones (the first games' results are the journal's); another agent list is refused in one line."""
    from wildwest_envs.training.journal import MatchJournal

    journal, argv = tmp_path / "wow", ["--game", "way_out_west", "--agents", "random", "heuristic", "random",
                                       "--search-games", "0", "--batch", "6", "--out", str(tmp_path / "ladder")]
    ladder.main([*argv, "--games", "12", "--journal", str(journal)])
    fast = tmp_path / "wow.fast.jsonl"
    first_lines = fast.read_text().splitlines()
    assert len(first_lines) == 1 + 2  # settings, two batches of 6
    markdown = ladder.main([*argv, "--games", "18", "--journal", str(journal)])
    lines = fast.read_text().splitlines()
    assert lines[:3] == first_lines and len(lines) == 4 and "18 games" in markdown
    assert MatchJournal(fast, json.loads(lines[0])["settings"]).games == 18
    with pytest.raises(SystemExit):
        ladder.main(["--game", "way_out_west", "--agents", "random", "heuristic", "heuristic", "--search-games", "0",
                     "--games", "6", "--journal", str(journal), "--out", str(tmp_path / "other")])
    assert "journal of another match" in capsys.readouterr().err


def test_an_added_agent_plays_only_its_own_seatings_and_the_earlier_games_come_from_the_journal(tmp_path, capsys):
    """``--added 1``: the earlier ladder's journals are read, not replayed or extended; the new parts seat the new
    agent in every game, every one of its seatings equally often, on deals of their own; the report pools all."""
    journal = tmp_path / "wow"
    earlier = ["random", "heuristic", "mcts:2"]
    common = ["--game", "way_out_west", "--batch", "6", "--simulations", "2", "--journal", str(journal)]
    ladder.main([*common, "--agents", *earlier, "--games", "0", "--search-games", "6", "--out", str(tmp_path / "a")])
    before = (tmp_path / "wow.search.jsonl").read_text()
    results, names, timings = ladder.run_ladder("way_out_west", [*earlier, "pretrained"], 12, 12, 0, 6, journal,
                                                added=1)
    assert (tmp_path / "wow.search.jsonl").read_text() == before  # read, not replayed
    assert not (tmp_path / "wow.fast.jsonl").exists()  # the earlier ladder had no game without search
    assert names == [*earlier, "pretrained"] and len(results) == 6 + 12 + 12
    assert list(timings) == ["with search", "without search, with an added agent", "with search, with an added agent"]
    fast, search = results[6:18], results[18:]
    assert all(3 in r.seating for r in fast + search)
    assert all(2 not in r.seating for r in fast) and all(2 in r.seating for r in search)
    assert sorted(r.seating for r in fast) == sorted(ladder.split_schedule([*earlier, "pretrained"])[0] * 2)
    markdown = ladder.main([*common, "--agents", *earlier, "pretrained", "--added", "1", "--games", "12",
                            "--search-games", "12", "--out", str(tmp_path / "b")])
    assert "30 games" in markdown and "| pretrained |" in markdown
    for argv, message in ((["--agents", *earlier, "--added", "1"], "at least 3 earlier agents"),
                          (["--agents", "random", "heuristic", "mcts:3", "pretrained", "--added", "1"],
                           "journal of another match"),
                          (["--agents", *earlier, "pretrained", "--added", "2"], "at least 3 earlier agents")):
        with pytest.raises(SystemExit):
            ladder.main([*common, *argv, "--out", str(tmp_path / "c")])
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ladder.main(["--game", "way_out_west", "--agents", *earlier, "pretrained", "--added", "1",
                     "--journal", str(tmp_path / "none"), "--out", str(tmp_path / "c")])
    assert "no journal" in capsys.readouterr().err


def test_replay_plays_again_the_games_of_a_changed_agent_and_keeps_the_others(tmp_path, capsys):
    """``--replay SPEC``: the journal's games in which that agent sits are played again, on the same deals and
    seatings, and replace their results in place; every other game, the batches and their seconds are kept."""
    journal = tmp_path / "wow"
    argv = ["--game", "way_out_west", "--agents", "random", "heuristic", "mcts:2", "mcts:3", "--games", "0",
            "--search-games", "16", "--batch", "8", "--journal", str(journal), "--out", str(tmp_path / "ladder")]
    ladder.main(argv)
    path = tmp_path / "wow.search.jsonl"
    header, *batches = [json.loads(line) for line in path.read_text().splitlines()]
    for batch in batches:  # mark every result, so that a replayed one shows
        for result in batch["results"]:
            result["n_decisions"] = -1
    path.write_text("".join(json.dumps(record) + "\n" for record in [header, *batches]))
    ladder.main([*argv, "--replay", "mcts:2"])
    after_header, *after = [json.loads(line) for line in path.read_text().splitlines()]
    assert after_header == header and [b["start"] for b in after] == [b["start"] for b in batches]
    assert [b["seconds"] for b in after] == [b["seconds"] for b in batches]
    replayed = kept = 0
    for before_batch, after_batch in zip(batches, after):
        for old, new in zip(before_batch["results"], after_batch["results"]):
            assert (new["index"], new["seating"]) == (old["index"], old["seating"])
            if 2 in new["seating"]:
                assert new["n_decisions"] > 0 and sum(new["win_shares"]) == pytest.approx(1)
                replayed += 1
            else:
                assert new == old
                kept += 1
    assert replayed and kept and replayed + kept == 16
    for extra, message in ((["--replay", "mcts:9"], "not among the agents"),):
        with pytest.raises(SystemExit):
            ladder.main([*argv, *extra])
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ladder.main([*argv[:-4], "--out", str(tmp_path / "b"), "--replay", "mcts:2"])
    assert "--replay needs --journal" in capsys.readouterr().err


def test_a_journal_refuses_to_replace_a_game_it_does_not_hold(tmp_path):
    from wildwest_envs.training.journal import MatchJournal
    from wildwest_envs.training.tournament import play_matches

    journal = MatchJournal(tmp_path / "j.jsonl", {"game": "way_out_west_v0"})
    journal.append(0, 1.0, [{"index": 0, "n_decisions": 5}])
    text = journal.path.read_text()
    with pytest.raises(ValueError, match="cannot replace games \\[1\\]"):
        journal.replace([{"index": 1, "n_decisions": 6}])
    assert journal.path.read_text() == text
    journal.replace([{"index": 0, "n_decisions": 7}])
    assert MatchJournal(journal.path, {"game": "way_out_west_v0"}).batches[0]["results"] == [{"index": 0,
                                                                                             "n_decisions": 7}]
    with pytest.raises(ValueError, match="replay needs the journal"):
        play_matches("way_out_west", ["random"] * 3, 3, 2, progress=False, replay=[0])


def test_bad_ladder_arguments_are_refused():
    for argv in (["--game", "colt_express", "--simulations", "0"], ["--game", "colt_express", "--agents", "random"],
                 ["--game", "colt_express", "--games", "-1"], ["--game", "colt_express", "--workers", "0"],
                 ["--game", "colt_express", "--added", "-1"], ["--game", "colt_express", "--added", "1"]):
        with pytest.raises(SystemExit):
            ladder.main(argv)


# ---- benchmarks/guided_sweep.py: the rollout weight of the guided search ---------------------------------------
def test_a_small_sweep_plays_each_weight_on_the_same_deals_and_writes_its_table(tmp_path):
    from benchmarks import guided_sweep
    out = tmp_path / "sweep"
    markdown = guided_sweep.main(["--game", "colt_express", "--weights", "0", "1", "--simulations", "3",
                                  "--games", "6", "--opponents", "random", "heuristic", "--out", str(out)])
    assert (tmp_path / "sweep.md").read_text() == markdown
    rows = [line for line in markdown.splitlines() if line.startswith("| 0 |") or line.startswith("| 1 |")]
    assert len(rows) == 2
    for row in rows:
        cells = row.strip(" |").split(" | ")
        assert cells[1] == "6" and all("n=6" in cell for cell in cells[2:5])  # every game: one meeting of each
    assert "vs random" in markdown and "vs heuristic" in markdown


def test_a_sweep_of_rollouts_per_leaf_keeps_the_games_spec_and_names_its_setting(tmp_path):
    from benchmarks import guided_sweep
    markdown = guided_sweep.main(["--game", "colt_express", "--leaf-rollouts", "1", "2", "--simulations", "3",
                                  "--games", "6", "--opponents", "random", "heuristic", "--out",
                                  str(tmp_path / "sweep")])
    assert "rollouts per leaf" in markdown and "prior_temperature 4, rollout_weight 1" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2 and all(row.split(" | ")[1] == "6" for row in rows)


def test_bad_sweep_arguments_are_refused():
    from benchmarks import guided_sweep
    for argv in (["--game", "colt_express", "--weights", "1.5"], ["--game", "colt_express", "--games", "0"],
                 ["--game", "chess"], ["--game", "colt_express", "--leaf-rollouts", "0"]):
        with pytest.raises(SystemExit):
            guided_sweep.main(argv)


README_COLUMNS = ("random", "heuristic", "mcts", "ppo-default", "pretrained", "mcts+pretrained")
README_ROWS = {"Colt Express": "colt_express", "Way Out West": "way_out_west",
               "Wild West Express": "wild_west_express", "Rail": "rail"}


def _ladder_cells(game: str) -> dict[str, str]:
    """``win rate · μ−3σ`` of every agent of a committed ladder report, keyed by the README's column."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "benchmarks" / "results" / f"ladder_{game}_3p.md").read_text().split("### Head to head")[0]
    cells = {}
    for line in text.splitlines():
        fields = [f.strip() for f in line.strip().strip("|").split("|")]
        if len(fields) == 10 and fields[0] not in ("agent", "---"):
            column = fields[0].partition(":")[0] if fields[0].startswith("mcts") else fields[0]
            rating = Decimal(fields[7]).quantize(Decimal("0.1"), ROUND_HALF_UP)  # 34.05 -> 34.1, as people round
            cells[column] = f"{fields[3]} · {rating}".replace("-", "−")
    return cells


def test_the_readme_ladder_table_is_the_committed_ladders():
    """Each README ladder row shows each agent's win rate and rating as its committed report has them."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for title, game in README_ROWS.items():
        row = next(line for line in readme.splitlines() if line.startswith(f"| {title} ("))
        shown = [c.strip() for c in row.strip().strip("|").split("|")][1:]
        expected = _ladder_cells(game)
        assert shown == [expected.get(column, "–") for column in README_COLUMNS], title
