"""Rule tests of gunfights (spec §9): targets, sides, volleys, retreats, results, Wanted counters.

Every position is seat 0's action turn in a 3-player game with a hand-built
board; dice come from the die queue (``force_dice``), so each test states the
exact rolls (5 and 6 hit, §9.4) and checks how many were used.
"""

from __future__ import annotations

import pytest

from tests.way_out_west._helpers import dice_left, force_dice
from wildwest_envs.way_out_west.data import (A_NO, A_PLAYER, A_RETREAT, A_SHOOT, A_TARGET, A_YES, BANK,
                                             DEC_CHOOSE_ACTION, DEC_GUNFIGHT_DEFENDER, DEC_RETREAT_DESTINATION,
                                             DEC_SHERIFF_JOIN, DEC_VOLLEY_ATTACKER, DEC_VOLLEY_DEFENDER,
                                             DEC_WANTED_STEAL, HOTEL, JAIL, SIDE_ATTACKER, SIDE_DEFENDER,
                                             STAGECOACH, STORE, T_CATTLE, T_FARMER, TRAIN)
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA, box,
                                                  legal_actions, place, play, position, town)

FIGHT = box(16)
T = ABILENE  # the fight town of most tests


def target(x: int) -> int:
    return A_TARGET + x


def player(r: int) -> int:
    return A_PLAYER + r


def targets_legal(states) -> set[int]:
    return {a - A_TARGET for a in legal_actions(states) if a >= A_TARGET}


def fight_position(attackers: int = 1, defenders: int = 0, target_kind: int = STORE, owner: int = 1):
    """Seat 0 with ``attackers`` cowboys in Abilene; seat ``owner`` owns a counter there with ``defenders`` cowboys."""
    states = position(3, turn=0, cowboys={T: {0: attackers}})
    if defenders:
        place(states, cowboys={T: {owner: defenders}})
    if 0 <= target_kind < 6:
        place(states, buildings={T: {target_kind: owner}})
    return states


def declare(states, target_kind: int, *more: int) -> None:
    play(states, FIGHT, town(T), target(target_kind), *more)


# ---- §9.1, §9.2 declaration and legal targets ---------------------------------------------------------------
def test_s9_1_fight_towns_need_an_own_cowboy_and_a_legal_target():
    """§9.1: GUNFIGHT_TOWN is legal iff cowboys[t][a] >= 1 and t holds a legal target."""
    states = fight_position()
    place(states, cowboys={DEADWOOD: {0: 2}})  # no target in Deadwood
    place(states, buildings={KANSAS_CITY: {HOTEL: 2}})  # a target without an own cowboy
    play(states, FIGHT)
    assert legal_actions(states) == [town(T)]


def test_s9_2_capture_targets_need_the_attacker_supply_and_never_own_counters():
    """§9.2, §16 #29: stagecoach/train/store/hotel need a's counter of that type in supply; never own ones."""
    states = fight_position(target_kind=STORE)
    place(states, buildings={T: {TRAIN: 2}})
    place(states, buildings={T: {HOTEL: 0}})  # own hotel: never a target
    play(states, FIGHT, town(T))
    assert targets_legal(states) == {STORE, TRAIN}
    states = fight_position(target_kind=STORE)
    for t in (SAN_ANTONIA, KANSAS_CITY, DODGE_CITY):
        place(states, buildings={t: {STORE: 0}})  # seat 0 has no store left in supply
    place(states, buildings={T: {BANK: 1, JAIL: 2}})
    play(states, FIGHT, town(T))
    assert targets_legal(states) == {BANK, JAIL}  # banks and jails need no supply


def test_s9_2_cattle_and_farmer_targets():
    """§9.2: cattle of another player (with a's cattle supply); a farmer in town."""
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {0: 2}})  # own cattle: not a target
    assert FIGHT not in legal_actions(states)
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {2: 1}}, farmers={T: [1]})
    play(states, FIGHT, town(T))
    assert targets_legal(states) == {T_CATTLE, T_FARMER}
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {2: 1}, DEADWOOD: {0: 7}})
    place(states, cattle={DODGE_CITY: {0: 2}})  # seat 0 has no cattle in supply
    place(states, buildings={T: {HOTEL: 1}})
    play(states, FIGHT, town(T))
    assert targets_legal(states) == {HOTEL}


