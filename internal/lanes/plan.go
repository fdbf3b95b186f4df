package lanes

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/apsp/apsp/graph"
)

// ErrWide is wrapped by engines that cannot take a wide plan (Plan.Wide):
// their arithmetic could overflow beyond half of int64's range. It wraps
// ErrWeightsTooLarge, since for such an engine that is what they are.
var ErrWide = fmt.Errorf("%w: path lengths need all of int64's range, which only engines whose sums cannot overflow take", ErrWeightsTooLarge)

// ErrWeightsTooLarge is returned when integer path lengths could exceed what
// 64-bit lanes represent exactly, or when float path lengths (or the sums
// the measures take over them) could leave float64's finite range, where an
// overflowed length would read as +Inf, "no path". Narrowest wraps it too
// when every offered kind is too narrow for the plan.
var ErrWeightsTooLarge = errors.New("weights too large")

// ErrNoKind is wrapped by Narrowest when no offered kind is of the plan's
// class: integer distances need an integer kind, float distances a float
// kind.
var ErrNoKind = errors.New("no offered lane kind holds these distances")

// Plan says which lanes hold a graph's distances and the bounds that make
// them safe.
type Plan struct {
	// Lanes is the narrowest of int32, int64 and float64 that holds every
	// distance: Narrowest(Int32, Int64, Float64), what every engine offered
	// before narrower kinds existed. Engines that offer other kinds ask
	// Narrowest.
	Lanes Kind
	// MaxReal and MinReal bound every real (finite) integer distance; any
	// value above MaxReal after a run comes from infinity.
	MaxReal, MinReal int64
	// Negative reports negative arcs, which need the negative-cycle check and
	// Normalize after the run.
	Negative bool
	// Wide reports int64 distances that need all of int64's positive range
	// (non-negative weights whose path lengths reach Inf64 or beyond):
	// infinity is then InfWide and only engines whose sums are simple
	// paths' lengths or guarded against overflow can run.
	Wide bool
	// MaxAbsFloat bounds |length| of every simple path of a float graph
	// (rounded up generously); 0 for integer graphs.
	MaxAbsFloat float64
	// MinAbsFloat is the smallest nonzero |weight| of a float graph (0 when
	// every weight is 0, and for integer graphs): float32 lanes refuse
	// weights below their normal range.
	MinAbsFloat float64
	// MaxDist, when positive, is a proven bound on every finite distance
	// (not every simple path) below MaxReal, set by Tighten for graphs
	// without negative arcs. Only the packed kinds (Int8, Int16) use it:
	// see Holds.
	MaxDist int64
	// n is the graph's vertex count, which the float rules scale with.
	n int
}

// FloatLimit is the largest MaxAbsFloat PlanFor accepts for a graph of n
// vertices: every path length, every sum of two (Floyd–Warshall's candidate
// walks) and the sum of all n(n−1) distances (the ASPL's numerator) then
// stay below half of math.MaxFloat64, far from overflow whatever the
// rounding (relative error at most n²·2⁻⁵³ per sum).
func FloatLimit(n int) float64 {
	pairs := math.Max(1, float64(n)*float64(n-1))
	return math.MaxFloat64 / 2 / pairs
}

// PlanFor bounds every path length of g and chooses the narrowest exact
// lanes among int32, int64 and float64 (Plan.Lanes): int32 when every path
// length provably fits, else int64 (wide when non-negative lengths need
// all of its range), else an error wrapping ErrWeightsTooLarge; float64 for
// float weights whose lengths stay below FloatLimit, else an error.
func PlanFor(g *graph.Graph) (Plan, error) {
	if g.Kind() == graph.FloatWeights {
		return planFloat(g)
	}
	n := uint64(max(g.N()-1, 0))
	var sumPos, sumNeg uint64 // saturating
	var maxPos, maxNeg uint64
	lo, hi := g.IntWeightRange()
	if hi > 0 {
		maxPos = uint64(hi)
	}
	if lo < 0 {
		maxNeg = uint64(-(lo + 1)) + 1 // safe for MinInt64
	}
	if g.Kind() == graph.Unweighted {
		sumPos = uint64(g.Arcs())
	} else {
		for u := 0; u < g.N(); u++ {
			for _, w := range g.IntWeights(u) {
				if w > 0 {
					sumPos = satAdd(sumPos, uint64(w))
				} else if w < 0 {
					sumNeg = satAdd(sumNeg, uint64(-(w+1))+1)
				}
			}
		}
	}
	if !g.Directed() {
		// Each undirected edge is stored twice but a simple path uses it
		// once; a saturated sum stays saturated (halving it would bound
		// nothing).
		if sumPos != math.MaxUint64 {
			sumPos /= 2
		}
		if sumNeg != math.MaxUint64 {
			sumNeg /= 2
		}
	}
	maxReal := min(satMul(n, maxPos), sumPos)
	minReal := min(satMul(n, maxNeg), sumNeg)
	span := satAdd(maxReal, minReal)
	p := Plan{Negative: minReal > 0 || hasNegLoop(g), n: g.N()}
	switch {
	case span < uint64(Inf64):
	case minReal == 0 && maxReal <= math.MaxInt64:
		p.Wide = true
	default:
		return Plan{}, fmt.Errorf("%w: integer path lengths may span %s..%s, beyond exact 64-bit distances", ErrWeightsTooLarge, fmtNeg(minReal), fmtSat(maxReal))
	}
	p.MaxReal, p.MinReal = int64(maxReal), -int64(minReal)
	var err error
	if p.Lanes, err = p.Narrowest(Int32, Int64, Float64); err != nil {
		return Plan{}, err // not reached: int64 holds every span above
	}
	return p, nil
}

