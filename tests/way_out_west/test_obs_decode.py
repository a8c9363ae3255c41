"""Named observation fields at their natural scales (issue 19 item 5; spec §12, ``observation`` docstring).

``GAME.obs_layout.decode(vec)`` must give every field of the observation in the
game's own terms. Checked here on records from seeded random play through the
public API (``GAME.init_batch``, ``legal_mask``, ``step``, ``observe``), for
every seat's observation:

* every field declares its parts (``undecoded()`` is empty);
* the decoded values equal the values read from the record, relative seats and
  all (a plain-Python reading of the record, written from the spec, not from
  the kernel);
* every one-hot decodes to an index in range or -1, and re-encoding the decoded
  values gives back the observation bit for bit, so no float is left out or
  read at the wrong scale (a control shows a wrong scale is caught).
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.way_out_west.data import (BOX_MIN_PLAYERS, BUILDING_SPACES, CORRALS, JAIL, MAX_PLAYERS, N_BOXES,
                                             N_BT, N_TOWNS, PHASE_ACTIONS, PHASE_AUCTION, SIDE_ATTACKER,
                                             SIDE_DEFENDER)
from wildwest_envs.way_out_west.scoring import income_of
from wildwest_envs.way_out_west_v0 import GAME
from tests._layout_codec import (assert_batch_decodes_row_by_row, assert_reencodes, check_every_seat, encode,
                                 mismatches, onehots_in_range, per_seat_offset, with_part_rescaled)

OBS = GAME.obs_layout
NOBODY = -1


def _random_play_snapshots(num_players: int, n_games: int = 10, every: int = 13, seed: int = 0) -> np.ndarray:
    """Records every ``every`` decisions of ``n_games`` seeded random games (finished ones at the end)."""
    states = GAME.init_batch(n_games, seed=seed, num_players=num_players, num_rounds=6)
    rng = np.random.default_rng(seed)
    kept, step = [], 0
    while not GAME.terminal(states).all():
        live = np.flatnonzero(~GAME.terminal(states))
        if step % every == 0:
            kept.append(states[live].copy())
        masks = GAME.legal_mask(states[live])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        sub = states[live]
        GAME.step(sub, actions)
        states[live] = sub
        step += 1
    kept.append(states.copy())
    return np.concatenate(kept)


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return np.concatenate([_random_play_snapshots(n, seed=n) for n in (3, 4, 5)])


# ---- the record, read as the spec describes the observation (§12) --------------------------------------------------
def _rel(seat: int, o: int, n: int) -> int:
    """Relative seat of ``seat`` seen by observer o, -1 for nobody (§12)."""
    return NOBODY if seat == NOBODY else (seat - o) % n


def _global_expected(s, o: int, n: int) -> dict:
    done = bool(s["done"])
    return {"round": int(s["round"]) - 1, "rounds_left": int(s["num_rounds"]) - int(s["round"]),
            "num_players": n - 3, "decision": -1 if done else int(s["decision"]),
            "acting_seat": -1 if done else _rel(int(s["current"]), o, n),
            "lap": int(s["lap"]) if s["phase"] == PHASE_ACTIONS else -1, "frontier": int(s["frontier"]),
            "wanted_supply": int(s["wanted_supply"])}


def _towns_expected(s, o: int, n: int) -> dict:
    seats = [(o + r) % n if r < n else None for r in range(MAX_PLAYERS)]
    out = {"cowboys": [[int(s["cowboys"][t, p]) if p is not None else 0 for p in seats] for t in range(N_TOWNS)],
           "cattle": [[int(s["cattle"][t, p]) if p is not None else 0 for p in seats] for t in range(N_TOWNS)]}
    for k, key in enumerate(("stagecoach", "train", "bank", "store", "hotel", "jail")):
        out[f"{key}_owner"] = [1 + _rel(int(s["bt_owner"][t, k]), o, n) for t in range(N_TOWNS)]
    size = [sum(int(s["bt_owner"][t, k]) != NOBODY for k in range(N_BT)) for t in range(N_TOWNS)]
    out.update(farmers=[int(s["farmers"][t]) for t in range(N_TOWNS)], size=size,
               free_corrals=[int(CORRALS[t]) - int(s["cattle"][t, :n].sum()) for t in range(N_TOWNS)],
               free_spaces=[int(BUILDING_SPACES[t]) - size[t] for t in range(N_TOWNS)],
               open=[t <= s["frontier"] for t in range(N_TOWNS)],
               sheriff=[int(s["bt_owner"][t, JAIL]) != NOBODY for t in range(N_TOWNS)])
    return out


def _seat_row(s, p: int, vp: int) -> dict:
    order = s["new_order"] if s["phase"] == PHASE_AUCTION else s["turn_order"]
    n = int(s["num_players"])
    positions = [pos for pos in range(n) if order[pos] == p]
    bidding = [i for i in range(n) if s["bidding_order"][i] == p]
    return {"present": True, "cash": int(s["cash"][p]), "cowboy_supply": int(s["cowboy_supply"][p]),
            "cattle_supply": int(s["cattle_supply"][p]), "bt_supply": [int(v) for v in s["bt_supply"][p]],
            "farmer_unused": not s["farmer_used"][p], "wanted": int(s["wanted"][p]),
            "turn_position": positions[0] if positions else -1, "bidding_position": bidding[0] if bidding else -1,
            "bid": int(s["bid"][p]), "bidding": bool(s["bidding"][p]), "turns_used": int(s["turns_used"][p]),
            "vp": vp, "income": int(income_of(s, p))}


_ABSENT_SEAT = {"present": False, "cash": 0, "cowboy_supply": 0, "cattle_supply": 0, "bt_supply": [0] * N_BT,
                "farmer_unused": False, "wanted": 0, "turn_position": -1, "bidding_position": -1, "bid": 0,
                "bidding": False, "turns_used": 0, "vp": 0, "income": 0}


def _seats_expected(s, o: int, n: int, vps: np.ndarray) -> dict:
    return per_seat_offset(o, n, lambda p: _seat_row(s, p, int(vps[p])), _ABSENT_SEAT, MAX_PLAYERS)


def _boxes_expected(s, o: int, n: int) -> dict:
    inactive = [n < BOX_MIN_PLAYERS[b] for b in range(N_BOXES)]
    users = [NOBODY if inactive[b] else int(s["box_user"][b]) for b in range(N_BOXES)]
    return {"inactive": inactive, "free": [not inactive[b] and users[b] == NOBODY for b in range(N_BOXES)],
            "user": [_rel(u, o, n) for u in users]}


def _auction_pending_expected(s, o: int, n: int) -> tuple[dict, dict]:
    auction = {"high_bid": int(s["high_bid"]), "high_bidder": 1 + _rel(int(s["high_bidder"]), o, n),
               "decisions": int(s["auction_decisions"])}
    pending = {"box": int(s["pend_box"]), "town1": int(s["pend_town1"]), "town2": int(s["pend_town2"]),
               "target": int(s["pend_target"]), "defender": _rel(int(s["pend_defender"]), o, n)}
    return auction, pending


def _gunfight_expected(s, o: int, n: int) -> dict:
    if not s["gf_active"]:
        return {"active": False, "town": -1, "attacker": -1, "defender": -1, "target": -1, "a_cow": 0,
                "a_sher": False, "d_cow": 0, "d_virt": False, "d_sher": False, "d_farm": False, "volley": 0,
                "sheriff_side": -1, "retreat_seat": -1, "retreat_left": 0, "retreat_used": [False] * N_TOWNS}
    side = {SIDE_ATTACKER: 0, SIDE_DEFENDER: 1}.get(int(s["sheriff_side"]), -1)
    retreating = int(s["retreat_seat"]) != NOBODY
    return {"active": True, "town": int(s["pend_town1"]), "attacker": _rel(int(s["gf_attacker"]), o, n),
            "defender": _rel(int(s["pend_defender"]), o, n), "target": int(s["pend_target"]),
            "a_cow": int(s["a_cow"]), "a_sher": bool(s["a_sher"]), "d_cow": int(s["d_cow"]),
            "d_virt": bool(s["d_virt"]), "d_sher": bool(s["d_sher"]), "d_farm": bool(s["d_farm"]),
            "volley": int(s["gf_volley"]), "sheriff_side": side, "retreat_seat": _rel(int(s["retreat_seat"]), o, n),
            "retreat_left": int(s["retreat_left"]) if retreating else 0,
            "retreat_used": [bool((int(s["retreat_used"]) >> t) & 1) for t in range(N_TOWNS)]}


def expected_decode(s, o: int, vps: np.ndarray) -> dict:
    """What ``decode`` must give for seat o's observation of record s (module docstring of ``observation``)."""
    n = int(s["num_players"])
    auction, pending = _auction_pending_expected(s, o, n)
    return {**_global_expected(s, o, n), "towns": _towns_expected(s, o, n),
            "seats": _seats_expected(s, o, n, vps), "boxes": _boxes_expected(s, o, n), "auction": auction,
            "pending": pending, "gunfight": _gunfight_expected(s, o, n)}


