"""Policy-guided information-set search: ISMCTS with a network's prior (PUCT) and value at the leaves.

``GuidedSearchAgent(game, network, simulations=200, seed=0)`` (spec
``mcts+pretrained[:N]``) searches like ``agents.mcts.ISMCTSAgent`` — one tree
per decision, nodes keyed by the sequence of actions from the root, each
iteration on a fresh determinization from ``Game.resample_hidden`` (so the
true hidden state is never read) — but replaces its two weak parts with the
network (``agents.policy.PolicyAgent``):

* **Selection (PUCT, as in AlphaZero).** At a node, the acting seat picks the
  legal action maximising ``Q(a) + c * P(a) * sqrt(sum_b N(b)) / (1 + N(a))``
  over the actions legal in this determinization. ``P`` is the network's
  masked policy for the actor's observation (its logits divided by
  ``prior_temperature`` first: the spec takes the game's ``PRIOR_TEMPERATURES``,
  4 in Colt Express, 1 elsewhere), computed when the node is first
  reached (for the searching seat's own nodes every determinization gives the
  same observation; an opponent's node takes the view of the determinization
  that reached it first). An action not yet tried is valued at the node's own
  value estimate (first-play urgency).
* **Evaluation.** A new position is valued for every seat by
  ``(1 - rollout_weight) * network value + rollout_weight * rollout return``
  (AlphaGo's mixed leaf evaluation) and backed up (each edge is credited
  with the value of the seat that chose it). The network's value is its
  critic on each seat's observation at that position; the rollout plays
  from there to the end of the game, every seat choosing by
  ``rollout_policy``: ``"random"``, uniformly random legal actions as
  ``agents.mcts`` does, ``"network"``, a sample of the network's policy for
  the seat's own observation, or ``"greedy"``, the network's most probable
  legal action (a forward pass per step of the rollouts: a
  Colt Express game at 200 simulations takes about 6 times as long, and
  was not measured stronger; the spec's choice per game is
  ``ROLLOUT_POLICY``). ``rollout_weight=0``
  trusts the critic alone (the cheapest), ``1`` keeps only the network's
  prior and the rollouts. Returns are
  ``game.returns(..., reward_mode)``, by default the reward the network's
  critic was trained on (its file's ``reward_mode``, ``"win"`` when the file
  predates that field), so that critic values and game results share one
  scale; a game cut by the decision cap backs up 0. ``leaf_rollouts=k``
  plays k rollouts from each new position and averages their returns: one
  random game is a noisy value, and the k games of a wave's positions run
  together in the batched kernels, so k rollouts cost far less than k times
  one (leaf parallelization; the spec's k per game is ``LEAF_ROLLOUTS``). The
  k games start from copies of the position (its determinization's hidden
  cards and chance generator) and differ by their random moves, so greedy
  rollouts, which would repeat one game k times, take k = 1 only.
* **Batching.** Iterations run in waves: a wave's determinizations walk down
  the tree in lock-step with the batched kernels, and all of its new positions
  are evaluated in one forward pass. A row's choice counts as a *pending visit*
  until its value is backed up: pending visits shrink the exploration term of
  the action (so a wave's rows spread over the tree as the prior suggests) but
  leave its mean value alone. (A virtual *loss* would push a small budget's
  rows onto moves the prior rates badly: with 16 rows a wave, the 16 first
  choices would all differ.)
* **Advice (optional).** ``advisor`` (an agent, e.g. the game's heuristic) and
  ``advice_weight`` ``w``: at the root, the prior becomes ``(1 - w) * P + w``
  on the advisor's move for the searching seat's observation and mask (the
  advisor is never handed the game record, so it cannot read what the seat
  may not see). The search then weighs the
  network's favourites against the advisor's move by their values. The
  spec's weight per game is ``ADVICE_WEIGHTS`` (the advisor: the game's
  ``heuristic``).
* **Relative values (optional).** ``value_mode="relative"`` backs up each
  seat's value minus the best other seat's (critic values and final returns
  alike: ``core.game.margins``), so a move that holds a rival down counts as
  much as one that scores (for a critic that predicts each seat's own final
  score, as Rail's does, trained on the ``score`` reward). The spec's mode
  per game is ``VALUE_MODE`` (``"own"``, the values as they are, where
  absent; measured in Rail without a gain, so no game takes it yet).
* **Lookahead at the root (optional).** ``lookahead=Lookahead(...)`` replaces
  the tree by one ply of truncated network rollouts, which needs no visit
  counts to overrule the prior: where the prior's favourite has less than
  ``confidence``, each of the ``candidates`` legal actions the prior rates
  highest is played on the same ``simulations // candidates`` determinizations
  (common random numbers: the candidates meet the same hidden cards and dice),
  every seat then plays the network's most probable action for ``horizon``
  steps, and the position is valued for the searching seat (the critic, or the
  result of a game that ended). The move maximises the mean value plus
  ``prior_weight * log P(a)``, so a candidate must be better by the value the
  prior's doubt is worth (Gumbel MuZero's final choice, ``logits + sigma(q)``,
  without the noise). Where the prior is confident the network's favourite is
  played at once. The spec's settings per game are ``LOOKAHEAD``.
* **Move.** The most visited legal root action; among equally visited ones
  the best mean value, then the highest prior (a small budget visits many
  actions once); a single legal action is answered without searching.

Everything random comes from the agent's seeded ``numpy`` generator (the
determinization seeds), and the network is evaluated greedily (no sampling),
so an agent with a fixed seed is deterministic.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch

from ..core.game import margins
from .mcts import ISMCTSAgent, most_visited, play_randomly

# The share of a rollout in a leaf's value for the spec "mcts+pretrained[:N]", per game; 0 (the critic alone) where
# no other weight was measured better. Colt Express at 200 simulations, against mcts:200 and the heuristic, seats
# permuted (python -m benchmarks.guided_sweep; benchmarks/results/pretrained.md): head to head with mcts:200, random
# rollouts, weight 0: 39% of 60 games, 0.5: 43% of 180, 1: 51% of 180 (the critic, trained on rank returns against
# heuristics, misjudges positions against a searching opponent; its prior still guides the search)
ROLLOUT_WEIGHTS: dict[str, float] = {"colt_express_v0": 1.0}
# Who plays the rollouts of the spec "mcts+pretrained[:N]", per game ("random" where absent). Colt Express at 200
# simulations, against mcts:200 and the heuristic on the same 240 deals (benchmarks/results/
# colt_express_3p_guided_vs_mcts200.md): random rollouts 54.2% head to head with mcts:200 at 1.7 s a game, the
# network's rollouts 52.9% at 10.1 s: no game plays them by default
ROLLOUT_POLICY: dict[str, str] = {}
ROLLOUT_POLICIES = ("random", "network", "greedy")
# Rollouts played from each new position by the spec "mcts+pretrained[:N]", their returns averaged, per game (1 where
# absent). Colt Express at 200 simulations (random rollouts, weight 1, temperature 4), in one seat against mc:48 and
# mcts:200, every seat in turn, 600 games on the same deals (seed 11; benchmarks/results/
# colt_express_3p_guided_leaf_rollouts.md): head to head with mc:48, k = 1: 47.2%, 8: 53.3%, 16: 54.6%, 32: 59.9%
# [55.9%, 63.8%], 64: 56.9%; with mcts:200, 55.3%, 61.1%, 64.5%, 68.8%, 66.4%
LEAF_ROLLOUTS: dict[str, int] = {"colt_express_v0": 32}
# The prior's temperature for the spec "mcts+pretrained[:N]", per game (1, the network's policy as trained, where
# absent). Colt Express at 200 simulations against mcts:200 on the same deals (benchmarks/results/
# colt_express_3p_guided_vs_mcts200.md, seeds 21 and 22): temperature 4 finishes ahead in 55.0% [51.3%, 58.6%] of
# 720 meetings, temperature 1 in 51.3%, temperature 2 in 49.4% of 240 (the greedy network is overconfident in the
# positions a searching opponent reaches; a flatter prior lets the rollouts overrule it)
PRIOR_TEMPERATURES: dict[str, float] = {"colt_express_v0": 4.0}
# The share of the root prior given to the game's heuristic's move for the spec "mcts+pretrained[:N]" (0 where
# absent: the network's prior alone). Measured in Wild West Express (benchmarks/results/pretrained.md), where the
# network alone trails the heuristic in mixed seatings: at 40 simulations with the shipped network as the third
# seat, head to head with the heuristic, weight 0.5 finished ahead in 70.0% [61%, 78%] of 120 meetings (weight 0,
# 50 simulations: 25.0% of 36); at 10 simulations weight 0.5 44.2% and 0.8 57.1%. With random as the third seat (a
# duel with the heuristic), 120 games on the same deals: 40 simulations, weight 0.5 54.2%, 0.8 51.7%; 100
# simulations, 0.5 58.3%
ADVICE_WEIGHTS: dict[str, float] = {"wild_west_express_v0": 0.5}
# What the spec "mcts+pretrained[:N]" backs up, per game: "own" (each seat's value, where absent) or "relative" (each
# seat's value minus the best other seat's; module docstring). Rail at 10 simulations, head to head with the network
# (the heuristic in the third seat, seats permuted): "relative" 55.0% of 120 games on the deals of seed 3 where "own"
# had 50.8%, then 48.2% of 480 on seed 11 (benchmarks/results/rail_3p_guided_relative_vs_pretrained.md): no gain, so
# no game takes it yet
VALUE_MODE: dict[str, str] = {}
VALUE_MODES = ("own", "relative")


class Lookahead(NamedTuple):
    """The root lookahead's settings (module docstring): how many of the prior's favourites are played, how many
    network steps follow each, below which prior of the favourite the lookahead runs, and what one unit of
    log-prior is worth in the critic's values."""

    candidates: int = 4
    horizon: int = 10
    confidence: float = 0.95
    prior_weight: float = 0.03


