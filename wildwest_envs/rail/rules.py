"""Rail rules engine: the public batch kernels and the flow of a game (spec §5-§8, §11).

Public kernels (batch loops over records; ``maps`` is the map's ``kernel_tables``, and the helpers of one
record take its record ``mp = maps[0]``, the map's ``tables``)::

    init(states, seeds, options, empty, maps)  # options: int64 vector laid out by data.OPT_*, empty: the map's
                                          # empty record (state.empty_state); then
    step(states, START, maps)             # START (-1) for every game: play up to the first decision
    legal_mask(states, out, maps)         # int8 (B, A); all zeros for finished games (§11.2)
    step(states, actions, maps)           # int64 (B,); finished games are skipped
    step_and_mask(states, actions, masks, draws, maps)  # step, then the next legal masks and actions (core.kernels)
    scores(states, out)                   # int32 (B, 6): balances (§8), 0 for absent seats
    tiebreak(states, out)                 # int32 (B, 6): zeros (ties share the win, §8)

``init`` only sets up the record (options and empty fields); the pseudo-action
``START`` then rolls for the start player (§5) and runs the flow to the first
decision, so a test can script the dice in between. The split
keeps the whole flow out of the ``init`` kernel, which halves the compile time
(``game.make_game`` binds both into one ``init``). ``step`` assumes the action
is legal: legality is decided only by
``_enumerate`` (with the predicates of ``building``), which also serves the
forced-action check of ``auto_forced``, so the mask and the automatic
play can never disagree. After ``init`` and after every ``step`` a record stands
at an agent decision or is finished; everything automatic in between (dice,
races, fees, prizes, end tests, phase changes, forced decisions) happens
inside the kernel.

The flow (§6.1, §7.1): build rounds of one turn per seat from seat
``(S + k) mod n``; each turn rolls its BP (or uses the round's shared roll),
asks for the start city on the seat's first turn, then takes BUILD decisions
until END_TURN. After the build phase (``R`` rounds, §6.10) races follow:
generate, candidates, entry decisions clockwise from ``F_k = (S + R + k) mod n``,
fees, race, prizes, end test, extension window (one turn per seat in the same
order), end test.

Decisions where the spec leaves the implementation open:

* ``turn_pos`` counts turns within the current round (build phase) or the
  current race's order (entries, extension window).
* ``race_k`` is the index of the current race while it is generated and
  entered, and is incremented once its prizes are paid, so during the
  extension window it already names the next race.
* The race, its candidates and declared routes are cleared after the prizes;
  ``last_*`` keep the outcome of the last race for observations.
* ``n_decisions`` counts agent steps only: decisions applied by
  ``auto_forced`` are not agent decisions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.engine import mark, start_record
from ..core.borrowed import borrowed
from ..core.eventlog import EVERYONE, emit
from ..core.kernels import NO_DRAWS, NO_MASKS, dual, finished
from ..core.prefetch import prefetch
from ..core.sampling import draw_legal
from .intrinsics import prefetch_field
from .building import (all_cities_joined, build_ferry, build_step, choose_start, ferry_legal, mark_steps,
                       proposal_legal)
from .data import (CTX_BUILD, CTX_COOP_BUILD, CTX_COOP_RESPONSE, CTX_EXT_BUILD, CTX_EXT_FUNDING, CTX_GAME_OVER,
                   CTX_RACE_ENTRY, CTX_START_CHOICE, END_POINTS, ENTRY_DECLINED, ENTRY_ENTERED, ENTRY_UNDECIDED,
                   EXT_ACCOUNT, EXT_DICE, FUND_ACCOUNT, FUND_BP, FUND_NONE, MAX_PLAYERS, N_ROUTE_OBJECTIVES,
                   OFF_BUILD_FERRY, OFF_CHOOSE_START, OFF_COOP_ACCEPT, OFF_COOP_DECLINE, OFF_COOP_PROPOSE,
                   OFF_END_TURN, OFF_FUND_ACCOUNT, OFF_FUND_DICE, OFF_RACE_DECLINE, OFF_RACE_ENTER, OPT_AUTO_FORCED,
                   OPT_AVOID_REPEAT, OPT_BONUS, OPT_BUILD_DICE, OPT_BUILD_ROUNDS, OPT_COOP, OPT_DISTINCT_DIRS,
                   OPT_EARLY_END, OPT_END_MODE, OPT_EXT_10PCT, OPT_EXT_CAP, OPT_EXT_MODE, OPT_FEE_CAP,
                   OPT_FEE_PER_STEP, OPT_FERRIES, OPT_FLAT_FEE, OPT_INTERNATIONAL, OPT_INTL_EVERY, OPT_MAX_DECISIONS,
                   OPT_MAX_RACES, OPT_N_CANDIDATES, OPT_N_PRIZES, OPT_NUM_PLAYERS, OPT_PRIZES, OPT_START_PLAYER,
                   OPT_RACE_MIN_DISTANCE, OPT_RACES_TOTAL, OPT_RESOLUTION, OPT_SHARED_ROLL, OPT_TARGET, MAX_PRIZES)
from .eventlog import (END_LAST_RACE, END_RACE_CAP, END_TARGET, EV_BUILD_ROLL, EV_COOP_ACCEPTED, EV_COOP_DECLINED,
                       EV_COOP_PROPOSED, EV_FINAL_STANDING, EV_FUNDING_CHOSEN, EV_GAME_OVER, EV_OPERATION_BEGINS,
                       EV_RACE_ENTRY, EV_ROUND_BEGINS, EV_START_PLAYER, EV_START_ROLL, EV_TURN_BEGINS, EV_TURN_ENDS,
                       EV_WINDOW_BEGINS, SHARED_SEAT, TURN_BUILD, TURN_EXTENSION, seats_ahead)
from .maps import HX_STEP, M_D_MAX, ST_A, ST_B
from .races import compute_candidates, generate_race, resolve_race, roll_both, roll_build

# continuations of the flow: each automatic stage returns the next one, K_WAIT once a decision is posed
(K_WAIT, K_BEGIN_ROUND, K_BEGIN_BUILD_TURN, K_END_ROUND, K_BEGIN_RACE, K_BEGIN_WINDOW, K_BEGIN_EXT_TURN,
 K_END_WINDOW) = range(8)
START = -1  # the pseudo-action that plays a record set up by ``init`` to its first decision


# ---- public batch kernels ------------------------------------------------------------------------------------
@njit(cache=True, parallel=True)
def init(states: np.ndarray, seeds: np.ndarray, options: np.ndarray, empty: np.ndarray, maps: np.ndarray) -> None:
    """Set up every record (§5) from ``empty``, the map's empty record (``state.empty_state``), whatever the array
    held before; ``step`` with ``START`` then advances it to its first decision."""
    for b in prange(states.shape[0]):
        states[b] = empty[0]
        init_one(states[b], seeds[b], options, maps[0])


@njit(cache=True, parallel=True)
def legal_mask(states: np.ndarray, out: np.ndarray, maps: np.ndarray) -> None:
    """out[b, a] = 1 for each legal action a of game b; all zeros when finished (§11.2)."""
    rows = borrowed(out)  # borrowed: no reference counting of shared arrays (core.borrowed)
    n = states.shape[0]
    for b in prange(n):  # the next record's lines load while this one is worked on (prefetch_record)
        if b + 2 < n:
            prefetch_header(states[b + 2])
        if b + 1 < n:
            prefetch_record(states[b + 1], np.int64(-1), maps[0])
        legal_mask_one(states[b], rows[b], maps[0])


@njit(cache=True, parallel=True)
def step_and_mask(states: np.ndarray, actions: np.ndarray, masks: np.ndarray, draws: np.ndarray,
                  maps: np.ndarray) -> None:
    """Apply one legal action per unfinished game and advance to its next decision; given a row of ``masks`` per
    game (not ``NO_MASKS``), also write each game's next legal mask there while its record is in cache, and given
    a generator per game in ``draws`` (not ``NO_DRAWS``), draw its next action from that mask into ``actions``."""
    fused = masks.shape[0] > 0
    drawn = fused and draws.shape[0] > 0
    rows = borrowed(masks)
    no_row = rows.reshape(-1)[:0]  # an empty row: the step only counts legal actions
    n = states.shape[0]
    for b in prange(n):  # the next record's lines load while this one is worked on (prefetch_record)
        if b + 2 < n:
            prefetch_header(states[b + 2])
        if b + 1 < n:
            prefetch_record(states[b + 1], actions[b + 1], maps[0])
        step_one(states[b], actions[b], maps[0], rows[b] if fused else no_row)
        if drawn:
            actions[b] = draw_legal(rows[b], draws, b)


def step(states: np.ndarray, actions: np.ndarray, maps: np.ndarray) -> None:
    """``step_and_mask`` without masks, in the build for the batch's size (``core.kernels.dual``: a batch of one
    must not compile the parallel build)."""
    dual(step_and_mask)(states, actions, NO_MASKS, NO_DRAWS, maps)


@njit(cache=True)
def prefetch_header(state) -> None:
    """Start loading the lines of a record's header (generator, options, flow, players), which
    ``prefetch_record`` reads one iteration later, each by the name of a field on it. Changes nothing."""
    prefetch_field(state, "rng")  # the generator
    prefetch_field(state, "num_players")  # the options
    prefetch_field(state, "balance")  # the flow and the players
    prefetch_field(state, "start_city")


@njit(cache=True)
def prefetch_record(state, action: int, mp) -> None:
    """Start loading the lines of a record that its step (``action``, -1: its mask only) will read.

    A record is 30 KB; in a big batch every record is out of cache, and the rules read its lines one after the
    other (each read decides the next). Prefetched while the loop works on the previous record, they arrive
    together: the builder's frontier row; for a BUILD action the owners, timestamps, networks and touch bits
    around both ends of the step (§6.7, §6.8); in an account-funded turn, whose mask looks up the owners and
    networks of every frontier step (§7.10), all owner and network bytes. Reads the header (``prefetch_header``
    loads it one record earlier); changes nothing."""
    p = np.int64(state["builder"])
    row = state["frontier"][max(p, 0)]
    for w in range(0, row.shape[0], 8):
        prefetch(row, w)
    if state["funding"] == FUND_ACCOUNT:
        for i in range(0, state["owners"].shape[0], 64):
            prefetch(state["owners"], i)
        for i in range(0, state["net"].shape[0], 64):
            prefetch(state["net"], i)
    if action < 0 or action >= mp.steps.shape[0]:
        return
    prefetch(state["owners"], action)
    for end in range(2):
        h = mp.steps[action, ST_A] if end == 0 else mp.steps[action, ST_B]
        prefetch(state["net"], h)
        prefetch(state["touched"], h)
        for d in range(6):
            e = mp.hexes[h, HX_STEP + d]
            if e >= 0:
                prefetch(state["owners"], e)
                prefetch(state["own_t"][e], 0)


@njit(cache=True)
def scores(states: np.ndarray, out: np.ndarray) -> None:
    """Balance of each seat (§8), 0 for absent seats."""
    for b in range(states.shape[0]):
        for s in range(out.shape[1]):
            out[b, s] = states[b]["balance"][s] if s < states[b]["num_players"] else 0


@njit(cache=True)
def tiebreak(states: np.ndarray, out: np.ndarray) -> None:
    """No tie-break: tied players share the win (§8)."""
    out[:] = 0


# ---- public per-record kernels -------------------------------------------------------------------------------
@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def init_one(state, seed: np.uint64, options: np.ndarray, mp) -> None:  # noqa: ARG001 (mp: same signature)
    """Set up one record holding the empty values: its options (``START`` rolls for the start player and plays on,
    §5)."""
    start_record(state, seed, options[OPT_NUM_PLAYERS], options[OPT_MAX_DECISIONS])
    _set_options(state, options, mp)


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def legal_mask_one(state, out_row: np.ndarray, mp) -> None:
    """Legal actions of the pending decision of one record."""
    out_row[:] = 0
    if not finished(state):  # ended, or at the decision cap: no legal action
        _enumerate(state, mp, out_row, np.bool_(False))


@njit(cache=True, inline="always")  # inlined into the batch loops (core.engine._inlined)
def step_one(state, action: int, mp, out_row: np.ndarray) -> None:
    """Apply one legal action, then everything automatic up to the next decision; a non-empty ``out_row``
    receives the legal mask of that decision (all zeros once the game is over). A finished record (ended, or
    at the decision cap) is left alone."""
    if not finished(state):
        if action == START:
            if state["start_player"] < 0:  # not given by the option start_player
                _roll_start_player(state)
            emit(state, EV_START_PLAYER, EVERYONE, state["start_player"], 0, 0, 0)
            _run(state, mp, np.int64(K_BEGIN_ROUND))
        else:
            state["n_decisions"] += 1
            _run(state, mp, _apply(state, mp, np.int64(action)))
    _advance(state, mp, out_row)
    if out_row.shape[0] > 0 and finished(state):
        out_row[:] = 0  # at the decision cap: no legal action, as in a game that has ended


# ---- options and setup (§4, §5) ------------------------------------------------------------------------------
@njit(cache=True)
def _set_options(state, o: np.ndarray, mp) -> None:
    """Copy the parsed option vector into the record (§4); ``num_players`` and ``max_decisions`` are
    ``start_record``'s."""
    state["build_dice"] = o[OPT_BUILD_DICE]
    state["shared_roll"] = o[OPT_SHARED_ROLL] != 0
    state["build_rounds"] = o[OPT_BUILD_ROUNDS]
    state["early_end"] = o[OPT_EARLY_END] != 0
    state["bonus"] = o[OPT_BONUS]
    state["d_min"] = min(o[OPT_RACE_MIN_DISTANCE], np.int64(mp.meta[M_D_MAX]))  # §7.2, G46
    state["n_candidates"] = o[OPT_N_CANDIDATES]
    state["fee_per_step"] = o[OPT_FEE_PER_STEP]
    state["fee_cap"] = o[OPT_FEE_CAP]
    state["n_prizes"] = o[OPT_N_PRIZES]
    for i in range(MAX_PRIZES):
        state["prizes"][i] = o[OPT_PRIZES + i]
    state["resolution"] = o[OPT_RESOLUTION]
    state["ext_mode"] = o[OPT_EXT_MODE]
    state["ext_cap"] = o[OPT_EXT_CAP]
    state["ext_10pct"] = o[OPT_EXT_10PCT] != 0
    state["end_mode"] = o[OPT_END_MODE]
    state["target"] = o[OPT_TARGET]
    state["races_total"] = o[OPT_RACES_TOTAL]
    state["avoid_repeat"] = o[OPT_AVOID_REPEAT] != 0
    n_cities = np.int64(mp.city_hex.shape[0])
    state["repeat_limit"] = (2 * o[OPT_RACES_TOTAL] + n_cities - 1) // n_cities  # ceil (§7.2)
    state["max_races"] = o[OPT_MAX_RACES]
    state["coop"] = o[OPT_COOP] != 0
    state["international"] = o[OPT_INTERNATIONAL] != 0
    state["intl_every"] = o[OPT_INTL_EVERY]
    state["flat_fee"] = o[OPT_FLAT_FEE] != 0
    state["ferries_on"] = o[OPT_FERRIES] != 0
    state["distinct_dirs"] = o[OPT_DISTINCT_DIRS] != 0
    state["auto_forced"] = o[OPT_AUTO_FORCED] != 0
    state["start_player"] = o[OPT_START_PLAYER]  # -1: START rolls for it (§5)


