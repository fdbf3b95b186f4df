package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// kindDef is one graph kind.
type kindDef struct {
	info     KindInfo
	keys     []string // the kind's parameters, all required
	directed arcMode  // what the directed option makes of an edge
	// size checks the parameters and returns the vertex count and the
	// number of edges generate emits.
	size func(p *plan) (n, m int64, err error)
	// generate emits the edges, drawing randomness from rng only.
	generate func(p *plan, rng *rand.Rand, emit func(u, v int) error) error
}

func (d *kindDef) takes(key string) bool {
	switch key {
	case "weights", "seed", "directed": // options of every kind
		return true
	}
	return slices.Contains(d.keys, key)
}

// allowed lists the keys d takes, for error messages.
func (d *kindDef) allowed() string {
	var keys []string
	for _, k := range d.keys {
		keys = append(keys, k+"=")
	}
	return strings.Join(append(keys, "weights=LO..HI", "seed=N", "directed"), " ")
}

func lookup(kind string) (*kindDef, error) {
	defs := kindDefs()
	for i := range defs {
		if defs[i].info.Name == kind {
			return &defs[i], nil
		}
	}
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.info.Name
	}
	return nil, fmt.Errorf("unknown graph kind %q (want %s)", kind, strings.Join(names, ", "))
}

const bothArcsNote = "; directed: arcs u→v and v→u with independent weights"

// kindDefs returns the kinds in help order. It builds a fresh table on each
// call so that no package state can be changed.
func kindDefs() []kindDef {
	return []kindDef{
		{
			info: KindInfo{
				Name:        "regular",
				Params:      "n= d=",
				Description: "random connected d-regular simple graph on n vertices (n*d even, d < n)" + bothArcsNote,
				Example:     "apsp gen regular n=65536 d=4 weights=1..100 seed=7",
			},
			keys: []string{"n", "d"}, directed: bothArcs,
			size: regularSize, generate: genRegular,
		},
		{
			info: KindInfo{
				Name:   "geometric",
				Params: "n= d=",
				Description: "random geometric graph: n points uniform in the unit square, joined when closer than r, with r set for mean degree d (road-like; not necessarily connected)" +
					bothArcsNote,
				Example: "apsp gen geometric n=1000000 d=6 seed=1",
			},
			keys: []string{"n", "d"}, directed: bothArcs,
			size: geometricSize, generate: genGeometric,
		},
		{
			info: KindInfo{
				Name:   "gnp",
				Params: "n= r=",
				Description: "random connected graph with r percent of the n(n-1)/2 possible edges (a random spanning tree plus uniform extra edges; r may be a decimal)" +
					"; directed: each edge becomes one arc of random orientation, so the graph need not be strongly connected",
				Example: "apsp gen gnp n=4096 r=0.5 weights=0..1.0",
			},
			keys: []string{"n", "r"}, directed: randomOrientation,
			size: gnpSize, generate: genGnp,
		},
		{
			info: KindInfo{
				Name:   "ba",
				Params: "n= d=",
				Description: "Barabási–Albert graph: a clique of d+1 vertices, then each vertex joins d earlier ones chosen in proportion to their degree (heavy-tailed degrees, small diameter: social- and web-like; connected, mean degree about 2d)" +
					bothArcsNote,
				Example: "apsp gen ba n=1000000 d=5 seed=1",
			},
			keys: []string{"n", "d"}, directed: bothArcs,
			size: baSize, generate: genBA,
		},
		{
			info: KindInfo{
				Name:        "grid",
				Params:      "a= b=",
				Description: "a×b grid graph with 4-neighbour edges, vertex (i, j) has id i*b+j" + bothArcsNote,
				Example:     "apsp gen grid a=100 b=200 weights=1..9",
			},
			keys: []string{"a", "b"}, directed: bothArcs,
			size: gridSize, generate: genGrid,
		},
		{
			info: KindInfo{
				Name:        "torus",
				Params:      "a= b=",
				Description: "a×b grid with wraparound, a, b >= 3, vertex (i, j) has id i*b+j" + bothArcsNote,
				Example:     "apsp gen torus a=64 b=64",
			},
			keys: []string{"a", "b"}, directed: bothArcs,
			size: torusSize, generate: genTorus,
		},
		{
			info: KindInfo{
				Name:        "hypercube",
				Params:      "d=",
				Description: "hypercube Q_d: 2^d vertices (d <= 24) whose ids differ in one bit are adjacent" + bothArcsNote,
				Example:     "apsp gen hypercube d=12",
			},
			keys: []string{"d"}, directed: bothArcs,
			size: hypercubeSize, generate: genHypercube,
		},
		{
			info: KindInfo{
				Name:        "complete",
				Params:      "n=",
				Description: "complete graph K_n" + bothArcsNote,
				Example:     "apsp gen complete n=1000 weights=1..1000 directed",
			},
			keys: []string{"n"}, directed: bothArcs,
			size: completeSize, generate: genComplete,
		},
		{
			info: KindInfo{
				Name:        "cycle",
				Params:      "n=",
				Description: "cycle C_n, n >= 3; directed: the one-way cycle 0→1→…→n-1→0, diameter n-1",
				Example:     "apsp gen cycle n=1000 directed",
			},
			keys: []string{"n"}, directed: asEmitted,
			size: cycleSize, generate: genCycle,
		},
		{
			info: KindInfo{
				Name:        "path",
				Params:      "n=",
				Description: "path P_n 0–1–…–(n-1), n >= 1" + bothArcsNote,
				Example:     "apsp gen path n=1000 weights=-1..5 directed",
			},
			keys: []string{"n"}, directed: bothArcs,
			size: pathSize, generate: genPath,
		},
		{
			info: KindInfo{
				Name:        "petersen",
				Params:      "",
				Description: "Petersen graph: 10 vertices, 15 edges, outer cycle 0..4, inner pentagram 5..9, spokes i–i+5" + bothArcsNote,
				Example:     "apsp gen petersen weights=1..3 seed=2",
			},
			directed: bothArcs,
			size:     func(*plan) (int64, int64, error) { return 10, 15, nil },
			generate: genPetersen,
		},
	}
}

