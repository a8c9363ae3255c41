"""Rule tests of the telegram cards: personal cards, public cards and competitions (spec §13, §7.5, §11.2).

Each test sets a position up (``positions``), plays through the public
kernels and checks the outcome. Draws are controlled by stacking the deck,
dice by the scripted-chance queue.
"""

from __future__ import annotations

from tests.wild_west_express._helpers import deck_bottom, seat0_turn
from wildwest_envs.wild_west_express.data import (A_END, A_HOLD, A_PLAY_CARD, A_SHERIFF, A_SPACE, A_TRAIN,
                                                  A_UNLOAD_SLOT, CARGO_EMPTY, DEC_ARRIVAL, DEC_CARD_CITY,
                                                  DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE,
                                                  DEC_CARD_HIDEOUT_CITY, DEC_CARD_TRAIN, DEC_PRE_ROLL,
                                                  DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN,
                                                  DEC_TRAIN_STEP, PASSENGER_BASE)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play, roll

SEATTLE, PORTLAND, SACRAMENTO, SAN_FRANCISCO, SALT_LAKE_CITY, HELENA, DENVER, KANSAS_CITY = 0, 1, 2, 3, 9, 10, 12, 23
WEAPONS, GOLD, SILVER = 0, 1, 4
# card ids (§13.5)
FULL_STEAM, EXPRESS, BACKTRACK, CRATE, ARMED_GUARDS, FRIEND, TRACK_CREW, LAND_GRANT, HIDEOUT = 0, 3, 5, 10, 12, 15, \
    17, 19, 20
BLIZZARD, MAIL_CONTRACT, TAX, ARMY_ENGINEERS, ROUND_UP, QUARANTINE = 22, 24, 26, 27, 29, 33
GOLD_TO_KANSAS_CITY, SILVER_TO_PORTLAND, GRAND_EXCURSION, LAND_BOOM, MAIL_RACE_SLC, MAIL_RACE_EL_PASO = 34, 35, 44, \
    46, 48, 49
ON_TRACK = Train(31, came_from=0, cargo=[GOLD])  # seat 0's usual train: on the track out of Seattle, with Gold
TO_THE_T = Train(35, came_from=0, cargo=[GOLD])  # a roll of 1, 1, 1 lands it on the T at 37


# ---- extra moves (§13.5 Full Steam Ahead / Express Schedule / Backtrack, §7.5, §13.3) ------------------------------
def test_s13_5_extra_move_from_pre_roll_runs_at_once_then_the_dice_move():
    """§13.5: played at PRE_ROLL the move runs at once, play returns to PRE_ROLL; the dice move still follows."""
    states = seat0_turn(trains={0: [ON_TRACK]}, cards={0: {FULL_STEAM: 0}})
    play(states, A_PLAY_CARD + FULL_STEAM)
    s = states[0]
    assert s["decision"] == DEC_PRE_ROLL and s["train_pos"][0, 0] == 34 and s["train_from"][0, 0] == 33
    assert s["train_moved"][0, 0] == 0 and s["extra_moves"] == 1  # an extra move never sets the moved mark (§7.1)
    assert deck_bottom(states, 1) == [FULL_STEAM] and s["card_holder"][FULL_STEAM] == -1
    roll(states, (1, 1, 1))  # dice move 2: Portland (cannot stop with gold), then a branch
    assert s["decision"] == DEC_TRAIN_STEP and s["train_pos"][0, 0] == PORTLAND
    assert legal_actions(states) == [A_SPACE + 53, A_SPACE + 61]


def test_s13_5_extra_move_needs_no_wait_and_no_debt():
    """§13.5: an extra-move card is playable only if the bound train has wait = 0 and debt = 0."""
    states = seat0_turn(trains={0: [ON_TRACK]}, cards={0: {FULL_STEAM: 0}})
    assert A_PLAY_CARD + FULL_STEAM in legal_actions(states)
    place(states, trains={0: {0: Train(31, came_from=SEATTLE, cargo=[GOLD], wait=1)}})
    assert A_PLAY_CARD + FULL_STEAM not in legal_actions(states)
    states = seat0_turn(owners={PORTLAND: 1}, trains={0: [Train(PORTLAND, cargo=[GOLD])]}, cards={0: {FULL_STEAM: 0}})
    assert A_PLAY_CARD + FULL_STEAM in legal_actions(states)
    place(states, trains={0: {0: Train(PORTLAND, cargo=[GOLD], debt=True)}})  # owed to seat 1 (§8.3)
    assert A_PLAY_CARD + FULL_STEAM not in legal_actions(states)


