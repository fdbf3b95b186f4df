package gen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/apsp/apsp/graph"
)

// weightRange is a parsed weights=LO..HI; kind Unweighted when absent.
type weightRange struct {
	kind     graph.WeightKind
	lo, hi   int64   // IntWeights: the closed range [lo, hi]
	flo, fhi float64 // FloatWeights: the half-open range [flo, fhi)
}

var errWeights = errors.New("want LO..HI, such as 1..100 or 0.5..2.0")

// parseWeights parses "LO..HI". Both ends integers give integer weights;
// either with a decimal point or an exponent gives float weights.
func parseWeights(s string) (weightRange, error) {
	los, his, ok := strings.Cut(s, "..")
	if !ok || los == "" || his == "" {
		return weightRange{}, errWeights
	}
	if isIntLiteral(los) && isIntLiteral(his) {
		lo, err1 := strconv.ParseInt(los, 10, 64)
		hi, err2 := strconv.ParseInt(his, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return weightRange{}, fmt.Errorf("an end does not fit in a 64-bit integer: %w", err)
		}
		if lo > hi {
			return weightRange{}, fmt.Errorf("LO %d is above HI %d", lo, hi)
		}
		return weightRange{kind: graph.IntWeights, lo: lo, hi: hi}, nil
	}
	lo, err := parseFloat(los)
	if err != nil {
		return weightRange{}, err
	}
	hi, err := parseFloat(his)
	if err != nil {
		return weightRange{}, err
	}
	if lo > hi {
		return weightRange{}, fmt.Errorf("LO %v is above HI %v", lo, hi)
	}
	if math.IsInf(hi-lo, 0) {
		return weightRange{}, fmt.Errorf("the range %v..%v is too wide for float64", lo, hi)
	}
	return weightRange{kind: graph.FloatWeights, flo: lo, fhi: hi}, nil
}

// isIntLiteral reports whether s is an optional sign followed by digits.
func isIntLiteral(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseFloat parses a finite decimal float; underscores, hex, Inf and NaN are
// refused as they are surely mistakes in a weight range.
func parseFloat(s string) (float64, error) {
	if strings.ContainsAny(s, "_xXpP") {
		return 0, fmt.Errorf("bad number %q: %w", s, errWeights)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q: %w", s, errWeights)
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return x, nil
}

// parsePercent parses gnp's r, a percentage in (0, 100].
func parsePercent(s string) (float64, error) {
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "_xXpP") {
		return 0, errors.New("want a percentage such as 5 or 0.05")
	}
	if !(r > 0 && r <= 100) { // also refuses NaN
		return 0, errors.New("want a percentage above 0 and at most 100")
	}
	return r, nil
}

// drawInt returns a uniform integer in [lo, hi].
func (w *weightRange) drawInt(rng *rand.Rand) int64 {
	span := uint64(w.hi) - uint64(w.lo) // hi-lo without overflow
	if span == math.MaxUint64 {
		return int64(rng.Uint64())
	}
	return w.lo + int64(rng.Uint64N(span+1)) // wraps to the right value
}

// drawFloat returns a uniform float in [lo, hi), or lo when lo == hi.
func (w *weightRange) drawFloat(rng *rand.Rand) float64 {
	x := w.flo + (w.fhi-w.flo)*rng.Float64()
	if x >= w.fhi && w.fhi > w.flo { // rounding can reach hi
		x = math.Nextafter(w.fhi, w.flo)
	}
	return x
}
