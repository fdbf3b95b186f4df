package minplus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

type (
	tileFunc[T number] func(c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int)
	rowFunc[T number]  func(dst, src []T, x T)
)

// testImpl is one implementation of every kernel, shape-checked callers
// excepted (those only come through the exported API).
type testImpl struct {
	name string
	i8   tileFunc[int8]
	i16  tileFunc[int16]
	p8   tileFunc[int8]  // Int8Pre's kernel behind ExpandInt8
	p16  tileFunc[int16] // Int16Pre's kernel behind ExpandInt16
	i32  tileFunc[int32]
	i64  tileFunc[int64]
	f64  tileFunc[float64]
	r8   rowFunc[int8]
	r16  rowFunc[int16]
	r32  rowFunc[int32]
	r64  rowFunc[int64]
	rf64 rowFunc[float64]
}

func genericImpl() testImpl {
	return testImpl{
		name: "generic",
		i8:   mulGeneric[int8], i16: mulGeneric[int16], r8: relaxRowGeneric[int8], r16: relaxRowGeneric[int16],
		p8: pre8(mulPre[int8]), p16: pre16(mulPre[int16]),
		i32: mulGeneric[int32], i64: mulGeneric[int64], f64: mulGeneric[float64],
		r32: relaxRowGeneric[int32], r64: relaxRowGeneric[int64], rf64: relaxRowGeneric[float64],
	}
}

// apiImpl is what callers get (Impl()'s choice behind the shape checks).
func apiImpl() testImpl {
	return testImpl{
		name: "api",
		i8:   Int8, i16: Int16, r8: RelaxRowInt8, r16: RelaxRowInt16,
		p8: pre8(Int8Pre), p16: pre16(Int16Pre),
		i32: Int32, i64: Int64, f64: Float64,
		r32: RelaxRowInt32, r64: RelaxRowInt64, rf64: RelaxRowFloat64,
	}
}

type (
	preFunc8  func(c []int8, ldc int, a []int32, lda int, b []int8, ldb int, rows, cols, depth int)
	preFunc16 func(c []int16, ldc int, a []int32, lda int, b []int16, ldb int, rows, cols, depth int)
)

// pre8 and pre16 make a kernel of an expanded A a plain tile function, so
// that the same checks run on it.
func pre8(f preFunc8) tileFunc[int8] {
	return func(c []int8, ldc int, a []int8, lda int, b []int8, ldb int, rows, cols, depth int) {
		x := make([]int32, rows*depth)
		ExpandInt8(x, a, lda, rows, depth)
		f(c, ldc, x, depth, b, ldb, rows, cols, depth)
	}
}

func pre16(f preFunc16) tileFunc[int16] {
	return func(c []int16, ldc int, a []int16, lda int, b []int16, ldb int, rows, cols, depth int) {
		x := make([]int32, rows*depth)
		ExpandInt16(x, a, lda, rows, depth)
		f(c, ldc, x, depth, b, ldb, rows, cols, depth)
	}
}

// refMul is the obvious triple loop, the definition the kernels must match.
func refMul[T number](c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int) {
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			v := c[i*ldc+j]
			for k := 0; k < depth; k++ {
				if s := a[i*lda+k] + b[k*ldb+j]; s < v {
					v = s
				}
			}
			c[i*ldc+j] = v
		}
	}
}

// gen draws test values: mostly ordinary negative and positive numbers,
// some at the edges of the caller's range, some "infinity".
type gen[T number] struct {
	rng  *rand.Rand
	draw func(*rand.Rand) T
}

const (
	inf32 = 1<<30 - 1
	inf64 = 1<<62 - 1
)

func int32Gen(seed uint64) gen[int32] {
	return gen[int32]{rand.New(rand.NewPCG(seed, 1)), func(r *rand.Rand) int32 {
		switch r.IntN(10) {
		case 0:
			return inf32
		case 1:
			return -(1 << 29) + r.Int32N(4)
		case 2:
			return inf32 - r.Int32N(4)
		case 3:
			return r.Int32N(7) - 3
		}
		return -(1 << 29) + r.Int32N(inf32+(1<<29)+1)
	}}
}

// The packed gens draw mostly from the kernels' contract (0 up to the
// lane's infinity, whose sums fit), with some negatives and the extremes:
// the kernels wrap exactly as Go does, so any value must match the reference.
func int8Gen(seed uint64) gen[int8] {
	return gen[int8]{rand.New(rand.NewPCG(seed, 4)), func(r *rand.Rand) int8 {
		switch r.IntN(10) {
		case 0, 1:
			return 63
		case 2:
			return int8(r.IntN(4))
		case 3:
			return int8(r.IntN(256) - 128)
		}
		return int8(r.IntN(96) - 32)
	}}
}

