"""What needs no binary: graph conversion, option mapping, result decoding,
errors and finding the binary."""

from __future__ import annotations

import base64
import math
import os
import stat

import numpy as np
import pytest

import apsp
from apsp import _api, _binary, _errors
from apsp._convert import Prepared, prepare

nx = pytest.importorskip("networkx")


def edges_of(p: Prepared) -> np.ndarray:
    raw = base64.b64decode(p.fields["edges_b64"])
    return np.frombuffer(raw, dtype="<i4").reshape(-1, 2)


def weights_of(p: Prepared) -> np.ndarray:
    raw = base64.b64decode(p.fields["weights_b64"])
    return np.frombuffer(raw, dtype="<" + {"int64": "i8", "float64": "f8"}[p.fields["weights_dtype"]])


def arcs(p: Prepared, with_weights: bool = False) -> set:
    """The graph's (label, label[, weight]) edges, as sent."""
    e = edges_of(p)
    if with_weights:
        w = weights_of(p)
        return {(p.nodes[u], p.nodes[v], w[k].item()) for k, (u, v) in enumerate(e)}
    return {(p.nodes[u], p.nodes[v]) for u, v in e}


# -- NetworkX -------------------------------------------------------------------


def test_networkx_labels_keep_node_order() -> None:
    G = nx.Graph()
    G.add_edges_from([("b", "a"), ("a", ("t", 1)), (("t", 1), "c")])
    G.add_node("lonely")
    p = prepare(G)
    assert list(p.nodes) == ["b", "a", ("t", 1), "c", "lonely"]
    assert p.n == 5 and not p.directed and not p.weighted
    assert "weights_b64" not in p.fields and "directed" not in p.fields
    assert arcs(p) == {("b", "a"), ("a", ("t", 1)), (("t", 1), "c")}
    assert p.index_of(("t", 1)) == 2
    with pytest.raises(apsp.NodeNotFoundError):
        p.index_of("zz")
    with pytest.raises(apsp.NodeNotFoundError):
        p.index_of([1])  # unhashable


def test_networkx_integer_labels_in_order_are_indices() -> None:
    G = nx.path_graph(5)
    p = prepare(G)
    assert isinstance(p.nodes, range)
    assert edges_of(p).tolist() == [[0, 1], [1, 2], [2, 3], [3, 4]]
    assert p.index_of(3) == 3 and p.index_of(np.int64(4)) == 4
    with pytest.raises(apsp.NodeNotFoundError):
        p.index_of(5)
    with pytest.raises(apsp.NodeNotFoundError):
        p.index_of(True)


def test_networkx_integer_labels_out_of_order_are_mapped() -> None:
    G = nx.Graph([(3, 1), (1, 2)])
    p = prepare(G)
    assert list(p.nodes) == [3, 1, 2]
    assert arcs(p) == {(3, 1), (1, 2)}


def test_networkx_directed_and_weights() -> None:
    G = nx.DiGraph()
    G.add_edge("x", "y", weight=3)
    G.add_edge("y", "x", weight=-2)
    G.add_edge("y", "z")  # no attribute: 1, as in NetworkX
    p = prepare(G, weight="weight")
    assert p.directed and p.fields["directed"] is True
    assert p.fields["weights_dtype"] == "int64"
    assert arcs(p, True) == {("x", "y", 3), ("y", "x", -2), ("y", "z", 1)}
    q = prepare(G)  # weight=None: unweighted, as NetworkX's default
    assert not q.weighted


def test_networkx_float_weights_and_other_attribute() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, length=0.5, weight=7)
    G.add_edge(1, 2, length=2)
    p = prepare(G, weight="length")
    assert p.float_weights and p.fields["weights_dtype"] == "float64"
    assert arcs(p, True) == {(0, 1, 0.5), (1, 2, 2.0)}


def test_all_ones_weights_are_sent_unweighted() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, weight=1)
    G.add_edge(1, 2)
    assert not prepare(G, weight="weight").weighted
    assert not prepare(G, weight="absent").weighted


def test_multigraph_sends_the_smallest_parallel_edge() -> None:
    G = nx.MultiGraph()
    G.add_edge("a", "b", weight=5)
    G.add_edge("b", "a", weight=2)
    G.add_edge("b", "c", weight=4)
    G.add_edge("c", "c", weight=3)
    G.add_edge("c", "c")
    p = prepare(G, weight="weight")
    assert arcs(p, True) == {("a", "b", 2), ("b", "c", 4), ("c", "c", 1)}
    assert arcs(prepare(G)) == {("a", "b"), ("b", "c"), ("c", "c")}
    D = nx.MultiDiGraph()
    D.add_edge(1, 0, weight=7)
    D.add_edge(1, 0, weight=6)
    D.add_edge(0, 1, weight=9)
    assert arcs(prepare(D, weight="weight"), True) == {(1, 0, 6), (0, 1, 9)}


