package lanes

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Kind names a lane type. The zero Kind is no kind: every method answers
// for it as for an unknown kind (String "Kind(0)", Bytes 0).
type Kind uint8

// The lane kinds, narrowest first within integers and within floats.
const (
	Int8 Kind = iota + 1
	Int16
	Int32
	Int64
	Float32
	Float64
)

// Infinity values of the integer lanes: half the range minus one, so that
// the sum of two stored values never overflows.
const (
	Inf8  int8  = 1<<6 - 1
	Inf16 int16 = 1<<14 - 1
	Inf32 int32 = 1<<30 - 1
	Inf64 int64 = 1<<62 - 1
	// InfWide is the infinity of wide int64 plans (Plan.Wide): the one
	// value no distance takes when weights are non-negative, leaving
	// 0..MaxInt64 to real distances. It is the smallest value, so code that
	// treats infinity as the largest must test for it by equality.
	InfWide int64 = math.MinInt64
)

// props are a kind's properties: the one table below holds them all.
type props struct {
	name  string
	bytes int
	float bool
	// inf is an integer kind's infinity, which is also its span bound: a
	// plan whose path lengths span less than inf (MaxReal−MinReal) fits.
	// Float kinds use +Inf and take no integer plan (0 here).
	inf int64
	// packed is the number of lanes in one 32-bit word of the packed
	// kernels (int8 4, int16 2); 1 for kinds of 32 bits and wider.
	packed int
	// max is a float kind's largest finite value, mantissa its precision in
	// bits, and minWeight the smallest nonzero |weight| it takes (0: any).
	max       float64
	mantissa  int
	minWeight float64
	// goType is the Go type's reflect kind (KindOf).
	goType reflect.Kind
}

// table holds every kind's properties, indexed by Kind.
var table = [...]props{
	Int8:    {name: "int8", bytes: 1, inf: int64(Inf8), packed: 4, goType: reflect.Int8},
	Int16:   {name: "int16", bytes: 2, inf: int64(Inf16), packed: 2, goType: reflect.Int16},
	Int32:   {name: "int32", bytes: 4, inf: int64(Inf32), packed: 1, goType: reflect.Int32},
	Int64:   {name: "int64", bytes: 8, inf: Inf64, packed: 1, goType: reflect.Int64},
	Float32: {name: "float32", bytes: 4, float: true, packed: 1, max: math.MaxFloat32, mantissa: 24, minWeight: 0x1p-126, goType: reflect.Float32},
	// float64 takes subnormal weights, as it always has.
	Float64: {name: "float64", bytes: 8, float: true, packed: 1, max: math.MaxFloat64, mantissa: 53, goType: reflect.Float64},
}

func (k Kind) props() props {
	if k.Valid() {
		return table[k]
	}
	return props{}
}

// Valid reports whether k is one of Kinds().
func (k Kind) Valid() bool { return k > 0 && int(k) < len(table) }

// Kinds returns every lane kind, in table order.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(table)-1)
	for k := Kind(1); int(k) < len(table); k++ {
		ks = append(ks, k)
	}
	return ks
}

// ParseKind returns the kind named name ("int8" … "float64").
func ParseKind(name string) (Kind, error) {
	names := make([]string, 0, len(table))
	for _, k := range Kinds() {
		if table[k].name == name {
			return k, nil
		}
		names = append(names, table[k].name)
	}
	return 0, fmt.Errorf("unknown lane kind %q (want %s)", name, strings.Join(names, ", "))
}

func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return table[k].name
}

// Bytes returns the size of one lane (0 for an invalid kind).
func (k Kind) Bytes() int { return k.props().bytes }

// IsFloat reports a floating-point kind.
func (k Kind) IsFloat() bool { return k.props().float }

// Packed returns how many lanes of k one 32-bit word holds in the packed
// kernels: 4 for int8, 2 for int16, 1 for 32-bit and wider kinds.
func (k Kind) Packed() int { return k.props().packed }

// InfInt returns an integer kind's infinity (Inf8 … Inf64, the value
// matrices hold for "no path" outside wide plans); 0 for float kinds.
func (k Kind) InfInt() int64 { return k.props().inf }

// InfFloat returns k's infinity as a float64: +Inf for float kinds, the
// integer infinity otherwise (Inf64 rounds to 2^62).
func (k Kind) InfFloat() float64 {
	if k.IsFloat() {
		return math.Inf(1)
	}
	return float64(k.InfInt())
}

// SpanBound returns the exclusive bound on the span MaxReal−MinReal of
// integer path lengths that k holds exactly (outside wide plans): its
// infinity. It is 0 for float kinds, which never take integer plans.
func (k Kind) SpanBound() int64 { return k.props().inf }

// lowest returns the smallest value of an integer kind (math.MinInt64
// shifted down to the width).
func (k Kind) lowest() int64 { return math.MinInt64 >> (64 - 8*k.Bytes()) }

// KindOf returns the kind of lane type T.
func KindOf[T Lane]() Kind {
	rk := reflect.TypeFor[T]().Kind()
	for k := Kind(1); int(k) < len(table); k++ {
		if table[k].goType == rk {
			return k
		}
	}
	return 0 // not reached: Lane admits no other type
}

// InfOf returns the infinity of lane type T: the kind's InfInt for integers
// (not InfWide: a wide plan sets Matrix.Inf itself), +Inf for floats.
func InfOf[T Lane]() T {
	k := KindOf[T]()
	if k.IsFloat() {
		inf := math.Inf(1)
		return T(inf)
	}
	inf := k.InfInt()
	return T(inf)
}

// Lowest returns the smallest value of lane type T: its minimum for
// integers, −Inf for floats. Kernels clamp integer underflow to it.
func Lowest[T Lane]() T {
	k := KindOf[T]()
	if k.IsFloat() {
		v := math.Inf(-1)
		return T(v)
	}
	v := k.lowest()
	return T(v)
}
