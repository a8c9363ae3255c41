"""What the games' SVG drawing tests share: parsing a drawing, reading its pieces back, checking the document,
a batch of one and the arguments ``draw`` refuses; the positions drawn are read-only (drawing writes nothing)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from wildwest_envs.registry import get_game

SVG_NS = "{http://www.w3.org/2000/svg}"


def read_only(batches: list[np.ndarray]) -> np.ndarray:
    """The records of ``batches`` in one batch that cannot be written."""
    out = np.concatenate(batches)
    out.setflags(write=False)
    return out


def parse(document: str) -> ET.Element:
    """The root element of an SVG document."""
    return ET.fromstring(document)


def pieces(root: ET.Element, cls: str) -> list[dict]:
    """The ``data-`` attributes of every element of class ``cls``."""
    return [{k[5:]: v for k, v in el.attrib.items() if k.startswith("data-")}
            for el in root.iter() if el.get("class") == cls]


def standalone_svg(document: str, width: int, height: int) -> ET.Element:
    """The root of ``document``, checked to be an ``svg`` of ``width`` x ``height`` with that viewBox and a title."""
    root = parse(document)
    assert root.tag == SVG_NS + "svg"
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert root.find(SVG_NS + "title") is not None
    return root


def assert_batch_of_one_draws_as_its_record(draw, states) -> None:
    """A batch of one record draws as the record itself (the spectator's view and seat 1's), and is not changed."""
    before = states.tobytes()
    assert draw(states) == draw(states[0])
    assert draw(states, 1) == draw(states[0], 1)
    assert states.tobytes() == before


def foreign_record(game_name: str) -> np.void:
    """An empty record of another game (its dtype only: no kernel of that game is compiled for it)."""
    return np.zeros(1, dtype=get_game(game_name).state_dtype)[0]


def assert_bad_arguments_refused(draw, record, num_players: int, two_records, other_game_record,
                                 wrong_seat_types=("0", True, 1.0)) -> None:
    """``draw`` refuses a seat out of range and a batch of two records (``ValueError``), a seat of a wrong type
    and a record of another game (``TypeError``)."""
    for seat in (num_players, -1):
        with pytest.raises(ValueError):
            draw(record, seat)
    for seat in wrong_seat_types:
        with pytest.raises(TypeError):
            draw(record, seat)
    with pytest.raises(ValueError):
        draw(two_records)
    with pytest.raises(TypeError):
        draw(other_game_record)
