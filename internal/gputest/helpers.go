package gputest

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/reduce"
)

// Helpers the GPU families' tests share: each family is its own package,
// and tests of one package cannot call another's.

// EnvInt is the positive integer environment variable name holds, or def:
// the sizes and counts a performance test is told to run.
func EnvInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// EnvInts is the comma-separated positive integers name holds (others
// skipped), or def when it is unset.
func EnvInts(name string, def []int) []int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if v, err := strconv.Atoi(f); err == nil && v > 0 {
			out = append(out, v)
		}
	}
	return out
}

// CheckSplit fails t unless spans — k workers' lists of spans, bounds
// giving a span's [lo, hi) — cover [0, total) exactly once, each span
// non-empty and, with several workers, within unit units.
func CheckSplit[S any](t testing.TB, name string, spans [][]S, bounds func(S) (lo, hi int), total, unit, k int) {
	t.Helper()
	if len(spans) != k {
		t.Fatalf("%s: %d workers, want %d", name, len(spans), k)
	}
	seen := make([]int, total)
	for w, ss := range spans {
		for _, s := range ss {
			lo, hi := bounds(s)
			if lo >= hi || lo < 0 || hi > total || (k > 1 && hi-lo > max(unit, 1)) {
				t.Fatalf("%s: worker %d has span [%d, %d)", name, w, lo, hi)
			}
			for u := lo; u < hi; u++ {
				seen[u]++
			}
		}
	}
	for u, c := range seen {
		if c != 1 {
			t.Fatalf("%s: unit %d dealt %d times", name, u, c)
		}
	}
}

// SameRow compares two exact row summaries as a GPU's and the CPU's must
// agree: reach, unreach, the largest distance where any is reached, and
// the distances' total.
func SameRow(a, b reduce.Row) bool {
	return a.Reach == b.Reach && a.Unreach == b.Unreach && (a.Reach == 0 || a.MaxI == b.MaxI) && a.Sum.Float() == b.Sum.Float()
}
