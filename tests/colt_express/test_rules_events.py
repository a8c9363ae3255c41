"""Rule tests of the end-of-round events (spec §8)."""

from __future__ import annotations

from tests.colt_express._helpers import LOCOMOTIVE, purses_at, purses_of, stealin
from wildwest_envs.colt_express.data import (A_PURSE, CHEYENNE, DEC_PICKPOCKET, DOC, GHOST, IN, PURSE_REMOVED,
                                             ROOF, TUCO, DJANGO, BELLE)
from wildwest_envs.colt_express.positions import legal_actions, play, position

ANGRY_MARSHAL, SWIVEL_ARM, BRAKING, TAKE_IT_ALL, REBELLION = 0, 1, 2, 3, 4
PICKPOCKETING, MARSHALS_REVENGE, HOSTAGE = 14, 15, 16
PLAIN4 = [GHOST, DOC, CHEYENNE, TUCO]


def _event(card, bandits, n=4, marshal=0, auto_forced=True, characters=None, **terms):
    """The end of a round's Schemin' with nobody's card on the pile, so that the event of ``card`` follows; a
    station card is the fifth round's (§3.1 step 8). The train's loot is out of the way (``_helpers.stealin``)."""
    return stealin(n, [], bandits, round_card=card, round=4 if card >= PICKPOCKETING else 0, seed=3,
                   characters=characters or PLAIN4[:n], auto_forced=auto_forced, marshal=marshal, **terms)


def test_s8_1_angry_marshal_shoots_his_roof_then_steps_back():
    """§8.1, G16: bandits on the marshal's roof get neutral bullets; he moves one car back; the new car's
    insiders flee to the roof and get neutral bullets as a new group."""
    states = _event(ANGRY_MARSHAL, {0: (2, ROOF), 1: (2, ROOF), 2: (3, IN), 3: (1, ROOF)}, marshal=2)
    s = states[0]
    assert s["marshal_car"] == 3
    assert list(s["bullets_received"][:4]) == [1, 1, 1, 0]
    assert (s["bandit_car"][2], s["bandit_level"][2]) == (3, ROOF)
    assert s["neutral_supply"] == 10


def test_s8_1_angry_marshal_stays_in_the_last_car():
    """§8.1: the marshal does not move if he is already in the last car."""
    states = _event(ANGRY_MARSHAL, {b: (1, ROOF) for b in range(4)}, marshal=4)
    assert states[0]["marshal_car"] == 4 and states[0]["bullets_received"].sum() == 0


def test_s5_3_angry_marshal_empty_group_neither_uses_nor_removes_the_supply():
    """§5.3, G15: nobody on the marshal's roof is not a shortage, even with an empty supply (Ghost has received
    the 13 neutral bullets)."""
    states = _event(ANGRY_MARSHAL, {b: (3, ROOF) for b in range(4)}, marshal=1, bullets_received={0: 13})
    s = states[0]
    assert not s["supply_removed"] and s["marshal_car"] == 2


def test_s8_2_swivel_arm_sweeps_every_roof_to_the_last_car():
    """§8.2: every bandit on a roof goes to (C, ROOF); insiders stay."""
    states = _event(SWIVEL_ARM, {0: (0, ROOF), 1: (2, ROOF), 2: (2, IN), 3: (4, ROOF)}, marshal=0)
    s = states[0]
    assert list(s["bandit_car"][:4]) == [4, 4, 2, 4]
    assert list(s["bandit_level"][:4]) == [ROOF, ROOF, IN, ROOF]


def test_s8_3_braking_moves_roofs_one_car_forward():
    """§8.3: every roof bandit at car >= 1 moves one car forward; the locomotive roof stays."""
    states = _event(BRAKING, {0: (0, ROOF), 1: (1, ROOF), 2: (3, IN), 3: (3, ROOF)}, marshal=4)
    s = states[0]
    assert list(s["bandit_car"][:4]) == [0, 0, 3, 2]


def test_s8_4_take_it_all_puts_the_second_strongbox_in_the_marshals_car():
    """§8.4: the second strongbox is placed inside the marshal's car."""
    states = _event(TAKE_IT_ALL, {b: (4, ROOF) for b in range(4)}, marshal=2)
    s = states[0]
    assert s["floor_strongboxes"][2 * 2 + IN] == 1 and s["second_strongbox_placed"]


