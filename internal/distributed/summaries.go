package distributed

import (
	"context"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNotDistributable is wrapped by Summaries' refusals of a graph it does
// not take: float weights, negative arcs (RunHost needs no negative
// cycle, and checking that is a computation of its own), or lengths beyond
// int64's narrow plan.
var ErrNotDistributable = errors.New("graph not supported by the distributed run")

// DefaultTile is the tile of a distributed run: the host kernels' tiles
// are scalar, and 128 keeps a round's messages large.
const DefaultTile = 128

// Summaries computes every source's Row of g over the ranks of world: a
// grid of world's size (GridFor), g's adjacency matrix in 2-D block-cyclic
// tiles of tile lanes that each rank builds from g's arcs (no rank holds
// the n×n matrix), blocked Floyd–Warshall by RunHost, and the rows reduced
// where they lie, combined along each grid row and then over the world so
// that every rank returns all n rows, and the lanes it computed in. Every rank of world calls it with
// the same graph and tile; an error on one rank makes every rank fail.
func Summaries(ctx context.Context, world comm.Comm, g *graph.Graph, tile int) ([]reduce.Row, lanes.Kind, error) {
	plan, err := lanes.PlanFor(g)
	if err != nil {
		return nil, 0, err
	}
	switch {
	case g.Kind() == graph.FloatWeights:
		return nil, 0, fmt.Errorf("%w: float weights (integer weights or none)", ErrNotDistributable)
	case plan.Negative:
		return nil, 0, fmt.Errorf("%w: negative arcs", ErrNotDistributable)
	}
	if plan.Holds(lanes.Int32) == nil {
		rows, err := summaries[int32](ctx, world, g, tile)
		return rows, lanes.Int32, err
	}
	if plan.Holds(lanes.Int64) == nil && !plan.Wide {
		rows, err := summaries[int64](ctx, world, g, tile)
		return rows, lanes.Int64, err
	}
	return nil, 0, fmt.Errorf("%w: path lengths may reach %d, beyond int64's narrow lanes", ErrNotDistributable, plan.MaxReal)
}

func summaries[T lanes.Lane](ctx context.Context, world comm.Comm, g *graph.Graph, tile int) ([]reduce.Row, error) {
	n := g.N()
	grid := GridFor(world.Size())
	l, err := NewLayout(n, tile, grid, true)
	if err != nil {
		return nil, err
	}
	r := world.Rank()
	if err := SameGraph(ctx, world, g); err != nil {
		return nil, err
	}
	cs, err := NewComms(ctx, world, grid)
	if err != nil {
		world.Abort(err)
		return nil, err
	}
	defer cs.Row.Close()
	defer cs.Col.Close()
	loc := LocalOf[T](l, g, r)
	if err := RunHost(ctx, cs, l, r, loc); err != nil {
		world.Abort(err)
		return nil, err
	}
	rows, err := reduceLocal(ctx, cs.Row, l, r, loc)
	if err != nil {
		world.Abort(err)
		return nil, err
	}
	// Every rank of grid column 0 holds whole rows now; the others add
	// zeros, so that the sums over the world are those rows. One buffer:
	// reach, the sums' high and low parts, maxima.
	all := make([]int64, 4*n)
	reach, hi, lo, most := all[:n], all[n:2*n], all[2*n:3*n], all[3*n:]
	if pr, pc := grid.Coords(r); pc == 0 {
		for a, i := range l.rowsOf(pr) {
			reach[i], hi[i], lo[i], most[i] = rows.reach[a], rows.hi[a], rows.lo[a], rows.most[a]
		}
	}
	if err := world.AllReduceSum(ctx, comm.HostBuffer(all)); err != nil {
		world.Abort(err)
		return nil, err
	}
	out := make([]reduce.Row, n)
	for i := range out {
		out[i] = reduce.Row{Reach: reach[i], MaxI: most[i], Unreach: reach[i] < int64(n-1)}
		out[i].Sum.AddProduct(hi[i], 1<<sumSplit)
		out[i].Sum.Add(lo[i])
	}
	return out, nil
}

// sumSplit is where a distance is cut into the high and low parts that
// the row sums add up separately: int64 lanes hold distances up to 2⁶²,
// whose sum over a row would not fit an int64, while each part's sum over
// fewer than 2³¹ columns does; the parts are joined exactly in a
// reduce.Wide.
const sumSplit = 31

// LocalOf builds rank r's tiles of g's adjacency matrix from g's arcs:
// infinity off the diagonal, 0 on it (padding vertices included), the
// least arc u→v where rank r holds (u, v).
func LocalOf[T lanes.Lane](l Layout, g *graph.Graph, r int) *Local[T] {
	pr, pc := l.Grid.Coords(r)
	rows, cols := l.LocalRows(pr), l.LocalCols(pc)
	w, inf := l.Tile, lanes.InfOf[T]()
	loc := &Local[T]{Rows: len(rows), Cols: len(cols), Tile: w, Inf: inf}
	loc.Data = make([]T, len(rows)*w*len(cols)*w)
	for i := range loc.Data {
		loc.Data[i] = inf
	}
	colAt := make([]int, l.Tiles()) // local column tile of a global one, or -1
	for i := range colAt {
		colAt[i] = -1
	}
	for b, tj := range cols {
		colAt[tj] = b
	}
	s := loc.stride()
	for a, ti := range rows {
		for x := range w {
			u := ti*w + x
			row := loc.Data[(a*w+x)*s : (a*w+x+1)*s]
			if b := colAt[ti]; b >= 0 {
				row[b*w+x] = 0
			}
			if u >= g.N() {
				continue
			}
			for k, v := range g.Neighbors(u) {
				if b := colAt[int(v)/w]; b >= 0 {
					if d := T(g.ArcInt(u, k)); d < row[b*w+int(v)%w] {
						row[b*w+int(v)%w] = d
					}
				}
			}
		}
	}
	return loc
}

// rowsOf lists the real vertices of grid row pr, in its local row order.
func (l Layout) rowsOf(pr int) []int {
	var out []int
	for _, ti := range l.LocalRows(pr) {
		for x := range l.Tile {
			if i := ti*l.Tile + x; i < l.N {
				out = append(out, i)
			}
		}
	}
	return out
}

// localRows are the summaries of a grid row's real vertices: reach, the
// sum of the distances in two parts (see sumSplit) and the largest
// distance over the real columns, v ≠ u.
type localRows struct{ reach, hi, lo, most []int64 }

// reduceLocal summarises rank r's real rows over its real columns and
// combines the parts along the grid row (row): sums add, maxima by
// comm.AllReduceMax.
func reduceLocal[T lanes.Lane](ctx context.Context, row comm.Comm, l Layout, r int, loc *Local[T]) (localRows, error) {
	pr, pc := l.Grid.Coords(r)
	vs := l.rowsOf(pr)
	out := localRows{reach: make([]int64, len(vs)), hi: make([]int64, len(vs)), lo: make([]int64, len(vs)), most: make([]int64, len(vs))}
	cols := l.LocalCols(pc)
	w, s := l.Tile, loc.stride()
	a := 0 // index into vs: the local rows in order, padding rows skipped
	for lt, ti := range l.LocalRows(pr) {
		for x := range w {
			i := ti*w + x
			if i >= l.N {
				break
			}
			data := loc.Data[(lt*w+x)*s:]
			for b, tj := range cols {
				for y := range w {
					j := tj*w + y
					if j >= l.N || j == i {
						continue
					}
					if d := data[b*w+y]; d != loc.Inf {
						out.reach[a]++
						out.hi[a] += int64(d) >> sumSplit
						out.lo[a] += int64(d) & (1<<sumSplit - 1)
						out.most[a] = max(out.most[a], int64(d))
					}
				}
			}
			a++
		}
	}
	for _, buf := range [][]int64{out.reach, out.hi, out.lo} {
		if err := row.AllReduceSum(ctx, comm.HostBuffer(buf)); err != nil {
			return localRows{}, err
		}
	}
	if err := comm.AllReduceMax(ctx, row, out.most); err != nil {
		return localRows{}, err
	}
	return out, nil
}

// SameGraph checks that every rank holds g (collective): each rank reads its own copy
// (on several hosts, possibly an outdated one), and a mix of graphs would
// give a wrong answer rather than an error. Rank 0's fingerprint goes to
// every rank; any rank that differs makes every rank fail.
func SameGraph(ctx context.Context, world comm.Comm, g *graph.Graph) error {
	mine := fingerprint(g)
	root := mine
	if err := world.Bcast(ctx, comm.HostBuffer(root[:]), 0); err != nil {
		return err
	}
	differ := []int64{0}
	if root != mine {
		differ[0] = 1
	}
	if err := world.AllReduceSum(ctx, comm.HostBuffer(differ)); err != nil {
		return err
	}
	if differ[0] > 0 {
		return fmt.Errorf("%w: %d of the %d ranks hold a graph other than rank 0's (%d vertices, %d arcs)", ErrNotDistributable, differ[0], world.Size(), root[0], root[1])
	}
	return nil
}

// fingerprint is g's size and a hash of its direction, weight kind, arcs
// and weights.
func fingerprint(g *graph.Graph) [3]int64 {
	const prime = 1099511628211 // FNV-1a's 64-bit prime, here on whole values
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * prime }
	mix(uint64(g.Kind()))
	if g.Directed() {
		mix(1)
	}
	for u := range g.N() {
		mix(uint64(len(g.Neighbors(u))))
		for k, v := range g.Neighbors(u) {
			mix(uint64(v))
			mix(uint64(g.ArcInt(u, k)))
		}
	}
	return [3]int64{int64(g.N()), int64(g.Arcs()), int64(h)}
}
