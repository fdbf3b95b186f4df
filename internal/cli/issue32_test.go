package cli

import (
	"runtime"
	"strconv"
	"testing"
)

// TestNegativeVertexIDs is issue 32 item 7: "apsp path FILE -1 3" said
// "flag provided but not defined: -1". After the file a negative integer
// is a vertex id, refused as out of range; a flag's negative value stays
// the flag's.
func TestNegativeVertexIDs(t *testing.T) {
	karate, mtx := "../../testdata/karate.txt", "../../testdata/small.mtx"
	runCases(t, []cliCase{
		{name: "source", args: []string{"path", karate, "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range 0..33"}},
		{name: "target", args: []string{"path", karate, "0", "-5"}, code: 1, stderr: []string{"vertex -5 out of range 0..33"}},
		{name: "one-based file", args: []string{"path", mtx, "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range 1..6"}},
		{name: "flags after", args: []string{"path", karate, "-1", "3", "--json"}, code: 1, stderr: []string{"vertex -1 out of range"}},
		{name: "a flag's value", args: []string{"path", karate, "--threads", "-1", "0", "3"}, code: 2, stderr: []string{"--threads must be >= 0"}},
		{name: "a flag's value with =", args: []string{"path", karate, "--threads=-1", "0", "3"}, code: 2, stderr: []string{"--threads must be >= 0"}},
		{name: "bool flag before", args: []string{"path", karate, "--json", "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range"}},
		{name: "unknown flag", args: []string{"path", karate, "-x", "3"}, code: 2, stderr: []string{"flag provided but not defined: -x"}},
		{name: "positive ids", args: []string{"path", karate, "0", "33", "--json"}, stdout: []string{`"length": 2`}},
	}, nil)
}

// TestThreadsLimit is issue 32 item 7: --threads 100000 was reported as
// 100 000 threads on a 2-core machine. A count above the CPUs the process
// may run on is refused with the limit (exit status 2); up to it runs and
// is reported as asked.
func TestThreadsLimit(t *testing.T) {
	karate := "../../testdata/karate.txt"
	cpus := max(runtime.NumCPU(), runtime.GOMAXPROCS(0))
	most, over := strconv.Itoa(cpus), strconv.Itoa(cpus+1)
	runCases(t, []cliCase{
		{name: "100000", args: []string{"stats", "--threads", "100000", karate}, code: 2, stderr: []string{"--threads 100000: at most " + most + ", the CPUs this process may run on"}},
		{name: "one over", args: []string{"ecc", "--threads", over, karate}, code: 2, stderr: []string{"--threads " + over + ": at most " + most}},
		{name: "bulk", args: []string{"bulk", "--threads", "100000", karate}, code: 2, stderr: []string{"at most " + most}},
		{name: "the limit", args: []string{"stats", "--algo", "blocked", "--threads", most, karate}, stdout: []string{most + " threads)"}},
	}, squeeze)
}
