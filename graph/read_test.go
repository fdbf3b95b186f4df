package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// dump lists g's arcs as "u>v" or "u>v:w", in order, for compact comparison.
func dump(g *Graph) string {
	var sb strings.Builder
	for u := 0; u < g.N(); u++ {
		for i, v := range g.Neighbors(u) {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%d>%d", u, v)
			switch g.Kind() {
			case IntWeights:
				fmt.Fprintf(&sb, ":%d", g.IntWeights(u)[i])
			case FloatWeights:
				sb.WriteString(":" + strconv.FormatFloat(g.FloatWeights(u)[i], 'g', -1, 64))
			}
		}
	}
	return sb.String()
}

func TestReadAccepts(t *testing.T) {
	type tc struct {
		name     string
		format   Format
		opt      ReadOptions
		in       string
		n        int
		directed bool
		kind     WeightKind
		arcs     string
		negLoop  int // vertex of a negative self-loop, or -1
	}
	el, mtx, gr := FormatEdgeList, FormatMatrixMarket, FormatDIMACS
	tests := []tc{
		// Edge lists.
		{name: "empty", format: el, in: "", n: 0, kind: Unweighted, negLoop: -1},
		{name: "only comments", format: el, in: "# a\n  % b\n\n\t\n", n: 0, kind: Unweighted, negLoop: -1},
		{name: "unweighted", format: el, in: "0 1\n1 2\n", n: 3, kind: Unweighted,
			arcs: "0>1 1>0 1>2 2>1", negLoop: -1},
		{name: "tabs crlf no final newline", format: el, in: "0\t1\r\n  1 \t 2 \r\n2 0", n: 3, kind: Unweighted,
			arcs: "0>1 0>2 1>0 1>2 2>0 2>1", negLoop: -1},
		{name: "leading comment after blanks", format: el, in: "   # c\n0 1\n\t% c\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "byte order mark", format: el, in: "\xef\xbb\xbf0 1\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "directed", format: el, opt: ReadOptions{Directed: true}, in: "0 1\n2 1\n", n: 3, directed: true,
			kind: Unweighted, arcs: "0>1 2>1", negLoop: -1},
		{name: "int weights", format: el, in: "0 1 5\n1 2 -3\n2 3 +4\n", n: 4, kind: IntWeights,
			arcs: "0>1:5 1>0:5 1>2:-3 2>1:-3 2>3:4 3>2:4", negLoop: -1},
		{name: "extreme int weights", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 9223372036854775807\n1 0 -9223372036854775808\n", n: 2, directed: true, kind: IntWeights,
			arcs: "0>1:9223372036854775807 1>0:-9223372036854775808", negLoop: -1},
		{name: "float weights", format: el, opt: ReadOptions{Directed: true}, in: "0 1 2.5\n1 2 1e3\n2 0 -.5\n",
			n: 3, directed: true, kind: FloatWeights, arcs: "0>1:2.5 1>2:1000 2>0:-0.5", negLoop: -1},
		{name: "int and float mix is float", format: el, opt: ReadOptions{Directed: true}, in: "0 1 2\n1 2 0.5\n",
			n: 3, directed: true, kind: FloatWeights, arcs: "0>1:2 1>2:0.5", negLoop: -1},
		{name: "one based", format: el, opt: ReadOptions{OneBased: true}, in: "1 2\n2 3\n", n: 3, kind: Unweighted,
			arcs: "0>1 1>0 1>2 2>1", negLoop: -1},
		{name: "vertices option", format: el, opt: ReadOptions{Vertices: 5}, in: "0 1\n", n: 5, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "vertices option smaller than ids", format: el, opt: ReadOptions{Vertices: 1}, in: "0 3\n", n: 4,
			kind: Unweighted, arcs: "0>3 3>0", negLoop: -1},
		{name: "unweighted ignores weights", format: el, opt: ReadOptions{Unweighted: true},
			in: "0 1 5\n1 2\n2 3 nan\n", n: 4, kind: Unweighted, arcs: "0>1 1>0 1>2 2>1 2>3 3>2", negLoop: -1},
		{name: "parallel edges keep smallest", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 5\n0 1 3\n0 1 7\n1 0 9\n", n: 2, directed: true, kind: IntWeights, arcs: "0>1:3 1>0:9", negLoop: -1},
		{name: "undirected parallel both ways", format: el, in: "0 1 5\n1 0 2\n", n: 2, kind: IntWeights,
			arcs: "0>1:2 1>0:2", negLoop: -1},
		{name: "positive self loop dropped", format: el, in: "0 0 4\n0 1 1\n", n: 2, kind: IntWeights,
			arcs: "0>1:1 1>0:1", negLoop: -1},
		{name: "unweighted self loop dropped", format: el, in: "2 2\n", n: 3, kind: Unweighted, negLoop: -1},
		{name: "negative self loop", format: el, opt: ReadOptions{Directed: true}, in: "0 1 1\n1 1 -2\n", n: 2,
			directed: true, kind: IntWeights, arcs: "0>1:1", negLoop: 1},
		{name: "negative float self loop", format: el, opt: ReadOptions{Directed: true}, in: "2 2 -0.5\n", n: 3,
			directed: true, kind: FloatWeights, negLoop: 2},
		{name: "negative zero float is zero", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 -0.0\n1 2 -0e5\n2 0 -0x0p0\n", n: 3, directed: true, kind: FloatWeights,
			arcs: "0>1:0 1>2:0 2>0:0", negLoop: -1},
		{name: "negative zero int is zero", format: el, opt: ReadOptions{Directed: true}, in: "0 1 -0\n", n: 2,
			directed: true, kind: IntWeights, arcs: "0>1:0", negLoop: -1},
		{name: "negative zero int in a float graph", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 -0\n1 0 0.5\n", n: 2, directed: true, kind: FloatWeights, arcs: "0>1:0 1>0:0.5", negLoop: -1},
		{name: "zero with a huge exponent is zero", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 0e-400\n1 0 -0.000e-99999\n", n: 2, directed: true, kind: FloatWeights, arcs: "0>1:0 1>0:0",
			negLoop: -1},
		{name: "subnormal weights kept", format: el, opt: ReadOptions{Directed: true},
			in: "0 1 5e-324\n1 2 3e-324\n2 0 -4.9e-324\n0 2 0x1p-1074\n", n: 3, directed: true, kind: FloatWeights,
			arcs: "0>1:5e-324 0>2:5e-324 1>2:5e-324 2>0:-5e-324", negLoop: -1},
		{name: "negative zero self loop is not negative", format: el, opt: ReadOptions{Directed: true},
			in: "1 1 -0.0\n", n: 2, directed: true, kind: FloatWeights, negLoop: -1},
		// Edge list headers.
		{name: "vertices header without edges", format: el, in: "# vertices: 3\n", n: 3, kind: Unweighted, negLoop: -1},
		{name: "vertices header one vertex", format: el, in: "# vertices: 1\n", n: 1, kind: Unweighted, negLoop: -1},
		{name: "vertices header zero", format: el, in: "# vertices: 0\n", n: 0, kind: Unweighted, negLoop: -1},
		{name: "vertices header with edges", format: el, in: "# vertices: 5\n0 1\n", n: 5, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "vertices header at the ids", format: el, in: "# vertices: 4\n0 3\n", n: 4, kind: Unweighted,
			arcs: "0>3 3>0", negLoop: -1},
		{name: "vertices header one based at the ids", format: el, opt: ReadOptions{OneBased: true},
			in: "# vertices: 4\n4 1\n", n: 4, kind: Unweighted, arcs: "0>3 3>0", negLoop: -1},
		{name: "vertices option above the header and the ids", format: el, opt: ReadOptions{Vertices: 6},
			in: "# vertices: 4\n0 3\n", n: 6, kind: Unweighted, arcs: "0>3 3>0", negLoop: -1},
		{name: "vertices option above the header", format: el, opt: ReadOptions{Vertices: 7}, in: "# vertices: 5\n",
			n: 7, kind: Unweighted, negLoop: -1},
		{name: "vertices option at the header", format: el, opt: ReadOptions{Vertices: 5}, in: "# vertices: 5\n",
			n: 5, kind: Unweighted, negLoop: -1},
		{name: "vertices header with blanks", format: el, in: "\n  #\tvertices:   4  \r\n% c\n", n: 4, kind: Unweighted,
			negLoop: -1},
		{name: "repeated vertices header", format: el, in: "# vertices: 6\n# c\n#  vertices:\t06\n", n: 6,
			kind: Unweighted, negLoop: -1},
		{name: "vertices header after an edge is a comment", format: el, in: "0 1\n# vertices: 9\n", n: 2,
			kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "other vertices comments", format: el,
			in: "# vertices: many\n# Vertices: 9\n#vertices: 9\n# vertices: 9 10\n# vertices: +9\n# vertices 9\n% vertices: 9\n",
			n:  0, kind: Unweighted, negLoop: -1},
		{name: "vertices header one based", format: el, opt: ReadOptions{OneBased: true}, in: "# vertices: 3\n1 2\n", n: 3,
			kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "directed header", format: el, in: "# directed: true\n0 1\n", n: 2, directed: true, kind: Unweighted,
			arcs: "0>1", negLoop: -1},
		{name: "directed header and option", format: el, opt: ReadOptions{Directed: true}, in: "# directed: true\n0 1\n",
			n: 2, directed: true, kind: Unweighted, arcs: "0>1", negLoop: -1},
		{name: "directed header and option set", format: el, opt: ReadOptions{Directed: true, DirectedSet: true},
			in: "# directed: true\n0 1\n", n: 2, directed: true, kind: Unweighted, arcs: "0>1", negLoop: -1},
		{name: "undirected header and option set", format: el, opt: ReadOptions{DirectedSet: true},
			in: "# directed: false\n0 1\n", n: 2, kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "undirected option set without a header", format: el, opt: ReadOptions{DirectedSet: true},
			in: "# c\n0 1\n", n: 2, kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "directed option set without a header", format: el, opt: ReadOptions{Directed: true, DirectedSet: true},
			in: "0 1\n", n: 2, directed: true, kind: Unweighted, arcs: "0>1", negLoop: -1},
		{name: "undirected option set ignores a late directed comment", format: el, opt: ReadOptions{DirectedSet: true},
			in: "0 1\n# directed: true\n", n: 2, kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "undirected header", format: el, in: "# directed: false\n# directed: false\n0 1\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "directed header without edges", format: el, in: "# directed: true\n# vertices: 2\n", n: 2, directed: true,
			kind: Unweighted, negLoop: -1},
		{name: "directed header after an edge is a comment", format: el, in: "0 1\n# directed: true\n", n: 2,
			kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "other directed comments", format: el, in: "# directed: yes\n# Directed: true\n# directed: True\n0 1\n",
			n: 2, kind: Unweighted, arcs: "0>1 1>0", negLoop: -1},
		{name: "writer header", format: el, opt: ReadOptions{Unweighted: true},
			in: "# apsp edge list\n# vertices: 4\n# edges: 1\n# directed: true\n# weights: integer\n1 0 7\n", n: 4,
			directed: true, kind: Unweighted, arcs: "1>0", negLoop: -1},
		{name: "leading zeros", format: el, opt: ReadOptions{Directed: true}, in: "007 0010\n", n: 11,
			directed: true, kind: Unweighted, arcs: "7>10", negLoop: -1},

		// Matrix Market.
		{name: "mtx pattern general", format: mtx,
			in: "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n1 2\n3 1\n", n: 3, directed: true,
			kind: Unweighted, arcs: "0>1 2>0", negLoop: -1},
		{name: "mtx integer symmetric", format: mtx,
			in: "%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 7\n", n: 2, kind: IntWeights,
			arcs: "0>1:7 1>0:7", negLoop: -1},
		{name: "mtx real is float", format: mtx,
			in: "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 3\n2 1 1.5\n", n: 2, directed: true,
			kind: FloatWeights, arcs: "0>1:3 1>0:1.5", negLoop: -1},
		{name: "mtx double case insensitive", format: mtx,
			in: "%%matrixmarket MATRIX Coordinate DOUBLE Symmetric\n\n% c\n\n3 3 1\n% between\n3 2 2.0\n", n: 3,
			kind: FloatWeights, arcs: "1>2:2 2>1:2", negLoop: -1},
		{name: "mtx after blank lines", format: mtx,
			in: "\n \t\r\n\n%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", n: 3,
			kind: Unweighted, arcs: "0>1 1>0 1>2 2>1", negLoop: -1},
		{name: "mtx after a byte order mark and blank lines", format: mtx,
			in: "\xef\xbb\xbf\r\n%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 3\n", n: 2, directed: true,
			kind: IntWeights, arcs: "0>1:3", negLoop: -1},
		{name: "mtx isolated vertices", format: mtx,
			in: "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 0\n", n: 5, kind: Unweighted, negLoop: -1},
		{name: "mtx diagonal dropped", format: mtx,
			in: "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 3\n1 2 4\n", n: 2, directed: true,
			kind: IntWeights, arcs: "0>1:4", negLoop: -1},
		{name: "mtx negative diagonal", format: mtx,
			in: "%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 2 -3\n", n: 2, directed: true,
			kind: IntWeights, negLoop: 1},
		{name: "mtx negative zero", format: mtx,
			in: "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 -0.0\n2 1 -0\n", n: 2, directed: true,
			kind: FloatWeights, arcs: "0>1:0 1>0:0", negLoop: -1},
		{name: "mtx subnormal", format: mtx,
			in: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5e-324\n", n: 2, directed: true,
			kind: FloatWeights, arcs: "0>1:5e-324", negLoop: -1},
		{name: "mtx unweighted option", format: mtx, opt: ReadOptions{Unweighted: true},
			in: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 junk\n", n: 2, directed: true,
			kind: Unweighted, arcs: "0>1", negLoop: -1},
		{name: "mtx ignores one-based", format: mtx, opt: ReadOptions{OneBased: true},
			in: "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		// Issue 32 item 7: options that agree with the file are taken, as
		// for an edge list's header; more vertices than declared are added.
		{name: "mtx general read as directed", format: mtx, opt: ReadOptions{Directed: true, DirectedSet: true},
			in: "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n", n: 2, directed: true, kind: Unweighted,
			arcs: "1>0", negLoop: -1},
		{name: "mtx symmetric read as undirected", format: mtx, opt: ReadOptions{DirectedSet: true},
			in: "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "mtx vertices option above the size line", format: mtx, opt: ReadOptions{Vertices: 9},
			in: "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n", n: 9, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "mtx vertices option at the size line", format: mtx, opt: ReadOptions{Vertices: 2},
			in: "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n", n: 2, kind: Unweighted,
			arcs: "0>1 1>0", negLoop: -1},
		{name: "gr read as directed", format: gr, opt: ReadOptions{Directed: true, DirectedSet: true},
			in: "p sp 2 1\na 1 2 3\n", n: 2, directed: true, kind: IntWeights, arcs: "0>1:3", negLoop: -1},
		{name: "gr vertices option above the problem line", format: gr, opt: ReadOptions{Vertices: 4},
			in: "p sp 2 1\na 1 2 3\n", n: 4, directed: true, kind: IntWeights, arcs: "0>1:3", negLoop: -1},

		// DIMACS.
		{name: "gr basic", format: gr, in: "c hi\np sp 3 2\nc mid\na 1 2 5\na 3 1 -2\n", n: 3, directed: true,
			kind: IntWeights, arcs: "0>1:5 2>0:-2", negLoop: -1},
		{name: "gr float weights", format: gr, in: "p sp 2 1\na 2 1 0.25\n", n: 2, directed: true,
			kind: FloatWeights, arcs: "1>0:0.25", negLoop: -1},
		{name: "gr blank lines crlf", format: gr, in: "\r\np sp 2 1\r\n\r\na 1 2 1\r\n", n: 2, directed: true,
			kind: IntWeights, arcs: "0>1:1", negLoop: -1},
		{name: "gr no arcs", format: gr, in: "p sp 4 0\n", n: 4, directed: true, kind: Unweighted, negLoop: -1},
		{name: "gr parallel arcs", format: gr, in: "p sp 2 3\na 1 2 5\na 1 2 2\na 1 2 9\n", n: 2, directed: true,
			kind: IntWeights, arcs: "0>1:2", negLoop: -1},
		{name: "gr negative self loop", format: gr, in: "p sp 2 1\na 2 2 -1\n", n: 2, directed: true,
			kind: IntWeights, negLoop: 1},
		{name: "gr negative zero", format: gr, in: "p sp 2 2\na 1 2 -0.0\na 2 1 -0\n", n: 2, directed: true,
			kind: FloatWeights, arcs: "0>1:0 1>0:0", negLoop: -1},
		{name: "gr unweighted", format: gr, opt: ReadOptions{Unweighted: true}, in: "p sp 2 1\na 1 2 x\n", n: 2,
			directed: true, kind: Unweighted, arcs: "0>1", negLoop: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			opt.Format = tt.format
			g, err := Read(strings.NewReader(tt.in), "in", opt)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if g.N() != tt.n || g.Directed() != tt.directed || g.Kind() != tt.kind {
				t.Errorf("got N=%d directed=%v kind=%v, want N=%d directed=%v kind=%v",
					g.N(), g.Directed(), g.Kind(), tt.n, tt.directed, tt.kind)
			}
			if got := dump(g); got != tt.arcs {
				t.Errorf("arcs\n got %q\nwant %q", got, tt.arcs)
			}
			v, ok := g.NegativeSelfLoop()
			if !ok {
				v = -1
			}
			if v != tt.negLoop {
				t.Errorf("NegativeSelfLoop = %d, want %d", v, tt.negLoop)
			}
		})
	}
}

func TestReadRejects(t *testing.T) {
	el, mtx, gr := FormatEdgeList, FormatMatrixMarket, FormatDIMACS
	const mtxInt = "%%MatrixMarket matrix coordinate integer general\n"
	tests := []struct {
		name   string
		format Format
		opt    ReadOptions
		in     string
		want   string // the error must contain it
		large  bool   // the error must wrap ErrTooLarge
	}{
		// Edge lists.
		{name: "bad id", format: el, in: "0 1\n# c\n0 x\n", want: `in:3: bad vertex id "x"`},
		{name: "bad first id", format: el, in: "y 1\n", want: `in:1: bad vertex id "y"`},
		{name: "negative id", format: el, in: "0 -1\n", want: `in:1: negative vertex id "-1"`},
		{name: "signed id", format: el, in: "+1 2\n", want: `in:1: bad vertex id "+1"`},
		{name: "one field", format: el, in: "0 1\n3\n", want: `in:2: want "u v" or "u v w", found 1 fields`},
		{name: "four fields", format: el, in: "0 1 2 3\n", want: "in:1: want \"u v\" or \"u v w\", found 4 fields"},
		{name: "four fields unweighted", format: el, opt: ReadOptions{Unweighted: true}, in: "0 1 2 3\n",
			want: "in:1: want"},
		{name: "trailing comment", format: el, in: "0 1 # x\n", want: "in:1: want"},
		{name: "weight then none", format: el, in: "0 1 2\n\n1 2\n",
			want: "in:3: edge has no weight but the edge on line 1 has one"},
		{name: "none then weight", format: el, in: "# h\n0 1\n1 2 3\n",
			want: "in:3: edge has a weight but the edge on line 2 has none"},
		{name: "nan weight", format: el, in: "0 1 nan\n", want: `in:1: weight "nan" is not a finite number`},
		{name: "inf weight", format: el, in: "0 1 -Inf\n", want: `in:1: weight "-Inf" is not a finite number`},
		{name: "infinity weight", format: el, in: "0 1 +infinity\n", want: `in:1: weight "+infinity" is not a finite number`},
		{name: "overflowing float", format: el, in: "0 1 1e999\n",
			want: `in:1: weight "1e999" overflows float64 (largest is 1.8e+308)`},
		{name: "overflowing negative float", format: el, in: "0 1 -1e400\n",
			want: `in:1: weight "-1e400" overflows float64 (largest is 1.8e+308)`},
		{name: "overflowing by rounding", format: el, in: "0 1 1.7976931348623159e308\n",
			want: `in:1: weight "1.7976931348623159e308" overflows float64`},
		{name: "overflowing hex float", format: el, in: "0 1 0x1p1024\n", want: `in:1: weight "0x1p1024" overflows float64`},
		{name: "overflowing huge exponent", format: el, in: "0 1 1e99999999999999999999\n",
			want: `in:1: weight "1e99999999999999999999" overflows float64`},
		{name: "underflowing float", format: el, in: "0 1 1\n1 2 1e-400\n",
			want: `in:2: weight "1e-400" underflows to 0 in float64 (smallest positive is 4.9e-324)`},
		{name: "underflowing negative float", format: el, in: "0 1 -1e-400\n", want: `in:1: weight "-1e-400" underflows`},
		{name: "underflowing below half the smallest", format: el, in: "0 1 2e-324\n", want: `in:1: weight "2e-324" underflows`},
		{name: "underflowing fraction", format: el, in: "0 1 0.000001e-320\n", want: `in:1: weight "0.000001e-320" underflows`},
		{name: "underflowing hex float", format: el, in: "0 1 0x1p-1080\n", want: `in:1: weight "0x1p-1080" underflows`},
		{name: "underflowing huge exponent", format: el, in: "0 1 1e-99999999999999999999\n",
			want: `in:1: weight "1e-99999999999999999999" underflows`},
		{name: "bad weight", format: el, in: "0 1 abc\n", want: `in:1: bad weight "abc"`},
		{name: "underscore weight", format: el, in: "0 1 1_000\n", want: `in:1: bad weight "1_000"`},
		{name: "int weight overflow", format: el, in: "0 1 9223372036854775808\n",
			want: `in:1: weight "9223372036854775808" does not fit in a 64-bit integer`},
		{name: "id overflow", format: el, in: "0 99999999999999999999999\n",
			want: "in:1: vertex id 99999999999999999999999: graph too large", large: true},
		{name: "id at MaxVertices", format: el, in: "0 2147483647\n", want: "in:1: vertex id 2147483647: graph too large",
			large: true},
		{name: "one based zero", format: el, opt: ReadOptions{OneBased: true}, in: "1 2\n0 1\n",
			want: "in:2: vertex id 0 in a 1-based edge list"},
		{name: "negative vertices option", format: el, opt: ReadOptions{Vertices: -1}, in: "0 1\n",
			want: "in: negative vertex count -1"},
		{name: "huge vertices option", format: el, opt: ReadOptions{Vertices: MaxVertices + 1}, in: "0 1\n",
			want: "in: 2147483648 vertices: graph too large", large: true},
		{name: "vertices header below the ids", format: el, in: "# vertices: 3\n0 1\n\n2 5\n",
			want: `in:4: vertex id 5 is too large for the header "# vertices: 3" on line 1`},
		{name: "vertices header below the first id", format: el, in: "# c\n# vertices: 3\n3 0 1\n",
			want: `in:3: vertex id 3 is too large for the header "# vertices: 3" on line 2`},
		{name: "vertices header below the one based ids", format: el, opt: ReadOptions{OneBased: true},
			in: "# vertices: 3\n1 3\n3 4\n", want: `in:3: vertex id 4 is too large for the header "# vertices: 3" on line 1`},
		{name: "vertices header zero with an edge", format: el, in: "# vertices: 0\n0 1\n",
			want: `in:2: vertex id 0 is too large for the header "# vertices: 0" on line 1`},
		{name: "vertices header below the ids with the option", format: el, opt: ReadOptions{Vertices: 9},
			in: "# vertices: 3\n0 5\n", want: `in:2: vertex id 5 is too large for the header "# vertices: 3" on line 1`},
		{name: "disagreeing vertices headers", format: el, in: "# vertices: 2\n# vertices: 6\n",
			want: "in:2: header says vertices: 6, but line 1 says vertices: 2"},
		{name: "huge vertices header", format: el, in: "# c\n# vertices: 3000000000\n",
			want: "in:2: 3000000000 vertices: graph too large", large: true},
		{name: "overflowing vertices header", format: el, in: "# vertices: 99999999999999999999999\n",
			want: "in:1: 99999999999999999999999 vertices: graph too large", large: true},
		{name: "undirected header read as directed", format: el, opt: ReadOptions{Directed: true},
			in:   "# directed: false\n0 1\n",
			want: "in:1: header says the graph is undirected, but it is read as directed (--directed); drop one or the other"},
		{name: "directed header read as undirected", format: el, opt: ReadOptions{DirectedSet: true},
			in:   "# vertices: 2\n# directed: true\n0 1\n",
			want: "in:2: header says the graph is directed, but it is read as undirected (--directed=false); drop one or the other"},
		{name: "undirected header read as directed, set", format: el, opt: ReadOptions{Directed: true, DirectedSet: true},
			in:   "# directed: false\n",
			want: "in:1: header says the graph is undirected, but it is read as directed (--directed); drop one or the other"},
		// Issue 32 item 7: a .mtx or .gr file contradicted by the options
		// is refused, as an edge list's header is.
		{name: "vertices option below the header", format: el, opt: ReadOptions{Vertices: 2}, in: "# vertices: 5\n",
			want: "in:1: header says 5 vertices, but it is read with 2 (--vertices); drop one or the other"},
		{name: "mtx symmetric read as directed", format: mtx, opt: ReadOptions{Directed: true},
			in:   "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n",
			want: `in:1: a "symmetric" banner says the graph is undirected, but it is read as directed (--directed); drop one or the other`},
		{name: "mtx general read as undirected", format: mtx, opt: ReadOptions{DirectedSet: true},
			in:   "\n%%MatrixMarket matrix coordinate integer General\n2 2 1\n2 1 5\n",
			want: `in:2: a "General" banner says the graph is directed, but it is read as undirected (--directed=false); drop one or the other`},
		{name: "mtx vertices option below the size line", format: mtx, opt: ReadOptions{Vertices: 2},
			in:   "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 1\n2 1\n",
			want: "in:3: the size line says 3 vertices, but it is read with 2 (--vertices); drop one or the other"},
		{name: "gr read as undirected", format: gr, opt: ReadOptions{DirectedSet: true}, in: "c x\np sp 2 1\na 1 2 3\n",
			want: "in:2: a DIMACS file says the graph is directed, but it is read as undirected (--directed=false); drop one or the other"},
		{name: "gr vertices option below the problem line", format: gr, opt: ReadOptions{Vertices: 1}, in: "p sp 2 1\na 1 2 3\n",
			want: "in:1: the problem line says 2 vertices, but it is read with 1 (--vertices); drop one or the other"},
		{name: "mtx negative vertices option", format: mtx, opt: ReadOptions{Vertices: -1}, in: "%%MatrixMarket matrix coordinate pattern general\n2 2 0\n",
			want: "in: negative vertex count -1"},
		{name: "disagreeing directed headers", format: el, in: "# directed: true\n\n# directed: false\n0 1\n",
			want: "in:3: header says directed: false, but line 1 says directed: true"},
		{name: "mtx banner in an edge list", format: el, in: "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n",
			want: "in:1: this is a Matrix Market file, not an edge list (use --format mtx or a .mtx name)"},
		{name: "mtx banner after edges", format: el, in: "0 1\n\n  %%matrixmarket\n",
			want: "in:3: this is a Matrix Market file, not an edge list"},
		{name: "dimacs problem line in an edge list", format: el, in: "# x\np sp 3 1\na 1 2 3\n",
			want: "in:2: this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"},
		{name: "dimacs problem line first", format: el, opt: ReadOptions{Unweighted: true}, in: "p sp 3 1\n",
			want: "in:1: this is a DIMACS shortest-path file"},
		{name: "dimacs arc line in an edge list", format: el, in: "0 1 1\na 1 2 3\n",
			want: "in:2: this is a DIMACS shortest-path file"},
		{name: "dimacs comment in an edge list", format: el, in: "0 1\nc this is a comment\n",
			want: `in:2: want "u v" or "u v w", found 5 fields`},
		{name: "lone c in an edge list", format: el, in: "c\n", want: `in:1: want "u v" or "u v w", found 1 fields`},
		{name: "dimacs comments in an edge list", format: el, in: "c a\n\nc\np sp 3 1\na 1 2 3\n",
			want: "in:1: this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"},
		{name: "letter ids", format: el, in: "a b\n", want: `in:1: bad vertex id "a"`},
		{name: "another DIMACS problem", format: el, in: "p max 2 1\n", want: `in:1: want "u v" or "u v w", found 4 fields`},
		{name: "long garbage field is clipped", format: el, in: "0 " + strings.Repeat("z", 100) + "\n",
			want: `in:1: bad vertex id "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"...`},

		// Matrix Market.
		{name: "mtx empty", format: mtx, in: "", want: "in:1: empty file, want a %%MatrixMarket header"},
		{name: "mtx blank", format: mtx, in: "\n \r\n", want: "in:2: only blank lines, want a %%MatrixMarket header"},
		{name: "mtx no header", format: mtx, in: "3 3 1\n1 2 3\n", want: "in:1: missing %%MatrixMarket header"},
		{name: "mtx no header after blank lines", format: mtx, in: "\n\t\n3 3 1\n1 2 3\n",
			want: "in:3: missing %%MatrixMarket header"},
		{name: "mtx comment before the banner", format: mtx, in: "% c\n" + mtxInt + "2 2 0\n",
			want: "in:1: missing %%MatrixMarket header"},
		{name: "mtx bad header after blank lines", format: mtx, in: "\n\n%%MatrixMarket matrix coordinate bool general\n",
			want: `in:3: unknown field "bool"`},
		{name: "mtx lines counted after blank lines", format: mtx, in: "\n" + mtxInt + "\n3 3 1\n1 9 1\n",
			want: "in:5: vertex 9 out of range 1..3"},
		{name: "mtx entry count after blank lines", format: mtx, in: "\n\n" + mtxInt + "3 3 2\n1 2 1\n",
			want: "in:4: header says 2 entries, file has 1"},
		{name: "mtx short header", format: mtx, in: "%%MatrixMarket matrix coordinate\n",
			want: "in:1: header has 3 fields"},
		{name: "mtx array", format: mtx, in: "%%MatrixMarket matrix array real general\n2 2\n",
			want: "in:1: array (dense) format is not supported"},
		{name: "mtx vector", format: mtx, in: "%%MatrixMarket vector coordinate real general\n",
			want: `in:1: object "vector" is not supported`},
		{name: "mtx complex", format: mtx, in: "%%MatrixMarket matrix coordinate complex general\n",
			want: "in:1: complex matrices are not supported"},
		{name: "mtx hermitian", format: mtx, in: "%%MatrixMarket matrix coordinate real hermitian\n",
			want: "in:1: hermitian matrices are not supported"},
		{name: "mtx skew", format: mtx, in: "%%MatrixMarket matrix coordinate integer Skew-Symmetric\n",
			want: "in:1: skew-symmetric matrices are not supported"},
		{name: "mtx unknown field", format: mtx, in: "%%MatrixMarket matrix coordinate bool general\n",
			want: `in:1: unknown field "bool"`},
		{name: "mtx unknown symmetry", format: mtx, in: "%%MatrixMarket matrix coordinate real odd\n",
			want: `in:1: unknown symmetry "odd"`},
		{name: "mtx no size", format: mtx, in: mtxInt + "% only comments\n", want: "in:2: missing size line"},
		{name: "mtx short size", format: mtx, in: mtxInt + "3 3\n", want: "in:2: want size line"},
		{name: "mtx not square", format: mtx, in: mtxInt + "3 4 0\n", want: "in:2: matrix is 3 x 4, not square"},
		{name: "mtx bad size", format: mtx, in: mtxInt + "3 3 x\n", want: `in:2: bad entry count "x"`},
		{name: "mtx negative size", format: mtx, in: mtxInt + "-3 -3 0\n", want: `in:2: negative row count "-3"`},
		{name: "mtx too many vertices", format: mtx, in: mtxInt + "3000000000 3000000000 0\n",
			want: "in:2: 3000000000 vertices: graph too large", large: true},
		{name: "mtx overflowing size", format: mtx, in: mtxInt + "1 1 99999999999999999999\n",
			want: "in:2: entry count 99999999999999999999: graph too large", large: true},
		{name: "mtx too few entries", format: mtx, in: mtxInt + "% c\n3 3 3\n1 2 1\n2 3 1\n",
			want: "in:3: header says 3 entries, file has 2"},
		{name: "mtx too many entries", format: mtx, in: mtxInt + "3 3 1\n1 2 1\n2 3 1\n3 1 x y z\n",
			want: "in:2: header says 1 entries, file has 3"},
		{name: "mtx out of range", format: mtx, in: mtxInt + "5 5 1\n1 7 1\n", want: "in:3: vertex 7 out of range 1..5"},
		{name: "mtx zero id", format: mtx, in: mtxInt + "5 5 1\n0 1 1\n", want: "in:3: vertex 0 out of range 1..5"},
		{name: "mtx huge id", format: mtx, in: mtxInt + "5 5 1\n1 99999999999999999999999 1\n",
			want: "in:3: vertex 99999999999999999999999 out of range 1..5"},
		{name: "mtx missing value", format: mtx, in: mtxInt + "5 5 1\n1 2\n", want: "in:3: want 3 fields per entry, found 2"},
		{name: "mtx pattern with value", format: mtx,
			in:   "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 2 3\n",
			want: "in:3: want 2 fields per entry, found 3"},
		{name: "mtx float in integer", format: mtx, in: mtxInt + "5 5 1\n1 2 2.5\n", want: `in:3: bad integer weight "2.5"`},
		{name: "mtx underflowing real", format: mtx, in: "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 1e-400\n",
			want: `in:3: weight "1e-400" underflows to 0 in float64`},
		{name: "mtx overflowing real", format: mtx, in: "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 1e400\n",
			want: `in:3: weight "1e400" overflows float64 (largest is 1.8e+308)`},
		{name: "mtx nan real", format: mtx, in: "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 NaN\n",
			want: `in:3: weight "NaN" is not a finite number`},

		// DIMACS.
		{name: "gr empty", format: gr, in: "", want: `in:1: missing problem line "p sp N M"`},
		{name: "gr no p", format: gr, in: "c a\nc b\n", want: `in:2: missing problem line`},
		{name: "gr arc before p", format: gr, in: "c x\na 1 2 3\np sp 2 1\n",
			want: `in:2: arc before the problem line`},
		{name: "gr second p", format: gr, in: "p sp 2 0\np sp 2 0\n",
			want: "in:2: second problem line (the first is on line 1)"},
		{name: "gr wrong problem", format: gr, in: "p max 2 0\n", want: `in:1: problem type "max" is not "sp"`},
		{name: "gr short p", format: gr, in: "p sp 2\n", want: `in:1: want problem line "p sp N M", found 3 fields`},
		{name: "gr too many arcs", format: gr, in: "c\np sp 3 1\na 1 2 1\na 2 3 1\n",
			want: "in:2: header says 1 arcs, file has 2"},
		{name: "gr too few arcs", format: gr, in: "p sp 3 3\na 1 2 1\na 2 3 1\n",
			want: "in:1: header says 3 arcs, file has 2"},
		{name: "gr out of range", format: gr, in: "p sp 5 1\na 1 7 1\n", want: "in:2: vertex 7 out of range 1..5"},
		{name: "gr zero id", format: gr, in: "p sp 5 1\na 0 1 1\n", want: "in:2: vertex 0 out of range 1..5"},
		{name: "gr negative id", format: gr, in: "p sp 5 1\na -1 1 1\n", want: `in:2: negative vertex id "-1"`},
		{name: "gr bad id", format: gr, in: "p sp 5 1\na 1 x 1\n", want: `in:2: bad vertex id "x"`},
		{name: "gr bad weight", format: gr, in: "p sp 5 1\na 1 2 w\n", want: `in:2: bad weight "w"`},
		{name: "gr inf weight", format: gr, in: "p sp 5 1\na 1 2 inf\n", want: `in:2: weight "inf" is not a finite number`},
		{name: "gr underflowing weight", format: gr, in: "p sp 5 1\na 1 2 -1e-400\n",
			want: `in:2: weight "-1e-400" underflows to 0 in float64`},
		{name: "gr overflowing weight", format: gr, in: "p sp 5 1\na 1 2 -1e400\n",
			want: `in:2: weight "-1e400" overflows float64 (largest is 1.8e+308)`},
		{name: "gr short arc", format: gr, in: "p sp 5 1\na 1 2\n", want: `in:2: want arc line "a u v w", found 3 fields`},
		{name: "gr unknown line", format: gr, in: "p sp 5 0\nn 1 2\n", want: `in:2: unknown line type "n"`},
		{name: "gr glued comment", format: gr, in: "comment\np sp 5 0\n", want: `in:1: unknown line type "comment"`},
		{name: "gr too many vertices", format: gr, in: "p sp 2147483648 0\n",
			want: "in:1: 2147483648 vertices: graph too large", large: true},
		{name: "gr overflowing count", format: gr, in: "p sp 1 18446744073709551616\n",
			want: "in:1: arc count 18446744073709551616: graph too large", large: true},
		{name: "gr negative count", format: gr, in: "p sp 1 -1\n", want: `in:1: negative arc count "-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			opt.Format = tt.format
			g, err := Read(strings.NewReader(tt.in), "in", opt)
			if err == nil {
				t.Fatalf("Read succeeded (N=%d, arcs %q), want error %q", g.N(), dump(g), tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\ndoes not contain %q", err, tt.want)
			}
			if errors.Is(err, ErrTooLarge) != tt.large {
				t.Errorf("errors.Is(%q, ErrTooLarge) = %v, want %v", err, !tt.large, tt.large)
			}
			// Errors at a line are ParseErrors with that line.
			var pe *ParseError
			if strings.HasPrefix(tt.want, "in:") && tt.want[3] >= '0' && tt.want[3] <= '9' {
				if !errors.As(err, &pe) {
					t.Fatalf("error %q is not a *ParseError", err)
				}
				prefix := fmt.Sprintf("%s:%d: ", pe.File, pe.Line)
				if !strings.HasPrefix(tt.want, prefix) || pe.Msg == "" {
					t.Errorf("ParseError{%q, %d, %q} does not match %q", pe.File, pe.Line, pe.Msg, tt.want)
				}
			}
		})
	}
}

// withMemoryLimit runs f with the runtime's memory limit set to limit.
func withMemoryLimit(t *testing.T, limit int64, f func()) {
	t.Helper()
	old := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(old)
	f()
}

func TestReadVertexLimit(t *testing.T) {
	// Under a 1 GiB memory limit the offsets may take 512 MiB: 2^26-1 vertices.
	withMemoryLimit(t, 1<<30, func() {
		_, err := Read(strings.NewReader("p sp 67108864 0\n"), "in", ReadOptions{Format: FormatDIMACS})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "in:1: 67108864 vertices") {
			t.Errorf("over the memory limit: got %v", err)
		}
		_, err = Read(strings.NewReader("0 67108863\n"), "in", ReadOptions{})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "in:1: vertex id 67108863") {
			t.Errorf("edge list id over the memory limit: got %v", err)
		}
		_, err = Read(strings.NewReader("%%MatrixMarket matrix coordinate pattern general\n67108864 67108864 0\n"),
			"in", ReadOptions{Format: FormatMatrixMarket})
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("mtx over the memory limit: got %v", err)
		}
	})
	// Without a limit a large header that fits in available memory is
	// accepted and costs nothing until Build, so a bad line after it is
	// reported at once.
	withMemoryLimit(t, math.MaxInt64, func() {
		if limit := vertexLimit(); limit < 100_000_000 {
			t.Skipf("10^8 vertices (3.2 GB) do not fit here: at most %d", limit)
		}
		_, err := Read(strings.NewReader("p sp 100000000 1\na 1 2 x\n"), "in", ReadOptions{Format: FormatDIMACS})
		if err == nil || !strings.Contains(err.Error(), `in:2: bad weight "x"`) {
			t.Errorf("got %v, want a bad weight on line 2", err)
		}
	})
}

func TestReadLongLine(t *testing.T) {
	// A comment longer than the read buffer, then an edge.
	in := "# " + strings.Repeat("x", 3*readBufSize) + "\n0 1\n"
	g, err := Read(strings.NewReader(in), "in", ReadOptions{})
	if err != nil || g.N() != 2 || g.Edges() != 1 {
		t.Fatalf("got %v, %v", g, err)
	}
	// A long edge line: many blanks between the fields.
	in = "0" + strings.Repeat(" ", 2*readBufSize) + "2\n"
	g, err = Read(strings.NewReader(in), "in", ReadOptions{})
	if err != nil || dump(g) != "0>2 2>0" {
		t.Fatalf("got %v, %v", g, err)
	}
	// A line beyond maxLineLen is refused.
	in = "0 1 " + strings.Repeat("9", maxLineLen+readBufSize)
	_, err = Read(strings.NewReader(in), "in", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "in:1: line longer than") {
		t.Fatalf("got %v, want line too long", err)
	}
}

func gzipBytes(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadGzip(t *testing.T) {
	gz := gzipBytes(t, "p sp 3 2\na 1 2 4\na 2 3 5\n")
	// Detected by content, whatever the name.
	g, err := Read(bytes.NewReader(gz), "plain.gr", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(g), "0>1:4 1>2:5"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Errors inside keep their line numbers.
	bad := gzipBytes(t, "0 1\n0 x\n")
	if _, err := Read(bytes.NewReader(bad), "e.txt.gz", ReadOptions{}); err == nil ||
		!strings.Contains(err.Error(), `e.txt.gz:2: bad vertex id "x"`) {
		t.Errorf("got %v", err)
	}
	// A bad header after the magic bytes.
	_, err = Read(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0, 0}), "c.gz", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "c.gz: bad gzip stream") {
		t.Errorf("corrupt header: got %v", err)
	}
	// A truncated stream.
	_, err = Read(bytes.NewReader(gz[:len(gz)-6]), "t.gz", ReadOptions{Format: FormatDIMACS})
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "t.gz: bad gzip stream") {
		t.Errorf("truncated: got %v", err)
	}
	// A damaged checksum.
	damaged := bytes.Clone(gz)
	damaged[len(damaged)-8] ^= 0xff
	_, err = Read(bytes.NewReader(damaged), "d.gz", ReadOptions{Format: FormatDIMACS})
	if !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("checksum: got %v", err)
	}
	// A one-byte file that merely starts like gzip is an edge list.
	if _, err := Read(bytes.NewReader([]byte{0x1f}), "x", ReadOptions{}); err == nil ||
		!strings.Contains(err.Error(), "x:1: want") {
		t.Errorf("one byte: got %v", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mtx := "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
	for _, tc := range []struct {
		path string
		opt  ReadOptions
		want string
	}{
		{write("a.mtx", []byte(mtx)), ReadOptions{}, "0>1 1>0 1>2 2>1"},
		{write("a.MTX.gz", gzipBytes(t, mtx)), ReadOptions{}, "0>1 1>0 1>2 2>1"},
		// Recognised from its first non-blank line, and read from there.
		{write("blank-first.txt", []byte("\n"+mtx)), ReadOptions{}, "0>1 1>0 1>2 2>1"},
		{write("blank-first.mtx", []byte("\n\n"+mtx)), ReadOptions{}, "0>1 1>0 1>2 2>1"},
		{write("a.gr", []byte("p sp 2 1\na 2 1 3\n")), ReadOptions{}, "1>0:3"},
		{write("a.edges", []byte("0 1\n")), ReadOptions{Directed: true}, "0>1"},
		{write("forced.txt", []byte("p sp 2 1\na 1 2 3\n")), ReadOptions{Format: FormatDIMACS}, "0>1:3"},
		{"../testdata/small.gr", ReadOptions{}, "0>1:4 0>2:2 1>3:3 2>1:1 2>3:5 2>4:8 3>4:1 4>0:2"},
	} {
		g, err := ReadFile(tc.path, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if got := dump(g); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.path, got, tc.want)
		}
	}

	_, err := ReadFile(filepath.Join(dir, "missing.txt"), ReadOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: got %v, want fs.ErrNotExist", err)
	}
	_, err = ReadFile("../testdata/bad.txt", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), `../testdata/bad.txt:3: bad vertex id "x"`) {
		t.Errorf("bad.txt: got %v", err)
	}
	_, err = Read(strings.NewReader("0 1\n"), "in", ReadOptions{Format: Format(42)})
	if err == nil || !strings.Contains(err.Error(), "unknown graph format") {
		t.Errorf("bad format: got %v", err)
	}
}

func TestReadFileStdin(t *testing.T) {
	// Matrix Market on stdin is told by its banner, not read as an edge list
	// (which would take the size line "6 6 9" for an edge and give 7 vertices).
	withStdin(t, "../testdata/small.mtx", func() {
		g, err := ReadFile("-", ReadOptions{})
		if err != nil || g.N() != 6 || g.Edges() != 9 || g.Directed() || g.Kind() != IntWeights {
			t.Fatalf("small.mtx on stdin: got %v, %v; want 6 vertices, 9 edges, undirected, integer", g, err)
		}
	})
	withStdin(t, "../testdata/small.gr", func() {
		g, err := ReadFile("-", ReadOptions{})
		if err != nil || g.N() != 5 || g.Edges() != 8 || !g.Directed() {
			t.Fatalf("small.gr on stdin: got %v, %v; want 5 vertices, 8 arcs, directed", g, err)
		}
	})

	// "-" is os.Stdin, named "stdin" in errors and read as an edge list.
	p := filepath.Join(t.TempDir(), "in.mtx")
	if err := os.WriteFile(p, []byte("0 1\n1 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	_, err = ReadFile("-", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), `stdin:2: bad vertex id "x"`) {
		t.Errorf("got %v, want a stdin:2 error", err)
	}
}

func TestReadSniff(t *testing.T) {
	const (
		mtx = "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 2\n1 2 5\n3 1 2\n"
		gr  = "c a\nc\n\nc\tb\np sp 3 2\na 1 2 5\na 3 1 2\n"
		el  = "# c\n% c\n0 1 5\n2 0 2\n"
	)
	directedArcs := "0>1:5 2>0:2"
	for _, tc := range []struct {
		name, file, in string
		opt            ReadOptions
		want           string // arcs, or the start of an error
	}{
		{"mtx on stdin", "stdin", mtx, ReadOptions{}, directedArcs},
		{"mtx in a .txt", "g.txt", mtx, ReadOptions{}, directedArcs},
		{"mtx without extension", "g", mtx, ReadOptions{}, directedArcs},
		{"mtx after a byte order mark and blank lines", "stdin", "\xef\xbb\xbf\n \t\r\n" + mtx, ReadOptions{}, directedArcs},
		{"mtx after blank lines with a bad entry", "stdin", "\n\n" + mtx + "1 x 3\n", ReadOptions{},
			"stdin:5: header says 2 entries, file has 3"},
		{"mtx after a byte order mark", "stdin", "\xef\xbb\xbf" + mtx, ReadOptions{}, directedArcs},
		{"mtx lower case", "stdin", strings.ToLower(mtx), ReadOptions{}, directedArcs},
		{"mtx with a bad header", "stdin", "%%MatrixMarket matrix\n", ReadOptions{}, "stdin:1: header has 2 fields"},
		{"gr with comments", "stdin", gr, ReadOptions{}, directedArcs},
		{"gr problem line first", "stdin", "p sp 3 2\na 1 2 5\na 3 1 2\n", ReadOptions{}, directedArcs},
		{"gr with a bad problem line", "stdin", "p sp 3\n", ReadOptions{}, `stdin:1: want problem line "p sp N M"`},
		{"edge list", "stdin", el, ReadOptions{Directed: true}, directedArcs},
		{"edge list starting with c lines", "stdin", "c x\n0 1\n", ReadOptions{}, `stdin:1: bad vertex id "c"`},
		{"only c lines", "stdin", "c x\nc y\n", ReadOptions{}, `stdin:1: bad vertex id "c"`},
		{"p line of another problem", "stdin", "p max 3 2\n", ReadOptions{}, `stdin:1: want "u v" or "u v w", found 4 fields`},
		{"cfoo is no comment", "stdin", "cfoo\np sp 1 0\n", ReadOptions{}, `stdin:1: want "u v" or "u v w", found 1 fields`},
		{"banner after a comment", "stdin", "# c\n" + mtx, ReadOptions{},
			"stdin:2: this is a Matrix Market file, not an edge list (use --format mtx or a .mtx name)"},
		{"problem line after an edge", "stdin", "0 1\np sp 2 1\n", ReadOptions{},
			"stdin:2: this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"},
		{"empty", "stdin", "", ReadOptions{}, ""},
		{"blank", "stdin", "\n \n\t\n", ReadOptions{}, ""},
		{"no final newline", "stdin", "p sp 1 0", ReadOptions{}, ""},
		// A named format is not second-guessed.
		{"edgelist named", "stdin", mtx, ReadOptions{Format: FormatEdgeList}, "stdin:1: this is a Matrix Market file"},
		{"edgelist named gr", "g.mtx", gr, ReadOptions{Format: FormatEdgeList},
			"g.mtx:1: this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"},
		{"edgelist named gr without comments", "g.mtx", "\np sp 3 2\n", ReadOptions{Format: FormatEdgeList},
			"g.mtx:2: this is a DIMACS shortest-path file"},
		{"mtx extension", "g.mtx", el, ReadOptions{}, "g.mtx:1: missing %%MatrixMarket header"},
		{"gr extension", "g.gr.gz", mtx, ReadOptions{}, `g.gr.gz:1: unknown line type "%%MatrixMarket"`},
		{"gr named", "g.txt", mtx, ReadOptions{Format: FormatDIMACS}, `g.txt:1: unknown line type "%%MatrixMarket"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(tc.in)
				if gz {
					in = gzipBytes(t, tc.in)
				}
				g, err := Read(bytes.NewReader(in), tc.file, tc.opt)
				if strings.Contains(tc.want, ":") && !strings.Contains(tc.want, ">") {
					var pe *ParseError
					if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tc.want) {
						t.Fatalf("gzip %v: got %v, want a ParseError %q", gz, err, tc.want)
					}
					continue
				}
				if err != nil {
					t.Fatalf("gzip %v: %v", gz, err)
				}
				if got := dump(g); got != tc.want {
					t.Errorf("gzip %v: got %q, want %q", gz, got, tc.want)
				}
			}
		})
	}
}