@njit(cache=True)
def _roll_start_player(state) -> None:
    """Everybody rolls both dice in seat order; only tied highest seats roll again, until one is highest (§5, G53)."""
    n = np.int64(state["num_players"])
    rolling = np.ones(n, dtype=np.bool_)
    while True:
        best = 0
        for s in range(n):
            if rolling[s]:
                state["start_rolls"][s] = roll_both(state)
                emit(state, EV_START_ROLL, EVERYONE, s, state["red"], state["white"], 0)
                best = max(best, np.int64(state["start_rolls"][s]))
        winners = 0
        for s in range(n):
            rolling[s] = rolling[s] and state["start_rolls"][s] == best
            if rolling[s]:
                winners += 1
                state["start_player"] = s
        if winners == 1:
            return


# ---- legality: the one place (§11.2) --------------------------------------------------------------------------
@njit(cache=True)
def _enumerate(state, mp, out: np.ndarray, counting: bool) -> tuple:
    """Mark the legal actions of the pending decision; (their count, the last one). Counting stops at 2."""
    ctx = np.int64(state["context"])
    base = np.int64(mp.steps.shape[0])
    count, last = 0, -1
    if ctx == CTX_START_CHOICE:
        for i in range(mp.start_cities.shape[0]):
            mark(out, base + OFF_CHOOSE_START + i)
            count, last = count + 1, base + OFF_CHOOSE_START + i
    elif ctx == CTX_BUILD or ctx == CTX_COOP_BUILD or ctx == CTX_EXT_BUILD:
        mark(out, base + OFF_END_TURN)
        count, last = 1, base + OFF_END_TURN
        count += mark_steps(state, mp, out, counting)
        if counting and count > 1:
            return count, last
        for f in range(mp.ferries.shape[0]):
            if ferry_legal(state, mp, f):
                mark(out, base + OFF_BUILD_FERRY + f)
                count, last = count + 1, base + OFF_BUILD_FERRY + f
        if ctx == CTX_BUILD:
            for j in range(1, MAX_PLAYERS):
                if proposal_legal(state, mp, j):
                    mark(out, base + OFF_COOP_PROPOSE + j)
                    count, last = count + 1, base + OFF_COOP_PROPOSE + j
    elif ctx == CTX_COOP_RESPONSE:
        mark(out, base + OFF_COOP_ACCEPT)
        mark(out, base + OFF_COOP_DECLINE)
        count, last = 2, base + OFF_COOP_DECLINE
    elif ctx == CTX_RACE_ENTRY:
        mark(out, base + OFF_RACE_DECLINE)
        count, last = 1, base + OFF_RACE_DECLINE
        p = np.int64(state["current"])
        for k in range(N_ROUTE_OBJECTIVES):  # slot 3 is never filled (§7.5)
            if state["cand_valid"][p, k]:
                mark(out, base + OFF_RACE_ENTER + k)
                count, last = count + 1, base + OFF_RACE_ENTER + k
    elif ctx == CTX_EXT_FUNDING:
        mark(out, base + OFF_FUND_DICE)
        count, last = 1, base + OFF_FUND_DICE
        if _account_possible(state, np.int64(state["current"])):
            mark(out, base + OFF_FUND_ACCOUNT)
            count, last = 2, base + OFF_FUND_ACCOUNT
    return count, last


