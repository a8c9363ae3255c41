"""Rule tests of phase B and the actions other than gunfights (spec §7, §8.1-§8.6, §8.8)."""

from __future__ import annotations

import pytest

from wildwest_envs.way_out_west.data import (A_COUNT, A_PASS, BANK, DEC_AUCTION_BID, DEC_BUY_CATTLE_COUNT,
                                             DEC_CHOOSE_ACTION, DEC_HIRE_TOWN_2, HOTEL, JAIL, N_BOXES,
                                             STAGECOACH, STORE, TRAIN)
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA, box,
                                                  legal_actions, place, play, position, town)

BUY_A, BUY_B, BUY_C, HIRE_A, HIRE_B, HIRE_C, MOVE_COWBOYS_A, MOVE_COWBOYS_B, MOVE_CATTLE = range(9)
BUILD = {STAGECOACH: 9, TRAIN: 10, BANK: 11, STORE: 12, HOTEL: 13, JAIL: 14}
FARMER, FIGHT_A, FIGHT_B, FIGHT_C = 15, 16, 17, 18


def count(n: int) -> int:
    return A_COUNT + n - 1


def boxes_legal(states) -> set[int]:
    return {a - box(0) for a in legal_actions(states) if box(0) <= a <= box(N_BOXES - 1)}


# ---- §7.1 turns and markers -------------------------------------------------------------------------------------
def test_s7_1_two_laps_of_action_turns_in_turn_order_then_the_next_auction():
    """§7.1: lap 1 goes through positions 1..N, lap 2 again; then phase C and the next round's auction."""
    states = position(3, start_player=0)  # turn order 2, 1, 0
    seen = []
    while states[0]["decision"] == DEC_CHOOSE_ACTION:
        seen.append((int(states[0]["current"]), int(states[0]["lap"])))
        play(states, A_PASS)
    assert seen == [(2, 0), (1, 0), (0, 0), (2, 1), (1, 1), (0, 1)]
    s = states[0]
    assert s["decision"] == DEC_AUCTION_BID and s["round"] == 2 and s["turns_used"][:3].tolist() == [2, 2, 2]


def test_s7_1_pass_is_always_legal_and_changes_nothing_but_the_turn():
    """§7.1, §16 #13: PASS keeps the marker; nothing happens on the board."""
    states = position(3, turn=0, cash=0)
    assert legal_actions(states)[0] == A_PASS
    before = states[0].copy()
    play(states, A_PASS)
    s = states[0]
    assert (s["cash"] == before["cash"]).all() and (s["box_user"] == -1).all() and s["current"] != 0


def test_s7_1_a_taken_box_is_blocked_for_everybody_for_the_rest_of_the_round():
    """§7.1: a box holding a marker is unavailable to everybody, its user included; phase C frees it."""
    states = position(3, turn=0)
    play(states, box(FARMER), town(SAN_ANTONIA))
    assert states[0]["box_user"][FARMER] == 0
    blocked_for = set()
    while states[0]["decision"] == DEC_CHOOSE_ACTION:
        s = states[0]
        s["farmers"][SAN_ANTONIA] = 0  # edited: the farmer is back unused, so only the marker blocks the box
        s["farmer_used"][0] = 0
        if FARMER not in boxes_legal(states):
            blocked_for.add(int(s["current"]))
        s["farmers"][SAN_ANTONIA] = 1
        s["farmer_used"][0] = 1
        play(states, A_PASS)
    assert blocked_for == {0, 1, 2}  # the other seats in both laps and seat 0 in lap 2
    assert (states[0]["box_user"] == -1).all()


