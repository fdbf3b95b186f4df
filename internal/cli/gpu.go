package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/internal/bench"
	"github.com/apsp/apsp/internal/gpu/fw"
	"github.com/apsp/apsp/internal/lanes"
)

func runDevices(e *env, args []string) error {
	f, _ := newFlags("devices")
	if _, err := f.parse(e, mustCommand("devices"), args, 0, 0); err != nil {
		return err
	}
	infos, err := apsp.Devices()
	if err != nil {
		if f.json {
			return writeJSON(e.stdout, map[string]any{"gpus": []any{}, "reason": err.Error()})
		}
		fmt.Fprintf(e.stdout, "no usable GPU: %v\n", err)
		return nil
	}
	if f.json {
		return writeJSON(e.stdout, map[string]any{"gpus": infos})
	}
	for _, in := range infos {
		fmt.Fprintf(e.stdout, "gpu:%d  %s  %.1f GiB  compute capability %s  %d SMs  %d MHz\n",
			in.Ordinal, in.Name, float64(in.Memory)/(1<<30), in.Capability, in.SMs, in.ClockKHz/1000)
	}
	return nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if p == "" {
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v <= 0 {
			return nil, usagef("bad number %q in %q", p, s)
		}
		out = append(out, v)
	}
	return out, nil
}

func runBench(e *env, args []string) error {
	f, _ := newFlags("bench")
	pos, err := f.parse(e, mustCommand("bench"), args, 1, 1)
	if err != nil {
		return err
	}
	if pos[0] != "fw" {
		return usagef("unknown benchmark %q (have: fw)", pos[0])
	}
	if f.benchReps < 1 {
		return usagef("--reps must be at least 1")
	}
	o := bench.Options{Float: f.benchFloat, Reps: f.benchReps, Degree: 16, Seed: 1}
	if f.benchFloat && f.lanes != "int32" && f.lanes != "float32" {
		return usagef("--float times float32 lanes: it does not go with --lanes %s", f.lanes)
	}
	switch f.lanes {
	case "int32":
	case "int8", "int16", "int64", "float32":
		o.Lanes, _ = lanes.ParseKind(f.lanes)
	default:
		return usagef("--lanes %q: want int32, int16, int8, int64 or float32", f.lanes)
	}
	if o.TDims, err = parseInts(f.benchTDims); err != nil {
		return err
	}
	if o.Tiles, err = parseInts(f.benchTiles); err != nil {
		return err
	}
	if o.MinBlocks, err = parseInts(f.benchMinBlocks); err != nil {
		return err
	}
	o.Kinds = strings.Split(f.benchKinds, ",")
	var s *fw.Session
	dev, err := apsp.ParseDevice(f.device)
	if err != nil {
		return usagef("%v", err)
	}
	if dev.Kind != "cpu" {
		s, err = fw.Open(dev.Ordinal)
		if err != nil {
			if dev.Kind == "gpu" {
				return err
			}
			if !f.quiet {
				fmt.Fprintf(e.stderr, "apsp: no GPU (%v); benchmarking the CPU engine\n", err)
			}
			o.Kinds = []string{"cpu"}
		} else {
			defer s.Close()
			fmt.Fprintf(e.stderr, "bench on %s (%d SMs, cc %s)\n", s.Dev.Info.Name, s.Dev.Info.SMs, s.Dev.Info.Capability)
		}
	} else {
		o.Kinds = []string{"cpu"}
	}
	if o.Sizes, o.CPUSizes, err = benchSizes(f.benchSizes, o.Kinds); err != nil {
		return err
	}
	if !f.quiet {
		o.Log = e.stderr
	}
	rows := bench.Run(e.ctx, s, o)
	if f.json {
		return bench.WriteJSON(e.stdout, rows)
	}
	bench.PrintTable(e.stdout, rows)
	fmt.Fprintln(e.stdout)
	bench.PrintBenchLines(e.stdout, rows)
	for _, r := range rows {
		if r.Error != "" {
			return fmt.Errorf("%s n=%d: %s", r.Kernel, r.N, r.Error)
		}
	}
	return nil
}

// benchSizes returns the sizes to time (--sizes, else the defaults for
// the kernels that run: the CPU's alone, or the GPU's) and the sizes the
// CPU engine is limited to (nil: all of them).
func benchSizes(flag string, kinds []string) (sizes, cpuSizes []int, err error) {
	if flag != "" {
		sizes, err = parseInts(flag)
		return sizes, nil, err
	}
	for _, k := range kinds {
		if k != "cpu" {
			return bench.DefaultGPUSizes, bench.DefaultCPUSizes, nil
		}
	}
	return bench.DefaultCPUSizes, nil, nil
}

// ints writes vs as a comma-separated list.
func ints(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}
