package gen

import (
	"fmt"
	"math/rand/v2"
)

// Attempt limits for the random regular generator. A pairing is repaired by
// switches, so a restart happens only on tiny graphs that admit few simple
// d-regular graphs; a disconnected result is rare for d >= 3.
const (
	maxPairings         = 1000 // restarts of the pairing
	maxSwitchTries      = 1000 // switch attempts for one bad pair before restarting
	maxConnectedRetries = 1000
)

func regularSize(p *plan) (int64, int64, error) {
	n, d := p.n, p.d
	switch {
	case n < 1:
		return 0, 0, fmt.Errorf("n=%d: at least 1", n)
	case d >= n:
		return 0, 0, fmt.Errorf("d=%d must be less than n=%d", d, n)
	case n*d%2 != 0:
		return 0, 0, fmt.Errorf("n=%d d=%d: n*d must be even (it is twice the edge count)", n, d)
	case d == 0 && n > 1:
		return 0, 0, fmt.Errorf("d=0 n=%d: not connected (d=0 only for n=1)", n)
	case d == 1 && n > 2:
		return 0, 0, fmt.Errorf("d=1 n=%d: not connected (d=1 only for n=2)", n)
	}
	return n, n * d / 2, nil
}

// genRegular emits a random connected d-regular simple graph.
func genRegular(p *plan, rng *rand.Rand, emit func(u, v int) error) error {
	n, d := int(p.n), int(p.d)
	switch {
	case d == 0:
		return nil
	case d == 1:
		return emit(0, 1)
	case d == 2:
		// A connected 2-regular graph is a Hamiltonian cycle, and a random
		// permutation gives a uniform one; pairings would almost never be
		// connected.
		perm := rng.Perm(n)
		for i := range n {
			if err := emit(perm[i], perm[(i+1)%n]); err != nil {
				return err
			}
		}
		return nil
	case 2*d >= n:
		return genDenseRegular(n, d, rng, emit)
	}
	for range maxConnectedRetries {
		partner, err := simpleRegular(n, d, rng)
		if err != nil {
			return err
		}
		if !pairingConnected(partner, n, d) {
			continue
		}
		for x, y := range partner {
			if x < int(y) {
				if err := emit(x/d, int(y)/d); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return fmt.Errorf("no connected graph after %d attempts", maxConnectedRetries)
}

// genDenseRegular emits the complement of a random (n-1-d)-regular graph,
// which is sparser and easier to make simple. With 2d >= n every d-regular
// graph is connected: two non-adjacent vertices have 2d >= n neighbours
// among the other n-2 vertices, so they share one.
func genDenseRegular(n, d int, rng *rand.Rand, emit func(u, v int) error) error {
	dc := n - 1 - d
	var partner []uint32
	if dc > 0 {
		var err error
		if partner, err = simpleRegular(n, dc, rng); err != nil {
			return err
		}
	}
	mark := make([]int, n) // mark[v] == u+1: v is a neighbour of u in the complement
	for u := range n {
		for k := range dc {
			mark[int(partner[u*dc+k])/dc] = u + 1
		}
		for v := u + 1; v < n; v++ {
			if mark[v] != u+1 {
				if err := emit(u, v); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// simpleRegular returns a random simple d-regular graph (d >= 1, n*d even) as
// a pairing of its n*d points: vertex u owns points u*d .. u*d+d-1, and point
// x is joined to point partner[x]. It pairs the points at random (the
// configuration model), then removes self-loops and parallel edges by
// switches: a bad edge {x, y} and a random edge {r, s} are replaced by
// {x, r} and {y, s} when neither is a loop or already present. Each switch
// removes a bad edge and creates none, so unlike restarting until a pairing
// happens to be simple (probability about exp(-(d²-1)/4)) it stays fast for
// any d. The result is close to, though not exactly, uniform.
//
// Points are uint32 to halve the memory traffic, which dominates for large n:
// the size check allows at most 2^31 edges, so n*d <= 2^32.
func simpleRegular(n, d int, rng *rand.Rand) ([]uint32, error) {
	nd := n * d
	partner := make([]uint32, nd)
	points := make([]uint32, nd)
	count := make([]int32, n)
	var bad []int
	for range maxPairings {
		for i := range points {
			points[i] = uint32(i)
		}
		for i := nd - 1; i > 0; i-- { // Fisher–Yates
			j := rng.Uint64N(uint64(i) + 1)
			points[i], points[j] = points[j], points[i]
		}
		for i := 0; i < nd; i += 2 {
			x, y := points[i], points[i+1]
			partner[x], partner[y] = y, x
		}
		bad = findBad(partner, n, d, count, bad[:0])
		if len(bad) == 0 {
			return partner, nil
		}
		// A pairing has about (d-1)/2 loops and (d-1)²/4 parallel edges, so
		// for small d the few checks can scan a vertex's d points; for large
		// d a table of multiplicities keeps them O(1).
		var mult multiplicity = scanMult{partner, d}
		if d > 32 {
			mult = newMapMult(partner, d)
		}
		if repairPairing(partner, bad, d, mult, rng) {
			return partner, nil
		}
	}
	return nil, fmt.Errorf("no simple %d-regular graph on %d vertices after %d pairings", d, n, maxPairings)
}

// findBad appends to bad the smaller point of each loop and of each edge
// that has a parallel copy. count must be all zero and is left so.
func findBad(partner []uint32, n, d int, count []int32, bad []int) []int {
	for u := range n {
		pts := partner[u*d : (u+1)*d]
		for _, y := range pts {
			count[int(y)/d]++
		}
		for k, y := range pts {
			if x, v := u*d+k, int(y)/d; x < int(y) && (v == u || count[v] > 1) {
				bad = append(bad, x)
			}
		}
		for _, y := range pts {
			count[int(y)/d] = 0
		}
	}
	return bad
}

// multiplicity counts the edges between two distinct vertices of a pairing.
type multiplicity interface {
	count(u, v int) int
	// switched records that edges {u, v} and {a, b} became {u, a} and {v, b}.
	switched(u, v, a, b int)
}

// scanMult reads the pairing itself, in O(d) per count.
type scanMult struct {
	partner []uint32
	d       int
}

func (m scanMult) count(u, v int) int {
	c := 0
	for _, y := range m.partner[u*m.d : (u+1)*m.d] {
		if int(y)/m.d == v {
			c++
		}
	}
	return c
}

func (scanMult) switched(u, v, a, b int) {}

// mapMult keeps the multiplicity of every vertex pair, keyed by edgeKey.
type mapMult map[uint64]int32

func newMapMult(partner []uint32, d int) mapMult {
	m := make(mapMult, len(partner)/2)
	for x, y := range partner {
		if x < int(y) {
			m[edgeKey(x/d, int(y)/d)]++
		}
	}
	return m
}

func (m mapMult) count(u, v int) int { return int(m[edgeKey(u, v)]) }

func (m mapMult) switched(u, v, a, b int) {
	m[edgeKey(u, v)]--
	m[edgeKey(a, b)]--
	m[edgeKey(u, a)]++
	m[edgeKey(v, b)]++
}

// repairPairing switches away the loops and parallel edges at the points in
// bad, reporting false if one resists maxSwitchTries attempts.
func repairPairing(partner []uint32, bad []int, d int, mult multiplicity, rng *rand.Rand) bool {
	nd := len(partner)
	for _, x := range bad {
		for try := 0; ; try++ {
			// A switch elsewhere may already have fixed this edge; every edge
			// a switch creates is simple, so checking the current one suffices.
			y := int(partner[x])
			u, v := x/d, y/d
			if u != v && mult.count(u, v) == 1 {
				break
			}
			if try == maxSwitchTries {
				return false
			}
			r := rng.IntN(nd)
			s := int(partner[r])
			a, b := r/d, s/d
			// New edges {u, a} and {v, b}: with u, v, a, b apart (u == v
			// allowed) and neither present, both are new, simple and distinct.
			if a == b || a == u || a == v || b == u || b == v ||
				mult.count(u, a) > 0 || mult.count(v, b) > 0 {
				continue
			}
			mult.switched(u, v, a, b)
			partner[x], partner[r] = uint32(r), uint32(x)
			partner[y], partner[s] = uint32(s), uint32(y)
		}
	}
	return true
}

func edgeKey(u, v int) uint64 {
	if u > v {
		u, v = v, u
	}
	return uint64(u)<<32 | uint64(v)
}

// pairingConnected reports whether the graph of a pairing is connected.
func pairingConnected(partner []uint32, n, d int) bool {
	seen := make([]bool, n)
	queue := make([]int32, 1, n)
	seen[0] = true
	for i := 0; i < len(queue); i++ {
		u := int(queue[i])
		for _, y := range partner[u*d : (u+1)*d] {
			if v := int(y) / d; !seen[v] {
				seen[v] = true
				queue = append(queue, int32(v))
			}
		}
	}
	return len(queue) == n
}
