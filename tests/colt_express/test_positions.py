"""The public position builder ``wildwest_envs.colt_express.positions`` (issue 19 item 1).

* A built position equals one reached by play from the same seed: byte for
  byte on every field but the generator (the builder keeps ``init``'s, play has
  shuffled since) and the decision counter (0: the cap counts from the built
  position), in legal mask and in every seat's observation, at every decision
  it builds: PLAN, BULLETS, KEEP and the start of Stealin' (also when the
  engine resolves cards before the first decision); with the played generator,
  both play on alike.
* Each term does what the module docstring says and keeps the books (neutral
  bullets, every card of a seat in one place, purse knowledge and values, the
  train's jewels and strongboxes); ``place`` edits only what it names.
* Unknown terms and impossible values raise ``ValueError`` / ``TypeError``
  naming the term; ``place`` leaves the record untouched when it refuses.
* Built records pass ``GAME.validate``, step with legal moves by id or name and
  keep the invariants; ``GAME.position`` is the same builder; the module
  docstring's example runs.
"""

from __future__ import annotations

import re
from functools import partial

import numpy as np
import pytest

from tests import _positions as compare
from wildwest_envs.colt_express import positions
from wildwest_envs.colt_express.data import (A_BULLETS_DISCARD, A_BULLETS_KEEP, A_CAR, A_DRAW, A_KEEP_REST,
                                             A_PLAY_DOWN, BULLET_CARD, CARRIAGE_JEWELS, DEC_BULLETS, DEC_FIRE_TARGET,
                                             DEC_KEEP, DEC_MOVE_DEST, DEC_PLAN, DEC_ROB_LOOT, FIRE, IN, MOVE,
                                             N_CARD_CODES, PURSE_IN_BOX, PURSE_ON_BANDIT, PURSE_VALUES, ROB, ROOF)
from wildwest_envs.colt_express.positions import legal_actions, place, play, position, terms_of
from wildwest_envs.colt_express_v0 import GAME
from wildwest_envs.core.rng import game_seeds

IGNORED = ("rng", "n_decisions")  # the generator (init's, or advanced by play) and the decision counter
FOUR = ["Ghost", "Doc", "Cheyenne", "Tuco"]
CARS4 = (1, 3, 4, 0)  # 11 purses (ids 4..14 in play with 4 bandits), 2 jewels

differing_fields = partial(compare.differing_fields, ignore=IGNORED)
# equal records (but the generator and the decision counter), legal masks and every seat's observation
assert_same_position = partial(compare.assert_same_position, GAME, ignore=IGNORED)


def buildable(record: np.void) -> bool:
    """The record is at a decision ``terms_of`` reads (module docstring of ``positions``)."""
    try:
        terms_of(np.array([record]))
    except ValueError:
        return False
    return True


def played_records(n: int, expert: bool, games: int = 4, seed: int = 0):
    """``(seed, record, next record)`` at every decision of seeded random games (the next one after a random
    legal action)."""
    seeds = game_seeds(seed, games)
    states = GAME.init_batch(games, seed=seed, num_players=n, expert=expert)
    rng = np.random.default_rng(seed + 10 * n + expert)
    while not states["done"].all():
        masks = GAME.legal_mask(states)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        before = states.copy()
        GAME.step(states, actions)
        for b in np.flatnonzero(~before["done"]):
            yield int(seeds[b]), before[b:b + 1], int(actions[b]), states[b:b + 1].copy()


CONFIGS = [(2, True), (3, False), (3, True), (4, False), (5, True), (6, False)]


# ---- built equals played ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed,options", [(3, 0, {}), (4, 9, {"start_player": 2}), (2, 5, {}),
                                            (5, 1, {"expert": True, "characters": [5, 4, 3, 2, 1]})])
def test_the_default_position_is_the_fresh_game_of_init(n, seed, options):
    """``position(n, seed)`` is exactly ``GAME.init(seed)``: the first PLAN of round 0 (§3, §4.2)."""
    assert position(n, seed, **options).tobytes() == GAME.init(seed, num_players=n, **options).tobytes()


