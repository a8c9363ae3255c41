"""Wild West Express records for the observation and render tests.

``random_states(num_players)`` plays a few seeded games with uniformly random
legal actions of the rules kernels and returns snapshots: every record at a
TELEGRAM_DRAWN decision (a private drawn card, §16.2), every ``EVERY``-th
other snapshot (in most of them somebody holds personal cards), and the final
records. Results are cached per configuration.

``position(n)`` is a hand-made position: a game set up by the kernels with
the first legal choices (§5), then pieces placed by hand, at the start
player's PRE_ROLL decision.

The hidden-variant helpers ``swap_held_card``, ``swap_drawn_card``,
``permute_deck`` and ``change_generator`` change one record in place in a way
§16.3 says some or all players cannot see, and return whether they applied.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tests import _observation as observation_checks
from wildwest_envs.core.kernels import serial
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.wild_west_express import rules
from wildwest_envs.wild_west_express.data import (CARD_CLASS, CLASS_PERSONAL, DEC_PRE_ROLL, DEC_TELEGRAM_DRAWN,
                                                  N_ACTIONS, NO_CARD)
from wildwest_envs.wild_west_express.options import kernel_options, parse_options
from wildwest_envs.wild_west_express.state import NOBODY, STATE_DTYPE
from wildwest_envs.registry import get_game

_INIT = get_game("wild_west_express_v0").init_kernel  # the serial deal the library runs (core.kernels.serial)

PLAYER_COUNTS = (2, 3, 4, 5)
EVERY = 25  # keep every 25th ordinary snapshot
GAMES_PER_CONFIG = 2


def new_games(num_players: int, n_games: int, seed: int, **options) -> np.ndarray:
    """Freshly initialised games."""
    states = np.zeros(n_games, dtype=STATE_DTYPE)
    _INIT(states, game_seeds(seed, n_games), kernel_options(parse_options(num_players=num_players, **options)))
    return states


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without any)."""
    scores = rng.random(masks.shape) * (masks > 0)
    return np.argmax(scores, axis=1).astype(np.int64)


def _kept(states: np.ndarray, step: int) -> np.ndarray:
    """The live records of this step worth keeping: TELEGRAM_DRAWN ones, and all of every EVERY-th step."""
    live = ~states["done"]
    return live & ((states["decision"] == DEC_TELEGRAM_DRAWN) | (step % EVERY == 0))


@lru_cache(maxsize=None)
def random_states(num_players: int, n_games: int = GAMES_PER_CONFIG, seed: int = 0) -> np.ndarray:
    """Snapshots of ``n_games`` random games (see the module docstring); read-only."""
    states = new_games(num_players, n_games, seed)
    rng = np.random.default_rng(seed + 1000 * num_players)
    masks = np.zeros((n_games, N_ACTIONS), dtype=np.int8)
    kept = [states.copy()]
    step = 0
    while not states["done"].all():
        serial(rules.legal_mask)(states, masks)
        rules.step(states, random_actions(masks, rng))
        step += 1
        keep = _kept(states, step)
        if keep.any():
            kept.append(states[keep])
    kept.append(states.copy())
    result = np.concatenate(kept)
    result.setflags(write=False)
    return result


def play_first_legal_until(states: np.ndarray, decision: int) -> None:
    """Take the lowest legal action until every game reaches ``decision`` (setup: §5)."""
    masks = np.zeros((len(states), N_ACTIONS), dtype=np.int8)
    while (states["decision"] != decision).any():
        serial(rules.legal_mask)(states, masks)
        rules.step(states, np.argmax(masks, axis=1).astype(np.int64))


def position(n: int = 4) -> np.ndarray:
    """A batch of one at the start player's first PRE_ROLL, with hand-placed pieces.

    Train 0 of seat 1 stands on track space 145 (Salt Lake City - Cheyenne),
    large, with Gold and passengers from the Pacific zone; desperado 0 of
    seat 0 stands on 145 too; dynamite lies on 37, sheriff 0 in Denver; seat 1
    holds Express Schedule (card 3) bound to its train 0.
    """
    states = new_games(n, 1, seed=7)
    play_first_legal_until(states, DEC_PRE_ROLL)
    s = states[0]
    s["train_large"][1, 0] = 1
    s["train_pos"][1, 0], s["train_from"][1, 0] = 145, 144
    s["train_cargo"][1, 0] = [1, 9]  # Gold, passengers (Pacific)
    s["desp_pos"][0, 0] = 145
    s["dynamite"][37] = 1
    s["dynamite_supply"] -= 1
    s["sheriff_pos"][0] = 12  # Denver
    _hold_card(s, 1, 3, 0)
    return states


def _hold_card(s: np.void, seat: int, card: int, train: int) -> None:
    """Take ``card`` out of the never-drawn part of the deck into ``seat``'s hand, bound to ``train``."""
    deck = [int(c) for c in s["deck"][:s["deck_size"]]]
    deck.remove(card)
    s["deck"][:] = -1
    s["deck"][:len(deck)] = deck
    s["deck_size"] = len(deck)
    s["never_drawn"] -= 1
    s["card_holder"][card] = seat
    s["card_bound"][card] = train


# ---- hidden variants (§16.2, §16.3) ----------------------------------------------------------------------
def never_drawn_personal(record: np.void) -> list[int]:
    """Positions in the deck of never-drawn personal cards (hidden from everyone)."""
    return [i for i in range(int(record["never_drawn"])) if CARD_CLASS[record["deck"][i]] == CLASS_PERSONAL]


def swap_held_card(record: np.void, owner: int, rng: np.random.Generator) -> bool:
    """Exchange one of ``owner``'s held cards with a never-drawn personal card; same count, same bound train."""
    held = np.flatnonzero(record["card_holder"] == owner)
    positions = never_drawn_personal(record)
    if len(held) == 0 or not positions:
        return False
    card, i = int(rng.choice(held)), int(rng.choice(positions))
    other = int(record["deck"][i])
    record["deck"][i] = card
    record["card_holder"][other], record["card_bound"][other] = owner, record["card_bound"][card]
    record["card_holder"][card], record["card_bound"][card] = NOBODY, NOBODY
    return True


def swap_drawn_card(record: np.void, rng: np.random.Generator) -> bool:
    """At TELEGRAM_DRAWN, the drawn card becomes another never-drawn personal card."""
    positions = never_drawn_personal(record)
    if record["decision"] != DEC_TELEGRAM_DRAWN or record["drawn_card"] == NO_CARD or not positions:
        return False
    i = int(rng.choice(positions))
    record["deck"][i], record["drawn_card"] = record["drawn_card"], record["deck"][i]
    return True


def permute_deck(record: np.void, size: int, rng: np.random.Generator) -> bool:
    """Reorder the first ``size`` deck cards."""
    part = record["deck"][:size].copy()
    if size < 2:
        return False
    while True:
        new = rng.permutation(part)
        if not np.array_equal(new, part):
            record["deck"][:size] = new
            return True


def change_generator(record: np.void, rng: np.random.Generator) -> bool:
    """New generator state and scripted-chance queue of 1 to 16 draws (never observed, DESIGN.md)."""
    return observation_checks.change_generator(record, rng, fewest_forced=1)
