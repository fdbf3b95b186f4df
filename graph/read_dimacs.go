package graph

// readDIMACS reads a DIMACS shortest-path file: "c" comment lines, one
// problem line "p sp N M" and then M arc lines "a u v w" with 1-based ids.
// The graph is directed (opt.DirectedSet with Directed false is refused),
// with opt.Vertices vertices if that is more than N. Blank lines are
// skipped.
func readDIMACS(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	var (
		f     fields
		b     *Builder
		n, m  int
		pLine int // line of the problem line, 0 before it
		arcs  int
	)
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		nf := f.split(line)
		if nf == 0 {
			continue
		}
		switch string(f[0]) {
		case "c":
			continue
		case "p":
			if pLine != 0 {
				return nil, lr.errorf(lr.line, "second problem line (the first is on line %d)", pLine)
			}
			if nf != 4 {
				return nil, lr.errorf(lr.line, `want problem line "p sp N M", found %d fields`, nf)
			}
			if string(f[1]) != "sp" {
				return nil, lr.errorf(lr.line, `problem type %s is not "sp"`, quote(f[1]))
			}
			if n, err = lr.parseCount(f[2], "vertex count"); err != nil {
				return nil, err
			}
			if m, err = lr.parseCount(f[3], "arc count"); err != nil {
				return nil, err
			}
			if err := lr.checkVertices(n, lim); err != nil {
				return nil, err
			}
			if err := lr.checkVerticesOption(n, opt, "the problem line says"); err != nil {
				return nil, err
			}
			if err := lr.checkDirected(true, opt, "a DIMACS file says"); err != nil {
				return nil, err
			}
			b = NewBuilder(true)
			if err := b.SetVertices(max(n, opt.Vertices)); err != nil {
				return nil, lr.wrap(lr.line, err)
			}
			b.Grow(lr.countHint(m))
			pLine = lr.line
		case "a":
			if pLine == 0 {
				return nil, lr.errorf(lr.line, `arc before the problem line "p sp N M"`)
			}
			if nf != 4 {
				return nil, lr.errorf(lr.line, `want arc line "a u v w", found %d fields`, nf)
			}
			u, err := lr.parseRangedID(f[1], n)
			if err != nil {
				return nil, err
			}
			v, err := lr.parseRangedID(f[2], n)
			if err != nil {
				return nil, err
			}
			var w weight
			if !opt.Unweighted {
				if w, err = lr.parseWeight(f[3], false); err != nil {
					return nil, err
				}
			}
			if err := lr.addEdge(b, u, v, w, opt.Unweighted); err != nil {
				return nil, err
			}
			arcs++
		default:
			return nil, lr.errorf(lr.line, "unknown line type %s, want c, p or a", quote(f[0]))
		}
	}
	if pLine == 0 {
		return nil, lr.errorf(max(lr.line, 1), `missing problem line "p sp N M"`)
	}
	if arcs != m {
		return nil, lr.errorf(pLine, "header says %d arcs, file has %d", m, arcs)
	}
	return b.Build(), nil
}
