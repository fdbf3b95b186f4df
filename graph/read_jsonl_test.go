package graph

import (
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadJSONLine: a line's graph and id, or the error naming the line.
func TestReadJSONLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		opt  ReadOptions
		id   string // the id's JSON, "" for none
		// the graph: vertices, directed, arcs (dump), or the error (its
		// text from the start)
		n        int
		directed bool
		arcs     string
		err      string
	}{
		{name: "path", line: `{"id":"path","edges":[[0,1],[1,2],[2,3]]}`, id: `"path"`,
			n: 4, arcs: "0>1 1>0 1>2 2>1 2>3 3>2"},
		{name: "numeric id, blanks, weights", line: ` { "id": 7, "n": 5, "edges": [[0,1,2.5], [1,2,1],[2,0,4]], "directed": true } `, id: `7`,
			n: 5, directed: true, arcs: "0>1:2.5 1>2:1 2>0:4"},
		{name: "integer weights", line: `{"edges":[[0,1,-3],[1,2,9223372036854775807]],"directed":true}`,
			n: 3, directed: true, arcs: "0>1:-3 1>2:9223372036854775807"},
		{name: "negative zero weight", line: `{"edges":[[0,1,-0.0],[1,2,1e-3]]}`, n: 3, arcs: "0>1:0 1>0:0 1>2:0.001 2>1:0.001"},
		{name: "n without edges", line: `{"id":"last","n":3}`, id: `"last"`, n: 3},
		{name: "nulls", line: `{"id":null,"n":null,"edges":null,"directed":null}`, n: 0},
		{name: "no vertices", line: `{"id":"empty","n":0}`, id: `"empty"`, n: 0},
		{name: "empty object", line: `{}`, n: 0},
		{name: "escaped field name", line: `{"\u0069d":"x\/y","n":1}`, id: `"x\/y"`, n: 1},
		{name: "flags", line: `{"id":"a","edges":[[1,2,5],[2,3,7]]}`, opt: ReadOptions{OneBased: true, Unweighted: true, Vertices: 4},
			id: `"a"`, n: 4, arcs: "0>1 1>0 1>2 2>1"},
		{name: "directed from the options", line: `{"edges":[[0,1]]}`, opt: ReadOptions{Directed: true, DirectedSet: true},
			n: 2, directed: true, arcs: "0>1"},
		{name: "directed agrees", line: `{"edges":[[0,1]],"directed":true}`, opt: ReadOptions{Directed: true, DirectedSet: true},
			n: 2, directed: true, arcs: "0>1"},
		{name: "line overrides the default", line: `{"edges":[[0,1]],"directed":false}`, opt: ReadOptions{Directed: true},
			n: 2, arcs: "0>1 1>0"},

		{name: "weights mixed", line: `{"edges":[[0,1],[1,2,3]]}`,
			err: "stdin:3: edge 2: every edge must have a weight or none (edge 1 has 2 entries, this one 3; --unweighted ignores weights)"},
		{name: "malformed", line: `{"id":"malformed","edges":[[0,1]`, id: `"malformed"`,
			err: `stdin:3: bad JSON: ']' to close "edges", found the end of the line`},
		{name: "contradicts --directed", line: `{"id":"b","edges":[[0,1]],"directed":false}`, opt: ReadOptions{Directed: true, DirectedSet: true},
			id: `"b"`, err: `stdin:3: "directed": false contradicts --directed=true`},
		{name: "id not below n", line: `{"id":"range","n":2,"edges":[[0,2]]}`, id: `"range"`, err: `stdin:3: edge 1: vertex id 2 is not below "n": 2`},
		{name: "unknown field", line: `{"id":"unknown","nodes":3}`, id: `"unknown"`,
			err: `stdin:3: unknown field "nodes" (a line has id, n, edges and directed)`},
		{name: "field twice", line: `{"n":3,"n":4}`, err: `stdin:3: field "n" given twice`},
		{name: "n a string", line: `{"id":"type","n":"3"}`, id: `"type"`, err: `stdin:3: "n": a string where an integer was expected`},
		{name: "n too large", line: `{"n":3000000000}`, err: `stdin:3: "n": 3000000000 is not a vertex count (0..2147483647)`},
		{name: "n negative", line: `{"n":-1}`, err: `stdin:3: "n": -1 is not a vertex count (0..2147483647)`},
		{name: "n a fraction", line: `{"n":1.5}`, err: `stdin:3: "n": 1.5 is not a vertex count (0..2147483647)`},
		{name: "float overflow", line: `{"id":"weight","edges":[[0,1,1e400]]}`, id: `"weight"`,
			err: "stdin:3: edge 1: weight 1e400 overflows float64 (largest is 1.8e+308)"},
		{name: "float underflow", line: `{"edges":[[0,1,1e-400]]}`,
			err: "stdin:3: edge 1: weight 1e-400 underflows to 0 in float64 (smallest positive is 4.9e-324)"},
		{name: "integer overflow", line: `{"edges":[[0,1,9223372036854775808]]}`,
			err: "stdin:3: edge 1: weight 9223372036854775808 does not fit in a 64-bit integer"},
		{name: "fractional id", line: `{"id":"frac","edges":[[0.5,1]]}`, id: `"frac"`, err: "stdin:3: edge 1: vertex id 0.5 is not an integer"},
		{name: "negative id", line: `{"edges":[[-1,1]]}`, err: "stdin:3: edge 1: negative vertex id -1"},
		{name: "zero with --one-based", line: `{"edges":[[0,1]]}`, opt: ReadOptions{OneBased: true},
			err: "stdin:3: edge 1: vertex id 0 is below 1 (--one-based)"},
		{name: "edge of one entry", line: `{"edges":[[0]]}`, err: "stdin:3: edge 1: want [u, v] or [u, v, w]"},
		{name: "edge of four entries", line: `{"edges":[[0,1,2,3]]}`, err: "stdin:3: edge 1: more than 3 entries"},
		{name: "not an object", line: `[1,2]`, err: "stdin:3: the line is not a JSON object (it starts with '[')"},
		{name: "blank", line: ` `, err: "stdin:3: no JSON object"},
		{name: "text after the object", line: `{"n":1} x`, err: "stdin:3: bad JSON at byte 9: the end of the line after the object, found 'x'"},
		{name: "a NUL byte after the object", line: "{}\x00", err: `stdin:3: bad JSON at byte 3: the end of the line after the object, found '\x00'`},
		{name: "a NUL byte first", line: "\x00{}", err: `stdin:3: the line is not a JSON object (it starts with '\x00')`},
		{name: "a letter in edges", line: `{"edges":[[0,x]]}`, err: `stdin:3: "edges": byte 14: 'x' in an array of [u, v] or [u, v, w] of numbers`},
		{name: "id an object", line: `{"id":{}}`, err: `stdin:3: "id": an object where a string or a number was expected`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, g, err := ReadJSONLine([]byte(tt.line), "stdin", 3, tt.opt)
			if string(id) != tt.id {
				t.Errorf("id %s, want %s", id, tt.id)
			}
			if tt.err != "" {
				var pe *ParseError
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) || !errors.As(err, &pe) || pe.File != "stdin" || pe.Line != 3 {
					t.Fatalf("error %v, want a *ParseError %q...", err, tt.err)
				}
				if g != nil {
					t.Fatalf("a graph with the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != tt.n || g.Directed() != tt.directed || dump(g) != tt.arcs {
				t.Fatalf("graph of %d vertices, directed %v, arcs %q; want %d, %v, %q", g.N(), g.Directed(), dump(g), tt.n, tt.directed, tt.arcs)
			}
		})
	}
}