@pytest.mark.parametrize("n,expert", CONFIGS, ids=[f"{n}p-{'expert' if e else 'standard'}" for n, e in CONFIGS])
def test_positions_reached_by_random_play_are_built_again_from_their_terms(n, expert):
    """Every PLAN, BULLETS, KEEP and first Stealin' decision of seeded random games (bandits moved, loot taken
    and knocked loose, bullets fired, cards drawn, kept and discarded, rounds on) is rebuilt from its seed and
    ``terms_of``: same record, mask and observations."""
    seen = set()
    for k, (seed, played, _, _) in enumerate(played_records(n, expert)):
        if k % 3 or not buildable(played[0]):
            continue
        built = position(n, seed, expert=expert, **terms_of(played))
        assert_same_position(built, played)
        seen.add(terms_of(played)["decision"])
    assert seen >= {"schemin", "stealin"} | ({"bullets", "keep"} if expert else set())


def _end_of_schemin(before: np.ndarray, action: int) -> dict | None:
    """The terms of the end of Schemin' that ``action`` makes from ``before`` (the last PLAN, standard rules, or
    the last KEEP, expert rules, ended with KEEP_REST), or None if it is not such an action."""
    terms = terms_of(before)
    seat = terms.pop("turn")
    hands, decks, pile = terms["hands"], terms["decks"], list(terms["pile"])
    if terms["decision"] == "keep":
        if action != A_KEEP_REST:
            return None
        bullets = hands[seat].count(BULLET_CARD)
        hands[seat] = [c for c in hands[seat] if c != BULLET_CARD]
        terms["discards"][seat] = terms["discards"][seat] + [BULLET_CARD] * bullets
    else:
        terms.pop("icon"), terms.pop("second_play")
        if action == A_DRAW:
            k = min(3, len(decks[seat]))
            hands[seat], decks[seat] = hands[seat] + decks[seat][:k], decks[seat][k:]
        else:
            hands[seat].remove(action % N_CARD_CODES)
            pile.append((seat, action % N_CARD_CODES, action >= A_PLAY_DOWN))
        for p in hands:  # standard rules: every hand goes on top of its deck, in card-code order (§4.4)
            decks[p], hands[p] = sorted(hands[p], reverse=True) + decks[p], []
    terms.update(decision="stealin", pile=pile)
    return terms


@pytest.mark.parametrize("n,expert", [(3, False), (4, True), (6, False), (2, True)])
def test_the_start_of_stealin_is_the_end_of_schemin_played(n, expert):
    """§4.4, §4.5: a 'stealin' position built with the pile, hands and decks Schemin' ends with equals the
    record the last play (standard) or the last KEEP choice (expert) leads to, cards the engine resolves before
    the first decision included."""
    compared = resolved_first = 0
    for seed, before, action, after in played_records(n, expert, games=6, seed=3):
        s, t = before[0], after[0]
        ended = s["decision"] in (DEC_PLAN, DEC_KEEP) and t["decision"] not in (DEC_PLAN, DEC_KEEP)
        if not ended or t["round"] != s["round"] or t["done"] or not buildable(s):
            continue  # (a Stealin' passing into the next round shuffles from the played generator)
        terms = _end_of_schemin(before, action)
        if terms is None:
            continue
        built = position(n, seed, expert=expert, **terms)
        assert_same_position(built, after)
        compared += 1
        resolved_first += int(t["resolving"]) > 0
    assert compared >= 5 and resolved_first >= 1


def test_a_built_position_plays_on_like_the_played_one():
    """With the played record's generator, the built record takes the same random game to its end."""
    seed, played = next((seed, p) for k, (seed, p, _, _) in enumerate(played_records(4, True))
                        if k > 60 and buildable(p[0]) and p[0]["round"] >= 1)
    built = position(4, seed, expert=True, **terms_of(played))
    built["rng"] = played["rng"]
    rng = np.random.default_rng(5)
    while not played[0]["done"]:
        mask = GAME.legal_mask(played)
        assert np.array_equal(mask, GAME.legal_mask(built))
        action = int(rng.choice(np.flatnonzero(mask[0])))
        play(played, action)
        play(built, action)
        assert differing_fields(built, played, ignore=("n_decisions",)) == []
    assert built[0]["done"]


