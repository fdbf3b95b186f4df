package bounds

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/par"
)

// Infinite is the value of Result.Diameter and Result.Radius when the
// distances are infinite: without Options.Reachable, the diameter of a
// graph that is not (strongly) connected, and the radius when no vertex
// reaches every other.
const Infinite = math.MaxInt64

// ErrBudget is wrapped by the error Diameter returns when Options.Budget
// ran out before the values were known.
var ErrBudget = errors.New("budget of searches spent")

// Result is the outcome of Diameter.
type Result struct {
	// Diameter is the largest distance over ordered pairs u != v: of the
	// whole graph when it is (strongly) connected, of reachable pairs with
	// Options.Reachable. It is 0 when no such pair exists, Infinite when
	// the graph is not (strongly) connected and Options.Reachable is
	// false.
	Diameter int64
	// Radius is the smallest eccentricity, or -1 when Options.WantRadius
	// is false. The eccentricity of u is the largest distance from u:
	// without Options.Reachable it is infinite when u does not reach every
	// vertex, so a directed graph that is not strongly connected still has
	// a finite radius when one strongly connected component reaches all
	// the others (the radius is then the smallest eccentricity in that
	// component), and Radius is Infinite when no vertex reaches every
	// other. With Options.Reachable the eccentricity is taken over the
	// vertices u reaches, and one reaching nothing has eccentricity 0.
	Radius int64
	// Connected reports whether the graph is connected (strongly, when
	// directed).
	Connected bool
	// Traversals is the number of breadth-first searches run, forward and
	// backward. When the budget runs out it is the number run before
	// Diameter gave up.
	Traversals int
}

// Options control Diameter.
type Options struct {
	// Reachable measures only pairs joined by a path, so disconnected
	// graphs get finite answers.
	Reachable bool
	// Threads bounds the goroutines (<= 0: one per usable CPU). Only the
	// forward and backward searches of a directed pivot pass run
	// concurrently; every other search depends on the bounds the previous
	// one left, and where this was tuned, with few cores, choosing
	// several sources per round to search them at once only added
	// searches.
	Threads int
	// WantRadius asks for the radius too; it usually costs a few more
	// searches.
	WantRadius bool
	// Budget caps the work, counted in searches of the whole graph: a
	// search costs the vertices it reaches plus the arcs it scans, over
	// n plus the number of arcs (so one search of a connected graph costs
	// 1 and searches inside small components much less), and each step of
	// the directed solver also costs n over that for its per-vertex
	// bookkeeping. Once the work spent reaches Budget before both values
	// are known, Diameter returns an error wrapping ErrBudget, with
	// Result.Traversals set. Budget <= 0 means no limit.
	Budget float64
}

// strategy selects the undirected algorithm. Diameter uses bounding
// diameters: iFUB needed about as many searches on grids and geometric
// graphs (6 against 7, 15 against 16) but on small-world graphs it ranged
// from somewhat better to far worse (4 against 8 on one preferential
// attachment graph of 10^6 vertices, 167 against 10 on one of 10^5). iFUB
// stays for the tests and benchmarks that compare the two.
type strategy int

const (
	// boundingDiameters finds both values with bounding diameters.
	boundingDiameters strategy = iota
	// ifub finds the diameter with iFUB, the radius with bounding
	// diameters.
	ifub
)

// Diameter returns the exact diameter (and, when asked, radius) of g, whose
// arcs all count as length 1. The context and the budget are checked
// between searches. An empty graph is connected, with diameter and radius
// 0.
func Diameter(ctx context.Context, g *graph.Graph, opt Options) (Result, error) {
	return diameter(ctx, g, opt, boundingDiameters)
}

func diameter(ctx context.Context, g *graph.Graph, opt Options, st strategy) (Result, error) {
	if g == nil {
		return Result{}, errors.New("bounds: nil graph")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("bounds: %w", err)
	}
	opt.Threads = par.Threads(opt.Threads)
	var (
		res Result
		err error
	)
	switch {
	case g.N() == 0:
		res = Result{Connected: true}
	case g.Directed():
		res, err = solveDirected(ctx, g, opt)
	default:
		res, err = solveUndirected(ctx, g, opt, st)
	}
	if err != nil {
		return Result{Traversals: res.Traversals}, fmt.Errorf("bounds: %w", err)
	}
	if !opt.WantRadius {
		res.Radius = -1
	}
	return res, nil
}

// meter counts the work spent against Options.Budget, in vertices reached
// plus arcs scanned.
type meter struct {
	work, limit int64 // limit 0: none
}

func newMeter(g *graph.Graph, budget float64) meter {
	if budget <= 0 {
		return meter{}
	}
	units := float64(g.N() + g.Arcs())
	return meter{limit: int64(min(math.Ceil(budget*units), math.MaxInt64/2))}
}

func (m *meter) add(work int) { m.work += int64(work) }

// spent reports whether the budget is used up.
func (m *meter) spent() bool { return m.limit > 0 && m.work >= m.limit }
