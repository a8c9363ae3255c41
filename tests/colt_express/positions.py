"""Small helpers that build Colt Express positions for the rule tests.

A position is a batch of one record (``states``, shape ``(1,)``) built by the
public ``init`` kernel and then overwritten field by field, so that a test
states exactly the situation it checks. Play goes through the public kernels
only (``legal_mask`` and ``step``).
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import (A_DRAW, A_KEEP_REST, DEC_KEEP, DEC_PLAN, IN, N_ACTIONS, N_LOCATIONS,
                                             N_PURSES, PURSE_IN_BOX, PURSE_ON_BANDIT, ROUND_CARD_TURNS, TURN_NONE,
                                             TURN_SPEEDUP, TURN_SWITCH)
from wildwest_envs.colt_express.data import OPT_EXPERT
from wildwest_envs.colt_express.options import kernel_options, parse_options
from wildwest_envs.colt_express.state import NOBODY, STATE_DTYPE

BRIDGE_SMALL = 6  # "Bridge" round card, 2-4 players, no event (§2.6)
BRIDGE_LARGE = 13  # "Bridge" round card, 5-6 players, no event


def position(num_players: int = 3, seed: int = 0, expert: bool | None = None, auto_resolve: bool = True,
             characters=None, carriages=None, max_decisions: int = 700, **overrides) -> np.ndarray:
    """A fresh game (batch of one) after ``init``, then ``states[0][field] = value`` for each override.

    The options are checked as ``env`` checks them, except ``expert``, which reaches the kernel as given
    (default: the rules' default, on with 2 players only), so that a test can show the kernel's own §3.3 rule
    (two players always play expert) with ``expert=False``."""
    vector = kernel_options(parse_options(num_players=num_players, auto_forced=auto_resolve, characters=characters,
                                          carriages=carriages, max_decisions=max_decisions))
    if expert is not None:
        vector[OPT_EXPERT] = expert
    states = np.zeros(1, dtype=STATE_DTYPE)
    rules.init(states, np.array([seed], dtype=np.uint64), vector)
    for name, value in overrides.items():
        states[0][name] = value
    return states


def legal_actions(states: np.ndarray) -> list[int]:
    """The legal action ids of the pending decision."""
    mask = np.zeros((1, N_ACTIONS), dtype=np.int8)
    rules.legal_mask(states, mask)
    return [int(a) for a in np.flatnonzero(mask[0])]


def play(states: np.ndarray, action: int) -> None:
    """Step with ``action`` after checking it is legal."""
    legal = legal_actions(states)
    assert action in legal, f"action {action} is not legal; legal: {legal}"
    rules.step(states, np.array([action], dtype=np.int64))


def place(states: np.ndarray, bandit: int, car: int, level: int = IN) -> None:
    """Put a bandit at (car, level) without any rule being applied."""
    states[0]["bandit_car"][bandit] = car
    states[0]["bandit_level"][bandit] = level


def empty_train(states: np.ndarray) -> None:
    """Remove all loot from the train (purses to the box, no jewels or strongboxes on the floor)."""
    s = states[0]
    for i in range(N_PURSES):
        if s["purse_location"][i] < N_LOCATIONS:
            s["purse_location"][i] = PURSE_IN_BOX
    s["floor_jewels"][:] = 0
    s["floor_strongboxes"][:] = 0


def purses_of(states: np.ndarray, bandit: int) -> list[int]:
    """Ids of the purses held by a bandit."""
    return [i for i in range(N_PURSES) if states[0]["purse_location"][i] == PURSE_ON_BANDIT + bandit]


def purses_at(states: np.ndarray, car: int, level: int = IN) -> list[int]:
    """Ids of the purses lying at (car, level)."""
    return [i for i in range(N_PURSES) if states[0]["purse_location"][i] == car * 2 + level]


def return_hands_to_decks(states: np.ndarray) -> None:
    """Put every card in hand on top of its owner's draw deck (cards stay conserved)."""
    s = states[0]
    for seat in range(int(s["num_players"])):
        for code in range(len(s["hand"][seat])):
            for _ in range(int(s["hand"][seat, code])):
                s["deck"][seat, s["deck_size"][seat]] = code
                s["deck_size"][seat] += 1
        s["hand"][seat] = 0
        s["known_bullets_on_top"][seat] = 0


def last_play(states: np.ndarray, card: int | None = None) -> None:
    """Make the pending decision the last PLAN of the round's Schemin' (a DRAW is then legal).

    The round card becomes ``card`` (default: the event-free Bridge of the
    player-count group); the pile is left as it is; every hand goes back on
    top of its draw deck, so the seat to play can draw.
    """
    s = states[0]
    n = int(s["num_players"])
    if card is None:
        card = BRIDGE_SMALL if n <= 4 else BRIDGE_LARGE
    s["round_deck"][s["round"]] = card
    icons = [int(t) for t in ROUND_CARD_TURNS[card] if t != TURN_NONE]
    s["turn"] = len(icons) - 1
    s["turn_position"] = n - 1
    s["play_in_turn"] = 1 if icons[-1] == TURN_SPEEDUP else 0
    step = -1 if icons[-1] == TURN_SWITCH else 1
    seat = (int(s["first_player"]) + step * (n - 1)) % n
    s["decision"] = DEC_PLAN
    s["current"] = seat
    s["cursor"] = 0
    return_hands_to_decks(states)
    assert s["deck_size"][seat] > 0 or (s["expert"] and s["discard"][seat].sum() > 0)


def set_pile(states: np.ndarray, cards: list[tuple]) -> None:
    """Put ``(owner seat, card code[, face down])`` entries on the pile, first played first."""
    s = states[0]
    s["pile_owner"][:] = NOBODY
    s["pile_card"][:] = NOBODY
    s["pile_down"][:] = 0
    for i, entry in enumerate(cards):
        s["pile_owner"][i] = entry[0]
        s["pile_card"][i] = entry[1]
        s["pile_down"][i] = 1 if len(entry) > 2 and entry[2] else 0
    s["pile_size"] = len(cards)


def stealin(states: np.ndarray, cards: list[tuple], card: int | None = None) -> None:
    """Start Stealin' with the given pile: the last planner draws, Schemin' ends (KEEP_REST for expert).

    Afterwards the record stands at the first decision the pile asks for (or
    later, when nothing is asked).
    """
    set_pile(states, cards)
    last_play(states, card)
    play(states, A_DRAW)
    while states[0]["decision"] == DEC_KEEP:
        play(states, A_KEEP_REST)