// TestReadJSONLineTooLarge: sizes that cannot be held wrap ErrTooLarge
// inside the *ParseError.
func TestReadJSONLineTooLarge(t *testing.T) {
	for _, line := range []string{`{"edges":[[0,2147483647]]}`, `{"n":2147483647}`} {
		withMemoryLimit(t, 64<<20, func() {
			_, _, err := ReadJSONLine([]byte(line), "x.jsonl", 9, ReadOptions{})
			var pe *ParseError
			if !errors.Is(err, ErrTooLarge) || !errors.As(err, &pe) || pe.Line != 9 || !strings.HasPrefix(err.Error(), "x.jsonl:9: ") {
				t.Errorf("%s: %v", line, err)
			}
		})
	}
}

// TestReadJSONLineAgainstJSON: the hand-written JSON line reader refuses
// every line encoding/json finds invalid (random mutations of valid
// lines), and reads random valid lines — ids, numbers and blanks in every
// form JSON allows — as the graphs they describe.
func TestReadJSONLineAgainstJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	blank := func() string { return []string{"", " ", "\t", " \r\n "}[rng.IntN(4)] }
	ids := []string{`"a"`, `"\u00e9\n\"q\""`, `7`, `-0.5e+3`, `null`, `"x\/y"`}
	valid := func() (string, *Graph) {
		n := 1 + rng.IntN(6)
		directed := rng.IntN(2) == 0
		weighted := rng.IntN(3)
		var fields []string
		fields = append(fields, `"id"`+blank()+":"+blank()+ids[rng.IntN(len(ids))])
		fields = append(fields, `"n":`+blank()+strconv.Itoa(n))
		fields = append(fields, `"directed":`+blank()+strconv.FormatBool(directed))
		b := NewBuilder(directed)
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(b.SetVertices(n))
		var edges []string
		for range rng.IntN(8) {
			u, v := rng.IntN(n), rng.IntN(n)
			e := blank() + "[" + blank() + strconv.Itoa(u) + blank() + "," + blank() + strconv.Itoa(v)
			switch weighted {
			case 0:
				must(b.AddEdge(u, v))
			case 1:
				w := rng.Int64N(20) - 5
				if !directed {
					w = rng.Int64N(20)
				}
				e += "," + blank() + strconv.FormatInt(w, 10)
				must(b.AddIntEdge(u, v, w))
			case 2:
				w := float64(rng.IntN(100)) / 8
				lit := []string{strconv.FormatFloat(w, 'f', -1, 64), strconv.FormatFloat(w, 'e', -1, 64),
					strings.ToUpper(strconv.FormatFloat(w, 'e', 3, 64))}[rng.IntN(3)]
				if !strings.ContainsAny(lit, ".eE") {
					lit += ".0"
				}
				x, _ := strconv.ParseFloat(lit, 64)
				e += "," + blank() + lit
				must(b.AddFloatEdge(u, v, x))
			}
			edges = append(edges, e+blank()+"]"+blank())
		}
		fields = append(fields, `"edges":`+blank()+"["+strings.Join(edges, ",")+"]")
		rng.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		return blank() + "{" + blank() + strings.Join(fields, ","+blank()) + blank() + "}" + blank(), b.Build()
	}
	mutants := 0
	for range 3000 {
		line, want := valid()
		if !json.Valid([]byte(line)) {
			t.Fatalf("the test made invalid JSON: %s", line)
		}
		_, g, err := ReadJSONLine([]byte(line), "stdin", 1, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if dump(g) != dump(want) || g.N() != want.N() || g.Directed() != want.Directed() || g.Kind() != want.Kind() {
			t.Fatalf("%s: graph %d vertices directed %v %s %s, want %d %v %s %s", line, g.N(), g.Directed(), g.Kind(), dump(g),
				want.N(), want.Directed(), want.Kind(), dump(want))
		}
		// Mutate a byte, drop one or insert one.
		b := []byte(line)
		i := rng.IntN(len(b))
		const alphabet = "{}[],:\"\\ -+.eE0123456789tfnulx\x01"
		c := alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(3) {
		case 0:
			b[i] = c
		case 1:
			b = append(b[:i], b[i+1:]...)
		default:
			b = append(b[:i], append([]byte{c}, b[i:]...)...)
		}
		if json.Valid(b) {
			continue
		}
		mutants++
		if _, _, err := ReadJSONLine(b, "stdin", 1, ReadOptions{}); err == nil {
			t.Fatalf("invalid JSON accepted: %s", b)
		}
	}
	if mutants < 1000 {
		t.Fatalf("only %d invalid mutants", mutants)
	}
}

