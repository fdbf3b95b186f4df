package graph

import "math"

// WeakComponents returns the number of connected components when arc
// directions are ignored.
func (g *Graph) WeakComponents() int {
	parent := make([]int32, g.n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	count := g.n
	for u := 0; u < g.n; u++ {
		for _, v := range g.Neighbors(u) {
			a, b := find(int32(u)), find(v)
			if a != b {
				parent[a] = b
				count--
			}
		}
	}
	return count
}

// StrongComponents returns the number of strongly connected components (for
// an undirected graph, the connected components). It uses an iterative
// Tarjan's algorithm, so deep graphs cannot overflow the stack, with 20
// bytes a vertex (see VertexBytes): index and low, the vertex stack and the
// call stack of (vertex, arc position) frames, the stacks allocated at their
// largest up front so that they never grow by copying. A vertex whose
// component is known gets index done, which also says it left the stack.
func (g *Graph) StrongComponents() int {
	if !g.directed {
		return g.WeakComponents()
	}
	const (
		unvisited = -1
		done      = math.MaxInt32 // above every index, so min ignores it
	)
	index := make([]int32, g.n)
	low := make([]int32, g.n)
	for i := range index {
		index[i] = unvisited
	}
	stack := make([]int32, 0, g.n)
	type frame struct {
		v    int32
		edge int32 // a vertex has fewer than n < 2^31 arcs after deduplication
	}
	call := make([]frame, 0, g.n)
	var counter int32
	count := 0
	for root := 0; root < g.n; root++ {
		if index[root] != unvisited {
			continue
		}
		call = append(call, frame{v: int32(root)})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		for len(call) > 0 {
			f := &call[len(call)-1]
			nbrs := g.Neighbors(int(f.v))
			if int(f.edge) < len(nbrs) {
				w := nbrs[f.edge]
				f.edge++
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					call = append(call, frame{v: w})
					continue
				}
				low[f.v] = min(low[f.v], index[w]) // no change once w is done
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				count++
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					index[w] = done
					if w == v {
						break
					}
				}
			}
		}
	}
	return count
}
