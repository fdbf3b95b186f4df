"""Held graphs (``Evaluator.load``, ``apsp.Handle``): random edge swaps by
handle against NetworkX on the same changed graph, labels, weights, the
errors (all or nothing), restarts of the co-process, and the protocol one
line in, one line out."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import warnings

import pytest

import apsp

from test_coprocess import read_line

nx = pytest.importorskip("networkx")

pytestmark = pytest.mark.usefixtures("apsp_bin")


def nx_summary(G, weight=None):
    """NetworkX's diameter and ASPL of a (strongly) connected graph."""
    d = max(max(row.values()) for _, row in nx.all_pairs_dijkstra_path_length(G, weight=weight))
    return d, nx.average_shortest_path_length(G, weight=weight)


def random_swap(G: "nx.Graph", rng: random.Random):
    """Two edges a–b, c–d and the edges a–c, b–d to replace them (a→d, c→b
    when directed: every degree stays), or None."""
    edges = list(G.edges())
    for _ in range(50):
        (a, b), (c, d) = rng.sample(edges, 2)
        if not G.is_directed() and rng.random() < 0.5:
            c, d = d, c
        x, y = ((a, d), (c, b)) if G.is_directed() else ((a, c), (b, d))
        if len({a, b, c, d}) < 4 or G.has_edge(*x) or G.has_edge(*y):
            continue
        return [(a, b), (c, d)], [x, y]
    return None


@pytest.mark.parametrize("directed", [False, True])
def test_random_swaps_agree_with_networkx(directed: bool) -> None:
    """Labels that are strings, many steps of swaps, some undone (the
    annealing loop's reject), each summary equal to NetworkX's on the same
    changed graph."""
    rng = random.Random(3 if directed else 4)
    if directed:
        H = nx.DiGraph(nx.random_regular_graph(4, 30, seed=5))  # strongly connected: both ways
    else:
        H = nx.random_regular_graph(4, 30, seed=5)
    G = nx.relabel_nodes(H, {v: f"v{v}" for v in H})
    with apsp.Evaluator() as ev, ev.load(G) as h:
        assert h.n == 30 and h.number_of_edges() == G.number_of_edges()
        for step in range(60):
            sw = random_swap(G, rng)
            assert sw is not None
            remove, add = sw
            s = h.summary(remove=remove, add=add)
            G.remove_edges_from(remove)
            G.add_edges_from(add)
            connected = nx.is_strongly_connected(G) if directed else nx.is_connected(G)
            if connected:
                d, a = nx_summary(G)
                assert (s["diameter"], pytest.approx(s["aspl"], rel=1e-12)) == (d, a), step
            else:
                assert s["diameter"] == float("inf")
            if step % 3 == 0:  # reject: undo the swap
                h.update(remove=add, add=remove)
                G.remove_edges_from(add)
                G.add_edges_from(remove)
            assert h.has_edge(*add[0]) == G.has_edge(*add[0])
        assert sorted(map(sorted, h.edges())) == sorted(map(sorted, G.edges())) or directed
        st = h.stats()
        assert st["edges"] == G.number_of_edges()
        if not directed and nx.is_connected(G):
            assert set(st["center"]) == set(nx.center(G))


def test_weighted_changes() -> None:
    """Lengths of added edges by number or attribute dict, integer then
    float (the kind follows), against NetworkX's weighted measures."""
    G = nx.cycle_graph(8)
    for u, v in G.edges():
        G[u][v]["w"] = 2
    with apsp.Evaluator() as ev, ev.load(G, weight="w") as h:
        assert h.summary()["diameter"] == 8
        h.update(add=[(0, 4, 3)])
        G.add_edge(0, 4, w=3)
        s = h.summary(remove=[(0, 4)], add=[(0, 4, {"w": 0.5}), (2, 6)])
        G.add_edge(0, 4, w=0.5)
        G.add_edge(2, 6)  # no "w": length 1, as NetworkX reads it
        d, a = nx_summary(G, weight="w")
        assert s["diameter"] == pytest.approx(d) and s["aspl"] == pytest.approx(a, rel=1e-12)
        assert h.stats()["weighted"] is True


def test_errors_change_nothing() -> None:
    G = nx.path_graph(["a", "b", "c", "d"])
    with apsp.Evaluator() as ev, ev.load(G) as h:
        with pytest.raises(apsp.RequestError, match=r"no such edge.*\('a', 'c'\)"):
            h.summary(remove=[("a", "b"), ("a", "c")])
        with pytest.raises(apsp.RequestError, match="already in the graph"):
            h.update(add=[("a", "d"), ("b", "c")])
        with pytest.raises(apsp.NodeNotFoundError):
            h.update(add=[("a", "zz")])
        with pytest.raises(apsp.GraphError, match="self-loop"):
            h.update(add=[("a", "a")])
        assert sorted(h.edges()) == [("a", "b"), ("b", "c"), ("c", "d")]
        assert h.summary()["diameter"] == 3
    with pytest.raises(apsp.HandleError, match="dropped"):
        h.summary()


def test_too_many_graphs_refused(apsp_bin: str) -> None:
    ev = apsp.Evaluator()
    ev._cop._args = ["serve", "--stdio", "--max-graphs", "2"]
    with ev:
        a, b = ev.load(nx.path_graph(3)), ev.load(nx.path_graph(3))
        with pytest.raises(apsp.TooLargeError, match="--max-graphs 2"):
            ev.load(nx.path_graph(3))
        a.drop()
        c = ev.load(nx.path_graph(4))
        assert c.summary()["diameter"] == 3 and b.summary()["diameter"] == 2


