package cpu

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/internal/lanes"
)

// NegativeCycleError reports a negative cycle through Vertex.
type NegativeCycleError struct{ Vertex int }

func (e *NegativeCycleError) Error() string {
	return fmt.Sprintf("negative cycle through vertex %d", e.Vertex)
}

// NewSuccessors returns the initial successor matrix of m (with m's row
// stride): j for an arc i→j, i on the diagonal, -1 where there is no arc.
func NewSuccessors[T lanes.Lane](m *lanes.Matrix[T]) []int32 {
	next := make([]int32, len(m.Data))
	for i := 0; i < m.Size; i++ {
		row := m.Data[i*m.Stride : i*m.Stride+m.Size]
		nrow := next[i*m.Stride : i*m.Stride+m.Size]
		for j, d := range row {
			if d != m.Inf || i == j {
				nrow[j] = int32(j)
			} else {
				nrow[j] = -1
			}
		}
	}
	return next
}

// FloydWarshall is the textbook triple loop, kept simple on purpose: it is
// the oracle the other engines are tested against. It never adds infinity,
// clamps integer underflow, and checks the diagonal after every k so that a
// negative cycle is reported as soon as it closes. next, when not nil, is a
// successor matrix from NewSuccessors that it keeps up to date.
func FloydWarshall[T lanes.Lane](ctx context.Context, m *lanes.Matrix[T], next []int32, progress func(float64)) error {
	n, s, inf := m.N, m.Stride, m.Inf
	lowest := lanes.Lowest[T]()
	d := m.Data
	for k := 0; k < n; k++ {
		if k%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(float64(k) / float64(n))
			}
		}
		rowK := d[k*s : k*s+n]
		for i := 0; i < n; i++ {
			dik := d[i*s+k]
			if dik == inf {
				continue
			}
			rowI := d[i*s : i*s+n]
			for j, dkj := range rowK {
				if dkj == inf {
					continue
				}
				sum := dik + dkj
				if dik < 0 && dkj < 0 && sum >= 0 { // integer underflow
					sum = lowest
				}
				if dik > 0 && dkj > 0 && sum < 0 {
					continue // integer overflow (wide plans): above every real distance
				}
				// A wide plan's infinity is the smallest value (InfWide).
				if cur := rowI[j]; sum < cur || (cur == inf && inf < 0) {
					rowI[j] = sum
					if next != nil {
						next[i*s+j] = next[i*s+k]
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			if d[i*s+i] < 0 {
				return &NegativeCycleError{Vertex: i}
			}
		}
	}
	if progress != nil {
		progress(1) // the rounds report at their start: the last at most 1 − 64/n
	}
	return nil
}
