"""Rule tests of income (spec §10), final scoring (§11) and the winner (§11.4): every statement of the tables.

Income and VP are read from the kernels (``scoring.income_of`` / ``vp_by_category``)
on hand-built boards, and through play (the income step at the end of rounds
3, 6, 9, 12; the final scores and rewards of ``Game``).
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.way_out_west.data import (A_PASS, BANK, DEC_AUCTION_BID, DEC_CHOOSE_ACTION, HOTEL, JAIL,
                                             STAGECOACH, STORE, TRAIN)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA,
                                                  legal_actions, place, play, position)
from wildwest_envs.way_out_west.scoring import (VP_BT, VP_CATTLE, VP_CONTROL, VP_RICHEST, VP_WANTED, income_of,
                                                vp_by_category)


def income(states, p: int) -> int:
    return int(income_of(states[0], p))


def vp(states) -> np.ndarray:
    out = np.zeros((5, 5), dtype=np.int64)
    vp_by_category(states[0], out)
    return out


def empty_board(n: int = 3, cash: int = 0):
    return position(n, turn=0, cash=cash)


# ---- §10.2 income ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("train,farmers,rate", [(False, 0, 2), (False, 1, 1), (True, 0, 4), (True, 1, 2),
                                                (False, 2, 1), (True, 3, 2)])
def test_s10_2_cattle_income_2_1_with_farmer_doubled_with_train_farmers_do_not_stack(train, farmers, rate):
    """§10.2, §8.6: a cattle counter earns $2; $1 with a farmer; x2 with a train; a second farmer changes nothing."""
    states = empty_board()
    place(states, cattle={ABILENE: {0: 3}})
    if train:
        place(states, buildings={ABILENE: {TRAIN: 2}})
    place(states, farmers={ABILENE: [1, 2, 0][:farmers]})
    assert income(states, 0) == 3 * rate
    assert income(states, 2) == 0  # the train's owner gets nothing directly


def test_s10_2_bank_earns_two_dollars_per_counter_in_its_town_itself_included():
    """§10.2, §16 #35: bank income = $2 x town size, the bank counting itself, any owners."""
    states = empty_board()
    place(states, buildings={DEADWOOD: {BANK: 0}})
    assert income(states, 0) == 2
    place(states, buildings={DEADWOOD: {HOTEL: 1, JAIL: 2, STAGECOACH: 0}})
    assert income(states, 0) == 8


def test_s10_2_store_earns_per_other_players_cattle_and_two_per_farmer():
    """§10.2: store income = $1 per cattle counter of other players in its town + $2 per farmer there."""
    states = empty_board()
    place(states, buildings={KANSAS_CITY: {STORE: 0}})
    place(states, cattle={KANSAS_CITY: {0: 2}})  # own cattle: only their own income (2 x $1 with the farmers below)
    place(states, cattle={KANSAS_CITY: {1: 2, 2: 1}})
    assert income(states, 0) == 3 + 2 * 2  # 3 others' cattle + own cattle at $2
    place(states, farmers={KANSAS_CITY: [1, 2]})
    assert income(states, 0) == 3 + 2 * 2 + 2 * 1  # each farmer $2; own cattle now $1 each


def test_s10_2_hotel_earns_per_other_players_cowboy_in_its_town():
    """§10.2: hotel income = $1 per cowboy of other players in its town; own cowboys and sheriffs do not count."""
    states = empty_board()
    place(states, buildings={DODGE_CITY: {HOTEL: 0}})
    place(states, buildings={DODGE_CITY: {JAIL: 1}})  # a sheriff is not a cowboy
    place(states, cowboys={DODGE_CITY: {0: 4, 1: 2, 2: 3}})
    place(states, cowboys={DEADWOOD: {2: 5}})  # another town
    assert income(states, 0) == 5


