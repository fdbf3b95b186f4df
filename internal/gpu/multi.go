package gpu

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// Several GPUs (gpu:all, gpu:0,1): gpu-bitbfs and gpu-sssp search from
// independent sources, so their sources are dealt out to the GPUs listed
// (SplitWork, OnEach) and each GPU's partial totals are merged on the host
// by the family. The merge is exact (integer sums and counts add,
// eccentricities take the maximum, float sums of a source come from one
// GPU alone and add to zeros), so the result is bit-identical to one GPU's
// whatever the split.

// Span is a half-open range [Lo, Hi) of work units: batches of sources for
// gpu-bitbfs, sources for gpu-sssp.
type Span struct{ Lo, Hi int }

// SplitWork deals the units [0, total) to k workers: chunks of unit
// consecutive units (fewer where that leaves a worker without one), chunk j
// to worker j mod k, so that a worker's share is spread over the whole
// range (neighbouring sources cost alike; distant ones need not). One
// worker takes everything as one span. Workers beyond the chunks get none.
func SplitWork(total, unit, k int) [][]Span {
	out := make([][]Span, max(k, 0))
	if total <= 0 || k <= 0 {
		return out
	}
	if k == 1 {
		out[0] = []Span{{0, total}}
		return out
	}
	unit = max(1, min(unit, (total+k-1)/k))
	for j, lo := 0, 0; lo < total; j, lo = j+1, lo+unit {
		w := j % k
		out[w] = append(out[w], Span{lo, min(lo+unit, total)})
	}
	return out
}

// units counts the units of spans.
func units(spans []Span) int {
	n := 0
	for _, s := range spans {
		n += s.Hi - s.Lo
	}
	return n
}

// ErrDuplicateGPU is wrapped when a list of GPUs names one twice.
var ErrDuplicateGPU = errors.New("GPU listed twice")

// CheckAll says whether every GPU of ordinals exists (matching ErrNoGPU
// for the first that does not, as Check) and none is listed twice.
func CheckAll(ordinals []int) error {
	if len(ordinals) == 0 {
		return errors.New("no GPU listed")
	}
	for i, o := range ordinals {
		if slices.Contains(ordinals[:i], o) {
			return fmt.Errorf("gpu:%d: %w", o, ErrDuplicateGPU)
		}
		if err := Check(o); err != nil {
			return err
		}
	}
	return nil
}

// Visible lists the ordinals of every GPU the driver sees (what gpu:all
// means), or says why there are none (matching ErrNoGPU).
func Visible() ([]int, error) {
	infos, err := Devices()
	if err != nil {
		return nil, err
	}
	if len(infos) == 0 {
		return nil, Check(0)
	}
	out := make([]int, len(infos))
	for i, in := range infos {
		out[i] = in.Ordinal
	}
	return out, nil
}

// OnEach runs work(i, call) for every worker i with work on GPU
// ordinals[i], all at once: one goroutine an ordinal, each call on that
// GPU's owner goroutine (a GPU listed twice, as tests do on one GPU, runs
// its calls one after the other). The first failure cancels the others and
// is the error returned, naming its GPU when there are several; devs[i] is
// nil for a worker without work or whose GPU did not open.
func OnEach(ctx context.Context, ordinals []int, has func(i int) bool, work func(i int, c *gpurt.Call) error) ([]*gpurt.Device, error) {
	devs := make([]*gpurt.Device, len(ordinals))
	if len(ordinals) == 1 {
		if !has(0) {
			return devs, nil
		}
		d, err := Do(ctx, ordinals[0], func(c *gpurt.Call) error { return work(0, c) })
		devs[0] = d
		return devs, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(ordinals))
	var wg sync.WaitGroup
	for i, o := range ordinals {
		if !has(i) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := Do(ctx, o, func(c *gpurt.Call) error { return work(i, c) })
			devs[i] = d
			if err != nil {
				errs[i] = fmt.Errorf("gpu:%d: %w", o, err)
				cancel()
			}
		}()
	}
	wg.Wait()
	// The failure that cancelled the others, rather than their
	// cancellation, unless the caller cancelled.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return devs, err
		}
	}
	return devs, errors.Join(errs...)
}

// DeviceName names the GPUs that ran: one GPU's name, or "2× NAME
// (gpu:0,1)" for several alike, or their names joined.
func DeviceName(ordinals []int, devs []*gpurt.Device) string {
	var names []string
	var used []string
	for i, d := range devs {
		if d != nil {
			names = append(names, d.Info.Name)
			used = append(used, strconv.Itoa(ordinals[i]))
		}
	}
	switch {
	case len(names) == 0:
		return ""
	case len(ordinals) == 1:
		return names[0]
	}
	list := "gpu:" + strings.Join(used, ",")
	if len(names) == 1 {
		return names[0] + " (" + list + ")"
	}
	if slices.Equal(names, slices.Repeat(names[:1], len(names))) {
		return fmt.Sprintf("%d× %s (%s)", len(names), names[0], list)
	}
	return strings.Join(names, " + ") + " (" + list + ")"
}

// Parallel runs f(i) for i in [0, n) on up to GOMAXPROCS goroutines, in
// contiguous parts of at least minPart.
func Parallel(n, minPart int, f func(lo, hi int)) {
	workers := max(1, min(goruntime.GOMAXPROCS(0), n/max(1, minPart)))
	if workers == 1 {
		f(0, n)
		return
	}
	part := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += part {
		hi := min(lo+part, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// Slowest is the timing of the GPU whose total was longest.
func Slowest[T any](ts []T, total func(T) float64) T {
	var out T
	best := -1.0
	for _, t := range ts {
		if x := total(t); x > best {
			out, best = t, x
		}
	}
	return out
}