@njit(cache=True)
def _account_possible(state, p: int) -> bool:
    """FUND_ACCOUNT: at least one BP could be bought (§11.2)."""
    if state["balance"][p] < 1 or state["ext_cap"] < 1:
        return False
    return not state["ext_10pct"] or state["bp_bought"][p] < state["race_income"][p] // 10


# ---- automatic play -------------------------------------------------------------------------------------------
@njit(cache=True)
def _advance(state, mp, out_row: np.ndarray) -> None:
    """With auto_forced, apply every decision that has a single legal action (§11.4). A non-empty
    ``out_row`` gets the legal mask of the decision that remains: the enumeration that counts the legal
    actions marks it in the same pass (``legal_mask_one``); an empty one only counts, up to 2."""
    counting = out_row.shape[0] == 0
    while True:
        if not counting:
            out_row[:] = 0
        if state["done"] or (counting and not state["auto_forced"]):
            return
        count, last = _enumerate(state, mp, out_row, counting)
        if count != 1 or not state["auto_forced"]:
            return
        _run(state, mp, _apply(state, mp, last))


@njit(cache=True)
def _run(state, mp, k: int) -> None:
    """Run the automatic stages of the flow from continuation k until a decision is posed or the game ends."""
    while k != K_WAIT:
        if k == K_BEGIN_ROUND:
            k = _begin_round(state)
        elif k == K_BEGIN_BUILD_TURN:
            k = _begin_build_turn(state)
        elif k == K_END_ROUND:
            k = _end_round(state, mp)
        elif k == K_BEGIN_RACE:
            k = _begin_race(state, mp)
        elif k == K_BEGIN_WINDOW:
            k = _begin_window(state)
        elif k == K_BEGIN_EXT_TURN:
            k = _begin_ext_turn(state)
        else:
            k = _end_window(state)


