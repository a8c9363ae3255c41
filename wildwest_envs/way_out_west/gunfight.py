"""Gunfights (spec §9): legal targets, sides, the volley loop, retreats, results and Wanted counters.

A gunfight is one action (§8.7). After the declaration (town, target, and the
defending player of a cattle target) ``start_fight`` asks the jail owner of the
town whether his sheriff joins (SHERIFF_JOIN), then ``fix_sides`` fixes the two
sides once (§9.3) and ``run_fight`` runs the volley loop of §9.4 up to the next
SHOOT / RETREAT decision. Each of these returns ``True`` when the gunfight is
over and the action has ended (result applied, Wanted counter awarded), or
``False`` when it has posed a decision (``decision`` and ``current`` set).

Dice (§13.3): a d6 is ``draw_below(6) + 1`` from the record's generator, the
die queue first; a volley draws the first-shooting side's dice, then the other
side's survivors' dice (simultaneous volleys: the attacker side's, then the
defender side's); a bank robbery draws three dice once the attacker has won.

Decisions where the spec is silent (beyond its §16):

* In a farmer gunfight the sheriff of a jail owned by the attacker may join the
  attack; one owned by anybody else may join the farmer's side (§9.3 literally).
* A retreating player's cowboys "still in the fight" are all his cowboys in the
  fight town (the attacker's and the defender's cowboys there are all in the
  fight, §9.3), so ``a_cow`` / ``d_cow`` always equal the board counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.eventlog import EVERYONE, emit
from ..core.rng import draw_below
from .data import (BANK, DEC_RETREAT_DESTINATION, DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER,
                   DEC_WANTED_STEAL, DIE_SIDES, HIT_MIN, INTRINSIC_DEFENDERS, JAIL, MAX_RUSTLED, MAX_VOLLEYS, N_BT,
                   N_RETREAT_TOWNS, N_TOWNS, ROBBERY_DICE, SIDE_ATTACKER, SIDE_DEFENDER, SIDE_NONE, T_CATTLE,
                   T_FARMER, WIN_ATTACKER, WIN_DEFENDER, WIN_NOBODY)
from .eventlog import (COMBATANT_COWBOYS, COMBATANT_FARMER, COMBATANT_SHERIFF, COMBATANT_VIRTUAL, EV_ATTACKER_SIDE,
                       EV_BANK_ROBBED, EV_CAPTURED, EV_CASUALTY, EV_COUNTER_REMOVED, EV_DEFENDER_SIDE, EV_DIE_ROLLED,
                       EV_GUNFIGHT_DECLARED, EV_GUNFIGHT_OVER, EV_RETREAT_COWBOY, EV_RETREATED, EV_RUSTLED,
                       EV_SIDE_FIRED, EV_VOLLEY_STARTED, EV_WANTED_TAKEN, ROLL_ROBBERY, ROLL_VOLLEY)
from .pieces import jail_owner
from .state import NOBODY, STEP_ATTACKER, STEP_DEFENDER, STEP_SHOOT


# ---- legal targets (§9.1, §9.2) --------------------------------------------------------------------------
@njit(cache=True)
def target_legal(state: np.void, a: int, t: int, x: int) -> bool:
    """Target kind x in town t is legal for attacker a (§9.2); a never targets his own counters."""
    if x < N_BT:
        owner = np.int64(state["bt_owner"][t, x])
        if owner == NOBODY or owner == a:
            return False
        if x == BANK or x == JAIL:
            return True
        return state["bt_supply"][a, x] >= 1  # a capture needs a's own counter of that type (§16 #29)
    if x == T_CATTLE:
        return state["cattle_supply"][a] >= 1 and cattle_defender_exists(state, a, t)
    return state["farmers"][t] >= 1  # T_FARMER


@njit(cache=True, inline="always")
def cattle_defender_exists(state: np.void, a: int, t: int) -> bool:
    for q in range(np.int64(state["num_players"])):
        if q != a and state["cattle"][t, q] >= 1:
            return True
    return False


@njit(cache=True)
def is_fight_town(state: np.void, a: int, t: int) -> bool:
    """GUNFIGHT_TOWN: a has a cowboy in t and t holds a legal target (§9.1)."""
    if state["cowboys"][t, a] < 1:
        return False
    for x in range(N_BT + 2):
        if target_legal(state, a, t, x):
            return True
    return False


@njit(cache=True, inline="always")
def can_fight(state: np.void, a: int) -> bool:
    """The gunfight box is executable: some town is a legal fight town (§7.2)."""
    for t in range(N_TOWNS):
        if is_fight_town(state, a, t):
            return True
    return False


@njit(cache=True, inline="always")
def declared_defender(state: np.void, a: int, t: int, x: int) -> int:
    """The defending player of a B&T target is its owner; a farmer has none (§9.1)."""
    if x < N_BT:
        return np.int64(state["bt_owner"][t, x])
    return NOBODY


# ---- the start of a fight (§9.3) ----------------------------------------------------------------------------
@njit(cache=True)
def start_fight(state: np.void) -> bool:
    """After the declaration: the jail owner decides on his sheriff, or the sides are fixed at once (§9.3)."""
    t = np.int64(state["pend_town1"])
    state["gf_active"] = True
    state["gf_attacker"] = state["current"]
    emit(state, EV_GUNFIGHT_DECLARED, EVERYONE, state["current"], t, state["pend_target"], state["pend_defender"])
    j = jail_owner(state, t)
    if j != NOBODY:
        state["decision"] = DEC_SHERIFF_JOIN
        state["current"] = j
        return False
    fix_sides(state, np.bool_(False))  # not a literal: one compile for both callers
    return run_fight(state)


@njit(cache=True)
def fix_sides(state: np.void, sheriff_joins: bool) -> None:
    """The combatants of both sides, fixed once when the fight starts; nobody joins later (§9.3)."""
    t = np.int64(state["pend_town1"])
    a = np.int64(state["gf_attacker"])
    q = np.int64(state["pend_defender"])
    x = np.int64(state["pend_target"])
    side = SIDE_NONE
    if sheriff_joins:
        side = SIDE_ATTACKER if jail_owner(state, t) == a else SIDE_DEFENDER
    state["sheriff_side"] = side
    state["a_cow"] = state["cowboys"][t, a]
    state["a_sher"] = 1 if side == SIDE_ATTACKER else 0
    state["d_cow"] = state["cowboys"][t, q] if q != NOBODY else 0
    state["d_sher"] = 1 if side == SIDE_DEFENDER else 0
    state["d_farm"] = 1 if x == T_FARMER else 0  # exactly one farmer fights (§16 #45)
    if x < N_BT and INTRINSIC_DEFENDERS[x] > 0:
        state["d_virt"] = 1  # bank or train: intrinsic defender
    elif x != T_FARMER and state["d_cow"] == 0 and side != SIDE_DEFENDER:
        state["d_virt"] = 1  # default defender of an unprotected counter (§16 #24)
    else:
        state["d_virt"] = 0
    state["gf_volley"] = 1
    state["gf_step"] = STEP_ATTACKER
    emit(state, EV_ATTACKER_SIDE, EVERYONE, a, state["a_cow"], state["a_sher"], 0)
    emit(state, EV_DEFENDER_SIDE, EVERYONE, state["d_cow"], state["d_virt"], state["d_sher"], state["d_farm"])


# ---- the volley loop (§9.4) -------------------------------------------------------------------------------------
@njit(cache=True)
def run_fight(state: np.void) -> bool:
    """Run volleys from ``gf_step`` until a SHOOT/RETREAT decision is due or the fight is decided."""
    for _ in range(3 * MAX_VOLLEYS + 3):  # bounded: each pass ends a volley or poses a decision
        step = np.int64(state["gf_step"])
        if step == STEP_ATTACKER:
            if state["gf_volley"] >= 2:  # the attacker decides from the second volley (§16 #23)
                state["decision"] = DEC_VOLLEY_ATTACKER
                state["current"] = state["gf_attacker"]
                return False
            state["gf_step"] = STEP_DEFENDER
        elif step == STEP_DEFENDER:
            if state["d_cow"] >= 1:  # the defending player decides while he has cowboys in the fight
                state["decision"] = DEC_VOLLEY_DEFENDER
                state["current"] = state["pend_defender"]
                return False
            state["gf_step"] = STEP_SHOOT
        else:
            _shoot(state)
            outcome = _volley_outcome(state)
            if outcome >= 0:
                return finish_fight(state, outcome)
            state["gf_volley"] += 1
            state["gf_step"] = STEP_ATTACKER
    return finish_fight(state, np.int64(WIN_NOBODY))  # unreachable: the 50-volley guard ends every fight


@njit(cache=True, inline="always")
def choose_shoot(state: np.void) -> bool:
    """SHOOT at VOLLEY_ATTACKER or VOLLEY_DEFENDER: the volley goes on (§9.4 steps 1-2)."""
    state["gf_step"] = STEP_DEFENDER if state["gf_step"] == STEP_ATTACKER else STEP_SHOOT
    return run_fight(state)


@njit(cache=True, inline="always")
def _hits(state: np.void, n_dice: int, side: int) -> int:
    """Roll n_dice d6 for ``side`` (SIDE_*, reported with the dice); each 5 or 6 is a hit (§9.4)."""
    hits = np.int64(0)  # not a literal 0: _kill_* compile once
    for _ in range(n_dice):
        face = draw_below(state, np.int64(DIE_SIDES)) + 1
        emit(state, EV_DIE_ROLLED, EVERYONE, ROLL_VOLLEY, side, face, state["gf_volley"])
        if face >= HIT_MIN:
            hits += 1
    emit(state, EV_SIDE_FIRED, EVERYONE, side, n_dice, hits, state["gf_volley"])
    return hits


@njit(cache=True, inline="always")
def _attacker_size(state: np.void) -> int:
    return np.int64(state["a_cow"]) + np.int64(state["a_sher"])


@njit(cache=True, inline="always")
def _defender_size(state: np.void) -> int:
    return np.int64(state["d_virt"]) + np.int64(state["d_sher"]) + np.int64(state["d_cow"]) + np.int64(state["d_farm"])


@njit(cache=True, inline="always")
def _shoot(state: np.void) -> None:
    """One volley: the smaller side shoots first and removes casualties at once; equal sides fire together (§9.4)."""
    n_a = _attacker_size(state)
    n_d = _defender_size(state)
    if n_a < n_d:
        emit(state, EV_VOLLEY_STARTED, EVERYONE, state["gf_volley"], n_a, n_d, SIDE_ATTACKER)
        _kill_defenders(state, _hits(state, n_a, SIDE_ATTACKER))
        _kill_attackers(state, _hits(state, _defender_size(state), SIDE_DEFENDER))
    elif n_d < n_a:
        emit(state, EV_VOLLEY_STARTED, EVERYONE, state["gf_volley"], n_a, n_d, SIDE_DEFENDER)
        _kill_attackers(state, _hits(state, n_d, SIDE_DEFENDER))
        _kill_defenders(state, _hits(state, _attacker_size(state), SIDE_ATTACKER))
    else:
        emit(state, EV_VOLLEY_STARTED, EVERYONE, state["gf_volley"], n_a, n_d, SIDE_NONE)
        hits_a = _hits(state, n_a, SIDE_ATTACKER)
        hits_d = _hits(state, n_d, SIDE_DEFENDER)
        _kill_defenders(state, hits_a)
        _kill_attackers(state, hits_d)


@njit(cache=True, inline="always")
def _sheriff_then_cowboys(state: np.void, hits: int, side: int, sheriff: int, cowboys: int, q: int):
    """Hits on ``side`` (SIDE_*) with ``sheriff`` and ``cowboys`` of player q in the fight: the sheriff falls first,
    then q's cowboys (to supply) (§9.4). Returns the sheriff left, the cowboys killed and the hits left."""
    if hits > 0 and sheriff > 0:
        sheriff = 0
        hits -= 1
        emit(state, EV_CASUALTY, EVERYONE, side, COMBATANT_SHERIFF, 1, jail_owner(state, np.int64(state["pend_town1"])))
    n = min(hits, cowboys)
    if n > 0:
        state["cowboys"][np.int64(state["pend_town1"]), q] -= n
        state["cowboy_supply"][q] += n
        emit(state, EV_CASUALTY, EVERYONE, side, COMBATANT_COWBOYS, n, q)
    return sheriff, n, hits - n


