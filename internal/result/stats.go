package result

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
	Center    []int `json:"center"`
	Periphery []int `json:"periphery"`
	// EffectiveRatio, EffectiveDiameter and EffectiveDiameterInterpolated
	// are set when asked for (Options.Effective), else nil and left out of
	// JSON: the effective diameter at that ratio (EffectiveDiameter) and
	// SNAP's interpolated one (EffectiveDiameterInterpolated), over the
	// pairs with a path whatever Reachable says; null without such a pair.
	EffectiveRatio                *float64 `json:"effective_ratio,omitempty"`
	EffectiveDiameter             *Mean    `json:"effective_diameter,omitempty"`
	EffectiveDiameterInterpolated *Mean    `json:"effective_diameter_interpolated,omitempty"`
	Algorithm                     string   `json:"algorithm"`
	Device                        string   `json:"device"`
	Lanes                         string   `json:"lanes"`
	Threads                       int      `json:"threads"`
	Seconds                       float64  `json:"seconds"`
	// Traversals counts the breadth-first searches of the bounds method,
	// also when it ran out of its budget under "auto" and Algorithm (an
	// all-pairs engine) answered instead.
	Traversals int `json:"traversals,omitempty"`
	// Names are the graph's vertex names (graph.Graph.Names), nil when it
	// has none: JSON then writes center and periphery as names, as the
	// caller's file gave them.
	Names []string `json:"-"`
}

// MarshalJSON writes the measures; when NoASPL (diameter and radius only)
// the fields that were not computed — aspl, reachable_pairs, center,
// periphery — are left out rather than given placeholder values. An empty
// center or periphery is [].
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	if s.Names != nil && !s.NoASPL {
		return json.Marshal(struct {
			plain
			Center    []string `json:"center"`
			Periphery []string `json:"periphery"`
		}{plain(s), NamesOf(s.Center, s.Names), NamesOf(s.Periphery, s.Names)})
	}
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

// FromRows turns per-source summaries into Stats; every engine, dense or
// per-source, ends here or in FromBrief, where exact rows go.
func FromRows(rows []reduce.Row, g *graph.Graph, exact, reachable bool) *Stats {
	if exact {
		b := reduce.BriefOf(rows)
		s := FromBrief(b, g, reachable, true)
		b.Release()
		return s
	}
	n := len(rows)
	s := newStats(g, reachable)
	var floatTotal float64
	for u := range rows {
		r := &rows[u]
		s.ReachablePairs += r.Reach
		floatTotal += r.SumF
	}
	finite := s.setConnected(n, reachable)
	extremes(s, rows, exact, reachable, finite)
	s.setASPL(finite, func() float64 { return floatTotal })
	return s
}

// FromBrief is FromRows for exact distances, on integers. It
// makes one pass for the extremes and sizes center and periphery before
// filling them: in a search loop on 1024 vertices building and reading
// full rows was a fifth of a call.
func FromBrief(b *reduce.Brief, g *graph.Graph, reachable, lists bool) *Stats {
	s := newStats(g, reachable)
	s.ReachablePairs = b.Pairs
	finite := s.setConnected(len(b.Ecc), reachable)
	extremesBrief(s, b, reachable, finite, lists)
	s.setASPL(finite, b.Sum.Float)
	return s
}

// FromHist is the Stats of a Summary's fields from exact
// distances' histogram (the ordered pairs at each distance; index 0
// unused): the pairs with a path and their distances' total, and the
// diameter, which is the longest distance with a pair (0 when none) as
// extremesBrief finds it from the eccentricities. The radius, center and
// periphery stay zero.
func FromHist(hist []int64, g *graph.Graph, reachable bool) *Stats {
	s := newStats(g, reachable)
	var total reduce.Wide
	s.ReachablePairs, total = reduce.HistTotals(hist)
	longest := int64(0)
	for d := len(hist) - 1; d > 0 && longest == 0; d-- {
		if hist[d] > 0 {
			longest = int64(d)
		}
	}
	finite := s.setConnected(g.N(), reachable)
	s.Diameter = ecc{v: longest, inf: !finite}.length()
	s.setASPL(finite, total.Float)
	return s
}