@pytest.mark.parametrize("n,inactive", [(3, {2, 5, 18}), (4, {2, 5, 18}), (5, set())])
def test_s7_2_boxes_active_by_player_count(n, inactive):
    """§7.2: boxes 2, 5 and 18 are active only with 5 players."""
    states = position(n, turn=0, cowboys={SAN_ANTONIA: {0: 1}}, buildings={SAN_ANTONIA: {JAIL: 1}})
    legal = boxes_legal(states)
    assert not legal & inactive
    assert {BUY_A, BUY_B, HIRE_A, HIRE_B, FIGHT_A, FIGHT_B} <= legal
    assert ({BUY_C, HIRE_C, FIGHT_C} <= legal) == (n == 5)


def test_s7_2_executable_if_conditions_of_every_box():
    """§7.2: a box is legal only if its action can be carried out completely."""
    states = position(3, turn=0, cash=0)
    assert boxes_legal(states) == {FARMER}  # no cash, no cowboys on the board
    place(states, farmers={KANSAS_CITY: [0]})
    assert boxes_legal(states) == set()
    place(states, cowboys={KANSAS_CITY: {0: 1}})
    assert boxes_legal(states) == {MOVE_COWBOYS_A, MOVE_COWBOYS_B, FIGHT_A, FIGHT_B}  # the farmer is a target
    place(states, cash={0: 3})
    assert boxes_legal(states) == {HIRE_A, HIRE_B, MOVE_COWBOYS_A, MOVE_COWBOYS_B, BUILD[JAIL], FIGHT_A, FIGHT_B}
    place(states, cowboys={SAN_ANTONIA: {0: 1}})
    assert {BUY_A, BUY_B} <= boxes_legal(states)  # cattle need a cowboy in an open town
    place(states, cattle={SAN_ANTONIA: {0: 1}})
    assert MOVE_CATTLE not in boxes_legal(states)  # no other open town with a cowboy
    place(states, cash={0: 20})
    assert {BUILD[k] for k in BUILD} <= boxes_legal(states)


# ---- §8.1 buy cattle ----------------------------------------------------------------------------------------------
def test_s8_1_legal_cattle_towns_need_the_frontier_an_own_cowboy_and_a_free_corral():
    """§8.1: t <= frontier, cowboys[t][p] >= 1, at least one free corral."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}, KANSAS_CITY: {0: 1}, ABILENE: {1: 1}})
    play(states, box(BUY_A))
    assert legal_actions(states) == [town(SAN_ANTONIA)]  # Kansas City is above the frontier
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}, KANSAS_CITY: {0: 1}}, cattle={SAN_ANTONIA: {1: 3}})
    place(states, cattle={KANSAS_CITY: {2: 1}})  # the frontier is at Kansas City
    play(states, box(BUY_B))
    assert legal_actions(states) == [town(SAN_ANTONIA), town(KANSAS_CITY)]


def test_s8_1_two_counters_need_two_corrals_two_in_supply_and_two_dollars():
    """§8.1: COUNT_2 only with >= 2 free corrals, cattle supply >= 2 and cash >= 2."""
    states = position(3, turn=0, cash=[2, 20, 20], cowboys={SAN_ANTONIA: {0: 1}})
    play(states, box(BUY_A), town(SAN_ANTONIA))
    assert states[0]["decision"] == DEC_BUY_CATTLE_COUNT and legal_actions(states) == [count(1), count(2)]
    place(states, cash={0: 1})
    assert legal_actions(states) == [count(1)]
    place(states, cash={0: 2})
    place(states, cattle={SAN_ANTONIA: {1: 3}})  # one free corral left
    assert legal_actions(states) == [count(1)]
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}}, cattle={DEADWOOD: {0: 7}})
    place(states, cattle={DODGE_CITY: {0: 1}})  # one counter left in supply (frontier at Deadwood)
    play(states, box(BUY_A), town(SAN_ANTONIA))
    assert legal_actions(states) == [count(1)]


def test_s8_1_buying_pays_one_dollar_per_counter_and_fills_corrals():
    """§8.1: pay $n to the bank, n cattle from supply into corrals of t."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}})
    play(states, box(BUY_A), town(SAN_ANTONIA), count(2))
    s = states[0]
    assert s["cash"][0] == 18 and s["cattle"][SAN_ANTONIA, 0] == 2 and s["cattle_supply"][0] == 7
    assert s["bank_in"] == 2 and s["box_user"][BUY_A] == 0


