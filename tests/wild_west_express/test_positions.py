"""The public position builder ``wildwest_envs.wild_west_express.positions`` (issue 19 item 1).

* A built position equals one reached by play from the same seed: byte for
  byte on every field the builder sets (all but the generator and the
  leftovers of finished procedures, which nothing reads at PRE_ROLL), in legal
  mask and in every seat's observation; given the played generator, both play
  on alike.
* Each term does what the module docstring says and keeps the books (the bank
  ledger, the dynamite supply, every card in one place, debts owed to station
  owners); ``place`` edits only what it names.
* Unknown terms and impossible values raise ``ValueError`` / ``TypeError``
  naming the term; ``place`` leaves the record untouched when it refuses.
* Built records pass ``GAME.validate``, step with legal moves and keep the
  invariants; ``GAME.position`` is the same builder.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests import _positions as compare
from tests.wild_west_express._helpers import setup_played
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.wild_west_express.data import (A_END, A_HOLD, A_PLAY_CARD, A_SPACE, CARGO_EMPTY, DEC_DRAFT_CITY,
                                                  DEC_PLACE_DESPERADO, DEC_PRE_ROLL, DEC_SELECT_TRAIN, DEC_TRAIN_STEP,
                                                  DYNAMITE_SUPPLY, FREE, N_CARDS, N_SPACES, PASSENGER_BASE, START_CASH)
from wildwest_envs.wild_west_express.positions import Train, legal_actions, place, play, position, roll, terms_of
from wildwest_envs.wild_west_express.setup import draft_seat
from wildwest_envs.wild_west_express_v0 import GAME

SEATTLE, PORTLAND, DENVER, OMAHA = 0, 1, 12, 22
WEAPONS, GOLD = 0, 1
FULL_STEAM, BACKTRACK, ARMED_GUARDS, BLIZZARD, BANK_DIVIDEND, LAND_BOOM, MAIL_RACE_SLC = 0, 5, 12, 22, 31, 46, 48
# fields a built PRE_ROLL may hold differently from a played one: the generator and scripted chance (the builder
# keeps init's, play has drawn dice since), the decision counter (0: the cap counts from the built position), and
# leftovers of procedures that are over, which no kernel or observation reads until the next one sets them
IGNORED = ("rng", "forced", "n_forced", "forced_pos", "n_decisions", "move_steps", "move_first", "move_dice",
           "move_backtrack", "move_return", "card_return", "sheriff_return", "desp_steps")

differing_fields = partial(compare.differing_fields, ignore=IGNORED)
# equal records (on the builder's fields), legal masks and observations of every seat
assert_same_position = partial(compare.assert_same_position, GAME, ignore=IGNORED)


def picks_of(states: np.ndarray) -> list[int]:
    """The draft's cities in draft order, read from the start cities (§5 item 2)."""
    s = states[0]
    n = int(s["num_players"])
    return [int(s["start_city"][draft_seat(s, i), 0 if i < n else 1]) for i in range(2 * n)]


def rebuilt(played: np.ndarray, seed: int, **options) -> np.ndarray:
    """``played`` built again from its seed and its terms (``terms_of``)."""
    n = int(played[0]["num_players"])
    return position(n, seed, board="empty", picks=picks_of(played), **terms_of(played), **options)


# ---- built equals played ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed,options", [(3, 0, {}), (4, 9, {"start_player": 2}), (5, 123, {"max_rounds": 3})])
def test_a_draft_position_is_the_fresh_game_of_init(n, seed, options):
    """``decision="draft"`` gives exactly ``GAME.init(seed, ...)``; with picks, the draft played so far."""
    assert position(n, seed, decision="draft", **options).tobytes() == GAME.init(seed, num_players=n,
                                                                                 **options).tobytes()
    played = GAME.init(seed, num_players=n, **options)
    play(played, A_SPACE + 7, A_SPACE + 3)
    built = position(n, seed, decision="draft", picks=["Carson City", 3], **options)
    assert differing_fields(built, played, ignore=("n_decisions",)) == [] and built[0]["decision"] == DEC_DRAFT_CITY