@njit(cache=True)
def _apply(state, mp, action: int) -> int:
    """Apply one legal action of the pending decision; the continuation of the flow that follows it."""
    base = np.int64(mp.steps.shape[0])
    if action < base:
        build_step(state, mp, action)
        return K_WAIT
    off = action - base
    ctx = np.int64(state["context"])
    if off == OFF_END_TURN:
        if ctx == CTX_EXT_BUILD:
            return _end_ext_turn(state)
        return _end_build_turn(state)
    if off < OFF_RACE_DECLINE:
        choose_start(state, mp, np.int64(state["current"]), off - OFF_CHOOSE_START)
        state["context"] = CTX_BUILD
    elif off < OFF_COOP_PROPOSE + 1:
        return _decide_entry(state, mp, off)
    elif off < OFF_COOP_ACCEPT:
        _propose(state, off - OFF_COOP_PROPOSE)
    elif off == OFF_COOP_ACCEPT:
        _accept(state)
    elif off == OFF_COOP_DECLINE:
        emit(state, EV_COOP_DECLINED, EVERYONE, state["builder"], state["partner"], 0, 0)
        state["coop_declined"] = True
        state["partner"] = -1
        state["context"] = CTX_BUILD
        state["current"] = state["builder"]
    elif off == OFF_FUND_DICE:
        _fund_dice(state)
    elif off == OFF_FUND_ACCOUNT:
        emit(state, EV_FUNDING_CHOSEN, EVERYONE, state["current"], FUND_ACCOUNT, 0, 0)
        state["funding"] = FUND_ACCOUNT
        state["context"] = CTX_EXT_BUILD
    else:
        build_ferry(state, mp, off - OFF_BUILD_FERRY)
    return K_WAIT


