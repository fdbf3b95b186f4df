package golf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// Methods of Search.
const (
	Annealing    = "sa" // simulated annealing, ODP's sample/SA schedule
	HillClimbing = "hc" // accept a candidate no worse than the current graph

	PickFirst = "first" // a step takes its first accepted candidate
	PickBest  = "best"  // a step tests its best candidate alone
)

// DefaultEvals is the evaluation count of a search given neither Evals
// nor Time (ODP's sample/SA default).
const DefaultEvals = 10000

// tempProbes is how many candidates ODP's sample/SA evaluates to set the
// starting temperature.
const tempProbes = 100

// Options configure Search.
type Options struct {
	N, D int  // order and largest degree; N is Grid.W·Grid.H on a grid
	Grid Grid // the grid and its length limit, or the zero Grid
	// From is the graph to start from; nil starts from a random connected
	// graph: d-regular (graph/gen's regular) in general, a random graph
	// of degree at most D and edges within R on a grid.
	From   *Graph
	Method string        // Annealing (also "") or HillClimbing
	Evals  int64         // stop after this many evaluations (0: no limit unless Time is 0 too)
	Time   time.Duration // stop after this long (0: no limit)
	Seed   uint64        // the moves and the random start graph
	// Batch is the most candidate moves a step evaluates at once (through
	// apsp.SummaryBatch, or on a GPU Evaluator.SummaryChanges); 0 chooses
	// DefaultBatch(Eval). Under annealing
	// the step takes the first accepted candidate in order and drops the
	// rest, as a serial search would have evaluated them against the
	// same graph; every candidate counts as an evaluation and may become
	// the best.
	Batch int
	// FixedBatch makes every step of a first-accepted search evaluate
	// Batch candidates. Otherwise such a step evaluates about
	// sqrt(2·stepCost/p) of them, p being the recent rate of acceptance
	// (at most Batch): a step that accepts its second candidate wastes
	// the rest, which at a high temperature is most of a large batch.
	// The size depends on the acceptances alone, so a seed still repeats
	// the search.
	FixedBatch bool
	// Pick is how a step of more than one candidate moves: PickFirst
	// (also "") takes the first candidate in order that the acceptance
	// test takes, as above; PickBest puts the step's best candidate (by
	// diameter, then ASPL) to the test alone, so that a neighbourhood
	// evaluated at once (on a GPU) steers each move.
	Pick string
	// MaxTemp and MinTemp bound the geometric cooling schedule over the
	// run (by evaluations, or by time under Time alone); 0 takes ODP's
	// defaults: MinTemp = -2/ln(0.0001), MaxTemp = the largest energy
	// increase seen in 100 hill-climbing candidates / ln 2, energy being
	// ASPL·n(n-1) at equal diameter.
	MaxTemp, MinTemp float64
	Eval             apsp.Options // the evaluator's options (device, threads, engine)
	// Symmetry g > 1 searches graphs invariant under the rotation
	// v → v + N/g (mod N), as ODP's "_s" samples do: each move is a swap
	// made in all g copies, and a graph is measured from N/g sources, so
	// an evaluation costs about 1/g of a whole one. g must divide N; not
	// on a grid; measured on the CPU. A From graph must be invariant (no
	// edge mapped onto itself); the random start needs an odd g for an
	// odd D.
	Symmetry int
	// Progress, if not nil, receives the state of the search about every
	// ProgressEvery (0: one second) and once at the end.
	Progress      func(Progress)
	ProgressEvery time.Duration

	// asChanges measures a step of several candidates as changes of the
	// current graph (Evaluator.SummaryChanges) on any device, as it is
	// measured on a GPU: the tests compare it with the graphs built.
	asChanges bool
}

// Figures are a graph's diameter and ASPL with their gaps to the bounds.
type Figures struct {
	Diameter    int     `json:"diameter"`
	ASPL        float64 `json:"aspl"`
	DiameterGap int     `json:"diameter_gap"`
	ASPLGap     float64 `json:"aspl_gap"`
}