def test_undirected_edges_sent_once() -> None:
    G = nx.Graph()
    G.add_edges_from([(2, 0), (0, 1), (1, 1)])
    p = prepare(G)
    assert len(edges_of(p)) == 3
    assert {frozenset(e) for e in arcs(p)} == {frozenset((2, 0)), frozenset((0, 1)), frozenset((1,))}


def test_weight_function_as_networkx_calls_it() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, w=2)
    G.add_edge(1, 2, w=3)
    G.add_edge(2, 2, w=9)  # a self-loop comes once
    p = prepare(G, weight=lambda u, v, d: None if d["w"] == 3 else d["w"] * 10)
    assert arcs(p, True) == {(0, 1, 20), (2, 2, 90)}
    M = nx.MultiGraph()
    M.add_edge(0, 1, w=4)
    M.add_edge(0, 1, w=6)
    p = prepare(M, weight=lambda u, v, d: min(x["w"] for x in d.values()))
    assert arcs(p, True) == {(0, 1, 4)}


def test_bad_weights() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, weight=None)
    G.add_edge(1, 2, weight=2)
    with pytest.raises(apsp.GraphError, match="None"):
        prepare(G, weight="weight")
    G[0][1]["weight"] = "heavy"
    with pytest.raises(apsp.GraphError):
        prepare(G, weight="weight")
    G[0][1]["weight"] = 2**70
    with pytest.raises(apsp.WeightsTooLargeError):
        prepare(G, weight="weight")
    with pytest.raises(TypeError):
        prepare(G, weight=3.5)


# -- arrays, matrices, igraph ------------------------------------------------------


def test_tuples() -> None:
    p = prepare((4, [(0, 1), (2, 3)]))
    assert p.n == 4 and not p.directed and not p.weighted and isinstance(p.nodes, range)
    p = prepare((3, np.array([[0, 1], [1, 2]]), [2.5, 1], True))
    assert p.directed and p.float_weights
    assert weights_of(p).tolist() == [2.5, 1.0]
    p = apsp.EdgeArrays(3, [[0, 1]], [4])
    assert prepare(p).fields["weights_dtype"] == "int64"
    assert prepare((3, np.zeros((0, 2), np.int64))).fields["edges_b64"] == ""
    # weight given as an array overrides
    assert weights_of(prepare((3, [(0, 1), (1, 2)]), weight=[7, 8])).tolist() == [7, 8]


def test_tuple_errors() -> None:
    with pytest.raises(apsp.GraphError, match="out of range"):
        prepare((3, [(0, 3)]))
    with pytest.raises(apsp.GraphError, match="out of range"):
        prepare((3, [(-1, 0)]))
    with pytest.raises(apsp.GraphError, match="shape"):
        prepare((3, [(0, 1, 2)]))
    with pytest.raises(apsp.GraphError, match="2 weights for 1 edges"):
        prepare((3, [(0, 1)], [1, 2]))
    with pytest.raises(apsp.GraphError, match="integer"):
        prepare((3, [(0.5, 1)]))
    with pytest.raises(apsp.GraphError, match="vertex count"):
        prepare((3.0, [(0, 1)]))
    with pytest.raises(TypeError, match="cannot read a graph"):
        prepare("0 1\n1 2")
    # 2**31 edges endpoints cannot be int32, but out of range first
    with pytest.raises(apsp.GraphError):
        prepare((10, [(0, 2**31)]))


def test_dense_matrix() -> None:
    A = np.array([[0, 2, 0], [0, 0, np.inf], [1.5, 0, 0]])
    p = prepare(A)
    assert p.directed and p.float_weights
    assert arcs(p, True) == {(0, 1, 2.0), (2, 0, 1.5)}
    B = np.array([[False, True], [True, False]])
    assert not prepare(B).weighted
    with pytest.raises(apsp.GraphError, match="square"):
        prepare(np.zeros((2, 3)))


def test_sparse_matrix() -> None:
    sp = pytest.importorskip("scipy.sparse")
    A = sp.csr_matrix(([3, 1, 1], ([0, 1, 2], [1, 2, 0])), shape=(4, 4))
    p = prepare(A)
    assert p.n == 4 and p.directed and p.fields["weights_dtype"] == "int64"
    assert arcs(p, True) == {(0, 1, 3), (1, 2, 1), (2, 0, 1)}
    ones = sp.csr_array(np.ones((3, 3)) - np.eye(3))
    assert not prepare(ones).weighted
    with pytest.raises(apsp.GraphError, match="square"):
        prepare(sp.csr_matrix((2, 3)))