def test_s9_1_cattle_target_asks_for_the_defending_player_by_relative_seat():
    """§9.1, §13.2: GUNFIGHT_DEFENDER: PLAYER_r for each other seat with cattle in t (relative to the attacker)."""
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {1: 1, 2: 2}})
    declare(states, T_CATTLE)
    assert states[0]["decision"] == DEC_GUNFIGHT_DEFENDER
    assert legal_actions(states) == [player(1), player(2)]
    force_dice(states, [6, 1])
    play(states, player(2))  # seat 2 defends with the default defender
    s = states[0]
    assert s["cattle"][T, 2] == 0 and s["cattle"][T, 0] == 2 and s["cattle_supply"][2] == 9


# ---- §9.3 who takes part -------------------------------------------------------------------------------------------
def test_s9_3_all_attacker_cowboys_and_all_defender_cowboys_fight_third_parties_never():
    """§9.3: all of a's cowboys in t, all of the defender's; other players' cowboys are not involved."""
    states = fight_position(attackers=3, defenders=2)
    place(states, cowboys={T: {2: 4}})
    declare(states, STORE)
    s = states[0]
    assert (s["a_cow"], s["a_sher"], s["d_cow"], s["d_virt"], s["d_sher"], s["d_farm"]) == (3, 0, 2, 0, 0, 0)
    assert s["decision"] == DEC_VOLLEY_DEFENDER and s["current"] == 1
    force_dice(states, [6, 6, 6])  # D < A: the defender's 2 dice first (2 hits), then the attacker's last die
    play(states, A_SHOOT)
    assert states[0]["cowboys"][T, 0] == 1 and states[0]["cowboys"][T, 1] == 1
    assert states[0]["cowboys"][T, 2] == 4  # never affected


@pytest.mark.parametrize("kind", [BANK, TRAIN])
def test_s9_3_banks_and_trains_have_an_intrinsic_defender(kind):
    """§9.3: one intrinsic defender for a bank or a train, even alongside the owner's cowboys."""
    states = fight_position(attackers=2, defenders=1, target_kind=kind)
    declare(states, kind)
    s = states[0]
    assert (s["d_virt"], s["d_cow"]) == (1, 1)


@pytest.mark.parametrize("kind", [STAGECOACH, STORE, HOTEL])
def test_s9_3_default_defender_only_for_unprotected_counters(kind):
    """§9.3, §16 #24: an unprotected non-bank/train counter gets one default defender; with cowboys none."""
    states = fight_position(target_kind=kind)
    force_dice(states, [1, 1])
    declare(states, kind)
    assert states[0]["d_virt"] == 1 and states[0]["d_cow"] == 0
    states = fight_position(defenders=1, target_kind=kind)
    declare(states, kind)
    assert states[0]["d_virt"] == 0 and states[0]["d_cow"] == 1


def test_s9_3_cattle_of_a_player_without_cowboys_get_the_default_defender():
    """§9.3: cattle are a player's counters other than bank/train: default defender when unprotected."""
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {1: 1}})
    force_dice(states, [1, 1])
    declare(states, T_CATTLE, player(1))
    assert states[0]["d_virt"] == 1


def test_s9_3_farmer_defends_as_one_and_exactly_one_fights():
    """§9.3, §16 #45: a farmer target: one farmer fights even if several stand in the town; no default defender."""
    states = fight_position(target_kind=-1)
    place(states, farmers={T: [1, 2]})
    force_dice(states, [1, 1])
    declare(states, T_FARMER)
    s = states[0]
    assert (s["d_farm"], s["d_virt"], s["d_cow"], s["pend_defender"]) == (1, 0, 0, -1)


def test_s9_3_jail_owner_attacking_may_add_his_sheriff_to_the_attack():
    """§9.3: the jail owner J = a decides once; YES puts the sheriff on the attacker side."""
    states = fight_position(target_kind=STORE)
    place(states, buildings={T: {JAIL: 0}})
    declare(states, STORE)
    assert states[0]["decision"] == DEC_SHERIFF_JOIN and states[0]["current"] == 0
    assert legal_actions(states) == [A_YES, A_NO]
    force_dice(states, [1, 1, 1])
    play(states, A_YES)
    s = states[0]
    assert s["sheriff_side"] == SIDE_ATTACKER and s["a_sher"] == 1 and s["d_virt"] == 1


