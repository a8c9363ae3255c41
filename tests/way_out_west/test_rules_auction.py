"""Rule tests of phase A, the turn-order auction (spec §6)."""

from __future__ import annotations

from tests.way_out_west._helpers import setup_done
from wildwest_envs.way_out_west.data import (A_PASS, A_RAISE, DEC_AUCTION_BID, DEC_CHOOSE_ACTION, PHASE_ACTIONS,
                                             RAISE_STEPS)
from wildwest_envs.way_out_west.positions import legal_actions, place, play

RAISE = {int(k): A_RAISE + i for i, k in enumerate(RAISE_STEPS)}  # raise step k -> action id


def test_s6_1_bidding_starts_with_position_1_of_the_previous_order():
    """§6.1: round 1 bids in the setup order, from the start player."""
    states = setup_done(4, start_player=2)
    s = states[0]
    assert s["bidding_order"][:4].tolist() == [2, 3, 0, 1] and s["current"] == 2
    assert s["decision"] == DEC_AUCTION_BID and s["high_bid"] == 0


def test_s6_1_raise_legal_only_if_the_new_total_fits_the_cash():
    """§6.1, §16 #51: RAISE_k is legal iff high + k <= cash; PASS (drop out) is always legal."""
    states = setup_done(3)
    place(states, cash={0: 5})
    assert legal_actions(states) == [A_PASS] + [RAISE[k] for k in (1, 2, 3, 4, 5)]
    play(states, RAISE[3])  # seat 0: high bid 3
    place(states, cash={1: 6})
    assert legal_actions(states) == [A_PASS] + [RAISE[k] for k in (1, 2, 3)]  # 3 + k <= 6
    place(states, cash={1: 3})
    assert legal_actions(states) == [A_PASS]


def test_s6_1_raise_replaces_the_committed_bid_and_cash_is_untouched():
    """§6.1: the new committed bid is high + k (replacing the old one); cash is paid only at the end."""
    states = setup_done(3)
    play(states, RAISE[2])  # seat 0 bids 2
    play(states, RAISE[3])  # seat 1 bids 5
    play(states, RAISE[1])  # seat 2 bids 6
    play(states, RAISE[4])  # seat 0 bids 10, not 2 + 10
    s = states[0]
    assert s["bid"][:3].tolist() == [10, 5, 6] and s["high_bid"] == 10 and s["high_bidder"] == 0
    assert s["cash"][:3].tolist() == [20, 20, 20]


def test_s6_3_worked_example_four_players():
    """§6.3: previous order 2, 0, 1, 3; the bids and drops of the example give order 2, 1, 3, 0 and payments."""
    states = setup_done(4, start_player=2)
    s = states[0]
    s["turn_order"][:4] = [2, 0, 1, 3]  # the example's previous order (the setup order here is 2, 3, 0, 1)
    s["bidding_order"][:4] = [2, 0, 1, 3]
    play(states, RAISE[1])  # seat 2: bid 1
    assert states[0]["current"] == 0
    play(states, A_PASS)  # seat 0 drops: position 4
    play(states, RAISE[2])  # seat 1: bid 3
    play(states, A_PASS)  # seat 3 drops: position 3
    assert states[0]["current"] == 2  # seat 0 skipped
    play(states, RAISE[1])  # seat 2: bid 4
    play(states, A_PASS)  # seat 1 drops: position 2, pays 3
    s = states[0]
    assert s["turn_order"][:4].tolist() == [2, 1, 3, 0]
    assert s["cash"][:4].tolist() == [20, 17, 16, 20]  # seat 2 paid 4, seat 1 paid 3
    assert s["bank_in"] == 7
    assert s["decision"] == DEC_CHOOSE_ACTION and s["phase"] == PHASE_ACTIONS and s["current"] == 2


