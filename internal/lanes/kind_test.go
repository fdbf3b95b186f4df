package lanes

import (
	"math"
	"strings"
	"testing"
)

// TestTable checks every kind's properties against the documented rules.
func TestTable(t *testing.T) {
	tests := []struct {
		kind   Kind
		name   string
		bytes  int
		float  bool
		inf    int64
		packed int
	}{
		{Int8, "int8", 1, false, 1<<6 - 1, 4},
		{Int16, "int16", 2, false, 1<<14 - 1, 2},
		{Int32, "int32", 4, false, 1<<30 - 1, 1},
		{Int64, "int64", 8, false, 1<<62 - 1, 1},
		{Float32, "float32", 4, true, 0, 1},
		{Float64, "float64", 8, true, 0, 1},
	}
	if got := Kinds(); len(got) != len(tests) {
		t.Fatalf("Kinds() = %v, want %d kinds", got, len(tests))
	}
	for i, tt := range tests {
		k := tt.kind
		if Kinds()[i] != k || !k.Valid() {
			t.Errorf("Kinds()[%d] = %v, want %v", i, Kinds()[i], k)
		}
		if k.String() != tt.name || k.Bytes() != tt.bytes || k.IsFloat() != tt.float || k.InfInt() != tt.inf || k.SpanBound() != tt.inf || k.Packed() != tt.packed {
			t.Errorf("%v: name %q bytes %d float %v inf %d span %d packed %d, want %+v", k, k.String(), k.Bytes(), k.IsFloat(), k.InfInt(), k.SpanBound(), k.Packed(), tt)
		}
		if p, err := ParseKind(tt.name); err != nil || p != k {
			t.Errorf("ParseKind(%q) = %v, %v", tt.name, p, err)
		}
		if k.Packed()*k.Bytes() > 4 && k.Packed() != 1 {
			t.Errorf("%v: %d lanes of %d bytes do not pack into 32 bits", k, k.Packed(), k.Bytes())
		}
		switch {
		case tt.float:
			if !math.IsInf(k.InfFloat(), 1) {
				t.Errorf("%v: InfFloat %v", k, k.InfFloat())
			}
		default:
			// Half the range: two infinities add without overflow, and
			// so do two of the most negative real values (> −Inf).
			bits := 8 * k.Bytes()
			if bits < 64 && (2*tt.inf > 1<<(bits-1)-1 || -2*tt.inf < -(1<<(bits-1))) {
				t.Errorf("%v: 2·Inf overflows %d bits", k, bits)
			}
			if k.InfFloat() != float64(tt.inf) {
				t.Errorf("%v: InfFloat %v", k, k.InfFloat())
			}
		}
	}
	if Inf8 != 63 || Inf16 != 16383 || Inf32 != 1<<30-1 || Inf64 != 1<<62-1 || InfWide != math.MinInt64 {
		t.Error("infinity constants")
	}
	var zero Kind
	if zero.Valid() || zero.String() != "Kind(0)" || zero.Bytes() != 0 || Kind(99).String() != "Kind(99)" {
		t.Errorf("invalid kinds: %v %v", zero, Kind(99))
	}
	if _, err := ParseKind("int128"); err == nil || !strings.Contains(err.Error(), "int8, int16, int32, int64, float32, float64") {
		t.Errorf("ParseKind(int128): %v", err)
	}
}

// TestGoTypes checks KindOf, InfOf and Lowest for each lane type, and that
// the sum of two stored values (infinity included) never overflows.
func TestGoTypes(t *testing.T) {
	checkType[int8](t, Int8, math.MinInt8)
	checkType[int16](t, Int16, math.MinInt16)
	checkType[int32](t, Int32, math.MinInt32)
	checkType[int64](t, Int64, math.MinInt64)
	checkType[float32](t, Float32, math.Inf(-1))
	checkType[float64](t, Float64, math.Inf(-1))
	type distance int16 // a named type: KindOf looks through it
	checkType[distance](t, Int16, math.MinInt16)
}

func checkType[T Lane](t *testing.T, k Kind, lowest float64) {
	t.Helper()
	if got := KindOf[T](); got != k {
		t.Fatalf("KindOf = %v, want %v", got, k)
	}
	inf := InfOf[T]()
	if float64(inf) != k.InfFloat() {
		t.Errorf("%v: InfOf = %v, want %v", k, inf, k.InfFloat())
	}
	if float64(Lowest[T]()) != lowest {
		t.Errorf("%v: Lowest = %v, want %v", k, Lowest[T](), lowest)
	}
	if sum := inf + inf; sum < inf {
		t.Errorf("%v: Inf+Inf = %v overflows", k, sum)
	}
	if neg := -inf; neg+neg > neg {
		t.Errorf("%v: −Inf−Inf = %v overflows", k, neg+neg)
	}
}
