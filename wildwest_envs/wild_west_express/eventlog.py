"""Wild West Express events (``core.eventlog``): the kinds a step reports, and their codes for the kernels.

| code | event | arguments | § |
|---|---|---|---|
| 1 | ``dice_rolled`` | seat, a, b, c (the three dice, sorted a >= b >= c) | §6.4 |
"""

from __future__ import annotations

from ..core.eventlog import EventKind, EventKinds

EV_DICE_ROLLED = 1

EVENT_KINDS = EventKinds(
    EventKind(EV_DICE_ROLLED, "dice_rolled", ("seat", "a", "b", "c"), "the active seat rolled three dice", "§6.4"),
)
