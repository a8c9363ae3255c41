"""The batched ``Game`` API, saving/loading and bad input, for every registered game."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from tests.conftest import GAME_NAMES, decision_budget, random_game_length
from wildwest_envs import make
from wildwest_envs.core import checks
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.core.vector import VectorEnv
from wildwest_envs.registry import canonical_name, get_game


def play_random(game, states, n_steps: int, seed: int = 0) -> None:
    """Advance every game of ``states`` by up to ``n_steps`` uniform legal actions."""
    sample = LegalSampler(len(states), seed)
    for _ in range(n_steps):
        if game.finished(states).all():
            break
        game.step(states, sample(game.legal_mask(states)), check=False)


def mid_game_state(game, seed: int = 0, n_steps: int = 40, **options):
    states = game.init_batch(1, seed, **options)
    play_random(game, states, n_steps, seed)
    return states


# ---- registry and make ------------------------------------------------------------
def test_make_accepts_short_and_versioned_names():
    """``make`` knows every game by its short and its versioned name."""
    for name in GAME_NAMES:
        short = name.rsplit("_v", 1)[0]
        assert canonical_name(short) == name
        assert make(short).unwrapped.metadata["name"] == name


def test_make_rejects_an_unknown_game():
    """An unknown game name is a clear ValueError listing the registered games."""
    with pytest.raises(ValueError, match="unknown game 'chess'.*colt_express_v0"):
        make("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_option_is_rejected(name):
    """An unknown option names itself and the known ones."""
    with pytest.raises(ValueError, match="unknown .*option.*'speed'"):
        make(name, speed=3)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("bad", [0, 1, 99, -3, 2.5, "three", True, None])
def test_wrong_player_count_is_rejected(name, bad):
    """A player count outside the game's range (or not an integer) is a clear ValueError."""
    with pytest.raises(ValueError, match="num_players"):
        make(name, num_players=bad)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_reward_and_render_modes_are_rejected(name):
    """``reward_mode`` and ``render_mode`` are checked when the env is built."""
    with pytest.raises(ValueError, match="reward_mode"):
        make(name, reward_mode="money")
    with pytest.raises(ValueError, match="render_mode"):
        make(name, render_mode="svg")


# ---- stepping: bad actions change nothing ----------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_illegal_and_malformed_actions_raise_and_change_nothing(name):
    """Illegal, out-of-range, float, bool and None actions raise ValueError; the state is unchanged."""
    env = make(name)
    env.reset(seed=5)
    raw = env.unwrapped
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = raw.states.tobytes()
    for action, pattern in [(illegal, "illegal action"), (-1, "out of range"), (raw.game.n_actions, "out of range"),
                            (10**12, "out of range"), (1.0, "integer"), (True, "integer"), ("3", "integer"),
                            (None, "must act")]:
        with pytest.raises(ValueError, match=pattern):
            env.step(action)
        assert raw.states.tobytes() == before
    env.step(np.int16(np.flatnonzero(mask)[0]))  # numpy integers are fine
    assert raw.states.tobytes() != before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_batched_step_checks_every_game_before_changing_any(name):
    """``Game.step`` rejects a batch with one illegal action and leaves all games as they were."""
    game = get_game(name)
    states = game.init_batch(4, 0)
    masks = game.legal_mask(states)
    actions = np.argmax(masks, axis=1)
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    before = states.tobytes()
    with pytest.raises(ValueError, match="illegal action .* in game 2"):
        game.step(states, actions)
    assert states.tobytes() == before
    with pytest.raises(ValueError, match="expected 4 actions"):
        game.step(states, actions[:3])
    with pytest.raises(ValueError, match="integers"):
        game.step(states, actions.astype(float))
    assert states.tobytes() == before



