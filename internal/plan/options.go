package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// Raw is the caller's options as written (apsp.Options has the same
// fields, so it converts to Raw): strings for the algorithm, device and
// lanes. Parse reads them once; nothing below reads them again.
type Raw struct {
	Algorithm string
	Threads   int
	Tile      int
	Reachable bool
	Paths     bool
	Progress  func(fraction float64)
	Device    string
	Notice    func(string)
	Lanes     string
	Mode      string
	Effective float64
	Sources   []int
}

// Options are the caller's options parsed: the engine named (or auto, or
// the bounds method), the device, the lanes, the threads. They are made
// once per entry-point call (an Evaluator's, once for all its calls) and
// only read afterwards.
type Options struct {
	// Engine is the engine named; nil under "auto" and for the bounds
	// method (Bounds).
	Engine engine.Engine
	// Bounds says the bounds method was named: it answers the diameter
	// and radius only, so only the extremes take it.
	Bounds bool
	Device Device
	// Lanes is the lane kind named, when LanesNamed; otherwise each
	// engine's narrowest that the graph allows.
	Lanes      lanes.Kind
	LanesNamed bool
	// Threads is the CPU threads the caller allows; 0 is every CPU the
	// process may run on when the work runs (CPUs).
	Threads   int
	Tile      int
	Reachable bool
	Paths     bool
	Progress  func(float64)
	Notice    func(string)
	// Mode is the mode named for the per-vertex measures of a directed
	// graph (ModeDefault: each measure's own).
	Mode Mode
	// Effective is the ratio of the effective diameters Stats adds, in
	// (0, 1]; 0 adds none.
	Effective float64
	// Sources, when not nil, are the vertices the per-vertex measures
	// answer for, in order (checked against the graph where it is known).
	Sources []int32
}

// CPUs is the threads the caller allows, 0 (every CPU) counted now: an
// Evaluator's calls follow GOMAXPROCS as it changes.
func (o *Options) CPUs() int { return par.Threads(o.Threads) }

// Auto reports whether the engine is left to the planner.
func (o *Options) Auto() bool { return o.Engine == nil && !o.Bounds }

// Parse reads and checks r without a graph: the device, the algorithm's
// name, an algorithm on the wrong device, lanes it does not offer, the
// tile and the threads. Errors wrap ErrInvalid. It is the one place that
// reads the option strings.
func Parse(r Raw) (*Options, error) {
	dev, err := ParseDevice(r.Device)
	if err != nil {
		return nil, err
	}
	if r.Threads < 0 {
		return nil, invalid("threads", "%d: want 0 (all) or more", r.Threads)
	}
	if err := cpu.CheckTile(r.Tile); err != nil {
		return nil, invalid("tile", "%v", err)
	}
	mode, err := ParseMode(r.Mode)
	if err != nil {
		return nil, err
	}
	if !(r.Effective >= 0 && r.Effective <= 1) { // NaN too
		return nil, invalid("effective", "%v: want a ratio in (0, 1], or 0 for none", r.Effective)
	}
	o := &Options{Device: dev, Threads: r.Threads, Tile: r.Tile, Reachable: r.Reachable, Paths: r.Paths,
		Progress: r.Progress, Notice: r.Notice, Mode: mode, Effective: r.Effective}
	if r.Sources != nil {
		o.Sources = make([]int32, len(r.Sources))
		for i, s := range r.Sources {
			if s < 0 || s >= math.MaxInt32 {
				return nil, invalid("sources", "vertex %d out of range", s)
			}
			o.Sources[i] = int32(s)
		}
	}
	if r.Lanes != "" && r.Lanes != "auto" {
		k, err := lanes.ParseKind(r.Lanes)
		if err != nil {
			return nil, invalid("lanes", "%v (or auto)", err)
		}
		o.Lanes, o.LanesNamed = k, true
	}
	switch r.Algorithm {
	case "", "auto":
		return o, nil
	case BoundsAlgorithm:
		if dev.Kind == "gpu" {
			return nil, invalid("algorithm", "bounds runs on the CPU, but the device is %s", dev)
		}
		if o.LanesNamed && o.Lanes != lanes.Int32 {
			return nil, invalid("lanes", "bounds computes in int32 lanes, not %s", o.Lanes)
		}
		o.Bounds = true
		return o, nil
	}
	e, ok := engine.ByName(r.Algorithm)
	if !ok {
		return nil, invalid("algorithm", "unknown: %q (have %s)", r.Algorithm, strings.Join(Algorithms(), ", "))
	}
	if c := e.Caps(); o.LanesNamed && !slices.Contains(c.Lanes, o.Lanes) {
		return nil, invalid("lanes", "%s computes in %s lanes, not %s", e.Name(), kindNames(c.Lanes), o.Lanes)
	}
	if err := deviceConflict(e, dev); err != nil {
		return nil, err
	}
	o.Engine = e
	return o, nil
}

// CheckSources returns an error when a source is not a vertex of a graph
// of n vertices.
func (o *Options) CheckSources(n int) error {
	for _, s := range o.Sources {
		if int(s) >= n {
			return invalid("sources", "vertex %d out of range 0..%d", s, n-1)
		}
	}
	return nil
}

// NoSources returns an error for an entry point that answers for every
// vertex (what), given chosen sources, else nil.
func (o *Options) NoSources(what string) error {
	if o.Sources != nil {
		return invalid("sources", "%s answers for every vertex; chosen sources go to the per-vertex measures and DistancesFrom", what)
	}
	return nil
}

// ErrBoundsOnly is the error of an entry point other than the extremes
// given the bounds method.
func ErrBoundsOnly() error {
	return invalid("algorithm", "bounds computes only the diameter and radius (apsp diameter, apsp stats --no-aspl)")
}

// Validate is Parse for a caller that only checks: with extremes false the
// bounds method is refused, as every entry point but the extremes does.
func Validate(r Raw, extremes bool) error {
	o, err := Parse(r)
	if err == nil && o.Bounds && !extremes {
		err = ErrBoundsOnly()
	}
	return err
}

// String writes d as ParseDevice reads it.
func (d Device) String() string {
	switch {
	case d.Kind != "gpu":
		return d.Kind
	case d.All:
		return "gpu:all"
	case len(d.Ordinals) > 1:
		parts := make([]string, len(d.Ordinals))
		for i, n := range d.Ordinals {
			parts[i] = strconv.Itoa(n)
		}
		return "gpu:" + strings.Join(parts, ",")
	case d.Numbered:
		return fmt.Sprintf("gpu:%d", d.Ordinal)
	}
	return "gpu"
}