func newStats(g *graph.Graph, reachable bool) *Stats {
	return &Stats{
		Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: g.Weighted(),
		Reachable: reachable, Names: g.Names(),
	}
}

// NamesOf returns the names of vertices vs, never nil.
func NamesOf(vs []int, names []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = names[v]
	}
	return out
}

// setConnected sets Connected from ReachablePairs and reports whether the
// diameter and ASPL are finite.
func (s *Stats) setConnected(n int, reachable bool) (finite bool) {
	s.Connected = s.ReachablePairs == int64(n)*int64(n-1)
	return s.Connected || reachable
}

// setASPL sets the ASPL from the distances' total.
func (s *Stats) setASPL(finite bool, total func() float64) {
	switch {
	case !finite:
		s.ASPL = Mean(math.Inf(1))
	case s.ReachablePairs > 0:
		s.ASPL = Mean(total() / float64(s.ReachablePairs))
	default:
		// A mean over no pair (one vertex, or --reachable with no path)
		// is undefined, as in igraph.
		s.ASPL = Mean(math.NaN())
	}
}

// extremes sets the radius, diameter, center and periphery of s from the
// rows' eccentricities (RowEcc); FromRows calls it for float rows. The radius is the smallest eccentricity,
// finite whenever some vertex reaches every other — also in a directed
// graph that is not strongly connected (the arc 0→1 has radius 1, center
// {0}). Without finite the diameter is infinite; otherwise it is the
// largest distance over pairs that have a path, so sources reaching nobody
// (eccentricity 0 by convention) do not count: with negative weights every
// real distance may be below 0. An infinite radius has no center; the
// periphery is then the vertices that do not reach every other.
func extremes(s *Stats, rows []reduce.Row, exact, reachable, finite bool) {
	s.Radius = RowEcc(rows[0], exact, reachable)
	for _, r := range rows {
		if e := RowEcc(r, exact, reachable); e.Less(s.Radius) {
			s.Radius = e
		}
	}
	if !finite {
		s.Diameter = Infinite(!exact)
	} else {
		s.Diameter = RowEcc(reduce.Row{}, exact, reachable) // 0 when no pair has a path
		first := true
		for _, r := range rows {
			if e := RowEcc(r, exact, reachable); r.Reach > 0 && (first || s.Diameter.Less(e)) {
				s.Diameter, first = e, false
			}
		}
	}
	hasCenter := !s.Radius.IsInf()
	var centers, peripheral int
	for _, r := range rows {
		e := RowEcc(r, exact, reachable)
		if hasCenter && sameEcc(e, s.Radius) {
			centers++
		}
		if sameEcc(e, s.Diameter) {
			peripheral++
		}
	}
	s.Center, s.Periphery = sized(centers), sized(peripheral)
	for u, r := range rows {
		e := RowEcc(r, exact, reachable)
		if hasCenter && sameEcc(e, s.Radius) {
			s.Center = append(s.Center, u)
		}
		if sameEcc(e, s.Diameter) {
			s.Periphery = append(s.Periphery, u)
		}
	}
}

// ecc is an exact eccentricity as extremesBrief compares them: RowEcc's
// IntLength or Infinite(false) without the Length.
type ecc struct {
	v   int64
	inf bool
}

// briefEcc is source u's eccentricity: infinite when it misses some vertex
// (unless reachable), 0 when it reaches none.
func briefEcc(b *reduce.Brief, u int, reachable bool) ecc {
	switch r := b.Reach[u]; {
	case !reachable && int(r) < len(b.Reach)-1:
		return ecc{inf: true}
	case r == 0:
		return ecc{}
	}
	return ecc{v: b.Ecc[u]}
}

func (a ecc) less(b ecc) bool { return !a.inf && (b.inf || a.v < b.v) }

func (a ecc) length() Length {
	if a.inf {
		return Infinite(false)
	}
	return IntLength(a.v)
}

