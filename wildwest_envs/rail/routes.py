"""Candidate routes of a race (§7.3-§7.5, §12.6): a deterministic Dijkstra per objective.

The rail graph has every step owned by anyone and every built ferry as an edge
(§7.3). For traveller p, objective k searches states ``(hex, used_own)``; the
cost of a move a -> b along edge e is a lexicographic tuple of ``fee`` (0 on
p's own edges, else 1), ``pips(a -> b)`` (§7.4) and 1:

    k = 0 cheapest (fee, pips, 1)    k = 1 fastest (pips, fee, 1)    k = 2 balanced (pips + fee, pips, 1)

Cost tuples are packed into one int64 (``(c0 << 2B) | (c1 << B) | c2`` with
``B = meta[M_COST_BITS]``, so adding packed costs adds the components and
comparing them compares lexicographically), and the heap key is
``packed * 2N + (2 hex + used_own)``, the spec's ``(cost tuple, hex id,
used_own)``. A predecessor is set only on a strict improvement; edges are
relaxed in direction order 0..5, then ferries in map order; no move enters the
start hex, nothing continues from a goal hex or a foreign hex, and a foreign
hex is entered only as a goal (§7.5 item 1). The search stops when the first
goal state ``(g, 1)`` is popped: that state has the smallest key of all goal
states, and its predecessor chain is final, so the result is the one of a full
run (§7.5 item 2).

A path is returned as ``n`` hexes and ``n - 1`` edges (edge ``e >= 0`` a step,
``-1 - f`` ferry f). A path that repeats a hex is no candidate (§7.5 item 3).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .maps import (FE_A, FE_B, FE_MOVE, HOME, HX_COUNTRY, HX_NBR, HX_STEP, M_COST_BITS, ST_A, ST_PIPS_AB,
                   ST_PIPS_BA)

OBJ_CHEAPEST, OBJ_FASTEST, OBJ_BALANCED = 0, 1, 2
NO_PREV = -1


@njit(cache=True)
def new_work(mp):
    """Scratch arrays for route searches on this map: dist, prev state, prev edge, heap, path hexes, path edges."""
    n = mp.hexes.shape[0]
    cap = 2 * n * (6 + mp.ferries.shape[0]) + 1
    return (np.empty(2 * n, dtype=np.int64), np.empty(2 * n, dtype=np.int64), np.empty(2 * n, dtype=np.int64),
            np.empty(cap, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.zeros(n, dtype=np.bool_))


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
def _relax(state, mp, work, p: int, objective: int, u: int, f: int, cost: int, v: int, edge: int, pips: int,
           size: int) -> int:
    """Relax the move u -> v along edge (§12.6); returns the new heap size."""
    dist, prev, prev_edge, heap = work[0], work[1], work[2], work[3]
    n2 = 2 * mp.hexes.shape[0]
    if v == state["race_start"]:
        return size  # a route never returns to its start
    if mp.hexes[v, HX_COUNTRY] != HOME and not is_goal(state, mp, v):
        return size  # foreign hexes only as the last hex (§9.2)
    own = owns_edge(state, p, edge)
    f2 = 1 if (f == 1 or own) else 0
    c2 = cost + _packed(objective, 0 if own else 1, pips, np.int64(mp.meta[M_COST_BITS]))
    sid = 2 * v + f2
    if c2 < dist[sid]:
        dist[sid] = c2
        prev[sid] = 2 * u + f
        prev_edge[sid] = edge
        size = _heap_push(heap, size, c2 * n2 + sid)
    return size


@njit(cache=True)
def find_route(state, mp, work, p: int, objective: int) -> int:
    """Best route of p for one objective into work[4] (hexes) / work[5] (edges); its hex count, 0 if none (§7.5)."""
    dist, prev, heap = work[0], work[1], work[3]
    n = mp.hexes.shape[0]
    n2 = 2 * n
    inf = np.int64(1) << 62
    dist[:] = inf
    start = np.int64(state["race_start"])
    dist[2 * start] = 0
    prev[2 * start] = NO_PREV
    size = _heap_push(heap, np.int64(0), 2 * start)
    goal_sid = -1
    while size > 0:
        size = _heap_pop(heap, size)
        key = heap[size]
        sid = key % n2
        cost = key // n2
        if cost > dist[sid]:
            continue  # stale entry
        u, f = sid // 2, sid % 2
        if is_goal(state, mp, u):
            if f == 1:
                goal_sid = sid
                break
            continue  # a route ends at the first goal hex it reaches
        if mp.hexes[u, HX_COUNTRY] != HOME:
            continue
        for d in range(6):
            e = mp.hexes[u, HX_STEP + d]
            if e >= 0 and state["owners"][e] != 0:
                size = _relax(state, mp, work, p, objective, u, f, cost, mp.hexes[u, HX_NBR + d], e,
                              step_pips(mp, e, u), size)
        for fe in range(mp.ferries.shape[0]):
            if state["ferry_owner"][fe] >= 0:
                a, b = mp.ferries[fe, FE_A], mp.ferries[fe, FE_B]
                if a == u or b == u:
                    size = _relax(state, mp, work, p, objective, u, f, cost, b if a == u else a, -1 - fe,
                                  np.int64(mp.ferries[fe, FE_MOVE]), size)
    if goal_sid < 0:
        return 0
    return _rebuild(mp, work, goal_sid, n)


@njit(cache=True)
def _rebuild(mp, work, goal_sid: int, n: int) -> int:
    """Write the path ending in goal_sid, start first; 0 if it visits a hex twice (§7.5 item 3)."""
    prev, prev_edge, hexes, edges, seen = work[1], work[2], work[4], work[5], work[6]
    length = 0
    sid = goal_sid
    while sid != NO_PREV:
        if length >= n:
            return 0
        hexes[length] = sid // 2
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
def route_reaches(state, mp) -> bool:
    """Some goal hex is reachable from the start over the rail graph (a cheap test before the searches)."""
    n = mp.hexes.shape[0]
    start = np.int64(state["race_start"])
    if state["net"][start] == 0:
        return False  # no line touches the start city
    if state["race_goal"] >= 0 and state["net"][state["race_goal"]] == 0:
        return False  # ... or the goal city
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    seen[start] = True
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        u = stack[top]
        if u != start and is_goal(state, mp, u):
            return True
        if mp.hexes[u, HX_COUNTRY] != HOME:
            continue
        for d in range(6):
            e = mp.hexes[u, HX_STEP + d]
            if e >= 0 and state["owners"][e] != 0:
                v = mp.hexes[u, HX_NBR + d]
                if not seen[v] and (mp.hexes[v, HX_COUNTRY] == HOME or is_goal(state, mp, v)):
                    seen[v] = True
                    stack[top] = v
                    top += 1
        for fe in range(mp.ferries.shape[0]):
            if state["ferry_owner"][fe] >= 0:
                a, b = mp.ferries[fe, FE_A], mp.ferries[fe, FE_B]
                v = b if a == u else (a if b == u else -1)
                if v >= 0 and not seen[v] and (mp.hexes[v, HX_COUNTRY] == HOME or is_goal(state, mp, v)):
                    seen[v] = True
                    stack[top] = v
                    top += 1
    return False
