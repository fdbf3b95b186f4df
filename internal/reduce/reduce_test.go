package reduce

import (
	"math"
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
