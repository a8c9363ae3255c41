"""Rule tests of the round structure: round start, Schemin', end of Schemin', Stealin' order (spec §4, §7)."""

from __future__ import annotations

import numpy as np

from wildwest_envs.colt_express.data import (A_BULLETS_DISCARD, A_BULLETS_KEEP, A_CAR, A_DISCARD, A_DRAW,
                                             A_KEEP_REST, A_PLAY_DOWN, BULLET_CARD, CHEYENNE,
                                             DEC_BULLETS, DEC_KEEP, DEC_MOVE_DEST, DEC_PLAN, DJANGO, DOC, FIRE,
                                             FLOOR, GHOST, IN, MOVE, ROB, ROOF, TUCO, BELLE)
from wildwest_envs.colt_express.positions import legal_actions, place, play, position

CHARS4 = [CHEYENNE, DJANGO, TUCO, BELLE]  # no Ghost, no Doc
BRIDGE = "Bridge"  # N S N (2-4 players): no event, so an empty pile leads straight to the next round


def _pick(legal: list[int]) -> int:
    """A card play when there is one, else the first legal action."""
    plays = [a for a in legal if a < A_DRAW]
    return plays[0] if plays else legal[0]


def _schemin_sequence(states) -> list[tuple[int, int, int]]:
    """(turn, seat, play_in_turn) of every PLAN decision until Schemin' ends."""
    seq = []
    while states[0]["decision"] == DEC_PLAN:
        s = states[0]
        seq.append((int(s["turn"]), int(s["current"]), int(s["play_in_turn"])))
        play(states, _pick(legal_actions(states)))
    return seq


def test_s4_2_standard_round_start_shuffles_every_card_and_deals_six():
    """§4.2 step 1 (standard): all cards incl. received bullets are shuffled into the deck; 6 cards are dealt."""
    states = position(3, seed=4, characters=CHARS4[:3], decision="stealin", round_card=BRIDGE,
                      bullets_received={1: 2})  # two bullet cards on seat 1's deck; straight to round 1
    s = states[0]
    assert s["round"] == 1
    for seat in range(3):
        assert s["hand"][seat].sum() == 6
    assert s["hand"][1].sum() + s["deck_size"][1] == 12 and s["discard"].sum() == 0


def test_s4_2_standard_doc_is_dealt_seven():
    """§4.2, §7 Doc: Doc starts each round with 7 cards."""
    states = position(3, seed=4, characters=[DOC, TUCO, BELLE], decision="stealin", round_card=BRIDGE)
    assert states[0]["hand"][0].sum() == 7 and states[0]["hand"][1].sum() == 6


def test_s4_2_expert_refill_counts_kept_cards():
    """§4.2 step 1 (expert): a hand is refilled to 6, kept cards count; a fuller hand draws nothing."""
    # round 0 ends with the last planner (seat 2) keeping the 3 cards he drew, the others keeping none
    states = position(3, seed=6, expert=True, characters=CHARS4[:3], decision="stealin", round_card=BRIDGE,
                      first_player=0, hands={0: [], 1: [], 2: ["Move", "Fire", "Rob"]})
    s = states[0]
    drawer = (int(s["first_player"]) + 1) % 3  # the last planner of round 0 (round 1 has rotated)
    assert s["round"] == 1
    for seat in range(3):
        assert s["hand"][seat].sum() == 6
    assert s["hand"][drawer].sum() == 6


def test_s4_2_expert_refill_reshuffles_the_discard_pile_when_the_deck_runs_out():
    """§3.4 step 6, §4.2 (expert), G20(f): the discard pile becomes the deck when a card must be drawn."""
    seat = 0  # the first player of round 0: his two Robs are all his draw deck, his other 8 cards discarded
    states = position(3, seed=6, expert=True, characters=CHARS4[:3], decision="stealin", round_card=BRIDGE,
                      first_player=seat, hands={seat: []}, decks={seat: ["Rob", "Rob"]},
                      discards={seat: ["Move", "Move", "Floor change", "Floor change", "Fire", "Fire", "Punch",
                                       "Marshal"]})
    s = states[0]
    assert s["round"] == 1
    assert s["hand"][seat, ROB] == 2 and s["hand"][seat].sum() == 6
    assert s["discard"][seat].sum() == 0 and s["deck_size"][seat] == 4  # the 8 reshuffled, 4 of them drawn