def test_s10_2_trains_jails_and_stagecoaches_earn_nothing_at_income():
    """§10.2: trains, jails and stagecoaches earn nothing here; nor do farmers for anybody but store owners."""
    states = empty_board()
    for t, k in [(SAN_ANTONIA, TRAIN), (KANSAS_CITY, JAIL), (ABILENE, STAGECOACH)]:
        place(states, buildings={t: {k: 0}})
    place(states, cowboys={ABILENE: {1: 3}}, farmers={SAN_ANTONIA: [0, 1]})
    assert income(states, 0) == 0 and income(states, 1) == 0


def test_s10_2_income_is_the_sum_of_the_four_parts_over_all_towns():
    """§10.2: income(p) = cattle + bank + store + hotel income, summed over the towns."""
    states = empty_board()
    place(states, cattle={SAN_ANTONIA: {0: 2}})  # $4
    place(states, cattle={KANSAS_CITY: {0: 1}})
    place(states, buildings={KANSAS_CITY: {TRAIN: 1}})  # $4
    place(states, buildings={ABILENE: {BANK: 0}})
    place(states, buildings={ABILENE: {STORE: 0}})  # bank $4; store: 1 other cattle + 1 farmer = $3
    place(states, cattle={ABILENE: {2: 1}}, buildings={DEADWOOD: {HOTEL: 0}}, farmers={ABILENE: [2]})
    place(states, cowboys={DEADWOOD: {1: 2}})  # $2
    assert income(states, 0) == 4 + 4 + 4 + 3 + 2


def _play_to_round_end(states) -> None:
    """Everybody passes to the end of the current round."""
    r = int(states[0]["round"])
    while not states[0]["done"] and int(states[0]["round"]) == r:
        play(states, A_PASS)


@pytest.mark.parametrize("rounds", [12, 9])
def test_s10_1_income_after_rounds_3_6_9_and_12_only(rounds):
    """§5, §10.1: income is paid at the end of every third round (3, 6, 9, 12) and never otherwise."""
    states = empty_board()
    states[0]["num_rounds"] = rounds
    place(states, cattle={SAN_ANTONIA: {0: 1}})
    paid = []
    for r in range(1, rounds + 1):
        before = int(states[0]["cash"][0])
        assert states[0]["round"] == r
        _play_to_round_end(states)
        paid.append(int(states[0]["cash"][0]) - before)
    assert paid == [2 if r % 3 == 0 else 0 for r in range(1, rounds + 1)]
    assert states[0]["done"]


def test_s10_2_the_bank_pays_every_player_from_the_same_board():
    """§10.2: all incomes are computed on the current board and paid by the bank."""
    states = empty_board()
    states[0]["round"] = 3
    place(states, cattle={SAN_ANTONIA: {0: 1, 1: 2}}, buildings={SAN_ANTONIA: {STORE: 2}})
    _play_to_round_end(states)
    s = states[0]
    assert s["cash"][:3].tolist() == [2, 4, 3] and s["bank_out"] == 9
    assert s["decision"] == DEC_AUCTION_BID and s["round"] == 4


# ---- §11.2 victory points ------------------------------------------------------------------------------------------
def test_s11_2_each_bt_counter_is_worth_its_town_size():
    """§11.2: a B&T counter is worth the number of B&T counters in its town (itself included)."""
    states = empty_board()
    for k, owner in [(STAGECOACH, 0), (BANK, 0), (STORE, 1), (HOTEL, 2)]:
        place(states, buildings={DEADWOOD: {k: owner}})  # a town of size 4
    place(states, buildings={SAN_ANTONIA: {JAIL: 1}})  # size 1
    table = vp(states)
    assert table[:3, VP_BT].tolist() == [8, 5, 4]


@pytest.mark.parametrize("train,farmer,each", [(False, False, 1), (True, False, 2), (False, True, 0),
                                               (True, True, 1)])
