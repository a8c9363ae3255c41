"""Quick start (``core.quickstart``): while numba's cache is cold, a PettingZoo env plays its first games on a
plain-Python twin of its game, the same games, while a background process compiles; then it switches."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest
from numba.core import event
from pettingzoo.test import api_test

from tests._quickstart_run import CompileCounter
from tests.conftest import GAME_NAMES
from wildwest_envs.core import quickstart
from wildwest_envs.registry import get_game, make

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = 300  # steps compared per game (whole games but Wild West Express's 2,600 decisions)


class RunningProcess:
    """A stand-in for a warm-up process that never ends (``poll`` None), or one that ended with ``returncode``."""

    def __init__(self, returncode: int | None = None):
        self.returncode = returncode

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        return self.returncode


@pytest.fixture
def cold(monkeypatch, tmp_path):
    """Quick start on, with no marker (a cold cache) and no real warm-up: ``started`` lists the games whose
    warm-up was started (each a process that runs for ever)."""
    monkeypatch.setenv(quickstart.ENV_SWITCH, "on")
    monkeypatch.setenv(quickstart.ENV_DIR, str(tmp_path))
    monkeypatch.setattr(quickstart, "_warmups", {})
    monkeypatch.setattr(quickstart, "_warm", set())
    started = []

    def start(game, events, options, marker):
        started.append(game.name)
        return RunningProcess()

    monkeypatch.setattr(quickstart, "_start_warmup", start)
    return started


def _trajectory(env, seed: int, decisions: int) -> list:
    """``decisions`` seeded random steps of an AEC env: every observation, mask, action and reward on the way."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for i, _agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), action, reward, repr(info)))
        env.step(action)
        if i + 1 >= decisions:
            break
    return seen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_cold_env_plays_a_plain_twin_the_same_games_without_compiling_or_warnings(name, cold):
    """The twin's kernels are Python functions; the env plays exactly the compiled game's trajectory (events
    included), numba compiles nothing and numpy warns of nothing on the way; one warm-up is started, once."""
    compiled = _trajectory(make(name, events=True), seed=3, decisions=DECISIONS)
    env = make(name, events=True)
    counter = CompileCounter()
    event.register("numba:compile", counter)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the twin's uint64 wraparound must not warn the user
            plain = _trajectory(env, seed=3, decisions=DECISIONS)
    finally:
        event.unregister("numba:compile", counter)
    twin = env.unwrapped.game
    assert quickstart.is_plain(twin) and not quickstart.is_plain(get_game(name))
    assert isinstance(twin.step_kernel, types.FunctionType) and isinstance(twin.observe_kernel, types.FunctionType)
    compiled_class = type(get_game(name))
    assert type(twin).__qualname__ == compiled_class.__qualname__
    assert type(twin).__module__ == compiled_class.__module__.replace("wildwest_envs.", quickstart.PLAIN_PACKAGE + ".")
    assert counter.count == 0
    assert plain == compiled
    env.reset()
    assert cold == [name]  # the next reset finds the warm-up running: not started again


@pytest.mark.parametrize("name", ["colt_express_v0", "way_out_west_v0"])
def test_an_env_on_a_plain_twin_passes_the_pettingzoo_api_test(name, cold):
    env = make(name)
    env.reset(seed=0)
    assert quickstart.is_plain(env.unwrapped.game)
    api_test(env, num_cycles=300)


def test_a_warm_cache_or_the_off_switch_plays_the_compiled_game_at_once(cold, monkeypatch):
    game = get_game("way_out_west_v0")
    quickstart.marker_path(game, events=False).write_text("{}")
    assert quickstart.game_to_play(game) is game  # warm
    assert quickstart.game_to_play(game, events=True) is not game  # the event log's build is not warm yet
    quickstart.marker_path(game, events=False).unlink()
    assert quickstart.game_to_play(game) is game  # found warm once: no more checks in this process
    monkeypatch.setenv(quickstart.ENV_SWITCH, "off")
    assert quickstart.game_to_play(game, events=True) is game
    assert cold == ["way_out_west_v0"]


