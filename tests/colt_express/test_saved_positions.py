"""Positions saved as JSON (readable field names): loaded, stepped by action name and compared.

``saved_positions/django_fire_choice.json`` is a 4-player Stealin' position: Django on
the roof of car 2 resolves a Fire card; Ghost stands on roof 3, Doc on roof 1,
Cheyenne inside car 2; forced decisions are asked (``auto_resolve`` off).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from wildwest_envs.colt_express.data import IN, ROOF
from wildwest_envs.colt_express_v0 import GAME

SAVED = Path(__file__).parent / "saved_positions"
DJANGO_SEAT, GHOST, DOC, CHEYENNE = 0, 1, 2, 3


def load(name: str, edit=None) -> np.ndarray:
    """Load a saved position, optionally editing its JSON fields first (as a person would by hand)."""
    document = json.loads((SAVED / name).read_text())
    if edit:
        edit(document["state"])
    return GAME.from_json(json.dumps(document))


def test_s6_3_saved_position_roof_line_of_sight_and_django_push():
    """§6.3 roof shots see the nearest occupied roof each way (not inside); §6.3 step 5 pushes forward."""
    states = load("django_fire_choice.json")
    assert GAME.legal_action_strings(states) == ["shoot Ghost", "shoot Doc"]
    GAME.step(states, [GAME.string_to_action(states, "shoot Doc")])
    s = states[0]
    assert (s["bandit_car"][DOC], s["bandit_level"][DOC]) == (0, ROOF)  # pushed one car forward
    assert s["bullets_received"][DOC] == 1 and s["bullets_left"][DJANGO_SEAT] == 5
    assert (s["bandit_car"][CHEYENNE], s["bandit_level"][CHEYENNE]) == (2, IN)


def test_s6_3_hand_edited_position_two_bandits_on_one_roof_are_both_targets():
    """§6.3, G9: bandits sharing the nearest roof are all candidates; the roof behind them is hidden."""
    def ghost_beside_doc(fields):
        fields["bandit_car"][GHOST] = 1

    states = load("django_fire_choice.json", ghost_beside_doc)
    assert GAME.legal_action_strings(states) == ["shoot Ghost", "shoot Doc"]
    before = GAME.to_json(states)
    GAME.step(states, [GAME.string_to_action(states, "shoot Ghost")])
    assert GAME.to_json(states) != before
    assert (states[0]["bandit_car"][GHOST], states[0]["bandit_car"][DOC]) == (0, 1)


def test_saved_position_with_an_impossible_edit_is_rejected():
    """An edit that breaks the rules' invariants (a bandit inside the marshal's car) is refused on load."""
    def cheyenne_with_the_marshal(fields):
        fields["bandit_car"][CHEYENNE] = fields["marshal_car"]
        fields["bandit_level"][CHEYENNE] = IN

    try:
        load("django_fire_choice.json", cheyenne_with_the_marshal)
    except ValueError as error:
        assert "marshal" in str(error)
    else:
        raise AssertionError("an inconsistent position was accepted")
