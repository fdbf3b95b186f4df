#!/usr/bin/python3
"""Benchmarks of the Python package against its goals (issue 26).  Not a test.

    APSP_BIN=bin/apsp /usr/bin/python3 python/bench.py [--go] [--calls N] [--device cpu|gpu] [--handles]

1. The per-call round trip at n = 64, unweighted, through an Evaluator
   (goal: at most 0.3 ms), split into what bounds it: the pipe and JSON
   alone (ping), the conversion of a NetworkX graph, the computation the
   co-process reports.
2. Evaluator.summary at n = 1024, random 16-regular (the graph of
   ``apsp gen regular n=1024 d=16 seed=1``, the Go benchmark's), against Go's
   ``go test -run XXX -bench 'LoopEvaluator/n=1024$' .`` (goal: within
   1.3x); ``--go`` runs that benchmark too, from the repository's root.
3. apsp.stats(G) on a NetworkX random 16-regular graph of n = 1024,
   conversion included, against nx.diameter + nx.average_shortest_path_length
   + nx.radius (goal: at least 50x faster).

4. ``--handles`` (alone: parts 1-3 are skipped): Handle.summary(remove=2
   edges, add=2 edges) on a held graph (Evaluator.load) at n = 64 and
   1024, random 16-regular (``apsp gen regular n=N d=16 seed=1``), each call
   a swap that keeps the degrees (and every other call its undoing), and
   Handle.summaries of 64 such swaps as candidates in one call, against
   Go's ``Evaluator.Summary`` (``--go``: ``BenchmarkHandleSummary`` of
   internal/serve at both sizes: the same graph again, a search step
   that makes a new graph with graph.Change, and 64 candidates by
   graph.Change and SummaryBatch; goal within 1.3x); best and median.

Figures are medians over the calls (mean and 90th percentile beside them);
the machine, its load and the versions are printed first.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # this checkout's package

import numpy as np  # noqa: E402

import apsp  # noqa: E402


def machine() -> str:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    avail = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{cpu}; {os.cpu_count()} CPUs ({avail} usable); load {load}; {platform.system()} {platform.release()}"


def timed(call: Callable[[], object], calls: int, warm: int = 20) -> Dict[str, float]:
    """Median, mean and p90 of ``calls`` calls, in milliseconds."""
    for _ in range(warm):
        call()
    times: List[float] = []
    clock = time.perf_counter_ns
    for _ in range(calls):
        t = clock()
        call()
        times.append((clock() - t) / 1e6)
    times.sort()
    return {"median": statistics.median(times), "mean": statistics.fmean(times), "p90": times[int(0.9 * (len(times) - 1))], "best": times[0]}


def fmt(t: Dict[str, float]) -> str:
    return f"median {t['median']:.4f} ms (mean {t['mean']:.4f}, p90 {t['p90']:.4f})"


def regular_edges(binary: str, n: int, d: int, seed: int) -> np.ndarray:
    """The edges of ``apsp gen regular n=N d=D seed=S``: the Go benchmark's graph."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g.txt")
        subprocess.run([binary, "gen", "regular", f"n={n}", f"d={d}", f"seed={seed}", "-o", path], check=True)
        return np.loadtxt(path, comments=["#", "%"], dtype=np.int64).reshape(-1, 2)


def go_handle_bench(root: Path, n: int) -> Dict[str, Dict[str, float]]:
    """Go's ``BenchmarkHandleSummary/n=N/...`` (internal/serve): every
    sub-benchmark's median call (and a candidate's, where it reports one),
    in ms, by name."""
    cmd = ["go", "test", "-run", "XXX", "-bench", f"HandleSummary/n={n}/", "./internal/serve/"]
    print(f"     running: {' '.join(cmd)} (in {root})", flush=True)
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True, env=dict(os.environ, CGO_ENABLED="0")).stdout
    got: Dict[str, Dict[str, float]] = {}
    for l in out.splitlines():
        m = re.match(rf"BenchmarkHandleSummary/n={n}/(\S+?)(-\d+)?\s", l)
        if not m:
            continue
        print(f"     {l}")
        fig = {"median": float(re.search(r"([\d.]+) median-ns/call", l).group(1)) / 1e6}  # type: ignore[union-attr]
        per = re.search(r"([\d.]+) median-ns/candidate", l)
        if per:
            fig["candidate"] = float(per.group(1)) / 1e6
        got[m.group(1)] = fig
    return got


