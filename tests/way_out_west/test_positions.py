"""The public position builder ``wildwest_envs.way_out_west.positions`` (issue 19 item 1).

* A built position equals one reached by play from the same seed, byte for byte
  on every field the builder sets (all but the decision counter, which starts
  at 0), in legal mask and in every seat's observation, and both play on alike.
* Each term does what its docstring says, and keeps the books (supplies, the
  bank ledger, the frontier).
* Unknown terms and impossible values raise ``ValueError`` / ``TypeError`` naming
  the term; ``place`` leaves the record untouched when it refuses an edit.
* Built records pass ``GAME.validate`` and play on with legal moves, invariants
  intact (``GAME.position`` is the same builder).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests import _positions as compare
from wildwest_envs.way_out_west.data import (A_BOX, A_COUNT, A_PASS, A_RAISE, A_TARGET, A_TOWN, BANK, CORRALS,
                                             DEC_AUCTION_BID, DEC_CHOOSE_ACTION, DEC_SETUP_PLACE_COWBOY, HOTEL, JAIL,
                                             N_BT, N_TOWNS, N_WANTED, PHASE_ACTIONS, PHASE_AUCTION, START_MONEY,
                                             STORE, TRAIN)
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA, box,
                                                  legal_actions, place, play, position, town)
from wildwest_envs.way_out_west_v0 import GAME

OBS = GAME.obs_layout
BUY_A, HIRE_A, BUILD_STORE, BUILD_JAIL, FARMER, FIGHT_A = 0, 3, 12, 14, 15, 16

IGNORED = ("n_decisions",)  # the decision counter (0: the cap counts from the built position)
differing_fields = partial(compare.differing_fields, ignore=IGNORED)
# equal records (but the decision counter), legal masks and observations of every seat
assert_same_position = partial(compare.assert_same_position, GAME, ignore=IGNORED)


def board_terms(states: np.ndarray) -> dict:
    """The cowboys, cattle, buildings and cash of a record, as terms of ``position``."""
    s = states[0]
    n = int(s["num_players"])
    buildings = {t: {k: int(s["bt_owner"][t, k]) for k in range(N_BT) if s["bt_owner"][t, k] >= 0}
                 for t in range(N_TOWNS)}
    return {"cowboys": s["cowboys"][:, :n].tolist(), "cattle": s["cattle"][:, :n].tolist(),
            "buildings": buildings, "cash": s["cash"][:n].tolist()}


# ---- built equals played ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed,options", [(3, 0, {}), (4, 9, {"start_player": 2}), (5, 123, {"num_rounds": 3})])
def test_a_setup_position_is_the_fresh_game_of_init(n, seed, options):
    """``decision="setup"`` gives exactly ``GAME.init(seed, ...)``; ``turn=s`` the game started by seat s."""
    built = position(n, seed, decision="setup", **options)
    assert built.tobytes() == GAME.init(seed, num_players=n, **options).tobytes()
    assert position(n, seed, decision="setup", turn=1).tobytes() == GAME.init(seed, num_players=n,
                                                                              start_player=1).tobytes()


def test_an_auction_position_equals_the_auction_reached_by_play():
    """The first bid of round 1 after setup placements played in several towns, and the same board built."""
    played = GAME.init(5, num_players=4, start_player=3)
    towns = [SAN_ANTONIA, ABILENE, ABILENE, DEADWOOD, KANSAS_CITY, SAN_ANTONIA, DODGE_CITY, ABILENE, SAN_ANTONIA,
             DEADWOOD, DEADWOOD, KANSAS_CITY]
    play(played, *(town(t) for t in towns))
    assert played[0]["decision"] == DEC_AUCTION_BID
    built = position(4, 5, decision="auction", start_player=3, cowboys=board_terms(played)["cowboys"])
    assert_same_position(built, played)


def _scripted_round(seed: int) -> np.ndarray:
    """Round 1 of a 3-player game played with purchases, hires, builds and a farmer; then round 2's auction,
    where everybody drops out: the first action turn of round 2."""
    states = GAME.init(seed, num_players=3, start_player=1)
    play(states, *(town(t) for t in [SAN_ANTONIA, SAN_ANTONIA, KANSAS_CITY, SAN_ANTONIA, ABILENE, DODGE_CITY,
                                     KANSAS_CITY, DEADWOOD, SAN_ANTONIA]))
    play(states, A_RAISE, A_PASS, A_PASS)  # seat 1 bids 1 and wins; order 1, 0, 2
    play(states, box(BUY_A), town(SAN_ANTONIA), A_COUNT + 1)  # seat 1 buys 2 cattle in San Antonia
    play(states, box(BUILD_JAIL), town(ABILENE))  # seat 0
    play(states, box(HIRE_A), town(DEADWOOD), town(DEADWOOD))  # seat 2
    play(states, box(FARMER), town(KANSAS_CITY), A_PASS)  # seat 1's farmer; seat 0 passes
    play(states, box(BUILD_STORE), town(SAN_ANTONIA))  # seat 2: end of round 1
    play(states, A_PASS, A_PASS)  # round 2: everybody drops out, order 2, 0, 1
    return states


def test_an_action_position_equals_a_round_reached_by_play():
    """Round 2's first action turn after a played round 1, and the same board, money and turn order built:
    equal records, masks and observations, and the same game afterwards."""
    played = _scripted_round(seed=11)
    s = played[0]
    assert s["round"] == 2 and s["decision"] == DEC_CHOOSE_ACTION and s["turn_order"][:3].tolist() == [2, 0, 1]
    built = position(3, 11, start_player=1, round=2, turn_order=[2, 0, 1], farmers={KANSAS_CITY: [1]},
                     **board_terms(played))
    assert_same_position(built, played)  # the ledgers agree too: every cash change was paid to the bank
    for action in (box(HIRE_A), town(ABILENE), A_PASS, box(BUY_A), town(SAN_ANTONIA), A_COUNT):
        play(built, action)
        play(played, action)
        assert_same_position(built, played)


def test_a_turn_in_the_middle_of_lap_2_equals_play():
    """Seat 1 on turn in lap 2 after everybody passed before him: the earlier turns are used, no box is taken."""
    played = GAME.init(3, num_players=3, start_player=0)
    play(played, *[town(SAN_ANTONIA)] * 9, A_PASS, A_PASS)  # turn order 2, 1, 0
    play(played, A_PASS, A_PASS, A_PASS, A_PASS)  # lap 1, then seat 2 in lap 2
    built = position(3, 3, start_player=0, turn=1, turn_order=[2, 1, 0], lap=2, cowboys={SAN_ANTONIA: [3, 3, 3]})
    assert_same_position(built, played)
    assert built[0]["turns_used"][:3].tolist() == [1, 1, 2]


def test_without_turn_terms_the_turn_order_is_the_one_play_reaches():
    """No ``turn``: everybody dropped out of the round-1 auction, the start player last (§6.1)."""
    played = GAME.init(8, num_players=5, start_player=2)
    play(played, *[town(DEADWOOD)] * 15, A_PASS, A_PASS, A_PASS, A_PASS)
    built = position(5, 8, start_player=2, cowboys={DEADWOOD: [3] * 5})
    assert_same_position(built, played)
    assert built[0]["turn_order"].tolist() == [1, 0, 4, 3, 2]


# ---- each term does what it says ---------------------------------------------------------------------------------
def test_cowboys_and_cattle_come_from_the_supplies_in_any_of_the_forms():
    """Rows per town, {seat: count} and town names give the same record; supplies hold the rest (§2)."""
    rows = position(3, cowboys={ABILENE: [2, 0, 1]}, cattle={DEADWOOD: [0, 3, 0]})
    by_seat = position(3, cowboys={"Abilene": {0: 2, 2: 1}}, cattle={"deadwood": {1: 3}})
    grid = position(3, cowboys=[[0, 0, 0], [0, 0, 0], [2, 0, 1], [0, 0, 0], [0, 0, 0]],
                    cattle={DEADWOOD: {1: 3}})
    assert rows.tobytes() == by_seat.tobytes() == grid.tobytes()
    s = rows[0]
    assert s["cowboys"][ABILENE, :3].tolist() == [2, 0, 1] and s["cowboy_supply"][:3].tolist() == [7, 9, 8]
    assert s["cattle"][DEADWOOD, 1] == 3 and s["cattle_supply"][1] == 6 and s["cowboys"].sum() == 3


def test_the_board_holds_only_what_the_terms_put_there():
    """The setup cowboys are back in supply; no counter, cattle or farmer; only San Antonia open (§4 step 5)."""
    s = position(4, seed=2)[0]
    assert not s["cowboys"].any() and not s["cattle"].any() and (s["bt_owner"] == -1).all()
    assert not s["farmers"].any() and s["frontier"] == 0 and s["cowboy_supply"][:4].tolist() == [9] * 4
    assert s["n_decisions"] == 0


def test_frontier_is_derived_from_the_cattle_or_given():
    """§8.1: at least the highest town with cattle, moved on past full towns; a given frontier is kept."""
    assert position(3, cattle={ABILENE: [1, 0, 0]})[0]["frontier"] == ABILENE
    assert position(3, cattle={SAN_ANTONIA: [2, 2, 0]})[0]["frontier"] == KANSAS_CITY  # San Antonia is full
    full = {SAN_ANTONIA: [4, 0, 0], KANSAS_CITY: [0, 5, 0]}
    assert position(3, cattle=full)[0]["frontier"] == ABILENE
    assert position(3, frontier="Dodge City")[0]["frontier"] == DODGE_CITY
    states = position(3, frontier=ABILENE)
    place(states, cattle={SAN_ANTONIA: {0: 1}})
    assert states[0]["frontier"] == ABILENE  # never moves back


def test_buildings_belong_to_their_owner_and_come_from_his_supply():
    """Type indices, keys and names; None (or -1) takes a counter back to its owner's supply (§2, §8.5)."""
    states = position(3, buildings={DEADWOOD: {"bank": 0, "Hotel": 2, JAIL: 0}, ABILENE: {TRAIN: 1}})
    s = states[0]
    assert s["bt_owner"][DEADWOOD].tolist() == [-1, -1, 0, -1, 2, 0] and s["bt_owner"][ABILENE, TRAIN] == 1
    assert s["bt_supply"][0, BANK] == 2 and s["bt_supply"][2, HOTEL] == 2 and s["bt_supply"][1, TRAIN] == 2
    place(states, buildings={DEADWOOD: {BANK: None, HOTEL: 1}})
    s = states[0]
    assert s["bt_owner"][DEADWOOD, BANK] == -1 and s["bt_supply"][0, BANK] == 3
    assert s["bt_owner"][DEADWOOD, HOTEL] == 1 and s["bt_supply"][2, HOTEL] == 3 and s["bt_supply"][1, HOTEL] == 2


