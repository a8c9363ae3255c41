"""Named observation fields at their natural scales (issue 19 item 5; spec §16.4, ``observation`` docstring).

``GAME.obs_layout.decode(vec)`` must give every field of the observation in the
game's own terms. Checked here on records from seeded random play through the
public API (``GAME.init_batch``, ``legal_mask``, ``step``, ``observe``), for
every seat's observation:

* every field declares its parts (``undecoded()`` is empty);
* the decoded values equal the values read from the record, seat offsets and
  all (a plain-Python reading of the record, written from the spec and the
  module docstring, not from the kernel): all 26 fields;
* every one-hot decodes to an index in range or -1, and re-encoding the decoded
  values gives back the observation bit for bit, so no float is left out or
  read at the wrong scale (a control shows a wrong scale is caught).
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.wild_west_express.data import (CARGO_EMPTY, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE,
                                                  DEC_CARD_HIDEOUT_CITY, DEC_DESPERADO_STEP, DEC_REHIRE_TARGET,
                                                  DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN, FREE, IS_CITY, MAX_PLAYERS,
                                                  MAX_TRAINS, N_CITIES, N_SPACES, NO_SPACE, PASSENGER_BASE,
                                                  SPACE_JUNCTION, SPACE_SPECIAL, SPACE_TYPE, SPACE_ZONE, SPECIAL_STAR,
                                                  SPECIAL_TELEGRAM)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, play, position, roll
from wildwest_envs.wild_west_express_v0 import GAME
from tests._layout_codec import (assert_batch_decodes_row_by_row, assert_reencodes, by_part, check_every_seat, encode,
                                 equal_to_float32, mismatches, onehots_in_range, seen_by, with_part_rescaled)

OBS = GAME.obs_layout
NOBODY = -1
EMPTY_ENTRY = 12  # the cargo entry of an empty slot (observation docstring)
DENVER = 12


def _random_play_snapshots(num_players: int, n_games: int = 4, every: int = 9, seed: int = 0) -> np.ndarray:
    """Records every ``every`` decisions of seeded random games (and every TELEGRAM_DRAWN one, whose drawn card
    only the drawer sees), until they end (max_rounds 8); the finished records at the end."""
    states = GAME.init_batch(n_games, seed=seed, num_players=num_players, max_rounds=8)
    rng = np.random.default_rng(seed)
    kept, step = [], 0
    while not GAME.finished(states).all():
        live = ~GAME.finished(states)
        keep = live & ((states["decision"] == DEC_TELEGRAM_DRAWN) | (step % every == 0))
        kept.append(states[keep].copy())
        masks = GAME.legal_mask(states)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        GAME.step(states, actions)
        step += 1
    kept.append(states.copy())
    return np.concatenate(kept)


def _built_positions() -> list[np.ndarray]:
    """A few positions random play rarely reaches in 8 rounds (large trains, passengers, Armed Guards, a debt,
    a wait of 2, held movement cards of every seat), built with the public builder and played on a little."""
    states = position(4, 3, start_player=1, turn=2, round=3, owners={DENVER: 1},
                      trains={2: [Train(DENVER, large=True, cargo=["passenger:Pacific", "gold"], armed=True),
                                  Train(31, came_from=0, cargo=["passenger:Central"], wait=1)],
                              0: {1: Train(DENVER, large=True, debt=True)}, 3: [Train(46, came_from=45, wait=2)]},
                      cards={2: {0: 1, 3: 0, 5: 1}, 0: {4: 1}, 3: {1: 0}}, competitions={1: (46, 3)},
                      desperados={3: [31, 100]}, sheriffs=[200, 201], dynamite=[33, 34], cash=[10, 500, 900, 0])
    kept = [states.copy()]
    roll(states, (4, 2, 1))
    kept.append(states.copy())
    play(states, legal_actions(states)[0])
    return kept + [states.copy()]


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return np.concatenate([_random_play_snapshots(n, seed=n) for n in (2, 3, 4, 5)] + _built_positions())


# ---- the record, read as the spec describes the observation (§16.4) --------------------------------------------------
def _seat_of(o: int, r: int, n: int) -> int | None:
    """The seat at offset r from observer o, None beyond N (§16.4: offset 0 is the observer)."""
    return (o + r) % n if r < n else None


def _offset(seat: int, o: int, n: int) -> int:
    return NOBODY if seat == NOBODY else (seat - o) % n


def _context_expected(s, o: int) -> dict:
    """decision_type and the §16.4 context parts, gated on the decision as the docstring says."""
    dec, moving = int(s["decision"]), bool(s["move_active"])
    steps, first = (int(s["move_steps"]), bool(s["move_first"])) if moving else (0, False)
    if dec == DEC_DESPERADO_STEP:
        steps, first = int(s["desp_steps"]), int(s["desp_from"]) == NO_SPACE
    desperado = {DEC_DESPERADO_STEP: s["desp_index"], DEC_REHIRE_TARGET: s["desp_index"],
                 DEC_CARD_HIDEOUT_CITY: s["sel_desperado"]}.get(dec, NOBODY)
    drawn = int(s["drawn_card"]) if dec == DEC_TELEGRAM_DRAWN and s["current"] == o else NOBODY
    return {"decision_type": -1 if s["done"] else dec, "move_train": int(s["move_train"]) if moving else NOBODY,
            "desperado": int(desperado), "steps_left": steps, "first_step": first, "drawn_card": drawn,
            "card_left": int(s["card_left"]) if dec in (DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE) else 0,
            "sheriff": int(s["sel_sheriff"]) if dec == DEC_SHERIFF_SPACE else NOBODY}


def _dice_and_game_expected(s, n: int) -> dict:
    a, b, c = (int(d) for d in s["dice"])
    return {"dice": {"faces": [a, b, c], "small_move": a + b, "large_move": a + b + c, "desperado_move": a},
            "game": {"round_share": int(s["round"]) / max(int(s["max_rounds"]), 1), "num_players": n,
                     "victory_target": int(s["victory_target"])}}


def _seat_row(s, p: int | None, vp: int) -> dict:
    if p is None:
        return {"present": False, "active": False, "start_player": False, "cash": 0, "vp_share": 0.0,
                "stations": 0, "small_trains": 0, "large_trains": 0, "desperados": 0, "cards": 0,
                "dynamite_bought": 0}
    exists, large = s["train_exists"][p].astype(bool), s["train_large"][p].astype(bool)
    return {"present": True, "active": s["active"] == p, "start_player": s["start_player"] == p,
            "cash": int(s["cash"][p]), "vp_share": vp / max(int(s["victory_target"]), 1),
            "stations": int((s["city_owner"] == p).sum()), "small_trains": int((exists & ~large).sum()),
            "large_trains": int((exists & large).sum()), "desperados": int(s["n_desperados"][p]),
            "cards": int((s["card_holder"] == p).sum()), "dynamite_bought": int(s["dynamite_bought"][p])}


def _planes_expected(s, o: int, n: int) -> dict:
    """Per seat offset and space: desperados, small and large trains, tokens on them (§16.4)."""
    planes = {name: np.zeros((MAX_PLAYERS, N_SPACES), dtype=int)
              for name in ("desperados", "trains_small", "trains_large", "cargo_tokens")}
    for p in range(n):
        r = _offset(p, o, n)
        for x in s["desp_pos"][p]:
            if x != NO_SPACE:  # during setup the desperados are not placed yet (§5 item 3)
                planes["desperados"][r, x] += 1
        for t in np.flatnonzero(s["train_exists"][p]):
            x = s["train_pos"][p, t]
            planes["trains_large" if s["train_large"][p, t] else "trains_small"][r, x] += 1
            planes["cargo_tokens"][r, x] += int((s["train_cargo"][p, t] != CARGO_EMPTY).sum())
    return planes


def _cargo_entries(s, p: int, t: int) -> list[int]:
    """Entry 0..12 of each cargo slot (12 empty), -1 for a slot the train lacks (observation docstring)."""
    if not s["train_exists"][p, t]:
        return [NOBODY, NOBODY]
    codes = [int(c) for c in s["train_cargo"][p, t]]
    entries = [EMPTY_ENTRY if c == CARGO_EMPTY else c for c in codes]
    return entries if s["train_large"][p, t] else [entries[0], NOBODY]


def _train_flags(s, p: int, t: int) -> dict:
    if not s["train_exists"][p, t]:
        return {"exists": False, "large": False, "wait": 0, "debt": False, "moved": False, "armed": False}
    return {"exists": True, "large": bool(s["train_large"][p, t]), "wait": int(s["train_wait"][p, t]),
            "debt": bool(s["train_debt"][p, t] > 0), "moved": bool(s["train_moved"][p, t]),
            "armed": bool(s["train_armed"][p, t])}


def _own_trains_expected(s, o: int) -> dict:
    rows = []
    for t in range(MAX_TRAINS):
        exists = bool(s["train_exists"][o, t])
        came_from = int(s["train_from"][o, t]) if exists else FREE
        cargo = _cargo_entries(s, o, t)
        rows.append({**_train_flags(s, o, t), "space": int(s["train_pos"][o, t]) if exists else NOBODY,
                     "came_from": came_from, "cargo_0": cargo[0], "cargo_1": cargo[1]})
    return by_part(rows)


def _other_trains_expected(s, o: int, n: int) -> dict:
    rows = []
    for r in range(1, MAX_PLAYERS):
        p = _seat_of(o, r, n)
        for t in range(MAX_TRAINS):
            exists = p is not None and bool(s["train_exists"][p, t])
            if not exists:
                rows.append({**_train_flags(s, 0, 0), "exists": False, "large": False, "wait": 0, "debt": False,
                             "moved": False, "armed": False, "bound_cards": 0, "cargo_0": NOBODY, "cargo_1": NOBODY,
                             "space": 0, "came_from": 0, "free": False})
                continue
            came_from = int(s["train_from"][p, t])
            cargo = _cargo_entries(s, p, t)
            bound = int(((s["card_holder"] == p) & (s["card_bound"] == t)).sum())
            rows.append({**_train_flags(s, p, t), "bound_cards": bound, "cargo_0": cargo[0], "cargo_1": cargo[1],
                         "space": int(s["train_pos"][p, t]), "came_from": 0 if came_from == FREE else came_from,
                         "free": came_from == FREE})
    return {part: np.array([row[part] for row in rows]).reshape(MAX_PLAYERS - 1, MAX_TRAINS) for part in rows[0]}


def _own_pieces_expected(s, o: int) -> dict:
    held = s["card_holder"] == o
    own_card_trains = [int(s["card_bound"][k]) if held[k] else NOBODY for k in range(6)]
    desp = [int(x) for x in s["desp_pos"][o]]
    return {"own_desperados": {"exists": [x != NO_SPACE for x in desp], "space": desp},
            "own_cards": held.tolist(), "own_card_trains": own_card_trains}


def _cards_expected(s, n: int) -> dict:
    horizon = int(s["expiry_rounds"]) * n
    cards = [int(c) for c in s["comp_card"]]
    share = [int(s["comp_countdown"][i]) / horizon if horizon and cards[i] != NOBODY else 0.0 for i in range(3)]
    return {"competitions": {"card": cards, "countdown_share": share},
            "deck": {"size": int(s["deck_size"]), "never_drawn": int(s["never_drawn"])}}


def _space_static() -> np.ndarray:
    planes = [IS_CITY, SPACE_TYPE == SPACE_JUNCTION, SPACE_SPECIAL == SPECIAL_TELEGRAM, SPACE_SPECIAL == SPECIAL_STAR]
    return np.array(planes + [SPACE_ZONE == z for z in range(3)])


def expected_decode(s, o: int, vps: np.ndarray) -> dict:
    """What ``decode`` must give for seat o's observation of record s (module docstring of ``observation``)."""
    n = int(s["num_players"])
    rows = [_seat_row(s, _seat_of(o, r, n), int(vps[_seat_of(o, r, n)]) if r < n else 0) for r in range(MAX_PLAYERS)]
    owners = [NOBODY if s["city_owner"][c] == NOBODY else _offset(int(s["city_owner"][c]), o, n)
              for c in range(N_CITIES)]
    return {**_context_expected(s, o), **_dice_and_game_expected(s, n),
            "seats": by_part(rows), "city_owner": owners,
            "space_static": _space_static(), "dynamite": s["dynamite"].astype(bool),
            "sheriffs": [int(x) for x in s["sheriff_pos"]], **_planes_expected(s, o, n),
            "own_trains": _own_trains_expected(s, o), "other_trains": _other_trains_expected(s, o, n),
            **_own_pieces_expected(s, o), **_cards_expected(s, n)}


