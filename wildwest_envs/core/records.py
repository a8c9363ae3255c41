"""Game records: one JSON file for a whole game, replayed exactly (``Game.replay``).

A record holds what a game is made of: the game and its version (the registered
name, e.g. ``"colt_express_v0"``), every option (defaults filled in), the 64-bit
generator state ``init`` dealt it from, and every action with the seat that chose
it and its name; for people, the names of the agents in the seats and the result.
Chance is drawn from the record's generator, so the seed and the actions replay
the same dice, cards and draws (``Game.reseed`` / a determinizer change the
generator, so a record is only written by play that did neither); outcomes a
researcher scripted (``Game.script``) are stored as ``chance``: before action
``at``, the outcomes and how the script ends (``core.chance``). A record may also hold
what each step reported (``events``: one list of ``core.eventlog.Event`` dicts per
action, written by ``make_record(..., events=True)`` or ``--save-events``)::

    {"format": "wildwest_envs.game_record/1", "game": "colt_express_v0", "library": "0.1.0",
     "options": {"num_players": 3, ...}, "seed": 1234567890123,
     "players": ["heuristic", "random", "random"],
     "chance": [[0, [["die", 6], ["die", 2]], "error"]],
     "actions": [[0, 17, "play MOVE"], [1, 3, "play FIRE"], ...],
     "events": [[{"kind": "card_played", "seat": 0, ..., "seen_by": [0, 1, 2]}], ...],
     "result": {"scores": [250, 0, 500], "winners": [2], "truncated": false, "decisions": 214}}

``replay(game, record)`` deals the game from its seed and options and steps every
action (checked: each must be the seat on turn's and legal), then checks the
result against the record's; a record of another game or version, a format this
library does not read, an unknown option, an illegal or out-of-turn action or a
result that differs is a ``ValueError`` naming the problem; so are events that differ
from the ones the replay reports, in a record that holds them. The AEC env resumes a
record with ``env.unwrapped.load_record`` (``core.aec``); ``training.evaluate
--save-games DIR`` and ``training.play --save-game FILE`` write records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

FORMAT = "wildwest_envs.game_record/1"
MAX_RECORD_BYTES = 64 * 2**20  # larger files are refused unread


@dataclass(frozen=True)
class GameRecord:
    """One whole game (module docstring).

    Attributes:
        game: the registered name with its version.
        options: every option of the game (``Game.parse_options``), as JSON values.
        seed: the generator state ``init`` dealt the game from (``core.rng``).
        actions: ``(seat, action id)`` of every decision, in order.
        names: the name of each action (``Game.action_to_string``), for people; not needed to replay.
        players: the agent in each seat, for people (may be empty).
        result: ``scores``, ``winners``, ``truncated`` and ``decisions`` of the finished game (may be empty).
        library: the ``wildwest_envs`` version that wrote it.
        chance: scripted outcomes, ``(at, ((kind, outcome), ...), then)``: ``Game.script(states, outcomes,
            then)`` before action ``at`` (``len(actions)``: after the last one).
        events: empty, or per action the events its step reported (``Event.to_dict`` of each), in order.
    """

    game: str
    options: dict
    seed: int
    actions: tuple[tuple[int, int], ...]
    names: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    result: dict = field(default_factory=dict)
    library: str = ""
    chance: tuple = ()
    events: tuple = ()

    def to_json(self) -> str:
        """The record as JSON text (one line per action)."""
        actions = ",\n  ".join(json.dumps([s, a, n]) for (s, a), n in
                               zip(self.actions, self.names or [""] * len(self.actions)))
        head = {"format": FORMAT, "game": self.game, "library": self.library, "options": self.options,
                "seed": self.seed, "players": list(self.players), "result": self.result}
        if self.chance:
            head["chance"] = [[at, [list(o) for o in outcomes], then] for at, outcomes, then in self.chance]
        text = json.dumps(head, indent=1)[:-2] + f',\n "actions": [\n  {actions}\n ]'
        if self.events:
            text += ',\n "events": [\n  ' + ",\n  ".join(json.dumps(list(step)) for step in self.events) + "\n ]"
        return text + "\n}\n"

    def save(self, path: str | Path) -> Path:
        """Write the record to ``path`` (folders created); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json())
        return path

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record; ``ValueError`` naming what is malformed (nothing is replayed here)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"a game record must be JSON text ({error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"not a game record of format {FORMAT!r} (found {found!r})")
        for key, kind in (("game", str), ("options", dict), ("seed", int), ("actions", list)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise ValueError(f"game record: {key!r} must be a JSON {kind.__name__}")
        if not 0 <= data["seed"] < 2**64:
            raise ValueError(f"game record: seed {data['seed']} is not a 64-bit generator state")
        actions, names = [], []
        for i, entry in enumerate(data["actions"]):
            if (not isinstance(entry, list) or len(entry) not in (2, 3)
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry[:2])):
                raise ValueError(f"game record: action {i} must be [seat, action id, name], got {entry!r}")
            actions.append((entry[0], entry[1]))
            names.append(str(entry[2]) if len(entry) == 3 else "")
        players, result = data.get("players", []), data.get("result", {})
        if not isinstance(players, list) or not isinstance(result, dict):
            raise ValueError("game record: 'players' must be a list and 'result' an object")
        return cls(data["game"], data["options"], data["seed"], tuple(actions), tuple(names),
                   tuple(str(p) for p in players), result, str(data.get("library", "")),
                   _parse_chance(data.get("chance", []), len(actions)),
                   _parse_events(data.get("events"), len(actions)))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (``from_json``)."""
        path = Path(path)
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise ValueError(f"{path}: a game record larger than {MAX_RECORD_BYTES} bytes is refused")
        return cls.from_json(path.read_text())


def _parse_chance(entries, n_actions: int) -> tuple:
    """The ``chance`` entries of a record's JSON, checked for shape (the outcomes are checked by replay)."""
    if not isinstance(entries, list):
        raise ValueError("game record: 'chance' must be a list of [at, outcomes, then]")
    parsed = []
    for i, entry in enumerate(entries):
        shaped = (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], int)
                  and not isinstance(entry[0], bool) and 0 <= entry[0] <= n_actions and isinstance(entry[1], list)
                  and isinstance(entry[2], str)
                  and all(isinstance(o, list) and len(o) == 2 and isinstance(o[0], str) for o in entry[1]))
        if not shaped:
            raise ValueError(f"game record: chance entry {i} must be [at 0..{n_actions}, [[kind, outcome], ...], "
                             f"then], got {entry!r}")
        parsed.append((entry[0], tuple((k, v) for k, v in entry[1]), entry[2]))
    return tuple(parsed)