def test_s13_5_backtrack_first_step_goes_back_to_came_from():
    """§13.5 Backtrack: the first step must go back to came_from, then the normal rules apply."""
    states = seat0_turn(trains={0: [Train(38, came_from=37, cargo=[GOLD])]}, cards={0: {BACKTRACK: 0}})
    play(states, A_PLAY_CARD + BACKTRACK)  # 37 (passing the T draws nothing), 36, 35: all forced
    s = states[0]
    assert s["train_pos"][0, 0] == 35 and s["train_from"][0, 0] == 36 and s["decision"] == DEC_PRE_ROLL
    assert s["drawn_card"] == -1 and deck_bottom(states, 1) == [BACKTRACK]


def test_s13_5_backtrack_with_free_direction_may_go_anywhere():
    """§13.5 Backtrack: with free direction (in a city) the first step may take any route; no HOLD, no STOP."""
    states = seat0_turn(trains={0: [Train(SEATTLE, cargo=[GOLD])]}, cards={0: {BACKTRACK: 0}})
    play(states, A_PLAY_CARD + BACKTRACK)
    assert states[0]["decision"] == DEC_TRAIN_STEP and legal_actions(states) == [A_SPACE + 31, A_SPACE + 35]


def test_s7_1_explosion_in_a_pre_roll_extra_move_costs_this_turns_dice_move():
    """§7.1 moved mark, §11.2: a train exploding during a pre-roll extra move sits out this turn's dice move."""
    states = seat0_turn(trains={0: [ON_TRACK]}, dynamite=[34], cards={0: {FULL_STEAM: 0}})
    s = states[0]
    play(states, A_PLAY_CARD + FULL_STEAM)
    assert s["train_pos"][0, 0] == 34 and s["train_wait"][0, 0] == 1 and s["dynamite_supply"] == 18
    roll(states, (6, 6, 6))
    assert s["active"] == 1 and s["train_pos"][0, 0] == 34 and s["train_wait"][0, 0] == 0


def test_s13_3_extra_moves_played_when_drawn_are_queued_and_chain():
    """§13.3, §7.5: a move card played at TELEGRAM_DRAWN moves after the landing; a chain plays the next card
    only after the first went to the bottom; the second follows when its own landing is over."""
    states = seat0_turn(trains={0: [Train(45, came_from=46, cargo=[GOLD]),  # westbound on route 2, T at 43 and 49
                                    Train(SEATTLE)]},
                        deck_top=[EXPRESS, FULL_STEAM + 1])
    s = states[0]
    roll(states, (1, 1, 1))
    play(states, A_TRAIN + 0)  # 44, 43 (T): Express Schedule drawn
    assert s["decision"] == DEC_TELEGRAM_DRAWN and s["drawn_card"] == EXPRESS
    play(states, A_PLAY_CARD + EXPRESS)  # queued 6: 42, 41, junction 26 (a choice)
    assert s["decision"] == DEC_TRAIN_STEP and s["train_pos"][0, 0] == 26 and s["move_card"] == EXPRESS
    assert EXPRESS not in [int(k) for k in s["deck"][:s["deck_size"]]]  # in play: neither held nor in the deck
    play(states, A_SPACE + 47)  # 47, 48, 49 (T): the second card
    assert s["decision"] == DEC_TELEGRAM_DRAWN and s["drawn_card"] == FULL_STEAM + 1 and s["train_pos"][0, 0] == 49
    play(states, A_PLAY_CARD + FULL_STEAM + 1)  # Express goes down, then 50, 51, 52
    assert s["train_pos"][0, 0] == 52 and s["extra_moves"] == 2
    assert deck_bottom(states, 2) == [EXPRESS, FULL_STEAM + 1]
    assert s["decision"] == DEC_TRAIN_STEP and s["move_train"] == 1 and A_HOLD in legal_actions(states)


