"""The public position builder ``wildwest_envs.rail.positions`` (issue 19 item 1).

* A built position equals one reached by play from the same seed, on every field but the dice leftovers
  (the scripted-chance queue, the dice last shown, ``own_bp`` of the last build turn, the candidate summaries
  of the last race) and the decision counter; with those copied over the records are byte-equal, give the same
  masks and observations, and play on alike.
* Each term does what the module docstring says and keeps the books (the money ledger, the derived fields).
* Unknown terms and impossible values raise ``ValueError`` / ``TypeError`` naming the term; ``place`` leaves the
  record untouched when it refuses an edit.
* Built records pass ``GAME.validate``; ``GAME.position`` (also another map's) is the same builder; the docstring
  example runs.
"""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from tests import _positions as compare
from wildwest_envs.rail import positions
from wildwest_envs.rail.data import (CTX_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD, CTX_EXT_FUNDING, CTX_RACE_ENTRY,
                                     CTX_START_CHOICE, ENTRY_DECLINED, ENTRY_ENTERED, FUND_ACCOUNT, FUND_BP)
from wildwest_envs.rail.game import make_game
from wildwest_envs.rail.maps import ST_COST, cheapest_build_costs
from wildwest_envs.rail.positions import build, hex_id, legal_actions, place, play, position
from wildwest_envs.rail_v0 import GAME

MAP = GAME.rail_map
CHANCE = ("rng", "forced", "n_forced", "forced_pos", "red", "white")  # the dice, not the position
LEFTOVERS = CHANCE + ("n_decisions", "own_bp", "cand_pips", "cand_steps", "cand_own", "cand_fee", "cand_need")

differing_fields = partial(compare.differing_fields, ignore=LEFTOVERS)


def assert_same_position(built: np.ndarray, played: np.ndarray) -> None:
    """Equal records but the leftovers; with those copied, equal bytes, masks, observations and futures."""
    assert differing_fields(built, played) == []
    for name in LEFTOVERS:
        built[0][name] = played[0][name]
    assert built.tobytes() == played.tobytes()
    compare.assert_same_views(GAME, built, played)
    for states in (built, played):  # the generator (the same in both) answers the next dice
        GAME.script(states, [], then="random")
    action = legal_actions(played)[-1]
    play(built, action)
    play(played, action)
    assert built.tobytes() == played.tobytes()


def roll(states: np.ndarray, red: int, white: int) -> None:
    """The next build roll shows ``red`` and ``white`` (``GAME.script``)."""
    GAME.script(states, [("die", red), ("die", white)])


def line_steps(states: np.ndarray, seat: int) -> list[int]:
    """The BUILD ids of ``seat``'s steps, in build order."""
    own_t = states[0]["own_t"][:, seat]
    return sorted((int(e) for e in np.flatnonzero(own_t)), key=lambda e: int(own_t[e]))


# ---- built equals played -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed,options", [(3, 0, {}), (4, 9, {"start_player": 2}),
                                            (2, 5, {"shared_build_roll": True}), (5, 11, {"build_dice": 1})])
def test_the_default_position_is_the_fresh_game_of_init(n, seed, options):
    """No terms: the start player's start choice of round 0 with the seed's roll, exactly ``GAME.init(seed)``."""
    built = position(n, seed, **options)
    assert built.tobytes() == GAME.init(seed, num_players=n, **options).tobytes()
    assert built[0]["context"] == CTX_START_CHOICE


def _round_zero(seed: int = 5) -> np.ndarray:
    """Round 0 of a 3-player game from seat 0: seats 0 and 1 choose and build; seat 2's start choice (6 BP)."""
    played = GAME.init(seed, num_players=3, start_player=0)
    play(played, "start in Chicago (63)", build("Chicago", (28, 9)))
    roll(played, 4, 4)
    play(played, "end turn", "start in Milwaukee (62)", build("Milwaukee", (29, 8)), build((29, 8), "Chicago"))
    roll(played, 3, 3)
    play(played, "end turn")
    return played


