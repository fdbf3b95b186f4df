package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/internal/engine"
)

// ErrInvalid is wrapped by every error about the request itself (an
// unknown algorithm or device, an algorithm on the wrong device, a tile the
// engine cannot use, the bounds method for more than it answers, several
// GPUs for an engine that runs on one). It is engine.ErrInvalid, so that
// the engines' own refusals of a request match it too.
var ErrInvalid = engine.ErrInvalid

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
	Ordinal int    // the GPU number of "gpu:N", the first of a list (0 for "gpu" and "gpu:all")
	// Ordinals is the list of "gpu:0,1": two or more distinct GPU numbers
	// in the order given; nil for every other form.
	Ordinals []int
	// All is "gpu:all": every GPU the driver sees, known only once it is
	// loaded, so the engines resolve it where they run.
	All bool
	// Numbered says the GPUs were named by number ("gpu:N" or a list),
	// not left to the job ("gpu", "gpu:all").
	Numbered bool
}

// Multi says whether d may name several GPUs (a list, or gpu:all).
func (d Device) Multi() bool { return d.All || len(d.Ordinals) > 1 }

// ParseDevice reads "", "auto", "cpu", "gpu", "gpu:N", "gpu:all" or a list
// "gpu:0,1"; it is the one parser of device strings. A list names each GPU
// once; a list of one is gpu:N. Whether the GPUs exist is for the engines
// to find (errors matching ErrNoGPU, as for gpu:N).
func ParseDevice(s string) (Device, error) {
	switch {
	case s == "" || s == "auto":
		return Device{Kind: "auto"}, nil
	case s == "cpu":
		return Device{Kind: "cpu"}, nil
	case s == "gpu":
		return Device{Kind: "gpu"}, nil
	case s == "gpu:all":
		return Device{Kind: "gpu", All: true}, nil
	case strings.HasPrefix(s, "gpu:"):
		parts := strings.Split(s[4:], ",")
		ords := make([]int, 0, len(parts))
		for _, part := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n < 0 {
				if len(parts) == 1 {
					return Device{}, invalid("device", "%q: want gpu:N with N a GPU number, gpu:all or a list gpu:0,1", s)
				}
				return Device{}, invalid("device", "%q: %q is not a GPU number (want a list such as gpu:0,1)", s, part)
			}
			if slices.Contains(ords, n) {
				return Device{}, invalid("device", "%q lists gpu:%d twice", s, n)
			}
			ords = append(ords, n)
		}
		d := Device{Kind: "gpu", Ordinal: ords[0], Numbered: true}
		if len(ords) > 1 {
			d.Ordinals = ords
		}
		return d, nil
	}
	return Device{}, invalid("device", "%q: want auto, cpu, gpu, gpu:N, gpu:all or a list gpu:0,1", s)
}

// deviceConflict says when engine e cannot run on the device asked for.
func deviceConflict(e engine.Engine, dev Device) error {
	onGPU := e.Caps().Device == engine.GPU
	if dev.Kind == "cpu" && onGPU {
		return invalid("algorithm", "%s runs on a GPU, but the device is cpu", e.Name())
	}
	if dev.Kind == "gpu" && !onGPU {
		return invalid("algorithm", "%s runs on the CPU, but the device is %s", e.Name(), dev)
	}
	if dev.Multi() && !e.Caps().MultiGPU {
		what := fmt.Sprintf("the device %s lists %d", dev, len(dev.Ordinals))
		if dev.All {
			what = "gpu:all may name several"
		}
		return invalid("device", "%s runs on one GPU, but %s (%s split their work over several GPUs; use gpu:N)",
			e.Name(), what, joinAnd(multiGPUEngines()))
	}
	return nil
}

// joinAnd lists names as "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// multiGPUEngines names the engines that split their work over several
// GPUs.
func multiGPUEngines() []string {
	var names []string
	for _, e := range engine.All() {
		if e.Caps().MultiGPU {
			names = append(names, e.Name())
		}
	}
	return names
}
