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

from ..core.chance import die
from ..core.game import Game

SCORE_SCALE = 20.0  # reward_mode="score": VP / 20 (§14)

GAME = Game.from_package("way_out_west_v0", __package__, score_scale=SCORE_SCALE, information="perfect",
                         chance_kinds=(die(),))  # gunfight volleys and the loot roll (§13.3)
