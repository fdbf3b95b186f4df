package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/apsp/apsp/c2cu"
	"github.com/apsp/apsp/internal/c2curun"
	"github.com/apsp/apsp/internal/npy"
)

const c2cuUsage = `usage:
  apsp c2cu check prog.c                                 parse, list the arrays, say whether it is oblivious
  apsp c2cu gen   [-p P] [-t T] [-o out.cu] prog.c       a standalone CUDA program (for nvcc)
  apsp c2cu run   [-p P] [-t T] [--in NAME=X.npy ...] [--seed S] [--out DIR] prog.c
                                                         run the kernel call for P inputs on the GPU
  apsp c2cu bench [-p LIST] [-t T] [--seed S] prog.c     GPU bulk execution vs the C program on one core

prog.c is a C program in the subset of "go doc github.com/apsp/apsp/c2cu",
with "#pragma kernel" before the call to bulk-execute. Example:
  apsp c2cu bench -p 1024,131072 examples/c2cu/floyd.c
`

// multiFlag collects repeated flags.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func runC2CU(e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(e.stdout, c2cuUsage)
		if len(args) == 0 {
			return usagef("want a subcommand: check, gen, run or bench")
		}
		return flag.ErrHelp
	}
	sub := args[0]
	if !slices.Contains([]string{"check", "gen", "run", "bench"}, sub) {
		return usagef("unknown c2cu subcommand %q (want check, gen, run or bench)", sub)
	}
	fs := flag.NewFlagSet("c2cu "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	p := fs.Int("p", 1024, "number of inputs P")
	pList := new(string)
	t := fs.Int("t", 256, "threads per block T")
	out := fs.String("o", "", "output file")
	outDir := fs.String("out", "", "output directory for .npy results")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	device := fs.Int("gpu", 0, "GPU number")
	groupList := new(string)
	var ins multiFlag
	fs.Var(&ins, "in", "NAME=FILE.npy input for a global (repeatable)")
	if sub == "bench" {
		// -p takes a list for bench.
		fs = flag.NewFlagSet("c2cu bench", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		pList = fs.String("p", "1024,16384,131072", "comma-separated input counts P")
		t = fs.Int("t", 256, "threads per block T")
		seed = fs.Uint64("seed", 1, "seed of the random inputs")
		device = fs.Int("gpu", 0, "GPU number")
		groupList = fs.String("group", "", "comma-separated group sizes B: also run the inputs in groups of B on 3 streams and report throughput and latency")
	}
	pos, err := parseInterspersed(fs, args[1:])
	if err == flag.ErrHelp {
		fmt.Fprint(e.stdout, c2cuUsage)
		return err
	}
	if err != nil {
		return usagef("%v", err)
	}
	if len(pos) != 1 {
		return usagef("want one C file\n%s", c2cuUsage)
	}
	if *p <= 0 || *t <= 0 || *t > 1024 {
		return usagef("-p must be positive and -t in 1..1024")
	}
	src, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	prog, err := c2cu.Parse(pos[0], src)
	if err != nil {
		return err
	}
	switch sub {
	case "check":
		return c2cuCheck(e, prog)
	case "gen":
		if err := prog.Check(); err != nil {
			return err
		}
		code, err := c2cu.GenerateStandalone(prog, *p, *t)
		if err != nil {
			return err
		}
		o, err := createOutput(e, *out)
		if err != nil {
			return err
		}
		_, err = io.WriteString(o, code)
		return o.finish(err)
	case "run":
		if err := prog.Check(); err != nil {
			return err
		}
		return c2cuRun(e, prog, *p, *t, *seed, *device, ins, *outDir)
	case "bench":
		if err := prog.Check(); err != nil {
			return err
		}
		ps, err := parseInts(*pList)
		if err != nil {
			return err
		}
		groups, err := parseInts(*groupList)
		if err != nil {
			return err
		}
		return c2cuBench(e, prog, ps, groups, *t, *seed, *device)
	}
	return usagef("unknown c2cu subcommand %q (want check, gen, run or bench)", sub)
}

func c2cuCheck(e *env, prog *c2cu.Program) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "kernel call\t%s\n", prog.KernelCall())
	for _, a := range prog.Arrays() {
		dims := ""
		for _, d := range a.Dims {
			dims += fmt.Sprintf("[%d]", d)
		}
		fmt.Fprintf(tw, "global\t%s %s%s\t%d bytes per input\n", a.Type, a.Name, dims, a.ElemBytes*max(1, product(a.Dims)))
	}
	tw.Flush()
	if err := prog.Check(); err != nil {
		fmt.Fprintf(e.stdout, "oblivious: no\n")
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "oblivious: yes\n")
	return err
}

func product(ds []int) int {
	n := 1
	for _, d := range ds {
		n *= d
	}
	return n
}

// npyDescr is the NumPy dtype of a C type.
func npyDescr(a c2cu.Array) string {
	switch a.Type {
	case "int":
		return "<i4"
	case "unsigned":
		return "<u4"
	case "long":
		return "<i8"
	case "float":
		return "<f4"
	case "double":
		return "<f8"
	}
	if a.ElemBytes == 8 {
		return "<u8"
	}
	return "<u4"
}

