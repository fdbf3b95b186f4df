package c2cu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// emulHeader stands in for the CUDA runtime so that GenerateKernel's output
// compiles as C++: the kernel is a plain function and the harness's loops
// over blocks and threads set blockIdx and threadIdx. Running the threads one
// after another is equivalent because each touches only its own column.
const emulHeader = `#include <cstdio>
#include <cstdlib>
#include <cstring>
struct c2cu_dim3 { unsigned x, y, z; };
static c2cu_dim3 blockIdx, blockDim, threadIdx, gridDim;
#define __global__
#define __device__
`

func deviceType(t string) string {
	switch t {
	case "long":
		return "long long"
	case "unsigned long":
		return "unsigned long long"
	}
	return t
}

// emulMain is a host harness for the kernel form: usage `emul P T in out`,
// files in the driver's row layout [P][dims...], transposed to the kernel's
// column layout [dims...][P] and back.
func emulMain(p *Program) string {
	var b strings.Builder
	b.WriteString("#include \"c2cu_emul.h\"\n#include \"kernel.cu\"\n")
	b.WriteString(`static void *load(const char *dir, const char *name, size_t bytes) {
    char path[4096];
    void *buf = calloc(1, bytes);
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    FILE *f = fopen(path, "rb");
    if (f) { if (fread(buf, 1, bytes, f) != bytes) { fprintf(stderr, "short %s\n", path); exit(1); } fclose(f); }
    return buf;
}
static void save(const char *dir, const char *name, const void *buf, size_t bytes) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, bytes, f) != bytes || fclose(f)) { fprintf(stderr, "write %s\n", path); exit(1); }
}
int main(int argc, char **argv) {
    long P = atol(argv[1]);
    unsigned T = (unsigned)atoi(argv[2]);
`)
	var args []string
	for i, a := range p.Arrays() {
		ty := deviceType(a.Type)
		fmt.Fprintf(&b, "    size_t e%d = %d;\n", i, a.Elems())
		fmt.Fprintf(&b, "    %s *row%d = (%s *)load(argv[3], \"%s\", sizeof(%s) * e%d * P);\n", ty, i, ty, a.Name, ty, i)
		fmt.Fprintf(&b, "    %s *col%d = (%s *)malloc(sizeof(%s) * e%d * P);\n", ty, i, ty, ty, i)
		fmt.Fprintf(&b, "    for (long p = 0; p < P; p++) for (size_t e = 0; e < e%d; e++) col%d[e * P + p] = row%d[p * e%d + e];\n", i, i, i, i)
		args = append(args, fmt.Sprintf("col%d", i))
	}
	b.WriteString("    blockDim.x = T; gridDim.x = (unsigned)((P + T - 1) / T);\n")
	b.WriteString("    for (unsigned bl = 0; bl < gridDim.x; bl++) for (unsigned t = 0; t < T; t++) {\n")
	b.WriteString("        blockIdx.x = bl; threadIdx.x = t;\n")
	fmt.Fprintf(&b, "        c2cu_kernel(%s);\n    }\n", strings.Join(append(args, "(int)P"), ", "))
	for i, a := range p.Arrays() {
		ty := deviceType(a.Type)
		fmt.Fprintf(&b, "    for (long p = 0; p < P; p++) for (size_t e = 0; e < e%d; e++) row%d[p * e%d + e] = col%d[e * P + p];\n", i, i, i, i)
		fmt.Fprintf(&b, "    save(argv[4], \"%s\", row%d, sizeof(%s) * e%d * P);\n", a.Name, i, ty, i)
	}
	b.WriteString("    return 0;\n}\n")
	return b.String()
}

// randomInput fills one global for P inputs in row layout with values that
// keep the examples free of signed overflow.
func randomInput(r *rand.Rand, a Array, P int) []byte {
	var buf bytes.Buffer
	for i := 0; i < a.Elems()*P; i++ {
		var v any
		switch a.Type {
		case "int":
			v = int32(r.Intn(1 << 20))
		case "unsigned":
			v = r.Uint32()
		case "long":
			v = r.Int63n(1 << 40)
		case "unsigned long":
			v = r.Uint64()
		case "float":
			v = r.Float32() * 1000
		case "double":
			v = r.Float64() * 1000
		}
		binary.Write(&buf, binary.LittleEndian, v)
	}
	return buf.Bytes()
}

