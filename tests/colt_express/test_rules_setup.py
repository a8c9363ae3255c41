"""Rule tests of Colt Express setup (spec §3, §10.3, §11.5), through the public kernels."""

from __future__ import annotations

import numpy as np
import pytest

from tests.colt_express._helpers import kernel_init
from wildwest_envs.colt_express.data import (BULLET_CARD, BULLETS_PER_BANDIT, CARD_COPIES, CARRIAGE_JEWELS,
                                             CARRIAGE_PURSES, DEC_BULLETS, DEC_PLAN, DOC, GHOST, IN,
                                             LARGE_GROUP_CARDS, LOCOMOTIVE_TYPE, MARSHAL, N_CARD_KINDS_HELD,
                                             N_NEUTRAL_BULLETS, N_PURSES, PURSE_IN_BOX, PURSE_ON_BANDIT,
                                             PURSE_VALUES, SMALL_GROUP_CARDS, STATION_CARDS, TUCO, CHEYENNE,
                                             DJANGO)
from wildwest_envs.colt_express.positions import position

GOLDEN = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


def _owned_cards(s, seat: int) -> np.ndarray:
    """Count per card code of everything a seat owns (hand, deck, discard)."""
    counts = s["hand"][seat].astype(int) + s["discard"][seat].astype(int)
    for j in range(s["deck_size"][seat]):
        counts[s["deck"][seat, j]] += 1
    return counts


def _draws_used(seed: int, s) -> int:
    """Number of generator draws made since ``seed`` (splitmix64 adds GOLDEN per draw)."""
    steps = ((int(s["rng"]) - seed) & MASK64) * pow(GOLDEN, -1, 1 << 64) & MASK64
    return steps


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_s3_1_each_bandit_has_a_character_six_bullets_and_a_250_purse(n):
    """§3.1 steps 1-4, §2.4: distinct characters, 6 bullet cards, one $250 purse each."""
    s = position(n, seed=n)[0]
    chars = list(s["character"][:n])
    assert len(set(chars)) == n and all(0 <= c < 6 for c in chars)
    assert all(c == -1 for c in s["character"][n:])
    assert list(s["bullets_left"][:n]) == [BULLETS_PER_BANDIT] * n
    for b in range(n):
        assert s["purse_location"][b] == PURSE_ON_BANDIT + b and s["purse_value"][b] == 250


@pytest.mark.parametrize("n", [3, 6])
def test_s3_1_standard_deck_is_ten_action_cards_and_hand_of_six_or_seven_for_doc(n):
    """§2.4, §3.1 step 3, §3.2: 10 action cards per player; hand of 6, Doc 7 (§7)."""
    s = position(n, seed=11, characters=[DOC, GHOST, CHEYENNE, TUCO, DJANGO, 5][:n])[0]
    for seat in range(n):
        owned = _owned_cards(s, seat)
        assert list(owned[:6]) == list(CARD_COPIES) and owned[6:].sum() == 0
        assert s["hand"][seat].sum() == (7 if seat == 0 else 6)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_s3_1_loot_inside_carriages_as_printed(n):
    """§3.1 step 6, §2.1: each carriage holds its printed purses and jewels, inside."""
    s = position(n, seed=3 + n)[0]
    c = int(s["n_carriages"])
    for car in range(1, c + 1):
        ctype = s["car_type"][car]
        assert (s["purse_location"] == car * 2 + IN).sum() == CARRIAGE_PURSES[ctype]
        assert s["floor_jewels"][car * 2 + IN] == CARRIAGE_JEWELS[ctype]
        assert (s["purse_location"] == car * 2 + 1).sum() == 0 and s["floor_jewels"][car * 2 + 1] == 0
    assert s["car_type"][0] == LOCOMOTIVE_TYPE
    assert len(set(s["car_type"][1:c + 1])) == c


def test_s3_1_marshal_strongbox_and_neutral_supply_at_start():
    """§3.1 steps 7 and 9: marshal and one strongbox inside the locomotive, second aside; 13 neutrals."""
    s = position(4, seed=5)[0]
    assert s["marshal_car"] == 0
    assert s["floor_strongboxes"][0 * 2 + IN] == 1 and s["floor_strongboxes"].sum() == 1
    assert not s["second_strongbox_placed"]
    assert s["neutral_supply"] == N_NEUTRAL_BULLETS and not s["supply_removed"]


@pytest.mark.parametrize("n", [3, 5])
def test_s3_1_round_deck_is_four_group_cards_then_a_station_card(n):
    """§3.1 step 8: 4 distinct cards of the player-count group, then one station card."""
    group = SMALL_GROUP_CARDS if n <= 4 else LARGE_GROUP_CARDS
    for seed in range(20):
        deck = list(position(n, seed=seed)[0]["round_deck"])
        assert len(set(deck[:4])) == 4 and all(c in group for c in deck[:4])
        assert deck[4] in STATION_CARDS


@pytest.mark.parametrize("n, cars, purses_on_train", [(2, 4, None), (3, 3, None), (4, 4, None), (5, 5, None),
                                                     (6, 6, 12)])