func gridSize(p *plan) (int64, int64, error) {
	if p.a < 1 || p.b < 1 {
		return 0, 0, fmt.Errorf("a=%d b=%d: both must be at least 1", p.a, p.b)
	}
	return p.a * p.b, p.a*(p.b-1) + p.b*(p.a-1), nil // a, b <= 2^31: no overflow
}

func genGrid(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	a, b := int(p.a), int(p.b)
	for i := range a {
		for j := range b {
			u := i*b + j
			if j+1 < b {
				if err := emit(u, u+1); err != nil {
					return err
				}
			}
			if i+1 < a {
				if err := emit(u, u+b); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func torusSize(p *plan) (int64, int64, error) {
	if p.a < 3 || p.b < 3 {
		return 0, 0, fmt.Errorf("a=%d b=%d: both must be at least 3 (smaller tori have parallel edges)", p.a, p.b)
	}
	return p.a * p.b, 2 * p.a * p.b, nil
}

func genTorus(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	a, b := int(p.a), int(p.b)
	for i := range a {
		for j := range b {
			u := i*b + j
			if err := emit(u, i*b+(j+1)%b); err != nil {
				return err
			}
			if err := emit(u, (i+1)%a*b+j); err != nil {
				return err
			}
		}
	}
	return nil
}

func hypercubeSize(p *plan) (int64, int64, error) {
	if p.d > 24 {
		return 0, 0, fmt.Errorf("d=%d: at most 24", p.d)
	}
	if p.d == 0 {
		return 1, 0, nil
	}
	return 1 << p.d, p.d << (p.d - 1), nil
}

func genHypercube(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	n := 1 << p.d
	for u := range n {
		for k := range int(p.d) {
			if v := u ^ 1<<k; u < v {
				if err := emit(u, v); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func completeSize(p *plan) (int64, int64, error) {
	if p.n < 1 {
		return 0, 0, fmt.Errorf("n=%d: at least 1", p.n)
	}
	return p.n, p.n * (p.n - 1) / 2, nil
}

func genComplete(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	n := int(p.n)
	for u := range n {
		for v := u + 1; v < n; v++ {
			if err := emit(u, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func cycleSize(p *plan) (int64, int64, error) {
	if p.n < 3 {
		return 0, 0, fmt.Errorf("n=%d: at least 3", p.n)
	}
	return p.n, p.n, nil
}

func genCycle(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	n := int(p.n)
	for u := range n {
		if err := emit(u, (u+1)%n); err != nil {
			return err
		}
	}
	return nil
}

func pathSize(p *plan) (int64, int64, error) {
	if p.n < 1 {
		return 0, 0, fmt.Errorf("n=%d: at least 1", p.n)
	}
	return p.n, p.n - 1, nil
}

func genPath(p *plan, _ *rand.Rand, emit func(u, v int) error) error {
	for u := range int(p.n) - 1 {
		if err := emit(u, u+1); err != nil {
			return err
		}
	}
	return nil
}

func genPetersen(_ *plan, _ *rand.Rand, emit func(u, v int) error) error {
	for i := range 5 {
		for _, e := range [3][2]int{
			{i, (i + 1) % 5},     // outer cycle
			{i, i + 5},           // spoke
			{5 + i, 5 + (i+2)%5}, // inner pentagram
		} {
			if err := emit(e[0], e[1]); err != nil {
				return err
			}
		}
	}
	return nil
}
