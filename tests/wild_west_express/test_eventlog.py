"""Wild West Express event logs (``wild_west_express.eventlog``, issue 19 item 3).

* The docstring's table is the code's table (STYLE §2).
* Events change nothing: a twin stepped with plain ``step`` stays byte-identical, over seeded random
  games at every player count (and with the alternative rules on).
* Events match the state after every step: money events sum, per seat, to the cash change; train,
  desperado and sheriff moves chain from where each piece stood to where it stands; dynamite and cargo
  events account for every token; the last roll shows the dice; the end names the winners as
  ``Game.winners`` does.
* Rulebook situations built with ``positions`` show the rule's events: scripted dice and duel dice,
  robbery, an explosion, fees and debts, a drawn public or personal card, a victory.
* Hidden information (§16): an event visible to a seat never names a card it may not know; two records
  that differ only in what a seat cannot see (``GAME.resample_hidden``) give it the same visible events
  for the same action; the AEC env's infos never carry another seat's private card.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from tests.wild_west_express._helpers import seat0_turn
from wildwest_envs import wild_west_express_v0
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.wild_west_express import eventlog
from wildwest_envs.wild_west_express.data import (A_END, A_HOLD, A_SPACE, CARD_CLASS, CARGO_EMPTY, CLASS_PERSONAL,
                                                  CLASS_PUBLIC, DEC_PRE_ROLL, DEC_SHERIFF_SPACE, DEC_TELEGRAM_DRAWN,
                                                  MAX_TRAINS, N_CARGO, NO_CARD, NO_SPACE, PASSENGER_BASE,
                                                  PHASE_MOVEMENT, PHASE_PRE_ROLL)
from wildwest_envs.wild_west_express.eventlog import EVENT_KINDS, MONEY, WHO_SEES, cash_changes
from wildwest_envs.wild_west_express.game import GAME
from wildwest_envs.wild_west_express.positions import Train, place
from wildwest_envs.wild_west_express.state import NOBODY

PLAYER_COUNTS = (2, 3, 4, 5)
SEATTLE, PORTLAND = 0, 1
GOLD = 1
PACIFIC_PASSENGER = PASSENGER_BASE + 0
FULL_STEAM, BANK_DIVIDEND = 0, 31  # card ids (§13.5)
ALT_RULES = {"alt_dynamite": True, "alt_extra_gang": True, "component_limits": False}  # §11.4, §15, §2.1


# ---- the table ---------------------------------------------------------------------------------------------------
def _docstring_rows() -> list[tuple]:
    rows = []
    for line in eventlog.__doc__.splitlines():
        m = re.fullmatch(r"\| (\d+) \| ``(\w+)`` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|", line)
        if m:
            code, name, args, who, section = m.groups()
            rows.append((int(code), name, tuple(a.strip() for a in args.split(",")), who.strip(), section.strip()))
    return rows


def test_the_docstring_table_is_the_code_table():
    """STYLE §2: the table in ``eventlog``'s docstring lists every kind with its code, arguments, audience
    and section, as ``EVENT_KINDS`` and ``WHO_SEES`` declare them."""
    table = [(k.code, k.name, k.args, WHO_SEES[k.name], k.section) for k in EVENT_KINDS.by_code.values()]
    assert _docstring_rows() == table
    assert [code for code, *_ in table] == list(range(1, len(table) + 1))


def test_money_table_names_arguments_of_its_kinds():
    """Every ``MONEY`` entry names a seat and an amount argument of a declared kind."""
    for kind, parts in MONEY.items():
        args = EVENT_KINDS.by_name[kind].args
        assert parts and all(seat in args and amount in args and sign in (1, -1) for seat, amount, sign in parts)


# ---- what an event may name (§16) ----------------------------------------------------------------------------------
def _card_known_to(state: np.void, seat: int, card: int) -> bool:
    """After a step, ``seat`` may know ``card`` unless another seat holds it or is deciding on it, or it lies in
    the never-drawn part of the deck (§16.2, §16.3)."""
    holder = int(state["card_holder"][card])
    if holder not in (NOBODY, seat):
        return False
    if int(state["drawn_card"]) == card and int(state["active"]) != seat:
        return False
    return card not in state["deck"][:int(state["never_drawn"])]


def _assert_nothing_hidden(state: np.void, events: list) -> None:
    for e in events:
        card = e.data.get("card", NO_CARD)
        if card != NO_CARD:
            for seat in e.seen_by:
                assert _card_known_to(state, seat, card), (e, seat)


# ---- events against the state ----------------------------------------------------------------------------------------
def _cargo(state: np.void, p: int, t: int) -> Counter:
    return Counter(int(c) for c in state["train_cargo"][p, t, :N_CARGO] if c != CARGO_EMPTY)


def _check_pieces(before: np.void, after: np.void, events: list) -> None:
    """Moves chain from where each piece stood (§7.4, §9.2, §12); dynamite and cargo events account for every
    token (§6.3, §8, §10.3, §11)."""
    n = int(before["num_players"])
    trains = {(p, t): int(before["train_pos"][p, t]) for p in range(n) for t in range(MAX_TRAINS)
              if before["train_exists"][p, t]}
    cargo = {key: _cargo(before, *key) for key in trains}
    desperados = {(p, k): int(before["desp_pos"][p, k]) for p in range(n) for k in range(before["n_desperados"][p])}
    sheriffs = [int(x) for x in before["sheriff_pos"]]
    dynamite = set(np.flatnonzero(before["dynamite"]).tolist())
    for e in events:
        d = e.data
        if e.kind in ("train_placed", "train_bought"):
            trains[d["seat"], d["train"]] = d["city"]
            cargo[d["seat"], d["train"]] = Counter()
        elif e.kind == "train_moved":
            assert trains[d["seat"], d["train"]] == d["from_space"], e
            trains[d["seat"], d["train"]] = d["to_space"]
        elif e.kind == "cargo_loaded":
            cargo[d["seat"], d["train"]][d["cargo"]] += 1
        elif e.kind in ("cargo_delivered", "cargo_lost"):
            assert cargo[d["seat"], d["train"]][d["cargo"]] > 0, e
            cargo[d["seat"], d["train"]][d["cargo"]] -= 1
        elif e.kind in ("desperado_placed", "desperado_hired"):
            desperados[d["seat"], d["desperado"]] = d["city"]
        elif e.kind == "desperado_moved":
            assert desperados[d["seat"], d["desperado"]] == d["from_space"], e
            desperados[d["seat"], d["desperado"]] = d["to_space"]
        elif e.kind == "sheriff_moved":
            assert sheriffs[d["sheriff"]] == d["from_space"] and d["to_space"] not in sheriffs, e
            sheriffs[d["sheriff"]] = d["to_space"]
        elif e.kind == "dynamite_placed":
            assert d["space"] not in dynamite, e
            dynamite.add(d["space"])
        elif e.kind in ("dynamite_removed", "dynamite_exploded"):
            dynamite.remove(d["space"])
    n_after = int(after["num_players"])
    assert trains == {(p, t): int(after["train_pos"][p, t]) for p in range(n_after) for t in range(MAX_TRAINS)
                      if after["train_exists"][p, t]}
    assert {key: +c for key, c in cargo.items()} == {key: _cargo(after, *key) for key in trains}
    assert desperados == {(p, k): int(after["desp_pos"][p, k]) for p in range(n_after)
                          for k in range(after["n_desperados"][p])}
    assert sheriffs == [int(x) for x in after["sheriff_pos"]]
    assert dynamite == set(np.flatnonzero(after["dynamite"]).tolist())


def _check_step(before: np.ndarray, after: np.ndarray, events: list) -> None:
    """Every check of one step's events against the records before and after it."""
    b, a = before[0], after[0]
    n = int(a["num_players"])
    assert cash_changes(events, n) == [int(a["cash"][p]) - int(b["cash"][p]) for p in range(n)]  # §0.2
    _check_pieces(b, a, events)
    _assert_nothing_hidden(a, events)
    kinds = [e.kind for e in events]
    for e in events:
        assert len(e.seen_by) == n or e.kind in ("card_drawn", "card_kept"), e  # only cards are private (§16)
    last_turn = max((i for i, k in enumerate(kinds) if k == "turn_begins"), default=-1)
    rolls = [e for e in events[last_turn + 1:] if e.kind == "dice_rolled"]
    if rolls:  # the dice of this turn stay visible until the next turn starts (§6.2, §6.4)
        assert [rolls[-1].data[x] for x in "abc"] == a["dice"].tolist() and rolls[-1].data["seat"] == a["active"]
    phases = [e for e in events if e.kind == "phase_begins"]
    if phases and not a["done"]:
        assert phases[-1].data["phase"] == a["phase"] and phases[-1].data["seat"] == a["active"]
    bottom = [e.data["card"] for e in events if e.kind == "card_to_bottom"]
    if bottom:  # the cards sent to the bottom, in order, are the deck's last cards (§13.1)
        assert a["deck"][int(a["deck_size"]) - len(bottom):int(a["deck_size"])].tolist() == bottom
    if a["done"]:  # §14.3, §14.4: the end, with the winners as Game.winners gives them
        over = [e for e in events if e.kind == "game_over"]
        assert len(over) == 1 and over[0].data["round"] == a["round"]
        winners = GAME.winners(after)[0]
        assert over[0].data["winners"] == sum(1 << p for p in range(n) if winners[p])
        reasons = (eventlog.END_ROUND_CAP, eventlog.END_SAFETY_LIMIT) if a["capped"] else (eventlog.END_VICTORY,)
        assert over[0].data["reason"] in reasons
        scores = [e.data for e in events if e.kind == "final_score"]
        assert scores == [{"seat": p, "vp": int(GAME.scores(after)[0, p]), "cash": int(a["cash"][p]),
                           "won": int(winners[p])} for p in range(n)]
    else:
        assert "game_over" not in kinds and "final_score" not in kinds


