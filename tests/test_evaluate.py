"""Evaluation tooling: intervals, seatings, tournaments, ratings, agent specs, human play, checkpoints."""

from __future__ import annotations

import dataclasses
import io
import json
from collections import Counter

import numpy as np
import pytest

from wildwest_envs.agents import registry as agent_registry
from wildwest_envs.agents.base import RandomAgent
from wildwest_envs.agents.human import HumanAgent
from wildwest_envs.agents.registry import make_agent
from wildwest_envs.training.report import plot_learning_curve, wrap_label
from wildwest_envs.training.stats import head_to_head, openskill_ratings, summarize, wilson_interval
from wildwest_envs.training.tournament import AgentSpecs, GameResult, evaluate_against, focal_schedule, open_journal, \
    play_matches, seat_ranks, seat_schedule, tournament
from wildwest_envs.registry import GAMES, get_game

GAME_NAME = next(iter(GAMES))  # the tests need one registered game; the first is enough


# ---- confidence intervals -----------------------------------------------------------------
@pytest.mark.parametrize("wins, n, expected", [
    (50, 100, (0.404, 0.596)),
    (0, 10, (0.000, 0.278)),
    (10, 10, (0.722, 1.000)),
    (1, 3, (0.061, 0.792)),
])
def test_wilson_interval_known_values(wins, n, expected):
    """Textbook Wilson score intervals (z = 1.96), to 3 decimals."""
    assert tuple(round(x, 3) for x in wilson_interval(wins, n)) == expected


def test_wilson_interval_without_games_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ---- seatings -------------------------------------------------------------------------------
@pytest.mark.parametrize("n_agents, num_players, length", [(2, 3, 6), (3, 3, 6), (2, 4, 14), (3, 4, 36),
                                                           (4, 3, 24), (1, 2, 1)])
def test_seat_schedule_is_balanced(n_agents, num_players, length):
    """Every agent holds every seat equally often; min(k, N) different agents per game."""
    schedule = seat_schedule(n_agents, num_players)
    assert len(schedule) == len(set(schedule)) == length
    assert all(len(set(s)) == min(n_agents, num_players) for s in schedule)
    for seat in range(num_players):
        counts = Counter(s[seat] for s in schedule)
        assert len(counts) == n_agents and len(set(counts.values())) == 1


def test_seat_schedule_two_agents_three_seats_is_every_lineup_permutation():
    """[A,B,B] and [A,A,B] in all their distinct seat orders."""
    assert sorted(seat_schedule(2, 3)) == [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]


def test_focal_schedule_puts_the_focal_agent_once_in_every_seat():
    schedule = focal_schedule(2, 3)
    assert all(s.count(0) == 1 for s in schedule)
    assert Counter(s.index(0) for s in schedule) == {0: 2, 1: 2, 2: 2}
    for seat in range(3):
        assert Counter(s[seat] for s in schedule if s[seat] != 0) == {1: 2, 2: 2}


# ---- tournaments ------------------------------------------------------------------------------
def test_tiny_tournament_random_vs_random(tmp_path):
    """2 random agents, 3 players, 60 games: balanced seats, wins add up to the games, files written."""
    out = tmp_path / "strength"
    markdown, results = tournament(GAME_NAME, 3, [RandomAgent(1), RandomAgent(2)], 60, seed=0, batch=32, out=out,
                                   progress=False)
    finished = [r for r in results if not r.truncated]
    stats = summarize(results, ["random", "random#2"])
    assert len(results) == 60 and [r.index for r in results] == list(range(60))
    assert [s.seats for s in stats] == [90, 90]  # 10 cycles of the 6 seatings, 9 seats each per cycle
    assert sum(s.wins for s in stats) == pytest.approx(len(finished))
    for s in stats:
        lo, hi = s.interval
        assert 0.1 < s.win_rate < 0.6 and lo <= s.win_rate <= hi
        assert 1 <= s.mean_rank <= 3
    _, points, meetings = head_to_head(results, ["random", "random#2"])
    assert points[0, 1] + points[1, 0] == pytest.approx(meetings[0, 1]) and meetings[0, 1] == meetings[1, 0] > 0
    assert "| random#2 |" in markdown
    assert out.with_name("strength.md").read_text() == markdown
    assert out.with_name("strength.png").stat().st_size > 0


