package plan

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
)

// ErrInvalid is wrapped by every error about the request itself (an
// unknown algorithm or device, an algorithm on the wrong device, a tile the
// engine cannot use, the bounds method for more than it answers).
var ErrInvalid = errors.New("invalid options")

// OptionError is an invalid option: which one (Option: "algorithm",
// "device", "threads", "tile" or "lanes") and why. It wraps ErrInvalid.
type OptionError struct {
	Option string
	Msg    string
}

func (e *OptionError) Error() string { return "invalid " + e.Option + ": " + e.Msg }

// Unwrap returns ErrInvalid.
func (e *OptionError) Unwrap() error { return ErrInvalid }

func invalid(option, format string, args ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, args...)}
}

// Device is a parsed device request.
type Device struct {
	Kind    string // "auto", "cpu" or "gpu"
	Ordinal int    // the GPU number for "gpu:N" (0 for "gpu")
}

// ParseDevice reads "", "auto", "cpu", "gpu" or "gpu:N"; it is the one
// parser of device strings.
func ParseDevice(s string) (Device, error) {
	switch {
	case s == "" || s == "auto":
		return Device{Kind: "auto"}, nil
	case s == "cpu":
		return Device{Kind: "cpu"}, nil
	case s == "gpu":
		return Device{Kind: "gpu"}, nil
	case strings.HasPrefix(s, "gpu:"):
		n, err := strconv.Atoi(s[4:])
		if err != nil || n < 0 {
			return Device{}, invalid("device", "%q: want gpu:N with N a GPU number", s)
		}
		return Device{Kind: "gpu", Ordinal: n}, nil
	}
	return Device{}, invalid("device", "%q: want auto, cpu, gpu or gpu:N", s)
}

// Validate checks what can be checked of req without the graph: the device
// string, the algorithm's name, an algorithm asked for on the wrong device,
// the tile, and the bounds method outside extremes (diameter and radius
// only). Errors wrap ErrInvalid.
func Validate(req Request, extremes bool) error {
	dev, err := ParseDevice(req.Device)
	if err != nil {
		return err
	}
	if req.Threads < 0 {
		return invalid("threads", "%d: want 0 (all) or more", req.Threads)
	}
	if err := cpu.CheckTile(req.Tile); err != nil {
		return invalid("tile", "%v", err)
	}
	if req.Lanes != "" && req.Lanes != "auto" {
		if _, err := lanes.ParseKind(req.Lanes); err != nil {
			return invalid("lanes", "%v (or auto)", err)
		}
	}
	k, forced := forcedLanes(req)
	switch req.Algorithm {
	case "", "auto":
		return nil
	case BoundsAlgorithm:
		if !extremes {
			return invalid("algorithm", "bounds computes only the diameter and radius (apsp diameter, apsp stats --no-aspl)")
		}
		if dev.Kind == "gpu" {
			return invalid("algorithm", "bounds runs on the CPU, but the device is %s", req.Device)
		}
		if forced && k != lanes.Int32 {
			return invalid("lanes", "bounds computes in int32 lanes, not %s", k)
		}
		return nil
	}
	e, ok := engine.ByName(req.Algorithm)
	if !ok {
		return invalid("algorithm", "unknown: %q (have %s)", req.Algorithm, strings.Join(Algorithms(), ", "))
	}
	if c := e.Caps(); forced && !slices.Contains(c.Lanes, k) {
		return invalid("lanes", "%s computes in %s lanes, not %s", e.Name(), kindNames(c.Lanes), k)
	}
	return deviceConflict(e, dev, req.Device)
}

// deviceConflict says when engine e cannot run on the device asked for.
func deviceConflict(e engine.Engine, dev Device, asked string) error {
	onGPU := e.Caps().Device == engine.GPU
	if dev.Kind == "cpu" && onGPU {
		return invalid("algorithm", "%s runs on a GPU, but the device is cpu", e.Name())
	}
	if dev.Kind == "gpu" && !onGPU {
		return invalid("algorithm", "%s runs on the CPU, but the device is %s", e.Name(), asked)
	}
	return nil
}
