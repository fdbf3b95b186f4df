"""GraphML, GML, Pajek and METIS files: written by NetworkX and read by the
apsp binary (``apsp stats --json FILE``), and written by ``apsp gen -o`` and
read by NetworkX, with the same diameter, radius and ASPL both ways."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

nx = pytest.importorskip("networkx")

from nxref import close, measures  # noqa: E402

pytestmark = pytest.mark.usefixtures("apsp_bin")

# The NetworkX writers, with the extension apsp reads each by, and the
# base of the vertex ids apsp prints for a file of that format.
WRITERS: Dict[str, Callable[[Any, Path], None]] = {
    "graphml": lambda G, p: nx.write_graphml(G, p),
    "gml": lambda G, p: nx.write_gml(G, p),
    "net": lambda G, p: nx.write_pajek(G, p),
}
BASE = {"graphml": 0, "gml": 0, "net": 1, "graph": 1}


def apsp_stats(path: Path, *flags: str) -> Dict[str, Any]:
    proc = subprocess.run(
        [os.environ["APSP_BIN"], "stats", "--json", *flags, str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, f"apsp stats {path.name}: {proc.stderr}"
    return json.loads(proc.stdout)


def karate() -> Any:
    G = nx.karate_club_graph()
    H = nx.Graph()
    H.add_nodes_from(G)
    H.add_edges_from(G.edges())  # without its "weight" attribute: unweighted
    return H


def gnp_strings(seed: int) -> Any:
    """A connected G(n, p) whose nodes are strings, one with a space."""
    rng = random.Random(seed)
    while True:
        G = nx.gnp_random_graph(25, 0.15, seed=rng.randrange(1 << 30))
        if nx.is_connected(G):
            break
    return nx.relabel_nodes(G, {v: f"n{v}" if v != 3 else "node three" for v in G})


def directed_cycle_gnp(seed: int) -> Any:
    """A strongly connected directed graph: a Hamilton cycle plus G(n, p) arcs."""
    G = nx.gnp_random_graph(20, 0.1, seed=seed, directed=True)
    nx.add_cycle(G, range(20))
    return nx.relabel_nodes(G, {v: f"d{v}" for v in G})


def weighted(G: Any, seed: int) -> Any:
    rng = random.Random(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(1, 9)
    return G


GRAPHS = {
    "karate": (karate, None),
    "gnp-strings": (lambda: gnp_strings(1), None),
    "directed": (lambda: directed_cycle_gnp(2), None),
    "weighted": (lambda: weighted(gnp_strings(3), 4), "weight"),
    "weighted-directed": (lambda: weighted(directed_cycle_gnp(5), 6), "weight"),
}


def check_stats(got: Dict[str, Any], G: Any, weight: Optional[str], base: int, desc: str) -> Dict[str, Any]:
    ref = measures(G, weight, False)
    assert got["vertices"] == G.number_of_nodes(), desc
    assert got["directed"] == G.is_directed(), desc
    for key in ("diameter", "radius", "aspl"):
        assert close(got[key], ref[key]), f"{desc}: {key} {got[key]} != {ref[key]}"
    # Vertex ids number the nodes in the order NetworkX wrote them.
    nodes = list(G)
    if got["center"] and not isinstance(got["center"][0], str):
        assert [nodes[v - base] for v in got["center"]] == ref["center"], desc
        assert [nodes[v - base] for v in got["periphery"]] == ref["periphery"], desc
    return ref


@pytest.mark.parametrize("ext", sorted(WRITERS))
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_networkx_file_reads_alike(tmp_path: Path, name: str, ext: str) -> None:
    make, weight = GRAPHS[name]
    G = make()
    path = tmp_path / f"{name}.{ext}"
    WRITERS[ext](G, path)
    check_stats(apsp_stats(path), G, weight, BASE[ext], f"{name}.{ext}")


@pytest.mark.parametrize("ext", sorted(WRITERS))
def test_center_and_periphery_in_file_names(tmp_path: Path, ext: str) -> None:
    G = weighted(gnp_strings(7), 8)
    path = tmp_path / f"g.{ext}"
    WRITERS[ext](G, path)
    got = apsp_stats(path)
    ref = measures(G, "weight", False)
    assert got["center"] == ref["center"]
    assert got["periphery"] == ref["periphery"]


def write_metis(G: Any, path: Path, weight: Optional[str]) -> List[Any]:
    """Writes an undirected graph as METIS (NetworkX has no writer)."""
    nodes = list(G)
    index = {v: i + 1 for i, v in enumerate(nodes)}
    lines = [f"% written by a test\n{len(nodes)} {G.number_of_edges()}{' 1' if weight else ''}"]
    for u in nodes:
        fields: List[str] = []
        for v in G[u]:
            fields.append(str(index[v]))
            if weight:
                fields.append(str(G[u][v][weight]))
        lines.append(" ".join(fields))
    path.write_text("\n".join(lines) + "\n")
    return nodes


@pytest.mark.parametrize("name", ["karate", "gnp-strings", "weighted"])
def test_metis_reads_alike(tmp_path: Path, name: str) -> None:
    make, weight = GRAPHS[name]
    G = make()
    path = tmp_path / f"{name}.graph"
    write_metis(G, path, weight)
    check_stats(apsp_stats(path), G, weight, BASE["graph"], f"{name}.graph")


# NetworkX's readers of the files apsp gen writes. Pajek files come back as
# multigraphs with float weights; GML and GraphML keep the integer ones.
READERS: Dict[str, Callable[[Path], Any]] = {
    "graphml": lambda p: nx.read_graphml(p),
    "gml": lambda p: nx.read_gml(p, label="label"),
    "net": lambda p: nx.Graph(nx.read_pajek(p)),
}


@pytest.mark.parametrize("ext", sorted(READERS))
@pytest.mark.parametrize("weights", [None, "1..9"])
def test_apsp_file_reads_alike_in_networkx(tmp_path: Path, ext: str, weights: Optional[str]) -> None:
    path = tmp_path / f"grid.{ext}"
    args = [os.environ["APSP_BIN"], "gen", "grid", "a=5", "b=7", "-o", str(path)]
    if weights:
        args.insert(-2, f"weights={weights}")
    proc = subprocess.run(args, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    G = READERS[ext](path)
    assert G.number_of_nodes() == 35
    weight = "weight" if weights else None
    check_stats(apsp_stats(path), G, weight, BASE[ext], f"grid.{ext}")


def test_escaped_names_read(tmp_path: Path) -> None:
    """Names with quotes, ampersands, accents and angle brackets, as
    NetworkX's GML and GraphML writers escape them, read back in apsp."""
    G = nx.path_graph(4)
    G = nx.relabel_nodes(G, {0: 'a "q"', 1: "b & c", 2: "é中", 3: "<d>"})
    for ext in ("gml", "graphml"):
        path = tmp_path / f"names.{ext}"
        WRITERS[ext](G, path)
        got = apsp_stats(path)
        assert got["vertices"] == 4 and got["diameter"] == 3, ext
        if got["periphery"] and isinstance(got["periphery"][0], str):
            assert sorted(got["periphery"]) == sorted(['a "q"', "<d>"]), ext