def test_buildings_may_exceed_the_build_limit_as_captures_do():
    """§16 #30: three counters of one seat in a town (reachable by capture) are allowed."""
    s = position(3, buildings={DEADWOOD: {STORE: 0, HOTEL: 0, BANK: 0}})[0]
    assert (s["bt_owner"][DEADWOOD] == 0).sum() == 3


def test_farmers_stand_in_their_towns_and_are_used():
    """§8.6: farmers of the seats named; each seat's farmer is used."""
    s = position(4, farmers={ABILENE: [0, 3], DEADWOOD: [1]})[0]
    assert s["farmers"].tolist() == [0, 0, 2, 0, 1] and s["farmer_used"][:4].tolist() == [1, 1, 0, 1]


@pytest.mark.parametrize("cash,expected", [(7, [7, 7, 7]), ([0, 30, 5], [0, 30, 5]), ({1: 50}, [20, 50, 20])])
def test_cash_is_set_and_booked_with_the_bank(cash, expected):
    """One amount for all, a list per seat or {seat: dollars}; the bank ledger keeps money conserved (§14)."""
    s = position(3, cash=cash)[0]
    assert s["cash"][:3].tolist() == expected
    assert int(s["cash"].sum()) + int(s["bank_in"]) - int(s["bank_out"]) == 3 * START_MONEY[3]


