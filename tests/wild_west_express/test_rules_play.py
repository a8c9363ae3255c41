"""Rule tests of movement, arrival, desperados, dynamite, sheriffs, telegrams and scoring (spec §7-§14)."""

from __future__ import annotations

from tests.wild_west_express._helpers import seat0_turn
from wildwest_envs.wild_west_express.data import (A_END, A_HOLD, A_PLAY_CARD, A_REHIRE, A_SPACE, A_STOP, A_UNLOAD_SLOT,
                                                  CARGO_EMPTY, DEC_ARRIVAL, DEC_DESPERADO_STEP, DEC_PRE_ROLL,
                                                  DEC_REHIRE_TARGET, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN,
                                                  DEC_TRAIN_STEP, PASSENGER_BASE)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play, position, roll
from wildwest_envs.wild_west_express.scoring import victory_points

SEATTLE, PORTLAND, CHEYENNE, DENVER = 0, 1, 11, 12
GOLD, LUXURY = 1, 7
TO_THE_T = Train(35, came_from=SEATTLE, cargo=[GOLD])  # a roll of 1, 1, 1 lands it on the T at 37


def test_s7_4_forced_steps_are_automatic_and_position_is_stored():
    """§7.4, §17.3: steps with one option are taken automatically; position and came_from are stored."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]})
    roll(states, (1, 1, 1))
    s = states[0]
    assert s["train_pos"][0, 0] == 33 and s["train_from"][0, 0] == 32
    assert s["active"] == 1 and s["decision"] == DEC_PRE_ROLL


def test_s7_2_leaving_a_city_with_free_direction_any_route():
    """§7.2: a train with free direction leaves a city by any route; on track only forward."""
    states = seat0_turn(trains={0: [Train(SEATTLE, cargo=[GOLD])]})
    roll(states, (1, 1, 1))
    assert states[0]["decision"] == DEC_TRAIN_STEP
    assert legal_actions(states) == [A_SPACE + 31, A_SPACE + 35]  # no HOLD: the train carries a token


def test_s7_1_hold_only_for_an_empty_train_in_a_city():
    """§7.1: HOLD at the first step of a dice move for an empty train in a city; it then counts as moved."""
    states = seat0_turn(trains={0: [Train(SEATTLE)]})
    roll(states, (1, 1, 1))
    assert A_HOLD in legal_actions(states)
    play(states, A_HOLD)
    s = states[0]
    assert s["train_pos"][0, 0] == SEATTLE and s["train_from"][0, 0] == -1 and s["active"] == 1


def test_s7_3_stop_only_when_a_trade_is_possible():
    """§7.3: a full train with goods the city does not buy cannot stop; with an empty slot it can."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[LUXURY])]})  # Portland buys silver and cotton
    roll(states, (3, 3, 1))  # 6 steps: 32 33 34 Portland, 2 left
    s = states[0]
    assert s["decision"] == DEC_TRAIN_STEP and s["train_pos"][0, 0] == PORTLAND
    assert A_STOP not in legal_actions(states) and A_SPACE + 34 not in legal_actions(states)
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[LUXURY], large=True)]})
    roll(states, (3, 2, 1))  # large: 6 steps
    assert A_STOP in legal_actions(states)
    play(states, A_STOP)
    assert states[0]["train_pos"][0, 0] == PORTLAND and states[0]["train_from"][0, 0] == -1