func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// TestExecutionEquivalence runs every example's kernel form (as C++ on the
// CPU, through emulHeader) and its host driver (the original program run P
// times) on the same random inputs and requires bit-identical outputs.
func TestExecutionEquivalence(t *testing.T) {
	gcc, err1 := exec.LookPath("gcc")
	gxx, err2 := exec.LookPath("g++")
	if err1 != nil || err2 != nil {
		t.Skip("gcc or g++ not installed")
	}
	for _, name := range append(examples, "mixed") {
		t.Run(name, func(t *testing.T) {
			var p *Program
			if name == "mixed" {
				var err error
				if p, err = Parse("mixed.c", []byte(mixedSrc)); err != nil {
					t.Fatal(err)
				}
			} else {
				p = loadExample(t, name)
			}
			dir := t.TempDir()
			kern, err := GenerateKernel(p)
			if err != nil {
				t.Fatal(err)
			}
			drv, err := GenerateDriver(p)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"kernel.cu": kern, "c2cu_emul.h": emulHeader, "emul.cpp": emulMain(p), "driver.c": drv}
			for f, s := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run(t, dir, gxx, "-O2", "-o", "emul", "emul.cpp")
			run(t, dir, gcc, "-O2", "-o", "driver", "driver.c")
			r := rand.New(rand.NewSource(1))
			for _, P := range []int{1, 37, 256} {
				in := filepath.Join(dir, fmt.Sprint("in", P))
				cpu := filepath.Join(dir, fmt.Sprint("cpu", P))
				gpu := filepath.Join(dir, fmt.Sprint("emul", P))
				for _, d := range []string{in, cpu, gpu} {
					if err := os.Mkdir(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				inputs := map[string][]byte{}
				for _, a := range p.Arrays() {
					inputs[a.Name] = randomInput(r, a, P)
				}
				if fix := fixInputs[name]; fix != nil {
					fix(inputs, P)
				}
				for n, b := range inputs {
					if err := os.WriteFile(filepath.Join(in, n+".bin"), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				run(t, dir, "./driver", fmt.Sprint(P), in, cpu)
				run(t, dir, "./emul", fmt.Sprint(P), "32", in, gpu)
				outs := map[string][]byte{}
				for _, a := range p.Arrays() {
					want, err := os.ReadFile(filepath.Join(cpu, a.Name+".bin"))
					if err != nil {
						t.Fatal(err)
					}
					got, err := os.ReadFile(filepath.Join(gpu, a.Name+".bin"))
					if err != nil {
						t.Fatal(err)
					}
					if len(want) != a.Elems()*a.ElemBytes*P {
						t.Fatalf("P=%d %s: driver wrote %d bytes", P, a.Name, len(want))
					}
					if !bytes.Equal(got, want) {
						t.Errorf("P=%d: %s differs between the kernel form and the original program", P, a.Name)
					}
					outs[a.Name] = want
				}
				if verify := verifyOutputs[name]; verify != nil {
					verify(t, inputs, outs, P)
				}
			}
		})
	}
}

// fixInputs makes inputs meet an example's precondition where its
// independent check (verifyOutputs) needs one.
var fixInputs = map[string]func(in map[string][]byte, P int){
	// X, Y < M: top limb of M has its high bit set, those of X, Y are below half of it.
	"montgomery": func(in map[string][]byte, P int) {
		for p := 0; p < P; p++ {
			top := (p*16 + 15) * 4
			m := binary.LittleEndian.Uint32(in["M"][top:]) | 1<<31
			binary.LittleEndian.PutUint32(in["M"][top:], m)
			for _, n := range []string{"X", "Y"} {
				binary.LittleEndian.PutUint32(in[n][top:], binary.LittleEndian.Uint32(in[n][top:])%(m>>1))
			}
		}
	},
}

func limbs(b []byte) *big.Int {
	z := new(big.Int)
	for i := len(b)/4 - 1; i >= 0; i-- {
		z.Lsh(z, 32)
		z.Or(z, big.NewInt(int64(binary.LittleEndian.Uint32(b[4*i:]))))
	}
	return z
}

func i32(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[4*i:])) }

// verifyOutputs checks the results against an independent computation in Go,
// so that equivalence is not equivalence of two wrong programs.
var verifyOutputs = map[string]func(t *testing.T, in, out map[string][]byte, P int){
	"bitonic": func(t *testing.T, in, out map[string][]byte, P int) {
		for p := 0; p < P; p++ {
			for i := 1; i < 32; i++ {
				if i32(out["a"], p*32+i-1) > i32(out["a"], p*32+i) {
					t.Fatalf("input %d not sorted", p)
				}
			}
		}
	},
	"prefix": func(t *testing.T, in, out map[string][]byte, P int) {
		for p := 0; p < P; p++ {
			var s int32
			for i := 0; i < 1024; i++ {
				s += i32(in["b"], p*1024+i)
				if i32(out["b"], p*1024+i) != s {
					t.Fatalf("input %d: b[%d] wrong", p, i)
				}
			}
		}
	},
	"floyd": func(t *testing.T, in, out map[string][]byte, P int) {
		const n = 16
		for p := 0; p < P; p++ {
			var d [n][n]int32
			for i := range n {
				for j := range n {
					d[i][j] = i32(in["d"], p*n*n+i*n+j)
				}
			}
			for k := range n {
				for i := range n {
					for j := range n {
						d[i][j] = min(d[i][j], d[i][k]+d[k][j])
					}
				}
			}
			for i := range n {
				for j := range n {
					if d[i][j] != i32(out["d"], p*n*n+i*n+j) {
						t.Fatalf("input %d: d[%d][%d] wrong", p, i, j)
					}
				}
			}
		}
	},
	"montgomery": func(t *testing.T, in, out map[string][]byte, P int) {
		R := new(big.Int).Lsh(big.NewInt(1), 512)
		for p := 0; p < P; p++ {
			sl := func(m map[string][]byte, n string) []byte { return m[n][p*64 : p*64+64] }
			x, y, m := limbs(sl(in, "X")), limbs(sl(in, "Y")), limbs(sl(in, "M"))
			m.SetBit(m, 0, 1)
			want := new(big.Int).Mul(x, y)
			want.Mul(want, new(big.Int).ModInverse(R, m))
			want.Mod(want, m)
			if got := limbs(sl(out, "Z")); got.Cmp(want) != 0 {
				t.Fatalf("input %d: Z = %x, want %x", p, got, want)
			}
		}
	},
}

// mixedSrc covers what the examples do not: floating types, long, scalar
// globals, while, else-if, ?:, casts, compound assignments and a kernel
// argument.
const mixedSrc = `#define N 8
#define SCALE 0.5
float f[N];
double g[N][2];
long l[N];
unsigned long u;
int count;
unsigned w[3];

double mix(double x, int k)
{
    return k % 2 ? x * SCALE : x + 1.0 / (k + 1);
}

void work(int rounds)
{
    int i, r = 0;
    count = 0;
    while (r < rounds) {
        for (i = 0; i < N; i++) {
            g[i][r & 1] = mix(g[i][(r + 1) & 1], i) + (double)f[i];
            f[i] = f[i] * 0.75f - (float)i;
            l[i] += (long)(g[i][0] > 100.0) - l[(i + 1) % N] / 3;
            if (f[i] < 0.0f)
                count++;
            else if (l[i] > 5) {
                u ^= (unsigned long)l[i] << 3;
            }
            w[i % 3] = w[i % 3] * 2654435761u + (unsigned)i;
        }
        r++;
    }
    u = count > 3 ? u >> 1 : ~u;
}

int main(void)
{
#pragma kernel
    work(N - 3);
    return 0;
}
`