# ---- build phase (§6) -------------------------------------------------------------------------------------------
@njit(cache=True)
def _begin_round(state) -> int:
    """Round k: one turn per seat from (S + k) mod n; the shared roll comes first (§6.1, §6.3)."""
    emit(state, EV_ROUND_BEGINS, EVERYONE, state["round"],
         (np.int64(state["start_player"]) + np.int64(state["round"])) % np.int64(state["num_players"]), 0, 0)
    state["turn_used"][:] = 0
    state["turn_pos"] = 0
    if state["shared_roll"]:
        state["shared_bp"] = roll_build(state)
        emit(state, EV_BUILD_ROLL, EVERYONE, SHARED_SEAT, state["red"], state["white"], state["shared_bp"])
    return K_BEGIN_BUILD_TURN


@njit(cache=True)
def _begin_build_turn(state) -> int:
    """The next turn of the round that is not used up: roll, then the start choice or BUILD (§6.2)."""
    n = np.int64(state["num_players"])
    while state["turn_pos"] < n:
        p = (np.int64(state["start_player"]) + np.int64(state["round"]) + np.int64(state["turn_pos"])) % n
        if state["turn_used"][p]:
            state["turn_pos"] += 1  # used up by a co-build (§9.1 item 4): rolls nothing
            continue
        bp = np.int64(state["shared_bp"]) if state["shared_roll"] else roll_build(state)
        if not state["shared_roll"]:
            emit(state, EV_BUILD_ROLL, EVERYONE, p, state["red"], state["white"], bp)
        _open_turn(state, p, np.int64(FUND_BP), bp)
        emit(state, EV_TURN_BEGINS, EVERYONE, p, TURN_BUILD, FUND_BP, bp)
        state["context"] = CTX_START_CHOICE if state["start_city"][p] < 0 else CTX_BUILD
        return K_WAIT
    return K_END_ROUND