// planFloat bounds every simple path's |length| by the smaller of (n−1)
// times the largest |weight| and the sum of all |weights| (each undirected
// edge once), and refuses the graph when that bound exceeds FloatLimit: an
// overflowed sum would be +Inf, indistinguishable from "no path".
func planFloat(g *graph.Graph) (Plan, error) {
	var sum, most float64
	least := math.Inf(1)
	for u := 0; u < g.N(); u++ {
		for _, w := range g.FloatWeights(u) {
			a := math.Abs(w)
			sum += a
			most = math.Max(most, a)
			if a != 0 {
				least = math.Min(least, a)
			}
		}
	}
	if math.IsInf(least, 1) {
		least = 0
	}
	if !g.Directed() {
		sum /= 2
	}
	// The float sum above may round down by at most m·2⁻⁵³ relative; the
	// factor 1+2⁻²⁰ covers any arc count below 2³³.
	bound := math.Min(float64(max(g.N()-1, 0))*most, sum) * (1 + 1.0/(1<<20))
	lo, _ := g.FloatWeightRange()
	// Lanes: Float64 marks the plan's class for Narrowest.
	p := Plan{Lanes: Float64, Negative: lo < 0 || hasNegLoop(g), MaxAbsFloat: bound, MinAbsFloat: least, n: g.N()}
	if limit := FloatLimit(g.N()); !(bound <= limit) {
		reach := fmt.Sprintf("%.3g", bound)
		if math.IsInf(bound, 1) {
			reach = "beyond 1.8e308"
		}
		return Plan{}, fmt.Errorf("%w: float path lengths may reach %s, but with %d vertices every length must stay below %.3g so that no sum overflows float64 (scale the weights down)",
			ErrWeightsTooLarge, reach, g.N(), limit)
	}
	var err error
	if p.Lanes, err = p.Narrowest(Int32, Int64, Float64); err != nil {
		return Plan{}, err // not reached: float64 holds every bound below FloatLimit
	}
	return p, nil
}

// Narrowest returns the narrowest of the offered kinds that holds every
// distance the plan bounds, so that an engine offering int16 and int32 gets
// int16 when the graph allows it.
//
// The plan's class is that of Lanes (float for float graphs). An integer
// plan takes integer kinds whose SpanBound exceeds the span
// MaxReal−MinReal; a wide plan takes only int64 (with InfWide). A float plan
// takes float kinds whose lengths, and every sum of two grown by n rounding
// steps of the kind's precision, stay below half its largest value, and
// whose normal range holds every nonzero weight (float32: 2⁻¹²⁶); the
// float64 sums of the measures must stay below FloatLimit too. Float
// results are within the kind's rounding, never exact.
//
// When offered kinds of the plan's class exist but none holds it, the
// error is the widest one's (wrapping ErrWeightsTooLarge, but for weights
// below float32's normal range); when none is of the plan's class, it wraps
// ErrNoKind.
func (p Plan) Narrowest(offered ...Kind) (Kind, error) {
	float := p.Lanes.IsFloat()
	var best, widest Kind
	for _, k := range offered {
		if !k.Valid() || k.IsFloat() != float {
			continue
		}
		if widest == 0 || k.Bytes() > widest.Bytes() {
			widest = k
		}
		if p.check(k, false) != nil { // the reason only for the widest, below
			continue
		}
		if best == 0 || k.Bytes() < best.Bytes() {
			best = k
		}
	}
	switch {
	case best != 0:
		return best, nil
	case widest != 0:
		return 0, p.Holds(widest)
	}
	class := "integer"
	if float {
		class = "float"
	}
	names := make([]string, len(offered))
	for i, k := range offered {
		names[i] = k.String()
	}
	return 0, fmt.Errorf("%w: %s distances, offered [%s]", ErrNoKind, class, strings.Join(names, " "))
}

// Holds returns nil when kind k holds every distance of the plan: the rule
// Narrowest applies to kinds of the plan's class. Besides, an integer plan
// fits a float kind exactly when it is not wide and its span is below
// 2^(mantissa−1) (2^23 for float32, 2^52 for float64): every distance and
// every sum of two is then an integer the float represents exactly. Float
// distances never fit integer kinds (ErrNoKind).
func (p Plan) Holds(k Kind) error { return p.check(k, true) }

