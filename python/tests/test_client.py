"""apsp.Client against a service started as ``apsp serve --http 127.0.0.1:0``
(it prints its URL on stdout), compared with NetworkX on seeded random
graphs; the service's refusals (token, limits) as exceptions."""

from __future__ import annotations

import subprocess
import threading
from typing import Iterator, List

import numpy as np
import pytest

import apsp

nx = pytest.importorskip("networkx")

from nxref import INF, all_distances, close, measures, random_graph  # noqa: E402

TOKEN = "t0ken-for-tests"


def _start(binary: str, args: List[str]) -> "tuple[subprocess.Popen, str]":  # type: ignore[type-arg]
    proc = subprocess.Popen(
        [binary, "serve", "--http", "127.0.0.1:0", "--log-requests=false", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    if not url.startswith("http://"):
        proc.kill()
        raise RuntimeError(f"apsp serve --http printed {url!r}; stderr: {proc.stderr.read() if proc.stderr else ''}")
    return proc, url


@pytest.fixture(scope="module")
def service(apsp_bin: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    token_file = tmp_path_factory.mktemp("svc") / "token"
    token_file.write_text(TOKEN + "\n")
    proc, url = _start(apsp_bin, ["--token-file", str(token_file), "--max-vertices", "5000"])
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def client(service: str) -> apsp.Client:
    return apsp.Client(service, token=TOKEN, timeout=30)


@pytest.mark.parametrize("seed", range(24))
def test_measures_like_networkx(client: apsp.Client, seed: int) -> None:
    G, weight, desc = random_graph(seed)
    for reachable in (False, True):
        d = f"{desc} reachable={reachable}"
        ref = measures(G, weight, reachable)
        s = client.stats(G, weight=weight, reachable=reachable)
        for key in ("diameter", "radius", "aspl"):
            assert close(s[key], ref[key]), f"{d}: {key} {s[key]} != {ref[key]}"
        assert s["center"] == ref["center"] and s["periphery"] == ref["periphery"], d
        sm = client.summary(G, weight=weight, reachable=reachable)
        assert close(sm["diameter"], ref["diameter"]) and close(sm["aspl"], ref["aspl"]), d
        ecc = client.eccentricity(G, weight=weight, reachable=reachable)
        assert list(ecc) == list(G), d
        for v in G:
            assert close(ecc[v], ref["eccentricity"][v]), f"{d}: eccentricity of {v!r}"


@pytest.mark.parametrize("seed", range(12))
def test_distances_like_networkx(client: apsp.Client, seed: int) -> None:
    G, weight, desc = random_graph(seed)
    try:
        ref = all_distances(G, weight)
    except nx.NetworkXUnbounded:
        with pytest.raises(apsp.NegativeCycleError):
            client.distances(G, weight=weight)
        return
    D, nodes = client.distances(G, weight=weight)
    assert nodes == list(G)
    for i, u in enumerate(nodes):
        for j, v in enumerate(nodes):
            assert close(D[i, j], ref[u].get(v, INF)), f"{desc}: d({u!r}, {v!r})"


@pytest.mark.parametrize("seed", range(6))
def test_distances_between_like_networkx(client: apsp.Client, seed: int) -> None:
    G, weight, desc = random_graph(seed)
    try:
        ref = all_distances(G, weight)
    except nx.NetworkXUnbounded:
        return
    nodes = list(G)
    sources, targets = nodes[::2], nodes[1::3]
    for s, t in [(sources, targets), (None, targets), (sources, None)]:
        D, rows, cols = client.distances_between(G, s, t, weight=weight)
        assert rows == (nodes if s is None else s) and cols == (nodes if t is None else t)
        for i, u in enumerate(rows):
            for j, v in enumerate(cols):
                assert close(D[i, j], ref[u].get(v, INF)), f"{desc}: d({u!r}, {v!r})"


def test_labels_and_paths(client: apsp.Client) -> None:
    G = nx.Graph()
    G.add_edges_from([("a", "b"), ("b", "c"), ("c", "d"), ("x", "y")])
    assert client.shortest_path(G, "a", "d") == ["a", "b", "c", "d"]
    assert client.shortest_path_length(G, "a", "d") == 3
    with pytest.raises(apsp.NoPathError):
        client.shortest_path(G, "a", "x")
    c = client.closeness_centrality(G)
    ref = nx.closeness_centrality(G)
    assert all(close(c[v], ref[v]) for v in G)
    assert client.diameter(G, reachable=True) == 3
    assert client.ping()


def test_concurrent_threads(client: apsp.Client) -> None:
    graphs = [nx.random_regular_graph(4, 64, seed=s) for s in range(64)]
    want = [nx.average_shortest_path_length(g) if nx.is_connected(g) else INF for g in graphs]
    got: List[float] = [0.0] * len(graphs)

    def work(k: int) -> None:
        for i in range(k, len(graphs), 8):
            got[i] = client.aspl(graphs[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(close(a, b) for a, b in zip(got, want))


def test_refusals(service: str, client: apsp.Client) -> None:
    G = nx.path_graph(4)
    with pytest.raises(apsp.ApspError) as e:
        apsp.Client(service).stats(G)
    assert e.value.kind == "unauthorized"
    with pytest.raises(apsp.ApspError) as e:
        apsp.Client(service, token="wrong").stats(G)
    assert e.value.kind == "unauthorized"
    with pytest.raises(apsp.TooLargeError):
        client.stats(nx.path_graph(6000))
    with pytest.raises(apsp.GraphError):
        client.stats((0, np.zeros((0, 2), dtype=np.int32)))
    assert client.diameter(G) == 3  # and it goes on
