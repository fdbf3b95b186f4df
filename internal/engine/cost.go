package engine

import (
	"math"

	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/lanes"
)

// The cost model behind "auto", fitted to the measurements in docs/perf.md
// (the CPU engines to `apsp stats --json --algo X` on random regular
// graphs, "CPU: sparse and unweighted graphs"; the GPU's Floyd–Warshall to
// "GPU: blocked Floyd–Warshall on one graph" and "The GPU runtime:
// repeated calls"): the blocked CPU engine does about 10^10 relaxations a
// second per core after about 0.3 ms of set-up; bit-parallel BFS touches
// every arc once per level for each batch of 512 sources (about 2.5 ns
// each, with about a dozen levels on sparse graphs) and spends about 0.2 ns
// a pair summing rows, after 0.1 ms of set-up; Dijkstra costs about 8 ns
// per arc and 20 ns per vertex for each source after 0.1 ms of set-up; a
// GPU costs about 0.3 s to start the first time in a process (the runtime
// keeps it open) and about 0.15 ms a call after that (GPUStartSeconds), and
// runs 1.2·10^13 relaxations a second. On unweighted graphs bitbfs is
// estimated (and measured) faster than blocked at every size.
// The oracle and the one-source-at-a-time BFS are never picked (Caps.Auto
// false) and get the dense or per-source figure of their faster twins.

func (fw) Estimate(p *Problem) float64 { return blockedSeconds(p) * 20 }

func (blocked) Estimate(p *Problem) float64 { return blockedSeconds(p) }

// blockedSeconds is the blocked engine's time: 10^10 int32 relaxations a
// second a core, and int16 lanes counted at 2 and int8 lanes at 3.5 times
// the int32 rate, a little under the speed-ups measured for the packed
// lanes (docs/perf.md, "Packed lanes on the CPU").
func blockedSeconds(p *Problem) float64 {
	n := float64(p.Graph.N())
	rate := 1e10
	switch p.Lanes {
	case lanes.Int16:
		rate *= 2
	case lanes.Int8:
		rate *= 3.5
	}
	return 3e-4 + n*n*n/(rate*float64(max(p.Threads, 1)))
}

func (e bfsEngine) Estimate(p *Problem) float64 {
	n, arcs, t := float64(p.Graph.N()), float64(p.Graph.Arcs()), float64(max(p.Threads, 1))
	if !e.bitParallel {
		return 1e-4 + n*(arcs+n)*3e-9/t
	}
	levels := 12.0
	if avg := arcs / math.Max(n, 1); avg > 2 {
		levels = math.Min(12, math.Log(n)/math.Log(avg-1)+2)
	}
	return 1e-4 + math.Ceil(n/512)*arcs*levels*2.5e-9/t + n*n*2e-10
}

func (e dijkstraEngine) Estimate(p *Problem) float64 {
	n, arcs, t := float64(p.Graph.N()), float64(p.Graph.Arcs()), float64(max(p.Threads, 1))
	work := n * (arcs*8e-9 + n*20e-9) / t
	if e.johnson {
		work *= 1.2
	}
	return 1e-4 + work
}

// gpuEngine (blocked Floyd–Warshall on the GPU) costs the GPU's start, n³
// relaxations, and host work an arc: the lanes' distance bound (a search),
// the arcs' copy and the matrix built from them. The host's share is
// fitted to `ComputeStats` of dense unweighted random regular graphs beyond
// the kernels (BenchmarkGPUCrossover; docs/perf.md, "Packed lanes on the
// GPU"); without it auto took Floyd–Warshall for dense graphs that
// gpu-bitbfs ran several times faster.
func (gpuEngine) Estimate(p *Problem) float64 {
	n, arcs := float64(p.Graph.N()), float64(p.Graph.Arcs())
	start := GPUStartSeconds()
	return start + n*n*n/1.2e13 + 2.5e-9*arcs
}

