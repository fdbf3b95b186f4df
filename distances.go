package apsp

import (
	"errors"
	"fmt"

	"github.com/apsp/apsp/internal/cpu"
)

// ErrNoPath is returned by Path when the target cannot be reached.
var ErrNoPath = errors.New("no path")

// ErrNoSuccessors is returned by Path on distances computed without
// Options.Paths.
var ErrNoSuccessors = errors.New("distances were computed without paths (set Options.Paths)")

// Distances is an all-pairs distance matrix, with a successor matrix when it
// was computed with Options.Paths.
type Distances struct {
	n          int
	lanes      cpu.LaneKind
	i32        *cpu.Matrix[int32]
	i64        *cpu.Matrix[int64]
	f64        *cpu.Matrix[float64]
	next       []int32 // successor matrix, or nil
	nextStride int     // its row stride
	// laneName overrides lanes.String() when the engine computed in lanes
	// narrower than the matrix holds them (float32 on a GPU).
	laneName string
	// Algorithm and Device name the engine that computed the matrix.
	Algorithm, Device string
	// Threads is the number of CPU threads the engine used.
	Threads int
	// Seconds is the engine's running time, setup included.
	Seconds float64
}

func newDistances[T cpu.Lane](m *cpu.Matrix[T], next []int32) *Distances {
	d := &Distances{n: m.N, next: next, nextStride: m.Stride}
	switch mm := any(m).(type) {
	case *cpu.Matrix[int32]:
		d.lanes, d.i32 = cpu.Int32, mm
	case *cpu.Matrix[int64]:
		d.lanes, d.i64 = cpu.Int64, mm
	case *cpu.Matrix[float64]:
		d.lanes, d.f64 = cpu.Float64, mm
	}
	return d
}

// N returns the number of vertices.
func (d *Distances) N() int { return d.n }

// Exact reports whether the distances are exact integers (no float weights).
func (d *Distances) Exact() bool { return d.lanes != cpu.Float64 }

// Lanes names the element type the engine computed in: "int32", "int64" or
// "float64".
func (d *Distances) Lanes() string {
	if d.laneName != "" {
		return d.laneName
	}
	return d.lanes.String()
}

// HasPaths reports whether Path can answer.
func (d *Distances) HasPaths() bool { return d.next != nil }

// At returns the distance from u to v; it panics when either is not a
// vertex.
func (d *Distances) At(u, v int) Length {
	if uint(u) >= uint(d.n) || uint(v) >= uint(d.n) {
		panic(fmt.Sprintf("apsp: Distances.At(%d, %d) out of range 0..%d", u, v, d.n-1))
	}
	switch d.lanes {
	case cpu.Int32:
		x := d.i32.At(u, v)
		if x == d.i32.Inf {
			return Infinite(false)
		}
		return IntLength(int64(x))
	case cpu.Int64:
		x := d.i64.At(u, v)
		if x == d.i64.Inf {
			return Infinite(false)
		}
		return IntLength(x)
	}
	return FloatLength(d.f64.At(u, v))
}

// Int returns the exact integer distance from u to v and whether v is
// reachable. It must not be used on float distances (Exact() false).
func (d *Distances) Int(u, v int) (int64, bool) {
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