def test_s9_3_another_jail_owner_may_only_join_the_defence_and_replaces_the_default_defender():
    """§9.3: a third player's sheriff joins the defending side; the default defender is then not used."""
    states = fight_position(target_kind=STORE)
    place(states, buildings={T: {JAIL: 2}})
    declare(states, STORE)
    assert states[0]["current"] == 2 and states[0]["decision"] == DEC_SHERIFF_JOIN
    force_dice(states, [1, 1])
    play(states, A_YES)
    s = states[0]
    assert s["sheriff_side"] == SIDE_DEFENDER and s["d_sher"] == 1 and s["d_virt"] == 0 and s["a_sher"] == 0


def test_s9_3_sheriff_declining_leaves_the_default_defender():
    """§9.3: NO keeps the sheriff out; the unprotected counter gets its default defender."""
    states = fight_position(target_kind=STORE)
    place(states, buildings={T: {JAIL: 2}})
    declare(states, STORE)
    force_dice(states, [1, 1])
    play(states, A_NO)
    s = states[0]
    assert s["sheriff_side"] == 0 and s["d_sher"] == 0 and s["d_virt"] == 1


def test_s9_3_sheriff_may_defend_its_own_jail_and_a_farmer():
    """§9.3: YES puts the sheriff on the defender side also when the jail itself or a farmer is the target."""
    states = fight_position(attackers=2, target_kind=JAIL)
    force_dice(states, [1, 1, 1, 1])
    declare(states, JAIL)
    assert states[0]["current"] == 1
    play(states, A_YES)
    assert states[0]["d_sher"] == 1 and states[0]["d_virt"] == 0
    states = fight_position(attackers=2, target_kind=-1)
    place(states, buildings={T: {JAIL: 1}}, farmers={T: [2]})
    force_dice(states, [1, 1, 1, 1])
    declare(states, T_FARMER)
    play(states, A_YES)
    assert states[0]["d_sher"] == 1 and states[0]["d_farm"] == 1


def test_s9_3_sides_are_fixed_the_default_defender_never_appears_mid_fight():
    """§9.3, §16 #47: the defender's cowboys all die; no default defender joins later: the attacker wins."""
    states = fight_position(attackers=2, defenders=1, target_kind=STORE)
    declare(states, STORE)
    force_dice(states, [6, 1])  # D < A: the defender's die first (6: kills one attacker cowboy), then 1 die: miss
    play(states, A_SHOOT)
    s = states[0]
    assert s["a_cow"] == 1 and s["d_cow"] == 1 and s["decision"] == DEC_VOLLEY_ATTACKER
    force_dice(states, [5, 1])  # equal 1 v 1: attacker 5 hits, defender 1 misses
    play(states, A_SHOOT, A_SHOOT)
    s = states[0]
    assert s["bt_owner"][T, STORE] == 0 and s["wanted"][0] == 1 and s["cowboys"][T, 1] == 0


# ---- §9.4 the volley loop ------------------------------------------------------------------------------------------
def test_s9_4_the_smaller_side_shoots_first_and_removes_casualties_at_once():
    """§9.4: A < D: the attacker rolls A dice, hits are removed at once, then the defender rolls what is left."""
    states = fight_position(attackers=1, defenders=2)
    declare(states, STORE)
    force_dice(states, [6, 6, 6])
    play(states, A_SHOOT)
    s = states[0]
    assert dice_left(states) == 1  # 1 attacker die + 1 die of the surviving defender, not 2
    assert s["cowboys"][T, 1] == 1 and s["cowboys"][T, 0] == 0 and s["cowboy_supply"][0] == 9
    assert s["wanted"][1] == 1  # the defender side won