def test_s4_2_expert_bullets_question_goes_to_every_seat_that_received_a_bullet():
    """§4.2 step 3, G33: asked clockwise from the first player, holders or not; never-hit seats are not asked."""
    states = position(4, seed=8, expert=True, characters=CHARS4, decision="stealin", round_card=BRIDGE,
                      bullets_received={0: 1, 2: 1})
    s = states[0]
    first = int(s["first_player"])
    asked = []
    while s["decision"] == DEC_BULLETS:
        asked.append(int(s["current"]))
        assert legal_actions(states) == [A_BULLETS_DISCARD, A_BULLETS_KEEP]
        play(states, A_BULLETS_KEEP)
    assert asked == sorted([0, 2], key=lambda seat: (seat - first) % 4)
    assert s["decision"] == DEC_PLAN and s["current"] == first


def test_s4_2_expert_bullets_discard_moves_all_bullet_cards_to_the_discard_pile():
    """§4.2 step 3: BULLETS_DISCARD puts all bullet cards of the hand on the discard pile, KEEP keeps them."""
    states = position(3, seed=8, expert=True, characters=CHARS4[:3], decision="stealin", round_card=BRIDGE,
                      bullets_received={0: 2, 1: 2, 2: 2})
    s = states[0]
    first = int(s["first_player"])
    for j, action in enumerate([A_BULLETS_DISCARD, A_BULLETS_KEEP]):
        seat = (first + j) % 3
        assert s["decision"] == DEC_BULLETS and s["current"] == seat
        actions = [code for code in range(BULLET_CARD) for _ in range(int(s["hand"][seat, code]))]
        place(states, hands={seat: actions + ["bullet", "bullet"]})  # his two bullet cards drawn into his hand
        before = s["discard"][seat, BULLET_CARD]
        play(states, action)
        if action == A_BULLETS_DISCARD:
            assert s["hand"][seat, BULLET_CARD] == 0 and s["discard"][seat, BULLET_CARD] == before + 2
        else:
            assert s["hand"][seat, BULLET_CARD] == 2 and s["discard"][seat, BULLET_CARD] == before


def test_s4_3_normal_tunnel_and_switching_turn_orders():
    """§2.7, §4.3: N and T clockwise from the first player, R counter-clockwise; T face down only."""
    states = position(4, seed=2, characters=CHARS4, round_card=0)  # Angry Marshal, N N T R
    s = states[0]
    first = int(s["first_player"])
    seen_tunnel = False
    seq = []
    while s["decision"] == DEC_PLAN:
        legal = legal_actions(states)
        if s["turn"] == 2:
            seen_tunnel = True
            assert all(a >= A_PLAY_DOWN for a in legal)
        else:
            assert all(not (A_PLAY_DOWN <= a < A_DRAW) for a in legal)
        seq.append((int(s["turn"]), int(s["current"])))
        play(states, _pick(legal))
    clockwise = [(first + j) % 4 for j in range(4)]
    counter = [(first - j) % 4 for j in range(4)]
    assert seq == [(t, x) for t in range(3) for x in clockwise] + [(3, x) for x in counter]
    assert seen_tunnel


def test_s4_3_tunnel_cards_lie_face_down_on_the_pile():
    """§4.3 step 3: in a tunnel turn the card goes on the pile face down."""
    states = position(3, seed=2, characters=CHARS4[:3], auto_forced=False, round_card=5)  # Tunnel, N T N T N
    s = states[0]
    for _ in range(3):
        play(states, _pick(legal_actions(states)))
    size = int(s["pile_size"])
    play(states, _pick(legal_actions(states)))
    assert s["pile_size"] == size + 1 and s["pile_down"][size] == 1


