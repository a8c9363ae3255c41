"""Golden playthroughs: one full seeded game per registered game, compared on every run.

The file ``tests/golden/<game>.txt`` holds, for every decision, the ansi board,
the legal actions by name and the action taken; any change of behaviour shows
up as a readable diff. Regenerate on purpose only::

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


def playthrough(name: str) -> str:
    """The text of one seeded game with a seeded uniform-random policy."""
    game = get_game(name)
    options = {"num_players": 3}
    states = game.init(np.array([SEED], dtype=np.uint64), **options)
    rng = np.random.default_rng(SEED)
    lines = [f"# {name} golden playthrough, seed {SEED}, options {options}"]
    decision = 0
    while not states["done"][0]:
        legal = np.flatnonzero(game.legal_mask(states)[0])
        action = int(legal[rng.integers(len(legal))])
        lines.append(f"\n## decision {decision}: player_{int(states['current'][0])}")
        lines.append(game.render_ansi(states[0]))
        lines.append("legal: " + " | ".join(game.action_to_string(states[0], int(a)) for a in legal))
        lines.append(f"action: {action} = {game.action_to_string(states[0], action)}")
        game.step(states, np.array([action]))
        decision += 1
    lines.append(f"\n## final\n{game.render_ansi(states[0])}")
    lines.append(f"scores: {game.scores(states)[0].tolist()}  returns: {game.returns(states)[0].tolist()}")
    return "\n".join(lines) + "\n"


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