// gpu-bitbfs (internal/gpu/bitbfs) costs the GPU's start, host work (the
// padded arcs, the rows), a launch a level for each group of batches
// searched at once (2^21/n batches of 2048 sources up to 2^19 vertices,
// 1024 beyond, at least one) with a read of the device's counters per
// group, each level's scan of the arcs and visited rows, and its gathers.
// The constants below are fitted to the device time of random regular
// graphs (docs/perf.md, "gpu-bitbfs on large sparse graphs"), the gathers
// counted as levels·arcs·n/8 bytes (every level reading every arc's row
// once per batch; the frontier bitmap and the covered check skip most of
// them), and rounded towards slower. The levels come from one BFS (the
// eccentricity of vertex 0, a lower bound of the diameter; bitbfs's
// estimate where vertex 0 reaches little), so that a graph of long paths,
// where the GPU pays a launch and a full scan a level and the CPU pushes a
// small frontier cheaply, is costed as such.
func (gpuBitEngine) Estimate(p *Problem) float64 {
	g := p.Graph
	n, arcs := float64(g.N()), float64(g.Arcs())
	if g.N() == 0 {
		return 0
	}
	start := GPUStartSeconds()
	levels := bfsLevels(p)
	size := 1024.0
	if n <= 1<<19 {
		size = 2048
	}
	batches := math.Ceil(n / size)
	groups := math.Ceil(batches / math.Max(1, math.Floor(float64(1<<21)/n)))
	const (
		launch = 5e-6   // seconds a level launch (mostly the gap between kernels)
		sync   = 30e-6  // a read of found[] and the next group's start
		scan   = 3e12   // bytes a second of a level's scan (arcs, visited rows)
		gather = 5e12   // levels·arcs·n/8 bytes a second (see above)
		host   = 1.5e-9 // seconds an arc and a vertex of host work
	)
	perLevel := launch + (4*arcs+128*n)*batches/groups/scan
	return start + host*(arcs+n) + groups*(sync+levels*perLevel) + levels*arcs*n/8/gather
}

// bfsLevels estimates the levels of a breadth-first search of p's graph:
// the eccentricity of vertex 0 plus one (the level that finds nothing),
// or the bitbfs estimate where vertex 0 reaches under half the vertices.
func bfsLevels(p *Problem) float64 {
	g := p.Graph
	n, arcs := float64(g.N()), float64(g.Arcs())
	levels := 12.0
	if avg := arcs / math.Max(n, 1); avg > 2 {
		levels = math.Min(12, math.Log(n)/math.Log(avg-1)+2)
	}
	a := csr.Of(g)
	dist := make([]int32, g.N())
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int32, g.N())
	reached, _ := a.BFS(0, -1, dist, queue)
	if 2*reached >= g.N() {
		levels = math.Max(levels, float64(dist[queue[reached-1]])+1)
	}
	return levels
}

// EstimateFrom is a search from k chosen sources. The plain search costs
// as the all-pairs one a source, on as many threads as it has chunks of
// 16 sources (bfs.RowsFrom). The batched one costs as many batches of
// 512 sources or fewer as k needs, each a pass over the arcs a level
// (the all-pairs figure, 2.5 ns an arc; the spare threads share a
// batch's levels), with the levels probeLevels finds where they could
// matter: on a graph of long paths (a geometric graph), a batch pays a
// level for each distance its sources find, where a plain search pays
// each arc once a source. The probe is spared where the fewest levels (a
// small world's) already lose, and stops where the levels found so far
// do.
//
// On the 2-vCPU VM (docs/perf.md, "Chosen sources by the bit-parallel
// search") this picks bitbfs for 4 or more sources of gen regular
// n=65536 d=8 (256: 4 ms against 250 ms), and the plain search for every
// source count measured on gen geometric n=1000000 d=6 (ecc(0) = 1177):
// 64 sources 9.3 s against bitbfs's 20.5 s, 256 29 s against 31 s, 512
// 80 s against 98 s; at 1024, 191 s against 128 s wall but about the
// same CPU time (148 s against 161 s).
func (e bfsEngine) EstimateFrom(p *Problem, k int) float64 {
	n, arcs, t := float64(p.Graph.N()), float64(p.Graph.Arcs()), float64(max(p.Threads, 1))
	if !e.bitParallel {
		return 1e-4 + float64(k)*(arcs+n)*3e-9/math.Min(t, math.Ceil(float64(k)/16))
	}
	batches := math.Ceil(float64(k) / 512)
	perLevel := batches * (arcs + n) * 2.5e-9 / t
	levels := 12.0
	if avg := arcs / math.Max(n, 1); avg > 2 {
		levels = math.Min(12, math.Log(n)/math.Log(avg-1)+2)
	}
	plain := (bfsEngine{}).EstimateFrom(p, k)
	if k == 0 || 1e-4+perLevel*levels >= plain {
		return 1e-4 + perLevel*levels
	}
	return 1e-4 + perLevel*math.Max(levels, probeLevels(p, math.Ceil(plain/perLevel)))
}