def test_s4_3_speed_up_turn_gives_two_plays_in_a_row():
    """§2.7, §4.3 step 5, G21: in an S turn each player plays twice in a row, play+draw allowed."""
    states = position(3, seed=5, characters=CHARS4[:3], round_card=6)  # Bridge, N S N
    s = states[0]
    first = int(s["first_player"])
    seq = _schemin_sequence(states)
    order = [(first + j) % 3 for j in range(3)]
    assert seq == ([(0, x, 0) for x in order] + [(1, x, k) for x in order for k in (0, 1)]
                   + [(2, x, 0) for x in order])


def test_s4_3_two_player_switching_turn_has_normal_order():
    """§2.7: with 2 players a switching turn has the same order as a normal turn."""
    states = position(2, seed=5, round_card=0)  # N N T R
    s = states[0]
    first = int(s["first_player"])
    seq = _schemin_sequence(states)
    assert [seat for t, seat, _ in seq if t == 3] == [first, 1 - first]


def test_s4_3_draw_takes_three_cards():
    """§4.3 step 3: DRAW takes the top 3 cards of the deck into the hand."""
    states = position(3, seed=1, characters=CHARS4[:3])
    s = states[0]
    seat = int(s["current"])
    top = sorted(int(c) for c in s["deck"][seat, s["deck_size"][seat] - 3:s["deck_size"][seat]])
    hand = s["hand"][seat].copy()
    play(states, A_DRAW)
    drawn = s["hand"][seat].astype(int) - hand
    assert drawn.sum() == 3 and sorted(np.repeat(np.arange(13), drawn)) == top
    assert s["deck_size"][seat] == 1


def test_s4_3_draw_takes_what_is_left_and_is_illegal_on_an_empty_deck():
    """§4.3 step 3, G19: fewer than 3 cards: take them all; standard: no DRAW once the deck is empty."""
    seat = 0  # his third play of Braking (N N N N): his first two are on the pile, two cards are left in his deck
    stage = {"characters": CHARS4[:3], "round_card": 2, "first_player": seat, "icon": 2,
             "pile": [(seat, "Move"), (seat, "Fire")]}
    states = position(3, seed=1, decks={seat: ["Rob", "Rob"]}, **stage)
    s = states[0]
    assert s["hand"][seat].sum() == 6
    play(states, A_DRAW)
    assert s["hand"][seat].sum() == 8 and s["deck_size"][seat] == 0
    states = position(3, seed=1, decks={seat: []}, **stage)  # the same play with his deck empty
    s = states[0]
    assert s["decision"] == DEC_PLAN and s["current"] == seat
    assert A_DRAW not in legal_actions(states)


def test_s4_3_expert_draw_reshuffles_the_discard_pile():
    """§4.3 step 3 (expert): an empty deck is replaced by the shuffled discard pile and drawing goes on."""
    seat = 0  # his second play: a Rob on the pile, a Rob left in his deck; Punch, Marshal, 3 bullets discarded
    stage = {"expert": True, "characters": CHARS4[:3], "round_card": 2, "first_player": seat, "icon": 1,
             "pile": [(seat, "Rob")], "bullets_received": {seat: 3}}
    states = position(3, seed=1, hands={seat: ["Move", "Move", "Floor change", "Floor change", "Fire", "Fire"]},
                      decks={seat: ["Rob"]}, discards={seat: ["Punch", "Marshal"] + ["bullet"] * 3}, **stage)
    s = states[0]
    play(states, A_DRAW)
    assert s["hand"][seat].sum() == 9
    assert s["deck_size"][seat] + s["discard"][seat].sum() == 3 and s["discard"][seat].sum() == 0
    states = position(3, seed=1, decks={seat: []}, discards={seat: []}, **stage)  # the same play, nothing to draw
    s = states[0]
    assert s["decision"] == DEC_PLAN and s["current"] == seat
    assert A_DRAW not in legal_actions(states)


def test_s4_3_bullet_cards_can_never_be_played():
    """§4.3 step 4, §6.7: a hand of bullet cards only allows DRAW."""
    states = position(3, seed=1, characters=CHARS4[:3])
    seat = int(states[0]["current"])
    place(states, bullets_received={seat: 4}, hands={seat: ["bullet"] * 4})  # his action cards in his deck
    assert legal_actions(states) == [A_DRAW]


