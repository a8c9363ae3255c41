"""Way Out West events (``way_out_west.eventlog``, issue 19 item 3): they change nothing, they match the record
(money, pieces, dice, the sides and casualties of a gunfight, the final VP by category), everybody sees them
(spec §12), and the AEC env delivers them in its infos.

Positions come from ``way_out_west.positions``; gunfight dice are scripted with ``GAME.script`` (§13.3), so
a test states the exact faces it expects to read back from the events.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from tests._events import env_with_events_and_plain, random_legal_action, step_beside_twin, step_both
from wildwest_envs import way_out_west_v0
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.way_out_west import eventlog
from wildwest_envs.way_out_west.data import (A_COUNT, A_PASS, A_PLAYER, A_RAISE, A_RETREAT, A_SHOOT, A_TARGET, A_YES,
                                             BANK, DEC_CHOOSE_ACTION, DEC_RETREAT_DESTINATION, DEC_VOLLEY_ATTACKER,
                                             DEC_VOLLEY_DEFENDER, DEC_WANTED_STEAL, HIT_MIN, HOTEL, JAIL, MAX_PLAYERS,
                                             N_TOWNS, RAISE_STEPS, SIDE_ATTACKER, SIDE_DEFENDER, SIDE_NONE, STORE,
                                             T_FARMER, WIN_ATTACKER, WIN_DEFENDER, WIN_NOBODY)
from wildwest_envs.way_out_west.eventlog import (COMBATANT_COWBOYS, COMBATANT_FARMER, COMBATANT_SHERIFF,
                                                 COMBATANT_VIRTUAL, ROLL_ROBBERY, ROLL_VOLLEY, TAKEN_DROPPED_OUT,
                                                 TAKEN_GUARD, TAKEN_LAST_BIDDER, cash_changes)
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.positions import (ABILENE, DEADWOOD, DODGE_CITY, KANSAS_CITY, SAN_ANTONIA, box,
                                                  play, position, town)
from wildwest_envs.way_out_west.scoring import N_VP_CATEGORIES, VP_CATEGORY_NAMES, vp_by_category
from wildwest_envs.way_out_west.state import NOBODY

T = ABILENE  # the fight town
FIGHT = box(16)


def target(x: int) -> int:
    return A_TARGET + x


def raise_by(k: int) -> int:
    return A_RAISE + list(RAISE_STEPS).index(k)


def step(states, action: int) -> list:
    """One checked step of the position with events; the money events must add up to the cash change."""
    before = states["cash"][0].astype(np.int64)
    events = GAME.step_with_events(states, [action])[0]
    n = int(states["num_players"][0])
    assert cash_changes(events, n) == (states["cash"][0].astype(np.int64) - before)[:n].tolist()
    return events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def only(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == kind]


# ---- the table ------------------------------------------------------------------------------------------------
def test_the_docstring_table_is_the_table_of_kinds():
    """STYLE.md §2: the docstring's table of codes, names, arguments, viewers and sections is the code's."""
    rows = re.findall(r"^\| (\d+) \| ``(\w+)`` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|$", eventlog.__doc__, re.M)
    table = [(int(c), name, tuple(a.strip() for a in args.split(",") if a.strip()), who.strip(), sec.strip())
             for c, name, args, who, sec in rows]
    code = [(c, name, args, who, sec) for c, name, args, who, sec, _ in eventlog._KINDS]
    assert table == code
    assert [k.code for k in eventlog.EVENT_KINDS.by_code.values()] == list(range(1, len(code) + 1))
    assert GAME.event_kinds is eventlog.EVENT_KINDS  # Game.from_package picked the table up
    assert set(eventlog.MONEY) <= set(eventlog.EVENT_KINDS.by_name)
    for kind, moves in eventlog.MONEY.items():
        for seat_arg, amount_arg, _ in moves:
            assert {seat_arg, amount_arg} <= set(eventlog.EVENT_KINDS.by_name[kind].args)


# ---- random play: nothing changes, everything adds up ------------------------------------------------------------
def _check_dice(events) -> None:
    """§9.4, §9.8: each side_fired counts the die_rolled just before it; the robbery total is its three dice."""
    faces = []
    robbery = []
    for e in events:
        if e.kind == "die_rolled":
            (faces if e.data["cause"] == ROLL_VOLLEY else robbery).append(e.data)
            assert 1 <= e.data["face"] <= 6
        elif e.kind == "side_fired":
            assert len(faces) == e.data["dice"]
            assert all(f["side"] == e.data["side"] and f["volley"] == e.data["volley"] for f in faces)
            assert e.data["hits"] == sum(f["face"] >= HIT_MIN for f in faces)
            faces = []
        elif e.kind == "bank_robbed":
            assert len(robbery) == 3 and e.data["roll"] == sum(f["face"] for f in robbery)
            robbery = []
    assert faces == [] and robbery == []


def _check_pieces(events, before: np.void, after: np.void) -> None:
    """Cowboys, cattle, Wanted counters, counters and the frontier of the record move as the events say."""
    n = int(before["num_players"])
    cowboys = [0] * n
    cattle = [0] * n
    for e in events:
        d = e.data
        if e.kind in ("setup_cowboy", "cowboy_hired"):
            cowboys[d["seat"]] += 1
        elif e.kind == "casualty" and d["combatant"] == COMBATANT_COWBOYS:
            cowboys[d["seat"]] -= d["count"]
        elif e.kind == "retreated":
            cowboys[d["seat"]] -= d["eliminated"]
        elif e.kind == "cattle_bought":
            cattle[d["seat"]] += d["count"]
        elif e.kind == "rustled":
            cattle[d["seat"]] += d["count"]
            cattle[d["victim"]] -= d["count"]
    assert (after["cowboys"].sum(axis=0) - before["cowboys"].sum(axis=0))[:n].tolist() == cowboys
    assert (after["cattle"].sum(axis=0) - before["cattle"].sum(axis=0))[:n].tolist() == cattle
    for d in only(events, "wanted_taken")[-1:]:
        assert after["wanted"][d["seat"]] == d["held"] and after["wanted_supply"] == d["supply"]
    opened = only(events, "frontier_opened")
    assert after["frontier"] - before["frontier"] == len(opened)
    if opened:
        assert opened[-1]["town"] == after["frontier"]
    for d in only(events, "built") + only(events, "captured"):
        assert after["bt_owner"][d["town"], d["type"]] == d["seat"]
    for d in only(events, "counter_removed"):
        assert after["bt_owner"][d["town"], d["type"]] == NOBODY
    assert after["farmers_removed"] - before["farmers_removed"] == sum(
        d["combatant"] == COMBATANT_FARMER for d in only(events, "casualty"))


def _check_game_over(events, states: np.ndarray, b: int) -> None:
    """§11.2-§11.4: the VP by category sum to the final score, which is Game.scores; the winners are Game's."""
    n = int(states["num_players"][b])
    assert kinds(events).count("game_over") == 1
    by_category = np.zeros((MAX_PLAYERS, N_VP_CATEGORIES), np.int64)
    vp_by_category(states[b], by_category)
    scored = only(events, "vp_scored")
    finals = only(events, "final_score")
    assert len(scored) == n * N_VP_CATEGORIES and [f["seat"] for f in finals] == list(range(n))
    scores = GAME.scores(states[b:b + 1])[0]
    winners = GAME.winners(states[b:b + 1])[0]
    for f in finals:
        p = f["seat"]
        mine = {d["category"]: d["vp"] for d in scored if d["seat"] == p}
        assert mine == dict(enumerate(by_category[p].tolist()))
        assert sum(mine.values()) == f["vp"] == scores[p]
        assert f["cash"] == states["cash"][b, p] and f["won"] == int(winners[p])
    assert only(events, "game_over")[0]["winners"] == sum(1 << p for p in range(n) if winners[p])


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_events_change_nothing_and_add_up_over_random_games(num_players):
    """Seeded random games to the end: a twin stepped with plain ``step`` stays byte-identical (events change
    nothing); each step's money events sum per seat to its cash change; pieces, dice, Wanted counters and the
    final VP match the record; every event is public (§12); each auction gives every seat one position (§6.1)."""
    batch = 6
    states = GAME.init_batch(batch, seed=40 + num_players, num_players=num_players)
    twin = states.copy()
    sample = LegalSampler(batch, num_players)
    seen = Counter()
    positions = [dict() for _ in range(batch)]
    while not GAME.finished(states).all():
        actions = sample(GAME.legal_mask(states))
        before, logs = step_beside_twin(GAME, states, twin, actions)
        for b, events in enumerate(logs):
            if before["done"][b]:
                assert events == []
                continue
            seen.update(kinds(events))
            assert all(e.seen_by == tuple(range(num_players)) for e in events)
            assert cash_changes(events, num_players) == (
                states["cash"][b].astype(np.int64) - before["cash"][b])[:num_players].tolist()
            _check_dice(events)
            _check_pieces(events, before[b], states[b])
            for e in events:
                if e.kind == "auction_started":
                    positions[b] = {}
                elif e.kind == "position_taken":
                    assert e.data["seat"] not in positions[b]
                    positions[b][e.data["seat"]] = e.data["position"]
                elif e.kind == "action_phase_started":
                    order = [int(q) for q in states["turn_order"][b, :num_players]]
                    assert {q: order.index(q) + 1 for q in range(num_players)} == positions[b]
            if states["done"][b]:
                _check_game_over(events, states, b)
            else:
                assert "game_over" not in kinds(events)
    assert seen["game_over"] == batch
    for kind in ("die_rolled", "casualty", "gunfight_over", "wanted_taken", "income_paid", "fare_paid", "built",
                 "cattle_bought", "bid_raised", "position_taken", "frontier_opened"):
        assert seen[kind] > 0, kind  # random play reached each of these


