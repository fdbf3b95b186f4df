// Package cpufeat is the one place apsp asks which vector instructions the
// CPU has: the x86 features its assembly kernels (internal/minplus,
// internal/bfs) choose between. golang.org/x/sys/cpu reads them once at
// start-up and also checks that the operating system saves the vector
// registers, so a feature is true only when it can be used. Every feature
// is false on other architectures.
//
// GODEBUG turns features off, for instance GODEBUG=cpu.avx512f=off to run
// the AVX2 kernels on an AVX-512 machine, or cpu.avx2=off,cpu.avx512f=off
// for the pure-Go ones (the purego build tag drops the assembly entirely).
package cpufeat

import "golang.org/x/sys/cpu"

// The features, fixed from start-up on.
var (
	// AVX2: 256-bit integer vectors (YMM state saved by the OS).
	AVX2 = cpu.X86.HasAVX2
	// POPCNT: the scalar population count.
	POPCNT = cpu.X86.HasPOPCNT
	// BMI2: shifts by a register count without flags (SHLX).
	BMI2 = cpu.X86.HasBMI2
	// AVX512F: AVX-512 Foundation (opmask and ZMM state saved by the OS).
	AVX512F = cpu.X86.HasAVX512F
	// AVX512DQ: AVX-512 doubleword and quadword instructions (KORTESTB).
	AVX512DQ = cpu.X86.HasAVX512DQ
	// AVX512VPOPCNTDQ: vector population count of 32- and 64-bit lanes.
	AVX512VPOPCNTDQ = cpu.X86.HasAVX512VPOPCNTDQ
)
