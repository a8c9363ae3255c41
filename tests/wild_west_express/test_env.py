"""Wild West Express through the library's generic layers: PettingZoo conformance, JSON, invariants.

The generic tests (``tests/test_*.py``) run on the game through the registry; these
cover what is particular to it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from wildwest_envs import wild_west_express_v0
from wildwest_envs.core.sampling import LegalSampler

GAME = wild_west_express_v0.GAME


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoo_api_and_seed_tests(num_players):
    """PettingZoo ``api_test`` and ``seed_test`` pass at every player count."""
    api_test(wild_west_express_v0.env(num_players=num_players), num_cycles=300)
    seed_test(lambda: wild_west_express_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_keep_the_invariants_and_end(num_players):
    """200 random games per player count: invariants after every step, every game ends (§14.3, §14.4)."""
    states = GAME.init_batch(200, seed=num_players, num_players=num_players)
    sample = LegalSampler(len(states), num_players)
    for _ in range(100_000):
        if GAME.finished(states).all():
            break
        masks = GAME.legal_mask(states)
        assert masks[~states["done"]].any(axis=1).all()
        GAME.step(states, sample(masks), check=False)
        assert not GAME.invariant_violations(states)
    assert states["done"].all()
    returns = GAME.returns(states)
    assert (returns[:, :num_players].max(axis=1) == 1).all()


def test_capped_games_are_truncated_and_draw_scoring_gives_zero():
    """§14.4-14.5: a game stopped by ``max_rounds`` is truncated; with ``cap_scoring="draw"`` all get 0."""
    for cap_scoring, expect_zero in (("vp", False), ("draw", True)):
        states = GAME.init_batch(8, seed=1, num_players=2, max_rounds=2, cap_scoring=cap_scoring)
        sample = LegalSampler(8, 0)
        while not GAME.finished(states).all():
            GAME.step(states, sample(GAME.legal_mask(states)), check=False)
        assert states["capped"].all() and GAME.truncated(states).all() and not GAME.terminal(states).any()
        returns = GAME.returns(states)
        assert (returns == 0).all() == expect_zero


def test_json_round_trip_and_corruption_rejected():
    """A mid-game state saves and loads byte-identical; corrupt fields are refused with the problem named."""
    states = GAME.init_batch(1, seed=4, num_players=3)
    sample = LegalSampler(1, 2)
    for _ in range(300):
        GAME.step(states, sample(GAME.legal_mask(states)), check=False)
    text = GAME.to_json(states[0])
    assert GAME.from_json(text).tobytes() == states.tobytes()
    document = json.loads(text)
    document["state"]["cash"][0] = -5
    with pytest.raises(ValueError, match="cash"):
        GAME.from_json(json.dumps(document))


def _mid_game_document(decision: int | None = None) -> dict:
    """A saved 3-player state after random play (stopped at ``decision`` when given)."""
    states = GAME.init_batch(1, seed=4, num_players=3)
    sample = LegalSampler(1, 2)
    for _ in range(3000):
        if decision is not None and states["decision"][0] == decision:
            break
        GAME.step(states, sample(GAME.legal_mask(states)), check=False)
    assert decision is None or states["decision"][0] == decision
    return json.loads(GAME.to_json(states[0]))


@pytest.mark.parametrize("field, value", [("active", 51), ("start_player", 7), ("move_train", 9),
                                          ("drawn_card", 60), ("landing_space", 400), ("desp_index", 5),
                                          ("card_left", 9), ("phase", 12), ("decision", 40), ("cap_scoring", 3),
                                          ("victory_target", 2), ("round", 999)])
def test_saved_state_with_an_index_out_of_range_is_refused(field, value):
    """§17.5: every index field is range-checked before a kernel may use it; the error names the field and value
    (its declared range, ``invariants.FIELD_RANGES``)."""
    document = _mid_game_document()
    document["state"][field] = value
    with pytest.raises(ValueError, match=rf"{field} = {value} is outside|decision|num_players"):
        GAME.from_json(json.dumps(document))


def test_saved_state_whose_decision_lacks_its_procedure_is_refused():
    """§17.5: a TRAIN_STEP without a moving train, or a desperado step before the roll, does not load."""
    from wildwest_envs.wild_west_express.data import DEC_DESPERADO_STEP, DEC_PRE_ROLL, DEC_TRAIN_STEP

    document = _mid_game_document(DEC_PRE_ROLL)
    for decision in (DEC_TRAIN_STEP, DEC_DESPERADO_STEP):
        changed = json.loads(json.dumps(document))
        changed["state"]["decision"] = decision
        with pytest.raises(ValueError, match="pending decision"):
            GAME.from_json(json.dumps(changed))
    held = json.loads(json.dumps(document))
    held["state"]["card_bound"][0] = 3  # a bound train slot for a card nobody holds
    with pytest.raises(ValueError, match="out of its range"):
        GAME.from_json(json.dumps(held))


def test_illegal_action_raises_and_changes_nothing():
    """An illegal action raises ValueError naming the legal ones; the game is unchanged."""
    env = wild_west_express_v0.env(num_players=3)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.unwrapped.states.tobytes()
    with pytest.raises(ValueError, match="illegal action"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.unwrapped.states.tobytes() == before


def test_saved_state_breaking_a_conservation_rule_is_refused():
    """§0.2, §11.1, §13.1: money made by a transfer, a group of 4 dynamite tokens, or a lost card do not load."""
    document = _mid_game_document()
    fields = document["state"]
    richer = json.loads(json.dumps(document))
    richer["state"]["cash"][0] += 20  # $20 from nowhere: not booked as paid by the bank
    lost = json.loads(json.dumps(document))
    size = fields["deck_size"]
    lost["state"]["deck"][size - 1] = -1
    lost["state"]["deck_size"] = size - 1
    group = json.loads(json.dumps(document))
    group["state"]["dynamite"] = [0] * len(fields["dynamite"])
    for x in (31, 32, 33, 34):  # the four track spaces of the Seattle - Portland route
        group["state"]["dynamite"][x] = 1
    group["state"]["dynamite_supply"] = 14
    group["state"]["sheriff_pos"] = [-1, -1]
    for changed, pattern in ((richer, "money"), (lost, "52 cards"), (group, "group of more than 3")):
        with pytest.raises(ValueError, match=pattern):
            GAME.from_json(json.dumps(changed))
    GAME.from_json(json.dumps(document))  # control: the unchanged state loads