# ---- a scripted gunfight ----------------------------------------------------------------------------------------
def test_a_bank_gunfight_reports_its_sides_dice_casualties_and_outcome():
    """§9.3: the sides as fixed (3 cowboys v 2 cowboys + the bank's intrinsic defender + the sheriff);
    §9.4: A < D, the attacker shoots first; casualty order virtual, sheriff, cowboys; equal sides together;
    §9.8: the robbery's 3d6 and the payment; §9.7: the Wanted counter. The die faces are the script's."""
    states = position(3, turn=0, cowboys={T: [3, 2, 0]}, buildings={T: {BANK: 1, JAIL: 2}}, cash=[20, 10, 20])
    play(states, FIGHT, town(T), target(BANK))  # SHERIFF_JOIN: seat 2 owns the jail
    events = step(states, A_YES)
    s = states[0]
    assert events == [e for e in events if e.kind in ("sheriff_decided", "attacker_side", "defender_side")]
    assert only(events, "sheriff_decided") == [{"seat": 2, "joins": 1}]
    assert only(events, "attacker_side") == [{"seat": 0, "cowboys": int(s["a_cow"]), "sheriff": int(s["a_sher"])}]
    assert only(events, "defender_side") == [{"cowboys": int(s["d_cow"]), "virtual": int(s["d_virt"]),
                                              "sheriff": int(s["d_sher"]), "farmer": int(s["d_farm"])}]
    assert (s["a_cow"], s["a_sher"], s["d_cow"], s["d_virt"], s["d_sher"]) == (3, 0, 2, 1, 1)
    assert s["decision"] == DEC_VOLLEY_DEFENDER
    dice = [6, 5, 1, 6, 2, 5, 6, 1, 1, 4, 4, 4]
    GAME.script(states, dice, then="error")  # a draw past these would be an error

    volley1 = step(states, A_SHOOT)  # A = 3 < D = 4: the attacker's 3 dice, then the 2 surviving defenders'
    assert only(volley1, "volley_started") == [{"volley": 1, "attackers": 3, "defenders": 4, "first": SIDE_ATTACKER}]
    assert [(d["side"], d["face"]) for d in only(volley1, "die_rolled")] == [(SIDE_ATTACKER, 6), (SIDE_ATTACKER, 5),
                                                                            (SIDE_ATTACKER, 1), (SIDE_DEFENDER, 6),
                                                                            (SIDE_DEFENDER, 2)]
    assert only(volley1, "side_fired") == [{"side": SIDE_ATTACKER, "dice": 3, "hits": 2, "volley": 1},
                                           {"side": SIDE_DEFENDER, "dice": 2, "hits": 1, "volley": 1}]
    assert only(volley1, "casualty") == [
        {"side": SIDE_DEFENDER, "combatant": COMBATANT_VIRTUAL, "count": 1, "seat": NOBODY},
        {"side": SIDE_DEFENDER, "combatant": COMBATANT_SHERIFF, "count": 1, "seat": 2},
        {"side": SIDE_ATTACKER, "combatant": COMBATANT_COWBOYS, "count": 1, "seat": 0}]
    s = states[0]
    assert (s["a_cow"], s["d_virt"], s["d_sher"], s["d_cow"]) == (2, 0, 0, 2) and s["cowboys"][T, 0] == 2
    assert s["decision"] == DEC_VOLLEY_ATTACKER and s["gf_volley"] == 2

    assert step(states, A_SHOOT) == []  # the attacker shoots on: the defender decides next (§9.4 step 2)
    volley2 = step(states, A_SHOOT)  # A = D = 2: together; then the robbery
    s = states[0]
    assert only(volley2, "volley_started") == [{"volley": 2, "attackers": 2, "defenders": 2, "first": SIDE_NONE}]
    assert only(volley2, "casualty") == [{"side": SIDE_DEFENDER, "combatant": COMBATANT_COWBOYS, "count": 2,
                                          "seat": 1}]
    assert only(volley2, "gunfight_over") == [{"outcome": WIN_ATTACKER, "attacker": 0, "defender": 1, "volleys": 2}]
    assert [d["face"] for d in only(volley2, "die_rolled") if d["cause"] == ROLL_ROBBERY] == [4, 4, 4]
    assert only(volley2, "bank_robbed") == [{"seat": 0, "victim": 1, "roll": 12, "paid": 10}]  # $10 < 12
    assert only(volley2, "counter_removed") == [{"owner": 1, "type": BANK, "town": T}]
    assert only(volley2, "wanted_taken") == [{"seat": 0, "source": NOBODY, "held": 1, "supply": 12}]
    assert (s["cash"][0], s["cash"][1], s["bt_owner"][T, BANK], s["cowboys"][T, 1]) == (30, 0, NOBODY, 0)
    assert kinds(volley2).index("gunfight_over") < kinds(volley2).index("bank_robbed")
    rolled = [d["face"] for d in only(volley1 + volley2, "die_rolled")]
    assert rolled == dice and s["forced_pos"] == len(dice)  # every scripted die, in order, and no other
    # the record has cleared the fight: only the events keep its sides
    assert not s["gf_active"] and (s["a_cow"], s["d_cow"], s["d_virt"], s["d_sher"]) == (0, 0, 0, 0)
    assert s["decision"] == DEC_CHOOSE_ACTION and only(volley2, "action_turn")[0]["seat"] == 1


