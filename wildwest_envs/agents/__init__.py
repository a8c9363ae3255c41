"""Reference agents: random, heuristic, search, shipped networks, guided search and trained-policy players.

Every agent follows ``agents.base.Agent``: ``act(observation, action_mask)``
for one decision and ``act_batch(observations, masks, states=None, seats=None)``
for many. Search agents also read ``states``/``seats`` but only through
``Game.resample_hidden`` (what the seat may know), never the true hidden state.
Use ``wildwest_envs.agents.registry.make_agent(spec, game, seed, num_players=N)`` to build one by name
(``pretrained`` and ``mcts+pretrained`` load the network shipped in ``weights/``).
"""
