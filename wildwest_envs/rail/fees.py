"""Presence and the building fees of §6.8 (numba helpers of one record).

Fees are paid by a later builder to earlier owners, per non-city hex and per
rival: a parallel amount of 2 for every spoke where the builder runs beside an
earlier line, else 1 (the touch fee) to the rival present earliest; increments
are paid as the line grows and nothing is refunded (§6.8, G4-G9, G39).

**The bookkeeping is derived, not stored.** §6.8 keeps ``paid[p][q][H]`` and
pays ``owed - paid`` after each step. Here ``paid`` is computed when needed:

    paid(p, q, H) = max(par(p, q, H), 1 if q == T(p, H) and p paid the touch fee of H else 0)

This equals the spec's value at every moment: ``par(p, q, H)`` only grows (it
changes only when p builds a step at H, and the rivals that were earlier on a
step stay earlier), so the largest parallel amount ever owed is today's; the
only other amount ever owed is the touch fee 1 to ``T(p, H)``, a rival fixed
once p is present; and it is owed exactly after the builds of p at H that ran
beside nobody. One bit per hex and seat (``touched``) records that. Joint
steps (§9.1) fit too: what a partner "owes" the other is recorded as paid,
which is what the formula gives, and no money moves. The test suite checks
this against a literal implementation of §12.3 with explicit ``paid`` tables.

All fee functions work on a *virtual* build: the step ``e`` counted as owned by
the seats in ``builders`` (a bit mask) with the new timestamp ``t_new``, before
the record changes. The same code therefore gives the fees that a build will
pay (``build_fees``) and the preview of §7.10 (``fee_preview``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from .eventlog import EV_BUILD_FEE
from .maps import FE_A, FE_B, HX_CITY, HX_STEP, MAX_TIMESTAMP, ST_A, ST_B

ABSENT = -1  # presence of a seat not in the hex
PARALLEL_FEE = 2  # per spoke run beside an earlier line (§6.8: "2 per half field")
TOUCH_FEE = 1  # joining or crossing (§6.8: "1 per field")


@njit(cache=True, inline="always")
def count_bits(word: int) -> int:
    """The number of set bits of ``word`` (a seat set: how many seats it holds)."""
    n = 0
    while word:
        word &= word - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def fee_end(mp, e: int, end: int) -> int:
    """The hex at end ``end`` (0: A, 1: B) of step e, or -1 if it is a city: no fees at all in cities (§6.8, G9)."""
    h = mp.steps[e, ST_A] if end == 0 else mp.steps[e, ST_B]
    return -1 if mp.hexes[h, HX_CITY] >= 0 else h


@njit(cache=True)
def presence(state, mp, s: int, h: int) -> int:
    """pres(s, H) (§0.3): -1 if absent, 0 in s's start city, else the earliest of s's steps/ferries ending in H."""
    if not (state["net"][h] >> s) & 1:
        return ABSENT
    sc = state["start_city"][s]
    if sc >= 0 and mp.city_hex[mp.start_cities[sc]] == h:
        return 0
    best = MAX_TIMESTAMP + 1
    for d in range(6):
        e = mp.hexes[h, HX_STEP + d]
        if e >= 0:
            t = np.int64(state["own_t"][e, s])
            if 0 < t < best:
                best = t
    for f in range(mp.ferries.shape[0]):
        if state["ferry_owner"][f] == s and (mp.ferries[f, FE_A] == h or mp.ferries[f, FE_B] == h):
            t = np.int64(state["ferry_t"][f])
            if t < best:
                best = t
    return best


@njit(cache=True)
def _virtual_presence(state, mp, s: int, h: int, e: int, builders: int, t_new: int) -> int:
    """pres(s, H) once the builders own step e with timestamp t_new."""
    p = presence(state, mp, s, h)
    if (builders >> s) & 1 and (mp.steps[e, ST_A] == h or mp.steps[e, ST_B] == h):
        if p == ABSENT or t_new < p:
            return t_new
    return p


@njit(cache=True)
def touch_payee(state, mp, p: int, h: int, e: int, builders: int, t_new: int) -> int:
    """T(p, H): the rival present in H earliest among those present before p (ties: lowest seat), -1 if none (§6.8)."""
    mine = _virtual_presence(state, mp, p, h, e, builders, t_new)
    best, best_t = -1, MAX_TIMESTAMP + 2
    for q in range(np.int64(state["num_players"])):
        if q == p:
            continue
        tq = _virtual_presence(state, mp, q, h, e, builders, t_new)
        if tq != ABSENT and tq < mine and tq < best_t:
            best, best_t = q, tq
    return best


@njit(cache=True)
def _owner_time(state, s: int, step: int, e: int, builders: int, t_new: int) -> int:
    """Timestamp of seat s on a step, with the virtual build of e counted."""
    if step == e and (builders >> s) & 1:
        return t_new
    return np.int64(state["own_t"][step, s])


@njit(cache=True)
def parallel_amounts(state, mp, p: int, h: int, e: int, builders: int, t_new: int, out: np.ndarray) -> None:
    """out[q] = par(p, q, H): 2 for each spoke of H where p runs beside an earlier step of q (§6.8)."""
    for q in range(out.shape[0]):
        out[q] = 0
    for d in range(6):
        step = mp.hexes[h, HX_STEP + d]
        if step < 0:
            continue
        tp = _owner_time(state, p, step, e, builders, t_new)
        if tp == 0:
            continue
        for q in range(np.int64(state["num_players"])):
            if q != p:
                tq = _owner_time(state, q, step, e, builders, t_new)
                if 0 < tq < tp:
                    out[q] += PARALLEL_FEE


@njit(cache=True)
def _end_fees(state, mp, p: int, h: int, e: int, builders: int, t_new: int, due: np.ndarray,
              par: np.ndarray) -> bool:
    """Add to due[q] what p owes q for hex H after the virtual build (owed - paid, §6.8); True: touch fee now paid."""
    parallel_amounts(state, mp, p, h, e, builders, t_new, par)
    payee = touch_payee(state, mp, p, h, e, builders, t_new)
    touched_before = (state["touched"][h] >> p) & 1
    any_parallel = False
    for q in range(par.shape[0]):
        if par[q] > 0:
            any_parallel = True
    for q in range(np.int64(state["num_players"])):
        if q == p:
            continue
        par_before = par[q]
        if not (builders >> q) & 1 and state["own_t"][e, q] > 0:
            par_before -= PARALLEL_FEE  # q's earlier ownership of e counts only from this build on
        paid = par_before
        if touched_before and q == payee and paid < TOUCH_FEE:
            paid = TOUCH_FEE
        if any_parallel:
            owed = par[q]
        else:
            owed = TOUCH_FEE if q == payee else 0
        if owed > paid:
            due[q] += owed - paid
    return (not any_parallel) and payee >= 0


@njit(cache=True, inline="always")
def _clear_fee_outputs(due: np.ndarray, touch_hexes: np.ndarray) -> None:
    """Zero the fees owed per seat and mark no touch-fee hex paid (-1, -1)."""
    due[:] = 0
    touch_hexes[0] = -1
    touch_hexes[1] = -1


@njit(cache=True)
def build_fees(state, mp, p: int, e: int, builders: int, t_new: int, due: np.ndarray, touch_hexes: np.ndarray,
               par: np.ndarray) -> int:
    """Fees p owes each seat for building e (both non-city ends), into due[q]; touch_hexes gets the hexes whose
    touch fee p now pays (-1 padded); par is scratch (6,). Returns the total owed to seats that are not builders."""
    _clear_fee_outputs(due, touch_hexes)
    for end in range(2):
        h = fee_end(mp, e, end)
        if h >= 0 and _end_fees(state, mp, p, h, e, builders, t_new, due, par):
            touch_hexes[end] = h
    total = 0
    for q in range(due.shape[0]):
        if (builders >> q) & 1:
            continue
        total += due[q]
    return total


@njit(cache=True)
def fee_preview(state, mp, p: int, e: int, scratch: np.ndarray) -> int:
    """Total fees a single builder p would pay for building e now (§12.3 fees_preview, for §7.10);
    scratch: int64 (3, 6) work space."""
    return build_fees(state, mp, p, e, np.int64(1) << p, np.int64(state["t"]) + 1, scratch[0], scratch[1],
                      scratch[2])


@njit(cache=True, inline="always")
def fee_bound(state, mp, p: int, e: int) -> int:
    """An upper bound of the fees of building e: per non-city end, 2 per rival owning e, or 1 if a rival is present
    there (the owed amount of §6.8 grows by 2 per earlier owner of the new spoke, or by the touch fee)."""
    rivals = count_bits(np.int64(state["owners"][e]) & ~(np.int64(1) << p))
    total = 0
    for end in range(2):
        h = fee_end(mp, e, end)
        if h >= 0:
            present = (np.int64(state["net"][h]) & ~(np.int64(1) << p)) != 0
            total += max(PARALLEL_FEE * rivals, TOUCH_FEE if present else 0)
    return total


UNKNOWN = -2  # entry of the preview cache not computed yet
NO_TIME = MAX_TIMESTAMP + 1  # presence of an absent seat in hex_fee_summary


@njit(cache=True, inline="always")
def _ferry_presence(state, mp, q: int, h: int, best: int) -> int:
    """min(best, the timestamps of q's ferries ending in H)."""
    for f in range(mp.ferries.shape[0]):
        if state["ferry_owner"][f] == q and (mp.ferries[f, FE_A] == h or mp.ferries[f, FE_B] == h) and \
                state["ferry_t"][f] < best:
            best = np.int64(state["ferry_t"][f])
    return best


@njit(cache=True)
def hex_fee_summary(state, mp, p: int, h: int) -> tuple:
    """What the fees of p at a non-city hex H depend on, before any new build, in one pass over the rivals
    present there: (T(p, H) or -1, whether p runs beside some rival at H (some par(p, q, H) > 0), whether
    par(p, T, H) = 0) (§6.8). Presence in a non-city hex is the earliest timestamp of the seat's steps and
    ferries ending there (§0.3). No work arrays: a seat absent from H (its bit of ``net``) has neither presence
    nor parallel spokes there, and the owner bits of a step are read before its timestamps."""
    pbit = np.int64(1) << p
    mine = NO_TIME
    for d in range(6):
        step = mp.hexes[h, HX_STEP + d]
        if step >= 0 and np.int64(state["owners"][step]) & pbit and state["own_t"][step, p] < mine:
            mine = np.int64(state["own_t"][step, p])
    mine = _ferry_presence(state, mp, p, h, mine)
    rivals = np.int64(state["net"][h]) & ~pbit
    payee, payee_t, payee_par = -1, NO_TIME, 0
    beside = False
    for q in range(np.int64(state["num_players"])):
        if not (rivals >> q) & 1:
            continue
        pres_q = NO_TIME
        par_q = 0
        for d in range(6):
            step = mp.hexes[h, HX_STEP + d]
            if step < 0:
                continue
            owners = np.int64(state["owners"][step])
            if not (owners >> q) & 1:
                continue
            tq = np.int64(state["own_t"][step, q])
            pres_q = min(pres_q, tq)
            if owners & pbit and tq < state["own_t"][step, p]:
                par_q += PARALLEL_FEE  # p's spoke runs beside q's earlier one
        pres_q = _ferry_presence(state, mp, q, h, pres_q)
        if par_q > 0:
            beside = True
        if pres_q < mine and pres_q < payee_t:
            payee, payee_t, payee_par = q, pres_q, par_q
    return payee, beside, payee >= 0 and payee_par == 0


@njit(cache=True, inline="always")
def pay(state, payer: int, payee: int, amount: int) -> None:
    """Move ``amount`` from payer's balance to payee's."""
    state["balance"][payer] -= amount
    state["balance"][payee] += amount


@njit(cache=True)
def pay_single_builder_fees(state, mp, p: int, e: int) -> None:
    """Pay what a single builder p owes for building e, before the record changes (§6.8), by the closed form for
    one new step (see ``fee_preview_fast``), and record the touch fees paid: at each non-city end, 2 to each of
    the k rivals owning e (less the touch fee already paid to T there if p owes T nothing else), or with k = 0
    the touch fee 1 to T if p runs beside nobody and has not paid it. The same amounts as ``build_fees``."""
    pbit = np.int64(1) << p
    owners = np.int64(state["owners"][e]) & ~pbit
    for end in range(2):
        h = fee_end(mp, e, end)
        if h < 0 or not np.int64(state["net"][h]) & ~pbit:
            continue  # no fees in cities (G9), nor where no rival is present
        payee, beside, payee_par_zero = hex_fee_summary(state, mp, p, h)
        touched = (np.int64(state["touched"][h]) & pbit) != 0
        if owners:
            for q in range(np.int64(state["num_players"])):
                if (owners >> q) & 1:
                    pay(state, p, q, PARALLEL_FEE)
                    # net of the touch fee already paid to T, which T hands back below (the same condition)
                    emit(state, EV_BUILD_FEE, EVERYONE, p, q,
                         PARALLEL_FEE - TOUCH_FEE if q == payee and touched and payee_par_zero else PARALLEL_FEE, h)
            if touched and payee >= 0 and (owners >> payee) & 1 and payee_par_zero:
                pay(state, payee, p, TOUCH_FEE)
        elif not touched and payee >= 0 and not beside:
            pay(state, p, payee, TOUCH_FEE)
            emit(state, EV_BUILD_FEE, EVERYONE, p, payee, TOUCH_FEE, h)
            state["touched"][h] |= np.uint8(pbit)


@njit(cache=True, inline="always")
def fee_preview_fast(state, mp, p: int, e: int, cache: np.ndarray) -> int:
    """``fee_preview`` for a single builder, by the closed form of §6.8 for one new step.

    At a non-city end H, with k rivals owning e (all earlier than p) and T = T(p, H):

    * k > 0: the new spoke makes p parallel to each of them, so each gets 2 more, except that T's first 2
      are reduced by the touch fee p already paid T there (if p owes T no other parallel amount):
      ``2k - [T owns e and p paid T's touch fee at H and par(p, T, H) = 0]``;
    * k = 0: nothing parallel changes; p owes the touch fee 1 to T if p runs beside nobody at H, has not
      paid it yet and T exists (if p is new in H: T exists iff a rival is present there).

    T(p, H), the k = 0 touch fee and ``par(p, T, H) = 0`` depend on (p, H) only, so ``cache`` (int8, shape
    (3, N), filled with ``UNKNOWN``) keeps them between the steps of one mask. A test checks that this equals
    ``fee_preview`` (the general computation) on random positions.
    """
    pbit = np.int64(1) << p
    owners = np.int64(state["owners"][e]) & ~pbit
    k = count_bits(owners)
    total = 0
    for end in range(2):
        h = fee_end(mp, e, end)
        if h < 0:
            continue
        if not (np.int64(state["net"][h]) & pbit):
            total += PARALLEL_FEE * k if k > 0 else (TOUCH_FEE if (np.int64(state["net"][h]) & ~pbit) else 0)
            continue
        touched = (np.int64(state["touched"][h]) & pbit) != 0
        if k == 0 and touched:
            continue
        if cache[0, h] == UNKNOWN:
            payee, beside, payee_par_zero = hex_fee_summary(state, mp, p, h)
            cache[0, h] = payee
            cache[1, h] = TOUCH_FEE if payee >= 0 and not beside else 0
            cache[2, h] = 1 if payee_par_zero else 0
        payee = np.int64(cache[0, h])
        if k > 0:
            total += PARALLEL_FEE * k
            if touched and payee >= 0 and (owners >> payee) & 1 and cache[2, h]:
                total -= TOUCH_FEE
        else:
            total += cache[1, h]
    return total