def test_s3_2_player_count_table(n, cars, purses_on_train):
    """§3.2: C carriages, B bandits, starting purses, and the starting locations from the first player."""
    s = position(n, seed=40 + n)[0]
    b = 4 if n == 2 else n
    assert s["n_carriages"] == cars and s["n_bandits"] == b
    assert (s["purse_location"] >= PURSE_ON_BANDIT).sum() - (s["purse_location"] >= PURSE_IN_BOX).sum() == b
    on_train = (s["purse_location"] < PURSE_ON_BANDIT).sum()
    assert on_train == sum(CARRIAGE_PURSES[t] for t in s["car_type"][1:cars + 1])
    if purses_on_train is not None:
        assert on_train == purses_on_train
    first = int(s["first_player"])
    for seat in range(n):
        if n == 2:
            assert (s["bandit_car"][2 * seat], s["bandit_car"][2 * seat + 1]) == (4, 3)
        else:
            assert s["bandit_car"][seat] == (cars if (seat - first) % n % 2 == 0 else cars - 1)
    assert all(s["bandit_level"][:b] == IN)


def test_s3_3_two_player_team_deck_of_eleven_cards():
    """§3.3 step 4, G7: Move, Floor, Fire, Punch, Rob of each bandit (codes 0-4, 6-10) plus one Marshal (code 5)."""
    s = position(2, seed=9)[0]
    for seat in range(2):
        owned = _owned_cards(s, seat)
        assert list(owned[:N_CARD_KINDS_HELD]) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
        assert owned[MARSHAL] == 1 and owned[BULLET_CARD] == 0


def test_s3_3_two_player_game_is_always_expert_with_two_bandits_each():
    """§3.3 steps 3, 6-7: expert rules, 4 bandits with own bullets and purses, hands refilled to 6 (7 with Doc)."""
    s = kernel_init(2, seed=1, expert=False, characters=[DOC, GHOST, TUCO, CHEYENNE])[0]  # the kernel's own rule
    assert s["expert"] and s["bandits_per_seat"] == 2
    assert list(s["bullets_left"][:4]) == [6] * 4
    assert s["hand"][0].sum() == 7 and s["hand"][1].sum() == 6
    assert s["decision"] == DEC_PLAN  # nobody received a bullet yet: no BULLETS question (§4.2)


def test_s3_5_given_characters_and_carriages_are_used():
    """§3.5: options given are taken as they are."""
    s = position(4, seed=2, characters=[5, 3, 1, 0], carriages=[2, 0, 5, 4])[0]
    assert list(s["character"][:4]) == [5, 3, 1, 0]
    assert list(s["car_type"][:5]) == [LOCOMOTIVE_TYPE, 2, 0, 5, 4]


def test_s3_5_same_seed_same_game_different_seeds_different_games():
    """§3.5, §11.5: all chance comes from the game's generator."""
    a, b, c = position(5, seed=77), position(5, seed=77), position(5, seed=78)
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != c.tobytes()


def test_s3_5_a_given_option_skips_its_draws_only():
    """§3.5, §11.5: draws of given options are skipped, the order of the others is unchanged.

    Characters are drawn with 5 generator draws (a shuffle of six), carriages
    with 5 more; giving both options equals starting the generator 10 draws on.
    """
    seed = 12345
    drawn = position(4, seed=seed)[0]
    chars, cars = list(drawn["character"][:4]), list(drawn["car_type"][1:5])
    given = position(4, seed=(seed + 10 * GOLDEN) & MASK64, characters=chars, carriages=cars)
    assert given.tobytes() == drawn.tobytes()


def test_s11_5_setup_draw_count_and_no_second_shuffle_in_round_one():
    """§11.5, G32: setup makes exactly its draws; the first round's hands come from the setup shuffle."""
    n, seed = 3, 99
    s = position(n, seed=seed)[0]
    expected = 5 + 5 + (N_PURSES - n - 1) + 6 + 1 + 1 + n * 9
    assert _draws_used(seed, s) == expected


def test_s10_3_purse_ids_and_values():
    """§10.3: ids 0..B-1 start on the bandits ($250); carriage purses take ids B.. in car order; all values dealt."""
    s = position(5, seed=21)[0]
    assert sorted(s["purse_value"]) == sorted(PURSE_VALUES)
    next_id = 5
    for car in range(1, 6):
        k = CARRIAGE_PURSES[s["car_type"][car]]
        assert all(s["purse_location"][next_id:next_id + k] == car * 2 + IN)
        next_id += k
    assert all(s["purse_location"][next_id:] == PURSE_IN_BOX)


def test_s10_3_starting_purses_are_known_to_everybody():
    """§10.3, G25: every seat knows the starting purses ($250), nothing else at setup."""
    s = position(4, seed=8)[0]
    assert all(int(s["purse_known"][seat]) == 0b1111 for seat in range(4))
    assert all(int(k) == 0 for k in s["purse_known"][4:])


def test_s4_2_expert_first_round_has_no_bullets_question():
    """§4.2 step 3: nobody has received a bullet card before the first round, so nobody is asked."""
    s = position(4, seed=3, expert=True)[0]
    assert s["decision"] == DEC_PLAN and s["decision"] != DEC_BULLETS
    assert s["current"] == s["first_player"]