def _play(num_players: int, seed: int, max_steps: int = 20_000, **options):
    """A seeded uniformly random game stepped with events; a plain twin must stay byte-identical. Yields
    ``(before, action, events, after)`` per step."""
    states = GAME.init(seed, num_players=num_players, **options)
    twin = states.copy()
    rng = np.random.default_rng(seed)
    for _ in range(max_steps):
        if GAME.finished(states)[0]:
            return
        action = int(rng.choice(np.flatnonzero(GAME.legal_mask(states)[0])))
        before = states.copy()
        events = GAME.step_with_events(states, [action])[0]
        GAME.step(twin, [action])
        assert states.tobytes() == twin.tobytes()  # events change nothing in the game
        yield before, action, events, states


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_events_change_nothing_and_match_every_step_of_random_games(num_players):
    """§0.2, §6-§14: over seeded random games played to the end, the logged game equals the plain one byte
    for byte, and each step's events match the records (``_check_step``)."""
    seen = Counter()
    for seed in (11, 12):
        for before, _, events, after in _play(num_players, seed):
            _check_step(before, after, events)
            seen.update(e.kind for e in events)
        assert after[0]["done"]
    assert seen["game_over"] == 2 and seen["train_moved"] > 100 and seen["dice_rolled"] > 20


def test_events_match_the_state_under_the_alternative_rules():
    """§11.4 (goods lost in explosions), §15 (hired desperados), §2.1 (no component limits): the same checks."""
    seen = Counter()
    for num_players, seed in ((2, 21), (4, 22)):
        for before, _, events, after in _play(num_players, seed, **ALT_RULES):
            _check_step(before, after, events)
            seen.update(e.kind for e in events)
    assert seen["desperado_hired"] > 0 and seen["dynamite_exploded"] > 0


