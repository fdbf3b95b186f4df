"""Turning the graphs people hold in Python into the co-process's graph fields.

Every graph becomes vertices ``0..n-1`` (positions in a node list), int32 edge
pairs sent as ``edges_b64``, and optionally int64 or float64 weights aligned
with the edges.  The node list maps results back to the graph's own labels.
"""

from __future__ import annotations

import base64
import sys
from itertools import chain
from typing import Any, Callable, Dict, Hashable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._errors import GraphError, NodeNotFoundError, WeightsTooLargeError

_INT32_MAX = np.iinfo(np.int32).max
_INT64_MAX = np.iinfo(np.int64).max

Weight = Union[None, str, Callable[[Any, Any, Dict[str, Any]], Any], Sequence[Any], np.ndarray]


class EdgeArrays(NamedTuple):
    """A graph as arrays: ``n`` vertices ``0..n-1``, ``edges`` an ``(m, 2)``
    array-like of vertex pairs, ``weights`` (optional) ``m`` numbers aligned
    with the edges, ``directed`` whether each pair is an arc.

    A plain tuple ``(n, edges)``, ``(n, edges, weights)`` or ``(n, edges,
    weights, directed)`` is read the same way.
    """

    n: int
    edges: Any
    weights: Any = None
    directed: bool = False


class Prepared:
    """A graph converted once for the co-process; pass it instead of the
    graph to skip the conversion in repeated calls (see :func:`apsp.prepare`).

    Attributes:
        n: the vertex count.
        nodes: the node list: position ``i`` holds the label of vertex ``i``.
        directed: whether the edges are arcs.
        weighted: whether weights are sent (``False`` means every edge has
            length 1).
        float_weights: whether the weights are float64 (else int64).
        fields: the request's graph fields (a dict made on each access).
    """

    __slots__ = ("n", "nodes", "directed", "weighted", "float_weights", "_index", "_json", "_edges_b64", "_weights_b64")

    def __init__(
        self,
        n: int,
        nodes: Sequence[Hashable],
        directed: bool,
        edges: np.ndarray,
        weights: Optional[np.ndarray],
        index: Optional[Dict[Hashable, int]] = None,
    ) -> None:
        self.n = n
        self.nodes = nodes
        self.directed = bool(directed)
        self.weighted = weights is not None
        self.float_weights = weights is not None and weights.dtype.kind == "f"
        self._index = index
        self._edges_b64 = base64.b64encode(np.ascontiguousarray(edges, dtype="<i4").tobytes())
        self._weights_b64: Optional[bytes] = None
        if weights is not None:
            dtype = "<f8" if self.float_weights else "<i8"
            self._weights_b64 = base64.b64encode(np.ascontiguousarray(weights, dtype=dtype).tobytes())
        self._json: Optional[bytes] = None

    @property
    def fields(self) -> Dict[str, Any]:
        """The request's graph fields, as a dict."""
        out: Dict[str, Any] = {"n": self.n}
        if self.directed:
            out["directed"] = True
        out["edges_b64"] = self._edges_b64.decode("ascii")
        if self._weights_b64 is not None:
            out["weights_b64"] = self._weights_b64.decode("ascii")
            out["weights_dtype"] = "float64" if self.float_weights else "int64"
        return out

    @property
    def json_fields(self) -> bytes:
        """The graph fields encoded as JSON members (no braces), built once
        from the base64 bytes (json.dumps of a long string costs more than
        the conversion)."""
        if self._json is None:
            parts = [b'"n":%d' % self.n]
            if self.directed:
                parts.append(b',"directed":true')
            parts += [b',"edges_b64":"', self._edges_b64, b'"']
            if self._weights_b64 is not None:
                dtype = b"float64" if self.float_weights else b"int64"
                parts += [b',"weights_b64":"', self._weights_b64, b'","weights_dtype":"', dtype, b'"']
            self._json = b"".join(parts)
        return self._json

    def index_of(self, node: Hashable) -> int:
        """The vertex index of ``node``; :class:`NodeNotFoundError` if absent."""
        if type(node) is int and 0 <= node < self.n and type(self.nodes) is range:
            return node  # the common case of a search loop, first
        if isinstance(self.nodes, range):
            try:
                if not isinstance(node, (bool, np.bool_)) and int(node) == node and 0 <= int(node) < self.n:  # type: ignore[call-overload]
                    return int(node)  # type: ignore[call-overload]
            except (TypeError, ValueError):
                pass
            raise NodeNotFoundError(f"node {node!r} is not in the graph (vertices are 0..{self.n - 1})")
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        try:
            return self._index[node]
        except (KeyError, TypeError):
            raise NodeNotFoundError(f"node {node!r} is not in the graph") from None

    def label(self, i: int) -> Hashable:
        """The label of vertex index ``i``."""
        return self.nodes[i]

    def labels(self, indices: Sequence[int]) -> List[Hashable]:
        """The labels of vertex indices."""
        if isinstance(self.nodes, range):
            return [int(i) for i in indices]
        nodes = self.nodes
        return [nodes[i] for i in indices]

    def __repr__(self) -> str:
        kind = "float" if self.float_weights else "int" if self.weighted else "unweighted"
        return f"<apsp.Prepared n={self.n} directed={self.directed} {kind}>"