// jsonLineStep is one call of JSONLineReader.Next: the line, or the
// error's text; its number and size.
type jsonLineStep struct {
	line   string
	err    string
	lineNo int
	size   int
}

// readJSONLines calls Next until io.EOF, or another error that is neither
// ErrLineTooLong nor ErrNotJSONLines, and returns the steps and the bytes
// they took (with io.EOF's).
func readJSONLines(t *testing.T, r *JSONLineReader) (steps []jsonLineStep, total int) {
	t.Helper()
	for {
		line, lineNo, size, err := r.Next()
		total += size
		if err == io.EOF {
			if line != nil {
				t.Fatalf("a line with io.EOF")
			}
			return steps, total
		}
		s := jsonLineStep{line: string(line), lineNo: lineNo, size: size}
		if err != nil {
			s.err = err.Error()
		}
		steps = append(steps, s)
		if err != nil && !errors.Is(err, ErrLineTooLong) && !errors.Is(err, ErrNotJSONLines) {
			return steps, total
		}
	}
}

// TestJSONLineReader: lines that are not blank, numbered with the blank
// ones, the bytes each took; long lines and a first line that is not an
// object reported and read past.
func TestJSONLineReader(t *testing.T) {
	long := `{"edges":[` + strings.Repeat("[0,1],", 10) + `[0,1]]}` // 77 bytes
	tests := []struct {
		name  string
		in    string
		max   int
		steps []jsonLineStep
	}{
		{name: "empty", in: ""},
		{name: "blank lines only", in: "\n \t\r\n\n"},
		{name: "lines", in: "{\"n\":1}\n\n  \n{\"n\":2}\r\n{\"n\":3}", steps: []jsonLineStep{
			{line: `{"n":1}`, lineNo: 1, size: 8}, {line: `{"n":2}` + "\r", lineNo: 4, size: 13}, {line: `{"n":3}`, lineNo: 5, size: 7}}},
		{name: "blank lines at the end", in: "{}\n\n \n", steps: []jsonLineStep{{line: `{}`, lineNo: 1, size: 3}}},
		{name: "leading blanks", in: " \t{}\n", steps: []jsonLineStep{{line: " \t{}", lineNo: 1, size: 5}}},
		{name: "long lines", in: "{}\n" + long + "\n{}\n" + long, max: 40, steps: []jsonLineStep{
			{line: `{}`, lineNo: 1, size: 3},
			{err: "stdin:2: line too long (put a graph this large in a file): over 40 bytes", lineNo: 2, size: 78},
			{line: `{}`, lineNo: 3, size: 3},
			{err: "stdin:4: line too long (put a graph this large in a file): over 40 bytes", lineNo: 4, size: 77}}},
		{name: "exactly the longest", in: long + "\n" + long, max: len(long), steps: []jsonLineStep{
			{line: long, lineNo: 1, size: len(long) + 1}, {line: long, lineNo: 2, size: len(long)}}},
		{name: "one byte over", in: long + "\n" + long, max: len(long) - 1, steps: []jsonLineStep{
			{err: "stdin:1: line too long (put a graph this large in a file): over 76 bytes", lineNo: 1, size: len(long) + 1},
			{err: "stdin:2: line too long (put a graph this large in a file): over 76 bytes", lineNo: 2, size: len(long)}}},
		{name: "an edge list", in: "\n0 1\n1 2\n", steps: []jsonLineStep{
			{line: "0 1", err: `stdin:2: not JSON Lines: the first line starts with "0 1", not '{'`, lineNo: 2, size: 5},
			{line: "1 2", lineNo: 3, size: 4}}},
		{name: "a long Matrix Market banner", in: "%%MatrixMarket matrix coordinate pattern general" + strings.Repeat(" ", 50) + "\n{}\n", max: 20, steps: []jsonLineStep{
			{err: `stdin:1: not JSON Lines: the first line starts with "%%MatrixMarket m", not '{'`, lineNo: 1, size: 99},
			{line: "{}", lineNo: 2, size: 3}}},
		{name: "only the first line is sniffed", in: "{}\n[1]\n", steps: []jsonLineStep{
			{line: "{}", lineNo: 1, size: 3}, {line: "[1]", lineNo: 2, size: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewJSONLineReader(strings.NewReader(tt.in), "stdin")
			r.MaxLine = tt.max
			got, total := readJSONLines(t, r)
			if len(got) != len(tt.steps) {
				t.Fatalf("got %+v, want %+v", got, tt.steps)
			}
			for i := range got {
				if got[i] != tt.steps[i] {
					t.Errorf("call %d: %+v, want %+v", i+1, got[i], tt.steps[i])
				}
			}
			if total != len(tt.in) {
				t.Errorf("sizes add up to %d bytes of %d", total, len(tt.in))
			}
		})
	}
}

// TestJSONLineReaderSmallReads: lines across many reads of the underlying
// reader, and a read error, which names the input.
func TestJSONLineReaderSmallReads(t *testing.T) {
	in := strings.Repeat(`{"edges":[[0,1],[1,2]]}`+"\n\n", 100)
	r := NewJSONLineReader(iotest.OneByteReader(strings.NewReader(in)), "stdin")
	steps, _ := readJSONLines(t, r)
	if len(steps) != 100 || steps[99].lineNo != 199 || steps[99].err != "" {
		t.Fatalf("%d lines, the last %+v", len(steps), steps[len(steps)-1])
	}
	r = NewJSONLineReader(io.MultiReader(strings.NewReader("{}\n{"), iotest.ErrReader(errors.New("disk on fire"))), "stdin")
	steps, _ = readJSONLines(t, r)
	if len(steps) != 2 || steps[1].err != "reading stdin: disk on fire" {
		t.Fatalf("%+v", steps)
	}
}
