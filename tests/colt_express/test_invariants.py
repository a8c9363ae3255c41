"""Colt Express state invariants: fresh and random-play records pass, each corruption is named."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.colt_express._random_states import CONFIG_IDS, CONFIGS, new_games, random_states
from wildwest_envs.colt_express.data import (BULLET_CARD, DEC_MOVE_DEST, DEC_PLAN, IN, MOVE, N_KINDS, N_PURSES,
                                             PURSE_IN_BOX, PURSE_ON_BANDIT)
from wildwest_envs.colt_express.invariants import INVARIANT_MESSAGES, N_INVARIANTS, validate_state
from wildwest_envs.colt_express.observation import OBS_SIZE, observe
from wildwest_envs.colt_express.state import NOBODY, STATE_DTYPE
from wildwest_envs.core.kernels import serial
from wildwest_envs.registry import get_game

_CHECK = get_game("colt_express_v0").invariants_kernel  # the serial build the library runs (core.kernels.serial)


def codes_of(states: np.ndarray) -> np.ndarray:
    """Invariant codes of a batch."""
    out = np.full(len(states), -1, dtype=np.int32)
    _CHECK(states, out)
    return out


def test_messages_are_indexed_by_code():
    """Code 0 is "ok"; every other code has its own message naming the fields."""
    assert INVARIANT_MESSAGES[0] == "ok"
    assert len(INVARIANT_MESSAGES) == N_INVARIANTS + 1
    assert len(set(INVARIANT_MESSAGES)) == len(INVARIANT_MESSAGES)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_fresh_games_are_consistent(config):
    """§3: every freshly set-up game, at every player count and rule set, passes every check."""
    states = new_games(*config, n_games=64, seed=5)
    assert (codes_of(states) == 0).all()
    for record in states[:8]:
        assert validate_state(record) == []


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_random_play_keeps_every_invariant(config):
    """Every record of seeded random games (every decision, and the end) is consistent."""
    states = random_states(*config)
    codes = codes_of(states)
    assert (codes == 0).all(), [INVARIANT_MESSAGES[c] for c in set(codes.tolist()) - {0}]
    assert validate_state(states[-1]) == []


# ---- corruptions ---------------------------------------------------------------------------------------------
def fresh(num_players: int = 4, expert: bool = False) -> np.ndarray:
    """A (1,) batch: a new 4-player standard game (or as asked), at its first PLAN decision."""
    return new_games(num_players, expert, 1, seed=11).copy()


def stealing_standard() -> np.ndarray:
    """A (1,) batch: a standard-rules game at a Stealin' decision (hands are empty)."""
    states = random_states(4, False)
    return states[np.flatnonzero(states["decision"] >= DEC_MOVE_DEST)[:1]].copy()


def planning_with_pile() -> np.ndarray:
    """A (1,) batch: a standard 4-player game at a PLAN decision with cards on the pile."""
    states = random_states(4, False)
    return states[np.flatnonzero((states["decision"] == DEC_PLAN) & (states["pile_size"] >= 2))[:1]].copy()


def set_field(name, value, index=None):
    """A corruption that writes one field (or one entry of it)."""
    def corrupt(r):
        if index is None:
            r[name] = value
        else:
            r[name][index] = value
    return corrupt


def swap_purse_values(i_from_end: bool):
    """Corruption: the value of purse 0 (a starting purse) exchanged with a $500 purse."""
    def corrupt(r):
        j = int(np.flatnonzero(r["purse_value"] == 500)[0])
        r["purse_value"][0], r["purse_value"][j] = 500, 250
    return corrupt


def first_box_purse_to_train(r):
    """Corruption: a purse of the box appears inside car 1."""
    r["purse_location"][int(np.flatnonzero(r["purse_location"] == PURSE_IN_BOX)[0])] = 1 * 2 + IN


def bandit_into_marshal_car(r):
    """Corruption: bandit 0 inside the marshal's car."""
    r["bandit_car"][0] = r["marshal_car"]
    r["bandit_level"][0] = IN


def top_deck_card_to(place: str):
    """Corruption: seat 0's top deck card moves to its discard pile or its hand."""
    def corrupt(r):
        n = int(r["deck_size"][0]) - 1
        code = int(r["deck"][0, n])
        r["deck"][0, n] = NOBODY
        r["deck_size"][0] = n
        r[place][0, code] += 1
    return corrupt