# ---- (a) every field is declared -------------------------------------------------------------------------------------
def test_every_field_declares_its_natural_scale():
    """``undecoded()`` is empty: no field of the Wild West Express observation decodes as raw floats."""
    assert OBS.undecoded() == []


# ---- (b) decoded values are the record's -----------------------------------------------------------------------------
def test_snapshots_cover_the_interesting_cases(records):
    """The random-play records reach moves, desperado moves, drawn cards, held cards, competitions, sheriffs,
    dynamite, debts, finished games and most decisions."""
    assert records["move_active"].any() and (records["decision"] == DEC_DESPERADO_STEP).any()
    assert (records["decision"] == DEC_TELEGRAM_DRAWN).any() and (records["card_holder"] != NOBODY).any()
    assert (records["comp_card"] != NOBODY).any() and (records["sheriff_pos"] != NO_SPACE).any()
    assert records["dynamite"].any() and (records["train_debt"] > 0).any() and records["done"].any()
    assert (records["train_large"] & records["train_exists"]).any() and len(np.unique(records["decision"])) >= 12
    assert (records["train_cargo"] >= PASSENGER_BASE).any() and records["train_armed"].any()


def test_decoded_values_equal_the_record_for_every_seat(records):
    """Every field (decision, context, dice, game, seats, station owners, board planes, own and other trains, own
    desperados and cards, competitions, deck) decodes to the record's values, seen from each seat (§16.4)."""
    vps = GAME.scores(records)
    assert check_every_seat(GAME, records, lambda b, s, o: expected_decode(s, o, vps[b]), equal_to_float32) > 400