def test_a_game_of_one_s_own_plays_as_it_is(cold):
    """Only registered games have twins: a variant ``Game`` (here one with another score scale) or an unregistered
    one is played as given."""
    import dataclasses

    game = get_game("way_out_west_v0")
    variant = dataclasses.replace(game, score_scale=1.0)
    assert quickstart.game_to_play(variant) is variant
    unregistered = dataclasses.replace(game, name="my_game_v0")
    assert quickstart.game_to_play(unregistered) is unregistered
    assert cold == []


def test_a_failed_warm_up_leaves_the_env_to_compile_in_its_own_process(cold, monkeypatch):
    game = get_game("colt_express_v0")
    assert quickstart.is_plain(quickstart.game_to_play(game))
    monkeypatch.setitem(quickstart._warmups, str(quickstart.marker_path(game, False)), RunningProcess(returncode=1))
    assert quickstart.game_to_play(game) is game
    assert cold == ["colt_express_v0"]


def test_a_warm_up_of_another_live_process_is_not_started_again(cold):
    game = get_game("rail_v0")
    lock = quickstart.marker_path(game, False).with_suffix(".lock")
    lock.write_text(str(os.getpid()))  # a live process holds the lock
    assert quickstart.is_plain(quickstart.game_to_play(game))
    assert cold == []
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock.write_text(dead.stdout.strip())  # a stale lock: its process has ended
    assert quickstart.is_plain(quickstart.game_to_play(game))
    assert cold == ["rail_v0"]
    assert lock.read_text() == str(os.getpid())  # taken over (the real warm-up then writes its own pid)


def test_of_processes_starting_cold_at_once_one_claims_the_warm_up(tmp_path):
    marker = tmp_path / "quickstart-rail_v0-plain-0123.ok"
    assert quickstart._claim(marker)
    assert not quickstart._claim(marker)  # held by a live process (this one)
    marker.with_suffix(".lock").write_text("not a pid")
    assert quickstart._claim(marker)  # an unreadable lock is stale


def test_the_marker_follows_the_sources_numba_and_python(cold, monkeypatch, tmp_path):
    game = get_game("way_out_west_v0")
    source = tmp_path / "rules.py"
    source.write_text("x = 1\n")
    monkeypatch.setattr(quickstart, "_sources", lambda game: [source])
    key = quickstart.cache_key(game)
    assert quickstart.cache_key(game) == key
    source.write_text("x = 2\n")  # an edit: numba's cache of the file is stale too
    assert quickstart.cache_key(game) != key
    edited = quickstart.cache_key(game)
    monkeypatch.setattr(quickstart.numba, "__version__", "0.0.1")
    assert quickstart.cache_key(game) != edited
    assert quickstart.marker_path(game, False).parent == tmp_path  # WILDWEST_QUICKSTART_DIR


def test_the_sources_of_the_key_are_core_and_the_game_package():
    names = {(p.parent.name, p.name) for p in quickstart._sources(get_game("rail_v0"))}
    assert {("core", "kernels.py"), ("rail", "rules.py"), ("rail", "races.py")} <= names
    assert not any(folder in ("colt_express", "way_out_west") for folder, _ in names)


def test_plain_module_is_for_the_library_s_modules_only():
    with pytest.raises(ValueError, match="is not a module of wildwest_envs"):
        quickstart.plain_module("numpy.linalg")
    twin = quickstart.plain_module("wildwest_envs.core.kernels")
    assert twin.__name__ == "_wildwest_envs_plain.core.kernels"
    assert isinstance(twin.lowest_bit, types.FunctionType)
    assert twin.lowest_bit(np.uint64(8)) == 3
    assert quickstart.plain_module("wildwest_envs.core.kernels") is twin  # imported once


def test_copies_of_an_env_on_a_plain_twin(cold):
    """A deep copy shares the twin and plays on identically; a pickled copy is restored on the compiled game and
    plays on identically too."""
    env = make("way_out_west_v0")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    clone = copy.deepcopy(env)
    assert clone.unwrapped.game is env.unwrapped.game and quickstart.is_plain(clone.unwrapped.game)
    restored = pickle.loads(pickle.dumps(env))
    assert restored.unwrapped.game is get_game("way_out_west_v0")

    def rest(e):
        seen = []
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1])
            seen.append((action, reward))
            e.step(action)
        return seen

    assert rest(clone) == rest(restored) == rest(env)


