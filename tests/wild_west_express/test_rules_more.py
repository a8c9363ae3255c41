"""Rule tests of sheriff choice, desperados, duels and loot, the optional rules and the per-turn safety limit
(spec §9-§12, §14.4, §15)."""

from __future__ import annotations

from tests.wild_west_express._helpers import seat0_turn
from wildwest_envs.wild_west_express.data import (A_BUY_DESPERADO, A_END, A_PLAY_CARD, A_REHIRE, A_SHERIFF, A_SPACE,
                                                  CARGO_EMPTY, DEC_DESPERADO_STEP, DEC_NONE, DEC_PRE_ROLL,
                                                  DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN,
                                                  DEC_TRAIN_STEP, MAX_TURN_DECISIONS, PASSENGER_BASE)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play, roll

SEATTLE, PORTLAND, DENVER = 0, 1, 12
GOLD, SILVER = 1, 4
FULL_STEAM = 0


# ---- sheriffs (§12) --------------------------------------------------------------------------------------------------
def test_s12_2_with_both_sheriffs_placed_the_player_chooses_which_moves():
    """§12 items 2-3: at a star with both sheriffs on the board, SHERIFF(k) or END; not onto either sheriff."""
    states = seat0_turn(sheriffs=[100, 200], trains={0: [Train(PORTLAND, cargo=[GOLD])]})
    s = states[0]
    roll(states, (1, 1, 1))
    play(states, A_SPACE + 53)  # 53, 54 (star)
    assert s["decision"] == DEC_SHERIFF_PIECE and legal_actions(states) == [A_SHERIFF, A_SHERIFF + 1, A_END]
    play(states, A_SHERIFF + 0)
    legal = legal_actions(states)
    assert s["decision"] == DEC_SHERIFF_SPACE and A_SPACE + 100 not in legal and A_SPACE + 200 not in legal
    assert A_SPACE + 54 in legal and A_END in legal
    play(states, A_SPACE + 54)
    assert list(s["sheriff_pos"]) == [54, 200]


def test_s12_2_declining_at_sheriff_piece_changes_nothing():
    """§12 item 1: END declines; the landing goes on."""
    states = seat0_turn(sheriffs=[100, 200], trains={0: [Train(PORTLAND, cargo=[GOLD])]})
    s = states[0]
    roll(states, (1, 1, 1))
    play(states, A_SPACE + 53)
    play(states, A_END)
    assert list(s["sheriff_pos"]) == [100, 200] and s["active"] == 1


# ---- desperados (§9, §15) --------------------------------------------------------------------------------------------
def test_s9_2_desperados_pass_through_cities():
    """§9.2: a desperado may pass through a city (never stepping straight back); it triggers nothing there."""
    states = seat0_turn(desperados={0: [34]})
    s = states[0]
    roll(states, (2, 1, 1))  # d = 2
    assert s["decision"] == DEC_DESPERADO_STEP and legal_actions(states) == [A_SPACE + PORTLAND, A_SPACE + 33]
    play(states, A_SPACE + PORTLAND)
    assert legal_actions(states) == [A_SPACE + 53, A_SPACE + 61]
    play(states, A_SPACE + 53)
    assert s["desp_pos"][0, 0] == 53 and s["active"] == 1


def test_s9_4_no_attack_in_a_city():
    """§9.4, §10.1: a train entering a city that holds an opponent's desperado is not attacked."""
    states = seat0_turn(trains={0: [Train(34, came_from=33, cargo=[GOLD])]}, desperados={1: [PORTLAND]})
    s = states[0]
    roll(states, (2, 1, 1))  # 3 steps: Portland (gold cannot stop there), then a branch
    assert s["decision"] == DEC_TRAIN_STEP and s["train_pos"][0, 0] == PORTLAND and s["forced_pos"] == 3
    play(states, A_SPACE + 61)
    assert s["train_pos"][0, 0] == 62 and s["forced_pos"] == 3 and s["train_cargo"][0, 0, 0] == GOLD


