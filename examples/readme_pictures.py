"""Draw the README's pictures: one SVG per game, a seeded game of three heuristic players halfway through.

Usage (from the repository root; the files are committed, and ``tests/test_readme_pictures.py`` checks that
this script still writes them byte for byte)::

    python examples/readme_pictures.py                 # writes docs/pictures/<game>.svg
    python examples/readme_pictures.py --out /tmp/pics

Each game is played to its end by three ``heuristic`` agents (seed ``SEED``), and the state after half of its
decisions is drawn by the game's ``svg.draw`` in the omniscient view. A game without a drawing module is skipped
with a message.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import numpy as np

from wildwest_envs.agents.registry import make_agent
from wildwest_envs.core.runner import play_decisions
from wildwest_envs.registry import GAMES, get_game

SEED = 3
PLAYERS = 3
OUT = Path(__file__).resolve().parent.parent / "docs" / "pictures"


def drawing_module(game_name: str):
    """The game's ``svg`` module (``wildwest_envs.<game>.svg``), or None if it has none."""
    try:
        return importlib.import_module(f"wildwest_envs.{game_name.removesuffix('_v0')}.svg")
    except ModuleNotFoundError:
        return None


def halfway_state(game_name: str, seed: int = SEED, players: int = PLAYERS) -> np.ndarray:
    """The record of a seeded 3-heuristic game after half of its decisions (one record, a copy)."""
    game = get_game(game_name)
    states = game.init(seed, num_players=players)
    agents = [make_agent("heuristic", game_name, seed=seed, num_players=players)]
    owners = np.zeros((1, int(game.max_players)), dtype=np.int64)
    history = [states[0].copy()]
    while not bool(game.finished(states)[0]):
        play_decisions(game, states, np.array([0]), agents, owners)
        history.append(states[0].copy())
    return history[len(history) // 2]


def write_pictures(out: Path = OUT) -> list[Path]:
    """Write ``<out>/<game>.svg`` for every registered game that has a drawing; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game_name in GAMES:
        module = drawing_module(game_name)
        if module is None:
            print(f"{game_name}: no svg module, skipped")
            continue
        path = out / f"{game_name.removesuffix('_v0')}.svg"
        path.write_text(module.draw(halfway_state(game_name)), encoding="utf-8")
        written.append(path)
        print(f"wrote {path}")
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default: {OUT})")
    write_pictures(parser.parse_args(argv).out)


if __name__ == "__main__":
    main()