def test_s7_ghost_may_play_face_down_in_the_first_turn_only():
    """§7 Ghost, §11.3: PLAY_DOWN of his cards is legal in the round's first turn, not later (outside tunnels)."""
    states = position(3, seed=3, characters=[GHOST, TUCO, BELLE], round_card=6, first_player=0)  # N S N
    s = states[0]
    legal = legal_actions(states)
    assert any(A_PLAY_DOWN <= a < A_DRAW for a in legal) and any(a < A_PLAY_DOWN for a in legal)
    down = next(a for a in legal if A_PLAY_DOWN <= a < A_DRAW)
    play(states, down)
    assert s["pile_down"][0] == 1
    assert not any(A_PLAY_DOWN <= a < A_DRAW for a in legal_actions(states))  # Tuco
    play(states, A_DRAW)
    play(states, A_DRAW)
    assert s["current"] == 0 and s["turn"] == 1
    assert not any(A_PLAY_DOWN <= a < A_DRAW for a in legal_actions(states))


def test_s7_ghost_two_player_only_cards_of_his_colour_and_the_team_marshal():
    """§7, G13, §11.3: with 2 players Ghost's option covers Ghost's cards and the team's Marshal card (code 5)."""
    teams = [TUCO, GHOST, DOC, BELLE]
    every_card = list(range(11)) + ["bullet"]  # the 11 cards of a team (codes 0-10) and a bullet card
    states = position(2, seed=3, characters=teams, first_player=0, bullets_received={0: 1}, hands={0: every_card})
    s = states[0]
    assert s["current"] == 0
    down = [a - A_PLAY_DOWN for a in legal_actions(states) if A_PLAY_DOWN <= a < A_DRAW]
    assert down == [5, 6, 7, 8, 9, 10]
    states = position(2, seed=3, characters=teams, first_player=0, turn=1, bullets_received={2: 1},
                      hands={1: every_card})
    assert states[0]["current"] == 1
    assert not any(A_PLAY_DOWN <= a < A_DRAW for a in legal_actions(states))


def test_s4_4_standard_end_of_schemin_returns_hands_to_the_deck():
    """§4.4 (standard): cards left in hand go on top of the draw deck; hands are empty in Stealin'."""
    # the last play of Bridge (N S N) from first player 0 is seat 2's; seat 1 still holds a Rob
    states = position(3, seed=7, characters=CHARS4[:3], auto_forced=False, round_card=BRIDGE, first_player=0,
                      icon=2, turn=2, pile=[(0, MOVE)], hands={1: ["Rob"]})
    s = states[0]
    size = int(s["deck_size"][1])
    play(states, A_DRAW)
    assert s["decision"] == DEC_MOVE_DEST
    assert s["hand"].sum() == 0 and s["deck_size"][1] >= size + 1


def test_s4_4_expert_keep_in_order_sets_cards_aside_and_discards_at_once():
    """§4.4 (expert), §11.3, G33: KEEP clockwise from the first player, empty hands skipped; result at once."""
    # the last play of Bridge (N S N) from first player 0 is seat 2's; the second seat holds 2 Moves, a Fire
    # and 2 bullet cards, the others nothing
    states = position(3, seed=7, expert=True, characters=CHARS4[:3], round_card=BRIDGE, first_player=0, icon=2,
                      turn=2, bullets_received={1: 2}, hands={0: [], 1: [MOVE, MOVE, FIRE, "bullet", "bullet"], 2: []})
    s = states[0]
    drawer = int(s["current"])
    first = int(s["first_player"])
    second = (first + 1) % 3
    assert drawer == (first + 2) % 3
    discard = s["discard"][second].copy()
    play(states, A_DRAW)  # the first player's hand is empty: not asked
    assert s["decision"] == DEC_KEEP and s["current"] == second
    assert legal_actions(states) == [A_DISCARD + MOVE, A_DISCARD + FIRE, A_KEEP_REST]
    play(states, A_DISCARD + MOVE)
    assert s["keep_aside"][MOVE] == 1 and s["hand"][second, MOVE] == 1
    assert (s["discard"][second] == discard).all()  # nothing moves before the end of the decision
    play(states, A_KEEP_REST)
    assert s["hand"][second, MOVE] == 1 and s["hand"][second, FIRE] == 1 and s["hand"][second, BULLET_CARD] == 0
    assert s["discard"][second, MOVE] == discard[MOVE] + 1
    assert s["discard"][second, BULLET_CARD] == discard[BULLET_CARD] + 2
    assert s["keep_aside"].sum() == 0
    assert s["decision"] == DEC_KEEP and s["current"] == drawer


