"""A resumable journal of a long match: finished batches of games on disk, one JSON line each.

``play_matches(..., journal=open_journal(path, ...))`` (``training.tournament``) appends every
batch it finishes (its first game index, its wall seconds, the ``GameResult``
of each game) and, started again with the same journal, takes the games already
there and plays on from the first game that is missing. A run stopped at any
point (a killed process, the end of a session) loses at most the batch it was
playing; a run started again with more games extends the one on disk (game
``i`` is dealt from ``(seed, i)`` and seated by the schedule whatever the
total). The first line holds the settings (game, players, seed, agents,
seatings, options); a journal written with other settings is refused, so two
runs cannot be mixed in one file.

Agents that draw random numbers (``random``, the searches) go on from a fresh
generator after a restart, so a resumed run plays the same deals and seatings as
an uninterrupted one but not necessarily the same moves. The settings name the
agents, not their weights: start a new journal when an agent behind a name
changes (a new shipped network, another checkpoint at the same path). An agent
that sits in none of the match's seatings plays no game of it, so its name is
not compared (``comparable``): a ladder whose search agent changed keeps the
journal of its part without search.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FORMAT = "wildwest_envs.match_journal/1"  # first line's "format": what this module reads and writes


class MatchJournal:
    """The batches of one match on disk (``path``, JSON lines), for settings that must not change between runs.

    Args:
        path: the journal file; created (with its folder) on the first append.
        settings: JSON-compatible description of the match (game, players, seed,
            agent names, seatings...); the file's settings must equal it.

    Raises:
        ValueError: the file exists but is not a journal, is corrupt, or was written with other settings.
    """

    def __init__(self, path: str | Path, settings: dict):
        self.path = Path(path)
        self.settings = json.loads(json.dumps(settings))  # tuples become lists, as read back from the file
        self.batches: list[dict] = []
        self._header = ""  # the file's first line
        if self.path.exists():
            self._read()

    def _read(self) -> None:
        text = self.path.read_text()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif lines:  # a last line without its newline: the write of a killed run; drop it
            lines.pop()
            self.path.write_text("".join(line + "\n" for line in lines))
        try:
            records = [json.loads(line) for line in lines]
        except json.JSONDecodeError as error:
            raise ValueError(f"{self.path}: corrupt match journal ({error}); remove it to start again") from None
        if not records or not isinstance(records[0], dict) or records[0].get("format") != FORMAT:
            raise ValueError(f"{self.path}: not a match journal (its first line must have format {FORMAT!r})")
        if comparable(records[0].get("settings")) != comparable(self.settings):
            raise ValueError(f"{self.path}: journal of another match; its settings {records[0].get('settings')} "
                             f"differ from this run's {self.settings}; use another journal path")
        expected = 0
        for record in records[1:]:
            if not isinstance(record, dict) or record.get("start") != expected or not record.get("results"):
                raise ValueError(f"{self.path}: corrupt match journal (batches must follow each other from game "
                                 f"0; expected a batch starting at game {expected})")
            expected += len(record["results"])
        self.batches = records[1:]
        self._header = lines[0]

    @property
    def games(self) -> int:
        """Games on disk (they are games ``0 .. games - 1``)."""
        return sum(len(b["results"]) for b in self.batches)

    def results(self, n_games: int, result_type) -> list:
        """The first ``n_games`` results on disk as ``result_type(**fields)`` (tuples restored)."""
        out = []
        for batch in self.batches:
            for fields in batch["results"]:
                if len(out) == n_games:
                    return out
                out.append(result_type(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}))
        return out

    def seconds(self, n_games: int) -> float:
        """Wall seconds of the batches that hold the first ``n_games`` games (the last one counted in part)."""
        total, counted = 0.0, 0
        for batch in self.batches:
            size = len(batch["results"])
            take = min(size, n_games - counted)
            if take <= 0:
                break
            total += batch["seconds"] * take / size
            counted += take
        return total

    def append(self, start: int, seconds: float, results: list[dict]) -> None:
        """Write one finished batch (its first game index, wall seconds and result fields)."""
        if start != self.games:
            raise ValueError(f"journal holds games 0..{self.games - 1}; a batch starting at {start} does not follow")
        record = {"start": start, "seconds": seconds, "results": results}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as file:
            if file.tell() == 0:
                self._header = json.dumps({"format": FORMAT, "settings": self.settings})
                file.write(self._header + "\n")
            file.write(json.dumps(record) + "\n")
        self.batches.append(record)

    def replace(self, results: list[dict]) -> None:
        """Put ``results`` (result fields, each with the ``index`` of a game on disk) in place of the journal's
        results of the same games, and rewrite the file (whole, then renamed over the old one); the batches keep
        their wall seconds.

        Raises:
            ValueError: a result names no game on disk.
        """
        if not results:
            return
        by_index = {fields["index"]: fields for fields in results}
        missing = sorted(set(by_index) - set(range(self.games)))
        if missing:
            raise ValueError(f"journal holds games 0..{self.games - 1}; cannot replace games {missing}")
        for batch in self.batches:
            batch["results"] = [by_index.get(fields["index"], fields) for fields in batch["results"]]
        text = self._header + "\n" + "".join(json.dumps(batch) + "\n" for batch in self.batches)
        written = self.path.with_name(self.path.name + ".new")
        written.write_text(text)
        os.replace(written, self.path)


def journal_settings(path: str | Path) -> dict | None:
    """The settings on the first line of the journal at ``path``; ``None`` when there is no such file.

    Raises:
        ValueError: the file is not a match journal.
    """
    path = Path(path)
    if not path.exists():
        return None
    first = path.read_text().split("\n", 1)[0]
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not isinstance(header.get("settings"), dict):
        raise ValueError(f"{path}: not a match journal (its first line must have format {FORMAT!r} and settings)")
    return header["settings"]


def comparable(settings) -> object:
    """``settings`` as two journals of one match must agree on them: with ``agents`` and ``schedule`` (the
    seatings, lists of agent indices), the names of agents seated in no seating are left out (``None``)."""
    if not isinstance(settings, dict) or not isinstance(settings.get("agents"), list):
        return settings
    schedule = settings.get("schedule")
    if not isinstance(schedule, list) or not all(isinstance(seating, list) for seating in schedule):
        return settings
    seated = {index for seating in schedule for index in seating}
    return dict(settings, agents=[name if index in seated else None for index, name in enumerate(settings["agents"])])
