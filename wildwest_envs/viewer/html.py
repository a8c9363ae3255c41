"""A game record as one self-contained HTML replay viewer (``write_viewer``, ``viewer_html``).

The record is replayed (``core.records.replay``, every state from the deal on), so a record this
library cannot replay is refused before anything is written. Each state is drawn once per point of
view: the omniscient one and each seat's (``Game.draw(state, seat)``, its ``svg`` module); a game of
perfect information draws one board per step for every view. Without drawings (``drawings=False``) the
page shows the text board (``Game.render_ansi``, colour codes stripped), which is omniscient:
its seat views then hide only the events and the other seats' actions that seat may not see, and the
page says so.

What a seat's view leaves out, in a game of imperfect information: the events whose ``seen_by`` lacks
it; the name of another seat's action whose step reported an event the seat may not see, or none at all
(a name may tell a face-down card); and, until the game is over, the other seats' scores that change when
what the seat may not know is redrawn (``Game.resample_hidden``: a score may count hidden values). Events come from the record, or, for a record without them, from replaying it with
``Game.step_with_events``.

Size: the drawings are cut into chunks (an SVG at its elements, down to ``LEAF_BYTES``; a text board at
its lines), the distinct chunks are stored once, and each frame is a run-length list of chunk ids. The
whole payload is JSON, gzip-compressed and base64-encoded into the page, which decodes it with the
browser's ``DecompressionStream('gzip')``: no server, no network, no external script.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np

from ..core.records import GameRecord, as_record, make_record, replay
from ..registry import get_game
from .page import PAGE

SCORE_TRIES = 8  # redraws of the hidden parts that tell which scores a seat may not know
LEAF_BYTES = 1024  # an SVG element this long or shorter is one chunk; longer ones are cut at their children
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")  # CSI sequences (colours, cursor moves)
_TAG = re.compile(r"<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")  # one tag, quoted attribute values may hold '>'


def write_viewer(record: GameRecord | str | Path, path: str | Path, drawings: bool = True) -> Path:
    """Write the viewer of ``record`` (a ``GameRecord``, its JSON text or a record file) to ``path``.

    The page is built in full before the file is written, and written under a temporary name then
    renamed, so an error leaves nothing at ``path``; an existing file is replaced. ``drawings=False``
    shows the text board even where the game has a drawing. Returns the path.

    Raises:
        ValueError: a malformed record, or one this library cannot replay (another game or version,
            an illegal action, a result or events that differ from the replay's).
        OSError: the record file cannot be read, or ``path`` cannot be written.
    """
    text = viewer_html(record, drawings)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; the page is an ordinary file
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def viewer_html(record: GameRecord | str | Path, drawings: bool = True) -> str:
    """The viewer page of ``record`` as HTML text (``write_viewer``)."""
    payload = view_payload(record, drawings)
    data = base64.b64encode(gzip.compress(json.dumps(payload, separators=(",", ":")).encode(), 9, mtime=0))
    return (PAGE.replace("@TITLE@", html.escape(payload["title"])).replace("@HEAD@", html.escape(payload["title"]))
            .replace("@DATA@", data.decode("ascii")))


def view_payload(record: GameRecord | str | Path, drawings: bool = True) -> dict:
    """What the page shows, as JSON values: the replayed states' boards, actions, events and scores."""
    record = as_record(record)
    game = get_game(record.game)
    states = replay(game, record, every_state=True)
    events = record.events or _replayed_events(game, record)
    n = int(states["num_players"][0])
    players = [f"player_{s}" for s in range(n)]
    agents = list(record.players) if len(record.players) == n else [""] * n
    seats = [f"{p} ({a})" if a else p for p, a in zip(players, agents)]
    draw = drawing_function(game) if drawings else None
    secret = game.information == "imperfect"
    chunks, frames = _frames(game, states, draw, n if secret and draw is not None else 0)
    povs = ["omniscient"] + seats
    return {
        "title": f"{record.game}: {n} players, seed {record.seed}",
        "subtitle": _subtitle(record),
        "n_steps": len(record.actions), "players": players, "seats": seats, "povs": povs,
        "drawing": "text" if draw is None else "svg",
        "chunks": chunks, "frames": frames,
        "board_of_pov": list(range(n + 1)) if len(frames) > 1 else [0] * (n + 1),
        "notice": _notices(game, draw, players),
        "actions": [[seat, name] for (seat, _), name in zip(record.actions, _names(game, record, states))],
        "events": [[[event_text(e), e["kind"], list(e["seen_by"])] for e in step] for step in events],
        "has_events": game.event_kinds is not None,
        "kind_docs": {k.name: k.doc for k in game.event_kinds.by_code.values()} if game.event_kinds else {},
        "current": [int(c) for c in states["current"]],
        "finished": [bool(f) for f in game.finished(states)],
        "truncated": bool(game.truncated(states[-1:])[0]),
        "scores": game.scores(states)[:, :n].tolist(),
        "winners": np.flatnonzero(game.winners(states[-1:])[0, :n]).tolist() if game.finished(states[-1:])[0] else [],
        "hidden_actions": _hidden_actions(record, events, n) if secret else [0] * len(record.actions),
        "hidden_scores": _hidden_scores(game, states, n) if secret else [[0] * len(states)] * n,
    }


def _hidden_actions(record: GameRecord, events, n: int) -> list[int]:
    """Per action, the bitmask of the seats its name is not shown to: every seat but the actor's where the
    step reported no event or one that seat may not see (a name may tell a face-down card)."""
    masks = []
    for (actor, _), step in zip(record.actions, events):
        hidden = 0
        for seat in range(n):
            if seat != actor and (not step or any(seat not in e["seen_by"] for e in step)):
                hidden |= 1 << seat
        masks.append(hidden)
    return masks


def _hidden_scores(game, states: np.ndarray, n: int, tries: int = SCORE_TRIES) -> list[list[int]]:
    """Per seat and state, the bitmask of the scores that seat may not know: those that change when what it
    may not know is redrawn (``Game.resample_hidden``, ``tries`` times); none once the game is over."""
    real = game.scores(states)[:, :n]
    over = game.finished(states)
    out = []
    for seat in range(n):
        differs = np.zeros(real.shape, dtype=bool)
        for k in range(tries):
            seeds = np.arange(len(states), dtype=np.uint64) * np.uint64(tries) + np.uint64(k + 1)
            differs |= game.scores(game.resample_hidden(states, np.full(len(states), seat), seeds))[:, :n] != real
        differs[:, seat] = False
        differs[over] = False
        out.append((differs * (1 << np.arange(n))).sum(axis=1).tolist())
    return out


def drawing_function(game):
    """The game's SVG drawing, ``game.draw(state, seat)`` (its ``svg`` module's ``draw``, bound to its map for
    Rail): every ``Game`` has one (``Game.draw_fn``)."""
    return game.draw


def event_text(event: dict) -> str:
    """One event for people: its kind, then its arguments (``seen_by`` apart)."""
    args = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "seen_by"))
    return f"{event['kind']}: {args}" if args else event["kind"]


