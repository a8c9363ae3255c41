"""Rule tests of Wild West Express setup (spec §5, §17.4), through the public kernels."""

from __future__ import annotations

import numpy as np
import pytest

from tests._empty_values import assert_clears_to_empty_values
from tests.wild_west_express._helpers import setup_played
from wildwest_envs.wild_west_express.data import (A_SPACE, CARGO_EMPTY, DEC_DRAFT_CITY, DEC_PLACE_DESPERADO,
                                                  DEC_PRE_ROLL, N_CARDS, START_CARGO, START_CASH)
from wildwest_envs.wild_west_express.positions import legal_actions, play, position
from wildwest_envs.wild_west_express.scoring import victory_points

GOLDEN = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


def _first_draw(seed: int, n: int) -> int:
    """The first ``draw_below(n)`` of a record seeded with ``seed`` (splitmix64, core.rng)."""
    z = (seed + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return ((z >> 32) * n) >> 32


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_s5_1_start_player_is_the_first_draw_of_the_rng(n):
    """§5 item 1, §17.4: the start seat is one uniform draw, the first use of the game's RNG."""
    for seed in range(12):
        s = position(n, seed, decision="draft")[0]
        assert s["start_player"] == _first_draw(seed, n)
        assert s["decision"] == DEC_DRAFT_CITY and s["current"] == s["start_player"]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_s5_2_snake_draft_order(n):
    """§5 item 2: picks in the order s, s+1, ..., s+N-1, then s+N-1, ..., s."""
    states = position(n, 3, decision="draft")
    s0 = int(states[0]["start_player"])
    seen = []
    for c in range(2 * n):
        assert states[0]["decision"] == DEC_DRAFT_CITY
        seen.append(int(states[0]["current"]))
        assert A_SPACE + c in legal_actions(states)
        play(states, A_SPACE + c)
        if states[0]["decision"] == DEC_DRAFT_CITY:
            assert A_SPACE + c not in legal_actions(states)  # a picked city cannot be picked again
    forward = [(s0 + i) % n for i in range(n)]
    assert seen == forward + forward[::-1]


def test_s5_3_desperados_placed_in_own_start_cities_in_seat_order():
    """§5 item 3: in the order s, s+1, ..., each player places his desperado in one of his two start cities."""
    states = position(3, 1, decision="draft")
    for c in range(6):
        play(states, A_SPACE + c)
    s = states[0]
    s0 = int(s["start_player"])
    for i in range(3):
        seat = (s0 + i) % 3
        assert s["decision"] == DEC_PLACE_DESPERADO and s["current"] == seat
        cities = sorted(int(c) for c in s["start_city"][seat])
        assert legal_actions(states) == [A_SPACE + c for c in cities]
        play(states, A_SPACE + cities[1])
        assert s["desp_pos"][seat, 0] == cities[1]


def test_s5_3_two_player_variant_places_two_desperados_each():
    """§5 item 3: with 2 players each places a second desperado after all first ones (default on)."""
    s = setup_played(2)[0]
    assert list(s["n_desperados"][:2]) == [2, 2]
    for seat in range(2):
        for k in range(2):
            assert s["desp_pos"][seat, k] in s["start_city"][seat]
    s1 = setup_played(2, two_player_extra_desperado=False)[0]
    assert list(s1["n_desperados"][:2]) == [1, 1]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_s5_4_to_7_start_position(n):
    """§5 items 4-7: small trains with the free cheapest good in the two start cities, $450, 4 VP."""
    s = setup_played(n, n)[0]
    for seat in range(n):
        for t in range(2):
            c = int(s["start_city"][seat, t])
            assert s["city_owner"][c] == seat
            assert s["train_exists"][seat, t] and not s["train_large"][seat, t]
            assert s["train_pos"][seat, t] == c and s["train_from"][seat, t] == -1
            assert list(s["train_cargo"][seat, t]) == [START_CARGO[c], CARGO_EMPTY]
        assert s["train_exists"][seat, 2:].sum() == 0
        assert s["cash"][seat] == START_CASH
        assert victory_points(s, seat) == 4
    assert s["round"] == 1 and s["active"] == s["start_player"] and s["decision"] == DEC_PRE_ROLL


def test_s5_6_deck_is_one_shuffle_of_all_cards_and_pieces_off_board():
    """§5 item 6: 52 shuffled cards, no competition, sheriffs off the board, 18 dynamite in the supply."""
    s = setup_played(3)[0]
    assert sorted(s["deck"]) == list(range(N_CARDS)) and s["deck_size"] == N_CARDS
    assert list(s["deck"]) != list(range(N_CARDS))
    assert s["never_drawn"] == N_CARDS
    assert list(s["comp_card"]) == [-1, -1, -1]
    assert list(s["sheriff_pos"]) == [-1, -1]
    assert s["dynamite_supply"] == 18 and s["dynamite"].sum() == 0


def test_s17_4_same_seed_same_game_different_seed_different_deal():
    """§17.4 / DESIGN: the same seed gives the same record; different seeds differ."""
    a = setup_played(4, seed=9)
    b = setup_played(4, seed=9)
    c = setup_played(4, seed=10)
    assert a.tobytes() == b.tobytes()
    assert not np.array_equal(a[0]["deck"], c[0]["deck"])


def test_s17_5_a_game_over_clears_every_procedure_to_its_declared_empty_value():
    """§17.5 levels 2-4: ``clear_procedures`` (at the end of a game) leaves no move, landing, card, sheriff, queued
    move or desperado move in progress: each field it writes takes the value ``state.EMPTY_VALUES`` declares,
    the one a new game starts with."""
    from wildwest_envs.wild_west_express.setup import clear_procedures
    from wildwest_envs.wild_west_express.state import EMPTY_RECORD

    changed = assert_clears_to_empty_values(clear_procedures, EMPTY_RECORD, at_least=20)
    assert {"move_active", "landing_step", "card_active", "queue_train", "desp_index"} <= set(changed)
