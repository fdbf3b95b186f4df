"""Harmonic centrality and the modes (issue 28) against NetworkX and igraph.

NetworkX: ``harmonic_centrality`` and ``closeness_centrality`` read the
distances *to* a node of a directed graph (apsp's default, mode "in");
mode "out" is NetworkX on ``G.reverse()``, mode "all" NetworkX on
``G.to_undirected()`` (parallel arcs keeping the shorter length).
``eccentricity`` reads the distances *from* a node (mode "out"); mode "in"
is NetworkX on ``G.reverse()``.  igraph: ``closeness(mode=…)`` (over the
reachable nodes: NetworkX's ``wf_improved=False``),
``harmonic_centrality(mode=…, normalized=False)`` and
``eccentricity(mode=…)`` (unweighted, over the reachable nodes: apsp's
``reachable=True``).
"""

from __future__ import annotations

import math
import random
from typing import Dict, Hashable, Optional

import networkx as nx
import numpy as np
import pytest

import apsp

pytestmark = pytest.mark.usefixtures("apsp_bin")

MODES = ["in", "out", "all"]


def _random_graph(seed: int, directed: bool, weighted: Optional[str], n: int, p: float) -> nx.Graph:
    """A G(n, p) graph with string labels; weighted "int" (zeros included),
    "float", or None."""
    rng = random.Random(seed)
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    if weighted == "int":
        for u, v in G.edges:
            G.edges[u, v]["weight"] = rng.randint(0, 9)
    elif weighted == "float":
        for u, v in G.edges:
            G.edges[u, v]["weight"] = rng.uniform(0.25, 5.0)
    return G


def _undirected(G: nx.Graph, weight: Optional[str]) -> nx.Graph:
    """G with its directions dropped, a pair joined both ways keeping the
    shorter length (NetworkX's to_undirected keeps one of them)."""
    H = nx.Graph()
    H.add_nodes_from(G)
    for u, v, d in G.edges(data=True):
        w = d.get(weight, 1) if weight else 1
        if H.has_edge(u, v):
            w = min(w, H.edges[u, v].get("weight", 1))
        if weight:
            H.add_edge(u, v, weight=w)
        else:
            H.add_edge(u, v)
    return H


def _view(G: nx.Graph, mode: str, default: str, weight: Optional[str]) -> nx.Graph:
    """The graph whose NetworkX measure (reading distances in ``default``
    direction) is apsp's in ``mode``."""
    if not G.is_directed():
        return G
    if mode == "all":
        return _undirected(G, weight)
    return G if mode == default else G.reverse()


def _close(got: Dict[Hashable, float], want: Dict[Hashable, float], rel: float = 1e-9) -> None:
    assert set(got) == set(want)
    for v in want:
        assert math.isclose(got[v], want[v], rel_tol=rel, abs_tol=1e-12), (v, got[v], want[v])


CASES = [(seed, directed, weighted) for seed in range(8) for directed in (False, True) for weighted in (None, "int", "float")]


@pytest.mark.parametrize("seed,directed,weighted", CASES)
def test_harmonic_matches_networkx(seed: int, directed: bool, weighted: Optional[str]) -> None:
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    want = nx.harmonic_centrality(G, distance=w)
    _close(apsp.harmonic_centrality(G, distance=w), want)
    _close(apsp.harmonic_centrality(G, weight=w), want)
    for mode in MODES:
        ref = nx.harmonic_centrality(_view(G, mode, "in", w), distance=w)
        _close(apsp.harmonic_centrality(G, distance=w, mode=mode), ref)
        for algo in ("dijkstra", "blocked") + (("bfs", "bitbfs") if weighted is None else ()):
            _close(apsp.harmonic_centrality(G, distance=w, mode=mode, algorithm=algo), ref)


@pytest.mark.parametrize("seed,directed,weighted", CASES)
def test_closeness_modes_match_networkx(seed: int, directed: bool, weighted: Optional[str]) -> None:
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    for mode in MODES:
        for wf in (True, False):
            want = nx.closeness_centrality(_view(G, mode, "in", w), distance=w, wf_improved=wf)
            _close(apsp.closeness_centrality(G, distance=w, wf_improved=wf, mode=mode), want)