func c2cuRun(e *env, prog *c2cu.Program, p, t int, seed uint64, device int, ins []string, outDir string) error {
	arrs := prog.Arrays()
	in := c2curun.RandomInputs(arrs, p, seed)
	for _, spec := range ins {
		name, file, ok := strings.Cut(spec, "=")
		i := slices.IndexFunc(arrs, func(a c2cu.Array) bool { return a.Name == name })
		if !ok || i < 0 {
			return usagef("--in %s: want NAME=FILE.npy with NAME a global of the program", spec)
		}
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		arr, err := npy.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		want := append([]int{p}, arrs[i].Dims...)
		if arr.Descr != npyDescr(arrs[i]) || !slices.Equal(arr.Shape, want) {
			return fmt.Errorf("%s: dtype %s shape %v, want %s %v", file, arr.Descr, arr.Shape, npyDescr(arrs[i]), want)
		}
		in[name] = arr.Data
	}
	r, err := c2curun.NewRunner(prog, device)
	if err != nil {
		return err
	}
	defer r.Close()
	out, tm, err := r.Run(e.ctx, in, p, t)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d inputs on %s, %d threads per block: kernel %.3f ms, to device %.3f ms, to host %.3f ms\n",
		prog.KernelCall(), p, r.Device(), t, tm.Kernel, tm.ToDevice, tm.ToHost)
	if outDir == "" {
		return nil
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, a := range arrs {
		f, err := os.Create(filepath.Join(outDir, a.Name+".npy"))
		if err != nil {
			return err
		}
		err = npy.WriteBytes(f, npyDescr(a), append([]int{p}, a.Dims...), out[a.Name])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "wrote %d arrays to %s\n", len(arrs), outDir)
	return nil
}

func c2cuBench(e *env, prog *c2cu.Program, ps, groups []int, t int, seed uint64, device int) error {
	cpu, err := c2curun.BuildCPU(prog)
	if err != nil {
		return err
	}
	defer cpu.Close()
	r, err := c2curun.NewRunner(prog, device)
	if err != nil {
		return err
	}
	defer r.Close()
	arrs := prog.Arrays()
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(e.stdout, "%s on %s (%d threads per block) vs the C program (cc -O2) on one core\n", prog.KernelCall(), r.Device(), t)
	if bw, err := r.CopyBandwidth(); err == nil {
		fmt.Fprintf(e.stdout, "device copy bandwidth (1 GiB device-to-device, read+write): %.2f TB/s\n", bw/1e12)
	}
	fmt.Fprintln(tw, "P\tCPU ms\tGPU kernel ms\tH→D ms\tD→H ms\tspeed-up (kernel)\tspeed-up (with transfers)\tcheck\t")
	for _, p := range ps {
		in := c2curun.RandomInputs(arrs, p, seed+uint64(p))
		want, cpuSec, err := cpu.Run(e.ctx, in, p)
		if err != nil {
			return err
		}
		var kernel []float64
		var got c2curun.Data
		var tm c2curun.GPUTiming
		for rep := 0; rep < 4; rep++ { // the first run warms up
			if got, tm, err = r.Run(e.ctx, in, p, t); err != nil {
				return err
			}
			if rep > 0 {
				kernel = append(kernel, tm.Kernel)
			}
		}
		sort.Float64s(kernel)
		k := kernel[len(kernel)/2]
		check := "identical"
		if err := c2curun.Compare(arrs, got, want, p); err != nil {
			check = "MISMATCH: " + err.Error()
		}
		cpuMS := cpuSec * 1e3
		fmt.Fprintf(tw, "%d\t%.3f\t%.4f\t%.3f\t%.3f\t%.1f×\t%.1f×\t%s\t\n", p, cpuMS, k, tm.ToDevice, tm.ToHost,
			cpuMS/k, cpuMS/(k+tm.ToDevice+tm.ToHost), check)
		if !strings.HasPrefix(check, "identical") {
			tw.Flush()
			return fmt.Errorf("P=%d: %s", p, check)
		}
		if err := c2cuGroups(tw, r, arrs, in, want, p, groups, t); err != nil {
			tw.Flush()
			return err
		}
	}
	return tw.Flush()
}

// c2cuGroups reports the low-latency grouped runs of one P.
func c2cuGroups(tw *tabwriter.Writer, r *c2curun.Runner, arrs []c2cu.Array, in, want c2curun.Data, p int, groups []int, t int) error {
	for _, b := range groups {
		var got c2curun.Data
		var gt c2curun.GroupTiming
		var err error
		for rep := 0; rep < 2; rep++ { // the first run warms up
			if got, gt, err = r.RunGroups(in, p, b, t); err != nil {
				return err
			}
		}
		if err := c2curun.Compare(arrs, got, want, p); err != nil {
			return fmt.Errorf("P=%d in groups of %d: %w", p, b, err)
		}
		var lat float64
		for _, l := range gt.LatencyMS {
			lat += l
		}
		lat /= float64(len(gt.LatencyMS))
		fmt.Fprintf(tw, "  groups of %d	%d groups	%.3f ms total	%.0f inputs/s	mean latency %.3f ms			identical	\n",
			b, gt.Groups, gt.TotalMS, float64(p)/(gt.TotalMS/1e3), lat)
	}
	return nil
}
