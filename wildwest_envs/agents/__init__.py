"""Baseline agents: random, heuristic, search and trained-policy players.

Every agent follows ``agents.base.Agent``: ``act(observation, action_mask)``
for one decision and ``act_batch(observations, masks, states=None, seats=None)``
for many. Search agents also read ``states``/``seats`` but only through
``Game.resample_hidden`` (what the seat may know), never the true hidden state.
Use ``agents.registry.make_agent(spec, game, seed)`` to build one by name.
"""