@pytest.mark.parametrize("seed,directed,weighted", CASES)
def test_eccentricity_modes_match_networkx(seed: int, directed: bool, weighted: Optional[str]) -> None:
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.2, 0.3, 0.5][seed % 3])
    w = "weight" if weighted else None
    for mode in MODES:
        H = _view(G, mode, "out", w)
        got = apsp.eccentricity(G, weight=w, mode=mode)
        strongly = nx.is_strongly_connected(H) if H.is_directed() else nx.is_connected(H)
        if not strongly:
            assert any(math.isinf(x) for x in got.values())
            continue
        e = nx.eccentricity(H, sp=dict(nx.shortest_path_length(H, weight=w)))
        _close(got, e)
        s = apsp.stats(G, weight=w, mode=mode)
        assert s["radius"] == pytest.approx(nx.radius(H, e=e))
        assert s["diameter"] == pytest.approx(nx.diameter(H, e=e))
        if w != "weight" or weighted == "int":  # float ties: apsp's within 1e-9, NetworkX's exact
            assert s["center"] == nx.center(H, e=e)
            assert s["periphery"] == nx.periphery(H, e=e)


def test_harmonic_edge_cases() -> None:
    assert apsp.harmonic_centrality(nx.Graph()) == {}
    G = nx.DiGraph([("a", "b"), ("b", "c")])
    assert apsp.harmonic_centrality(G) == {"a": 0.0, "b": 1.0, "c": 1.5}
    assert apsp.harmonic_centrality(G, nbunch=["c"]) == {"c": 1.5}
    assert apsp.harmonic_centrality(G, mode="out") == {"a": 1.5, "b": 1.0, "c": 0.0}
    G.add_edge("c", "a", weight=-1)
    with pytest.raises(apsp.ApspError):
        apsp.harmonic_centrality(G, distance="weight")
    with pytest.raises(apsp.ApspError):
        apsp.harmonic_centrality(G, mode="sideways")
    with pytest.raises(apsp.ApspError):
        apsp.distances(G, mode="in")  # reads the distances from each node only


igraph = pytest.importorskip("igraph")


def _to_igraph(G: nx.Graph, w: Optional[str]):  # type: ignore[no-untyped-def]
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    h = igraph.Graph(n=len(nodes), edges=[(index[u], index[v]) for u, v in G.edges], directed=G.is_directed())
    if w:
        h.es["weight"] = [d[w] for _, _, d in G.edges(data=True)]
    return h, nodes


@pytest.mark.parametrize("seed,directed,weighted", CASES)
def test_modes_match_igraph(seed: int, directed: bool, weighted: Optional[str]) -> None:
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    if weighted == "int":  # igraph's closeness refuses zero lengths
        for u, v in G.edges:
            G.edges[u, v]["weight"] += 1
    h, nodes = _to_igraph(G, w)
    for mode in MODES:
        weights = "weight" if w else None
        want_h = dict(zip(nodes, h.harmonic_centrality(mode=mode, weights=weights, normalized=False)))
        _close(apsp.harmonic_centrality(G, distance=w, mode=mode), want_h)
        want_c = dict(zip(nodes, (0.0 if math.isnan(x) else x for x in h.closeness(mode=mode, weights=weights))))
        _close(apsp.closeness_centrality(G, distance=w, wf_improved=False, mode=mode), want_c)
        if w is None:
            want_e = dict(zip(nodes, (float(x) for x in h.eccentricity(mode=mode))))
            _close(apsp.eccentricity(G, reachable=True, mode=mode), want_e)


def _ref_effective(G: nx.Graph, w: Optional[str], ratio: float):  # type: ignore[no-untyped-def]
    """Both effective diameters from NetworkX's full distance matrix (numpy):
    the ⌈ratio·P⌉-th smallest distance of the P pairs u ≠ v with a path, and
    SNAP's interpolation over the distance counts with the n pairs (u, u)."""
    import numpy as np

    d = nx.floyd_warshall_numpy(G, weight=w) if w else nx.floyd_warshall_numpy(G, weight=None)
    n = d.shape[0]
    off = d[~np.eye(n, dtype=bool)]
    ds = np.sort(off[np.isfinite(off)])
    if ds.size == 0:
        return math.nan, math.nan
    eff = float(ds[max(math.ceil(ratio * ds.size), 1) - 1])
    keys, counts = np.unique(np.concatenate([np.zeros(n), ds]), return_counts=True)
    cdf = np.cumsum(counts.astype(float))
    eff_pairs = ratio * cdf[-1]
    above = np.nonzero(cdf > eff_pairs)[0]
    if above.size == 0:
        snap = float(keys[-1])
    elif above[0] == 0:
        snap = 1.0
    else:
        i = int(above[0])
        snap = float(keys[i - 1] + (eff_pairs - cdf[i - 1]) / (cdf[i] - cdf[i - 1]))
    return eff, snap