@njit(cache=True)
def _kill_attackers(state: np.void, hits: int) -> None:
    """Attacker-side casualties: the sheriff first, then the attacker's cowboys (to supply) (§9.4)."""
    sheriff, killed, _ = _sheriff_then_cowboys(state, hits, SIDE_ATTACKER, np.int64(state["a_sher"]),
                                               np.int64(state["a_cow"]), np.int64(state["gf_attacker"]))
    state["a_sher"] = sheriff
    state["a_cow"] -= killed


@njit(cache=True)
def _kill_defenders(state: np.void, hits: int) -> None:
    """Defender-side casualties: virtual defender, sheriff, the defender's cowboys, then the farmer (§9.4)."""
    if hits > 0 and state["d_virt"] > 0:
        state["d_virt"] = 0
        hits -= 1
        emit(state, EV_CASUALTY, EVERYONE, SIDE_DEFENDER, COMBATANT_VIRTUAL, 1, NOBODY)
    sheriff, killed, hits = _sheriff_then_cowboys(state, hits, SIDE_DEFENDER, np.int64(state["d_sher"]),
                                                  np.int64(state["d_cow"]), np.int64(state["pend_defender"]))
    state["d_sher"] = sheriff
    state["d_cow"] -= killed
    if hits > 0 and state["d_farm"] > 0:  # a killed farmer leaves the game at once (§9.3)
        state["d_farm"] = 0
        state["farmers"][np.int64(state["pend_town1"])] -= 1
        state["farmers_removed"] += 1
        emit(state, EV_CASUALTY, EVERYONE, SIDE_DEFENDER, COMBATANT_FARMER, 1, NOBODY)


