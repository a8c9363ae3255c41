"""Rule tests of Stealin': positions, the marshal rule, neutral bullets, the six actions, abilities (§5-§7)."""

from __future__ import annotations

from tests.colt_express._helpers import LOCOMOTIVE, purses_at, purses_of, stealin
from wildwest_envs.colt_express.positions import legal_actions, play
from wildwest_envs.colt_express.data import (A_BANDIT, A_CAR, A_JEWEL, A_PURSE, A_STRONGBOX, BELLE,
                                             BULLET_CARD, CHEYENNE, DEC_FIRE_TARGET, DEC_MARSHAL_DEST,
                                             DEC_MOVE_DEST, DEC_PUNCH_DEST, DEC_PUNCH_LOOT, DEC_PUNCH_TARGET,
                                             DEC_ROB_LOOT, DJANGO, DOC, FIRE, FLOOR, GHOST, IN, MARSHAL, MOVE,
                                             PUNCH, ROB, ROOF, TUCO)

PLAIN4 = [GHOST, DOC, CHEYENNE, TUCO]  # bandits 0 and 1 have no Stealin' ability
SIX = [GHOST, DOC, CHEYENNE, TUCO, DJANGO, BELLE]


def _stealin(pile, bandits, n=4, characters=None, auto_forced=False, marshal=0, seed=1, **terms):
    """Stealin' of ``pile`` with the bandits where the test puts them, the marshal in car ``marshal`` and the
    train's loot out of the way (``_helpers.stealin``)."""
    return stealin(n, pile, bandits, seed=seed, characters=characters or (PLAIN4 if n == 4 else SIX[:n]),
                   auto_forced=auto_forced, marshal=marshal, **terms)


def _cars(states) -> list[int]:
    return [a - A_CAR for a in legal_actions(states)]


def _targets(states) -> list[int]:
    """Legal BANDIT actions as bandit ids (3-6 players: egocentric index r -> seat (p + r) mod N)."""
    s = states[0]
    n, p = int(s["num_players"]), int(s["current"])
    return sorted((p + a - A_BANDIT) % n for a in legal_actions(states))


def _shoot(states, bandit):
    s = states[0]
    n, p = int(s["num_players"]), int(s["current"])
    play(states, A_BANDIT + (bandit - p) % n)


# ---- §5.1 never leave the train ---------------------------------------------------------------
def test_s5_1_move_inside_the_locomotive_can_only_go_back():
    """§5.1, §6.1: inside car 0 the only destination is car 1."""
    states = _stealin([(0, MOVE)], {0: (0, IN), 1: (4, ROOF), 2: (4, ROOF), 3: (4, ROOF)}, marshal=3)
    assert states[0]["decision"] == DEC_MOVE_DEST and _cars(states) == [1]


def test_s5_1_roof_move_stays_on_the_train():
    """§5.1, §6.1: a roof move of 1-3 cars never goes beyond car 0 or car C."""
    states = _stealin([(0, MOVE)], {0: (1, ROOF), 1: (4, IN), 2: (4, IN), 3: (4, IN)})
    assert _cars(states) == [0, 2, 3, 4]


def test_s5_1_punch_from_the_last_car_knocks_forward_only():
    """§5.1, §6.5 step 4: from car C the victim can only be knocked to car C-1."""
    states = _stealin([(0, PUNCH)], {0: (4, ROOF), 1: (4, ROOF), 2: (1, IN), 3: (2, IN)},
                      purses={1: LOCOMOTIVE})  # victim holds no loot
    play(states, A_BANDIT + 1)
    assert states[0]["decision"] == DEC_PUNCH_DEST and _cars(states) == [3]


# ---- §5.2 the marshal rule ----------------------------------------------------------------------
def test_s5_2_moving_inside_the_marshals_car_flees_to_the_roof_with_a_neutral_bullet():
    """§5.2 (Move): the bandit ends on the roof of the marshal's car and gets a neutral bullet."""
    states = _stealin([(0, MOVE)], {0: (3, IN), 1: (4, ROOF), 2: (4, ROOF), 3: (4, ROOF)}, marshal=2)
    s = states[0]
    play(states, A_CAR + 2)
    assert (s["bandit_car"][0], s["bandit_level"][0]) == (2, ROOF)
    assert s["bullets_received"][0] == 1 and s["neutral_supply"] == 12