def test_counts_decode_as_integers(records):
    """Counts come back as integers (not floats to round): cash, steps, dice, trains, cards, spaces, deck."""
    decoded = OBS.decode(GAME.observe(records[:1], 0)[0])
    for value in (decoded["seats"]["cash"], decoded["dice"]["faces"], decoded["trains_small"],
                  decoded["other_trains"]["space"], decoded["own_trains"]["wait"], decoded["seats"]["cards"]):
        assert np.issubdtype(np.asarray(value).dtype, np.integer)
    for value in (decoded["steps_left"], decoded["decision_type"], decoded["deck"]["size"],
                  decoded["game"]["num_players"]):
        assert isinstance(value, int)  # a field of one value decodes to one Python value
    assert isinstance(decoded["first_step"], bool) and isinstance(decoded["game"]["round_share"], float)


def test_batches_decode_like_single_observations(records):
    """``decode`` of a batch of observations gives, row by row, what single observations give."""
    assert_batch_decodes_row_by_row(OBS, GAME.observe(records[:20], 0),
                                    [("decision_type",), ("seats", "cash"), ("own_trains", "cargo_0")])


# ---- (c) one-hots in range; the declaration accounts for every float -------------------------------------------------


def test_every_onehot_decodes_to_an_index_in_range_or_minus_one(records):
    """Every one-hot part of every observation decodes to -1 or an index among its values; each takes
    values other than -1 somewhere in the records."""
    names, seen = onehots_in_range(OBS, (GAME.observe(*seen_by(records, o)) for o in range(MAX_PLAYERS)))
    assert len(names) == 17 and seen == names


def test_reencoding_the_decoded_fields_gives_back_every_float(records):
    """Every float is covered by a part at the kernel's own scale: encode(decode(obs)) == obs, bit for bit
    (so one-hots hold at most one 1, flags are 0/1, and no count is clipped or scaled differently)."""
    for o in range(MAX_PLAYERS):
        assert_reencodes(OBS, GAME.observe(*seen_by(records, o)))


def test_control_a_wrong_scale_is_caught(records):
    """Control: a layout that reads cash in units of $20 instead of $1,000 fails both checks above."""
    wrong = with_part_rescaled(OBS, "seats", "cash", 20.0)
    obs = GAME.observe(records, 0)
    assert encode(wrong, wrong.decode(obs), len(obs)).tobytes() != obs.tobytes()
    vps = GAME.scores(records)
    b = int(np.flatnonzero(records["round"] > 0)[0])  # a record after setup: everybody holds cash
    expected = expected_decode(records[b], 0, vps[b])
    assert mismatches(wrong.decode(obs[b]), expected, equal_to_float32)
    assert not mismatches(OBS.decode(obs[b]), expected, equal_to_float32)