# ---- the other personal cards (§13.5) --------------------------------------------------------------------------------
def test_s13_5_crate_of_dynamite_places_two_free_tokens():
    """§13.5 Crate of Dynamite: up to 2 free tokens on legal spaces, outside the 3-per-turn purchase limit."""
    states = seat0_turn(cash=0, trains={0: [Train(SEATTLE)]}, cards={0: {CRATE: 0}})
    s = states[0]
    play(states, A_PLAY_CARD + CRATE)
    legal = legal_actions(states)
    assert s["decision"] == DEC_CARD_DYNAMITE_PLACE and A_END in legal
    assert A_SPACE + SEATTLE not in legal and A_SPACE + 100 in legal
    play(states, A_SPACE + 100)
    play(states, A_SPACE + 101)  # after 2 tokens the card ends by itself
    assert s["decision"] == DEC_PRE_ROLL and s["dynamite"][100] == 1 and s["dynamite"][101] == 1
    assert s["dynamite_supply"] == 16 and s["cash"][0] == 0 and s["dynamite_bought"][0] == 0
    assert deck_bottom(states, 1) == [CRATE]
    place(states, cards={0: {CRATE + 1: 0}})
    assert A_PLAY_CARD + CRATE + 1 in legal_actions(states)
    place(states, dynamite=[100, 101] + list(range(120, 216, 6)))  # all 18 tokens on the board
    assert s["dynamite_supply"] == 0 and A_PLAY_CARD + CRATE + 1 not in legal_actions(states)  # an empty supply


def test_s13_5_track_crew_removes_up_to_two_tokens():
    """§13.5 Track Crew: playable with dynamite on the board; removes up to 2 tokens to the supply."""
    states = seat0_turn(trains={0: [Train(SEATTLE)]}, cards={0: {TRACK_CREW: 0}})
    s = states[0]
    assert A_PLAY_CARD + TRACK_CREW not in legal_actions(states)
    place(states, dynamite=[100, 101, 200])
    play(states, A_PLAY_CARD + TRACK_CREW)
    assert s["decision"] == DEC_CARD_DYNAMITE_REMOVE
    assert legal_actions(states) == [A_SPACE + 100, A_SPACE + 101, A_SPACE + 200, A_END]
    play(states, A_SPACE + 100)
    play(states, A_SPACE + 200)
    assert s["decision"] == DEC_PRE_ROLL and list(s["dynamite"][[100, 101, 200]]) == [0, 1, 0]
    assert s["dynamite_supply"] == 17 and deck_bottom(states, 1) == [TRACK_CREW]


def test_s13_5_land_grant_buys_a_station_for_200_and_claims_land_boom():
    """§13.5 Land Grant: $200 for an unowned city; it counts as buying a station for Land Boom (§13.4)."""
    states = seat0_turn(cash=199, owners={SEATTLE: 1}, trains={0: [ON_TRACK]}, cards={0: {LAND_GRANT: 0}})
    s = states[0]
    assert A_PLAY_CARD + LAND_GRANT not in legal_actions(states)
    place(states, cash={0: 250}, competitions={0: LAND_BOOM})
    play(states, A_PLAY_CARD + LAND_GRANT)
    legal = legal_actions(states)
    assert s["decision"] == DEC_CARD_CITY and A_SPACE + DENVER in legal and A_SPACE + SEATTLE not in legal
    play(states, A_SPACE + DENVER)
    assert s["city_owner"][DENVER] == 0 and s["cash"][0] == 250 - 200 + 200 and s["comp_card"][0] == -1
    assert deck_bottom(states, 2) == [LAND_BOOM, LAND_GRANT] and s["decision"] == DEC_PRE_ROLL


def test_s13_5_hideout_places_a_desperado_in_an_own_station():
    """§13.5 Hideout: a desperado goes to an own station other than its space, even under a sheriff (§9.3)."""
    states = seat0_turn(owners={SEATTLE: 0, DENVER: 0}, sheriffs=[DENVER], trains={0: [ON_TRACK]},
                        desperados={0: [32]}, cards={0: {HIDEOUT: 0, HIDEOUT + 1: 0}})
    s = states[0]
    play(states, A_PLAY_CARD + HIDEOUT)  # the only desperado is chosen automatically
    assert s["decision"] == DEC_CARD_HIDEOUT_CITY and legal_actions(states) == [A_SPACE + SEATTLE, A_SPACE + DENVER]
    play(states, A_SPACE + DENVER)
    assert s["desp_pos"][0, 0] == DENVER and s["decision"] == DEC_PRE_ROLL
    play(states, A_PLAY_CARD + HIDEOUT + 1)  # now Seattle is the single target
    assert s["desp_pos"][0, 0] == SEATTLE and deck_bottom(states, 2) == [HIDEOUT, HIDEOUT + 1]