// Progress is the state of a running search.
type Progress struct {
	Evals       int64         `json:"evals"`
	Elapsed     time.Duration `json:"elapsed_ns"`
	EvalsPerSec float64       `json:"evals_per_second"`
	Temp        float64       `json:"temperature"`
	Current     Figures       `json:"current"`
	Best        Figures       `json:"best"`
}

// Result is a search's outcome: the best graph found, measured again and
// checked by a second engine (Report).
type Result struct {
	Graph       *Graph  `json:"-"`
	Report      *Report `json:"report"`
	Start       Figures `json:"start"`
	Method      string  `json:"method"`
	Seed        uint64  `json:"seed"`
	Batch       int     `json:"batch"`
	Symmetry    int     `json:"symmetry,omitempty"`
	FixedBatch  bool    `json:"fixed_batch,omitempty"`
	Evals       int64   `json:"evals"`
	Accepted    int64   `json:"accepted"`
	Seconds     float64 `json:"seconds"`
	EvalsPerSec float64 `json:"evals_per_second"`
	MaxTemp     float64 `json:"max_temp,omitempty"`
	MinTemp     float64 `json:"min_temp,omitempty"`
	Stopped     string  `json:"stopped"` // "evals", "time", "optimum" or the context's error
}

// DefaultBatch is the candidates a step evaluates at once under opt: on
// a GPU a neighbourhood of 256 (the bulk search of many small graphs),
// on the CPU one a thread.
func DefaultBatch(opt apsp.Options) int {
	if strings.HasPrefix(opt.Device, "gpu") {
		return 256
	}
	return max(1, threadsOf(opt))
}

// threadsOf is the host threads opt allows: every CPU, or opt.Threads
// when fewer.
func threadsOf(opt apsp.Options) int {
	t := runtime.GOMAXPROCS(0)
	if opt.Threads > 0 {
		t = min(t, opt.Threads)
	}
	return t
}

// Search looks for a graph of smallest diameter, then smallest ASPL,
// over degree-preserving 2-opt edge swaps. It stops after opt.Evals
// evaluations or opt.Time, when the bounds are met, or when ctx ends;
// then it returns the best graph found with a nil error, unless ctx
// ended, whose error it wraps beside the result.
func Search(ctx context.Context, opt Options) (*Result, error) {
	if err := checkOptions(&opt); err != nil {
		return nil, err
	}
	start := opt.From
	var err error
	switch {
	case start == nil && opt.Symmetry > 1:
		start, err = randomSymmetric(opt)
	case start == nil:
		start, err = randomGraph(opt)
	case opt.Symmetry > 1:
		var edges [][2]int32
		if edges, err = orbitOrder(start, opt.Symmetry); err == nil {
			start = &Graph{N: start.N, Edges: edges}
		}
	}
	if err != nil {
		return nil, err
	}
	st, err := newState(start)
	if err != nil {
		return nil, err
	}
	st.sym = max(1, opt.Symmetry)
	bound, err := boundOf(opt.N, opt.D, opt.Grid)
	if err != nil {
		return nil, err
	}
	if opt.Batch == 1 && opt.Eval.Threads == 0 && !strings.HasPrefix(opt.Eval.Device, "gpu") {
		// One small graph at a time gains nothing from threads sharing
		// its search (at (1024, 8) two take 2.7 times as long as one).
		opt.Eval.Threads = 1
	}
	s := &search{opt: opt, st: st, bound: bound, rng: rand.New(rand.NewPCG(opt.Seed, 0x601f_5eed)), ctx: ctx}
	for v := range opt.N / st.sym {
		s.base = append(s.base, v)
	}
	if opt.Batch > 1 && opt.Batch < 1<<20 && !strings.HasPrefix(opt.Eval.Device, "gpu") && opt.Eval.Threads == 0 {
		// Several candidates a step on the CPU: each on one thread, the
		// caller and Batch-1 helpers (at most a CPU each) taking them.
		ev := opt.Eval
		ev.Threads = 1
		if s.ev, err = apsp.NewEvaluator(ev); err != nil {
			return nil, fmt.Errorf("golf: %w", err)
		}
		s.team = newTeam(s.candidate, min(opt.Batch, runtime.GOMAXPROCS(0))-1)
		defer s.team.close()
		return s.run(ctx)
	}
	if s.ev, err = apsp.NewEvaluator(opt.Eval); err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	return s.run(ctx)
}

