package bulk

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/gpu"
)

// Edited copies of one graph. A search loop measures many changes of one
// graph that keep every vertex's arc count (Graph Golf's edge swaps):
// built one by one, each candidate is a whole graph to make, lay out and
// copy (about 5 KiB and a microsecond of host time at 256 vertices of
// degree 8), where the kernels take a few hundredths of that. The
// bulk_sum_*_sh_e kernels take base's arcs once, shared by every graph of
// the launch, and each graph as its arc edits (graph.ArcEdits), which its
// block applies to its shared-memory table of base's arcs: the host
// writes 8 bytes an edit.

// editSet is EditSummaries's input inside a run: every graph of the run
// is base, and graph i's own arcs are base's with lists[i] made.
type editSet struct {
	base  *graph.Graph
	lists [][]graph.ArcEdit
	per   int // E: the most edits of one graph (the kernels' stride)
	// maxWords is the widest batch whose frontiers leave room for the
	// arcs' table in a block's shared memory: 1 or 2 (bulkWords) 64-bit
	// words, or 0 for half words only.
	maxWords int
}

// editChunkGraphs is the most graphs of a chunk of edited copies.
const editChunkGraphs = 1 << 16

// EditsFit reports whether EditSummaries may take base on some GPU: an
// unweighted graph of 1 to 1 024 vertices (a thread a vertex). Whether
// its arcs' table fits a block's shared memory depends on the GPU
// (EditsFitShared), which EditSummaries checks.
func EditsFit(base *graph.Graph) bool {
	return base != nil && !base.Weighted() && base.N() >= 1 && base.N() <= threadMaxN
}

// EditsFitShared reports whether EditSummaries takes base (EditsFit) on a
// GPU of maxShared bytes of shared memory a block: its arcs' table beside
// the narrowest frontiers.
func EditsFitShared(base *graph.Graph, maxShared int) bool {
	return EditsFit(base) && editWords(base, maxShared) >= 0
}

// editWords is the widest batch of base's edited copies whose frontiers
// leave room for its arcs' table in maxShared bytes: bulkWords or 1
// 64-bit words, 0 for half words, -1 for none.
func editWords(base *graph.Graph, maxShared int) int {
	n := base.N()
	_, hi := base.DegreeRange()
	table := (n*hi*2 + 15) &^ 15
	limit := min(maxShared, bulkSharedMax)
	switch {
	case 2*n*8*bulkWords+table <= limit:
		return bulkWords
	case 2*n*8+table <= limit:
		return 1
	case 2*n*4+table <= limit:
		return 0
	}
	return -1
}

// EditSummaries is Summaries of the graphs base becomes under each list
// of arc edits, edits[i] (graph.ArcEdits: changes that keep every arc
// count, the graph with each arc edit made in place), computed without
// building them: base's arcs go to the GPU once, and each graph as its
// edits. base must be EditsFit and its arcs' table must fit a block's
// shared memory on the GPU (EditsFitShared: n·(largest degree)·2 bytes
// beside the frontiers; at 1 024 vertices a degree of about 52 on an
// H100), else the error wraps ErrGraph and the caller builds the graphs.
// Each list must name an arc (Tail, Slot) once; that the edited arcs make
// a simple graph, symmetric when base is undirected, is the caller's
// (ArcEdits's) to ensure: the kernels search the arcs as they are.
func EditSummaries(ctx context.Context, place gpu.Placement, base *graph.Graph, edits [][]graph.ArcEdit) ([]Summary, error) {
	ordinal, err := one(place, "the bulk search", "the summaries of edited graphs")
	if err != nil {
		return nil, err
	}
	if !EditsFit(base) {
		return nil, fmt.Errorf("%w: edited copies of a graph need an unweighted one of 1 to %d vertices", ErrGraph, threadMaxN)
	}
	n := base.N()
	set := &editSet{base: base, lists: edits}
	for i, list := range edits {
		for k, e := range list {
			if e.Tail < 0 || int(e.Tail) >= n || e.Slot < 0 || int(e.Slot) >= base.Degree(int(e.Tail)) || e.Head < 0 || int(e.Head) >= n {
				return nil, fmt.Errorf("%w: edits[%d]: %+v is not an arc of the graph's %d vertices", ErrGraph, i, e, n)
			}
			// Two edits of one arc would race in the kernel (a change's
			// few: a quadratic look costs less than a set).
			for _, f := range list[:k] {
				if f.Tail == e.Tail && f.Slot == e.Slot {
					return nil, fmt.Errorf("%w: edits[%d]: arc %d of vertex %d edited twice", ErrGraph, i, e.Slot, e.Tail)
				}
			}
		}
		set.per = max(set.per, len(list))
	}
	set.per = max(set.per, 1)
	info, err := gpu.Devices()
	if err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= len(info) {
		return nil, fmt.Errorf("bulk search: no gpu:%d", ordinal)
	}
	if set.maxWords = editWords(base, info[ordinal].MaxShared); set.maxWords < 0 {
		_, hi := base.DegreeRange()
		return nil, fmt.Errorf("%w: the arcs of a graph of %d vertices and degree up to %d (%d bytes) do not fit a block's shared memory beside its frontiers on gpu:%d",
			ErrGraph, n, hi, n*hi*2, ordinal)
	}
	gs := make([]*graph.Graph, len(edits))
	for i := range gs {
		gs[i] = base
	}
	sums := make([]Summary, len(gs))
	if _, _, err := bulkRunInto(ctx, ordinal, gs, bulkConfig{edits: set}, &bulkOut{sums: sums}, nil); err != nil {
		return nil, err
	}
	return sums, nil
}

