"""Graph Golf (research.nii.ac.jp/graphgolf) from Python: the lower bounds,
the evaluation of a graph against them, and the search of ``apsp golf``.

A search runs for seconds to hours, so each call runs the binary once
(``apsp golf bound|eval|search --json``) rather than through the
co-process; the binary is found as everywhere in the package
(:func:`apsp.binary`).
"""

from __future__ import annotations

import json
import math
import numbers
import os
import shutil
import subprocess
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._binary import find_binary
from ._errors import ApspError, OptionsError

Vertex = Union[int, Tuple[int, int]]
Edge = Tuple[Vertex, Vertex]


def _params(n: Optional[int], d: Optional[int], w: Optional[int], h: Optional[int], r: Optional[int]) -> List[str]:
    out = []
    for key, value in (("n", n), ("d", d), ("w", w), ("h", h), ("r", r)):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{key} must be an int, not {type(value).__name__}")
            out.append(f"{key}={int(value)}")
    return out


def _run(args: Sequence[str], binary: Optional[str], timeout: Optional[float] = None) -> Dict[str, Any]:
    """Runs ``apsp golf ARGS --json`` and returns its JSON, or raises
    :class:`OptionsError` (a refused request: exit status 2) or
    :class:`ApspError` with the binary's message."""
    cmd = [find_binary(binary), "golf", *args, "--json", "--quiet"]
    try:
        proc = subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="replace", timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        raise ApspError(f"apsp golf {args[0]}: no answer within {timeout} s") from e
    if proc.returncode != 0:
        message = proc.stderr.strip() or f"apsp golf {args[0]} exited with status {proc.returncode}"
        if proc.returncode == 2:
            raise OptionsError(message)
        raise ApspError(message)
    try:
        result: Dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise ApspError(f"apsp golf {args[0]} printed no JSON: {proc.stdout[:200]!r}") from e
    return result


def golf_bound(
    n: int, d: int, w: Optional[int] = None, h: Optional[int] = None, r: Optional[int] = None, *, binary: Optional[str] = None
) -> Dict[str, float]:
    """The lower bounds of the diameter and the ASPL of a graph of order
    ``n`` and degree at most ``d`` (the Moore-type bound), or on a
    ``w`` × ``h`` grid with edges of length at most ``r`` (the grid bound),
    as Graph Golf computes them: ``{"diameter": D, "aspl": A}``."""
    return _run(["bound", *_params(n, d, w, h, r)], binary, None)


def _format(v: Vertex) -> str:
    if isinstance(v, tuple):
        x, y = v
        return f"{int(x)},{int(y)}"
    return str(int(v))


def _parse(token: str) -> Vertex:
    if "," in token:
        x, y = token.split(",")
        return (int(x), int(y))
    return int(token)


def _edges_of(G: Any) -> Iterable[Tuple[Any, Any]]:
    if hasattr(G, "edges") and callable(G.edges):
        return G.edges()  # a NetworkX graph
    return G  # an iterable of pairs


def _order_of(G: Any, n: Optional[int], w: Optional[int], h: Optional[int]) -> Tuple[Optional[int], Optional[int], Optional[int]]:
    """The order (or grid) of a NetworkX graph, which an edges file alone
    does not say when its last vertices are isolated: n from ids 0..n-1,
    w and h from (x, y) nodes, unless given."""
    if not (hasattr(G, "nodes") and callable(G.nodes)):
        return n, w, h
    nodes = list(G.nodes())
    if not nodes:
        return n, w, h
    if not all(isinstance(v, tuple) and len(v) == 2 for v in nodes) and not all(isinstance(v, numbers.Integral) for v in nodes):
        raise TypeError("a Graph Golf graph's nodes are the ints 0..n-1, or (x, y) pairs on a grid")
    if all(isinstance(v, tuple) for v in nodes):
        if w is None:
            w = max(int(v[0]) for v in nodes) + 1
        if h is None:
            h = max(int(v[1]) for v in nodes) + 1
        return n, w, h
    if n is None and w is None:
        n = max(int(v) for v in nodes) + 1
    return n, w, h


