package reduce

import "sync"

// Brief is what the summary measures need of every source's Row when the
// distances are exact: the eccentricity and reach of each source, and the
// totals. It is a seventh of the Rows' size, so that a search loop on a
// small graph does not spend a fifth of each call writing and reading
// rows (engines that search hop distances give it directly).
type Brief struct {
	Ecc   []int64 // per source: Row.MaxI, the largest finite distance to another vertex (0 when it reaches none)
	Reach []int32 // per source: Row.Reach, the vertices other than it that it reaches
	Sum   Wide    // Row.Sum over every source: the distances of all reachable ordered pairs
	Pairs int64   // Row.Reach over every source: the reachable ordered pairs
	// EccKnown says that EccMin and EccMax hold the smallest and largest
	// Ecc: a producer that writes Ecc on many cores finds them there, so
	// that the summary of a connected graph need not read Ecc again on
	// one core (the lines come from every core that wrote them).
	EccKnown       bool
	EccMin, EccMax int64
	// Hist, when not nil, is the pairs u ≠ v at each distance, which a
	// producer that counts them on the way (the bit-parallel search) gives
	// too; Pairs and Sum are its totals.
	Hist []int64
}

// BriefOf returns the Brief of exact rows.
func BriefOf(rows []Row) *Brief {
	b := NewBrief(len(rows))
	for u := range rows {
		r := &rows[u]
		if r.Reach > 0 {
			b.Ecc[u] = r.MaxI
		}
		b.Reach[u] = int32(r.Reach)
		b.Sum.AddWide(r.Sum)
		b.Pairs += r.Reach
	}
	return b
}

// NewBrief returns a zero Brief of n sources, reusing one given back by
// Release where one is large enough.
func NewBrief(n int) *Brief {
	b := BriefToFill(n)
	clear(b.Ecc)
	clear(b.Reach)
	return b
}

// BriefToFill is NewBrief for a producer that sets every Ecc and Reach
// entry: those of a reused Brief hold what they held (the rest is zero).
// Clearing them was lines fetched from every core that wrote them last.
func BriefToFill(n int) *Brief {
	if b, _ := briefs.Get().(*Brief); b != nil && cap(b.Ecc) >= n && cap(b.Reach) >= n {
		*b = Brief{Ecc: b.Ecc[:n], Reach: b.Reach[:n]}
		return b
	}
	return &Brief{Ecc: make([]int64, n), Reach: make([]int32, n)}
}

// Release gives b back for a later NewBrief; b must not be used after. A
// search loop makes a Brief a call: reusing it saves the allocation, which
// cost more than clearing (fresh pages fault when first touched).
func (b *Brief) Release() { briefs.Put(b) }

// briefs holds released Briefs (a sync.Pool: the collector empties it when
// calls stop). No result depends on it: NewBrief hands out zeroed Briefs,
// and BriefToFill's callers set every entry (an entry missed would hold an
// earlier call's value).
var briefs sync.Pool