def test_a_farmer_dies_in_a_mutual_wipe_out():
    """§9.3, §16 #45: a farmer that is hit leaves the game, also when nobody wins (§9.6: no Wanted counter)."""
    states = position(3, turn=0, cowboys={T: {0: 1}}, farmers={T: [2]})
    play(states, FIGHT, town(T))
    GAME.script(states, [6, 6], then="error")
    events = step(states, target(T_FARMER))
    s = states[0]
    assert only(events, "gunfight_declared") == [{"attacker": 0, "town": T, "target": T_FARMER, "defender": NOBODY}]
    assert only(events, "defender_side") == [{"cowboys": 0, "virtual": 0, "sheriff": 0, "farmer": 1}]
    assert only(events, "casualty") == [
        {"side": SIDE_DEFENDER, "combatant": COMBATANT_FARMER, "count": 1, "seat": NOBODY},
        {"side": SIDE_ATTACKER, "combatant": COMBATANT_COWBOYS, "count": 1, "seat": 0}]
    assert only(events, "gunfight_over") == [{"outcome": WIN_NOBODY, "attacker": 0, "defender": NOBODY,
                                              "volleys": 1}]
    assert "wanted_taken" not in kinds(events)
    assert s["farmers"][T] == 0 and s["farmers_removed"] == 1 and s["wanted_supply"] == 13


