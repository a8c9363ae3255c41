"""Browser play (``wildwest-play --web``, ``wildwest_envs.viewer.web_play``): the JSON API and the page in Chromium.

The server runs in a thread on a free port of 127.0.0.1. API: the state a seat sees, its legal moves, every kind
of bad request refused with HTTP 400 (or 403/404/415) and the state unchanged, a move out of turn refused, a whole
game played by posting moves, with its saved record replaying to the same result. Browser: a whole game played
by clicking the move buttons (no console error, the board changes, the result and the record's place shown), and
one move of each of the four games; screenshots go to ``tests._browser.ARTIFACTS``.
"""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest

from tests._browser import ARTIFACTS, chromium_page, console_errors
from wildwest_envs.core.records import GameRecord, replay
from wildwest_envs.registry import get_game
from wildwest_envs.training import play
from wildwest_envs.viewer import web_play
from wildwest_envs.viewer.html import drawing_function

FAST = ("colt_express", ["heuristic"], 2)  # the game that ends fastest: about 40 decisions of the person's
GAMES = ("colt_express_v0", "wild_west_express_v0", "rail_v0", "way_out_west_v0")


@contextlib.contextmanager
def running(game="colt_express", opponents=("heuristic",), players=2, seed=1, **kwargs):
    """A web-play server serving in a thread; shut down after."""
    server = web_play.serve(game, list(opponents), seat=0, seed=seed, port=0, players=players, **kwargs)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def request(server, path, body=None, raw=None, content_type="application/json", method=None, host=None):
    """``(status, JSON answer)`` of a request to ``server``."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": content_type} if data is not None else {}
    if host:
        headers["Host"] = host
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def state(server):
    status, view = request(server, "/state")
    assert status == 200
    return view


def test_bound_to_localhost_only(tmp_path):
    with running(save_game=tmp_path / "g.json") as server:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1" and port > 0
        assert server.url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(server.url, timeout=10) as page:
            assert page.status == 200 and b'id="moves"' in page.read()
        status, answer = request(server, "/state", host=f"attacker.example:{port}")
        assert status == 403 and "local address" in answer["error"]


def test_state_shows_the_seat_view(tmp_path):
    with running("rail", ["heuristic"], 2, save_game=tmp_path / "g.json") as server:
        view = state(server)
        session = server.session
        game = session.game
        assert view["game"] == "rail_v0" and view["seat"] == 0 and view["players"] == ["you", "heuristic"]
        assert view["your_turn"] and not view["finished"] and view["current"] == 0
        assert view["decision"] == len(session.moves)
        legal = np.flatnonzero(game.legal_mask(session.states)[0]).tolist()
        assert [m["action"] for m in view["legal"]] == legal
        assert [m["name"] for m in view["legal"]] == game.legal_action_strings(session.states[0])
        assert view["board"]["kind"] == "svg" and view["board"]["content"].startswith("<svg")
        assert view["scores"] == game.scores(session.states)[0, :2].tolist()
        assert view["result"] is None and view["record"] is None
    with running(*FAST, save_game=tmp_path / "c.json") as server:
        view = state(server)
        kind = "svg" if drawing_function(server.session.game) else "text"
        assert view["board"]["kind"] == kind and view["board"]["content"]
        for step in view["since"]:  # what the seat may see: only events it is in seen_by of
            events = server.session.events[step["decision"] - 1]
            assert len(step["events"]) == sum(0 in e["seen_by"] for e in events)


def bad_requests(n_actions: int, illegal: int, decision: int):
    """``(description, kwargs of request, status, words of the message)`` of requests that must change nothing."""
    return [
        ("illegal action", {"body": {"action": illegal}}, 400, "not legal"),
        ("negative action", {"body": {"action": -1}}, 400, "out of range"),
        ("action past the end", {"body": {"action": n_actions}}, 400, "out of range"),
        ("huge action", {"body": {"action": 10**30}}, 400, "out of range"),
        ("string action", {"body": {"action": "3"}}, 400, "integer"),
        ("float action", {"body": {"action": 1.0}}, 400, "integer"),
        ("boolean action", {"body": {"action": True}}, 400, "integer"),
        ("null action", {"body": {"action": None}}, 400, "integer"),
        ("no action", {"body": {"move": 1}}, 400, "action"),
        ("not an object", {"body": [1]}, 400, "object"),
        ("malformed JSON", {"raw": b'{"action": 1'}, 400, "not JSON"),
        ("not UTF-8", {"raw": b'\xff\xfe'}, 400, "not JSON"),
        ("stale decision", {"body": {"action": illegal, "decision": decision - 1}}, 400, "stale"),
        ("bad decision", {"body": {"action": illegal, "decision": "x"}}, 400, "decision"),
        ("wrong content type", {"raw": b'{"action": 1}', "content_type": "text/plain"}, 415, "application/json"),
        ("unknown POST path", {"body": {"action": 1}, "path": "/moves"}, 404, "no POST"),
        ("POST to the state", {"body": {"action": 1}, "path": "/state"}, 405, "no POST"),
        ("unknown GET path", {"path": "/admin"}, 404, "no page"),
        ("record before the end", {"path": "/record"}, 404, "not over"),
    ]


def test_bad_requests_are_refused_and_change_nothing(tmp_path):
    with running(*FAST, save_game=tmp_path / "g.json") as server:
        before = state(server)
        game = server.session.game
        mask = game.legal_mask(server.session.states)[0]
        illegal = int(np.flatnonzero(mask == 0)[0])
        for what, kwargs, status, words in bad_requests(game.n_actions, illegal, before["decision"]):
            kwargs = dict(kwargs)
            code, answer = request(server, kwargs.pop("path", "/move"), **kwargs)
            assert code == status, what
            assert words in answer["error"], (what, answer)
            assert state(server) == before, what
        assert not (tmp_path / "g.json").exists()


def test_a_move_out_of_turn_is_refused(tmp_path):
    with running(*FAST, save_game=tmp_path / "g.json") as server:
        session = server.session
        with session.lock:  # the person moves but the agents have not answered yet: another seat is on turn
            session._step(int(np.flatnonzero(session.game.legal_mask(session.states)[0])[0]))
        before = state(server)
        assert before["current"] != 0 and not before["your_turn"] and before["legal"] == []
        status, answer = request(server, "/move", {"action": 0})
        assert status == 400 and "not your turn" in answer["error"]
        assert state(server) == before


def test_a_whole_game_by_the_api_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "games" / "mine.json"
    with running(*FAST, save_game=path) as server:
        view = state(server)
        while not view["finished"]:
            status, view = request(server, "/move", {"action": view["legal"][-1]["action"],
                                                     "decision": view["decision"]})
            assert status == 200, view
        result = view["result"]
        assert view["legal"] == [] and not view["your_turn"] and result["decisions"] == view["decision"]
        assert view["record"]["path"] == str(path.resolve()) and path.is_file()
        assert None not in view["scores"]
        record = GameRecord.load(path)
        assert record.players == ("you", "heuristic") and record.events and record.result["scores"] == result["scores"]
        game = get_game("colt_express")
        final = replay(game, path)
        assert game.scores(final)[0, :2].tolist() == result["scores"]
        with urllib.request.urlopen(server.url + "record", timeout=10) as answer:
            assert "attachment" in answer.headers["Content-Disposition"]
            assert answer.read().decode() == path.read_text()
        status, answer = request(server, "/move", {"action": 1})
        assert status == 400 and "over" in answer["error"]
        assert state(server) == view


def test_the_command_line_serves_on_localhost(tmp_path, monkeypatch):
    seen = {}

    def fake_run(server, out):
        seen["address"] = server.server_address
        seen["players"] = server.session.players
        server.server_close()

    monkeypatch.setattr(web_play, "run", fake_run)
    assert play.main(["--web", "--game", "colt_express", "--opponents", "heuristic", "pretrained", "--port", "0",
                      "--save-game", str(tmp_path / "g.json")]) is None
    assert seen["address"][0] == "127.0.0.1" and len(seen["players"]) == 3 and seen["players"][0] == "you"
    with pytest.raises(SystemExit):
        play.parse_args(["--web", "--port", "70000"])


def click_one(page, pick: int = 0) -> None:
    """Click a legal-move button and wait until the page shows the next decision of the person or the end."""
    before = int(page.evaluate("document.body.dataset.decision"))
    buttons = page.locator("#moves button.move")
    buttons.nth(min(pick, buttons.count() - 1)).click()
    # a CSS wait: the page's Content-Security-Policy forbids the eval behind wait_for_function
    page.wait_for_selector(f"body[data-busy='0']:not([data-decision='{before}'])", state="attached", timeout=30000)
    assert int(page.evaluate("document.body.dataset.decision")) > before


# a whole game of each game, set up to end soon: (players, options, most clicks)
WHOLE_GAMES = {"colt_express_v0": (2, {}, 200), "wild_west_express_v0": (2, {"victory_target": 5}, 400),
               "rail_v0": (2, {"points_target": 40}, 400), "way_out_west_v0": (3, {}, 400)}


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_in_the_browser(tmp_path, name):
    """Clicking legal moves against the heuristic to the end; the downloaded record replays to the same result."""
    players, options, most = WHOLE_GAMES[name]
    path = tmp_path / "browser.json"
    with running(name, ["heuristic"], players, save_game=path, options=options) as server, chromium_page() as page:
        errors = console_errors(page)
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']", state="attached")
        if page.evaluate("document.body.dataset.finished") != "1":
            assert page.locator("#turn").inner_text().startswith("your turn")
        boards = {page.inner_html("#board")}
        clicks = 0
        while page.evaluate("document.body.dataset.finished") != "1":
            assert page.locator("#moves button.move").count() == len(server.session.view()["legal"])
            click_one(page, clicks % 3)
            boards.add(page.inner_html("#board"))
            clicks += 1
            assert clicks < most
        assert len(boards) > clicks // 2  # the board is redrawn as the game goes
        result = page.inner_text("#result")
        assert ("You win" in result or "You lose" in result or "share the win" in result or "no result" in result)
        assert str(path.resolve()) in page.inner_text("#record")
        assert page.locator("#record a").get_attribute("href") == "/record"
        assert page.locator("#moves button.move").count() == 0
        assert page.inner_text("#turn").startswith("game over")
        page.screenshot(path=str(ARTIFACTS / f"webplay_{name.removesuffix('_v0')}_end.png"), full_page=True)
        assert errors == []
        downloaded = urllib.request.urlopen(server.url.rstrip("/") + "/record", timeout=30).read().decode()
    record = GameRecord.load(path)
    assert GameRecord.from_json(downloaded) == record
    assert {k: record.options[k] for k in ("num_players", *options)} == {"num_players": players, **options}
    game = get_game(name)
    final = replay(game, record)
    assert record.result["decisions"] == int(final["n_decisions"][0])
    assert record.result["scores"] == game.scores(final)[0, :players].tolist()


@pytest.mark.parametrize("name", GAMES)
def test_one_move_of_each_game_in_the_browser(tmp_path, name):
    players = 3 if name == "way_out_west_v0" else 2
    with running(name, ["heuristic"], players, save_game=tmp_path / "g.json") as server, \
            chromium_page(1400, 1000) as page:
        errors = console_errors(page)
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']", state="attached")
        kind = "svg" if drawing_function(server.session.game) else "pre"
        assert page.locator(f"#board > {kind}").count() == 1
        assert page.locator("#moves button.move").count() == len(server.session.view()["legal"]) > 0
        before = page.inner_html("#board")
        click_one(page)
        assert len(server.session.moves) > 1 and page.inner_html("#board") != before
        assert page.locator("#since li.step").count() >= 1
        assert page.locator("#scores tr").count() == players
        page.screenshot(path=str(ARTIFACTS / f"webplay_{name.removesuffix('_v0')}.png"), full_page=True)
        assert errors == []