# ---- rulebook situations ---------------------------------------------------------------------------------------------
def _rolled(states: np.ndarray, dice, duels=()) -> list:
    """END at PRE_ROLL with scripted dice (then duel dice, §17.4): the events of that step."""
    assert states[0]["decision"] == DEC_PRE_ROLL
    GAME.script(states, [("die", face) for face in (*dice, *duels)], then="random")
    before = states.copy()
    events = GAME.step_with_events(states, [A_END])[0]
    _check_step(before, states, events)
    return events


def _stepped(states: np.ndarray, action: int) -> list:
    """One checked step with events."""
    before = states.copy()
    events = GAME.step_with_events(states, [action])[0]
    _check_step(before, states, events)
    return events


def _of(events: list, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == kind]


def test_s6_4_scripted_dice_show_in_dice_rolled():
    """§6.4, §17.4: the scripted dice appear sorted in ``dice_rolled``, seen by everybody; the movement phase
    follows, then the train's dice move of a + b (small train)."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE)]})
    events = _rolled(states, (2, 6, 4))
    rolled = [e for e in events if e.kind == "dice_rolled"]
    assert [(e.data, e.seen_by) for e in rolled] == [({"seat": 0, "a": 6, "b": 4, "c": 2}, (0, 1, 2))]
    assert {"seat": 0, "phase": PHASE_MOVEMENT} in _of(events, "phase_begins")
    assert _of(events, "move_started")[0] == {"seat": 0, "train": 0, "steps": 10, "card": NO_CARD}


def test_s10_robbery_reports_the_duel_dice_the_loot_and_the_cargo():
    """§10.1-§10.3: a loaded train entering a space with a rival's desperado duels it; the scripted duel dice
    (train 2, desperado 5) show in ``duel``; the desperado wins, its owner gets $100 for the token and the
    Gold is lost; the train moves on."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=["gold"])]}, desperados={1: [33]})
    events = _rolled(states, (3, 2, 1), duels=(2, 5))
    kinds = [e.kind for e in events]
    assert _of(events, "duel") == [{"owner": 1, "desperado": 0, "train_die": 2, "desperado_die": 5}]
    assert _of(events, "robbed") == [{"seat": 1, "victim": 0, "train": 0, "loot": 100}]
    assert _of(events, "cargo_lost") == [{"seat": 0, "train": 0, "cargo": GOLD, "cause": eventlog.LOST_ROBBERY}]
    assert kinds.index("duel") == kinds.index("train_moved") + 2  # on entering 33, the second step
    assert [d["to_space"] for d in _of(events, "train_moved")] == [32, 33, 34, PORTLAND]