ROUND_ZERO = {"start": {0: "Chicago", 1: "Milwaukee"},
              "lines": [(0, ["Chicago", (28, 9)]), (1, ["Milwaukee", (29, 8), "Chicago"])]}


def test_a_start_choice_equals_the_one_reached_by_play():
    """Seat 2's first turn after two played turns: same networks, fees, bonus (Chicago is connected: none) and
    order (seats 0 and 1 have used their turns)."""
    played = _round_zero()
    assert played[0]["context"] == CTX_START_CHOICE and played[0]["current"] == 2
    built = position(3, 5, start_player=0, turn=2, bp=6, **ROUND_ZERO)
    assert built[0]["turn_used"][:3].tolist() == [1, 1, 0] and built[0]["turn_pos"] == 2
    assert_same_position(built, played)


def test_a_build_turn_in_a_later_round_equals_play():
    """Round 1 (opened by seat 1, §6.1): seat 2's build turn after seat 1's; built without start_player, the start
    player follows from first=1 and round=1."""
    played = _round_zero()
    play(played, "start in Chicago (63)", build("Chicago", (29, 10)))
    roll(played, 2, 5)
    play(played, "end turn", build((29, 8), (28, 8)))
    roll(played, 5, 5)
    play(played, "end turn")
    assert (played[0]["round"], played[0]["current"], played[0]["bp_left"]) == (1, 2, 10)
    lines = ROUND_ZERO["lines"] + [(2, ["Chicago", (29, 10)]), (1, [(29, 8), (28, 8)])]
    built = position(3, 5, round=1, first=1, turn=2, bp=10, start={0: "Chicago", 1: "Milwaukee", 2: "Chicago"},
                     lines=lines)
    assert built[0]["start_player"] == 0 and built[0]["context"] == CTX_BUILD
    assert_same_position(built, played)


def _one_round_then_race(seed: int = 5) -> tuple[np.ndarray, dict]:
    """One build round (seat 1 builds the cheapest line Chicago-Omaha), then race 0 Chicago-Omaha; the terms."""
    terms = {"start": {0: "Chicago", 1: "Chicago", 2: "Milwaukee"},
             "lines": [(0, ["Chicago", (28, 9)]), (1, ["Chicago", "Omaha"])]}
    omaha = line_steps(position(3, start={1: "Chicago"}, lines={1: ["Chicago", "Omaha"]}, turn=1, bp=12), 1)
    played = GAME.init(seed, num_players=3, start_player=0, build_rounds=1)
    play(played, "start in Chicago (63)", build("Chicago", (28, 9)))
    roll(played, 6, 6)
    play(played, "end turn", "start in Chicago (63)", *omaha)
    roll(played, 3, 3)
    play(played, "end turn", "start in Milwaukee (62)")
    GAME.script(played, [("die", 6), ("die", 3), ("die", 5), ("die", 1)])  # start 63 Chicago, goal 51 Omaha
    play(played, "end turn")
    return played, terms


def test_a_race_entry_equals_the_race_generated_in_play():
    """Race 0 after one build round: F_0 = (S + R + 0) mod n = seat 1 decides first (§7.1); the candidates and the
    repeat-rule counts are generation's."""
    played, terms = _one_round_then_race()
    assert played[0]["context"] == CTX_RACE_ENTRY and played[0]["current"] == 1
    built = position(3, 5, start_player=0, build_rounds=1, race=("Chicago", "Omaha"), **terms)
    assert built[0]["city_uses"][MAP.city_index("Chicago")] == 1 and built[0]["cand_valid"][1, 0]
    assert_same_position(built, played)