def test_s8_1_frontier_opens_the_next_town_when_the_frontier_town_is_full():
    """§8.1: once every corral of the frontier town holds cattle, the next town opens."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}}, cattle={SAN_ANTONIA: {1: 2}})
    play(states, box(BUY_A), town(SAN_ANTONIA), count(1))
    assert states[0]["frontier"] == SAN_ANTONIA  # 3 of 4 corrals
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}}, cattle={SAN_ANTONIA: {1: 2}})
    play(states, box(BUY_A), town(SAN_ANTONIA), count(2))  # 4 of 4
    assert states[0]["frontier"] == KANSAS_CITY


def test_s8_1_frontier_never_moves_back_and_no_cattle_above_it():
    """§8.1: cattle leaving the town behind the frontier do not close the next town; towns above stay shut."""
    states = position(3, turn=0, cattle={SAN_ANTONIA: {0: 2, 1: 2}})
    states[0]["frontier"] = KANSAS_CITY  # San Antonia was filled: Kansas City is open
    place(states, cowboys={KANSAS_CITY: {0: 1}, ABILENE: {0: 1}})
    play(states, box(MOVE_CATTLE), town(SAN_ANTONIA))
    assert legal_actions(states) == [town(KANSAS_CITY)]  # not Abilene: above the frontier
    play(states, town(KANSAS_CITY), count(2))
    s = states[0]
    assert s["cattle"][SAN_ANTONIA].sum() == 2 and s["frontier"] == KANSAS_CITY


# ---- §8.2 hire cowboys --------------------------------------------------------------------------------------------
def test_s8_2_hire_one_or_two_cowboys_in_any_towns():
    """§8.2: the first cowboy in any town, then a second in any town (the same or another) or STOP."""
    states = position(3, turn=0)
    play(states, box(HIRE_A))
    assert legal_actions(states) == [town(t) for t in range(5)]
    play(states, town(DEADWOOD))
    assert states[0]["decision"] == DEC_HIRE_TOWN_2
    assert legal_actions(states) == [A_PASS] + [town(t) for t in range(5)]
    play(states, town(DEADWOOD))
    s = states[0]
    assert s["cowboys"][DEADWOOD, 0] == 2 and s["cowboy_supply"][0] == 7 and s["cash"][0] == 18


def test_s8_2_stop_after_one_cowboy_and_second_needs_two_dollars_and_two_in_supply():
    """§8.2: STOP hires one; a second cowboy needs cash >= 2 and supply >= 2."""
    states = position(3, turn=0, cash=[1, 20, 20])
    play(states, box(HIRE_B), town(ABILENE))
    assert legal_actions(states) == [A_PASS]
    play(states, A_PASS)
    s = states[0]
    assert s["cowboys"][ABILENE, 0] == 1 and s["cash"][0] == 0


def test_s8_8_stagecoach_fare_for_other_players_cowboys_hired_into_its_town():
    """§8.8: a cowboy hired into a town with another player's stagecoach pays its owner $1 (the bank pays)."""
    states = position(3, turn=0, buildings={ABILENE: {STAGECOACH: 1}, DODGE_CITY: {STAGECOACH: 0}})
    play(states, box(HIRE_A), town(ABILENE), town(ABILENE))
    assert states[0]["cash"][1] == 22 and states[0]["bank_out"] == 2
    states = position(3, turn=0, buildings={DODGE_CITY: {STAGECOACH: 0}})
    play(states, box(HIRE_A), town(DODGE_CITY), A_PASS)  # own stagecoach: no fare
    assert states[0]["cash"][0] == 19 and states[0]["bank_out"] == 0