func checkOptions(opt *Options) error {
	if opt.Grid.IsGrid() {
		if opt.Grid.H < 1 || opt.Grid.R < 1 {
			return fmt.Errorf("%w: grid %d×%d r=%d", ErrParams, opt.Grid.W, opt.Grid.H, opt.Grid.R)
		}
		opt.N = opt.Grid.W * opt.Grid.H
	}
	if f := opt.From; f != nil {
		if opt.N == 0 {
			opt.N, opt.Grid = f.N, f.Grid
		}
		if opt.D == 0 {
			opt.D = f.MaxDegree()
		}
		if f.N != opt.N || f.Grid.W != opt.Grid.W || f.Grid.H != opt.Grid.H {
			return fmt.Errorf("%w: the start graph has %d vertices (grid %d×%d), the search %d (grid %d×%d)",
				ErrParams, f.N, f.Grid.W, f.Grid.H, opt.N, opt.Grid.W, opt.Grid.H)
		}
		if md := f.MaxDegree(); md > opt.D {
			return fmt.Errorf("%w: the start graph has degree %d > d=%d", ErrParams, md, opt.D)
		}
		if r := opt.Grid.R; r > 0 {
			for _, e := range f.Edges {
				if l := opt.Grid.Length(int(e[0]), int(e[1])); l > r {
					return fmt.Errorf("%w: the start graph's edge %s %s has length %d > r=%d",
						ErrParams, opt.Grid.Name(int(e[0])), opt.Grid.Name(int(e[1])), l, r)
				}
			}
		}
	}
	if err := checkND(opt.N, opt.D); err != nil {
		return err
	}
	if opt.Symmetry < 0 {
		return fmt.Errorf("%w: negative symmetry", ErrParams)
	}
	if err := checkSymmetry(opt); err != nil {
		return err
	}
	switch opt.Pick {
	case "":
		opt.Pick = PickFirst
	case PickFirst, PickBest:
	default:
		return fmt.Errorf("%w: pick %q (want %s or %s)", ErrParams, opt.Pick, PickFirst, PickBest)
	}
	switch opt.Method {
	case "":
		opt.Method = Annealing
	case Annealing, HillClimbing:
	default:
		return fmt.Errorf("%w: method %q (want %s or %s)", ErrParams, opt.Method, Annealing, HillClimbing)
	}
	if opt.Evals < 0 || opt.Time < 0 || opt.Batch < 0 || opt.MaxTemp < 0 || opt.MinTemp < 0 {
		return fmt.Errorf("%w: negative evals, time, batch or temperature", ErrParams)
	}
	if opt.Evals == 0 && opt.Time == 0 {
		opt.Evals = DefaultEvals
	}
	if opt.Batch == 0 {
		opt.Batch = DefaultBatch(opt.Eval)
	}
	if opt.MinTemp == 0 {
		opt.MinTemp = -2 / math.Log(0.0001)
	}
	if opt.ProgressEvery == 0 {
		opt.ProgressEvery = time.Second
	}
	return nil
}

// randomGraph is the start graph when none is given.
func randomGraph(opt Options) (*Graph, error) {
	if opt.Grid.IsGrid() {
		return randomGrid(opt.Grid, opt.D, opt.Seed)
	}
	g, err := gen.Make("regular", "n="+strconv.Itoa(opt.N), "d="+strconv.Itoa(opt.D), "seed="+strconv.FormatUint(opt.Seed, 10))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrParams, err)
	}
	return fromLibrary(g), nil
}