# ---------------------------------------------------------------------------
# Weights


def _weights_array(values: Any, m: int, what: str = "weights") -> Optional[np.ndarray]:
    """int64 or float64 weights from numbers, or ``None`` when every weight
    is 1 (sent unweighted: the same distances, the fast engines)."""
    w = np.asarray(values)
    if w.dtype == object or w.dtype.kind in "SUV":
        items = list(w.ravel()) if w.dtype != object else list(np.ravel(w))
        if any(x is None for x in items):
            raise GraphError(f"{what}: a weight is None; every weight must be a number")
        try:
            w = np.array(items, dtype=np.int64) if all(isinstance(x, (int, np.integer)) for x in items) else np.array(items, dtype=np.float64)
        except OverflowError:
            raise WeightsTooLargeError(f"{what}: an integer weight does not fit int64") from None
        except (TypeError, ValueError) as e:
            raise GraphError(f"{what}: weights must be numbers ({e})") from None
    if w.ndim != 1:
        w = w.reshape(-1)
    if w.shape[0] != m:
        raise GraphError(f"{what}: {w.shape[0]} weights for {m} edges")
    kind = w.dtype.kind
    if kind == "b":
        w = w.astype(np.int64)
    elif kind == "i":
        w = w.astype(np.int64, copy=False)
    elif kind == "u":
        if m and w.max() > _INT64_MAX:
            raise WeightsTooLargeError(f"{what}: weight {int(w.max())} does not fit int64")
        w = w.astype(np.int64)
    elif kind == "f":
        w = w.astype(np.float64, copy=False)
    else:
        raise GraphError(f"{what}: weights of dtype {w.dtype} are not real numbers")
    if m == 0 or bool(np.all(w == 1)):
        return None
    return w


# ---------------------------------------------------------------------------
# Edges


def _edges_array(edges: Any, n: int) -> np.ndarray:
    e = np.asarray(edges)
    if e.size == 0:
        return np.zeros((0, 2), dtype=np.int32)
    if e.dtype.kind not in "iub":
        if e.dtype.kind == "f" and np.all(np.isfinite(e)) and np.all(e == np.floor(e)):
            e = e.astype(np.int64)
        else:
            raise GraphError(f"edges must be integer vertex indices, not {e.dtype}")
    if e.ndim == 1 and e.shape[0] % 2 == 0:
        e = e.reshape(-1, 2)
    if e.ndim != 2 or e.shape[1] != 2:
        raise GraphError(f"edges must have shape (m, 2), not {e.shape}")
    lo, hi = int(e.min()), int(e.max())
    if lo < 0 or hi >= n:
        bad = lo if lo < 0 else hi
        has = f"vertices 0..{n - 1}" if n else "no vertices"
        raise GraphError(f"edge endpoint {bad} is out of range: the graph has {has}")
    return e.astype(np.int32, copy=False)


def _vertex_count(n: Any) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise GraphError(f"the vertex count must be an integer, not {n!r}")
    if n < 0:
        raise GraphError(f"the vertex count must not be negative ({n})")
    return int(n)


def _from_arrays(n: Any, edges: Any, weights: Any, directed: Any) -> Prepared:
    n = _vertex_count(n)
    e = _edges_array(edges, n)
    w = None if weights is None else _weights_array(weights, e.shape[0])
    return Prepared(n, range(n), bool(directed), e, w)


