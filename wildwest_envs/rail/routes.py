"""Candidate routes of a race (§7.3-§7.5, §12.6): a deterministic Dijkstra per objective.

The rail graph has every step owned by anyone and every built ferry as an edge
(§7.3). For traveller p, objective k searches states ``(hex, used_own)``; the
cost of a move a -> b along edge e is a lexicographic tuple of ``fee`` (0 on
p's own edges, else 1), ``pips(a -> b)`` (§7.4) and 1:

    k = 0 cheapest (fee, pips, 1)    k = 1 fastest (pips, fee, 1)    k = 2 balanced (pips + fee, pips, 1)

Cost tuples are packed into one int64 (``(c0 << 2B) | (c1 << B) | c2`` with
``B = meta[M_COST_BITS]``, so adding packed costs adds the components and
comparing them compares lexicographically), and the heap key is
``(packed << S) | (2 hex + used_own)`` with ``2N <= 2 ** S``, the spec's
``(cost tuple, hex id, used_own)``. A predecessor is set only on a strict improvement; edges are
relaxed in direction order 0..5, then ferries in map order; no move enters the
start hex, nothing continues from a goal hex or a foreign hex, and a foreign
hex is entered only as a goal (§7.5 item 1). The search stops when the first
goal state ``(g, 1)`` is popped: that state has the smallest key of all goal
states, and its predecessor chain is final, so the result is the one of a full
run (§7.5 item 2).

A path is returned as ``n`` hexes and ``n - 1`` edges (edge ``e >= 0`` a step,
``-1 - f`` ferry f). A path that repeats a hex is no candidate (§7.5 item 3).

Speed: the rail graph does not change during a race (§12.1), so ``build_graph``
lists it once per race as adjacency arrays over the hexes of the networks
(numbered in hex order), and every search of the race (K objectives for each
seat) walks only the edges that exist, with the moves the rules forbid already
left out. Keys compare as before (local ids keep the hex order, and every key
pushed is distinct), so the searches pop the same states in the same order as
a search over the whole map: 4x faster, same routes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.borrowed import UNCOUNTED
from .maps import (FE_A, FE_B, FE_MOVE, HOME, HX_COUNTRY, HX_NBR, HX_STEP, M_COST_BITS, ST_A, ST_PIPS_AB,
                   ST_PIPS_BA)

OBJ_CHEAPEST, OBJ_FASTEST, OBJ_BALANCED = 0, 1, 2
NO_PREV = -1


@njit(cache=True)
def new_work(mp):
    """Scratch arrays for the route searches of a race on this map (fill the graph with ``build_graph``):

    0-2 dist, prev state, prev edge (per search state); 3 heap; 4-5 path hexes and edges; 6 seen (per hex);
    7 local id of each hex (-1: not a node); 8 hex of each local id; 9 first edge of each node (CSR);
    10-13 per edge: head node, edge id, pips, owner bits; 14 node kind (``NODE_*``); 15 [node count, start node].
    """
    n = mp.hexes.shape[0]
    n_edges = 6 * n + 2 * mp.ferries.shape[0]
    cap = 2 * n * (6 + mp.ferries.shape[0]) + 1
    return (np.empty(2 * n, dtype=np.int64), np.empty(2 * n, dtype=np.int64), np.empty(2 * n, dtype=np.int64),
            np.empty(cap, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.zeros(n, dtype=np.bool_),
            np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n + 1, dtype=np.int64),
            np.empty(n_edges, dtype=np.int64), np.empty(n_edges, dtype=np.int64), np.empty(n_edges, dtype=np.int64),
            np.empty(n_edges, dtype=np.int64), np.empty(n, dtype=np.int64), np.zeros(2, dtype=np.int64))


NODE_EXPAND, NODE_GOAL, NODE_END = 0, 1, 2  # relaxed onwards; a goal hex; a foreign hex that is no goal (§9.2)


@njit(cache=True, inline="always")
def ferry_landing(state, mp, f: int, h: int) -> int:
    """The other end of ferry f seen from hex h, when f is built and lands at h; else -1 (§7.3)."""
    if state["ferry_owner"][f] < 0:
        return -1
    a, b = mp.ferries[f, FE_A], mp.ferries[f, FE_B]
    return b if a == h else (a if b == h else -1)


@njit(cache=True, inline="always")
def push_unseen(seen, stack, top: int, v: int) -> int:
    """Push hex v on the depth-first ``stack`` of height ``top`` and mark it ``seen``, unless seen; the new height."""
    if not seen[v]:
        seen[v] = True
        stack[top] = v
        top += 1
    return top


@njit(cache=True)
def build_graph(state, mp, work) -> None:
    """The rail graph of the current race as adjacency lists over local node ids (§7.3), for ``find_route``.

    Nodes are the hexes of any network (every end of a step or ferry lies in its owner's network), numbered in
    increasing hex order so that comparing local ids compares hex ids (the tie order of §12.6). Each node lists
    its edges in the order the search relaxes them: directions 0..5, then ferries in map order; moves into the
    start hex and into foreign hexes that are no goal are left out (they are never relaxed, §7.5 item 1)."""
    local, glob, first = work[7], work[8], work[9]
    head, edge_id, pips, owner_bits, kind, meta = work[10], work[11], work[12], work[13], work[14], work[15]
    n = mp.hexes.shape[0]
    start = np.int64(state["race_start"])
    m = 0
    for h in range(n):
        if state["net"][h] != 0 or h == start:
            local[h] = m
            glob[m] = h
            if is_goal(state, mp, h):
                kind[m] = NODE_GOAL
            elif mp.hexes[h, HX_COUNTRY] != HOME:
                kind[m] = NODE_END
            else:
                kind[m] = NODE_EXPAND
            m += 1
        else:
            local[h] = -1
    k = 0
    for u in range(m):
        first[u] = k
        if kind[u] != NODE_EXPAND:
            continue
        h = glob[u]
        for d in range(6):
            e = mp.hexes[h, HX_STEP + d]
            if e < 0 or state["owners"][e] == 0:
                continue
            v = local[mp.hexes[h, HX_NBR + d]]
            if v < 0 or glob[v] == start or kind[v] == NODE_END:  # v < 0 only in an inconsistent record
                continue
            head[k], edge_id[k], pips[k], owner_bits[k] = v, e, step_pips(mp, e, h), state["owners"][e]
            k += 1
        for fe in range(mp.ferries.shape[0]):
            landing = ferry_landing(state, mp, fe, h)
            if landing < 0:
                continue
            v = local[landing]
            if v < 0 or glob[v] == start or kind[v] == NODE_END:
                continue
            owner = np.int64(state["ferry_owner"][fe])
            head[k], edge_id[k], pips[k], owner_bits[k] = v, -1 - fe, mp.ferries[fe, FE_MOVE], np.int64(1) << owner
            k += 1
    first[m] = k
    meta[0] = m
    meta[1] = local[start]


@njit(cache=True)
def is_goal(state, mp, h: int) -> bool:
    """h is a goal hex of the current race: the goal city, or any hex of the goal country (§9.3)."""
    if state["race_country"] >= 0:
        return mp.hexes[h, HX_COUNTRY] == state["race_country"]
    return h == state["race_goal"]


@njit(cache=True)
def step_pips(mp, e: int, a: int) -> int:
    """Movement pips of step e travelled from its end a (§7.4)."""
    return mp.steps[e, ST_PIPS_AB] if mp.steps[e, ST_A] == a else mp.steps[e, ST_PIPS_BA]


@njit(cache=True)
def edge_pips(mp, edge: int, a: int) -> int:
    """Pips of a path edge (a step, or a ferry at its move cost) travelled from hex a."""
    if edge >= 0:
        return step_pips(mp, edge, a)
    return mp.ferries[-1 - edge, FE_MOVE]


@njit(cache=True)
def owns_edge(state, p: int, edge: int) -> bool:
    """p owns the step, or the ferry (§7.3, G41)."""
    if edge >= 0:
        return (state["owners"][edge] >> p) & 1 == 1
    return state["ferry_owner"][-1 - edge] == p


@njit(cache=True)
def _packed(objective: int, fee: int, pips: int, bits: int) -> int:
    if objective == OBJ_CHEAPEST:
        c0, c1 = fee, pips
    elif objective == OBJ_FASTEST:
        c0, c1 = pips, fee
    else:
        c0, c1 = pips + fee, pips
    return (c0 << (2 * bits)) | (c1 << bits) | 1


@njit(cache=True)
def _heap_push(heap, size: int, key: int) -> int:
    i = size
    heap[i] = key
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent
    return size + 1


@njit(cache=True)
def _heap_pop(heap, size: int) -> int:
    """Remove the smallest key (returned via heap[size - 1] after the call); returns the new size."""
    top = heap[0]
    size -= 1
    heap[0] = heap[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and heap[left + 1] < heap[left]:
            child = left + 1
        if heap[i] <= heap[child]:
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child
    heap[size] = top
    return size


@njit(cache=True)
def _state_bits(mp) -> int:
    """Bits of a search state id: 2 N < 2 ** bits for the map's N hexes (the map check keeps the keys in 62 bits)."""
    bits = 1
    while (np.int64(1) << bits) < 2 * mp.hexes.shape[0]:
        bits += 1
    return bits


@njit(cache=True, **UNCOUNTED)
def find_route(state, mp, work, p: int, objective: int) -> int:
    """Best route of p for one objective into work[4] (hexes) / work[5] (edges); its hex count, 0 if none (§7.5).
    Searches the graph of ``build_graph`` (call it once per race first). No reference counting of the 16 scratch
    arrays (``core.borrowed.UNCOUNTED``)."""
    dist, prev, prev_edge, heap = work[0], work[1], work[2], work[3]
    first, head, edge_id, pips, owner_bits, kind = work[9], work[10], work[11], work[12], work[13], work[14]
    m, start = work[15][0], work[15][1]
    n2 = 2 * m
    shift = _state_bits(mp)
    low = (np.int64(1) << shift) - 1
    bits = np.int64(mp.meta[M_COST_BITS])
    inf = np.int64(1) << 62
    dist[:n2] = inf
    dist[2 * start] = 0
    prev[2 * start] = NO_PREV
    size = _heap_push(heap, np.int64(0), 2 * start)
    goal_sid = -1
    while size > 0:
        size = _heap_pop(heap, size)
        key = heap[size]
        sid = key & low
        cost = key >> shift
        if cost > dist[sid]:
            continue  # stale entry
        u, f = sid // 2, sid % 2
        if kind[u] == NODE_GOAL:
            if f == 1:
                goal_sid = sid
                break
            continue  # a route ends at the first goal hex it reaches
        for k in range(first[u], first[u + 1]):
            own = (owner_bits[k] >> p) & 1 == 1
            f2 = 1 if (f == 1 or own) else 0
            c2 = cost + _packed(objective, 0 if own else 1, pips[k], bits)
            sid2 = 2 * head[k] + f2
            if c2 < dist[sid2]:
                dist[sid2] = c2
                prev[sid2] = sid
                prev_edge[sid2] = edge_id[k]
                size = _heap_push(heap, size, (c2 << shift) | sid2)
    if goal_sid < 0:
        return 0
    return _rebuild(work, goal_sid)


@njit(cache=True)
def _rebuild(work, goal_sid: int) -> int:
    """Write the path ending in goal_sid, start first; 0 if it visits a hex twice (§7.5 item 3)."""
    prev, prev_edge, hexes, edges, seen, glob = work[1], work[2], work[4], work[5], work[6], work[8]
    n = hexes.shape[0]
    length = 0
    sid = goal_sid
    while sid != NO_PREV:
        if length >= n:
            return 0
        hexes[length] = glob[sid // 2]
        edges[length] = prev_edge[sid]
        length += 1
        sid = prev[sid]
    # reverse in place: hexes[0] = start; edges[i] joins hexes[i] -> hexes[i + 1]
    for i in range(length // 2):
        j = length - 1 - i
        hexes[i], hexes[j] = hexes[j], hexes[i]
    _reverse_edges(edges, length)
    ok = True
    for i in range(length):
        if seen[hexes[i]]:
            ok = False
        seen[hexes[i]] = True
    for i in range(length):
        seen[hexes[i]] = False
    return length if ok else 0


@njit(cache=True)
def _reverse_edges(edges, length: int) -> None:
    """Edges were collected goal first (edge i enters the i-th hex from the goal); put them start first."""
    for i in range((length - 1) // 2):
        j = length - 2 - i
        edges[i], edges[j] = edges[j], edges[i]


@njit(cache=True)
def route_seats(state, mp) -> int:
    """A cheap test before the searches: the seats that may have a route (bit s for seat s), 0 if no goal hex is
    reachable from the start over the rail graph (§7.3).

    One pass over the part of the graph the searches can reach (the same moves as ``build_graph``: from the
    start and every home hex that is no goal, into home hexes and goal hexes, never back into the start). A
    route of p uses one of p's steps or ferries (§7.5 item 1), so a seat owning none of the edges met is left
    out: its searches would find nothing, after exploring all of it."""
    n = mp.hexes.shape[0]
    start = np.int64(state["race_start"])
    if state["net"][start] == 0:
        return 0  # no line touches the start city
    if state["race_goal"] >= 0 and state["net"][state["race_goal"]] == 0:
        return 0  # ... or the goal city
    return _reachable_seats(state, mp, np.zeros(n, dtype=np.bool_), np.empty(n, dtype=np.int64))


@njit(cache=True, **UNCOUNTED)
def _reachable_seats(state, mp, seen, stack) -> int:
    """The pass of ``route_seats`` from the start hex, with its scratch arrays (``seen`` all False, a ``stack``
    of a hex's size); no reference counting of them (``core.borrowed.UNCOUNTED``)."""
    start = np.int64(state["race_start"])
    top = push_unseen(seen, stack, 0, start)
    reached = False
    seats = 0
    while top > 0:
        top -= 1
        u = stack[top]
        if u != start and is_goal(state, mp, u):
            reached = True
            continue  # a route ends at the first goal hex it reaches
        if mp.hexes[u, HX_COUNTRY] != HOME:
            continue
        for d in range(6):
            e = mp.hexes[u, HX_STEP + d]
            if e >= 0 and state["owners"][e] != 0:
                v = mp.hexes[u, HX_NBR + d]
                if v != start and (mp.hexes[v, HX_COUNTRY] == HOME or is_goal(state, mp, v)):
                    seats |= np.int64(state["owners"][e])
                    top = push_unseen(seen, stack, top, v)
        for fe in range(mp.ferries.shape[0]):
            v = ferry_landing(state, mp, fe, u)
            if v >= 0 and v != start and (mp.hexes[v, HX_COUNTRY] == HOME or is_goal(state, mp, v)):
                seats |= np.int64(1) << np.int64(state["ferry_owner"][fe])
                top = push_unseen(seen, stack, top, v)
    return seats if reached else 0