def test_a_big_retreat_and_a_wanted_steal():
    """§9.5: a defender with 5 cowboys retreats: one to each other town, 1 eliminated, the attacker wins;
    §9.2 capture; §9.7: the supply is empty, so the winner steals a Wanted counter (WANTED_STEAL)."""
    states = position(3, turn=0, cowboys={T: [1, 5, 0]}, buildings={T: {STORE: 1}}, wanted=[0, 0, 13])
    play(states, FIGHT, town(T), target(STORE))
    events = step(states, A_RETREAT)
    assert only(events, "retreated") == [{"seat": 1, "town": T, "cowboys": 5, "eliminated": 1}]
    assert sorted(d["to_town"] for d in only(events, "retreat_cowboy")) == [t for t in range(N_TOWNS) if t != T]
    assert only(events, "gunfight_over") == [{"outcome": WIN_ATTACKER, "attacker": 0, "defender": 1, "volleys": 1}]
    assert only(events, "captured") == [{"seat": 0, "type": STORE, "town": T, "victim": 1}]
    assert "die_rolled" not in kinds(events) and "wanted_taken" not in kinds(events)
    s = states[0]
    assert s["decision"] == DEC_WANTED_STEAL and s["cowboys"][:, 1].tolist() == [1, 1, 0, 1, 1]
    events = step(states, A_PLAYER + 2)  # seat 2, relative to seat 0
    assert only(events, "wanted_taken") == [{"seat": 0, "source": 2, "held": 1, "supply": 0}]
    assert (states[0]["wanted"][0], states[0]["wanted"][2]) == (1, 12)