def test_play_matches_is_reproducible_and_seeded():
    """The same seed replays the same games; another seed deals others."""
    def run(seed):
        return play_matches(GAME_NAME, [RandomAgent(1), RandomAgent(2)], 3, 6, seed, batch=4, progress=False)
    first, again, other = run(5), run(5), run(6)
    assert first == again
    assert [r.scores for r in first] != [r.scores for r in other]


class _FirstLegalAgent:
    """Deterministic whatever it played before: the lowest legal action."""

    def __init__(self, name):
        self.name = name

    def act_batch(self, observations, masks, states=None, seats=None):
        return np.argmax(masks, axis=1)


def _journaled(path, n_games, agents=("first", "second"), seed=5):
    agents = [_FirstLegalAgent(name) for name in agents]
    journal = open_journal(path, GAME_NAME, agents, 3, seed, seat_schedule(2, 3))
    return play_matches(GAME_NAME, agents, 3, n_games, seed, batch=4, schedule=seat_schedule(2, 3), progress=False,
                        journal=journal), journal


def test_a_journaled_match_goes_on_where_it_stopped_and_extends(tmp_path):
    """Games on disk are taken, not replayed; a longer run plays only the missing ones and equals an
    uninterrupted run (agents that do not draw random numbers)."""
    path = tmp_path / "match.jsonl"
    whole, _ = _journaled(tmp_path / "whole.jsonl", 10)
    first, journal = _journaled(path, 6)
    assert first == whole[:6] and journal.games == 6 and len(path.read_text().splitlines()) == 1 + 2  # 4 + 2
    lines_before = path.read_text()
    again, journal = _journaled(path, 6)
    assert again == first and path.read_text() == lines_before  # nothing played again
    longer, journal = _journaled(path, 10)
    assert longer == whole and journal.games == 10
    shorter, journal = _journaled(path, 3)
    assert shorter == whole[:3] and 0 < journal.seconds(3) <= journal.seconds(10)


def test_a_journal_cut_mid_line_loses_only_that_batch(tmp_path):
    path = tmp_path / "match.jsonl"
    whole, _ = _journaled(path, 8)
    text = path.read_text()
    path.write_text(text[:-20])  # the last batch's line, cut while written
    resumed, journal = _journaled(path, 8)
    assert resumed == whole and path.read_text().count("\n") == text.count("\n")


def test_a_journal_of_another_match_or_a_corrupt_one_is_refused(tmp_path):
    path = tmp_path / "match.jsonl"
    _journaled(path, 4)
    with pytest.raises(ValueError, match="journal of another match"):
        _journaled(path, 4, agents=("first", "other"))
    with pytest.raises(ValueError, match="journal of another match"):
        _journaled(path, 4, seed=6)
    path.write_text(path.read_text().replace('"start": 0', '"start": 3'))
    with pytest.raises(ValueError, match="corrupt match journal"):
        _journaled(path, 4)
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match="corrupt match journal"):
        _journaled(path, 4)
    path.write_text('{"a": 1}\n')
    with pytest.raises(ValueError, match="not a match journal"):
        _journaled(path, 4)


def test_an_agent_seated_in_no_seating_may_change_its_name(tmp_path):
    """A ladder's part without search seats only some of its agents: the others' names are not compared, so a
    changed search agent keeps that part's journal; a seated agent's new name is still refused."""
    path = tmp_path / "part.jsonl"
    schedule = seat_schedule(2, 3)  # seats agents 0 and 1 only

    def run(names):
        agents = [_FirstLegalAgent(name) for name in names]
        journal = open_journal(path, GAME_NAME, agents, 3, 5, schedule)
        return play_matches(GAME_NAME, agents, 3, 4, 5, batch=4, schedule=schedule, progress=False, journal=journal)

    first = run(("first", "second", "search:10"))
    text = path.read_text()
    assert run(("first", "second", "search:16")) == first and path.read_text() == text  # taken, not replayed
    with pytest.raises(ValueError, match="journal of another match"):
        run(("first", "other", "search:16"))


