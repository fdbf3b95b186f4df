package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/apsp/apsp"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // bad input or a failed computation
	exitUsage = 2 // bad usage
)

// env is what a command runs with.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// usageError marks errors that come from how the command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

type command struct {
	name    string
	args    string // synopsis after the name
	short   string
	long    string
	example string
	run     func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{"stats", "[flags] FILE", "every summary measure at once (the main job)",
			"Computes all-pairs shortest paths and prints vertices, edges, connectivity,\ndiameter, radius, ASPL, reachable pairs, center and periphery.",
			"apsp stats testdata/karate.txt\n  apsp stats --json --reachable graph.mtx", runStats},
		{"bulk", "[flags] FILES...|DIR|-", "the stats of many graphs, one JSON (or CSV) line each", bulkLong, "apsp bulk testdata/karate.txt testdata/small.mtx\n  apsp bulk --csv graphs/ > stats.csv\n  echo '{\"id\":\"p3\",\"edges\":[[0,1],[1,2]]}' | apsp bulk -", runBulk},
		{"diameter", "[flags] FILE", "just the diameter, for scripts",
			"Prints the largest distance over ordered pairs u≠v (inf when disconnected,\nunless --reachable).", "apsp diameter testdata/karate.txt", runDiameter},
		{"aspl", "[flags] FILE", "just the average shortest path length",
			"Prints the mean distance over ordered pairs u≠v (inf when disconnected,\nunless --reachable).", "apsp aspl testdata/karate.txt", runASPL},
		{"ecc", "[flags] FILE", "the eccentricity of every vertex",
			"Prints one 'vertex eccentricity' line per vertex, or JSON with --json.\nOn a directed graph --mode out (the default) takes the distances from the\nvertex, in those to it, all those of the graph with its directions dropped.", "apsp ecc testdata/karate.txt\n  apsp ecc --mode in --directed graph.txt", runEcc},
		{"closeness", "[flags] FILE", "the closeness centrality of every vertex",
			"Prints one 'vertex closeness' line per vertex, or JSON with --json, with\nNetworkX's definition (closeness_centrality): for a vertex that r-1 others\nreach with distances summing to T, (r-1)/T, times (r-1)/(n-1) unless\n--wf-improved=false; 0 when T is 0. For a directed graph\nthe distances are those to the vertex (--mode in; out: from it; all: with\nthe directions dropped). Lengths must be non-negative.",
			"apsp closeness testdata/karate.txt\n  apsp closeness --mode out --directed graph.txt", runCloseness},
		{"harmonic", "[flags] FILE", "the harmonic centrality of every vertex",
			"Prints one 'vertex harmonic' line per vertex, or JSON with --json, with\nNetworkX's definition (harmonic_centrality, not normalised): the sum of\n1/d over the other vertices at a finite distance d > 0 from which the vertex\nis reached; 0 when none reaches it. For a directed graph the distances are\nthose to the vertex (--mode in; out: from it; all: with the directions\ndropped). Lengths must be non-negative.",
			"apsp harmonic testdata/karate.txt\n  apsp harmonic --json --mode all --directed graph.txt", runHarmonic},
		{"dist", "[flags] FILE [-o OUT]", "the distance matrix",
			"Writes the distance matrix as tab-separated rows (unreachable: inf), or with\n-o OUT.npy a NumPy array of --dtype uint8, int16, uint16, int32, int64,\nfloat32 or float64. The default is the narrowest integer type that holds\nevery distance exactly below its maximum (uint8 for up to 254, uint16 up to\n65534, int16 when some are negative, else int32 or int64), float64 for\nfloat weights. Unreachable pairs are the dtype's maximum in integer dtypes\nand inf in float ones (numpy: d = np.where(d == np.iinfo(d.dtype).max,\nnp.inf, d)). A dtype that cannot hold every distance exactly is refused,\nnaming the distance; float32 rounds float distances (an explicit lossy\nchoice).",
			"apsp dist testdata/weighted.txt\n  apsp dist -o d.npy graph.txt\n  apsp dist -o d.npy --dtype float64 graph.txt", runDist},
		{"path", "[flags] FILE U V", "one shortest path from U to V and its length",
			"Prints the vertices of one shortest path from U to V and its length;\n\"no path\" and exit status 1 when there is none.", "apsp path testdata/karate.txt 0 33", runPath},
		{"hist", "[flags] FILE [-o hist.svg|pdf|png]", "the distribution of shortest-path lengths (hop plot)",
			"Counts the ordered pairs u≠v at each distance and prints them as a table\n(distance, pairs, fraction and cumulative fraction of all pairs, and a last\ninf row for pairs without a path), as JSON with --json, or as CSV with --csv\n(a distance,pairs header, a row per distance from 1, one for 0 only when\nzero-length arcs join distinct vertices, and a last inf row). With -o FILE\nit also draws the histogram as bars of pairs at each distance, in the format\nthe extension names (.svg, .pdf, .png); --log puts the pairs on a log scale,\n--cumulative draws the hop plot proper, the fraction of reachable pairs\nwithin distance h. Needs integer or unweighted distances.",
			"apsp hist testdata/karate.txt -o karate-hops.svg\n  apsp hist --cumulative --log -o hops.pdf graph.txt\n  apsp hist --csv graph.txt > hops.csv", runHist},
		{"gen", "KIND [key=value...] [-o OUT]", "synthetic graphs",
			"Writes a generated graph as an edge list to stdout, or to OUT in the format\nits extension names (.mtx, .gr, .csv, .graphml, .gml, .net, .graph, .g6, .s6,\n.d6, else edge list; .gz compresses).",
			"apsp gen regular n=1000 d=4 seed=7 -o r.txt\n  apsp gen grid a=10 b=20 weights=1..9", runGen},
		{"serve", "--stdio | --http ADDR", "answer JSON requests line by line (the co-process of the Python package), or over HTTP", serveLong,
			"echo '{\"id\":1,\"op\":\"stats\",\"n\":3,\"edges\":[[0,1],[1,2]]}' | apsp serve --stdio", runServe},
		{"devices", "[--json]", "the GPUs found, or why none is usable",
			"Lists the GPUs the CUDA driver sees: name, memory, compute capability, SMs.", "apsp devices", runDevices},
		{"bench", "fw [flags]", "time the Floyd–Warshall engines (GPU kernels, or the CPU)",
			"Times the GPU kernels over sizes and block shapes on fresh random graphs\n(CUDA events, warm-up, median of --reps runs), checks each against the CPU,\nand prints a table in milliseconds, rates against the measured ceiling, and\nGo benchmark lines for benchstat (--json for JSON).",
			"apsp bench fw --sizes 1024,4096,16384 --tdims 8,16,32", runBench},
		{"c2cu", "check|gen|run|bench [flags] prog.c", "bulk-execute an oblivious C program on the GPU (C2CU)",
			"Turns an oblivious sequential C program into a CUDA program that runs it for\nP inputs at once (column-wise arrays), and runs or times it.",
			"apsp c2cu bench -p 1024,131072 examples/c2cu/floyd.c", runC2CU},
		{"golf", "bound|eval|search [flags] [key=value...]", "Graph Golf: bounds, gaps, and a search for small diameter and ASPL", golfLong,
			"apsp golf bound n=256 d=8\n  apsp golf eval best.edges d=8\n  apsp golf search n=256 d=8 --time 60s -o best.edges", runGolf},
		{"info", "[flags] FILE", "vertices, arcs, directed, weights, degree range, components",
			"Describes a graph file without computing distances.", "apsp info testdata/karate.txt", runInfo},
	}
}

