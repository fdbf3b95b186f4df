package graph

import "fmt"

// readMETIS reads a METIS graph file: comment lines starting with '%', a
// header "n m [fmt [ncon]]", then one line a vertex (vertex i on the i-th
// line, 1-based; a blank line is a vertex without neighbours) listing its
// neighbours. fmt, up to three digits "abc" read right-aligned as the METIS
// manual says, tells what each line holds: a vertex size first when a is
// 1, then ncon vertex weights (ncon defaults to 1) when b is 1, then the
// neighbours, each followed by the edge's weight when c is 1. Sizes and
// vertex weights must be non-negative integers and are otherwise ignored.
//
// The graph is undirected (opt.Directed is refused): every edge must be
// listed by both its ends, with the same weight, and the header's m must
// be the number of edges, so that the lists hold 2m entries. A self-loop
// is refused, as METIS has none. Lines missing at the end are vertices
// without neighbours; lines beyond n that are not blank or comments are
// refused.
func readMETIS(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	var f fields
	var nf int
	for nf == 0 || f[0][0] == '%' {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, lr.errorf(max(lr.line, 1), `missing header "n m [fmt [ncon]]"`)
		}
		nf = f.split(line)
	}
	if nf < 2 || nf > 4 {
		return nil, lr.errorf(lr.line, `want header "n m [fmt [ncon]]", found %d fields`, nf)
	}
	n, err := lr.parseCount(f[0], "vertex count")
	if err != nil {
		return nil, err
	}
	m, err := lr.parseCount(f[1], "edge count")
	if err != nil {
		return nil, err
	}
	var sizes, edgeWeights bool
	ncon := 0
	if nf >= 3 {
		abc := f[2]
		if len(abc) > 3 || !isIntLiteral(abc) || abc[0] == '+' || abc[0] == '-' {
			return nil, lr.errorf(lr.line, "bad fmt %s, want up to three digits 0 or 1", quote(abc))
		}
		for i, c := range abc {
			if c != '0' && c != '1' {
				return nil, lr.errorf(lr.line, "bad fmt %s, want up to three digits 0 or 1", quote(abc))
			}
			switch len(abc) - i { // the digit's place from the right
			case 3:
				sizes = c == '1'
			case 2:
				if c == '1' {
					ncon = 1
				}
			case 1:
				edgeWeights = c == '1'
			}
		}
	}
	if nf == 4 {
		if ncon == 0 {
			return nil, lr.errorf(lr.line, "ncon %s without vertex weights in fmt %s", quote(f[3]), quote(f[2]))
		}
		if ncon, err = lr.parseCount(f[3], "ncon"); err != nil {
			return nil, err
		}
	}
	if err := lr.checkVertices(n, lim); err != nil {
		return nil, err
	}
	if err := lr.checkVerticesOption(n, opt, "the header says"); err != nil {
		return nil, err
	}
	if err := lr.checkDirected(false, opt, "a METIS file says"); err != nil {
		return nil, err
	}
	header := lr.line
	// Arcs as listed, both ways: the graph is undirected once they are
	// found symmetric.
	b := NewBuilder(true)
	if err := b.SetVertices(max(n, opt.Vertices)); err != nil {
		return nil, lr.wrap(header, err)
	}
	b.Grow(lr.countHint(min(m, (1<<62)/2) * 2))
	skip := ncon
	if sizes {
		skip++
	}
	u, entries := 0, 0
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		first, _ := nextField(line, 0)
		if first != nil && first[0] == '%' {
			continue
		}
		if u == n {
			if first != nil {
				return nil, lr.errorf(lr.line, "more than the %d vertex lines the header says", n)
			}
			continue
		}
		i := 0
		for k := 0; k < skip; k++ {
			var field []byte
			if field, i = nextField(line, i); field == nil {
				return nil, lr.errorf(lr.line, "vertex %d has %d of its %d size and weight fields", u+1, k, skip)
			}
			if _, ok, _ := parseUint(field); !ok {
				return nil, lr.errorf(lr.line, "bad vertex size or weight %s", quote(field))
			}
		}
		for {
			var fv []byte
			if fv, i = nextField(line, i); fv == nil {
				break
			}
			v, err := lr.parseRangedID(fv, n)
			if err != nil {
				return nil, err
			}
			if v == u {
				return nil, lr.errorf(lr.line, "vertex %d lists itself: METIS graphs have no self-loops", u+1)
			}
			var w weight
			if edgeWeights {
				var fw []byte
				if fw, i = nextField(line, i); fw == nil {
					return nil, lr.errorf(lr.line, "neighbour %s has no edge weight (fmt %s)", clip(fv), f[2])
				}
				if !opt.Unweighted {
					if w, err = lr.parseWeight(fw, false); err != nil {
						return nil, err
					}
				}
			}
			if err := lr.addEdge(b, u, v, w, !edgeWeights || opt.Unweighted); err != nil {
				return nil, err
			}
			entries++
		}
		u++
	}
	if entries%2 != 0 || entries/2 != m {
		return nil, lr.errorf(header, "header says %d edges, which is %d neighbour entries, but the file has %d", m, uint64(m)*2, entries)
	}
	g := b.Build()
	if g.Arcs() != entries {
		return nil, lr.errorf(header, "a vertex lists a neighbour twice")
	}
	if err := checkSymmetric(g); err != nil {
		return nil, lr.errorf(header, "%v", err)
	}
	g.directed = false // symmetric arcs are an undirected graph's
	return g, nil
}

// checkSymmetric reports the first arc u→v without an arc v→u of the same
// length, counting vertices from 1.
func checkSymmetric(g *Graph) error {
	for u := range g.n {
		for i, v := range g.Neighbors(u) {
			j := g.ArcIndex(int(v), u)
			switch {
			case j < 0:
				return fmt.Errorf("vertex %d lists %d, but vertex %d does not list %d", u+1, v+1, v+1, u+1)
			case g.kind == IntWeights && g.ArcInt(u, i) != g.ArcInt(int(v), j),
				g.kind == FloatWeights && g.ArcFloat(u, i) != g.ArcFloat(int(v), j):
				return fmt.Errorf("edge %d-%d has two weights", u+1, v+1)
			}
		}
	}
	return nil
}
