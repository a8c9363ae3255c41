"""Colt Express bound into the library's batched ``Game`` API (``core.game``)."""

from __future__ import annotations


from ..core.game import Game
from . import hidden, invariants, names, observation, render, rules
from .data import MAX_PLAYERS, MIN_PLAYERS, N_ACTIONS
from .options import OPTIONS
from .state import STATE_DTYPE


GAME = Game(
    name="colt_express_v0",
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
    score_scale=1000.0,
    resample_hidden_fn=hidden.resample_hidden,
)