def test_terms_of_reads_a_built_position_back():
    """``terms_of`` gives back the terms a position was built from (in its own forms)."""
    states = position(4, 2, characters=FOUR, carriages=CARS4, round=2, round_card="Tunnel", first_player=1,
                      icon=1, turn=2, bandits={0: (1, "roof"), 1: 2, 2: (3, "roof"), 3: 4}, marshal=0,
                      purses={5: 0, 6: (2, "roof")}, jewels={2: 1, (3, "in"): 1},
                      bullets_left={1: 4}, bullets_received={0: 2, 3: 1}, pile=[(1, "Rob")])
    terms = terms_of(states)
    assert terms["decision"] == "schemin" and (terms["turn"], terms["icon"], terms["second_play"]) == (2, 1, False)
    assert (terms["round"], terms["round_card"], terms["first_player"]) == (2, 5, 1)
    assert terms["bandits"] == {0: (1, "roof"), 1: (2, "in"), 2: (3, "roof"), 3: (4, "in")}
    assert terms["purses"][5] == 0 and terms["purses"][6] == (2, "roof") and terms["purses"][4] == (1, "in")
    assert terms["jewels"] == {(3, "in"): 1, 2: 1} and terms["strongboxes"] == {(0, "in"): 1}
    assert terms["bullets_left"] == {0: 6, 1: 4, 2: 6, 3: 6} and terms["pile"] == [(1, ROB, False)]
    assert "discards" not in terms
    assert position(4, 2, characters=FOUR, carriages=CARS4, **terms).tobytes() == states.tobytes()


# ---- the decision and the round -----------------------------------------------------------------------------------
def test_round_card_first_player_and_the_schemin_play():
    """§2.6, §2.7, §4.7: the round card goes to its round (swapped), the first player moves on a seat a round,
    and ``turn``/``icon``/``second_play`` give the play of Schemin' (turn order from the first player)."""
    fresh = position(4, 8)[0]
    s = position(4, 8, round=2, round_card=fresh["round_deck"][0])[0]
    assert s["round_deck"][2] == fresh["round_deck"][0] and s["round_deck"][0] == fresh["round_deck"][2]
    assert s["first_player"] == (fresh["first_player"] + 2) % 4 and s["current"] == s["first_player"]
    s = position(4, 8, round_card="Take It All", first_player=1, icon=2, turn=3, second_play=True)[0]  # N T S N
    assert (s["round_deck"][0], s["turn"], s["turn_position"], s["play_in_turn"]) == (3, 2, 2, 1)
    assert s["decision"] == DEC_PLAN and s["current"] == 3
    s = position(4, 8, round_card="Angry Marshal", first_player=1, icon=3, turn=3)[0]  # N N T R: counter-clockwise
    assert s["turn_position"] == 2  # 1, 0, 3
    s = position(5, 8, round=4, round_card="Hostage of the Conductor")[0]
    assert s["round_deck"][4] == 16 and s["round"] == 4


def test_bullets_and_keep_decisions_ask_the_right_seat():
    """§4.2 step 3, §4.4: BULLETS asks a seat that has been hit, KEEP a seat holding cards, clockwise from the
    first player; the seats before have answered."""
    s = position(3, 1, expert=True, decision="bullets", round=1, first_player=0, bullets_received={1: 1, 2: 1})[0]
    assert (s["decision"], s["current"], s["cursor"], s["pile_size"]) == (DEC_BULLETS, 1, 1, 0)
    assert legal_actions(position(3, 1, expert=True, decision="bullets", turn=2, bullets_received={2: 1})) == [
        A_BULLETS_DISCARD, A_BULLETS_KEEP]
    states = position(3, 1, expert=True, decision="keep", round_card="Bridge", first_player=2,
                      hands={2: [], 0: ["Move"]},
                      pile=[(2, "Fire"), (0, "Fire", False)])
    s = states[0]
    assert (s["decision"], s["current"], s["cursor"], s["turn"]) == (DEC_KEEP, 0, 1, 2)
    assert s["hand"][0].sum() == 1 and s["pile_size"] == 2
    play(states, "discard Move")
    assert s["hand"][0].sum() == 0 and s["current"] == 1