def _first_legal_agents(worker):
    """``make_agents`` of the workers test: deterministic agents (module level: a worker process imports it)."""
    return [_FirstLegalAgent("first"), _FirstLegalAgent("second")]


def test_workers_play_the_games_of_a_serial_run_in_order_into_one_journal(tmp_path):
    """``workers=2``: two processes build their own agents and play batches side by side; the deals, seatings
    and results (deterministic agents) and the journal's batches are those of a serial run."""
    agents, schedule = _first_legal_agents(0), seat_schedule(2, 3)
    serial = play_matches(GAME_NAME, agents, 3, 10, 5, batch=3, schedule=schedule, progress=False)
    path = tmp_path / "match.jsonl"
    journal = open_journal(path, GAME_NAME, agents, 3, 5, schedule)
    parallel = play_matches(GAME_NAME, agents, 3, 10, 5, batch=3, schedule=schedule, progress=False,
                            journal=journal, workers=2, make_agents=_first_legal_agents)
    assert parallel == serial and [r.index for r in parallel] == list(range(10))
    starts = [json.loads(line)["start"] for line in path.read_text().splitlines()[1:]]
    assert starts == [0, 3, 6, 9]
    journal = open_journal(path, GAME_NAME, agents, 3, 5, schedule)  # a serial run takes the workers' games
    assert play_matches(GAME_NAME, agents, 3, 10, 5, batch=3, schedule=schedule, progress=False,
                        journal=journal) == serial
    original = path.read_text()  # replayed by the workers, the games of deterministic agents come back the same
    header, *batches = [json.loads(line) for line in original.splitlines()]
    for batch in batches:
        for result in batch["results"]:
            result["n_decisions"] = -1
    path.write_text("".join(json.dumps(record) + "\n" for record in [header, *batches]))
    journal = open_journal(path, GAME_NAME, agents, 3, 5, schedule)
    assert play_matches(GAME_NAME, agents, 3, 10, 5, batch=3, schedule=schedule, progress=False, journal=journal,
                        workers=2, make_agents=_first_legal_agents, replay=[1]) == serial
    assert path.read_text() == original


def test_workers_need_a_factory_and_worker_seeds_differ():
    with pytest.raises(ValueError, match="make_agents"):
        play_matches(GAME_NAME, [RandomAgent(1), RandomAgent(2)], 3, 2, progress=False, workers=2)
    with pytest.raises(ValueError, match="at least 1"):
        play_matches(GAME_NAME, [RandomAgent(1), RandomAgent(2)], 3, 2, progress=False, workers=0)
    unregistered = dataclasses.replace(get_game(GAME_NAME))  # e.g. bound by Game.from_package: not in the registry
    with pytest.raises(ValueError, match="registered game"):
        play_matches(unregistered, [RandomAgent(1), RandomAgent(2)], 3, 2, progress=False, workers=2,
                     make_agents=_first_legal_agents)
    specs = AgentSpecs(("random", "random"), GAME_NAME, 3, seed=7)
    first, second = specs(0), specs(1)
    assert [a.rng.integers(1 << 30) for a in first] == [RandomAgent(7).rng.integers(1 << 30),
                                                        RandomAgent(8).rng.integers(1 << 30)]
    assert first[0].rng.integers(1 << 30) != second[0].rng.integers(1 << 30)


