"""Rule tests of the turn start and pre-roll actions (spec §6), through the public kernels."""

from __future__ import annotations

from wildwest_envs.wild_west_express.data import (A_BUY_GOOD, A_BUY_SMALL_TRAIN, A_BUY_STATION, A_END,
                                                  A_LOAD_PASSENGERS, A_SPACE, A_UPGRADE_TRAIN, CARGO_EMPTY,
                                                  DEC_PRE_ROLL, PASSENGER_BASE)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play, position, roll

OMAHA, DENVER, SEATTLE = 22, 12, 0
WEAPONS, FOOD, GOLD = 0, 6, 1


def _turn_of_seat0(cash: int = 450, **terms):
    """Seat 0's PRE_ROLL of a 3-player game on an empty board; every seat has ``cash``."""
    return position(3, board="empty", turn=0, cash=cash, **terms)


def test_s6_3_buy_good_in_a_city_that_sells_it():
    """§6.3 BUY_GOOD: own train in a selling city with an empty slot and the cash; token to the lowest empty slot."""
    states = _turn_of_seat0(cash=100, trains={0: [Train(OMAHA)]})
    legal = legal_actions(states)
    assert A_BUY_GOOD + 9 * 0 + WEAPONS in legal and A_BUY_GOOD + FOOD in legal
    assert A_BUY_GOOD + GOLD not in legal  # Omaha does not sell gold
    play(states, A_BUY_GOOD + WEAPONS)
    s = states[0]
    assert s["cash"][0] == 10 and list(s["train_cargo"][0, 0]) == [WEAPONS, CARGO_EMPTY]
    assert A_BUY_GOOD + FOOD not in legal_actions(states)  # the small train is full


def test_s6_3_buy_good_needs_the_price():
    """§6.3: cash >= the purchase price."""
    states = _turn_of_seat0(cash=89, trains={0: [Train(OMAHA)]})
    legal = legal_actions(states)
    assert A_BUY_GOOD + WEAPONS not in legal and A_BUY_GOOD + FOOD in legal


def test_s6_3_load_passengers_records_the_pickup_zone():
    """§6.3, §4.4: free, any city, the token records the city's zone."""
    states = _turn_of_seat0(cash=0, trains={0: [Train(DENVER)]})
    play(states, A_LOAD_PASSENGERS + 0)
    assert states[0]["train_cargo"][0, 0, 0] == PASSENGER_BASE + 1 and states[0]["cash"][0] == 0


def test_s6_3_buy_station_needs_an_own_train_there_and_claims_land_boom():
    """§6.3 BUY_STATION, §13.4 Land Boom: $400, an own train in the unowned city; the competition pays $200."""
    states = _turn_of_seat0(cash=450, trains={0: [Train(DENVER, cargo=[GOLD])]}, competitions={0: 46})  # Land Boom
    assert A_BUY_STATION + OMAHA not in legal_actions(states)
    play(states, A_BUY_STATION + DENVER)
    s = states[0]
    assert s["city_owner"][DENVER] == 0 and s["cash"][0] == 450 - 400 + 200
    assert s["comp_card"][0] == -1 and s["deck"][s["deck_size"] - 1] == 46


def test_s6_3_buy_small_train_in_own_station():
    """§6.3 BUY_SMALL_TRAIN: own station, $500; an empty train with free direction in the lowest free slot."""
    states = _turn_of_seat0(cash=500, owners={SEATTLE: 0}, trains={0: [Train(DENVER, cargo=[GOLD])]})
    assert A_BUY_SMALL_TRAIN + DENVER not in legal_actions(states)  # not an own station
    play(states, A_BUY_SMALL_TRAIN + SEATTLE)
    s = states[0]
    assert s["train_exists"][0, 1] and s["train_pos"][0, 1] == SEATTLE and s["train_from"][0, 1] == -1
    assert list(s["train_cargo"][0, 1]) == [CARGO_EMPTY, CARGO_EMPTY] and s["cash"][0] == 0


