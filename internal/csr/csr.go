// Package csr is the compressed sparse row adjacency that the graph model
// and the search engines share: the arrays, their transpose, and the
// breadth-first search over them. It imports nothing of apsp's, so package
// graph can build on it; the engines reach a graph's own arrays through Of.
package csr

// CSR holds the arcs of n vertices: those leaving u are
// Heads[Off[u]:Off[u+1]], and len(Off) is n+1.
type CSR struct {
	Off   []int
	Heads []int32
}

// N returns the number of vertices.
func (a *CSR) N() int { return len(a.Off) - 1 }

// Nbrs returns the heads of the arcs leaving u.
func (a *CSR) Nbrs(u int32) []int32 { return a.Heads[a.Off[u]:a.Off[u+1]] }

// Degree returns the number of arcs leaving u.
func (a *CSR) Degree(u int32) int { return a.Off[u+1] - a.Off[u] }

// graphArrays returns a *graph.Graph's own arrays. Package graph imports
// this one, so this one cannot name its type; graph sets graphArrays when it
// is initialised, before any code that holds a graph can run.
var graphArrays func(g any) CSR

// SetGraphArrays is for package graph alone.
func SetGraphArrays(f func(g any) CSR) { graphArrays = f }

// Of returns the arrays of g, a *graph.Graph, without copying them: they
// are the graph's and must not be written. Heads are sorted and distinct
// within each vertex.
func Of(g any) CSR { return graphArrays(g) }

// HeadsSlack is the capacity package graph leaves past a graph's heads
// (of any value): kernels that load heads ahead of the arc they are at,
// only to prefetch, may read it instead of a padded copy of the heads.
const HeadsSlack = 64

// Transpose returns the arcs of a reversed: the heads within each vertex
// come out in increasing order (and distinct when a's arcs are).
func (a *CSR) Transpose() *CSR {
	off, heads, _ := Transpose[struct{}](a.Off, a.Heads, nil)
	return &CSR{Off: off, Heads: heads}
}

// Transpose reverses the arcs of the adjacency (off, heads), moving the
// per-arc values w (nil for none) with them: arc u→v with value w[i]
// becomes v→u with that value. It is a counting sort, so the heads within
// each vertex of the result are in increasing order, and distinct when the
// input's arcs are.
func Transpose[W any](off []int, heads []int32, w []W) (toff []int, theads []int32, tw []W) {
	n := len(off) - 1
	toff = make([]int, n+1)
	theads = make([]int32, len(heads), len(heads)+HeadsSlack) // a transposed graph's heads keep the slack too
	if w != nil {
		tw = make([]W, len(heads))
	}
	for _, v := range heads {
		toff[v+1]++
	}
	for v := range n {
		toff[v+1] += toff[v]
	}
	// Scatter with toff[v] as v's cursor, which ends where v+1's arcs
	// begin; then shift the offsets back by one vertex.
	for u := range n {
		for i := off[u]; i < off[u+1]; i++ {
			v := heads[i]
			j := toff[v]
			theads[j] = int32(u)
			if w != nil {
				tw[j] = w[i]
			}
			toff[v] = j + 1
		}
	}
	copy(toff[1:], toff[:n])
	toff[0] = 0
	return toff, theads, tw
}
