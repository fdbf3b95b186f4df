"""The measures, as functions named after NetworkX's, and the Evaluator that
answers them from one co-process."""

from __future__ import annotations

import atexit
import base64
import io
import math
import os
import shutil
import tempfile
import threading
from typing import TYPE_CHECKING, Any, Dict, Hashable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._convert import Prepared, Weight, prepare
from ._coprocess import Coprocess
from ._errors import ApspError, GraphError, NodeNotFoundError, NoPathError, error_from_response

if TYPE_CHECKING:  # pragma: no cover
    from ._handles import Handle

Number = Union[int, float]

#: The options every call takes besides ``weight``, ``reachable`` and
#: ``device`` (``algo`` is an alias of ``algorithm``).
OPTION_NAMES = ("algorithm", "threads", "lanes", "mode", "effective")

#: Distance matrices larger than this many bytes come back through a
#: temporary ``.npy`` file rather than base64 in the response line.
FILE_THRESHOLD = 4 << 20

_UNSET: Any = object()


def _options(reachable: bool, device: Optional[str], extra: Dict[str, Any]) -> Dict[str, Any]:
    """The request's ``options`` object (defaults left out)."""
    out: Dict[str, Any] = {}
    for key, value in extra.items():
        name = "algorithm" if key == "algo" else key
        if name not in OPTION_NAMES:
            raise TypeError(
                f"unknown option {key!r}: apsp takes weight, reachable, device, algorithm (or algo), threads, lanes, mode and effective"
            )
        if value is None:
            continue
        if name == "threads":
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"threads must be an int, not {value!r}")
            value = int(value)
        elif name == "effective":
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise TypeError(f"effective must be a ratio (float), not {value!r}")
            value = float(value)
            if value == 0:
                continue
        elif not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {value!r}")
        if name == "algorithm" and value == "auto":
            continue
        if name == "lanes" and value == "auto":
            continue
        out[name] = value
    if device is not None and device != "auto":
        if not isinstance(device, str):
            raise TypeError(f"device must be a str such as 'cpu', 'gpu' or 'gpu:1', not {device!r}")
        out["device"] = device
    if reachable:
        out["reachable"] = True
    return out


def _inf(x: Optional[Number]) -> Number:
    return math.inf if x is None else x


def _decode_measures(r: Dict[str, Any], prep: Prepared, reachable: bool) -> Dict[str, Any]:
    """JSON nulls to ``inf``/``nan``; center and periphery to labels."""
    out = dict(r)
    for key in ("diameter", "radius"):
        if key in out:
            out[key] = _inf(out[key])
    if "aspl" in out and out["aspl"] is None:
        # Infinite when some pair has no path (and reachable was not asked),
        # else undefined: a mean over no pair (one vertex, or no reachable pair).
        reach = out.get("reachable_only", reachable)
        out["aspl"] = math.inf if (not out.get("connected", True) and not reach) else math.nan
    for key in ("center", "periphery"):
        if key in out and out[key] is not None:
            out[key] = prep.labels(out[key])
    for key in ("effective_diameter", "effective_diameter_interpolated"):
        if key in out and out[key] is None:
            out[key] = math.nan  # no pair with a path
    return out


def _load_npy(data: bytes) -> np.ndarray:
    return np.load(io.BytesIO(data), allow_pickle=False)


def convert_distances(d: np.ndarray, dtype: Any = None) -> np.ndarray:
    """Convert a matrix as the co-process writes it (integer with the dtype's
    maximum for no path, or float64 with ``inf``) to ``dtype``: floats get
    ``inf`` where there is no path, integers the new dtype's maximum."""
    target = np.dtype(np.float64 if dtype is None else dtype)
    src_int = d.dtype.kind in "iu"
    if target.kind == "f":
        if src_int:
            missing = d == np.iinfo(d.dtype).max
            finite = d[~missing]
            if target.itemsize < 8 and finite.size and int(np.abs(finite).max()) > (1 << 24):
                raise OverflowError(f"distances up to {int(np.abs(finite).max())} do not fit {target} exactly")
            if target == np.float64 and finite.size and int(np.abs(finite).max()) > (1 << 53):
                raise OverflowError(f"distances up to {int(np.abs(finite).max())} do not fit float64 exactly")
            out = d.astype(target)
            out[missing] = np.inf
            return out
        return d.astype(target, copy=False)
    if target.kind in "iu":
        if not src_int:
            raise TypeError(f"distances of a float-weighted graph cannot be {target}; ask for a float dtype")
        if d.dtype == target:
            return d
        missing = d == np.iinfo(d.dtype).max
        finite = d[~missing]
        info = np.iinfo(target)
        if finite.size and (int(finite.max()) >= info.max or int(finite.min()) < info.min):
            raise OverflowError(
                f"distances from {int(finite.min())} to {int(finite.max())} do not fit {target} below its maximum "
                "(which means no path)"
            )
        out = d.astype(target)
        out[missing] = info.max
        return out
    raise TypeError(f"dtype must be a NumPy integer or float dtype, not {target}")


