"""Seeded random play of a registered game: one rendered game, then a results table.

    python -m examples.random_play --game colt_express --players 3 --games 5000

1. Plays one game through the PettingZoo AEC API with uniform random agents,
   printing the opening and final boards (``render_mode="ansi"``) and the result.
2. Plays ``--games`` games through the batched engine with a progress bar and
   prints a Markdown table per seat: win rate with a 95% Wilson interval, mean
   score, and the decisions per second achieved.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from wildwest_envs import make
from wildwest_envs.core.sampling import LegalSampler
from wildwest_envs.registry import get_game


def play_rendered_game(name: str, num_players: int, seed: int) -> None:
    """Play one seeded game with random agents; print its first and last boards."""
    env = make(name, num_players=num_players, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    print(env.render())
    decisions = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final_info = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    print(env.render())
    print(f"game over after {decisions} decisions; scores {final_info['scores']}; winners {final_info['winners']}\n")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate_random(name: str, num_players: int, n_games: int, seed: int, batch: int = 1024) -> str:
    """Play ``n_games`` random games in batches; return the per-seat results table."""
    from tqdm import tqdm

    game = get_game(name)
    wins = np.zeros(num_players)
    score_sum = np.zeros(num_players)
    played = decisions = 0
    start = time.perf_counter()
    with tqdm(total=n_games, desc=f"random play, {name}, {num_players} players", unit="game") as bar:
        while played < n_games:
            size = min(batch, n_games - played)
            states = game.init_batch(size, seed, offset=played, num_players=num_players)
            sample = LegalSampler(size, seed + played)
            masks = game.legal_mask(states)
            actions = sample(masks)
            while not game.finished(states).all():
                decisions += int((actions >= 0).sum())
                game.step(states, actions, check=False, masks=masks, draws=sample.rng)  # next masks and actions
            wins += (game.returns(states, "win")[:, :num_players] > 0).sum(axis=0)
            score_sum += game.scores(states)[:, :num_players].sum(axis=0)
            played += size
            bar.update(size)
    rate = decisions / (time.perf_counter() - start)
    lines = ["| seat | win rate (95% CI) | mean score |", "|---|---|---:|"]
    for seat in range(num_players):
        low, high = wilson(wins[seat], played)
        lines.append(f"| player_{seat} | {wins[seat] / played:.3f} ({low:.3f}-{high:.3f}) | "
                     f"{score_sum[seat] / played:,.0f} |")
    lines.append(f"\n{played} games, {decisions:,} decisions, {rate:,.0f} decisions/s (compilation included)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="colt_express", help="registered game")
    parser.add_argument("--players", type=int, default=3, help="number of players")
    parser.add_argument("--games", type=int, default=5000, help="games in the results table")
    parser.add_argument("--seed", type=int, default=7, help="run seed")
    args = parser.parse_args()
    play_rendered_game(args.game, args.players, args.seed)
    print(evaluate_random(args.game, args.players, args.games, args.seed))


if __name__ == "__main__":
    main()