def test_s10_2_a_tied_duel_goes_to_the_train():
    """§10.2: ties go to the train: nothing is robbed."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=["gold"])]}, desperados={1: [33]})
    events = _rolled(states, (3, 2, 1), duels=(4, 4))
    assert _of(events, "duel") == [{"owner": 1, "desperado": 0, "train_die": 4, "desperado_die": 4}]
    assert _of(events, "robbed") == [] and _of(events, "cargo_lost") == []


def test_s11_2_explosion_reports_the_passengers_lost_and_the_wait():
    """§11.2: a train landing on dynamite explodes: the token is removed, its passengers are lost, it waits."""
    states = seat0_turn(trains={0: [Train(31, came_from=SEATTLE, cargo=["passenger:Pacific"])]}, dynamite=[33])
    events = _rolled(states, (1, 1, 1))
    assert _of(events, "dynamite_exploded") == [{"seat": 0, "train": 0, "space": 33}]
    assert _of(events, "cargo_lost") == [{"seat": 0, "train": 0, "cargo": PACIFIC_PASSENGER,
                                          "cause": eventlog.LOST_EXPLOSION}]
    assert _of(events, "train_delayed") == [{"seat": 0, "train": 0, "wait": 1, "cause": eventlog.DELAYED_BY_DYNAMITE}]


def test_s8_3_fee_paid_to_the_station_owner():
    """§8.3: landing in another seat's station costs a small train $20, paid to the owner."""
    states = seat0_turn(owners={PORTLAND: 1}, trains={0: [Train(33, came_from=32)]})
    events = _rolled(states, (1, 1, 1))
    assert _of(events, "train_landed") == [{"seat": 0, "train": 0, "space": PORTLAND, "steps_left": 0}]
    assert _of(events, "fee_paid") == [{"payer": 0, "payee": 1, "amount": 20, "train": 0}]


def test_s8_3_a_fee_without_cash_becomes_a_debt_settled_after_the_roll():
    """§8.3, §6.4: without the cash the train owes the fee (nothing paid); a debt the cash covers is paid in
    full right after the roll."""
    states = seat0_turn(cash=10, owners={PORTLAND: 1}, trains={0: [Train(33, came_from=32)]})
    events = _rolled(states, (1, 1, 1))
    assert _of(events, "debt_incurred") == [{"seat": 0, "train": 0, "creditor": 1, "fee": 20}]
    assert _of(events, "fee_paid") == []
    states = seat0_turn(cash=10, owners={PORTLAND: 1}, trains={0: [Train(PORTLAND, debt=True)]})
    place(states, cash={0: 100})
    events = _rolled(states, (1, 1, 1))
    assert _of(events, "debt_paid") == [{"payer": 0, "payee": 1, "amount": 20, "train": 0}]
    kinds = [e.kind for e in events]
    assert kinds.index("dice_rolled") < kinds.index("debt_paid") < kinds.index("move_started")