def hand_card_aside(r):
    """Corruption: a hand card of seat 0 set aside outside a KEEP decision."""
    code = int(np.flatnonzero(r["hand"][0, :BULLET_CARD])[0])
    r["hand"][0, code] -= 1
    r["keep_aside"][code] += 1


def top_deck_card_changes_kind(r):
    """Corruption: seat 0's top deck card becomes another action card (one kind more, one fewer)."""
    n = int(r["deck_size"][0]) - 1
    r["deck"][0, n] = (int(r["deck"][0, n]) + 1) % N_KINDS


def pile_card_to_next_seat(r):
    """Corruption: the first card on the pile passes to the next seat (both seats' counts break)."""
    r["pile_owner"][0] = (int(r["pile_owner"][0]) + 1) % int(r["num_players"])


def clear_own_purse_knowledge(r):
    """Corruption: the seat of bandit 0 forgets the value of its own purse 0."""
    r["purse_known"][0] = int(r["purse_known"][0]) & ~1


def copy_entry(name, to, frm):
    """Corruption: entry ``to`` of a field becomes a copy of entry ``frm`` (duplicates)."""
    def corrupt(r):
        r[name][to] = r[name][frm]
    return corrupt


def add_to(name, index, amount):
    """Corruption: add ``amount`` to one entry."""
    def corrupt(r):
        r[name][index] += amount
    return corrupt


