"""Graphs held in the co-process and changed step by step (``Evaluator.load``)."""

from __future__ import annotations

import base64
import math
import re
from typing import TYPE_CHECKING, Any, Dict, Hashable, Iterable, List, Mapping, Optional, Tuple, Union

import numpy as np

from ._api import _UNSET, _decode_eccentricity, _decode_measures
from ._convert import Prepared
from ._errors import ApspError, GraphError, HandleError, error_from_response

if TYPE_CHECKING:  # pragma: no cover
    from ._api import Evaluator

Number = Union[int, float]
EdgeSpec = Iterable[Any]  # (u, v), (u, v, length) or (u, v, {attr: length})


class Handle:
    """A graph held in an :class:`Evaluator`'s co-process, measured again and
    again as it changes a few edges at a time (a search loop: simulated
    annealing swaps two edges a step and asks for the diameter and ASPL).

    Made by :meth:`Evaluator.load`; use it as a context manager, or call
    :meth:`drop`, to free the co-process's copy::

        with apsp.Evaluator() as ev, ev.load(G) as h:
            s = h.summary(remove=[(a, b), (c, d)], add=[(a, c), (b, d)])
            if worse(s):
                h.update(remove=[(a, c), (b, d)], add=[(a, b), (c, d)])  # undo

    **Changes are persistent**: ``add`` and ``remove`` change the held graph
    before it is measured, and the next call sees the changed graph (G
    itself is never changed).  They are made as if one edge at a time,
    removals first, and all or none: removing an edge that is not there,
    adding one that is, a self-loop or a node not in G raises and changes
    nothing.  Edges are given in G's own node labels; the node set is fixed
    at load.  An edge to add is ``(u, v)`` (length 1), ``(u, v, length)``
    or ``(u, v, {attr: length})`` (the ``weight`` attribute given to
    :meth:`Evaluator.load`; missing means 1, as in NetworkX).

    The handle keeps the current edge set on the Python side too, so that
    if the co-process dies and the package starts a new one (with a
    ``RuntimeWarning``), the next call loads the graph again, as it then
    is, and goes on: the call that was in flight when it died raises
    :class:`CoprocessError` and changed nothing.

    Attributes:
        n: the vertex count.
        nodes: G's nodes in vertex order.
        directed: whether the edges are arcs.
        name: the co-process's handle (changes when it is loaded again).
    """

    def __init__(self, ev: "Evaluator", prep: Prepared, edges: np.ndarray, weights: Optional[np.ndarray], weight: Any) -> None:
        self._ev = ev
        self._prep = prep
        self.n = prep.n
        self.nodes = prep.nodes
        self.directed = prep.directed
        self._weight = weight
        # The edge set, by vertex ids, with lengths: what the co-process
        # holds, kept to load it again after a restart.
        self._kind = None if weights is None else ("float" if weights.dtype.kind == "f" else "int")
        self._edges: Dict[Tuple[int, int], Number] = {}
        ws: List[Number] = [1] * len(edges) if weights is None else weights.tolist()
        directed = self.directed
        for (u, v), w in zip(edges.tolist(), ws):
            if u == v:
                continue  # self-loops are dropped, as the co-process drops them
            key = (u, v) if directed or u < v else (v, u)
            old = self._edges.get(key)
            if old is None or w < old:  # parallel edges keep the smallest length
                self._edges[key] = w
        self.name: Optional[str] = None
        self._gen = -1  # the co-process start that holds it
        self._dropped = False
        self._load()

    # -- holding -----------------------------------------------------------------

    def _load(self) -> None:
        """Load the current edge set into the co-process."""
        keys = list(self._edges)
        e = np.array(keys, dtype="<i4").reshape(-1, 2)
        fields = [b'"n":%d' % self.n]
        if self.directed:
            fields.append(b',"directed":true')
        fields += [b',"edges_b64":"', base64.b64encode(e.tobytes()), b'"']
        if self._kind is not None:
            dtype = "<f8" if self._kind == "float" else "<i8"
            w = np.array([self._edges[k] for k in keys], dtype=dtype)
            fields += [b',"weights_b64":"', base64.b64encode(w.tobytes()), b'","weights_dtype":"', b"float64" if self._kind == "float" else b"int64", b'"']
        cop = self._ev._cop
        resp = cop.request({"op": "load"}, b"".join(fields))
        if "error" in resp:
            raise error_from_response(resp, self.nodes)
        self.name = str(resp["result"]["handle"])
        self._gen = cop.starts

    def _request(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        """Send a request naming the held graph, loading it again first if
        the co-process restarted; return the result."""
        if self._dropped:
            raise HandleError(f"the graph was dropped (handle {self.name!r})")
        cop = self._ev._cop
        for attempt in range(2):
            if self._gen != cop.starts:
                self._load()  # a new co-process since the last call
            payload["graph"] = self.name
            resp = cop.request(payload)
            if "error" not in resp:
                return resp["result"]  # type: ignore[no-any-return]
            if resp.get("kind") == "unknown_handle" and attempt == 0 and self._gen != cop.starts:
                continue  # the co-process restarted while idle: load and retry
            raise error_from_response(resp, self.nodes)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- changes ----------------------------------------------------------------

    def _index(self, x: Hashable) -> int:
        return self._prep.index_of(x)

    @staticmethod
    def _name_edge(err: ApspError, add: List[Any], remove: List[Any]) -> ApspError:
        """Name, in G's labels, the edge a refused change points at."""
        m = re.search(r"\b(add|remove)\[(\d+)\]", err.message)
        if m:
            given = add if m.group(1) == "add" else remove
            i = int(m.group(2))
            if i < len(given):
                err.message = f"{err.message} ({m.group(1)}[{i}] is {tuple(given[i])!r})"
                err.args = (err.message,)
        return err

    def _changes(self, add: Optional[Iterable[EdgeSpec]], remove: Optional[Iterable[EdgeSpec]], payload: Dict[str, Any]) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int, Number]]]:
        """The changes in vertex ids, put in ``payload``."""
        rem: List[Tuple[int, int]] = []
        if remove is not None:
            for e in remove:
                u, v = e[0], e[1]
                rem.append((self._index(u), self._index(v)))
            payload["remove"] = rem
        adds: List[Tuple[int, int, Number]] = []
        if add is not None:
            weighted = False
            for e in add:
                w: Any = 1
                if len(e) > 2:
                    w = e[2]
                    if isinstance(w, dict):
                        w = w.get(self._weight, 1) if isinstance(self._weight, str) else 1
                    if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, np.integer, np.floating)):
                        raise GraphError(f"edge {e!r}: the length must be a number")
                    w = w.item() if isinstance(w, (np.integer, np.floating)) else w
                    if isinstance(w, float) and not math.isfinite(w):
                        raise GraphError(f"edge {e!r}: the length {w} is not finite")
                    weighted = weighted or w != 1
                adds.append((self._index(e[0]), self._index(e[1]), w))
            payload["add"] = [(u, v) for u, v, _ in adds]
            if weighted or self._kind is not None:
                payload["add_weights"] = [w for _, _, w in adds]
        return rem, adds

    def _commit(self, rem: List[Tuple[int, int]], adds: List[Tuple[int, int, Number]], payload: Dict[str, Any]) -> None:
        """Make the changes the co-process made to the kept edge set."""
        directed = self.directed
        for u, v in rem:
            del self._edges[(u, v) if directed or u < v else (v, u)]
        if "add_weights" in payload:
            if any(isinstance(w, float) for _, _, w in adds):
                self._kind = "float"
            elif self._kind is None:
                self._kind = "int"
        for u, v, w in adds:
            self._edges[(u, v) if directed or u < v else (v, u)] = w

    def _measure(self, op: str, add: Any, remove: Any, reachable: Any, device: Any, options: Dict[str, Any]) -> Dict[str, Any]:
        _, r, opts = self._ev._settings(None, reachable, device, options)
        payload: Dict[str, Any] = {"op": op}
        if opts:
            payload["options"] = opts
        add = None if add is None else list(add)
        remove = None if remove is None else list(remove)
        rem, adds = self._changes(add, remove, payload)
        try:
            result = self._request(payload)
        except ApspError as e:
            raise self._name_edge(e, add or [], remove or []) from None
        if rem or adds:
            self._commit(rem, adds, payload)
        if not isinstance(result, dict):
            raise ApspError(f"the co-process answered {op} without a result: {result!r}")
        result["_reachable"] = r
        return result

    def update(self, add: Optional[Iterable[EdgeSpec]] = None, remove: Optional[Iterable[EdgeSpec]] = None) -> None:
        """Change the held graph without measuring it (removals first; all or
        none; see the class)."""
        payload: Dict[str, Any] = {"op": "update"}
        add = None if add is None else list(add)
        remove = None if remove is None else list(remove)
        rem, adds = self._changes(add, remove, payload)
        if not rem and not adds:
            return
        try:
            self._request(payload)
        except ApspError as e:
            raise self._name_edge(e, add or [], remove or []) from None
        self._commit(rem, adds, payload)

    # -- measures -----------------------------------------------------------------

    def summary(
        self, add: Optional[Iterable[EdgeSpec]] = None, remove: Optional[Iterable[EdgeSpec]] = None,
        reachable: Any = _UNSET, device: Any = _UNSET, **options: Any,
    ) -> Dict[str, Any]:
        """Make the changes, then the diameter and ASPL of the held graph, as
        :meth:`Evaluator.summary` answers them (through the co-process's
        kept Evaluator, as Go's ``Evaluator.Summary``)."""
        res = self._measure("summary", add, remove, reachable, device, options)
        return _decode_measures(res, self._prep, res.pop("_reachable"))

    def summaries(
        self, candidates: Iterable[Mapping[str, Iterable[EdgeSpec]]],
        reachable: Any = _UNSET, device: Any = _UNSET, return_exceptions: bool = False, **options: Any,
    ) -> List[Union[Dict[str, Any], ApspError]]:
        """The diameter and ASPL of each candidate change of the held graph,
        measured apart on the graph as it is (none of them changes it), in
        one request and one batch (the bulk kernels on a GPU, the CPU's
        threads otherwise): the step of a search that weighs a neighbourhood
        of swaps before it takes one, which it then makes with
        :meth:`update`::

            cands = [{"remove": [(a, b), (c, d)], "add": [(a, c), (b, d)]}, ...]
            sums = h.summaries(cands)
            best = min(range(len(cands)), key=lambda i: (sums[i]["diameter"], sums[i]["aspl"]))
            h.update(**cands[best])

        Args:
            candidates: mappings with ``"add"`` and/or ``"remove"`` (edges as
                :meth:`summary` takes them), at most 65 536.
            return_exceptions: put a candidate's error (an edge to remove
                that is not there, one to add that is) in its place in the
                list, as ``asyncio.gather`` does, instead of raising the
                first one.

        Returns:
            One summary (as :meth:`summary` answers) per candidate, in order.
        """
        _, r, opts = self._ev._settings(None, reachable, device, options)
        payload: Dict[str, Any] = {"op": "summary"}
        if opts:
            payload["options"] = opts
        given: List[Tuple[List[Any], List[Any]]] = []
        sent: List[Dict[str, Any]] = []
        for i, c in enumerate(candidates):
            if not (type(c) is dict or isinstance(c, Mapping)) or not c.keys() <= {"add", "remove"}:
                raise TypeError(f"candidates[{i}]: want a mapping with \"add\" and/or \"remove\", got {c!r}")
            add = list(c.get("add") or [])
            remove = list(c.get("remove") or [])
            one: Dict[str, Any] = {}
            self._changes(add, remove, one)
            given.append((add, remove))
            sent.append(one)
        payload["candidates"] = sent
        result = self._request(payload)
        got = result.get("summaries") if isinstance(result, dict) else None
        if not isinstance(got, list) or len(got) != len(sent):
            raise ApspError(f"the co-process answered {len(sent)} candidates with {result!r}")
        out: List[Union[Dict[str, Any], ApspError]] = []
        for (add, remove), res in zip(given, got):
            if "error" in res:
                err = self._name_edge(error_from_response(res, self.nodes), add, remove)
                if not return_exceptions:
                    raise err
                out.append(err)
                continue
            out.append(_decode_measures(res, self._prep, r))
        return out

    def stats(
        self, add: Optional[Iterable[EdgeSpec]] = None, remove: Optional[Iterable[EdgeSpec]] = None,
        reachable: Any = _UNSET, device: Any = _UNSET, **options: Any,
    ) -> Dict[str, Any]:
        """Make the changes, then every summary measure (see :func:`apsp.stats`)."""
        res = self._measure("stats", add, remove, reachable, device, options)
        return _decode_measures(res, self._prep, res.pop("_reachable"))

    def extremes(
        self, add: Optional[Iterable[EdgeSpec]] = None, remove: Optional[Iterable[EdgeSpec]] = None,
        reachable: Any = _UNSET, device: Any = _UNSET, **options: Any,
    ) -> Dict[str, Any]:
        """Make the changes, then the diameter and radius (see :func:`apsp.extremes`)."""
        res = self._measure("extremes", add, remove, reachable, device, options)
        return _decode_measures(res, self._prep, res.pop("_reachable"))

    def eccentricity(
        self, v: Any = None, add: Optional[Iterable[EdgeSpec]] = None, remove: Optional[Iterable[EdgeSpec]] = None,
        reachable: Any = _UNSET, device: Any = _UNSET, **options: Any,
    ) -> Union[Number, Dict[Hashable, Number]]:
        """Make the changes, then the eccentricities (see :func:`apsp.eccentricity`)."""
        res = self._measure("eccentricity", add, remove, reachable, device, options)
        res.pop("_reachable")
        return _decode_eccentricity(res, self._prep, v)

    # -- the edge set, and the end -----------------------------------------------------

    def edges(self) -> List[Tuple[Hashable, Hashable]]:
        """The held graph's edges, in G's labels (each undirected edge once)."""
        nodes = self.nodes
        return [(nodes[u], nodes[v]) for u, v in self._edges]

    def number_of_edges(self) -> int:
        """The held graph's edge count (arcs, when directed)."""
        return len(self._edges)

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        """Whether the held graph has the edge ``u``–``v`` (``u → v`` when directed)."""
        i, j = self._index(u), self._index(v)
        return ((i, j) if self.directed or i < j else (j, i)) in self._edges

    def drop(self) -> None:
        """Free the co-process's copy.  Further calls raise :class:`HandleError`."""
        if self._dropped:
            return
        self._dropped = True
        cop = self._ev._cop
        if cop.closed or self._gen != cop.starts or cop.pid is None:
            return  # the process that held it is gone
        resp = cop.request({"op": "drop", "graph": self.name})
        if "error" in resp and resp.get("kind") != "unknown_handle":
            raise error_from_response(resp)

    def __enter__(self) -> "Handle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.drop()

    def __repr__(self) -> str:
        state = "dropped" if self._dropped else f"held as {self.name!r}"
        kind = {None: "unweighted", "int": "int", "float": "float"}[self._kind]
        return f"<apsp.Handle n={self.n} edges={len(self._edges)} directed={self.directed} {kind}, {state}>"


def _edge_arrays(prep: Prepared) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """The edges and weights a Prepared graph sends."""
    e = np.frombuffer(base64.b64decode(prep._edges_b64), dtype="<i4").reshape(-1, 2)
    w = None
    if prep._weights_b64 is not None:
        w = np.frombuffer(base64.b64decode(prep._weights_b64), dtype="<f8" if prep.float_weights else "<i8")
    return e, w

