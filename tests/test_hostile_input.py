"""Hostile input to every public entry point of every registered game (hypothesis property tests).

Numba kernels do not check array bounds, so one bad index could crash the
process instead of raising. Every entry point is fed bad values here: actions
of the wrong type, negative, huge, float, numpy scalars of every integer type,
``None`` at the wrong time, steps after the end; saved states mutated field by
field and byte by byte (out-of-range indices, wrong types, missing or extra
fields, inconsistent counts); unknown and out-of-range options; bad seats,
seeds, buffers and batches. Each must raise a clear ``TypeError``,
``ValueError``, ``KeyError`` or ``RuntimeError`` whose message names the
problem, change nothing, and leave the env usable. A mutated saved state that
*loads* must be a valid state that every kernel handles; the in-process tests
check that it validates and reads back, and ``test_boundscheck.py`` loads
mutated states with numba's bounds checking on and plays from them, where a
missed index is an ``IndexError`` instead of a silent read or write.

Hypothesis runs derandomized (the same examples on every run, so CI is
reproducible) with a bounded number of examples per test.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests._play import action_rngs, mid_game_states, play_to_end, sample_legal
from tests.conftest import GAME_NAMES
from wildwest_envs import make
from wildwest_envs.core.vector import VectorEnv
from wildwest_envs.registry import get_game

CLEAR_ERRORS = (TypeError, ValueError, KeyError, RuntimeError)
HYPOTHESIS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
INTEGER_TYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                 np.intc, np.uintc, np.intp, np.uintp, np.longlong, np.ulonglong)
HUGE = [2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30, -(2**63), -(10**30)]

# values that are not an action id (the size of the action space is added per game)
NOT_AN_ACTION = st.one_of(
    st.integers(max_value=-1), st.sampled_from(HUGE),
    st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(), st.text(max_size=5), st.binary(max_size=5),
    st.booleans(), st.lists(st.integers(0, 3), max_size=3), st.tuples(st.integers(0, 3)),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2), st.just(object()), st.just(float("nan")),
    st.sampled_from([np.float32(1.0), np.float64(0.0), np.bool_(True), np.array([1]), np.array([[0]]),
                     np.array(1.0), np.str_("1"), np.complex64(1)]),
)
# values an option may be given by mistake (the option's own default and valid values are not in here)
ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.sampled_from(HUGE), st.floats(allow_nan=True),
    st.text(max_size=6), st.lists(st.integers(-2, 9), max_size=7), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                                      max_size=2),
    st.sampled_from([np.int8(-1), np.uint64(2**64 - 1), np.float32("nan"), (), b"3", object(), math.inf]),
)


def _game_strategy():
    return st.sampled_from(GAME_NAMES)


def _started_env(name: str, seed: int = 3):
    env = make(name)
    env.reset(seed=seed)
    return env


def _legal_actions(env) -> np.ndarray:
    return np.flatnonzero(env.observe(env.agent_selection)["action_mask"])


def _assert_clear(error: BaseException, *words: str) -> None:
    """The message of ``error`` is not empty and mentions each of ``words`` (case-insensitive)."""
    message = str(error).lower()
    assert message.strip(), f"{type(error).__name__} without a message"
    for word in words:
        assert word.lower() in message, f"{word!r} not in {message!r}"


# ---- AEC env: actions --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
@HYPOTHESIS
@given(action=NOT_AN_ACTION)
def test_env_rejects_what_is_not_an_action_and_changes_nothing(name, action):
    """Wrong types, negative, huge, float, arrays, None-like: a clear error; the env plays on afterwards."""
    env = _started_env(name)
    raw = env.unwrapped
    before = raw.states.tobytes()
    with pytest.raises((TypeError, ValueError)) as error:
        env.step(action)
    _assert_clear(error.value, "action")
    assert raw.states.tobytes() == before
    env.step(int(_legal_actions(env)[0]))
    assert raw.states.tobytes() != before


@pytest.mark.parametrize("name", GAME_NAMES)
@HYPOTHESIS
@given(data=st.data())
def test_env_rejects_out_of_range_and_illegal_integers_of_every_type(name, data):
    """Every integer type, out of range or illegal: ValueError naming the action; legal ones of every type work."""
    env = _started_env(name)
    raw = env.unwrapped
    n = raw.game.n_actions
    legal = _legal_actions(env)
    illegal = np.setdiff1d(np.arange(n), legal)
    kind = data.draw(st.sampled_from(INTEGER_TYPES))
    info = np.iinfo(kind)
    fits = [int(v) for v in illegal if v <= info.max]
    value = data.draw(st.one_of(st.integers(max(info.min, -(2**70)), -1) if info.min < 0 else st.nothing(),
                                st.integers(n, info.max) if info.max >= n else st.nothing(),
                                st.sampled_from(fits) if fits else st.nothing()))
    before = raw.states.tobytes()
    with pytest.raises(ValueError) as error:
        env.step(kind(value))
    _assert_clear(error.value, str(value))
    assert raw.states.tobytes() == before
    reference = _started_env(name)
    reference.step(int(legal[0]))
    if info.max >= legal[0]:
        env.step(kind(legal[0]))
        assert raw.states.tobytes() == reference.unwrapped.states.tobytes()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_env_none_before_the_end_and_steps_after_it(name):
    """``None`` while a decision is pending is refused; after the end only ``None`` is accepted, then
    nothing: the raw env raises, the wrapped env warns (PettingZoo's wrapper) and changes nothing; reset plays again."""
    env = _started_env(name)
    raw = env.unwrapped
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    rngs = action_rngs([0])
    out = np.zeros(1, dtype=np.int64)
    finished_once = False
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if not finished_once:  # a finished agent may only step None
                finished_once = True
                before = raw.states.tobytes()
                with pytest.raises(ValueError, match="None"):
                    env.step(int(np.argmax(obs["action_mask"])))
                assert raw.states.tobytes() == before
            env.step(None)
            continue
        sample_legal(obs["action_mask"][None], rngs, out)
        env.step(int(out[0]))
    assert env.agents == []
    before = raw.states.tobytes()
    for late in (None, 0, -1):
        with pytest.raises(RuntimeError, match="reset"):
            raw.step(late)
        env.step(late)  # the OrderEnforcingWrapper warns and ignores it
        assert raw.states.tobytes() == before
    env.reset(seed=4)
    env.step(int(_legal_actions(env)[0]))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_env_before_reset_and_unknown_agents(name):
    """Stepping or observing before ``reset`` and unknown agent names are clear errors."""
    raw = make(name).unwrapped
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        raw.observe("player_0")
    env = _started_env(name)
    for agent in ("player_99", "", None, 0, "player_-1"):
        with pytest.raises(KeyError, match="unknown agent"):
            env.observe(agent)
        with pytest.raises(KeyError, match="unknown agent"):
            env.action_space(agent)
        with pytest.raises(KeyError, match="unknown agent"):
            env.observation_space(agent)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("seed", [1.5, "3", [1], True, np.float64(2.0), b"1", object()])
def test_env_rejects_a_seed_that_is_not_an_integer(name, seed):
    """``reset(seed=...)`` takes an integer (any size, negative included) or None; anything else is a TypeError."""
    env = make(name)
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed=seed)
    for fine in (0, -5, 2**80, np.int8(3), np.uint64(2**64 - 1), None):
        env.reset(seed=fine)
    a, b = make(name), make(name)
    a.reset(seed=-5)
    b.reset(seed=-5)
    assert a.unwrapped.states.tobytes() == b.unwrapped.states.tobytes()