@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("batch", [8, 96])  # the serial and the parallel build (core.kernels.SERIAL_BELOW)
def test_the_step_kernels_leave_a_game_at_the_decision_cap_alone(name, batch, parallel_builds):
    """The cap is the kernels' (core.kernels.finished): a raw ``step`` (``check=False``, any action id) changes
    no record that has reached ``max_decisions`` unended, while the other games of the batch play on; such a
    game is truncated, not terminal, and returns 0 to every seat."""
    game = get_game(name)
    states = game.init_batch(batch, 5)
    states["max_decisions"][::2] = 3  # every other game is cut after 3 decisions
    sample = LegalSampler(batch, 5)
    for _ in range(3):
        game.step(states, sample(game.legal_mask(states)), check=False)
    capped = np.zeros(batch, dtype=bool)
    capped[::2] = ~states["done"][::2]
    assert capped.any() and (states["n_decisions"][capped] == 3).all()
    frozen, decisions = states[capped].tobytes(), states["n_decisions"].copy()
    for i in range(5):
        actions = sample(game.legal_mask(states))
        actions[capped] = (game.n_actions - 1) * (i % 2)  # any id: a game at the cap does not read it
        game.step(states, actions, check=False)
    assert states[capped].tobytes() == frozen
    live = ~capped & ~states["done"]
    assert (states["n_decisions"][~capped] > decisions[~capped]).any()
    assert game.truncated(states)[capped].all() and not game.terminal(states)[capped].any()
    assert (game.returns(states, "rank")[capped] == 0).all()
    assert not game.truncated(states)[live].any()
    # a game at the cap, like an ended one, has no legal action and nobody to decide, in every path
    assert not game.legal_mask(states)[capped].any() and (game.current_player(states)[capped] == -1).all()
    masks = np.ones((batch, game.n_actions), dtype=np.int8)
    actions = sample(game.legal_mask(states))
    game.step(states, actions, check=False, masks=masks, draws=np.arange(batch, dtype=np.uint64))
    assert not masks[capped].any() and (actions[capped] == -1).all()
    assert states[capped].tobytes() == frozen


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("batch", [8, 96])  # the serial and the parallel build (core.kernels.SERIAL_BELOW)
def test_step_with_masks_gives_the_legal_masks_of_the_new_position(name, batch, parallel_builds):
    """``step(..., masks=)`` plays as ``step`` does and leaves in ``masks`` exactly what ``legal_mask`` gives,
    through whole games (finished games: all zeros), checked and unchecked, also when some games sit at the
    decision cap; a wrong buffer is rejected before anything changes."""
    game = get_game(name)
    fused, plain = game.init_batch(batch, 3), game.init_batch(batch, 3)
    plain["max_decisions"][: batch // 4] = fused["max_decisions"][: batch // 4] = 5  # some games truncated early
    masks = game.legal_mask(fused)
    sample = LegalSampler(batch, 3)
    for i in range(decision_budget(name)):
        if game.finished(plain).all():
            break
        actions = sample(game.legal_mask(plain))
        np.testing.assert_array_equal(masks, game.legal_mask(fused))
        check = i % 2 == 0  # checked and raw: the kernels leave games at the cap alone
        game.step(plain, actions, check=check)
        game.step(fused, actions, check=check, masks=masks)
        assert fused.tobytes() == plain.tobytes()
        np.testing.assert_array_equal(masks, game.legal_mask(plain))
    assert game.finished(plain).all()
    before = fused.tobytes()
    for bad in (np.zeros((batch, game.n_actions), np.int64), np.zeros((batch - 1, game.n_actions), np.int8)):
        with pytest.raises(ValueError, match="masks"):
            game.step(fused, np.zeros(batch, np.int64), masks=bad)
    assert fused.tobytes() == before

@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("batch", [8, 96])  # the serial and the parallel build (core.kernels.SERIAL_BELOW)
def test_step_with_draws_draws_the_next_actions_as_the_sampler_does(name, batch, parallel_builds):
    """``step(..., masks=, draws=)`` plays as a separate ``sample_legal`` pass after each step would: the same
    records, masks, actions (-1 for ended games) and generator states, through whole games, some of them cut by
    the decision cap; ``draws`` without masks, on a checked step, or of another dtype or length is refused before
    anything changes."""
    game = get_game(name)
    drawn, plain = game.init_batch(batch, 4), game.init_batch(batch, 4)
    plain["max_decisions"][: batch // 4] = drawn["max_decisions"][: batch // 4] = 5  # some games truncated early
    sample = LegalSampler(batch, 4)
    masks = game.legal_mask(drawn)
    plain_actions = sample(game.legal_mask(plain))
    actions, rng = plain_actions.copy(), sample.rng.copy()
    for _ in range(decision_budget(name)):
        if game.finished(plain).all():
            break
        game.step(plain, plain_actions, check=False)
        game.step(drawn, actions, check=False, masks=masks, draws=rng)
        assert drawn.tobytes() == plain.tobytes()
        plain_actions = sample(game.legal_mask(plain))  # a separate pass over the new masks
        np.testing.assert_array_equal(masks, game.legal_mask(plain))
        np.testing.assert_array_equal(actions, plain_actions)
        np.testing.assert_array_equal(rng, sample.rng)
        np.testing.assert_array_equal(actions[plain["done"]], -1)
    assert game.finished(plain).all()
    before = drawn.tobytes()
    refused = [({"draws": rng}, "draws needs masks"), ({"masks": masks, "draws": rng, "check": True}, "draws needs"),
               ({"masks": masks, "draws": rng.astype(np.int64)}, "draws must be"),
               ({"masks": masks, "draws": rng[:-1]}, "draws must be")]
    for kwargs, message in refused:
        with pytest.raises(ValueError, match=message):
            game.step(drawn, actions, **{"check": False, **kwargs})
    with pytest.raises(ValueError, match="actions must be"):
        game.step(drawn, actions.astype(np.int32), check=False, masks=masks, draws=rng)
    assert drawn.tobytes() == before


def _trace_of_random_games(game, batch: int, budget: int):
    """Every output of the batch kernels along seeded random games of ``batch``, one byte string at a time.

    A generator, so that two builds can be run side by side and compared output by output (the whole trace of 96
    Wild West Express games is 3 GB: held and joined twice, it cost 10 s a build and 6.5 GB of memory)."""
    states = game.init_batch(batch, 11)
    sample = LegalSampler(batch, 11)
    masks = game.legal_mask(states)
    yield from (states.tobytes(), masks.tobytes())
    seats = np.arange(batch) % states["num_players"]
    for i in range(budget):
        if game.finished(states).all():
            break
        game.step(states, sample(masks), masks=masks)
        yield from (states.tobytes(), masks.tobytes(), game.current_player(states).tobytes())
        if i % 7 == 0:
            yield from (game.observe(states, seats).tobytes(), game.scores(states).tobytes())
            ties = np.zeros((batch, game.max_players), dtype=np.int32)
            game.tiebreak_kernel(states, ties)
            yield ties.tobytes()
            assert not game.invariant_violations(states)
            if game.information == "imperfect":
                yield game.resample_hidden(states, seats, 5 + i).tobytes()
    assert game.finished(states).all()
    yield game.returns(states, "rank").tobytes()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_parallel_builds_compute_what_the_serial_builds_compute(name, parallel_builds, monkeypatch):
    """Each batch kernel's parallel build (``prange``) gives byte-identical records, masks, observations, scores,
    tie-breaks, determinizations and returns to its serial build (``range``) over whole random games of 96.
    The rest of the suite runs the serial builds only (``tests/conftest.py``). The two builds play side by side,
    each output compared as it comes."""
    from wildwest_envs.core import kernels
    game = get_game(name)
    budget = decision_budget(name)
    builds = {parallel_builds: _trace_of_random_games(game, 96, budget),  # batches of 96: the parallel build
              10**9: _trace_of_random_games(game, 96, budget)}  # every batch on the serial build
    compared = 0
    while True:
        outputs = []
        for serial_below, trace in builds.items():
            monkeypatch.setattr(kernels, "SERIAL_BELOW", serial_below)
            outputs.append(next(trace, None))
        assert outputs[0] == outputs[1], f"output {compared} of the builds differs"
        if outputs[0] is None:
            break
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("name", GAME_NAMES)
def test_strided_and_read_only_batches_compile_nothing_more_and_give_the_same_results(name):
    """A strided view (``states[::2]``) or a read-only batch is another numba type: ``Game`` hands the kernels a
    C-contiguous writeable copy (``core.checks.kernel_array``), so such a batch compiles no kernel again, gives the
    results of its contiguous copy, and ``step`` writes the new records into the caller's strided array."""
    from numba.core import event

    game = get_game(name)
    states = game.init_batch(6, seed=3)
    play_random(game, states, 5)

    def results(batch, seats):
        out = [game.legal_mask(batch), game.observe(batch, seats), game.scores(batch), game.returns(batch, "rank"),
               game.invariant_violations(batch)]
        return [x.tobytes() if isinstance(x, np.ndarray) else x for x in out]

    def step_copy(batch):
        stepped = np.array(batch, copy=True)
        game.step(stepped, LegalSampler(len(batch), 1)(game.legal_mask(stepped)))
        return stepped

    contiguous, seats = states[::2].copy(), np.zeros(3, dtype=np.int64)
    expected = results(contiguous, seats), step_copy(contiguous).tobytes()
    read_only, read_only_seats = contiguous.copy(), seats.copy()
    read_only.flags.writeable = read_only_seats.flags.writeable = False
    with event.install_recorder("numba:compile") as recorder:
        assert results(states[::2], read_only_seats) == expected[0]
        assert results(read_only, np.broadcast_to(seats, 3)) == expected[0]
        strided = np.array(states, copy=True)
        sampled = LegalSampler(3, 1)(game.legal_mask(strided[::2]))
        sampled.flags.writeable = False
        game.step(strided[::2], sampled, check=False)
        compiled = [e for e in recorder.buffer if e[1].kind == "numba:compile"]
    assert strided[::2].tobytes() == expected[1] and strided[1::2].tobytes() == states[1::2].tobytes()
    assert compiled == []


# ---- JSON -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_json_round_trip_then_identical_future(name):
    """A saved mid-game state loads byte-identical and replays the same future."""
    game = get_game(name)
    states = mid_game_state(game, seed=3)
    text = game.to_json(states[0])
    loaded = game.from_json(text)
    assert loaded.tobytes() == states.tobytes()
    assert "current" in json.loads(text)["state"]
    play_random(game, states, 30, seed=9)
    play_random(game, loaded, 30, seed=9)
    assert loaded.tobytes() == states.tobytes()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_corrupt_json_is_rejected_with_the_problem_named(name):
    """Malformed or inconsistent saved states raise ValueError naming the problem."""
    game = get_game(name)
    document = json.loads(game.to_json(mid_game_state(game, seed=4)[0]))
    fields = document["state"]
    first_array = next(k for k, v in fields.items() if isinstance(v, list))
    cases = [
        ("not json {", "not valid JSON"),
        (json.dumps({"game": "other_v0", "state": fields}), "of game 'other_v0'"),
        (json.dumps({"game": name, "state": {k: v for k, v in fields.items() if k != "current"}}),
         r"missing fields \['current'\]"),
        (json.dumps({"game": name, "state": dict(fields, colour=1)}), r"unknown fields \['colour'\]"),
        (json.dumps({"game": name, "state": dict(fields, current=1.5)}), "'current' must hold integers"),
        (json.dumps({"game": name, "state": dict(fields, current=10**6)}), "'current' value 1000000 does not fit"),
        (json.dumps({"game": name, "state": dict(fields, **{first_array: [1]})}), f"'{first_array}' has shape"),
        (json.dumps({"game": name, "state": dict(fields, num_players=9)}), "num_players"),
    ]
    for text, pattern in cases:
        with pytest.raises(ValueError, match=pattern):
            game.from_json(text)


# ---- seeds, clones, reseed -----------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_same_seed_same_game_whatever_the_batch(name):
    """Game i of run s is the same record alone, in a batch of 8, or at another position."""
    game = get_game(name)
    alone = game.init(game_seeds(11, 1, offset=5))
    batch = game.init_batch(8, 11)
    assert batch[5].tobytes() == alone[0].tobytes()
    play_random(game, batch, 50, seed=2)
    assert not np.array_equal(batch["rng"][0], batch["rng"][1])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_different_seeds_give_different_deals(name):
    """Different seeds give different games."""
    game = get_game(name)
    states = game.init_batch(16, 0)
    rows = {s.tobytes() for s in states}
    assert len(rows) == 16


@pytest.mark.parametrize("name", GAME_NAMES)
def test_clone_replays_identically_and_reseed_changes_only_chance(name):
    """A clone replays the same future; ``reseed`` changes no observation of any seat."""
    game = get_game(name)
    states = mid_game_state(game, seed=6, n_steps=10)
    clone = game.clone(states)
    reseeded = game.clone(states)
    game.reseed(reseeded, 12345)
    seats = range(int(states["num_players"][0]))
    for seat in seats:
        assert np.array_equal(game.observe(states, seat), game.observe(reseeded, seat))
    assert np.array_equal(game.legal_mask(states), game.legal_mask(reseeded))
    play_random(game, states, 400, seed=1)
    play_random(game, clone, 400, seed=1)
    assert clone.tobytes() == states.tobytes()


# ---- action names ------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_action_strings_round_trip(name):
    """``string_to_action(action_to_string(a)) == a`` for every legal action of many states.

    25 snapshots of 6 games, spaced to reach late positions of long games too.
    """
    game = get_game(name)
    states = game.init_batch(6, 8)
    stride = max(7, int(random_game_length(name)[0]) // 25)
    for _ in range(25):
        masks = game.legal_mask(states)
        for b in range(len(states)):
            for action in np.flatnonzero(masks[b]):
                text = game.action_to_string(states[b], int(action))
                assert game.string_to_action(states[b], text) == action
        play_random(game, states, stride, seed=_)
    with pytest.raises(ValueError, match="no action named"):
        game.string_to_action(states[0], "dance a jig")


def _shouted(text: str) -> str:
    """``text`` upper-cased, with surrounding whitespace and its spaces doubled."""
    return " \t" + text.upper().replace(" ", "  ") + "\n "


@pytest.mark.parametrize("name", GAME_NAMES)
def test_action_names_match_ignoring_case_and_spacing(name):
    """A name typed in another case, with extra spaces around and inside, finds its action.

    Where two actions of a state differ only by case or spacing, such a text is an ambiguity error instead.
    """
    game = get_game(name)
    states = game.init_batch(4, 3)
    stride = max(7, int(random_game_length(name)[0]) // 6)
    checked = 0
    for step in range(6):
        masks = game.legal_mask(states)
        for b in np.flatnonzero(~game.finished(states)):
            names = [game.action_to_string(states[b], a) for a in range(game.n_actions)]
            folded = [" ".join(text.split()).lower() for text in names]
            for action in np.flatnonzero(masks[b])[:5]:
                text = _shouted(names[action])
                if text in names:  # typed exactly as another action's name: that one wins
                    assert game.string_to_action(states[b], text) == names.index(text)
                elif folded.count(folded[action]) == 1:
                    assert game.string_to_action(states[b], text) == action
                    assert game.string_to_action(states[b:b + 1], names[action].lower().strip()) == action
                    checked += 1
                else:
                    with pytest.raises(ValueError, match="ambiguous"):
                        game.string_to_action(states[b], text)
        play_random(game, states, stride, seed=step)
    assert checked > 0
    with pytest.raises(ValueError, match="no action named 'DANCE  A JIG'; legal actions"):
        game.string_to_action(states[0], "DANCE  A JIG")


def test_exact_action_name_wins_over_a_case_insensitive_one_and_ties_are_errors():
    """Exact names first; a text that matches two names only when case and spacing are ignored is an error."""
    game = get_game("colt_express")
    special = {0: "Pass", 1: "pass", 2: "take  the Gold"}

    def names(state, action: int) -> str:
        return special.get(action, game.action_to_string_fn(state, action))

    renamed = dataclasses.replace(game, action_to_string_fn=names)
    state = renamed.init_batch(1, 5)[0]
    assert renamed.string_to_action(state, "Pass") == 0
    assert renamed.string_to_action(state, "pass") == 1
    assert renamed.string_to_action(state, "take  the Gold") == 2
    assert renamed.string_to_action(state, " TAKE THE gold ") == 2
    for text in ("PASS", " pass ", "pass\t"):
        with pytest.raises(ValueError, match=r"ambiguous: it matches \['Pass', 'pass'\]"):
            renamed.string_to_action(state, text)
    with pytest.raises(ValueError, match="no action named 'pas'"):
        renamed.string_to_action(state, "pas")


def test_unknown_action_name_error_names_a_few_legal_actions_and_changes_nothing():
    """With more legal actions than an error lists, ``string_to_action`` and ``step`` name the first ones and
    say how many more there are; the record is unchanged."""
    game = get_game("colt_express")
    wide = dataclasses.replace(game, action_to_string_fn=lambda state, a: f"action {a}", legal_mask_kernel=_all_legal)
    states = wide.init_batch(1, 5)
    before = states.tobytes()
    listed = ", ".join(repr(f"action {a}") for a in range(checks.LISTED_ACTIONS))
    with pytest.raises(ValueError) as raised:
        wide.string_to_action(states[0], "Dance")
    more = game.n_actions - checks.LISTED_ACTIONS
    assert str(raised.value) == f"colt_express_v0: no action named 'Dance'; legal actions: [{listed}] and {more} more"
    assert checks.some_of(["a", "b"]) == "['a', 'b']" and checks.some_of({3: "c"}) == "{3: 'c'}"
    assert states.tobytes() == before


def _all_legal(states: np.ndarray, out: np.ndarray) -> None:
    """A legal-mask kernel that allows every action (for error messages about long lists of legal actions)."""
    out[:] = 1


# ---- rewards ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_reward_modes_agree_with_scores(name):
    """win: +1 exactly for the best score (tie-break applied), 0 for all in a draw; rank in [-1, 1];
    score = score/scale; margin = (score - best other score)/scale, positive only for a sole best score."""
    game = get_game(name)
    states = game.init_batch(64, 21)
    play_random(game, states, decision_budget(name), seed=3)
    assert states["done"].all()
    scores = game.scores(states)
    win, rank, score, margin = (game.returns(states, m) for m in ("win", "rank", "score", "margin"))
    for b in range(len(states)):
        n = int(states["num_players"][b])
        best = scores[b, :n].max()
        winners = game.winners(states[b:b + 1])[0, :n]
        assert set(np.flatnonzero(winners)) <= set(np.flatnonzero(scores[b, :n] == best)) and winners.any()
        if winners.all():  # a draw: every seat ties, nobody wins or loses
            assert np.all(win[b, :n] == 0)
        else:
            assert np.array_equal(win[b, :n], np.where(winners, 1.0, -1.0))
        assert np.all((-1 <= rank[b, :n]) & (rank[b, :n] <= 1))
        assert np.allclose(score[b, :n], scores[b, :n] / game.score_scale)
        for seat in range(n):
            best_other = np.delete(scores[b, :n], seat).max()
            assert margin[b, seat] == pytest.approx((scores[b, seat] - best_other) / game.score_scale, rel=1e-5)
        assert (margin[b, :n] > 0).sum() == (np.sum(scores[b, :n] == best) == 1)
        assert np.all(win[b, n:] == 0) and np.all(margin[b, n:] == 0)


# ---- vector env --------------------------------------------------------------------------------
def test_a_draw_gives_every_seat_zero_in_win_mode():
    """A game that every seat ties is a draw: 0 for all in "win" mode (not +1 for all), all seats share the win."""
    game = get_game("rail")
    states = game.init_batch(400, 5, num_players=3)
    play_random(game, states, decision_budget("rail_v0"), seed=1)
    scores, win, rank = game.scores(states)[:, :3], game.returns(states, "win")[:, :3], game.returns(states, "rank")
    ties = np.zeros((len(states), game.max_players), dtype=np.int32)
    game.tiebreak_kernel(states, ties)
    draws = (scores == scores[:, :1]).all(axis=1) & (ties[:, :3] == ties[:, :1]).all(axis=1) & game.terminal(states)
    assert draws.any() and (~draws).any()  # random Rail games often end with every score 0
    assert np.all(win[draws] == 0) and np.all(rank[draws, :3] == 0) and game.winners(states)[draws, :3].all()
    assert np.all(np.abs(win[~draws & game.terminal(states)]) == 1)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_env_autoresets_and_reports_final_rewards(name):
    """VectorEnv returns arrays, reports each ended game once, and deals a fresh one in its place."""
    game = get_game(name)
    n_steps = max(3000, 2 * random_game_length(name)[1])  # long enough for every env to finish a game
    venv = VectorEnv(game, 8, seed=1)
    step = venv.reset()
    assert step.players.shape == (8,) and step.observations.shape == (8, game.obs_size)
    assert step.masks.shape == (8, game.n_actions) and step.masks.any(axis=1).all()
    sample = LegalSampler(8, 0)
    ended = 0
    for _ in range(n_steps):
        step = venv.step(sample(step.masks))
        assert step.masks.any(axis=1).all()
        for b in np.flatnonzero(step.terminated):
            ended += 1
            n = int(venv.states["num_players"][b])
            draw = step.rewards[b, :n].max() == 0.0  # every seat tied: 0 for all ("win" mode)
            assert step.rewards[b].max() == 1.0 or (draw and not step.rewards[b].any())
        assert not step.rewards[~step.terminated].any()
    assert ended >= 8


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_env_same_seed_same_trajectory(name):
    """Two vector envs with one seed and the same actions give identical arrays."""
    game = get_game(name)
    a, b = VectorEnv(game, 4, seed=7), VectorEnv(game, 4, seed=7)
    sa, sb = a.reset(), b.reset()
    sample = LegalSampler(4, 3)
    for _ in range(300):
        actions = sample(sa.masks).copy()
        np.random.random()  # the global generators play no part
        sa, sb = a.step(actions), b.step(actions)
        assert np.array_equal(sa.observations, sb.observations)
        assert np.array_equal(sa.rewards, sb.rewards)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_dealer_deals_the_runs_games_in_order_wherever_they_are_dealt(name):
    """``core.runner.Dealer``: games k = 0, 1, ... of run s come from ``game_seed(s, k)``, however many are
    dealt at a time; ``restart`` goes back to game 0 (of another run when given a seed)."""
    from wildwest_envs.core.runner import Dealer

    game = get_game(name)
    options = game.parse_options(num_players=3)
    dealer = Dealer(game, 11, options)
    dealt = np.concatenate([dealer.deal(3), dealer.deal(1), dealer.deal(2)])
    assert dealt.tobytes() == game.init(game_seeds(11, 6), **options).tobytes() and dealer.next_game == 6
    dealer.restart(12)
    assert dealer.deal(2).tobytes() == game.init(game_seeds(12, 2), **options).tobytes()
    assert Dealer(game, 11, options, next_game=4).deal(2).tobytes() == dealt[4:].tobytes()
    batch_of = Dealer(game, 11, options).deal(6)
    into = Dealer(game, 11, options, next_game=4)
    fresh = into.deal_into(batch_of, np.array([5, 0]))  # games 4 and 5 into rows 5 and 0
    assert fresh.tobytes() == dealt[4:].tobytes() and into.next_game == 6
    assert batch_of[[5, 0]].tobytes() == dealt[4:].tobytes() and batch_of[1:5].tobytes() == dealt[1:5].tobytes()
    masks = np.full((6, game.n_actions), 7, dtype=np.int8)  # 7: rows the deal must leave alone
    Dealer(game, 11, options, next_game=4).deal_into(batch_of, np.array([5, 0]), masks=masks)
    np.testing.assert_array_equal(masks[[5, 0]], game.legal_mask(dealt[4:]))
    assert (masks[1:5] == 7).all() and masks[[5, 0]].sum() > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_whole_record_gathers_and_scatters_equal_numpys(name):
    """``core.batch.take`` / ``put`` (raw-byte copies of whole records) give what ``states[rows]`` and
    ``states[rows] = records`` give, for index arrays (repeats too), boolean masks and strided batches; a batch
    of another game's records is refused."""
    from wildwest_envs.core import batch

    game = get_game(name)
    states = game.init_batch(20, seed=3, num_players=3)
    sample = LegalSampler(20, seed=3)
    for _ in range(15):  # records at different stages
        game.step(states, sample(game.legal_mask(states)), check=False)
    rows, mask = np.array([5, 1, 7, 7, 19]), np.arange(20) % 3 == 0
    for picked in (rows, mask):
        taken = batch.take(states, picked)
        assert taken.dtype == states.dtype and taken.tobytes() == states[picked].tobytes()
    assert batch.take(states[::2], rows[:3]).tobytes() == states[::2][rows[:3]].tobytes()
    fresh = game.init_batch(3, seed=9, num_players=3)
    ours, numpys = states.copy(), states.copy()
    batch.put(ours, [2, 4, 6], fresh)
    numpys[[2, 4, 6]] = fresh
    assert ours.tobytes() == numpys.tobytes()
    other = get_game(next(n for n in GAME_NAMES if canonical_name(n) != canonical_name(name)))
    with pytest.raises(TypeError, match="cannot replace rows"):
        batch.put(ours, [0], other.init_batch(1, seed=0, num_players=3))
    assert ours.tobytes() == numpys.tobytes()