def test_s6_1_dropping_players_fill_the_order_from_the_back_and_the_last_wins_with_zero():
    """§6.1: first to drop is last; the only bidder left wins position 1 at once, even with a bid of 0."""
    states = setup_done(5)
    for _ in range(4):
        play(states, A_PASS)
    s = states[0]
    assert s["turn_order"][:5].tolist() == [4, 3, 2, 1, 0]
    assert s["bid"][:5].tolist() == [0] * 5 and s["cash"][:5].tolist() == [25] * 5
    assert s["decision"] == DEC_CHOOSE_ACTION  # the last bidder was never asked


def test_s6_1_everybody_pays_his_committed_bid():
    """§6.1, §16 #8: dropped players pay their committed bids, the winner too."""
    states = setup_done(3)
    play(states, RAISE[5])  # seat 0: 5
    play(states, RAISE[3])  # seat 1: 8
    play(states, A_PASS)  # seat 2 drops with 0: position 3
    play(states, A_PASS)  # seat 0 drops with 5: position 2; seat 1 wins with 8
    s = states[0]
    assert s["turn_order"][:3].tolist() == [1, 0, 2]
    assert s["cash"][:3].tolist() == [15, 12, 20]


def test_s6_1_a_player_never_faces_his_own_high_bid():
    """§6.1: after a raise the next bidder is another player still bidding."""
    states = setup_done(3)
    play(states, RAISE[1])  # seat 0
    play(states, A_PASS)  # seat 1 drops
    play(states, RAISE[1])  # seat 2
    assert states[0]["current"] == 0
    play(states, RAISE[1])  # seat 0
    assert states[0]["current"] == 2


def test_s6_2_guard_closes_the_auction_after_60_decisions_by_bid_then_bidding_order():
    """§6.2: at 60 decisions the players still bidding take the best positions by bid, ties by bidding order."""
    states = setup_done(3)
    place(states, cash=1000)  # every seat
    play(states, A_PASS)  # seat 0 drops first: position 3
    for _ in range(58):  # seats 1 and 2 raise by 1 alternately: decisions 2..59
        play(states, RAISE[1])
    s = states[0]
    assert s["auction_decisions"] == 59 and s["decision"] == DEC_AUCTION_BID
    assert s["current"] == 1 and s["bid"][1] == 57 and s["bid"][2] == 58
    play(states, RAISE[1])  # the 60th decision: seat 1 bids 59
    s = states[0]
    assert s["decision"] == DEC_CHOOSE_ACTION
    assert s["turn_order"][:3].tolist() == [1, 2, 0]
    assert s["cash"][:3].tolist() == [1000, 1000 - 59, 1000 - 58]


def test_s6_2_guard_ties_go_to_the_earlier_bidder():
    """§6.2: equal committed bids at the guard: earlier in this round's bidding sequence first."""
    states = setup_done(3)
    s = states[0]
    s["bidding_order"][:3] = [2, 0, 1]
    s["current"] = 2
    s["auction_decisions"] = 59  # edited: the next decision is the 60th
    s["bid"][:3] = [4, 4, 4]
    s["high_bid"] = 4
    play(states, A_PASS)  # seat 2 drops: position 3; seats 0 and 1 still bid 4 each
    s = states[0]
    assert s["turn_order"][:3].tolist() == [0, 1, 2]


def test_s6_later_rounds_bid_in_the_previous_turn_order():
    """§6.1: the next round's auction goes round the previous round's turn order from its position 1."""
    states = setup_done(3)
    play(states, RAISE[1], A_PASS, A_PASS)  # seat 0 wins: order 0, 2, 1
    assert states[0]["turn_order"][:3].tolist() == [0, 2, 1]
    while states[0]["decision"] != DEC_AUCTION_BID:
        play(states, A_PASS)  # everybody passes both action turns
    s = states[0]
    assert s["round"] == 2 and s["bidding_order"][:3].tolist() == [0, 2, 1] and s["current"] == 0
    assert s["bid"][:3].tolist() == [0, 0, 0] and s["high_bid"] == 0 and s["high_bidder"] == -1
