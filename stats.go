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
// the eccentricities, and sizes center and periphery before filling them;
// exact rows take a path on plain integers (extremesExact). In a search
// loop on 1024 vertices the former version was a fifth of a call.
func statsFromRows(rows []reduce.Row, g *graph.Graph, exact, reachable bool) *Stats {
	n := len(rows)
	s := &Stats{
		Vertices: n, Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: g.Weighted(),
		Reachable: reachable,
	}
	var total reduce.Wide
	var floatTotal float64
	for u := range rows {
		r := &rows[u]
		s.ReachablePairs += r.Reach
		total.AddWide(r.Sum)
		floatTotal += r.SumF
	}
	pairs := int64(n) * int64(n-1)
	s.Connected = s.ReachablePairs == pairs
	finite := s.Connected || reachable // the diameter and ASPL are finite
	if exact {
		extremesExact(s, rows, reachable, finite)
	} else {
		extremes(s, rows, exact, reachable, finite)
	}
	switch {
	case !finite:
		s.ASPL = Mean(math.Inf(1))
	case s.ReachablePairs > 0 && exact:
		s.ASPL = Mean(total.Float() / float64(s.ReachablePairs))
	case s.ReachablePairs > 0:
		s.ASPL = Mean(floatTotal / float64(s.ReachablePairs))
	default:
		// A mean over no pair (one vertex, or --reachable with no path)
		// is undefined, as in igraph.
		s.ASPL = Mean(math.NaN())
	}
	return s
}

// extremes sets the radius, diameter, center and periphery of s from the
// rows' eccentricities (rowEcc); statsFromRows calls it for float rows. The radius is the smallest eccentricity,
// finite whenever some vertex reaches every other — also in a directed
// graph that is not strongly connected (the arc 0→1 has radius 1, center
// {0}). Without finite the diameter is infinite; otherwise it is the
// largest distance over pairs that have a path, so sources reaching nobody
// (eccentricity 0 by convention) do not count: with negative weights every
// real distance may be below 0. An infinite radius has no center; the
// periphery is then the vertices that do not reach every other.
func extremes(s *Stats, rows []reduce.Row, exact, reachable, finite bool) {
	s.Radius = rowEcc(rows[0], exact, reachable)
	for _, r := range rows {
		if e := rowEcc(r, exact, reachable); e.less(s.Radius) {
			s.Radius = e
		}
	}
	if !finite {
		s.Diameter = Infinite(!exact)
	} else {
		s.Diameter = rowEcc(reduce.Row{}, exact, reachable) // 0 when no pair has a path
		first := true
		for _, r := range rows {
			if e := rowEcc(r, exact, reachable); r.Reach > 0 && (first || s.Diameter.less(e)) {
				s.Diameter, first = e, false
			}
		}
	}
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
	s.Center, s.Periphery = sized(centers), sized(peripheral)
	for u, r := range rows {
		e := rowEcc(r, exact, reachable)
		if hasCenter && sameEcc(e, s.Radius) {
			s.Center = append(s.Center, u)
		}
		if sameEcc(e, s.Diameter) {
			s.Periphery = append(s.Periphery, u)
		}
	}
}

// ecc is an exact eccentricity as extremesExact compares them: rowEcc's
// IntLength or Infinite(false) without the Length.
type ecc struct {
	v   int64
	inf bool
}

func exactEcc(r *reduce.Row, reachable bool) ecc {
	switch {
	case r.Unreach && !reachable:
		return ecc{inf: true}
	case r.Reach == 0:
		return ecc{}
	}
	return ecc{v: r.MaxI}
}

func (a ecc) less(b ecc) bool { return !a.inf && (b.inf || a.v < b.v) }

func (a ecc) length() Length {
	if a.inf {
		return Infinite(false)
	}
	return IntLength(a.v)
}

// extremesExact is extremes for exact rows, on integers (tested against
// extremes in loop_stats_test.go).
func extremesExact(s *Stats, rows []reduce.Row, reachable, finite bool) {
	radius := exactEcc(&rows[0], reachable)
	diameter := ecc{inf: !finite}
	first := true
	for u := range rows {
		r := &rows[u]
		e := exactEcc(r, reachable)
		if e.less(radius) {
			radius = e
		}
		if finite && r.Reach > 0 && (first || diameter.less(e)) {
			diameter, first = e, false
		}
	}
	var centers, peripheral int
	for u := range rows {
		e := exactEcc(&rows[u], reachable)
		if !radius.inf && e == radius {
			centers++
		}
		if e == diameter {
			peripheral++
		}
	}
	s.Center, s.Periphery = sized(centers), sized(peripheral)
	for u := range rows {
		e := exactEcc(&rows[u], reachable)
		if !radius.inf && e == radius {
			s.Center = append(s.Center, u)
		}
		if e == diameter {
			s.Periphery = append(s.Periphery, u)
		}
	}
	s.Radius, s.Diameter = radius.length(), diameter.length()
}

// sized returns an empty list with room for k vertices, nil when k is 0.
func sized(k int) []int {
	if k == 0 {
		return nil
	}
	return make([]int, 0, k)
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
