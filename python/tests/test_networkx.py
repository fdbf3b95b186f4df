"""apsp against NetworkX on seeded random graphs: string, tuple and integer
labels, directed and undirected, disconnected, unweighted, int and float
weights, negative arcs without negative cycles, multigraphs."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import apsp

nx = pytest.importorskip("networkx")

from nxref import INF, all_distances, close, measures, path_length, random_graph  # noqa: E402

pytestmark = pytest.mark.usefixtures("apsp_bin")

SEEDS = range(96)


def assert_measures(got: dict, ref: dict, desc: str, fields=("diameter", "radius", "aspl")) -> None:
    for key in fields:
        assert close(got[key], ref[key]), f"{desc}: {key} {got[key]} != {ref[key]}"


@pytest.mark.parametrize("seed", SEEDS)
def test_stats_eccentricity_extremes_summary(seed: int) -> None:
    G, weight, desc = random_graph(seed)
    n = G.number_of_nodes()
    for reachable in (False, True):
        d = f"{desc} reachable={reachable}"
        ref = measures(G, weight, reachable)
        s = apsp.stats(G, weight=weight, reachable=reachable)
        assert s["vertices"] == n and s["directed"] == G.is_directed(), d
        assert s["reachable_only"] == reachable
        assert s["connected"] == ref["connected"], d
        assert s["reachable_pairs"] == ref["reachable_pairs"], d
        assert_measures(s, ref, d)
        assert s["center"] == ref["center"], d
        assert s["periphery"] == ref["periphery"], d
        ecc = apsp.eccentricity(G, weight=weight, reachable=reachable)
        assert list(ecc) == list(G), d
        for v in G:
            assert close(ecc[v], ref["eccentricity"][v]), f"{d}: eccentricity of {v!r}"
        sm = apsp.summary(G, weight=weight, reachable=reachable)
        assert_measures(sm, ref, d, ("diameter", "aspl"))
        assert sm["reachable_pairs"] == ref["reachable_pairs"] and sm["connected"] == ref["connected"], d
        assert close(apsp.diameter(G, weight=weight, reachable=reachable), ref["diameter"]), d
        assert close(apsp.radius(G, weight=weight, reachable=reachable), ref["radius"]), d
        assert close(apsp.average_shortest_path_length(G, weight=weight, reachable=reachable), ref["aspl"]), d
        assert apsp.center(G, weight=weight, reachable=reachable) == ref["center"], d
        assert apsp.periphery(G, weight=weight, reachable=reachable) == ref["periphery"], d


@pytest.mark.parametrize("seed", SEEDS)
def test_distances_hop_plot_paths(seed: int) -> None:
    G, weight, desc = random_graph(seed)
    dist = all_distances(G, weight)
    nodes = list(G)
    D, order = apsp.distances(G, weight=weight)
    assert order == nodes and D.dtype == np.float64 and D.shape == (len(nodes), len(nodes))
    expected = np.array([[dist[u].get(v, INF) for v in nodes] for u in nodes], dtype=np.float64)
    np.testing.assert_allclose(D, expected, rtol=1e-9, err_msg=desc)
    float_weights = weight is not None and any(isinstance(w, float) for _, _, w in G.edges(data=weight, default=1))
    if not float_weights:
        Di, _ = apsp.distances(G, weight=weight, dtype=np.int64)
        assert Di.dtype == np.int64
        big = np.iinfo(np.int64).max
        assert np.array_equal(Di == big, np.isinf(expected)), desc
        assert np.array_equal(Di[~np.isinf(expected)], expected[~np.isinf(expected)].astype(np.int64)), desc
        negative = weight is not None and any(w < 0 for _, _, w in G.edges(data=weight, default=1))
        if not negative:
            h = apsp.hop_plot(G, weight=weight)
            lengths = [dist[u][v] for u in nodes for v in dist[u] if u != v]
            count = [0] * (int(max(lengths, default=0)) + 1)
            for x in lengths:
                count[int(x)] += 1
            while len(count) > 1 and count[-1] == 0:
                count.pop()
            got = list(h["count"])
            while len(got) > len(count) and got[-1] == 0:
                got.pop()
            assert got == count, desc
            assert h["unreachable"] == len(nodes) * (len(nodes) - 1) - len(lengths), desc
    else:
        with pytest.raises(apsp.GraphError):
            apsp.hop_plot(G, weight=weight)
    # a sub-order of nodes
    if len(nodes) >= 2:
        sub = nodes[::-2]
        Ds, so = apsp.distances(G, weight=weight, nodelist=sub)
        assert so == sub
        np.testing.assert_allclose(Ds, [[dist[u].get(v, INF) for v in sub] for u in sub], rtol=1e-9)
    rng = random.Random(seed)
    for _ in range(6):
        u, v = rng.choice(nodes), rng.choice(nodes)
        if v in dist[u]:
            path = apsp.shortest_path(G, u, v, weight=weight)
            assert path[0] == u and path[-1] == v, desc
            assert close(path_length(G, path, weight), dist[u][v]), f"{desc}: {path} is not shortest"
            assert close(apsp.shortest_path_length(G, u, v, weight=weight), dist[u][v]), desc
        else:
            with pytest.raises(apsp.NoPathError) as e:
                apsp.shortest_path(G, u, v, weight=weight)
            assert isinstance(e.value, nx.NetworkXNoPath)
            assert repr(u) in str(e.value) or u == e.value.source


@pytest.mark.parametrize("seed", SEEDS)
def test_networkx_functions_on_connected_graphs(seed: int) -> None:
    """Where NetworkX answers (connected graphs), the same numbers and nodes
    through NetworkX's own functions."""
    G, weight, desc = random_graph(seed)
    if G.number_of_nodes() < 2:
        return
    connected = nx.is_strongly_connected(G) if G.is_directed() else nx.is_connected(G)
    if not connected:
        return
    negative = weight is not None and any(w < 0 for _, _, w in G.edges(data=weight, default=1))
    method = "bellman-ford" if negative else None
    nx_aspl = nx.average_shortest_path_length(G, weight=weight, method=method)
    assert close(apsp.average_shortest_path_length(G, weight=weight), nx_aspl), desc
    if weight is None:  # NetworkX 2.8's eccentricity family has no weight
        assert apsp.diameter(G) == nx.diameter(G), desc
        assert apsp.radius(G) == nx.radius(G), desc
        assert apsp.center(G) == nx.center(G), desc
        assert apsp.periphery(G) == nx.periphery(G), desc
        assert apsp.eccentricity(G) == nx.eccentricity(G), desc
        u, v = list(G)[0], list(G)[-1]
        assert len(apsp.shortest_path(G, u, v)) == len(nx.shortest_path(G, u, v)), desc
    D, nodes = apsp.distances(G, weight=weight)
    if not negative:
        np.testing.assert_allclose(D, nx.floyd_warshall_numpy(G, nodelist=nodes, weight=weight or "__none__"), rtol=1e-9)


