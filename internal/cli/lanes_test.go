package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestLanesFlag: --lanes on the matrix commands. auto takes the narrowest
// lane the proven distance bound allows and stats --json reports it; a
// named lane is used or refused (exit 1), never widened; an unknown one is
// a usage error (exit 2).
func TestLanesFlag(t *testing.T) {
	// A star of 100 vertices: simple paths of up to 99 arcs, diameter 2.
	var star strings.Builder
	for v := 1; v < 100; v++ {
		fmt.Fprintf(&star, "0 %d\n", v)
	}
	var path strings.Builder // diameter 99
	for v := 1; v < 100; v++ {
		fmt.Fprintf(&path, "%d %d\n", v-1, v)
	}
	for _, tt := range []struct {
		graph, lanes, want string
		code               int
	}{
		{star.String(), "auto", "int8", 0},
		{star.String(), "int16", "int16", 0},
		{star.String(), "int64", "int64", 0},
		{path.String(), "auto", "int16", 0},
		{path.String(), "int8", "", 1},
		{star.String(), "int4", "", 2},
	} {
		code, stdout, stderr := run(t, tt.graph, "stats", "--json", "--device", "cpu", "--algo", "blocked", "--lanes", tt.lanes, "-")
		if code != tt.code {
			t.Fatalf("--lanes %s: exit %d, want %d (%s)", tt.lanes, code, tt.code, stderr)
		}
		if code != 0 {
			if !strings.Contains(stderr, "lane") {
				t.Errorf("--lanes %s: the error does not name the lanes: %s", tt.lanes, stderr)
			}
			continue
		}
		var s struct {
			Lanes    string `json:"lanes"`
			Diameter int64  `json:"diameter"`
		}
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		if s.Lanes != tt.want || (s.Diameter != 2 && s.Diameter != 99) {
			t.Errorf("--lanes %s: lanes %s, diameter %d; want %s", tt.lanes, s.Lanes, s.Diameter, tt.want)
		}
	}
}