def test_wanted_counters_come_from_the_shared_supply():
    """§9.7: holdings plus supply stay 13."""
    s = position(3, wanted=[2, 0, 5])[0]
    assert s["wanted"][:3].tolist() == [2, 0, 5] and s["wanted_supply"] == N_WANTED - 7


def test_round_turn_turn_order_and_lap():
    """``round`` is the round marker; ``turn`` alone orders the seats clockwise from it; ``lap=2`` after lap 1."""
    s = position(4, round=7, turn=2)[0]
    assert s["round"] == 7 and s["current"] == 2 and s["turn_order"][:4].tolist() == [2, 3, 0, 1]
    assert s["phase"] == PHASE_ACTIONS and s["lap"] == 0 and s["turn_index"] == 0
    s = position(4, turn=1, turn_order=[3, 0, 1, 2], lap=2)[0]
    assert s["current"] == 1 and s["turn_index"] == 2 and s["lap"] == 1
    assert s["turns_used"][:4].tolist() == [2, 1, 1, 2]
    s = position(3, turn_order=[1, 2, 0])[0]
    assert s["current"] == 1 and s["bidding_order"][:3].tolist() == [0, 2, 1]


@pytest.mark.parametrize("decision,code,phase", [("auction", DEC_AUCTION_BID, PHASE_AUCTION),
                                                 ("AUCTION_BID", DEC_AUCTION_BID, PHASE_AUCTION),
                                                 (DEC_CHOOSE_ACTION, DEC_CHOOSE_ACTION, PHASE_ACTIONS),
                                                 ("Choose_Action", DEC_CHOOSE_ACTION, PHASE_ACTIONS),
                                                 ("setup", DEC_SETUP_PLACE_COWBOY, 0)])