def _parse_events(entries, n_actions: int) -> tuple:
    """The ``events`` of a record's JSON: absent, or one list of event objects per action."""
    if entries is None:
        return ()
    if not isinstance(entries, list) or len(entries) != n_actions:
        raise ValueError(f"game record: 'events' must be a list of {n_actions} lists, one per action")
    for i, step in enumerate(entries):
        shaped = isinstance(step, list) and all(
            isinstance(e, dict) and isinstance(e.get("kind"), str) and isinstance(e.get("seen_by"), list)
            for e in step)
        if not shaped:
            raise ValueError(f"game record: events of action {i} must be a list of {{\"kind\": ..., "
                             f"\"seen_by\": [...]}} objects")
    return tuple(tuple(step) for step in entries)


def json_options(options: dict) -> dict:
    """Parsed options as JSON values (tuples as lists, numpy scalars as Python ones)."""
    def plain(value):
        if isinstance(value, (tuple, list)):
            return [plain(v) for v in value]
        if isinstance(value, np.generic):
            return value.item()
        return value
    return {name: plain(value) for name, value in options.items()}


def result_of(game, state) -> dict:
    """``scores``, ``winners``, ``truncated`` and ``decisions`` of one finished record."""
    one = np.asarray(state).reshape(1)
    n = int(one["num_players"][0])
    return {"scores": game.scores(one)[0, :n].tolist(),
            "winners": np.flatnonzero(game.winners(one)[0, :n]).tolist(),
            "truncated": bool(game.truncated(one)[0]), "decisions": int(one["n_decisions"][0])}