def test_s9_4_equal_sides_fire_simultaneously_mutual_wipe_out_nobody_wins():
    """§9.4, §9.6: equal sides roll together; both wiped out: nobody wins, no Wanted counter."""
    states = fight_position(attackers=1)
    force_dice(states, [6, 6])
    declare(states, STORE)
    s = states[0]
    assert dice_left(states) == 0 and s["cowboys"][T, 0] == 0
    assert s["bt_owner"][T, STORE] == 1 and s["wanted_supply"] == 13 and s["decision"] == DEC_CHOOSE_ACTION


def test_s9_4_a_five_or_six_hits_four_misses():
    """§9.4: each 5 or 6 is a hit."""
    states = fight_position(attackers=1)
    force_dice(states, [4, 4])
    declare(states, STORE)
    assert states[0]["decision"] == DEC_VOLLEY_ATTACKER and states[0]["gf_volley"] == 2
    states = fight_position(attackers=1)
    force_dice(states, [5, 4])
    declare(states, STORE)
    assert states[0]["bt_owner"][T, STORE] == 0 and states[0]["wanted"][0] == 1


def test_s9_4_decision_timing_defender_from_volley_1_attacker_from_volley_2():
    """§9.4, §16 #23: the defending player decides before every volley; the attacker from the second."""
    states = fight_position(attackers=2, defenders=2)
    declare(states, STORE)
    assert states[0]["decision"] == DEC_VOLLEY_DEFENDER and states[0]["gf_volley"] == 1
    force_dice(states, [1, 1, 1, 1])
    play(states, A_SHOOT)
    assert states[0]["decision"] == DEC_VOLLEY_ATTACKER and states[0]["current"] == 0
    play(states, A_SHOOT)
    assert states[0]["decision"] == DEC_VOLLEY_DEFENDER and states[0]["current"] == 1


def test_s9_4_casualty_order_on_the_defender_side():
    """§9.4: virtual defender first, then the sheriff, then the defender's cowboys."""
    states = fight_position(attackers=2, defenders=1, target_kind=BANK)
    place(states, buildings={T: {JAIL: 2}})
    declare(states, BANK)
    play(states, A_YES)  # seat 2's sheriff defends: D = 1 virtual + 1 sheriff + 1 cowboy = 3 > A = 2
    force_dice(states, [6, 6, 1])
    play(states, A_SHOOT)
    s = states[0]
    assert (s["d_virt"], s["d_sher"], s["d_cow"]) == (0, 0, 1)


def test_s9_4_casualty_order_on_the_attacker_side_sheriff_first():
    """§9.4: the attacker side loses the sheriff first, then the attacker's cowboys."""
    states = fight_position(attackers=1, defenders=2)
    place(states, buildings={T: {JAIL: 0}})
    declare(states, STORE)
    play(states, A_YES)  # A = 1 cowboy + sheriff = 2 = D: simultaneous
    force_dice(states, [1, 1, 6, 1])
    play(states, A_SHOOT)
    s = states[0]
    assert (s["a_sher"], s["a_cow"]) == (0, 1)


def test_s9_4_a_sheriff_alone_cannot_win_an_attack():
    """§9.4, §16 #28: attacker cowboys gone, his sheriff still standing: the defender side wins.

    The casualty order removes the sheriff first, so play never reaches this; the
    position is edited: seat 0's last cowboy has just left, his sheriff remains.
    """
    states = fight_position(attackers=1, defenders=2)
    place(states, buildings={T: {JAIL: 0}})
    declare(states, STORE)
    play(states, A_YES)
    s = states[0]
    s["a_cow"] = 0
    s["cowboys"][T, 0] = 0
    s["cowboy_supply"][0] += 1
    force_dice(states, [1, 1, 1])
    play(states, A_SHOOT)
    s = states[0]
    assert s["wanted"][1] == 1 and s["bt_owner"][T, STORE] == 1


def test_s9_4_fifty_volley_guard_nobody_wins():
    """§9.4, §16 #27: after volley 50 without a decision the fight ends with nobody winning."""
    states = fight_position(attackers=1)
    force_dice(states, [1, 1])
    declare(states, STORE)
    states[0]["gf_volley"] = 50  # edited: the fight has gone on for 49 volleys
    force_dice(states, [1, 1])
    play(states, A_SHOOT)
    s = states[0]
    assert s["decision"] == DEC_CHOOSE_ACTION and s["wanted_supply"] == 13 and s["bt_owner"][T, STORE] == 1
    assert s["cowboys"][T, 0] == 1


