"""Wild West Express bound into the library's batched ``Game`` API (``core.game``)."""

from __future__ import annotations

import numpy as np

from ..core.game import Game
from . import hidden, invariants, names, observation, render, rules
from .data import CAP_SCORING_DRAW, MAX_PLAYERS, MIN_PLAYERS, N_ACTIONS
from .options import OPTIONS
from .state import STATE_DTYPE


def _capped(states: np.ndarray) -> np.ndarray:
    """Games ended by the round cap or the per-turn safety limit (§14.4): truncated, scored by VP."""
    return states["capped"].astype(bool)


def _no_result(states: np.ndarray) -> np.ndarray:
    """Capped games scored as a draw (``cap_scoring="draw"``): every player gets 0 (§14.5)."""
    return states["capped"].astype(bool) & (states["cap_scoring"] == CAP_SCORING_DRAW)


GAME = Game(
    name="wild_west_express_v0",
    state_dtype=STATE_DTYPE,
    n_actions=N_ACTIONS,
    obs_layout=observation.OBS,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    init_kernel=rules.init,
    legal_mask_kernel=rules.legal_mask,
    step_kernel=rules.step_and_mask,
    observe_kernel=observation.observe,
    scores_kernel=rules.scores,
    tiebreak_kernel=rules.tiebreak,
    action_to_string_fn=names.action_to_string,
    render_ansi_fn=render.render_ansi,
    render_rgb_fn=render.render_rgb,
    validate_state_fn=invariants.validate_state,
    invariants_kernel=invariants.check_invariants,
    invariant_messages=invariants.INVARIANT_MESSAGES,
    score_scale=1.0,
    resample_hidden_fn=hidden.resample_hidden,
    capped_fn=_capped,
    no_result_fn=_no_result,
)