def test_a_later_entry_decision_equals_play():
    """Seat 1 entered, seat 2 (no candidate) declined by itself: seat 0 decides (§7.6)."""
    played, terms = _one_round_then_race()
    play(played, "enter race: cheapest route (9 pips, 7 steps, fee 0)")
    assert played[0]["current"] == 0
    built = position(3, 5, start_player=0, build_rounds=1, race=("Chicago", "Omaha"), turn=0,
                     entries={1: "cheapest"}, **terms)
    assert built[0]["entry"][:3].tolist() == [0, ENTRY_ENTERED, ENTRY_DECLINED]
    assert_same_position(built, played)


def test_an_extension_turn_equals_the_window_after_a_race_nobody_entered():
    """Both seats with candidates decline; the window opens with F_0 = seat 1, funded from the account (§7.10)."""
    played, terms = _one_round_then_race()
    play(played, "decline race", "decline race")
    assert played[0]["context"] == CTX_EXT_BUILD and played[0]["current"] == 1 and played[0]["race_k"] == 1
    built = position(3, 5, start_player=0, build_rounds=1, decision="ext_build",
                     city_uses={"Chicago": 1, "Omaha": 1}, **terms)
    assert built[0]["funding"] == FUND_ACCOUNT and built[0]["race_first"] == 1
    assert_same_position(built, played)


def test_a_co_op_response_equals_play():
    """Round 1: seat 1 proposes co-building to seat 2, who shares Chicago and has not built yet (§9.1)."""
    played = GAME.init(3, num_players=3, start_player=0, coop_building=True)
    play(played, "start in Chicago (63)", build("Chicago", (28, 9)))
    roll(played, 2, 2)
    play(played, "end turn", "start in Chicago (63)")
    roll(played, 1, 2)
    play(played, "end turn", "start in Chicago (63)", build("Chicago", (29, 10)))
    roll(played, 4, 5)
    play(played, "end turn", "propose co-build to player_2")
    assert played[0]["context"] == CTX_COOP_RESPONSE and played[0]["current"] == 2
    built = position(3, 3, coop_building=True, start_player=0, round=1, decision="coop_response", proposer=1,
                     turn=2, bp=9, start={0: 63, 1: 63, 2: 63},
                     lines=[(0, ["Chicago", (28, 9)]), (2, ["Chicago", (29, 10)])])
    assert_same_position(built, played)


# ---- the terms ------------------------------------------------------------------------------------------------------
def test_lines_in_every_form_give_the_same_record():
    """A mapping by seat, (seat, route) pairs, hexes as (col, row), "col,row", city names and numbers."""
    pairs = position(3, start={0: 63, 1: 62}, turn=0, bp=5,
                     lines=[(0, [(29, 9), (28, 9), (27, 9)]), (1, [[29, 7], [29, 8]])])
    mapping = position(3, start={0: "chicago", 1: "Milwaukee"}, turn=0, bp=5,
                       lines={0: ["Chicago", "28,9", (27, 9)], 1: [[(29, 7), (29, 8)]]})
    assert pairs.tobytes() == mapping.tobytes()
    s = pairs[0]
    assert s["n_owned"][:3].tolist() == [2, 1, 0] and s["t"] == 3 and s["bp_spent"] == 1 + 3 + 1


def test_a_city_to_city_line_is_the_cheapest():
    """Between two hexes that are not neighbours the line is a cheapest one (§6.6): its BP are the map's least."""
    s = position(3, start={0: "Chicago"}, lines={0: ["Chicago", "Omaha"]}, turn=0)[0]
    chicago, omaha = hex_id("Chicago"), hex_id("Omaha")
    assert s["bp_spent"] == cheapest_build_costs(MAP, chicago)[omaha] == 11
    assert (s["net"][omaha] & 1) and s["balance"][0] == 6 and s["total_bonus"] == 6  # Omaha's bonus (§6.9)
    again = position(3, start={0: "Chicago"}, lines={0: [["Chicago", "Omaha"], ["Chicago", (28, 9), "Omaha"]]},
                     turn=0)[0]
    assert again.tobytes() == s.tobytes()  # a second route along the own line builds nothing


