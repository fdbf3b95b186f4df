package cpufeat

import (
	"runtime"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestImplied checks the implications the kernels rely on and logs what
// this machine has.
func TestImplied(t *testing.T) {
	t.Logf("%s: avx2=%v popcnt=%v avx512f=%v avx512dq=%v avx512vpopcntdq=%v",
		runtime.GOARCH, AVX2, POPCNT, AVX512F, AVX512DQ, AVX512VPOPCNTDQ)
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "386" && (AVX2 || POPCNT || BMI2 || AVX512F || AVX512DQ || AVX512VPOPCNTDQ) {
		t.Fatal("x86 features on another architecture")
	}
	if (AVX512DQ || AVX512VPOPCNTDQ) && !cpu.X86.HasAVX512 {
		t.Fatal("an AVX-512 extension without the OS saving ZMM state")
	}
	if AVX2 && !cpu.X86.HasAVX {
		t.Fatal("AVX2 without AVX")
	}
}
