"""A client of ``apsp serve --http``: the functions of the package, computed
by a service rather than a local co-process."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ._api import Evaluator, _load_npy
from ._convert import Prepared, Weight
from ._coprocess import encode
from ._errors import ApspError, error_from_response

#: How many times a request answered 503 (the service's queue is full) is
#: sent again, after the ``Retry-After`` the service names.
RETRIES = 3


class _HTTPTransport:
    """Sends one request to ``POST {url}/v1/{op}`` and returns its answer as
    the co-process's response dict (``{"id", "result"}`` or ``{"id",
    "error", "kind"}``); the stand-in for :class:`Coprocess` under
    :class:`Client`."""

    def __init__(self, url: str, token: Optional[str], timeout: Optional[float]) -> None:
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"url must be http://HOST:PORT or https://HOST:PORT, not {url!r}")
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.closed = False
        self.pid: Optional[int] = None
        self.binary: Optional[str] = None

    def close(self) -> None:
        self.closed = True

    def _send(self, op: str, body: bytes, accept: str = "application/json") -> Tuple[int, str, bytes]:
        if self.closed:
            raise ApspError("the apsp client was closed")
        headers = {"Content-Type": "application/json", "Accept": accept}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        for attempt in range(RETRIES + 1):
            req = urllib.request.Request(f"{self.url}/v1/{op}", data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return resp.status, resp.headers.get("Content-Type", ""), resp.read()
            except urllib.error.HTTPError as e:
                data = e.read()
                if e.code == 503 and attempt < RETRIES:
                    try:
                        wait = float(e.headers.get("Retry-After", "1"))
                    except ValueError:
                        wait = 1.0
                    time.sleep(min(max(wait, 0.05), 5.0))
                    continue
                return e.code, e.headers.get("Content-Type", ""), data
            except urllib.error.URLError as e:
                raise ApspError(f"apsp service {self.url}: {e.reason}") from e
        raise AssertionError("unreachable")

    @staticmethod
    def _decode(status: int, ctype: str, data: bytes) -> Dict[str, Any]:
        if ctype.startswith("application/json"):
            try:
                out = json.loads(data)
            except ValueError as e:
                raise ApspError(f"the apsp service answered {status} with bad JSON: {data[:200]!r}") from e
            if isinstance(out, dict):
                return out
        raise ApspError(f"the apsp service answered {status}: {data[:200]!r}")

    def request(self, payload: Dict[str, Any], fragment: Optional[bytes] = None) -> Dict[str, Any]:
        """The answer to one request (``payload`` with its ``op``, and the
        graph's fields already encoded as ``fragment``)."""
        op = str(payload.get("op", ""))
        return self._decode(*self._send(op, encode(payload, fragment)))

    def request_npy(self, payload: Dict[str, Any], fragment: Optional[bytes] = None) -> Tuple[Optional[bytes], Dict[str, Any]]:
        """A distances request answered as a ``.npy`` file's bytes, or
        ``(None, error response)``."""
        status, ctype, data = self._send("distances", encode(payload, fragment), accept="application/x-npy")
        if status == 200 and ctype.startswith("application/x-npy"):
            return data, {}
        return None, self._decode(status, ctype, data)


class Client(Evaluator):
    """The package's functions answered by an ``apsp serve --http`` service::

        c = apsp.Client("http://127.0.0.1:8080", token=None, timeout=60)
        c.summary(G)          # {"diameter": ..., "aspl": ..., ...}
        c.eccentricity(G)     # {node: value}, keyed by G's labels
        D, nodes = c.distances(G)

    It has the methods of :class:`Evaluator` (``stats``, ``summary``,
    ``extremes``, ``diameter``, ``radius``, ``average_shortest_path_length``,
    ``center``, ``periphery``, ``eccentricity``, ``closeness_centrality``,
    ``distances``, ``distances_between``, ``hop_plot``, ``shortest_path``,
    ``shortest_path_length``,
    ``ping``), converting G as the local functions do and keying results by
    G's labels.  Requests go over HTTP with the standard library (urllib),
    one at a time per call; a client is safe to share between threads,
    which the service then batches.

    Args:
        url: the service's base URL, ``http://HOST:PORT`` (as ``apsp serve
            --http`` prints it) or ``https://...``.
        token: the bearer token of a service started with ``--token-file``.
        timeout: seconds to wait for an answer (``None``: no limit).
        weight, reachable, device, **options: defaults of every call, as
            :class:`Evaluator`'s.

    Errors are those of the local functions (:class:`apsp.GraphError`,
    :class:`apsp.TooLargeError`, ...); the service's own refusals
    (``kind`` ``unauthorized``, ``busy``, ``timeout``) are :class:`ApspError`
    with that ``kind``.  A 503 (queue full) is retried a few times after the
    service's ``Retry-After``.
    """

    def __init__(
        self,
        url: str,
        token: Optional[str] = None,
        timeout: Optional[float] = 300.0,
        weight: Weight = None,
        reachable: bool = False,
        device: str = "auto",
        **options: Any,
    ) -> None:
        super().__init__(weight=weight, reachable=reachable, device=device, **options)
        self._cop = _HTTPTransport(url, token, timeout)  # type: ignore[assignment]

    @property
    def url(self) -> str:
        """The service's base URL."""
        return self._cop.url  # type: ignore[attr-defined,no-any-return]

    def __repr__(self) -> str:
        return f"apsp.Client({self.url!r})"

    def _fetch_matrix(
        self, G: Any, weight: Any, device: Any, options: Dict[str, Any], extra: Dict[str, Any], prep: Prepared, cells: int
    ) -> np.ndarray:
        """The matrix of a distances request, as the service sends it: the
        ``.npy`` itself (``Accept: application/x-npy``)."""
        _, _, opts = self._settings(weight, False, device, options)
        payload: Dict[str, Any] = {"op": "distances", **extra}
        if opts:
            payload["options"] = opts
        data, err = self._cop.request_npy(payload, prep.json_fields)  # type: ignore[attr-defined]
        if data is None:
            raise error_from_response(err, prep.nodes)
        return _load_npy(data)