def go_bench(root: Path) -> Dict[str, float]:
    """Go's ``BenchmarkLoopEvaluator/n=1024`` (the root package): mean and
    median call in ms."""
    cmd = ["go", "test", "-run", "XXX", "-bench", "LoopEvaluator/n=1024$", "."]
    prefix = "BenchmarkLoopEvaluator"
    print(f"     running: {' '.join(cmd)} (in {root})", flush=True)
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True, env=dict(os.environ, CGO_ENABLED="0")).stdout
    for l in out.splitlines():
        if l.startswith("Benchmark"):
            print(f"     {l}")
    line = next(l for l in out.splitlines() if l.startswith(prefix))
    ns = float(re.search(r"([\d.]+) ns/op", line).group(1))  # type: ignore[union-attr]
    med = re.search(r"([\d.]+) median-ns/call", line)
    return {"mean": ns / 1e6, "median": float(med.group(1)) / 1e6 if med else ns / 1e6}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--go", action="store_true", help="also run the Go benchmark (needs Go and the checkout)")
    ap.add_argument("--calls", type=int, default=3000, help="calls timed at n = 64 (a tenth of it at n = 1024)")
    ap.add_argument("--device", default="cpu", help="device for the n = 1024 summary (Go's benchmark uses cpu)")
    ap.add_argument("--nx-reps", type=int, default=1, help="repetitions of the NetworkX computation")
    ap.add_argument("--handles", action="store_true", help="only part 4: Handle.summary with a swap a call, against Go")
    args = ap.parse_args()
    if args.handles:
        handles(args)
        return

    import networkx as nx

    binary = apsp.binary()
    print(f"machine: {machine()}")
    print(f"python {platform.python_version()} ({sys.executable}); numpy {np.__version__}; networkx {nx.__version__}")
    print(f"apsp binary: {binary} ({apsp.version()})")
    print()

    # 1. n = 64 round trip.
    print("1. Per call through an Evaluator, n = 64, random 4-regular, unweighted (goal <= 0.3 ms)")
    G64 = nx.random_regular_graph(4, 64, seed=1)
    P64 = apsp.prepare(G64)
    with apsp.Evaluator() as ev:
        ev.ping()
        ping = timed(ev.ping, args.calls)
        conv = timed(lambda: apsp.prepare(G64), args.calls)
        pre = timed(lambda: ev.summary(P64), args.calls)
        full = timed(lambda: ev.summary(G64), args.calls)
        stats = timed(lambda: ev.stats(G64), args.calls)
        server = statistics.median(ev.summary(P64)["seconds"] * 1e3 for _ in range(200))
    print(f"   ping (pipe + JSON only)        {fmt(ping)}")
    print(f"   prepare(G) (NetworkX -> arrays) {fmt(conv)}")
    print(f"   summary(prepared graph)        {fmt(pre)}")
    print(f"   summary(NetworkX graph)        {fmt(full)}   <- the figure")
    print(f"   stats(NetworkX graph)          {fmt(stats)}")
    print(f"   computation the co-process reports: median {server:.4f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g64.txt")
        nx.write_edgelist(G64, path, data=False)
        proc = timed(lambda: subprocess.run([binary, "stats", "--json", path], capture_output=True, check=True), 100, warm=5)
    print(f"   for comparison, a process a call (apsp stats --json FILE): {fmt(proc)}")
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        nx.diameter(G64)
        nx.average_shortest_path_length(G64)
    print(f"   for comparison, NetworkX diameter + ASPL: {(time.perf_counter() - t) / reps * 1e3:.3f} ms")
    gs = [G64] * 5000
    t = time.perf_counter()
    with apsp.bulk(gs, op="summary") as b:
        for _ in b:
            pass
    print(f"   apsp.bulk of 5000 such graphs, op=summary: {(time.perf_counter() - t) / len(gs) * 1e3:.4f} ms a graph (pipelined)")
    print()

    # 2. n = 1024 Evaluator.summary against Go.
    print(f"2. Evaluator.summary, n = 1024, random 16-regular (apsp gen regular n=1024 d=16 seed=1), device={args.device} (goal within 1.3x of Go)")
    edges = regular_edges(binary, 1024, 16, 1)
    T = (1024, edges)
    P = apsp.prepare(T)
    calls = max(args.calls // 10, 50)
    with apsp.Evaluator(device=args.device) as ev:
        s = ev.summary(P)
        py_pre = timed(lambda: ev.summary(P), calls)
        py_arr = timed(lambda: ev.summary(T), calls)
        server = statistics.median(ev.summary(P)["seconds"] * 1e3 for _ in range(100))
    print(f"   diameter {s['diameter']}, aspl {s['aspl']:.6f}, {s['algorithm']} on {s['device']}")
    print(f"   summary(prepared graph)        {fmt(py_pre)}")
    print(f"   summary((n, edges) arrays)     {fmt(py_arr)}")
    print(f"   computation the co-process reports: median {server:.4f} ms")
    if args.go:
        go = go_bench(HERE.parent)
        print(f"   Go Evaluator.Summary: median {go['median']:.4f} ms (mean {go['mean']:.4f})")
        print(f"   ratio Python/Go (medians): prepared {py_pre['median'] / go['median']:.2f}x, arrays {py_arr['median'] / go['median']:.2f}x")
    else:
        print("   (run with --go for Go's figure on this machine)")
    print()

    # 3. apsp.stats against NetworkX.
    print("3. apsp.stats(G) vs nx.diameter + nx.average_shortest_path_length + nx.radius, NetworkX random 16-regular n = 1024 (goal >= 50x)")
    G = nx.random_regular_graph(16, 1024, seed=1)
    st = timed(lambda: apsp.stats(G), 50, warm=5)
    s = apsp.stats(G)
    t = time.perf_counter()
    for _ in range(args.nx_reps):
        d, a, r = nx.diameter(G), nx.average_shortest_path_length(G), nx.radius(G)
    nx_ms = (time.perf_counter() - t) / args.nx_reps * 1e3
    assert (d, r) == (s["diameter"], s["radius"]) and abs(a - s["aspl"]) < 1e-12
    print(f"   apsp.stats(G), conversion included: {fmt(st)} ({s['algorithm']}, {s['threads']} threads)")
    print(f"   NetworkX: {nx_ms:.1f} ms (diameter {d}, radius {r}, aspl {a:.6f}; the same)")
    print(f"   speed-up: {nx_ms / st['median']:.0f}x")


def swaps(edges: np.ndarray, n: int, count: int, seed: int = 7) -> List[Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]]:
    """``count`` swaps a-b, c-d -> a-c, b-d, each valid on the graph of
    ``edges`` (the timed loop makes one, then undoes it: an annealing loop
    that rejects every step)."""
    import random

    rng = random.Random(seed)
    es = {(min(u, v), max(u, v)) for u, v in edges.tolist()}
    ordered = sorted(es)
    out: List[Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]] = []
    while len(out) < count:
        (a, b), (c, d) = rng.sample(ordered, 2)
        if rng.random() < 0.5:
            c, d = d, c
        x, y = (min(a, c), max(a, c)), (min(b, d), max(b, d))
        if len({a, b, c, d}) < 4 or x in es or y in es:
            continue
        out.append(([(a, b), (c, d)], [x, y]))
    return out