def test_s12_a_sheriff_on_dynamite_removes_it():
    """§12 items 1-4: a train landing on a star places the first off-board sheriff where its owner says;
    dynamite there goes back to the supply (nobody is caught)."""
    states = seat0_turn(trains={0: [Train(PORTLAND)]}, dynamite=[100])
    _rolled(states, (1, 1, 1))  # 2 steps: the first leaves Portland (a choice)
    assert _of(_stepped(states, A_SPACE + 53), "train_landed") == [{"seat": 0, "train": 0, "space": 54,
                                                                     "steps_left": 0}]
    assert states[0]["decision"] == DEC_SHERIFF_SPACE
    events = _stepped(states, A_SPACE + 100)
    assert _of(events, "sheriff_moved") == [{"seat": 0, "sheriff": 0, "from_space": NO_SPACE, "to_space": 100}]
    assert _of(events, "dynamite_removed") == [{"space": 100, "cause": eventlog.REMOVED_BY_SHERIFF, "seat": 0}]


def test_s7_1_hold_reports_the_train_held_and_no_landing():
    """§7.1, §7.4: an empty train in a city may HOLD: it stays, and no landing resolution follows."""
    states = seat0_turn(trains={0: [Train(SEATTLE)]})
    _rolled(states, (1, 1, 1))
    events = _stepped(states, A_HOLD)
    assert _of(events, "train_held") == [{"seat": 0, "train": 0, "space": SEATTLE}]
    assert _of(events, "train_landed") == [] and _of(events, "train_moved") == []


def test_s13_2_a_public_card_is_revealed_to_everybody_with_its_effect():
    """§13.2, §13.5 Bank Dividend: the drawn public card is named to everybody, every seat gets $100, and the
    card goes to the bottom of the deck."""
    states = seat0_turn(trains={0: [Train(35, came_from=SEATTLE)]}, deck_top=[BANK_DIVIDEND])
    events = _rolled(states, (1, 1, 1))  # lands on the T at 37
    drawn = [e for e in events if e.kind == "card_drawn"]
    assert [(e.data, e.seen_by) for e in drawn] == [({"seat": 0, "train": 0, "card": BANK_DIVIDEND,
                                                      "card_class": CLASS_PUBLIC}, (0, 1, 2))]
    assert _of(events, "card_payment") == [{"seat": p, "card": BANK_DIVIDEND, "amount": 100} for p in range(3)]
    assert _of(events, "card_to_bottom")[-1]["card"] == BANK_DIVIDEND


def test_s16_2_a_drawn_personal_card_goes_to_its_drawer_alone():
    """§13.3, §16.2: a personal card drawn at a T is named to the drawer; the others see that a personal card
    was drawn by that train (card -1). Kept, the same twin; played later, it is revealed to everybody."""
    states = seat0_turn(trains={0: [Train(35, came_from=SEATTLE)]}, deck_top=[FULL_STEAM])
    events = _rolled(states, (1, 1, 1))
    drawn = {e.seen_by: e.data for e in events if e.kind == "card_drawn"}
    assert drawn == {(0,): {"seat": 0, "train": 0, "card": FULL_STEAM, "card_class": CLASS_PERSONAL},
                     (1, 2): {"seat": 0, "train": 0, "card": NO_CARD, "card_class": CLASS_PERSONAL}}
    assert states[0]["decision"] == DEC_TELEGRAM_DRAWN
    events = _stepped(states, A_END)  # keep it
    kept = {e.seen_by: e.data for e in events if e.kind == "card_kept"}
    assert kept == {(0,): {"seat": 0, "train": 0, "card": FULL_STEAM}, (1, 2): {"seat": 0, "train": 0, "card": -1}}


def test_s14_3_victory_reports_the_end_and_the_winner():
    """§14.3: a seat at the target at the end of its turn wins: ``game_over`` names it, ``final_score`` gives
    every seat's VP and cash."""
    states = seat0_turn(cash=13_000)  # 2 VP per full $1200: 20 VP (§14.1)
    events = _rolled(states, (1, 1, 1))
    assert _of(events, "game_over") == [{"reason": eventlog.END_VICTORY, "winners": 1,
                                         "round": int(states[0]["round"])}]
    assert _of(events, "final_score") == [{"seat": 0, "vp": 20, "cash": 13_000, "won": 1},
                                          {"seat": 1, "vp": 0, "cash": 100, "won": 0},
                                          {"seat": 2, "vp": 0, "cash": 100, "won": 0}]


