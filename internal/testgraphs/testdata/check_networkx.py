#!/usr/bin/python3
"""Recompute every answer of the testgraphs table with NetworkX.

usage:
  TESTGRAPHS_JSON=/tmp/cases.json go test -run DumpForNetworkX ./internal/testgraphs
  python3 internal/testgraphs/testdata/check_networkx.py /tmp/cases.json

For each case it builds the graph from the edges as apsp's builder reads
them (both arcs of an undirected edge, the lightest of parallel edges,
self-loops dropped unless negative, which is a negative cycle), then:
a case with a negative cycle must have one (nx.negative_edge_cycle) that
passes through the stated vertices (nx.find_negative_cycle from each);
otherwise the distances come from nx.floyd_warshall and the measures, by
apsp's definitions (README), from those; the structural ones are also
compared with nx.diameter, nx.radius, nx.center, nx.periphery,
nx.eccentricity and nx.average_shortest_path_length where NetworkX defines
them (connected, unweighted or non-negative). Prints one line a case and
exits 1 on any disagreement.
"""
import json, math, sys
import networkx as nx

INF = math.inf

def num(x):
    if x == "inf":
        return INF
    if x == "nan":
        return math.nan
    return x

def same(a, b):
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))

def build(c):
    G = nx.DiGraph() if c["directed"] else nx.Graph()
    G.add_nodes_from(range(c["n"]))
    neg_loop = None
    for u, v, w in c["edges"] or []:
        u, v = int(u), int(v)
        if u == v:
            if w < 0 and neg_loop is None:
                neg_loop = u
            continue
        if G.has_edge(u, v) and G[u][v]["weight"] <= w:
            continue
        G.add_edge(u, v, weight=w)
    return G, neg_loop

def measures(n, dist, reachable):
    ecc, reaches, pairs, total, connected = [], [], 0, 0, True
    for u in range(n):
        e, first, some = 0, True, False
        for v in range(n):
            if u == v:
                continue
            d = dist[u][v]
            if d == INF:
                connected = False
                if not reachable:
                    e, first = INF, False
                continue
            some = True
            pairs += 1
            total += d
            if e != INF and (first or d > e):
                e, first = d, False
        ecc.append(e)
        reaches.append(some)
    radius = min(ecc)
    if not connected and not reachable:
        diameter, aspl = INF, INF
    else:
        cand = [e for e, s in zip(ecc, reaches) if s]
        diameter = max(cand) if cand else 0
        aspl = total / pairs if pairs else math.nan
    center = [u for u, e in enumerate(ecc) if radius != INF and e == radius]
    periphery = [u for u, e in enumerate(ecc) if e == diameter]
    return dict(ecc=ecc, radius=radius, diameter=diameter, aspl=aspl, center=center, periphery=periphery), pairs, total, connected

def check(c):
    errs = []
    G, neg_loop = build(c)
    n = c["n"]
    if "negative_cycle" in c:
        cyc = set(c["negative_cycle"])
        if neg_loop is not None:
            if neg_loop not in cyc:
                errs.append(f"negative self-loop at {neg_loop}, not on {sorted(cyc)}")
            return errs
        if not nx.negative_edge_cycle(G):
            return ["NetworkX finds no negative cycle"]
        for v in range(n):
            try:
                found = nx.find_negative_cycle(G, v)
            except nx.NetworkXError:
                continue
            if not set(found) <= cyc:
                errs.append(f"negative cycle {found} found from {v} leaves {sorted(cyc)}")
        return errs
    if neg_loop is not None or nx.negative_edge_cycle(G):
        return ["NetworkX finds a negative cycle"]
    fw = nx.floyd_warshall(G)
    dist = [[fw[u][v] for v in range(n)] for u in range(n)]
    want = [[num(x) for x in row] for row in c["dist"]]
    for u in range(n):
        for v in range(n):
            if not same(dist[u][v], want[u][v]):
                errs.append(f"d({u},{v}) = {want[u][v]}, NetworkX {dist[u][v]}")
    for reachable in (False, True):
        m, pairs, total, connected = measures(n, dist, reachable)
        stated = c["reachable" if reachable else "strict"]
        tag = "reachable " if reachable else ""
        if pairs != c["pairs"] or not same(total, c["total"]) or connected != c["connected"]:
            errs.append(f"pairs/total/connected {c['pairs']}/{c['total']}/{c['connected']}, NetworkX {pairs}/{total}/{connected}")
        for k in ("radius", "diameter", "aspl"):
            if not same(m[k], num(stated[k])):
                errs.append(f"{tag}{k} {stated[k]}, NetworkX {m[k]}")
        if [num(x) for x in stated["ecc"]] != m["ecc"]:
            errs.append(f"{tag}ecc {stated['ecc']}, NetworkX {m['ecc']}")
        for k in ("center", "periphery"):
            if stated[k] != m[k]:
                errs.append(f"{tag}{k} {stated[k]}, NetworkX {m[k]}")
    # NetworkX's own measures where it defines them.
    strongly = nx.is_strongly_connected(G) if c["directed"] else nx.is_connected(G)
    if strongly != c["connected"]:
        errs.append(f"connected {c['connected']}, NetworkX {strongly}")
    nonneg = all(d["weight"] >= 0 for _, _, d in G.edges(data=True))
    if strongly and nonneg and n > 1:
        w = None if c["kind"] == "unweighted" else "weight"
        s = c["strict"]
        ecc = nx.eccentricity(G, weight=w)
        checks = [("diameter", nx.diameter(G, weight=w), num(s["diameter"])),
                  ("radius", nx.radius(G, weight=w), num(s["radius"])),
                  ("aspl", nx.average_shortest_path_length(G, weight=w), num(s["aspl"])),
                  ("ecc", [ecc[u] for u in range(n)], [num(x) for x in s["ecc"]]),
                  ("center", sorted(nx.center(G, weight=w)), s["center"]),
                  ("periphery", sorted(nx.periphery(G, weight=w)), s["periphery"])]
        for k, got, want in checks:
            if isinstance(got, list) and got != want or not isinstance(got, list) and not same(got, want):
                errs.append(f"nx.{k} {got}, stated {want}")
    return errs

def main():
    cases = json.load(open(sys.argv[1]))
    bad = 0
    for c in cases:
        errs = check(c)
        print(f"{'ok  ' if not errs else 'FAIL'} {c['name']}")
        for e in errs:
            print("     ", e)
        bad += bool(errs)
    print(f"NetworkX {nx.__version__}: {len(cases) - bad} of {len(cases)} cases agree")
    sys.exit(1 if bad else 0)

main()
