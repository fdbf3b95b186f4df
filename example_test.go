package apsp_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// Read an edge list and compute every summary measure.
func ExampleComputeStats() {
	edges := "0 1\n1 2\n2 3\n3 0\n0 2\n"
	g, err := graph.Read(strings.NewReader(edges), "square.txt", graph.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := apsp.ComputeStats(context.Background(), g, apsp.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("diameter", s.Diameter, "radius", s.Radius, "aspl", s.ASPL, "center", s.Center)
	// Output: diameter 2 radius 1 aspl 1.1666666666666667 center [0 2]
}

// Build a weighted graph and ask for one shortest path.
func ExampleShortestPath() {
	b := graph.NewBuilder(true)
	for _, e := range [][3]int{{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}} {
		if err := b.AddIntEdge(e[0], e[1], int64(e[2])); err != nil {
			fmt.Println(err)
			return
		}
	}
	p, err := apsp.ShortestPath(context.Background(), b.Build(), 0, 3, apsp.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Vertices, p.Length)
	// Output: [0 2 1 3] 4
}

// Compute the whole distance matrix with a chosen engine, with cancellation
// and progress reports.
func ExampleAllPairs() {
	g, _ := graph.Read(strings.NewReader("0 1 1.5\n1 2 2.25\n"), "w.txt", graph.ReadOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "blocked", Threads: 2, Progress: func(float64) {}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.At(0, 2), d.Exact(), d.Algorithm)
	// Output: 3.75 false blocked
}

// Eccentricities of the directed path 0→1→2: only 0 reaches everyone, so the
// others are infinite unless measured over reachable vertices only.
func ExampleEccentricities() {
	g, _ := graph.Read(strings.NewReader("0 1\n1 2\n"), "p.txt", graph.ReadOptions{Directed: true})
	ecc, _ := apsp.Eccentricities(context.Background(), g, apsp.Options{})
	reach, _ := apsp.Eccentricities(context.Background(), g, apsp.Options{Reachable: true})
	fmt.Println(ecc, reach)
	// Output: [2 inf inf] [2 1 0]
}

// Evaluate one candidate graph after another, as a local search does: the
// Evaluator plans the first graph and reuses that plan for the next ones
// of the same size.
func ExampleEvaluator() {
	ev, err := apsp.NewEvaluator(apsp.Options{Device: "cpu"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, edges := range []string{
		"0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n", // a 6-cycle
		"0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n", // two triangles: 6 vertices, 6 edges too
		"0 1\n0 2\n0 3\n0 4\n0 5\n1 2\n", // a star with one more edge
	} {
		g, err := graph.Read(strings.NewReader(edges), "candidate.txt", graph.ReadOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		s, err := ev.Summary(context.Background(), g)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(s.Connected, s.Diameter, s.ASPL)
	}
	// Output:
	// true 3 1.8
	// false inf inf
	// true 2 1.6
}
