package engine

import (
	"math"

	"github.com/apsp/apsp/internal/gpu"
)

// The cost model behind "auto", fitted to the measurements in docs/perf.md
// (2-core Zen 4, `apsp stats --json --algo X` on random regular graphs):
// the blocked CPU engine does about 10^10 relaxations a second per core
// after about 0.3 ms of set-up; bit-parallel BFS touches every arc once per
// level for each batch of 512 sources (about 2.5 ns each, with about a dozen
// levels on sparse graphs) and spends about 0.2 ns a pair summing rows,
// after 0.1 ms of set-up (n = 128: 0.14 ms against blocked's 0.7 ms;
// n = 20 000, degree 4: 0.11 s; n = 100 000: 3.0 s, estimated 3.3 s);
// Dijkstra costs about 8 ns per arc and 20 ns per vertex for each source
// after 0.1 ms of set-up (karate: 0.17 ms); a GPU costs about 0.3 s to
// start the first time in a process (the runtime keeps it open; 0.2–0.3 s
// on an H100 with the kernels cached) and about 0.15 ms a call after that
// (n = 1024 on an H100: 0.53 ms a call, 0.40 ms of it the kernel), and
// runs 1.2·10^13 relaxations a second. On unweighted graphs
// bitbfs is estimated (and measured) faster than blocked at every size.
// The oracle and the one-source-at-a-time BFS are never picked (Caps.Auto
// false) and get the dense or per-source figure of their faster twins.

func (fw) Estimate(p *Problem) float64 { return blockedSeconds(p) * 20 }

func (blocked) Estimate(p *Problem) float64 { return blockedSeconds(p) }

func blockedSeconds(p *Problem) float64 {
	n := float64(p.Graph.N())
	return 3e-4 + n*n*n/(1e10*float64(max(p.Threads, 1)))
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

func (gpuEngine) Estimate(p *Problem) float64 {
	n := float64(p.Graph.N())
	start := 0.3
	if gpu.Opened() > 0 {
		start = 1.5e-4
	}
	return start + n*n*n/1.2e13
}

// gpu-bitbfs (internal/gpu/bitbfs.go) costs the GPU's start, a launch a
// level for each group of batches searched at once (about 2^21 / n
// batches of 512 sources, or 256 past 2^18 vertices) with a read of the
// device's counters per group, and its bytes: each level reads every arc's
// source row, 64 bytes a batch, mostly from L2. The level count is bitbfs's
// estimate, but long on graphs of low degree (few arcs a vertex, long
// paths: a launch and a round trip a level, where the CPU pushes a small
// frontier cheaply), so that auto leaves those to the CPU.
func (gpuBitEngine) Estimate(p *Problem) float64 {
	n, arcs := float64(p.Graph.N()), float64(p.Graph.Arcs())
	start := 0.3
	if gpu.Opened() > 0 {
		start = 1.5e-4
	}
	levels := 12.0
	avg := arcs / math.Max(n, 1)
	switch {
	case avg < 4:
		levels = math.Max(12, math.Sqrt(n))
	case avg > 2:
		levels = math.Min(12, math.Log(n)/math.Log(avg-1)+2)
	}
	size := 512.0
	if n > 1<<18 {
		size = 256
	}
	batches := math.Ceil(n / size)
	groups := math.Ceil(batches / math.Max(1, math.Floor(float64(1<<21)/math.Max(n, 1))))
	const (
		launch = 5e-6  // seconds a level launch (most of it the GPU's gap between kernels)
		sync   = 30e-6 // a read of found[] and the next group's start
		bw     = 1e12  // bytes a second gathered (L2 and memory)
	)
	return start + groups*(sync+levels*launch) + levels*arcs*n/8/bw
}