def test_decision_names_and_codes_are_accepted():
    """``decision``: the short names, the §11.3 names and the codes build the same position."""
    for names in (("schemin", "PLAN", DEC_PLAN), ("bullets", "BULLETS", DEC_BULLETS), ("keep", "KEEP", DEC_KEEP)):
        built = {position(3, 1, expert=True, decision=d, bullets_received={0: 1}).tobytes() for d in names}
        assert len(built) == 1
    assert position(3, 1, decision="Stealin'").tobytes() == position(3, 1, decision="stealin").tobytes()


# ---- the board ----------------------------------------------------------------------------------------------------
def test_bandits_and_marshal_by_name_id_or_bare_car():
    """``bandits``: by character name or bandit id, a pair or a bare car (inside); ``marshal`` a car."""
    s = position(4, 3, characters=FOUR, marshal=1,
                 bandits={"Ghost": (0, "roof"), "doc": 2, "Cheyenne": 3, 3: ("locomotive", ROOF)})[0]
    assert list(s["bandit_car"][:4]) == [0, 2, 3, 0] and list(s["bandit_level"][:4]) == [ROOF, IN, IN, ROOF]
    assert s["marshal_car"] == 1
    s = position(2, 3, characters=FOUR, bandits=[1, 1, (2, "roof"), 4])[0]
    assert list(s["bandit_car"][:4]) == [1, 1, 2, 4]


def test_train_loot_purses_and_their_values():
    """``train_loot`` gathers the train's loot, ``purses`` moves tokens (their holders learn the value),
    ``purse_values`` swaps values (a box purse gives way when it can, §2.2, §10.3)."""
    fresh = position(4, 6, carriages=CARS4)[0]
    states = position(4, 6, carriages=CARS4, train_loot=(2, "roof"), purses={7: "Ghost", 8: (1, "in")},
                      characters=FOUR)
    s = states[0]
    on_train = [i for i in range(4, 15) if i not in (7, 8)]
    assert all(s["purse_location"][i] == 2 * 2 + ROOF for i in on_train)
    assert s["purse_location"][7] == PURSE_ON_BANDIT and s["purse_location"][8] == 1 * 2 + IN
    assert s["floor_jewels"][2 * 2 + ROOF] == 2 and s["floor_strongboxes"][2 * 2 + ROOF] == 1
    assert (int(s["purse_known"][0]) >> 7) & 1 and not (int(s["purse_known"][1]) >> 7) & 1
    assert all(s["purse_location"][15:] == PURSE_IN_BOX) and list(s["purse_location"][1:4]) == [15, 16, 17]
    s = position(4, 6, carriages=CARS4, purse_values={7: 500, 8: 500})[0]
    assert sorted(s["purse_value"].tolist()) == sorted(PURSE_VALUES.tolist())
    assert s["purse_value"][7] == 500 and s["purse_value"][8] == 500
    changed = [i for i in range(18) if s["purse_value"][i] != fresh["purse_value"][i] and i not in (7, 8)]
    assert all(fresh["purse_value"][i] == 500 for i in changed)  # the $500 purses took the values given up
    assert sorted(s["purse_value"][changed].tolist()) == sorted(v for v in fresh["purse_value"][[7, 8]].tolist()
                                                                if v != 500)
    for seed in range(40):  # a seed whose purse 7 is not $250 while a purse in the box is
        fresh = position(4, seed, carriages=CARS4)[0]
        in_box = [i for i in range(15, 18) if fresh["purse_value"][i] == 250]
        if fresh["purse_value"][7] != 250 and in_box:
            break
    s = position(4, seed, carriages=CARS4, purse_values={7: 250})[0]
    changed = [i for i in range(18) if s["purse_value"][i] != fresh["purse_value"][i] and i != 7]
    assert len(changed) == 1 and changed[0] in in_box and s["purse_value"][changed[0]] == fresh["purse_value"][7]
    place(states, purses={7: (3, "roof")}, known={1: [9]})
    assert (int(states[0]["purse_known"][0]) >> 7) & 1  # knowledge is never lost (§10.3)
    assert (int(states[0]["purse_known"][1]) >> 9) & 1 and not (int(states[0]["purse_known"][2]) >> 9) & 1