def test_a_seat_without_start_starts_where_its_first_line_does():
    assert position(3, lines={1: ["Memphis", (26, 16)]}, turn=0, start={0: "Chicago"})[0]["start_city"][1] == 2
    with pytest.raises(ValueError, match="lines of seat 1"):
        position(3, lines={1: ["Omaha", (23, 9)]}, turn=0, start={0: "Chicago"})  # Omaha is no start city


def test_lines_pay_the_fees_of_play_in_build_order():
    """§6.8: the later of two parallel lines pays the earlier one; order decides who pays."""
    first = position(3, start={0: 63, 1: 63}, turn=0, lines=[(0, [(29, 9), (29, 10)]), (1, [(29, 9), (29, 10)])])
    second = position(3, start={0: 63, 1: 63}, turn=0, lines=[(1, [(29, 9), (29, 10)]), (0, [(29, 9), (29, 10)])])
    assert first[0]["balance"][:2].tolist() == [2, -2] and second[0]["balance"][:2].tolist() == [-2, 2]


def test_balances_are_booked_as_earlier_prizes():
    """The money ledger: sum(balance) = prizes + bonuses - account building (§7.12)."""
    s = position(3, start={0: "Chicago"}, lines={0: ["Chicago", "Omaha"]}, balances={0: 40, 2: 7}, turn=0)[0]
    assert s["balance"][:3].tolist() == [40, 0, 7] and s["total_bonus"] == 6 and s["total_prizes"] == 41
    assert position(3, balances=5)[0]["balance"][:3].tolist() == [5, 5, 5]


def test_turn_first_and_start_player_fix_the_order():
    """§6.1: round k opens with seat (S + k) mod n; the seats before the turn have used theirs."""
    s = position(4, start={q: 63 for q in range(4)}, turn=3, round=2)[0]
    assert (s["start_player"], s["turn_pos"], s["current"]) == (1, 0, 3)
    s = position(4, start={0: 63, 1: 63, 2: 63, 3: 63}, turn=1, first=3, round=2)[0]
    assert s["start_player"] == 1 and s["turn_pos"] == 2 and s["turn_used"][:4].tolist() == [1, 0, 0, 1]
    s = position(4, start={q: 63 for q in range(4)}, start_player=0, turn=1, round=1)[0]
    assert s["turn_pos"] == 0 and s["context"] == CTX_BUILD
    with pytest.raises(ValueError, match="first"):
        position(4, start_player=0, first=2, round=1)


def test_a_race_posed_or_generated():
    """race=(start, goal) is set as generation sets it (§7.2); without it the record's dice generate one."""
    s = position(3, start={0: 63}, lines={0: ["Chicago", "Omaha"]}, race=("Omaha", "Chicago"), city_uses={51: 1})[0]
    assert s["race_start"] == hex_id("Omaha") and s["race_goal"] == hex_id("Chicago")
    assert s["city_uses"][MAP.city_index(51)] == 2 and s["city_uses"][MAP.city_index(63)] == 1
    generated = position(3, seed=4, decision="race_entry")[0]
    start, goal = int(generated["race_start"]), int(generated["race_goal"])
    assert start >= 0 and goal >= 0 and generated["city_uses"].sum() == 2
    intl = position(3, international=True, races_run=5, start={0: 62}, race=("Milwaukee", "Canada"))[0]
    assert intl["race_country"] == 1 and intl["race_goal"] == -1 and not intl["city_uses"].any()


def test_extension_funding_and_dice_turns():
    """§7.10: the EXT_FUNDING choice with "dice_or_account"; a dice-funded turn has its BP."""
    s = position(3, extension_mode="dice_or_account", decision="ext_funding", turn=2, start={2: 63},
                 balances=[0, 0, 3])
    assert s[0]["context"] == CTX_EXT_FUNDING and len(legal_actions(s)) == 2
    s = position(3, extension_mode="dice_or_account", decision="ext_build", funding="dice", bp=7, turn=2,
                 start={2: 63})[0]
    assert s["context"] == CTX_EXT_BUILD and s["funding"] == FUND_BP and s["bp_left"] == 7


