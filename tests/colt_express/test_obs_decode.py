"""Named observation fields at their natural scales (issue 19 item 5; spec §10, §11.6, ``observation`` docstring).

``GAME.obs_layout.decode(vec)`` must give every field of the observation in the
game's own terms. Checked here on records from seeded random play through the
public API (``GAME.init_batch``, ``legal_mask``, ``step``, ``observe``), for
every seat's observation:

* every field declares its parts (``undecoded()`` is empty);
* the decoded values equal the values read from the record, egocentric seat
  and bandit indices and all (a plain-Python reading of the record, written
  from the spec and the module docstring, not from the kernel): all 25 fields,
  money in dollars;
* every one-hot decodes to an index in range or -1, and re-encoding the decoded
  values gives back the observation (bit for bit, but for the two sums the
  kernel accumulates in float32), so no float is left out or read at the wrong
  scale (a control shows a wrong scale is caught).
"""

from __future__ import annotations

import numpy as np
import pytest

from wildwest_envs.colt_express.data import (BULLET_CARD, DEC_KEEP, DEC_PLAN, GHOST, MAX_BANDITS, MAX_CARS,
                                             MAX_PILE, MAX_PLAYERS, N_CARD_CODES, N_LEVELS, N_LOCATIONS, N_PURSES,
                                             N_ROUND_CARDS, PURSE_IN_BOX, PURSE_ON_BANDIT, PURSE_REMOVED,
                                             RANSOM_VALUE, ROUND_CARD_TURNS)
from wildwest_envs.registry import get_game
from tests._layout_codec import (assert_batch_decodes_row_by_row, assert_reencodes, by_part, check_every_seat, encode,
                                 mismatches, onehots_in_range, parts_of, per_seat_offset, seen_by, with_part_rescaled)

GAME = get_game("colt_express_v0")
OBS = GAME.obs_layout
NOBODY = -1
ACCUMULATED = {("bandits", "known_purse_value"), ("own_deck", "bullet_cards")}  # float32 sums of k / scale


def _random_play_snapshots(num_players: int, expert: bool, n_games: int = 3, every: int = 7,
                           seed: int = 0) -> np.ndarray:
    """Records every ``every`` decisions of seeded random games (and every KEEP and Stealin' one), until they end;
    the finished records at the end."""
    states = GAME.init_batch(n_games, seed=seed, num_players=num_players, expert=expert)
    rng = np.random.default_rng(seed)
    kept, step = [], 0
    while not GAME.finished(states).all():
        live = ~GAME.finished(states)
        keep = live & ((states["decision"] == DEC_KEEP) | (states["acting_bandit"] != NOBODY) | (step % every == 0))
        kept.append(states[keep].copy())
        masks = GAME.legal_mask(states)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        GAME.step(states, actions)
        step += 1
    kept.append(states.copy())
    every_record = np.concatenate(kept)
    return every_record[::3] if len(every_record) > 400 else every_record


CONFIGS = [(2, True), (3, False), (3, True), (4, True), (5, False), (6, True)]


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return np.concatenate([_random_play_snapshots(n, e, seed=10 * n + e) for n, e in CONFIGS])


# ---- the record, read as the spec describes the observation (§10, §11.6) ---------------------------------------------
def _offset(seat: int, o: int, n: int) -> int:
    """Seat offset ``(s - p) mod N`` seen by observer o (§11.6), -1 for nobody."""
    return NOBODY if seat == NOBODY else (seat - o) % n