# ---- options ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
@HYPOTHESIS
@given(data=st.data())
def test_odd_option_values_are_refused_or_give_a_working_game(name, data):
    """Any option given an odd value: a clear ValueError/TypeError naming the option, or a game that plays."""
    game = get_game(name)
    option = data.draw(st.sampled_from(sorted(game.parse_options())))
    value = data.draw(ODD_VALUES)
    try:
        env = make(name, **{option: value})
    except (TypeError, ValueError) as error:
        _assert_clear(error, option.rstrip("s"))  # the option, or its singular ("unknown character 9")
        return
    env.reset(seed=1)
    raw = env.unwrapped
    states = raw.states.copy()
    play_to_end(game, states, action_rngs([0]), max_steps=30)
    assert not game.invariant_violations(states)


@pytest.mark.parametrize("name", GAME_NAMES)
@HYPOTHESIS
@given(option=st.text(min_size=1, max_size=12).filter(str.isidentifier), value=ODD_VALUES)
def test_unknown_options_are_refused(name, option, value):
    """An option the game does not have is a ValueError naming it, whatever its value."""
    game = get_game(name)
    if option in game.parse_options() or option in ("render_mode", "reward_mode", "self", "batch_size", "seed",
                                                       "offset"):
        return
    with pytest.raises(ValueError, match="option"):
        make(name, **{option: value})
    with pytest.raises(ValueError, match="option"):
        game.init_batch(1, 0, **{option: value})


