"""Reference answers from NetworkX's shortest-path functions, with README's
semantics (infinite measures without ``reachable``, NaN over no pair), and
the random graphs the tests compare on."""

from __future__ import annotations

import math
import random
from typing import Any, Dict, Hashable, List, Optional, Tuple

import networkx as nx

INF = math.inf


def all_distances(G: Any, weight: Optional[str]) -> Dict[Hashable, Dict[Hashable, float]]:
    """dist[u][v] for every reachable pair (u -> u included)."""
    if weight is None:
        return {u: dict(d) for u, d in nx.all_pairs_shortest_path_length(G)}
    negative = any(w < 0 for _, _, w in G.edges(data=weight, default=1))
    if negative:  # Bellman–Ford: raises NetworkXUnbounded on a negative cycle
        return {u: dict(d) for u, d in nx.all_pairs_bellman_ford_path_length(G, weight=weight)}
    return {u: dict(d) for u, d in nx.all_pairs_dijkstra_path_length(G, weight=weight)}


def close(a: float, b: float) -> bool:
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def measures(G: Any, weight: Optional[str], reachable: bool) -> Dict[str, Any]:
    """The stats fields README's "Semantics" defines, from NetworkX's distances."""
    dist = all_distances(G, weight)
    nodes = list(G)
    n = len(nodes)
    ecc: Dict[Hashable, float] = {}
    pairs: List[float] = []
    for u in nodes:
        others = [d for v, d in dist[u].items() if v != u]
        pairs.extend(others)
        if not reachable and len(others) < n - 1:
            ecc[u] = INF
        else:
            ecc[u] = max(others, default=0)
    complete = len(pairs) == n * (n - 1)
    if not reachable and not complete:
        diameter, aspl = INF, INF
    else:
        diameter = max(pairs, default=0)
        aspl = sum(pairs) / len(pairs) if pairs else math.nan
    radius = min(ecc.values())
    center = [u for u in nodes if math.isfinite(radius) and close(ecc[u], radius)]
    periphery = [u for u in nodes if close(ecc[u], diameter)]
    return {
        "dist": dist,
        "eccentricity": ecc,
        "diameter": diameter,
        "radius": radius,
        "aspl": aspl,
        "reachable_pairs": len(pairs),
        "connected": complete,
        "center": center,
        "periphery": periphery,
    }


def path_length(G: Any, path: List[Hashable], weight: Optional[str]) -> float:
    """The length of ``path`` in G (the smallest of parallel edges), checking
    that each step is an edge."""
    total: float = 0
    for a, b in zip(path, path[1:]):
        assert G.has_edge(a, b), f"{a!r} -> {b!r} is not an edge"
        if weight is None:
            total += 1
        elif G.is_multigraph():
            total += min(d.get(weight, 1) for d in G[a][b].values())
        else:
            total += G[a][b].get(weight, 1)
    return total


LABELS = ("int", "shuffled-int", "str", "tuple")


def relabel(G: Any, how: str, rng: random.Random) -> Any:
    """G with other node labels, and nodes inserted in a shuffled order."""
    nodes = list(G)
    if how == "int":
        mapping = {v: v for v in nodes}
    elif how == "shuffled-int":
        perm = nodes[:]
        rng.shuffle(perm)
        mapping = dict(zip(nodes, perm))
    elif how == "str":
        mapping = {v: f"v{v}" for v in nodes}
    else:
        mapping = {v: (v % 3, f"t{v}") for v in nodes}
    H = G.__class__()
    order = nodes[:]
    if how != "int":
        rng.shuffle(order)
    H.add_nodes_from(mapping[v] for v in order)
    for u, v, d in G.edges(data=True):
        H.add_edge(mapping[u], mapping[v], **d)
    return H


def random_graph(seed: int) -> Tuple[Any, Optional[str], str]:
    """A seeded random graph of up to 40 vertices, with the weight argument
    to use and a description: undirected or directed, sparse (often
    disconnected) or denser, unweighted, int or float weights (some edges
    without the attribute), and on digraphs sometimes negative arcs without
    negative cycles (lengths reweighted by a potential)."""
    rng = random.Random(seed)
    n = rng.choice([1, 2, 3, 5, 8, 13, 21, 30, 40])
    directed = rng.random() < 0.5
    p = rng.choice([0.05, 0.1, 0.2, 0.4])
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    kind = rng.choice(["unweighted", "int", "float", "negative" if directed else "int"])
    weight: Optional[str] = None
    if kind != "unweighted":
        weight = "weight"
        potential = {v: rng.randint(0, 12) for v in G}
        for u, v, d in G.edges(data=True):
            if rng.random() < 0.1:
                continue  # no attribute: length 1
            if kind == "int":
                d["weight"] = rng.randint(0, 20)
            elif kind == "float":
                d["weight"] = round(rng.uniform(0.05, 10.0), 3)
            else:
                d["weight"] = rng.randint(1, 10) + potential[u] - potential[v]
        if kind == "negative":
            for u, v, d in G.edges(data=True):
                if "weight" not in d:  # 1 would break the potential's guarantee
                    d["weight"] = 1 + potential[u] - potential[v]
    G = relabel(G, LABELS[seed % len(LABELS)], rng)
    desc = f"seed={seed} n={n} p={p} {'directed' if directed else 'undirected'} {kind} labels={LABELS[seed % len(LABELS)]}"
    return G, weight, desc
