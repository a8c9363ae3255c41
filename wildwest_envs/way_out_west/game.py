"""Way Out West bound into the library's batched ``Game`` API (``core.game``).

**Hidden information.** Way Out West has none (spec §12): every counter, all
money, every bid, the Wanted counters, the boxes, the turn order and the
frontier are public, and every seat observes the same facts. The only unknown
is chance: the future gunfight and bank-robbery dice. ``resample_hidden`` is
therefore a *reseed-only determinizer*: it returns copies of the records with a
new generator state and an empty die queue (so a search agent cannot plan with
the real upcoming dice, nor with dice preset for a test) and changes nothing
else; the seat argument is accepted for the common interface and checked, but
no seat has anything to redraw.
"""

from __future__ import annotations

import numpy as np

from ..core.game import Game
from ..core.kernels import dual
from . import invariants, observation, render, rules
from .data import MAX_PLAYERS, MIN_PLAYERS, N_ACTIONS
from .options import kernel_arguments, parse_options
from .state import STATE_DTYPE

SCORE_SCALE = 20.0  # reward_mode="score": VP / 20 (§14)
_INIT = dual(rules.init)


def _init(states: np.ndarray, seeds: np.ndarray, options: dict) -> None:
    """Set up fresh games with the parsed options (§4)."""
    _INIT(states, seeds, *kernel_arguments(options))


def resample_hidden(states: np.ndarray, seats, seeds) -> np.ndarray:
    """Copies of ``states`` with a reseeded generator and no preset dice (module docstring).

    Args:
        states: ``(B,)`` Way Out West records (left unchanged).
        seats: the observing seat of each game (an integer or ``(B,)``); checked only.
        seeds: 64-bit generator state of each new record (an integer or ``(B,)``).

    Returns:
        ``(B,)`` records whose every observation equals the original's, with new chance.
    """
    out = np.array(states, dtype=STATE_DTYPE, copy=True).reshape(-1)
    seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(out),))
    seeds = np.broadcast_to(np.asarray(seeds, dtype=np.uint64), (len(out),))
    if np.any(seats < 0) or np.any(seats >= out["num_players"]):
        raise ValueError(f"observer seats {seats.tolist()} out of range for num_players")
    out["rng"] = seeds
    out["n_forced"] = 0
    out["forced_pos"] = 0
    out["forced"] = 0
    return out


GAME = Game(
    name="way_out_west_v0",
    state_dtype=STATE_DTYPE,
    n_actions=N_ACTIONS,
    obs_layout=observation.OBS,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    parse_options=parse_options,
    init_kernel=_init,
    legal_mask_kernel=rules.legal_mask,
    step_kernel=rules.step_and_mask,
    observe_kernel=observation.observe,
    scores_kernel=rules.scores,
    tiebreak_kernel=rules.tiebreak,
    action_to_string_fn=render.action_to_string,
    render_ansi_fn=render.render_ansi,
    render_rgb_fn=render.render_rgb,
    validate_state_fn=invariants.validate_state,
    invariants_kernel=invariants.check_invariants,
    invariant_messages=invariants.INVARIANT_MESSAGES,
    score_scale=SCORE_SCALE,
    resample_hidden_fn=resample_hidden,
)
