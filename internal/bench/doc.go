// Package bench is the Floyd–Warshall benchmark harness behind "apsp bench
// fw": it times the GPU kernels (or the CPU engine) over sizes and block
// shapes on fresh random graphs, checks every timed result against the CPU,
// and prints a table like the seeds' Table 3.1, JSON, and Go benchmark
// lines that benchstat reads.
package bench