def test_s15_alt_extra_gang_hires_a_desperado_that_moves_this_turn():
    """§6.3 BUY_DESPERADO, §15: $250 in an own station, once, below the cap; the new desperado moves this turn."""
    states = seat0_turn(cash=300, owners={SEATTLE: 0, DENVER: 0})
    assert not any(a >= A_BUY_DESPERADO and a < A_END for a in legal_actions(states))  # option off
    states = seat0_turn(cash=300, alt_extra_gang=True, owners={SEATTLE: 0, DENVER: 0}, desperados={0: [32]},
                        sheriffs=[33])  # desperado 0 can only go to 31 with d = 1
    s = states[0]
    legal = legal_actions(states)
    assert A_BUY_DESPERADO + SEATTLE in legal and A_BUY_DESPERADO + DENVER in legal
    assert A_BUY_DESPERADO + PORTLAND not in legal
    play(states, A_BUY_DESPERADO + SEATTLE)
    assert s["cash"][0] == 50 and s["n_desperados"][0] == 2 and s["desp_pos"][0, 1] == SEATTLE
    assert s["hire_used"][0] == 1
    place(states, cash={0: 300})
    assert not any(a >= A_BUY_DESPERADO and a < A_END for a in legal_actions(states))  # only one hire
    roll(states, (1, 1, 1))
    assert s["desp_pos"][0, 0] == 31 and s["decision"] == DEC_DESPERADO_STEP and s["desp_index"] == 1
    assert legal_actions(states) == [A_SPACE + 31, A_SPACE + 35, A_REHIRE]


# ---- duels and loot (§10.3) ------------------------------------------------------------------------------------------
def test_s10_3_loot_split_among_several_winning_desperados():
    """§10.2-§10.3: all duels rolled first; each winning desperado's owner gets floor(loot / k), the rest stays."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD, SILVER], large=True)]},
                        desperados={1: [32, 32], 2: [32]})
    s = states[0]
    # duel order: seat 1 desperado 0, seat 1 desperado 1, seat 2; each: train die, then desperado die
    roll(states, (1, 1, 1), duels=[1, 6, 1, 6, 1, 6])  # all three win: 200 // 3 = 66 each
    assert list(s["cash"][:3]) == [450, 100 + 132, 100 + 66]
    assert list(s["train_cargo"][0, 0]) == [CARGO_EMPTY, CARGO_EMPTY] and s["forced_pos"] == 9
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD, PASSENGER_BASE], large=True)]},
                        desperados={1: [32, 32], 2: [32]})
    s = states[0]
    roll(states, (1, 1, 1), duels=[1, 6, 6, 6, 1, 6])  # the second duel is a tie: 2 winners, $100 each
    assert list(s["cash"][:3]) == [450, 200, 200]


def test_s10_4_an_emptied_train_is_not_attacked_again():
    """§10.4: the train goes on; a train robbed of everything is not attacked further in the move."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]}, desperados={1: [32], 2: [33]})
    s = states[0]
    roll(states, (1, 1, 1), duels=[1, 6])  # robbed at 32; at 33 nothing to steal: no dice
    assert s["train_pos"][0, 0] == 33 and s["forced_pos"] == 5 and list(s["cash"][:3]) == [450, 200, 100]