func TestReadCommentLines(t *testing.T) {
	// A "c" line in an edge list is refused at its line. The DIMACS hint
	// comes only when "c" lines lead to a DIMACS problem or arc line, where
	// --format gr can read the file; otherwise the error says what is
	// wrong with the line, as for any bad edge line.
	const hint = "this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"
	for _, tc := range []struct{ in, want string }{
		{"c x\n1 2\n", `in:1: bad vertex id "c"`},
		{"c\n1 2\n", `in:1: want "u v" or "u v w", found 1 fields`},
		{"c x y\n", `in:1: bad vertex id "c"`},
		{"# h\n\nc some more words\n", `in:3: want "u v" or "u v w", found 4 fields`},
		{"c x\nc y\n", `in:1: bad vertex id "c"`},
		{"c x\n# y\np sp 2 1\n", `in:1: bad vertex id "c"`}, // --format gr would fail on "# y"
		{"c x\n%%MatrixMarket matrix coordinate pattern general\n", `in:1: bad vertex id "c"`},
		{"c x\np max 2 1\n", `in:1: bad vertex id "c"`},
		{"0 1\nc x\n", `in:2: bad vertex id "c"`},
		{"c x\np sp 2 1\na 1 2 3\n", "in:1: " + hint},
		{"c x\n\n\tc\r\nc y z\np sp 2 1\n", "in:1: " + hint},
		{"c x\na 1 2 3\n", "in:1: " + hint},
		{"0 1\nc x\np sp 2 1\n", "in:2: " + hint},
	} {
		_, err := Read(strings.NewReader(tc.in), "in", ReadOptions{Format: FormatEdgeList})
		var pe *ParseError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("%q: got %v, want ParseError %q", tc.in, err, tc.want)
		}
	}
}