def test_a_place_desperado_position_is_the_setup_played_so_far():
    """``decision="place_desperado"`` with placements made so far equals the same setup played decision by
    decision (n_decisions apart)."""
    played = setup_played(2, 4, picks=[5, 9, 2, 12])
    s0 = int(played[0]["start_player"])
    placements = [int(played[0]["desp_pos"][(s0 + j) % 2, j // 2]) for j in range(4)]
    built = position(2, 4, picks=[5, 9, 2, 12], placements=placements)
    assert differing_fields(built, played, ignore=("n_decisions",)) == []
    played = position(2, 4, decision="draft")
    play(played, *(A_SPACE + c for c in [5, 9, 2, 12]))
    s0 = int(played[0]["start_player"])
    first = int(played[0]["start_city"][s0, 1])
    play(played, A_SPACE + first)
    built = position(2, 4, decision="place_desperado", picks=[5, 9, 2, 12], placements=[first])
    assert built[0]["decision"] == DEC_PLACE_DESPERADO
    assert differing_fields(built, played, ignore=("n_decisions",)) == []


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_default_position_is_the_start_players_first_pre_roll(n):
    """``position(n, seed)`` is the game played through setup with cities 0..2N-1 and first-pick placements."""
    played = setup_played(n, 11)
    built = position(n, 11)
    assert differing_fields(built, played, ignore=("n_decisions",)) == []
    assert built[0]["n_decisions"] == 0 and played[0]["n_decisions"] == 3 * n + (n == 2) * n
    assert_same_position(built, played)


def _turn_starts(n: int, games: int = 10, steps: int = 110, seed: int = 0):
    """``(seed, record)`` of seeded games at the first decision of a turn (PRE_ROLL), played with random legal
    actions, while no card has been drawn and nobody has dynamite bought in his last turn; only seat 0 buys
    dynamite (at its own turn start its count is reset), so the board gets some."""
    seeds = game_seeds(seed, games)
    states = GAME.init_batch(games, seed=seed, num_players=n)
    rng = np.random.default_rng(seed + n)
    found = []
    for _ in range(steps):
        ok = ((states["decision"] == DEC_PRE_ROLL) & (states["turn_decisions"] == 0) & ~states["done"]
              & (states["never_drawn"] == N_CARDS) & (states["dynamite_bought"].sum(axis=1) == 0))
        found += [(int(seeds[b]), states[b:b + 1].copy()) for b in np.flatnonzero(ok)]
        masks = GAME.legal_mask(states)
        masks[(states["decision"] == DEC_PRE_ROLL) & (states["active"] != 0), A_SPACE:A_SPACE + N_SPACES] = 0
        GAME.step(states, np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
    return found


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_positions_reached_by_random_play_are_built_again_from_their_terms(n):
    """Every turn start of seeded random play (trains moved, cargo bought and sold, fees, debts, duels, sheriffs,
    dynamite, rounds and turns on) is rebuilt from its seed and ``terms_of``: same record, mask, observations."""
    found = _turn_starts(n)
    assert len(found) >= 10
    rounds = set()
    for seed, played in found:
        assert_same_position(rebuilt(played, seed), played)
        rounds.add(int(played[0]["round"]))
    assert len(rounds) >= 2


def test_a_built_position_plays_on_like_the_played_one():
    """With the played record's generator, the built record takes the same random game for 300 decisions."""
    seed, played = _turn_starts(3)[-1]
    built = rebuilt(played, seed)
    built["rng"] = played["rng"]
    rng = np.random.default_rng(5)
    for _ in range(300):
        if played[0]["done"]:
            break
        mask = GAME.legal_mask(played)
        assert np.array_equal(mask, GAME.legal_mask(built))
        action = int(rng.choice(np.flatnonzero(mask[0])))
        play(played, action)
        play(built, action)
        assert differing_fields(built, played) == []
        assert GAME.observe(built, 1).tobytes() == GAME.observe(played, 1).tobytes()


def test_terms_of_gives_back_the_terms():
    """``terms_of`` reads a built position back into the terms it was built from."""
    terms = {"turn": 2, "round": 5, "owners": {SEATTLE: 0, DENVER: 2},
             "trains": {0: {0: Train(31, came_from=SEATTLE, cargo=(GOLD,))}, 1: {},
                        2: {0: Train(DENVER, cargo=(None, PASSENGER_BASE + 1), large=True, wait=0)}},
             "desperados": {0: [32], 1: [], 2: [DENVER, 100]}, "sheriffs": [100, 200], "dynamite": [34, 250],
             "cash": [10, 20, 30], "cards": {0: {FULL_STEAM: 0}, 1: {}, 2: {}},
             "competitions": {1: (LAND_BOOM, 7)}}
    built = position(3, 8, board="empty", **terms)
    assert terms_of(built) == terms


# ---- each term does what it says -------------------------------------------------------------------------------------
def test_turn_and_round_set_the_seat_to_decide_and_the_turn_counter():
    """§6.1: seat ``turn`` decides PRE_ROLL in round ``round``; the turn counter counts from the start player."""
    s = position(4, 2, start_player=1, turn=3, round=6)[0]
    assert (s["active"], s["current"], s["round"], s["decision"]) == (3, 3, 6, DEC_PRE_ROLL)
    assert s["turn"] == 5 * 4 + 2 + 1 and list(s["dice"]) == [0, 0, 0]
    assert position(4, 2, start_player=1)[0]["active"] == 1 and position(4, 2, start_player=1)[0]["turn"] == 1


def test_board_empty_removes_the_setup_pieces_but_not_the_money():
    """``board="empty"``: no train, desperado or station; everybody keeps the $450 of §5 item 5."""
    s = position(3, board="empty")[0]
    assert s["train_exists"].sum() == 0 and s["n_desperados"].sum() == 0 and (s["desp_pos"] == -1).all()
    assert (s["city_owner"] == -1).all() and list(s["cash"][:3]) == [START_CASH] * 3


def test_owners_set_the_named_stations_only():
    """``owners``: the named cities change hands (names, keys or ids); the others keep their owners."""
    before = position(3)[0]["city_owner"].copy()
    s = position(3, owners={"Denver": 2, "SEA": None, 25: 1})[0]
    assert (s["city_owner"][DENVER], s["city_owner"][SEATTLE], s["city_owner"][25]) == (2, -1, 1)
    others = [c for c in range(26) if c not in (DENVER, SEATTLE, 25)]
    assert list(s["city_owner"][others]) == list(before[others])


def test_trains_put_every_field_in_place():
    """``trains``: position, direction, cargo (goods and passenger names), size, wait, debt and its creditor,
    moved and armed flags; a list replaces the seat's trains, a mapping sets the named slots."""
    states = position(3, start_player=0, owners={DENVER: 2},
                      trains={0: [Train("Denver", cargo=["passenger:Mountain", "Luxury goods"], large=True, debt=True,
                                        moved=True),
                                  {"at": 45, "came_from": 46, "cargo": ["gold"], "wait": 1, "armed": True}]},
                      cash=[0, 450, 450])
    s = states[0]
    assert list(s["train_exists"][0]) == [1, 1, 0, 0, 0, 0] and list(s["train_large"][0, :2]) == [1, 0]
    assert list(s["train_pos"][0, :2]) == [DENVER, 45] and list(s["train_from"][0, :2]) == [FREE, 46]
    assert list(s["train_cargo"][0, 0]) == [PASSENGER_BASE + 1, 7] and list(s["train_cargo"][0, 1]) == [GOLD, -1]
    assert (s["train_debt"][0, 0], s["train_creditor"][0, 0], s["train_wait"][0, 1]) == (40, 2, 1)
    assert list(s["train_moved"][0, :2]) == [1, 0] and list(s["train_armed"][0, :2]) == [0, 1]
    assert s["train_exists"][1, :2].all()  # seat 1 keeps its setup trains
    place(states, trains={1: {1: None, 3: Train(OMAHA)}})
    assert list(s["train_exists"][1]) == [1, 0, 0, 1, 0, 0] and s["train_pos"][1, 3] == OMAHA
    assert s["train_pos"][1, 1] == -1 and list(s["train_cargo"][1, 1]) == [CARGO_EMPTY, CARGO_EMPTY]


def test_desperados_sheriffs_and_dynamite_keep_the_pieces_and_the_supply():
    """``desperados`` in index order, ``sheriffs`` by index, ``dynamite`` tokens from the supply of 18 (§11)."""
    states = position(2, desperados={0: ["Denver"], 1: [31, 31]}, sheriffs=[100, "Omaha"], dynamite=[34, 35, 200])
    s = states[0]
    assert list(s["n_desperados"][:2]) == [1, 2] and list(s["desp_pos"][0]) == [DENVER, -1, -1]
    assert list(s["desp_pos"][1]) == [31, 31, -1] and list(s["sheriff_pos"]) == [100, OMAHA]
    assert list(np.flatnonzero(s["dynamite"])) == [34, 35, 200] and s["dynamite_supply"] == DYNAMITE_SUPPLY - 3
    place(states, dynamite=[36], sheriffs=[100])
    assert list(np.flatnonzero(s["dynamite"])) == [36] and s["dynamite_supply"] == DYNAMITE_SUPPLY - 1
    assert list(s["sheriff_pos"]) == [100, -1]


def test_cash_is_booked_with_the_bank():
    """``cash``: one value, a list or a mapping; the ledger keeps sum(cash) = N x $450 + bank_paid (§0.2)."""
    for cash, want in ((1000, [1000] * 3), ([0, 5, 7000], [0, 5, 7000]), ({1: 30}, [450, 30, 450])):
        s = position(3, cash=cash)[0]
        assert list(s["cash"][:3]) == want and s["cash"][:3].sum() == 3 * START_CASH + s["bank_paid"]


def test_cards_come_out_of_the_deck_into_a_hand():
    """``cards``: held personal cards bound to trains; names stand for the lowest free id; the deck loses them
    and the never-drawn count follows; None sends a card to the bottom (§13.1, §13.3)."""
    states = position(3, cards={1: {"Full Steam Ahead": 0, "full steam ahead": 1, ARMED_GUARDS: 1}})
    s = states[0]
    assert list(np.flatnonzero(s["card_holder"] == 1)) == [0, 1, ARMED_GUARDS]
    assert list(s["card_bound"][[0, 1, ARMED_GUARDS]]) == [0, 1, 1]
    assert s["deck_size"] == N_CARDS - 3 and s["never_drawn"] == N_CARDS - 3
    assert not {0, 1, ARMED_GUARDS} & set(s["deck"][:s["deck_size"]].tolist())
    place(states, cards={1: {ARMED_GUARDS: None}, 2: {0: 1}})  # seat 2 now holds card 0, from seat 1's hand
    assert s["card_holder"][ARMED_GUARDS] == -1 and s["deck"][s["deck_size"] - 1] == ARMED_GUARDS
    assert (s["card_holder"][0], s["card_bound"][0]) == (2, 1) and s["never_drawn"] == N_CARDS - 3


def test_competitions_are_posted_with_their_countdown():
    """``competitions``: a card in a slot, with a fresh countdown (expiry rounds x N) or the one given (§13.4)."""
    states = position(3, competitions={0: LAND_BOOM, 2: (MAIL_RACE_SLC, 5)})
    s = states[0]
    assert list(s["comp_card"]) == [LAND_BOOM, -1, MAIL_RACE_SLC] and list(s["comp_countdown"]) == [24, 0, 5]
    assert LAND_BOOM not in s["deck"][:s["deck_size"]].tolist() and s["deck_size"] == N_CARDS - 2
    place(states, competitions={0: None})
    assert s["comp_card"][0] == -1 and s["deck"][s["deck_size"] - 1] == LAND_BOOM
    assert position(3, competition_expiry_rounds=0, competitions={1: LAND_BOOM})[0]["comp_countdown"][1] == 0


def test_deck_top_is_drawn_next():
    """``deck_top``: the cards given are drawn next, in order; the rest keep their order; a revealed card on top
    ends the never-drawn part (§13.1, §16.1)."""
    fresh = position(3)[0]
    states = position(3, deck_top=[BANK_DIVIDEND, "Backtrack"])
    s = states[0]
    rest = [k for k in fresh["deck"].tolist() if k not in (BANK_DIVIDEND, BACKTRACK)]
    assert s["deck"].tolist() == [BANK_DIVIDEND, BACKTRACK] + rest and s["never_drawn"] == N_CARDS
    place(states, cards={0: {FULL_STEAM: 0}})
    place(states, cards={0: {FULL_STEAM: None}})  # to the bottom: revealed
    place(states, deck_top=[FULL_STEAM])
    assert s["deck"][0] == FULL_STEAM and s["never_drawn"] == 0 and s["deck_size"] == N_CARDS


def test_decision_names_and_codes_are_accepted():
    """``decision``: the short names, the §17.2 names and the codes build the same position."""
    for code, names in ((DEC_DRAFT_CITY, ("draft", "DRAFT_CITY")), (DEC_PLACE_DESPERADO, ("place_desperado",)),
                        (DEC_PRE_ROLL, ("pre_roll", "PRE_ROLL"))):
        built = [position(3, 1, decision=d).tobytes() for d in names + (code,)]
        assert len(set(built)) == 1 and position(3, 1, decision=code)[0]["decision"] == code


def test_place_edits_only_what_it_names_and_nothing_on_error():
    """``place`` changes the named entries; a refused edit leaves the record as it was."""
    states = position(3)
    before = states.copy()
    place(states, cash={0: 460})
    assert differing_fields(states, before, ignore=()) == ["cash", "bank_paid"]
    snapshot = states.copy()
    with pytest.raises(ValueError, match="dynamite"):
        place(states, cash={1: 0}, dynamite=[SEATTLE])
    assert states.tobytes() == snapshot.tobytes()


# ---- bad terms -------------------------------------------------------------------------------------------------------
BAD_TERMS = [
    ({"gold": 3}, ValueError, "gold"),
    ({"decision": "train_step"}, ValueError, "decision"),
    ({"decision": "lunch"}, ValueError, "decision"),
    ({"turn": 3}, ValueError, "turn"),
    ({"round": 0}, ValueError, "round"),
    ({"round": 151}, ValueError, "round"),
    ({"board": "full"}, ValueError, "board"),
    ({"picks": [1, 1, 2, 3, 4, 5]}, ValueError, "picks"),
    ({"picks": [1, 2]}, ValueError, "picks"),
    ({"picks": [1, 2, 3, 4, 5, 40]}, ValueError, "picks"),
    ({"placements": [SEATTLE, SEATTLE, SEATTLE]}, ValueError, "placements"),
    ({"placements": [25]}, ValueError, "placements"),
    ({"decision": "draft", "trains": {0: []}}, ValueError, "trains"),
    ({"decision": "draft", "round": 2}, ValueError, "round"),
    ({"decision": "draft", "turn": 1}, ValueError, "turn"),
    ({"owners": {"Atlantis": 0}}, ValueError, "owners"),
    ({"owners": {31: 0}}, ValueError, "owners"),
    ({"owners": {DENVER: 3}}, ValueError, "owners"),
    ({"owners": {c: 0 for c in range(6, 12)}}, ValueError, "owners"),
    ({"trains": [1, 2]}, TypeError, "trains"),
    ({"trains": {0: [999]}}, ValueError, "trains"),
    ({"trains": {0: [{"at": 31, "came_from": 0, "colour": "red"}]}}, ValueError, "colour"),
    ({"trains": {0: [Train(31)]}}, ValueError, "came_from"),
    ({"trains": {0: [Train(31, came_from=33)]}}, ValueError, "came_from"),
    ({"trains": {0: [Train(SEATTLE, came_from=31)]}}, ValueError, "came_from"),
    ({"trains": {0: [Train(SEATTLE, cargo=["gold", "gold"])]}}, ValueError, "cargo"),
    ({"trains": {0: [Train(SEATTLE, cargo=["tea"])]}}, ValueError, "cargo"),
    ({"trains": {0: [Train(SEATTLE, wait=1)]}}, ValueError, "wait"),
    ({"trains": {0: [Train(SEATTLE, debt=True)]}}, ValueError, "debt"),
    ({"trains": {0: [Train(SEATTLE, debt=35)]}}, ValueError, "debt"),
    ({"trains": {1: [Train(SEATTLE, moved=True)]}, "turn": 0}, ValueError, "moved"),
    ({"trains": {0: [SEATTLE] * 7}}, ValueError, "trains"),
    ({"trains": {0: [Train(SEATTLE, large=True)] * 3}}, ValueError, "trains"),
    ({"trains": {0: {6: SEATTLE}}}, ValueError, "trains"),
    ({"desperados": {0: [1, 2, 3]}}, ValueError, "desperados"),
    ({"desperados": {5: [1]}}, ValueError, "desperados"),
    ({"sheriffs": [1, 2, 3]}, ValueError, "sheriffs"),
    ({"sheriffs": [100, 100]}, ValueError, "sheriffs"),
    ({"dynamite": [SEATTLE]}, ValueError, "dynamite"),
    ({"dynamite": [31, 32, 33, 34]}, ValueError, "dynamite"),
    ({"dynamite": [100], "sheriffs": [100]}, ValueError, "dynamite"),
    ({"dynamite": "31"}, TypeError, "dynamite"),
    ({"cash": -1}, ValueError, "cash"),
    ({"cash": [1, 2]}, ValueError, "cash"),
    ({"cash": 2.5}, TypeError, "cash"),
    ({"cards": {0: {BLIZZARD: 0}}}, ValueError, "cards"),
    ({"cards": {0: {FULL_STEAM: 4}}}, ValueError, "cards"),
    ({"cards": {0: {"Joker": 0}}}, ValueError, "Joker"),
    ({"cards": {0: {FULL_STEAM: 0}}, "deck_top": [FULL_STEAM]}, ValueError, "deck_top"),
    ({"board": "empty", "trains": {0: [SEATTLE]}, "desperados": {0: [SEATTLE]}, "cards": {0: {"Hideout": 0}}},
     ValueError, "Hideout"),
    ({"competitions": {0: FULL_STEAM}}, ValueError, "competitions"),
    ({"competitions": {0: (LAND_BOOM, 25)}}, ValueError, "countdown"),
    ({"competitions": {3: LAND_BOOM}}, ValueError, "competitions"),
    ({"seed": -1}, ValueError, "seed"),
    ({"num_players": 6}, ValueError, "num_players"),
]


@pytest.mark.parametrize("terms,error,name", BAD_TERMS, ids=[str(i) for i in range(len(BAD_TERMS))])
def test_bad_terms_raise_and_name_the_term(terms, error, name):
    """An unknown term or an impossible value raises ``ValueError`` / ``TypeError`` whose message names it."""
    terms = {"num_players": 3, "start_player": 0, **terms}
    with pytest.raises(error, match=name):
        position(**terms)


def test_a_debt_the_cash_covers_is_refused_at_the_start_of_a_turn():
    """§6.2: the active seat's debts that his cash covers are paid at the start of his turn."""
    terms = {"owners": {DENVER: 1}, "trains": {0: [Train(DENVER, debt=True)]}, "turn": 0}
    with pytest.raises(ValueError, match="paid at the start"):
        position(3, cash=[20, 0, 0], **terms)
    assert position(3, cash=[19, 0, 0], **terms)[0]["train_debt"][0, 0] == 20
    assert position(3, cash=[450, 0, 0], turn=1, owners={DENVER: 1},
                    trains={0: [Train(DENVER, debt=True)]})[0]["train_creditor"][0, 0] == 1


def test_place_refuses_a_finished_game_and_a_wrong_batch():
    """``place`` edits a live batch of one."""
    states = position(3)
    with pytest.raises(TypeError, match="batch of one"):
        place(np.concatenate([states, states]), cash=3)
    with pytest.raises(ValueError, match="trains"):
        place(states, trains={0: {0: None}}, cards={0: {FULL_STEAM: 0}})  # card bound to no train


# ---- built records are valid and play on -----------------------------------------------------------------------------
def test_built_records_validate_and_the_game_api_builds_the_same():
    """``GAME.position`` validates and gives the builder's record; the record survives JSON (validated fields)."""
    terms = {"num_players": 4, "seed": 3, "turn": 2, "round": 3, "trains": {2: [Train(31, came_from=0, cargo=[GOLD])]},
             "desperados": {1: [32]}, "sheriffs": [40], "dynamite": [60], "cash": 700, "deck_top": [BANK_DIVIDEND]}
    built = GAME.position(**terms)
    assert built.tobytes() == position(**terms).tobytes()
    GAME.validate(built)
    assert GAME.from_json(GAME.to_json(built[0])).tobytes() == built.tobytes()


def test_built_positions_step_with_roll_and_play():
    """A built PRE_ROLL rolls the dice given, moves by id or by name, and the invariants hold."""
    states = position(3, seed=2, board="empty", turn=1, owners={PORTLAND: 1},
                      trains={1: [Train(31, came_from=SEATTLE, cargo=["gold"]), Train(SEATTLE)]},
                      desperados={2: [33]}, cards={1: {FULL_STEAM: 0}})
    play(states, A_PLAY_CARD + FULL_STEAM)  # 32, 33 (seat 2's desperado: a duel, drawn at random), 34
    assert states[0]["train_pos"][1, 0] == 34 and states[0]["decision"] == DEC_PRE_ROLL
    roll(states, (2, 5, 1), duels=[6, 1])
    assert list(states[0]["dice"]) == [5, 2, 1] and states[0]["decision"] == DEC_SELECT_TRAIN
    play(states, "move train 1")
    assert states[0]["decision"] == DEC_TRAIN_STEP and legal_actions(states) == [A_SPACE + 31, A_SPACE + 35, A_HOLD]
    play(states, A_SPACE + 35)
    assert GAME.invariant_violations(states) == []
    with pytest.raises(ValueError, match="not legal|illegal"):
        play(states, A_END)
    with pytest.raises(ValueError, match="PRE_ROLL"):
        roll(states, (1, 1, 1))


def test_roll_checks_the_dice():
    """``roll`` takes three faces 1..6."""
    with pytest.raises(ValueError, match="dice"):
        roll(position(3), (1, 2))
    with pytest.raises(ValueError, match="die"):
        roll(position(3), (1, 2, 7))
    states = position(3, board="empty", trains={2: [Train(31, came_from=0)]})
    roll(states, [6, 6, 6])
    assert list(states[0]["dice"]) == [6, 6, 6]


def test_a_seat_can_be_given_a_train_with_an_empty_first_slot():
    """A large train may carry its token in slot 1 only (after selling from slot 0); None is an empty slot."""
    s = position(3, start_player=0, trains={0: {1: Train(SEATTLE, large=True, cargo=[None, WEAPONS])}})[0]
    assert list(s["train_cargo"][0, 1]) == [CARGO_EMPTY, WEAPONS]
