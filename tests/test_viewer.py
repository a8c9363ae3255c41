"""The replay viewer (``wildwest_envs.viewer``, ``wildwest-view``), opened in a real headless Chromium.

For a whole recorded game of each game: the page loads from a file:// URL with no console error, draws the
board (SVG where the game has a drawing, else the text board), steps with the buttons, the slider and the
arrow keys (step label, action name and events as the record says), shows the final scores at the last step,
and a seat's point of view hides the events that seat may not see (the record's ``seen_by``) and, where the
drawing hides something, draws another board. Screenshots go to ``tests._browser.ARTIFACTS``. A corrupt or
altered record is refused (``ValueError``; the command exits 1 with a message) and nothing is written.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests._browser import ARTIFACTS, chromium_page, console_errors
from wildwest_envs.core.records import GameRecord, make_record, replay
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game
from wildwest_envs.viewer import view_payload, write_viewer
from wildwest_envs.viewer.cli import main as view_main
from wildwest_envs.viewer.html import drawing_function, event_text, text_board

# short whole games, uniform-random agents: (options, seed)
GAMES = {
    "colt_express_v0": ({"num_players": 3}, 4),
    "wild_west_express_v0": ({"num_players": 3, "victory_target": 5}, 2),
    "rail_v0": ({"num_players": 2}, 4),
    "way_out_west_v0": ({"num_players": 3}, 4),
}


def record_of(name: str) -> GameRecord:
    """A whole random game of ``name`` as a record with its events."""
    options, seed = GAMES[name]
    game = get_game(name)
    deal = int(game_seeds(seed, 1)[0])
    states = game.init(np.array([deal], np.uint64), **options)
    sample = LegalSampler(1, seed)
    moves = []
    while not game.finished(states)[0]:
        action = int(sample(game.legal_mask(states))[0])
        moves.append((int(states["current"][0]), action))
        game.step(states, [action])
    n = options["num_players"]
    return make_record(game, deal, options, moves, ("random",) * n, states[0], events=True)


@pytest.fixture(scope="module")
def records():
    return {}


def cached_record(records, name):
    if name not in records:
        records[name] = record_of(name)
    return records[name]


def shown(page) -> dict:
    """What the page shows now."""
    return page.evaluate("""() => ({
        label: document.getElementById('step-label').textContent,
        action: document.getElementById('action').textContent,
        events: [...document.querySelectorAll('#events li.event')].map((li) => li.firstChild.textContent),
        board: document.getElementById('board').innerHTML,
        scores: [...document.querySelectorAll('#scores tr')].map((tr) => tr.cells[1].textContent),
        winners: [...document.querySelectorAll('#scores tr.winner')].map((tr) => tr.rowIndex),
    })""")


def set_slider(page, k: int) -> None:
    page.evaluate("(k) => { const s = document.getElementById('slider'); s.value = String(k);"
                  " s.dispatchEvent(new Event('input')); }", k)


def texts(events, seat=None) -> list[str]:
    return [event_text(e) for e in events if seat is None or seat in e["seen_by"]]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_viewer_steps_through_a_recorded_game_in_chromium(name, records, tmp_path):
    record = cached_record(records, name)
    game = get_game(name)
    n, steps = int(record.options["num_players"]), len(record.actions)
    path = write_viewer(record, tmp_path / "game.html")
    drawn = drawing_function(game) is not None

    with chromium_page() as page:
        errors, requests = console_errors(page), []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(path.resolve().as_uri())
        page.wait_for_function("document.body.dataset.ready !== '0'", timeout=20000)
        assert page.evaluate("document.body.dataset.ready") == "1", page.inner_text("#status")
        assert page.locator("#board svg" if drawn else "#board pre").count() == 1
        first = shown(page)
        assert first["label"] == f"step 0 / {steps}" and first["events"] == []

        page.click("#next")
        now = shown(page)
        assert now["label"] == f"step 1 / {steps}" and record.names[0] in now["action"]
        assert now["events"] == texts(record.events[0])
        page.click("#prev")
        assert shown(page)["label"] == f"step 0 / {steps}"

        k = next(i for i in range(steps // 2, steps) if record.events[i]) + 1  # a step with events
        set_slider(page, k)
        now = shown(page)
        assert now["label"] == f"step {k} / {steps}" and record.names[k - 1] in now["action"]
        assert now["events"] == texts(record.events[k - 1])
        page.locator("body").press("ArrowRight")  # focus away from the slider: the page's keys
        assert shown(page)["label"] == f"step {k + 1} / {steps}" and record.names[k] in shown(page)["action"]
        page.keyboard.press("ArrowLeft")
        assert shown(page)["label"] == f"step {k} / {steps}"
        assert shown(page)["board"] != first["board"]
        page.screenshot(path=str(ARTIFACTS / f"viewer_{name}.png"), full_page=True)

        page.keyboard.press("End")
        last = shown(page)
        assert last["label"] == f"step {steps} / {steps}"
        assert last["scores"] == [str(s) for s in record.result["scores"]]
        assert last["winners"] == record.result["winners"]

        # a seat's point of view: the events it may not see are gone, at a step where some are hidden
        hidden = [(i, s) for i, step in enumerate(record.events) for s in range(n)
                  if any(s not in e["seen_by"] for e in step)]
        if game.information == "imperfect":
            assert hidden, "a game of hidden information whose record hides no event from any seat"
        i, seat = hidden[0] if hidden else (k - 1, 0)
        set_slider(page, i + 1)
        everything = shown(page)
        page.select_option("#pov", str(seat + 1))
        seen = shown(page)
        assert seen["events"] == texts(record.events[i], seat)
        actor = record.actions[i][0]
        if hidden:  # and another seat's action whose events it may not all see is not named
            assert len(seen["events"]) < len(everything["events"]) and actor != seat
            assert record.names[i] in everything["action"] and "is not shown to" in seen["action"]
        payload = page.evaluate("({hidden_scores: D.hidden_scores, scores: D.scores, frames: D.frames})")  # its data
        masks = payload["hidden_scores"][seat]
        assert seen["scores"] == ["?" if masks[i + 1] >> s & 1 else str(v)
                                  for s, v in enumerate(payload["scores"][i + 1])]
        if hidden:
            page.screenshot(path=str(ARTIFACTS / f"viewer_{name}_events_seat{seat}.png"), full_page=True)
        if name == "colt_express_v0":  # purses are face down: some score is hidden from some seat
            assert any(any(m) for m in payload["hidden_scores"])
        page.keyboard.press("End")
        assert shown(page)["scores"] == [str(s) for s in record.result["scores"]]
        set_slider(page, i + 1)
        page.select_option("#pov", "0")
        assert shown(page)["events"] == everything["events"]

        # the drawing of a seat's view leaves out what it may not know
        if drawn and game.information == "imperfect":
            frames = payload["frames"]
            differs = next((j, s) for j in [*range(steps // 2, steps + 1), *range(steps // 2)] for s in range(n)
                           if frames[s + 1][j] != frames[0][j])
            set_slider(page, differs[0])
            omniscient = shown(page)["board"]
            page.select_option("#pov", str(differs[1] + 1))
            assert shown(page)["board"] != omniscient
            page.screenshot(path=str(ARTIFACTS / f"viewer_{name}_seat{differs[1]}.png"), full_page=True)
        assert errors == [] and requests == [path.resolve().as_uri()]  # no other file, no network


def altered(text: str, how: str) -> str:
    data = json.loads(text)
    if how == "action":
        seat, action, _ = data["actions"][3]
        data["actions"][3] = [seat, action + 1, ""]
    elif how == "result":
        data["result"]["scores"] = [s + 1 for s in data["result"]["scores"]]
    elif how == "events":
        data["events"][2] = data["events"][2] + [{"kind": "made_up", "seen_by": [0]}]
    elif how == "game":
        data["game"] = "colt_express_v9"
    return json.dumps(data)


@pytest.mark.parametrize("how", ["truncated", "action", "result", "events", "game"])
def test_a_corrupt_or_altered_record_is_refused_and_nothing_written(how, records, tmp_path, capsys):
    text = cached_record(records, "colt_express_v0").to_json()
    bad = tmp_path / "bad.json"
    bad.write_text(text[: len(text) // 2] if how == "truncated" else altered(text, how))
    out = tmp_path / "out" / "game.html"
    with pytest.raises(ValueError):
        write_viewer(bad, out)
    assert view_main([str(bad), "-o", str(out)]) == 1
    assert "wildwest-view: cannot show" in capsys.readouterr().err
    assert not out.parent.exists() or list(out.parent.iterdir()) == []
    kept = tmp_path / "kept.html"  # an existing page is left as it was
    kept.write_text("old")
    with pytest.raises(ValueError):
        write_viewer(bad, kept)
    assert kept.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "kept.html"]


def test_the_command_writes_the_page_and_exits_nonzero_on_a_bad_record(records, tmp_path):
    good = cached_record(records, "colt_express_v0").save(tmp_path / "game.json")
    assert view_main([str(good)]) == 0
    page = (tmp_path / "game.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script src" not in page and "http" not in page.split("<script")[0]
    (tmp_path / "bad.json").write_text("{not json")
    run = subprocess.run([sys.executable, "-m", "wildwest_envs.viewer.cli", str(tmp_path / "bad.json"),
                          "-o", str(tmp_path / "bad.html")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "must be JSON" in run.stderr and not (tmp_path / "bad.html").exists()


def test_a_record_without_events_or_drawing_shows_the_replayed_events_and_the_text_board(records):
    """Events come from replaying a record that holds none; ``drawings=False`` (or a game without an SVG
    module) shows the game's text board."""
    record = cached_record(records, "colt_express_v0")
    game = get_game(record.game)
    bare = GameRecord.from_json(record.to_json().split(',\n "events"')[0] + "\n}\n")
    assert bare.events == () and bare.actions == record.actions
    with_events, without = view_payload(record, drawings=False), view_payload(bare, drawings=False)
    assert without["events"] == with_events["events"] and without["hidden_actions"] == with_events["hidden_actions"]
    assert without["drawing"] == "text" and len(without["frames"]) == 1  # the text board is omniscient: one view
    first = [without["chunks"][i] for i in expand(without["frames"][0][0])]
    assert "\n".join(first) == text_board(game, replay(game, record, every_state=True)[0])


def expand(runs: list[int]) -> list[int]:
    """The page's run-length decoding (``html._runs``)."""
    ids: list[int] = []
    for x in runs:
        ids += [ids[-1] + j for j in range(1, -x + 1)] if x < 0 else [x]
    return ids
