package serve

import (
	"encoding/json"
	"testing"
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
		if err != nil || !base64Alphabet(edges) || !base64Alphabet(weights) {
			// Not JSON, or a value that is not base64 (which the JSON
			// decoder may read differently, as invalid UTF-8): the
			// request fails either way, in the decoder or in base64.
			return
		}
		re, rw, rerr := plainDecode(rest)
		if rerr != nil || re != "" || rw != "" || (edges != nil && pe != string(edges)) || (weights != nil && pw != string(weights)) {
			t.Fatalf("%q: whole %q %q; lifted %q %q; rest %q: %q %q %v", line, pe, pw, edges, weights, rest, re, rw, rerr)
		}
	})
}

// base64Alphabet reports whether b holds only standard base64's bytes.
func base64Alphabet(b []byte) bool {
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}