def test_s13_5_friend_of_the_law_moves_a_chosen_sheriff():
    """§13.5 Friend of the Law, §12 items 2-4: with both sheriffs placed the player picks one; END declines."""
    states = seat0_turn(trains={0: [ON_TRACK]}, sheriffs=[100, 200], dynamite=[150],
                        cards={0: {FRIEND: 0, FRIEND + 1: 0}})
    s = states[0]
    play(states, A_PLAY_CARD + FRIEND)
    assert s["decision"] == DEC_SHERIFF_PIECE and legal_actions(states) == [A_SHERIFF, A_SHERIFF + 1, A_END]
    play(states, A_SHERIFF + 1)
    legal = legal_actions(states)
    assert s["decision"] == DEC_SHERIFF_SPACE and A_SPACE + 100 not in legal and A_SPACE + 200 not in legal
    play(states, A_SPACE + 150)
    assert list(s["sheriff_pos"]) == [100, 150] and s["dynamite"][150] == 0 and s["dynamite_supply"] == 18
    play(states, A_PLAY_CARD + FRIEND + 1)
    play(states, A_END)  # declined: the card is still spent
    assert list(s["sheriff_pos"]) == [100, 150] and s["decision"] == DEC_PRE_ROLL
    assert deck_bottom(states, 2) == [FRIEND, FRIEND + 1] and s["card_holder"][FRIEND + 1] == -1


def test_s13_5_armed_guards_win_every_duel_until_the_end_of_the_turn():
    """§13.5 Armed Guards: the chosen own train wins every duel without dice; the flag clears at the end of turn."""
    states = seat0_turn(trains={0: [ON_TRACK, Train(SEATTLE)]}, desperados={1: [32]},
                        cards={0: {ARMED_GUARDS: 1}})  # bound to train 1, but any own train may be chosen
    s = states[0]
    play(states, A_PLAY_CARD + ARMED_GUARDS)
    assert s["decision"] == DEC_CARD_TRAIN and legal_actions(states) == [A_TRAIN + 0, A_TRAIN + 1]
    play(states, A_TRAIN + 0)
    assert s["train_armed"][0, 0] == 1 and s["decision"] == DEC_PRE_ROLL
    roll(states, (1, 1, 1))
    play(states, A_TRAIN + 0)  # 32 (no duel dice), 33
    assert s["forced_pos"] == 3 and s["train_cargo"][0, 0, 0] == GOLD and s["cash"][1] == 100
    play(states, A_HOLD)  # train 1; the turn ends
    assert s["active"] == 1 and s["train_armed"][0, 0] == 0


# ---- public cards (§13.5) --------------------------------------------------------------------------------------------
def _draw_public(states, card: int) -> None:
    """Seat 0's only train lands on the T at 37 and draws ``card``."""
    place(states, trains={0: {0: TO_THE_T}}, deck_top=[card])
    roll(states, (1, 1, 1))
    assert deck_bottom(states, 1) == [card]


def test_s13_5_blizzard_stops_trains_on_mountain_track():
    """§13.5 Blizzard: every train on a non-city Mountain space gets wait = max(wait, 1); an own unmoved train
    sits out this turn's move."""
    states = seat0_turn(trains={0: [Train(41, came_from=26, cargo=[GOLD]),  # lands on 43 (T, Mountain)
                                    Train(44, came_from=45, cargo=[GOLD])],  # Mountain track, not yet moved
                                1: [Train(46, came_from=45),  # Mountain track
                                    Train(HELENA)],  # a Mountain city
                                2: [Train(31, came_from=SEATTLE),  # Pacific track
                                    Train(42, came_from=41, wait=2)]},
                        deck_top=[BLIZZARD])
    s = states[0]
    roll(states, (1, 1, 1))
    play(states, A_TRAIN + 0)
    assert s["train_pos"][0, 0] == 43 and s["train_wait"][0, 0] == 1
    assert s["train_pos"][0, 1] == 44 and s["train_wait"][0, 1] == 0  # sat out this turn's move
    assert s["train_wait"][1, 0] == 1 and s["train_wait"][1, 1] == 0
    assert s["train_wait"][2, 0] == 0 and s["train_wait"][2, 1] == 2
    assert s["active"] == 1 and deck_bottom(states, 1) == [BLIZZARD]