@pytest.mark.parametrize("seed,directed,weighted", [(s, d, w) for s in range(10) for d in (False, True) for w in (None, "int")])
@pytest.mark.parametrize("ratio", [0.9, 0.5, 1.0])
def test_effective_diameter_matches_numpy(seed: int, directed: bool, weighted: Optional[str], ratio: float) -> None:
    G = _random_graph(seed, directed, weighted, n=3 + 4 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    want_eff, want_snap = _ref_effective(G, w, ratio)
    for algo in ("auto", "dijkstra") + (("bfs", "bitbfs") if w is None else ()):
        s = apsp.stats(G, weight=w, effective=ratio, algorithm=algo)
        assert s["effective_ratio"] == ratio
        for key, want in (("effective_diameter", want_eff), ("effective_diameter_interpolated", want_snap)):
            got = s[key]
            assert (math.isnan(got) and math.isnan(want)) or math.isclose(got, want, rel_tol=1e-12), (algo, key, got, want)
    assert "effective_diameter" not in apsp.stats(G, weight=w)


def test_effective_diameter_refusals() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, weight=0.5)
    with pytest.raises(apsp.ApspError):
        apsp.stats(G, weight="weight", effective=0.9)  # float lengths
    with pytest.raises(apsp.ApspError):
        apsp.stats(G, effective=1.5)


@pytest.mark.parametrize("seed,directed,weighted", CASES[:24])
def test_chosen_nodes_search_from_them_alone(seed: int, directed: bool, weighted: Optional[str]) -> None:
    """eccentricity(v=…), closeness_centrality(u=…) and
    harmonic_centrality(nbunch=…) send the nodes as "sources": the answers
    are NetworkX's for those nodes, in every mode."""
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.2, 0.3, 0.5][seed % 3])
    w = "weight" if weighted else None
    rng = random.Random(seed)
    some = rng.sample(list(G), k=min(3, len(G)))
    for mode in MODES:
        H = _view(G, mode, "in", w)
        want_h = nx.harmonic_centrality(H, nbunch=some, distance=w)
        _close(apsp.harmonic_centrality(G, nbunch=some, distance=w, mode=mode), want_h)
        for u in some:
            want_c = nx.closeness_centrality(H, u=u, distance=w)
            assert math.isclose(apsp.closeness_centrality(G, u=u, distance=w, mode=mode), want_c, rel_tol=1e-12, abs_tol=1e-15)
        E = _view(G, mode, "out", w)
        sp = dict(nx.shortest_path_length(E, weight=w))
        for v in some:
            want_e = max(sp[v].values()) if len(sp[v]) == len(E) else math.inf
            assert apsp.eccentricity(G, v=v, weight=w, mode=mode) == pytest.approx(want_e)
        got = apsp.eccentricity(G, v=some, weight=w, mode=mode, reachable=True)
        assert list(got) == some
        for v in some:
            assert got[v] == pytest.approx(max(sp[v].values()))
    assert apsp.harmonic_centrality(G, nbunch=[]) == {}


@pytest.mark.parametrize("seed", range(6))
def test_estimate_stats(seed: int) -> None:
    """Every node sampled: NetworkX's ASPL and diameter; fewer: a bound that
    never exceeds the diameter and an interval around the estimate."""
    G = nx.connected_watts_strogatz_graph(60 + 10 * seed, 4, 0.2, seed=seed)
    aspl, diam = nx.average_shortest_path_length(G), nx.diameter(G)
    full = apsp.estimate_stats(G, k=len(G), seed=seed)
    assert full["aspl"]["estimate"] is True and full["connected"] is True
    assert math.isclose(full["aspl"]["value"], aspl, rel_tol=1e-12)
    assert full["diameter_lower_bound"] == diam
    few = apsp.estimate_stats(G, k=10, seed=seed)
    assert few["sample"] == 10 and few["seed"] == seed
    assert few["diameter_lower_bound"] <= diam
    assert few["aspl"]["ci95_low"] <= few["aspl"]["value"] <= few["aspl"]["ci95_high"]
    assert few == {**apsp.estimate_stats(G, k=10, seed=seed), "seconds": few["seconds"]}
    D = nx.DiGraph([(0, 1), (1, 2)])
    exact = apsp.estimate_stats(D, k=2)
    assert exact["aspl"]["estimate"] is False and exact["aspl"]["value"] == math.inf


