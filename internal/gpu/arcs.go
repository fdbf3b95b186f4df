package gpu

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apsp/apsp/graph"
)

// ErrNegativeArc is wrapped when gpu-sssp or gpu-minplus is given a graph
// with a negative arc: their relaxations need lengths of at least zero.
var ErrNegativeArc = errors.New("has a negative arc length")

// CheckArcs checks g's arcs for gpu-sssp and gpu-minplus: no negative
// length, integers below the int32 lanes' infinity (the lane plan bounds
// every path when it holds int32).
func CheckArcs(g *graph.Graph, float bool) error {
	switch {
	case !g.Weighted():
		return nil
	case g.Kind() == graph.FloatWeights:
		lo, hi := g.FloatWeightRange()
		if lo < 0 {
			return fmt.Errorf("graph %w (%g)", ErrNegativeArc, lo)
		}
		if hi > math.MaxFloat32 {
			return fmt.Errorf("arc length %g exceeds float32", hi)
		}
		return nil
	}
	if float {
		return errors.New("integer weights need int32 lanes")
	}
	lo, hi := g.IntWeightRange()
	if lo < 0 {
		return fmt.Errorf("graph %w (%d)", ErrNegativeArc, lo)
	}
	if hi >= int64(InfInt32) {
		return fmt.Errorf("arc length %d reaches the int32 lanes' infinity", hi)
	}
	return nil
}

// FillArcs writes g's arcs into host: offsets (n+1 int64), heads (int32)
// and lengths as lane bits (1 for an unweighted graph; float -0 as +0).
func FillArcs(g *graph.Graph, host unsafe.Pointer, float bool) {
	n, m := g.N(), g.Arcs()
	off := unsafe.Slice((*int64)(host), n+1)
	heads := unsafe.Slice((*int32)(unsafe.Add(host, 8*(n+1))), m)
	w := unsafe.Slice((*uint32)(unsafe.Add(host, 8*(n+1)+4*m)), m)
	pos := int64(0)
	for u := range n {
		off[u] = pos
		pos += int64(g.Degree(u))
	}
	off[n] = pos
	one := uint32(1)
	if float {
		one = math.Float32bits(1)
	}
	Parallel(n, 1<<12, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			at := off[u]
			copy(heads[at:], g.Neighbors(u))
			dst := w[at : at+int64(g.Degree(u))]
			switch g.Kind() {
			case graph.FloatWeights:
				for i, x := range g.FloatWeights(u) {
					dst[i] = math.Float32bits(float32(x) + 0) // -0 + 0 is +0
				}
			case graph.IntWeights:
				for i, x := range g.IntWeights(u) {
					dst[i] = uint32(x)
				}
			default:
				for i := range dst {
					dst[i] = one
				}
			}
		}
	})
}
