"""Arrival in a city: selling goods, dropping off passengers, the coal-and-water fee (spec §8).

Decisions where the spec leaves the implementation open: none beyond the
spec's own [D] items (G7 selling is optional per token, G8 the order
mail race -> trading -> fee). The fee is collected automatically (G47).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .data import (BUY_PRICE, CARGO_EMPTY, CITY_ZONE, FARE_BY_LINES, FEE_LARGE, FEE_SMALL, OWNER_BONUS,
                   PASSENGER_BASE, T_DELIVERY_CONTRACT, T_GRAND_EXCURSION)
from .eventlog import EV_CARGO_DELIVERED, EV_DEBT_INCURRED, EV_DEBT_PAID, EV_FEE_PAID
from .pieces import bank_pays, is_passenger
from .state import NOBODY
from .telegrams import claim_competitions


@njit(cache=True)
def unload_legal(state: np.void, seat: int, t: int, c: int, j: int) -> bool:
    """UNLOAD_SLOT(j): slot j holds a passenger, or a good that city c buys (§8.1, §8.2)."""
    if j >= (2 if state["train_large"][seat, t] else 1):
        return False
    code = np.int64(state["train_cargo"][seat, t, j])
    if code == CARGO_EMPTY:
        return False
    return is_passenger(code) or BUY_PRICE[c, code] > 0


@njit(cache=True, inline="always")
def fare(c: int, code: int) -> int:
    """Passenger fare: $0 / $30 / $90 by |zone(drop-off) - pickup zone| (§4.4)."""
    lines = abs(np.int64(CITY_ZONE[c]) - (code - PASSENGER_BASE))
    return np.int64(FARE_BY_LINES[lines])


@njit(cache=True)
def unload(state: np.void, seat: int, t: int, c: int, j: int) -> None:
    """Sell the good (price + $20 at an own station, delivery contracts) or drop off the passenger (§8.1, §8.2)."""
    code = np.int64(state["train_cargo"][seat, t, j])
    state["train_cargo"][seat, t, j] = CARGO_EMPTY
    if is_passenger(code):
        bank_pays(state, seat, fare(c, code))
        emit(state, EV_CARGO_DELIVERED, EVERYONE, seat, t, code, fare(c, code))
        if abs(np.int64(CITY_ZONE[c]) - (code - PASSENGER_BASE)) == 2:
            claim_competitions(state, seat, np.int64(T_GRAND_EXCURSION), np.int64(-1), np.int64(-1))
        return
    price = np.int64(BUY_PRICE[c, code])
    if state["city_owner"][c] == seat:
        price += OWNER_BONUS
    bank_pays(state, seat, price)
    emit(state, EV_CARGO_DELIVERED, EVERYONE, seat, t, code, price)
    claim_competitions(state, seat, np.int64(T_DELIVERY_CONTRACT), code, np.int64(c))


@njit(cache=True)
def pay_fee(state: np.void, seat: int, t: int, c: int) -> None:
    """At another player's station: $20 / $40 to the owner, or a debt if cash is short (§8.3)."""
    owner = np.int64(state["city_owner"][c])
    if owner == NOBODY or owner == seat:
        return
    fee = FEE_LARGE if state["train_large"][seat, t] else FEE_SMALL
    if state["cash"][seat] >= fee:
        state["cash"][seat] -= fee
        state["cash"][owner] += fee
        emit(state, EV_FEE_PAID, EVERYONE, seat, owner, fee, t)
    else:
        state["train_debt"][seat, t] = fee
        state["train_creditor"][seat, t] = owner
        emit(state, EV_DEBT_INCURRED, EVERYONE, seat, t, owner, fee)


@njit(cache=True)
def settle_debts(state: np.void, seat: int) -> None:
    """Pay each unpaid fee in full, slot order, when cash covers it (§6.2 step 2, §6.4)."""
    for t in range(6):
        debt = np.int64(state["train_debt"][seat, t])
        if debt > 0 and state["cash"][seat] >= debt:
            state["cash"][seat] -= debt
            state["cash"][np.int64(state["train_creditor"][seat, t])] += debt
            emit(state, EV_DEBT_PAID, EVERYONE, seat, state["train_creditor"][seat, t], debt, t)
            state["train_debt"][seat, t] = 0
            state["train_creditor"][seat, t] = NOBODY