@pytest.mark.parametrize("seed,directed,weighted", CASES[:12])
def test_estimate_closeness(seed: int, directed: bool, weighted: Optional[str]) -> None:
    """Every node sampled: NetworkX's closeness exactly, in every mode; a
    sample: intervals around their estimates, marked as estimates."""
    G = _random_graph(seed, directed, weighted, n=6 + 3 * seed, p=[0.1, 0.2, 0.4][seed % 3])
    w = "weight" if weighted else None
    for mode in MODES:
        want = nx.closeness_centrality(_view(G, mode, "in", w), distance=w)
        got = apsp.estimate_closeness(G, k=len(G), seed=seed, distance=w, mode=mode)
        for v in want:
            assert got[v]["estimate"] is True
            for key in ("value", "ci95_low", "ci95_high"):
                assert math.isclose(got[v][key], want[v], rel_tol=1e-9, abs_tol=1e-12), (mode, v, key, got[v], want[v])
    few = apsp.estimate_closeness(G, k=3, seed=seed, distance=w)
    for v, x in few.items():
        if x["value"] == 0 and not math.isnan(x["ci95_low"]):
            # No sampled node reaches v: 0 from below, unknown above.
            assert x["ci95_low"] == 0 and math.isnan(x["ci95_high"]), (v, x)
        else:
            assert math.isnan(x["ci95_low"]) or x["ci95_low"] <= x["value"] <= x["ci95_high"]


@pytest.mark.parametrize("seed,directed,weighted", CASES)
def test_distances_between_matches_networkx(seed: int, directed: bool, weighted: Optional[str]) -> None:
    """Origin–destination matrices (sources, targets or both chosen, repeats
    included, fewer targets than sources and more) against NetworkX's
    distances from each source, in every mode."""
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    rng = random.Random(seed)
    nodes = list(G)
    some = lambda k: [rng.choice(nodes) for _ in range(k)]  # noqa: E731
    for mode in MODES:
        H = _view(G, mode, "out", w)
        ref = {u: nx.single_source_dijkstra_path_length(H, u, weight=w or (lambda a, b, d: 1)) for u in H}
        for sources, targets in [(some(3), None), (None, some(2)), (some(2), some(5)), (some(5), some(1)), ([], some(2))]:
            D, rows, cols = apsp.distances_between(G, sources, targets, weight=w, mode=mode)
            assert rows == (nodes if sources is None else sources)
            assert cols == (nodes if targets is None else targets)
            assert D.shape == (len(rows), len(cols)) and D.dtype == np.float64
            for i, u in enumerate(rows):
                for j, v in enumerate(cols):
                    assert math.isclose(D[i, j], ref[u].get(v, math.inf), rel_tol=1e-9), (mode, u, v, D[i, j])
    if weighted != "float":
        D, _, _ = apsp.distances_between(G, nodes[:2], nodes[-3:], weight=w, dtype=np.int64)
        assert D.dtype == np.int64
    with pytest.raises(apsp.NodeNotFoundError):
        apsp.distances_between(G, ["no such node"], None)


@pytest.mark.parametrize("seed,directed,weighted", [c for c in CASES if c[2] != "float"])
def test_hop_plot_between_matches_networkx(seed: int, directed: bool, weighted: Optional[str]) -> None:
    """The hop plot of chosen pairs counts NetworkX's distances over them."""
    G = _random_graph(seed, directed, weighted, n=4 + 3 * seed, p=[0.05, 0.12, 0.3][seed % 3])
    w = "weight" if weighted else None
    rng = random.Random(seed + 100)
    nodes = list(G)
    for sources, targets in [([rng.choice(nodes) for _ in range(3)], None), (None, nodes[:2]), (nodes[::2], nodes[1::2])]:
        h = apsp.hop_plot(G, weight=w, sources=sources, targets=targets)
        want: Dict[int, int] = {}
        none = 0
        for u in nodes if sources is None else sources:
            dist = nx.single_source_dijkstra_path_length(G, u, weight=w) if w else nx.single_source_shortest_path_length(G, u)
            for v in nodes if targets is None else targets:
                if u == v:
                    continue
                if v in dist:
                    want[int(dist[v])] = want.get(int(dist[v]), 0) + 1
                else:
                    none += 1
        got = {d: c for d, c in enumerate(h["count"]) if c}
        assert got == want and h["unreachable"] == none, (sources, targets, h)
