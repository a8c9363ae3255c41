"""Seeded random play of Wild West Express to the end: masks never empty, pieces conserved, every game ends."""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.core.kernels import serial
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.wild_west_express import rules
from wildwest_envs.wild_west_express.data import DYNAMITE_SUPPLY, N_ACTIONS, N_CARDS
from wildwest_envs.wild_west_express.options import kernel_options, parse_options
from wildwest_envs.wild_west_express.state import STATE_DTYPE
from wildwest_envs.registry import get_game

_INIT = get_game("wild_west_express_v0").init_kernel  # the serial deal the library runs (core.kernels.serial)

# per player count; the generic tests/test_random_play_invariants.py plays 3,000 default games over every player count
N_GAMES = 32


def _cards_accounted(states: np.ndarray) -> np.ndarray:
    """Deck + held + posted + in play (being resolved, queued or drawn) for each record (§13.1)."""
    held = (states["card_holder"] >= 0).sum(axis=1)
    posted = (states["comp_card"] >= 0).sum(axis=1)
    in_play = ((states["card_active"] >= 0).astype(int) + (states["move_card"] >= 0) + (states["queue_card"] >= 0)
               + (states["drawn_card"] >= 0))
    return states["deck_size"].astype(int) + held + posted + in_play


@pytest.mark.parametrize("options", [{}, {"auto_forced": False, "alt_extra_gang": True, "component_limits": False,
                                          "alt_dynamite": True, "competition_expiry_rounds": 0}],
                         ids=["default", "variants"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_end_with_non_empty_masks_and_conserved_pieces(n, options):
    """§14.4, §17.2: a non-empty mask at every decision; cards and dynamite conserved; cash >= 0; all games end."""
    _play_random(n, options, N_GAMES if not options else N_GAMES // 2)


def _play_random(n: int, options: dict, games: int) -> None:
    states = np.zeros(games, dtype=STATE_DTYPE)
    _INIT(states, game_seeds(100 + n, games), kernel_options(parse_options(num_players=n, **options)))
    masks = np.zeros((games, N_ACTIONS), dtype=np.int8)
    rng = np.random.default_rng(n)
    for _ in range(20_000):
        if states["done"].all():
            break
        serial(rules.legal_mask)(states, masks)
        live = ~states["done"]
        assert (masks[live].sum(axis=1) > 0).all()
        assert (masks[~live] == 0).all()
        assert (_cards_accounted(states)[live] == N_CARDS).all()
        assert (states["dynamite"].sum(axis=1) + states["dynamite_supply"] == DYNAMITE_SUPPLY).all()
        assert (states["cash"] >= 0).all()
        assert (states["current"][live] == states["active"][live]).all()
        actions = np.argmax(rng.random(masks.shape) * (masks > 0), axis=1).astype(np.int64)
        rules.step(states, actions)
    assert states["done"].all()
    assert (states["round"] <= states["max_rounds"]).all()
    scores = np.zeros((games, 5), dtype=np.int32)
    rules.scores(states, scores)
    finished = ~states["capped"]
    assert (scores[finished].max(axis=1) >= states["victory_target"][finished]).all()