@pytest.mark.parametrize("name", GAME_NAMES)
@HYPOTHESIS
@given(reward_mode=ODD_VALUES, render_mode=ODD_VALUES)
def test_bad_reward_and_render_modes(name, reward_mode, render_mode):
    """``reward_mode`` / ``render_mode`` outside their choices are ValueErrors naming them."""
    valid_reward_mode = isinstance(reward_mode, str) and reward_mode in ("win", "rank", "score", "margin")
    if valid_reward_mode or isinstance(render_mode, str):
        return  # text may happen to be a valid mode; other text is covered by test_core_api
    if reward_mode is not None:
        with pytest.raises(ValueError, match="reward_mode"):
            make(name, reward_mode=reward_mode)
    if render_mode is not None:
        with pytest.raises(ValueError, match="render_mode"):
            make(name, render_mode=render_mode)
    with pytest.raises(ValueError, match="reward_mode"):
        get_game(name).returns(get_game(name).init_batch(1), reward_mode if reward_mode is not None else "nope")


# ---- batched API ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=GAME_NAMES)
def positions(request):
    """``(game, states)``: random unfinished mid-game positions of every player count."""
    game = get_game(request.param)
    return game, mid_game_states(game, 3, 17)


BAD_ACTION_ARRAYS = st.one_of(
    st.none(), st.floats(), st.text(max_size=3), st.just([None]), st.just([[0]]), st.just(np.array([1.0])),
    st.just(np.array([True])), st.just(np.array(["1"])), st.just(np.array([1 + 0j])), st.just(np.array([object()])),
    st.lists(st.integers(), max_size=3), st.sampled_from(HUGE),
)


@HYPOTHESIS
@given(data=st.data())
def test_batched_step_rejects_bad_action_arrays(positions, data):
    """``Game.step``: wrong shape, dtype, out-of-range or illegal actions raise and change no game."""
    game, states = positions
    states = states.copy()
    n = len(states)
    masks = game.legal_mask(states)
    good = np.argmax(masks, axis=1)
    kind = data.draw(st.sampled_from(["array", "value", "dtype"]))
    actions = good.copy()
    if kind == "array":
        actions = data.draw(BAD_ACTION_ARRAYS)
        if isinstance(actions, list) and len(actions) == n and all(isinstance(a, int) for a in actions):
            actions = actions + [0]  # a list of the right length of integers could be legal: make it too long
    elif kind == "value":
        b = data.draw(st.integers(0, n - 1))
        actions[b] = data.draw(st.one_of(st.integers(-(2**63), -1), st.integers(game.n_actions, 2**63 - 1),
                                         st.sampled_from(np.flatnonzero(masks[b] == 0).tolist() or [-1])))
    else:  # an out-of-range value in an array of another integer type (no wrap-around on the way in)
        fits = [t for t in INTEGER_TYPES if np.iinfo(t).max >= max(int(good.max()), game.n_actions)]
        dtype = data.draw(st.sampled_from(fits))
        info = np.iinfo(dtype)
        actions = good.astype(dtype)
        actions[data.draw(st.integers(0, n - 1))] = data.draw(st.sampled_from(
            [int(info.max), game.n_actions] + ([int(info.min), -1] if info.min < 0 else [])))
    before = states.tobytes()
    with pytest.raises((TypeError, ValueError)) as error:
        game.step(states, actions)
    _assert_clear(error.value, "action")
    assert states.tobytes() == before
    game.step(states, good)  # still usable


