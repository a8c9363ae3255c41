"""``Layout.decode``: named observation fields at their natural scales (``core.layout``, issue 19 item 5).

Each game's own test (``tests/<game>/test_obs_decode.py``) checks its declarations against its records;
this one checks the core reading of each kind and the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.core.layout import Layout, Part, count, flag, onehot, real
from wildwest_envs.registry import GAMES, get_game

LAYOUT = Layout(("round", 5, onehot("round", 5)), ("lap", 2, onehot("lap", 2, first=1)),
                ("seats", (3, 4), (count("cash", scale=20), flag("in_play"), onehot("car", 2))),
                ("power", (2, 2), count("power", scale=10)),
                ("speed", 1, real("speed", scale=4)),
                ("raw", 2))


def _vector() -> np.ndarray:
    vec = np.zeros(LAYOUT.size, dtype=np.float32)
    LAYOUT.get(vec, "round")[3] = 1
    LAYOUT.get(vec, "lap")[1] = 1
    seats = LAYOUT.get(vec, "seats")
    seats[:, 0] = [40 / 20, 0, 7 / 20]
    seats[1, 1] = 1
    seats[0, 3] = 1
    LAYOUT.get(vec, "power")[1, 0] = 0.3
    LAYOUT.get(vec, "speed")[0] = 0.125
    LAYOUT.get(vec, "raw")[:] = [0.25, -1]
    return vec


def test_each_kind_reads_at_its_natural_scale():
    out = LAYOUT.decode(_vector())
    assert out["round"] == 3 and isinstance(out["round"], int)
    assert out["lap"] == 2  # numbered from first=1
    assert out["seats"]["cash"].tolist() == [40, 0, 7]
    assert out["seats"]["in_play"].tolist() == [False, True, False]
    assert out["seats"]["car"].tolist() == [1, -1, -1]  # -1: no car marked
    assert out["power"].tolist() == [[0, 0], [3, 0]]
    assert out["speed"] == pytest.approx(0.5)
    assert out["raw"].tolist() == [0.25, -1.0]
    assert LAYOUT.undecoded() == ["raw"]


def test_a_batch_decodes_along_its_leading_axes():
    batch = np.stack([_vector(), np.zeros(LAYOUT.size, np.float32)])
    out = LAYOUT.decode(batch)
    assert out["round"].tolist() == [3, -1]
    assert out["seats"]["cash"].shape == (2, 3)


def test_wrong_sizes_are_refused():
    with pytest.raises(ValueError, match="expected observations of"):
        LAYOUT.decode(np.zeros(LAYOUT.size + 1, np.float32))
    with pytest.raises(ValueError, match="parts are 3 floats wide"):
        Layout(("seats", (3, 4), (count("cash"), onehot("car", 2))))
    with pytest.raises(ValueError, match="must be 1 wide"):
        Layout(("x", 4, count("x", width=4)))
    with pytest.raises(ValueError, match="duplicate part names"):
        Layout(("x", 2, (count("a"), flag("a"))))
    with pytest.raises(ValueError, match="unknown part kind"):
        Part("x", "bogus")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_every_observation_field(name):
    game = get_game(name)
    assert game.obs_layout.undecoded() == []
    decoded = game.obs_layout.decode(game.observe(game.init(1))[0])
    assert set(decoded) == set(game.obs_layout.fields)
