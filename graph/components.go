package graph

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
// Tarjan's algorithm, so deep graphs cannot overflow the stack.
func (g *Graph) StrongComponents() int {
	if !g.directed {
		return g.WeakComponents()
	}
	const unvisited = -1
	index := make([]int32, g.n)
	low := make([]int32, g.n)
	onStack := make([]bool, g.n)
	for i := range index {
		index[i] = unvisited
	}
	var stack []int32
	type frame struct {
		v    int32
		edge int
	}
	var call []frame
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
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			nbrs := g.Neighbors(int(f.v))
			if f.edge < len(nbrs) {
				w := nbrs[f.edge]
				f.edge++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
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
					onStack[w] = false
					if w == v {
						break
					}
				}
			}
		}
	}
	return count
}