func int16Gen(seed uint64) gen[int16] {
	return gen[int16]{rand.New(rand.NewPCG(seed, 5)), func(r *rand.Rand) int16 {
		switch r.IntN(10) {
		case 0, 1:
			return 1<<14 - 1
		case 2:
			return int16(r.IntN(4))
		case 3:
			return int16(r.IntN(1<<16) - 1<<15)
		}
		return int16(r.IntN(1<<14+1<<13) - 1<<13)
	}}
}

func int64Gen(seed uint64) gen[int64] {
	return gen[int64]{rand.New(rand.NewPCG(seed, 2)), func(r *rand.Rand) int64 {
		switch r.IntN(10) {
		case 0:
			return inf64
		case 1:
			return -(1 << 61) + r.Int64N(4)
		case 2:
			return inf64 - r.Int64N(4)
		case 3:
			return r.Int64N(7) - 3
		}
		return -(1 << 61) + r.Int64N(inf64+(1<<61)+1)
	}}
}

func float64Gen(seed uint64) gen[float64] {
	return gen[float64]{rand.New(rand.NewPCG(seed, 3)), func(r *rand.Rand) float64 {
		switch r.IntN(12) {
		case 0, 1:
			return math.Inf(1)
		case 2:
			return 0
		case 3:
			return math.Copysign(0, -1)
		case 4:
			return float64(r.IntN(5) - 2) // ties
		case 5:
			return math.MaxFloat64 / 4
		}
		return (r.Float64() - 0.4) * 1e6
	}}
}

func (g gen[T]) fill(s []T) {
	for i := range s {
		s[i] = g.draw(g.rng)
	}
}

// same compares bit patterns so that float results must match to the sign of
// zero.
func same[T number](x, y T) bool {
	switch v := any(x).(type) {
	case float64:
		return math.Float64bits(v) == math.Float64bits(any(y).(float64))
	}
	return x == y
}

const guard = 37 // elements of sentinel around each operand

// guarded returns an n-element slice inside a larger random backing array
// and the backing array, so writes outside the slice can be detected.
func guarded[T number](g gen[T], n int) (s, backing []T) {
	backing = make([]T, n+2*guard)
	g.fill(backing)
	return backing[guard : guard+n : guard+n], backing
}

type shape struct{ rows, cols, depth, ldc, lda, ldb int }

func (s shape) String() string {
	return fmt.Sprintf("%dx%dx%d/ld=%d,%d,%d", s.rows, s.cols, s.depth, s.ldc, s.lda, s.ldb)
}

// shapes covers every register-block remainder, aligned and unaligned column
// counts, tight and padded strides, and some random shapes.
func shapes() []shape {
	var l []shape
	rowsList := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 31, 64, 70}
	colsList := []int{1, 7, 8, 15, 16, 17, 24, 32, 40, 48, 56, 64, 72, 80, 79, 96, 127, 128, 160, 192, 256, 257}
	depthList := []int{1, 2, 3, 5, 64, 70}
	for _, r := range rowsList {
		for _, c := range colsList {
			l = append(l, shape{r, c, depthList[(r+c)%len(depthList)], c, depthList[(r+c)%len(depthList)], c})
		}
	}
	rng := rand.New(rand.NewPCG(42, 42))
	for range 200 {
		r, d := 1+rng.IntN(70), 1+rng.IntN(70)
		var c int
		if rng.IntN(2) == 0 {
			c = 16 * (1 + rng.IntN(5))
		} else {
			c = 1 + rng.IntN(80)
		}
		l = append(l, shape{r, c, d, c + rng.IntN(3)*rng.IntN(40), d + rng.IntN(3)*rng.IntN(40), c + rng.IntN(3)*rng.IntN(40)})
	}
	return l
}

func checkTile[T number](t *testing.T, name string, f tileFunc[T], g gen[T]) {
	t.Helper()
	for _, s := range shapes() {
		c, cb := guarded(g, (s.rows-1)*s.ldc+s.cols)
		a, ab := guarded(g, (s.rows-1)*s.lda+s.depth)
		b, bb := guarded(g, (s.depth-1)*s.ldb+s.cols)
		want := slices.Clone(cb)
		ab0, bb0 := slices.Clone(ab), slices.Clone(bb)
		refMul(want[guard:], s.ldc, a, s.lda, b, s.ldb, s.rows, s.cols, s.depth)
		f(c, s.ldc, a, s.lda, b, s.ldb, s.rows, s.cols, s.depth)
		if !slices.EqualFunc(ab, ab0, same[T]) || !slices.EqualFunc(bb, bb0, same[T]) {
			t.Fatalf("%s %v: A or B modified", name, s)
		}
		for i := range cb {
			if !same(cb[i], want[i]) {
				t.Fatalf("%s %v: c backing[%d] (row %d col %d) = %v, want %v",
					name, s, i, (i-guard)/s.ldc, (i-guard)%s.ldc, cb[i], want[i])
			}
		}
	}
}