def test_finished_games_ignore_whatever_action_they_get(positions):
    """The actions of finished games (ended, or at the decision cap) are ignored, even out-of-range ones."""
    game, states = positions
    states = states[:4].copy()
    play_to_end(game, states, action_rngs(range(len(states))))
    before = states.tobytes()
    for value in (-1, game.n_actions, 2**40, -(2**62)):
        game.step(states, np.full(len(states), value, dtype=np.int64))
        assert states.tobytes() == before
    capped = game.init_batch(3, 0, max_decisions=2)
    play_to_end(game, capped, action_rngs(range(3)))
    assert game.truncated(capped).all()
    before = capped.tobytes()
    game.step(capped, np.full(3, 10**9, dtype=np.int64))
    game.step(capped, np.argmax(game.legal_mask(capped), axis=1))
    assert capped.tobytes() == before


@HYPOTHESIS
@given(data=st.data())
def test_batched_calls_reject_bad_states_seats_seeds_and_buffers(positions, data):
    """States of another dtype or shape, read-only batches, bad seats, seeds and ``out`` buffers: clear errors."""
    game, states = positions
    states = states.copy()
    before = states.tobytes()
    n = len(states)
    calls = {
        "states of another dtype": lambda: game.legal_mask(np.zeros(n, dtype=[("current", np.int8)])),
        "plain integers as states": lambda: game.step(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)),
        "a list of records": lambda: game.observe(list(states)),
        "2-D states": lambda: game.scores(states.reshape(1, n)),
        "read-only states": lambda: game.step(_read_only(states), np.argmax(game.legal_mask(states), axis=1)),
        "small mask buffer": lambda: game.legal_mask(states, np.zeros((n, 3), dtype=np.int8)),
        "mask buffer of another dtype": lambda: game.legal_mask(states, np.zeros((n, game.n_actions), dtype=np.int64)),
        "short mask buffer": lambda: game.legal_mask(states, np.zeros((max(n - 1, 0), game.n_actions), dtype=np.int8)),
        "strided mask buffer": lambda: game.legal_mask(states, np.zeros((n, 2 * game.n_actions), np.int8)[:, ::2]),
        "small observation buffer": lambda: game.observe(states, 0, np.zeros((n, 1), dtype=np.float32)),
        "float64 observation buffer": lambda: game.observe(states, 0, np.zeros((n, game.obs_size))),
        "seat too big": lambda: game.observe(states, data.draw(st.integers(game.max_players, 2**62))),
        "negative seat": lambda: game.observe(states, data.draw(st.integers(-(2**62), -1))),
        "float seat": lambda: game.observe(states, data.draw(st.floats())),
        "bool seat": lambda: game.observe(states, True),
        "seats of the wrong length": lambda: game.observe(states, np.zeros(n + 1, dtype=np.int64)),
        "text seeds": lambda: game.reseed(states, "seed"),
        "float seeds": lambda: game.reseed(states, np.ones(n) * 0.5),
        "seeds of the wrong length": lambda: game.reseed(states, np.arange(n + 2)),
        "float init seeds": lambda: game.init([1.5, 2.5]),
        "object init seeds": lambda: game.init([2**70]),
        "negative batch size": lambda: game.init_batch(-1),
        "float batch size": lambda: game.init_batch(2.5),
        "bad action for a name": lambda: game.action_to_string(states[0], data.draw(NOT_AN_ACTION)),
        "another game's record": lambda: game.render_ansi(np.zeros(1, dtype=[("x", np.int8)])),
        "a batch as one record": lambda: game.to_json(states),
        "a number as an action name": lambda: game.string_to_action(states[0], 3),
        "bad reward mode": lambda: game.returns(states, data.draw(ODD_VALUES.filter(
            lambda v: not (isinstance(v, str) and v in ("win", "rank", "score", "margin"))))),
    }
    if game.resample_hidden_fn is not None:
        calls["resample for a seat out of range"] = lambda: game.resample_hidden(states, game.max_players, 0)
        calls["resample with float seeds"] = lambda: game.resample_hidden(states, 0, 0.5)
    what = data.draw(st.sampled_from(sorted(calls)))
    with pytest.raises(CLEAR_ERRORS):
        calls[what]()
    assert states.tobytes() == before, what