@njit(cache=True)
def _open_turn(state, p: int, funding: int, bp: int) -> None:
    state["builder"] = p
    state["current"] = p
    state["partner"] = -1
    state["funding"] = funding
    state["bp_left"] = bp
    state["own_bp"] = bp
    state["turn_builds"] = 0
    state["coop_declined"] = False


@njit(cache=True)
def _end_build_turn(state) -> int:
    """END_TURN of a build turn or co-build: unused BP are lost; the next turn follows (§6.2)."""
    emit(state, EV_TURN_ENDS, EVERYONE, state["builder"], state["bp_left"], 0, 0)
    state["turn_used"][state["builder"]] = 1
    state["bp_left"] = 0
    state["partner"] = -1
    state["funding"] = FUND_NONE
    state["turn_pos"] += 1
    return K_BEGIN_BUILD_TURN


@njit(cache=True)
def _end_round(state, mp) -> int:
    """After a round: the build phase ends once every city is joined or after build_rounds rounds (§6.10)."""
    state["round"] += 1
    if state["round"] >= state["build_rounds"] or (state["early_end"] and all_cities_joined(state, mp)):
        emit(state, EV_OPERATION_BEGINS, EVERYONE, state["round"], 1 if state["round"] < state["build_rounds"] else 0,
             0, 0)
        state["operating"] = True
        return K_BEGIN_RACE
    return K_BEGIN_ROUND