# ---- (a) every field is declared ------------------------------------------------------------------------------------
def test_every_field_declares_its_natural_scale():
    """``undecoded()`` is empty: no field of the Way Out West observation decodes as raw floats."""
    assert OBS.undecoded() == []


# ---- (b) decoded values are the record's ----------------------------------------------------------------------------
def test_snapshots_cover_the_interesting_cases(records):
    """The random-play records reach auctions, action phases, gunfights, finished games and most decisions."""
    assert (records["phase"] == PHASE_AUCTION).any() and (records["phase"] == PHASE_ACTIONS).any()
    assert records["gf_active"].any() and records["done"].any() and (records["high_bidder"] != NOBODY).any()
    assert len(np.unique(records["decision"])) >= 15 and (records["bt_owner"] != NOBODY).any()


def test_decoded_values_equal_the_record_for_every_seat(records):
    """Round, player count, decision, acting seat, lap, frontier, Wanted supply, every town, seat, box, the
    auction, the pending action and the gunfight decode to the record's values, seen from each seat (§12)."""
    vps = GAME.scores(records)
    assert check_every_seat(GAME, records, lambda b, s, o: expected_decode(s, o, vps[b])) > 500


def test_counts_decode_as_integers(records):
    """Counts come back as integers (not floats to round): cash, cowboys, bids, VP."""
    decoded = OBS.decode(GAME.observe(records[:1], 0)[0])
    for value in (decoded["seats"]["cash"], decoded["towns"]["cowboys"], decoded["auction"]["high_bid"],
                  decoded["seats"]["vp"], decoded["rounds_left"]):
        assert np.issubdtype(np.asarray(value).dtype, np.integer)
    assert isinstance(decoded["round"], int) and isinstance(decoded["decision"], int)
    assert isinstance(decoded["rounds_left"], int)  # a field of one float decodes to one Python value


