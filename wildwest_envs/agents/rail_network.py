"""A policy network for Rail's spatial action space: one score per buildable step, from per-hex features.

A flat MLP maps the 35,284 observation floats to 1,797 logits through a narrow
hidden layer, so it cannot tell the ~1,770 build actions apart by where they
are; behaviour cloning the heuristic with it reaches 42 % accuracy and a policy
that hardly builds towards any city (``README``/results). ``RailSpatialPolicy``
keeps the structure of the game instead:

* **per-hex features**: the observation's 45 board planes at each hex, plus
  ``N_POTENTIALS`` *potential* planes: a soft minimum over the cities of
  ``cheapest build cost(city, hex) - desirability(city)``, where the build
  costs are the public map's (a fixed buffer, not learned) and each city's
  desirability is a small learned function of what the observation says of it
  (connected, in the own network, in rivals' networks, start or goal of the
  current race). A step that lowers the potential leads towards a desirable
  city, which is what building lines is about (§6). The features go through
  two per-hex layers conditioned on the observation's vector part (context,
  BP, balances, candidates), then to ``HEX_OUT`` features per hex, with the
  mean of its six neighbours on the hex grid for the neighbourhood;
* **step logits**: for every buildable step, a shared two-layer head over the
  ``HEX_OUT`` features of its two end hexes and its fixed step features (build
  cost, movement pips both ways, river, foreign end), so the same weights
  score every step of the map;
* **other logits** (END_TURN, start cities, race entries, co-building,
  funding, ferries) and the **value** from pooled hex features and the vector.

The module plugs into sb3-contrib's ``MaskableActorCriticPolicy`` as its
``mlp_extractor`` (latent = the logits; the action head is the identity), so
MaskablePPO, behaviour cloning (``training.imitation``) and ``PolicyAgent``
use it unchanged. It has no constructor options beyond the standard ones and
is rebuilt from the map of ``rail_v0`` alone.
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from wildwest_envs.rail.data import DEFAULT_MAP, MAX_PLAYERS, n_actions
from wildwest_envs.rail.maps import (HX_NBR, ST_A, ST_B, ST_COST, ST_FOREIGN, ST_PIPS_AB, ST_PIPS_BA, ST_RIVER,
                                     cheapest_build_costs)
from wildwest_envs.rail.observation import N_PLANES, P_NET, observation_layout

CHANNELS = 16  # per-hex feature width
HEX_OUT = 6  # per-hex features a step's score reads from each of its two ends
STEP_HIDDEN = 16  # width of the shared step head
TEMPERATURES = (2.0, 6.0)  # BP: softness of the soft minimum of each potential (one potential per entry)
N_POTENTIALS = len(TEMPERATURES)
WANT_LIMIT = 12.0  # BP: a city's learned desirability is within +- this
LATENT_VF = 64  # width of the value latent
COST_SCALE = 40.0  # build costs in the potentials are divided by this
MAP = DEFAULT_MAP
OBS = observation_layout(MAP)


def _static_tables() -> tuple[np.ndarray, np.ndarray]:
    """Cheapest build cost from every city to every hex (scaled), and the fixed features of every step."""
    t = MAP.tables
    costs = np.stack([cheapest_build_costs(MAP, int(h)) for h in t.city_hex])
    costs = np.where(np.isfinite(costs), costs, 4 * COST_SCALE) / COST_SCALE  # unreachable: far away
    steps = t.steps
    features = np.stack([steps[:, ST_COST] / 7.0, steps[:, ST_PIPS_AB] / 3.0, steps[:, ST_PIPS_BA] / 3.0,
                         steps[:, ST_RIVER], steps[:, ST_FOREIGN]]).astype(np.float32)
    return costs.astype(np.float32), features


class RailSpatialNet(nn.Module):
    """The ``mlp_extractor`` of ``RailSpatialPolicy``: observation rows -> (action logits, value latent).

    Hex tensors are laid out (batch, hex, feature), so every per-hex layer is a plain ``Linear``; the
    neighbourhood of a hex is the mean over its six neighbours on the hex grid (the map's neighbour table).
    """

    def __init__(self, feature_dim: int):
        super().__init__()
        if feature_dim != OBS.size:
            raise ValueError(f"RailSpatialNet expects rail_v0 observations of {OBS.size} floats, got {feature_dim}")
        self.n_hexes, self.n_steps = MAP.n_hexes, MAP.n_steps
        self.board_size = N_PLANES * self.n_hexes
        self.vector_size = OBS.size - self.board_size
        self.latent_dim_pi = n_actions(MAP)
        self.latent_dim_vf = LATENT_VF
        costs, step_features = _static_tables()
        t = MAP.tables
        neighbours = np.where(t.hexes[:, HX_NBR:HX_NBR + 6] >= 0, t.hexes[:, HX_NBR:HX_NBR + 6], self.n_hexes)
        # exp(-cost / T) of every (potential, city, hex): the soft minimum below is then one matrix product
        weights = np.stack([np.exp(-costs * COST_SCALE / temperature) for temperature in TEMPERATURES])
        self.register_buffer("city_weights", torch.as_tensor(weights.astype(np.float32)), persistent=False)
        self.register_buffer("step_features", torch.as_tensor(step_features.T.copy()), persistent=False)  # (steps, 5)
        for name, values in (("end_a", t.steps[:, ST_A]), ("end_b", t.steps[:, ST_B]), ("city_hex", t.city_hex),
                             ("neighbours", neighbours)):
            self.register_buffer(name, torch.as_tensor(np.array(values, dtype=np.int64)), persistent=False)
        self.n_cities = len(t.city_hex)
        self.connected_start = OBS.start("connected") - self.board_size
        self.race_cities_start = OBS.start("race_cities") - self.board_size
        c = CHANNELS
        self.desirability = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, N_POTENTIALS))
        self.hex_in = nn.Linear(N_PLANES + N_POTENTIALS, c)
        self.context = nn.Linear(self.vector_size, c)
        self.hex_mid = nn.Linear(c, c)
        self.hex_out = nn.Linear(c, HEX_OUT)
        self.around = nn.Linear(c, HEX_OUT)
        # the step head's first layer, split by input: [end a, end b, step features] -> STEP_HIDDEN
        self.step_from_a = nn.Linear(HEX_OUT, STEP_HIDDEN)
        self.step_from_b = nn.Linear(HEX_OUT, STEP_HIDDEN, bias=False)
        self.step_from_features = nn.Linear(step_features.shape[0], STEP_HIDDEN, bias=False)
        self.step_out = nn.Linear(STEP_HIDDEN, 1)
        self.pooled = nn.Sequential(nn.Linear(2 * c + self.vector_size, 64), nn.ReLU())
        self.other_out = nn.Linear(64, self.latent_dim_pi - self.n_steps)
        self.value_out = nn.Sequential(nn.Linear(2 * c + self.vector_size, LATENT_VF), nn.ReLU())

    def output_layers(self) -> list[nn.Module]:
        """The layers that produce logits (initialised with a small gain, like SB3's action head)."""
        return [self.step_out, self.other_out]

    def _potentials(self, board: torch.Tensor, vector: torch.Tensor) -> torch.Tensor:
        """(B, N, K): soft minimum over cities of (build cost from the city - its learned desirability) / 40,
        ``-T log sum_c exp(want_c / T) exp(-cost_c(h) / T)`` for the fixed temperatures T."""
        batch = board.shape[0]
        own = board[:, self.city_hex, P_NET]
        rivals = board[:, self.city_hex, P_NET + 1:P_NET + MAX_PLAYERS].sum(dim=2)
        connected = vector[:, self.connected_start:self.connected_start + self.n_cities]
        race = vector[:, self.race_cities_start:self.race_cities_start + 2 * 36].reshape(batch, 2, 36)
        city_in = torch.stack([connected, own, rivals, race[:, 0, :self.n_cities], race[:, 1, :self.n_cities]],
                              dim=-1)  # (B, cities, 5)
        want = WANT_LIMIT * torch.tanh(self.desirability(city_in))  # (B, cities, K), in BP
        out = []
        for k, temperature in enumerate(TEMPERATURES):
            mixed = torch.exp(want[:, :, k] / temperature) @ self.city_weights[k]  # (B, N)
            out.append(-temperature * torch.log(mixed + 1e-30) / COST_SCALE)
        return torch.stack(out, dim=2)

    def _hex_features(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        batch = obs.shape[0]
        board = obs[:, :self.board_size].reshape(batch, N_PLANES, self.n_hexes).transpose(1, 2)  # (B, N, planes)
        vector = obs[:, self.board_size:]
        x = torch.cat([board, self._potentials(board, vector)], dim=2)
        h = torch.relu(self.hex_in(x) + self.context(vector)[:, None, :])
        return torch.relu(self.hex_mid(h)), vector

    def _pool(self, h: torch.Tensor, vector: torch.Tensor) -> torch.Tensor:
        return torch.cat([h.mean(dim=1), h.amax(dim=1), vector], dim=1)

    def _logits(self, h: torch.Tensor, pooled: torch.Tensor) -> torch.Tensor:
        batch = h.shape[0]
        padded = torch.cat([h, h.new_zeros(batch, 1, h.shape[2])], dim=1)
        around = padded[:, self.neighbours].mean(dim=2)  # (B, N, C): the six neighbours
        x = torch.relu(self.hex_out(h) + self.around(around))  # (B, N, HEX_OUT)
        # one linear layer over the concatenated [x(a), x(b), features], computed per hex, then gathered per step
        hidden = (self.step_from_a(x)[:, self.end_a] + self.step_from_b(x)[:, self.end_b]
                  + self.step_from_features(self.step_features)[None])
        steps = self.step_out(torch.relu(hidden))[:, :, 0]
        other = self.other_out(self.pooled(pooled))
        return torch.cat([steps, other], dim=1)

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(action logits (B, A), value latent (B, 64))."""
        h, vector = self._hex_features(features)
        pooled = self._pool(h, vector)
        return self._logits(h, pooled), self.value_out(pooled)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        """Action logits (B, A)."""
        h, vector = self._hex_features(features)
        return self._logits(h, self._pool(h, vector))

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        """Value latent (B, 64)."""
        h, vector = self._hex_features(features)
        return self.value_out(self._pool(h, vector))


class RailSpatialPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy with ``RailSpatialNet`` (module docstring); ``net_arch`` is ignored."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = RailSpatialNet(self.features_dim)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the extractor's latent already is the logits
        if self.ortho_init:
            for layer in self.mlp_extractor.output_layers():  # small initial logits, as SB3's action head
                nn.init.orthogonal_(layer.weight, gain=0.01)
                nn.init.zeros_(layer.bias)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