# ---- §9.5 retreat --------------------------------------------------------------------------------------------------
def test_s9_5_defender_retreats_to_distinct_towns_and_concedes():
    """§9.5: k < 4 cowboys go one by one to distinct other towns; the attacker wins at once (no dice)."""
    states = fight_position(attackers=1, defenders=2)
    declare(states, STORE)
    force_dice(states, [6, 6])
    play(states, A_RETREAT)
    s = states[0]
    assert s["decision"] == DEC_RETREAT_DESTINATION and s["current"] == 1
    assert legal_actions(states) == [town(t) for t in (0, 1, 3, 4)]
    play(states, town(DEADWOOD))
    assert legal_actions(states) == [town(t) for t in (0, 1, 3)]
    play(states, town(SAN_ANTONIA))
    s = states[0]
    assert s["cowboys"][DEADWOOD, 1] == 1 and s["cowboys"][SAN_ANTONIA, 1] == 1 and s["cowboys"][T, 1] == 0
    assert s["bt_owner"][T, STORE] == 0 and s["wanted"][0] == 1 and dice_left(states) == 2


def test_s9_5_four_or_more_retreating_cowboys_one_per_other_town_rest_eliminated():
    """§9.5: k >= 4: one cowboy to each of the four other towns automatically, k - 4 to supply."""
    states = fight_position(attackers=6, defenders=1)
    declare(states, STORE)
    force_dice(states, [1, 1, 1, 1, 1, 1, 1])
    play(states, A_SHOOT)  # D < A: 1 defender die, then 6 attacker dice: all miss
    assert states[0]["decision"] == DEC_VOLLEY_ATTACKER
    play(states, A_RETREAT)
    s = states[0]
    assert [int(s["cowboys"][t, 0]) for t in range(5)] == [1, 1, 0, 1, 1]
    assert s["cowboy_supply"][0] == 5  # 3 never placed + 2 eliminated
    assert s["wanted"][1] == 1 and s["bt_owner"][T, STORE] == 1 and s["decision"] == DEC_CHOOSE_ACTION


def test_s9_5_retreat_concedes_even_with_virtual_defenders_left():
    """§9.5, §16 #22: the retreating side loses although its sheriff / virtual defender still stands."""
    states = fight_position(attackers=3, defenders=1, target_kind=BANK)
    place(states, cash={1: 30})
    declare(states, BANK)
    force_dice(states, [2, 2, 2])
    play(states, A_RETREAT, town(SAN_ANTONIA))  # the intrinsic defender never fired
    s = states[0]
    assert s["cash"][1] == 24 and s["cash"][0] == 26 and s["wanted"][0] == 1  # robbed: 3d6 = 6
    assert dice_left(states) == 0 and s["bt_owner"][T, BANK] == 1


def test_s9_5_retreats_pay_no_stagecoach_fares():
    """§9.5, §8.8: retreating cowboys trigger no stagecoach payment."""
    states = fight_position(attackers=1, defenders=1)
    place(states, buildings={T: {STAGECOACH: 2}, DEADWOOD: {STAGECOACH: 2}})
    declare(states, STORE)
    play(states, A_RETREAT, town(DEADWOOD))
    assert states[0]["cash"][2] == 20 and states[0]["bank_out"] == 0


# ---- §9.6, §9.2, §9.8 results -------------------------------------------------------------------------------------
def test_s9_2_capture_returns_the_counter_and_ignores_the_two_per_town_limit():
    """§9.2, §16 #30: the owner's counter returns to his supply, a's takes its place; a may own 3 in t."""
    states = fight_position(target_kind=STAGECOACH)
    place(states, buildings={T: {STORE: 0, HOTEL: 0}})
    force_dice(states, [6, 1])
    declare(states, STAGECOACH)
    s = states[0]
    assert s["bt_owner"][T, STAGECOACH] == 0 and s["bt_supply"][1, STAGECOACH] == 3
    assert s["bt_supply"][0, STAGECOACH] == 2 and (s["bt_owner"][T] == 0).sum() == 3