# (id, base state, corruption, expected code, expected text in validate_state's first message)
CORRUPTIONS = [
    ("num_players", fresh, set_field("num_players", 7), 1, "num_players = 7 is outside 2..6"),
    ("n_carriages", fresh, set_field("n_carriages", 5), 2, "n_carriages = 5 must be 4 with num_players = 4"),
    ("two_player_standard", lambda: fresh(2, True), set_field("expert", False), 3, "invariant 3"),
    ("car_type_duplicate", fresh, copy_entry("car_type", 1, 2), 4, "invariant 4"),
    ("car_type_range", fresh, set_field("car_type", 9, 1), 4, "car_type[1] = 9 is outside 0..5"),
    ("car_type_beyond_C", fresh, set_field("car_type", 0, 6), 4, "car_type[6] = 0 must be NOBODY"),
    ("character_duplicate", fresh, copy_entry("character", 1, 0), 5, "invariant 5"),
    ("character_absent", fresh, set_field("character", 0, 5), 5, "character[5] = 0 must be NOBODY"),
    ("bandit_car", fresh, set_field("bandit_car", 9, 2), 6, "bandit_car[2] = 9 is outside 0..C=4"),
    ("bandit_level", fresh, set_field("bandit_level", 2, 1), 6, "bandit_level[1] = 2 is outside 0..1"),
    ("marshal_car", fresh, set_field("marshal_car", 5), 7, "marshal_car = 5 is outside 0..C=4"),
    ("marshal_rule", fresh, bandit_into_marshal_car, 8, "invariant 8"),
    ("bullets_left", fresh, set_field("bullets_left", 7, 0), 9, "bullets_left[0] = 7 is outside 0..6"),
    ("negative_jewels", fresh, set_field("jewels_held", -1, 0), 10, "jewels_held[0] = -1 is outside 0..127"),
    ("loot_beyond_train", fresh, set_field("floor_jewels", 1, 13), 11, "invariant 11"),
    ("loot_of_absent_bandit", fresh, set_field("jewels_held", 1, 5), 11, "jewels_held[5] = 1 must be 0"),
    ("ransom_of_absent_bandit", fresh, set_field("ransoms", 1, 4), 11, "ransoms[4] = 1 must be 0"),
    ("round_deck_duplicate", fresh, copy_entry("round_deck", 1, 0), 12, "invariant 12"),
    ("round", fresh, set_field("round", 5), 12, "round = 5 is outside 0..4"),
    ("station_card", fresh, set_field("round_deck", 0, 4), 12, "round_deck[4] = 0 is outside 14..16"),
    ("first_player", fresh, set_field("first_player", 4), 13, "first_player = 4 is outside 0..N-1=3"),
    ("current_nobody", fresh, set_field("current", NOBODY), 14, "invariant 14"),
    ("done_but_deciding", fresh, set_field("done", True), 14, "invariant 14"),
    ("decision_range", fresh, set_field("decision", 12), 14, "decision = 12 is outside 0..11"),
    ("n_decisions", fresh, set_field("n_decisions", 701), 15, "n_decisions = 701 is outside 0..max_decisions=700"),
    ("second_play_outside_speedup", fresh, set_field("play_in_turn", 1), 16, "invariant 16"),
    ("purse_on_absent_bandit", fresh, set_field("purse_location", PURSE_ON_BANDIT + 5, 4), 17,
     "purse_location[4] = 19 is not a train location"),
    ("purse_value_range", fresh, set_field("purse_value", 600, 4), 18, "purse_value[4] = 600 is not a purse value"),
    ("starting_purse_value", fresh, swap_purse_values(True), 18, "invariant 18"),
    ("carriage_purse_in_box", fresh, set_field("purse_location", PURSE_IN_BOX, 4), 19, "invariant 19"),
    ("box_purse_on_train", fresh, first_box_purse_to_train, 19, "invariant 19"),
    ("own_purse_unknown", fresh, clear_own_purse_knowledge, 20, "invariant 20"),
    ("knowledge_of_absent_seat", fresh, set_field("purse_known", 1, 5), 20, "invariant 20"),
    ("purse_known_bits", fresh, set_field("purse_known", 1 << 20, 0), 20, "purse_known[0] = 0x100000 has bits"),
    ("jewel_from_nowhere", fresh, add_to("floor_jewels", 2, 1), 21, "invariant 21"),
    ("strongbox_lost", fresh, set_field("floor_strongboxes", 0, 0), 22, "invariant 22"),
    ("second_strongbox_missing", fresh, set_field("second_strongbox_placed", True), 22, "invariant 22"),
    ("neutral_supply", fresh, set_field("neutral_supply", 14), 23, "neutral_supply = 14 is outside 0..13"),
    ("supply_removed_not_empty", fresh, set_field("supply_removed", True), 23, "invariant 23"),
    ("shot_without_victim", fresh, set_field("bullets_left", 5, 0), 24, "invariant 24"),
    ("deck_size", fresh, set_field("deck_size", 54, 0), 25, "deck_size[0] = 54 is outside 0..53"),
    ("deck_entry", fresh, set_field("deck", 13, (0, 0)), 25, "deck[0, 0] = 13 is outside 0..12"),
    ("absent_seat_hand", fresh, set_field("hand", 1, (5, 0)), 26, "hand[5, 0] = 1 is outside 0..0"),
    ("negative_discard", lambda: fresh(4, True), set_field("discard", -1, (0, 0)), 26,
     "discard[0, 0] = -1 is outside 0..127"),
    ("standard_discard", fresh, top_deck_card_to("discard"), 27, "invariant 27"),
    ("aside_outside_keep", lambda: fresh(4, True), hand_card_aside, 28, "invariant 28"),
    ("pile_larger_than_plays", fresh, set_field("pile_size", 25), 16, "pile_size = 25 is outside 0..24"),
    ("turn_position", fresh, set_field("turn_position", 4), 16, "turn_position = 4 is outside 0..N-1=3"),
    ("pile_owner", planning_with_pile, set_field("pile_owner", 4, 1), 29, "pile_owner[1] = 4 is outside 0..N-1=3"),
    ("pile_card", planning_with_pile, set_field("pile_card", BULLET_CARD, 0), 29,
     "pile_card[0] = 12 is outside 0..11"),
    ("resolving", fresh, set_field("resolving", 3), 30, "resolving = 3 is outside -1..pile_size-1=-1"),
    ("extra_action_card", fresh, add_to("hand", (0, MOVE), 1), 31, "invariant 31"),
    ("deck_card_of_another_kind", fresh, top_deck_card_changes_kind, 31, "invariant 31"),
    ("pile_card_of_another_seat", planning_with_pile, pile_card_to_next_seat, 31, "invariant 31"),
    ("extra_bullet_card", fresh, add_to("hand", (0, BULLET_CARD), 1), 32, "invariant 32"),
    ("bullets_received_range", fresh, set_field("bullets_received", 44, 0), 24,
     "bullets_received[0] = 44 is outside 0..43"),
    ("known_bullets_not_bullets", lambda: fresh(4, True), set_field("known_bullets_on_top", 1, 0), 33,
     "invariant 33"),
    ("known_bullets_range", lambda: fresh(4, True), set_field("known_bullets_on_top", 9, 0), 33,
     "known_bullets_on_top[0] = 9 is outside 0..4"),
    ("acting_bandit", fresh, set_field("acting_bandit", 5), 34, "acting_bandit = 5 is outside -1..B-1=3"),
    ("victim", fresh, set_field("victim", -2), 34, "victim = -2 is outside -1..B-1=3"),
    ("standard_hand_in_stealin", stealing_standard, top_deck_card_to("hand"), 35, "invariant 35"),
    ("n_forced", fresh, set_field("n_forced", 17), 36, "n_forced = 17 is outside 0..16"),
    ("forced_pos", fresh, set_field("forced_pos", 1), 36, "forced_pos = 1 is outside 0..0"),
    ("forced_entry", fresh, set_field("forced", -1, 3), 36, "forced[3] = -1 is outside 0..2147483647"),
]