// editUnits is the run's one group and its chunks for edited copies:
// at most editChunkGraphs graphs a chunk (each is a few words).
func editUnits(graphs int) ([]bulkGroupSpan, [][2]int) {
	var units [][2]int
	for lo := 0; lo < graphs; lo += editChunkGraphs {
		units = append(units, [2]int{lo, min(lo+editChunkGraphs, graphs)})
	}
	return []bulkGroupSpan{{lo: 0, hi: graphs, first: 0, count: len(units)}}, units
}

// fillEdits writes the chunk's input for edited copies: base's arcs once,
// each graph's edits as {ELL index, head} pairs (-1 for none), and its
// graph table and tasks, one launch in all.
func (ch *bulkChunk) fillEdits() {
	set := ch.edits
	base, n := set.base, set.base.N()
	arrays := csr.Of(base)
	region := unsafe.Slice((*int32)(unsafe.Add(ch.host, ch.csrRegionAt)), csrWords(base, false))
	off := arrays.Off[:n+1]
	deg := 0
	for v := range n {
		region[v] = int32(off[v] - off[0])
		deg = max(deg, off[v+1]-off[v])
	}
	region[n] = int32(off[n] - off[0])
	if arcs := arrays.Heads[off[0]:off[n]]; len(arcs) > 0 {
		narrow(unsafe.Slice((*uint32)(unsafe.Pointer(&region[n+1])), (len(arcs)+1)/2), arcs)
	}
	ng := ch.hi - ch.lo
	pairs := unsafe.Slice((*[2]int32)(unsafe.Add(ch.host, ch.editsAt)), ng*set.per)
	gpu.Parallel(ng, max(1, 4096/set.per), func(a, b int) {
		for i := a; i < b; i++ {
			dst := pairs[i*set.per : (i+1)*set.per]
			list := set.lists[ch.lo+i]
			for k, e := range list {
				dst[k] = [2]int32{e.Slot*int32(n) + e.Tail, e.Head}
			}
			for k := len(list); k < len(dst); k++ {
				dst[k] = [2]int32{-1, 0}
			}
		}
	})
	clear(unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), sumWords*ng))
	threads := (n + 31) &^ 31
	frontier := 2 * n * ch.wordBytes()
	table := (n*deg*2 + 15) &^ 15
	ch.groups = append(ch.groups[:0], bulkGroup{sh: true, mid: -1, threads: threads, shared: max(frontier+table, 16), count: ch.tasks})
	graphs := unsafe.Slice((*[4]int32)(unsafe.Add(ch.host, ch.graphsAt)), ng)
	tasks := unsafe.Slice((*[4]int32)(unsafe.Add(ch.host, ch.tasksAt)), ch.tasks)
	batches := (n + ch.batchSize() - 1) / ch.batchSize()
	at := 0
	for i := range graphs {
		graphs[i] = [4]int32{int32(n), int32(deg), 0, 0}
		k := int(ch.split[i])
		for j := range k {
			first, last := batches*j/k, batches*(j+1)/k
			tasks[at] = [4]int32{int32(i), int32(first), int32(last - first), int32(k)}
			at++
		}
	}
}