@njit(cache=True, inline="always")
def _volley_outcome(state: np.void) -> int:
    """§9.4 step 4: WIN_* once the fight is decided, -1 while it goes on."""
    a_out = state["a_cow"] == 0  # a sheriff alone cannot win an attack (§16 #28)
    d_out = _defender_size(state) == 0
    if a_out and d_out:
        return WIN_NOBODY
    if a_out:
        return WIN_DEFENDER
    if d_out:
        return WIN_ATTACKER
    if state["gf_volley"] >= MAX_VOLLEYS:
        return WIN_NOBODY
    return -1


# ---- retreat (§9.5) ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def start_retreat(state: np.void) -> bool:
    """RETREAT: the current player concedes; his cowboys in the fight leave to distinct other towns (§9.5)."""
    r = np.int64(state["current"])
    t = np.int64(state["pend_town1"])
    k = np.int64(state["cowboys"][t, r])
    state["retreat_seat"] = r
    state["retreat_used"] = 0
    emit(state, EV_RETREATED, EVERYONE, r, t, k, max(k - N_RETREAT_TOWNS, 0))
    if k >= N_RETREAT_TOWNS:  # one to each other town, the rest eliminated
        for d in range(N_TOWNS):
            if d != t:
                state["cowboys"][d, r] += 1
                emit(state, EV_RETREAT_COWBOY, EVERYONE, r, t, d, 0)
        state["cowboys"][t, r] = 0
        state["cowboy_supply"][r] += k - N_RETREAT_TOWNS
        _cowboys_left_fight(state, r)
        return _retreat_done(state)
    state["retreat_left"] = k
    state["decision"] = DEC_RETREAT_DESTINATION
    return False