func TestReadSniffLongComments(t *testing.T) {
	// Comments longer than the first windows make sniff look further; a
	// window full of "c" lines is DIMACS.
	for _, size := range []int{sniffWindow - 3, sniffWindow + 5, 3 * sniffWindow, readBufSize - 10, readBufSize + 10,
		3 * readBufSize} {
		for _, c := range []string{"c", "#"} {
			var sb strings.Builder
			for sb.Len() < size {
				sb.WriteString(c + " padding\n")
			}
			sb.WriteString("p sp 2 1\na 1 2 3\n")
			in := sb.String()
			_, err := Read(iotest.OneByteReader(strings.NewReader(in)), "stdin", ReadOptions{})
			switch {
			case c == "c" && err != nil:
				t.Errorf("%d bytes of c lines: %v", size, err)
			case c == "#" && (err == nil || !strings.Contains(err.Error(), "this is a DIMACS shortest-path file")):
				t.Errorf("%d bytes of # lines, then DIMACS: got %v", size, err)
			}
		}
	}
}

func TestSniffFormat(t *testing.T) {
	for _, tc := range []struct {
		in           string
		final, atEOF bool
		want         Format
		ok           bool
	}{
		{"", false, false, FormatAuto, false},
		{"", true, true, FormatEdgeList, true},
		{"\n\n", false, false, FormatAuto, false},
		{"%%Matrix", false, false, FormatAuto, false}, // an unfinished first line
		{"%%MatrixMarket", true, true, FormatMatrixMarket, true},
		{"%%MatrixMarket matrix\n", false, false, FormatMatrixMarket, true},
		{"%%MATRIXMARKET\n", false, false, FormatMatrixMarket, true},
		{"%% MatrixMarket\n", false, false, FormatEdgeList, true},
		{"c x\n", false, false, FormatAuto, false},
		{"c x\n", true, true, FormatEdgeList, true},   // only comments: no problem line
		{"c x\n", true, false, FormatDIMACS, true},    // a window full of comments
		{"c x\nc y", true, false, FormatDIMACS, true}, // a window ending within a comment
		{"c x\n\nc\np sp 1 0\n", false, false, FormatDIMACS, true},
		{"c x\n%%MatrixMarket\n", false, false, FormatEdgeList, true},
		{"c x\n0 1\n", false, false, FormatEdgeList, true},
		{"p sp\n", false, false, FormatDIMACS, true},
		{"p\tsp 1 0", true, true, FormatDIMACS, true},
		{"p max 1 0\n", false, false, FormatEdgeList, true},
		{"P SP 1 0\n", false, false, FormatEdgeList, true},
		{"\xef\xbb\xbfp sp 1 0\n", false, false, FormatDIMACS, true},
		{"0 1\n", false, false, FormatEdgeList, true},
		{"0 1", false, false, FormatAuto, false},
		{"0 1", true, true, FormatEdgeList, true},
		{"# p sp 1 0\n", false, false, FormatEdgeList, true},
	} {
		got, ok := sniffFormat([]byte(tc.in), tc.final, tc.atEOF)
		if got != tc.want || ok != tc.ok {
			t.Errorf("sniffFormat(%q, %v, %v) = %v, %v; want %v, %v", tc.in, tc.final, tc.atEOF, got, ok, tc.want, tc.ok)
		}
	}
}

