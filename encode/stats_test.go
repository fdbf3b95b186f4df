package encode

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp"
)

// The records of the golden tests: a connected graph, a disconnected one
// (directed, float weights, on a GPU, a long center), one of --no-aspl
// (diameter and radius by the bounds method) and a graph that failed.
var (
	connectedStats = &apsp.Stats{Vertices: 4, Arcs: 6, Edges: 3, Connected: true, Diameter: apsp.IntLength(3),
		Radius: apsp.IntLength(2), ASPL: apsp.Mean(5.0 / 3), ReachablePairs: 12, Center: []int{1, 2}, Periphery: []int{0, 3},
		Algorithm: "bitbfs", Device: "cpu", Lanes: "int32", Threads: 2, Seconds: 0.0015}
	disconnectedStats = &apsp.Stats{Vertices: 12, Arcs: 11, Edges: 11, Directed: true, Weighted: true,
		Diameter: apsp.Infinite(true), Radius: apsp.FloatLength(2.5), ASPL: apsp.Mean(math.Inf(1)), ReachablePairs: 66,
		Center: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, Periphery: []int{},
		Algorithm: "gpu-sssp", Device: "gpu:0", Lanes: "float32", Threads: 16, Seconds: 12.25}
	noASPLStats = &apsp.Stats{Vertices: 34, Arcs: 156, Edges: 78, Connected: true, Reachable: true, NoASPL: true,
		Diameter: apsp.IntLength(5), Radius: apsp.IntLength(3), Algorithm: "bounds", Device: "cpu", Lanes: "int32",
		Threads: 1, Seconds: 0.000123, Traversals: 7}
	failedID, failedWhy = json.RawMessage(`"bad.txt"`), `bad.txt:3: bad weight "x" <&>`
)

