"""Imitation warm start: clone a teacher agent into a MaskablePPO policy before self-play.

PPO from a random policy spends most of a short budget discovering what a
hand-written heuristic already knows. ``training.train --imitate heuristic``
therefore first plays games in which *every* seat is the teacher, records each
decision, and fits the policy to them:

* the actor by behaviour cloning: maximise the masked log-probability of the
  teacher's action (cross-entropy over the legal actions only);
* the critic by regression on the acting seat's discounted final reward, so that
  PPO starts with a value function that matches the warm-started policy instead
  of one that would drag it back with noisy advantages.

PPO then trains from these weights as usual (its own optimiser is untouched).
The same seeds give the same demonstrations and the same pretrained weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm.auto import tqdm

from wildwest_envs.core.rng import game_seeds
from wildwest_envs.core.runner import Decisions, play_to_end


@dataclass
class Demonstrations:
    """Decisions of a teacher: what each seat saw, could do, did, and finally got.

    Attributes:
        observations: ``(N, obs_size)`` float16 (observations are small counts and flags).
        masks: ``(N, n_actions)`` bool legal actions.
        actions: ``(N,)`` int64 the teacher's choices.
        returns: ``(N,)`` float32 the acting seat's final reward, discounted by
            ``gamma`` per later decision of that seat (what PPO's critic estimates).
    """

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def collect_demonstrations(game, teacher, n_decisions: int, seed: int, gamma: float, reward_mode: str = "win",
                           batch_games: int = 256, progress: bool = True, **options) -> Demonstrations:
    """Play batches of games with ``teacher`` in every seat until ``n_decisions`` are recorded.

    Games are seeded ``game_seeds(seed, batch_games, offset)`` batch after batch, so
    the demonstrations depend on ``seed`` alone. Truncated games are left out (they
    carry no result to learn the value from).
    """
    chunks: list[Demonstrations] = []
    recorded, offset = 0, 0
    bar = tqdm(total=n_decisions, desc=f"demonstrations ({teacher.name})", unit="dec", disable=not progress)
    while recorded < n_decisions:
        demos = _play_batch(game, teacher, game_seeds(seed, batch_games, offset), gamma, reward_mode, options)
        offset += batch_games
        chunks.append(demos)
        bar.update(min(len(demos), n_decisions - recorded))  # the last batch's surplus is cut below
        recorded += len(demos)
    bar.close()
    return Demonstrations(*(np.concatenate([getattr(c, f) for c in chunks])[:n_decisions]
                            for f in ("observations", "masks", "actions", "returns")))


def _play_batch(game, teacher, seeds: np.ndarray, gamma: float, reward_mode: str, options: dict) -> Demonstrations:
    """One batch of complete teacher-only games, every decision recorded."""
    states = game.init(seeds, **options)
    obs_rows, mask_rows, action_rows, game_rows, seat_rows = [], [], [], [], []

    def record(decisions: Decisions) -> None:
        obs_rows.append(decisions.observations.astype(np.float16))
        mask_rows.append(decisions.masks.astype(bool))
        action_rows.append(decisions.actions)
        game_rows.append(decisions.rows)
        seat_rows.append(decisions.seats)

    play_to_end(game, states, [teacher], np.zeros((len(states), game.max_players), np.int64), on_decisions=record)
    games, seats = np.concatenate(game_rows), np.concatenate(seat_rows)
    final = game.returns(states, reward_mode)[games, seats]
    keep = ~game.truncated(states)[games]
    # decisions of the same seat still to come in the same game: the discount exponent
    later = _later_decisions(games, seats, game.max_players)
    returns = (final * gamma ** later).astype(np.float32)
    return Demonstrations(np.concatenate(obs_rows)[keep], np.concatenate(mask_rows)[keep],
                          np.concatenate(action_rows)[keep], returns[keep])


def _later_decisions(games: np.ndarray, seats: np.ndarray, max_players: int) -> np.ndarray:
    """For each decision (in play order), how many later decisions the same seat makes in the same game."""
    key = games * max_players + seats
    counts = np.zeros(key.max() + 1, dtype=np.int64)
    later = np.zeros(len(key), dtype=np.int64)
    for i in range(len(key) - 1, -1, -1):  # backwards: count what comes after
        later[i] = counts[key[i]]
        counts[key[i]] += 1
    return later


def pretrain_policy(model, demos: Demonstrations, epochs: int = 4, batch_size: int = 1024,
                    learning_rate: float = 1e-3, value_coef: float = 0.5, holdout: float = 0.05,
                    seed: int = 0, progress: bool = True) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO policy) to the demonstrations, in place.

    Returns the held-out accuracy (greedy legal action equals the teacher's), the
    held-out cross-entropy and the value loss, measured after the last epoch.
    """
    policy = model.policy
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    n_held = max(int(len(demos) * holdout), 1)
    held, train = order[:n_held], order[n_held:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    for _ in tqdm(range(epochs), desc="behaviour cloning", unit="epoch", disable=not progress):
        shuffled = train[rng.permutation(len(train))]
        for start in range(0, len(shuffled), batch_size):
            rows = shuffled[start:start + batch_size]
            values, log_prob, _ = _evaluate(policy, demos, rows)
            returns = torch.as_tensor(demos.returns[rows])
            loss = -log_prob.mean() + value_coef * torch.nn.functional.mse_loss(values.flatten(), returns)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
    policy.set_training_mode(False)
    return _held_out_metrics(policy, demos, held, batch_size)


def _evaluate(policy, demos: Demonstrations, rows: np.ndarray):
    """Values, log-probabilities of the teacher's actions and entropies of ``rows``."""
    obs = torch.as_tensor(demos.observations[rows].astype(np.float32))
    actions = torch.as_tensor(demos.actions[rows])
    return policy.evaluate_actions(obs, actions, action_masks=demos.masks[rows])


def _held_out_metrics(policy, demos: Demonstrations, held: np.ndarray, batch_size: int) -> dict[str, float]:
    correct, nll, value_se = 0, 0.0, 0.0
    with torch.no_grad():
        for start in range(0, len(held), batch_size):
            rows = held[start:start + batch_size]
            values, log_prob, _ = _evaluate(policy, demos, rows)
            obs = torch.as_tensor(demos.observations[rows].astype(np.float32))
            greedy = policy.get_distribution(obs, action_masks=demos.masks[rows]).get_actions(deterministic=True)
            correct += int((greedy.numpy() == demos.actions[rows]).sum())
            nll -= float(log_prob.sum())
            value_se += float(((values.flatten() - torch.as_tensor(demos.returns[rows])) ** 2).sum())
    n = len(held)
    return {"accuracy": correct / n, "cross_entropy": nll / n, "value_mse": value_se / n}
