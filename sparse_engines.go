package apsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/dijkstra"
	"github.com/apsp/apsp/internal/reduce"
)

var errNeedsUnweighted = errors.New("needs an unweighted graph (use --unweighted to count hops)")

// bfsEngine runs a breadth-first search from every source: one at a time
// per goroutine ("bfs"), or 512 at a time as bit sets ("bitbfs").
type bfsEngine struct{ bitParallel bool }

func (e bfsEngine) Name() string {
	if e.bitParallel {
		return "bitbfs"
	}
	return "bfs"
}
func (bfsEngine) Device() string { return "cpu" }

func (bfsEngine) Supports(p *Problem) error {
	if p.Graph.Kind() != graph.Unweighted {
		return errNeedsUnweighted
	}
	return nil
}

func (e bfsEngine) summary(ctx context.Context, p *Problem) (*bfs.Summary, error) {
	if err := checkWork(e, p, false); err != nil {
		return nil, err
	}
	if e.bitParallel {
		return bfs.BitRows(ctx, p.Graph, p.Threads, p.Progress)
	}
	return bfs.Rows(ctx, p.Graph, p.Threads, p.Progress)
}

func (e bfsEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	s, err := e.summary(ctx, p)
	if err != nil {
		return nil, "", err
	}
	return s.Rows, "cpu", nil
}

// Hist returns the number of ordered pairs at each distance.
func (e bfsEngine) Hist(ctx context.Context, p *Problem) ([]int64, error) {
	s, err := e.summary(ctx, p)
	if err != nil {
		return nil, err
	}
	return s.Hist, nil
}

func (e bfsEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	start := time.Now()
	n := p.Graph.N()
	if err := checkWork(e, p, true); err != nil {
		return nil, err
	}
	data, err := bfs.Matrix(ctx, p.Graph, p.Threads, p.Progress)
	if err != nil {
		return nil, err
	}
	for i, x := range data {
		if x < 0 {
			data[i] = cpu.Inf32
		}
	}
	m := &cpu.Matrix[int32]{N: n, Size: n, Stride: n, Data: data, Inf: cpu.Inf32}
	return finishCPU(e, p, newDistances(m, nil), start), nil
}

// dijkstraEngine runs Dijkstra from every source; "johnson" reweights with
// Bellman–Ford potentials first, so negative arcs work.
type dijkstraEngine struct{ johnson bool }

func (e dijkstraEngine) Name() string {
	if e.johnson {
		return "johnson"
	}
	return "dijkstra"
}
func (dijkstraEngine) Device() string { return "cpu" }

func (e dijkstraEngine) Supports(p *Problem) error {
	if _, err := cpu.PlanLanes(p.Graph); err != nil {
		return err
	}
	if !e.johnson && p.Graph.HasNegativeWeights() {
		return errors.New("has negative weights (use johnson)")
	}
	return nil
}

func (e dijkstraEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	if err := checkWork(e, p, false); err != nil {
		return nil, "", err
	}
	var rows []reduce.Row
	var err error
	if e.johnson {
		rows, err = dijkstra.JohnsonRows(ctx, p.Graph, p.Threads, p.Progress)
	} else {
		rows, err = dijkstra.Rows(ctx, p.Graph, p.Threads, p.Progress)
	}
	return rows, "cpu", err
}

func (e dijkstraEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	plan, err := cpu.PlanLanes(p.Graph)
	if err != nil {
		return nil, err
	}
	if err := checkWork(e, p, true); err != nil {
		return nil, err
	}
	n := p.Graph.N()
	switch plan.Lanes {
	case cpu.Int32:
		return runCPU(ctx, e, p, plan, n, func(m *cpu.Matrix[int32], _ []int32) error { return fillRows(ctx, e.johnson, p, m) })
	case cpu.Int64:
		return runCPU(ctx, e, p, plan, n, func(m *cpu.Matrix[int64], _ []int32) error { return fillRows(ctx, e.johnson, p, m) })
	}
	return runCPU(ctx, e, p, plan, n, func(m *cpu.Matrix[float64], _ []int32) error { return fillRows(ctx, e.johnson, p, m) })
}

func fillRows[T cpu.Lane](ctx context.Context, johnson bool, p *Problem, m *cpu.Matrix[T]) error {
	if johnson {
		return dijkstra.JohnsonFill(ctx, p.Graph, m, p.Threads, p.Progress)
	}
	return dijkstra.Fill(ctx, p.Graph, m, p.Threads, p.Progress)
}

// finishCPU stamps a CPU engine's result and derives successors if asked.
func finishCPU(e Engine, p *Problem, d *Distances, start time.Time) *Distances {
	if p.Paths && d.next == nil {
		d.next, d.nextStride = deriveSuccessors(d, p.Graph, p.Threads), d.n
	}
	d.Algorithm, d.Device, d.Threads = e.Name(), e.Device(), cpu.Threads(p.Threads)
	d.Seconds = time.Since(start).Seconds()
	return d
}

// histogrammer is implemented by engines that count pairs per distance
// without the matrix.
type histogrammer interface {
	Hist(ctx context.Context, p *Problem) ([]int64, error)
}

// Histogram is the distribution of shortest-path lengths: Count[d] ordered
// pairs u ≠ v at distance d (Count[0] is 0), and Unreachable pairs with no
// path. It needs exact (integer or unweighted) distances.
type Histogram struct {
	Count       []int64 `json:"count"`
	Unreachable int64   `json:"unreachable"`
	Algorithm   string  `json:"algorithm"`
}

// DistanceHistogram computes the hop plot of g (the distribution of
// distances over ordered pairs). Distances must be non-negative integers.
func DistanceHistogram(ctx context.Context, g *graph.Graph, opt Options) (*Histogram, error) {
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	if g.Kind() == graph.FloatWeights {
		return nil, errors.New("a histogram needs integer distances (use --unweighted to count hops)")
	}
	if g.HasNegativeWeights() {
		return nil, errors.New("a histogram needs non-negative distances")
	}
	if opt.Algorithm == BoundsAlgorithm {
		return nil, errBoundsOnly
	}
	e, p, err := choose(g, opt)
	if err != nil {
		return nil, err
	}
	n := int64(g.N())
	h := &Histogram{Algorithm: e.Name()}
	if he, ok := e.(histogrammer); ok {
		if h.Count, err = he.Hist(ctx, p); err != nil {
			return nil, err
		}
	} else {
		d, err := e.Run(ctx, p)
		if err != nil {
			return nil, err
		}
		counts := map[int64]int64{}
		var most int64
		for u := 0; u < d.n; u++ {
			for v := 0; v < d.n; v++ {
				if x, ok := d.Int(u, v); ok && u != v {
					counts[x]++
					most = max(most, x)
				}
			}
		}
		if most > 1<<24 {
			return nil, fmt.Errorf("distances reach %d: too many values for a histogram (use --unweighted to count hops)", most)
		}
		h.Count = make([]int64, most+1)
		for x, c := range counts {
			h.Count[x] = c
		}
	}
	var reached int64
	for _, c := range h.Count {
		reached += c
	}
	h.Unreachable = n*(n-1) - reached
	if len(h.Count) == 0 {
		h.Count = []int64{0}
	}
	return h, nil
}