def text_board(game, state) -> str:
    """The text board of one record without its terminal colour codes."""
    return _ANSI.sub("", game.render_ansi(state))


def _replayed_events(game, record: GameRecord) -> tuple:
    """The events of every action of a record that holds none (none at all for a game that reports none)."""
    if game.event_kinds is None:
        return tuple(() for _ in record.actions)
    return make_record(game, record.seed, record.options, record.actions, chance=record.chance, events=True).events


def _names(game, record: GameRecord, states: np.ndarray) -> list[str]:
    """The record's action names, or the game's where the record has none."""
    if len(record.names) == len(record.actions) and all(record.names):
        return list(record.names)
    return [game.action_to_string(states[i], a) for i, (_, a) in enumerate(record.actions)]


def _subtitle(record: GameRecord) -> str:
    """Who played, and how it ended."""
    parts = [f"{len(record.actions)} actions"]
    if record.players:
        parts.append("players: " + ", ".join(record.players))
    result = record.result
    if result.get("scores") is not None:
        parts.append("final scores " + " / ".join(str(s) for s in result["scores"]))
    if result.get("winners") is not None:
        parts.append("winners: " + (", ".join(f"player_{w}" for w in result["winners"]) or "none"))
    if result.get("truncated"):
        parts.append("truncated by the turn cap")
    return " \u00b7 ".join(parts)