def test_s5_2_floor_change_down_into_the_marshals_car_goes_back_up():
    """§5.2, §6.2: a Floor change down into the marshal's car ends on the roof with a neutral bullet."""
    states = _stealin([(0, FLOOR)], {0: (2, ROOF), 1: (4, IN), 2: (4, IN), 3: (4, IN)}, marshal=2)
    s = states[0]
    assert (s["bandit_car"][0], s["bandit_level"][0]) == (2, ROOF) and s["bullets_received"][0] == 1


def test_s5_2_punched_into_the_marshals_car():
    """§5.2 (Punch): a victim knocked inside the marshal's car flees to its roof with a neutral bullet."""
    states = _stealin([(0, PUNCH)], {0: (3, IN), 1: (3, IN), 2: (4, ROOF), 3: (4, ROOF)}, marshal=2,
                      purses={1: LOCOMOTIVE})
    s = states[0]
    play(states, A_BANDIT + 1)
    play(states, A_CAR + 2)
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (2, ROOF) and s["bullets_received"][1] == 1


def test_s5_2_marshal_entering_a_car_sends_everybody_inside_up_as_one_group():
    """§5.2 (Marshal card), §5.3: all bandits inside flee to the roof; the group gets one neutral bullet each."""
    states = _stealin([(3, MARSHAL)], {0: (2, IN), 1: (2, IN), 2: (2, ROOF), 3: (4, IN)}, marshal=1)
    s = states[0]
    assert s["decision"] == DEC_MARSHAL_DEST and _cars(states) == [0, 2]
    play(states, A_CAR + 2)
    assert s["marshal_car"] == 2
    assert list(s["bandit_level"][:3]) == [ROOF, ROOF, ROOF]
    assert list(s["bullets_received"][:4]) == [1, 1, 0, 0] and s["neutral_supply"] == 11


def test_s5_2_roofs_over_the_marshal_are_not_affected():
    """§5.2: moving along the roofs over the marshal's car, or standing there, has no effect."""
    states = _stealin([(0, MOVE)], {0: (3, ROOF), 1: (2, ROOF), 2: (4, IN), 3: (4, IN)}, marshal=2,
                      auto_forced=True)
    s = states[0]
    play(states, A_CAR + 1)
    assert s["bandit_car"][0] == 1 and s["bullets_received"].sum() == 0 and s["neutral_supply"] == 13


# ---- §5.3 neutral bullets -------------------------------------------------------------------------
def test_s5_3_a_supply_too_small_for_the_group_gives_nothing_and_is_removed():
    """§5.3, G15: supply 1 for a group of 2: nobody gets one, the supply leaves the game; fleeing still happens.

    Tuco has received the 12 other neutral bullets (a supply of 1 is what they leave, §2.5)."""
    states = _stealin([(3, MARSHAL)], {0: (2, IN), 1: (2, IN), 2: (4, ROOF), 3: (4, ROOF)}, marshal=1,
                      bullets_received={3: 12})
    s = states[0]
    assert s["neutral_supply"] == 1
    play(states, A_CAR + 2)
    assert list(s["bandit_level"][:2]) == [ROOF, ROOF]
    assert list(s["bullets_received"][:4]) == [0, 0, 0, 12]  # nobody received one
    assert s["neutral_supply"] == 0 and s["supply_removed"]


def test_s5_3_no_neutral_bullet_after_the_supply_is_removed():
    """§5.3: once removed, the supply never hands out a bullet again (Tuco received the 10 handed out before)."""
    states = _stealin([(0, MOVE)], {0: (3, IN), 1: (4, ROOF), 2: (4, ROOF), 3: (4, ROOF)}, marshal=2,
                      auto_forced=True, bullets_received={3: 10}, supply_removed=True)
    s = states[0]
    play(states, A_CAR + 2)
    assert s["bandit_level"][0] == ROOF and list(s["bullets_received"][:4]) == [0, 0, 0, 10]  # nobody received one


