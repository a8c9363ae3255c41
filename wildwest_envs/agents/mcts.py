"""Information-set Monte Carlo tree search for any registered game with hidden information.

``ISMCTSAgent(game, simulations=200, seed=0)`` plays any ``core.game.Game``:
its ``resample_hidden`` is the determinizer (a new record consistent with what
one seat has observed, with a reseeded chance generator; for a game of perfect
information, a reseeded copy). It never
reads the true hidden state: the record given to ``act_batch`` is only passed
through ``Game.resample_hidden``, so the search sees what the seat may know and
fresh random futures (STYLE.md §7).

Algorithm: single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) with
determinized UCT over the game's flat action space.

* **Tree.** One tree per decision, its nodes keyed by the sequence of actions
  taken from the root (every seat's actions, the searching seat's and the
  others'). Each determinization follows the tree as long as its actions lead
  to known nodes; a node's statistics are per action: visits ``N``, total
  return ``W`` of the seat that acted, and *availability* ``A`` (how many times
  the action was legal when the node was visited), so that actions legal in
  only some determinizations are not penalised (ISMCTS UCB1):
  ``W/N + c * sqrt(ln(A) / N)``, untried legal actions first (random order).
  Choice documented: keying by the full action sequence (not by each seat's
  own information) is the simplest ISMCTS; the opponents' simulated choices
  come from determinized hands, never from the true ones.
* **Iteration.** Sample a determinization, select down the tree, expand one
  new node, then play uniformly random legal actions to the end of the game
  (or the decision cap, which scores 0 like a truncated game),
  and back up ``game.returns(final, reward_mode)`` (``"rank"`` by default: a
  return in [-1, 1] for every seat; each edge is credited with the return of
  the seat that chose it).
* **Batching.** Iterations run in waves of ``wave`` (default 25): a wave
  samples its determinizations in one ``resample_hidden`` call and plays
  them in lockstep with the batched kernels (one ``step`` of the whole wave
  a move, which also writes the next legal masks and draws the rollout rows'
  next random actions, ``core.kernels``). Rows of one wave
  select one after another with *virtual visits* (a visit is counted when an
  action is selected; its return is added at backup), so they spread over the
  tree instead of all following the same path.
* **Move.** The most visited legal root action, ties going to the best mean
  return (``most_visited``), then to the lowest action index; a decision with a
  single legal action is answered without searching. Choice documented: with
  fewer simulations than legal actions every tried action has one visit, and a
  tie broken by index alone would ignore the rollouts (Wild West Express
  ``mcts:10`` then finished ahead of ``random`` in 27.5% of 60 meetings;
  broken by mean return, 45.0%, the same deals).

Everything random comes from the agent's own ``numpy`` generator (seeded when
the agent is built): the determinization seeds, the rollout generators and
the order of untried actions; so an agent with a fixed seed is deterministic.
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.kernels import dual
from wildwest_envs.core.sampling import sample_legal

from .base import BatchAgent

_SAMPLE_LEGAL = dual(sample_legal)  # serial build for small waves


def play_randomly(game, sims: np.ndarray, generators: np.ndarray, reward_mode: str) -> np.ndarray:
    """Every seat's return (``game.returns(..., reward_mode)``) after uniformly random legal actions to the end of
    each game of ``sims`` (in place; a game cut by the decision cap returns 0). ``generators``: one uint64
    splitmix64 state per game (``core.rng``), advanced in place: each step draws the next actions from its new
    masks (``core.kernels``)."""
    actions = np.zeros(len(sims), dtype=np.int64)
    masks = np.zeros((len(sims), game.n_actions), dtype=np.int8)
    game.legal_mask(sims, masks)
    _SAMPLE_LEGAL(masks, generators, actions)  # -1 for a finished game: the kernels leave it alone
    while not game.finished(sims).all():
        game.step(sims, actions, check=False, masks=masks, draws=generators)
    return game.returns(sims, reward_mode)


def most_visited(legal: np.ndarray, visits: np.ndarray, total: np.ndarray, prior: np.ndarray | None = None) -> int:
    """The legal action with the most ``visits``; ties go to the best mean return ``total / visits``, then to the
    highest ``prior`` (when given), then to the first of ``legal``. Every array is indexed by action."""
    n = visits[legal]
    mean = np.where(n > 0, total[legal] / np.maximum(n, 1), -np.inf)
    keys = (-mean, -n) if prior is None else (-prior[legal], -mean, -n)
    return int(legal[np.lexsort(keys)[0]])  # the last key sorts first; lexsort is stable


class _Node:
    """Statistics of one tree node: per action visits, total return of the actor, availability."""

    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self, n_actions: int):
        self.visits = np.zeros(n_actions)
        self.total = np.zeros(n_actions)
        self.avail = np.zeros(n_actions)
        self.children: dict[int, _Node] = {}

    def select(self, legal: np.ndarray, exploration: float, rng: np.random.Generator) -> int:
        """UCB1 with availability over the legal actions; an untried action first (§ module docstring)."""
        self.avail[legal] += 1
        untried = legal[self.visits[legal] == 0]
        if len(untried):
            return int(untried[rng.integers(len(untried))])
        n = self.visits[legal]
        ucb = self.total[legal] / n + exploration * np.sqrt(np.log(self.avail[legal]) / n)
        return int(legal[int(np.argmax(ucb))])


class ISMCTSAgent(BatchAgent):
    """Single-observer information-set MCTS with random rollouts (module docstring)."""

    name = "mcts"

    def __init__(self, game, simulations: int = 200, seed: int = 0, exploration: float = 0.7,
                 reward_mode: str = "rank", wave: int = 25):
        """Build the agent.

        Args:
            game: a ``core.game.Game`` (its ``resample_hidden`` determinizes).
            simulations: iterations (determinizations) per decision.
            seed: seeds every random choice of the agent.
            exploration: the UCB1 constant ``c`` (returns lie in [-1, 1]).
            reward_mode: ``game.returns`` mode backed up (``"rank"``, ``"win"`` or ``"score"``).
            wave: iterations sampled and simulated together in one batch.
        """
        if simulations < 1 or wave < 1:
            raise ValueError(f"simulations and wave must be positive, got {simulations} and {wave}")
        self.game = game
        self.simulations = int(simulations)
        self.exploration = float(exploration)
        self.reward_mode = reward_mode
        self.wave = int(wave)
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, masks, states=None, seats=None) -> np.ndarray:
        """One action per row, searched from ``states[i]`` as seen by ``seats[i]`` (``observations`` unused)."""
        if states is None or seats is None:
            raise ValueError("ISMCTSAgent needs the states and seats (it determinizes them with Game.resample_hidden)")
        masks = np.asarray(masks)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(masks),))
        return np.array([self.search(states[i], int(seats[i]), masks[i]) for i in range(len(masks))],
                        dtype=np.int64)

    def search(self, state: np.void, seat: int, mask: np.ndarray) -> int:
        """The most visited legal action after ``simulations`` ISMCTS iterations from ``state`` for ``seat``."""
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("the action mask has no legal action")
        if len(legal) == 1:
            return int(legal[0])
        root = self._new_root(state, seat, mask)
        done = 0
        while done < self.simulations:
            width = min(self.wave, self.simulations - done)
            self._run_wave(root, state, seat, width)
            done += width
        return self.best_action(root, legal)

    def best_action(self, root: _Node, legal: np.ndarray) -> int:
        """The move after the search: the most visited of the ``legal`` root actions (``most_visited``)."""
        return most_visited(legal, root.visits, root.total)

    def _new_root(self, state: np.void, seat: int, mask: np.ndarray) -> _Node:
        """The root of a decision's tree (a subclass may evaluate the position first)."""
        return _Node(self.game.n_actions)

    def determinize(self, state: np.void, seat: int, n: int) -> np.ndarray:
        """``n`` determinizations of ``state`` for ``seat``, drawn with fresh seeds from the agent's generator."""
        seeds = self.rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
        batch = np.repeat(np.asarray(state).reshape(1), n)
        return self.game.resample_hidden(batch, np.full(n, seat, dtype=np.int64), seeds)

    def _run_wave(self, root: _Node, state: np.void, seat: int, width: int) -> None:
        """``width`` iterations: determinize, select/expand in the tree, roll out at random, back up."""
        game = self.game
        sims = self.determinize(state, seat, width)
        rollout_rng = self.rng.integers(0, 2**64 - 1, size=width, dtype=np.uint64, endpoint=True)
        actions = np.zeros(width, dtype=np.int64)
        nodes: list[_Node | None] = [root] * width
        paths: list[list[tuple[_Node, int, int]]] = [[] for _ in range(width)]
        masks = np.zeros((width, game.n_actions), dtype=np.int8)
        game.legal_mask(sims, masks)
        _SAMPLE_LEGAL(masks, rollout_rng, actions)  # the rollout rows' actions; each step draws the next ones
        over = game.finished(sims)
        while not over.all():
            current = game.current_player(sims)
            for i in range(width):
                node = nodes[i]
                if node is None or over[i]:
                    continue
                a = node.select(np.flatnonzero(masks[i]), self.exploration, self.rng)
                node.visits[a] += 1  # virtual visit; the return is added at backup
                paths[i].append((node, a, int(current[i])))
                actions[i] = a
                child = node.children.get(a)
                if child is None:  # expand one node, then roll out
                    node.children[a] = _Node(game.n_actions)
                    nodes[i] = None
                else:
                    nodes[i] = child
            actions[over] = 0  # ignored by the kernels (finished rows, ended or at the decision cap)
            game.step(sims, actions, check=False, masks=masks, draws=rollout_rng)  # the next masks and draws
            over |= game.finished(sims)
        returns = game.returns(sims, self.reward_mode)  # 0 for a rollout cut by the decision cap (core.game)
        for i in range(width):
            for node, a, actor in paths[i]:
                node.total[a] += returns[i, actor]


__all__ = ["ISMCTSAgent", "most_visited", "play_randomly"]