def _from_networkx(G: Any, weight: Weight) -> Prepared:
    adj = getattr(G, "_adj", None)
    if not isinstance(adj, dict):  # a view or a subclass without the dict
        adj = G.adj
    nodes = list(adj)
    n = len(nodes)
    directed = G.is_directed()
    identity = all(type(v) is int for v in nodes) and nodes == list(range(n))
    index: Optional[Dict[Hashable, int]] = None if identity else {v: i for i, v in enumerate(nodes)}
    labels: Sequence[Hashable] = range(n) if identity else nodes

    def flat(pairs: Any, count: int) -> np.ndarray:
        it = chain.from_iterable(pairs)
        if index is not None:
            it = map(index.__getitem__, it)
        return np.fromiter(it, dtype=np.int32, count=2 * count).reshape(-1, 2)

    if weight is None or isinstance(weight, str):
        # Every adjacency at C speed: tails repeated by degree, heads from the
        # neighbour dicts; an undirected edge is kept from its smaller end
        # (a self-loop once).  Parallel edges of a multigraph are one pair.
        deg = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
        total = int(deg.sum())
        heads = chain.from_iterable(adj.values())
        if index is not None:
            heads = map(index.__getitem__, heads)
        nb = np.fromiter(heads, dtype=np.int32, count=total)
        src = np.repeat(np.arange(n, dtype=np.int32), deg)
        keep = None if directed else src <= nb
        e = np.stack([src, nb], axis=1) if keep is None else np.stack([src[keep], nb[keep]], axis=1)
        w: Optional[np.ndarray] = None
        if weight is not None:
            if G.is_multigraph():  # the smallest of the parallel edges, as NetworkX
                values = [min(d.get(weight, 1) for d in kd.values()) for nbrs in adj.values() for kd in nbrs.values()]
            else:
                values = [d.get(weight, 1) for nbrs in adj.values() for d in nbrs.values()]
            w = _weights_array(values, total, f"edge attribute {weight!r}")
            if w is not None and keep is not None:
                w = w[keep]
        return Prepared(n, labels, directed, e, w, index)

    if callable(weight):
        # As NetworkX: weight(u, v, d) with d the edge's attribute dict (for a
        # multigraph, the dict of its parallel edges' dicts by key), once per
        # adjacent pair; None hides the edge.
        pairs: List[Tuple[Any, Any]] = []
        values: List[Any] = []
        seen = set()
        for u, nbrs in adj.items():
            for v, d in nbrs.items():
                if not directed and v in seen:
                    continue
                x = weight(u, v, d)
                if x is not None:
                    pairs.append((u, v))
                    values.append(x)
            if not directed:
                seen.add(u)
        e = flat(pairs, len(pairs))
        wf = _weights_array(values, len(values), "weight function")
        return Prepared(n, labels, directed, e, wf, index)

    raise TypeError(f"weight must be None, an edge attribute name or a function for a NetworkX graph, not {type(weight).__name__}")


def _from_igraph(g: Any, weight: Weight) -> Prepared:
    n = g.vcount()
    m = g.ecount()
    e = np.array(g.get_edgelist(), dtype=np.int32).reshape(m, 2)
    w: Optional[np.ndarray] = None
    if weight is not None:
        if isinstance(weight, str):
            if weight in g.es.attributes():
                values = [1 if x is None else x for x in g.es[weight]]
                w = _weights_array(values, m, f"edge attribute {weight!r}")
        elif callable(weight):
            raise TypeError("weight must be None, an edge attribute name or a sequence of weights for an igraph graph")
        else:
            w = _weights_array(weight, m)
    return Prepared(n, range(n), g.is_directed(), e, w)


def _from_sparse(A: Any) -> Prepared:
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise GraphError(f"an adjacency matrix must be square, not {A.shape}")
    coo = A.tocoo()
    n = int(A.shape[0])
    e = np.stack([np.asarray(coo.row), np.asarray(coo.col)], axis=1)
    e = e.astype(np.int32) if e.size else np.zeros((0, 2), np.int32)
    data = np.asarray(coo.data)
    w = None if data.dtype.kind == "b" else _weights_array(data, data.shape[0], "matrix entries")
    return Prepared(n, range(n), True, e, w)


