"""``render_mode="rgb_array"`` is the game's SVG drawing, rasterized (``core.raster``; issue 20: one drawing per
game): the spectator's view, which shows nothing private to a seat."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import GAME_NAMES
from tests.test_core_api import play_random
from wildwest_envs.core.raster import svg_to_rgb
from wildwest_envs.core.svg import SPECTATOR
from wildwest_envs.registry import get_game

pytest.importorskip("resvg_py", reason="the render extra (resvg-py, Pillow) is not installed")

SQUARES = ('<svg xmlns="http://www.w3.org/2000/svg" width="6" height="4">'
           '<rect x="0" y="0" width="3" height="4" fill="#ff0000"/><rect x="3" y="0" width="3" height="4" '
           'fill="#0000ff"/></svg>')


def test_svg_to_rgb_draws_the_document_at_its_own_size():
    image = svg_to_rgb(SQUARES)
    assert image.shape == (4, 6, 3) and image.dtype == np.uint8
    assert np.all(image[:, :3] == (255, 0, 0)) and np.all(image[:, 3:] == (0, 0, 255))


def test_transparent_parts_take_the_background():
    empty = '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>'
    assert np.all(svg_to_rgb(empty) == 255)
    assert np.all(svg_to_rgb(empty, background="black") == 0)


@pytest.mark.parametrize("bad, error", [(b"<svg/>", TypeError), (None, TypeError), ("not svg", ValueError),
                                        ("<svg xmlns='http://www.w3.org/2000/svg' width='4'", ValueError)])
def test_bad_documents_get_a_clear_error(bad, error):
    with pytest.raises(error):
        svg_to_rgb(bad)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_rgb_array_is_the_spectators_drawing(name):
    """``Game.render_rgb`` = the spectator's SVG drawing rasterized, at the drawing's size; it changes nothing."""
    game = get_game(name)
    states = game.init_batch(1, seed=4, num_players=3)
    play_random(game, states, 40, seed=1)
    before = states.tobytes()
    svg = game.draw(states[0], SPECTATOR)
    image = game.render_rgb(states[0])
    assert np.array_equal(image, svg_to_rgb(svg))
    width = int(svg.split('width="', 1)[1].split('"', 1)[0])
    height = int(svg.split('height="', 1)[1].split('"', 1)[0])
    assert image.shape == (height, width, 3) and len(np.unique(image.reshape(-1, 3), axis=0)) > 20
    assert states.tobytes() == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_spectator_sees_nothing_private_to_any_seat(name):
    """Records that differ only in what some seat may not see (each seat's hidden parts redrawn in turn) give
    the spectator byte-identical drawings; in a game of imperfect information the omniscient drawing differs."""
    game = get_game(name)
    states = game.init_batch(8, seed=9, num_players=3)
    play_random(game, states, 30, seed=2)
    live = states[~states["done"]]
    omniscient_differs = False
    for seat in range(3):
        variants = game.resample_hidden(live, np.full(len(live), seat), np.arange(len(live)) + 100 * seat + 11)
        for b in range(len(live)):
            assert game.draw(variants[b], SPECTATOR) == game.draw(live[b], SPECTATOR), (seat, b)
            omniscient_differs |= game.draw(variants[b]) != game.draw(live[b])
    assert omniscient_differs == (game.information == "imperfect")


def test_the_spectator_is_a_view_of_its_own():
    """SPECTATOR is named in the drawing and refused where a seat is expected to be an int."""
    game = get_game("colt_express")
    state = game.init_batch(1, seed=0, num_players=3)[0]
    assert "spectator view" in game.draw(state, SPECTATOR) and "spectator view" not in game.draw(state, 0)
    with pytest.raises(TypeError, match="spectator"):
        game.draw(state, "everybody")
