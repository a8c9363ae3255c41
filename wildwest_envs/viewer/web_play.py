"""Play one seat of a game in the browser against agents: a small local server (``wildwest-play --web``).

``serve(game_name, opponents, seat, seed, port=0)`` builds the game session and an HTTP server bound to
127.0.0.1 (never another interface) and returns the server; ``server.serve_forever()`` (in a thread, or
``run`` for the command line) answers:

* ``GET /``: the page (``web_page.PAGE``: one HTML document, no external resource);
* ``GET /state``: what the person's seat may see, as JSON (``PlaySession.view``): the board (the game's
  SVG drawing from that seat, ``<package>.svg.draw(state, seat)``, or its text board if the drawing
  fails), the legal moves by id and name when it is the person's turn, the moves and events the seat may
  see since its last move, the scores it may know, whose turn it is and, at the end, the result and where
  the record was saved;
* ``POST /move`` with ``{"action": <id>, "decision": <n>}`` (``decision`` optional: the decision count the
  page was showing, so that a stale click is refused): plays the person's move, then the agents' moves until
  it is the person's turn again or the game is over; answers the new ``/state``;
* ``GET /record``: the finished game's record (``core.records``, with events), as a download.

Bad input changes nothing and is answered HTTP 400 with ``{"error": message}``: malformed JSON, an action
that is not an integer, out of range or illegal, a move when it is not the person's turn, after the game
ended, or for a decision the page no longer shows. Unknown paths are 404, a request whose ``Host`` is not
this server's local address 403 (a web page elsewhere cannot drive it by DNS rebinding), and a POST that is
not ``application/json`` 415 (so another site's form cannot post to it without a CORS preflight, which is
never granted). The game state lives in one ``PlaySession`` guarded by a lock; the agents answer inside the
request that made the person's move.

When the game ends the record is written to ``save_game`` (default: ``<game>_seed<seed>_<time>.json`` in
the current directory). While numba's cache of the game is cold, the session plays on the rules as plain
Python and a background process compiles (``core.quickstart``), so the first page comes at once.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

from ..core import quickstart
from ..core.records import make_record, result_of
from ..core.rng import game_seeds
from ..registry import canonical_name, get_game
from .html import drawing_function, event_text, text_board
from .web_page import PAGE

HOST = "127.0.0.1"  # the only address the server listens on
MAX_BODY = 4096  # bytes of a POST body; a move is a few dozen
SCORE_TRIES = 8  # redraws of the hidden parts that tell which scores a seat may not know (as the viewer)


class MoveError(ValueError):
    """A request the session refuses; nothing was changed (HTTP 400 with the message)."""


class PlaySession:
    """One game: a person in ``seat``, agents in the others; every method holds the lock.

    Attributes:
        game: the ``core.game.Game``.
        seat: the person's seat.
        agents: the agent of each seat (``None`` at the person's).
        states: the ``(1,)`` record being played.
        moves: ``(seat, action)`` of every decision so far.
        events: per decision, the events its step reported (``Event.to_dict`` of each).
        save_path: where the record is written when the game ends.
        saved: the path it was written to, once it was; ``save_error``: why it could not be.
    """

    def __init__(self, game_name: str, agents: list, seat: int, seed: int, save_path: str | Path | None = None,
                 options: dict | None = None):
        self.game = get_game(canonical_name(game_name))
        self.n_players = len(agents)
        if not self.game.min_players <= self.n_players <= self.game.max_players:
            raise ValueError(f"{self.game.name} is played by {self.game.min_players} to {self.game.max_players} "
                             f"players, not {self.n_players}")
        if not 0 <= seat < self.n_players or agents[seat] is not None:
            raise ValueError(f"seat {seat}: the person's seat must be one of 0..{self.n_players - 1}, "
                             f"with no agent in it")
        self.agents, self.seat, self.seed = agents, int(seat), int(seed)
        self.options = {"num_players": self.n_players, **(options or {})}  # as the record stores them
        self.game.parse_options(**self.options)  # bad options raise before anything starts
        # while numba's cache is cold: the rules as plain Python, and a background compile (core.quickstart)
        self.game = quickstart.game_to_play(self.game, events=True, options=self.options)
        self.lock = threading.Lock()
        self.draw = drawing_function(self.game)
        with np.errstate(over="ignore"):  # a plain twin's deal (``_held``)
            self.states = self.game.init_batch(1, seed=self.seed, **self.options)
        self.moves: list[tuple[int, int]] = []
        self.names: list[str] = []
        self.events: list[list[dict]] = []
        self.players = ["you" if s == self.seat else str(getattr(a, "name", type(a).__name__))
                        for s, a in enumerate(agents)]
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.save_path = Path(save_path) if save_path else Path.cwd() / (
            f"{self.game.name.removesuffix('_v0')}_seed{self.seed}_{stamp}.json")
        self.saved: Path | None = None
        self.save_error = ""
        self.record_text = ""
        self.draw_error = ""
        with self._held():
            self._agents_play()

    @contextlib.contextmanager
    def _held(self):
        """The session's lock, with numpy's overflow warnings off in this thread: a plain twin's generators wrap
        around in uint64 on purpose, as the compiled kernels' do (``core.quickstart``)."""
        with self.lock, np.errstate(over="ignore"):
            yield

    # ---- playing -------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return bool(self.game.finished(self.states)[0])

    def move(self, action, decision=None) -> dict:
        """Play the person's ``action`` (an int id), then the agents' moves; the new ``view``.

        ``decision``: the decision count the caller saw (``view()["decision"]``); another one is stale.

        Raises:
            MoveError: not the person's turn, the game is over, a stale decision, an action that is not an
                integer in range or not legal; nothing changed.
        """
        with self._held():
            if self.finished:
                raise MoveError("the game is over: no more moves")
            if decision is not None:
                if isinstance(decision, bool) or not isinstance(decision, int):
                    raise MoveError(f"'decision' must be an integer, got {decision!r}")
                if decision != len(self.moves):
                    raise MoveError(f"stale move: it was made at decision {decision}, the game is at decision "
                                    f"{len(self.moves)} (reload the state)")
            current = int(self.states["current"][0])
            if current != self.seat:
                raise MoveError(f"it is not your turn: player_{current} is to decide")
            if isinstance(action, bool) or not isinstance(action, int):
                raise MoveError(f"'action' must be an integer action id, got {action!r}")
            if not 0 <= action < self.game.n_actions:
                raise MoveError(f"action {action} is out of range: ids are 0 to {self.game.n_actions - 1}")
            mask = self.game.legal_mask(self.states)[0]
            if not mask[action]:
                legal = np.flatnonzero(mask)
                names = [f"{a}: {self.game.action_to_string(self.states[0], int(a))}" for a in legal[:12]]
                more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
                raise MoveError(f"action {action} ({self.game.action_to_string(self.states[0], action)}) is not "
                                f"legal now; legal: {', '.join(names)}{more}")
            self._step(action)
            self._agents_play()
            return self._view()

    def _step(self, action: int) -> None:
        seat = int(self.states["current"][0])
        self.names.append(self.game.action_to_string(self.states[0], action))
        happened = self.game.step_with_events(self.states, [action])[0]
        self.moves.append((seat, int(action)))
        self.events.append([e.to_dict() for e in happened])

    def _agents_play(self) -> None:
        """The agents' moves until it is the person's turn or the game is over (then the record is saved)."""
        game = self.game
        while not self.finished and int(self.states["current"][0]) != self.seat:
            seat = int(self.states["current"][0])
            mask = game.legal_mask(self.states)
            action = int(np.asarray(self.agents[seat].act_batch(game.observe(self.states, [seat]), mask,
                                                                self.states.copy(), np.array([seat]))).reshape(-1)[0])
            if not (0 <= action < game.n_actions and mask[0, action]):
                raise RuntimeError(f"player_{seat} ({self.players[seat]}) chose illegal action {action}")
            self._step(action)
        if self.finished and not self.record_text:
            self._save()

    def _save(self) -> None:
        record = make_record(self.game, int(game_seeds(self.seed, 1)[0]), self.options,
                             self.moves, self.players, self.states[0], events=self.game.event_kinds is not None)
        self.record_text = record.to_json()
        try:
            self.saved = record.save(self.save_path).resolve()
        except OSError as error:
            self.save_error = f"the record could not be written to {self.save_path}: {error}"

    # ---- what the person's seat sees ------------------------------------------------
    def view(self) -> dict:
        """What the person's seat may see now, as JSON values (module docstring)."""
        with self._held():
            return self._view()

    def _view(self) -> dict:
        game, state, me = self.game, self.states[0], self.seat
        finished = self.finished
        current = int(self.states["current"][0])
        your_turn = not finished and current == me
        legal = []
        if your_turn:
            legal = [{"action": int(a), "name": game.action_to_string(state, int(a))}
                     for a in np.flatnonzero(game.legal_mask(self.states)[0])]
        scores = game.scores(self.states)[0, :self.n_players].tolist()
        hidden = self._hidden_scores() if not finished else set()
        view = {
            "game": game.name, "seat": me, "seed": self.seed, "players": self.players,
            "seats": [f"player_{s} ({p})" for s, p in enumerate(self.players)],
            "decision": len(self.moves), "current": current, "your_turn": your_turn, "finished": finished,
            "board": self._board(state), "legal": legal, "since": self._since(),
            "scores": [None if s in hidden else v for s, v in enumerate(scores)],
            "result": None, "record": None,
        }
        if finished:
            result = result_of(game, state)
            view["result"] = {**result, "you_win": me in result["winners"]}
            view["record"] = {"path": str(self.saved) if self.saved else None, "error": self.save_error,
                              "url": "/record"}
        return view

    def _board(self, state) -> dict:
        try:
            return {"kind": "svg", "content": self.draw(state, self.seat), "notice": ""}
        except Exception as error:  # noqa: BLE001 - a drawing being written must not stop the game
            if not self.draw_error:
                self.draw_error = f"{type(error).__name__}: {error}"
                print(f"wildwest-play: the {self.game.name} drawing failed ({self.draw_error}); showing the "
                      f"text board", file=sys.stderr)
        notice = f"No drawing of {self.game.name} here: this is the game's text board (the drawing failed: " \
                 f"{self.draw_error})."
        return {"kind": "text", "content": text_board(self.game, state), "notice": notice}

    def _since(self) -> list[dict]:
        """The decisions from the person's last move on, as the person's seat may see them."""
        me = self.seat
        start = max((i for i, (s, _) in enumerate(self.moves) if s == me), default=0)
        out = []
        for i in range(start, len(self.moves)):
            seat = self.moves[i][0]
            step = self.events[i]
            seen = [event_text(e) for e in step if me in e["seen_by"]]
            # as the replay viewer: another seat's action name may tell a face-down card when its step reported
            # nothing, or something this seat may not see
            secret = self.game.information == "imperfect" and seat != me and (
                not step or any(me not in e["seen_by"] for e in step))
            out.append({"decision": i + 1, "seat": seat, "who": "you" if seat == me else
                        f"player_{seat} ({self.players[seat]})", "action": None if secret else self.names[i],
                        "events": seen})
        return out

    def _hidden_scores(self) -> set[int]:
        """The other seats whose score changes when what the person's seat may not know is redrawn."""
        if self.game.information != "imperfect":
            return set()
        real = self.game.scores(self.states)[0, :self.n_players]
        hidden = set()
        for k in range(SCORE_TRIES):
            other = self.game.resample_hidden(self.states, [self.seat], [k + 1])
            hidden |= {int(s) for s in np.flatnonzero(self.game.scores(other)[0, :self.n_players] != real)}
        hidden.discard(self.seat)
        return hidden


class _Handler(BaseHTTPRequestHandler):
    server: PlayServer
    server_version = "wildwest-play"

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; "
                         "style-src 'unsafe-inline'; img-src data:; connect-src 'self'")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message})

    def _host_ok(self) -> bool:
        port = self.server.server_address[1]
        if self.headers.get("Host", "") in (f"{HOST}:{port}", f"localhost:{port}"):
            return True
        self._error(403, "this server answers only requests addressed to its local address "
                         f"http://{HOST}:{port}/")
        return False

    def do_GET(self):
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0]
        session = self.server.session
        if path in ("/", "/index.html"):
            self._send(200, PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/state":
            self._json(200, session.view())
        elif path == "/record":
            with session.lock:
                text = session.record_text
            if not text:
                self._error(404, "the game is not over: it has no record yet")
                return
            name = session.save_path.name
            self._send(200, text.encode(), "application/json",
                       {"Content-Disposition": f'attachment; filename="{name}"'})
        else:
            self._error(404, f"no page {path!r} here: GET /, /state, /record; POST /move")

    do_HEAD = do_GET

    def do_POST(self):
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0]
        if path != "/move":
            self._error(404 if path not in ("/", "/state", "/record") else 405,
                        f"no POST {path!r} here: POST /move with {{\"action\": id}}")
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            self._error(415, "POST /move takes Content-Type: application/json")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._error(400, "POST /move needs a Content-Length")
            return
        if not 0 <= length <= MAX_BODY:
            self._error(400, f"a move is at most {MAX_BODY} bytes of JSON, got {length}")
            return
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            self._error(400, f"the body is not JSON: {error}")
            return
        if not isinstance(body, dict) or "action" not in body:
            self._error(400, 'the body must be a JSON object {"action": <action id>}')
            return
        try:
            view = self.server.session.move(body["action"], body.get("decision"))
        except MoveError as error:
            self._error(400, str(error))
            return
        except Exception as error:  # noqa: BLE001 - an agent's or the game's failure: say so, keep serving
            self._error(500, f"{type(error).__name__}: {error}")
            return
        self._json(200, view)


