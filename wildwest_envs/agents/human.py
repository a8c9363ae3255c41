"""A person playing in the terminal: the text board, the legal actions by name, a typed choice.

For each decision ``HumanAgent`` prints ``game.render_ansi(state)`` (the public
board: what any player at the table may see) and the legal actions, numbered
from 1 and named by ``game.action_to_string``, then reads a line:

* the number of an action in the list (``1`` .. ``k``), or
* its name exactly as shown (surrounding spaces ignored; if no name matches
  exactly, a unique case-insensitive match is accepted), or
* ``q`` (or ``quit``) to stop: raises ``KeyboardInterrupt``.

Anything else prints a message saying what was wrong and asks again. The end
of the input stream raises ``EOFError``. Answers read from a stream that is not
a terminal (a script, a pipe) are echoed, so the transcript shows them.

The board needs the game state, so the agent plays through
``act_batch(observations, masks, states, seats)``; ``act(observation, mask)``
alone cannot show the board or name the actions and raises ``TypeError``.
Given several rows, it asks for each in turn. A person is not seeded.
"""

from __future__ import annotations

import sys
from typing import TextIO

import numpy as np

from .base import BatchAgent

QUIT_WORDS = ("q", "quit")  # inputs that end the game (KeyboardInterrupt)


class HumanAgent(BatchAgent):
    """A person choosing actions in a terminal (or any text streams, for tests)."""

    name = "human"

    def __init__(self, game, input_stream: TextIO | None = None, output_stream: TextIO | None = None):
        self.game = game
        self.input_stream = input_stream
        self.output_stream = output_stream

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Not available: a person needs the state to see the board (use ``act_batch`` with ``states``)."""
        raise TypeError("HumanAgent needs the game state to show the board and name the actions: call "
                        "act_batch(observations, masks, states, seats)")

    def act_batch(self, observations: np.ndarray, masks: np.ndarray, states: np.ndarray | None = None,
                  seats: np.ndarray | None = None) -> np.ndarray:
        """Ask the person for one action per row (the board of ``states[i]``, the legal names of ``masks[i]``)."""
        if states is None:
            raise TypeError("HumanAgent.act_batch needs the states to show the board")
        masks = np.asarray(masks)
        seats = np.asarray(states["current"] if seats is None else seats)
        return np.array([self.choose(states[i], masks[i], int(seats[i])) for i in range(len(masks))], dtype=np.int64)

    def choose(self, state: np.ndarray, mask: np.ndarray, seat: int) -> int:
        """Show one decision of ``seat`` and return the action the person picks."""
        legal = [int(a) for a in np.flatnonzero(mask)]
        if not legal:
            raise ValueError("the action mask has no legal action")
        names = [self.game.action_to_string(state, a) for a in legal]
        self._print(self.game.render_ansi(state))
        self._print(f"You are player_{seat} (seat {seat}). Legal actions:")
        for i, label in enumerate(names, start=1):
            self._print(f"  {i:>3}. {label}")
        while True:
            self._print(f"Your choice (1-{len(legal)}, an action name, or q to quit): ", end="")
            stream = self.input_stream or sys.stdin
            line = stream.readline()
            if not line:
                raise EOFError("the input ended before the game did")
            if not stream.isatty():  # a script or a pipe: echo the answer so the transcript reads well
                self._print(line.rstrip("\n"))
            choice, problem = parse_choice(line, names)
            if choice is not None:
                return legal[choice]
            self._print(problem)

    def _print(self, text: str, end: str = "\n") -> None:
        stream = self.output_stream or sys.stdout
        stream.write(text + end)
        stream.flush()


def parse_choice(line: str, names: list[str]) -> tuple[int | None, str]:
    """``(index into names, "")`` for a valid answer, ``(None, message)`` otherwise; ``q`` raises KeyboardInterrupt."""
    text = line.strip()
    if text.lower() in QUIT_WORDS:
        raise KeyboardInterrupt("the player quit")
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(names):
            return number - 1, ""
        return None, f"{number} is not in the list: type a number from 1 to {len(names)}."
    if text in names:
        return names.index(text), ""
    folded = [i for i, label in enumerate(names) if label.lower() == text.lower()]
    if len(folded) == 1:
        return folded[0], ""
    return None, f"{text!r} is neither a number from 1 to {len(names)} nor the name of a legal action."