# ---- alternative dynamite rule (§11.4) -------------------------------------------------------------------------------
def test_s11_4_alt_dynamite_costs_50_and_destroys_goods():
    """§11.4: dynamite costs $50; an exploding train also loses its goods, and nobody is paid."""
    states = seat0_turn(cash=49, alt_dynamite=True)
    assert A_SPACE + 100 not in legal_actions(states)
    place(states, cash={0: 50})
    play(states, A_SPACE + 100)
    s = states[0]
    assert s["cash"][0] == 0 and s["dynamite"][100] == 1 and s["dynamite_bought"][0] == 1
    states = seat0_turn(alt_dynamite=True, dynamite=[34],
                        trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD, PASSENGER_BASE], large=True)]})
    s = states[0]
    roll(states, (1, 1, 1))  # large: 32, 33, 34
    assert list(s["train_cargo"][0, 0]) == [CARGO_EMPTY, CARGO_EMPTY] and s["train_wait"][0, 0] == 1
    assert list(s["cash"][:3]) == [450, 100, 100] and s["dynamite_supply"] == 18


def test_s11_2_default_rule_keeps_goods():
    """§11.2: without the alternative rule goods stay on an exploding train; passengers leave."""
    states = seat0_turn(dynamite=[34],
                        trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD, PASSENGER_BASE], large=True)]})
    s = states[0]
    roll(states, (1, 1, 1))
    assert list(s["train_cargo"][0, 0]) == [GOLD, CARGO_EMPTY] and s["train_wait"][0, 0] == 1


# ---- a card drawn and kept in the pre-roll phase (§13.3) -------------------------------------------------------------
def test_s13_3_card_kept_during_a_pre_roll_extra_move_is_playable_in_that_pre_roll():
    """§13.3: a card drawn at a landing of a pre-roll extra move and kept may be played in the same pre-roll."""
    states = seat0_turn(trains={0: [Train(SEATTLE, cargo=[GOLD])]}, cards={0: {FULL_STEAM: 0}},
                        deck_top=[FULL_STEAM + 1])
    s = states[0]
    play(states, A_PLAY_CARD + FULL_STEAM)
    play(states, A_SPACE + 35)  # 35, 36, 37 (T): the second Full Steam Ahead is drawn
    assert s["decision"] == DEC_TELEGRAM_DRAWN and s["drawn_card"] == FULL_STEAM + 1
    play(states, A_END)  # kept, bound to train 0; back to PRE_ROLL once the first card has gone down
    assert s["decision"] == DEC_PRE_ROLL and s["card_holder"][FULL_STEAM + 1] == 0
    assert s["card_bound"][FULL_STEAM + 1] == 0 and s["deck"][s["deck_size"] - 1] == FULL_STEAM
    play(states, A_PLAY_CARD + FULL_STEAM + 1)  # 38, 39, 40
    assert s["train_pos"][0, 0] == 40 and s["decision"] == DEC_PRE_ROLL and s["extra_moves"] == 2


# ---- the per-turn safety limit (§14.4) -------------------------------------------------------------------------------
def test_s14_4_safety_limit_of_1000_decisions_in_one_turn():
    """§14.4: 1000 decisions within one turn end the game as truncated (capped).

    Legal play cannot reach the limit, so the position sets the counter: every
    pre-roll action uses up something finite (cash-bought pieces and goods,
    empty slots, held cards, 3 dynamite purchases), a turn has at most 6 dice
    moves and 12 extra moves (§13.3) of at most 6 steps, each landing poses a
    bounded number of sub-decisions, and each desperado at most 6 steps: a few
    hundred decisions at the very most. The counter restarts every turn.
    """
    states = seat0_turn()
    s = states[0]
    s["turn_decisions"] = MAX_TURN_DECISIONS - 2
    play(states, A_SPACE + 100)  # buy dynamite: 999
    assert not s["done"] and s["decision"] == DEC_PRE_ROLL
    play(states, A_SPACE + 200)  # 1000
    assert s["done"] and s["capped"] and s["decision"] == DEC_NONE and s["current"] == -1
    assert legal_actions(states) == []
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=[GOLD])]})
    s = states[0]
    s["turn_decisions"] = MAX_TURN_DECISIONS - 2
    roll(states, (1, 1, 1))  # 999: the turn ends, the next one counts from 0
    assert not s["done"] and s["active"] == 1 and s["turn_decisions"] == 0