def test_s13_5_mail_contract_pays_50_per_station():
    """§13.5 Mail Contract: each player receives $50 per station he owns."""
    states = seat0_turn(cash=0, owners={SEATTLE: 0, DENVER: 0, PORTLAND: 1})
    s = states[0]
    _draw_public(states, MAIL_CONTRACT)
    assert list(s["cash"][:3]) == [100, 150, 100]


def test_s13_5_territorial_tax_takes_up_to_100():
    """§13.5 Territorial Tax: each player pays min(cash, $100); no debt arises."""
    states = seat0_turn(cash=450)
    place(states, cash={2: 30})
    _draw_public(states, TAX)
    assert list(states[0]["cash"][:3]) == [350, 0, 0]


def test_s13_5_army_engineers_clear_all_dynamite():
    """§13.5 Army Engineers: all dynamite returns to the supply."""
    states = seat0_turn(dynamite=[100, 200, 250])
    s = states[0]
    _draw_public(states, ARMY_ENGINEERS)
    assert int(s["dynamite"].sum()) == 0 and s["dynamite_supply"] == 18


def test_s13_5_round_up_sends_desperados_to_the_nearest_own_station():
    """§13.5 Sheriff's Round-up: each desperado goes to its owner's nearest station (ties to the lower city id),
    even under a sheriff; one in an own station stays."""
    states = seat0_turn(owners={SEATTLE: 1, PORTLAND: 1, SACRAMENTO: 2, SAN_FRANCISCO: 2, DENVER: 2},
                        sheriffs=[SACRAMENTO],
                        desperados={1: [32,  # Seattle 2 steps, Portland 3
                                        33],  # Seattle 3, Portland 2
                                    2: [71,  # Sacramento 2, San Francisco 2: tie to the lower id
                                        DENVER]})  # already in an own station
    s = states[0]
    _draw_public(states, ROUND_UP)
    assert list(s["desp_pos"][1, :2]) == [SEATTLE, PORTLAND]
    assert list(s["desp_pos"][2, :2]) == [SACRAMENTO, DENVER]


def test_s13_5_quarantine_removes_every_passenger():
    """§13.5 Smallpox Quarantine: every passenger token is removed, with no fare; goods stay."""
    states = seat0_turn(trains={1: [Train(SEATTLE, cargo=[PASSENGER_BASE, WEAPONS], large=True)],
                                0: [Train(SEATTLE, cargo=[PASSENGER_BASE + 1, GOLD], large=True)]},
                        deck_top=[QUARANTINE])
    s = states[0]
    roll(states, (1, 1, 1))
    play(states, A_SPACE + 35)  # 35, 36, 37 (T)
    assert s["train_pos"][0, 0] == 37 and deck_bottom(states, 1) == [QUARANTINE]
    assert list(s["train_cargo"][0, 0]) == [CARGO_EMPTY, GOLD]
    assert list(s["train_cargo"][1, 0]) == [CARGO_EMPTY, WEAPONS]
    assert s["cash"][0] == 450


# ---- competitions (§13.3, §13.4) -------------------------------------------------------------------------------------
def test_s13_4_delivery_contract_claimed_by_the_matching_sale():
    """§13.4, §8.1: a Delivery Contract is claimed when its good is sold in its city; other sales do nothing."""
    states = seat0_turn(cash=0, competitions={0: SILVER_TO_PORTLAND, 1: GOLD_TO_KANSAS_CITY},
                        trains={0: [Train(247, came_from=246, cargo=[SILVER, GOLD], large=True)]})
    s = states[0]
    roll(states, (1, 1, 1))  # 248, 249, Kansas City
    assert s["decision"] == DEC_ARRIVAL
    play(states, A_UNLOAD_SLOT + 0)  # silver in Kansas City: no contract
    assert s["cash"][0] == 470 and list(s["comp_card"][:2]) == [SILVER_TO_PORTLAND, GOLD_TO_KANSAS_CITY]
    play(states, A_UNLOAD_SLOT + 1)
    assert s["cash"][0] == 470 + 360 + 300 and list(s["comp_card"][:2]) == [SILVER_TO_PORTLAND, -1]
    assert deck_bottom(states, 1) == [GOLD_TO_KANSAS_CITY]