def test_karate_weight_default_is_unweighted() -> None:
    G = nx.karate_club_graph()
    assert apsp.diameter(G) == nx.diameter(G) == 5
    assert apsp.diameter(G, weight="weight") == 13  # the example: forwarding "weight" changes it
    s = apsp.stats(G)
    assert s["weighted"] is False and s["vertices"] == 34 and s["edges"] == 78


@pytest.mark.parametrize("seed", range(12))
def test_multigraph_keeps_smallest_parallel_weight(seed: int) -> None:
    rng = random.Random(seed)
    directed = seed % 2 == 1
    M = nx.MultiDiGraph() if directed else nx.MultiGraph()
    n = rng.randint(2, 15)
    M.add_nodes_from(f"m{i}" for i in range(n))
    for _ in range(3 * n):
        u, v = f"m{rng.randrange(n)}", f"m{rng.randrange(n)}"
        M.add_edge(u, v, weight=rng.randint(1, 9))
    for reachable in (False, True):
        ref = measures(M, "weight", reachable)
        s = apsp.stats(M, weight="weight", reachable=reachable)
        assert_measures(s, ref, f"multigraph seed={seed}")
        assert s["center"] == ref["center"] and s["periphery"] == ref["periphery"]
    ref = measures(M, None, False)
    assert_measures(apsp.stats(M), ref, f"multigraph seed={seed} unweighted")


def _negative_cycle_graph(seed: int):
    rng = random.Random(seed)
    G = nx.gnp_random_graph(12, 0.2, seed=seed, directed=True)
    G = nx.relabel_nodes(G, {v: ("node", v) for v in G})
    for u, v, d in G.edges(data=True):
        d["weight"] = rng.randint(1, 9)
    cycle = [("cyc", i) for i in range(3)]
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        G.add_edge(a, b, weight=-1)
    G.add_edge(("node", 0), cycle[0], weight=2)
    return G, set(cycle)