# The root lookahead of the spec "mcts+pretrained[:N]", per game (absent: the PUCT tree); N // candidates
# determinizations per candidate. Rail (benchmarks/results/pretrained.md), head to head with the network, the
# heuristic third, seats permuted: the PUCT search at 10-40 simulations was level with it (48-52%); the lookahead
# at N = 16, horizon 30, prior weight 0.03 finished ahead of it in 61.7% of 120 games (seed 3, where horizon 10 gave
# 52.5% and prior weight 0 27.5%) and in 55.8% [50.6%, 60.8%] of 360 on new deals (seeds 11 and 12), about 16 s a
# game on one core. Wild West Express takes the same settings (with the heuristic's advice kept, ``ADVICE_WEIGHTS``):
# about 12 s a game on one core; where the PUCT tree at 100 simulations finished level with the heuristic (52.3% of
# 216 meetings), the lookahead finished ahead of it in 59.3% [53%, 66%] and of the network in 84.7% of 216 meetings in
# its ladder (benchmarks/results/ladder_wild_west_express_3p.md)
_HORIZON_30 = Lookahead(candidates=4, horizon=30, confidence=0.95, prior_weight=0.03)
LOOKAHEAD: dict[str, Lookahead] = {"rail_v0": _HORIZON_30, "wild_west_express_v0": _HORIZON_30}