def test_s13_4_grand_excursion_claimed_by_a_two_line_delivery():
    """§13.4, §8.2: a passenger carried across 2 lines ($90) claims Grand Excursion ($200)."""
    states = seat0_turn(cash=0, competitions={0: GRAND_EXCURSION},
                        trains={0: [Train(248, came_from=247, cargo=[PASSENGER_BASE + 0])]})
    s = states[0]
    roll(states, (1, 1, 1))  # 249, Kansas City
    play(states, A_UNLOAD_SLOT + 0)
    assert s["cash"][0] == 90 + 200 and s["comp_card"][0] == -1 and deck_bottom(states, 1) == [GRAND_EXCURSION]


def test_s13_4_mail_race_claimed_by_ending_a_move_in_the_city_not_by_passing():
    """§13.4, §7.5 step 1: a Mail Race is claimed when a train ends a move in its city, before arrival trading."""
    states = seat0_turn(cash=0, competitions={0: MAIL_RACE_SLC}, trains={0: [Train(133, came_from=132, cargo=[GOLD])]})
    s = states[0]
    roll(states, (2, 1, 1))  # 3 steps: Salt Lake City (a choice), on to 141, 142
    assert s["decision"] == DEC_TRAIN_STEP and s["train_pos"][0, 0] == SALT_LAKE_CITY
    play(states, A_SPACE + 141)
    assert s["train_pos"][0, 0] == 142 and s["comp_card"][0] == MAIL_RACE_SLC and s["cash"][0] == 0
    states = seat0_turn(cash=0, competitions={0: MAIL_RACE_SLC}, trains={0: [Train(132, came_from=131, cargo=[GOLD])]})
    s = states[0]
    roll(states, (1, 1, 1))  # 133, Salt Lake City: lands
    assert s["decision"] == DEC_ARRIVAL and s["cash"][0] == 150 and s["comp_card"][0] == -1


def test_s13_4_competitions_expire_after_their_countdown():
    """§13.4, §6.7: each end of turn counts every competition down; at 0 it goes to the bottom, its slot frees."""
    states = seat0_turn(competitions={0: (MAIL_RACE_SLC, 1), 1: (MAIL_RACE_EL_PASO, 5)}, trains={0: [ON_TRACK]})
    s = states[0]
    roll(states, (1, 1, 1))
    assert s["active"] == 1 and list(s["comp_card"][:2]) == [-1, MAIL_RACE_EL_PASO]
    assert list(s["comp_countdown"][:2]) == [0, 4] and deck_bottom(states, 1) == [MAIL_RACE_SLC]


def test_s13_4_no_expiry_with_competition_expiry_rounds_0():
    """§13.4: competition_expiry_rounds = 0 disables expiry (the countdown stays 0)."""
    states = seat0_turn(competition_expiry_rounds=0, trains={0: [TO_THE_T]}, deck_top=[MAIL_RACE_SLC])
    s = states[0]
    roll(states, (1, 1, 1))  # draws it at 37
    assert s["active"] == 1 and s["comp_card"][0] == MAIL_RACE_SLC and s["comp_countdown"][0] == 0


def test_s13_3_competition_turned_away_when_the_slots_are_full():
    """§13.3: with all three slots taken a drawn competition goes to the bottom with no effect."""
    states = seat0_turn(competitions={0: MAIL_RACE_SLC, 1: MAIL_RACE_EL_PASO, 2: LAND_BOOM}, trains={0: [TO_THE_T]},
                        deck_top=[GRAND_EXCURSION])
    s = states[0]
    roll(states, (1, 1, 1))
    assert list(s["comp_card"]) == [MAIL_RACE_SLC, MAIL_RACE_EL_PASO, LAND_BOOM]
    assert deck_bottom(states, 1) == [GRAND_EXCURSION]