def test_jewels_strongboxes_and_ransoms():
    """``jewels`` / ``strongboxes`` list every holder (the train's totals, §2.1); two strongboxes mean Take It All
    has placed the second (§8.4); ``ransoms`` per bandit."""
    total = sum(int(CARRIAGE_JEWELS[t]) for t in CARS4)
    s = position(4, 6, carriages=CARS4, jewels={"Doc": 1, (2, "roof"): total - 1}, strongboxes={0: 1, (3, "in"): 1},
                 ransoms={2: 1}, characters=FOUR)[0]
    assert s["jewels_held"][1] == 1 and s["floor_jewels"][2 * 2 + ROOF] == total - 1 and s["floor_jewels"][2] == 0
    assert s["strongboxes_held"][0] == 1 and s["floor_strongboxes"][3 * 2 + IN] == 1 and s["second_strongbox_placed"]
    assert s["floor_strongboxes"][0] == 0 and s["ransoms"][2] == 1


def test_bullets_keep_the_neutral_supply_and_the_seats_cards():
    """§5.3, §6.3, §6.7: received bullets are cards of the seat (on top of its deck, known on top with the expert
    rules); the neutral supply is what the shots leave over; ``supply_removed`` empties it."""
    states = position(3, 2, expert=True, bullets_left={0: 4}, bullets_received={1: 2, 2: 3})
    s = states[0]
    assert s["neutral_supply"] == 13 - (5 - 2) and s["deck"][2, s["deck_size"][2] - 1] == BULLET_CARD
    assert list(s["known_bullets_on_top"][:3]) == [0, 2, 3]
    s = position(3, 2, bullets_received={0: 12}, supply_removed=True)[0]
    assert s["supply_removed"] and s["neutral_supply"] == 0 and s["known_bullets_on_top"].sum() == 0


def test_cards_stay_where_they_can_and_the_rest_goes_on_the_deck():
    """§2.4, §4.4: named places hold exactly their cards; the seat's other cards stay in its places, the deck
    keeping its own first, and the rest goes on top of the deck in card-code order; a seat whose places are all
    named holds exactly its cards."""
    fresh = position(3, 4, characters=["Ghost", "Tuco", "Belle"])[0]
    states = position(3, 4, characters=["Ghost", "Tuco", "Belle"], hands={0: ["Punch", "Marshal of Ghost"]})
    s = states[0]
    assert list(s["hand"][0, :6]) == [0, 0, 0, 1, 0, 1] and s["deck_size"][0] == 8
    freed = sorted(code for code in range(6) for _ in range(fresh["hand"][0, code] - s["hand"][0, code]))
    kept = [int(c) for c in fresh["deck"][0, :fresh["deck_size"][0]] if c not in (3, 5)]
    assert [int(c) for c in s["deck"][0, :8]] == kept + freed
    s = position(3, 4, decks={1: ["Rob", "Move"]}, pile=[(1, "Fire")], first_player=0, turn=2)[0]
    assert list(s["deck"][1, :2]) == [MOVE, ROB] and s["hand"][1].sum() == 7 and s["hand"][1, FIRE] == 1
    s = position(4, 4, expert=True, decks={0: ["Rob"]}, discards={0: {"Move": 2, "Fire": 1}})[0]
    assert s["hand"][0].sum() == 6 and list(s["discard"][0, :3]) == [2, 0, 1] and s["deck_size"][0] == 1
    s = position(3, 4, expert=True, bullets_received={0: 2}, decks={0: ["bullet", "bullet", "Rob"]},
                 known_bullets={0: 1})[0]
    assert s["known_bullets_on_top"][0] == 1 and list(s["deck"][0, :3]) == [ROB, BULLET_CARD, BULLET_CARD]


