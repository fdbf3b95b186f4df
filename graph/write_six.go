package graph

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
)

// The graph6, sparse6 and digraph6 writers write one line, with no header
// (as geng writes by default). The formats hold no weights: a weighted
// graph is refused rather than written without them. graph6 and sparse6
// hold undirected graphs: a directed one is refused (digraph6 holds it).
// Self-loops and parallel edges never reach a Graph, so none is written.

// sixWritable refuses a graph the format cannot hold.
func sixWritable(g *Graph, format Format) error {
	if g.Weighted() || g.negLoop >= 0 {
		return fmt.Errorf("%v holds no weights and the graph has %v weights, which would be lost: write an edge list or .mtx, or the unweighted graph", format, g.Kind())
	}
	if g.Directed() && format != FormatDigraph6 {
		return fmt.Errorf("%v holds undirected graphs and the graph is directed: write it as digraph6 (.d6)", format)
	}
	return nil
}

// WriteGraph6 writes g, undirected and unweighted, as one graph6 line: its
// upper triangle, column by column.
func WriteGraph6(w io.Writer, g *Graph) error {
	if err := sixWritable(g, FormatGraph6); err != nil {
		return err
	}
	sw := newSixWriter(w)
	sw.size(g.N())
	for j := 1; j < g.N(); j++ {
		at := 0 // the next row of column j to write
		for _, i := range g.Neighbors(j) {
			if int(i) >= j {
				break // the lower triangle
			}
			sw.zeros(int(i) - at)
			sw.bits(1, 1)
			at = int(i) + 1
		}
		sw.zeros(j - at)
	}
	return sw.end()
}

// WriteDigraph6 writes g, unweighted, as one digraph6 line: its adjacency
// matrix, row by row. An undirected graph is written with each edge both
// ways, and so reads back directed.
func WriteDigraph6(w io.Writer, g *Graph) error {
	if err := sixWritable(g, FormatDigraph6); err != nil {
		return err
	}
	sw := newSixWriter(w)
	sw.bw.WriteByte('&')
	sw.size(g.N())
	for i := range g.N() {
		at := 0
		for _, j := range g.Neighbors(i) {
			sw.zeros(int(j) - at)
			sw.bits(1, 1)
			at = int(j) + 1
		}
		sw.zeros(g.N() - at)
	}
	return sw.end()
}

// WriteSparse6 writes g, undirected and unweighted, as one sparse6 line:
// each edge x–v (x < v) in order of v then x, as nauty writes them, and
// the last byte padded as the format says (its 1-bits, or a 0-bit first
// where 1-bits would read as a loop at vertex n-1).
func WriteSparse6(w io.Writer, g *Graph) error {
	if err := sixWritable(g, FormatSparse6); err != nil {
		return err
	}
	n := g.N()
	k := 0
	if n > 1 {
		k = bits.Len(uint(n - 1))
	}
	sw := newSixWriter(w)
	sw.bw.WriteByte(':')
	sw.size(n)
	cur := 0 // the decoder's current vertex
	for v := range n {
		for _, x := range g.Neighbors(v) {
			if int(x) >= v {
				break // written from its larger end
			}
			switch {
			case v == cur:
				sw.bits(0, 1)
			case v == cur+1:
				sw.bits(1, 1)
			default:
				sw.bits(1, 1)
				sw.bits(uint64(v), k)
				sw.bits(0, 1)
			}
			cur = v
			sw.bits(uint64(x), k)
		}
	}
	if pad := (6 - sw.nbits) % 6; pad > 0 {
		// 1-bits move the decoder past n-1 and end it, but for n = 2^k
		// with the decoder at n-2 a pair of them reads as the loop
		// (n-1, n-1): then a 0-bit first makes the pair (0, n-1), which
		// only moves to n-1.
		if k < 6 && n == 1<<k && cur == n-2 && pad >= k+1 {
			sw.bits(0, 1)
			pad--
		}
		sw.bits(1<<pad-1, pad)
	}
	return sw.end()
}

// sixWriter writes bits in 6-bit groups, each plus 63, through a
// bufio.Writer, which keeps the first write error for end.
type sixWriter struct {
	bw    *bufio.Writer
	cur   uint64 // the bits of the group being filled
	nbits int    // how many
}

func newSixWriter(w io.Writer) *sixWriter {
	return &sixWriter{bw: bufio.NewWriterSize(w, 64<<10)}
}

// size writes N(n).
func (sw *sixWriter) size(n int) {
	switch {
	case n <= 62:
		sw.bw.WriteByte(byte(n) + sixBias)
	case n <= 258047:
		sw.bw.WriteByte(126)
		sw.bits(uint64(n), 18)
	default:
		sw.bw.WriteString("\x7e\x7e")
		sw.bits(uint64(n), 36)
	}
}

// bits writes the low k bits of x, most significant first.
func (sw *sixWriter) bits(x uint64, k int) {
	for k > 0 {
		take := min(6-sw.nbits, k)
		sw.cur = sw.cur<<take | (x>>(k-take))&(1<<take-1)
		sw.nbits += take
		k -= take
		if sw.nbits == 6 {
			sw.bw.WriteByte(byte(sw.cur) + sixBias)
			sw.cur, sw.nbits = 0, 0
		}
	}
}

// zeros writes k 0-bits, whole groups at once.
func (sw *sixWriter) zeros(k int) {
	if sw.nbits > 0 {
		take := min(6-sw.nbits, k)
		sw.bits(0, take)
		k -= take
	}
	for ; k >= 6; k -= 6 {
		sw.bw.WriteByte(sixBias)
	}
	sw.bits(0, k)
}

// end pads the last group with 0-bits, ends the line and flushes.
func (sw *sixWriter) end() error {
	if sw.nbits > 0 {
		sw.bits(0, 6-sw.nbits)
	}
	sw.bw.WriteByte('\n')
	return sw.bw.Flush()
}