def test_decision_by_short_name_spec_name_or_code(decision, code, phase):
    """The position waits at the decision asked for (§13.2)."""
    s = position(3, decision=decision)[0]
    assert s["decision"] == code and s["phase"] == phase


def test_an_auction_position_bids_in_the_previous_turn_order():
    """``decision="auction"``: ``turn_order`` is the previous order, bidding starts at its position 1 (§6.1)."""
    states = position(3, decision="auction", round=4, turn_order=[2, 0, 1], cash=[5, 9, 30])
    s = states[0]
    assert s["bidding_order"][:3].tolist() == [2, 0, 1] and s["current"] == 2 and s["round"] == 4
    assert legal_actions(states)[:3] == [A_PASS, A_RAISE, A_RAISE + 1]
    play(states, A_RAISE + 4)  # seat 2 bids 5
    assert states[0]["current"] == 0 and legal_actions(states) == [A_PASS]  # seat 0 has $5: no raise above 5


def test_options_pass_through_to_init():
    """The game's options, as ``env()`` takes them: rounds, preset dice, the decision cap, auto_forced."""
    s = position(3, num_rounds=6, round=6, preset_dice=[6, 2], max_decisions=40, auto_forced=True)[0]
    assert s["num_rounds"] == 6 and s["round"] == 6 and s["max_decisions"] == 40 and s["auto_forced"]
    assert s["n_forced"] == 2 and s["forced"][:2].tolist() == [5, 1] and s["n_decisions"] == 0


def test_game_position_is_the_same_builder():
    """``GAME.position(**terms)`` (``Game.from_package`` finds the module) gives the same bytes."""
    terms = {"num_players": 4, "seed": 3, "turn": 3, "cowboys": {ABILENE: [1, 2, 0, 4]}, "cash": 11}
    assert GAME.position(**terms).tobytes() == position(**terms).tobytes()