# ---- §6.1 Move, §6.2 Floor change -------------------------------------------------------------------
def test_s6_1_move_inside_goes_one_car_either_way():
    """§6.1: inside, the destinations are the two neighbouring cars."""
    states = _stealin([(0, MOVE)], {0: (2, IN), 1: (4, ROOF), 2: (4, ROOF), 3: (4, ROOF)})
    assert _cars(states) == [1, 3]
    play(states, A_CAR + 3)
    assert (states[0]["bandit_car"][0], states[0]["bandit_level"][0]) == (3, IN)


def test_s6_1_roof_move_goes_one_to_three_cars():
    """§6.1: on a roof, 1, 2 or 3 cars in one direction; passing bandits are not affected."""
    states = _stealin([(0, MOVE)], {0: (3, ROOF), **{b: (6, IN) for b in range(1, 6)}}, n=6)
    assert _cars(states) == [0, 1, 2, 4, 5, 6]


def test_s6_2_floor_change_switches_level():
    """§6.2: inside -> roof of the same car, roof -> inside; no decision."""
    states = _stealin([(0, FLOOR), (1, FLOOR), (2, MOVE)], {0: (3, IN), 1: (2, ROOF), 2: (4, ROOF), 3: (4, ROOF)})
    s = states[0]
    assert s["decision"] == DEC_MOVE_DEST and s["resolving"] == 2
    assert (s["bandit_car"][0], s["bandit_level"][0]) == (3, ROOF)
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (2, IN)


# ---- §6.3 Fire ------------------------------------------------------------------------------------------
def test_s6_3_fire_inside_hits_only_the_neighbouring_insides():
    """§6.3 step 1: from inside, bandits inside cars c-1 and c+1 only (not the same car, roofs or farther)."""
    states = _stealin([(0, FIRE)], {0: (3, IN), 1: (2, IN), 2: (4, IN), 3: (3, IN), 4: (5, IN), 5: (4, ROOF)}, n=6)
    assert states[0]["decision"] == DEC_FIRE_TARGET and _targets(states) == [1, 2]


def test_s6_3_fire_roof_line_of_sight_blocked_by_first_occupied_roof():
    """§6.3 step 1, G9: each way, the nearest occupied roof gives all its bandits and blocks the rest."""
    states = _stealin([(0, FIRE)], {0: (3, ROOF), 1: (1, ROOF), 2: (1, ROOF),
                                    3: (0, ROOF),  # hidden behind roof 1
                                    4: (6, ROOF),
                                    5: (4, IN)},  # inside: neither blocks nor can be hit
                      n=6, characters=[GHOST, DOC, CHEYENNE, DJANGO, TUCO, BELLE])
    assert _targets(states) == [1, 2, 4]


def test_s6_3_fire_bandits_on_the_own_roof_neither_block_nor_are_targets():
    """§6.3 step 1, G9: bandits at the shooter's location are never candidates and do not block."""
    states = _stealin([(0, FIRE)], {0: (2, ROOF), 1: (2, ROOF), 2: (4, ROOF), 3: (1, IN)})
    assert _targets(states) == [2]


def test_s6_3_fire_gives_the_top_bullet_card_to_the_target():
    """§6.3 step 4, §6.7: the shooter's stack shrinks, the target's count grows, the card goes to its deck."""
    states = _stealin([(0, FIRE), (0, FIRE)], {0: (2, ROOF), 1: (3, ROOF), 2: (1, IN), 3: (1, IN)},
                      auto_forced=True)
    s = states[0]
    assert s["bullets_left"][0] == 4 and s["bullets_received"][1] == 2


def test_s6_3_fire_without_bullets_or_target_has_no_effect():
    """§6.3 step 3, §11.4: no bullet card left (or nobody to hit): nothing happens, nobody is asked.

    Ghost's six shots went to Tuco earlier (every shot is received, §6.3)."""
    states = _stealin([(0, FIRE), (2, FIRE)], {0: (2, ROOF), 1: (3, ROOF), 2: (2, IN), 3: (4, IN)},
                      bullets_left={0: 0}, bullets_received={3: 6})
    s = states[0]
    assert list(s["bullets_received"][:4]) == [0, 0, 0, 6] and s["round"] == 1  # nobody received one