// errRefused is check's answer when the reason is not wanted: planning
// asks every engine's kinds on every call, and formatting the refusals
// was most of its cost (BenchmarkResolve).
var errRefused = errors.New("lanes: kind refused")

// check is Holds, with the reason formatted only when why is set (else
// errRefused).
func (p Plan) check(k Kind, why bool) error {
	switch {
	case !k.Valid():
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: invalid %v", ErrNoKind, k)
	case p.Lanes.IsFloat() && !k.IsFloat():
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: float distances in %s lanes", ErrNoKind, k)
	case p.Lanes.IsFloat():
		return p.fitsFloat(k, why)
	case !k.IsFloat():
		return p.fitsInt(k, why)
	}
	bound := uint64(1) << (k.props().mantissa - 1)
	if !p.Wide && p.span() < bound {
		return nil
	}
	if !why {
		return errRefused
	}
	return fmt.Errorf("%w: integer path lengths may span %d..%d, beyond the integers %s lanes hold exactly (±2^%d)", ErrWeightsTooLarge, p.MinReal, p.MaxReal, k, k.props().mantissa-1)
}

// span returns MaxReal−MinReal, saturating.
func (p Plan) span() uint64 {
	hi := uint64(max(p.MaxReal, 0))
	lo := uint64(0)
	if p.MinReal < 0 {
		lo = uint64(-(p.MinReal + 1)) + 1 // safe for MinInt64
	}
	return satAdd(hi, lo)
}

func (p Plan) fitsInt(k Kind, why bool) error {
	if k.Packed() > 1 {
		return p.fitsPacked(k, why)
	}
	if p.Wide {
		if k == Int64 {
			return nil
		}
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: non-negative path lengths may reach %d, which only wide int64 lanes hold", ErrWeightsTooLarge, p.MaxReal)
	}
	if p.span() < uint64(k.SpanBound()) {
		return nil
	}
	if !why {
		return errRefused
	}
	return fmt.Errorf("%w: integer path lengths may span %d..%d, beyond %s lanes (infinity %d)", ErrWeightsTooLarge, p.MinReal, p.MaxReal, k, k.InfInt())
}

// fitsPacked is the rule of the packed kinds (int8, int16), which only
// the Floyd–Warshall engines offer. Their every step stores
// d = min(d, a+b) of stored values, all between 0 and the kind's infinity
// (so a+b never overflows); with non-negative weights, storing
// c(x) = min(x, inf) in place of each exact value x commutes with that step
// (min(c(d), c(a)+c(b)) clamped is c(min(d, a+b)), since a value at inf
// plus a non-negative one stays at or above inf). So the run ends with
// c(distance) in every entry: exact where the distance is below inf, and
// inf where there is no path. That needs only the distances below inf
// (MaxDist when Tighten proved one, else MaxReal), not every simple path;
// but negative weights break the argument, so they stay on wider kinds.
func (p Plan) fitsPacked(k Kind, why bool) error {
	switch bound := p.distBound(); {
	case p.Negative:
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: negative weights in %s lanes (the packed lanes take non-negative weights only)", ErrNoKind, k)
	case p.Wide:
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: non-negative path lengths may reach %d, which only wide int64 lanes hold", ErrWeightsTooLarge, p.MaxReal)
	case bound < k.SpanBound():
		return nil
	default:
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: distances may reach %d, beyond %s lanes (infinity %d)", ErrWeightsTooLarge, bound, k, k.InfInt())
	}
}

// distBound is the best proven bound on every finite distance.
func (p Plan) distBound() int64 {
	if p.MaxDist > 0 && p.MaxDist < p.MaxReal {
		return p.MaxDist
	}
	return p.MaxReal
}

func (p Plan) fitsFloat(k Kind, why bool) error {
	t := k.props()
	grow := 1 + float64(p.n)*math.Ldexp(1, -(t.mantissa-2))
	if !(p.MaxAbsFloat <= FloatLimit(p.n)) || !(2*p.MaxAbsFloat*grow <= t.max) {
		if !why {
			return errRefused
		}
		return fmt.Errorf("%w: float path lengths may reach %.3g, beyond what %s lanes hold without overflow", ErrWeightsTooLarge, p.MaxAbsFloat, k)
	}
	if p.MinAbsFloat != 0 && p.MinAbsFloat < t.minWeight {
		if !why {
			return errRefused
		}
		return fmt.Errorf("weight magnitude %g is below %s's normal range (%g), where it would lose its precision or become 0", p.MinAbsFloat, k, t.minWeight)
	}
	return nil
}

func hasNegLoop(g *graph.Graph) bool { _, ok := g.NegativeSelfLoop(); return ok }

func satAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return math.MaxUint64
	}
	return s
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func fmtSat(x uint64) string {
	if x == math.MaxUint64 {
		return "beyond 2^64"
	}
	return fmt.Sprint(x)
}

func fmtNeg(x uint64) string {
	if x == 0 {
		return "0"
	}
	return "-" + fmtSat(x)
}