@njit(cache=True, inline="always")
def retreat_destination_legal(state: np.void, d: int) -> bool:
    """RETREAT_DESTINATION: any town but the fight town not yet used in this retreat (§9.5)."""
    return d != state["pend_town1"] and (np.int64(state["retreat_used"]) >> d) & 1 == 0


@njit(cache=True, inline="always")
def retreat_to(state: np.void, d: int) -> bool:
    """One retreating cowboy goes to town d (no stagecoach fare, §8.8); True when the fight is over."""
    r = np.int64(state["retreat_seat"])
    t = np.int64(state["pend_town1"])
    state["cowboys"][t, r] -= 1
    state["cowboys"][d, r] += 1
    state["retreat_used"] = np.int64(state["retreat_used"]) | (1 << d)
    state["retreat_left"] -= 1
    emit(state, EV_RETREAT_COWBOY, EVERYONE, r, t, d, 0)
    if state["retreat_left"] > 0:
        return False
    _cowboys_left_fight(state, r)
    return _retreat_done(state)


@njit(cache=True, inline="always")
def _cowboys_left_fight(state: np.void, r: int) -> None:
    if r == state["gf_attacker"]:
        state["a_cow"] = 0
    else:
        state["d_cow"] = 0


@njit(cache=True)
def _retreat_done(state: np.void) -> bool:
    """A retreat concedes: the other side wins at once (§9.5, §16 #22)."""
    state["retreat_left"] = 0
    outcome = WIN_DEFENDER if state["retreat_seat"] == state["gf_attacker"] else WIN_ATTACKER
    return finish_fight(state, np.int64(outcome))


# ---- results (§9.6, §9.2, §9.8) -----------------------------------------------------------------------------------
@njit(cache=True)
def finish_fight(state: np.void, outcome: int) -> bool:
    """Apply the result of the fight and award the Wanted counter; False if WANTED_STEAL is posed (§9.6, §9.7)."""
    emit(state, EV_GUNFIGHT_OVER, EVERYONE, outcome, state["gf_attacker"], state["pend_defender"], state["gf_volley"])
    if outcome == WIN_ATTACKER:
        _attacker_result(state)
        return award_wanted(state, np.int64(state["gf_attacker"]))
    if outcome == WIN_DEFENDER and state["pend_target"] != T_FARMER:
        return award_wanted(state, np.int64(state["pend_defender"]))  # also when only virtual defenders fought
    return True  # nobody wins, or the farmer side: no Wanted counter


