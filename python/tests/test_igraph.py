"""apsp against igraph's own measures on seeded random igraph graphs
(igraph's ``unconn=True`` is apsp's ``reachable=True``)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import apsp

ig = pytest.importorskip("igraph")

pytestmark = pytest.mark.usefixtures("apsp_bin")


def close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def random_igraph(seed: int):
    rng = random.Random(seed)
    n = rng.choice([2, 5, 12, 25, 40])
    directed = seed % 2 == 1
    g = ig.Graph.Erdos_Renyi(n=n, p=rng.choice([0.05, 0.1, 0.3]), directed=directed)
    kind = ("unweighted", "int", "float")[seed % 3]
    if kind == "int":
        g.es["weight"] = [rng.randint(1, 9) for _ in range(g.ecount())]
    elif kind == "float":
        g.es["weight"] = [rng.uniform(0.1, 5.0) for _ in range(g.ecount())]
    return g, (None if kind == "unweighted" else "weight"), f"seed={seed} n={n} directed={directed} {kind}"


@pytest.mark.parametrize("seed", range(36))
def test_against_igraph(seed: int) -> None:
    random.seed(seed)
    g, weight, desc = random_igraph(seed)
    ws = g.es[weight] if weight else None
    D, nodes = apsp.distances(g, weight=weight)
    assert nodes == list(range(g.vcount()))
    np.testing.assert_allclose(D, np.array(g.distances(weights=ws), dtype=float), rtol=1e-9, err_msg=desc)
    s = apsp.stats(g, weight=weight, reachable=True)
    assert close(s["diameter"], g.diameter(directed=True, unconn=True, weights=ws)), desc
    assert close(s["aspl"], g.average_path_length(directed=True, unconn=True, weights=ws)), desc
    full = apsp.stats(g, weight=weight)
    connected = not np.isinf(D).any()
    assert full["connected"] == connected, desc
    if connected:
        assert close(full["diameter"], g.diameter(directed=True, unconn=False, weights=ws)), desc
        assert close(full["aspl"], g.average_path_length(directed=True, unconn=False, weights=ws)), desc
    else:
        assert full["diameter"] == math.inf and full["aspl"] == math.inf
    if weight is None:  # igraph 0.10's eccentricity and radius are unweighted
        ecc = apsp.eccentricity(g, reachable=True)
        assert [ecc[v] for v in range(g.vcount())] == g.eccentricity(mode=ig.OUT), desc
        assert s["radius"] == g.radius(mode=ig.OUT), desc
    best = {}
    for e in g.es:
        w = ws[e.index] if ws else 1
        keys = [(e.source, e.target)] + ([] if g.is_directed() else [(e.target, e.source)])
        for k in keys:
            best[k] = min(best.get(k, math.inf), w)
    a, b = 0, g.vcount() - 1
    if math.isfinite(D[a, b]):
        path = apsp.shortest_path(g, a, b, weight=weight)
        assert path[0] == a and path[-1] == b, desc
        assert close(sum(best[u, v] for u, v in zip(path, path[1:])), D[a, b]), desc
    else:
        with pytest.raises(apsp.NoPathError):
            apsp.shortest_path(g, a, b, weight=weight)
