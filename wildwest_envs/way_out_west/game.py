"""Way Out West bound into the library's batched ``Game`` API (``core.game``).

**Hidden information.** Way Out West has none (spec §12): every counter, all
money, every bid, the Wanted counters, the boxes, the turn order and the
frontier are public, and every seat observes the same facts. The only unknown
is chance: the future gunfight and bank-robbery dice. The game is declared of
perfect information, so ``Game.resample_hidden`` is a *reseed-only
determinizer*: it returns copies of the records with a new generator state and
an empty die queue (so a search agent cannot plan with the real upcoming dice,
nor with dice preset for a test) and changes nothing else; the seat argument is
accepted for the common interface and checked, but no seat has anything to
redraw.
"""

from __future__ import annotations

from ..core.game import Game
from . import invariants, names, observation, render, rules
from .data import MAX_PLAYERS, MIN_PLAYERS, N_ACTIONS
from .options import OPTIONS
from .state import STATE_DTYPE

SCORE_SCALE = 20.0  # reward_mode="score": VP / 20 (§14)


GAME = Game(
    name="way_out_west_v0",
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
    score_scale=SCORE_SCALE,
    information="perfect",
)
