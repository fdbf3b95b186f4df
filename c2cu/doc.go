// Package c2cu turns an oblivious sequential C program into CUDA C for bulk
// execution: running the program on P independent inputs at once, one GPU
// thread per input (Takafuji's thesis, Ch. 4, and Ito's C2CU poster).
//
// A sequential algorithm is oblivious if the address it accesses at each step
// does not depend on the input data. Its bulk execution is then time-optimal
// on the UMM if the P copies of every global are interleaved column-wise:
// each global a[s1]...[sd] gains a last dimension of size P and thread id
// accesses a[i1]...[id][id], so the threads of a warp touch consecutive
// addresses (coalesced), O(pt/w + lt) for running time t.
//
// # Supported subset
//
//   - #define NAME value, where value is a constant expression of literals
//     and earlier #defines (kept in the generated code); #include <stdio.h>
//     and <stdlib.h> are ignored, other pragmas too;
//   - global arrays of int, unsigned, long, unsigned long, float or double
//     with any number of constant dimensions, and scalar globals of those
//     types, without initialisers: the globals are the per-input memory;
//   - functions returning void or one of those types, with scalar parameters
//     and local scalars (declared in any block or in a for header, with or
//     without initialisers); calls among them, without recursion;
//   - for, while, if/else, break, continue, return, blocks, and the usual
//     expressions: arithmetic, comparison, logical, bitwise, shifts, ?:,
//     comma, casts to supported types, = and compound assignments, ++/--,
//     decimal/octal/hex integer and decimal floating literals;
//   - // and /* */ comments;
//   - main() is skipped except for `#pragma kernel` on the line before a
//     statement `f(args);` whose arguments are constants: f, which must
//     return void, is what every GPU thread runs on its input.
//
// Everything else (pointers, &, structs, unions, enums, typedefs, local
// arrays, array parameters, goto, switch, do-while, sizeof, strings and
// characters, char and short, function-like macros, #if, other #includes,
// global initialisers, names starting with __ or c2cu_ and a few names that
// would clash with C++, CUDA or the generated host code) is rejected by
// Parse with an *Error "FILE:LINE: not supported: ...".
//
// # Obliviousness
//
// Check follows data dependence ("taint") from the globals through locals,
// parameters and return values to a fixpoint, and rejects an array index, a
// for or while condition that may depend on the input, and break or continue
// under a data-dependent condition. A data-dependent if may choose whether
// to access memory but not where. Only functions reached from the kernel
// call are checked.
//
// # Generated code
//
// GenerateStandalone prints the seeds' Fig. 4.7 form for nvcc: the user's
// #defines and names are kept, __P__, __T__ and __B__ are defined, each
// global becomes a __device__ pointer __a to a cudaMalloc'd [dims...][__P__]
// array, called functions become __device__ functions taking __id__, and the
// kernel function becomes the __global__ kernel. Its main fills the inputs
// with rand() after srand(1) (values in [0, 1000) for signed and floating
// types, full range for unsigned ones) and prints the kernel time and a
// checksum per global.
//
// GenerateKernel prints the form the Go runtime compiles with NVRTC: one
// entry point
//
//	extern "C" __global__ void c2cu_kernel(T0 *a0, T1 *a1, ..., int P)
//
// with one pointer per global of Program.Arrays in order, each laid out
// [dims...][P] (element [i1]...[id] of input p at ((i1*s2 + i2)...)*P + p);
// scalars are [P]. long and unsigned long are long long and unsigned long
// long (int64, uint64) on the device. Compile without FMA contraction
// (NVRTC option --fmad=false) when floating results must match the CPU bit
// for bit.
//
// GenerateDriver prints a C program that runs the original kernel call once
// per input on the CPU (the baseline of `c2cu bench`); see its doc for the
// file format.
//
// The tests compile GenerateKernel's output as C++ with a small emulation of
// blockIdx/threadIdx and check its results against the driver's, bit for bit,
// for every example in examples/c2cu.
package c2cu
