package result

import (
	"errors"
	"fmt"
	"sync"

	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
)

// ErrNoSuccessors is returned by Path on distances computed without
// Options.Paths.
var ErrNoSuccessors = errors.New("distances were computed without paths (set Options.Paths)")

// Distances is an all-pairs distance matrix, with a successor matrix when it
// was computed with Options.Paths.
type Distances struct {
	n    int
	kind lanes.Kind // the lanes of m (or of the summary, when m is nil)
	// m holds the distances in the engine's lanes, type-erased; nil for the
	// facts-only value the row summaries return internally.
	m          lanes.Any
	next       []int32 // successor matrix, or nil
	nextStride int     // its row stride
	// Algorithm and Device name the engine that computed the matrix.
	Algorithm, Device string
	// Threads is the number of CPU threads the engine used.
	Threads int
	// Seconds is the engine's running time, setup included.
	Seconds float64
	// scratch holds row buffers for Row ([]int64 or []float64 of n), so
	// that streaming every row allocates nothing per row.
	scratch sync.Pool
}

func NewDistances(r *engine.Result) *Distances {
	return &Distances{n: r.Matrix.Vertices(), kind: r.Matrix.Kind(), m: r.Matrix, next: r.Next, nextStride: r.NextStride,
		Device: r.Device, Threads: r.Threads}
}

// N returns the number of vertices.
func (d *Distances) N() int { return d.n }

// Exact reports whether the distances are held as integers: the graph has
// no float weights and no float lanes were asked for (Options.Lanes). An
// integer graph in float lanes holds exact integer values as floats (At,
// Float).
func (d *Distances) Exact() bool { return !d.kind.IsFloat() }

// Lanes names the element type the engine computed in: "int32", "int64",
// "float64", or "float32" for float graphs on a GPU.
func (d *Distances) Lanes() string { return d.kind.String() }

// HasPaths reports whether Path can answer.
func (d *Distances) HasPaths() bool { return d.next != nil }

// At returns the distance from u to v; it panics when either is not a
// vertex.
func (d *Distances) At(u, v int) Length {
	if uint(u) >= uint(d.n) || uint(v) >= uint(d.n) {
		panic(fmt.Sprintf("apsp: Distances.At(%d, %d) out of range 0..%d", u, v, d.n-1))
	}
	if !d.Exact() {
		return FloatLength(d.m.Float(u, v)) // +Inf reads as infinite
	}
	x, ok := d.m.Int(u, v)
	if !ok {
		return Infinite(false)
	}
	return IntLength(x)
}

// Int returns the exact integer distance from u to v and whether v is
// reachable. It panics on float distances (Exact() false), as RowInt64
// does, rather than answer 0.
func (d *Distances) Int(u, v int) (int64, bool) {
	if !d.Exact() {
		panic("apsp: Distances.Int on float distances (Exact() is false)")
	}
	l := d.At(u, v)
	return l.Int(), !l.IsInf()
}

// Float returns the distance from u to v as a float64, +Inf when unreachable.
func (d *Distances) Float(u, v int) float64 { return d.At(u, v).Float() }

// Path returns the vertices of one shortest path from u to v, u and v
// included. It needs distances computed with Options.Paths.
func (d *Distances) Path(u, v int) ([]int, error) {
	if u < 0 || u >= d.n || v < 0 || v >= d.n {
		return nil, fmt.Errorf("vertex out of range 0..%d: %d %d", d.n-1, u, v)
	}
	if d.next == nil {
		return nil, ErrNoSuccessors
	}
	if d.At(u, v).IsInf() {
		return nil, fmt.Errorf("from %d to %d: %w", u, v, ErrNoPath)
	}
	s := d.nextStride
	path := []int{u}
	for x := u; x != v; {
		x = int(d.next[x*s+v])
		if x < 0 || len(path) > d.n {
			return nil, fmt.Errorf("successor matrix is inconsistent at %d→%d (a bug)", u, v)
		}
		path = append(path, x)
	}
	return path, nil
}

// Rows is the number of rows, N(): with Cols, what a matrix writer reads.
func (d *Distances) Rows() int { return d.n }

// Cols is the length of a row, N().
func (d *Distances) Cols() int { return d.n }