def test_igraph() -> None:
    ig = pytest.importorskip("igraph")
    g = ig.Graph(n=4, edges=[(0, 1), (1, 2), (2, 3)], directed=True)
    g.es["weight"] = [2, None, 5]
    p = prepare(g)
    assert p.directed and not p.weighted and p.n == 4
    p = prepare(g, weight="weight")
    assert arcs(p, True) == {(0, 1, 2), (1, 2, 1), (2, 3, 5)}
    assert not prepare(g, weight="absent").weighted
    assert weights_of(prepare(g, weight=[0.5, 1, 2])).tolist() == [0.5, 1.0, 2.0]


def test_prepared_passes_through() -> None:
    p = prepare(nx.path_graph(3))
    assert prepare(p) is p
    assert "n=3" in repr(p)


# -- options ----------------------------------------------------------------------


def test_options_mapping() -> None:
    assert _api._options(False, "auto", {}) == {}
    assert _api._options(True, "gpu:1", {"algo": "bfs", "threads": 2, "lanes": "int16"}) == {
        "reachable": True,
        "device": "gpu:1",
        "algorithm": "bfs",
        "threads": 2,
        "lanes": "int16",
    }
    assert _api._options(False, None, {"algorithm": "auto", "lanes": "auto", "threads": None}) == {}
    with pytest.raises(TypeError, match="unknown option 'tile'"):
        _api._options(False, "auto", {"tile": 64})
    with pytest.raises(TypeError):
        _api._options(False, "auto", {"threads": "2"})
    with pytest.raises(TypeError):
        _api._options(False, 1, {})
    with pytest.raises(TypeError):
        apsp.Evaluator(bogus=1)


def test_evaluator_overrides() -> None:
    ev = apsp.Evaluator(reachable=True, algo="bfs", threads=1)
    w, r, opts = ev._settings(_api._UNSET, _api._UNSET, _api._UNSET, {"algorithm": "dijkstra"})
    assert (w, r) == (None, True)
    assert opts == {"algorithm": "dijkstra", "threads": 1, "reachable": True}
    w, r, opts = ev._settings("weight", False, "cpu", {})
    assert (w, r, opts) == ("weight", False, {"algorithm": "bfs", "threads": 1, "device": "cpu"})
    ev.close()


# -- results ----------------------------------------------------------------------


def test_decode_measures() -> None:
    p = prepare((3, [(0, 1)]))
    r = _api._decode_measures(
        {"connected": False, "reachable_only": False, "diameter": None, "radius": None, "aspl": None, "center": [], "periphery": [0, 1, 2]},
        p,
        False,
    )
    assert r["diameter"] == math.inf and r["radius"] == math.inf and r["aspl"] == math.inf
    assert r["periphery"] == [0, 1, 2]
    one = _api._decode_measures({"connected": True, "diameter": 0, "aspl": None}, prepare((1, [])), False)
    assert math.isnan(one["aspl"]) and one["diameter"] == 0
    none = _api._decode_measures({"connected": False, "reachable_only": True, "aspl": None}, p, True)
    assert math.isnan(none["aspl"])
    G = nx.Graph([("a", "b")])
    r = _api._decode_measures({"center": [1], "periphery": [0, 1]}, prepare(G), False)
    assert r["center"] == ["b"] and r["periphery"] == ["a", "b"]


def test_decode_eccentricity() -> None:
    G = nx.DiGraph([("a", "b")])
    p = prepare(G)
    assert _api._decode_eccentricity({"eccentricity": [1, None]}, p, None) == {"a": 1, "b": math.inf}
    assert _api._decode_eccentricity({"eccentricity": [1, None]}, p, "a") == 1
    assert _api._decode_eccentricity({"eccentricity": [1, None]}, p, ["b"]) == {"b": math.inf}
    with pytest.raises(apsp.ApspError):
        _api._decode_eccentricity({"eccentricity": [1]}, p, None)


def test_convert_distances() -> None:
    big = np.iinfo(np.int32).max
    d = np.array([[0, 3], [big, 0]], dtype=np.int32)
    f = apsp.convert_distances(d)
    assert f.dtype == np.float64 and f.tolist() == [[0.0, 3.0], [math.inf, 0.0]]
    i64 = apsp.convert_distances(d, np.int64)
    assert i64.dtype == np.int64 and i64[1, 0] == np.iinfo(np.int64).max and i64[0, 1] == 3
    i8 = apsp.convert_distances(d, "int8")
    assert i8[1, 0] == 127
    with pytest.raises(OverflowError):
        apsp.convert_distances(np.array([[0, 200], [1, 0]], dtype=np.int32), np.int8)
    assert apsp.convert_distances(d, np.int32) is d
    f32 = apsp.convert_distances(d, np.float32)
    assert f32.dtype == np.float32 and math.isinf(f32[1, 0])
    with pytest.raises(OverflowError):
        apsp.convert_distances(np.array([[0, 2**25]], dtype=np.int64), np.float32)
    fl = np.array([[0.0, np.inf]])
    assert apsp.convert_distances(fl) is fl
    with pytest.raises(TypeError, match="float-weighted"):
        apsp.convert_distances(fl, np.int64)
    with pytest.raises(TypeError):
        apsp.convert_distances(d, np.complex128)