def test_s6_3_upgrade_keeps_the_train_and_claims_railroad_exposition():
    """§6.3 UPGRADE_TRAIN: own small train in an own station, $600; it keeps slot and cargo (§13.4 Expo $200)."""
    states = _turn_of_seat0(cash=600, owners={DENVER: 0}, trains={0: [Train(DENVER, cargo=[GOLD])]},
                            competitions={1: 50})  # Railroad Exposition
    play(states, A_UPGRADE_TRAIN + 0)
    s = states[0]
    assert s["train_large"][0, 0] and list(s["train_cargo"][0, 0]) == [GOLD, CARGO_EMPTY]
    assert s["cash"][0] == 200 and s["comp_card"][1] == -1


def test_s6_3_dynamite_group_at_most_three_including_merges():
    """§6.3, §11.1: no city, no doubles, connected group <= 3 after placement (merging groups counts)."""
    states = _turn_of_seat0(cash=450, trains={0: [Train(DENVER, cargo=[GOLD])]})
    legal = legal_actions(states)
    assert A_SPACE + SEATTLE not in legal and A_SPACE + 31 in legal
    play(states, A_SPACE + 31)
    play(states, A_SPACE + 33)
    play(states, A_SPACE + 34)
    s = states[0]
    assert s["dynamite"][31] and s["dynamite"][33] and s["dynamite"][34] and s["dynamite_supply"] == 15
    assert s["cash"][0] == 450 - 60
    states = _turn_of_seat0(cash=450, trains={0: [Train(DENVER, cargo=[GOLD])]}, dynamite=[31, 33, 34])  # a new turn
    legal = legal_actions(states)
    assert A_SPACE + 32 not in legal  # 31-32-33-34 would be a group of 4
    assert A_SPACE + 31 not in legal  # already dynamite


def test_s6_3_at_most_three_dynamite_bought_per_turn():
    """§11.1: at most 3 tokens bought per player per turn."""
    states = _turn_of_seat0(cash=450, trains={0: [Train(DENVER, cargo=[GOLD])]},
                            cards={0: {6: 0}})  # a held personal card keeps PRE_ROLL asked (§17.3)
    for space in (40, 60, 80):
        play(states, A_SPACE + space)
    assert states[0]["decision"] == DEC_PRE_ROLL
    assert not any(a < 314 for a in legal_actions(states))


def test_s17_3_pre_roll_with_only_end_is_skipped():
    """§17.3: with auto_forced, a PRE_ROLL where only END is legal (and no personal card held) rolls at once."""
    states = _turn_of_seat0(cash=450, trains={0: [Train(DENVER, cargo=[GOLD])]})
    for space in (40, 60, 80):
        play(states, A_SPACE + space)
    assert states[0]["decision"] != DEC_PRE_ROLL and states[0]["dice"][0] > 0


def test_s6_4_roll_sorts_dice_and_settles_debts():
    """§6.4: dice sorted a >= b >= c; debts are settled right after the roll (§6.2 step 2)."""
    states = _turn_of_seat0(cash=[0, 100, 0], owners={DENVER: 1}, trains={0: [Train(DENVER, cargo=[GOLD], debt=20)]})
    s = states[0]
    assert s["decision"] == DEC_PRE_ROLL
    place(states, cash={0: 30})  # income arrives before the roll
    roll(states, (2, 6, 4))
    assert list(s["dice"]) == [6, 4, 2]
    assert s["train_debt"][0, 0] == 0 and s["cash"][0] >= 10 and s["cash"][1] == 120


def test_s6_2_dice_are_cleared_at_the_start_of_a_turn():
    """§6.2: the dice read zero until this turn's roll."""
    states = _turn_of_seat0(cash=[0, 100, 0],  # seat 1 can buy dynamite, so its PRE_ROLL is asked
                            trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]})  # heading for Portland
    roll(states, (1, 1, 1))
    assert list(states[0]["train_pos"][0, :1]) == [33]
    s = states[0]
    assert s["active"] == 1 and s["decision"] == DEC_PRE_ROLL and list(s["dice"]) == [0, 0, 0]


def test_s6_3_end_is_always_legal_at_pre_roll():
    """§6.3 / §17.2: END (roll) is always legal."""
    states = _turn_of_seat0(cash=0, trains={0: [Train(DENVER, cargo=[GOLD])]})
    assert A_END in legal_actions(states)