def _from_dense(A: np.ndarray) -> Prepared:
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise GraphError(f"an adjacency matrix must be square, not {A.shape}")
    n = int(A.shape[0])
    if A.dtype.kind == "b":
        rows, cols = np.nonzero(A)
        data = None
    else:
        if A.dtype.kind not in "iuf":
            raise GraphError(f"an adjacency matrix must hold numbers, not {A.dtype}")
        arc = A != 0
        if A.dtype.kind == "f":
            arc &= ~np.isposinf(A)
        rows, cols = np.nonzero(arc)
        data = A[rows, cols]
    e = np.stack([rows, cols], axis=1).astype(np.int32)
    w = None if data is None else _weights_array(data, data.shape[0], "matrix entries")
    return Prepared(n, range(n), True, e, w)


def _module_type(name: str, attr: str) -> Optional[type]:
    mod = sys.modules.get(name)
    return getattr(mod, attr, None) if mod is not None else None


def prepare(G: Any, weight: Weight = None) -> Prepared:
    """Convert a graph once, for repeated calls or to check it early.

    ``G`` may be:

    * a ``networkx`` Graph, DiGraph, MultiGraph or MultiDiGraph: nodes keep
      their labels (any hashable); parallel edges keep the smallest weight;
      ``weight=None`` is unweighted, a string names the edge attribute
      (missing means 1, as in NetworkX), a function ``weight(u, v, d)`` is
      called as NetworkX calls it (``None`` hides the edge);
    * an ``igraph.Graph``: vertices are its vertex ids ``0..n-1``;
      ``weight`` names an edge attribute (absent or ``None`` means 1) or is a
      sequence of weights aligned with ``g.es``;
    * a ``scipy.sparse`` matrix or array: each stored entry ``A[i, j]`` is an
      arc ``i -> j`` of that length (explicit zeros are arcs of length 0);
      boolean matrices are unweighted; the graph is directed (a symmetric
      matrix has an undirected graph's distances); ``weight`` is ignored;
    * a 2-D ``numpy`` array: as NetworkX's ``from_numpy_array``, each
      non-zero entry is an arc of that length; zero and ``+inf`` mean no arc;
      directed; ``weight`` is ignored;
    * a tuple ``(n, edges)``, ``(n, edges, weights)`` or ``(n, edges,
      weights, directed)`` (see :class:`EdgeArrays`): vertices ``0..n-1``,
      ``edges`` an ``(m, 2)`` integer array-like, undirected unless
      ``directed``; the weights are used when given, whatever ``weight`` is
      (unless ``weight`` is itself an array of weights);
    * a :class:`Prepared` graph, returned as it is (it keeps the weights
      it was made with: a later call's ``weight`` does not change them).

    Integer weights are sent as int64 and others as float64; weights that
    are all 1 are sent as an unweighted graph (the same distances, computed
    by the unweighted engines, and ``weighted`` is then ``False``).

    Raises:
        GraphError: for a graph apsp cannot take (edges out of range,
            weights that are not numbers, ...).
        TypeError: for an object that is none of the above.
    """
    if isinstance(G, Prepared):
        return G
    nx_graph = _module_type("networkx", "Graph")
    if nx_graph is not None and isinstance(G, nx_graph):
        return _from_networkx(G, weight)
    ig_graph = _module_type("igraph", "Graph")
    if ig_graph is not None and isinstance(G, ig_graph):
        return _from_igraph(G, weight)
    sp = sys.modules.get("scipy.sparse")
    if sp is not None and sp.issparse(G):
        return _from_sparse(G)
    if isinstance(G, np.ndarray):
        return _from_dense(G)
    if isinstance(G, tuple) and 2 <= len(G) <= 4:
        ea = EdgeArrays(*G)
        weights = ea.weights
        if weight is not None and not isinstance(weight, str) and not callable(weight):
            weights = weight
        return _from_arrays(ea.n, ea.edges, weights, ea.directed)
    raise TypeError(
        f"cannot read a graph from {type(G).__module__}.{type(G).__name__}: expected a NetworkX or igraph "
        "graph, a scipy.sparse or 2-D numpy adjacency matrix, or a tuple (n, edges[, weights[, directed]])"
    )