def _ego(s, bandit: int, o: int) -> int:
    """Egocentric index ``((s - p) mod N) * BPS + slot`` of a bandit (§11.1), -1 for nobody."""
    if bandit == NOBODY:
        return NOBODY
    bps, n = int(s["bandits_per_seat"]), int(s["num_players"])
    return _offset(bandit // bps, o, n) * bps + bandit % bps


def _knows_value(s, purse: int, o: int) -> bool:
    """A starting purse, one o's bandits held, or one on a character card once the game is over (§10.3, G35)."""
    loc = int(s["purse_location"][purse])
    return (purse < s["n_bandits"] or bool((int(s["purse_known"][o]) >> purse) & 1)
            or (bool(s["done"]) and PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + MAX_BANDITS))


def _in_keep(s, seat: int) -> bool:
    return s["decision"] == DEC_KEEP and s["current"] == seat


def _game_expected(s) -> dict:
    n, rnd, dec = int(s["num_players"]), int(s["round"]), int(s["decision"])
    card = int(s["round_deck"][rnd])
    revealed = {int(c) for c in s["round_deck"][:rnd + 1]}
    return {"players": n, "expert": bool(s["expert"]), "round": rnd, "done": bool(s["done"]), "round_card": card,
            "round_revealed": [c in revealed for c in range(N_ROUND_CARDS)],
            "pattern": [int(i) for i in ROUND_CARD_TURNS[card]],
            "turn": int(s["turn"]) if dec == DEC_PLAN else NOBODY,
            "play_in_turn": int(s["play_in_turn"]) if dec == DEC_PLAN else NOBODY, "decision": dec}


def _train_expected(s) -> dict:
    n_cars = int(s["n_carriages"]) + 1
    purses = np.zeros(N_LOCATIONS, dtype=int)
    for loc in s["purse_location"]:
        if loc < N_LOCATIONS:
            purses[loc] += 1
    on_train = np.arange(N_LOCATIONS) // N_LEVELS < n_cars
    floor = {"purses": purses, "jewels": np.where(on_train, s["floor_jewels"], 0),
             "strongboxes": np.where(on_train, s["floor_strongboxes"], 0)}
    return {"car_type": [int(s["car_type"][c]) if c < n_cars else NOBODY for c in range(MAX_CARS)],
            "car_present": [c < n_cars for c in range(MAX_CARS)], "marshal_car": int(s["marshal_car"]),
            "supply": {"neutral_bullets": int(s["neutral_supply"]), "supply_removed": bool(s["supply_removed"]),
                       "second_strongbox_placed": bool(s["second_strongbox_placed"])},
            "floor_loot": {k: v.reshape(MAX_CARS, N_LEVELS) for k, v in floor.items()}}


_ABSENT_BANDIT = {"present": False, "own_team": False, "seat": NOBODY, "character": NOBODY, "location": NOBODY,
                  "bullets_left": 0, "bullets_received": 0, "purses": 0, "jewels": 0, "strongboxes": 0, "ransom": 0,
                  "known_purse_value": 0}


def _bandits_expected(s, o: int) -> dict:
    """Per egocentric bandit index: the bandit's team, character, car and level, bullets and loot in dollars."""
    n, bps = int(s["num_players"]), int(s["bandits_per_seat"])
    rows = [dict(_ABSENT_BANDIT) for _ in range(MAX_BANDITS)]
    for b in range(int(s["n_bandits"])):
        held = [i for i in range(N_PURSES) if s["purse_location"][i] == PURSE_ON_BANDIT + b]
        rows[_ego(s, b, o)] = {
            "present": True, "own_team": b // bps == o, "seat": _offset(b // bps, o, n),
            "character": int(s["character"][b]), "location": int(s["bandit_car"][b]) * 2 + int(s["bandit_level"][b]),
            "bullets_left": int(s["bullets_left"][b]), "bullets_received": int(s["bullets_received"][b]),
            "purses": len(held), "jewels": int(s["jewels_held"][b]), "strongboxes": int(s["strongboxes_held"][b]),
            "ransom": int(s["ransoms"][b]) * RANSOM_VALUE,
            "known_purse_value": sum(int(s["purse_value"][i]) for i in held if _knows_value(s, i, o))}
    return by_part(rows, _ABSENT_BANDIT)


_ABSENT_SEAT = {"present": False, "first_player": False, "acting": False, "hand_size": 0, "deck_size": 0,
                "discard_size": 0, "known_bullets_on_top": 0}


def _seats_expected(s, o: int) -> dict:
    """Per seat offset: turn order and card counts; another seat's KEEP shows its old sizes (§11.3)."""
    aside = int(s["keep_aside"].sum())

    def row(p: int) -> dict:
        keep = _in_keep(s, p)
        return {"present": True, "first_player": s["first_player"] == p, "acting": s["current"] == p,
                "hand_size": int(s["hand"][p].sum()) + (aside if keep and p != o else 0),
                "deck_size": int(s["deck_size"][p]),
                "discard_size": int(s["discard"][p].sum()) + (aside if keep and p == o else 0),
                "known_bullets_on_top": int(s["known_bullets_on_top"][p])}
    return per_seat_offset(o, int(s["num_players"]), row, _ABSENT_SEAT, MAX_PLAYERS)


def _purses_expected(s, o: int) -> dict:
    rows = []
    for i in range(N_PURSES):
        loc, known = int(s["purse_location"][i]), _knows_value(s, i, o)
        holder = loc - PURSE_ON_BANDIT if PURSE_ON_BANDIT <= loc < PURSE_ON_BANDIT + MAX_BANDITS else NOBODY
        rows.append({"train_location": loc if loc < N_LOCATIONS else NOBODY, "holder": _ego(s, holder, o),
                     "in_box": loc == PURSE_IN_BOX, "removed": loc == PURSE_REMOVED,
                     "value_class": (int(s["purse_value"][i]) - 250) // 50 if known else NOBODY,
                     "value_unknown": not known})
    return by_part(rows)


def _cards(counts) -> dict:
    counts = [int(c) for c in counts]
    return {"action_cards": counts[:N_CARD_CODES], "bullet_cards": counts[BULLET_CARD]}


def _own_cards_expected(s, o: int) -> dict:
    """o's hand, deck composition (never its order) and discard; set-aside KEEP cards count as discarded."""
    deck = np.bincount(s["deck"][o, :int(s["deck_size"][o])], minlength=N_CARD_CODES + 1)
    discard = s["discard"][o].astype(int) + (s["keep_aside"].astype(int) if _in_keep(s, o) else 0)
    return {"own_hand": _cards(s["hand"][o]), "own_deck": _cards(deck), "own_discard": _cards(discard)}


_ABSENT_PILE = {"present": False, "owner": NOBODY, "face_down": False, "visible": False, "card": NOBODY,
                "resolved": False, "resolving": False}


def _pile_expected(s, o: int) -> dict:
    """Per pile position: owner offset, the face when played up, by o, or reached by Stealin' (G22)."""
    n, resolving = int(s["num_players"]), int(s["resolving"])
    rows = []
    for i in range(MAX_PILE):
        if i >= s["pile_size"]:
            rows.append(_ABSENT_PILE)
            continue
        owner, down = int(s["pile_owner"][i]), bool(s["pile_down"][i])
        visible = not down or owner == o or (resolving != NOBODY and i <= resolving)
        rows.append({"present": True, "owner": _offset(owner, o, n), "face_down": down, "visible": visible,
                     "card": int(s["pile_card"][i]) if visible else NOBODY,
                     "resolved": resolving != NOBODY and i < resolving, "resolving": i == resolving})
    return by_part(rows, _ABSENT_PILE)


def _pending_expected(s, o: int) -> dict:
    bps = int(s["bandits_per_seat"])
    team_has_ghost = any(s["character"][o * bps + k] == GHOST for k in range(bps))
    ghost = (s["decision"] == DEC_PLAN and s["current"] == o and s["turn"] == 0 and s["play_in_turn"] == 0
             and team_has_ghost)
    return {"pending_bandit": _ego(s, int(s["acting_bandit"]), o), "pending_victim": _ego(s, int(s["victim"]), o),
            "ghost": bool(ghost)}


def expected_decode(s, o: int) -> dict:
    """What ``decode`` must give for seat o's observation of record s (module docstring of ``observation``)."""
    return {**_game_expected(s), **_train_expected(s), "bandits": _bandits_expected(s, o),
            "seats": _seats_expected(s, o), "purses": _purses_expected(s, o), **_own_cards_expected(s, o),
            "pile": _pile_expected(s, o), **_pending_expected(s, o)}


# ---- (a) every field is declared -------------------------------------------------------------------------------------
def test_every_field_declares_its_natural_scale():
    """``undecoded()`` is empty: no field of the Colt Express observation decodes as raw floats."""
    assert OBS.undecoded() == []


# ---- (b) decoded values are the record's -----------------------------------------------------------------------------
def test_snapshots_cover_the_interesting_cases(records):
    """The random-play records reach every player count, expert KEEP decisions, Stealin' (face-down cards being
    revealed), held purses of unknown value, ransoms, strongboxes held, finished games and every decision."""
    assert set(np.unique(records["num_players"])) == {2, 3, 4, 5, 6} and records["done"].any()
    assert (records["decision"] == DEC_KEEP).any() and (records["resolving"] != NOBODY).any()
    assert (records["pile_down"].astype(bool) & (np.arange(MAX_PILE) < records["pile_size"][:, None])).any()
    on_bandit = (records["purse_location"] >= PURSE_ON_BANDIT) & (records["purse_location"] < PURSE_IN_BOX)
    assert (on_bandit & (np.arange(N_PURSES) >= records["n_bandits"][:, None])).any()
    assert records["strongboxes_held"].any() and records["jewels_held"].any() and records["bullets_received"].any()
    assert (records["purse_location"] == PURSE_IN_BOX).any() and len(np.unique(records["decision"])) >= 11


def test_decoded_values_equal_the_record_for_every_seat(records):
    """Every field (options, round and its card, pattern, turn, decision, cars, marshal, supply, floor loot, every
    bandit's team, character, car and level, bullets and loot in dollars, every seat's card counts, every purse,
    own cards, pile, pending bandit and victim, Ghost) decodes to the record's values, seen from each seat."""
    assert check_every_seat(GAME, records, lambda b, s, o: expected_decode(s, o)) > 1000


def test_bandit_car_and_level_and_loot_in_game_terms(records):
    """The decoded location of each bandit splits into the record's car and level; a seat's own bandits show
    the full dollar value of the purses they hold (it has seen each of them, §10.3) and their ransoms in dollars."""
    checked = 0
    for b in range(0, len(records), 5):
        s = records[b]
        n, bps = int(s["num_players"]), int(s["bandits_per_seat"])
        obs = GAME.observe(np.repeat(records[b:b + 1], n), np.arange(n))
        for o in range(n):
            bandits = OBS.decode(obs[o])["bandits"]
            for bandit in range(int(s["n_bandits"])):
                e = _ego(s, bandit, o)
                car, level = divmod(int(bandits["location"][e]), N_LEVELS)
                assert (car, level) == (int(s["bandit_car"][bandit]), int(s["bandit_level"][bandit]))
                if bandit // bps == o:
                    held = s["purse_location"] == PURSE_ON_BANDIT + bandit
                    assert bandits["known_purse_value"][e] == int(s["purse_value"][held].astype(int).sum())
                    assert bandits["ransom"][e] == int(s["ransoms"][bandit]) * RANSOM_VALUE
                    checked += int(held.any())
    assert checked > 50


def test_counts_decode_as_integers(records):
    """Counts come back as integers (not floats to round): loot, bullets, dollars, card counts."""
    decoded = OBS.decode(GAME.observe(records[:1], 0)[0])
    for value in (decoded["bandits"]["purses"], decoded["bandits"]["ransom"], decoded["bandits"]["bullets_left"],
                  decoded["seats"]["hand_size"], decoded["floor_loot"]["jewels"], decoded["own_hand"]["action_cards"],
                  decoded["bandits"]["known_purse_value"]):
        assert np.issubdtype(np.asarray(value).dtype, np.integer)
    for value in (decoded["round"], decoded["players"], decoded["decision"], decoded["supply"]["neutral_bullets"],
                  decoded["own_deck"]["bullet_cards"]):
        assert isinstance(value, int)  # a field of one value decodes to one Python value
    assert isinstance(decoded["done"], bool) and isinstance(decoded["ghost"], bool)


def test_batches_decode_like_single_observations(records):
    """``decode`` of a batch of observations gives, row by row, what single observations give."""
    assert_batch_decodes_row_by_row(OBS, GAME.observe(records[:20], 0),
                                    [("round",), ("bandits", "location"), ("floor_loot", "purses")])


# ---- (c) one-hots in range; the declaration accounts for every float -------------------------------------------------


def test_every_onehot_decodes_to_an_index_in_range_or_minus_one(records):
    """Every one-hot part of every observation decodes to -1 or an index among its values; each takes
    values other than -1 somewhere in the records."""
    names, seen = onehots_in_range(OBS, (GAME.observe(*seen_by(records, o)) for o in range(MAX_PLAYERS)))
    assert len(names) == 19 and seen == names


def _accumulated_mask() -> np.ndarray:
    """The floats of the parts the kernel sums in float32 (``ACCUMULATED``): equal up to rounding only."""
    mask = np.zeros(OBS.size, dtype=bool)
    for name, entry in OBS.fields.items():
        view = OBS.get(mask, name)
        start = 0
        for part in parts_of(entry):
            if (name, part.name) in ACCUMULATED:
                view[..., start:start + part.width] = True
            start += part.width
    return mask


def test_reencoding_the_decoded_fields_gives_back_every_float(records):
    """Every float is covered by a part at the kernel's own scale: encode(decode(obs)) == obs, bit for bit but for
    the sums the kernel accumulates in float32 (known purse values, bullet cards in the deck), which agree to
    float32 rounding (so one-hots hold at most one 1, flags are 0/1, and no count is clipped or scaled differently)."""
    loose = _accumulated_mask()
    for o in range(MAX_PLAYERS):
        assert_reencodes(OBS, GAME.observe(*seen_by(records, o)), loose)


def test_control_a_wrong_scale_is_caught(records):
    """Control: a layout that reads ransoms in dollars instead of thousands fails both checks above."""
    wrong = with_part_rescaled(OBS, "bandits", "ransom", 1.0)
    b = int(np.flatnonzero(records["ransoms"].any(axis=1))[0])
    obs = GAME.observe(records[b:b + 1], 0)
    assert encode(wrong, wrong.decode(obs), 1).tobytes() != obs.tobytes()
    assert mismatches(wrong.decode(obs[0]), expected_decode(records[b], 0))
    assert not mismatches(OBS.decode(obs[0]), expected_decode(records[b], 0))