def test_s7_tuco_fires_through_the_roof():
    """§6.3 step 1, §7 Tuco: Tuco also hits bandits at the other level of his own car."""
    states = _stealin([(0, FIRE)], {0: (2, IN), 1: (2, ROOF),
                                    2: (2, IN),  # his own location: never a candidate
                                    3: (3, IN)}, characters=[TUCO, GHOST, DOC, CHEYENNE])
    assert _targets(states) == [1, 3]


def test_s7_belle_is_filtered_when_another_target_remains():
    """§6.3 step 2, §7 Belle: Belle leaves the candidates while another remains; alone she can be hit."""
    states = _stealin([(0, FIRE)], {0: (2, IN), 1: (1, IN), 2: (3, IN), 3: (4, ROOF)},
                      characters=[GHOST, BELLE, DOC, CHEYENNE])
    assert _targets(states) == [2]
    states = _stealin([(0, FIRE)], {0: (2, IN), 1: (1, IN), 2: (4, IN), 3: (4, ROOF)},
                      characters=[GHOST, BELLE, DOC, CHEYENNE])
    assert _targets(states) == [1]


def test_s6_3_belle_filter_still_blocks_line_of_sight_g10():
    """§6.3 step 2, G10: Belle alone on the nearest roof hides the roofs behind her and is then the target."""
    states = _stealin([(0, FIRE)], {0: (1, ROOF), 1: (2, ROOF), 2: (3, ROOF), 3: (4, IN)},
                      characters=[GHOST, BELLE, DOC, CHEYENNE])
    assert _targets(states) == [1]


def test_s7_django_pushes_a_victim_behind_him_towards_the_rear():
    """§6.3 step 5, §7 Django, G11: the victim moves one car further away, same level."""
    states = _stealin([(0, FIRE)], {0: (1, ROOF), 1: (3, ROOF), 2: (1, IN), 3: (1, IN)},
                      characters=[DJANGO, GHOST, DOC, CHEYENNE], auto_forced=True)
    s = states[0]
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (4, ROOF) and s["bullets_received"][1] == 1


def test_s7_django_pushes_a_victim_in_front_of_him_towards_the_locomotive():
    """§6.3 step 5, G11: a victim in front of Django is pushed forward."""
    states = _stealin([(0, FIRE)], {0: (3, IN), 1: (2, IN), 2: (3, ROOF), 3: (3, ROOF)},
                      characters=[DJANGO, GHOST, DOC, CHEYENNE], auto_forced=True, marshal=4)
    s = states[0]
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (1, IN)


def test_s7_django_push_never_leaves_the_train():
    """§5.1, §6.3 step 5: a victim at the end of the train stays where he is (he is still hit)."""
    states = _stealin([(0, FIRE)], {0: (2, ROOF), 1: (4, ROOF), 2: (2, IN), 3: (2, IN)},
                      characters=[DJANGO, GHOST, DOC, CHEYENNE], auto_forced=True)
    s = states[0]
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (4, ROOF) and s["bullets_received"][1] == 1


def test_s7_django_push_into_the_marshals_car_triggers_the_marshal_rule():
    """§5.2, §6.3 step 5: pushed inside the marshal's car, the victim flees to its roof with a neutral bullet."""
    states = _stealin([(0, FIRE)], {0: (2, IN), 1: (3, IN), 2: (1, ROOF), 3: (1, ROOF)},
                      characters=[DJANGO, GHOST, DOC, CHEYENNE], auto_forced=True, marshal=4)
    s = states[0]
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (4, ROOF)
    assert s["bullets_received"][1] == 2 and s["neutral_supply"] == 12


def test_s6_3_two_players_teammate_is_a_legal_target():
    """§3.3 step 10, G24: with 2 players the teammate can be shot; egocentric indices 0-1 own, 2-3 others."""
    states = _stealin([(0, FIRE)], {0: (2, IN), 1: (3, IN), 2: (1, IN), 3: (4, ROOF)}, n=2,
                      characters=[GHOST, DOC, CHEYENNE, TUCO])
    s = states[0]
    assert s["decision"] == DEC_FIRE_TARGET and s["current"] == 0
    assert legal_actions(states) == [A_BANDIT + 1, A_BANDIT + 2]
    play(states, A_BANDIT + 1)
    assert s["bullets_received"][1] == 1 and s["bullets_left"][0] == 5