def test_the_turn_begins_with_its_pre_roll_phase():
    """§6.1, §6.2: the step that ends a turn starts the next one: ``turn_begins`` then the pre-roll phase."""
    states = seat0_turn()
    events = _rolled(states, (1, 1, 1))  # seat 0 has nothing to move: its turn ends
    begins = [i for i, e in enumerate(events) if e.kind == "turn_begins"]
    s = states[0]
    assert [events[i].data for i in begins] == [{"seat": 1, "round": int(s["round"]), "turn": int(s["turn"])}]
    assert events[begins[0] + 1].data == {"seat": 1, "phase": PHASE_PRE_ROLL}


# ---- hidden information (§16) ---------------------------------------------------------------------------------------
def _visible(events: list, seat: int) -> list:
    return [(e.kind, e.data) for e in events if e.visible_to(seat)]


@pytest.mark.parametrize("num_players", (2, 3, 5))
def test_s16_3_twins_differing_in_what_a_seat_cannot_see_give_it_the_same_events(num_players):
    """§16.3: a record and its redraw for seat s (``GAME.resample_hidden``: other seats' held and drawn
    personal cards, the never-drawn deck), given the same generator, show s the same events for the same
    action. Steps that draw a never-drawn card reveal new information and are left out."""
    rng = np.random.default_rng(num_players)
    compared = hidden_differed = 0
    for step, (before, action, events, after) in enumerate(_play(num_players, 30 + num_players, 4_000)):
        if step % 3:
            continue
        seat = int(rng.integers(num_players))
        twin = GAME.resample_hidden(before, [seat], game_seeds(step, 1))
        for name in ("rng", "forced", "n_forced", "forced_pos"):  # the same future dice
            twin[name] = before[name]
        if not GAME.legal_mask(twin)[0, action]:
            continue  # the action needs a card the twin's seat does not hold
        differs = not (np.array_equal(twin["card_holder"], before["card_holder"])
                       and np.array_equal(twin["drawn_card"], before["drawn_card"]))
        twin_events = GAME.step_with_events(twin, [action])[0]
        if after[0]["never_drawn"] < before[0]["never_drawn"] or twin[0]["never_drawn"] < before[0]["never_drawn"]:
            continue
        assert _visible(twin_events, seat) == _visible(events, seat), (step, seat, action)
        compared += 1
        hidden_differed += differs
    assert compared > 100 and hidden_differed > 10


def test_s17_7_aec_infos_never_carry_another_seats_private_card():
    """§16.2, §17.7: with ``events=True`` an agent's infos hold only events it may see, and no card it may not
    know; other seats' drawn personal cards reach it as card -1."""
    twins = 0
    for num_players, seed in ((3, 5), (5, 6)):
        env = wild_west_express_v0.env(num_players=num_players, events=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(3_000):
            if not env.agents:
                break
            agent = env.agent_selection
            done = env.terminations[agent] or env.truncations[agent]
            env.step(None if done else int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
            state = env.unwrapped.states[0]
            for a in env.agents:
                seat = env.unwrapped.possible_agents.index(a)
                for event in env.infos[a].get("events", []):
                    assert seat in event["seen_by"]
                    card = event.get("card", NO_CARD)
                    assert card == NO_CARD or _card_known_to(state, seat, card), (a, event)
                    if event["kind"] == "card_drawn" and event["seat"] != seat:  # another seat's draw
                        if event["card_class"] == CLASS_PERSONAL:
                            assert card == NO_CARD, (a, event)
                            twins += 1
                        else:
                            assert CARD_CLASS[card] == event["card_class"], (a, event)
    assert twins > 0


def test_the_leak_check_refuses_cards_a_seat_may_not_know():
    """The check itself (§16.2, §16.3): another seat's held card and a never-drawn card are unknown to a seat;
    its own card is known to it."""
    states = seat0_turn(trains={1: [Train(SEATTLE)]}, cards={1: {FULL_STEAM: 0}})
    s = states[0]
    assert not _card_known_to(s, 0, FULL_STEAM) and _card_known_to(s, 1, FULL_STEAM)
    assert s["never_drawn"] > 0 and not _card_known_to(s, 0, int(s["deck"][0]))
