"""graph6 and sparse6 between apsp and NetworkX: files NetworkX writes,
one graph or many a file, read by the apsp binary (stats and bulk) and
compared with NetworkX's diameter and ASPL; files apsp writes (gen -o) read
back by NetworkX."""

from __future__ import annotations

import json
import math
import random
import subprocess

import pytest

nx = pytest.importorskip("networkx")
from networkx.readwrite.graph6 import to_graph6_bytes  # noqa: E402
from networkx.readwrite.sparse6 import to_sparse6_bytes  # noqa: E402


def graphs():
    """Seeded graphs across N(n)'s 62/63 boundary, connected or not."""
    out = [nx.complete_graph(4), nx.path_graph(2), nx.petersen_graph(), nx.empty_graph(3)]
    for seed, n in enumerate([5, 17, 62, 63, 64, 130]):
        rng = random.Random(seed)
        out.append(nx.gnm_random_graph(n, rng.randint(n, 3 * n), seed=seed))
        out.append(nx.random_labeled_tree(n, seed=seed) if hasattr(nx, "random_labeled_tree") else nx.random_tree(n, seed=seed))
    return out


def reference(G):
    """stats' diameter and aspl of G: None when G is disconnected."""
    if G.number_of_nodes() < 2 or not nx.is_connected(G):
        return None, None
    return nx.diameter(G), nx.average_shortest_path_length(G)


def run(apsp_bin, *args):
    return subprocess.run([apsp_bin, *args], capture_output=True, text=True)


def check(s, G, where):
    d, aspl = reference(G)
    assert s["vertices"] == G.number_of_nodes(), where
    assert s["edges"] == G.number_of_edges(), where
    assert s["directed"] is False, where
    assert s["diameter"] == d, where
    if aspl is None:
        assert s["aspl"] is None, where
    else:
        assert math.isclose(s["aspl"], aspl, rel_tol=1e-12), where


@pytest.mark.parametrize("writer", ["graph6", "sparse6"])
def test_stats_of_networkx_files(apsp_bin, tmp_path, writer):
    for i, G in enumerate(graphs()):
        path = tmp_path / f"g{i}.{writer[0]}6"
        getattr(nx, f"write_{writer}")(G, str(path))  # with NetworkX's header
        p = run(apsp_bin, "stats", "--json", str(path))
        assert p.returncode == 0, p.stderr
        check(json.loads(p.stdout), G, f"{writer} graph {i}")


def test_bulk_of_many_graphs_a_file(apsp_bin, tmp_path):
    gs = graphs()
    lines = []
    for i, G in enumerate(gs):
        enc = to_sparse6_bytes if i % 2 else to_graph6_bytes
        lines.append(enc(G, header=False))
    path = tmp_path / "many.g6"
    path.write_bytes(b">>graph6<<" + b"".join(lines))
    p = run(apsp_bin, "bulk", str(path))
    # The empty graph of 3 vertices is disconnected but computed.
    assert p.returncode == 0, p.stderr
    objs = [json.loads(line) for line in p.stdout.splitlines()]
    assert [o["id"] for o in objs] == [f"{path}:{i + 1}" for i in range(len(gs))]
    for i, (o, G) in enumerate(zip(objs, gs)):
        check(o, G, f"line {i + 1}")
    # A command of one graph refuses the file, pointing to bulk.
    p = run(apsp_bin, "stats", str(path))
    assert p.returncode != 0 and "use apsp bulk" in p.stderr and f"holds {len(gs)} graphs" in p.stderr


@pytest.mark.parametrize("ext", ["g6", "s6"])
@pytest.mark.parametrize("n", [10, 62, 63, 64, 200])
def test_networkx_reads_apsp_files(apsp_bin, tmp_path, ext, n):
    path = tmp_path / f"r.{ext}"
    p = run(apsp_bin, "gen", "regular", f"n={n}", "d=4", "seed=3", "-o", str(path))
    assert p.returncode == 0, p.stderr
    read = nx.read_graph6 if ext == "g6" else nx.read_sparse6
    G = read(str(path))
    assert G.number_of_nodes() == n and G.number_of_edges() == 2 * n
    assert all(d == 4 for _, d in G.degree())
    el = tmp_path / "r.txt"
    assert run(apsp_bin, "gen", "regular", f"n={n}", "d=4", "seed=3", "-o", str(el)).returncode == 0
    want = {tuple(sorted(map(int, line.split()))) for line in el.read_text().splitlines() if not line.startswith("#")}
    assert {tuple(sorted(e)) for e in G.edges()} == want
    p = run(apsp_bin, "stats", "--json", str(path))
    assert p.returncode == 0, p.stderr
    check(json.loads(p.stdout), G, f"gen n={n} .{ext}")
