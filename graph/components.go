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
// Tarjan's algorithm, so deep graphs cannot overflow the stack, in 20 bytes
// a vertex (see VertexBytes) allocated at once: index and low, the vertex
// stack, and the call stack of (vertex, next arc) pairs, the stacks at their
// largest so that they never grow by copying. A vertex whose component is
// known gets index done, which also says it left the stack.
func (g *Graph) StrongComponents() int {
	if !g.directed {
		return g.WeakComponents()
	}
	const (
		unvisited = -1
		done      = math.MaxInt32 // above every index, so min ignores it
	)
	n := g.n
	slab := make([]int32, 5*n)
	index, low := slab[:n:n], slab[n:2*n:2*n]
	for i := range index {
		index[i] = unvisited
	}
	stack := slab[2*n : 2*n : 3*n]
	// Frames are pairs: a vertex and the position of its next arc, which
	// fits int32 as a vertex has fewer than n arcs after deduplication.
	call := slab[3*n : 3*n : 5*n]
	var counter int32
	count := 0
	for root := range int32(n) {
		if index[root] != unvisited {
			continue
		}
		call = append(call, root, 0)
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		for len(call) > 0 {
			top := len(call) - 2
			v, edge := call[top], call[top+1]
			nbrs := g.Neighbors(int(v))
			if int(edge) < len(nbrs) {
				w := nbrs[edge]
				call[top+1]++
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					call = append(call, w, 0)
					continue
				}
				low[v] = min(low[v], index[w]) // no change once w is done
				continue
			}
			call = call[:top]
			if top > 0 {
				p := call[top-2]
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
