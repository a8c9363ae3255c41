"""Colt Express event logs (``colt_express.eventlog``, issue 19 item 3): events change nothing in the game, say
what really happened (checked against the records before and after each step, spec §4-§9), reach only the
seats that may know them (§10) and arrive in the AEC env's infos.

The games are seeded random games of every player count and option set (``CONFIGS``), played once per test
session with ``Game.step_with_events`` next to a twin stepped with plain ``step``.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from tests._events import env_with_events_and_plain, random_legal_action, step_beside_twin, step_both
from wildwest_envs import colt_express_v0
from wildwest_envs.colt_express import eventlog as ce
from wildwest_envs.colt_express.data import (A_CAR, A_DISCARD, A_DRAW, A_KEEP_REST, A_PLAY_DOWN, A_PURSE, BULLET_CARD,
                                             CHEYENNE, DEC_BULLETS, DEC_KEEP, DEC_PLAN, DEC_PUNCH_DEST, DJANGO, DOC, EV_BRAKING,
                                             EV_NONE, EV_SWIVEL_ARM, FIRE, FLOOR, GHOST, GUNSLINGER_BONUS, IN,
                                             JEWEL_VALUE, MARSHAL, N_CARD_CODES, N_LOCATIONS, N_PURSES, PUNCH,
                                             PURSE_IN_BOX, PURSE_ON_BANDIT, RANSOM_VALUE, ROOF, ROUND_CARD_EVENT,
                                             ROUND_CARD_TURNS, STRONGBOX_VALUE, TUCO, TURN_NONE, TURN_SPEEDUP,
                                             TURN_SWITCH)
from wildwest_envs.colt_express.state import NOBODY
from wildwest_envs.core.eventlog import DEFAULT_CAPACITY
from wildwest_envs.registry import get_game

GAME = get_game("colt_express_v0")

# every player count, both rule sets, with and without auto-resolved forced decisions (§3.3-§3.5, §11.4)
CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 3, "expert": True, "auto_forced": False},
    {"num_players": 4, "expert": True},
    {"num_players": 4, "auto_forced": False},
    {"num_players": 5, "expert": True},
    {"num_players": 6},
    {"num_players": 6, "expert": True},
]
CONFIG_IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]
N_GAMES = 3  # games per configuration, stepped as one batch
PURSE_KINDS = ("loot_taken", "loot_lost")
OFF_BANDIT = -100  # replay marker: a purse that left a bandit in this step
SECRET_KINDS = ("card_drawn", "card_set_aside")  # to the seat alone, with no public twin


# ---- playing -----------------------------------------------------------------------------------------
class Step:
    """One step of one game: the record before and after, the action and the events."""

    def __init__(self, before: np.void, action: int, events: list, after: np.void):
        self.before, self.action, self.events, self.after = before, action, events, after

    @property
    def n(self) -> int:
        return int(self.before["num_players"])

    def seen(self, seat: int) -> list:
        """The events ``seat`` receives."""
        return [e for e in self.events if e.visible_to(seat)]


@lru_cache(maxsize=None)
def _games(config_index: int) -> tuple:
    """The steps of ``N_GAMES`` seeded random games of ``CONFIGS[config_index]``, one list per game.

    A twin batch is stepped with plain ``step`` and must stay byte-identical: events change nothing.
    """
    options = CONFIGS[config_index]
    states = GAME.init(np.arange(N_GAMES) + 100 * config_index, **options)
    twin = states.copy()
    rng = np.random.default_rng(config_index)
    games = tuple([] for _ in range(N_GAMES))
    while not GAME.finished(states).all():
        masks = GAME.legal_mask(states)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], np.int64)
        before, events = step_beside_twin(GAME, states, twin, actions)
        for b in range(N_GAMES):
            if not GAME.finished(before[b:b + 1])[0]:
                games[b].append(Step(before[b].copy(), int(actions[b]), events[b], states[b].copy()))
            else:
                assert events[b] == []  # a finished game is left alone and reports nothing
    return games


def _steps(config_index: int):
    """Every step of the games of ``CONFIGS[config_index]``."""
    for game in _games(config_index):
        yield from game


def _public(event) -> tuple | None:
    """What every seat may know of an event: ``None`` for a secret one, the secret arguments blanked otherwise."""
    if event.kind in SECRET_KINDS:
        return None
    data = dict(event.data)
    if event.kind == "card_played" and data["face_down"]:
        data["card"] = NOBODY
    if event.kind in PURSE_KINDS and data["loot"] == ce.LOOT_PURSE:
        data["value"] = ce.UNKNOWN_VALUE
    return event.kind, tuple(sorted(data.items()))


def _knows_value(record: np.void, seat: int, purse: int) -> bool:
    """Seat knows the value of a purse before the end: a starting purse, or one its bandits held (§10.3)."""
    return purse < record["n_bandits"] or bool(int(record["purse_known"][seat]) >> purse & 1)


# ---- the docstring table ---------------------------------------------------------------------------
def test_the_docstring_table_is_the_kinds_of_the_code():
    """STYLE §2: the module docstring's table of kinds is checked against the code (codes, names, arguments,
    who sees it, sections)."""
    rows = re.findall(r"^\| (\d+) \| ``(\w+)`` \| ([\w, ]*) \| ([^|]+) \| ([^|]+) \|$", ce.__doc__, re.M)
    table = [(int(code), name, tuple(a.strip() for a in args.split(",") if a.strip()), who.strip(), section.strip())
             for code, name, args, who, section in rows]
    code = [(k.code, k.name, k.args, ce.WHO_SEES[k.name], k.section) for k in ce.EVENT_KINDS.by_code.values()]
    assert table == code and len(code) == 21
    assert GAME.event_kinds is ce.EVENT_KINDS  # found by Game.from_package


# ---- events change nothing; every step is reported --------------------------------------------------
@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_events_change_nothing_and_every_seat_sees_one_copy_of_each_event(config):
    """Module docstring (core.eventlog): a logged step plays exactly the plain step (the twin of ``_games``);
    every event is seen by somebody, and every seat receives the same public skeleton: a private event
    (a face-down card, a purse value, §10.2-§10.3) has a twin for the others, or is a card of the seat alone."""
    n_steps = 0
    for step in _steps(config):
        n_steps += 1
        if not step.events:  # only an expert BULLETS answer that discards nothing goes unreported (G33)
            assert step.before["decision"] == DEC_BULLETS and step.after["hand"][step.before["current"], BULLET_CARD] \
                == step.before["hand"][step.before["current"], BULLET_CARD]
        assert len(step.events) <= DEFAULT_CAPACITY  # no retry with a bigger buffer (a fresh compile) in play
        assert all(e.seen_by for e in step.events)
        skeletons = [[p for p in map(_public, step.seen(s)) if p is not None] for s in range(step.n)]
        assert all(s == skeletons[0] for s in skeletons), skeletons
        for e in step.events:
            if e.kind in SECRET_KINDS:
                assert e.seen_by == (e.data["seat"],)
    assert n_steps > 50 * N_GAMES


# ---- events match the state ----------------------------------------------------------------------------
@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_moves_of_bandits_and_marshal_replay_to_the_new_positions(config):
    """§5.2, §6.1-§6.6, §8.1-§8.3: replaying the ``moved`` and ``marshal_moved`` events on the positions before
    a step gives the positions after it; each reported move is a real change (one car for the marshal)."""
    causes = Counter()
    for step in _steps(config):
        where = {b: (int(step.before["bandit_car"][b]), int(step.before["bandit_level"][b]))
                 for b in range(int(step.before["n_bandits"]))}
        marshal = int(step.before["marshal_car"])
        for e in step.seen(0):
            if e.kind == "moved":
                b, to = e.data["bandit"], (e.data["car"], e.data["level"])
                assert to != where[b]
                if e.data["cause"] == ce.MOVED_BY_MARSHAL:
                    assert to == (where[b][0], ROOF) and where[b][1] == IN and to[0] == marshal  # §5.2
                if e.data["cause"] in (ce.MOVED_BY_SWIVEL_ARM, ce.MOVED_BY_BRAKING):
                    assert where[b][1] == ROOF == to[1]
                where[b] = to
                causes[e.data["cause"]] += 1
            elif e.kind == "marshal_moved":
                assert abs(e.data["car"] - marshal) == 1
                marshal = e.data["car"]
        assert marshal == step.after["marshal_car"]
        for b, (car, level) in where.items():
            assert (car, level) == (step.after["bandit_car"][b], step.after["bandit_level"][b])
    assert causes[ce.MOVED_BY_MOVE] and causes[ce.MOVED_BY_FLOOR_CHANGE] and causes[ce.MOVED_BY_MARSHAL]


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_shots_and_neutral_bullets_match_the_bullet_counts(config):
    """§5.3, §6.3: each ``fired`` costs the shooter one bullet (``bullets_left`` as reported) and gives the
    target one; each ``neutral_bullets`` gives one to every bandit of its group, or removes the supply."""
    fired = 0
    for step in _steps(config):
        left = step.before["bullets_left"].astype(int)
        received = step.before["bullets_received"].astype(int)
        supply, removed = int(step.before["neutral_supply"]), bool(step.before["supply_removed"])
        for e in step.seen(0):
            if e.kind == "fired":
                left[e.data["bandit"]] -= 1
                assert e.data["bullets_left"] == left[e.data["bandit"]] >= 0
                received[e.data["target"]] += 1
                fired += 1
            elif e.kind == "neutral_bullets":
                group = [b for b in range(int(step.before["n_bandits"])) if e.data["group"] >> b & 1]
                assert group and not removed
                if e.data["removed"]:
                    assert e.data["given"] == 0 == e.data["supply"] and supply < len(group)
                    supply, removed = 0, True
                else:
                    assert e.data["given"] == len(group) and e.data["supply"] == supply - len(group)
                    supply -= len(group)
                    for b in group:
                        received[b] += 1
        assert left.tolist() == step.after["bullets_left"].tolist()
        assert received.tolist() == step.after["bullets_received"].tolist()
        assert (supply, removed) == (step.after["neutral_supply"], step.after["supply_removed"])
    assert fired


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_loot_taken_and_lost_balance_the_loot_of_the_bandits(config):
    """§6.4, §6.5, §7 (Cheyenne), §8.4, §8.6-§8.8: ``loot_taken`` / ``loot_lost`` replayed on the loot before a
    step give the loot after it: purse tokens by id, jewels, strongboxes, ransoms; values are the true ones
    (or -1 for a purse to a seat that does not know it), and a second strongbox is ``strongbox_placed``."""
    kinds = Counter()
    for step in _steps(config):
        b_, a_ = step.before, step.after
        holder = {i: int(b_["purse_location"][i]) for i in range(N_PURSES)}
        jewels, boxes = b_["jewels_held"].astype(int), b_["strongboxes_held"].astype(int)
        ransoms = b_["ransoms"].astype(int)
        floor_boxes = int(b_["floor_strongboxes"].sum())
        floor_jewels = int(b_["floor_jewels"].sum())
        marshal = int(b_["marshal_car"])  # where he stands when each event happens
        for e in step.seen(0):
            if e.kind == "marshal_moved":
                marshal = e.data["car"]
            if e.kind == "strongbox_placed":
                assert e.data["car"] == marshal and not b_["second_strongbox_placed"]
                floor_boxes += 1
            if e.kind not in PURSE_KINDS:
                continue
            d = e.data
            sign = 1 if e.kind == "loot_taken" else -1
            kinds[e.kind, d["loot"]] += 1
            if d["loot"] == ce.LOOT_PURSE:
                assert d["value"] in (ce.UNKNOWN_VALUE, a_["purse_value"][d["purse"]])
                if sign > 0:
                    assert holder[d["purse"]] < N_LOCATIONS  # from the floor (or Cheyenne's punch, below)
                    holder[d["purse"]] = PURSE_ON_BANDIT + d["bandit"]
                else:
                    assert holder[d["purse"]] == PURSE_ON_BANDIT + d["bandit"]
                    holder[d["purse"]] = OFF_BANDIT  # to the floor, to Cheyenne (loot_taken follows) or removed
                continue
            assert d["purse"] == NOBODY
            if d["loot"] == ce.LOOT_JEWEL:
                assert d["value"] == JEWEL_VALUE
                jewels[d["bandit"]] += sign
                floor_jewels -= sign
            elif d["loot"] == ce.LOOT_STRONGBOX:
                assert d["value"] == STRONGBOX_VALUE
                boxes[d["bandit"]] += sign
                floor_boxes -= sign
            else:
                assert d["loot"] == ce.LOOT_RANSOM and d["value"] == RANSOM_VALUE and sign > 0
                ransoms[d["bandit"]] += 1
        for i in range(N_PURSES):
            now = int(a_["purse_location"][i])
            if holder[i] == OFF_BANDIT:
                assert not PURSE_ON_BANDIT <= now < PURSE_IN_BOX
            else:
                assert now == holder[i]
        assert jewels.tolist() == a_["jewels_held"].tolist() and boxes.tolist() == a_["strongboxes_held"].tolist()
        assert ransoms.tolist() == a_["ransoms"].tolist()
        assert (floor_jewels, floor_boxes) == (a_["floor_jewels"].sum(), a_["floor_strongboxes"].sum())
    assert kinds["loot_taken", ce.LOOT_PURSE] and kinds["loot_taken", ce.LOOT_JEWEL]


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_a_seats_card_events_replay_to_its_hand(config):
    """§4.2-§4.4: replaying, for each seat, the events it receives (its own ``card_drawn``, the faces of its
    own ``card_played``, ``card_set_aside``, ``bullets_discarded``, ``cards_kept``, the standard return of the
    hands when Stealin' begins) on its hand before a step gives its hand after it; ``cards_drawn`` counts the
    ``card_drawn`` before it and ``known_bullets`` of them are bullet cards (G34); after a ``deck_shuffled``
    the deck holds its ``cards`` less the cards drawn after it."""
    drawn_total = 0
    for step in _steps(config):
        expert = bool(step.before["expert"])
        for s in range(step.n):
            hand = step.before["hand"][s].astype(int)
            aside = int(step.before["keep_aside"].sum()) if step.before["current"] == s else 0
            since_count, deck_after = [], None
            for e in step.seen(s):
                d = e.data
                if e.kind == "phase_started" and d["phase"] == ce.PHASE_STEALIN and not expert:
                    hand[:] = 0  # the cards left in hand go back on the draw deck (§4.4)
                if d.get("seat") != s:
                    continue
                if e.kind == "card_drawn":
                    hand[d["card"]] += 1
                    since_count.append(d["card"])
                    if deck_after is not None:
                        deck_after -= 1
                elif e.kind == "cards_drawn":
                    assert d["count"] == len(since_count) and d["known_bullets"] <= since_count.count(BULLET_CARD)
                    drawn_total += d["count"]
                    since_count = []
                elif e.kind == "deck_shuffled":
                    assert d["from_discard"] == int(expert)  # expert decks are only ever remade from discards
                    deck_after = d["cards"]
                elif e.kind == "card_played":
                    assert d["card"] != NOBODY  # the owner's copy carries the face
                    hand[d["card"]] -= 1
                elif e.kind == "card_set_aside":
                    hand[d["card"]] -= 1
                    aside += 1
                elif e.kind == "bullets_discarded":
                    assert d["count"] == hand[BULLET_CARD] > 0
                    hand[BULLET_CARD] = 0
                elif e.kind == "cards_kept":
                    assert d["kept"] == hand[:N_CARD_CODES].sum() and d["discarded"] == aside + hand[BULLET_CARD]
                    hand[BULLET_CARD] = 0
                    aside = 0
            assert not since_count
            assert hand.tolist() == step.after["hand"][s].tolist(), (s, [e for e in step.events])
            if deck_after is not None:
                assert deck_after == step.after["deck_size"][s]
    assert drawn_total


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_rounds_and_phases_are_reported_in_order_through_a_whole_game(config):
    """§4.1, §4.7: rounds 1..4 start (``round_started``: the round card, the first player rotating left) and
    each round runs Schemin', (expert) the end of Schemin', Stealin', its event; the first round starts inside
    ``init`` (module docstring). Within a round the pile is played 0, 1, ... and revealed in the same order,
    each card with the face its owner was told (§4.3, §4.5)."""
    for game in _games(config):
        final = game[-1].after
        assert final["done"]
        n, expert = int(final["num_players"]), bool(final["expert"])
        first = int(game[0].before["first_player"])
        expected = []
        for r in range(5):
            card = int(final["round_deck"][r])
            if r:
                expected += [("round_started", {"round": r, "round_card": card, "first_player": (first + r) % n}),
                             ("phase_started", {"round": r, "phase": ce.PHASE_SCHEMIN})]
            if expert:
                expected.append(("phase_started", {"round": r, "phase": ce.PHASE_END_OF_SCHEMIN}))
            expected += [("phase_started", {"round": r, "phase": ce.PHASE_STEALIN}),
                         ("round_event", {"round": r, "event": int(ROUND_CARD_EVENT[card])})]
        flow = [(e.kind, e.data) for step in game for e in step.seen(0)
                if e.kind in ("round_started", "phase_started", "round_event")]
        assert flow == expected
        pile, revealed = [], []
        for step in game:
            for e in step.events:
                if e.kind == "card_played" and e.visible_to(e.data["seat"]):
                    assert e.data["index"] == len(pile)
                    pile.append((e.data["seat"], e.data["card"], e.data["face_down"]))
                elif e.kind == "card_revealed":
                    assert e.data["index"] == len(revealed)
                    revealed.append((e.data["seat"], e.data["card"], e.data["face_down"]))
                elif e.kind == "phase_started" and e.data["phase"] == ce.PHASE_SCHEMIN or e.kind == "round_event":
                    assert pile == revealed  # every card is revealed once, with its face
                    pile, revealed = [], []
        assert pile == revealed == []


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_the_end_of_the_game_reveals_the_purses_and_the_scores_add_up(config):
    """§9, §10.1, G35: the last step turns over every purse on a character card (true values) and reports each
    seat's score by category; a seat's dollars add up to ``Game.scores``; the Gunslinger bonus goes to the
    most shots only with 3-6 players. Nothing of the kind is reported before."""
    for game in _games(config):
        for step in game[:-1]:
            assert not any(e.kind in ("purse_revealed", "scored") for e in step.events)
        last = game[-1]
        final = last.after
        on_bandits = {i: int(final["purse_location"][i]) - PURSE_ON_BANDIT for i in range(N_PURSES)
                      if PURSE_ON_BANDIT <= final["purse_location"][i] < PURSE_IN_BOX}
        revealed = {e.data["purse"]: (e.data["bandit"], e.data["value"]) for e in last.events
                    if e.kind == "purse_revealed"}
        assert revealed == {i: (b, int(final["purse_value"][i])) for i, b in on_bandits.items()}
        assert all(e.seen_by == tuple(range(last.n)) for e in last.events if e.kind in ("purse_revealed", "scored"))
        scored = [e.data for e in last.events if e.kind == "scored"]
        assert [(d["seat"], d["category"]) for d in scored] == [(s, c) for s in range(last.n) for c in range(5)]
        totals = GAME.scores(final[None])[0]
        for s in range(last.n):
            mine = {d["category"]: d for d in scored if d["seat"] == s}
            assert sum(d["dollars"] for d in mine.values()) == totals[s]
            assert mine[ce.SCORE_JEWELS]["dollars"] == JEWEL_VALUE * mine[ce.SCORE_JEWELS]["count"]
            assert mine[ce.SCORE_STRONGBOXES]["dollars"] == STRONGBOX_VALUE * mine[ce.SCORE_STRONGBOXES]["count"]
            assert mine[ce.SCORE_RANSOMS]["dollars"] == RANSOM_VALUE * mine[ce.SCORE_RANSOMS]["count"]
            assert mine[ce.SCORE_PURSES]["count"] == sum(1 for b in on_bandits.values()
                                                        if b // int(final["bandits_per_seat"]) == s)
            shots = [d["count"] for d in scored if d["category"] == ce.SCORE_GUNSLINGER]
            bonus = GUNSLINGER_BONUS if last.n > 2 and mine[ce.SCORE_GUNSLINGER]["count"] == max(shots) else 0
            assert mine[ce.SCORE_GUNSLINGER]["dollars"] == bonus


# ---- hidden information (§10) -------------------------------------------------------------------------
@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_no_seat_receives_what_it_may_not_know(config):
    """§10.2-§10.4: a seat never receives another seat's drawn or set-aside cards, the face of another seat's
    face-down card before it is revealed, or the value of a purse it does not know (§10.3: a starting purse, or
    one its bandits have held, including one taken in this very step); a seat that knows a value gets it.
    Purse values become public only when the game ends (``purse_revealed``)."""
    checked = Counter()
    for step in _steps(config):
        for s in range(step.n):
            for e in step.seen(s):
                d = e.data
                if e.kind in SECRET_KINDS:
                    assert d["seat"] == s
                    checked["own cards"] += 1
                elif e.kind == "card_played" and d["face_down"] and d["seat"] != s:
                    assert d["card"] == NOBODY
                    checked["face down"] += 1
                elif e.kind in PURSE_KINDS and d["loot"] == ce.LOOT_PURSE:
                    knows_after = _knows_value(step.after, s, d["purse"])
                    if d["value"] != ce.UNKNOWN_VALUE:
                        assert knows_after, (s, e)
                        checked["value known"] += 1
                    else:
                        assert not _knows_value(step.before, s, d["purse"]) and not (
                            e.kind == "loot_taken" and knows_after), (s, e)
                        checked["value hidden"] += 1
                elif e.kind == "purse_revealed":
                    assert step.after["done"]
    assert checked["own cards"] and checked["face down"] and checked["value known"]


def _visible(events: list, seat: int) -> tuple:
    """The events ``seat`` receives: their order by kind, and their contents as a multiset, the faces of its own
    draws left out: its deck's order is hidden from it too (§10.4), so they are chance outcomes (the observation
    after a standard last-play DRAW, whose cards go straight back to the deck, cannot tell them either)."""
    mine = [(e.kind, seat if e.kind == "card_drawn" and e.data["seat"] == seat else tuple(sorted(e.data.items())),
             e.seen_by) for e in events if e.visible_to(seat)]
    return [m[0] for m in mine], Counter(mine)


@pytest.mark.parametrize("config", [0, 2, 5, 6], ids=[CONFIG_IDS[i] for i in (0, 2, 5, 6)])
def test_what_a_seat_cannot_see_does_not_change_its_events(config):
    """§10, STYLE §12: a record redrawn in what seat ``s`` cannot see (``Game.resample_hidden``: the other
    seats' cards, every deck order, the unknown purse values, the future round cards) and stepped with the same
    action (where it is legal in both) gives ``s`` the same events whenever ``s``'s observation after the step
    is the same in both; so no event tells ``s`` more than it may observe."""
    xs, seats = [], []
    for i, step in enumerate(_steps(config)):
        if i % 2 == 0:
            for s in range(step.n):
                xs.append(step.before)
                seats.append(s)
    xs = np.array(xs, dtype=GAME.state_dtype)
    seats = np.array(seats)
    rs = GAME.resample_hidden(xs, seats, np.arange(len(xs)) + 7)
    assert (GAME.observe(xs, seats) == GAME.observe(rs, seats)).all()
    rng = np.random.default_rng(config)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in GAME.legal_mask(xs)], np.int64)
    legal_in_r = GAME.legal_mask(rs)[np.arange(len(rs)), actions] == 1
    xs, rs, seats, actions = xs[legal_in_r], rs[legal_in_r], seats[legal_in_r], actions[legal_in_r]
    x_events = GAME.step_with_events(xs, actions)
    r_events = GAME.step_with_events(rs, actions)
    same_view = (GAME.observe(xs, seats) == GAME.observe(rs, seats)).all(axis=1)
    compared = Counter()
    for b in np.flatnonzero(same_view):
        s = int(seats[b])
        assert _visible(x_events[b], s) == _visible(r_events[b], s), (s, x_events[b], r_events[b])
        for e in x_events[b]:
            if e.visible_to(s) and (e.data.get("seat", s) != s or e.kind in PURSE_KINDS):
                compared[e.kind] += 1
    assert len(same_view) > 100 and same_view.mean() > 0.5
    assert compared["card_played"] and compared["cards_drawn"]


def test_the_aec_env_gives_each_agent_only_its_own_secrets():
    """The AEC env with ``events=True`` (``core.aec``): each agent's infos hold the events of the last step it
    may see, never another seat's ``card_drawn`` or another seat's face-down face (§10.2); every agent receives
    its own draws; plain play is unchanged."""
    for options in ({"num_players": 2}, {"num_players": 4}):
        env, plain = env_with_events_and_plain(colt_express_v0.env, 5, **options)
        rng = np.random.default_rng(3)
        own_draws = Counter()
        while env.agents:
            step_both(env, plain, random_legal_action(env, rng))
            for a in env.agents:
                seat = env.unwrapped.possible_agents.index(a)
                for e in env.infos[a]["events"]:
                    assert seat in e["seen_by"]
                    if e["kind"] in SECRET_KINDS:
                        assert e["seat"] == seat
                        own_draws[seat] += e["kind"] == "card_drawn"
                    if e["kind"] == "card_played" and e["face_down"] and e["seat"] != seat:
                        assert e["card"] == NOBODY
        assert sorted(own_draws) == list(range(options["num_players"]))


# ---- rulebook situations -----------------------------------------------------------------------------
def _position(characters, n=3, expert=False, marshal=0, places=(), **fields) -> np.ndarray:
    """A 3-player game (seat 0 first) with an empty train, the marshal in ``marshal`` and the bandits at
    ``places`` ``(car, level)``, then ``record[field] = value`` for each of ``fields``."""
    states = GAME.init(11, num_players=n, expert=expert, characters=characters, start_player=0)
    s = states[0]
    for i in range(N_PURSES):
        if s["purse_location"][i] < N_LOCATIONS:
            s["purse_location"][i] = PURSE_IN_BOX
    s["floor_jewels"][:] = 0
    s["floor_strongboxes"][:] = 0
    s["marshal_car"] = marshal
    for b, (car, level) in enumerate(places):
        s["bandit_car"][b], s["bandit_level"][b] = car, level
    for name, value in fields.items():
        s[name] = value
    return states


def _stealin(states: np.ndarray, pile: list[tuple], round_card: int) -> list:
    """Stealin' of the given pile (``(owner, card code[, face down])``, first played first) under
    ``round_card``: the last planner of Schemin' draws (after the hands went back to the decks) and the
    cards resolve. Returns the events of that step from the start of Stealin' on (§4.5)."""
    s = states[0]
    n = int(s["num_players"])
    for seat in range(n):  # every hand back on top of its deck, so that the last play can be a DRAW
        for code in range(BULLET_CARD + 1):
            for _ in range(int(s["hand"][seat, code])):
                s["deck"][seat, s["deck_size"][seat]] = code
                s["deck_size"][seat] += 1
        s["hand"][seat] = 0
    for i, entry in enumerate(pile):
        s["pile_owner"][i], s["pile_card"][i] = entry[0], entry[1]
        s["pile_down"][i] = 1 if len(entry) > 2 and entry[2] else 0
    s["pile_size"] = len(pile)
    s["round_deck"][s["round"]] = round_card
    icons = [int(t) for t in ROUND_CARD_TURNS[round_card] if t != TURN_NONE]
    s["turn"], s["turn_position"] = len(icons) - 1, n - 1
    s["play_in_turn"] = 1 if icons[-1] == TURN_SPEEDUP else 0
    s["decision"] = DEC_PLAN
    s["current"] = (int(s["first_player"]) + (-1 if icons[-1] == TURN_SWITCH else 1) * (n - 1)) % n
    stealin = {"round": int(s["round"]), "phase": ce.PHASE_STEALIN}
    events = _step(states, A_DRAW)
    start = next(i for i, e in enumerate(events) if e.data == stealin)
    return events[start + 1:]


def _step(states: np.ndarray, action: int) -> list:
    assert GAME.legal_mask(states)[0, action], (action, GAME.legal_action_strings(states))
    return GAME.step_with_events(states, [action])[0]


def _until_next_round(events: list) -> list:
    """The events up to the next round's start (the round transition is checked elsewhere)."""
    return [(e.kind, e.data, e.seen_by) for e in events[:next(i for i, e in enumerate(events)
                                                           if e.kind == "round_started")]]


EVERY = (0, 1, 2)
BRIDGE, SWIVEL_ARM, BRAKING, HOSTAGE = 6, 1, 2, 16  # round cards of 2-4 players, a station card (§2.6)


def test_s6_5_a_punch_knocks_a_purse_whose_value_only_its_holder_knows():
    """§6.5, §10.3: Ghost punches Doc on a roof; Doc loses a carriage purse to the roof (its value only to Doc's
    seat, -1 to the others: "the puncher does not get to see its value") and is knocked to the next car."""
    states = _position((GHOST, DOC, TUCO), places=((2, ROOF), (2, ROOF), (3, IN)))
    s = states[0]
    s["purse_location"][5] = PURSE_ON_BANDIT + 1
    s["purse_known"][1] |= 1 << 5
    value = int(s["purse_value"][5])
    events = _stealin(states, [(0, PUNCH)], BRIDGE)
    assert [(e.kind, e.data, e.seen_by) for e in events] == [
        ("card_revealed", {"index": 0, "seat": 0, "card": PUNCH, "face_down": 0}, EVERY),
        ("punched", {"bandit": 0, "victim": 1}, EVERY)]  # the only target: chosen automatically (§11.4)
    events = _step(states, A_PURSE + 5)  # PUNCH_LOOT: Doc holds purses 1 (his starting one) and 5
    assert [(e.kind, e.data, e.seen_by) for e in events] == [
        ("loot_lost", {"bandit": 1, "loot": ce.LOOT_PURSE, "purse": 5, "value": value}, (1,)),
        ("loot_lost", {"bandit": 1, "loot": ce.LOOT_PURSE, "purse": 5, "value": ce.UNKNOWN_VALUE}, (0, 2))]
    events = _step(states, A_CAR + 3)  # PUNCH_DEST
    assert _until_next_round(events) == [
        ("moved", {"bandit": 1, "car": 3, "level": ROOF, "cause": ce.MOVED_BY_PUNCH}, EVERY),
        ("round_event", {"round": 0, "event": EV_NONE}, EVERY)]
    assert s["purse_location"][5] == 2 * 2 + ROOF


def test_s7_cheyenne_pockets_the_purse_and_learns_its_value():
    """§6.5 step 3, §7, §10.3: Cheyenne's punch puts the purse on her card at once; its value goes to her seat
    and the victim's, -1 to the third seat; the victim's starting purse would be public ($250)."""
    states = _position((CHEYENNE, DOC, TUCO), marshal=3, places=((1, IN), (1, IN), (3, ROOF)))
    s = states[0]
    s["purse_location"][1] = PURSE_IN_BOX  # Doc keeps one purse only: the loot is forced too
    s["purse_location"][7] = PURSE_ON_BANDIT + 1
    s["purse_known"][1] |= 1 << 7
    value = int(s["purse_value"][7])
    events = _stealin(states, [(0, PUNCH)], BRIDGE)
    lost = {"bandit": 1, "loot": ce.LOOT_PURSE, "purse": 7}
    taken = {"bandit": 0, "loot": ce.LOOT_PURSE, "purse": 7}
    assert [(e.kind, e.data, e.seen_by) for e in events] == [
        ("card_revealed", {"index": 0, "seat": 0, "card": PUNCH, "face_down": 0}, EVERY),
        ("punched", {"bandit": 0, "victim": 1}, EVERY),
        ("loot_lost", {**lost, "value": value}, (1,)),
        ("loot_lost", {**lost, "value": ce.UNKNOWN_VALUE}, (0, 2)),
        ("loot_taken", {**taken, "value": value}, (0, 1)),
        ("loot_taken", {**taken, "value": ce.UNKNOWN_VALUE}, (2,))]
    assert s["decision"] == DEC_PUNCH_DEST  # car 0 or car 2
    events = _step(states, A_CAR + 0)
    assert _until_next_round(events)[0] == ("moved", {"bandit": 1, "car": 0, "level": IN,
                                                      "cause": ce.MOVED_BY_PUNCH}, EVERY)


def test_s6_6_the_marshal_card_drives_the_insiders_to_the_roof_with_neutral_bullets():
    """§6.6, §5.2, §5.3: the marshal moves into a car with two bandits inside; both flee to its roof and
    receive neutral bullets as one group."""
    states = _position((GHOST, DOC, TUCO), marshal=1, places=((0, ROOF), (2, IN), (2, IN)))
    events = _stealin(states, [(0, MARSHAL)], BRIDGE)
    assert [e.kind for e in events] == ["card_revealed"]  # MARSHAL_DEST: car 0 or car 2
    events = _step(states, A_CAR + 2)
    assert _until_next_round(events) == [
        ("marshal_moved", {"car": 2, "cause": ce.MARSHAL_BY_CARD}, EVERY),
        ("moved", {"bandit": 1, "car": 2, "level": ROOF, "cause": ce.MOVED_BY_MARSHAL}, EVERY),
        ("moved", {"bandit": 2, "car": 2, "level": ROOF, "cause": ce.MOVED_BY_MARSHAL}, EVERY),
        ("neutral_bullets", {"group": 0b110, "given": 2, "supply": 11, "removed": 0}, EVERY),
        ("round_event", {"round": 0, "event": EV_NONE}, EVERY)]


def test_s6_5_a_punch_without_a_target_has_no_effect():
    """§6.5 step 1: "If T is empty: no effect." The owner is asked nothing more and nobody moves (before the
    fix the owner was asked PUNCH_DEST and "bandit -1", numba's slot 5, Belle here, was knocked away, after a
    purse lying on the roof of car 6, location 13 = PURSE_ON_BANDIT - 1, was "lost" by him to the punch
    location)."""
    states = _position(tuple(range(6)), n=6, marshal=6,
                       places=((1, IN), (2, IN), (3, IN), (4, IN), (5, IN), (5, ROOF)))
    states[0]["purse_location"][9] = 6 * 2 + ROOF
    before = states.copy()
    events = _stealin(states, [(0, PUNCH)], 13)
    assert not any(e.data.get("bandit") == NOBODY for e in events)
    assert states[0]["decision"] != DEC_PUNCH_DEST and states[0]["purse_location"][9] == before[0]["purse_location"][9]


def test_s6_2_a_floor_change_into_the_marshals_car_ends_back_on_the_roof():
    """§6.2, §5.2, §5.3: coming down into the marshal's car, the bandit flees back up at once and the group of one
    gets the last neutral bullet; then Django's shot hits the only target inside a neighbouring car, who would be
    pushed off the front of the train and so stays (§6.3 step 5, §5.1: no ``moved``)."""
    states = _position((GHOST, DJANGO, TUCO), marshal=2, places=((2, ROOF), (1, IN), (0, IN)), neutral_supply=1)
    events = _stealin(states, [(0, FLOOR), (1, FIRE)], BRIDGE)
    assert _until_next_round(events) == [
        ("card_revealed", {"index": 0, "seat": 0, "card": FLOOR, "face_down": 0}, EVERY),
        ("moved", {"bandit": 0, "car": 2, "level": IN, "cause": ce.MOVED_BY_FLOOR_CHANGE}, EVERY),
        ("moved", {"bandit": 0, "car": 2, "level": ROOF, "cause": ce.MOVED_BY_MARSHAL}, EVERY),
        ("neutral_bullets", {"group": 0b1, "given": 1, "supply": 0, "removed": 0}, EVERY),
        ("card_revealed", {"index": 1, "seat": 1, "card": FIRE, "face_down": 0}, EVERY),
        ("fired", {"bandit": 1, "target": 2, "bullets_left": 5}, EVERY),
        ("round_event", {"round": 0, "event": EV_NONE}, EVERY)]


def test_s8_3_braking_and_s8_2_swivel_arm_move_the_roofs():
    """§8.3: Braking moves every roof bandit but the locomotive's one car forward, simultaneously; §8.2: Swivel
    Arm sweeps every roof to the last car (a bandit already there is not reported: he does not move)."""
    braking = _position((GHOST, DOC, TUCO), marshal=1, places=((0, ROOF), (2, ROOF), (3, IN)))
    assert _until_next_round(_stealin(braking, [], BRAKING)) == [
        ("round_event", {"round": 0, "event": EV_BRAKING}, EVERY),
        ("moved", {"bandit": 1, "car": 1, "level": ROOF, "cause": ce.MOVED_BY_BRAKING}, EVERY)]
    swivel = _position((GHOST, DOC, TUCO), marshal=3, places=((0, ROOF), (3, ROOF), (1, IN)))
    assert _until_next_round(_stealin(swivel, [], SWIVEL_ARM)) == [
        ("round_event", {"round": 0, "event": EV_SWIVEL_ARM}, EVERY),
        ("moved", {"bandit": 0, "car": 3, "level": ROOF, "cause": ce.MOVED_BY_SWIVEL_ARM}, EVERY)]


def test_s4_3_a_face_down_card_shows_its_face_to_its_owner_alone_until_it_is_revealed():
    """§4.3, §4.5, §7 Ghost: Ghost's face-down card in the first turn: the owner is told the card, the others
    get card -1 at the same pile index; Stealin' reveals it to everybody."""
    states = GAME.init(4, num_players=3, characters=(GHOST, DOC, TUCO), start_player=0)
    code = int(np.flatnonzero(states[0]["hand"][0][:N_CARD_CODES])[0])
    events = _step(states, A_PLAY_DOWN + code)
    assert [(e.kind, e.data, e.seen_by) for e in events] == [
        ("card_played", {"seat": 0, "card": code, "face_down": 1, "index": 0}, (0,)),
        ("card_played", {"seat": 0, "card": NOBODY, "face_down": 1, "index": 0}, (1, 2))]
    revealed = []
    while not revealed:
        mask = GAME.legal_mask(states)[0]
        action = A_DRAW if mask[A_DRAW] else int(np.flatnonzero(mask)[0])
        revealed = [e for e in _step(states, action) if e.kind == "card_revealed" and e.data["index"] == 0]
    assert revealed[0].data == {"index": 0, "seat": 0, "card": code, "face_down": 1}
    assert revealed[0].seen_by == EVERY


def test_s4_4_an_expert_keep_decision_shows_only_its_result_to_the_others():
    """§4.4, G33: during an expert KEEP decision each card set aside is told to its seat alone; when the choice
    ends everybody learns how many cards stayed in hand and how many went to the discard pile."""
    states = GAME.init(2, num_players=3, expert=True, characters=(GHOST, DOC, TUCO))
    rng = np.random.default_rng(0)
    while states[0]["decision"] != DEC_KEEP:
        _step(states, int(rng.choice(np.flatnonzero(GAME.legal_mask(states)[0]))))
    s = states[0]
    seat = int(s["current"])
    hand = s["hand"][seat].copy()
    code = int(np.flatnonzero(hand[:N_CARD_CODES])[0])
    events = _step(states, A_DISCARD + code)
    if hand[:N_CARD_CODES].sum() > 1:
        assert [(e.kind, e.data, e.seen_by) for e in events] == [
            ("card_set_aside", {"seat": seat, "card": code}, (seat,))]
        events = _step(states, A_KEEP_REST)
    else:
        assert (events[0].kind, events[0].seen_by) == ("card_set_aside", (seat,))
        events = events[1:]
    kept = int(hand[:N_CARD_CODES].sum()) - 1
    assert (events[0].kind, events[0].data, events[0].seen_by) == (
        "cards_kept", {"seat": seat, "kept": kept, "discarded": 1 + int(hand[BULLET_CARD])}, EVERY)


def test_s4_2_a_round_starts_with_its_card_and_each_seats_shuffle_and_draw():
    """§4.2, §4.7, §7 Doc: after the round's event the next round starts: its card and the new first player (the
    left neighbour), then, clockwise from him, each seat's deck shuffle and draw (the cards to the seat alone,
    their number to everybody; Doc draws 7), then Schemin'."""
    states = _position((GHOST, DOC, TUCO), marshal=3, places=((0, ROOF), (1, IN), (2, IN)))
    events = _stealin(states, [], BRIDGE)
    assert (events[0].kind, events[0].data) == ("round_event", {"round": 0, "event": EV_NONE})
    s = states[0]
    expected = [("round_started", {"round": 1, "round_card": int(s["round_deck"][1]), "first_player": 1}, EVERY)]
    for seat in (1, 2, 0):
        drawn = [e for e in events if e.kind == "card_drawn" and e.data["seat"] == seat]
        assert sorted(e.data["card"] for e in drawn) == sorted(np.repeat(np.arange(13), s["hand"][seat]).tolist())
        expected += [("deck_shuffled", {"seat": seat, "cards": len(drawn) + int(s["deck_size"][seat]),
                                        "from_discard": 0}, EVERY)]
        expected += [(e.kind, e.data, (seat,)) for e in drawn]
        expected += [("cards_drawn", {"seat": seat, "count": 7 if seat == 1 else 6, "known_bullets": 0}, EVERY)]
    expected.append(("phase_started", {"round": 1, "phase": ce.PHASE_SCHEMIN}, EVERY))
    assert [(e.kind, e.data, e.seen_by) for e in events[1:]] == expected


def test_s8_8_hostage_of_the_conductor_then_the_end_of_the_game():
    """§8.8, §9, G35: in the fifth round Hostage of the Conductor gives each bandit at the locomotive a $250
    ransom; then the purses on the character cards are turned over and every seat's score is reported."""
    states = _position((GHOST, DOC, TUCO), marshal=3, places=((0, ROOF), (0, IN), (2, IN)), round=4)
    s = states[0]
    events = [(e.kind, e.data, e.seen_by) for e in _stealin(states, [], HOSTAGE)]
    ransom = {"loot": ce.LOOT_RANSOM, "purse": NOBODY, "value": RANSOM_VALUE}
    assert events[:3] == [("round_event", {"round": 4, "event": int(ROUND_CARD_EVENT[HOSTAGE])}, EVERY),
                          ("loot_taken", {"bandit": 0, **ransom}, EVERY),
                          ("loot_taken", {"bandit": 1, **ransom}, EVERY)]
    assert s["done"]
    assert events[3:6] == [("purse_revealed", {"purse": b, "value": int(s["purse_value"][b]), "bandit": b}, EVERY)
                           for b in range(3)]  # the starting purses (§10.3)
    scores = GAME.scores(states)[0]
    assert [k for k, _, _ in events[6:]] == ["scored"] * 15
    for seat in range(3):
        assert sum(d["dollars"] for _, d, _ in events[6:] if d["seat"] == seat) == scores[seat]
    assert events[6 + 3][1] == {"seat": 0, "category": ce.SCORE_RANSOMS, "count": 1, "dollars": RANSOM_VALUE}