def test_an_attacker_retreat_places_each_cowboy_and_concedes():
    """§9.4 timing: the attacker may retreat from volley 2; §9.5: k < 4 cowboys, one destination each; the
    defender side wins and takes the Wanted counter (§9.7)."""
    states = position(3, turn=0, cowboys={T: [2, 1, 0]}, buildings={T: {STORE: 1}})
    play(states, FIGHT, town(T), target(STORE))
    GAME.script(states, [1, 1, 1], then="error")  # D = 1 < A = 2: the defender's die, then the attacker's two
    volley = step(states, A_SHOOT)
    assert only(volley, "volley_started")[0]["first"] == SIDE_DEFENDER and "casualty" not in kinds(volley)
    assert [d["side"] for d in only(volley, "die_rolled")] == [SIDE_DEFENDER, SIDE_ATTACKER, SIDE_ATTACKER]
    events = step(states, A_RETREAT)
    assert only(events, "retreated") == [{"seat": 0, "town": T, "cowboys": 2, "eliminated": 0}]
    assert states[0]["decision"] == DEC_RETREAT_DESTINATION
    first = step(states, town(KANSAS_CITY))
    assert only(first, "retreat_cowboy") == [{"seat": 0, "from_town": T, "to_town": KANSAS_CITY}]
    last = step(states, town(DEADWOOD))
    assert only(last, "retreat_cowboy") == [{"seat": 0, "from_town": T, "to_town": DEADWOOD}]
    assert only(last, "gunfight_over") == [{"outcome": WIN_DEFENDER, "attacker": 0, "defender": 1, "volleys": 2}]
    assert only(last, "wanted_taken") == [{"seat": 1, "source": NOBODY, "held": 1, "supply": 12}]


# ---- auction and actions -----------------------------------------------------------------------------------------
def test_the_worked_auction_example_of_s6_3():
    """§6.3: order 2, 0, 1, 3: seat 2 +1, seat 0 drops (4th, pays 0), seat 1 +2 (3), seat 3 drops (3rd),
    seat 2 +1 (4), seat 1 drops (2nd, pays 3), seat 2 alone: 1st, pays 4. New order 2, 1, 3, 0."""
    states = position(4, decision="auction", turn_order=[2, 0, 1, 3], cash=20)
    events = []
    for action in (raise_by(1), A_PASS, raise_by(2), A_PASS, raise_by(1), A_PASS):
        events += step(states, action)
    assert only(events, "bid_raised") == [{"seat": 2, "raise": 1, "bid": 1}, {"seat": 1, "raise": 2, "bid": 3},
                                          {"seat": 2, "raise": 1, "bid": 4}]
    assert only(events, "position_taken") == [
        {"seat": 0, "position": 4, "bid": 0, "cause": TAKEN_DROPPED_OUT},
        {"seat": 3, "position": 3, "bid": 0, "cause": TAKEN_DROPPED_OUT},
        {"seat": 1, "position": 2, "bid": 3, "cause": TAKEN_DROPPED_OUT},
        {"seat": 2, "position": 1, "bid": 4, "cause": TAKEN_LAST_BIDDER}]
    assert only(events, "bid_paid") == [{"seat": 0, "amount": 0}, {"seat": 1, "amount": 3},
                                        {"seat": 2, "amount": 4}, {"seat": 3, "amount": 0}]
    assert states[0]["turn_order"][:4].tolist() == [2, 1, 3, 0]
    assert only(events, "action_phase_started") == [{"round": 1}]
    assert only(events, "action_turn") == [{"seat": 2, "round": 1, "lap": 1, "position": 1}]


def test_the_auction_guard_reports_the_positions_it_gives():
    """§6.2: after 60 decisions the players still bidding take the best free positions by bid."""
    states = position(3, decision="auction", turn_order=[0, 1, 2], cash=100)
    events = []
    for _ in range(60):
        events += step(states, raise_by(1))
    assert len(only(events, "bid_raised")) == 60
    assert only(events, "position_taken") == [{"seat": 2, "position": 1, "bid": 60, "cause": TAKEN_GUARD},
                                              {"seat": 1, "position": 2, "bid": 59, "cause": TAKEN_GUARD},
                                              {"seat": 0, "position": 3, "bid": 58, "cause": TAKEN_GUARD}]
    assert states[0]["turn_order"][:3].tolist() == [2, 1, 0]