def test_the_warm_up_plays_a_compiled_game_and_writes_the_marker(cold):
    game = get_game("way_out_west_v0")
    marker = quickstart.marker_path(game, events=False)
    options = {"num_players": 4}
    assert quickstart.main([game.name, "--marker", str(marker), "--options", json.dumps(options)]) == 0
    assert json.loads(marker.read_text())["decisions"] > 0
    assert not marker.with_suffix(".lock").exists()
    assert quickstart.is_warm(game) and quickstart.game_to_play(game) is game


def test_a_terminal_game_starts_at_once_on_the_twin_and_plays_the_compiled_game(cold, monkeypatch):
    """``wildwest-play`` (a person against random agents) plays while the cache is cold on the twin, the same
    game as compiled, with no overflow warning for the person to read."""
    import io

    from wildwest_envs.training import play

    chosen = []
    choose = quickstart.game_to_play
    monkeypatch.setattr(quickstart, "game_to_play", lambda game, *a, **k: chosen.append(choose(game, *a, **k))
                        or chosen[-1])
    argv = ["--game", "way_out_west", "--players", "3", "--opponents", "random", "--seat", "1", "--seed", "2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = io.StringIO()
        plain_scores = play.main(argv, io.StringIO("1\n" * 2000), plain)
    assert len(chosen) == 1 and quickstart.is_plain(chosen[0]) and cold == ["way_out_west_v0"]
    monkeypatch.setenv(quickstart.ENV_SWITCH, "off")
    compiled = io.StringIO()
    compiled_scores = play.main(argv, io.StringIO("1\n" * 2000), compiled)
    assert not quickstart.is_plain(chosen[-1])
    assert plain.getvalue() == compiled.getvalue() and list(plain_scores) == list(compiled_scores)


def test_a_browser_game_starts_at_once_on_the_twin_and_plays_the_compiled_game(cold, monkeypatch, tmp_path):
    """``wildwest-play --web``: the session plays on the twin while the cache is cold (its warm-up with the event
    log's build), and every page it serves (board, moves, events, scores, result) and its record are the compiled
    session's, with no overflow warning."""
    from wildwest_envs.viewer.web_play import PlaySession, seat_agents

    def whole_game(save: Path) -> tuple[list, str, object]:
        agents = seat_agents(["random"], "way_out_west", 3, 1, 4, True, prog="test")
        session = PlaySession("way_out_west", agents, 1, 4, save)
        views = [session.view()]
        while not views[-1]["finished"]:
            views.append(session.move(views[-1]["legal"][-1]["action"], views[-1]["decision"]))
        assert views[-1]["record"].pop("path") == str(save)  # the one thing that differs
        return views, save.read_text(), session.game

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain_views, plain_record, plain_game = whole_game(tmp_path / "plain.json")
    assert quickstart.is_plain(plain_game) and cold == ["way_out_west_v0"]
    assert quickstart.marker_path(get_game("way_out_west_v0"), events=True).with_suffix(".lock").exists()
    monkeypatch.setenv(quickstart.ENV_SWITCH, "off")
    views, record, game = whole_game(tmp_path / "compiled.json")
    assert game is get_game("way_out_west_v0")
    assert len(plain_views) > 10 and plain_views == views
    assert json.loads(plain_record)["actions"] == json.loads(record)["actions"]


@pytest.mark.slow
def test_a_new_user_s_first_game_compiles_nothing_and_the_next_runs_compiled(tmp_path):
    """In a fresh process (a new user's program), with no marker: the first game plays at once as plain Python
    (numba compiles nothing in the process); the background warm-up fills the cache; the same game again is played
    compiled, loaded from the cache (nothing compiled in the process either), with the same trajectory."""
    env = dict(os.environ, WILDWEST_QUICKSTART="on", WILDWEST_QUICKSTART_DIR=str(tmp_path),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "tests._quickstart_run", "way_out_west_v0"], env=env,
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["first"]["plain"] and report["first"]["compiled"] == 0
    assert report["warm"]
    assert not report["second"]["plain"] and report["second"]["compiled"] == 0
    assert report["second"]["digest"] == report["first"]["digest"]
    assert "warm: way_out_west_v0" in next(tmp_path.glob("*.log")).read_text()