def test_s7_1_waiting_train_sits_out_once():
    """§7.1: a train with wait > 0 sits out, its wait falls by 1."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD], wait=1)]})
    roll(states, (1, 1, 1))
    assert states[0]["train_pos"][0, 0] == 31 and states[0]["train_wait"][0, 0] == 0


def test_s8_1_selling_pays_price_and_owner_bonus():
    """§8.1: sale price + $20 per goods token at an own station; selling is optional (END)."""
    states = seat0_turn(cash=0, owners={DENVER: 0},
                        trains={0: [Train(174, came_from=CHEYENNE, cargo=[GOLD, GOLD], large=True)]})
    roll(states, (1, 1, 1))  # large: 3 steps -> 175, 176, Denver
    s = states[0]
    assert s["decision"] == DEC_ARRIVAL and legal_actions(states) == [A_UNLOAD_SLOT, A_UNLOAD_SLOT + 1, A_END]
    play(states, A_UNLOAD_SLOT + 0)
    play(states, A_UNLOAD_SLOT + 1)
    assert s["cash"][0] == 2 * (290 + 20)


def test_s8_2_passenger_fare_by_zone_lines():
    """§8.2, §4.4: a Pacific passenger dropped in Denver (Mountain) pays $30; no owner bonus."""
    states = seat0_turn(cash=0, trains={0: [Train(174, came_from=CHEYENNE, cargo=[PASSENGER_BASE + 0])]})
    roll(states, (2, 1, 1))  # small: 3 steps
    play(states, A_UNLOAD_SLOT + 0)
    assert states[0]["cash"][0] == 30


def test_s8_3_fee_to_the_owner_or_a_debt():
    """§8.3: at another player's station $20 (small) goes to the owner; if cash is short, a debt instead."""
    states = seat0_turn(cash=50, owners={DENVER: 1}, trains={0: [Train(174, came_from=CHEYENNE, cargo=[LUXURY])]})
    roll(states, (2, 1, 1))
    play(states, A_END)
    assert states[0]["cash"][0] == 30 and states[0]["cash"][1] == 120
    states = seat0_turn(cash=10, owners={DENVER: 1}, trains={0: [Train(174, came_from=CHEYENNE, cargo=[LUXURY])]})
    roll(states, (2, 1, 1))
    play(states, A_END)  # Denver buys luxury goods: decline to sell
    s = states[0]
    assert s["train_debt"][0, 0] == 20 and s["train_creditor"][0, 0] == 1 and s["cash"][0] == 10


def test_s10_duel_desperado_wins_only_with_a_higher_roll():
    """§10.2-§10.3: train die first; a strictly higher desperado die robs every token, $100 each to its owner."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]}, desperados={1: [32]})
    roll(states, (1, 1, 1), duels=[3, 3])  # tie 3-3: the train wins
    assert list(states[0]["train_cargo"][0, 0]) == [GOLD, CARGO_EMPTY] and states[0]["cash"][1] == 100
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]}, desperados={1: [32]})
    roll(states, (1, 1, 1), duels=[3, 4])  # 3 vs 4: robbed
    assert list(states[0]["train_cargo"][0, 0]) == [CARGO_EMPTY, CARGO_EMPTY] and states[0]["cash"][1] == 200


def test_s10_1_own_desperados_and_armed_guards_do_not_duel():
    """§9.4, §13.5: no duel with an own desperado; Armed Guards wins without dice."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD], armed=True)]},
                        desperados={0: [32], 1: [32]})
    roll(states, (1, 1, 1))
    assert states[0]["train_cargo"][0, 0, 0] == GOLD and states[0]["forced_pos"] == 3


def test_s9_2_desperado_moves_around_a_sheriff():
    """§9.2: the desperado moves exactly d steps, never onto a sheriff; forced steps are automatic."""
    states = seat0_turn(trains={0: [Train(SEATTLE, moved=True)]},  # the train has moved this turn
                        desperados={0: [32]}, sheriffs=[33])
    roll(states, (1, 1, 1))  # d = 1: only 31 is possible
    assert states[0]["desp_pos"][0, 0] == 31


def test_s9_3_rehire_from_an_own_station():
    """§9.3: REHIRE at the first step when an own station is within d; the jump goes to another own station."""
    states = seat0_turn(owners={SEATTLE: 0, DENVER: 0}, trains={0: [Train(SEATTLE, moved=True)]},
                        desperados={0: [SEATTLE]})
    s = states[0]
    roll(states, (2, 1, 1))
    assert s["decision"] == DEC_DESPERADO_STEP and A_REHIRE in legal_actions(states)
    s["auto_forced"] = False
    play(states, A_REHIRE)
    assert s["decision"] == DEC_REHIRE_TARGET and legal_actions(states) == [A_SPACE + DENVER]
    play(states, A_SPACE + DENVER)
    assert s["desp_pos"][0, 0] == DENVER


