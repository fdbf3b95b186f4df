package c2curun

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/apsp/apsp/c2cu"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gputest"
)

func load(t *testing.T, path string) *c2cu.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c2cu.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTranspose(t *testing.T) {
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // 3 rows × 2 cols of 2-byte elements
	col := transpose(src, 3, 2, 2)
	want := []byte{1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}
	if string(col) != string(want) {
		t.Fatalf("transpose = %v, want %v", col, want)
	}
	if back := transpose(col, 2, 3, 2); string(back) != string(src) {
		t.Fatalf("round trip = %v", back)
	}
}

// TestCPUDriverFloyd builds the Floyd–Warshall example with the host C
// compiler and checks every input's result against Go.
func TestCPUDriverFloyd(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	prog := load(t, "../../examples/c2cu/floyd.c")
	c, err := BuildCPU(prog)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const p = 37
	in := RandomInputs(prog.Arrays(), p, 5)
	out, secs, err := c.Run(context.Background(), in, p)
	if err != nil {
		t.Fatal(err)
	}
	if secs < 0 {
		t.Fatalf("seconds %v", secs)
	}
	const n = 16
	for k := 0; k < p; k++ {
		var d [n][n]int32
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				d[i][j] = int32(binary.LittleEndian.Uint32(in["d"][((k*n+i)*n+j)*4:]))
			}
		}
		for m := 0; m < n; m++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					d[i][j] = min(d[i][j], d[i][m]+d[m][j])
				}
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if got := int32(binary.LittleEndian.Uint32(out["d"][((k*n+i)*n+j)*4:])); got != d[i][j] {
					t.Fatalf("input %d: d[%d][%d] = %d, want %d", k, i, j, got, d[i][j])
				}
			}
		}
	}
	if err := Compare(prog.Arrays(), out, out, p); err != nil {
		t.Fatal(err)
	}
	if err := Compare(prog.Arrays(), out, in, p); err == nil {
		t.Fatal("Compare found no difference between input and result")
	}
}

// TestGPU runs every example on the GPU against the CPU build; it skips
// without a GPU (CI).
func TestGPU(t *testing.T) {
	for _, ex := range []string{"floyd", "bitonic", "montgomery", "prefix"} {
		prog := load(t, "../../examples/c2cu/"+ex+".c")
		r, err := NewRunner(prog, 0)
		if errors.Is(err, cuda.ErrNoDriver) {
			gputest.Skip(t, "no GPU: %v", err)
		}
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		c, err := BuildCPU(prog)
		if err != nil {
			r.Close()
			t.Fatal(err)
		}
		for _, p := range []int{1, 37, 1000, 4096} {
			for _, threads := range []int{32, 256} {
				in := RandomInputs(prog.Arrays(), p, uint64(p))
				want, _, err := c.Run(context.Background(), in, p)
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := r.Run(context.Background(), in, p, threads)
				if err != nil {
					t.Fatalf("%s P=%d T=%d: %v", ex, p, threads, err)
				}
				if err := Compare(prog.Arrays(), got, want, p); err != nil {
					t.Fatalf("%s P=%d T=%d: %v", ex, p, threads, err)
				}
				grouped, _, err := r.RunGroups(in, p, 300, threads)
				if err != nil {
					t.Fatalf("%s P=%d T=%d groups: %v", ex, p, threads, err)
				}
				if err := Compare(prog.Arrays(), grouped, want, p); err != nil {
					t.Fatalf("%s P=%d T=%d groups of 300: %v", ex, p, threads, err)
				}
			}
		}
		t.Logf("%s: GPU output (whole and in groups of 300 on 3 streams) identical to the CPU build for P = 1, 37, 1000, 4096 and T = 32, 256", ex)
		c.Close()
		r.Close()
	}
}
