"""The exceptions apsp raises, one class for each ``kind`` the co-process answers.

Every exception derives from :class:`ApspError` and also from the standard
exception a Python programmer would catch for the same failure
(``ValueError`` for bad options and graphs, ``MemoryError`` for graphs too
large for the memory, ``OverflowError`` for weights too large, ...).  When
NetworkX is installed, :class:`NoPathError` is also a
``networkx.NetworkXNoPath`` and :class:`NegativeCycleError` a
``networkx.NetworkXUnbounded``, so code written for NetworkX catches them
unchanged.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Type

try:  # NetworkX is optional; its exceptions become extra base classes.
    import networkx as _nx

    _NX_NO_PATH: Tuple[type, ...] = (_nx.NetworkXNoPath,)
    _NX_UNBOUNDED: Tuple[type, ...] = (_nx.NetworkXUnbounded,)
    _NX_NODE_NOT_FOUND: Tuple[type, ...] = (_nx.NodeNotFound,)
except ImportError:  # pragma: no cover - exercised only without NetworkX
    _NX_NO_PATH = ()
    _NX_UNBOUNDED = ()
    _NX_NODE_NOT_FOUND = ()


class ApspError(Exception):
    """Base class of every error apsp raises.

    Attributes:
        message: apsp's message (the co-process's text, or the package's own).
        kind: the co-process's error kind (``"graph"``, ``"options"``, ...),
            or ``None`` for errors raised by the package itself.
    """

    kind_name: Optional[str] = None

    def __init__(self, message: str, kind: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind if kind is not None else self.kind_name

    def __str__(self) -> str:
        return self.message


class RequestError(ApspError, ValueError):
    """The co-process refused a request as malformed (an unknown field or
    operation).  With this package's own requests it means the binary and
    the package disagree on the protocol (an older binary, for instance)."""

    kind_name = "request"


class OptionsError(ApspError, ValueError):
    """Invalid options: an unknown algorithm, lanes or device, a bad thread
    count, or an algorithm that cannot compute this graph or measure."""

    kind_name = "options"


class GraphError(ApspError, ValueError):
    """A graph apsp cannot read: no vertices, a vertex out of range, a weight
    that is not a finite number, a measure the graph's weights do not allow
    (the hop plot of a float-weighted graph), ..."""

    kind_name = "graph"


class NodeNotFoundError(GraphError, LookupError, *_NX_NODE_NOT_FOUND):  # type: ignore[misc]
    """A node asked for (a path's source or target, an eccentricity's
    vertex) is not in the graph.  Also a ``networkx.NodeNotFound`` when
    NetworkX is installed."""


class NegativeCycleError(ApspError, ValueError, *_NX_UNBOUNDED):  # type: ignore[misc]
    """The graph has a cycle of negative length, so shortest paths are not
    defined.  ``vertex`` is one vertex on such a cycle, in the graph's own
    labels (``index`` is its position in the node list).  Also a
    ``networkx.NetworkXUnbounded`` when NetworkX is installed, as NetworkX's
    Bellman–Ford and Johnson raise."""

    kind_name = "negative_cycle"

    def __init__(
        self,
        message: str,
        kind: Optional[str] = None,
        vertex: Any = None,
        index: Optional[int] = None,
    ) -> None:
        super().__init__(message, kind)
        self.vertex = vertex
        self.index = index


class WeightsTooLargeError(ApspError, OverflowError):
    """Path lengths could overflow the arithmetic (int64, or float64 sums),
    or the weights do not fit the lanes asked for.  Scale the weights down
    or let apsp choose the lanes."""

    kind_name = "weights_too_large"


class TooLargeError(ApspError, MemoryError):
    """The computation needs more memory than the co-process may take; the
    message names both figures.  Refused before anything is allocated."""

    kind_name = "too_large"


class NoGPUError(ApspError, RuntimeError):
    """A GPU was asked for (``device="gpu"`` or ``"gpu:N"``) and none is
    usable; the message says why."""

    kind_name = "no_gpu"


class NoPathError(ApspError, LookupError, *_NX_NO_PATH):  # type: ignore[misc]
    """No path joins the source to the target.  Also a
    ``networkx.NetworkXNoPath`` when NetworkX is installed, which is what
    ``networkx.shortest_path`` raises."""

    kind_name = "no_path"


class HandleError(ApspError, LookupError):
    """A held graph (:class:`apsp.Handle`) that was dropped, or that the
    co-process does not hold (kind ``"unknown_handle"``)."""

    kind_name = "unknown_handle"


class InternalError(ApspError, RuntimeError):
    """apsp failed in a way that is its own bug; please report the message."""

    kind_name = "internal"


class ComputationError(ApspError, RuntimeError):
    """The computation failed for a reason none of the other kinds names
    (the co-process's kind ``"failed"``); the message says why."""

    kind_name = "failed"


class CoprocessError(ApspError, RuntimeError):
    """The co-process could not be started, died while it computed a
    request, or answered something that is not the protocol.  The message
    carries its exit status and the end of what it wrote on stderr.  After
    a death the next request starts a new co-process (with a
    ``RuntimeWarning`` saying so)."""


class BinaryNotFoundError(CoprocessError, FileNotFoundError):
    """No apsp binary was found: not beside the package (``apsp/bin/apsp``),
    not at ``$APSP_BIN``, not on ``PATH``."""


_BY_KIND: Dict[str, Type[ApspError]] = {
    cls.kind_name: cls
    for cls in (
        RequestError,
        OptionsError,
        GraphError,
        NegativeCycleError,
        WeightsTooLargeError,
        TooLargeError,
        NoGPUError,
        NoPathError,
        HandleError,
        InternalError,
        ComputationError,
    )
    if cls.kind_name is not None
}


def error_from_response(response: Dict[str, Any], nodes: Optional[Any] = None) -> ApspError:
    """Build the exception for an error response ``{"error", "kind", ...}``.

    ``nodes`` (the request's node list) turns a negative cycle's vertex
    index into the graph's own label.
    """
    message = str(response.get("error", "unknown error"))
    kind = response.get("kind")
    cls = _BY_KIND.get(kind or "", ApspError)
    if cls is NegativeCycleError:
        index = response.get("vertex")
        vertex = index
        if isinstance(index, int) and nodes is not None and 0 <= index < len(nodes):
            vertex = nodes[index]
            if vertex != index or type(vertex) is not int:
                message = f"{message} (vertex {index} is {vertex!r} in the graph)"
        return NegativeCycleError(message, kind, vertex=vertex, index=index)
    return cls(message, kind)