def test_place_edits_only_what_it_names_and_nothing_on_error():
    s = position(3, start={0: 63, 1: 62}, turn=0, bp=4)
    before = s.copy()
    place(s, lines=[(1, ["Milwaukee", (29, 8)])], balances={2: 9}, city_uses={"Denver": 1})
    changed = differing_fields(s, before, ignore=())
    assert set(changed) <= {"own_t", "owners", "n_owned", "net", "frontier", "t", "bp_spent", "first_dir",
                            "balance", "total_prizes", "city_uses"}
    assert s[0]["current"] == 0 and s[0]["bp_left"] == 4 and s[0]["builder"] == 0  # the decision stays
    snapshot = s.tobytes()
    for bad in ({"lines": [(0, [(29, 9), (30, 9)])]}, {"balances": {1: "lots"}}, {"start": {2: "Omaha"}},
                {"lines": [(2, [(29, 10), (29, 11)])]}):
        with pytest.raises((ValueError, TypeError)):
            place(s, **bad)
        assert s.tobytes() == snapshot


def test_place_refuses_what_play_cannot_give():
    race = position(3, start={0: 63}, lines={0: ["Chicago", "Omaha"]}, race=(63, 51))
    with pytest.raises(ValueError, match="lines"):
        place(race, lines=[(0, ["Chicago", (29, 10)])])
    fresh = position(3, seed=2)
    with pytest.raises(ValueError, match="start"):
        place(fresh, start={int(fresh[0]["current"]): "Chicago"})
    with pytest.raises(TypeError):
        place(np.repeat(fresh, 2), balances=1)


@pytest.mark.parametrize("terms, error, name", [
    ({"colour": "red"}, ValueError, "colour"),
    ({"decision": "shopping"}, ValueError, "decision"),
    ({"decision": "coop_build"}, ValueError, "coop_response"),
    ({"turn": 5}, ValueError, "turn"),
    ({"round": 14}, ValueError, "round"),
    ({"bp": 200}, ValueError, "bp"),
    ({"start": {0: "Omaha"}}, ValueError, "start"),
    ({"start": [63]}, TypeError, "start"),
    ({"start": {0: 63}, "lines": {0: [(29, 9), (30, 9)]}, "turn": 0}, ValueError, "lines of seat 0"),  # a lake
    ({"start": {0: 63}, "lines": {0: ["Chicago", "Chicago"]}, "turn": 0}, ValueError, "follows itself"),
    ({"start": {0: 63}, "lines": [(1, [(29, 10), (29, 11)])], "turn": 0}, ValueError, "network"),
    ({"start": {0: 63}, "lines": {0: [(29, 9), (99, 9)]}, "turn": 0}, ValueError, "grid"),
    ({"start": {0: 63}, "lines": {0: [(29, 9)]}, "turn": 0}, ValueError, "route"),
    ({"lines": 63}, TypeError, "lines"),
    ({"balances": [1, 2]}, ValueError, "balances"),
    ({"balances": {0: 10**7}}, ValueError, "balances"),
    ({"decision": "start", "start": {0: 63}, "turn": 0}, ValueError, "start city"),
    ({"decision": "build", "turn": 1}, ValueError, "start"),
    ({"race": ("Chicago", "Milwaukee")}, ValueError, "d_min"),
    ({"race": ("Chicago", "Chicago")}, ValueError, "race"),
    ({"race": ("Milwaukee", "Canada")}, ValueError, "international"),
    ({"race": ("Chicago", "Atlantis")}, ValueError, "race"),
    ({"race": ("Chicago", "Omaha"), "balances": [300, 0, 0]}, ValueError, "points_target"),
    ({"race": ("Chicago", "Omaha"), "entries": {1: 0}, "first": 0, "turn": 2}, ValueError, "empty"),
    ({"race": ("Chicago", "Omaha"), "entries": {2: None}, "first": 0, "turn": 1}, ValueError, "entries"),
    ({"race": ("Chicago", "Omaha"), "races_run": 100}, ValueError, "races_run"),
    ({"decision": "ext_build", "races_run": 0}, ValueError, "races_run"),
    ({"decision": "ext_build", "bp": 5}, ValueError, "bp"),
    ({"decision": "ext_build", "funding": "dice"}, ValueError, "funding"),
    ({"decision": "ext_funding"}, ValueError, "dice_or_account"),
    ({"decision": "coop_response", "turn": 1}, ValueError, "proposer"),
    ({"decision": "coop_response", "turn": 1, "proposer": 0, "start": {0: 63, 1: 63}}, ValueError, "co-building"),
    ({"proposer": 1}, ValueError, "proposer"),
    ({"race": ("Chicago", "Omaha"), "round": 3}, ValueError, "round"),
    ({"city_uses": {"Chicago": -1}}, ValueError, "city_uses"),
    ({"seed": -1}, ValueError, "seed"),
])
def test_bad_terms_raise_and_name_the_term(terms, error, name):
    with pytest.raises(error, match=name):
        position(3, **terms)


