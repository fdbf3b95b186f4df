package apsp

import (
	"encoding/json"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
)

// Stats are the summary measures of a graph. Infinite measures marshal as
// JSON null.
type Stats struct {
	Vertices       int    `json:"vertices"`
	Arcs           int    `json:"arcs"`
	Edges          int    `json:"edges"`
	Directed       bool   `json:"directed"`
	Weighted       bool   `json:"weighted"`
	Connected      bool   `json:"connected"`
	Reachable      bool   `json:"reachable_only"`
	NoASPL         bool   `json:"no_aspl,omitempty"`
	Diameter       Length `json:"diameter"`
	Radius         Length `json:"radius"`
	ASPL           Mean   `json:"aspl"`
	ReachablePairs int64  `json:"reachable_pairs"`
	// Center and Periphery list the vertices whose eccentricity equals the
	// radius and the diameter.
	Center    []int   `json:"center"`
	Periphery []int   `json:"periphery"`
	Algorithm string  `json:"algorithm"`
	Device    string  `json:"device"`
	Lanes     string  `json:"lanes"`
	Threads   int     `json:"threads"`
	Seconds   float64 `json:"seconds"`
	// Traversals counts the breadth-first searches of the bounds method,
	// also when it ran out of its budget under "auto" and Algorithm (an
	// all-pairs engine) answered instead.
	Traversals int `json:"traversals,omitempty"`
}

// MarshalJSON writes the measures; when NoASPL (diameter and radius only)
// the fields that were not computed — aspl, reachable_pairs, center,
// periphery — are left out rather than given placeholder values. An empty
// center or periphery is [].
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	if !s.NoASPL {
		if s.Center == nil {
			s.Center = []int{}
		}
		if s.Periphery == nil {
			s.Periphery = []int{}
		}
		return json.Marshal(plain(s))
	}
	// Fields of the outer struct hide the embedded ones of the same name;
	// nil pointers with omitempty leave them out.
	return json.Marshal(struct {
		plain
		ASPL           *Mean  `json:"aspl,omitempty"`
		ReachablePairs *int64 `json:"reachable_pairs,omitempty"`
		Center         *[]int `json:"center,omitempty"`
		Periphery      *[]int `json:"periphery,omitempty"`
	}{plain: plain(s)})
}

// statsFromRows turns per-source summaries into Stats; every engine, dense or
// per-source, ends here. It makes one pass a measure rather than keeping
// the eccentricities (rowEcc is a few comparisons), and sizes center and
// periphery before filling them: in a search loop on 1024 vertices these
// allocations were a fifth of a call.
func statsFromRows(rows []reduce.Row, g *graph.Graph, exact, reachable bool) *Stats {
	n := len(rows)
	s := &Stats{
		Vertices: n, Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: g.Weighted(),
		Reachable: reachable,
	}
	var total reduce.Wide
	var floatTotal float64
	// The radius is the smallest eccentricity, finite whenever some vertex
	// reaches every other — also in a directed graph that is not strongly
	// connected (the arc 0→1 has radius 1, center {0}).
	for u, r := range rows {
		s.ReachablePairs += r.Reach
		total.AddWide(r.Sum)
		floatTotal += r.SumF
		if e := rowEcc(r, exact, reachable); u == 0 || e.less(s.Radius) {
			s.Radius = e
		}
	}
	pairs := int64(n) * int64(n-1)
	s.Connected = s.ReachablePairs == pairs
	if !s.Connected && !reachable {
		s.Diameter = Infinite(!exact)
		s.ASPL = Mean(math.Inf(1))
	} else {
		// The diameter is the largest distance over pairs that have a path,
		// so sources reaching nobody (eccentricity 0 by convention) do not
		// count: with negative weights every real distance may be below 0.
		s.Diameter = rowEcc(reduce.Row{}, exact, reachable) // 0 when no pair has a path
		first := true
		for _, r := range rows {
			if e := rowEcc(r, exact, reachable); r.Reach > 0 && (first || s.Diameter.less(e)) {
				s.Diameter, first = e, false
			}
		}
		switch {
		case s.ReachablePairs > 0 && exact:
			s.ASPL = Mean(total.Float() / float64(s.ReachablePairs))
		case s.ReachablePairs > 0:
			s.ASPL = Mean(floatTotal / float64(s.ReachablePairs))
		default:
			// A mean over no pair (one vertex, or --reachable with no
			// path) is undefined, as in igraph.
			s.ASPL = Mean(math.NaN())
		}
	}
	// An infinite radius has no center; the periphery is then the vertices
	// that do not reach every other.
	hasCenter := !s.Radius.IsInf()
	var centers, peripheral int
	for _, r := range rows {
		e := rowEcc(r, exact, reachable)
		if hasCenter && sameEcc(e, s.Radius) {
			centers++
		}
		if sameEcc(e, s.Diameter) {
			peripheral++
		}
	}
	if centers > 0 {
		s.Center = make([]int, 0, centers)
	}
	if peripheral > 0 {
		s.Periphery = make([]int, 0, peripheral)
	}
	for u, r := range rows {
		e := rowEcc(r, exact, reachable)
		if hasCenter && sameEcc(e, s.Radius) {
			s.Center = append(s.Center, u)
		}
		if sameEcc(e, s.Diameter) {
			s.Periphery = append(s.Periphery, u)
		}
	}
	return s
}

// sameEcc compares eccentricities: exactly for integers, within a relative
// 1e-9 for floats, since per-source engines add a path's lengths in a
// different order from each end.
func sameEcc(a, b Length) bool {
	if a.IsInf() || b.IsInf() || !a.IsFloat() {
		return a == b
	}
	return math.Abs(a.Float()-b.Float()) <= 1e-9*math.Max(1, math.Abs(b.Float()))
}

// rowEcc is the eccentricity of a source from its row summary.
func rowEcc(r reduce.Row, exact, reachable bool) Length {
	if r.Unreach && !reachable {
		return Infinite(!exact)
	}
	if r.Reach == 0 {
		if exact {
			return IntLength(0)
		}
		return FloatLength(0)
	}
	if exact {
		return IntLength(r.MaxI)
	}
	return FloatLength(r.MaxF)
}