def test_s6_3_two_players_card_acts_for_the_bandit_of_its_colour():
    """§3.3 step 5, §11.1: card code 6 + kind is the slot-1 bandit's card."""
    states = _stealin([(1, 6 + MOVE)], {0: (4, ROOF), 1: (2, IN), 2: (4, ROOF), 3: (4, ROOF)}, n=2,
                      characters=[GHOST, DOC, CHEYENNE, TUCO])
    s = states[0]
    assert s["decision"] == DEC_MOVE_DEST and s["current"] == 1 and s["acting_bandit"] == 3
    assert _cars(states) == [1, 2, 3]


# ---- §6.4 Rob ----------------------------------------------------------------------------------------------
def test_s6_4_rob_takes_a_token_at_the_bandits_location_only():
    """§6.4, §10.3: the options are the loot at (c, l); a purse robbed becomes known to the robber."""
    states = _stealin([(0, ROB)], {0: (2, IN), 1: (4, ROOF), 2: (4, ROOF), 3: (4, ROOF)},
                      purses={7: (2, IN), 9: (2, IN),
                              10: (2, ROOF)},  # other level: not for the taking
                      jewels={(2, IN): 1}, strongboxes={(2, ROOF): 1})
    s = states[0]
    assert s["decision"] == DEC_ROB_LOOT
    assert legal_actions(states) == [A_PURSE + 7, A_PURSE + 9, A_JEWEL]
    play(states, A_PURSE + 9)
    assert purses_of(states, 0) == [0, 9] and (int(s["purse_known"][0]) >> 9) & 1
    assert not (int(s["purse_known"][1]) >> 9) & 1


def test_s6_4_rob_jewel_and_strongbox():
    """§6.4: a jewel or a strongbox goes onto the robber's card."""
    states = _stealin([(0, ROB)], {0: (2, ROOF), 1: (4, IN), 2: (4, IN), 3: (4, IN)}, auto_forced=True,
                      strongboxes={(2, ROOF): 1})
    s = states[0]
    assert s["strongboxes_held"][0] == 1 and s["floor_strongboxes"][2 * 2 + ROOF] == 0


# ---- §6.5 Punch --------------------------------------------------------------------------------------------
def test_s6_5_punch_targets_bandits_at_the_same_location_with_belle_filtered():
    """§6.5 step 1: the other bandits at (c, l), Belle removed when another remains."""
    states = _stealin([(0, PUNCH)], {0: (2, IN), 1: (2, IN), 2: (2, IN), 3: (2, ROOF)},
                      characters=[GHOST, BELLE, DOC, CHEYENNE])
    assert states[0]["decision"] == DEC_PUNCH_TARGET and _targets(states) == [2]


def test_s6_5_punch_loot_falls_at_the_punch_location_on_a_roof_too():
    """§6.5 step 3, G29: the victim loses the chosen token, which lands at the punch location (roof included)."""
    states = _stealin([(0, PUNCH)], {0: (2, ROOF), 1: (2, ROOF), 2: (4, IN), 3: (4, IN)}, jewels={1: 1})
    s = states[0]
    play(states, A_BANDIT + 1)
    assert s["decision"] == DEC_PUNCH_LOOT and s["victim"] == 1
    assert legal_actions(states) == [A_PURSE + 1, A_JEWEL]
    play(states, A_PURSE + 1)
    assert purses_at(states, 2, ROOF) == [1]
    assert not (int(s["purse_known"][0]) >> 14) & 1
    assert s["decision"] == DEC_PUNCH_DEST and _cars(states) == [1, 3]
    play(states, A_CAR + 3)
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (3, ROOF)