def test_the_observation_reads_back_the_terms():
    """The built board seen by the seat on turn, decoded at natural scales (relative seats, §12)."""
    states = position(4, turn=2, round=5, cash=[3, 4, 5, 6], cowboys={DODGE_CITY: [0, 0, 7, 1]})
    seen = OBS.decode(GAME.observe(states, 2)[0])
    assert seen["round"] == 5 - 1 and seen["acting_seat"] == 0
    assert seen["seats"]["cash"][:4].tolist() == [5, 6, 3, 4]
    assert seen["towns"]["cowboys"][DODGE_CITY, :4].tolist() == [7, 1, 0, 0]


# ---- bad terms are refused by name -------------------------------------------------------------------------------
BAD_TERMS = [
    ({"cowboy": {}}, ValueError, "cowboy"),
    ({"cowboys": {ABILENE: [10, 0, 0]}}, ValueError, "cowboys"),
    ({"cowboys": {ABILENE: [5, 0, 0], DEADWOOD: [5, 0, 0]}}, ValueError, "cowboys"),
    ({"cowboys": {"Tombstone": [1, 0, 0]}}, ValueError, "cowboys"),
    ({"cowboys": {ABILENE: [1, 0]}}, ValueError, "cowboys"),
    ({"cowboys": {ABILENE: {3: 1}}}, ValueError, "cowboys"),
    ({"cowboys": {ABILENE: [1.5, 0, 0]}}, ValueError, "cowboys"),
    ({"cowboys": 5}, TypeError, "cowboys"),
    ({"cattle": {SAN_ANTONIA: [3, 2, 0]}}, ValueError, "cattle"),
    ({"buildings": {ABILENE: {"saloon": 0}}}, ValueError, "buildings"),
    ({"buildings": {SAN_ANTONIA: {0: 0, 1: 1, 2: 2, 3: 0}}}, ValueError, "buildings"),
    ({"buildings": {t: {"bank": 0} for t in range(4)}}, ValueError, "buildings"),
    ({"buildings": {ABILENE: {BANK: 5}}}, ValueError, "buildings"),
    ({"buildings": {ABILENE: [0]}}, TypeError, "buildings"),
    ({"farmers": {ABILENE: [0, 0]}}, ValueError, "farmers"),
    ({"farmers": {ABILENE: 1}}, TypeError, "farmers"),
    ({"frontier": KANSAS_CITY, "cattle": {ABILENE: [1, 0, 0]}}, ValueError, "frontier"),
    ({"frontier": 0, "cattle": {SAN_ANTONIA: [4, 0, 0]}}, ValueError, "frontier"),
    ({"cash": -1}, ValueError, "cash"),
    ({"cash": [1, 2]}, ValueError, "cash"),
    ({"cash": 2.5}, TypeError, "cash"),
    ({"wanted": [7, 7, 0]}, ValueError, "wanted"),
    ({"round": 13}, ValueError, "round"),
    ({"round": 4, "num_rounds": 3}, ValueError, "round"),
    ({"turn": 3}, ValueError, "turn"),
    ({"turn_order": [0, 0, 1]}, ValueError, "turn_order"),
    ({"turn_order": 3}, TypeError, "turn_order"),
    ({"lap": 3}, ValueError, "lap"),
    ({"decision": "GUNFIGHT_TOWN"}, ValueError, "decision"),
    ({"decision": "bidding"}, ValueError, "decision"),
    ({"decision": "auction", "turn": 1, "turn_order": [0, 1, 2]}, ValueError, "turn"),
    ({"decision": "auction", "lap": 2}, ValueError, "lap"),
    ({"decision": "setup", "cowboys": {ABILENE: [1, 0, 0]}}, ValueError, "cowboys"),
    ({"decision": "setup", "turn_order": [0, 1, 2]}, ValueError, "turn_order"),
    ({"decision": "setup", "round": 2}, ValueError, "round"),
    ({"decision": "setup", "turn": 1, "start_player": 0}, ValueError, "turn"),
    ({"num_players": 6}, ValueError, "num_players"),
    ({"seed": -1}, ValueError, "seed"),
    ({"start_player": 7}, ValueError, "start_player"),
]