def test_seat_ranks_agree_with_the_game_winners():
    game = get_game(GAME_NAME)
    states = game.init_batch(4, seed=11, num_players=4)
    agent = RandomAgent(0)
    while not (states["done"] | game.truncated(states)).all():
        game.step(states, agent.act_batch(None, np.maximum(game.legal_mask(states), states["done"][:, None])),
                  check=False)
    ranks = seat_ranks(game, states)
    np.testing.assert_array_equal(ranks == 1, game.winners(states)[:, :4])
    rank_reward = game.returns(states, "rank")[:, :4]  # (beaten - beating) / (N - 1): the order must agree
    for b in range(4):
        for s in range(4):
            for t in range(4):
                assert (ranks[b, s] < ranks[b, t]) == (rank_reward[b, s] > rank_reward[b, t])


class _IllegalAgent(RandomAgent):
    name = "cheater"

    def act_batch(self, observations, masks, states=None, seats=None):
        return np.full(len(masks), 10_000)


def test_an_illegal_agent_action_is_an_error():
    with pytest.raises(ValueError, match="cheater chose illegal action 10000"):
        play_matches(GAME_NAME, [_IllegalAgent(), RandomAgent(1)], 3, 2, progress=False)


def test_evaluate_against_pools_copies_of_one_opponent():
    table, results = evaluate_against(GAME_NAME, 3, RandomAgent(0), [RandomAgent(1), RandomAgent(2)], 6, seed=0)
    assert all(r.seating.count(0) == 1 for r in results)
    assert "random (evaluated)" in table and table.count("| random |") == 1


def _result(index: int, seating: tuple, ranks: tuple, scores: tuple | None = None) -> GameResult:
    winners = [r == 1 for r in ranks]
    shares = tuple(w / sum(winners) for w in winners)
    return GameResult(index, seating, scores or tuple(10 - r for r in ranks), ranks, shares, False, 1)


def test_openskill_ratings_reward_the_agent_that_finishes_first():
    """Agent 0 always first, agent 2 always last: mu and the ordinal order 0 > 1 > 2."""
    results = [_result(i, perm, tuple(1 + p for p in perm)) for i, perm in
               enumerate([(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)] * 3)]
    ratings = openskill_ratings(results, ["a", "b", "c"])
    mus = [mu for mu, _ in ratings]
    assert mus[0] > 25 > mus[2] and mus[0] > mus[1] > mus[2]
    stats = summarize(results, ["a", "b", "c"])
    assert stats[0].ordinal > stats[1].ordinal > stats[2].ordinal
    assert [s.wins for s in stats] == [18, 0, 0] and [s.mean_rank for s in stats] == [1, 2, 3]


def test_ties_share_wins_and_leave_equal_ratings_equal():
    results = [_result(i, (0, 1), (1, 1)) for i in range(5)]
    stats = summarize(results, ["a", "b"])
    assert [s.wins for s in stats] == [2.5, 2.5]
    assert stats[0].mu == pytest.approx(stats[1].mu) and stats[0].sigma < 25 / 3


def test_truncated_games_are_left_out():
    results = [_result(0, (0, 1), (1, 2)), GameResult(1, (0, 1), (0, 0), (1, 1), (0.5, 0.5), True, 700)]
    assert [s.seats for s in summarize(results, ["a", "b"])] == [1, 1]


def test_learning_curve_plot_from_progress_csv(tmp_path):
    (tmp_path / "progress.csv").write_text(
        "time/total_timesteps,rollout/ep_rew_mean,selfplay/win_rate\n64,-0.5,\n128,-0.2,0.3\n192,0.1,0.4\n")
    (tmp_path / "config.json").write_text(json.dumps({"game": GAME_NAME, "num_players": 3}))
    copy = tmp_path / "copy" / "curve.png"
    path = plot_learning_curve(tmp_path, copy)
    assert path == tmp_path / "learning_curve.png" and path.stat().st_size > 0 and copy.is_file()


def test_learning_curve_without_known_columns_is_an_error(tmp_path):
    (tmp_path / "progress.csv").write_text("time/total_timesteps,train/loss\n64,1.0\n")
    with pytest.raises(ValueError, match="selfplay/win_rate"):
        plot_learning_curve(tmp_path)