def _read_only(states: np.ndarray) -> np.ndarray:
    view = states.view()
    view.flags.writeable = False
    return view


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_env_rejects_bad_actions_and_plays_on(name):
    """``VectorEnv.step`` checks its actions (through ``Game.step``) and changes nothing on a bad batch."""
    game = get_game(name)
    venv = VectorEnv(game, 4, seed=0)
    step = venv.reset()
    before = venv.states.tobytes()
    for bad in (None, np.zeros(3, np.int64), np.full(4, -1), np.full(4, 1.0), np.full(4, game.n_actions)):
        with pytest.raises(ValueError):
            venv.step(bad)
        assert venv.states.tobytes() == before
    venv.step(np.argmax(step.masks, axis=1))


# ---- saved states: JSON field by field -----------------------------------------------------------------
@pytest.fixture(scope="module", params=GAME_NAMES)
def saved(request):
    """``(game, documents)``: saved JSON documents of random mid-game positions of every player count."""
    game = get_game(request.param)
    states = mid_game_states(game, 2, 23)
    return game, [json.loads(game.to_json(s)) for s in states]


def _check_loaded(game, states: np.ndarray) -> None:
    """A loaded state is valid and reads back: invariants, every seat's observation, the mask, JSON, text.

    Nothing here writes through an index taken from the state: playing from loaded mutated states
    (and redrawing them) runs under numba's bounds checking in ``test_boundscheck.py``, where a
    validation gap is an ``IndexError`` rather than a write out of range in this process.
    """
    game.validate(states)
    assert not game.invariant_violations(states)
    game.legal_mask(states)
    for seat in range(int(states["num_players"][0])):
        game.observe(states, seat)
    assert game.from_json(game.to_json(states[0])).tobytes() == states.tobytes()
    game.render_ansi(states[0])


def _field_values(dtype: np.dtype, current):
    """Hostile replacements for one field: wrong types and shapes, extremes of its type, near its value."""
    base = dtype.base
    if base == np.bool_:
        extremes = [0, 1, 2, -1, None, "true", [True]]
    else:
        info = np.iinfo(base)
        near = [int(v) for v in np.asarray(current).reshape(-1)[:1]] or [0]
        extremes = [info.min, info.max, info.max + 1, info.min - 1, -1, 0, 1, near[0] + 1, near[0] - 1,
                    1.5, "1", None, True, [], {}, float("nan")]
    return st.sampled_from(extremes)


@HYPOTHESIS
@given(data=st.data())
def test_json_fields_mutated_one_by_one_are_refused_or_valid(saved, data):
    """One field (or one element of an array field) replaced by a hostile value: refused with the field named, or
    a valid state that plays."""
    game, documents = saved
    document = json.loads(json.dumps(documents[data.draw(st.integers(0, len(documents) - 1), label="position")]))
    fields = document["state"]
    name = data.draw(st.sampled_from(sorted(fields)))
    field_dtype = game.state_dtype.fields[name][0]
    value = data.draw(_field_values(field_dtype, fields[name]))
    if field_dtype.shape and data.draw(st.booleans()):  # one element of an array field
        flat = np.array(fields[name], dtype=object).reshape(-1)
        flat[data.draw(st.integers(0, len(flat) - 1))] = value
        fields[name] = flat.reshape(field_dtype.shape).tolist()
    else:
        fields[name] = value
    try:
        states = game.from_json(json.dumps(document))
    except ValueError as error:
        message = str(error)
        if message.startswith("invalid saved state"):  # a type, shape or range error names its field
            assert repr(name) in message, message
        assert message.strip()
        return
    _check_loaded(game, states)