@njit(cache=True)
def _propose(state, j: int) -> None:
    """COOP_PROPOSE(j): partner (p + j) mod n answers (§9.1 items 2-3)."""
    q = (np.int64(state["builder"]) + j) % np.int64(state["num_players"])
    emit(state, EV_COOP_PROPOSED, EVERYONE, state["builder"], q, 0, 0)
    state["partner"] = q
    state["context"] = CTX_COOP_RESPONSE
    state["current"] = q


@njit(cache=True)
def _accept(state) -> None:
    """COOP_ACCEPT: the partner rolls; pooled BP = floor(3 (BP_p + BP_q) / 4); his turn is used up (§9.1 item 4)."""
    q = np.int64(state["partner"])
    bp_q = np.int64(state["shared_bp"]) if state["shared_roll"] else roll_build(state)
    if not state["shared_roll"]:
        emit(state, EV_BUILD_ROLL, EVERYONE, q, state["red"], state["white"], bp_q)
    state["bp_left"] = (3 * (np.int64(state["own_bp"]) + bp_q)) // 4
    emit(state, EV_COOP_ACCEPTED, EVERYONE, state["builder"], q, state["bp_left"], 0)
    state["turn_used"][q] = 1
    state["context"] = CTX_COOP_BUILD
    state["current"] = state["builder"]


# ---- operation phase (§7) ---------------------------------------------------------------------------------------
@njit(cache=True)
def _begin_race(state, mp) -> int:
    """Race k: generate, compute candidates, ask for entries clockwise from F_k = (S + R + k) mod n (§7.1)."""
    n = np.int64(state["num_players"])
    state["race_first"] = (np.int64(state["start_player"]) + np.int64(state["round"]) +
                           np.int64(state["race_k"])) % n
    generate_race(state, mp)
    compute_candidates(state, mp)
    state["entry"][:] = ENTRY_UNDECIDED
    state["entry_slot"][:] = -1
    state["turn_pos"] = 0
    state["builder"] = -1
    state["funding"] = FUND_NONE
    state["context"] = CTX_RACE_ENTRY
    state["current"] = state["race_first"]
    return K_WAIT


@njit(cache=True)
def _decide_entry(state, mp, off: int) -> int:
    """RACE_DECLINE or RACE_ENTER(k); after the last decision the race is run (§7.6)."""
    p = np.int64(state["current"])
    emit(state, EV_RACE_ENTRY, EVERYONE, p, -1 if off == OFF_RACE_DECLINE else off - OFF_RACE_ENTER, 0, 0)
    if off == OFF_RACE_DECLINE:
        state["entry"][p] = ENTRY_DECLINED
    else:
        state["entry"][p] = ENTRY_ENTERED
        state["entry_slot"][p] = off - OFF_RACE_ENTER
    state["turn_pos"] += 1
    n = np.int64(state["num_players"])
    if state["turn_pos"] < n:
        state["current"] = (np.int64(state["race_first"]) + np.int64(state["turn_pos"])) % n
        return K_WAIT
    resolve_race(state, mp)
    k = np.int64(state["race_k"])
    state["race_k"] = k + 1
    _clear_race(state)
    if _race_ends_game(state, k) or _target_reached(state):
        _end_game(state)
        return K_WAIT
    return K_BEGIN_WINDOW


@njit(cache=True)
def _clear_race(state) -> None:
    state["race_start"] = -1
    state["race_goal"] = -1
    state["race_country"] = -1
    state["entry"][:] = ENTRY_UNDECIDED
    state["entry_slot"][:] = -1
    state["cand_valid"][:] = 0
    state["cand_hexes"][:] = 0


