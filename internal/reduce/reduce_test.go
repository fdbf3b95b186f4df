package reduce

import (
	"math"
	"slices"
	"testing"
)

func TestWide(t *testing.T) {
	tests := []struct {
		name string
		add  []int64
		want float64
	}{
		{"empty", nil, 0},
		{"small", []int64{1, 2, 3}, 6},
		{"negative", []int64{5, -7}, -2},
		{"past int64", []int64{math.MaxInt64, math.MaxInt64, 2}, 2 * float64(math.MaxInt64)},
		{"back below zero", []int64{math.MaxInt64, math.MaxInt64, math.MinInt64, math.MinInt64, -4}, -6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w, half Wide
			for i, v := range tt.add {
				w.Add(v)
				if i%2 == 0 {
					half.Add(v)
				}
			}
			var other Wide
			for i, v := range tt.add {
				if i%2 == 1 {
					other.Add(v)
				}
			}
			half.AddWide(other)
			if w.Float() != tt.want || half.Float() != tt.want {
				t.Fatalf("sum %v (split %v), want %v", w.Float(), half.Float(), tt.want)
			}
		})
	}
}

func TestRow(t *testing.T) {
	var r Row
	for _, d := range []int64{3, 1, 7, 2} {
		r.AddInt(d)
	}
	if r.Reach != 4 || r.MaxI != 7 || r.Sum.Float() != 13 {
		t.Fatalf("%+v", r)
	}
	var f Row
	for _, d := range []float64{-1.5, -0.5} {
		f.AddFloat(d)
	}
	if f.Reach != 2 || f.MaxF != -0.5 || f.SumF != -2 {
		t.Fatalf("%+v", f)
	}
}

// TestBriefOf checks that a Brief keeps what the rows say: eccentricities
// (0 for a source reaching nobody), reach, and the totals.
func TestBriefOf(t *testing.T) {
	rows := []Row{
		{Reach: 2, MaxI: 7, Sum: wideOf(9)},
		{Reach: 0, MaxI: 5, Unreach: true}, // MaxI is meaningless without a reached vertex
		{Reach: 1, MaxI: -3, Sum: wideOf(-3), Unreach: true},
	}
	b := BriefOf(rows)
	for u, want := range []struct {
		ecc   int64
		reach int32
	}{{7, 2}, {0, 0}, {-3, 1}} {
		if b.Ecc[u] != want.ecc || b.Reach[u] != want.reach {
			t.Errorf("source %d: ecc %d reach %d, want %d %d", u, b.Ecc[u], b.Reach[u], want.ecc, want.reach)
		}
	}
	if b.Pairs != 3 || b.Sum.Float() != 6 {
		t.Errorf("pairs %d sum %v, want 3 6", b.Pairs, b.Sum.Float())
	}
}

func wideOf(v int64) Wide {
	var w Wide
	w.Add(v)
	return w
}

// TestAddProduct checks products beyond int64 word by word.
func TestAddProduct(t *testing.T) {
	var w Wide
	w.AddProduct(math.MaxInt64, 4) // 2⁶⁵ − 4
	w.AddProduct(3, 5)             // 2⁶⁵ + 11
	if w.hi != 2 || w.lo != 11 {
		t.Errorf("sum (hi %d, lo %d), want (2, 11)", w.hi, w.lo)
	}
	var z Wide
	z.AddProduct(0, math.MaxInt64)
	if z.Float() != 0 {
		t.Errorf("0·x = %v", z.Float())
	}
}

// TestHistTotals: the pairs and distance total of a histogram, index 0
// left out, beyond int64 where the products are.
func TestHistTotals(t *testing.T) {
	for _, tc := range []struct {
		hist  []int64
		pairs int64
		total float64
	}{
		{nil, 0, 0},
		{[]int64{7}, 0, 0},
		{[]int64{0, 3, 0, 2}, 5, 3 + 6},
		{[]int64{0, 0, math.MaxInt64 / 2}, math.MaxInt64 / 2, 2 * float64(math.MaxInt64/2)},
	} {
		pairs, total := HistTotals(tc.hist)
		if pairs != tc.pairs || total.Float() != tc.total {
			t.Errorf("HistTotals(%v) = %d, %v; want %d, %v", tc.hist, pairs, total.Float(), tc.pairs, tc.total)
		}
	}
}

// TestNewRows: rows given back are handed out again when enough, at the
// length asked, and fresh ones otherwise; rows far larger than asked are
// not (a small result would hold them).
func TestNewRows(t *testing.T) {
	for _, c := range []struct{ first, then, most int }{{0, 0, 64}, {4, 4, 72}, {100, 7, 100}, {3, 50, 164}, {100000, 10, 84}} {
		a := NewRows(c.first)
		if len(a) != c.first {
			t.Fatalf("NewRows(%d): length %d", c.first, len(a))
		}
		ReleaseRows(a)
		b := NewRows(c.then)
		if len(b) != c.then || cap(b) < c.then || cap(b) > c.most {
			t.Fatalf("NewRows(%d) after %d given back: length %d, cap %d (at most %d)", c.then, c.first, len(b), cap(b), c.most)
		}
	}
}

// TestTotalsOf: the totals of rows, exact sums or float ones.
func TestTotalsOf(t *testing.T) {
	big := Row{Reach: 3, Harm: 0.5}
	big.Sum.AddProduct(1<<40, 1<<30) // 2^70: past int64
	for _, c := range []struct {
		name  string
		rows  []Row
		exact bool
		want  Totals
	}{
		{"none", nil, true, Totals{Reach: []int32{}, Sum: []float64{}, Harm: []float64{}}},
		{"exact", []Row{{Reach: 2, Sum: Wide{lo: 5}, SumF: 99, Harm: 1.5}, {}}, true, Totals{Reach: []int32{2, 0}, Sum: []float64{5, 0}, Harm: []float64{1.5, 0}}},
		{"float", []Row{{Reach: 2, Sum: Wide{lo: 5}, SumF: 2.25, Harm: 1.5}}, false, Totals{Reach: []int32{2}, Sum: []float64{2.25}, Harm: []float64{1.5}}},
		{"wide", []Row{big}, true, Totals{Reach: []int32{3}, Sum: []float64{0x1p70}, Harm: []float64{0.5}}},
	} {
		got := TotalsOf(c.rows, c.exact)
		if !slices.Equal(got.Reach, c.want.Reach) || !slices.Equal(got.Sum, c.want.Sum) || !slices.Equal(got.Harm, c.want.Harm) {
			t.Errorf("%s: %+v, want %+v", c.name, *got, c.want)
		}
	}
}
