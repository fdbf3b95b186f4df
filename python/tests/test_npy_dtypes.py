"""``apsp dist -o D.npy --dtype``: NumPy reads every dtype the binary writes,
with the dtype's maximum for no path in integer dtypes and ``inf`` in float
ones, and the default (``auto``) is the narrowest exact dtype.  The Python
package maps whatever dtype the co-process sends back."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path
from typing import Dict, List, Optional

import numpy as np
import pytest

import apsp


def _path_edges(k: int) -> str:
    """A directed path of k arcs: hop distances 0..k, the reverse unreachable."""
    return "".join(f"{i} {i + 1}\n" for i in range(k))


# name, edge list (directed), the dtype auto writes, and --dtype -> whether
# it is refused.  Boundaries: each integer dtype's maximum is "no path".
CASES = [
    ("hops 254", _path_edges(254), "uint8", {"uint8": False, "int16": False, "uint16": False}),
    ("hops 255", _path_edges(255), "uint16", {"uint8": True, "int16": False, "uint16": False}),
    ("int16 max-1", "0 1 32766\n2 1 -1\n", "int16", {"uint8": True, "int16": False, "uint16": True}),
    ("int16 max", "0 1 32767\n2 1 -1\n", "int32", {"uint8": True, "int16": True, "uint16": True}),
    ("uint16 max-1", "0 1 65534\n", "uint16", {"uint8": True, "int16": True, "uint16": False}),
    ("uint16 max", "0 1 65535\n", "int32", {"uint8": True, "int16": True, "uint16": True}),
    ("negative", "0 1 -2\n1 2 5\n4 3 -7\n", "int16", {"uint8": True, "int16": False, "uint16": True}),
    ("float", "0 1 0.5\n1 2 0.25\n", "float64", {"uint8": True, "int16": True, "uint16": True, "float32": False}),
]


def _reference(edges: str) -> np.ndarray:
    """Distances by Floyd–Warshall over the edge list, inf for no path."""
    arcs = [line.split() for line in edges.splitlines()]
    n = 1 + max(max(int(a[0]), int(a[1])) for a in arcs)
    d = np.full((n, n), np.inf)
    np.fill_diagonal(d, 0)
    for a in arcs:
        d[int(a[0]), int(a[1])] = float(a[2]) if len(a) > 2 else 1.0
    for k in range(n):
        d = np.minimum(d, d[:, k : k + 1] + d[k : k + 1, :])
    return d


def _write(apsp_bin: str, tmp_path: Path, edges: str, dtype: Optional[str]) -> subprocess.CompletedProcess:
    out = tmp_path / f"d-{dtype or 'auto'}.npy"
    args = [apsp_bin, "dist", "--directed", "-", "-o", str(out)]
    if dtype:
        args += ["--dtype", dtype]
    proc = subprocess.run(args, input=edges, capture_output=True, text=True)
    proc.out = out  # type: ignore[attr-defined]
    return proc


@pytest.mark.parametrize("name,edges,auto,refused", CASES, ids=[c[0] for c in CASES])
def test_numpy_reads_every_dtype(apsp_bin: str, tmp_path: Path, name: str, edges: str, auto: str, refused: Dict[str, bool]) -> None:
    want = _reference(edges)
    assert np.isinf(want).any(), "the graph must test the sentinel"
    dtypes: List[Optional[str]] = [None, *refused]
    for dtype in dtypes:
        proc = _write(apsp_bin, tmp_path, edges, dtype)
        if dtype is not None and refused[dtype]:
            assert proc.returncode == 1 and f"cannot write {dtype}" in proc.stderr, (dtype, proc.stderr)
            assert not proc.out.exists()  # type: ignore[attr-defined]
            continue
        assert proc.returncode == 0, (dtype, proc.stderr)
        d = np.load(proc.out, allow_pickle=False)  # type: ignore[attr-defined]
        assert d.dtype == np.dtype(dtype or auto) and d.shape == want.shape, (dtype, d.dtype)
        if d.dtype.kind == "f":
            got = d.astype(np.float64)
        else:
            got = np.where(d == np.iinfo(d.dtype).max, np.inf, d.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name} {dtype}")


def test_refusal_names_distance_and_dtype(apsp_bin: str, tmp_path: Path) -> None:
    proc = _write(apsp_bin, tmp_path, "0 1 255\n", "uint8")
    assert proc.returncode == 1 and "cannot write uint8: distance 255" in proc.stderr, proc.stderr
    proc = _write(apsp_bin, tmp_path, "0 1 -1\n", "uint16")
    assert proc.returncode == 1 and "cannot write uint16: distance -1 is negative" in proc.stderr, proc.stderr


@pytest.mark.parametrize("src", [np.uint8, np.int16, np.uint16])
def test_convert_narrow_sentinels(src: type) -> None:
    """A narrow matrix from the co-process: its maximum is no path, in any
    dtype asked for."""
    big = np.iinfo(src).max
    d = np.array([[0, 3], [big, 0]], dtype=src)
    f = apsp.convert_distances(d)
    assert f.dtype == np.float64 and f.tolist() == [[0.0, 3.0], [math.inf, 0.0]]
    for target in (np.int32, np.int64, np.uint16):
        i = apsp.convert_distances(d, target)
        assert i.dtype == target and i[1, 0] == np.iinfo(target).max and i[0, 1] == 3
    with pytest.raises(OverflowError):
        apsp.convert_distances(np.array([[0, 200], [big, 0]], dtype=src), np.int8)


def test_distances_default_is_float(apsp_bin: str) -> None:
    """dtype=None stays NetworkX-like float64 with inf, whatever narrow dtype
    the co-process chose (a hop path of 300 arcs comes as uint16, a short
    one as uint8)."""
    nx = pytest.importorskip("networkx")
    for k in (3, 300):
        G = nx.path_graph(k + 1, create_using=nx.DiGraph)
        D, nodes = apsp.distances(G)
        assert D.dtype == np.float64 and D[0, k] == k and math.isinf(D[k, 0])
        Di, _ = apsp.distances(G, dtype=np.int32)
        assert Di.dtype == np.int32 and Di[0, k] == k and Di[k, 0] == np.iinfo(np.int32).max
