package serve

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph/gen"
)

// plainDecode is decode without liftB64: the whole line through
// encoding/json.
func plainDecode(line []byte) (edges, weights string, err error) {
	var r struct {
		EdgesB64   string `json:"edges_b64"`
		WeightsB64 string `json:"weights_b64"`
	}
	err = json.Unmarshal(line, &r)
	return r.EdgesB64, r.WeightsB64, err
}

// TestLiftB64 checks the top-level scan against encoding/json: where it
// lifts, the values are the decoder's and the rest still decodes (a
// lifted value is never inside a nested object or a string); where it
// cannot follow the line exactly, it leaves it whole.
func TestLiftB64(t *testing.T) {
	for _, tc := range []struct {
		line    string
		lifted  bool
		edges   string
		weights string
	}{
		{`{"op":"stats","edges_b64":"AAAAAAEAAAA=","n":2}`, true, "AAAAAAEAAAA=", ""},
		{`{"edges_b64":"AAAA","weights_b64":"BBBB","weights_dtype":"int64"}`, true, "AAAA", "BBBB"},
		{`{"weights_b64":"BBBB","edges_b64":"AAAA"}`, true, "AAAA", "BBBB"},
		{` { "id" : "a\"edges_b64\":\"x" , "edges_b64" : "QQ==" } `, true, "QQ==", ""},
		{`{"options":{"edges_b64":"AAAA"},"op":"ping"}`, false, "", ""},
		{`{"id":["edges_b64","AAAA"],"edges_b64":"CCCC"}`, true, "CCCC", ""},
		{`{"edges_b64":"AA\u0041A"}`, false, "", ""},               // an escape: left to the decoder
		{`{"edges_b64":"AAAA","edges_b64":"BBBB"}`, false, "", ""}, // twice
		{`{"edges_b64":"AAAA" x}`, false, "", ""},
		{`{"edges_b64":"AAAA"`, false, "", ""},
		{`["edges_b64","AAAA"]`, false, "", ""},
		{`{"id":1}`, false, "", ""},
		{`{}`, false, "", ""},
		{`{"edges_b64":"AAAA"} {}`, false, "", ""},
	} {
		rest, edges, weights := liftB64([]byte(tc.line))
		lifted := edges != nil || weights != nil
		if lifted != tc.lifted || string(edges) != tc.edges || string(weights) != tc.weights {
			t.Errorf("%s: lifted %v edges %q weights %q, want %v %q %q", tc.line, lifted, edges, weights, tc.lifted, tc.edges, tc.weights)
			continue
		}
		if !lifted {
			if string(rest) != tc.line {
				t.Errorf("%s: changed to %s without lifting", tc.line, rest)
			}
			continue
		}
		pe, pw, err := plainDecode([]byte(tc.line))
		re, rw, rerr := plainDecode(rest)
		if err != nil || rerr != nil || pe != tc.edges || pw != tc.weights || re != "" || rw != "" {
			t.Errorf("%s: whole %q %q %v; rest %s: %q %q %v", tc.line, pe, pw, err, rest, re, rw, rerr)
		}
	}
}

// FuzzLiftB64: wherever encoding/json reads a line, the values liftB64
// lifts are the ones it reads, and the rest reads as that line with them
// empty.
func FuzzLiftB64(f *testing.F) {
	for _, s := range []string{
		`{"op":"stats","edges_b64":"AAAAAAEAAAA=","n":2}`,
		`{"edges_b64":"AAAA","weights_b64":"BBBB","weights_dtype":"int64"}`,
		`{"edges_b64":"AAAA","edges\u005fb64":""}`,
		`{"id":"a\"edges_b64\":\"x","edges_b64":"QQ=="}`,
		`{"options":{"edges_b64":"AAAA"},"id":[1,{"a":"]"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		rest, edges, weights := liftB64(line)
		if edges == nil && weights == nil {
			if string(rest) != string(line) {
				t.Fatalf("%q changed to %q without lifting", line, rest)
			}
			return
		}
		pe, pw, err := plainDecode(line)
		if err != nil {
			return // not JSON: the decoder refuses the rest, or base64 the value
		}
		re, rw, rerr := plainDecode(rest)
		// A lifted value is the decoder's and left "" in the rest; a
		// value not lifted is left as it was.
		same := func(lifted []byte, whole, inRest string) bool {
			if lifted != nil {
				return whole == string(lifted) && inRest == ""
			}
			return inRest == whole
		}
		if rerr != nil || !same(edges, pe, re) || !same(weights, pw, rw) {
			t.Fatalf("%q: whole %q %q; lifted %q %q; rest %q: %q %q %v", line, pe, pw, edges, weights, rest, re, rw, rerr)
		}
	})
}

// TestPlainString: the eight-bytes-a-step check against a byte loop, on
// every single byte at every offset and on random strings.
func TestPlainString(t *testing.T) {
	ref := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x80 || c == '\\' {
				return false
			}
		}
		return true
	}
	base := []byte("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=")
	for c := range 256 {
		for at := range len(base) {
			b := bytes.Clone(base)
			b[at] = byte(c)
			if got, want := plainString(b), ref(b); got != want {
				t.Fatalf("byte %#x at %d: %v, want %v", c, at, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(0x20 + rng.IntN(0x60))
			if rng.IntN(30) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		if got, want := plainString(b), ref(b); got != want {
			t.Fatalf("%q: %v, want %v", b, got, want)
		}
	}
}

// TestStringEndEscapes: the closing quote after escapes, escaped quotes
// and backslashes, and a long run of escapes before a distant quote in
// linear time (a quadratic scan takes minutes here).
func TestStringEndEscapes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{`"abc"`, 4},
		{`"a\"b"`, 5},
		{`"a\\"b"`, 4},
		{`"\\\""x"`, 5},
		{`"abc`, -1},
		{`"ab\"`, -1},
		{`"ab\`, -1},
	} {
		if got := stringEnd([]byte(tc.s), 0); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.s, got, tc.want)
		}
	}
	for _, esc := range []string{`\n`, `\"`} { // escaped quotes: every quote found is escaped
		long := append([]byte{'"'}, bytes.Repeat([]byte(esc), 1<<20)...)
		long = append(long, bytes.Repeat([]byte("A"), 1<<20)...)
		long = append(long, '"')
		if got := stringEnd(long, 0); got != len(long)-1 {
			t.Fatalf("long string of %s: %d, want %d", esc, got, len(long)-1)
		}
	}
}

// BenchmarkDecodeBuild: a request line of a random 16-regular graph of
// 1 024 vertices with edges_b64 (87 KB, as the Python client and the load
// generator send it) decoded and its graph built: the service's own work
// a request, before any computation.
func BenchmarkDecodeBuild(b *testing.B) {
	g, err := gen.Make("regular", "n=1024", "d=16", "seed=1")
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(requestLine(b, 1, "summary", g, true, ""))
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		r, err := decode(line)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.buildGraph(); err != nil {
			b.Fatal(err)
		}
	}
}