class _PuctNode:
    """One position of the tree: per action visits, pending visits and total return of the actor, the prior,
    a value."""

    __slots__ = ("visits", "pending", "total", "prior", "value", "children")

    def __init__(self, n_actions: int):
        self.visits = np.zeros(n_actions)  # backed-up visits
        self.pending = np.zeros(n_actions)  # visits of the current wave, not yet backed up
        self.total = np.zeros(n_actions)
        self.prior: np.ndarray | None = None  # set when the node is first evaluated
        self.value = 0.0  # the actor's value estimate: first-play urgency of untried actions
        self.children: dict[int, _PuctNode] = {}

    def select(self, legal: np.ndarray, exploration: float) -> int:
        """The PUCT choice among ``legal`` (module docstring); counts it as a pending visit."""
        n = self.visits[legal]
        seen = n + self.pending[legal]
        q = np.where(n > 0, self.total[legal] / np.maximum(n, 1), self.value)
        u = exploration * self.prior[legal] * np.sqrt(seen.sum() + 1.0) / (1.0 + seen)
        a = int(legal[int(np.argmax(q + u))])
        self.pending[a] += 1
        return a

    def back_up(self, a: int, value: float) -> None:
        """Turn a pending visit of ``a`` into a visit returning ``value`` to the actor."""
        self.pending[a] -= 1
        self.visits[a] += 1
        self.total[a] += value