# ---- agent specs ---------------------------------------------------------------------------------
def test_make_agent_builds_simple_agents():
    assert isinstance(make_agent("random", GAME_NAME, seed=3), RandomAgent)
    flat = make_agent("mc:16", GAME_NAME, seed=3)
    assert (type(flat).__name__, flat.playouts, flat.name) == ("FlatMonteCarloAgent", 16, "mc:16")
    assert make_agent("mc", GAME_NAME).playouts == 48
    assert isinstance(make_agent("human", GAME_NAME), HumanAgent)


@pytest.mark.parametrize("spec, message", [
    ("best-agent", "valid specs: random, heuristic"),
    ("runs/nowhere/model.zip", "no checkpoint"),
    ("mcts:many", "mcts:<simulations>"),
    ("mcts:0", "positive integer"),
    ("mc:lots", "mc:<playouts>"),
    ("mc:0", "positive integer"),
    ("", "non-empty"),
])
def test_make_agent_rejects_bad_specs(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, GAME_NAME)


def test_make_agent_heuristic_for_a_game_without_one(monkeypatch):
    monkeypatch.setattr(agent_registry, "HEURISTICS", {})
    with pytest.raises(ValueError, match="no heuristic agent"):
        make_agent("heuristic", GAME_NAME)


def test_make_agent_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        make_agent("random", "poker")


# ---- human play ------------------------------------------------------------------------------------
@pytest.fixture
def decision():
    """A fresh game at its first decision: (game, states, seat, legal actions, their names)."""
    game = get_game(GAME_NAME)
    states = game.init_batch(1, seed=3, num_players=3)
    legal = np.flatnonzero(game.legal_mask(states)[0])
    return game, states, int(states["current"][0]), legal, game.legal_action_strings(states[0])


def _ask(decision, script: str) -> tuple[int, str]:
    game, states, seat, _, _ = decision
    out = io.StringIO()
    agent = HumanAgent(game, io.StringIO(script), out)
    action = agent.act_batch(game.observe(states), game.legal_mask(states), states, np.array([seat]))
    return int(action[0]), out.getvalue()


def test_human_chooses_by_number(decision):
    _, _, _, legal, names = decision
    action, shown = _ask(decision, "2\n")
    assert action == legal[1]
    assert f"1. {names[0]}" in shown and "round 1" in shown  # the legal names and the board


def test_human_chooses_by_name_after_garbage(decision):
    _, _, _, legal, names = decision
    action, shown = _ask(decision, f"nonsense\n0\n{len(names) + 1}\n{names[-1]}\n")
    assert action == legal[-1]
    assert "'nonsense' is neither" in shown and f"type a number from 1 to {len(names)}" in shown


def test_human_quits_and_input_end(decision):
    with pytest.raises(KeyboardInterrupt):
        _ask(decision, "q\n")
    with pytest.raises(EOFError):
        _ask(decision, "garbage\n")


def test_human_act_without_state_explains():
    agent = HumanAgent(get_game(GAME_NAME))
    with pytest.raises(TypeError, match="needs the game state"):
        agent.act(np.zeros(3, np.float32), np.ones(3, np.int8))


def test_play_main_end_to_end():
    """A scripted person always picks the first legal action and plays a whole game."""
    from wildwest_envs.training import play

    out = io.StringIO()
    scores = play.main(["--game", GAME_NAME, "--players", "3", "--opponents", "random", "--seat", "1",
                        "--seed", "2"], io.StringIO("1\n" * 2000), out)
    text = out.getvalue()
    assert scores is not None and len(scores) == 3
    assert "final scores:" in text and "player_1 (you)" in text and "player_0 (random):" in text


def test_play_main_quit():
    from wildwest_envs.training import play

    out = io.StringIO()
    assert play.main(["--game", GAME_NAME, "--players", "3"], io.StringIO("q\n"), out) is None
    assert "game abandoned" in out.getvalue()


