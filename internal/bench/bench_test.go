package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
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
	if _, err := check(g, m, 64, gpu.Config{}); err == nil || !strings.Contains(err.Error(), "MISMATCH") {
		t.Fatalf("an all-zero matrix passed the check: %v", err)
	}
}

// TestCPULanes: the CPU rows in every integer lane kind run, are checked
// against Dijkstra (packed and int64 lanes) and name their lanes; a packed
// run on graphs whose distances do not fit is an error, not a timing.
func TestCPULanes(t *testing.T) {
	for _, kind := range []lanes.Kind{lanes.Int8, lanes.Int16, lanes.Int32, lanes.Int64} {
		rows := Run(context.Background(), nil, Options{Sizes: []int{100, 300}, Kinds: []string{"cpu"}, Reps: 1, Degree: 6, Seed: 2, Lanes: kind})
		for _, r := range rows {
			if r.Error != "" || r.Lanes != kind.String() || r.MedianMS <= 0 {
				t.Fatalf("%v: %+v", kind, r)
			}
			if kind != lanes.Int32 && r.Checked != "16 rows vs cpu dijkstra" {
				t.Fatalf("%v: checked %q", kind, r.Checked)
			}
		}
	}
	// A path of 200 unit arcs: distances up to 199 do not fit int8.
	if err := blockedOnce[int8](context.Background(), pathGraph(200), new(time.Duration), new(string)); err == nil {
		t.Fatal("int8 on a long path: no error")
	}
}

// pathGraph is the directed path 0→1→…→n-1 of unit arcs.
func pathGraph(n int) *graph.Graph {
	b := graph.NewBuilder(true)
	for v := 1; v < n; v++ {
		_ = b.AddIntEdge(v-1, v, 1)
	}
	return b.Build()
}

// TestRunLogsEachSize: the CPU rows are logged as they complete, one line
// a size (issue 32 item 6: the CPU ran for minutes printing nothing), and
// CPUSizes limits the sizes the CPU runs at.
func TestRunLogsEachSize(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sizes    []int
		cpuSizes []int
		want     []int
	}{
		{"all sizes", []int{32, 64, 96}, nil, []int{32, 64, 96}},
		{"CPU sizes", []int{32, 64, 96}, []int{32, 96}, []int{32, 96}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			rows := Run(context.Background(), nil, Options{Sizes: tc.sizes, CPUSizes: tc.cpuSizes, Kinds: []string{"cpu"}, Reps: 1, Degree: 3, Seed: 1, Log: &log})
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(rows) != len(tc.want) || len(lines) != len(tc.want) {
				t.Fatalf("%d rows, log:\n%s\nwant %d of each", len(rows), log.String(), len(tc.want))
			}
			for i, n := range tc.want {
				if rows[i].N != n || !strings.HasPrefix(lines[i], fmt.Sprintf("cpu-blocked int32 n=%d ", n)) || !strings.Contains(lines[i], " ms ") {
					t.Errorf("size %d: row %+v, log line %q", n, rows[i], lines[i])
				}
			}
		})
	}
	for _, n := range DefaultCPUSizes {
		if n > 2048 {
			t.Errorf("default CPU size %d: the blocked engine takes n³ steps, seconds a run from 4096 on two cores", n)
		}
	}
}