@pytest.mark.parametrize("seed", range(6))
def test_negative_cycle(seed: int) -> None:
    G, cycle = _negative_cycle_graph(seed)
    with pytest.raises(nx.NetworkXUnbounded):
        dict(nx.all_pairs_bellman_ford_path_length(G, weight="weight"))
    for call in (
        lambda: apsp.stats(G, weight="weight"),
        lambda: apsp.distances(G, weight="weight"),
        lambda: apsp.eccentricity(G, weight="weight"),
        lambda: apsp.diameter(G, weight="weight"),
    ):
        with pytest.raises(apsp.NegativeCycleError) as e:
            call()
        assert isinstance(e.value, nx.NetworkXUnbounded)
        assert e.value.vertex in cycle, (e.value.vertex, str(e.value))
        assert list(G)[e.value.index] == e.value.vertex
    # unweighted, the same graph is fine
    assert apsp.stats(G)["vertices"] == G.number_of_nodes()


def test_undirected_negative_edge_is_a_negative_cycle() -> None:
    G = nx.Graph()
    G.add_edge("a", "b", weight=2)
    G.add_edge("b", "c", weight=-1)
    with pytest.raises(apsp.NegativeCycleError) as e:
        apsp.stats(G, weight="weight")
    assert e.value.vertex in {"b", "c"}


def test_edge_cases() -> None:
    one = nx.Graph()
    one.add_node("solo")
    s = apsp.stats(one)
    assert s["diameter"] == 0 and s["radius"] == 0 and math.isnan(s["aspl"])
    assert s["center"] == ["solo"] and s["periphery"] == ["solo"]
    assert apsp.eccentricity(one) == {"solo": 0}
    with pytest.raises(apsp.GraphError, match="no vertices"):
        apsp.stats(nx.Graph())
    arc = nx.DiGraph([("s", "t")])
    s = apsp.stats(arc)  # README's example: eccentricities 1 and inf, radius 1
    assert s["diameter"] == INF and s["aspl"] == INF and s["radius"] == 1
    assert s["center"] == ["s"] and s["periphery"] == ["t"]
    two = nx.Graph()
    two.add_nodes_from([1, 2])
    s = apsp.stats(two, reachable=True)
    assert s["diameter"] == 0 and math.isnan(s["aspl"]) and s["reachable_pairs"] == 0
    with pytest.raises(apsp.NodeNotFoundError):
        apsp.shortest_path(arc, "s", "nowhere")
    assert isinstance(apsp.version(), str) and apsp.version()


def test_options_reach_the_co_process() -> None:
    G = nx.random_regular_graph(4, 60, seed=1)
    for algo in ("bfs", "bitbfs", "fw", "blocked", "dijkstra", "johnson"):
        s = apsp.stats(G, algorithm=algo, threads=1)
        assert s["algorithm"] == algo and s["threads"] == 1
        assert s["diameter"] == nx.diameter(G)
    assert apsp.stats(G, algo="fw", lanes="int16")["lanes"] == "int16"
    assert apsp.stats(G, device="cpu")["device"] == "cpu"
    with pytest.raises(apsp.OptionsError, match="nope"):
        apsp.stats(G, algorithm="nope")
    with pytest.raises(apsp.OptionsError):
        apsp.stats(G, lanes="int3")
    with pytest.raises(TypeError):
        apsp.stats(G, tile=64)


def test_scipy_and_numpy_matrices_against_csgraph() -> None:
    sp = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    rng = np.random.default_rng(5)
    for trial in range(8):
        n = int(rng.integers(2, 30))
        mask = rng.random((n, n)) < 0.15
        np.fill_diagonal(mask, False)
        W = np.where(mask, rng.integers(1, 10, (n, n)), 0)
        if trial % 2:
            W = W * 0.5
        A = sp.csr_matrix(W)
        ref = csgraph.shortest_path(A, directed=True)
        D, nodes = apsp.distances(A)
        assert nodes == list(range(n))
        np.testing.assert_allclose(D, ref)
        D2, _ = apsp.distances(W)
        np.testing.assert_allclose(D2, ref)
        B = sp.csr_matrix(mask)
        np.testing.assert_allclose(apsp.distances(B)[0], csgraph.shortest_path(B, directed=True, unweighted=True))


def test_tuples_against_networkx() -> None:
    rng = random.Random(3)
    for trial in range(10):
        n = rng.randint(1, 25)
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3 * n))]
        weights = [rng.randint(1, 5) for _ in edges]
        directed = trial % 2 == 0
        G = nx.DiGraph() if directed else nx.Graph()
        G.add_nodes_from(range(n))
        for (u, v), w in zip(edges, weights):
            if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                G.add_edge(u, v, weight=w)
        ref = measures(G, "weight", False)
        s = apsp.stats((n, edges, weights, directed))
        assert_measures(s, ref, f"tuple trial {trial}")
        s = apsp.stats(apsp.EdgeArrays(n, np.array(edges, dtype=np.int64).reshape(-1, 2), np.array(weights), directed))
        assert_measures(s, ref, f"EdgeArrays trial {trial}")
