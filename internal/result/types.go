package result

import (
	"math"

	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// Summary is what a search loop asks of each candidate graph (Graph Golf's
// diameter and average shortest path length), with the meaning Stats gives
// those fields: the diameter and ASPL are infinite when some pair has no
// path, unless Options.Reachable (then over the pairs that have one); the
// ASPL of no pair (one vertex, or Reachable without a path) is NaN. It has
// no radius, center or periphery, so a GPU can reduce it on the device and
// send back a few bytes a graph.
type Summary struct {
	Vertices       int     `json:"vertices"`
	Connected      bool    `json:"connected"`
	Diameter       Length  `json:"diameter"`
	ASPL           Mean    `json:"aspl"`
	ReachablePairs int64   `json:"reachable_pairs"`
	Algorithm      string  `json:"algorithm"`
	Device         string  `json:"device"`
	Seconds        float64 `json:"seconds"`
}

// Summary returns the fields of s that a Summary has.
func (s *Stats) Summary() Summary {
	return Summary{Vertices: s.Vertices, Connected: s.Connected, Diameter: s.Diameter, ASPL: s.ASPL,
		ReachablePairs: s.ReachablePairs, Algorithm: s.Algorithm, Device: s.Device, Seconds: s.Seconds}
}

// FromTotals is the Stats of a Summary's fields from a graph's reachable
// ordered pairs, their distances' sum and the largest of them (a bulk
// engine's reduction on the device), with Stats' meaning: infinite when
// some pair has no path unless reachable, NaN for a mean over no pair.
func FromTotals(vertices int, connected bool, pairs, sum, longest int64, reachable bool) *Stats {
	m := SummaryOfTotals(vertices, connected, pairs, sum, longest, reachable)
	return &Stats{Vertices: vertices, Connected: connected, ReachablePairs: pairs, Reachable: reachable, Diameter: m.Diameter, ASPL: m.ASPL}
}

// SummaryOfTotals is FromTotals(...).Summary() without the Stats: a
// search measuring thousands of graphs a step allocates nothing a graph.
func SummaryOfTotals(vertices int, connected bool, pairs, sum, longest int64, reachable bool) Summary {
	s := Summary{Vertices: vertices, Connected: connected, ReachablePairs: pairs}
	switch finite := connected || reachable; {
	case !finite:
		s.Diameter, s.ASPL = Infinite(false), Mean(math.Inf(1))
	case pairs > 0:
		s.Diameter, s.ASPL = IntLength(longest), Mean(float64(sum)/float64(pairs))
	default: // no pair has a path (one vertex, or reachable with no arc)
		s.Diameter, s.ASPL = IntLength(0), Mean(math.NaN())
	}
	return s
}

// Path is one shortest path.
type Path struct {
	Vertices []int  `json:"vertices"`
	Length   Length `json:"length"`
}

// Histogram is the distribution of shortest-path lengths: Count[d] ordered
// pairs u ≠ v at distance d (Count[0] is 0 unless zero-length arcs join
// distinct vertices), and Unreachable pairs with no path. It needs exact
// (integer or unweighted) distances.
type Histogram struct {
	Count       []int64 `json:"count"`
	Unreachable int64   `json:"unreachable"`
	Algorithm   string  `json:"algorithm"`
}

// Candidate is one engine as "auto" saw it: its estimated time, or why it
// could not take the graph.
type Candidate struct {
	Engine  string  `json:"engine"`
	Device  string  `json:"device"`
	Seconds float64 `json:"estimated_seconds,omitempty"` // 0 when not estimated
	Refused string  `json:"refused,omitempty"`           // why it cannot take the graph, or why auto skips it
}

// Choice is the plan of a computation: the engine, where it runs, its
// threads and lanes, the host memory it needs besides the graph and, under
// "auto", the estimates it compared (what `apsp --explain` prints).
type Choice struct {
	Engine     string      `json:"engine"`
	Device     string      `json:"device"`
	Threads    int         `json:"threads"`
	Lanes      string      `json:"lanes"`
	Memory     uint64      `json:"memory_bytes"`
	Auto       bool        `json:"auto"`
	Candidates []Candidate `json:"candidates,omitempty"`
	Note       string      `json:"note,omitempty"` // why a GPU was not used, when auto wanted one
	// BoundsBudget is the work the bounds method may spend (in searches of
	// the whole graph) before Fallback, the all-pairs engine, answers
	// instead (the extremes under "auto").
	BoundsBudget float64 `json:"bounds_budget,omitempty"`
	Fallback     string  `json:"fallback,omitempty"`
}

// DeviceInfo describes a GPU.
type DeviceInfo struct {
	Ordinal int    `json:"ordinal"`
	Name    string `json:"name"`
	// Memory is the device memory in bytes.
	Memory uint64 `json:"memory_bytes"`
	// Capability is the compute capability, e.g. "9.0".
	Capability string `json:"compute_capability"`
	SMs        int    `json:"sms"`
	ClockKHz   int    `json:"clock_khz"`
}

// RowsOf returns every source's summary of d's matrix, on threads
// threads. It panics on the facts-only Distances of a run that summarised
// without a matrix. (A function, not a method: apsp.Distances is this type
// by alias, and its methods are public API.)
func RowsOf(d *Distances, threads int) []reduce.Row { return d.m.Rows(threads) }

// Summarised describes a run that summarised every source without a
// matrix: which lanes, where, on how many threads, how long.
func Summarised(n int, kind lanes.Kind, algorithm, device string, threads int, seconds float64) *Distances {
	return &Distances{n: n, kind: kind, Algorithm: algorithm, Device: device, Threads: threads, Seconds: seconds}
}

// ErrNoPath is wrapped when the target cannot be reached.
var ErrNoPath = engine.ErrNoPath
