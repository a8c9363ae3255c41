"""The invariant checker (spec §14) flags every kind of broken record (controls for the random-play invariant runs)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.way_out_west._helpers import setup_done
from wildwest_envs.way_out_west.data import BANK, DEC_AUCTION_BID, STORE
from wildwest_envs.way_out_west.invariants import INVARIANT_MESSAGES, first_violation
from wildwest_envs.way_out_west.positions import position


def _board():
    return position(3, turn=0, cowboys={1: {0: 2}}, cattle={0: {1: 2}}, buildings={2: {STORE: 2}})


def _auction():
    states = setup_done(3)
    assert states[0]["decision"] == DEC_AUCTION_BID
    return states


def _cattle_above_the_frontier(s) -> None:
    """Seat 1 gets a cattle counter in Kansas City while only San Antonia is open."""
    s["cattle"][1, 1] = 1
    s["cattle_supply"][1] -= 1


CORRUPTIONS = {  # message fragment: (position builder, edit of the record)
    "num_players is outside": (_board, lambda s: s.__setitem__("num_players", 6)),
    "done / phase / decision": (_board, lambda s: s.__setitem__("current", 4)),
    "round is outside": (_board, lambda s: s.__setitem__("round", 13)),
    "turn_order is not a permutation": (_board, lambda s: s["turn_order"].__setitem__(1, 0)),
    "cowboys: negative": (_board, lambda s: s["cowboy_supply"].__setitem__(0, 9)),
    "cattle: negative": (_board, lambda s: s["cattle_supply"].__setitem__(1, 9)),
    "B&T counters": (_board, lambda s: s["bt_removed"].__setitem__((2, STORE), 1)),
    "more cattle than corrals": (_board, lambda s: (s["cattle"].__setitem__((0, 1), 5),
                                                   s["cattle_supply"].__setitem__(1, 4))),
    "frontier outside": (_board, lambda s: _cattle_above_the_frontier(s)),
    "farmers:": (_board, lambda s: s["farmers"].__setitem__(3, 1)),
    "Wanted counters": (_board, lambda s: s.__setitem__("wanted_supply", 12)),
    "cash is negative": (_board, lambda s: (s["cash"].__setitem__(0, -1), s.__setitem__("bank_in", 21))),
    "money is not conserved": (_board, lambda s: s["cash"].__setitem__(0, 21)),
    "auction state": (_auction, lambda s: s["bid"].__setitem__(1, 3)),
    "action phase": (_board, lambda s: s["box_user"].__setitem__(2, 0)),
    "die queue": (_board, lambda s: s.__setitem__("forced_pos", 3)),
    "n_decisions": (_board, lambda s: s.__setitem__("n_decisions", 10**6)),
}


def test_consistent_positions_have_no_violation():
    """Control: the untouched positions are consistent."""
    assert first_violation(_board()[0]) == 0 and first_violation(_auction()[0]) == 0


@pytest.mark.parametrize("fragment", list(CORRUPTIONS))
def test_each_kind_of_corruption_is_flagged(fragment):
    """Every invariant family of §14 catches its corruption, with its own message."""
    build, edit = CORRUPTIONS[fragment]
    states = build()
    edit(states[0])
    code = first_violation(states[0])
    assert code != 0 and fragment in INVARIANT_MESSAGES[code], INVARIANT_MESSAGES[code]


def test_gunfight_sides_must_match_the_board():
    """§9.3: a running fight whose attacker count disagrees with the board is flagged."""
    from wildwest_envs.way_out_west.data import A_TARGET
    from wildwest_envs.way_out_west.positions import box, play, town
    states = position(3, turn=0, cowboys={2: {0: 2, 1: 1}}, buildings={2: {BANK: 1}})
    play(states, box(16), town(2), A_TARGET + BANK)
    states[0]["a_cow"] = 1
    assert "gunfight inconsistent" in INVARIANT_MESSAGES[first_violation(states[0])]
    assert np.int64(states[0]["gf_active"])