def test_s11_2_cattle_vp_1_2_with_train_minus_1_with_farmer(train, farmer, each):
    """§11.2: cattle are worth 1 VP; 2 with a train in town; 1 less with a farmer (0 / 1)."""
    states = empty_board()
    place(states, cattle={KANSAS_CITY: {0: 3}})
    if train:
        place(states, buildings={KANSAS_CITY: {TRAIN: 1}})
    if farmer:
        place(states, farmers={KANSAS_CITY: [1, 2]})  # two farmers: still only 1 less
    assert vp(states)[0, VP_CATTLE] == 3 * each


# ---- §11.3 bonuses -------------------------------------------------------------------------------------------------
def test_s11_3_town_control_strict_most_bt_plus_cattle_gets_the_town_size():
    """§11.3: in each town the player with strictly most B&T + cattle counters gains size(t) VP."""
    states = empty_board()
    place(states, buildings={DODGE_CITY: {BANK: 0, HOTEL: 1, STORE: 1}})
    place(states, cattle={DODGE_CITY: {0: 2}})  # seat 0: 3 counters, seat 1: 2
    place(states, cowboys={DODGE_CITY: {1: 9}})  # cowboys never count
    place(states, farmers={DODGE_CITY: [1]})  # farmers never count
    assert vp(states)[:3, VP_CONTROL].tolist() == [3, 0, 0]


def test_s11_3_town_control_tie_gives_nobody_anything():
    """§11.3: two or more players tied for the most: nobody gains anything for that town."""
    states = empty_board()
    place(states, cattle={DODGE_CITY: {2: 1}}, buildings={DODGE_CITY: {BANK: 0, HOTEL: 1}})
    assert vp(states)[:3, VP_CONTROL].tolist() == [0, 0, 0]


def test_s11_3_control_of_a_town_without_counters_is_worth_nothing():
    """§11.3: the award is the town size; cattle alone in a town of size 0 give 0."""
    states = empty_board()
    place(states, cattle={SAN_ANTONIA: {0: 3}})
    assert vp(states)[0, VP_CONTROL] == 0


@pytest.mark.parametrize("cash,bonus", [([9, 3, 3], [5, 0, 0]), ([6, 6, 3], [2, 2, 0]), ([4, 4, 4], [1, 1, 1]),
                                        ([0, 0, 0], [1, 1, 1])])
def test_s11_3_richest_gets_5_ties_split_rounded_down(cash, bonus):
    """§11.3: most money 5 VP; k tied players floor(5 / k) each."""
    states = empty_board()
    place(states, cash=cash)
    assert vp(states)[:3, VP_RICHEST].tolist() == bonus


@pytest.mark.parametrize("wanted,bonus", [([2, 1, 0], [5, 0, 0]), ([3, 3, 1], [2, 2, 0]), ([1, 1, 1], [1, 1, 1]),
                                          ([0, 0, 0], [0, 0, 0])])
def test_s11_3_most_wanted_gets_5_ties_split_at_least_one_counter(wanted, bonus):
    """§11.3: most Wanted counters (at least 1) 5 VP; k tied floor(5 / k); nobody with none."""
    states = empty_board()
    place(states, wanted=wanted)
    assert vp(states)[:3, VP_WANTED].tolist() == bonus


def test_s11_3_published_five_player_score_sheet_is_reproduced():
    """§11.3: towns of sizes 4, 4, 4, 3, 3 give 66 B&T VP and 18 control VP; a Wanted tie of two gives 4."""
    states = position(5, turn=0)
    layout = {SAN_ANTONIA: [0, 1, 0], KANSAS_CITY: [1, 2, 1], ABILENE: [2, 3, 2, 3],
              DODGE_CITY: [3, 4, 3, 4], DEADWOOD: [4, 0, 4, 0]}
    for t, owners in layout.items():
        for k, owner in enumerate(owners):
            place(states, buildings={t: {k: owner}})
    place(states, cattle={ABILENE: {2: 1}})  # breaks the tie in Abilene
    place(states, cattle={DODGE_CITY: {3: 1}, DEADWOOD: {4: 1}}, cash={3: 30}, wanted={1: 2, 2: 2})
    table = vp(states)
    assert table[:, VP_BT].sum() == 66 and table[:, VP_CONTROL].sum() == 18
    assert table[:, VP_WANTED].sum() == 4 and table[:, VP_RICHEST].sum() == 5


