#!/usr/bin/python3
"""Side-by-side timing of apsp against python3-igraph and python3-graph-tool
(Debian packages) on the same edge-list files, on this machine, in one run.

usage: scripts/compare.py [--weighted] FILE...
Each file is a 0-based undirected edge list ("u v" or "u v w"). For every
file it prints the seconds of: igraph diameter() + average_path_length(),
graph-tool's all-pairs shortest_distance (plus the numpy reduction), and
`apsp stats`, and checks that the diameters agree.
"""
import subprocess, sys, time, json
import numpy as np
import igraph
import graph_tool.all as gt

def read(path, weighted):
    edges, ws = [], []
    with open(path) as f:
        for line in f:
            if not line.strip() or line[0] in "#%":
                continue
            p = line.split()
            edges.append((int(p[0]), int(p[1])))
            if weighted:
                ws.append(float(p[2]))
    n = 1 + max(max(u, v) for u, v in edges)
    return n, edges, ws

GT_MAX = 20000  # graph-tool's all-pairs matrix (and its numpy copy) must fit in memory

def run_apsp(path):
    t = time.perf_counter()
    out = subprocess.run(["./bin/apsp", "stats", "--json", "--quiet", path], capture_output=True, text=True, check=True)
    return time.perf_counter() - t, json.loads(out.stdout)

def main():
    weighted = "--weighted" in sys.argv
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(f"{'file':<28} {'n':>7} {'igraph s':>9} {'gt s':>8} {'apsp s':>8} {'x igraph':>9} {'x gt':>6}  diameters")
    for path in files:
        n, edges, ws = read(path, weighted)
        g = igraph.Graph(n=n, edges=edges, directed=False)
        t = time.perf_counter()
        if weighted:
            d_ig = g.diameter(directed=False, weights=ws)
            a_ig = None  # igraph 0.10's average_path_length takes no weights
        else:
            d_ig = g.diameter(directed=False)
            a_ig = g.average_path_length(directed=False)
        t_ig = time.perf_counter() - t

        if n > GT_MAX:
            print(f"{path:<28} {n:>7} {t_ig:>9.3f} {'-':>8}", end=" ")
            t_ap, s = run_apsp(path)
            print(f"{t_ap:>8.3f} {t_ig/t_ap:>9.1f} {'-':>6}  igraph {d_ig} apsp {s['diameter']} ({s['algorithm']}); "
                  f"aspl igraph {a_ig} apsp {s['aspl']:.6f} (graph-tool skipped: its n×n matrix would not fit)")
            continue
        h = gt.Graph(directed=False)
        h.add_vertex(n)
        h.add_edge_list(edges)
        kw = {}
        if weighted:
            w = h.new_edge_property("double")
            w.a = np.array(ws)
            kw["weights"] = w
        t = time.perf_counter()
        dist = gt.shortest_distance(h, **kw)
        m = np.array([dist[v].a for v in h.vertices()])
        d_gt = m.max()
        a_gt = (m.sum() - np.trace(m)) / (n * (n - 1))
        t_gt = time.perf_counter() - t

        t_ap, s = run_apsp(path)
        print(f"{path:<28} {n:>7} {t_ig:>9.3f} {t_gt:>8.3f} {t_ap:>8.3f} {t_ig/t_ap:>9.1f} {t_gt/t_ap:>6.1f}  "
              f"igraph {d_ig} gt {d_gt:g} apsp {s['diameter']} ({s['algorithm']}); aspl igraph {a_ig} gt {a_gt:.6f} apsp {s['aspl']:.6f}")

main()
