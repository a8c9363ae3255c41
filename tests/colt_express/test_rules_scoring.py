"""Rule tests of the end of the game and scoring (spec §9)."""

from __future__ import annotations

import numpy as np

from tests.colt_express._helpers import CARRIAGES
from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import CHEYENNE, DOC, GHOST, IN, TUCO
from wildwest_envs.colt_express.positions import place, position


def _scores(states):
    out = np.zeros((1, 6), dtype=np.int32)
    rules.scores(states, out)
    return list(out[0])


def _ties(states):
    out = np.zeros((1, 6), dtype=np.int32)
    rules.tiebreak(states, out)
    return list(out[0])


def test_s9_1_loot_value_counts_true_purse_values_jewels_strongboxes_and_ransoms():
    """§9.1: purses at their true value + $500 per jewel + $1000 per strongbox + $250 per ransom."""
    states = position(3, seed=1, characters=[GHOST, DOC, TUCO], carriages=CARRIAGES[3],  # 2 jewels
                      bullets_left=[5, 6, 6], bullets_received={2: 1},  # Gunslinger only for seat 0 (he hit Tuco)
                      purses={7: 1}, purse_values={7: 450}, jewels={1: 2}, strongboxes={1: 1}, ransoms={1: 1})
    assert _scores(states) == [250 + 1000, 250 + 450 + 1000 + 1000 + 250, 250, 0, 0, 0]


def test_s9_2_gunslinger_bonus_to_every_player_with_most_shots():
    """§9.2: every player tied for the most shots gets $1000; with no shot at all everybody gets it."""
    states = position(4, seed=1, bullets_left=[3, 5, 3, 6], bullets_received={3: 7})  # every shot hit seat 3
    assert _scores(states)[:4] == [1250, 250, 1250, 250]
    place(states, bullets_left=[6] * 4, bullets_received=[0] * 4)
    assert _scores(states)[:4] == [1250] * 4


def test_s9_3_two_players_score_the_team_without_gunslinger_bonus():
    """§9.3, §3.3 step 9: the score of a seat is the sum over its two bandits, no bonus."""
    states = position(2, seed=1, characters=[GHOST, DOC, CHEYENNE, TUCO], carriages=CARRIAGES[2],  # 2 jewels
                      bullets_left=[0, 6, 6, 6], bullets_received={2: 6}, jewels={3: 1, (3, IN): 1},
                      purses={2: (1, IN)})  # Cheyenne's purse lies on the train
    assert _scores(states) == [500, 250 + 500, 0, 0, 0, 0]


def test_s9_4_tiebreak_fewest_bullet_cards_received_team_totals():
    """§9.4, G23: higher key is better: minus every bullet card received (team sum with 2 players)."""
    states = position(4, seed=1, bullets_received=[2, 0, 5, 1])  # neutral bullets all
    assert _ties(states) == [-2, 0, -5, -1, 0, 0]
    states = position(2, seed=1, bullets_received=[2, 1, 0, 3])
    assert _ties(states) == [-3, -3, 0, 0, 0, 0]