def _notices(game, draw, players: list[str]) -> list[str]:
    """The note above the board in each point of view."""
    if game.information == "perfect":
        board = "" if draw is not None else "The board is the game's text board. "
        note = board + "A game of perfect information: every point of view sees the same board."
        return [note] * (len(players) + 1)
    hides = "the events {p} may not see, and the other seats' actions and scores that may tell what {p} does not know"
    if draw is not None:
        return [""] + [f"{p}'s view: only what {p} may know is drawn; " + hides.format(p=p) + " are not shown."
                       for p in players]
    missing = (f"No drawing of {game.name} yet: the board is the game's text board, which shows everything, "
               f"hidden cards and values included, in every point of view.")
    return [missing] + [f"{missing} {p}'s view hides only " + hides.format(p=p) + "." for p in players]


def _frames(game, states: np.ndarray, draw, n_seats: int) -> tuple[list[str], list[list[list[int]]]]:
    """The distinct chunks, and per view (omniscient, then ``n_seats`` seats) each state's run-length chunk ids."""
    ids: dict[str, int] = {}
    chunks: list[str] = []
    frames = []
    for seat in [None, *range(n_seats)]:
        table = []
        for state in states:
            if draw is None:
                pieces = text_board(game, state).split("\n")
            else:
                pieces = svg_chunks(draw(state, seat))
            row = []
            for piece in pieces:
                if piece not in ids:
                    ids[piece] = len(chunks)
                    chunks.append(piece)
                row.append(ids[piece])
            table.append(_runs(row))
        frames.append(table)
    return chunks, frames


def _runs(ids: list[int]) -> list[int]:
    """``ids`` with each run of consecutive ids ``x, x+1, ..., x+k`` written ``x, -k``."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(ids[i])
        if j > i:
            out.append(-(j - i))
        i = j + 1
    return out


def svg_chunks(svg: str) -> list[str]:
    """``svg`` cut into pieces that join back to it: each element of at most ``LEAF_BYTES`` whole, longer
    ones as their opening tag, their children's pieces and the text between, and their closing tag.

    Markup this reading does not understand (unbalanced tags) is one piece.
    """
    spans = _element_tree(svg)
    if spans is None:
        return [svg]
    pieces: list[str] = []

    def cut(start: int, end: int, children: list) -> None:
        if end - start <= LEAF_BYTES or not children:
            pieces.append(svg[start:end])
            return
        at = start
        for child_start, child_end, grandchildren in children:
            if child_start > at:
                pieces.append(svg[at:child_start])
            cut(child_start, child_end, grandchildren)
            at = child_end
        if end > at:
            pieces.append(svg[at:end])

    at = 0
    for start, end, children in spans:
        if start > at:
            pieces.append(svg[at:start])
        cut(start, end, children)
        at = end
    if at < len(svg):
        pieces.append(svg[at:])
    return pieces


def _element_tree(svg: str) -> list | None:
    """The top-level elements of ``svg`` as ``(start, end, children)``, or ``None`` if its tags do not balance."""
    root: list = []
    stack: list[tuple[int, list]] = []  # (start, children) of each open element
    for match in _TAG.finditer(svg):
        tag = match.group()
        if tag.startswith(("<!", "<?")):
            continue
        if tag.startswith("</"):
            if not stack:
                return None
            start, children = stack.pop()
            (stack[-1][1] if stack else root).append((start, match.end(), children))
        elif tag.endswith("/>"):
            (stack[-1][1] if stack else root).append((match.start(), match.end(), []))
        else:
            stack.append((match.start(), []))
    return None if stack else root
