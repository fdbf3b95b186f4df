// Package lanes owns apsp's lane kinds: the element types a distance matrix
// is computed in (int8, int16, int32, int64, float32, float64), their
// infinities, byte sizes and packing, the planning that proves from the
// weights which kinds hold every path length exactly, and the dense Matrix
// that holds the distances, generic (Matrix[T]) or type-erased (Any).
//
// Every property of a kind comes from one table (kind.go); adding a kind is
// a table entry, its Go type in KindOf and New, and its kernels. Nothing
// outside this package and the kernels should switch over kinds.
//
// The exactness rules:
//   - An integer kind's infinity is half its range minus one (int8 2^6−1,
//     int16 2^14−1, int32 2^30−1, int64 2^62−1), so that the sum of two
//     stored values, infinity included, never overflows.
//   - PlanFor bounds every simple path's length from the weights
//     (MaxReal above, MinReal below); an integer kind holds the distances
//     when the span MaxReal−MinReal is below its infinity. Then infinity
//     plus any negative length stays above every real distance, and
//     Normalize maps those values back to infinity after the run.
//   - Non-negative weights whose lengths reach beyond int64's half range
//     still fit a wide int64 plan (Plan.Wide): infinity is then InfWide
//     (math.MinInt64) and only engines whose sums are simple paths' lengths
//     or guarded against overflow may run.
//   - Float path lengths must stay far from overflow (FloatLimit), since an
//     overflowed sum is +Inf, which reads as "no path".
//   - The packed kinds (int8, int16; Kind.Packed) are offered only by
//     Floyd–Warshall engines, whose every step stores min(d, a+b) of stored
//     values. For them, with non-negative weights, the distances alone must
//     stay below the infinity (not every simple path): Plan.Tighten proves
//     such a bound cheaply (one or two searches), and Holds refuses packed
//     kinds for negative weights. An engine that offers a packed kind must
//     keep that form of update (fitsPacked has the proof).
package lanes