func fromLibrary(g *graph.Graph) *Graph {
	out := &Graph{N: g.N()}
	for u := range g.N() {
		for _, v := range g.Neighbors(u) {
			if int32(u) < v {
				out.Edges = append(out.Edges, [2]int32{int32(u), v})
			}
		}
	}
	return out
}

// randomGrid joins random pairs of vertices within the length limit that
// both have a free degree, until a sweep adds nothing, and retries with
// another stream until the graph is connected.
func randomGrid(grid Grid, d int, seed uint64) (*Graph, error) {
	n := grid.W * grid.H
	for attempt := uint64(0); attempt < 100; attempt++ {
		rng := rand.New(rand.NewPCG(seed, 0x9_12d0+attempt))
		deg := make([]int, n)
		adj := make([]map[int32]bool, n)
		for i := range adj {
			adj[i] = map[int32]bool{}
		}
		var near []int32
		g := &Graph{N: n, Grid: grid}
		for added := true; added; {
			added = false
			for _, u := range rng.Perm(n) {
				if deg[u] >= d {
					continue
				}
				near = near[:0]
				ux, uy := grid.XY(u)
				for x := max(0, ux-grid.R); x <= min(grid.W-1, ux+grid.R); x++ {
					for y := max(0, uy-grid.R); y <= min(grid.H-1, uy+grid.R); y++ {
						v := grid.Vertex(x, y)
						if v != u && abs(x-ux)+abs(y-uy) <= grid.R && deg[v] < d && !adj[u][int32(v)] {
							near = append(near, int32(v))
						}
					}
				}
				if len(near) == 0 {
					continue
				}
				v := near[rng.IntN(len(near))]
				adj[u][v], adj[v][int32(u)] = true, true
				deg[u]++
				deg[v]++
				g.Edges = append(g.Edges, [2]int32{int32(min(u, int(v))), int32(max(u, int(v)))})
				added = true
			}
		}
		if connected(g) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w: no connected random grid graph %d×%d d=%d r=%d", ErrParams, grid.W, grid.H, d, grid.R)
}

func connected(g *Graph) bool {
	st, err := newState(g)
	if err != nil || g.N == 0 {
		return false
	}
	seen := make([]bool, g.N)
	stack := []int32{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range st.row(st.heads, u) {
			if !seen[v] {
				seen[v] = true
				count++
				stack = append(stack, v)
			}
		}
	}
	return count == g.N
}

// search is one run of Search.
type search struct {
	opt   Options
	st    *state
	bound Bound
	rng   *rand.Rand
	ev    *apsp.Evaluator
	team  *team // the CPU's helpers for a step of several candidates, or nil
	// base is the sources a graph is measured from: every vertex, or
	// under symmetry the first of each orbit (symmetry.go).
	base []int

	moves []move
	gs    []*graph.Graph
	curG  *graph.Graph // the current graph, which candidates change
	// made holds the candidates made and not yet handed back; spare the
	// ones handed back, whose arrays graph.ChangeInto takes for the next
	// candidates (a search allocates no graph per candidate).
	made, spare []*graph.Graph
	dsts        []*graph.Graph // the step's spare graphs, one a candidate (or nil)
	// onGPU measures a step's candidates as changes of the current graph
	// (apsp.Evaluator.SummaryChanges: the GPU gets the graph once and
	// each candidate as its swap) and builds only those it keeps.
	onGPU   bool
	changes []graph.Changes // the step's candidates as changes (onGPU)
	swaps   [][4][2]int     // their edges: removed ab, cd; added ac, bd
	ms      []measure       // the step's measures (evaluate's result, valid until the next call)
	errs    []error         // the step's errors
	ctx     context.Context

	cur, best measure
	bestG     *graph.Graph
	evals     int64
	accepted  int64
	began     time.Time
	// The recent candidates evaluated up to and including an accepted
	// one (or the whole step), and the acceptances, decayed a step:
	// their ratio is the acceptance rate stepSize plans with.
	recentTried, recentAccepted float64
}

// stepCost is a step's fixed cost in candidates' worth. On an H200 a
// step at (256, 8) took 0.5 ms with 256 candidates and 1.4 ms with
// 1 024: about 0.2 ms, plus 1.2 µs a candidate.
const stepCost = 200

// stepSize is how many candidates the next step evaluates. With the
// first accepted taken and acceptance at rate p, k candidates advance
// the serial search by about (1-e^(-kp))/p at a cost of stepCost+k;
// the best k is near sqrt(2·stepCost/p) while kp is small.
func (s *search) stepSize() int {
	b := s.opt.Batch
	if s.opt.FixedBatch || s.opt.Pick != PickFirst || b <= 2 {
		return b
	}
	p := (s.recentAccepted + 1) / (s.recentTried + 2)
	lo := 1
	if s.team != nil {
		// The CPU's helpers measure a step side by side: fewer
		// candidates than helpers would leave some idle.
		lo = runtime.GOMAXPROCS(0)
	}
	return min(b, max(lo, int(math.Ceil(math.Sqrt(2*stepCost/p)))))
}

// stepped records a first-accepted step: tried candidates up to the one
// accepted, or all of them when none was.
func (s *search) stepped(tried int, accepted bool) {
	const decay = 0.95
	s.recentTried = s.recentTried*decay + float64(tried)
	s.recentAccepted *= decay
	if accepted {
		s.recentAccepted++
	}
}

func (s *search) figures(m measure) Figures {
	if !m.connected {
		return Figures{Diameter: -1}
	}
	return Figures{Diameter: m.diameter, ASPL: m.aspl, DiameterGap: m.diameter - s.bound.Diameter, ASPLGap: m.aspl - s.bound.ASPL}
}

// evaluate measures k candidate moves from the current graph into
// s.moves[:k] and returns their measures (fewer when no move is left).
func (s *search) evaluate(ctx context.Context, k int) ([]measure, error) {
	s.moves, s.gs, s.dsts = s.moves[:0], s.gs[:0], s.dsts[:0]
	// Every candidate made so far is done with but the current graph
	// and the best.
	kept := s.made[:0]
	for _, g := range s.made {
		if g == s.curG || g == s.bestG {
			kept = append(kept, g)
		} else {
			s.spare = append(s.spare, g)
		}
	}
	s.made = kept
	// The moves, in the order of the random stream, each with a spare
	// graph whose arrays its candidate takes.
	for range k {
		mv, ok := s.st.propose(s.rng)
		if !ok {
			break
		}
		var dst *graph.Graph
		if len(s.spare) > 0 {
			dst = s.spare[len(s.spare)-1]
			s.spare = s.spare[:len(s.spare)-1]
		}
		s.moves = append(s.moves, mv)
		s.dsts = append(s.dsts, dst)
		s.gs = append(s.gs, nil)
	}
	n := len(s.moves)
	if n == 0 {
		return nil, fmt.Errorf("%w: no edge swap keeps the graph simple (and within r)", ErrParams)
	}
	if cap(s.ms) < n {
		s.ms, s.errs = make([]measure, n), make([]error, n)
	}
	ms, errs := s.ms[:n], s.errs[:n]
	switch {
	case s.team != nil && n > 1:
		// The team makes and measures the candidates, each its own.
		s.team.measure(n, errs)
	case n == 1 && s.st.sym > 1:
		// One candidate on the search's threads.
		if errs[0] = s.build(0); errs[0] == nil {
			ms[0], errs[0] = s.measureOf(ctx, s.gs[0], 0)
		}
	case n == 1:
		errs[0] = s.candidate(0)
	case s.st.sym > 1:
		// Each candidate made and measured from its base vertices on one
		// thread.
		eachOn(threadsOf(s.opt.Eval), n, func(i int) { errs[i] = s.candidate(i) })
	case s.onGPU:
		// No graph is built but those kept (candidateGraph): at 256
		// vertices, making a candidate's graph and laying it out cost
		// the host about 30 times the bulk search's time for it.
		for i, d := range s.dsts {
			if d != nil {
				s.spare = append(s.spare, d)
				s.dsts[i] = nil
			}
		}
		s.changes, s.swaps = s.changes[:0], s.swaps[:0]
		for _, mv := range s.moves {
			s.swaps = s.st.swapsOf(s.swaps, mv)
		}
		// The changes slice into s.swaps only once it has stopped
		// growing (an append may move it).
		for i := range s.swaps {
			sw := &s.swaps[i]
			s.changes = append(s.changes, graph.Changes{Remove: sw[:2:2], Add: sw[2:4:4]})
		}
		sums, serrs := s.ev.SummaryChanges(ctx, s.curG, s.changes)
		for i := range sums {
			ms[i], errs[i] = fromSummary(sums[i], s.st.n), serrs[i]
		}
	default:
		// Built on every host thread (a GPU's step whose graphs the bulk
		// search does not take as edits, or the CPU with Eval.Threads
		// set): on the GPU a step of 256 candidates of 1 024 vertices took
		// longer to make one after another than the bulk search took to
		// measure them.
		eachOn(threadsOf(s.opt.Eval), n, func(i int) { errs[i] = s.build(i) })
		if err := errors.Join(errs...); err == nil {
			sums, serrs := s.ev.SummaryBatch(ctx, s.gs)
			for i := range sums {
				ms[i], errs[i] = fromSummary(sums[i], s.st.n), serrs[i]
			}
		}
	}
	for i, g := range s.gs {
		if g != nil {
			s.made = append(s.made, g)
		} else if s.dsts[i] != nil {
			s.spare = append(s.spare, s.dsts[i])
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("golf: %w", err)
		}
	}
	s.evals += int64(len(ms))
	for i, m := range ms {
		if better(m, s.best) {
			g, err := s.candidateGraph(i)
			if err != nil {
				return nil, err
			}
			s.best = m
			s.bestG = g
		}
	}
	return ms, nil
}

// candidateGraph is candidate i's graph of the last step: the one made
// to measure it, or, where the step measured changes (onGPU), made now
// from a spare graph's arrays.
func (s *search) candidateGraph(i int) (*graph.Graph, error) {
	if g := s.gs[i]; g != nil {
		return g, nil
	}
	if n := len(s.spare); n > 0 {
		s.dsts[i] = s.spare[n-1]
		s.spare = s.spare[:n-1]
	}
	if err := s.build(i); err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	s.made = append(s.made, s.gs[i])
	return s.gs[i], nil
}

// build makes candidate i, the current graph with move i made: Change
// checks the four edges it touches, not the whole graph again, and
// takes the arrays of the spare graph s.dsts[i]. Candidates are made
// concurrently by the team, each from its own slots.
func (s *search) build(i int) error {
	mv := s.moves[i]
	var one [1][4][2]int // a plain swap's edges, kept off the heap
	sw := s.st.swapsOf(one[:0], mv)
	var ch graph.Changes
	if len(sw) == 1 {
		ch = graph.Changes{Remove: sw[0][:2:2], Add: sw[0][2:4:4]}
	} else {
		ch = changesOf(sw)
	}
	g, err := s.curG.ChangeInto(s.dsts[i], ch)
	if err != nil {
		return err
	}
	s.gs[i] = g
	return nil
}

// candidate makes candidate i and measures it into s.ms[i].
func (s *search) candidate(i int) error {
	if err := s.build(i); err != nil {
		return err
	}
	m, err := s.measureOf(s.ctx, s.gs[i], 1)
	s.ms[i] = m
	return err
}

// measureOf measures a graph of the search: the evaluator's summary, or
// under symmetry the hop plot from the base vertices on the CPU, on
// threads threads (0: the search's).
func (s *search) measureOf(ctx context.Context, g *graph.Graph, threads int) (measure, error) {
	if s.st.sym > 1 {
		o := s.opt.Eval
		o.Device = "cpu"
		if threads > 0 {
			o.Threads = threads
		}
		return measureFromBase(ctx, g, s.base, s.st.sym, o)
	}
	sum, err := s.ev.Summary(ctx, g)
	return fromSummary(sum, s.st.n), err
}

// headsOf is g's arcs in vertex order: the rows of a golf state.
func headsOf(g *graph.Graph) []int32 {
	heads := make([]int32, 0, g.Arcs())
	for u := range g.N() {
		heads = append(heads, g.Neighbors(u)...)
	}
	return heads
}

// maxTemp is ODP's starting temperature: hill climbing over tempProbes
// candidates, the largest energy increase seen at equal diameter / ln 2.
func (s *search) maxTemp(ctx context.Context) (float64, error) {
	worst := 0.0
	nn := float64(s.st.n) * float64(s.st.n-1)
	for done := 0; done < tempProbes; {
		ms, err := s.evaluate(ctx, min(s.opt.Batch, tempProbes-done))
		if err != nil {
			return 0, err
		}
		// A probe is a candidate up to the first one taken: those after
		// it were measured against a graph the serial probing would have
		// left, and counting them would end the probing after one step
		// of 100 candidates that took its first (on a GPU, a
		// starting temperature of 1: hill climbing).
		tried := len(ms)
		for i, m := range ms {
			if m.connected && m.diameter == s.cur.diameter {
				worst = max(worst, (m.aspl-s.cur.aspl)*nn)
			}
			if !better(s.cur, m) {
				g, err := s.candidateGraph(i)
				if err != nil {
					return 0, err
				}
				s.st.apply(s.moves[i])
				s.curG = g
				s.cur = m
				tried = i + 1
				break
			}
		}
		done += tried
	}
	if worst == 0 {
		return 1, nil
	}
	return worst / math.Ln2, nil
}

func (s *search) accept(m measure, temp float64) bool {
	if !m.connected {
		return false
	}
	if s.opt.Method == HillClimbing || !s.cur.connected {
		return !better(s.cur, m)
	}
	if m.diameter != s.cur.diameter {
		return m.diameter < s.cur.diameter
	}
	if m.aspl <= s.cur.aspl {
		return true
	}
	diff := (s.cur.aspl - m.aspl) * float64(s.st.n) * float64(s.st.n-1)
	return math.Exp(diff/temp) > s.rng.Float64()
}

func (s *search) progress(temp float64) Progress {
	el := time.Since(s.began)
	return Progress{Evals: s.evals, Elapsed: el, EvalsPerSec: float64(s.evals) / el.Seconds(), Temp: temp,
		Current: s.figures(s.cur), Best: s.figures(s.best)}
}

func (s *search) run(ctx context.Context) (*Result, error) {
	opt := s.opt
	s.began = time.Now()
	g0, err := s.st.graphOf(slices.Clone(s.st.heads))
	if err != nil {
		return nil, err
	}
	if s.cur, err = s.measureOf(ctx, g0, 0); err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	s.best = s.cur
	s.curG, s.bestG = g0, g0
	// A step's candidates go as changes of the current graph where the
	// library measures them without building them (a GPU's bulk search,
	// graphs of up to 1 024 vertices); elsewhere they are built into
	// spare graphs' arrays (a change built by the library would allocate
	// its graph). Every candidate has g0's vertices and degrees.
	s.onGPU = s.team == nil && s.st.sym == 1 && (opt.asChanges || s.ev.ChangesAsEdits(g0))
	s.evals = 1
	res := &Result{Start: s.figures(s.cur), Method: opt.Method, Seed: opt.Seed, Batch: opt.Batch, FixedBatch: opt.FixedBatch, MinTemp: opt.MinTemp}
	if s.st.sym > 1 {
		res.Symmetry = s.st.sym
	}
	maxT := opt.MaxTemp
	if opt.Method == Annealing && maxT == 0 {
		if maxT, err = s.maxTemp(ctx); err != nil {
			return nil, err
		}
	}
	if opt.Method == Annealing {
		res.MaxTemp = maxT
	} else {
		res.MinTemp = 0
	}
	// The counts and the clock of the schedule start after the probes,
	// as ODP's sample/SA times its loop.
	first, t0 := s.evals, time.Now()
	temp := maxT
	nextReport := t0.Add(opt.ProgressEvery)
	optimum := func() bool {
		return s.best.connected && s.best.diameter == s.bound.Diameter && s.best.sum <= int64(math.Round(s.bound.ASPL*float64(s.st.n)*float64(s.st.n-1)/2))
	}
	var ctxErr error
	for {
		done, el := s.evals-first, time.Since(t0)
		frac := 0.0
		if opt.Evals > 0 {
			frac = float64(done) / float64(opt.Evals)
		}
		if opt.Time > 0 {
			frac = max(frac, el.Seconds()/opt.Time.Seconds())
		}
		switch {
		case opt.Evals > 0 && done >= opt.Evals:
			res.Stopped = "evals"
		case opt.Time > 0 && el >= opt.Time:
			res.Stopped = "time"
		case optimum():
			res.Stopped = "optimum"
		case ctx.Err() != nil:
			ctxErr = ctx.Err()
			res.Stopped = ctxErr.Error()
		}
		if res.Stopped != "" {
			break
		}
		if opt.Progress != nil && time.Now().After(nextReport) {
			opt.Progress(s.progress(temp))
			nextReport = time.Now().Add(opt.ProgressEvery)
		}
		k := s.stepSize()
		if opt.Evals > 0 {
			k = int(min(int64(k), opt.Evals-done))
		}
		ms, err := s.evaluate(ctx, k)
		if err != nil {
			if ctx.Err() != nil {
				ctxErr = ctx.Err()
				res.Stopped = ctxErr.Error()
				break
			}
			return nil, err
		}
		if opt.Pick == PickBest {
			bi := -1
			for i, m := range ms {
				if m.connected && (bi < 0 || better(m, ms[bi])) {
					bi = i
				}
			}
			if opt.Method == Annealing {
				f := frac
				if opt.Evals > 0 {
					f += float64(len(ms)) / float64(opt.Evals)
				}
				temp = maxT * math.Pow(opt.MinTemp/maxT, min(1, f))
			}
			if bi >= 0 && s.accept(ms[bi], temp) {
				g, err := s.candidateGraph(bi)
				if err != nil {
					return nil, err
				}
				s.st.apply(s.moves[bi])
				s.curG = g
				s.cur = ms[bi]
				s.accepted++
			}
			continue
		}
		tried, took := len(ms), false
		for i, m := range ms {
			if opt.Method == Annealing {
				f := frac
				if opt.Evals > 0 {
					f += float64(i) / float64(opt.Evals)
				}
				temp = maxT * math.Pow(opt.MinTemp/maxT, min(1, f))
			}
			if s.accept(m, temp) {
				g, err := s.candidateGraph(i)
				if err != nil {
					return nil, err
				}
				s.st.apply(s.moves[i])
				s.curG = g
				s.cur = m
				s.accepted++
				tried, took = i+1, true
				break
			}
		}
		s.stepped(tried, took)
	}
	if opt.Progress != nil {
		opt.Progress(s.progress(temp))
	}
	res.Evals = s.evals
	res.Accepted = s.accepted
	res.Seconds = time.Since(s.began).Seconds()
	res.EvalsPerSec = float64(s.evals) / res.Seconds
	res.Graph = s.st.golfGraph(headsOf(s.bestG))
	// The final figures come again from the library and from the check
	// engine, on a graph rebuilt from the edges.
	rep, err := Evaluate(context.WithoutCancel(ctx), res.Graph, opt.D, opt.Eval)
	if err != nil {
		return nil, err
	}
	if rep.Diameter != s.best.diameter || rep.Sum != s.best.sum {
		return nil, fmt.Errorf("%w: the search's best (%d, %.10f) measures (%d, %.10f) again", ErrMismatch,
			s.best.diameter, s.best.aspl, rep.Diameter, rep.ASPL)
	}
	res.Report = rep
	if ctxErr != nil {
		return res, fmt.Errorf("golf: search stopped: %w", ctxErr)
	}
	return res, nil
}