// TestStatsText: stats' text form, golden.
func TestStatsText(t *testing.T) {
	tests := []struct {
		name string
		s    *apsp.Stats
		want string
	}{
		{"connected", connectedStats, `vertices         4
edges            3 (undirected, 6 arcs)
weighted         no
connected        yes
diameter         3
radius           2
aspl             1.6666666666666667
reachable pairs  12 of 12
center           1 2
periphery        0 3
algorithm        bitbfs (cpu, int32 lanes, 2 threads)
seconds          0.002
`},
		{"disconnected", disconnectedStats, `vertices            12
edges               11 (directed, 11 arcs)
weighted            yes
strongly connected  no
diameter            inf
radius              2.5
aspl                inf
reachable pairs     66 of 132
center              0 1 2 3 4 5 6 7 8 9 ... (12 vertices)
periphery           
algorithm           gpu-sssp (gpu:0, float32 lanes)
seconds             12.250
`},
		{"no aspl", noASPLStats, `vertices       34
edges          78 (undirected, 156 arcs)
weighted       no
connected      yes
measures over  reachable pairs only
diameter       5
radius         3
traversals     7 breadth-first searches
algorithm      bounds (cpu, int32 lanes, 1 threads)
seconds        0.000
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := StatsText(&b, tt.s); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestStatsJSON: stats --json, golden: encode.JSON of a Stats.
func TestStatsJSON(t *testing.T) {
	tests := []struct {
		name string
		s    *apsp.Stats
		want string
	}{
		{"connected", connectedStats, `{
  "vertices": 4,
  "arcs": 6,
  "edges": 3,
  "directed": false,
  "weighted": false,
  "connected": true,
  "reachable_only": false,
  "diameter": 3,
  "radius": 2,
  "aspl": 1.6666666666666667,
  "reachable_pairs": 12,
  "center": [
    1,
    2
  ],
  "periphery": [
    0,
    3
  ],
  "algorithm": "bitbfs",
  "device": "cpu",
  "lanes": "int32",
  "threads": 2,
  "seconds": 0.0015
}
`},
		{"no aspl", noASPLStats, `{
  "vertices": 34,
  "arcs": 156,
  "edges": 78,
  "directed": false,
  "weighted": false,
  "connected": true,
  "reachable_only": true,
  "no_aspl": true,
  "diameter": 5,
  "radius": 3,
  "algorithm": "bounds",
  "device": "cpu",
  "lanes": "int32",
  "threads": 1,
  "seconds": 0.000123,
  "traversals": 7
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := JSON(&b, tt.s); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// record is one call of a StatsWriter: a Stats, or a failure when s is
// nil.
type record struct {
	id string
	s  *apsp.Stats
}

// writeRecords writes the records and flushes.
func writeRecords(w StatsWriter, recs []record) error {
	for _, r := range recs {
		var err error
		if r.s == nil {
			err = w.Fail(json.RawMessage(r.id), failedWhy)
		} else {
			err = w.Stats(json.RawMessage(r.id), r.s)
		}
		if err != nil {
			return err
		}
	}
	return w.Flush()
}

// TestStatsLines: bulk's JSON Lines and CSV, golden, record by record and
// together; no record at all is no line, or the CSV header alone.
func TestStatsLines(t *testing.T) {
	const header = "id,vertices,arcs,edges,directed,weighted,connected,reachable_only,diameter,radius,aspl,reachable_pairs,center,periphery,algorithm,device,lanes,threads,seconds,error\n"
	tests := []struct {
		name  string
		recs  []record
		jsonl string
		csv   string // without the header
	}{
		{"none", nil, "", ""},
		{"connected", []record{{`"g1"`, connectedStats}},
			`{"id":"g1","vertices":4,"arcs":6,"edges":3,"directed":false,"weighted":false,"connected":true,"reachable_only":false,"diameter":3,"radius":2,"aspl":1.6666666666666667,"reachable_pairs":12,"center":[1,2],"periphery":[0,3],"algorithm":"bitbfs","device":"cpu","lanes":"int32","threads":2,"seconds":0.0015}` + "\n",
			"g1,4,6,3,false,false,true,false,3,2,1.6666666666666667,12,1 2,0 3,bitbfs,cpu,int32,2,0.0015,\n"},
		{"disconnected", []record{{`7`, disconnectedStats}},
			`{"id":7,"vertices":12,"arcs":11,"edges":11,"directed":true,"weighted":true,"connected":false,"reachable_only":false,"diameter":null,"radius":2.5,"aspl":null,"reachable_pairs":66,"center":[0,1,2,3,4,5,6,7,8,9,10,11],"periphery":[],"algorithm":"gpu-sssp","device":"gpu:0","lanes":"float32","threads":16,"seconds":12.25}` + "\n",
			"7,12,11,11,true,true,false,false,inf,2.5,inf,66,0 1 2 3 4 5 6 7 8 9 10 11,,gpu-sssp,gpu:0,float32,16,12.25,\n"},
		{"no aspl", []record{{`"a,\"b\""`, noASPLStats}},
			`{"id":"a,\"b\"","vertices":34,"arcs":156,"edges":78,"directed":false,"weighted":false,"connected":true,"reachable_only":true,"no_aspl":true,"diameter":5,"radius":3,"algorithm":"bounds","device":"cpu","lanes":"int32","threads":1,"seconds":0.000123,"traversals":7}` + "\n",
			`"a,""b""",34,156,78,false,false,true,true,5,3,,,,,bounds,cpu,int32,1,0.000123,` + "\n"},
		{"failed", []record{{string(failedID), nil}},
			`{"id":"bad.txt","error":"bad.txt:3: bad weight \"x\" <&>"}` + "\n",
			`bad.txt,,,,,,,,,,,,,,,,,,,"bad.txt:3: bad weight ""x"" <&>"` + "\n"},
	}
	var allRecs []record
	var allJSONL, allCSV string
	for _, tt := range tests {
		allRecs, allJSONL, allCSV = append(allRecs, tt.recs...), allJSONL+tt.jsonl, allCSV+tt.csv
	}
	tests = append(tests, struct {
		name  string
		recs  []record
		jsonl string
		csv   string
	}{"all", allRecs, allJSONL, allCSV})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var j, c bytes.Buffer
			if err := writeRecords(NewStatsJSONL(&j), tt.recs); err != nil {
				t.Fatal(err)
			}
			if j.String() != tt.jsonl {
				t.Errorf("JSON Lines:\n%s\nwant\n%s", j.String(), tt.jsonl)
			}
			if err := writeRecords(NewStatsCSV(&c), tt.recs); err != nil {
				t.Fatal(err)
			}
			if c.String() != header+tt.csv {
				t.Errorf("CSV:\n%s\nwant\n%s", c.String(), header+tt.csv)
			}
		})
	}
}

// TestSummaryLines: Summary records as JSON Lines and CSV, golden.
func TestSummaryLines(t *testing.T) {
	connected := &apsp.Summary{Vertices: 4, Connected: true, Diameter: apsp.IntLength(3), ASPL: apsp.Mean(5.0 / 3),
		ReachablePairs: 12, Algorithm: "gpu-bulk", Device: "gpu:1", Seconds: 2e-5}
	disconnected := &apsp.Summary{Vertices: 3, Diameter: apsp.Infinite(false), ASPL: apsp.Mean(math.Inf(1)),
		ReachablePairs: 2, Algorithm: "bitbfs", Device: "cpu", Seconds: 0.5}
	var j, c bytes.Buffer
	for _, w := range []SummaryWriter{NewSummaryJSONL(&j), NewSummaryCSV(&c)} {
		for _, err := range []error{w.Summary(json.RawMessage(`"c"`), connected), w.Summary(json.RawMessage(`-1.5`), disconnected),
			w.Fail(failedID, failedWhy), w.Flush()} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	wantJSONL := `{"id":"c","vertices":4,"connected":true,"diameter":3,"aspl":1.6666666666666667,"reachable_pairs":12,"algorithm":"gpu-bulk","device":"gpu:1","seconds":0.00002}
{"id":-1.5,"vertices":3,"connected":false,"diameter":null,"aspl":null,"reachable_pairs":2,"algorithm":"bitbfs","device":"cpu","seconds":0.5}
{"id":"bad.txt","error":"bad.txt:3: bad weight \"x\" <&>"}
`
	wantCSV := `id,vertices,connected,diameter,aspl,reachable_pairs,algorithm,device,seconds,error
c,4,true,3,1.6666666666666667,12,gpu-bulk,gpu:1,2e-05,
-1.5,3,false,inf,inf,2,bitbfs,cpu,0.5,
bad.txt,,,,,,,,,"bad.txt:3: bad weight ""x"" <&>"
`
	if j.String() != wantJSONL {
		t.Errorf("JSON Lines:\n%s\nwant\n%s", j.String(), wantJSONL)
	}
	if c.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant\n%s", c.String(), wantCSV)
	}
}

// TestCSVColumns keeps the CSV columns the JSON field names: of stats
// --json (but no_aspl and traversals, which only stats --no-aspl and the
// bounds method set) and of a Summary.
func TestCSVColumns(t *testing.T) {
	for _, tc := range []struct {
		v      any
		header []string
	}{{apsp.Stats{}, StatsCSVHeader()}, {apsp.Summary{}, SummaryCSVHeader()}} {
		b, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		want := slices.Clone(tc.header[1 : len(tc.header)-1])
		slices.Sort(keys)
		slices.Sort(want)
		if tc.header[0] != "id" || tc.header[len(tc.header)-1] != "error" || !slices.Equal(keys, want) {
			t.Errorf("%T JSON fields %v, CSV columns %v", tc.v, keys, tc.header)
		}
	}
	// The header is a copy.
	StatsCSVHeader()[0] = "x"
	if StatsCSVHeader()[0] != "id" {
		t.Error("StatsCSVHeader hands out its array")
	}
}

// TestStatsWriterErrors: an id that is not one JSON value is refused with
// nothing written; a write error reaches the caller.
func TestStatsWriterErrors(t *testing.T) {
	for _, id := range []string{"", "g1", `"open`, `1 2`, `{"a":`} {
		var j, c bytes.Buffer
		for _, w := range []StatsWriter{NewStatsJSONL(&j), NewStatsCSV(&c)} {
			if err := w.Stats(json.RawMessage(id), connectedStats); err == nil || !strings.Contains(err.Error(), "not a JSON value") {
				t.Errorf("%T.Stats(id %q): %v", w, id, err)
			}
			if err := w.Fail(json.RawMessage(id), "why"); err == nil {
				t.Errorf("%T.Fail(id %q): no error", w, id)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if j.Len() != 0 || c.String() != strings.Join(StatsCSVHeader(), ",")+"\n" {
			t.Errorf("id %q: wrote %q and %q", id, j.String(), c.String())
		}
	}
	for _, w := range []StatsWriter{NewStatsJSONL(&failWriter{}), NewStatsCSV(&failWriter{})} {
		if err := writeRecords(w, []record{{`"g"`, connectedStats}}); !errors.Is(err, errWrite) {
			t.Errorf("%T: %v", w, err)
		}
	}
	if err := StatsText(&failWriter{}, connectedStats); !errors.Is(err, errWrite) {
		t.Errorf("StatsText: %v", err)
	}
}