class PlayServer(ThreadingHTTPServer):
    """The HTTP server of one ``PlaySession`` (``session``), on 127.0.0.1."""

    daemon_threads = True

    def __init__(self, session: PlaySession, port: int = 0, verbose: bool = False):
        self.session, self.verbose = session, verbose
        super().__init__((HOST, port), _Handler)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"


def seat_agents(opponents: list[str], game_name: str, players: int, seat: int, seed: int,
                deterministic: bool = True, prog: str | None = None) -> list:
    """The agent of each seat, ``None`` at ``seat``: the other seats in turn order after it get the specs,
    cycled, agent ``i`` seeded ``seed + 1 + i`` (as the terminal ``wildwest-play``). ``prog``: a bad spec ends
    the program with its name (``agents_for_command``); without it a bad spec is a ``ValueError``."""
    from ..agents.registry import agents_for_command, make_agent

    if not opponents:
        raise ValueError("at least one opponent spec is needed")
    others = [(seat + k) % players for k in range(1, players)]
    specs = [opponents[i % len(opponents)] for i in range(len(others))]
    if prog is not None:
        made = agents_for_command(specs, game_name, players, seed + 1, deterministic, prog)
    else:
        made = [make_agent(spec, game_name, seed=seed + 1 + i, deterministic=deterministic, num_players=players)
                for i, spec in enumerate(specs)]
    agents: list = [None] * players
    for s, agent in zip(others, made):
        agents[s] = agent
    return agents


