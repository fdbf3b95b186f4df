// Package testgraphs is what the tests of apsp's engines share: one table
// of named graphs with known answers (Cases), and the random graphs the
// differential tests draw (Random). It is modelled on gonum's
// graph/path/internal/testgraphs: every engine, lane kind, device and bulk
// path runs through the same table, so that a case added here is checked
// everywhere at once.
//
// The answers in the table are derived independently of apsp: by hand for
// the tiny graphs, from closed forms for the families (paths, cycles,
// stars, complete graphs, grids, the Petersen graph), and with NetworkX for
// Zachary's karate club; each case says which in its Source, and
// testdata/check_networkx.py checks every case against NetworkX. The
// package's own tests check each distance matrix against its graph by a
// certificate (every arc is relaxed and every finite distance is attained
// along tight arcs) and each stated measure against the matrix — never by
// running an engine.
//
// Only tests import this package; no non-test code may.
package testgraphs
