package fw

import (
	"math"
	goruntime "runtime"
	"sync"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
)

// Host-built matrices in a gpu.Config's lanes: the initial matrix of a
// Session's Problem and of the out-of-core rounds, and the reading of a
// matrix copied back (LaneAt).

// InitFromGraph returns an init function that writes g's adjacency matrix
// (int32 or float32 lanes) into a stride×stride host buffer.
func InitFromGraph(g *graph.Graph, stride int, float bool) func(host []uint32) {
	if float {
		return InitLanes(g, stride, gpu.Config{Float: true})
	}
	return InitLanes(g, stride, gpu.Config{})
}

// InitLanes returns an init function that writes g's adjacency matrix in
// c's lanes into a host buffer of stride×stride lanes (stride×stride/Pack
// words). Packed lanes take the lengths as they are: the lane plan has
// bounded them below the kind's infinity.
func InitLanes(g *graph.Graph, stride int, c gpu.Config) func(host []uint32) {
	return func(h []uint32) {
		switch c.Lanes {
		case lanes.Int16:
			initPacked(g, stride, unsafe.Slice((*int16)(unsafe.Pointer(&h[0])), stride*stride), lanes.Inf16)
			return
		case lanes.Int8:
			initPacked(g, stride, unsafe.Slice((*int8)(unsafe.Pointer(&h[0])), stride*stride), lanes.Inf8)
			return
		}
		inf := uint32(gpu.InfInt32)
		if c.Float {
			inf = math.Float32bits(float32(math.Inf(1)))
		}
		fillRows(g, stride, h, inf, func(row []uint32, u, i int, v int32) {
			if c.Float {
				row[v] = math.Float32bits(float32(g.ArcFloat(u, i)))
			} else {
				row[v] = uint32(int32(g.ArcInt(u, i)))
			}
		})
	}
}

// initPacked writes g's adjacency matrix into packed lanes (row-major, as
// the kernels read them: lane j%L of word j/L is column j), keeping the
// least of parallel arcs and the diagonal's 0.
func initPacked[L int8 | int16](g *graph.Graph, stride int, h []L, inf L) {
	fillRows(g, stride, h, inf, func(row []L, u, i int, v int32) {
		// A weight above inf is stored as inf, never wrapped (exact for
		// the packed lanes' non-negative weights).
		if w := L(min(g.ArcInt(u, i), int64(inf))); w < row[v] {
			row[v] = w
		}
	})
}

// fillRows writes a stride×stride adjacency matrix into h: inf off the
// diagonal, the zero value on it, and arc i of each vertex u < g.N() set
// into u's row by arc.
func fillRows[L any](g *graph.Graph, stride int, h []L, inf L, arc func(row []L, u, i int, v int32)) {
	byRows(stride, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			row := h[u*stride : (u+1)*stride]
			for i := range row {
				row[i] = inf
			}
			var zero L
			row[u] = zero
			if u >= g.N() {
				continue
			}
			for i, v := range g.Neighbors(u) {
				arc(row, u, i, v)
			}
		}
	})
}

// byRows runs f over the rows [0, rows) in ranges, on every processor when
// the matrix is large: an out-of-core matrix of 80 GiB took half a minute
// to fill on one thread.
func byRows(rows int, f func(lo, hi int)) {
	workers := min(goruntime.GOMAXPROCS(0), rows*rows>>22) // a worker per 4M cells at least
	if workers <= 1 {
		f(0, rows)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w*rows/workers, (w+1)*rows/workers)
		}()
	}
	wg.Wait()
}

// LaneAt reads cell i (row-major, in lanes) of a matrix in c's lanes held
// in 32-bit words: int32 bits, float32 bits, or the packed lane.
func LaneAt(words []uint32, c gpu.Config, i int) uint32 {
	switch c.Pack() {
	case 2:
		return uint32(int32(int16(words[i/2] >> (16 * (i % 2)))))
	case 4:
		return uint32(int32(int8(words[i/4] >> (8 * (i % 4)))))
	}
	return words[i]
}