@pytest.mark.parametrize("their,supply,rustled", [(3, 9, 2), (1, 9, 1), (4, 1, 1)])
def test_s9_2_rustling_takes_min_of_two_their_cattle_and_own_supply(their, supply, rustled):
    """§9.2, §16 #31: r = min(2, cattle[t][q], a's supply) counters change owner, automatically."""
    states = fight_position(target_kind=-1)
    place(states, cattle={T: {1: their}})
    if supply < 9:
        place(states, cattle={DEADWOOD: {0: 7}, DODGE_CITY: {0: 9 - 7 - supply}})
    force_dice(states, [6, 1])
    declare(states, T_CATTLE, player(1))
    s = states[0]
    assert s["cattle"][T, 0] == rustled and s["cattle"][T, 1] == their - rustled
    assert s["cattle_supply"][1] == 9 - their + rustled


def test_s9_8_bank_robbery_paid_in_full_keeps_the_bank():
    """§9.8: 3d6 = R; the owner pays R when he can; the bank stays."""
    states = fight_position(attackers=3, target_kind=BANK)
    force_dice(states, [1, 1, 1, 6, 6, 6, 6])  # D < A: 1 defender die (miss), 3 attacker dice: a hit; 3d6 = 18
    place(states, cash={1: 18})
    declare(states, BANK)
    s = states[0]
    assert s["cash"][0] == 38 and s["cash"][1] == 0 and s["bt_owner"][T, BANK] == 1
    assert dice_left(states) == 0


def test_s9_8_bank_robbery_beyond_the_owner_cash_removes_the_bank_from_the_game():
    """§9.8, §16 #32: if cash < R the owner pays all his cash and the bank leaves the game."""
    states = fight_position(attackers=3, target_kind=BANK)
    force_dice(states, [1, 1, 1, 6, 3, 3, 3])
    place(states, cash={1: 5})
    declare(states, BANK)
    s = states[0]
    assert s["cash"][0] == 25 and s["cash"][1] == 0 and s["bt_owner"][T, BANK] == -1
    assert s["bt_removed"][1, BANK] == 1 and s["bt_supply"][1, BANK] == 2


def test_s9_2_winning_against_a_jail_removes_it_from_the_game():
    """§9.2: the jail (and its sheriff) leaves the game."""
    states = fight_position(target_kind=JAIL)
    declare(states, JAIL)
    force_dice(states, [6, 1])
    play(states, A_NO)
    s = states[0]
    assert s["bt_owner"][T, JAIL] == -1 and s["bt_removed"][1, JAIL] == 1 and s["bt_supply"][1, JAIL] == 2


def test_s9_2_winning_against_a_farmer_removes_exactly_that_farmer():
    """§9.2, §16 #45: the farmer that fought leaves the game; a second farmer in the town stays."""
    states = fight_position(target_kind=-1)
    place(states, farmers={T: [1, 2]})
    force_dice(states, [6, 1])
    declare(states, T_FARMER)
    s = states[0]
    assert s["farmers"][T] == 1 and s["farmers_removed"] == 1 and s["wanted"][0] == 1


def test_s9_3_a_farmer_killed_in_a_mutual_wipe_out_is_removed_too():
    """§9.3: a killed farmer leaves the game also when nobody wins."""
    states = fight_position(target_kind=-1)
    place(states, farmers={T: [1]})
    force_dice(states, [6, 6])
    declare(states, T_FARMER)
    s = states[0]
    assert s["farmers"][T] == 0 and s["farmers_removed"] == 1 and s["wanted_supply"] == 13


def test_s9_6_the_loser_keeps_everything_else_in_the_town():
    """§9.6, §3: besides the target, the loser's counters and cattle stay, even with no cowboy left."""
    states = fight_position(attackers=2, defenders=1, target_kind=STORE)
    place(states, cattle={SAN_ANTONIA: {1: 1}, KANSAS_CITY: {1: 1}, T: {1: 2}}, buildings={T: {HOTEL: 1}})
    declare(states, STORE)
    force_dice(states, [1, 6, 1])  # D < A: defender 1 die misses; attacker 2 dice: one hit
    play(states, A_SHOOT)
    s = states[0]
    assert s["bt_owner"][T, STORE] == 0 and s["bt_owner"][T, HOTEL] == 1 and s["cattle"][T, 1] == 2
    assert s["cowboys"][T, 1] == 0


