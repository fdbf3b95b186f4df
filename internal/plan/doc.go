// Package plan turns a request — the caller's algorithm, device, threads,
// tile and what result it wants — into one plan before anything runs: the
// device, the threads, the lanes, the engine and the memory the run needs,
// admitted against what the process may still take. Under "auto" the
// engine is the one with the smallest estimated time (each engine's
// Estimate) among those whose capabilities take the graph; the plan keeps
// every candidate's estimate or refusal, which is what `apsp --explain`
// prints. Options are validated here, once; errors about the request wrap
// ErrInvalid, so that a command line can map them to its usage status.
package plan