@njit(cache=True)
def _race_ends_game(state, k: int) -> bool:
    """The last race of "races" mode, or the max_races guard of "points" mode (§7.11, G28)."""
    if state["end_mode"] == END_POINTS:
        return k >= np.int64(state["max_races"]) - 1
    return k >= np.int64(state["races_total"]) - 1


@njit(cache=True)
def _target_reached(state) -> bool:
    """"points" mode: some balance is at least the target (§7.11)."""
    if state["end_mode"] != END_POINTS:
        return False
    for s in range(np.int64(state["num_players"])):
        if state["balance"][s] >= state["target"]:
            return True
    return False


@njit(cache=True)
def _begin_window(state) -> int:
    """The extension window: one turn per seat, clockwise from F_k (§7.10)."""
    emit(state, EV_WINDOW_BEGINS, EVERYONE, np.int64(state["race_k"]) - 1, 0, 0, 0)
    state["window_bp"][:] = 0
    state["turn_pos"] = 0
    return K_BEGIN_EXT_TURN


@njit(cache=True)
def _begin_ext_turn(state) -> int:
    """An extension turn funded by extension_mode: the account, an own dice roll, or the player's choice (§7.10)."""
    n = np.int64(state["num_players"])
    if state["turn_pos"] >= n:
        return K_END_WINDOW
    p = (np.int64(state["race_first"]) + np.int64(state["turn_pos"])) % n
    mode = np.int64(state["ext_mode"])
    if mode == EXT_ACCOUNT:
        _open_turn(state, p, np.int64(FUND_ACCOUNT), np.int64(0))
        state["context"] = CTX_EXT_BUILD
    elif mode == EXT_DICE:
        _open_turn(state, p, np.int64(FUND_BP), roll_build(state))  # always an own roll (G49)
        emit(state, EV_BUILD_ROLL, EVERYONE, p, state["red"], state["white"], state["bp_left"])
        state["context"] = CTX_EXT_BUILD
    else:
        _open_turn(state, p, np.int64(FUND_NONE), np.int64(0))
        state["context"] = CTX_EXT_FUNDING
    emit(state, EV_TURN_BEGINS, EVERYONE, p, TURN_EXTENSION, state["funding"], state["bp_left"])
    return K_WAIT


@njit(cache=True)
def _fund_dice(state) -> None:
    """FUND_DICE: roll at once and build with those BP (§7.10)."""
    emit(state, EV_FUNDING_CHOSEN, EVERYONE, state["current"], FUND_BP, 0, 0)
    bp = roll_build(state)
    emit(state, EV_BUILD_ROLL, EVERYONE, state["current"], state["red"], state["white"], bp)
    state["funding"] = FUND_BP
    state["bp_left"] = bp
    state["own_bp"] = bp
    state["context"] = CTX_EXT_BUILD


@njit(cache=True)
def _end_ext_turn(state) -> int:
    emit(state, EV_TURN_ENDS, EVERYONE, state["builder"], state["bp_left"], 0, 0)
    state["bp_left"] = 0
    state["funding"] = FUND_NONE
    state["turn_pos"] += 1
    return K_BEGIN_EXT_TURN


@njit(cache=True)
def _end_window(state) -> int:
    """After the window: the end test again, then the next race (§7.1 item 9)."""
    state["builder"] = -1
    if _target_reached(state):
        _end_game(state)
        return K_WAIT
    return K_BEGIN_RACE


@njit(cache=True)
def _end_game(state) -> None:
    """GAME_OVER: nobody decides; every mask is all zeros (§11.2)."""
    emit(state, EV_GAME_OVER, EVERYONE, END_TARGET if _target_reached(state) else
         (END_LAST_RACE if state["end_mode"] != END_POINTS else END_RACE_CAP), state["race_k"], 0, 0)
    for s in range(np.int64(state["num_players"])):
        emit(state, EV_FINAL_STANDING, EVERYONE, s, state["balance"][s], seats_ahead(state, s), 0)
    state["done"] = True
    state["context"] = CTX_GAME_OVER
    state["current"] = -1
    state["builder"] = -1
    state["partner"] = -1
    state["funding"] = FUND_NONE
    state["bp_left"] = 0