def test_s7_cheyenne_keeps_the_purse_her_punch_knocks_loose():
    """§6.5 step 3, §7 Cheyenne: a purse goes onto her card (she learns its value); a jewel falls.

    She has one Punch card a round (§2.4): her second punch is the next round's, with the train as the first
    left it (Ghost knocked to car 3)."""
    cheyenne_first = [CHEYENNE, GHOST, DOC, TUCO]
    states = _stealin([(0, PUNCH)], {0: (2, IN), 1: (2, IN), 2: (2, IN), 3: (4, ROOF)}, characters=cheyenne_first,
                      purses={12: 1}, jewels={2: 1})
    s = states[0]
    play(states, A_BANDIT + 1)
    play(states, A_PURSE + 12)
    assert purses_of(states, 0) == [0, 12] and (int(s["purse_known"][0]) >> 12) & 1
    play(states, A_CAR + 3)
    assert (s["bandit_car"][1], s["bandit_level"][1]) == (3, IN)
    states = _stealin([(0, PUNCH)], {0: (2, IN), 1: (3, IN), 2: (2, IN), 3: (4, ROOF)}, characters=cheyenne_first,
                      purses={12: 0}, jewels={2: 1})
    s = states[0]
    assert _targets(states) == [2]
    play(states, A_BANDIT + 2)
    play(states, A_JEWEL)
    assert s["floor_jewels"][2 * 2 + IN] == 1 and s["jewels_held"][0] == 0 and s["jewels_held"][2] == 0


def test_s6_5_punch_victim_without_loot_is_only_knocked_away():
    """§6.5 step 3, §11.4: no loot: the loot step is skipped, the victim is still knocked back."""
    states = _stealin([(0, PUNCH)], {0: (2, IN), 1: (2, IN), 2: (4, ROOF), 3: (4, ROOF)}, purses={1: LOCOMOTIVE})
    s = states[0]
    play(states, A_BANDIT + 1)
    assert s["decision"] == DEC_PUNCH_DEST and s["victim"] == 1


def test_s6_5_punch_strongbox_choice():
    """§6.5 step 3, §11.3 PUNCH_LOOT: purse tokens of the victim, JEWEL and STRONGBOX when held."""
    states = _stealin([(0, PUNCH)], {0: (3, IN), 1: (3, IN), 2: (4, ROOF), 3: (4, ROOF)}, strongboxes={1: 1})
    s = states[0]
    play(states, A_BANDIT + 1)
    assert legal_actions(states) == [A_PURSE + 1, A_STRONGBOX]
    play(states, A_STRONGBOX)
    assert s["floor_strongboxes"][3 * 2 + IN] == 1 and s["strongboxes_held"][1] == 0


# ---- §6.6 Marshal, §6.7 received bullets ----------------------------------------------------------------
def test_s6_6_marshal_moves_one_car_and_must_move():
    """§6.6: the marshal goes to m-1 or m+1, whichever exists; from car 0 only to car 1."""
    states = _stealin([(2, MARSHAL)], {b: (4, ROOF) for b in range(4)}, auto_forced=True)
    assert states[0]["marshal_car"] == 1


def test_s6_7_expert_received_bullet_goes_on_top_and_is_publicly_known():
    """§6.7, G34: expert: on top of the draw deck; the count of known bullet cards on top grows."""
    states = _stealin([(0, FIRE), (2, MOVE)], {0: (2, ROOF), 1: (3, ROOF), 2: (1, IN), 3: (1, IN)}, expert=True)
    s = states[0]
    assert s["known_bullets_on_top"][1] == 0
    play(states, A_BANDIT + 1)
    assert s["decision"] == DEC_MOVE_DEST
    top = int(s["deck_size"][1]) - 1
    assert s["deck"][1, top] == BULLET_CARD and s["known_bullets_on_top"][1] == 1


def test_s6_7_standard_received_bullet_goes_into_the_deck_unknown_position():
    """§6.7, G34: standard rules: the card is in the player's cards; the known count stays 0."""
    states = _stealin([(0, FIRE)], {0: (2, ROOF), 1: (3, ROOF), 2: (1, IN), 3: (1, IN)}, auto_forced=True)
    s = states[0]
    assert s["known_bullets_on_top"].sum() == 0
    assert s["hand"][1, BULLET_CARD] + list(s["deck"][1, :s["deck_size"][1]]).count(BULLET_CARD) == 1