def test_the_pile_is_a_sequence_of_plays():
    """§4.3, §7: pile cards are their owners' plays so far, face down exactly in tunnels or for Ghost's cards in
    the first turn; the cards come out of the owners' hands."""
    states = position(3, 1, characters=["Ghost", "Tuco", "Belle"], round_card="Tunnel", first_player=0, icon=2,
                      pile=[(0, "Move", True), (2, "Fire"), (1, "Rob", "down")])  # N T N T N
    s = states[0]
    assert list(s["pile_owner"][:3]) == [0, 2, 1] and list(s["pile_down"][:3]) == [1, 0, 1]
    assert s["hand"][0, MOVE] + list(s["deck"][0, :s["deck_size"][0]]).count(MOVE) == 1
    with pytest.raises(ValueError, match="pile"):
        position(3, 1, characters=["Ghost", "Tuco", "Belle"], round_card="Tunnel", icon=1, first_player=0,
                 pile=[(1, "Rob", True)])  # Tuco's play of turn 0 is face up
    with pytest.raises(ValueError, match="pile"):
        position(3, 1, round_card="Tunnel", icon=1, first_player=0, pile=[(2, "Fire"), (1, "Rob")])
    assert position(3, 1, round_card="Tunnel", icon=1, turn=2, first_player=0,
                    pile=[(2, "Fire"), (1, "Rob", True)])[0]["pile_size"] == 2


def test_a_stealin_position_runs_the_engine_to_the_first_decision():
    """§4.5, §11.4: the pile is turned over at once: a Floor change is carried out, the first choice is posed;
    an empty pile goes on to the event and the next round."""
    states = position(4, 2, characters=FOUR, decision="stealin", round_card="Bridge", marshal=4,
                      bandits={0: (1, "roof"), 1: (1, "in"), 2: (3, "in"), 3: (2, "in")},
                      pile=[(0, "Floor change"), (1, "Move"), (2, "Fire")])
    s = states[0]
    assert s["bandit_level"][0] == IN and s["decision"] in (DEC_MOVE_DEST, DEC_FIRE_TARGET)
    assert s["resolving"] >= 1 and s["hand"].sum() == 0
    s = position(4, 2, decision="stealin", round_card="Bridge")[0]
    assert s["round"] == 1 and s["decision"] == DEC_PLAN and s["hand"][:4].sum() >= 24


def test_place_edits_only_what_it_names_and_nothing_on_error():
    """``place`` changes the named entries (and what the books derive); a refused edit leaves the record as it
    was."""
    states = position(3, 5, characters=["Ghost", "Tuco", "Belle"])
    before = states.copy()
    place(states, bandits={"Belle": (1, "roof")}, ransoms={0: 1})
    assert differing_fields(states, before, ignore=()) == ["bandit_car", "bandit_level", "ransoms"]
    snapshot = states.copy()
    with pytest.raises(ValueError, match="marshal"):
        place(states, ransoms={1: 1}, marshal=3)  # two bandits start inside car 3, one of them still there
    assert states.tobytes() == snapshot.tobytes()
    with pytest.raises(TypeError, match="batch of one"):
        place(np.concatenate([states, states]), ransoms={0: 0})
    done = position(3, 5, decision="stealin", round=4, round_card=16)
    with pytest.raises(ValueError, match="over"):
        place(done, ransoms={0: 0})


def test_place_refuses_an_edit_that_leaves_a_decision_without_a_legal_action():
    """A pending choice whose options the edit removes is refused (``GAME.validate``)."""
    states = position(4, 1, characters=FOUR, carriages=CARS4, decision="stealin", round_card="Bridge",
                      train_loot=(0, "in"), auto_forced=False, bandits={0: (2, "in"), 1: (4, "roof"),
                                                                       2: (4, "roof"), 3: (4, "roof")},
                      purses={7: (2, "in"), 8: (2, "in")}, pile=[(0, "Rob")])
    assert states[0]["decision"] == DEC_ROB_LOOT and len(legal_actions(states)) == 2
    with pytest.raises(ValueError, match="legal"):
        place(states, purses={7: (0, "in"), 8: (0, "in")})