func TestReadSniffReadError(t *testing.T) {
	// A read error while sniffing is reported, not taken for the end.
	r := io.MultiReader(strings.NewReader("c x\n"), iotest.ErrReader(errors.New("device gone")))
	if _, err := Read(r, "stdin", ReadOptions{}); err == nil || err.Error() != "stdin: device gone" {
		t.Errorf("got %v", err)
	}
	gz := gzipBytes(t, "c x\np sp 3 2\na 1 2 4\na 2 3 5\n")
	_, err := Read(bytes.NewReader(gz[:len(gz)-6]), "stdin", ReadOptions{})
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "stdin: bad gzip stream") {
		t.Errorf("truncated gzip: got %v", err)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Format
	}{
		{"auto", FormatAuto}, {"edgelist", FormatEdgeList}, {"mtx", FormatMatrixMarket},
		{"matrixmarket", FormatMatrixMarket}, {"gr", FormatDIMACS}, {"dimacs", FormatDIMACS}, {"MTX", FormatMatrixMarket},
		{"graphml", FormatGraphML}, {"GML", FormatGML}, {"pajek", FormatPajek}, {"net", FormatPajek},
		{"metis", FormatMETIS}, {"graph", FormatMETIS},
	} {
		f, err := ParseFormat(tc.s)
		if err != nil || f != tc.want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", tc.s, f, err, tc.want)
		}
	}
	for _, f := range []Format{FormatAuto, FormatEdgeList, FormatMatrixMarket, FormatDIMACS, FormatCSV,
		FormatGraph6, FormatSparse6, FormatDigraph6, FormatGraphML, FormatGML, FormatPajek, FormatMETIS} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%v.String()) = %v, %v", f, g, err)
		}
	}
	if s := Format(99).String(); s != "Format(99)" {
		t.Errorf("Format(99).String() = %q", s)
	}
	if _, err := ParseFormat("xlsx"); err == nil || !strings.Contains(err.Error(), `unknown graph format "xlsx"`) {
		t.Errorf("ParseFormat(xlsx) error = %v", err)
	}
	for name, want := range map[string]Format{
		"a.mtx": FormatMatrixMarket, "dir/a.mtx.gz": FormatMatrixMarket, "A.MTX": FormatMatrixMarket,
		"a.gr": FormatDIMACS, "a.gr.gz": FormatDIMACS, "a.txt": FormatEdgeList, "a.gz": FormatEdgeList,
		"stdin": FormatEdgeList, "a.gr.txt": FormatEdgeList, "mtx": FormatEdgeList, "x.mtx/a.el": FormatEdgeList,
		"a.csv": FormatCSV, "a.CSV.gz": FormatCSV,
		"a.graphml": FormatGraphML, "a.GraphML.gz": FormatGraphML, "a.gml": FormatGML, "a.gml.gz": FormatGML,
		"a.net": FormatPajek, "a.NET.gz": FormatPajek, "a.graph": FormatMETIS, "a.graph.gz": FormatMETIS, "graph": FormatEdgeList,
	} {
		if got := FormatFromName(name); got != want {
			t.Errorf("FormatFromName(%q) = %v, want %v", name, got, want)
		}
	}
}

