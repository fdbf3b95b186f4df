// Package engine holds apsp's engines behind one interface: each engine
// declares what it can do in capability fields (Caps) — where it runs, the
// weights it takes, whether it needs an n×n matrix, reduces rows without
// one, counts a histogram, tracks paths itself — and the planner and the
// public API decide from those fields, never from an engine's name.
//
// The engines are adapters: the algorithms live in internal/cpu (Floyd–
// Warshall, blocked), internal/bfs, internal/dijkstra and the GPU families
// below internal/gpu (fw, bitbfs, sssp, bulk, minplus). This package also
// derives successor matrices from distances (Successors), answers one
// pair by a single-source search (PathFrom), and states each engine's
// working memory (Engine.WorkBytes) for the planner's admission check.
package engine
