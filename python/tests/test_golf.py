"""Graph Golf from Python (issue 29): bounds against the Moore-type bound
computed here, evaluation against NetworkX, and searches whose best graphs
keep the degree, are re-measured by NetworkX and repeat with their seed."""

from __future__ import annotations

import math
from typing import Tuple

import networkx as nx
import pytest

import apsp

pytestmark = pytest.mark.usefixtures("apsp_bin")


def _moore(n: int, d: int) -> Tuple[int, float]:
    """The Moore-type bounds of Cerf et al.: at most d·(d−1)^(k−1) vertices
    at distance k, the rest as near as they fit."""
    left, k, total, diameter = n - 1, 1, 0, 0
    while left > 0:
        at = min(left, d * (d - 1) ** (k - 1))
        total += k * at
        left -= at
        diameter = k
        k += 1
    return diameter, total / (n - 1)


@pytest.mark.parametrize("n,d", [(10, 3), (32, 4), (256, 8), (1024, 8), (4096, 16)])
def test_bound_is_moore(n: int, d: int) -> None:
    b = apsp.golf_bound(n, d)
    diameter, aspl = _moore(n, d)
    assert b["diameter"] == diameter
    assert math.isclose(b["aspl"], aspl, rel_tol=1e-12)


def test_eval_matches_networkx() -> None:
    G = nx.random_regular_graph(4, 40, seed=3)
    e = apsp.golf_eval(G)
    assert e["diameter"] == nx.diameter(G)
    assert math.isclose(e["aspl"], nx.average_shortest_path_length(G), rel_tol=1e-12)
    diameter, aspl = _moore(40, 4)
    assert e["diameter_gap"] == e["diameter"] - diameter
    assert math.isclose(e["aspl_gap"], e["aspl"] - aspl, rel_tol=1e-9, abs_tol=1e-12)
    assert apsp.golf_eval(list(G.edges()))["sum"] == e["sum"]
    # An isolated last vertex still counts: the graph is not connected.
    C = nx.cycle_graph(9)
    C.add_node(9)
    e = apsp.golf_eval(C)
    assert e["n"] == 10 and e["connected"] is False


def test_search_keeps_degree_and_repeats() -> None:
    edges, fig = apsp.golf_search(32, 4, evals=3000, seed=7, threads=1)
    G = nx.Graph(edges)
    assert G.number_of_nodes() == 32 and all(deg == 4 for _, deg in G.degree())
    assert fig["report"]["diameter"] == nx.diameter(G)
    assert math.isclose(fig["report"]["aspl"], nx.average_shortest_path_length(G), rel_tol=1e-12)
    rank = lambda f: (f["diameter"], f["aspl"])  # noqa: E731  (the competition's order)
    assert rank(fig["report"]) <= rank(fig["start"])
    again, _ = apsp.golf_search(32, 4, evals=3000, seed=7, threads=1)
    assert again == edges
    _, fig2 = apsp.golf_search(32, 4, evals=500, seed=8, threads=1, start=edges, method="hc")
    assert fig2["start"]["aspl"] == fig["report"]["aspl"]  # it started from the graph given
    assert rank(fig2["report"]) <= rank(fig2["start"])


def test_search_batch() -> None:
    # A step of at most 64 candidates, sized by the acceptances or fixed:
    # both reach the evaluations asked and report the batch.
    for fixed in (False, True):
        _, fig = apsp.golf_search(32, 4, evals=2000, seed=3, threads=1, batch=64, fixed_batch=fixed)
        assert fig["batch"] == 64 and fig.get("fixed_batch", False) is fixed
        assert fig["evals"] >= 2000


def test_symmetric_search() -> None:
    edges, fig = apsp.golf_search(48, 4, evals=1500, seed=2, threads=1, symmetry=4)
    assert fig["symmetry"] == 4
    G = nx.Graph(edges)
    assert all(deg == 4 for _, deg in G.degree())
    # Invariant under v -> v + 12 (mod 48).
    assert all(G.has_edge((u + 12) % 48, (v + 12) % 48) for u, v in edges)
    assert math.isclose(fig["report"]["aspl"], nx.average_shortest_path_length(G), rel_tol=1e-12)
    with pytest.raises(apsp.ApspError):
        apsp.golf_search(50, 4, evals=10, symmetry=4)


def test_grid_search() -> None:
    edges, fig = apsp.golf_search(16, 3, w=4, h=4, r=2, evals=500, seed=1, threads=1)
    assert all(isinstance(u, tuple) and abs(u[0] - v[0]) + abs(u[1] - v[1]) <= 2 for u, v in edges)
    assert apsp.golf_eval(edges, w=4, h=4, r=2)["aspl"] == fig["report"]["aspl"]


def test_search_time() -> None:
    _, fig = apsp.golf_search(16, 3, time=0.2, seed=1, threads=1)
    assert fig["stopped"] in ("time", "optimum")
    for bad in (0, -1, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            apsp.golf_search(16, 3, time=bad)


def test_argument_types() -> None:
    with pytest.raises(TypeError):
        apsp.golf_search(16, 3, evals=2.7)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        apsp.golf_eval(nx.relabel_nodes(nx.cycle_graph(4), {i: f"v{i}" for i in range(4)}))


def test_refusals() -> None:
    with pytest.raises(apsp.OptionsError):
        apsp.golf_bound(10, 0)
    with pytest.raises(TypeError):
        apsp.golf_bound(10.5, 3)  # type: ignore[arg-type]
    with pytest.raises(apsp.ApspError) as e:
        apsp.golf_eval("/nonexistent/graph.edges")
    assert not isinstance(e.value, apsp.OptionsError)