// Run runs apsp with the arguments after the program name and returns the
// exit status.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := findCommand(args[1]); ok {
				printCommandHelp(stdout, c, nil)
				return exitOK
			}
			fmt.Fprintf(stderr, "apsp: unknown command %q\n", args[1])
			return exitUsage
		}
		printUsage(stdout)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	}
	c, ok := findCommand(name)
	if !ok {
		fmt.Fprintf(stderr, "apsp: unknown command %q (run 'apsp help')\n", name)
		return exitUsage
	}
	err := c.run(e, args[1:])
	var done *reportedError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &done):
		return done.code
	}
	return report(e.stderr, name, err)
}

// report prints command name's error to stderr as usage (with the hint
// to -h) or as a failed computation, and returns the exit status.
func report(stderr io.Writer, name string, err error) int {
	code := exitCode(err)
	if code == exitUsage {
		fmt.Fprintf(stderr, "apsp %s: %v\nrun 'apsp %s -h' for help\n", name, flagError(err), name)
		return code
	}
	fmt.Fprintf(stderr, "apsp %s: %v\n", name, err)
	return code
}

// exitCode is the exit status of a command that failed with err: usage
// for a usage error or invalid options, else failure.
func exitCode(err error) int {
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, apsp.ErrInvalidOptions) {
		return exitUsage
	}
	return exitFail
}