class Evaluator:
    """One apsp co-process, answering graph after graph.

    The functions of this package share such an evaluator; hold one of your
    own to fix the options once (a search loop calling :meth:`summary` on
    candidate after candidate), to use another binary, or to keep its
    process apart from other threads' calls::

        with apsp.Evaluator(reachable=True) as ev:
            for G in candidates():
                s = ev.summary(G)          # {"diameter": ..., "aspl": ..., ...}

    Args:
        weight: the default ``weight`` of every method (``None``:
            unweighted; see :func:`apsp.prepare`).
        reachable: take every measure over the pairs that have a path
            (igraph's ``unconn=True``) rather than infinite ones.
        device: ``"auto"``, ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.
        binary: the apsp binary to run (default: found as
            :func:`apsp.binary` says).
        **options: ``algorithm`` (or ``algo``), ``threads``, ``lanes``:
            apsp's options (``apsp stats -h``).

    Every method takes ``weight``, ``reachable``, ``device`` and the options
    again to override them for one call.  The co-process starts at the first
    call.  If it dies, the call it was computing raises
    :class:`apsp.CoprocessError` and the next call starts a new one with a
    ``RuntimeWarning``.  :meth:`close` (or leaving the ``with`` block) ends it.
    """

    def __init__(
        self,
        weight: Weight = None,
        reachable: bool = False,
        device: str = "auto",
        binary: Optional[str] = None,
        **options: Any,
    ) -> None:
        _options(reachable, device, options)  # check the names early
        self.weight = weight
        self.reachable = reachable
        self.device = device
        self.options = dict(options)
        self._cop = Coprocess(binary)

    # -- plumbing -------------------------------------------------------------

    def __enter__(self) -> "Evaluator":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """End the co-process (closing its input; killed after a grace time)."""
        self._cop.close()

    @property
    def pid(self) -> Optional[int]:
        """The co-process's id while it runs, else ``None``."""
        return self._cop.pid

    @property
    def binary(self) -> Optional[str]:
        """The binary the co-process runs (known once it started)."""
        return self._cop.binary

    def _settings(self, weight: Any, reachable: Any, device: Any, options: Dict[str, Any]) -> Tuple[Any, bool, Dict[str, Any]]:
        w = self.weight if weight is _UNSET else weight
        r = self.reachable if reachable is _UNSET else bool(reachable)
        d = self.device if device is _UNSET else device
        merged = dict(self.options)
        for k, v in options.items():
            merged.pop("algorithm" if k == "algo" else "algo" if k == "algorithm" else k, None)
            merged[k] = v
        return w, r, _options(r, d, merged)

    def _call(
        self,
        op: str,
        G: Any,
        weight: Any,
        reachable: Any,
        device: Any,
        options: Dict[str, Any],
        extra: Optional[Dict[str, Any]] = None,
        prep: Optional[Prepared] = None,
    ) -> Tuple[Dict[str, Any], Prepared, bool]:
        w, r, opts = self._settings(weight, reachable, device, options)
        if prep is None:
            prep = prepare(G, w)
        payload: Dict[str, Any] = {"op": op}
        if opts:
            payload["options"] = opts
        if extra:
            payload.update(extra)
        resp = self._cop.request(payload, prep.json_fields)
        if "error" in resp:
            raise error_from_response(resp, prep.nodes)
        result = resp.get("result")
        if not isinstance(result, dict):
            raise ApspError(f"the co-process answered {op} without a result: {resp!r}")
        return result, prep, r

    # -- held graphs ---------------------------------------------------------------

    def load(self, G: Any, weight: Any = _UNSET) -> "Handle":
        """Hold ``G`` in the co-process, to measure it again and again as it
        changes a few edges at a time, sending only the changes: see
        :class:`apsp.Handle`.  ``G`` is any graph :func:`apsp.prepare`
        takes, converted once; ``weight`` as in :meth:`stats` (default: the
        evaluator's).  G itself is not changed, nor watched: later changes
        go through the handle.

        Raises:
            TooLargeError: the co-process holds as many graphs, or bytes of
                them, as ``apsp serve --max-graphs`` / ``--max-held`` allow
                (1000 graphs, 1 GiB by default); drop some.
        """
        from ._handles import Handle, _edge_arrays

        w = self.weight if weight is _UNSET else weight
        prep = prepare(G, w)
        edges, weights = _edge_arrays(prep)
        return Handle(self, prep, edges, weights, w)

    # -- the measures ------------------------------------------------------------

    def ping(self) -> str:
        """The co-process's version string (starting it if needed)."""
        resp = self._cop.request({"op": "ping"})
        if "error" in resp:
            raise error_from_response(resp)
        return str(resp.get("result", {}).get("version", ""))

    def stats(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> Dict[str, Any]:
        """Every summary measure at once; see :func:`apsp.stats`."""
        result, prep, r = self._call("stats", G, weight, reachable, device, options)
        return _decode_measures(result, prep, r)

    def summary(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> Dict[str, Any]:
        """Diameter and ASPL only (the search loop's question); see
        :func:`apsp.summary`."""
        result, prep, r = self._call("summary", G, weight, reachable, device, options)
        return _decode_measures(result, prep, r)

    def extremes(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> Dict[str, Any]:
        """Diameter and radius without all pairs where apsp can (unweighted
        graphs: a few breadth-first searches); see :func:`apsp.extremes`."""
        result, prep, r = self._call("extremes", G, weight, reachable, device, options)
        return _decode_measures(result, prep, r)

    def diameter(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> Number:
        """See :func:`apsp.diameter`."""
        return self.extremes(G, weight, reachable, device, **options)["diameter"]  # type: ignore[no-any-return]

    def radius(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> Number:
        """See :func:`apsp.radius`."""
        return self.extremes(G, weight, reachable, device, **options)["radius"]  # type: ignore[no-any-return]

    def average_shortest_path_length(
        self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> float:
        """See :func:`apsp.average_shortest_path_length`."""
        return self.summary(G, weight, reachable, device, **options)["aspl"]  # type: ignore[no-any-return]

    aspl = average_shortest_path_length

    def center(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> List[Hashable]:
        """See :func:`apsp.center`."""
        return self.stats(G, weight, reachable, device, **options)["center"]  # type: ignore[no-any-return]

    def periphery(self, G: Any, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any) -> List[Hashable]:
        """See :func:`apsp.periphery`."""
        return self.stats(G, weight, reachable, device, **options)["periphery"]  # type: ignore[no-any-return]

    def eccentricity(
        self, G: Any, v: Any = None, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> Union[Number, Dict[Hashable, Number]]:
        """See :func:`apsp.eccentricity`."""
        w, _, _ = self._settings(weight, reachable, device, options)
        prep = prepare(G, w)
        extra = None
        if v is not None and prep.n > 0:
            # Only the nodes asked for are searched from (a search each).
            try:
                wanted = [prep.index_of(v)]
            except NodeNotFoundError:
                wanted = [prep.index_of(x) for x in v]
            extra = {"sources": wanted}
        result, prep, _ = self._call("eccentricity", G, weight, reachable, device, options, extra=extra, prep=prep)
        return _decode_eccentricity(result, prep, v, sourced=extra is not None)

    def closeness_centrality(
        self, G: Any, u: Any = None, distance: Any = _UNSET, wf_improved: bool = True, device: Any = _UNSET, **options: Any
    ) -> Union[float, Dict[Hashable, float]]:
        """See :func:`apsp.closeness_centrality`."""
        w, _, _ = self._settings(distance, _UNSET, device, options)
        prep = prepare(G, w)
        if prep.n == 0:
            if u is not None:
                raise NodeNotFoundError(f"node {u!r} is not in the graph")
            return {}  # NetworkX's answer for a graph without nodes
        extra: Dict[str, Any] = {"wf_improved": bool(wf_improved)}
        if u is not None:
            extra["sources"] = [prep.index_of(u)]  # a search from u alone
        result, prep, _ = self._call("closeness", G, distance, _UNSET, device, options, extra=extra, prep=prep)
        c = result.get("closeness")
        want = 1 if u is not None else prep.n
        if not isinstance(c, list) or len(c) != want:
            raise ApspError(f"the co-process answered closeness with {type(c).__name__} for {want} vertices")
        values = [math.inf if x is None else float(x) for x in c]  # null: +inf, as NetworkX
        if u is not None:
            return values[0]
        return dict(zip(prep.nodes, values))

    def estimate_stats(
        self, G: Any, k: int, seed: int = 1, weight: Any = _UNSET, reachable: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> Dict[str, Any]:
        """See :func:`apsp.estimate_stats`."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError("estimate_stats: k and seed must be ints")
        result, prep, r = self._call("estimate", G, weight, reachable, device, options, extra={"sample": int(k), "seed": int(seed)})
        out = dict(result)
        aspl = dict(out.get("aspl") or {})
        for key in ("value", "ci95_low", "ci95_high"):
            if aspl.get(key) is None:
                # null: infinite when exact (not connected), else unknown
                aspl[key] = math.inf if not aspl.get("estimate", True) else math.nan
        out["aspl"] = aspl
        out["diameter_lower_bound"] = _inf(out.get("diameter_lower_bound"))
        return out

    def estimate_closeness(
        self, G: Any, k: int, seed: int = 1, distance: Any = _UNSET, wf_improved: bool = True, device: Any = _UNSET, **options: Any
    ) -> Dict[Hashable, Dict[str, Any]]:
        """See :func:`apsp.estimate_closeness`."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError("estimate_closeness: k and seed must be ints")
        w, _, _ = self._settings(distance, _UNSET, device, options)
        prep = prepare(G, w)
        if prep.n == 0:
            return {}
        extra = {"wf_improved": bool(wf_improved), "sample": int(k), "seed": int(seed)}
        result, prep, _ = self._call("closeness", G, distance, _UNSET, device, options, extra=extra, prep=prep)
        c = result.get("closeness")
        if not isinstance(c, list) or len(c) != prep.n:
            raise ApspError(f"the co-process answered closeness with {type(c).__name__} for {prep.n} vertices")
        out = {}
        for node, x in zip(prep.nodes, c):
            x = dict(x)
            for key in ("value", "ci95_low", "ci95_high"):
                if x.get(key) is None:
                    x[key] = math.nan  # unknown (one sampled node)
            out[node] = x
        return out

    def harmonic_centrality(
        self, G: Any, nbunch: Any = None, distance: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> Dict[Hashable, float]:
        """See :func:`apsp.harmonic_centrality`."""
        w, _, _ = self._settings(distance, _UNSET, device, options)
        prep = prepare(G, w)
        if prep.n == 0:
            return {}
        nodes: Sequence[Hashable] = prep.nodes
        extra = None
        if nbunch is not None:
            # NetworkX's nbunch: the nodes of G among those given, in G's
            # order; only they are searched from.
            keep = set(G.nbunch_iter(nbunch)) if hasattr(G, "nbunch_iter") else set(nbunch)
            nodes = [u for u in prep.nodes if u in keep]
            extra = {"sources": [prep.index_of(u) for u in nodes]}
        result, prep, _ = self._call("harmonic", G, distance, _UNSET, device, options, extra=extra, prep=prep)
        h = result.get("harmonic")
        if not isinstance(h, list) or len(h) != len(nodes):
            raise ApspError(f"the co-process answered harmonic with {type(h).__name__} for {len(nodes)} vertices")
        return dict(zip(nodes, (math.inf if x is None else float(x) for x in h)))

    def _fetch_matrix(
        self, G: Any, weight: Any, device: Any, options: Dict[str, Any], extra: Dict[str, Any], prep: Prepared, cells: int
    ) -> np.ndarray:
        """The ``.npy`` matrix a distances request answers (``extra``: its
        "sources" and "targets"), through a temporary file when its
        ``cells`` distances are many."""
        tmpdir = None
        extra = dict(extra)
        if cells * 8 > FILE_THRESHOLD:
            tmpdir = tempfile.mkdtemp(prefix="apsp-")
            extra["file"] = os.path.join(tmpdir, "distances.npy")
        try:
            result, prep, _ = self._call("distances", G, weight, False, device, options, extra, prep)
            if "file" in result:
                return np.load(result["file"], allow_pickle=False)
            if "npy_b64" in result:
                return _load_npy(base64.b64decode(result["npy_b64"]))
            raise ApspError(f"the co-process answered distances without a matrix: {sorted(result)}")
        finally:
            if tmpdir is not None:
                shutil.rmtree(tmpdir, ignore_errors=True)

    def distances(
        self,
        G: Any,
        weight: Any = _UNSET,
        dtype: Any = None,
        nodelist: Optional[Sequence[Hashable]] = None,
        device: Any = _UNSET,
        **options: Any,
    ) -> Tuple[np.ndarray, List[Hashable]]:
        """See :func:`apsp.distances`."""
        w, _, _ = self._settings(weight, False, device, options)
        prep = prepare(G, w)
        d = convert_distances(self._fetch_matrix(G, weight, device, options, {}, prep, prep.n * prep.n), dtype)
        nodes = list(prep.nodes)
        if nodelist is not None:
            idx = [prep.index_of(x) for x in nodelist]
            d = d[np.ix_(idx, idx)]
            nodes = list(nodelist)
        return d, nodes

    def distances_between(
        self,
        G: Any,
        sources: Optional[Sequence[Hashable]] = None,
        targets: Optional[Sequence[Hashable]] = None,
        weight: Any = _UNSET,
        dtype: Any = None,
        device: Any = _UNSET,
        **options: Any,
    ) -> Tuple[np.ndarray, List[Hashable], List[Hashable]]:
        """See :func:`apsp.distances_between`."""
        w, _, _ = self._settings(weight, False, device, options)
        prep = prepare(G, w)
        rows = list(prep.nodes) if sources is None else list(sources)
        cols = list(prep.nodes) if targets is None else list(targets)
        extra: Dict[str, Any] = {}
        if sources is not None:
            extra["sources"] = [prep.index_of(u) for u in rows]
        if targets is not None:
            extra["targets"] = [prep.index_of(v) for v in cols]
        d = self._fetch_matrix(G, weight, device, options, extra, prep, len(rows) * len(cols))
        return convert_distances(d, dtype), rows, cols

    def hop_plot(
        self,
        G: Any,
        weight: Any = _UNSET,
        device: Any = _UNSET,
        sources: Optional[Sequence[Hashable]] = None,
        targets: Optional[Sequence[Hashable]] = None,
        **options: Any,
    ) -> Dict[str, Any]:
        """See :func:`apsp.hop_plot`."""
        w, _, _ = self._settings(weight, False, device, options)
        prep = prepare(G, w)
        if prep.float_weights:
            raise GraphError("a hop plot needs integer distances: the graph has float weights (weight=None counts hops)")
        extra: Dict[str, Any] = {}
        if sources is not None:
            extra["sources"] = [prep.index_of(u) for u in sources]
        if targets is not None:
            extra["targets"] = [prep.index_of(v) for v in targets]
        result, _, _ = self._call("histogram", G, weight, False, device, options, extra=extra or None, prep=prep)
        return result

    def shortest_path(
        self, G: Any, source: Hashable, target: Hashable, weight: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> List[Hashable]:
        """See :func:`apsp.shortest_path`."""
        return self._path(G, source, target, weight, device, options)[0]

    def shortest_path_length(
        self, G: Any, source: Hashable, target: Hashable, weight: Any = _UNSET, device: Any = _UNSET, **options: Any
    ) -> Number:
        """See :func:`apsp.shortest_path_length`."""
        return self._path(G, source, target, weight, device, options)[1]

    def _path(
        self, G: Any, source: Hashable, target: Hashable, weight: Any, device: Any, options: Dict[str, Any]
    ) -> Tuple[List[Hashable], Number]:
        w, _, _ = self._settings(weight, False, device, options)
        prep = prepare(G, w)
        s, t = prep.index_of(source), prep.index_of(target)
        try:
            result, prep, _ = self._call("path", G, weight, False, device, options, {"source": s, "target": t}, prep)
        except NoPathError as e:
            if source != s or target != t or type(source) is not int or type(target) is not int:
                e.message = f"no path from {source!r} to {target!r} ({e.message})"
                e.args = (e.message,)
            e.source, e.target = source, target  # type: ignore[attr-defined]
            raise
        return prep.labels(result["vertices"]), result["length"]


def _decode_eccentricity(result: Dict[str, Any], prep: Prepared, v: Any, sourced: bool = False) -> Union[Number, Dict[Hashable, Number]]:
    """The answer of op eccentricity for every node, restricted to ``v``
    when given; with ``sourced`` the request carried ``v`` as "sources" and
    the answer holds theirs alone."""
    ecc = result.get("eccentricity")
    if not sourced and v is not None and prep.n > 0:
        if not isinstance(ecc, list) or len(ecc) != prep.n:
            raise ApspError(f"the co-process answered eccentricity with {type(ecc).__name__} for {prep.n} vertices")
        full = [math.inf if x is None else x for x in ecc]
        try:
            i: Optional[int] = prep.index_of(v)
        except NodeNotFoundError:
            i = None
        if i is not None:
            return full[i]
        return {x: full[prep.index_of(x)] for x in v}
    if v is not None and prep.n > 0:
        try:
            one = [v] if prep.index_of(v) is not None else []
        except NodeNotFoundError:
            one = []
        asked = one or list(v)
        if not isinstance(ecc, list) or len(ecc) != len(asked):
            raise ApspError(f"the co-process answered eccentricity with {type(ecc).__name__} for {len(asked)} sources")
        values = [math.inf if x is None else x for x in ecc]
        if one:
            return values[0]
        return dict(zip(asked, values))
    if not isinstance(ecc, list) or len(ecc) != prep.n:
        raise ApspError(f"the co-process answered eccentricity with {type(ecc).__name__} for {prep.n} vertices")
    values = [math.inf if x is None else x for x in ecc]
    return dict(zip(prep.nodes, values))


# ---------------------------------------------------------------------------
# The shared evaluator behind the module's functions.

_shared: Optional[Evaluator] = None
_shared_lock = threading.Lock()


def shared_evaluator() -> Evaluator:
    """The evaluator the module-level functions use (one co-process a
    Python process, started on first use, ended at exit)."""
    global _shared
    ev = _shared
    if ev is None or ev._cop.closed:
        with _shared_lock:
            if _shared is None or _shared._cop.closed:
                _shared = Evaluator()
            ev = _shared
    return ev


@atexit.register
def _close_shared() -> None:
    ev = _shared
    if ev is not None:
        try:
            ev.close()
        except Exception:
            pass


def version() -> str:
    """The version of the apsp binary the package runs (``apsp version``)."""
    return shared_evaluator().ping()


def stats(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> Dict[str, Any]:
    """Every summary measure of ``G`` at once (``apsp stats --json``).

    Args:
        G: a NetworkX or igraph graph, a scipy.sparse or 2-D numpy adjacency
            matrix, or ``(n, edges[, weights[, directed]])``; see
            :func:`apsp.prepare`.
        weight: ``None`` (the default, as in NetworkX): every edge has
            length 1; a string: the edge attribute holding lengths (missing
            means 1); a function ``weight(u, v, d)`` as NetworkX's.
        reachable: take the measures over the pairs that have a path, rather
            than infinite ones when some pair has none.
        device: ``"auto"``, ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.
        **options: ``algorithm`` (or ``algo``), ``threads``, ``lanes``;
            ``mode`` (``"out"``, ``"in"``, ``"all"``: on a digraph, the
            eccentricities the radius, center and periphery follow; "all"
            measures the graph with its directions dropped); ``effective``
            (a ratio in (0, 1], such as 0.9: adds ``effective_ratio``,
            ``effective_diameter`` and ``effective_diameter_interpolated``,
            SNAP's; exact distances only).

    Returns:
        A dict with ``vertices``, ``arcs``, ``edges``, ``directed``,
        ``weighted``, ``connected`` (strongly, for a digraph),
        ``reachable_only``, ``diameter``, ``radius``, ``aspl``,
        ``reachable_pairs``, ``center`` and ``periphery`` (lists of G's
        nodes), ``algorithm``, ``device``, ``lanes``, ``threads``,
        ``seconds``.  Infinite measures are ``math.inf`` and an ASPL over no
        pair (one vertex) is ``math.nan``.

    Raises:
        NegativeCycleError, GraphError, OptionsError, TooLargeError,
        WeightsTooLargeError, NoGPUError, CoprocessError (all ApspError).
    """
    return shared_evaluator().stats(G, weight, reachable, device, **options)


def summary(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> Dict[str, Any]:
    """Diameter and ASPL only: a dict with ``vertices``, ``connected``,
    ``diameter``, ``aspl``, ``reachable_pairs``, ``algorithm``, ``device``,
    ``seconds`` (cheaper than :func:`stats` on unweighted graphs: no
    per-vertex eccentricities).  Arguments as :func:`stats`."""
    return shared_evaluator().summary(G, weight, reachable, device, **options)


def extremes(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> Dict[str, Any]:
    """Diameter and radius without the ASPL (``apsp stats --no-aspl``): on
    unweighted graphs often a few breadth-first searches rather than all
    pairs.  The dict of :func:`stats` without ``aspl``, ``reachable_pairs``,
    ``center``, ``periphery``, with ``no_aspl: True``."""
    return shared_evaluator().extremes(G, weight, reachable, device, **options)


def diameter(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> Number:
    """The largest distance over ordered pairs ``u != v``.

    ``math.inf`` when some pair has no path (NetworkX raises instead),
    unless ``reachable=True``: then the largest finite distance.  0 for one
    vertex.  Arguments as :func:`stats`."""
    return shared_evaluator().diameter(G, weight, reachable, device, **options)


def radius(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> Number:
    """The smallest eccentricity; ``math.inf`` when no vertex reaches every
    other (and not ``reachable``).  Arguments as :func:`stats`."""
    return shared_evaluator().radius(G, weight, reachable, device, **options)


def average_shortest_path_length(
    G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any
) -> float:
    """The mean distance over ordered pairs ``u != v``.

    ``math.inf`` when some pair has no path (NetworkX raises instead);
    with ``reachable=True`` the mean over the pairs that have one.
    ``math.nan`` over no pair: one vertex (NetworkX answers 0 there), or no
    reachable pair.  Arguments as :func:`stats`."""
    return shared_evaluator().average_shortest_path_length(G, weight, reachable, device, **options)


aspl = average_shortest_path_length


def eccentricity(
    G: Any, v: Any = None, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any
) -> Union[Number, Dict[Hashable, Number]]:
    """The eccentricity of every node, ``{node: value}`` in G's node order.

    ``math.inf`` for a node that does not reach every other (NetworkX
    raises instead); with ``reachable=True`` the largest distance to the
    nodes it reaches (0 if none).  As in NetworkX, ``v`` (a node, or an
    iterable of nodes) restricts the answer: a single value, or a dict of
    those nodes.  Arguments as :func:`stats`."""
    return shared_evaluator().eccentricity(G, v, weight, reachable, device, **options)


def closeness_centrality(
    G: Any, u: Any = None, distance: Weight = None, wf_improved: bool = True, device: str = "auto", **options: Any
) -> Union[float, Dict[Hashable, float]]:
    """Closeness centrality of every node, ``{node: value}``, as NetworkX's
    ``closeness_centrality`` defines it, with its parameter names and
    defaults: for a node that r−1 others reach with distances summing to
    T > 0, (r−1)/T, times (r−1)/(n−1) when ``wf_improved`` (Wasserman and
    Faust's scaling); 0 when T is 0 (no other node reaches it, or only
    along zero-length edges); ``math.inf`` where T underflows; ``{}`` for a
    graph without nodes.  For a directed
    graph the distances are those *to* the node, as in NetworkX.
    ``distance`` names the edge attribute holding lengths (None:
    unweighted, NetworkX's default); lengths must be non-negative.  ``u``
    (a node) returns that node's value alone.  Other arguments as
    :func:`stats`."""
    return shared_evaluator().closeness_centrality(G, u, distance, wf_improved, device, **options)


def estimate_stats(
    G: Any, k: int, seed: int = 1, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any
) -> Dict[str, Any]:
    """Estimates from ``k`` sources drawn at random with ``seed`` (every node
    when ``k`` ≥ n), never exact unless marked so: ``aspl`` is
    ``{"value", "ci95_low", "ci95_high", "estimate"}``, the ASPL over the
    pairs with a path as a ratio estimate with a 95 % confidence interval
    (``estimate`` False: exactly ``math.inf``, on a graph that is not
    connected without ``reachable``); ``diameter_lower_bound`` is the largest
    eccentricity of a sampled node.  ``connected`` is exact.  Other
    arguments as :func:`stats` (``mode`` too)."""
    return shared_evaluator().estimate_stats(G, k, seed, weight, reachable, device, **options)


def estimate_closeness(
    G: Any, k: int, seed: int = 1, distance: Weight = None, wf_improved: bool = True, device: str = "auto", **options: Any
) -> Dict[Hashable, Dict[str, Any]]:
    """Every node's closeness centrality (:func:`closeness_centrality`'s
    definition, ``mode`` too) estimated from ``k`` nodes drawn at random
    with ``seed``: ``{node: {"value", "ci95_low", "ci95_high", "estimate":
    True}}``, a 95 % confidence interval each (``nan`` where unknown: a
    node no sampled node reaches has value 0 in ``[0, nan]``); every node
    sampled gives the exact values."""
    return shared_evaluator().estimate_closeness(G, k, seed, distance, wf_improved, device, **options)


def harmonic_centrality(
    G: Any, nbunch: Any = None, distance: Weight = None, device: str = "auto", *, weight: Weight = None, **options: Any
) -> Dict[Hashable, float]:
    """Harmonic centrality of every node, ``{node: value}``, as NetworkX's
    ``harmonic_centrality`` defines it (not normalised): for a node v, the
    sum of 1/d(u, v) over the other nodes u with a path to v of length
    d > 0 (a zero-length path adds nothing); 0 for a node no other reaches;
    ``{}`` for a graph without nodes.  For a directed graph the distances
    are those *to* the node, as in NetworkX; ``mode="out"`` takes those from
    it and ``mode="all"`` those of the graph with its directions dropped
    (igraph's ``mode``; igraph's ``harmonic_centrality`` divides by n − 1
    unless ``normalized=False``).  ``distance`` (or ``weight``) names the
    edge attribute holding lengths (None: unweighted); lengths must be
    non-negative.  ``nbunch`` restricts the answer to those nodes.  Other
    arguments as :func:`stats`."""
    if distance is not None and weight is not None and distance != weight:
        raise TypeError("harmonic_centrality: give distance or weight, not both")
    return shared_evaluator().harmonic_centrality(G, nbunch, distance if distance is not None else weight, device, **options)


def center(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> List[Hashable]:
    """The nodes whose eccentricity is the radius, in G's node order (empty
    when the radius is infinite).  Float eccentricities count as equal
    within a relative 1e-9.  Arguments as :func:`stats`."""
    return shared_evaluator().center(G, weight, reachable, device, **options)


def periphery(G: Any, weight: Weight = None, reachable: bool = False, device: str = "auto", **options: Any) -> List[Hashable]:
    """The nodes whose eccentricity is the diameter, in G's node order.
    Arguments as :func:`stats`."""
    return shared_evaluator().periphery(G, weight, reachable, device, **options)


def distances(
    G: Any,
    weight: Weight = None,
    dtype: Any = None,
    nodelist: Optional[Sequence[Hashable]] = None,
    device: str = "auto",
    **options: Any,
) -> Tuple[np.ndarray, List[Hashable]]:
    """The distance matrix and its node order, ``(D, nodes)``:
    ``D[i, j]`` is the distance from ``nodes[i]`` to ``nodes[j]``.

    Args:
        dtype: ``None`` (float64, as ``networkx.floyd_warshall_numpy``):
            ``inf`` where there is no path.  Any float dtype likewise
            (float32 refused when an integer distance exceeds 2**24).  An
            integer dtype (``np.int32``, ``np.int64``, ...; integer or
            unweighted graphs only) keeps apsp's sentinel: **no path is the
            dtype's maximum value** (``np.iinfo(dtype).max``), which sorts
            after every distance; refused (``OverflowError``) when a
            distance does not fit below it.
        nodelist: the nodes, in order, for the rows and columns (default:
            G's node order; for igraph, matrices and tuples ``0..n-1``).
        weight, device, **options: as :func:`stats`.

    Unlike NetworkX's ``floyd_warshall_numpy`` the default ``weight`` is
    ``None`` (unweighted), as everywhere in this package.  Large matrices
    come back through a temporary ``.npy`` file rather than the pipe."""
    return shared_evaluator().distances(G, weight, dtype, nodelist, device, **options)


def distances_between(
    G: Any,
    sources: Optional[Sequence[Hashable]] = None,
    targets: Optional[Sequence[Hashable]] = None,
    weight: Weight = None,
    dtype: Any = None,
    device: str = "auto",
    **options: Any,
) -> Tuple[np.ndarray, List[Hashable], List[Hashable]]:
    """An origin–destination matrix, ``(D, sources, targets)``: ``D[i, j]``
    is the distance from ``sources[i]`` to ``targets[j]`` (``inf``, or the
    integer dtype's maximum, where there is no path), as scipy's
    ``shortest_path(indices=...)`` gives rows and igraph's
    ``distances(source=, target=)`` both.

    Args:
        sources, targets: nodes of G, in order, repeats allowed; ``None``
            (the default) means every node in G's order.  apsp searches
            from each node of the shorter list (from the targets, along
            reversed arcs, when they are fewer), in memory for that many
            rows, not n².
        dtype: as :func:`distances`.
        weight, device, **options: as :func:`stats`; ``mode="in"`` gives
            the distances from each target to each source, ``"all"`` those
            of G with its directions dropped.

    Raises:
        NodeNotFoundError: when a listed node is not in G."""
    return shared_evaluator().distances_between(G, sources, targets, weight, dtype, device, **options)


def hop_plot(
    G: Any,
    weight: Weight = None,
    device: str = "auto",
    sources: Optional[Sequence[Hashable]] = None,
    targets: Optional[Sequence[Hashable]] = None,
    **options: Any,
) -> Dict[str, Any]:
    """The distribution of shortest-path lengths (``apsp hist --json``):
    ``{"count": [...], "unreachable": u, "algorithm": name}`` where
    ``count[d]`` is the number of ordered pairs ``u != v`` at distance
    ``d`` and ``unreachable`` the number without a path.  Needs integer
    distances (unweighted or integer-weighted graphs; a float-weighted
    graph raises :class:`GraphError`).  ``sources`` and ``targets`` (nodes,
    ``None`` for every node) count only the pairs from the one to the other
    (a node on both lists is not paired with itself)."""
    return shared_evaluator().hop_plot(G, weight, device, sources, targets, **options)


def shortest_path(
    G: Any, source: Hashable, target: Hashable, weight: Weight = None, device: str = "auto", **options: Any
) -> List[Hashable]:
    """One shortest path from ``source`` to ``target``, as a list of nodes.

    Raises:
        NoPathError: when there is none (also a ``networkx.NetworkXNoPath``
            when NetworkX is installed, as ``networkx.shortest_path`` raises).
        NodeNotFoundError: when source or target is not in G.
        NegativeCycleError: when a negative cycle makes lengths unbounded."""
    return shared_evaluator().shortest_path(G, source, target, weight, device, **options)


def shortest_path_length(
    G: Any, source: Hashable, target: Hashable, weight: Weight = None, device: str = "auto", **options: Any
) -> Number:
    """The distance from ``source`` to ``target``; raises as
    :func:`shortest_path`."""
    return shared_evaluator().shortest_path_length(G, source, target, weight, device, **options)
