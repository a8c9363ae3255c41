"""A rule-based Colt Express player that reads only its observation and mask (spec §4-§8, §11.6).

``ColtExpressHeuristic`` never sees the game record: every rule below reads
the named observation fields (``OBS.get(obs, "bandits")`` ...) of the seat to
act and picks among the legal ids of the mask. A small seeded noise
(``TIE_NOISE``) breaks ties between equally scored options.

Loot values used everywhere: a strongbox $1000, a jewel $500, a purse its value
when the seat knows it, else ``UNKNOWN_PURSE`` (the mean of the purse values).

Strategy, by decision (§11.3):

* **PLAN** (Schemin'). The cards resolve later, in pile order, so the seat
  plans against a *projected* position of each of its bandits: the current
  one, updated by its own cards already on the pile this round (Floor change
  flips the level; Move steps towards the richest reachable location; Rob
  takes the best loot there). Each card in hand is scored at that projection:
  Rob by the loot lying there; Fire by the richest opponent in line of sight
  (§6.3) while bullets are left (shots also count for the Gunslinger bonus,
  §9.2); Punch by the richest opponent sharing the location; Move and Floor
  change by the gain in loot of the best location they reach, with a penalty
  for the marshal's car (§5.2) and a bonus for climbing to the roof when the
  marshal is in or next to the bandit's car; Marshal by the opponents it would
  push out next to him. DRAW scores a constant: it is chosen when no card in
  hand beats it (the hand has nothing useful), and the seat never draws after
  many draws (the hand only grows). Face-down plays (tunnel, Ghost) are
  preferred to face-up ones of the same card: they hide the plan.
* **Stealin'**: Move goes to the richest reachable location, away from the
  marshal's car; Fire and Punch target the richest opponent (never a teammate
  when another target exists, 2 players); Rob and the Punch loot take the
  most valuable token (strongbox > jewel > known purse by value > unknown
  purse), Cheyenne preferring a purse (she keeps it, §7); the Punch victim is
  knocked into the marshal's car if possible, else away from loot; the
  marshal moves next to the most opponents inside; Pickpocketing takes the
  best known purse.
* **Expert**: BULLETS always discards (bullet cards are dead, §2.4); KEEP
  discards Marshal and Floor-change cards beyond the first of each and keeps
  the rest (Rob, Fire, Punch, Move are the useful ones).
"""

from __future__ import annotations

import numpy as np

from wildwest_envs.colt_express.data import (A_BANDIT, A_BULLETS_DISCARD, A_CAR, A_DISCARD, A_DRAW, A_JEWEL,
                                             A_KEEP_REST, A_PLAY_DOWN, A_PLAY_UP, A_PURSE, A_STRONGBOX,
                                             BULLET_CARD, CHEYENNE, DEC_BULLETS, DEC_FIRE_TARGET, DEC_KEEP,
                                             DEC_MARSHAL_DEST, DEC_MOVE_DEST, DEC_PICKPOCKET, DEC_PLAN,
                                             DEC_PUNCH_DEST, DEC_PUNCH_LOOT, DEC_PUNCH_TARGET, DEC_ROB_LOOT, FIRE,
                                             FLOOR, IN, JEWEL_VALUE, MARSHAL, MAX_BANDITS, MOVE,
                                             N_CARD_CODES, N_KINDS, N_LOCATIONS, N_PURSES, PUNCH, PURSE_VALUES, ROB,
                                             ROOF, STRONGBOX_VALUE, TUCO)
from wildwest_envs.colt_express.observation import (BANDIT_CHARACTER, BANDIT_BULLETS_LEFT, BANDIT_JEWELS,
                                                    BANDIT_KNOWN_PURSE_VALUE, BANDIT_LOCATION, BANDIT_OWN_TEAM,
                                                    BANDIT_PRESENT, BANDIT_PURSES, BANDIT_STRONGBOXES,
                                                    BULLET_COUNT_SCALE, CODE_COUNT_SCALE, JEWEL_COUNT_SCALE, OBS,
                                                    PILE_CARD, PILE_OWNER, PILE_PRESENT, PILE_RESOLVED,
                                                    PILE_RESOLVING, PILE_VISIBLE, PURSE_COUNT_SCALE,
                                                    PURSE_VALUE, PURSE_VALUE_BASE, PURSE_VALUE_STEP,
                                                    PURSE_VALUE_UNKNOWN, STRONGBOX_COUNT_SCALE)

from .base import RuleBasedAgent