# ---- §8.3 move cowboys ---------------------------------------------------------------------------------------------
def test_s8_3_move_any_number_from_one_town_to_any_other():
    """§8.3: source with own cowboys, any other destination (no adjacency), count 1..cowboys there."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 4}, ABILENE: {0: 1}})
    play(states, box(MOVE_COWBOYS_A))
    assert legal_actions(states) == [town(SAN_ANTONIA), town(ABILENE)]
    play(states, town(SAN_ANTONIA))
    assert legal_actions(states) == [town(t) for t in (1, 2, 3, 4)]
    play(states, town(DEADWOOD))
    assert legal_actions(states) == [count(n) for n in (1, 2, 3, 4)]
    play(states, count(3))
    s = states[0]
    assert s["cowboys"][SAN_ANTONIA, 0] == 1 and s["cowboys"][DEADWOOD, 0] == 3 and s["cash"][0] == 20


def test_s8_8_stagecoach_fares_for_cowboys_leaving_and_arriving():
    """§8.3, §8.8: other players' stagecoaches in the source and in the destination earn $n each."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 3}},
                      buildings={SAN_ANTONIA: {STAGECOACH: 1}, DEADWOOD: {STAGECOACH: 2}})
    play(states, box(MOVE_COWBOYS_B), town(SAN_ANTONIA), town(DEADWOOD), count(3))
    s = states[0]
    assert s["cash"][:3].tolist() == [20, 23, 23] and s["bank_out"] == 6


def test_s8_8_own_stagecoach_pays_nothing_when_own_cowboys_move():
    """§8.8, §16 #21: the owner's own cowboys never pay his stagecoach."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 2}}, buildings={SAN_ANTONIA: {STAGECOACH: 0}})
    play(states, box(MOVE_COWBOYS_A), town(SAN_ANTONIA), town(ABILENE), count(2))
    assert states[0]["cash"][0] == 20 and states[0]["bank_out"] == 0


# ---- §8.4 move cattle ----------------------------------------------------------------------------------------------
def test_s8_4_move_cattle_sources_destinations_and_counts():
    """§8.4: a source with own cattle and a legal destination; destinations open, with own cowboy and room."""
    states = position(3, turn=0, cattle={SAN_ANTONIA: {0: 2}})
    place(states, cattle={KANSAS_CITY: {1: 4}})  # frontier at Kansas City, one free corral there
    place(states, cowboys={KANSAS_CITY: {0: 1}})
    place(states, cowboys={ABILENE: {0: 1}})  # Abilene is above the frontier
    play(states, box(MOVE_CATTLE))
    assert legal_actions(states) == [town(SAN_ANTONIA)]
    play(states, town(SAN_ANTONIA))
    assert legal_actions(states) == [town(KANSAS_CITY)]
    play(states, town(KANSAS_CITY))
    assert legal_actions(states) == [count(1)]  # only one free corral
    play(states, count(1))
    s = states[0]
    assert s["cattle"][SAN_ANTONIA, 0] == 1 and s["cattle"][KANSAS_CITY, 0] == 1 and s["frontier"] == ABILENE


def test_s8_4_no_cowboy_needed_in_the_source_town():
    """§8.4: the cowboy rule applies to the destination only."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: {0: 1}}, cattle={KANSAS_CITY: {0: 2}})
    play(states, box(MOVE_CATTLE), town(KANSAS_CITY), town(SAN_ANTONIA))
    assert legal_actions(states) == [count(1), count(2)]


# ---- §8.5 build ----------------------------------------------------------------------------------------------------
def test_s8_5_build_needs_a_free_space_and_no_counter_of_that_type():
    """§8.5: town size < building spaces and one counter per type per town."""
    states = position(3, turn=0, cash=100, buildings={SAN_ANTONIA: {STAGECOACH: 1, BANK: 2}, KANSAS_CITY: {HOTEL: 1}})
    play(states, box(BUILD[HOTEL]))
    assert legal_actions(states) == [town(t) for t in (SAN_ANTONIA, ABILENE, DODGE_CITY, DEADWOOD)]
    play(states, town(SAN_ANTONIA))
    s = states[0]
    assert s["bt_owner"][SAN_ANTONIA, HOTEL] == 0 and s["cash"][0] == 92 and s["bt_supply"][0, HOTEL] == 2
    states = position(3, turn=0, cash=100)
    for k in (STAGECOACH, BANK, STORE):
        place(states, buildings={SAN_ANTONIA: {k: 1}})
    play(states, box(BUILD[JAIL]))
    assert town(SAN_ANTONIA) not in legal_actions(states)  # San Antonia is full (3 of 3)