def handles(args: argparse.Namespace) -> None:
    binary = apsp.binary()
    print(f"machine: {machine()}")
    print(f"python {platform.python_version()} ({sys.executable}); numpy {np.__version__}")
    print(f"apsp binary: {binary} ({apsp.version()})")
    print()
    print(f"4. Handle.summary(remove=2 edges, add=2 edges), random 16-regular (apsp gen regular n=N d=16 seed=1), device={args.device} (goal within 1.3x of Go's Evaluator.Summary)")
    calls = max(args.calls, 200)
    for n in (64, 1024):
        edges = regular_edges(binary, n, 16, 1)
        steps = swaps(edges, n, 64)
        with apsp.Evaluator(device=args.device) as ev, ev.load((n, edges)) as h:
            s0 = h.summary()
            i = [0]

            def step() -> None:
                # Swap k, then undo it: the graph alternates between the
                # loaded one and one swap away, every call a change of 4 edges.
                k, undo = divmod(i[0], 2)
                remove, add = steps[k % len(steps)]
                if undo:
                    remove, add = add, remove
                h.summary(remove=remove, add=add)
                i[0] += 1

            t = timed(step, calls + (calls % 2), warm=20)
            server = statistics.median(h.summary()["seconds"] * 1e3 for _ in range(200))
            ping = timed(ev.ping, calls)
            # A neighbourhood at once: the 64 swaps as candidates of one
            # request (Handle.summaries), the held graph unchanged.
            k = 64
            cands = [{"remove": r, "add": a} for r, a in steps[:k]]
            batch = timed(lambda: h.summaries(cands), max(calls // k, 20), warm=3)
        print(f"   n = {n}: diameter {s0['diameter']}, aspl {s0['aspl']:.6f}, {s0['algorithm']} on {s0['device']}")
        print(f"     handle.summary(swap)   best {t['best']:.4f} ms, {fmt(t)}")
        print(f"     ping (pipe + JSON)     best {ping['best']:.4f} ms, {fmt(ping)}")
        print(f"     computation the co-process reports (no change): median {server:.4f} ms")
        print(f"     handle.summaries({k} swaps) {fmt(batch)}: {batch['median'] / k:.4f} ms a candidate")
        if args.go:
            go = go_handle_bench(HERE.parent, n)
            lib, step_go, batch_go = go["library"]["median"], go["library-swap"]["median"], go[f"library-batch-{k}"]["candidate"]
            print(f"     Go Evaluator.Summary, same graph: median {lib:.4f} ms; a search step (graph.Change, then Summary): {step_go:.4f} ms;"
                  f" {k} candidates by graph.Change + SummaryBatch: {batch_go:.4f} ms a candidate")
            print(f"     ratio Python/Go, one step a call: {t['median'] / step_go:.2f}x the Go step, {t['median'] / lib:.2f}x the same graph (goal 1.3x)")
            print(f"     ratio Python/Go, {k} candidates a call: {batch['median'] / k / step_go:.2f}x the Go step, {batch['median'] / k / lib:.2f}x the same graph,"
                  f" {batch['median'] / k / batch_go:.2f}x Go's own batch (goal 1.3x)")
    if not args.go:
        print("   (run with --go for Go's figures on this machine)")


if __name__ == "__main__":
    main()