def test_batches_decode_like_single_observations(records):
    """``decode`` of a batch of observations gives, row by row, what single observations give."""
    assert_batch_decodes_row_by_row(OBS, GAME.observe(records[:20], 0),
                                    [("round",), ("seats", "cash"), ("gunfight", "retreat_used")])


# ---- (c) one-hots in range; the declaration accounts for every float -----------------------------------------------


def test_every_onehot_decodes_to_an_index_in_range_or_minus_one(records):
    """Every one-hot part of every observation decodes to -1 or an index among its values."""
    names, _ = onehots_in_range(OBS, (GAME.observe(records, o) for o in range(3)))
    assert len(names) >= 20


def test_reencoding_the_decoded_fields_gives_back_every_float(records):
    """Every float is covered by a part at the kernel's own scale: encode(decode(obs)) == obs, bit for bit
    (so one-hots hold at most one 1, flags are 0/1, and no count is clipped or scaled differently)."""
    for o in range(3):
        assert_reencodes(OBS, GAME.observe(records, o))


def test_control_a_wrong_scale_is_caught(records):
    """Control: a layout that reads cash at $20 instead of $50 fails both checks above."""
    wrong = with_part_rescaled(OBS, "seats", "cash", 20.0)
    obs = GAME.observe(records, 0)
    assert encode(wrong, wrong.decode(obs), len(obs)).tobytes() != obs.tobytes()
    vps = GAME.scores(records)
    assert mismatches(wrong.decode(obs[0]), expected_decode(records[0], 0, vps[0]))
