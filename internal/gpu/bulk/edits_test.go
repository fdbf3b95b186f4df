package bulk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// editCases is, for each base graph, random changes that keep every arc
// count (edge swaps, some refused by ArcEdits and left out), as arc edits
// and as the graphs Change makes of them.
func editCases(t *testing.T, rng *rand.Rand, base *graph.Graph, count int) ([][]graph.ArcEdit, []*graph.Graph) {
	t.Helper()
	var edges [][2]int
	for u := range base.N() {
		for _, v := range base.Neighbors(u) {
			if base.Directed() || u < int(v) {
				edges = append(edges, [2]int{u, int(v)})
			}
		}
	}
	var lists [][]graph.ArcEdit
	var gs []*graph.Graph
	for len(lists) < count && len(edges) >= 2 {
		var c graph.Changes
		switch rng.IntN(4) {
		case 0: // no change at all
		case 1: // two swaps at once
			e, f, h := edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))]
			c.Remove = [][2]int{e, f, h}
			c.Add = [][2]int{{e[0], f[1]}, {f[0], h[1]}, {h[0], e[1]}}
		default:
			e, f := edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))]
			c.Remove = [][2]int{e, f}
			c.Add = [][2]int{{e[0], f[0]}, {e[1], f[1]}}
		}
		list, ok, err := base.ArcEdits(c, nil)
		if err != nil || !ok {
			continue
		}
		g, err := base.Change(c)
		if err != nil {
			t.Fatal(err)
		}
		lists, gs = append(lists, list), append(gs, g)
	}
	return lists, gs
}

// editBases are base graphs for edited copies: random, regular, directed,
// of 1 to 1 024 vertices.
func editBases(t *testing.T, rng *rand.Rand) []*graph.Graph {
	var bases []*graph.Graph
	for _, g := range bulkCases(rng, 30) {
		if g.Arcs() >= 4 {
			bases = append(bases, g)
		}
	}
	bases = append(bases, regulars(t, 1, 256, 8, 3)...)
	bases = append(bases, regulars(t, 1, 1024, 16, 4)...)
	return append(bases, outRegular(255, 3), outRegular(40, 5))
}

// TestBulkEditsEmulated runs edited copies of base graphs through the CPU
// emulation of the kernels, in every width of batch, several chunks and
// split graphs: the summaries must be those of the graphs Change makes.
func TestBulkEditsEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for bi, base := range editBases(t, rng) {
		lists, gs := editCases(t, rng, base, 1+rng.IntN(40))
		want := make([][]reduce.Row, len(gs))
		for i, g := range gs {
			want[i] = wantRows(t, g)
		}
		for _, maxWords := range []int{0, 1, bulkWords} {
			set := &editSet{base: base, lists: lists, maxWords: maxWords}
			for _, l := range lists {
				set.per = max(set.per, len(l), 1)
			}
			c := bulkConfig{sums: true, edits: set, Split: []int{0, 1, 3}[bi%3]}
			same := make([]*graph.Graph, len(lists))
			for i := range same {
				same[i] = base
			}
			sums := make([]Summary, len(gs))
			for _, u := range [][2]int{{0, len(gs) / 2}, {len(gs) / 2, len(gs)}} {
				if u[0] == u[1] {
					continue
				}
				ch := planChunk(132, same, u[0], u[1], c)
				buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(same, 227<<10, c)
				if ch.half != (maxWords == 0) && ch.words > max(maxWords, 1) {
					t.Fatalf("base %d: %d words (half %v) past the %d that fit", bi, ch.words, ch.half, maxWords)
				}
				emulateBulk(t, ch)
				ch.summarise(same, sums)
			}
			sameSummaries(t, fmt.Sprintf("base %d (%d vertices), words ≤ %d", bi, base.N(), maxWords), gs, want, sums)
		}
	}
}

// TestEditSummariesRefuses: graphs the edited kernels cannot take, and
// edits that are not arcs of the base, are refused before a GPU is asked.
func TestEditSummariesRefuses(t *testing.T) {
	ctx := context.Background()
	base := outRegular(8, 2)
	weighted := graph.NewBuilder(false)
	if err := weighted.AddIntEdge(0, 1, 3); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		base  *graph.Graph
		edits [][]graph.ArcEdit
	}{
		{"nil", nil, nil},
		{"no vertices", graph.NewBuilder(false).Build(), nil},
		{"weighted", weighted.Build(), nil},
		{"too large", outRegular(threadMaxN+1, 1), nil},
		{"tail out of range", base, [][]graph.ArcEdit{{{Tail: 8, Slot: 0, Head: 1}}}},
		{"slot past the degree", base, [][]graph.ArcEdit{{}, {{Tail: 1, Slot: 2, Head: 1}}}},
		{"head out of range", base, [][]graph.ArcEdit{{{Tail: 1, Slot: 0, Head: -1}}}},
		{"an arc edited twice", base, [][]graph.ArcEdit{{{Tail: 1, Slot: 1, Head: 3}, {Tail: 2, Slot: 0, Head: 4}, {Tail: 1, Slot: 1, Head: 5}}}},
	} {
		if _, err := EditSummaries(ctx, gpu.OnGPU(0), c.base, c.edits); !errors.Is(err, ErrGraph) {
			t.Errorf("%s: %v, want ErrGraph", c.name, err)
		}
	}
}

// TestEditSummariesMatchesBitRows: on the GPU, the summaries of edited
// copies are those of the graphs Change makes, for bases of every size up
// to 1 024 vertices, one copy or many, and past a chunk's graphs.
func TestEditSummariesMatchesBitRows(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(73, 74))
	bases := editBases(t, rng)
	info, err := gpu.Devices()
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for bi, base := range bases {
		// A base whose arcs' table does not fit beside half-word
		// frontiers is refused, for the caller to build its graphs.
		_, hi := base.DegreeRange()
		if 2*base.N()*4+(base.N()*hi*2+15)&^15 > min(info[0].MaxShared, bulkSharedMax) {
			if _, err := EditSummaries(ctx, gpu.OnGPU(0), base, nil); !errors.Is(err, ErrGraph) {
				t.Fatalf("base %d (%d vertices, degree up to %d): %v, want ErrGraph", bi, base.N(), hi, err)
			}
			refused++
			continue
		}
		count := 1 + rng.IntN(600)
		if bi == len(bases)-4 {
			count = editChunkGraphs + 300 // the (256, 8) regular graph: two chunks
		}
		lists, gs := editCases(t, rng, base, count)
		want := make([][]reduce.Row, len(gs))
		gpu.Parallel(len(gs), 64, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				want[i] = wantRows(t, gs[i])
			}
		})
		for _, part := range [][2]int{{0, len(gs)}, {0, 1}} {
			sums, err := EditSummaries(ctx, gpu.OnGPU(0), base, lists[part[0]:part[1]])
			if err != nil {
				t.Fatalf("base %d: %v", bi, err)
			}
			sameSummaries(t, fmt.Sprintf("base %d (%d vertices), copies [%d, %d)", bi, base.N(), part[0], part[1]), gs[part[0]:part[1]], want[part[0]:part[1]], sums)
		}
	}
	if refused == 0 || refused > len(bases)/3 {
		t.Fatalf("%d bases of %d refused", refused, len(bases))
	}
}
