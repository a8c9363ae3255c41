"""Records from seeded random play, for tests that need many realistic positions."""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.way_out_west.data import MAX_PLAYERS
from wildwest_envs.way_out_west.game import GAME
from wildwest_envs.way_out_west.state import NOBODY

# record fields that hold a seat (or NOBODY), and fields with a seat axis (axis given)
SEAT_VALUED = ("current", "start_player", "turn_order", "bidding_order", "new_order", "high_bidder", "box_user",
               "bt_owner", "pend_defender", "gf_attacker", "gf_winner", "retreat_seat")
SEAT_AXIS = {"bid": 0, "bidding": 0, "turns_used": 0, "cowboys": 1, "cattle": 1, "cash": 0, "cowboy_supply": 0,
             "cattle_supply": 0, "bt_supply": 0, "bt_removed": 0, "farmer_used": 0, "wanted": 0}


def random_states(n_games: int = 40, every: int = 17, seed: int = 0, num_players: int | None = None,
                  **options) -> np.ndarray:
    """Snapshots every ``every`` decisions of ``n_games`` seeded random games (all player counts by default)."""
    counts = [num_players] if num_players else [3, 4, 5]
    snapshots = []
    for k, n in enumerate(counts):
        states = GAME.init_batch(n_games, seed=seed + k, num_players=n, **options)
        sample = LegalSampler(n_games, seed + k)
        step = 0
        while not states["done"].all():
            if step % every == 0:
                snapshots.append(states[~states["done"]].copy())
            GAME.step(states, sample(GAME.legal_mask(states)), check=False)
            step += 1
        snapshots.append(states.copy())
    return np.concatenate(snapshots)


def rotate_seats(state: np.void, k: int) -> np.ndarray:
    """A ``(1,)`` batch: the same game with every seat s renamed (s + k) mod N (rules are seat-symmetric)."""
    n = int(state["num_players"])
    out = np.array([state]).copy()
    r = out[0]
    perm = [(s - k) % n for s in range(n)]  # new seat j holds old seat perm[j]
    for name, axis in SEAT_AXIS.items():
        values = np.array(state[name])
        moved = values.copy()
        index = [slice(None)] * values.ndim
        source = [slice(None)] * values.ndim
        for j in range(n):
            index[axis], source[axis] = j, perm[j]
            moved[tuple(index)] = values[tuple(source)]
        r[name] = moved
    for name in SEAT_VALUED:
        values = np.array(state[name])
        r[name] = np.where(values == NOBODY, NOBODY, (values + k) % n).astype(values.dtype)
    assert MAX_PLAYERS == 5
    return out