def golf_eval(
    G: Any,
    d: Optional[int] = None,
    w: Optional[int] = None,
    h: Optional[int] = None,
    r: Optional[int] = None,
    *,
    binary: Optional[str] = None,
) -> Dict[str, Any]:
    """Diameter, ASPL, both bounds and the gaps (value − bound) of a graph,
    as the competition prints them, each re-checked by a second engine:
    the dict of ``apsp golf eval --json`` (``diameter``, ``aspl``,
    ``bound``, ``diameter_gap``, ``aspl_gap``, ``connected``, ...).

    Args:
        G: a path to a Graph Golf edges file, a NetworkX graph whose nodes
            are ``0..n-1`` (or ``(x, y)`` pairs on a grid), or an iterable
            of such edges.
        d: the degree the bound is for (default the graph's largest).
        w, h, r: a grid's width, height and edge length limit."""
    if isinstance(G, (str, os.PathLike)):
        return _run(["eval", os.fspath(G), *_params(None, d, w, h, r)], binary, None)
    n, w, h = _order_of(G, None, w, h)
    tmpdir = tempfile.mkdtemp(prefix="apsp-golf-")
    try:
        path = os.path.join(tmpdir, "graph.edges")
        with open(path, "w", encoding="ascii") as f:
            for u, v in _edges_of(G):
                f.write(f"{_format(u)} {_format(v)}\n")
        return _run(["eval", path, *_params(n, d, w, h, r)], binary, None)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def golf_search(
    n: int,
    d: int,
    w: Optional[int] = None,
    h: Optional[int] = None,
    r: Optional[int] = None,
    *,
    time: Optional[float] = None,
    evals: Optional[int] = None,
    seed: int = 1,
    method: str = "sa",
    start: Any = None,
    device: str = "auto",
    threads: Optional[int] = None,
    batch: Optional[int] = None,
    fixed_batch: bool = False,
    symmetry: int = 1,
    binary: Optional[str] = None,
) -> Tuple[List[Edge], Dict[str, Any]]:
    """Searches for a graph of order ``n`` and degree ``d`` (on a ``w`` ×
    ``h`` grid with edges of length at most ``r`` when given) of smallest
    diameter, then smallest ASPL: simulated annealing (``method="hc"``:
    hill climbing) over degree-preserving edge swaps, from a random graph
    or ``start`` (as :func:`golf_eval` takes graphs).  Stops after ``time``
    seconds or ``evals`` evaluations (default 10 000 evaluations).
    ``batch`` is the most candidates a step measures at once (fewer while
    acceptances are frequent, unless ``fixed_batch``).  ``symmetry`` g > 1
    keeps the graph invariant under ``v -> v + n/g (mod n)`` and measures
    it from ``n/g`` sources (ODP's symmetric samples; on the CPU).

    Returns ``(edges, figures)``: the best graph's edges (``(u, v)`` ints,
    or ``((x, y), (x, y))`` on a grid; ``networkx.Graph(edges)`` builds
    it) and the dict of ``apsp golf search --json`` (``report``: the best
    graph's diameter, ASPL, bounds and gaps, re-checked by a second
    engine; ``start``, ``evals``, ``evals_per_second``, ``seed``, ...).
    Reproducible with ``seed`` on one machine and thread count."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError("seed must be an int")
    if seed < 0:
        raise ValueError("seed must be non-negative")
    args = ["search", *_params(n, d, w, h, r), f"--seed={seed}", f"--method={method}", f"--device={device}"]
    if time is not None:
        seconds = float(time)
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"time must be a positive number of seconds, not {time!r}")
        args.append(f"--time={max(1, round(seconds * 1e9))}ns")  # a Go duration
    for flag, value in (("evals", evals), ("threads", threads), ("batch", batch), ("symmetry", symmetry)):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{flag} must be an int, not {type(value).__name__}")
            args.append(f"--{flag}={int(value)}")
    if fixed_batch:
        args.append("--fixed-batch")
    tmpdir = tempfile.mkdtemp(prefix="apsp-golf-")
    try:
        out = os.path.join(tmpdir, "best.edges")
        args.append(f"-o={out}")
        if start is not None:
            if isinstance(start, (str, os.PathLike)):
                args.append(f"--from={os.fspath(start)}")
            else:
                first = os.path.join(tmpdir, "start.edges")
                with open(first, "w", encoding="ascii") as f:
                    for u, v in _edges_of(start):
                        f.write(f"{_format(u)} {_format(v)}\n")
                args.append(f"--from={first}")
        figures = _run(args, binary, None)
        edges: List[Edge] = []
        with open(out, encoding="ascii") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and not line.startswith("#"):
                    edges.append((_parse(parts[0]), _parse(parts[1])))
        return edges, figures
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