// extremesBrief is extremes for exact distances, on integers (tested
// against extremes in loop_stats_test.go): one pass finds the radius and
// diameter and counts the vertices at each, a second fills the lists.
func extremesBrief(s *Stats, b *reduce.Brief, reachable, finite, lists bool) {
	n := len(b.Reach)
	if finite && n > 1 && b.Pairs == int64(n)*int64(n-1) {
		if b.EccKnown && !lists {
			s.Radius, s.Diameter = IntLength(b.EccMin), IntLength(b.EccMax)
			return
		}
		extremesConnected(s, b.Ecc, lists)
		return
	}
	radius := briefEcc(b, 0, reachable)
	diameter := ecc{inf: !finite} // stays 0 when finite and no pair has a path
	first := true
	// zeroes counts the sources that reach nobody: their eccentricity is 0
	// (when finite), which makes them peripheral only if the diameter is 0.
	var centers, peripheral, zeroes int
	for u := range n {
		e := briefEcc(b, u, reachable)
		switch {
		case e.less(radius):
			radius, centers = e, 1
		case e == radius:
			centers++
		}
		switch {
		case !finite:
			if e.inf {
				peripheral++
			}
		case b.Reach[u] == 0:
			zeroes++
		case first || diameter.less(e):
			diameter, peripheral, first = e, 1, false
		case e == diameter:
			peripheral++
		}
	}
	if finite && diameter == (ecc{}) {
		peripheral += zeroes
	}
	if radius.inf {
		centers = 0
	}
	s.Radius, s.Diameter = radius.length(), diameter.length()
	if !lists {
		return
	}
	s.Center, s.Periphery = sized(centers), sized(peripheral)
	for u := range n {
		e := briefEcc(b, u, reachable)
		if !radius.inf && e == radius {
			s.Center = append(s.Center, u)
		}
		if e == diameter {
			s.Periphery = append(s.Periphery, u)
		}
	}
}

// extremesConnected is extremesBrief when every vertex reaches every
// other (the search loop's case): the eccentricities are the plain
// integers ecc, none infinite or empty. Its passes have no data-dependent
// branch: on a random regular graph the eccentricities alternate between
// two values at random, and the earlier form with comparisons spent a
// visible share of a large gpu-bitbfs call's host work in mispredicted
// branches (docs/perf.md, "gpu-bitbfs on large sparse graphs").
func extremesConnected(s *Stats, ecc []int64, lists bool) {
	radius, diameter := ecc[0], ecc[0]
	for _, e := range ecc {
		radius, diameter = min(radius, e), max(diameter, e)
	}
	s.Radius, s.Diameter = IntLength(radius), IntLength(diameter)
	if !lists {
		return
	}
	var centers, peripheral int
	for _, e := range ecc {
		centers += isZero(e - radius)
		peripheral += isZero(diameter - e)
	}
	// Every vertex is written at the next place of both lists and kept
	// there only when it belongs (the place then moves on); the lists
	// have one spare place for the writes that are not kept.
	center, periphery := make([]int, centers+1), make([]int, peripheral+1)
	c, q := 0, 0
	for u, e := range ecc {
		center[c] = u
		c += isZero(e - radius)
		periphery[q] = u
		q += isZero(diameter - e)
	}
	s.Center, s.Periphery = center[:centers:centers], periphery[:peripheral:peripheral]
}

// isZero is 1 for x = 0 and 0 otherwise, without a branch: x | −x has its
// sign bit set exactly when x ≠ 0.
func isZero(x int64) int { return int(((x | -x) >> 63) + 1) }

// sized returns an empty list with room for k vertices, nil when k is 0.
func sized(k int) []int {
	if k == 0 {
		return nil
	}
	return make([]int, 0, k)
}

// sameEcc compares eccentricities: exactly for integers, within a relative
// 1e-9 for floats, since per-source engines add a path's lengths in a
// different order from each end. Relative to the larger of the two only:
// a floor of 1 made every eccentricity below 1e-9 the same.
func sameEcc(a, b Length) bool {
	if a.IsInf() || b.IsInf() || !a.IsFloat() {
		return a == b
	}
	x, y := a.Float(), b.Float()
	return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}

// RowEcc is the eccentricity of a source from its row summary.
func RowEcc(r reduce.Row, exact, reachable bool) Length {
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