# ---- §11.1, §11.4 end, winner and tie-breaks -----------------------------------------------------------------------
def _finished(states):
    """Play the last round (num_rounds = 3, already in round 3) with passes only."""
    states[0]["num_rounds"] = 3
    states[0]["round"] = 3
    _play_to_round_end(states)
    assert states[0]["done"]
    return states


def test_s11_1_round_r_income_is_paid_before_final_scoring():
    """§11.1, §16 #40: the last income counts for the richest bonus."""
    states = empty_board(cash=0)
    place(states, cash={1: 3})
    place(states, cattle={SAN_ANTONIA: {0: 2}})  # $4 at the last income
    _finished(states)
    assert states[0]["cash"][0] == 4
    assert vp(states)[:3, VP_RICHEST].tolist() == [5, 0, 0]
    assert legal_actions(states) == [] and states[0]["decision"] == -1


def test_s11_4_most_vp_wins():
    """§11.4: the most VP wins: +1 to the winner, -1 to the others."""
    states = empty_board()
    place(states, buildings={DEADWOOD: {BANK: 1}})
    _finished(states)
    assert GAME.scores(states)[0, :3].tolist() == [0, 1 + 1 + 5, 0]  # bank 1 + control 1 + richest ($2 income)
    assert GAME.returns(states)[0, :3].tolist() == [-1.0, 1.0, -1.0]


def _tie_position(counters: dict[int, list[tuple[int, int]]], cash: list[int]):
    """A finished game: seat -> [(town, type)] of counters that earn no income; then the final cash."""
    states = empty_board()
    for p, placed in counters.items():
        for t, k in placed:
            place(states, buildings={t: {k: p}})
    _finished(states)
    place(states, cash=cash)
    return states


def test_s11_4_equal_vp_the_most_money_wins():
    """§11.4: a VP tie goes to the player with more money (seat 2, richest, has fewer VP)."""
    states = _tie_position({0: [(SAN_ANTONIA, STAGECOACH), (SAN_ANTONIA, JAIL)],
                            1: [(DEADWOOD, STAGECOACH), (DEADWOOD, TRAIN)]}, cash=[5, 4, 10])
    assert GAME.scores(states)[0, :3].tolist() == [6, 6, 5]
    assert GAME.returns(states)[0, :3].tolist() == [1.0, -1.0, -1.0]


def test_s11_4_equal_vp_and_money_the_most_bt_counters_on_the_board_win():
    """§11.4: then the player with more B&T counters on the board wins."""
    states = _tie_position({0: [(SAN_ANTONIA, JAIL), (KANSAS_CITY, JAIL), (ABILENE, JAIL)],
                            1: [(DEADWOOD, STAGECOACH), (DEADWOOD, TRAIN)]}, cash=[5, 5, 10])
    assert GAME.scores(states)[0, :3].tolist() == [6, 6, 5]
    assert GAME.returns(states)[0, :3].tolist() == [1.0, -1.0, -1.0]


def test_s11_4_still_tied_the_win_is_shared():
    """§11.4: equal VP, money and B&T counters: the tied players share the win (+1 each)."""
    states = _tie_position({0: [(SAN_ANTONIA, STAGECOACH), (SAN_ANTONIA, JAIL)],
                            1: [(DEADWOOD, STAGECOACH), (DEADWOOD, TRAIN)]}, cash=[5, 5, 10])
    assert GAME.returns(states)[0, :3].tolist() == [1.0, 1.0, -1.0]
    assert GAME.returns(states, "rank")[0, :3].tolist() == [0.5, 0.5, -1.0]


def test_s11_scores_and_rewards_zero_before_the_end():
    """§14: rewards are 0 until the game ends."""
    states = empty_board()
    assert states[0]["decision"] == DEC_CHOOSE_ACTION
    assert not GAME.returns(states).any()