def test_s8_5_two_counters_per_player_per_town_however_acquired():
    """§8.5, §16 #19: a player owning 2 counters in t now (built or captured) cannot build there."""
    states = position(3, turn=0, cash=100, buildings={DEADWOOD: {STAGECOACH: 0, STORE: 0}})
    play(states, box(BUILD[JAIL]))
    assert town(DEADWOOD) not in legal_actions(states)
    states = position(3, turn=0, cash=100, buildings={DEADWOOD: {STAGECOACH: 0}})
    place(states, buildings={DEADWOOD: {STORE: 1}})  # lost or never had: only what he owns now counts
    play(states, box(BUILD[JAIL]))
    assert town(DEADWOOD) in legal_actions(states)


def test_s8_5_price_and_supply_and_no_cowboy_needed():
    """§8.5: cash >= price and a counter of that type in supply; no cowboy of p in the town."""
    states = position(3, turn=0, cash=19)
    assert BUILD[TRAIN] not in boxes_legal(states)
    place(states, cash={0: 20})
    assert BUILD[TRAIN] in boxes_legal(states)
    for t in (SAN_ANTONIA, KANSAS_CITY, ABILENE):
        place(states, buildings={t: {TRAIN: 0}})  # all three trains on the board: none in supply
    assert BUILD[TRAIN] not in boxes_legal(states)
    for t in (SAN_ANTONIA, KANSAS_CITY, ABILENE):
        place(states, buildings={t: {TRAIN: -1}})
    play(states, box(BUILD[TRAIN]), town(DEADWOOD))
    s = states[0]
    assert s["bt_owner"][DEADWOOD, TRAIN] == 0 and s["cash"][0] == 0 and not s["cowboys"].any()


@pytest.mark.parametrize("k,price", [(STAGECOACH, 5), (TRAIN, 20), (BANK, 10), (STORE, 5), (HOTEL, 8), (JAIL, 3)])
def test_s8_5_prices(k, price):
    """§8.5: Stagecoach $5, Train $20, Bank $10, Store $5, Hotel $8, Jail $3, paid to the bank."""
    states = position(3, turn=0, cash=30)
    play(states, box(BUILD[k]), town(DODGE_CITY))
    assert states[0]["cash"][0] == 30 - price and states[0]["bank_in"] == price


# ---- §8.6 farmer ---------------------------------------------------------------------------------------------------
def test_s8_6_farmer_once_per_game_any_town_several_per_town():
    """§8.6: free, any town, neutral afterwards, once per player; several farmers may share a town."""
    states = position(3, turn=0, farmers={ABILENE: [1]})
    play(states, box(FARMER))
    assert legal_actions(states) == [town(t) for t in range(5)]
    play(states, town(ABILENE))
    s = states[0]
    assert s["farmers"][ABILENE] == 2 and s["farmer_used"][0] == 1 and s["cash"][0] == 20
    while states[0]["round"] == 1 or states[0]["decision"] != DEC_CHOOSE_ACTION:
        play(states, A_PASS)  # on to round 2
    farmer_legal = {}
    while states[0]["decision"] == DEC_CHOOSE_ACTION and states[0]["lap"] == 0:
        farmer_legal[int(states[0]["current"])] = FARMER in boxes_legal(states)
        play(states, A_PASS)
    assert farmer_legal == {0: False, 1: False, 2: True}  # seats 0 and 1 have used theirs