def test_s11_2_explosion_effects_small_train():
    """§11.2 on a small train: exact landing on dynamite."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[PASSENGER_BASE])]}, dynamite=[33, 32])
    roll(states, (1, 1, 1))
    s = states[0]
    assert s["train_pos"][0, 0] == 33 and s["dynamite"][33] == 0 and s["dynamite"][32] == 1
    assert s["dynamite_supply"] == 17 and s["train_wait"][0, 0] == 1
    assert s["train_cargo"][0, 0, 0] == CARGO_EMPTY


def test_s12_landing_on_a_star_places_a_sheriff_removing_dynamite():
    """§12 items 1-4: the lowest off-board sheriff goes to any space; dynamite there returns to the supply."""
    states = seat0_turn(trains={0: [Train(PORTLAND, cargo=[GOLD])]}, dynamite=[100])  # route 4: 53, star at 54
    roll(states, (1, 1, 1))
    play(states, A_SPACE + 53)
    s = states[0]
    assert s["train_pos"][0, 0] == 54 and s["decision"] == DEC_SHERIFF_SPACE and s["sel_sheriff"] == 0
    assert A_END in legal_actions(states)
    play(states, A_SPACE + 100)
    assert s["sheriff_pos"][0] == 100 and s["dynamite"][100] == 0 and s["dynamite_supply"] == 18


def test_s13_3_personal_card_drawn_is_asked_and_can_be_played():
    """§13.2-§13.3: landing on a T draws; a personal card asks TELEGRAM_DRAWN; a subsidy pays at once."""
    states = seat0_turn(cash=0, trains={0: [TO_THE_T]}, deck_top=[6])  # Territorial Subsidy
    roll(states, (1, 1, 1))
    s = states[0]
    assert s["decision"] == DEC_TELEGRAM_DRAWN and s["drawn_card"] == 6
    assert legal_actions(states) == [A_PLAY_CARD + 6, A_END]
    play(states, A_PLAY_CARD + 6)
    assert s["cash"][0] == 100 and s["deck"][s["deck_size"] - 1] == 6


def test_s13_3_kept_card_is_bound_to_the_train():
    """§13.3: END keeps the card, bound to the train that drew it."""
    states = seat0_turn(cash=0, trains={0: [TO_THE_T]}, deck_top=[0])  # Full Steam Ahead
    roll(states, (1, 1, 1))
    play(states, A_END)
    assert states[0]["card_holder"][0] == 0 and states[0]["card_bound"][0] == 0


def test_s13_5_public_card_resolves_at_once():
    """§13.3, §13.5: Bank Dividend pays every player $100 and goes to the bottom."""
    states = seat0_turn(cash=0, trains={0: [TO_THE_T]}, deck_top=[31])
    roll(states, (1, 1, 1))
    s = states[0]
    assert list(s["cash"][:3]) == [100, 200, 200] and s["deck"][s["deck_size"] - 1] == 31


def test_s13_3_competition_is_posted_with_a_countdown():
    """§13.3: a competition takes the lowest free slot with 8 x N turns."""
    states = seat0_turn(cash=0, trains={0: [TO_THE_T]}, deck_top=[48])
    roll(states, (1, 1, 1))
    s = states[0]
    assert s["comp_card"][0] == 48 and s["comp_countdown"][0] == 8 * 3 - 1  # counted down at the end of the turn


def test_s14_1_victory_points():
    """§14.1: small 1, large 2, station 1, 2 per full $1200 (or 2 if >= $1200 under "threshold")."""
    states = seat0_turn(cash=2399, owners={SEATTLE: 0}, trains={0: [Train(SEATTLE), Train(SEATTLE, large=True)]})
    s = states[0]
    assert victory_points(s, 0) == 1 + 2 + 1 + 2
    place(states, cash={0: 2400})
    assert victory_points(s, 0) == 1 + 2 + 1 + 4
    s["cash_vp_mode"] = 1
    assert victory_points(s, 0) == 1 + 2 + 1 + 2


def test_s14_3_game_ends_at_the_end_of_a_turn_with_the_target():
    """§14.3: at the end of every turn, a player with VP >= target ends the game."""
    states = seat0_turn(cash=12000, trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]})
    roll(states, (1, 1, 1))
    s = states[0]
    assert s["done"] and not s["capped"] and s["current"] == -1 and legal_actions(states) == []


def test_s14_4_turn_cap_ends_the_game_as_capped():
    """§14.4: after the last turn of round max_rounds the game ends, capped."""
    states = position(2, max_rounds=1)
    s = states[0]
    for _ in range(200):
        if s["done"]:
            break
        play(states, legal_actions(states)[-1])
    assert s["done"] and s["capped"] and s["round"] == 1
