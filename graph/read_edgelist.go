package graph

import "fmt"

// readEdgeList reads lines "u v" or "u v w". Blank lines and lines whose
// first non-blank byte is '#' or '%' are skipped. Either every edge has a
// weight or none has, so that a truncated column is caught rather than read
// as length 1; with opt.Unweighted the third column is ignored and may come
// and go.
func readEdgeList(lr *lineReader, opt ReadOptions, maxN int) (*Graph, error) {
	if opt.Vertices < 0 {
		return nil, fmt.Errorf("%s: negative vertex count %d", lr.name, opt.Vertices)
	}
	if opt.Vertices > maxN {
		return nil, fmt.Errorf("%s: %w", lr.name, tooLarge(fmt.Sprintf("%d vertices", opt.Vertices), maxN))
	}
	b := NewBuilder(opt.Directed)
	if err := b.SetVertices(opt.Vertices); err != nil {
		return nil, fmt.Errorf("%s: %w", lr.name, err)
	}
	b.Grow(lr.edgeHint())
	var f fields
	firstLine := 0 // the first edge line, which sets whether edges are weighted
	firstWeighted := false
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		nf := f.split(line)
		if nf == 0 || f[0][0] == '#' || f[0][0] == '%' {
			continue
		}
		if nf < 2 || nf > 3 {
			return nil, lr.errorf(lr.line, `want "u v" or "u v w", found %d fields`, nf)
		}
		weighted := nf == 3
		if !opt.Unweighted {
			switch {
			case firstLine == 0:
				firstLine, firstWeighted = lr.line, weighted
			case weighted && !firstWeighted:
				return nil, lr.errorf(lr.line, "edge has a weight but the edge on line %d has none", firstLine)
			case !weighted && firstWeighted:
				return nil, lr.errorf(lr.line, "edge has no weight but the edge on line %d has one", firstLine)
			}
		}
		u, err := lr.parseID(f[0], opt.OneBased, maxN)
		if err != nil {
			return nil, err
		}
		v, err := lr.parseID(f[1], opt.OneBased, maxN)
		if err != nil {
			return nil, err
		}
		var w weight
		if weighted && !opt.Unweighted {
			if w, err = lr.parseWeight(f[2], false); err != nil {
				return nil, err
			}
		}
		if err := lr.addEdge(b, u, v, w, !weighted || opt.Unweighted); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}
