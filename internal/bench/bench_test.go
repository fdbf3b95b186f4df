package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestRandomGraphStronglyConnected(t *testing.T) {
	for _, float := range []bool{false, true} {
		g := RandomGraph(200, 3, float, 7)
		if g.N() != 200 || g.StrongComponents() != 1 {
			t.Fatalf("float=%v: n=%d, %d strong components", float, g.N(), g.StrongComponents())
		}
	}
}

// TestCPURunAndReports runs the harness on the CPU (no GPU needed) and
// checks the three report forms.
func TestCPURunAndReports(t *testing.T) {
	rows := Run(context.Background(), nil, Options{Sizes: []int{64, 128}, Kinds: []string{"cpu"}, Reps: 1, Degree: 4, Seed: 1})
	if len(rows) != 2 || rows[0].Error != "" || rows[1].MedianMS <= 0 || rows[1].RelaxPerS <= 0 {
		t.Fatalf("rows %+v", rows)
	}
	var table, lines, js bytes.Buffer
	PrintTable(&table, rows)
	PrintBenchLines(&lines, rows)
	if err := WriteJSON(&js, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "cpu-blocked/W64/t") || strings.Count(lines.String(), "BenchmarkFW/cpu-blocked/int32/n=") != 2 {
		t.Fatalf("table:\n%s\nlines:\n%s", table.String(), lines.String())
	}
	var back []Row
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back) != 2 {
		t.Fatalf("json: %v", err)
	}
}

func TestCheckFindsMismatch(t *testing.T) {
	g := RandomGraph(50, 3, false, 3)
	m := make([]uint32, 64*64)
	if _, err := check(g, m, 64, false); err == nil || !strings.Contains(err.Error(), "MISMATCH") {
		t.Fatalf("an all-zero matrix passed the check: %v", err)
	}
}