@njit(cache=True, inline="always")
def _attacker_result(state: np.void) -> None:
    """The target result of an attacker win (§9.2): capture, robbery, jail removal, rustling; a farmer is gone."""
    t = np.int64(state["pend_town1"])
    a = np.int64(state["gf_attacker"])
    x = np.int64(state["pend_target"])
    if x == T_CATTLE:
        _rustle(state, a, np.int64(state["pend_defender"]), t)
    elif x == BANK:
        _rob_bank(state, a, t)
    elif x == JAIL:
        _remove_counter(state, t, np.int64(JAIL))  # not literals: one compile
    elif x < N_BT:
        _capture(state, a, t, x)
    # T_FARMER: the farmer that fought already left the game as the casualty that ended the fight (§16 #45)


@njit(cache=True, inline="always")
def _capture(state: np.void, a: int, t: int, k: int) -> None:
    """The counter returns to its owner's supply and a's counter of that type takes its place (§9.2)."""
    owner = np.int64(state["bt_owner"][t, k])
    emit(state, EV_CAPTURED, EVERYONE, a, k, t, owner)
    state["bt_supply"][owner, k] += 1
    state["bt_supply"][a, k] -= 1
    state["bt_owner"][t, k] = a


@njit(cache=True)
def _remove_counter(state: np.void, t: int, k: int) -> None:
    """The counter leaves the game for good (a jail, or a bank robbed beyond its owner's cash) (§16 #32)."""
    owner = np.int64(state["bt_owner"][t, k])
    emit(state, EV_COUNTER_REMOVED, EVERYONE, owner, k, t, 0)
    state["bt_removed"][owner, k] += 1
    state["bt_owner"][t, k] = NOBODY


@njit(cache=True, inline="always")
def _rob_bank(state: np.void, a: int, t: int) -> None:
    """3d6 = R: the owner pays min(R, cash); if he cannot pay R in full the bank is removed (§9.8)."""
    owner = np.int64(state["bt_owner"][t, BANK])
    loot = 0
    for _ in range(ROBBERY_DICE):
        face = draw_below(state, np.int64(DIE_SIDES)) + 1
        emit(state, EV_DIE_ROLLED, EVERYONE, ROLL_ROBBERY, SIDE_ATTACKER, face, state["gf_volley"])
        loot += face
    cash = np.int64(state["cash"][owner])
    paid = min(loot, cash)
    emit(state, EV_BANK_ROBBED, EVERYONE, a, owner, loot, paid)
    state["cash"][owner] -= paid
    state["cash"][a] += paid
    if cash < loot:
        _remove_counter(state, t, np.int64(BANK))


@njit(cache=True, inline="always")
def _rustle(state: np.void, a: int, q: int, t: int) -> None:
    """r = min(2, q's cattle in t, a's cattle supply) of q's counters return; r of a's take their corrals (§9.2)."""
    r = min(np.int64(MAX_RUSTLED), np.int64(state["cattle"][t, q]), np.int64(state["cattle_supply"][a]))
    emit(state, EV_RUSTLED, EVERYONE, a, q, t, r)
    state["cattle"][t, q] -= r
    state["cattle_supply"][q] += r
    state["cattle"][t, a] += r
    state["cattle_supply"][a] -= r


# ---- Wanted counters (§9.7) ----------------------------------------------------------------------------------------
@njit(cache=True)
def award_wanted(state: np.void, w: int) -> bool:
    """The winner takes a Wanted counter from the supply, else from another holder of his choice (§9.7)."""
    if state["wanted_supply"] > 0:
        state["wanted_supply"] -= 1
        state["wanted"][w] += 1
        emit(state, EV_WANTED_TAKEN, EVERYONE, w, NOBODY, state["wanted"][w], state["wanted_supply"])
        return True
    for q in range(np.int64(state["num_players"])):
        if q != w and state["wanted"][q] >= 1:
            state["gf_winner"] = w
            state["decision"] = DEC_WANTED_STEAL
            state["current"] = w
            return False
    return True  # nobody else holds one: nothing happens


@njit(cache=True, inline="always")
def steal_legal(state: np.void, w: int, q: int) -> bool:
    """WANTED_STEAL: another seat holding at least one Wanted counter (§9.7)."""
    return q != w and state["wanted"][q] >= 1


@njit(cache=True, inline="always")
def steal_wanted(state: np.void, w: int, q: int) -> None:
    """The winner takes one Wanted counter from seat q (§9.7)."""
    state["wanted"][q] -= 1
    state["wanted"][w] += 1
    emit(state, EV_WANTED_TAKEN, EVERYONE, w, q, state["wanted"][w], state["wanted_supply"])