# ---- bad terms -------------------------------------------------------------------------------------------------------
BAD_TERMS = [
    ({"gold": 3}, ValueError, "gold"),
    ({"seed": -1}, ValueError, "seed"),
    ({"num_players": 7}, ValueError, "num_players"),
    ({"decision": "move_dest"}, ValueError, "decision"),
    ({"decision": "lunch"}, ValueError, "decision"),
    ({"decision": "keep"}, ValueError, "expert"),
    ({"decision": "bullets", "expert": True}, ValueError, "BULLETS"),
    ({"decision": "bullets", "expert": True, "bullets_received": {1: 1}, "turn": 0}, ValueError, "turn"),
    ({"decision": "keep", "expert": True, "hands": {0: [], 1: [], 2: []}}, ValueError, "KEEP"),
    ({"decision": "keep", "expert": True, "first_player": 0, "turn": 1, "bullets_received": {0: 1},
      "hands": {0: ["bullet"]}}, ValueError, "KEEP"),
    ({"decision": "stealin", "turn": 1}, ValueError, "turn"),
    ({"decision": "stealin", "icon": 1}, ValueError, "icon"),
    ({"round": 5}, ValueError, "round"),
    ({"round_card": 14}, ValueError, "round_card"),
    ({"round": 4, "round_card": "Bridge"}, ValueError, "round_card"),
    ({"first_player": 3}, ValueError, "first_player"),
    ({"first_player": 2, "start_player": 0, "round": 1}, ValueError, "first_player"),
    ({"icon": 5}, ValueError, "icon"),
    ({"round_card": "Bridge", "icon": 0, "second_play": True}, ValueError, "second_play"),
    ({"turn": 3}, ValueError, "turn"),
    ({"bandits": {"Zorro": 1}}, ValueError, "Zorro"),
    ({"bandits": {0: 9}}, ValueError, "car"),
    ({"bandits": {0: (1, "attic")}}, ValueError, "level"),
    ({"bandits": {0: 1, "Ghost": 2}}, ValueError, "twice"),
    ({"bandits": {0: 0}}, ValueError, "marshal"),
    ({"marshal": 3, "bandits": {0: 3}}, ValueError, "marshal"),
    ({"train_loot": 2}, TypeError, "train_loot"),
    ({"purses": {17: 0}}, ValueError, "box"),
    ({"purses": {18: 0}}, ValueError, "purses"),
    ({"purse_values": {0: 300}}, ValueError, "starting purse"),
    ({"purse_values": {5: 260}}, ValueError, "purse_values"),
    ({"purse_values": {5: 500, 6: 500, 7: 500}}, ValueError, "purse_values"),
    ({"jewels": {0: 1}}, ValueError, "jewels"),
    ({"strongboxes": {}}, ValueError, "strongboxes"),
    ({"strongboxes": [1]}, TypeError, "strongboxes"),
    ({"ransoms": {0: -1}}, ValueError, "ransoms"),
    ({"known": {3: [5]}}, ValueError, "known"),
    ({"known": {0: [17]}}, ValueError, "box"),
    ({"bullets_left": {0: 7}}, ValueError, "bullets_left"),
    ({"bullets_left": {0: 5}}, ValueError, "bullets_received"),
    ({"bullets_received": {0: 14}}, ValueError, "bullets_received"),
    ({"bullets_received": {0: 3}, "supply_removed": True}, ValueError, "bullets_received"),
    ({"supply_removed": "yes"}, TypeError, "supply_removed"),
    ({"hands": {0: ["Move"] * 3}}, ValueError, "cards of seat 0"),
    ({"hands": {0: ["Joker"]}}, ValueError, "Joker"),
    ({"hands": {0: ["bullet"]}}, ValueError, "cards of seat 0"),
    ({"hands": {0: [6]}}, ValueError, "card"),
    ({"hands": {0: []}, "decks": {0: []}}, ValueError, "cards of seat 0"),
    ({"hands": "Move"}, TypeError, "hands"),
    ({"discards": {0: ["Move"]}}, ValueError, "expert"),
    ({"known_bullets": {0: 1}}, ValueError, "known_bullets"),
    ({"expert": True, "known_bullets": {0: 1}}, ValueError, "known_bullets"),
    ({"decision": "stealin", "hands": {0: ["Move"]}}, ValueError, "hands of seat 0"),
    ({"decision": "stealin", "expert": True, "bullets_received": {0: 1}, "hands": {0: ["bullet"]}}, ValueError,
     "KEEP"),
    ({"pile": [(0, "bullet")]}, ValueError, "bullet"),
    ({"pile": [(0, "Move")]}, ValueError, "pile"),
    ({"pile": [(0, "Move", "sideways")]}, TypeError, "face_down"),
    ({"pile": [0]}, TypeError, "pile"),
    ({"decision": "stealin", "pile": [(0, "Punch"), (0, "Punch")]}, ValueError, "cards of seat 0"),
    ({"decision": "bullets", "expert": True, "bullets_received": {0: 1}, "pile": [(0, "Move")]}, ValueError,
     "BULLETS"),
]


