"""closeness_centrality against NetworkX's on random graphs."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest

import apsp


def _random_graph(seed: int, directed: bool, weighted: bool, n: int, p: float) -> nx.Graph:
    rng = random.Random(seed)
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})  # string labels
    if weighted:
        for u, v in G.edges:
            G.edges[u, v]["weight"] = rng.choice([rng.randint(1, 9), rng.uniform(0.5, 4.0)])
    return G


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("wf_improved", [True, False])
def test_closeness_matches_networkx(seed: int, wf_improved: bool) -> None:
    directed, weighted = seed % 2 == 0, seed % 3 == 0
    G = _random_graph(seed, directed, weighted, n=5 + seed * 2, p=[0.05, 0.15, 0.4][seed % 3])
    distance = "weight" if weighted else None
    want = nx.closeness_centrality(G, distance=distance, wf_improved=wf_improved)
    got = apsp.closeness_centrality(G, distance=distance, wf_improved=wf_improved)
    assert set(got) == set(want)
    for v in want:
        assert math.isclose(got[v], want[v], rel_tol=1e-12, abs_tol=1e-15), (v, got[v], want[v])
    v = next(iter(G))
    assert math.isclose(apsp.closeness_centrality(G, u=v, distance=distance, wf_improved=wf_improved), want[v], rel_tol=1e-12, abs_tol=1e-15)


def test_closeness_karate() -> None:
    G = nx.karate_club_graph()
    want = nx.closeness_centrality(G)
    got = apsp.closeness_centrality(G)
    assert all(math.isclose(got[v], want[v], rel_tol=1e-12) for v in G)


def test_closeness_negative_lengths_refused() -> None:
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=-1)
    with pytest.raises(apsp.ApspError):
        apsp.closeness_centrality(G, distance="weight")


def test_closeness_edge_cases_match_networkx() -> None:
    assert apsp.closeness_centrality(nx.Graph()) == nx.closeness_centrality(nx.Graph()) == {}
    G = nx.Graph()
    G.add_nodes_from(["a", "b"])
    G.add_edge("c", "d", weight=0)  # reached only along a zero-length edge
    G.add_edge("d", "e", weight=2)
    for wf in (True, False):
        want = nx.closeness_centrality(G, distance="weight", wf_improved=wf)
        got = apsp.closeness_centrality(G, distance="weight", wf_improved=wf)
        assert got.keys() == want.keys() and all(math.isclose(got[v], want[v], rel_tol=1e-12, abs_tol=0) for v in G)