@HYPOTHESIS
@given(data=st.data())
def test_json_documents_broken_in_structure_are_refused(saved, data):
    """Missing or extra fields, wrong top-level shapes, deep nesting, huge numbers, odd bytes: ValueError."""
    game, documents = saved
    document = documents[data.draw(st.integers(0, len(documents) - 1), label="position")]
    fields = document["state"]
    name = data.draw(st.sampled_from(sorted(fields)))
    cases = [
        json.dumps({"game": game.name, "state": {k: v for k, v in fields.items() if k != name}}),
        json.dumps({"game": game.name, "state": dict(fields, **{data.draw(st.text(min_size=1, max_size=8))
                                                                  .strip() or "x" + "_extra": 0})}),
        json.dumps({"game": game.name}), json.dumps({"state": fields}), json.dumps([game.name, fields]),
        json.dumps({"game": game.name, "state": list(fields.values())}), "null", "3", '"text"', "",
        json.dumps({"game": None, "state": fields}), json.dumps({"game": game.name, "state": fields, "more": 1}),
        json.dumps({"game": game.name, "state": dict(fields, **{name: [[[[[0]]]]]})}),
        json.dumps({"game": game.name, "state": dict(fields, **{name: 10**400})}),
        "[" * 100_000 + "]" * 100_000,
        '{"game": "' + game.name + '", "state": ' + "[" * 50_000 + "]" * 50_000 + "}",
        b"\xff\xfe\x00",
    ]
    text = cases[data.draw(st.integers(0, len(cases) - 1), label="case")]
    if text == cases[1] and name in fields and json.loads(text)["state"].keys() == fields.keys():
        return
    with pytest.raises(ValueError) as error:
        game.from_json(text)
    assert str(error.value).strip()
    for not_text in (None, 3, fields, [text]):
        with pytest.raises(ValueError, match="JSON"):
            game.from_json(not_text)


# ---- saved states: bytes ------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=GAME_NAMES)
def saved_bytes(request):
    """``(game, records)``: raw bytes of random mid-game positions of every player count."""
    game = get_game(request.param)
    states = mid_game_states(game, 2, 29)
    return game, [game.to_bytes(states[b:b + 1]) for b in range(len(states))]


@HYPOTHESIS
@given(data=st.data())
def test_bytes_mutated_are_refused_or_valid(saved_bytes, data):
    """A saved record with random bytes overwritten: ``from_bytes`` refuses it or returns a valid state that plays."""
    game, records = saved_bytes
    record = bytearray(records[data.draw(st.integers(0, len(records) - 1), label="position")])
    for _ in range(data.draw(st.integers(1, 4))):
        record[data.draw(st.integers(0, len(record) - 1))] = data.draw(st.integers(0, 255))
    try:
        states = game.from_bytes(bytes(record))
    except ValueError as error:
        assert "invalid" in str(error)
        return
    _check_loaded(game, states)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bytes_of_the_wrong_length_or_type_are_refused(name):
    """Saved bytes must be whole records; other objects are TypeErrors."""
    game = get_game(name)
    data = game.to_bytes(game.init_batch(2))
    assert game.from_bytes(data).tobytes() == data
    for cut in (b"", data[:-1], data + b"\x00", data[:game.state_bytes // 2]):
        with pytest.raises(ValueError, match="whole number of records"):
            game.from_bytes(cut)
    for not_bytes in (None, "text", 3, list(data[:4]), np.frombuffer(data, np.uint8)):
        with pytest.raises(TypeError, match="bytes"):
            game.from_bytes(not_bytes)