def spec_settings(game_name: str) -> dict:
    """The ``GuidedSearchAgent`` keyword arguments of the spec ``mcts+pretrained[:N]`` for ``game_name`` (a
    canonical name), read from the per-game tables above (their defaults where a game is absent); the advisor itself
    is the registry's to build when ``advice_weight`` > 0."""
    return {"rollout_weight": ROLLOUT_WEIGHTS.get(game_name, 0.0),
            "rollout_policy": ROLLOUT_POLICY.get(game_name, "random"),
            "leaf_rollouts": LEAF_ROLLOUTS.get(game_name, 1),
            "prior_temperature": PRIOR_TEMPERATURES.get(game_name, 1.0),
            "advice_weight": ADVICE_WEIGHTS.get(game_name, 0.0),
            "value_mode": VALUE_MODE.get(game_name, "own"),
            "lookahead": LOOKAHEAD.get(game_name)}


class GuidedSearchAgent(ISMCTSAgent):
    """ISMCTS guided by a policy-value network (module docstring)."""

    def __init__(self, game, network, simulations: int = 200, seed: int = 0, exploration: float = 1.5,
                 wave: int = 16, name: str = "mcts+pretrained", rollout_weight: float = 0.0,
                 reward_mode: str | None = None, rollout_policy: str = "random", prior_temperature: float = 1.0,
                 advisor=None, advice_weight: float = 0.0, value_mode: str = "own",
                 lookahead: Lookahead | None = None, leaf_rollouts: int = 1):
        """Build the agent.

        Args:
            game: a ``core.game.Game`` (its ``resample_hidden`` determinizes).
            network: a ``PolicyAgent`` of this game (its ``policy`` gives priors and values).
            simulations: iterations per decision.
            seed: seeds the determinizations.
            exploration: the PUCT constant ``c``.
            wave: iterations walked and evaluated together.
            name: the agent's name in tables.
            rollout_weight: the share of a rollout's return in a leaf's value, in [0, 1].
            reward_mode: the ``game.returns`` mode backed up (default: the network's, see the module docstring).
            rollout_policy: who plays the rollouts: ``"random"`` (uniform legal actions), ``"network"``
                (every seat samples from the network's policy for its own observation) or ``"greedy"`` (every
                seat plays the network's most probable legal action).
            prior_temperature: the network's logits are divided by it before the softmax (above 1 a flatter
                prior, so the search tries more of the moves the network rates low).
            advisor: an agent whose move for each searched position gets ``advice_weight`` of the root prior
                (its ``act_batch`` gets the searching seats' observations and masks only; module docstring).
            advice_weight: that share, in [0, 1]; 0 (or no advisor) leaves the network's prior alone.
            value_mode: ``"own"`` backs up each seat's value, ``"relative"`` its value minus the best other seat's.
            lookahead: search one ply of truncated network rollouts at the root instead of the PUCT tree
                (``Lookahead``; module docstring); ``simulations // lookahead.candidates`` determinizations each.
            leaf_rollouts: rollouts played from each new position, their returns averaged (module docstring).
        """
        if not 0.0 <= rollout_weight <= 1.0:
            raise ValueError(f"rollout_weight must lie in [0, 1], got {rollout_weight}")
        if not prior_temperature > 0.0:
            raise ValueError(f"prior_temperature must be positive, got {prior_temperature}")
        if not 0.0 <= advice_weight <= 1.0:
            raise ValueError(f"advice_weight must lie in [0, 1], got {advice_weight}")
        if advice_weight > 0.0 and advisor is None:
            raise ValueError("advice_weight needs an advisor agent")
        if value_mode not in VALUE_MODES:
            raise ValueError(f"value_mode must be one of {VALUE_MODES}, got {value_mode!r}")
        if lookahead is not None and not (lookahead.candidates >= 1 and lookahead.horizon >= 0
                                          and simulations >= lookahead.candidates and lookahead.prior_weight >= 0.0):
            raise ValueError(f"lookahead needs candidates >= 1, horizon >= 0, prior_weight >= 0 and at least one "
                             f"simulation per candidate, got {lookahead} with {simulations} simulations")
        if leaf_rollouts < 1 or (leaf_rollouts > 1 and rollout_policy == "greedy"):
            raise ValueError(f"leaf_rollouts must be at least 1, and 1 with greedy rollouts (the copies would play "
                             f"one game), got {leaf_rollouts} with {rollout_policy!r} rollouts")
        if rollout_policy not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout_policy must be one of {ROLLOUT_POLICIES}, got {rollout_policy!r}")
        trained_on = (getattr(network, "config", None) or {}).get("reward_mode", "win")
        super().__init__(game, simulations=simulations, seed=seed, exploration=exploration,
                         reward_mode=reward_mode or trained_on, wave=wave)
        self.network = network
        self.name = name
        self.rollout_weight = float(rollout_weight)
        self.rollout_policy = rollout_policy
        self.prior_temperature = float(prior_temperature)
        self.advisor = advisor
        self.advice_weight = float(advice_weight)
        self.value_mode = value_mode
        self.lookahead = lookahead
        self.leaf_rollouts = int(leaf_rollouts)
        self._advice = iter(())  # the advisor's moves for the rows of the current act_batch, in order
        self._advised: int | None = None  # the advisor's move for the position being searched

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """One searched action per row (``ISMCTSAgent.act_batch``), the advisor asked first for every row."""
        if self.advice_weight > 0.0 and states is not None and seats is not None:
            self._advice = iter(np.asarray(self.advisor.act_batch(observations, masks)).tolist())  # no records
        return super().act_batch(observations, masks, states, seats)

    def search(self, state: np.void, seat: int, mask: np.ndarray) -> int:
        """``ISMCTSAgent.search`` (or the root lookahead), with the root prior taking the advisor's move for this
        row (if any)."""
        self._advised = next(self._advice, None)
        if self.lookahead is None or np.count_nonzero(mask) == 1:
            return super().search(state, seat, mask)
        return self._look_ahead(state, seat, mask)

    def _new_root(self, state: np.void, seat: int, mask: np.ndarray) -> _PuctNode:
        """The root, with the network's prior and value for ``seat`` at a determinization of ``state`` (its
        observation is the seat's own, and a rollout from it never reads the true hidden state)."""
        root = _PuctNode(self.game.n_actions)
        seen = self.determinize(state, seat, 1)  # the seat's own view (a rollout must not start from the truth)
        priors, values = self.leaf_values(seen, np.array([seat]), np.asarray(mask).reshape(1, -1))
        root.prior, root.value = self._advised_prior(priors[0]), float(values[0, seat])
        return root

    def _advised_prior(self, prior: np.ndarray) -> np.ndarray:
        """The root prior with the advisor's move given ``advice_weight`` (as it is without advice)."""
        if self.advice_weight == 0.0 or self._advised is None:
            return prior
        prior = (1.0 - self.advice_weight) * prior
        prior[self._advised] += self.advice_weight
        return prior

    def _look_ahead(self, state: np.void, seat: int, mask: np.ndarray) -> int:
        """The root lookahead's move (module docstring): the prior's favourite where it is confident, else the
        candidate with the best mean value after its truncated rollouts plus ``prior_weight`` times its log-prior."""
        settings, game = self.lookahead, self.game
        mask = np.asarray(mask).reshape(1, -1)
        prior, _ = self.evaluate(self.determinize(state, seat, 1), np.array([seat]), mask, with_values=False)
        prior = self._advised_prior(prior[0])
        legal = np.flatnonzero(mask[0])
        candidates = legal[np.argsort(-prior[legal], kind="stable")][: settings.candidates]
        if prior[candidates[0]] >= settings.confidence or len(candidates) == 1:
            return int(candidates[0])
        k, n = len(candidates), self.simulations // settings.candidates
        sims = np.repeat(self.determinize(state, seat, n), k)  # row j * k + c: determinization j, candidate c
        game.step(sims, np.tile(candidates, n).astype(np.int64), check=False)
        self._play_network(sims, greedy=True, max_steps=settings.horizon)
        values = self._values_of(sims)[:, seat].reshape(n, k).mean(axis=0)
        scores = values + settings.prior_weight * np.log(np.maximum(prior[candidates], 1e-12))
        return int(candidates[int(np.argmax(scores))])

    def _values_of(self, sims: np.ndarray) -> np.ndarray:
        """Every seat's value of each of ``sims`` as the search backs it up: the game's return where it is
        finished, the critic's value where not (``backed_up``)."""
        game = self.game
        finished = game.finished(sims)
        values = np.zeros((len(sims), game.max_players))
        if finished.any():
            values[finished] = game.returns(sims[finished], self.reward_mode)
        open_rows = np.flatnonzero(~finished)
        if len(open_rows):
            rows = sims[open_rows]
            _, values[open_rows] = self.evaluate(rows, game.current_player(rows).astype(np.int64),
                                                 game.legal_mask(rows))
        return self.backed_up(values, sims)

    def best_action(self, root: _PuctNode, legal: np.ndarray) -> int:
        """The most visited legal root action; ties go to the best mean value, then to the highest prior."""
        return most_visited(legal, root.visits, root.total, root.prior)

    def leaf_values(self, states: np.ndarray, actors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network's prior for ``actors`` and every seat's value of ``states``, the critic's mixed with a
        random rollout's return by ``rollout_weight`` (module docstring)."""
        priors, values = self.evaluate(states, actors, masks, with_values=self.rollout_weight < 1.0)
        if self.rollout_weight > 0.0:
            values = (1.0 - self.rollout_weight) * values + self.rollout_weight * self.rollout(states)
        return priors, self.backed_up(values, states)

    def backed_up(self, values: np.ndarray, states: np.ndarray) -> np.ndarray:
        """``values`` (every seat's, one row per state) as the search backs them up: as they are, or with
        ``value_mode="relative"`` each seat's minus the best other present seat's."""
        if self.value_mode == "own":
            return values
        present = np.arange(values.shape[1])[None, :] < states["num_players"][:, None]
        return margins(values, present)

    def evaluate(self, states: np.ndarray, actors: np.ndarray, masks: np.ndarray,
                 with_values: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """The network's prior for ``actors`` and every seat's value, at each of ``states``.

        ``with_values=False`` skips the critic (and the other seats' observations it needs): the values are 0.

        Returns:
            ``(B, n_actions)`` probabilities (zero off the mask) and ``(B, max_players)`` values
            (0 for absent seats).
        """
        game = self.game
        b, n_seats = len(states), game.max_players
        players = states["num_players"].astype(np.int64)  # a core field of every game's record
        rows = np.concatenate([np.arange(b), np.repeat(np.arange(b), n_seats)])
        seats = np.concatenate([actors, np.tile(np.arange(n_seats), b)])
        present = np.concatenate([np.ones(b, bool), with_values & (seats[b:] < players[rows[b:]])])
        obs = game.observe(states[rows[present]], seats[present])
        policy = self.network.policy
        with torch.no_grad():
            tensor = torch.as_tensor(obs)
            features = policy.extract_features(tensor[:b], policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features)) / self.prior_temperature
            logits = logits.masked_fill(torch.as_tensor(np.asarray(masks) == 0), -torch.inf)
            probs = torch.softmax(logits, dim=1).numpy().astype(np.float64)
            value = policy.predict_values(tensor[b:]).numpy().reshape(-1).astype(np.float64) if with_values else 0.0
        values = np.zeros(b * n_seats)
        values[present[b:]] = value
        return probs * (masks > 0), values.reshape(b, n_seats)

    def _run_wave(self, root: _PuctNode, state: np.void, seat: int, width: int) -> None:
        """``width`` iterations: determinize, walk down by PUCT to a new position, evaluate it, back up."""
        game = self.game
        sims = self.determinize(state, seat, width)
        nodes: list[_PuctNode] = [root] * width
        paths: list[list[tuple[_PuctNode, int, int]]] = [[] for _ in range(width)]
        masks = np.zeros((width, game.n_actions), dtype=np.int8)
        walking = np.ones(width, dtype=bool)  # still inside the known tree
        while True:
            walking &= ~game.finished(sims)
            if not walking.any():
                break
            rows = np.flatnonzero(walking)
            sub = sims[rows]
            sub_masks = game.legal_mask(sub, masks[: len(rows)])
            current = game.current_player(sub)
            actions = np.zeros(len(rows), dtype=np.int64)
            for k, i in enumerate(rows):
                node = nodes[i]
                a = node.select(np.flatnonzero(sub_masks[k]), self.exploration)
                paths[i].append((node, a, int(current[k])))
                actions[k] = a
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _PuctNode(game.n_actions)
                nodes[i] = child
                if child.prior is None:  # a new position: stop here and evaluate it
                    walking[i] = False
            game.step(sub, actions, check=False)
            sims[rows] = sub
        self._evaluate_and_back_up(sims, nodes, paths)

    def _evaluate_and_back_up(self, sims: np.ndarray, nodes: list[_PuctNode], paths: list) -> None:
        """Every row's returns (the network's values, or the game's result) credited along its path."""
        game = self.game
        finished = game.finished(sims)
        returns = np.zeros((len(sims), game.max_players))
        if finished.any():
            ended = sims[finished]  # a game cut by the decision cap returns 0 to every seat
            returns[finished] = self.backed_up(game.returns(ended, self.reward_mode).astype(np.float64), ended)
        open_rows = np.flatnonzero(~finished)
        if len(open_rows):
            masks = game.legal_mask(sims[open_rows])
            actors = game.current_player(sims[open_rows]).astype(np.int64)
            priors, values = self.leaf_values(sims[open_rows], actors, masks)
            returns[open_rows] = values
            for k, i in enumerate(open_rows):
                node = nodes[i]
                if node.prior is None:  # two rows of a wave may reach the same new node
                    node.prior, node.value = priors[k], float(values[k, actors[k]])
        for i, path in enumerate(paths):
            for node, a, actor in path:
                node.back_up(a, float(returns[i, actor]))

    def rollout(self, states: np.ndarray) -> np.ndarray:
        """Every seat's return after playing copies of ``states`` to the end of each game, each seat choosing
        as ``rollout_policy`` says (uniformly random legal actions, a sample of the network's policy, or its
        most probable action), ``leaf_rollouts`` times from each state, the returns averaged."""
        k = self.leaf_rollouts
        sims = np.repeat(states, k)  # row i * k + j: rollout j of state i
        if self.rollout_policy in ("network", "greedy"):
            self._play_network(sims, greedy=self.rollout_policy == "greedy")
            returns = self.game.returns(sims, self.reward_mode)
        else:
            generators = self.rng.integers(0, 2**64 - 1, size=len(sims), dtype=np.uint64, endpoint=True)
            returns = play_randomly(self.game, sims, generators, self.reward_mode)
        return returns.reshape(len(states), k, -1).mean(axis=1)

    def _play_network(self, sims: np.ndarray, greedy: bool = False, max_steps: int | None = None) -> None:
        """In place: every seat samples the network's policy for its own observation (``greedy``: plays its most
        probable legal action) until every game of ``sims`` is finished, or for ``max_steps`` steps (one forward
        pass a step, over the unfinished games)."""
        game = self.game
        over = game.finished(sims)
        steps = 0
        while not over.all() and (max_steps is None or steps < max_steps):
            steps += 1
            rows = np.flatnonzero(~over)
            sub = sims[rows]
            masks = game.legal_mask(sub)
            probs, _ = self.evaluate(sub, game.current_player(sub).astype(np.int64), masks, with_values=False)
            actions = probs.argmax(axis=1).astype(np.int64) if greedy else self._sample(probs)
            game.step(sub, actions, check=False)
            sims[rows] = sub
            over[rows] = game.finished(sub)

    def _sample(self, probs: np.ndarray) -> np.ndarray:
        """One action per row of ``probs`` (rows of probabilities, zero off the legal actions)."""
        cumulative = np.cumsum(probs, axis=1)
        draws = self.rng.random(len(probs)) * cumulative[:, -1]
        chosen = (cumulative <= draws[:, None]).sum(axis=1)  # the first index past the draw
        return np.minimum(chosen, probs.shape[1] - 1).astype(np.int64)


__all__ = ["ADVICE_WEIGHTS", "LEAF_ROLLOUTS", "LOOKAHEAD", "PRIOR_TEMPERATURES", "ROLLOUT_POLICIES", "ROLLOUT_POLICY",
           "ROLLOUT_WEIGHTS", "VALUE_MODE", "VALUE_MODES", "GuidedSearchAgent", "Lookahead", "spec_settings"]
