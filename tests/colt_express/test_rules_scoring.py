"""Rule tests of the end of the game and scoring (spec §9)."""

from __future__ import annotations

import numpy as np

from tests.colt_express.positions import position
from wildwest_envs.colt_express import rules
from wildwest_envs.colt_express.data import CHEYENNE, DOC, GHOST, PURSE_IN_BOX, PURSE_ON_BANDIT, TUCO


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
    states = position(3, seed=1, characters=[GHOST, DOC, TUCO])
    s = states[0]
    s["bullets_left"][:3] = [5, 6, 6]  # Gunslinger only for seat 0
    s["purse_value"][7] = 450
    s["purse_location"][7] = PURSE_ON_BANDIT + 1
    s["jewels_held"][1] = 2
    s["strongboxes_held"][1] = 1
    s["ransoms"][1] = 1
    assert _scores(states) == [250 + 1000, 250 + 450 + 1000 + 1000 + 250, 250, 0, 0, 0]


def test_s9_2_gunslinger_bonus_to_every_player_with_most_shots():
    """§9.2: every player tied for the most shots gets $1000; with no shot at all everybody gets it."""
    states = position(4, seed=1)
    s = states[0]
    s["bullets_left"][:4] = [3, 5, 3, 6]
    assert _scores(states)[:4] == [1250, 250, 1250, 250]
    s["bullets_left"][:4] = 6
    assert _scores(states)[:4] == [1250] * 4


def test_s9_3_two_players_score_the_team_without_gunslinger_bonus():
    """§9.3, §3.3 step 9: the score of a seat is the sum over its two bandits, no bonus."""
    states = position(2, seed=1, characters=[GHOST, DOC, CHEYENNE, TUCO])
    s = states[0]
    s["bullets_left"][:4] = [0, 6, 6, 6]
    s["jewels_held"][3] = 1
    s["purse_location"][2] = PURSE_IN_BOX
    assert _scores(states) == [500, 250 + 500, 0, 0, 0, 0]


def test_s9_4_tiebreak_fewest_bullet_cards_received_team_totals():
    """§9.4, G23: higher key is better: minus every bullet card received (team sum with 2 players)."""
    states = position(4, seed=1)
    states[0]["bullets_received"][:4] = [2, 0, 5, 1]
    assert _ties(states) == [-2, 0, -5, -1, 0, 0]
    states = position(2, seed=1)
    states[0]["bullets_received"][:4] = [2, 1, 0, 3]
    assert _ties(states) == [-3, -3, 0, 0, 0, 0]
