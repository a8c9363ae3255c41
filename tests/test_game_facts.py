"""The facts each ``Game`` declares once (``core.game``): information, chance, dynamics, and what follows."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wildwest_envs.registry import GAMES, game_module, get_game

INFORMATION = {"colt_express_v0": "imperfect", "wild_west_express_v0": "imperfect",
               "way_out_west_v0": "perfect", "rail_v0": "perfect"}  # hands and telegrams are secret (specs)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_declares_its_information_and_its_env_metadata_follows_from_it(name):
    game = get_game(name)
    assert game.information == INFORMATION[name]
    assert (game.chance, game.dynamics) == ("sampled", "sequential")
    assert game_module(name).raw_env.metadata["name"] == game.name == name


@pytest.mark.parametrize("name", ["way_out_west_v0", "rail_v0"])
def test_perfect_information_determinizes_by_reseeding_copies(name):
    game = get_game(name)
    states = game.init_batch(4, seed=3)
    states["n_forced"] = 1  # a scripted outcome the search must not see
    new = game.resample_hidden(states, 0, 99)
    assert (new["rng"] == 99).all() and (new["n_forced"] == 0).all() and (new["forced"] == 0).all()
    for field in game.state_dtype.names:
        if field not in ("rng", "n_forced", "forced_pos", "forced"):
            np.testing.assert_array_equal(new[field], states[field], err_msg=field)
    assert (states["n_forced"] == 1).all()  # the originals are left alone


def test_a_bad_fact_or_a_secret_without_a_determinizer_is_refused():
    game = get_game("colt_express_v0")
    with pytest.raises(ValueError, match="information must be one of"):
        dataclasses.replace(game, information="partial")
    with pytest.raises(ValueError, match="needs a resample_hidden_fn"):
        dataclasses.replace(game, resample_hidden_fn=None)