# -- errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, cls, std",
    [
        ("request", apsp.RequestError, ValueError),
        ("options", apsp.OptionsError, ValueError),
        ("graph", apsp.GraphError, ValueError),
        ("negative_cycle", apsp.NegativeCycleError, ValueError),
        ("weights_too_large", apsp.WeightsTooLargeError, OverflowError),
        ("too_large", apsp.TooLargeError, MemoryError),
        ("no_gpu", apsp.NoGPUError, RuntimeError),
        ("no_path", apsp.NoPathError, LookupError),
        ("internal", apsp.InternalError, RuntimeError),
        ("failed", apsp.ComputationError, RuntimeError),
    ],
)
def test_error_kinds(kind: str, cls: type, std: type) -> None:
    e = _errors.error_from_response({"id": 1, "error": "why it failed", "kind": kind})
    assert type(e) is cls and isinstance(e, apsp.ApspError) and isinstance(e, std)
    assert str(e) == "why it failed" and e.message == "why it failed" and e.kind == kind


def test_unknown_kind_is_apsp_error() -> None:
    e = _errors.error_from_response({"error": "new", "kind": "shiny"})
    assert type(e) is apsp.ApspError and e.kind == "shiny"


def test_negative_cycle_vertex_in_labels() -> None:
    e = _errors.error_from_response(
        {"error": "negative cycle through vertex 1", "kind": "negative_cycle", "vertex": 1}, ["a", ("b", 2)]
    )
    assert isinstance(e, apsp.NegativeCycleError)
    assert e.vertex == ("b", 2) and e.index == 1
    assert "('b', 2)" in str(e)
    e = _errors.error_from_response({"error": "x", "kind": "negative_cycle", "vertex": 1}, range(3))
    assert e.vertex == 1 and str(e) == "x"


def test_networkx_exception_bases() -> None:
    assert issubclass(apsp.NoPathError, nx.NetworkXNoPath)
    assert issubclass(apsp.NegativeCycleError, nx.NetworkXUnbounded)
    assert issubclass(apsp.NodeNotFoundError, nx.NodeNotFound)
    assert issubclass(apsp.TooLargeError, MemoryError)
    assert issubclass(apsp.OptionsError, ValueError)
    assert issubclass(apsp.BinaryNotFoundError, apsp.CoprocessError)
    assert issubclass(apsp.BinaryNotFoundError, FileNotFoundError)


# -- finding the binary --------------------------------------------------------------


def _fake_binary(path) -> str:
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_find_binary_order(tmp_path, monkeypatch) -> None:
    bundled = tmp_path / "pkg" / "apsp"
    bundled.parent.mkdir()
    on_path_dir = tmp_path / "path"
    on_path_dir.mkdir()
    on_path = _fake_binary(on_path_dir / "apsp")
    env_bin = _fake_binary(tmp_path / "env-apsp")
    monkeypatch.setattr(_binary, "BUNDLED", bundled)
    monkeypatch.setenv("PATH", str(on_path_dir))
    monkeypatch.delenv("APSP_BIN", raising=False)
    assert _binary.find_binary() == on_path
    monkeypatch.setenv("APSP_BIN", env_bin)
    assert _binary.find_binary() == env_bin
    _fake_binary(bundled)
    assert _binary.find_binary() == str(bundled)
    assert _binary.find_binary(env_bin) == env_bin  # an explicit binary wins


def test_find_binary_none(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(_binary, "BUNDLED", tmp_path / "nothing")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("APSP_BIN", str(tmp_path / "missing"))
    with pytest.raises(apsp.BinaryNotFoundError, match="APSP_BIN") as e:
        _binary.find_binary()
    assert "does not exist" in str(e.value)
    with pytest.raises(apsp.BinaryNotFoundError):
        _binary.find_binary(str(tmp_path / "missing"))
    ev = apsp.Evaluator(binary=str(tmp_path / "missing"))
    with pytest.raises(apsp.BinaryNotFoundError):
        ev.stats((2, [(0, 1)]))
    ev.close()
