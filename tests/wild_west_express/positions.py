"""Small helpers that build Wild West Express positions for the rule tests.

A position is a batch of one record (``states``, shape ``(1,)``) built by the
public ``init`` kernel, played through setup with chosen picks, then
overwritten field by field so that a test states exactly the situation it
checks. Play goes through the public kernels only (``legal_mask``, ``step``);
dice and duel dice are fixed through the record's scripted-chance queue.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.rng import N_FORCED
from wildwest_envs.wild_west_express import rules
from wildwest_envs.wild_west_express.data import (A_END, A_SPACE, CARGO_EMPTY, DEC_PRE_ROLL, MAX_PLAYERS,
                                                  MAX_TRAINS, N_ACTIONS, NO_SPACE, PHASE_PRE_ROLL, START_CASH)
from wildwest_envs.wild_west_express.options import kernel_options, parse_options
from wildwest_envs.wild_west_express.state import NOBODY, STATE_DTYPE

# default draft for 3 players (seat 0 starts when the start player is forced to 0)
PICKS_3 = [0, 1, 2, 3, 4, 5]  # Seattle, Portland, Sacramento, San Francisco, Los Angeles, San Diego


def new_game(seed: int = 0, **options) -> np.ndarray:
    """A fresh game (batch of one) at its first draft pick."""
    states = np.zeros(1, dtype=STATE_DTYPE)
    rules.init(states, np.array([seed], dtype=np.uint64), kernel_options(parse_options(**options)))
    return states


def legal_actions(states: np.ndarray) -> list[int]:
    """The legal action ids of the pending decision."""
    mask = np.zeros((1, N_ACTIONS), dtype=np.int8)
    rules.legal_mask(states, mask)
    return [int(a) for a in np.flatnonzero(mask[0])]


def play(states: np.ndarray, action: int) -> None:
    """Step with ``action`` after checking it is legal."""
    legal = legal_actions(states)
    assert action in legal, f"action {action} is not legal at decision {states[0]['decision']}; legal: {legal}"
    rules.step(states, np.array([action], dtype=np.int64))


def force(states: np.ndarray, values: list[int]) -> None:
    """Script the next chance outcomes: a die reads ``value + 1`` (core.rng ``draw_below``)."""
    s = states[0]
    assert len(values) <= N_FORCED
    s["forced"][:] = 0
    s["forced"][:len(values)] = values
    s["n_forced"] = len(values)
    s["forced_pos"] = 0


def started_game(num_players: int = 3, picks: list[int] | None = None, seed: int = 0, **options) -> np.ndarray:
    """A game played through setup with the given picks (in draft order) and first-listed desperado cities.

    The start player is whatever the seed draws; the record then stands at the
    start player's first PRE_ROLL.
    """
    states = new_game(seed=seed, num_players=num_players, **options)
    picks = list(picks if picks is not None else range(2 * num_players))
    for c in picks:
        play(states, A_SPACE + c)
    while states[0]["phase"] != PHASE_PRE_ROLL:
        play(states, legal_actions(states)[0])
    return states


def clear_board(states: np.ndarray) -> None:
    """Remove every train and desperado (stations stay), leaving an empty board to set up by hand."""
    s = states[0]
    s["train_exists"][:] = 0
    s["train_large"][:] = 0
    s["train_pos"][:] = NO_SPACE
    s["train_from"][:] = -1
    s["train_cargo"][:] = CARGO_EMPTY
    s["train_wait"][:] = 0
    s["train_debt"][:] = 0
    s["train_creditor"][:] = NOBODY
    s["train_moved"][:] = 0
    s["train_armed"][:] = 0
    s["desp_pos"][:] = NO_SPACE
    s["n_desperados"][:] = 0


def put_train(states: np.ndarray, seat: int, t: int, pos: int, came_from: int = -1, cargo=(), large: bool = False,
              moved: bool = False) -> None:
    """Place train slot t of ``seat`` at ``pos`` with the given cargo codes."""
    s = states[0]
    s["train_exists"][seat, t] = 1
    s["train_large"][seat, t] = 1 if large else 0
    s["train_pos"][seat, t] = pos
    s["train_from"][seat, t] = came_from
    s["train_cargo"][seat, t] = CARGO_EMPTY
    for j, code in enumerate(cargo):
        s["train_cargo"][seat, t, j] = code
    s["train_moved"][seat, t] = 1 if moved else 0


def put_desperado(states: np.ndarray, seat: int, pos: int) -> int:
    """Add a desperado of ``seat`` at ``pos``; returns its index."""
    s = states[0]
    k = int(s["n_desperados"][seat])
    s["desp_pos"][seat, k] = pos
    s["n_desperados"][seat] = k + 1
    return k


def pre_roll_of(states: np.ndarray, seat: int) -> None:
    """Make the pending decision the PRE_ROLL of ``seat`` (its turn, nothing in progress)."""
    s = states[0]
    s["active"] = seat
    s["current"] = seat
    s["phase"] = PHASE_PRE_ROLL
    s["decision"] = DEC_PRE_ROLL
    s["dice"][:] = 0
    s["train_moved"][seat] = 0
    s["dynamite_bought"][seat] = 0


def roll(states: np.ndarray, dice: tuple[int, int, int], more: list[int] = ()) -> None:
    """End PRE_ROLL with the three dice fixed (values 1..6), then ``more`` scripted outcomes (duel dice: value - 1)."""
    force(states, [v - 1 for v in dice] + list(more))
    play(states, A_END)


def other_seats(states: np.ndarray, seat: int) -> list[int]:
    return [p for p in range(int(states[0]["num_players"])) if p != seat]


assert MAX_TRAINS == 6 and MAX_PLAYERS == 5


def seat0_turn(cash: int = 450, **options) -> np.ndarray:
    """Seat 0 to play PRE_ROLL of a 3-player game on an empty board with no stations; seats 1-2 keep $100
    (so their PRE_ROLL is asked and play stops there once seat 0's turn is over)."""
    states = started_game(3, **options)
    clear_board(states)
    states[0]["city_owner"][:] = NOBODY
    states[0]["cash"][:3] = 100
    states[0]["cash"][0] = cash
    book_cash(states)
    pre_roll_of(states, 0)
    return states


def book_cash(states: np.ndarray) -> None:
    """After cash was set by hand: book the difference as paid by the bank (the money invariant, §0.2)."""
    s = states[0]
    n = int(s["num_players"])
    s["bank_paid"] = int(s["cash"][:n].sum()) - (n * START_CASH if s["round"] >= 1 else 0)


def stack_deck(states: np.ndarray, top: list[int]) -> None:
    """Put ``top`` (in order) at the top of the deck, the other deck cards after them in their order."""
    s = states[0]
    rest = [int(k) for k in s["deck"][:s["deck_size"]] if k not in top]
    cards = list(top) + rest
    s["deck"][:] = -1
    s["deck"][:len(cards)] = cards
    s["deck_size"] = len(cards)
    s["never_drawn"] = 0


def give_card(states: np.ndarray, seat: int, card: int, train: int) -> None:
    """Take personal card ``card`` out of the deck into the hand of ``seat``, bound to its train slot ``train``."""
    s = states[0]
    rest = [int(k) for k in s["deck"][:s["deck_size"]] if k != card]
    s["deck"][:] = -1
    s["deck"][:len(rest)] = rest
    s["deck_size"] = len(rest)
    s["never_drawn"] = 0
    s["card_holder"][card] = seat
    s["card_bound"][card] = train


def deck_bottom(states: np.ndarray, n: int) -> list[int]:
    """The last ``n`` cards of the deck, bottom last."""
    s = states[0]
    size = int(s["deck_size"])
    return [int(k) for k in s["deck"][size - n:size]]