// probeLevels estimates the levels of a batch of sources of p's graph
// from breadth-first searches, up to most levels (where the caller's
// answer is already clear). A search stops once a level holds a sixteenth
// of the vertices and half of them are reached: the graph expands like a
// small world's, whose last levels are few (three more are counted; a
// star of a tenth of the vertices at vertex 0 expands so too, but does
// not reach half, and the probe goes on); that is under a tenth of a
// whole search on gen regular n=65536 d=8, where the whole search
// (bfsLevels) was a third of a search from 256 sources. The searches go
// from vertex 0, then from vertices drawn at random (a fixed stream, so
// that a plan is reproducible) not yet reached, as sources are drawn:
// the first that reaches half the vertices gives the answer (a batch of
// random sources mostly lies in its component); failing that, after
// probeRoots searches or half the vertices, the most levels any found. A geometric graph's vertex 0 may lie in a component of a few
// vertices: a probe from it alone said 3 levels of `gen geometric
// n=10000000 d=6`, whose sources take thousands, and bitbfs was chosen
// for 16 sources at 100 s where plain searches take 10.
func probeLevels(p *Problem, most float64) float64 {
	const probeRoots = 32
	g := p.Graph
	n := g.N()
	a := csr.Of(g)
	seen := make([]bool, n)
	var queue, next []int32
	searched, deepest := 0, 0.0
	x := uint64(0x9e3779b97f4a7c15)
	for try := 0; try < probeRoots && 2*searched < n; try++ {
		root := 0
		if try > 0 {
			x ^= x << 13 // xorshift: a fixed stream of roots
			x ^= x >> 7
			x ^= x << 17
			root = int(x % uint64(n))
		}
		if seen[root] {
			continue
		}
		queue = append(queue[:0], int32(root))
		seen[root] = true
		reached, levels := 1, 0.0
		for level := 1; len(queue) > 0; level++ {
			next = next[:0]
			for _, u := range queue {
				for _, v := range a.Nbrs(u) {
					if !seen[v] {
						seen[v] = true
						next = append(next, v)
					}
				}
			}
			reached += len(next)
			levels = float64(level)
			switch {
			case levels >= most:
				return most
			case 16*len(next) >= n && 2*reached >= n:
				return float64(level + 3)
			}
			queue, next = next, queue
		}
		if 2*reached >= n {
			return levels
		}
		searched += reached
		deepest = math.Max(deepest, levels)
	}
	return deepest
}

// EstimateFrom is a search from k sources, each as the all-pairs search's.
func (e dijkstraEngine) EstimateFrom(p *Problem, k int) float64 {
	n, arcs, t := float64(p.Graph.N()), float64(p.Graph.Arcs()), float64(max(p.Threads, 1))
	work := float64(k) * (arcs*8e-9 + n*20e-9) / math.Min(t, float64(max(k, 1)))
	if e.johnson {
		work *= 1.2
	}
	return 1e-4 + work
}