@pytest.mark.parametrize("terms,error,name", BAD_TERMS, ids=[str(i) for i in range(len(BAD_TERMS))])
def test_bad_terms_raise_and_name_the_term(terms, error, name):
    """An unknown term or an impossible value raises ``ValueError`` / ``TypeError`` whose message names it."""
    terms = {"num_players": 3, "seed": 0, "characters": ["Ghost", "Tuco", "Belle"], "carriages": (1, 3, 4),
             **terms}
    with pytest.raises(error, match=name):
        position(**terms)


def test_terms_of_refuses_a_later_step_of_stealin():
    """A Punch's later steps and finished games are not built; ``terms_of`` says so."""
    states = position(4, 1, characters=FOUR, decision="stealin", round_card="Bridge", auto_forced=False,
                      bandits={0: (2, "in"), 1: (2, "in"), 2: (4, "roof"), 3: (4, "roof")}, pile=[(0, "Punch")])
    play(states, "punch Doc")
    with pytest.raises(ValueError, match="PUNCH_LOOT"):
        terms_of(states)
    with pytest.raises(ValueError, match="finished"):
        terms_of(position(3, 5, decision="stealin", round=4, round_card=16))


# ---- built records are valid and play on -----------------------------------------------------------------------------
def test_built_records_validate_and_the_game_api_builds_the_same():
    """``GAME.position`` validates and gives the builder's record; the record survives JSON (validated fields)."""
    terms = {"num_players": 4, "seed": 3, "expert": True, "round": 2, "first_player": 3, "icon": 1,
             "bandits": {0: (1, "roof")}, "bullets_received": {1: 1, 2: 1}, "pile": [(3, "Move")],
             "hands": {1: ["Fire", "bullet"]}, "bullets_left": {1: 5}}
    built = GAME.position(**terms)
    assert built.tobytes() == position(**terms).tobytes()
    GAME.validate(built)
    assert GAME.from_json(GAME.to_json(built[0])).tobytes() == built.tobytes()


def test_built_positions_play_by_id_and_name_and_keep_the_invariants():
    """Random legal actions (by id and by name) from built positions keep every invariant to the end."""
    rng = np.random.default_rng(3)
    for states in (position(3, 1, round=3, bullets_received={1: 2}, hands={0: ["Move", "Fire"]}),
                   position(2, 4, decision="stealin", round=1, first_player=0, pile=[(1, MOVE)],
                            bullets_received={0: 1}),
                   position(5, 2, expert=True, decision="keep", round=2, first_player=4,
                            pile=[(4, "Rob"), (0, "Move")])):
        named = False
        while not states[0]["done"]:
            legal = legal_actions(states)
            action = int(rng.choice(legal))
            if not named:
                play(states, GAME.action_to_string(states[0], action))
                named = True
            else:
                play(states, action)
        assert GAME.invariant_violations(states) == []


def test_play_refuses_an_illegal_action_and_a_wrong_batch():
    """``play`` goes through ``GAME.step``: illegal actions and unknown names are ``ValueError``s."""
    states = position(3, 1)
    with pytest.raises(ValueError, match="legal"):
        play(states, A_CAR + 2)
    with pytest.raises(ValueError, match="no action named"):
        play(states, "dance")
    with pytest.raises(TypeError, match="batch of one"):
        legal_actions(np.concatenate([states, states]))


def test_the_module_docstring_example_runs():
    """The example at the top of ``positions`` runs as written."""
    block = re.search(r"::\n\n((?:    .*\n|\n)+)", positions.__doc__).group(1)
    code = "\n".join(line[4:] for line in block.splitlines())
    namespace: dict = {}
    exec(compile(code, "positions example", "exec"), namespace)  # noqa: S102 (our own docstring)
    states = namespace["states"]
    assert states[0]["bullets_received"][0] == 1 and states[0]["bullets_left"][1] == 5
    assert states[0]["decision"] == DEC_MOVE_DEST and states[0]["current"] == 1
