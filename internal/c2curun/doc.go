// Package c2curun executes C2CU programs: the generated CUDA kernel on a GPU
// (compiled by NVRTC, no nvcc needed) and the original C program, built with
// the host C compiler into a loop over the inputs, on one CPU core, so that
// "apsp c2cu run" and "apsp c2cu bench" can time both and check that they
// agree bit for bit.
//
// Inputs and outputs are kept per global in row layout [P][dims...] (input p
// is contiguous), as the .npy files and the C driver use them; the GPU side
// transposes them to the column-wise layout [dims...][P] in which a warp's
// accesses are contiguous.
package c2curun