@pytest.mark.parametrize("terms,error,name", BAD_TERMS, ids=[f"{i}-{b[2]}" for i, b in enumerate(BAD_TERMS)])
def test_unknown_terms_and_impossible_values_raise_naming_the_term(terms, error, name):
    """Each bad term raises the documented error with the term's name in the message."""
    with pytest.raises(error, match=name):
        position(**terms)


def test_place_refuses_impossible_edits_and_leaves_the_record_alone():
    """A refused edit (too many cowboys, a fighter moved in a running gunfight) changes nothing."""
    states = position(3, turn=0, cowboys={ABILENE: [2, 1, 0]}, buildings={ABILENE: {STORE: 1}})
    before = states.copy()
    with pytest.raises(ValueError, match="cowboys"):
        place(states, cowboys={DEADWOOD: {0: 8}})
    assert states.tobytes() == before.tobytes()
    play(states, box(FIGHT_A), town(ABILENE), A_TARGET + STORE)  # the fight starts: seat 1 to shoot or retreat
    assert states[0]["gf_active"]
    during = states.copy()
    with pytest.raises(ValueError, match="gunfight"):
        place(states, cowboys={ABILENE: {0: 3}})
    assert states.tobytes() == during.tobytes()
    with pytest.raises(TypeError, match="batch of one"):
        place(states[0], cash=3)


# ---- helpers ---------------------------------------------------------------------------------------------------------
def test_play_checks_legality_and_legal_actions_lists_the_ids():
    """``play`` refuses an illegal action naming the legal ones; ``box`` and ``town`` give §13.1 ids."""
    states = position(3, turn=0, cash=0)
    assert legal_actions(states) == [A_PASS, box(FARMER)]
    with pytest.raises(ValueError, match="legal"):
        play(states, box(HIRE_A))
    assert box(18) == A_BOX + 18 and town("Kansas City") == town(KANSAS_CITY) == A_TOWN + 1
    for bad in (lambda: box(19), lambda: town(5), lambda: town("Tombstone")):
        with pytest.raises(ValueError):
            bad()


# ---- built records are valid and play on -----------------------------------------------------------------------------
def _random_terms(rng: np.random.Generator) -> dict:
    """Terms of a random valid position: a board within the supplies and capacities, money, turn and round."""
    n = int(rng.integers(3, 6))
    cowboys = [[0] * n for _ in range(N_TOWNS)]
    for p in range(n):
        for _ in range(int(rng.integers(0, 10))):
            cowboys[int(rng.integers(0, N_TOWNS))][p] += 1
    cattle = [[0] * n for _ in range(N_TOWNS)]
    for t in range(N_TOWNS):
        for _ in range(int(rng.integers(0, CORRALS[t] + 1))):
            p = int(rng.integers(0, n))
            if sum(cattle[u][p] for u in range(N_TOWNS)) < 9:
                cattle[t][p] += 1
    buildings = {t: {k: int(rng.integers(0, n)) for k in rng.permutation(N_BT)[:int(rng.integers(0, 4))]}
                 for t in range(1, N_TOWNS)}  # at most 3 a town, one town of each seat's supply left unused
    decision = str(rng.choice(["auction", "action"]))
    terms = {"num_players": n, "seed": int(rng.integers(0, 2**63)), "decision": decision,
             "turn_order": [int(q) for q in rng.permutation(n)], "round": int(rng.integers(1, 13)),
             "cowboys": cowboys, "cattle": cattle, "buildings": buildings, "farmers": {ABILENE: [0]},
             "cash": [int(c) for c in rng.integers(0, 60, n)], "wanted": [1] * n}
    if decision == "action":
        terms.update(lap=int(rng.integers(1, 3)), turn=int(rng.integers(0, n)))
    return terms


def test_random_built_positions_validate_and_play_on():
    """Positions built from random terms pass ``GAME.validate`` and play 40 legal moves with every invariant of
    §14 intact (``play`` checks them)."""
    rng = np.random.default_rng(19)
    for _ in range(25):
        terms = _random_terms(rng)
        states = GAME.position(**terms)
        GAME.validate(states)
        for _ in range(40):
            legal = legal_actions(states)
            if not legal:
                break
            play(states, int(rng.choice(legal)))
