"""The co-process: one request at a time interactively, and its failure
paths (bad requests, a killed process, a huge graph refused), the
Evaluator's and bulk's life cycles."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time
import warnings

import numpy as np
import pytest

import apsp

nx = pytest.importorskip("networkx")

pytestmark = pytest.mark.usefixtures("apsp_bin")

#: A request that computes for a second or two (textbook Floyd–Warshall on
#: one thread), long enough to kill the process while it runs.
SLOW = ((1200, [(i, (i + 1) % 1200) for i in range(1200)]), {"algorithm": "fw", "threads": 1})


def read_line(proc: subprocess.Popen, timeout: float) -> bytes:
    """One line of the process's stdout, or fail after ``timeout`` seconds."""
    fd = proc.stdout.fileno()
    buf = b""
    deadline = time.monotonic() + timeout
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        if not ready:
            raise AssertionError(f"no answer within {timeout} s (got {buf!r})")
        chunk = os.read(fd, 1)
        if not chunk:
            raise AssertionError(f"the process closed its output (got {buf!r})")
        buf += chunk
    return buf


def test_interactive_one_line_in_one_line_out(apsp_bin: str) -> None:
    """Each request is answered before the next is written, with the input
    left open: a client can drive a loop one graph at a time."""
    proc = subprocess.Popen([apsp_bin, "serve", "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b'{"id": "p", "op": "ping"}\n')
        proc.stdin.flush()
        resp = json.loads(read_line(proc, 10))
        assert resp["id"] == "p" and "version" in resp["result"]
        for k in range(5):
            req = {"id": k, "op": "summary", "n": 4 + k, "edges": [[i, i + 1] for i in range(3 + k)]}
            proc.stdin.write(json.dumps(req).encode() + b"\n")
            proc.stdin.flush()
            resp = json.loads(read_line(proc, 5))
            assert resp["id"] == k and resp["result"]["diameter"] == 3 + k
        proc.stdin.write(b"this is not json\n")
        proc.stdin.flush()
        resp = json.loads(read_line(proc, 5))
        assert resp["kind"] == "request" and resp["id"] is None
        proc.stdin.write(b'{"id": [1, 2], "op": "stats", "n": 2, "edges": [[0, 1]]}\n')
        proc.stdin.flush()
        resp = json.loads(read_line(proc, 5))
        assert resp["id"] == [1, 2] and resp["result"]["diameter"] == 1
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
        proc.stdout.close()
        proc.stderr.close()


def test_bad_requests_then_the_next_works() -> None:
    with apsp.Evaluator() as ev:
        G = nx.path_graph(5)
        assert ev.stats(G)["diameter"] == 4
        pid = ev.pid
        resp = ev._cop.request({"op": "bogus"})
        assert resp["kind"] == "request" and "bogus" in resp["error"]
        with pytest.raises(apsp.RequestError):
            raise apsp._errors.error_from_response(ev._cop.request({"op": "stats", "n": 2, "edges": [[0, 1]], "colour": 1}))
        with pytest.raises(apsp.OptionsError):
            ev.stats(G, algorithm="nope")
        with pytest.raises(apsp.GraphError):
            ev.stats((0, []))
        with pytest.raises(apsp.NegativeCycleError):
            ev.stats(nx.DiGraph([(0, 1, {"w": -1}), (1, 0, {"w": 0})]), weight="w")
        with pytest.raises(apsp.NoPathError):
            ev.shortest_path(nx.empty_graph(2), 0, 1)
        assert ev.summary(G)["aspl"] == nx.average_shortest_path_length(G)
        assert ev.pid == pid  # the same process answered everything


def test_huge_graph_refused_quickly() -> None:
    with apsp.Evaluator() as ev:
        t = time.monotonic()
        with pytest.raises(apsp.TooLargeError, match="GiB") as e:
            ev.stats((2_000_000_000, []))
        assert isinstance(e.value, MemoryError)
        with pytest.raises(apsp.TooLargeError):
            ev.distances((300_000, [(0, 1)]))
        assert time.monotonic() - t < 5.0
        assert ev.diameter(nx.cycle_graph(7)) == 3  # and the process goes on


def test_killed_while_idle_restarts_with_a_warning() -> None:
    with apsp.Evaluator() as ev:
        G = nx.cycle_graph(9)
        assert ev.diameter(G) == 4
        pid = ev.pid
        os.kill(pid, signal.SIGKILL)
        ev._cop._proc.wait(timeout=5)
        with pytest.warns(RuntimeWarning, match=r"killed by SIGKILL.*started a new one"):
            assert ev.diameter(G) == 4
        assert ev.pid not in (None, pid)


def test_killed_while_computing_fails_that_request_and_restarts() -> None:
    graph, opts = SLOW
    with apsp.Evaluator() as ev:
        assert ev.diameter(nx.path_graph(3)) == 2
        pid = ev.pid
        timer = threading.Timer(0.3, os.kill, (pid, signal.SIGKILL))
        timer.start()
        t = time.monotonic()
        with pytest.raises(apsp.CoprocessError, match="SIGKILL while computing this request") as e:
            ev.stats(graph, **opts)
        timer.join()
        assert time.monotonic() - t < 1.5
        assert "next request starts a new one" in str(e.value)
        with pytest.warns(RuntimeWarning, match="started a new one"):
            assert ev.stats(nx.path_graph(4))["diameter"] == 3
        assert ev.pid != pid
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert ev.radius(nx.path_graph(5)) == 2  # no second warning


def test_close_ends_the_process_cleanly() -> None:
    ev = apsp.Evaluator()
    ev.summary(nx.path_graph(3))
    proc = ev._cop._proc
    ev.close()
    assert proc.returncode == 0  # ended by the end of its input, not killed
    with pytest.raises(apsp.CoprocessError, match="closed"):
        ev.summary(nx.path_graph(3))
    with apsp.Evaluator() as ev2:
        ev2.ping()
        proc2 = ev2._cop._proc
    assert proc2.returncode == 0


def test_interrupted_request_leaves_the_evaluator_usable() -> None:
    """An exception while waiting (here raised from a timer thread's signal
    is not portable, so the co-process is stopped as an interrupt would)."""
    graph, opts = SLOW
    with apsp.Evaluator() as ev:
        ev.ping()
        cop = ev._cop
        # Simulate KeyboardInterrupt during the read: a stdout whose readline raises.
        real = cop._proc.stdout

        class Interrupting:
            def readline(self):
                raise KeyboardInterrupt

            def close(self):
                real.close()

        cop._proc.stdout = Interrupting()
        with pytest.raises(KeyboardInterrupt):
            ev.stats(nx.path_graph(3))
        assert cop._proc is None
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an interrupt is not a death to warn about
            assert ev.diameter(nx.path_graph(6)) == 5


def test_evaluator_defaults_and_overrides() -> None:
    G = nx.Graph()
    G.add_edge("a", "b", weight=5)
    G.add_edge("c", "d", weight=2)
    with apsp.Evaluator(weight="weight", reachable=True, threads=1) as ev:
        s = ev.stats(G)
        assert s["diameter"] == 5 and s["threads"] == 1 and s["reachable_only"]
        assert ev.stats(G, weight=None, reachable=False)["diameter"] == float("inf")
        assert ev.summary(G)["aspl"] == 3.5
        assert ev.eccentricity(G) == {"a": 5, "b": 5, "c": 2, "d": 2}
        assert ev.aspl(G) == 3.5 and ev.average_shortest_path_length(G, reachable=False) == float("inf")
        D, nodes = ev.distances(G)
        assert nodes == ["a", "b", "c", "d"] and D[0, 1] == 5 and np.isinf(D[0, 2])


def test_shared_evaluator_is_reused() -> None:
    apsp.diameter(nx.path_graph(3))
    ev = apsp._api.shared_evaluator()
    pid = ev.pid
    for n in range(3, 10):
        assert apsp.diameter(nx.path_graph(n)) == n - 1
    assert ev.pid == pid and apsp._api.shared_evaluator() is ev


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_child_starts_its_own_process() -> None:
    assert apsp.diameter(nx.path_graph(4)) == 3
    parent_pid = apsp._api.shared_evaluator().pid
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        code = 1
        try:
            ok = apsp.diameter(nx.path_graph(6)) == 5 and apsp._api.shared_evaluator().pid != parent_pid
            code = 0 if ok else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert apsp.diameter(nx.path_graph(5)) == 4
    assert apsp._api.shared_evaluator().pid == parent_pid


def test_threads_share_one_evaluator() -> None:
    errors = []

    def work(k: int) -> None:
        try:
            for n in range(2, 30):
                G = nx.cycle_graph(n + k)
                assert apsp.diameter(G) == (n + k) // 2
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


# -- bulk --------------------------------------------------------------------------


def _graphs(count: int, seed: int = 0):
    return [nx.gnp_random_graph(12 + k % 7, 0.3, seed=seed + k) for k in range(count)]


def test_bulk_in_order_matches_single_calls() -> None:
    gs = _graphs(60)
    want = [apsp.stats(G) for G in gs]
    with apsp.bulk(gs, max_in_flight=8) as results:
        got = list(results)
    strip = lambda s: {k: v for k, v in s.items() if k != "seconds"}  # noqa: E731
    assert [strip(x) for x in got] == [strip(x) for x in want]
    sums = list(apsp.bulk(gs, op="summary", reachable=True))
    assert [s["aspl"] for s in sums] == [apsp.aspl(G, reachable=True) for G in gs]


def test_bulk_ops() -> None:
    G = nx.relabel_nodes(nx.path_graph(4), {0: "a", 1: "b", 2: "c", 3: "d"})
    ecc, hist, dist, ext = (
        next(iter(apsp.bulk([G], op=op))) for op in ("eccentricity", "hop_plot", "distances", "extremes")
    )
    assert ecc == {"a": 3, "b": 2, "c": 2, "d": 3}
    assert hist["count"] == [0, 6, 4, 2] and hist["unreachable"] == 0
    D, nodes = dist
    assert nodes == ["a", "b", "c", "d"] and D.dtype == np.float64 and D[0, 3] == 3
    assert ext["diameter"] == 3 and ext["no_aspl"]
    with pytest.raises(ValueError, match="unknown op"):
        apsp.bulk([G], op="path")


def test_bulk_failures_in_place() -> None:
    neg = nx.DiGraph()
    neg.add_edge("x", "y", weight=-2)
    neg.add_edge("y", "x", weight=1)
    gs = [nx.path_graph(3), neg, "not a graph", nx.path_graph(5)]
    out = list(apsp.bulk(gs, weight="weight", return_exceptions=True))
    assert out[0]["diameter"] == 2 and out[3]["diameter"] == 4
    assert isinstance(out[1], apsp.NegativeCycleError) and out[1].vertex in {"x", "y"}
    assert isinstance(out[2], TypeError)
    it = apsp.bulk(gs, weight="weight")
    assert next(it)["diameter"] == 2
    with pytest.raises(apsp.NegativeCycleError):
        next(it)
    with pytest.raises(TypeError):
        next(it)
    assert next(it)["diameter"] == 4  # the iteration goes on after a failure
    with pytest.raises(StopIteration):
        next(it)


def test_bulk_iterable_error_ends_it() -> None:
    def gen():
        yield nx.path_graph(3)
        raise KeyError("source failed")

    it = apsp.bulk(gen())
    assert next(it)["diameter"] == 2
    with pytest.raises(KeyError, match="source failed"):
        next(it)
    with pytest.raises(StopIteration):
        next(it)


def test_bulk_generator_mutating_one_graph() -> None:
    G = nx.path_graph(2)

    def grow():
        for n in range(3, 40):
            G.add_edge(n - 2, n - 1)
            yield G

    assert [s["diameter"] for s in apsp.bulk(grow(), op="summary", max_in_flight=4)] == list(range(2, 39))


def test_bulk_close_early_and_pipelined_timing() -> None:
    gs = _graphs(200)
    b = apsp.bulk(gs)
    first = next(b)
    proc = b._cop._proc
    b.close()
    assert first["vertices"] == 12
    assert proc.poll() is not None
    with pytest.raises(StopIteration):
        next(b)


def test_bulk_restarts_after_death_and_resends_in_flight() -> None:
    graph, opts = SLOW
    small = [nx.cycle_graph(n) for n in (5, 6, 7, 8, 9, 10)]
    gs = small[:2] + [graph] + small[2:]
    results = []
    with apsp.bulk(gs, return_exceptions=True, max_in_flight=8, **opts) as it:
        results.append(next(it))
        results.append(next(it))
        pid = it._cop.pid
        timer = threading.Timer(0.3, os.kill, (pid, signal.SIGKILL))
        timer.start()
        with pytest.warns(RuntimeWarning, match="started a new one"):
            results.append(next(it))
        timer.join()
        results.extend(it)
    assert isinstance(results[2], apsp.CoprocessError) and "SIGKILL" in str(results[2])
    others = results[:2] + results[3:]
    assert [r["diameter"] for r in others] == [n // 2 for n in (5, 6, 7, 8, 9, 10)]


def test_large_distances_come_through_a_temporary_file(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    n = 800  # 800 * 800 * 8 bytes > FILE_THRESHOLD
    assert n * n * 8 > apsp._api.FILE_THRESHOLD
    G = nx.cycle_graph(n)
    D, nodes = apsp.distances(G)
    assert D.shape == (n, n) and D.dtype == np.float64 and D[0, n // 2] == n // 2 and D[3, 1] == 2
    Di, _ = apsp.distances(G, dtype=np.int32)
    assert Di.dtype == np.int32 and np.array_equal(Di, D.astype(np.int32))
    assert list(tmp_path.iterdir()) == []  # removed after reading
    monkeypatch.setattr(apsp._api, "FILE_THRESHOLD", 1 << 40)
    D2, _ = apsp.distances(G)  # the same matrix through base64
    assert np.array_equal(D, D2)