def test_actions_report_their_effects_and_money():
    """§8.2 hire with a stagecoach fare (§8.8), §8.5 build, §8.6 farmer, §8.1 buy cattle and the frontier,
    §8.3 move cowboys with a fare, §7.1 pass; §10.1 the round ends, the next auction starts (§5)."""
    states = position(3, turn=0, cowboys={SAN_ANTONIA: [1, 0, 1]}, cattle={SAN_ANTONIA: {1: 2}},
                      buildings={SAN_ANTONIA: {"stagecoach": 1}}, cash=20)
    assert only(step(states, box(3)), "box_taken") == [{"seat": 0, "box": 3}]
    step(states, town(SAN_ANTONIA))
    hired = step(states, town(KANSAS_CITY))
    assert kinds(hired)[:3] == ["cowboy_hired", "fare_paid", "cowboy_hired"]
    assert only(hired, "cowboy_hired") == [{"seat": 0, "town": SAN_ANTONIA, "price": 1},
                                           {"seat": 0, "town": KANSAS_CITY, "price": 1}]
    assert only(hired, "fare_paid") == [{"owner": 1, "mover": 0, "town": SAN_ANTONIA, "amount": 1}]
    assert only(hired, "action_turn") == [{"seat": 1, "round": 1, "lap": 1, "position": 2}]
    step(states, box(13))
    assert only(step(states, town(ABILENE)), "built") == [{"seat": 1, "type": HOTEL, "town": ABILENE, "price": 8}]
    step(states, box(15))
    assert only(step(states, town(DEADWOOD)), "farmer_placed") == [{"seat": 2, "town": DEADWOOD}]
    step(states, box(0))
    step(states, town(SAN_ANTONIA))
    bought = step(states, A_COUNT + 1)  # two cattle fill San Antonia's 4 corrals: Kansas City opens
    assert only(bought, "cattle_bought") == [{"seat": 0, "town": SAN_ANTONIA, "count": 2, "price": 2}]
    assert only(bought, "frontier_opened") == [{"town": KANSAS_CITY}] and states[0]["frontier"] == KANSAS_CITY
    assert only(step(states, A_PASS), "passed") == [{"seat": 1}]
    step(states, box(6))
    step(states, town(SAN_ANTONIA))
    step(states, town(DODGE_CITY))
    moved = step(states, A_COUNT)  # the last action of round 1
    assert only(moved, "cowboys_moved") == [{"seat": 2, "from_town": SAN_ANTONIA, "to_town": DODGE_CITY,
                                             "count": 1}]
    assert only(moved, "fare_paid") == [{"owner": 1, "mover": 2, "town": SAN_ANTONIA, "amount": 1}]
    assert only(moved, "round_ended") == [{"round": 1}] and "income_paid" not in kinds(moved)  # §10.1: round 3
    assert only(moved, "auction_started") == [{"round": 2, "first_bidder": 0}]


# ---- the AEC env ---------------------------------------------------------------------------------------------
def test_the_aec_env_delivers_the_events_and_the_final_vp_by_category():
    """``env(events=True)``: each agent's infos hold the step's events (all public, §12); play is unchanged;
    the last step's vp_scored events are the env's ``vp_categories`` info (§14) and sum to its scores."""
    env, plain = env_with_events_and_plain(way_out_west_v0.env, 5, num_players=3, num_rounds=3)
    rng = np.random.default_rng(5)
    delivered = 0
    final = None
    while env.agents:
        action = random_legal_action(env, rng)
        step_both(env, plain, action)
        if action is not None and env.agents:
            logs = [env.infos[a]["events"] for a in env.agents]
            assert all(log == logs[0] for log in logs)  # open information: everybody sees the same events
            assert all("events" not in plain.infos[a] for a in plain.agents)
            delivered += len(logs[0])
            if any(e["kind"] == "game_over" for e in logs[0]):
                final = logs[0], dict(env.infos[env.agents[0]])
    assert delivered > 0 and final is not None
    events, info = final
    for p in range(3):
        mine = {VP_CATEGORY_NAMES[e["category"]]: e["vp"] for e in events
                if e["kind"] == "vp_scored" and e["seat"] == p}
        assert mine == info["vp_categories"][f"player_{p}"]
        total = [e["vp"] for e in events if e["kind"] == "final_score" and e["seat"] == p]
        assert total == [sum(mine.values())] == [info["scores"][f"player_{p}"]]