// reportedError is an error a command has already reported itself (rank 0
// of an MPI job, before the ranks end together): Run exits with code and
// prints nothing more.
type reportedError struct {
	err  error
	code int
}

func (r *reportedError) Error() string { return r.err.Error() }
func (r *reportedError) Unwrap() error { return r.err }

// versionLine names this build: the module version (a tag, or "(devel)"
// for a source build), the VCS revision and whether the tree was modified,
// and the Go release.
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "apsp (no build information)"
	}
	v := "apsp " + bi.Main.Version
	var rev, modified, when string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			when = s.Value
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if modified == "true" {
			v += "+modified"
		}
		if when != "" {
			v += " " + when
		}
	}
	return v + " " + bi.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "apsp: all-pairs shortest paths, diameter, ASPL, eccentricity and paths of graphs")
	fmt.Fprintln(w, "\nusage: apsp COMMAND [flags] [args]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %-30s %s\n", c.name, c.args, c.short)
	}
	fmt.Fprintf(w, "  %-9s %-30s %s\n", "version", "", "the version of this build")
	fmt.Fprintln(w, "\nRun 'apsp COMMAND -h' for a command's flags and an example.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 bad input or a failed computation, 2 bad usage.")
}

func printCommandHelp(w io.Writer, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: apsp %s %s\n\n%s\n\nexample:\n  %s\n", c.name, c.args, c.long, c.example)
	if fs == nil {
		fs = c.flags()
	}
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nflags:\n%s", b.String())
	}
}

// flags returns the command's flag set (for help only).
func (c command) flags() *flag.FlagSet {
	fs, _ := newFlags(c.name)
	return fs.fs
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments, as users type them ("apsp stats g.txt --json").
// After the first positional argument (the file), a negative integer
// ("apsp path g.txt -1 3") is a positional argument, not a flag, unless it
// is the value of the flag before it ("--threads -1"): no flag is named by
// digits, and a vertex id out of range then says so.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		end := len(args)
		if len(pos) > 0 {
			end = flagsEnd(fs, args)
		}
		if err := fs.Parse(args[:end]); err != nil {
			return nil, err
		}
		rest := slices.Concat(fs.Args(), args[end:])
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0]) // a file, "-" for stdin, or a vertex id
		args = rest[1:]
	}
}

// flagsEnd returns the index of the first negative integer in args that is
// not the value of a flag before it, or len(args): where fs.Parse must stop
// so as not to take it for a flag. It stops looking at "--".
func flagsEnd(fs *flag.FlagSet, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return len(args)
		case isNegativeInt(a):
			return i
		case len(a) > 1 && a[0] == '-' && !strings.Contains(a, "="):
			// A flag that takes a value takes the next argument.
			fl := fs.Lookup(strings.TrimLeft(a, "-"))
			if fl == nil {
				continue
			}
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			i++
		}
	}
	return len(args)
}

// isNegativeInt reports whether s is "-" followed by decimal digits.
func isNegativeInt(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
