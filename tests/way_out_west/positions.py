"""Helpers that build Way Out West positions for the rule tests.

A position is a batch of one record (``states``, shape ``(1,)``) made by the
public ``init`` kernel with a fixed start player, played through setup and the
first auction with chosen moves, then edited field by field (keeping every
supply consistent, so the invariants still hold) so that a test states exactly
the situation it checks. Play goes through the public kernels only
(``legal_mask``, ``step``); dice are fixed through the record's die queue.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.way_out_west import rules
from wildwest_envs.way_out_west.data import (A_BOX, A_PASS, A_TOWN, DEC_AUCTION_BID, DEC_CHOOSE_ACTION,
                                             DEC_SETUP_PLACE_COWBOY, MAX_PLAYERS, N_ACTIONS, N_CATTLE,
                                             N_COWBOYS, N_DIE_QUEUE, N_PER_BT_TYPE, N_TOWNS)
from wildwest_envs.way_out_west.invariants import INVARIANT_MESSAGES, first_violation
from wildwest_envs.way_out_west.options import kernel_options, parse_options
from wildwest_envs.way_out_west.state import NOBODY, STATE_DTYPE

SAN_ANTONIA, KANSAS_CITY, ABILENE, DODGE_CITY, DEADWOOD = range(N_TOWNS)


def new_game(seed: int = 0, **options) -> np.ndarray:
    """A fresh game (batch of one) at its first setup placement."""
    options.setdefault("start_player", 0)
    states = np.zeros(1, dtype=STATE_DTYPE)
    rules.init(states, np.array([seed], dtype=np.uint64), kernel_options(parse_options(**options)))
    return states


def legal_actions(states: np.ndarray) -> list[int]:
    """The legal action ids of the pending decision."""
    mask = np.zeros((1, N_ACTIONS), dtype=np.int8)
    rules.legal_mask(states, mask)
    return [int(a) for a in np.flatnonzero(mask[0])]


def play(states: np.ndarray, *actions: int) -> None:
    """Step with each action in turn after checking it is legal; the invariants hold after each."""
    for action in actions:
        legal = legal_actions(states)
        assert action in legal, f"action {action} is not legal at decision {states[0]['decision']}; legal: {legal}"
        rules.step(states, np.array([action], dtype=np.int64))
        assert_consistent(states)


def assert_consistent(states: np.ndarray) -> None:
    """Every invariant of §14 holds."""
    code = first_violation(states[0])
    assert code == 0, INVARIANT_MESSAGES[code]


def force_dice(states: np.ndarray, dice: list[int]) -> None:
    """Preset the next dice (values 1..6) in the die queue (§13.3)."""
    s = states[0]
    assert len(dice) <= N_DIE_QUEUE and all(1 <= d <= 6 for d in dice)
    s["forced"][:] = 0
    s["forced"][:len(dice)] = [d - 1 for d in dice]
    s["n_forced"] = len(dice)
    s["forced_pos"] = 0


def dice_left(states: np.ndarray) -> int:
    """Preset dice not yet used."""
    return int(states[0]["n_forced"] - states[0]["forced_pos"])


def setup_done(num_players: int = 3, towns: list[int] | None = None, **options) -> np.ndarray:
    """A game after the setup placements (each placement in the next town of ``towns``, cycling), at the auction."""
    states = new_game(num_players=num_players, **options)
    towns = towns or [SAN_ANTONIA]
    k = 0
    while states[0]["decision"] == DEC_SETUP_PLACE_COWBOY:
        play(states, A_TOWN + towns[k % len(towns)])
        k += 1
    return states


def action_phase(num_players: int = 3, **options) -> np.ndarray:
    """A game at the first CHOOSE_ACTION of round 1: everybody dropped out of the auction at once.

    With start player 0 the bidding order is 0, 1, ..., N-1; seat 0 drops first
    (last position), and seat N-1, the last bidder left, wins position 1: the
    turn order becomes N-1, N-2, ..., 0 and nobody pays (§6.1).
    """
    states = setup_done(num_players, **options)
    while states[0]["decision"] == DEC_AUCTION_BID:
        play(states, A_PASS)
    assert states[0]["decision"] == DEC_CHOOSE_ACTION
    return states


def clear_board(states: np.ndarray) -> None:
    """Everything back in supply: no cowboys, cattle, counters or farmers on the board; frontier 0."""
    s = states[0]
    n = int(s["num_players"])
    s["cowboys"][:] = 0
    s["cattle"][:] = 0
    s["bt_owner"][:] = NOBODY
    s["farmers"][:] = 0
    s["frontier"] = 0
    for p in range(MAX_PLAYERS):
        present = p < n
        s["cowboy_supply"][p] = N_COWBOYS if present else 0
        s["cattle_supply"][p] = N_CATTLE if present else 0
        s["bt_supply"][p] = N_PER_BT_TYPE if present else 0
        s["bt_removed"][p] = 0
        s["farmer_used"][p] = 0
    s["farmers_removed"] = 0


def put_cowboys(states: np.ndarray, t: int, p: int, n: int) -> None:
    """Seat p has exactly n cowboys in town t (the difference comes from / goes to his supply)."""
    s = states[0]
    s["cowboy_supply"][p] -= n - int(s["cowboys"][t, p])
    s["cowboys"][t, p] = n
    assert s["cowboy_supply"][p] >= 0


def put_cattle(states: np.ndarray, t: int, p: int, n: int) -> None:
    """Seat p has exactly n cattle counters in town t (from / to his supply); the frontier opens up to t."""
    s = states[0]
    s["cattle_supply"][p] -= n - int(s["cattle"][t, p])
    s["cattle"][t, p] = n
    s["frontier"] = max(int(s["frontier"]), t)
    assert s["cattle_supply"][p] >= 0


def put_counter(states: np.ndarray, t: int, k: int, owner: int) -> None:
    """The B&T counter of type k in town t belongs to ``owner`` (NOBODY: none); supplies follow."""
    s = states[0]
    old = int(s["bt_owner"][t, k])
    if old != NOBODY:
        s["bt_supply"][old, k] += 1
    if owner != NOBODY:
        s["bt_supply"][owner, k] -= 1
        assert s["bt_supply"][owner, k] >= 0
    s["bt_owner"][t, k] = owner


def put_farmers(states: np.ndarray, t: int, owners: list[int]) -> None:
    """The farmers of ``owners`` stand in town t (each marked used)."""
    s = states[0]
    for p in owners:
        assert s["farmer_used"][p] == 0
        s["farmer_used"][p] = 1
        s["farmers"][t] += 1


def set_cash(states: np.ndarray, p: int, dollars: int) -> None:
    """Seat p holds ``dollars``; the bank ledger absorbs the change so money stays conserved."""
    s = states[0]
    change = dollars - int(s["cash"][p])
    s["cash"][p] = dollars
    if change > 0:
        s["bank_out"] += change
    else:
        s["bank_in"] -= change


def set_wanted(states: np.ndarray, p: int, n: int) -> None:
    """Seat p holds n Wanted counters (from / to the supply)."""
    s = states[0]
    s["wanted_supply"] -= n - int(s["wanted"][p])
    s["wanted"][p] = n
    assert s["wanted_supply"] >= 0


def turn_of(states: np.ndarray, seat: int) -> None:
    """Make it ``seat``'s action turn now (first lap), by reordering this round's turn order."""
    s = states[0]
    n = int(s["num_players"])
    order = [seat] + [q for q in range(n) if q != seat]
    s["turn_order"][:n] = order
    s["turn_index"] = 0
    s["lap"] = 0
    s["turns_used"][:] = 0
    s["current"] = seat
    assert s["decision"] == DEC_CHOOSE_ACTION


def board_turn(num_players: int = 3, seat: int = 0, cash: int | list[int] = 20, **options) -> np.ndarray:
    """An empty board at ``seat``'s first action turn of round 1; every seat has ``cash`` dollars."""
    states = action_phase(num_players, **options)
    clear_board(states)
    cash = [cash] * num_players if isinstance(cash, int) else cash
    for p in range(num_players):
        set_cash(states, p, cash[p])
    turn_of(states, seat)
    assert_consistent(states)
    return states


def box(b: int) -> int:
    """The action id of BOX_b."""
    return A_BOX + b


def town(t: int) -> int:
    """The action id of TOWN_t."""
    return A_TOWN + t