# ---- §9.7 Wanted counters ------------------------------------------------------------------------------------------
def test_s9_7_the_defending_player_takes_a_wanted_counter_even_if_only_virtual_defenders_fought():
    """§9.7, §16 #33: the defender side wins with the default defender: its player takes one."""
    states = fight_position(target_kind=HOTEL)
    force_dice(states, [1, 6])
    declare(states, HOTEL)
    s = states[0]
    assert s["wanted"][1] == 1 and s["wanted_supply"] == 12 and s["cowboys"][T, 0] == 0


def test_s9_7_no_wanted_counter_when_the_farmer_side_wins_nor_for_the_sheriff():
    """§9.7: a farmer side win gives nobody a counter; the jail owner takes none for his sheriff's help."""
    states = fight_position(target_kind=-1)
    place(states, buildings={T: {JAIL: 2}}, farmers={T: [1]})
    declare(states, T_FARMER)
    force_dice(states, [1, 1, 6, 1])  # A = 1 < D = 2: one attacker die misses; then 2 dice: a hit
    play(states, A_YES)
    s = states[0]
    assert s["wanted_supply"] == 13 and not s["wanted"].any() and s["cowboys"][T, 0] == 0


def test_s9_7_empty_supply_the_winner_takes_one_from_a_player_of_his_choice():
    """§9.7: with the supply empty the winner chooses another holder (WANTED_STEAL, relative seats)."""
    states = fight_position(target_kind=STORE)
    place(states, wanted={1: 6, 2: 7})
    force_dice(states, [6, 1])
    declare(states, STORE)
    s = states[0]
    assert s["decision"] == DEC_WANTED_STEAL and s["current"] == 0
    assert legal_actions(states) == [player(1), player(2)]
    play(states, player(2))
    s = states[0]
    assert s["wanted"][:3].tolist() == [1, 6, 6] and s["decision"] == DEC_CHOOSE_ACTION


def test_s9_7_empty_supply_and_nobody_else_holds_one_nothing_happens():
    """§9.7: if no other player holds a Wanted counter, nothing happens."""
    states = fight_position(target_kind=STORE)
    place(states, wanted={0: 13})
    force_dice(states, [6, 1])
    declare(states, STORE)
    s = states[0]
    assert s["wanted"][0] == 13 and s["decision"] == DEC_CHOOSE_ACTION and s["bt_owner"][T, STORE] == 0


def test_s8_7_the_whole_gunfight_is_one_action():
    """§8.7: the fight uses one box and one action turn; the next player is on turn afterwards."""
    states = fight_position(target_kind=STORE)
    force_dice(states, [6, 1])
    declare(states, STORE)
    s = states[0]
    assert s["box_user"][16] == 0 and s["turns_used"][0] == 1 and s["current"] != 0 and not s["gf_active"]


def test_s8_8_casualties_pay_no_stagecoach_fare():
    """§8.8: cowboys killed in a fight leave the town without paying a stagecoach there."""
    states = fight_position(attackers=2, defenders=2)
    place(states, buildings={T: {STAGECOACH: 2}})
    declare(states, STORE)
    force_dice(states, [6, 6, 1, 1])  # equal 2 v 2: both attackers hit, both defenders miss
    play(states, A_SHOOT)
    s = states[0]
    assert s["cowboys"][T, 1] == 0 and s["cash"][2] == 20 and s["bank_out"] == 0


def test_s9_3_a_third_party_jail_owner_joins_only_with_his_sheriff_never_his_cowboys():
    """§9.3: the jail owner who is neither attacker nor defender adds at most his sheriff."""
    states = fight_position(attackers=2, defenders=1)
    place(states, cowboys={T: {2: 5}}, buildings={T: {JAIL: 2}})
    declare(states, STORE)
    play(states, A_YES)
    s = states[0]
    assert (s["d_cow"], s["d_sher"], s["d_virt"]) == (1, 1, 0)
    force_dice(states, [6, 6, 6, 6])
    play(states, A_SHOOT)  # 2 v 2 at once: the sheriff and the defender's cowboy die; seat 2's cowboys stay
    assert states[0]["cowboys"][T, 2] == 5
