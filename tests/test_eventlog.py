"""Event logs (``core.eventlog``, issue 19 item 3): events cost nothing unless asked for, match the state,
respect what each seat may see, and reach the AEC env's infos."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tests._events import env_with_events_and_plain, random_legal_action, step_both
from wildwest_envs import wild_west_express_v0
from wildwest_envs.core.eventlog import EVERYONE, Event, EventKind, EventKinds, emit, logged_dtype, to_logged
from wildwest_envs.registry import get_game

TOY = np.dtype([("x", np.int32), ("num_players", np.int8)])
TOY_KINDS = EventKinds(EventKind(1, "moved", ("to",)), EventKind(2, "secret", ("card",)))


@njit(cache=True)
def _toy_step(states):
    for b in range(states.shape[0]):
        states[b]["x"] += 1
        emit(states[b], 1, EVERYONE, states[b]["x"], 0, 0, 0)
        emit(states[b], 2, 1 << 1, 40 + states[b]["x"], 0, 0, 0)


def test_emit_is_a_no_op_on_plain_records_and_writes_on_logged_ones():
    plain = np.zeros(2, TOY)
    plain["num_players"] = 3
    _toy_step(plain)
    assert plain["x"].tolist() == [1, 1]
    logged = to_logged(plain, 4)
    _toy_step(logged)
    assert logged["x"].tolist() == [2, 2] and logged["n_events"].tolist() == [2, 2]
    events = TOY_KINDS.decode(logged["events"][0, :2], 3)
    assert events == [Event("moved", {"to": 2}, (0, 1, 2)), Event("secret", {"card": 42}, (1,))]
    assert not events[1].visible_to(0) and events[1].visible_to(1)


def test_a_full_buffer_counts_past_its_end():
    logged = to_logged(np.zeros(1, TOY), 1)
    _toy_step(logged)
    assert logged["n_events"][0] == 2 and logged["events"][0, 0, 0] == 1  # the second event did not fit


def test_a_buffer_from_a_later_event_keeps_that_event_and_the_next():
    """``events_from``: the rows start at that event (a step run again for the events its first buffer missed)."""
    logged = to_logged(np.zeros(1, TOY), 1, events_from=1)
    logged["num_players"] = 3
    _toy_step(logged)
    assert logged["n_events"][0] == 2 and TOY_KINDS.decode(logged["events"][0], 3) == [
        Event("secret", {"card": 41}, (1,))]


def test_kind_tables_are_checked():
    with pytest.raises(ValueError, match="distinct"):
        EventKinds(EventKind(1, "a"), EventKind(1, "b"))
    with pytest.raises(ValueError, match="at most 4 arguments"):
        EventKind(3, "c", ("p", "q", "r", "s", "t"))
    with pytest.raises(ValueError, match="unknown event code 9"):
        TOY_KINDS.decode(np.array([[9, -1, 0, 0, 0, 0]], np.int32), 2)
    assert logged_dtype(TOY, 8).names[:3] == ("n_events", "events_from", "events")


def _play_with_events(game, seed: int, steps: int):
    states = game.init(seed, num_players=3)
    twin = states.copy()
    rng = np.random.default_rng(seed)
    log = []
    for _ in range(steps):
        if game.finished(states)[0]:
            break
        action = int(rng.choice(np.flatnonzero(game.legal_mask(states)[0])))
        log.append(game.step_with_events(states, [action])[0])
        game.step(twin, [action])
        assert states.tobytes() == twin.tobytes()  # events change nothing in the game
    return states, log


def test_wild_west_express_dice_events_match_the_state():
    game = get_game("wild_west_express_v0")
    states = game.init(5, num_players=3)
    game.script(states, [2, 6, 4], then="random")
    rng = np.random.default_rng(0)
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(game.legal_mask(states)[0])))
        active = int(states["active"][0])
        events = game.step_with_events(states, [action])[0]
        rolls = [e for e in events if e.kind == "dice_rolled"]
        if rolls:
            assert rolls[0].data == {"seat": active, "a": 6, "b": 4, "c": 2}  # the scripted dice (§6.4)
            assert rolls[0].seen_by == (0, 1, 2)
            break
    else:
        raise AssertionError("no roll")


def test_events_change_nothing_in_play():
    _play_with_events(get_game("wild_west_express_v0"), 3, 150)


def test_the_aec_env_puts_each_agents_events_into_its_infos():
    env, plain = env_with_events_and_plain(wild_west_express_v0.env, 2, num_players=3)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(200):
        if not env.agents:
            break
        step_both(env, plain, random_legal_action(env, rng))
        if env.agents:
            seen += sum(len(env.infos[a]["events"]) for a in env.agents)
            assert all("events" not in plain.infos[a] for a in plain.agents)
    assert seen > 0
    with pytest.raises(ValueError, match="events must be True or False"):
        wild_west_express_v0.env(events="yes")
