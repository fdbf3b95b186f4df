package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// childEnv, when set in the environment, makes the test binary run the
// command line in its arguments instead of the tests (see TestMain): a
// test runs apsp in a child process under a memory limit, as a user would,
// without building the binary.
const childEnv = "APSP_CLI_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runChild runs apsp args in a child process with the extra environment
// env (GOMEMLIMIT=…) and returns its exit status, its output and how long
// it took.
func runChild(t *testing.T, env []string, args ...string) (code int, out string, elapsed time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	start := time.Now()
	b, err := cmd.CombinedOutput()
	elapsed = time.Since(start)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("apsp %s: %v", strings.Join(args, " "), err)
	}
	return code, string(b), elapsed
}

// TestDeclaredSizesRefusedForTheCommand is issue 32 item 4: a 71-byte .mtx
// declaring 700 million vertices was read for 24 s (8.2 GB) before stats
// refused it, a 23-byte "# vertices: 100000000" for 1.4 s (1.2 GB). Under
// GOMEMLIMIT=1GiB, in a child process, a declared size whose graph fits
// but whose command does not (about 30 million vertices read in 1 GiB,
// about 10 million fit stats) is refused at once, in every format and by
// the --vertices flag, with both figures; the same files declaring a size
// that fits still read and compute.
func TestDeclaredSizesRefusedForTheCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	mtx := func(n string) string {
		return "%%MatrixMarket matrix coordinate pattern general\n" + n + " " + n + " 1\n1 2\n"
	}
	limit := []string{"GOMEMLIMIT=1GiB"}
	const big, fits = "25000000", "20000"
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the refusal, besides the figures
	}{
		{"mtx stats", []string{"stats", write("big.mtx", mtx(big))}, []string{"big.mtx:2: 25000000 vertices", "stats needs 2.6 GiB"}},
		{"mtx ecc", []string{"ecc", write("big2.mtx", mtx(big))}, []string{"ecc needs"}},
		{"edge list header", []string{"stats", write("big.txt", "# vertices: "+big+"\n")}, []string{"big.txt:1: " + big + " vertices"}},
		{"DIMACS", []string{"aspl", write("big.gr", "p sp "+big+" 1\na 1 2 1\n")}, []string{"big.gr:1: " + big + " vertices", "aspl needs"}},
		{"edge list id", []string{"hist", write("id.txt", "0 "+big+"\n")}, []string{"id.txt:1: vertex id " + big, "hist needs"}},
		{"--vertices", []string{"stats", "--vertices", big, write("small.txt", "0 1\n")}, []string{big + " vertices", "stats needs"}},
		{"dist", []string{"dist", write("dist.txt", "# vertices: 100000\n")}, []string{"dist needs 9.3 GiB", "1 a pair of vertices"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, elapsed := runChild(t, limit, tc.args...)
			t.Logf("exit %d after %v: %s", code, elapsed.Round(time.Millisecond), strings.TrimSpace(out))
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			for _, want := range append(tc.want, "graph too large", "but only", "is available (GOMEMLIMIT)", "vertices fit") {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			// A process starts in milliseconds; reading the declared
			// graph took seconds.
			if elapsed > 500*time.Millisecond {
				t.Errorf("refused after %v", elapsed)
			}
		})
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"mtx", []string{"stats", write("fits.mtx", mtx(fits))}, "vertices " + fits},
		{"edge list header", []string{"stats", write("fits.txt", "# vertices: "+fits+"\n0 1\n")}, "vertices " + fits},
		{"DIMACS", []string{"diameter", write("fits.gr", "p sp "+fits+" 1\na 1 2 1\n")}, "inf"},
		{"dist", []string{"dist", write("fits3.txt", "# vertices: 3\n0 1\n")}, "0 1 inf"},
	} {
		t.Run("fits "+tc.name, func(t *testing.T) {
			code, out, _ := runChild(t, limit, tc.args...)
			if code != 0 || !strings.Contains(squeeze(out), tc.want) {
				t.Errorf("exit %d, output lacks %q:\n%s", code, tc.want, out)
			}
		})
	}
}

// TestUlimitMessageSaysAddressSpace is issue 32 item 7: under ulimit -v
// the refusals gave the headroom as if it were memory; the figure is
// address space (the Go runtime reserves arenas beyond what it uses), and
// the message now says so, for reading and for the command's work alike.
// The child runs under its own VmSize plus 1 GiB of address space.
func TestUlimitMessageSaysAddressSpace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v and VmSize are Linux's")
	}
	status, _ := os.ReadFile("/proc/self/status")
	var vmKB int
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmSize:" {
			vmKB, _ = strconv.Atoi(f[1])
		}
	}
	if vmKB == 0 {
		t.Skip("no VmSize in /proc/self/status")
	}
	limitKB := strconv.Itoa(vmKB + 1<<20)
	dir := t.TempDir()
	for _, tc := range []struct {
		cmd, id, want string
	}{
		{"info", "100000000", "the headroom under ulimit -v, which counts address space"},
		{"stats", "10000000", "is available (ulimit -v, which counts address space)"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			file := filepath.Join(dir, tc.id+".txt")
			if err := os.WriteFile(file, []byte("0 "+tc.id+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("sh", "-c", `ulimit -v "$1" || exit 97; shift; exec "$0" "$@"`, os.Args[0], limitKB, tc.cmd, file)
			cmd.Env = append(os.Environ(), childEnv+"=1")
			b, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit) && exit.ExitCode() == 97:
				t.Skipf("cannot set ulimit -v %s: %s", limitKB, b)
			case !errors.As(err, &exit) || exit.ExitCode() != 1:
				t.Fatalf("exit %v, want 1: %s", err, b)
			}
			if !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), "graph too large") {
				t.Errorf("output lacks %q: %s", tc.want, b)
			}
		})
	}
}
