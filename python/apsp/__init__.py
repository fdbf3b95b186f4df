"""apsp: all-pairs shortest paths and what derives from them (diameter, ASPL,
eccentricity, radius, center, periphery, distance matrices, hop plots,
shortest paths), computed by the apsp binary in a long-lived co-process.

The functions follow NetworkX's names and defaults (``weight=None`` is
unweighted; results keyed by the graph's own node labels; ``inf`` where there
is no path)::

    import networkx as nx
    import apsp

    G = nx.karate_club_graph()
    apsp.diameter(G)                      # 5
    apsp.average_shortest_path_length(G)  # 2.408...
    apsp.stats(G)                         # every measure at once

Graphs may be NetworkX or igraph graphs, scipy.sparse or numpy adjacency
matrices, or ``(n, edges[, weights[, directed]])`` tuples (see
:func:`prepare`).  :class:`Evaluator` keeps a co-process of its own and
:func:`bulk` pipelines many graphs through one; :class:`Client` asks an
``apsp serve --http`` service instead.  Errors are
:class:`ApspError` subclasses.
"""

from ._api import (
    Evaluator,
    aspl,
    average_shortest_path_length,
    center,
    convert_distances,
    diameter,
    distances,
    distances_between,
    closeness_centrality,
    estimate_closeness,
    estimate_stats,
    harmonic_centrality,
    eccentricity,
    extremes,
    hop_plot,
    periphery,
    radius,
    shortest_path,
    shortest_path_length,
    stats,
    summary,
    version,
)
from ._binary import find_binary as binary
from ._golf import golf_bound, golf_eval, golf_search
from ._bulk import Bulk, bulk
from ._client import Client
from ._convert import EdgeArrays, Prepared, prepare
from ._handles import Handle
from ._errors import (
    ApspError,
    BinaryNotFoundError,
    ComputationError,
    CoprocessError,
    GraphError,
    HandleError,
    InternalError,
    NegativeCycleError,
    NodeNotFoundError,
    NoGPUError,
    NoPathError,
    OptionsError,
    RequestError,
    TooLargeError,
    WeightsTooLargeError,
)

__version__ = "0.1.0"

__all__ = [
    "ApspError",
    "BinaryNotFoundError",
    "Bulk",
    "Client",
    "ComputationError",
    "CoprocessError",
    "EdgeArrays",
    "Evaluator",
    "GraphError",
    "Handle",
    "HandleError",
    "InternalError",
    "NegativeCycleError",
    "NoGPUError",
    "NoPathError",
    "NodeNotFoundError",
    "OptionsError",
    "Prepared",
    "RequestError",
    "TooLargeError",
    "WeightsTooLargeError",
    "aspl",
    "average_shortest_path_length",
    "binary",
    "bulk",
    "center",
    "convert_distances",
    "diameter",
    "distances",
    "distances_between",
    "eccentricity",
    "closeness_centrality",
    "estimate_closeness",
    "estimate_stats",
    "harmonic_centrality",
    "extremes",
    "golf_bound",
    "golf_eval",
    "golf_search",
    "hop_plot",
    "periphery",
    "prepare",
    "radius",
    "shortest_path",
    "shortest_path_length",
    "stats",
    "summary",
    "version",
]
