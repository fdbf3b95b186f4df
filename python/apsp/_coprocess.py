"""One long-lived ``apsp serve --stdio`` process and the JSON Lines it speaks."""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import threading
import warnings
from typing import IO, Any, Deque, Dict, List, Optional

from ._binary import find_binary
from ._errors import CoprocessError

#: How long :meth:`Coprocess.close` waits for the process to end after its
#: input is closed, before killing it.
CLOSE_WAIT_S = 2.0

_STDERR_LINES = 40


def _describe_status(rc: Optional[int]) -> str:
    if rc is None:
        return "is still running"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        return f"was killed by {name}"
    return f"exited with status {rc}"


def encode(payload: Dict[str, Any], fragment: Optional[bytes] = None) -> bytes:
    """One request line: ``payload``'s fields, then ``fragment`` (more
    fields already encoded as JSON, without braces: a graph's, encoded once)."""
    head = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")
    if fragment:
        return b"".join((head[:-1], b",", fragment, b"}\n"))
    return head + b"\n"


class Coprocess:
    """An ``apsp serve --stdio`` child process, started on first use.

    Requests go one line at a time on its stdin and answers come back one
    line each on its stdout, in order.  Its stderr is read by a thread into
    a short tail that death messages quote.  If the process dies, the
    request being computed fails with :class:`CoprocessError` and the next
    one starts a new process, with a ``RuntimeWarning`` saying so.  Safe to
    share between threads (one request at a time) and across ``fork`` (the
    child starts its own process).
    """

    def __init__(self, binary: Optional[str] = None, args: Optional[List[str]] = None) -> None:
        self._binary_arg = binary
        self._args = list(args) if args is not None else ["serve", "--stdio"]
        self._lock = threading.Lock()
        self._proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]
        self._stderr: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_thread: Optional[threading.Thread] = None
        self._owner = os.getpid()
        self._death: Optional[str] = None  # a death not yet reported by a warning
        self._next_id = 0
        self._closed = False
        self.binary: Optional[str] = None
        self.starts = 0

    # -- life cycle ---------------------------------------------------------

    @property
    def pid(self) -> Optional[int]:
        """The running process's id, or ``None`` before the first request."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def _read_stderr(self, stream: IO[bytes], tail: Deque[str]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                tail.append(raw.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    def _spawn(self) -> subprocess.Popen:  # type: ignore[type-arg]
        binary = find_binary(self._binary_arg)
        self.binary = binary
        tail: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        try:
            proc = subprocess.Popen(
                [binary, *self._args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                # Its own session: a Ctrl-C in the terminal interrupts Python,
                # which then stops the co-process itself (see request()).
                start_new_session=True,
            )
        except OSError as e:
            raise CoprocessError(f"cannot start the apsp co-process {binary!r}: {e}") from e
        self._stderr = tail
        t = threading.Thread(target=self._read_stderr, args=(proc.stderr, tail), name="apsp-stderr", daemon=True)
        t.start()
        self._stderr_thread = t
        self.starts += 1
        return proc

    def ensure(self) -> subprocess.Popen:  # type: ignore[type-arg]
        """The running process, started (or restarted) if needed.  Call with
        the lock held."""
        if self._closed:
            raise CoprocessError("the apsp co-process was closed")
        if os.getpid() != self._owner:
            # A forked child: the process belongs to the parent; leave it.
            self._owner = os.getpid()
            self._proc = None
            self._death = None
        proc = self._proc
        if proc is not None and proc.poll() is not None:
            self._death = self._death_text(proc, "while idle")
            self._proc = proc = None
        if proc is None:
            proc = self._spawn()
            self._proc = proc
            if self._death is not None:
                warnings.warn(
                    f"apsp: the co-process {self._death}; started a new one (pid {proc.pid})",
                    RuntimeWarning,
                    stacklevel=4,
                )
                self._death = None
        return proc

    def _death_text(self, proc: subprocess.Popen, when: str) -> str:  # type: ignore[type-arg]
        try:
            rc = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            rc = None
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=0.5)
        text = f"(pid {proc.pid}) {_describe_status(rc)} {when}"
        lines = [s for s in self._stderr if s.strip()]
        if lines:
            text += "; its stderr ended with: " + " | ".join(lines[-5:])
        return text

    def died(self, proc: subprocess.Popen, when: str = "while computing this request") -> CoprocessError:  # type: ignore[type-arg]
        """Record ``proc``'s death and return the error for the request in
        flight.  The next request starts a new process with a warning."""
        text = self._death_text(proc, when)
        self._discard(proc)
        self._death = text
        return CoprocessError(f"the apsp co-process {text}; the next request starts a new one")

    def _discard(self, proc: Optional[subprocess.Popen]) -> None:  # type: ignore[type-arg]
        """Stop ``proc`` (killing it if it still runs) and forget it."""
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.kill()
            except OSError:
                pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=CLOSE_WAIT_S)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        if self._proc is proc:
            self._proc = None

    def abandon(self) -> None:
        """Kill the running process without a warning at the next start (the
        caller interrupted it)."""
        self._discard(self._proc)

    def close(self) -> None:
        """Close the process's input, give it ``CLOSE_WAIT_S`` seconds to end,
        then kill it.  Further requests raise :class:`CoprocessError`."""
        with self._lock:
            self._closed = True
            proc = self._proc
            self._proc = None
            if proc is None or os.getpid() != self._owner:
                return
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=CLOSE_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            for stream in (proc.stdout, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass

    @property
    def closed(self) -> bool:
        return self._closed

    # -- requests -------------------------------------------------------------

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, payload: Dict[str, Any], fragment: Optional[bytes] = None) -> Dict[str, Any]:
        """Send one request and return its response object (a ``result`` or
        an ``error``).  ``payload`` gets an ``id``; ``fragment`` is more of
        the request already encoded (see :func:`encode`).

        Raises:
            CoprocessError: the process could not start, died, or answered
                something that is not the protocol.
        """
        with self._lock:
            proc = self.ensure()
            rid = self.new_id()
            payload["id"] = rid
            line = encode(payload, fragment)
            try:
                try:
                    proc.stdin.write(line)  # type: ignore[union-attr]
                    proc.stdin.flush()  # type: ignore[union-attr]
                except (BrokenPipeError, ValueError, OSError):
                    raise self.died(proc, "before it read this request") from None
                out = proc.stdout.readline()  # type: ignore[union-attr]
                if not out:
                    raise self.died(proc)
                return self.decode(out, rid, proc)
            except CoprocessError:
                raise
            except BaseException:
                # Interrupted (KeyboardInterrupt, ...): the answer may still
                # come; a fresh process keeps requests and answers in step.
                self._discard(proc)
                raise

    def decode(self, out: bytes, rid: Any, proc: subprocess.Popen) -> Dict[str, Any]:  # type: ignore[type-arg]
        """Parse one response line and check it answers request ``rid``."""
        try:
            resp = json.loads(out)
        except ValueError:
            self._discard(proc)
            raise CoprocessError(f"the apsp co-process answered a line that is not JSON: {out[:200]!r}") from None
        if not isinstance(resp, dict) or resp.get("id") != rid:
            self._discard(proc)
            got = resp.get("id") if isinstance(resp, dict) else resp
            raise CoprocessError(f"the apsp co-process answered id {got!r} where {rid!r} was expected")
        return resp

    def __del__(self) -> None:
        try:
            if not self._closed:
                self.close()
        except Exception:
            pass