# ---- checkpoints ------------------------------------------------------------------------------------
def test_policy_checkpoint_round_trip(tmp_path):
    """Train a tiny MaskablePPO, save, load: the same legal greedy actions; snapshots stay frozen."""
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    from wildwest_envs.agents.policy import PolicyAgent
    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv

    game = get_game(GAME_NAME)
    torch.set_num_threads(1)
    env = SelfPlayVecEnv(game, 4, OpponentPool([RandomAgent(0)]), seed=0, num_players=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(64)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    model.save(run_dir / "model.zip")
    (run_dir / "config.json").write_text(json.dumps({"game": GAME_NAME, "num_players": 3}))

    states = game.init_batch(16, seed=9, num_players=3)
    for _ in range(5):  # a few random moves for varied positions
        game.step(states, RandomAgent(1).act_batch(None, game.legal_mask(states)), check=False)
    observations, masks = game.observe(states), game.legal_mask(states)
    live, _ = model.predict(observations, action_masks=masks.astype(bool), deterministic=True)

    loaded = make_agent(str(run_dir), GAME_NAME)
    assert isinstance(loaded, PolicyAgent) and loaded.name == f"policy:{run_dir}" and loaded.config["num_players"] == 3
    actions = loaded.act_batch(observations, masks)
    assert (masks[np.arange(16), actions] == 1).all()
    np.testing.assert_array_equal(actions, live)
    np.testing.assert_array_equal(PolicyAgent.load(run_dir / "model.zip").act_batch(observations, masks), live)

    snapshot = PolicyAgent.from_model(model, name="snapshot-1")
    model.learn(64)  # training goes on; the snapshot must not follow
    np.testing.assert_array_equal(snapshot.act_batch(observations, masks), live)

    torch.manual_seed(123)
    expected = torch.rand(1)
    torch.manual_seed(123)
    sampled = [PolicyAgent.load(run_dir, deterministic=False, seed=4).act_batch(observations, masks)
               for _ in range(2)]
    assert torch.rand(1) == expected  # sampling leaves the global torch RNG alone
    np.testing.assert_array_equal(sampled[0], sampled[1])  # and is reproducible from the agent's seed
    assert (masks[np.arange(16), sampled[0]] == 1).all()

    (run_dir / "config.json").write_text(json.dumps({"game": "rail_v0", "num_players": 3}))
    with pytest.raises(ValueError):
        make_agent(str(run_dir), GAME_NAME)


def test_focal_cli_puts_the_first_agent_in_one_seat(tmp_path):
    """``--focal``: the first agent plays every seat in turn against the others; a table and plot are written."""
    from wildwest_envs.training.evaluate import main as evaluate_main

    out = tmp_path / "focal"
    text = evaluate_main(["--game", "colt_express", "--players", "3", "--agents", "heuristic", "random", "random",
                          "--focal", "--games", "12", "--out", str(out)])
    assert "heuristic against random, random" in text
    assert "| heuristic | 12 |" in text
    assert (tmp_path / "focal.md").exists() and (tmp_path / "focal.png").exists()


def test_long_agent_names_break_after_a_separator_in_plot_labels():
    """An axis label of a long agent spec breaks after ``:`` (not inside ``200``); a path after ``/``; a name
    without separators every 18 characters; a short name is left whole. No character is lost."""
    assert wrap_label("heuristic") == "heuristic"
    assert wrap_label("mcts+pretrained:200") == "mcts+pretrained:\n200"
    path = "runs/colt_express_v0_3p_seed1/model.zip"
    assert wrap_label(path) == "runs/colt_express_\nv0_3p_seed1/\nmodel.zip"
    assert wrap_label("x" * 40).split("\n") == ["x" * 18, "x" * 18, "x" * 4]
    for name in ("mcts+pretrained:200", path, "x" * 40):
        lines = wrap_label(name).split("\n")
        assert "".join(lines) == name and all(len(line) <= 18 for line in lines)