def serve(game_name: str, opponents, seat: int = 0, seed: int = 1, port: int = 0, players: int | None = None,
          save_game: str | Path | None = None, deterministic: bool = True, verbose: bool = False,
          agents: list | None = None, options: dict | None = None) -> PlayServer:
    """A server (not yet serving: call ``serve_forever``) of a new game on 127.0.0.1:``port`` (0: any free port).

    ``opponents``: agent specs (a list, or one string of space- or comma-separated specs), cycled over the
    other seats; ``players``: the player count (default: one more than the specs given, at least the game's
    minimum). ``agents``: the agent of each seat (``None`` at ``seat``) instead of specs. ``options``: the
    game's options (as its ``env()`` takes them, e.g. ``{"victory_target": 5}``), kept in the record.

    Raises:
        ValueError: an unknown game or spec, a bad seat or player count.
        OSError: the port cannot be bound.
    """
    if isinstance(opponents, str):
        opponents = opponents.replace(",", " ").split()
    opponents = list(opponents or [])
    game = get_game(canonical_name(game_name))
    if agents is None:
        if players is None:
            players = max(game.min_players, len(opponents) + 1)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: seats are 0 to {players - 1}")
        agents = seat_agents(opponents, game.name, players, seat, seed, deterministic)
    session = PlaySession(game.name, agents, seat, seed, save_game, options)
    return PlayServer(session, port, verbose)


def run(server: PlayServer, out=None) -> None:
    """Serve until Ctrl-C (the command line's ``--web``), printing the URL."""
    out = out or sys.stdout
    session = server.session
    print(f"{session.game.name}, {session.n_players} players, seed {session.seed}: you are player_{session.seat}; "
          + ", ".join(f"player_{s} = {p}" for s, p in enumerate(session.players) if s != session.seat), file=out)
    print(f"play in your browser at {server.url}  (Ctrl-C stops the server; the finished game is saved to "
          f"{session.save_path})", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nserver stopped", file=out)
    finally:
        server.server_close()


__all__ = ["HOST", "MoveError", "PlayServer", "PlaySession", "run", "seat_agents", "serve"]
