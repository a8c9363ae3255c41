"""Golden playthroughs: one full seeded game per registered game, compared on every run.

The file ``tests/golden/<game>.txt`` holds, for every decision, the player to act,
the legal actions by name and the action taken, and the ansi board whenever the
player to act changes (so a long game with many decisions per turn stays readable);
any change of behaviour shows up as a readable diff. Runs of three or more
consecutive legal actions whose names differ only in their last word are written
once, ``"dynamite on {31-35, 40, Reno}"`` (consecutive numbers as a range).
Regenerate on purpose only::

    WILDWEST_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden_playthrough.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from wildwest_envs.registry import get_game

GOLDEN_DIR = Path(__file__).parent / "golden"
SEED = 2024
MIN_GROUP = 3  # consecutive legal actions sharing all but their last word, written as one group


def playthrough(name: str) -> str:
    """The text of one seeded game with a seeded uniform-random policy."""
    game = get_game(name)
    options = {"num_players": 3}
    states = game.init(np.array([SEED], dtype=np.uint64), **options)
    rng = np.random.default_rng(SEED)
    lines = [f"# {name} golden playthrough, seed {SEED}, options {options}"]
    decision = 0
    previous = None
    while not states["done"][0]:
        legal = np.flatnonzero(game.legal_mask(states)[0])
        action = int(legal[rng.integers(len(legal))])
        player = int(states["current"][0])
        lines.append(f"\n## decision {decision}: player_{player}")
        if player != previous:
            lines.append(game.render_ansi(states[0]))
        previous = player
        lines.append("legal: " + compact_names([game.action_to_string(states[0], int(a)) for a in legal]))
        lines.append(f"action: {action} = {game.action_to_string(states[0], action)}")
        game.step(states, np.array([action]))
        decision += 1
    lines.append(f"\n## final\n{game.render_ansi(states[0])}")
    lines.append(f"scores: {game.scores(states)[0].tolist()}  returns: {game.returns(states)[0].tolist()}")
    return "\n".join(lines) + "\n"


def compact_names(names: list[str]) -> str:
    """``" | "``-joined names; a run of >= MIN_GROUP sharing all but the last word becomes ``"prefix {a, b-d}"``."""
    parts, i = [], 0
    while i < len(names):
        prefix = names[i].rpartition(" ")[0]
        j = i
        while prefix and j < len(names) and names[j].rpartition(" ")[0] == prefix:
            j += 1
        if j - i >= MIN_GROUP:
            parts.append(f"{prefix} {{{', '.join(_number_ranges([n.rpartition(' ')[2] for n in names[i:j]]))}}}")
            i = j
        else:
            parts.append(names[i])
            i += 1
    return " | ".join(parts)


def _number_ranges(words: list[str]) -> list[str]:
    """Runs of >= 3 consecutive integers written ``"a-b"``; other words as they are."""
    out, i = [], 0
    while i < len(words):
        j = i
        while words[i].isdigit() and j + 1 < len(words) and words[j + 1].isdigit() \
                and int(words[j + 1]) == int(words[j]) + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{words[i]}-{words[j]}")
        else:
            out.extend(words[i:j + 1])
        i = j + 1
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_golden_playthrough_unchanged(name):
    """The seeded game replays exactly as recorded."""
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(name)
    if os.environ.get("WILDWEST_REGENERATE_GOLDEN") or not path.exists():
        path.write_text(text)
        if not os.environ.get("WILDWEST_REGENERATE_GOLDEN"):
            pytest.fail(f"golden file {path} was missing and has been written; commit it")
    expected = path.read_text()
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            "golden", "now", n=2))
        pytest.fail(f"{name} playthrough changed:\n{diff[:6000]}")