def test_every_code_is_exercised():
    """The corruption table reaches every invariant code."""
    assert {c[3] for c in CORRUPTIONS} == set(range(1, N_INVARIANTS + 1))


@pytest.mark.parametrize("name, base, corrupt, code, text", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corruption_is_reported(name, base, corrupt, code, text):
    """Each corrupted field gives its code from the kernel and a message naming it from validate_state."""
    states = base()
    assert codes_of(states)[0] == 0 and validate_state(states[0]) == []
    corrupt(states[0])
    assert codes_of(states)[0] == code, INVARIANT_MESSAGES[codes_of(states)[0]]
    errors = validate_state(states[0])
    assert errors, "validate_state missed the corruption"
    assert text in errors[0], errors
    if text.startswith("invariant"):
        assert INVARIANT_MESSAGES[code] in errors[0]


def test_validate_state_accepts_a_batch_of_one():
    """``validate_state`` takes a record or a (1,) batch and never changes it."""
    states = fresh()
    before = states.tobytes()
    assert validate_state(states) == [] and validate_state(states[0]) == []
    assert states.tobytes() == before


# ---- arbitrary values ------------------------------------------------------------------------------------------
INT_FIELDS = [n for n in STATE_DTYPE.names if STATE_DTYPE.fields[n][0].base.kind in "iu" and n != "rng"]


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(INT_FIELDS), position=st.integers(0, 10_000), value=st.integers(-128, 127),
       config=st.sampled_from(CONFIGS), which=st.integers(0, 10_000))
def test_validate_state_never_crashes_and_guards_the_kernels(field, position, value, config, which):
    """Any single-entry corruption: validate_state answers with messages, and a record it accepts is
    consistent for the kernel and can be observed by every seat."""
    pool = random_states(*config)
    states = pool[which % len(pool):][:1].copy()
    entries = states[0][field].reshape(-1) if states[0][field].ndim else None
    info = np.iinfo(STATE_DTYPE.fields[field][0].base)
    value = int(np.clip(value, info.min, info.max))
    if entries is None:
        states[0][field] = value
    else:
        flat = states[0][field].reshape(-1)
        flat[position % len(flat)] = value
        states[0][field] = flat.reshape(states[0][field].shape)
    errors = validate_state(states[0])
    assert isinstance(errors, list) and all(isinstance(e, str) for e in errors)
    if not errors:
        assert codes_of(states)[0] == 0
        out = np.zeros((1, OBS_SIZE), np.float32)
        for seat in range(int(states[0]["num_players"])):
            serial(observe)(states, np.array([seat]), out)
            assert np.isfinite(out).all()


# ---- plain Python kernels ----------------------------------------------------------------------------------------
def test_invariants_without_jit_match(tmp_path):
    """DESIGN.md: with NUMBA_DISABLE_JIT=1 the kernel gives the same codes (valid and corrupted records)."""
    states = np.concatenate([random_states(*c)[::60] for c in CONFIGS] + [fresh()] * 3)
    states[-1]["hand"][0, MOVE] += 1
    states[-2]["purse_location"][N_PURSES - 1] = PURSE_ON_BANDIT + 5
    expected = codes_of(states)
    assert (expected[-2:] != 0).all()
    np.save(tmp_path / "states.npy", states)
    script = textwrap.dedent(f"""
        import numpy as np
        from wildwest_envs.colt_express.invariants import check_invariants
        states = np.load({str(tmp_path / "states.npy")!r})
        out = np.full(len(states), -1, np.int32)
        check_invariants(states, out)
        np.save({str(tmp_path / "out.npy")!r}, out)
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=os.getcwd())
    assert np.array_equal(np.load(tmp_path / "out.npy"), expected)


def test_fresh_game_is_at_plan_or_bullets():
    """Guard of the corruption bases: the fresh game waits for a PLAN decision with an empty pile."""
    r = fresh()[0]
    assert r["decision"] == DEC_PLAN and r["pile_size"] == 0 and r["resolving"] == NOBODY