func TestTiles(t *testing.T) {
	for _, im := range testImpls() {
		t.Run(im.name, func(t *testing.T) {
			t.Run("int8", func(t *testing.T) { checkTile(t, im.name, im.i8, int8Gen(7)) })
			t.Run("int16", func(t *testing.T) { checkTile(t, im.name, im.i16, int16Gen(8)) })
			t.Run("int8pre", func(t *testing.T) { checkTile(t, im.name, im.p8, int8Gen(11)) })
			t.Run("int16pre", func(t *testing.T) { checkTile(t, im.name, im.p16, int16Gen(12)) })
			t.Run("int32", func(t *testing.T) { checkTile(t, im.name, im.i32, int32Gen(1)) })
			t.Run("int64", func(t *testing.T) { checkTile(t, im.name, im.i64, int64Gen(2)) })
			t.Run("float64", func(t *testing.T) { checkTile(t, im.name, im.f64, float64Gen(3)) })
		})
	}
}

func checkRow[T number](t *testing.T, name string, f rowFunc[T], g gen[T]) {
	t.Helper()
	for n := 0; n <= 300; n++ {
		x := g.draw(g.rng)
		// Separate dst and a longer src.
		dst, db := guarded(g, n)
		src, _ := guarded(g, n+g.rng.IntN(9))
		want := slices.Clone(db)
		relaxRowRef(want[guard:guard+n], src, x)
		f(dst, src, x)
		if !slices.EqualFunc(db, want, same[T]) {
			t.Fatalf("%s n=%d x=%v: got %v, want %v", name, n, x, db, want)
		}
		// In place: dst and src are the same slice.
		want = slices.Clone(db)
		relaxRowRef(want[guard:guard+n], slices.Clone(want[guard:guard+n]), x)
		f(dst, dst, x)
		if !slices.EqualFunc(db, want, same[T]) {
			t.Fatalf("%s n=%d x=%v in place: got %v, want %v", name, n, x, db, want)
		}
	}
}

func relaxRowRef[T number](dst, src []T, x T) {
	for j := range dst {
		if s := x + src[j]; s < dst[j] {
			dst[j] = s
		}
	}
}

func TestRelaxRow(t *testing.T) {
	for _, im := range testImpls() {
		t.Run(im.name, func(t *testing.T) {
			t.Run("int8", func(t *testing.T) { checkRow(t, im.name, im.r8, int8Gen(9)) })
			t.Run("int16", func(t *testing.T) { checkRow(t, im.name, im.r16, int16Gen(10)) })
			t.Run("int32", func(t *testing.T) { checkRow(t, im.name, im.r32, int32Gen(4)) })
			t.Run("int64", func(t *testing.T) { checkRow(t, im.name, im.r64, int64Gen(5)) })
			t.Run("float64", func(t *testing.T) { checkRow(t, im.name, im.rf64, float64Gen(6)) })
		})
	}
}

func TestInfinityPropagates(t *testing.T) {
	inf := math.Inf(1)
	c := []float64{inf, 5, inf, -3, inf, inf, inf, 7}
	a := []float64{inf}
	b := []float64{1, 2, inf, inf, -1e300, 0, 3, 4}
	Float64(c, 8, a, 1, b, 8, 1, 8, 1)
	want := []float64{inf, 5, inf, -3, inf, inf, inf, 7}
	if !slices.Equal(c, want) {
		t.Fatalf("got %v, want %v", c, want)
	}
}

func TestShapeChecks(t *testing.T) {
	c := make([]int32, 16*4)
	a := make([]int32, 4*4)
	b := make([]int32, 4*16)
	Int32(c, 16, a, 4, b, 16, 4, 16, 4) // exact fit is fine
	Int32(nil, 0, nil, 0, nil, 0, 0, 16, 4)
	Int32(nil, 0, nil, 0, nil, 0, 4, 0, 4)
	Int32(nil, 0, nil, 0, nil, 0, 4, 16, 0)
	bad := []struct {
		name string
		f    func()
	}{
		{"short c", func() { Int32(c[:len(c)-1], 16, a, 4, b, 16, 4, 16, 4) }},
		{"short a", func() { Int32(c, 16, a[:len(a)-1], 4, b, 16, 4, 16, 4) }},
		{"short b", func() { Int32(c, 16, a, 4, b[:len(b)-1], 16, 4, 16, 4) }},
		{"ldc < cols", func() { Int32(c, 8, a, 4, b, 16, 4, 16, 4) }},
		{"lda < depth", func() { Int32(c, 16, a, 2, b, 16, 4, 16, 4) }},
		{"ldb < cols", func() { Int32(c, 16, a, 4, b, 8, 4, 16, 4) }},
		{"short src", func() { RelaxRowInt32(c, a, 1) }},
	}
	for _, tc := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.f()
		}()
	}
}

func TestImpl(t *testing.T) {
	switch Impl() {
	case "avx512", "avx2", "generic":
	default:
		t.Fatalf("Impl() = %q", Impl())
	}
	t.Logf("Impl() = %s", Impl())
}