// withStdin runs f with os.Stdin reading the file at path.
func withStdin(t *testing.T, path string, f func()) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	old := os.Stdin
	os.Stdin = file
	defer func() { os.Stdin = old }()
	f()
}

// bfs returns the hop distances from s (-1 when unreachable).
func bfs(g *Graph, s int) []int {
	d := make([]int, g.N())
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.Neighbors(u) {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, int(v))
			}
		}
	}
	return d
}

// bellmanFord returns the distances from s, and false if a negative cycle is
// reachable from s.
func bellmanFord(g *Graph, s int) ([]float64, bool) {
	d := make([]float64, g.N())
	for i := range d {
		d[i] = math.Inf(1)
	}
	d[s] = 0
	for round := 0; round <= g.N(); round++ {
		changed := false
		for u := 0; u < g.N(); u++ {
			for i, v := range g.Neighbors(u) {
				if nd := d[u] + g.ArcFloat(u, i); nd < d[v] {
					d[v], changed = nd, true
				}
			}
		}
		if !changed {
			return d, true
		}
	}
	return d, false
}

func TestKarate(t *testing.T) {
	g, err := ReadFile("../testdata/karate.txt", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 34 || g.Edges() != 78 || g.Arcs() != 156 || g.Directed() || g.Weighted() {
		t.Fatalf("N=%d edges=%d arcs=%d directed=%v weighted=%v; want 34, 78, 156, undirected, unweighted",
			g.N(), g.Edges(), g.Arcs(), g.Directed(), g.Weighted())
	}
	sum := 0
	for u := range g.N() {
		sum += g.Degree(u)
	}
	if sum != 156 || g.Degree(0) != 16 || g.Degree(33) != 17 || g.Degree(32) != 12 {
		t.Errorf("degree sum %d, deg(0)=%d deg(33)=%d deg(32)=%d; want 156, 16, 17, 12",
			sum, g.Degree(0), g.Degree(33), g.Degree(32))
	}
	diam, total := 0, 0
	for s := range g.N() {
		for _, d := range bfs(g, s) {
			if d < 0 {
				t.Fatalf("karate is not connected")
			}
			diam = max(diam, d)
			total += d
		}
	}
	aspl := float64(total) / float64(34*33)
	if diam != 5 || math.Abs(aspl-2.408199643) > 1e-9 {
		t.Errorf("diameter %d, ASPL %.9f; want 5, 2.408199643", diam, aspl)
	}
}

// TestExampleGraphs checks the example files for the CLI against what their
// comments say.
func TestExampleGraphs(t *testing.T) {
	for _, tc := range []struct {
		file     string
		n, edges int
		directed bool
		kind     WeightKind
		dist     []float64 // from vertex 0, or nil
	}{
		{"small.mtx", 6, 9, false, IntWeights, []float64{0, 7, 9, 20, 20, 11}},
		{"small.gr", 5, 8, true, IntWeights, []float64{0, 3, 2, 6, 7}},
		{"weighted.txt", 5, 6, false, IntWeights, []float64{0, 2, 3, 6, 7}},
		{"disconnected.txt", 6, 5, false, Unweighted, []float64{0, 1, 1, math.Inf(1), math.Inf(1), math.Inf(1)}},
		{"negcycle.gr", 4, 5, true, IntWeights, nil},
	} {
		g, err := ReadFile(filepath.Join("..", "testdata", tc.file), ReadOptions{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if g.N() != tc.n || g.Edges() != tc.edges || g.Directed() != tc.directed || g.Kind() != tc.kind {
			t.Errorf("%s: N=%d edges=%d directed=%v kind=%v; want %d %d %v %v", tc.file,
				g.N(), g.Edges(), g.Directed(), g.Kind(), tc.n, tc.edges, tc.directed, tc.kind)
		}
		d, ok := bellmanFord(g, 0)
		if tc.dist == nil {
			if ok {
				t.Errorf("%s: no negative cycle found", tc.file)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: unexpected negative cycle", tc.file)
		}
		if fmt.Sprint(d) != fmt.Sprint(tc.dist) {
			t.Errorf("%s: distances from 0 are %v, want %v", tc.file, d, tc.dist)
		}
	}
}

func TestReadDoesNotKeepBuffers(t *testing.T) {
	// Fields of a line must not leak into the graph: read twice with the
	// same content split at odd places and compare.
	in := strings.Repeat("3 4 5\n0 1 2\n", 1000)
	g1, err := Read(strings.NewReader(in), "a", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Read(io.MultiReader(strings.NewReader(in[:7]), strings.NewReader(in[7:])), "b", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if dump(g1) != dump(g2) || dump(g1) != "0>1:2 1>0:2 3>4:5 4>3:5" {
		t.Errorf("got %q and %q", dump(g1), dump(g2))
	}
}

// genEdgeList returns m random-looking weighted edges on n vertices.
func genEdgeList(n, m int) []byte {
	var buf bytes.Buffer
	buf.Grow(m * 20)
	x := uint64(88172645463325252)
	next := func() uint64 { // xorshift: deterministic and fast
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	var line []byte
	for range m {
		line = strconv.AppendUint(line[:0], next()%uint64(n), 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, next()%uint64(n), 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, next()%1000+1, 10)
		line = append(line, '\n')
		buf.Write(line)
	}
	return buf.Bytes()
}

func BenchmarkReadEdgeList(b *testing.B) {
	const n, m = 100_000, 1_000_000
	data := genEdgeList(n, m)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		g, err := Read(bytes.NewReader(data), "bench", ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if g.N() != n {
			b.Fatalf("N=%d", g.N())
		}
	}
}