def test_s4_4_expert_keep_ends_when_every_action_card_is_set_aside():
    """§11.3 KEEP: the decision ends by itself once no action card is left; a bullets-only hand is still asked."""
    # the last play of Bridge from first player 0 (seat 2's); seat 0 holds a Rob, seat 1 a bullet card
    states = position(3, seed=7, expert=True, characters=CHARS4[:3], round_card=BRIDGE, first_player=0, icon=2,
                      turn=2, bullets_received={1: 1}, hands={0: ["Rob"], 1: ["bullet"], 2: []})
    s = states[0]
    first = int(s["first_player"])
    play(states, A_DRAW)
    assert s["decision"] == DEC_KEEP and s["current"] == first
    play(states, A_DISCARD + ROB)
    assert s["hand"][first].sum() == 0 and s["discard"][first, ROB] >= 1
    assert s["decision"] == DEC_KEEP and s["current"] == (first + 1) % 3
    assert legal_actions(states) == [A_KEEP_REST]


def test_s4_5_pile_resolves_first_played_first_and_reveals_face_down_cards_in_turn():
    """§4.5 steps 1-3, G22: card 0 first; ``resolving`` reaches a face-down card only when it is next."""
    states = position(3, seed=7, characters=CHARS4[:3], auto_forced=False, decision="stealin",
                      round_card=5,  # Tunnel, N T N T N: seat 2's Move was played in a tunnel turn
                      bandits={b: (2, IN) for b in range(3)}, pile=[(1, MOVE), (2, MOVE, True), (0, MOVE)])
    s = states[0]
    assert s["decision"] == DEC_MOVE_DEST and s["current"] == 1 and s["resolving"] == 0
    assert s["acting_bandit"] == 1 and s["pile_down"][1] == 1
    play(states, A_CAR + 3)
    assert s["current"] == 2 and s["resolving"] == 1
    play(states, A_CAR + 3)
    assert s["current"] == 0 and s["resolving"] == 2


def test_s4_5_every_card_returns_to_its_owner_even_without_effect():
    """§4.5 step 5, G37: standard rules, on top of the owner's draw deck, also for a card without effect."""
    states = position(3, seed=7, characters=CHARS4[:3], auto_forced=False, decision="stealin", round_card=BRIDGE,
                      bandits={b: (1, ROOF) for b in range(3)},  # no loot on the roof of car 1: Rob has no effect
                      pile=[(2, ROB), (0, MOVE)])
    s = states[0]
    size = int(s["deck_size"][2])
    assert s["decision"] == DEC_MOVE_DEST and s["resolving"] == 1  # the Rob was resolved without effect
    assert s["deck"][2, size - 1] == ROB


def test_s4_5_expert_resolved_card_goes_to_the_discard_pile():
    """§3.4 step 4, §4.5 step 5: with the expert rules the resolved card goes onto the owner's discard pile."""
    states = position(3, seed=7, expert=True, characters=CHARS4[:3], auto_forced=False, decision="stealin",
                      round_card=BRIDGE, bandits={0: (1, ROOF), 1: (1, ROOF), 2: (3, ROOF)},
                      pile=[(2, FLOOR), (0, MOVE)])
    s = states[0]
    assert s["decision"] == DEC_MOVE_DEST and s["resolving"] == 1
    assert s["discard"][2, FLOOR] == 1 and s["bandit_level"][2] == IN


def test_s4_7_first_player_passes_to_the_left():
    """§4.7: the left neighbour of the first player starts the next round."""
    first = int(position(4, seed=9, characters=CHARS4)[0]["first_player"])
    states = position(4, seed=9, characters=CHARS4, decision="stealin", round_card=BRIDGE)
    assert states[0]["round"] == 1 and states[0]["first_player"] == (first + 1) % 4
    assert states[0]["current"] == (first + 1) % 4