def test_restart_reloads_transparently() -> None:
    """A co-process killed while idle: the next call warns, loads the graph
    again as it was last changed, and answers."""
    G = nx.cycle_graph(10)
    with apsp.Evaluator() as ev, ev.load(G) as h, ev.load(nx.path_graph(4)) as other:
        h.update(remove=[(0, 1)])  # a path 1..9,0: diameter 9
        pid = ev.pid
        os.kill(pid, signal.SIGKILL)
        ev._cop._proc.wait(timeout=5)
        with pytest.warns(RuntimeWarning, match="started a new one"):
            assert h.summary()["diameter"] == 9
        assert ev.pid != pid
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert h.summary(add=[(0, 5)])["diameter"] == 7  # 1..5, then 5..8 round the cycle 0,5..9
            assert other.summary()["diameter"] == 3  # loaded again too


def test_one_line_in_one_line_out_with_a_handle(apsp_bin: str) -> None:
    """The protocol itself: load, then a summary by handle with a change
    each step, each answered before the next line is written."""
    proc = subprocess.Popen([apsp_bin, "serve", "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b'{"id": "l", "op": "load", "handle": "h", "n": 4, "edges": [[0,1],[1,2],[2,3]]}\n')
        proc.stdin.flush()
        resp = json.loads(read_line(proc, 10))
        assert resp == {"id": "l", "result": {"handle": "h", "vertices": 4, "arcs": 6, "edges": 3, "directed": False, "weighted": False}}
        for k in range(6):
            change = {"remove": [[2, 3]], "add": [[1, 3]]} if k % 2 == 0 else {"remove": [[1, 3]], "add": [[2, 3]]}
            proc.stdin.write(json.dumps({"id": k, "op": "summary", "graph": "h", **change}).encode() + b"\n")
            proc.stdin.flush()
            resp = json.loads(read_line(proc, 5))
            assert resp["id"] == k and resp["result"]["diameter"] == (2 if k % 2 == 0 else 3)
        proc.stdin.write(b'{"id": 9, "op": "summary", "graph": "nope"}\n')
        proc.stdin.flush()
        assert json.loads(read_line(proc, 5))["kind"] == "unknown_handle"
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
        proc.stdout.close()
        proc.stderr.close()


@pytest.mark.parametrize("directed,weight", [(False, None), (True, None), (False, "w")])
def test_candidates_agree_with_networkx(directed: bool, weight) -> None:
    """Handle.summaries: each candidate swap measured apart (labels that
    are tuples, weighted or not, directed or not) equals NetworkX's measure
    of the graph with that swap alone; the held graph stays as it was; the
    chosen one is then made with update, as a search does."""
    rng = random.Random(11 if directed else 12)
    H = nx.random_regular_graph(4, 24, seed=7)
    if directed:
        H = nx.DiGraph(H)
    G = nx.relabel_nodes(H, {v: ("n", v) for v in H})
    if weight:
        for u, v in G.edges():
            G[u][v][weight] = rng.randint(1, 5)
    with apsp.Evaluator() as ev, ev.load(G, weight=weight) as h:
        for _ in range(5):
            cands = []
            for _ in range(rng.randint(1, 12)):
                remove, add = random_swap(G, rng)
                if weight:
                    add = [(u, v, rng.randint(1, 5)) for u, v in add]
                cands.append({"remove": remove, "add": add})
            sums = h.summaries(cands)
            assert len(sums) == len(cands)
            for c, s in zip(cands, sums):
                C = G.copy()
                C.remove_edges_from(c["remove"])
                for e in c["add"]:
                    C.add_edge(e[0], e[1], **({weight: e[2]} if weight else {}))
                if (nx.is_strongly_connected(C) if directed else nx.is_connected(C)):
                    d, a = nx_summary(C, weight=weight)
                    assert s["diameter"] == pytest.approx(d) and s["aspl"] == pytest.approx(a, rel=1e-12)
                else:
                    assert s["diameter"] == float("inf")
            d, a = nx_summary(G, weight=weight)
            s = h.summary()
            assert s["diameter"] == pytest.approx(d) and s["aspl"] == pytest.approx(a, rel=1e-12)  # unchanged
            best = min(range(len(cands)), key=lambda i: (sums[i]["diameter"], sums[i]["aspl"]))
            h.update(**cands[best])
            G.remove_edges_from(cands[best]["remove"])
            for e in cands[best]["add"]:
                G.add_edge(e[0], e[1], **({weight: e[2]} if weight else {}))
            assert h.summary()["aspl"] == pytest.approx(sums[best]["aspl"], rel=1e-12)


def test_candidates_errors() -> None:
    """A candidate that cannot be made raises, naming it and its edge, or
    takes its place in the list with return_exceptions; the others are
    answered and nothing changes."""
    G = nx.path_graph(["a", "b", "c", "d"])
    good = {"remove": [("c", "d")], "add": [("b", "d")]}  # a star at b
    bad = {"remove": [("a", "c")]}
    with apsp.Evaluator() as ev, ev.load(G) as h:
        with pytest.raises(apsp.RequestError, match=r"candidates\[1\].*no such edge.*\('a', 'c'\)"):
            h.summaries([good, bad])
        got = h.summaries([good, bad, {}], return_exceptions=True)
        assert got[0]["diameter"] == 2 and isinstance(got[1], apsp.RequestError) and got[2]["diameter"] == 3
        with pytest.raises(TypeError, match="candidates"):
            h.summaries([(("c", "d"),)])
        with pytest.raises(apsp.NodeNotFoundError):
            h.summaries([{"add": [("a", "zz")]}])
        assert h.summaries([]) == []
        assert sorted(h.edges()) == [("a", "b"), ("b", "c"), ("c", "d")]