UNKNOWN_PURSE = float(np.mean(PURSE_VALUES))  # expected value of a purse whose value is unknown
TIE_NOISE = 1e-3  # seeded noise added to every score to break ties
DRAW_SCORE = 0.9  # a card must beat this to be played instead of drawing
MAX_HAND_BEFORE_DRAW = 8  # never draw with this many cards in hand
MARSHAL_PENALTY = 4.0  # a location inside the marshal's car costs a bullet and a flight (§5.2)
SHOT_BONUS = 1.2  # value of a shot itself (Gunslinger bonus, a dead card for the victim)
MONEY_UNIT = 250.0  # scores are in units of $250
BIG = 1e6  # preference levels of the loot choice


class ColtExpressHeuristic(RuleBasedAgent):
    """Rule-based Colt Express player (module docstring); reads only observations and masks."""

    def decide(self, observation: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> int:
        """The best-scored legal action by the rules of the module docstring, ties broken by noise."""
        scores = _View(observation).score(legal) + self.rng.random(len(legal)) * TIE_NOISE
        return int(legal[int(np.argmax(scores))])


class _View:
    """The observation of one seat, decoded into the quantities the rules use."""

    def __init__(self, obs: np.ndarray):
        self.decision = int(np.argmax(OBS.get(obs, "decision")))
        bandits = OBS.get(obs, "bandits")
        self.present = bandits[:, BANDIT_PRESENT] > 0
        self.own = bandits[:, BANDIT_OWN_TEAM] > 0
        self.loc = np.argmax(bandits[:, BANDIT_LOCATION:BANDIT_LOCATION + N_LOCATIONS], axis=1)
        self.character = np.argmax(bandits[:, BANDIT_CHARACTER:BANDIT_CHARACTER + 6], axis=1)
        self.bullets = np.rint(bandits[:, BANDIT_BULLETS_LEFT] * 6).astype(int)
        n_purses = np.rint(bandits[:, BANDIT_PURSES] * PURSE_COUNT_SCALE)
        known_value = bandits[:, BANDIT_KNOWN_PURSE_VALUE] * 1000.0
        purses = OBS.get(obs, "purses")
        self.purse_where = np.argmax(purses[:, :PURSE_VALUE], axis=1)
        self.purse_value = np.where(
            purses[:, PURSE_VALUE_UNKNOWN] > 0, UNKNOWN_PURSE,
            PURSE_VALUE_BASE + PURSE_VALUE_STEP * np.argmax(purses[:, PURSE_VALUE:PURSE_VALUE_UNKNOWN], axis=1))
        self.purse_known = purses[:, PURSE_VALUE_UNKNOWN] == 0
        n_known = np.zeros(MAX_BANDITS)
        for i in range(N_PURSES):
            w = self.purse_where[i]
            if N_LOCATIONS <= w < N_LOCATIONS + MAX_BANDITS and self.purse_known[i]:
                n_known[w - N_LOCATIONS] += 1
        self.wealth = (known_value + (n_purses - n_known) * UNKNOWN_PURSE
                       + np.rint(bandits[:, BANDIT_JEWELS] * JEWEL_COUNT_SCALE) * JEWEL_VALUE
                       + np.rint(bandits[:, BANDIT_STRONGBOXES] * STRONGBOX_COUNT_SCALE) * STRONGBOX_VALUE)
        floor = OBS.get(obs, "floor_loot").reshape(N_LOCATIONS, 3)
        self.floor_jewels = np.rint(floor[:, 1] * JEWEL_COUNT_SCALE)
        self.floor_boxes = np.rint(floor[:, 2] * STRONGBOX_COUNT_SCALE)
        self.floor_value = self.floor_boxes * STRONGBOX_VALUE + self.floor_jewels * JEWEL_VALUE
        self.best_token = np.where(self.floor_boxes > 0, STRONGBOX_VALUE,
                                   np.where(self.floor_jewels > 0, JEWEL_VALUE, 0.0))
        for i in range(N_PURSES):
            w = self.purse_where[i]
            if w < N_LOCATIONS:
                self.floor_value[w] += self.purse_value[i]
                self.best_token[w] = max(self.best_token[w], self.purse_value[i])
        self.n_cars = int(OBS.get(obs, "car_present").sum())
        self.marshal = int(np.argmax(OBS.get(obs, "marshal_car")))
        self.hand = np.rint(OBS.get(obs, "own_hand") * CODE_COUNT_SCALE).astype(int)
        self.hand[BULLET_CARD] = int(round(float(OBS.get(obs, "own_hand")[BULLET_CARD]) * BULLET_COUNT_SCALE))
        self.pending = int(np.argmax(OBS.get(obs, "pending_bandit")))
        self.victim = int(np.argmax(OBS.get(obs, "pending_victim")))
        self.pile = OBS.get(obs, "pile")

    # ---- generic helpers ------------------------------------------------------------
    def opponents(self) -> np.ndarray:
        """Egocentric indices of the present bandits of other seats."""
        return np.flatnonzero(self.present & ~self.own)

    def at(self, loc: int) -> np.ndarray:
        """Present bandits at a location."""
        return np.flatnonzero(self.present & (self.loc == loc))

    def in_sight(self, actor: int, loc: int) -> list[int]:
        """Bandits the actor could shoot from ``loc`` (§6.3; Belle not filtered)."""
        car, level = divmod(loc, 2)
        targets = []
        if level == IN:
            targets = [b for b in np.flatnonzero(self.present) if b != actor and self.loc[b] % 2 == IN
                       and abs(self.loc[b] // 2 - car) == 1]
        else:
            roofs = [b for b in np.flatnonzero(self.present) if b != actor and self.loc[b] % 2 == ROOF]
            front = [self.loc[b] // 2 for b in roofs if self.loc[b] // 2 < car]
            back = [self.loc[b] // 2 for b in roofs if self.loc[b] // 2 > car]
            near = {max(front)} if front else set()
            near |= {min(back)} if back else set()
            targets = [b for b in roofs if self.loc[b] // 2 in near]
        if self.character[actor] == TUCO:
            targets += [b for b in np.flatnonzero(self.present) if b != actor and self.loc[b] == loc ^ 1]
        return targets

    def location_value(self, loc: int, taken: float = 0.0) -> float:
        """Loot lying at a location (minus what is already planned to be taken), in $250 units."""
        return max(self.floor_value[loc] - taken, 0.0) / MONEY_UNIT

    def destinations(self, car: int, level: int, reach: int) -> list[int]:
        """Cars a bandit can reach from ``car`` (1 inside, up to 3 on the roofs, §6.1)."""
        return [c for d in range(1, reach + 1) for c in (car - d, car + d) if 0 <= c < self.n_cars]

    def place_score(self, loc: int, taken: float = 0.0) -> float:
        """How good a location is to stand at: its loot, minus the marshal's car inside (§5.2)."""
        car, level = divmod(loc, 2)
        score = self.location_value(loc, taken)
        if level == IN and car == self.marshal:
            score -= MARSHAL_PENALTY
        return score

    def best_move(self, loc: int, taken: float = 0.0) -> tuple[int, float]:
        """The best car to move to from ``loc`` and its place score."""
        car, level = divmod(loc, 2)
        reach = 3 if level == ROOF else 1
        options = [(self.place_score(c * 2 + level, taken) - 0.05 * abs(c - car), c)
                   for c in self.destinations(car, level, reach)]
        score, best = max(options)
        return best, score

    # ---- the decisions ---------------------------------------------------------------
    def score(self, legal: np.ndarray) -> np.ndarray:
        """A score per legal action of the pending decision (higher is better)."""
        d = self.decision
        if d == DEC_PLAN:
            return self.score_plan(legal)
        if d == DEC_BULLETS:
            return (legal == A_BULLETS_DISCARD).astype(float)
        if d == DEC_KEEP:
            return self.score_keep(legal)
        return np.array([self.score_choice(int(a)) for a in legal], dtype=float)

    def projected(self) -> tuple[np.ndarray, np.ndarray]:
        """Projected location of each own bandit and loot already planned to be taken there, after own pile cards."""
        loc = self.loc.copy()
        taken = np.zeros(N_LOCATIONS)
        for i in range(self.pile.shape[0]):
            row = self.pile[i]
            if row[PILE_PRESENT] == 0 or row[PILE_RESOLVED] > 0 or row[PILE_RESOLVING] > 0:
                continue
            if row[PILE_OWNER] == 0 or row[PILE_VISIBLE] == 0:  # not mine (offset 0 is me)
                continue
            code = int(np.argmax(row[PILE_CARD:PILE_CARD + N_CARD_CODES]))
            b, kind = divmod(code, N_KINDS)
            if kind == MARSHAL:
                continue
            if kind == FLOOR:
                loc[b] ^= 1
            elif kind == MOVE:
                car, _ = self.best_move(int(loc[b]), taken[loc[b]])
                loc[b] = car * 2 + loc[b] % 2
            elif kind == ROB:
                taken[loc[b]] += self.best_token[loc[b]]
        return loc, taken

    def score_card(self, code: int, loc: np.ndarray, taken: np.ndarray) -> float:
        """Value of playing card ``code`` now, for its bandit at its projected location."""
        b, kind = divmod(code, N_KINDS)
        here = int(loc[b])
        car, level = divmod(here, 2)
        if kind == ROB:
            left = self.floor_value[here] - taken[here]
            return 0.2 + min(self.best_token[here], left) / MONEY_UNIT * 1.5 if left > 0 else 0.05
        if kind == FIRE:
            if self.bullets[b] == 0:
                return 0.0
            targets = [t for t in self.in_sight(b, here) if not self.own[t]]
            if not targets:
                return 0.1
            return SHOT_BONUS + max(self.wealth[t] for t in targets) / 2000.0
        if kind == PUNCH:
            victims = [t for t in self.at(here) if t != b and not self.own[t]]
            if not victims:
                return 0.05
            return 1.0 + max(self.wealth[t] for t in victims) / 700.0
        if kind == MOVE:
            _, best = self.best_move(here, taken[here])
            return 0.3 + best - self.place_score(here, taken[here]) * 0.7
        if kind == FLOOR:
            other = here ^ 1
            gain = self.place_score(other, taken[other]) - self.place_score(here, taken[here])
            if level == IN and abs(car - self.marshal) <= 1:
                gain += 1.0  # leave before the marshal arrives (§5.2)
            if level == ROOF and car == self.marshal:
                gain -= MARSHAL_PENALTY
            return 0.3 + gain
        if kind == MARSHAL:
            best = 0.0
            for c in (self.marshal - 1, self.marshal + 1):
                if 0 <= c < self.n_cars:
                    inside = [t for t in self.at(c * 2 + IN)]
                    best = max(best, sum(-2.0 if self.own[t] else 1.0 for t in inside))
            return 0.2 + 0.6 * best
        return 0.0

    def score_plan(self, legal: np.ndarray) -> np.ndarray:
        """PLAN: score each card in hand at the projected positions; DRAW when nothing is useful (§4.3)."""
        loc, taken = self.projected()
        scores = np.zeros(len(legal))
        n_hand = int(self.hand.sum())
        for j, a in enumerate(legal):
            if a == A_DRAW:
                scores[j] = DRAW_SCORE if n_hand < MAX_HAND_BEFORE_DRAW else -1.0
            elif a < A_PLAY_DOWN:
                scores[j] = self.score_card(int(a - A_PLAY_UP), loc, taken)
            else:
                scores[j] = self.score_card(int(a - A_PLAY_DOWN), loc, taken) + 0.01  # hide the plan
        return scores

    def score_keep(self, legal: np.ndarray) -> np.ndarray:
        """KEEP: discard Marshal cards and spare Floor changes, then keep the rest (§4.4)."""
        scores = np.zeros(len(legal))
        for j, a in enumerate(legal):
            if a == A_KEEP_REST:
                scores[j] = 0.5
            else:
                kind = (a - A_DISCARD) % N_KINDS
                spare_floor = kind == FLOOR and self.hand[a - A_DISCARD] > 1
                scores[j] = 1.0 if kind == MARSHAL or spare_floor else 0.0
        return scores

    def loot_score(self, action: int, actor_is_cheyenne: bool = False) -> float:
        """Strongbox > jewel > purse of known value (by value) > unknown purse (Cheyenne: purses first)."""
        if action == A_STRONGBOX:
            return 3 * BIG
        if action == A_JEWEL:
            return 2 * BIG
        purse = action - A_PURSE
        value = self.purse_value[purse]
        base = (4 * BIG if actor_is_cheyenne else BIG) + (value if self.purse_known[purse] else 0.0)
        return base

    def score_choice(self, a: int) -> float:
        """A Stealin' or event decision (§6, §8.6)."""
        d = self.decision
        actor = self.pending
        if d == DEC_MOVE_DEST:
            car = a - A_CAR
            level = self.loc[actor] % 2
            return self.place_score(car * 2 + level) - 0.05 * abs(car - self.loc[actor] // 2)
        if d in (DEC_FIRE_TARGET, DEC_PUNCH_TARGET):
            t = a - A_BANDIT
            return self.wealth[t] - (BIG if self.own[t] else 0.0)
        if d == DEC_ROB_LOOT or d == DEC_PICKPOCKET:
            return self.loot_score(a)
        if d == DEC_PUNCH_LOOT:
            return self.loot_score(a, self.character[actor] == CHEYENNE)
        if d == DEC_PUNCH_DEST:
            car = a - A_CAR
            level = self.loc[self.victim] % 2
            into_marshal = level == IN and car == self.marshal
            return (10.0 if into_marshal else 0.0) - self.location_value(car * 2 + level)
        if d == DEC_MARSHAL_DEST:
            car = a - A_CAR
            return sum(-2.0 if self.own[t] else 1.0 for t in self.at(car * 2 + IN))
        return 0.0


__all__ = ["ColtExpressHeuristic"]