def test_built_records_validate_and_the_game_api_builds_the_same():
    terms = {"seed": 3, "start": {0: 63}, "lines": {0: ["Chicago", "Omaha"]}, "race": (63, 51)}
    built = position(3, **terms)
    GAME.validate(built)
    assert GAME.position(num_players=3, **terms).tobytes() == built.tobytes()


def test_another_maps_game_builds_its_positions_with_its_ferries():
    """make_game wires the builder to its own map: a line through the strait takes the ferry (§9.5)."""
    strait = make_game(Path(__file__).parent / "data" / "strait.json", name="rail_strait_v0")
    s = strait.position(num_players=3, start={0: "Westport"}, lines={0: [(2, 3), (5, 3), (8, 3), (9, 3)]},
                        turn=0, bp=3)
    assert s[0]["ferry_owner"][0] == 0 and s[0]["n_owned"][0] == 4 and s.dtype == strait.state_dtype
    assert s[0]["bp_spent"] == 3 + 6 + int(strait.rail_map.tables.steps[build((8, 3), (9, 3), strait), ST_COST])
    play(s, "end turn", game=strait)
    with pytest.raises(TypeError, match="game="):
        play(s, "end turn")


def test_play_takes_ids_and_names_and_reports_illegal_actions():
    s = position(3, start={0: 63}, turn=0, bp=4)
    play(s, build("Chicago", (28, 9)), "build 28,9 W 27,9")
    assert s[0]["n_owned"][0] == 2 and s[0]["builder"] != 0  # 1 + 3 BP: the turn ended by itself
    with pytest.raises(ValueError):
        play(s, build("Chicago", (28, 9)))
    with pytest.raises(ValueError, match="no action named"):
        play(s, "fly to the moon")


def test_decision_names_and_codes_are_accepted():
    for name in ("race_entry", "RACE_ENTRY", CTX_RACE_ENTRY):
        assert positions.decision_code(name) == CTX_RACE_ENTRY
    assert position(3, decision="Start_Choice")[0]["context"] == CTX_START_CHOICE


def test_the_docstring_example_runs():
    block = positions.__doc__.split("::\n\n", 1)[1].split("\n\nTerms", 1)[0]
    names: dict = {}
    exec(textwrap.dedent(block), names)  # noqa: S102 (our own documentation)
    states, race = names["states"], names["race"]
    assert states[0]["current"] == 2 and states[0]["balance"][:3].tolist()[2] == 5
    assert race[0]["context"] == CTX_RACE_ENTRY and race[0]["current"] == 0
    assert legal_actions(race)[1:] == [MAP.n_steps + 10]  # seat 0 may enter with its cheapest route
