package reduce

// Totals is what the centralities need of every source u's distances, a
// column each: Reach[u], the vertices v ≠ u it reaches; Sum[u], their
// distances' total as a float64 (rounded once, as Wide.Float rounds an
// exact one); Harm[u], Σ 1/d over those d > 0. An engine that leaves its
// totals in columns (gpu-bitbfs) gives them without building rows of 64
// bytes a source, which at 4 096 vertices cost a tenth of a call; the
// others' rows are turned into them (TotalsOf). The caller owns the
// columns: the centralities are computed into them (result.ClosenessOf).
type Totals struct {
	Reach []int32
	Sum   []float64
	Harm  []float64
}

// NewTotals returns zero totals of n sources.
func NewTotals(n int) *Totals {
	return &Totals{Reach: make([]int32, n), Sum: make([]float64, n), Harm: make([]float64, n)}
}

// TotalsOf is the totals of rows: the exact sums (Sum) when exact, else
// the float ones (SumF).
func TotalsOf(rows []Row, exact bool) *Totals {
	t := NewTotals(len(rows))
	for u, r := range rows {
		t.Reach[u], t.Harm[u] = int32(r.Reach), r.Harm
		if exact {
			t.Sum[u] = r.Sum.Float()
		} else {
			t.Sum[u] = r.SumF
		}
	}
	return t
}
