"""Edge lists as NetworkX and pandas write them, read by the apsp binary
(issue 27): ``nx.write_edgelist`` with its attribute dicts (``data=True``),
without data, with a chosen key, tab- and comma-separated, with string node
names (``--labels``), and CSV as ``DataFrame.to_csv`` writes an edge list.
Each graph's stats are compared with NetworkX's on the same graph, and the
center and periphery must come back in the file's own names."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import networkx as nx
import pytest


def _stats(apsp_bin: str, path: Path, *flags: str) -> Dict[str, Any]:
    proc = subprocess.run([apsp_bin, "stats", "--json", *flags, str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _expect(G: nx.Graph, weight: Optional[str]) -> Dict[str, Any]:
    """NetworkX's diameter, ASPL, center and periphery of a connected graph."""
    dist = dict(nx.shortest_path_length(G, weight=weight))
    ecc = {v: max(row.values()) for v, row in dist.items()}
    return {
        "diameter": max(ecc.values()),
        "aspl": nx.average_shortest_path_length(G, weight=weight),
        "center": sorted(str(v) for v, e in ecc.items() if e == min(ecc.values())),
        "periphery": sorted(str(v) for v, e in ecc.items() if e == max(ecc.values())),
    }


def _check(got: Dict[str, Any], want: Dict[str, Any], names: bool) -> None:
    assert got["diameter"] == pytest.approx(want["diameter"])
    assert got["aspl"] == pytest.approx(want["aspl"], rel=1e-12)
    if names:
        assert sorted(got["center"]) == want["center"]
        assert sorted(got["periphery"]) == want["periphery"]


def _graphs() -> List[nx.Graph]:
    rng = random.Random(7)
    out: List[nx.Graph] = [nx.karate_club_graph()]
    for n, p in [(30, 0.15), (60, 0.08)]:
        G = nx.connected_watts_strogatz_graph(n, 4, p, seed=rng.randrange(1 << 30))
        for u, v in G.edges:
            G[u][v]["weight"] = rng.randint(1, 9)
            G[u][v]["cost"] = rng.randint(1, 5)
        out.append(G)
    return out


@pytest.mark.parametrize("index", range(3))
def test_write_edgelist_dialects(apsp_bin: str, tmp_path: Path, index: int) -> None:
    G = _graphs()[index]
    named = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    cases = [
        # (writer, apsp flags, the weight NetworkX measures by, names compared)
        (lambda p: nx.write_edgelist(G, p), [], "weight", False),  # data=True: "0 1 {'weight': 4}"
        (lambda p: nx.write_edgelist(G, p, data=False), [], None, False),
        (lambda p: nx.write_edgelist(G, p, data=["weight"]), [], "weight", False),
        (lambda p: nx.write_edgelist(G, p, delimiter="\t"), [], "weight", False),
        (lambda p: nx.write_edgelist(G, p, delimiter=",", data=["weight"]), [], "weight", False),
        (lambda p: nx.write_edgelist(named, p), ["--labels"], "weight", True),
        (lambda p: nx.write_edgelist(named, p, data=False), ["--labels"], None, True),
    ]
    if index > 0:  # the random graphs also carry a second attribute
        cases.append((lambda p: nx.write_edgelist(G, p), ["--weight-key", "cost"], "cost", False))
    for k, (write, flags, weight, names) in enumerate(cases):
        path = tmp_path / f"g{k}.txt"
        write(path)
        want = _expect(named if names else G, weight)
        _check(_stats(apsp_bin, path, *flags), want, names)


def test_networkx_unweighted_karate(apsp_bin: str, tmp_path: Path) -> None:
    """karate's "weight" attribute is read from write_edgelist's dicts
    (diameter 13, as NetworkX measures it by weight); --unweighted gives
    NetworkX's default, 5."""
    G = nx.karate_club_graph()
    path = tmp_path / "k.txt"
    nx.write_edgelist(G, path)
    assert _stats(apsp_bin, path)["diameter"] == _expect(G, "weight")["diameter"] == 13
    assert _stats(apsp_bin, path, "--unweighted")["diameter"] == nx.diameter(G) == 5


def test_pandas_csv(apsp_bin: str, tmp_path: Path) -> None:
    """CSV as pandas writes nx.to_pandas_edgelist (with its index column),
    written here with the csv module in the same shape; names with commas
    and quotes survive."""
    import csv

    G = nx.relabel_nodes(_graphs()[1], lambda v: f'node "{v}", x')
    path = tmp_path / "g.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["", "source", "target", "weight", "cost"])
        for i, (u, v, d) in enumerate(G.edges(data=True)):
            w.writerow([i, u, v, d["weight"], d["cost"]])
    _check(_stats(apsp_bin, path), _expect(G, "weight"), True)
    _check(_stats(apsp_bin, path, "--weight", "cost"), _expect(G, "cost"), True)
    # NetworkX reads back what apsp writes as CSV.
    out = tmp_path / "back.csv"
    proc = subprocess.run([apsp_bin, "gen", "regular", "n=40", "d=3", "seed=2", "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    H = nx.Graph((r["source"], r["target"]) for r in rows)
    assert H.number_of_nodes() == 40 and H.number_of_edges() == 60
    got = _stats(apsp_bin, out)
    assert got["diameter"] == nx.diameter(H)
    assert got["aspl"] == pytest.approx(nx.average_shortest_path_length(H), rel=1e-12)


def test_sparse_ids_warn(apsp_bin: str, tmp_path: Path) -> None:
    """A SNAP-style file with sparse ids is read by id with a warning that
    names --labels; with --labels it is the graph the file meant."""
    path = tmp_path / "snap.txt"
    path.write_text("# a SNAP file\n1 5\n5 9\n9 1\n")
    proc = subprocess.run([apsp_bin, "diameter", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "inf\n"
    assert "warning" in proc.stderr and "--labels" in proc.stderr
    proc = subprocess.run([apsp_bin, "diameter", "--labels", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "1\n" and proc.stderr == ""