def test_s8_5_passengers_rebellion_hits_everybody_inside_as_one_group():
    """§8.5, §5.3: every bandit inside any car (locomotive included) gets a neutral bullet, as one group.

    With a supply of 2 (Cheyenne has received the 11 others) the group of 3 gets none and the supply is removed."""
    inside3 = {0: (0, IN), 1: (2, IN), 2: (2, ROOF), 3: (3, IN)}
    states = _event(REBELLION, inside3, marshal=4)
    s = states[0]
    assert list(s["bullets_received"][:4]) == [1, 1, 0, 1] and s["neutral_supply"] == 10
    states = _event(REBELLION, inside3, marshal=4, bullets_received={2: 11})
    s = states[0]
    assert list(s["bullets_received"][:4]) == [0, 0, 11, 0] and s["supply_removed"]  # nobody received one


def test_s8_6_pickpocketing_lone_bandits_take_a_purse_at_their_location():
    """§8.6, G17: alone at his car and level, with purses at that location: he takes one of them."""
    states = _event(PICKPOCKETING, {0: (1, IN),  # alone inside car 1, purses 10 and 11 there
                                    1: (1, ROOF),  # alone on roof 1, a purse inside below him does not count
                                    2: (3, IN), 3: (3, IN)},  # not alone
                    auto_forced=False, marshal=4, purses={10: (1, IN), 11: (1, IN), 12: (3, IN)})
    s = states[0]
    assert s["decision"] == DEC_PICKPOCKET and s["acting_bandit"] == 0 and s["current"] == 0
    assert legal_actions(states) == [A_PURSE + 10, A_PURSE + 11]
    play(states, A_PURSE + 11)
    assert s["done"]
    assert purses_of(states, 0) == [0, 11] and (int(s["purse_known"][0]) >> 11) & 1
    assert purses_at(states, 3) == [12] and purses_of(states, 1) == [1]


def test_s8_6_pickpocketing_order_clockwise_from_first_player_slot_0_first():
    """§8.6, G17: decisions go clockwise by seat from the first player; with 2 players slot 0 before slot 1."""
    states = _event(PICKPOCKETING, {b: (b + 1, ROOF) for b in range(4)}, n=2, auto_forced=False, marshal=4,
                    characters=[GHOST, DOC, CHEYENNE, TUCO], first_player=1,
                    purses={i: (i // 2 - 2, ROOF) for i in range(6, 14)})  # purses 6 + 2b, 7 + 2b by bandit b
    s = states[0]
    order = []
    while s["decision"] == DEC_PICKPOCKET:
        order.append((int(s["current"]), int(s["acting_bandit"])))
        play(states, legal_actions(states)[0])
    assert order == [(1, 2), (1, 3), (0, 0), (0, 1)]


def test_s8_6_pickpocketing_single_purse_is_taken_automatically():
    """§8.6, §11.4: with one purse and auto-resolution the purse is taken without a decision."""
    states = _event(PICKPOCKETING, {0: (1, IN), 1: (2, ROOF), 2: (2, ROOF), 3: (2, ROOF)}, auto_forced=True,
                    marshal=4, purses={10: (1, IN)})
    s = states[0]
    assert s["done"] and purses_of(states, 0) == [0, 10]


def test_s8_7_marshals_revenge_takes_the_least_valuable_purse_lowest_id_on_ties():
    """§8.7, G18: each bandit on the marshal's roof loses his least valuable purse (lowest id among equals)."""
    states = _event(MARSHALS_REVENGE, {0: (2, ROOF), 1: (2, ROOF), 2: (3, ROOF), 3: (3, ROOF)}, marshal=2,
                    purses={9: 0, 10: 0, 1: LOCOMOTIVE}, purse_values={9: 250, 10: 300},
                    jewels={1: 1})  # bandit 1 holds only a jewel: loses nothing
    s = states[0]
    assert s["done"]
    assert s["purse_location"][0] == PURSE_REMOVED  # $250 id 0 before $250 id 9
    assert purses_of(states, 0) == [9, 10] and s["jewels_held"][1] == 1
    assert purses_of(states, 2) == [2] and purses_of(states, 3) == [3]


def test_s8_8_hostage_of_the_conductor_pays_a_ransom_in_or_on_the_locomotive():
    """§8.8: every bandit at (0, IN) or (0, ROOF) gains $250."""
    states = _event(HOSTAGE, {0: (0, IN), 1: (0, ROOF), 2: (1, IN), 3: (4, ROOF)}, marshal=3)
    s = states[0]
    assert s["done"] and list(s["ransoms"][:4]) == [1, 1, 0, 0]


def test_s8_events_in_five_and_six_player_cards():
    """§2.6, §8: the 5-6 player Braking card (id 9) applies the same event."""
    states = position(5, seed=2, characters=[GHOST, DOC, CHEYENNE, TUCO, DJANGO], decision="stealin",
                      round_card=9, marshal=5, bandits={b: (b + 1, ROOF) for b in range(5)})
    s = states[0]
    assert list(s["bandit_car"][:5]) == [0, 1, 2, 3, 4]
    assert BELLE not in s["character"][:5]
