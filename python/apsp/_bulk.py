"""Many graphs through one co-process, pipelined: requests are written ahead
by a thread while the answers are read, in input order."""

from __future__ import annotations

import base64
import collections
import threading
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional

from ._api import _decode_eccentricity, _decode_measures, _load_npy, _options, convert_distances
from ._convert import Prepared, Weight, prepare
from ._coprocess import Coprocess, encode
from ._errors import ApspError, CoprocessError, error_from_response

#: The operations :func:`bulk` runs: Python's name -> the protocol's op.
OPS = {
    "stats": "stats",
    "summary": "summary",
    "extremes": "extremes",
    "eccentricity": "eccentricity",
    "hop_plot": "histogram",
    "histogram": "histogram",
    "distances": "distances",
}


class _Entry:
    __slots__ = ("rid", "line", "prep", "error", "fatal", "end")

    def __init__(
        self,
        rid: int = 0,
        line: Optional[bytes] = None,
        prep: Optional[Prepared] = None,
        error: Optional[BaseException] = None,
        fatal: bool = False,
        end: bool = False,
    ) -> None:
        self.rid = rid
        self.line = line
        self.prep = prep
        self.error = error
        self.fatal = fatal
        self.end = end


class Bulk(Iterator[Any]):
    """The iterator :func:`bulk` returns; also a context manager whose exit
    (or :meth:`close`) ends its co-process."""

    def __init__(
        self,
        graphs: Iterable[Any],
        op: str = "stats",
        weight: Weight = None,
        reachable: bool = False,
        device: str = "auto",
        binary: Optional[str] = None,
        max_in_flight: int = 32,
        return_exceptions: bool = False,
        dtype: Any = None,
        **options: Any,
    ) -> None:
        if op not in OPS:
            raise ValueError(f"unknown op {op!r}: bulk runs {', '.join(OPS)}")
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        self._op = OPS[op]
        self._opts = _options(reachable, device, options)
        self._weight = weight
        self._reachable = reachable
        self._dtype = dtype
        self._max = int(max_in_flight)
        self._return_exceptions = return_exceptions
        self._it = iter(graphs)
        self._cop = Coprocess(binary)
        self._cond = threading.Condition()
        self._pending: Deque[_Entry] = collections.deque()
        self._stop = False
        self._writer: Optional[threading.Thread] = None
        self._proc: Any = None
        self._finished = False
        self.restarts = 0

    # -- writing ----------------------------------------------------------------

    def _payload(self, G: Any) -> _Entry:
        prep = prepare(G, self._weight)
        payload: Dict[str, Any] = {"id": self._cop.new_id(), "op": self._op}
        if self._opts:
            payload["options"] = self._opts
        return _Entry(payload["id"], encode(payload, prep.json_fields), prep)

    def _write_loop(self, proc: Any, resend: List[bytes]) -> None:
        stdin = proc.stdin
        try:
            for line in resend:
                stdin.write(line)
            stdin.flush()
            while True:
                with self._cond:
                    while not self._stop and len(self._pending) >= self._max:
                        self._cond.wait()
                    if self._stop:
                        return
                try:
                    G = next(self._it)
                except StopIteration:
                    entry = _Entry(end=True)
                except BaseException as e:  # the iterable failed: the bulk ends there
                    entry = _Entry(error=e, fatal=True)
                else:
                    try:
                        entry = self._payload(G)
                    except Exception as e:  # this graph cannot be sent: its place fails
                        entry = _Entry(error=e)
                with self._cond:
                    self._pending.append(entry)
                    self._cond.notify_all()
                    if entry.end or entry.fatal or self._stop:
                        return
                if entry.line is not None:
                    stdin.write(entry.line)
                    stdin.flush()
        except (OSError, ValueError):
            return  # the process died or was closed; the reader sees it

    def _start_writer(self, resend: List[bytes]) -> None:
        self._proc = self._cop.ensure()
        self._stop = False
        t = threading.Thread(target=self._write_loop, args=(self._proc, resend), name="apsp-bulk-writer", daemon=True)
        self._writer = t
        t.start()

    def _stop_writer(self, timeout: Optional[float] = None) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        t = self._writer
        if t is not None and t is not threading.current_thread():
            t.join(timeout=timeout)
        self._writer = None

    # -- reading ----------------------------------------------------------------

    def __iter__(self) -> "Bulk":
        return self

    def _fail(self, exc: BaseException) -> Any:
        if self._return_exceptions and isinstance(exc, Exception):
            return exc
        raise exc

    def _decode(self, result: Dict[str, Any], prep: Prepared) -> Any:
        op = self._op
        if op in ("stats", "summary", "extremes"):
            return _decode_measures(result, prep, self._reachable)
        if op == "eccentricity":
            return _decode_eccentricity(result, prep, None)
        if op == "distances":
            if "npy_b64" not in result:
                raise ApspError(f"the co-process answered distances without a matrix: {sorted(result)}")
            d = _load_npy(base64.b64decode(result["npy_b64"]))
            return convert_distances(d, self._dtype), list(prep.nodes)
        return result

    def __next__(self) -> Any:
        if self._finished:
            raise StopIteration
        if self._writer is None:
            self._start_writer([])
        with self._cond:
            while not self._pending:
                self._cond.wait()
            entry = self._pending[0]
        if entry.end:
            self.close()
            raise StopIteration
        if entry.fatal:
            self.close()
            assert entry.error is not None
            raise entry.error
        if entry.line is None:
            self._pop()
            assert entry.error is not None
            return self._fail(entry.error)
        proc = self._proc
        try:
            out = proc.stdout.readline()
        except (OSError, ValueError):
            out = b""
        except BaseException:
            self.close()
            raise
        if not out:
            return self._fail(self._restart(proc))
        try:
            resp = self._cop.decode(out, entry.rid, proc)
        except CoprocessError:
            self.close()
            raise
        self._pop()
        if "error" in resp:
            return self._fail(error_from_response(resp, entry.prep.nodes if entry.prep is not None else None))
        assert entry.prep is not None
        return self._decode(resp["result"], entry.prep)

    def _pop(self) -> None:
        with self._cond:
            self._pending.popleft()
            self._cond.notify_all()

    def _restart(self, proc: Any) -> CoprocessError:
        """The process died computing the head request: that request fails,
        the others in flight are written again to a new process."""
        err = self._cop.died(proc)  # kills it: a write in progress fails
        self._stop_writer()  # no timeout: two writers must never run at once
        with self._cond:
            self._pending.popleft()
            resend = [e.line for e in self._pending if e.line is not None]
        self.restarts += 1
        self._start_writer(resend)
        return err

    # -- closing ------------------------------------------------------------------

    def close(self) -> None:
        """Stop writing, end the co-process (killed if it is still computing
        requests whose answers were not read) and stop the iteration."""
        if self._finished and self._writer is None:
            self._cop.close()
            return
        self._finished = True
        busy = any(e.line is not None for e in self._pending)
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if busy:
            self._cop.abandon()
        self._cop.close()
        self._stop_writer(timeout=5.0)

    def __enter__(self) -> "Bulk":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def bulk(
    graphs: Iterable[Any],
    op: str = "stats",
    weight: Weight = None,
    reachable: bool = False,
    device: str = "auto",
    *,
    max_in_flight: int = 32,
    return_exceptions: bool = False,
    binary: Optional[str] = None,
    dtype: Any = None,
    **options: Any,
) -> Bulk:
    """Compute ``op`` for every graph of ``graphs``, yielding the results in
    input order as they come.

    A thread converts the graphs and writes them to a co-process of their
    own, up to ``max_in_flight`` ahead of the result being read, so that
    Python's conversion, the pipe and apsp's computation overlap.  Use it as
    a context manager (or call ``close()``) to end the co-process early::

        with apsp.bulk(graphs, op="summary") as results:
            for G, s in zip(graphs, results):
                ...

    Args:
        graphs: any iterable of graphs :func:`apsp.prepare` reads.  It is
            consumed from the writing thread, ahead of the results: a
            generator that mutates one graph in place between yields
            still works (each graph is converted when it is taken).
        op: ``"stats"`` (default), ``"summary"``, ``"extremes"``,
            ``"eccentricity"``, ``"hop_plot"`` or ``"distances"``; each result
            is what the function of that name returns.
        weight, reachable, device, **options: as :func:`apsp.stats`.
        max_in_flight: how many requests may wait for their answers.
        return_exceptions: yield a graph's exception (an :class:`ApspError`,
            or the conversion's error) in its place instead of raising it; the
            iteration goes on either way after a graph's failure.
        dtype: the dtype of ``"distances"`` matrices (as
            :func:`apsp.distances`).

    If the co-process dies, the graph it was computing fails with
    :class:`CoprocessError`, a new one starts (with a ``RuntimeWarning``)
    and the graphs in flight are sent again.
    """
    return Bulk(
        graphs,
        op,
        weight,
        reachable,
        device,
        binary=binary,
        max_in_flight=max_in_flight,
        return_exceptions=return_exceptions,
        dtype=dtype,
        **options,
    )