def make_record(game, seed: int, options: dict, actions, players=(), final_state=None, chance=(),
                events: bool = False) -> GameRecord:
    """The record of a game dealt from ``seed`` with ``options`` and played by ``actions`` ``(seat, id)``.

    ``chance``: the scripts applied during play, ``(at, outcomes, then)`` (``GameRecord.chance``). The action
    names are read by replaying (so ``actions`` must be the game's); ``final_state``, when given, adds the result;
    ``events`` stores what each step reported (``Game.step_with_events``; ``NotImplementedError`` for a game
    that reports none).
    """
    from wildwest_envs import __version__

    options = json_options(game.parse_options(**options))
    chance = tuple((int(at), tuple((str(k), int(v)) for k, v in _named(game, outcomes)), str(then))
                   for at, outcomes, then in chance)
    if events and game.event_kinds is None:
        raise NotImplementedError(f"{game.name} reports no events: a record without events=True is all it has")
    names, reported = [], []
    states = game.init(np.array([seed], dtype=np.uint64), **options)
    for i, (_, action) in enumerate(actions):
        _script_before(game, states, chance, i)
        names.append(game.action_to_string(states[0], int(action)))
        if events:
            reported.append(tuple(e.to_dict() for e in game.step_with_events(states, [int(action)])[0]))
        else:
            game.step(states, [int(action)])
    result = result_of(game, final_state) if final_state is not None else {}
    return GameRecord(game.name, options, int(seed), tuple((int(s), int(a)) for s, a in actions), tuple(names),
                      tuple(players), result, __version__, chance, tuple(reported))


def _named(game, outcomes) -> list:
    """Script outcomes as ``(kind, outcome)`` pairs (a game with one kind takes bare outcomes too)."""
    only = game.chance_kinds[0].name if len(game.chance_kinds) == 1 else None
    return [o if isinstance(o, tuple) and len(o) == 2 else (only, o) for o in outcomes]


def _script_before(game, states: np.ndarray, chance: tuple, i: int) -> None:
    """Apply the record's scripts that come before action ``i``."""
    for at, outcomes, then in chance:
        if at == i:
            game.script(states, list(outcomes), then)


def as_record(record: GameRecord | str | Path) -> GameRecord:
    """``record`` as a ``GameRecord``: itself, parsed from its JSON text, or read from a file path."""
    if isinstance(record, GameRecord):
        return record
    if isinstance(record, Path) or (isinstance(record, str) and not record.lstrip().startswith("{")):
        return GameRecord.load(record)
    if isinstance(record, str):
        return GameRecord.from_json(record)
    raise TypeError(f"a game record is a GameRecord, its JSON text or a file path, got {type(record).__name__}")


def replay(game, record: GameRecord | str | Path, every_state: bool = False) -> np.ndarray:
    """Deal and play a record (module docstring); the final ``(1,)`` record, or every state with ``every_state``.

    ``record`` is a ``GameRecord``, its JSON text or the path of a record file.

    Raises:
        ValueError: another game or version, an unknown option, an action out of turn, illegal or after the
            end, or a result that differs from the record's.
    """
    record = as_record(record)
    if record.game != game.name:
        raise ValueError(f"a record of {record.game!r} cannot be replayed by {game.name!r} (another game or "
                         f"version)")
    states = game.init(np.array([record.seed], dtype=np.uint64), **record.options)
    history = [states.copy()] if every_state else None
    for i, (seat, action) in enumerate(record.actions):
        try:
            _script_before(game, states, record.chance, i)
        except (TypeError, ValueError) as error:
            raise ValueError(f"record chance before action {i}: {error}") from None
        if game.finished(states)[0]:
            raise ValueError(f"record action {i}: the game is already over")
        if seat != int(states["current"][0]):
            raise ValueError(f"record action {i}: seat {seat} acts, but seat {int(states['current'][0])} is on turn")
        try:
            if record.events:
                happened = [e.to_dict() for e in game.step_with_events(states, [action])[0]]
            else:
                game.step(states, [action])
        except ValueError as error:
            raise ValueError(f"record action {i}: {error}") from None
        if record.events and happened != list(record.events[i]):
            raise ValueError(f"record action {i}: the record's events differ from the replay's "
                             f"(recorded {list(record.events[i])}, replayed {happened})")
        if every_state:
            history.append(states.copy())
    _script_before(game, states, record.chance, len(record.actions))  # a script for the action to come
    if record.result:
        replayed = result_of(game, states[0])
        differs = {k: (record.result[k], replayed[k]) for k in replayed if k in record.result
                   and record.result[k] != replayed[k]}
        if differs:
            raise ValueError(f"the record's result differs from its replay (recorded, replayed): {differs}")
    return np.concatenate(history) if every_state else states


__all__ = ["FORMAT", "GameRecord", "as_record", "json_options", "make_record", "replay", "result_of"]
