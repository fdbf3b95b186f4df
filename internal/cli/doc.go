// Package cli implements the apsp command line. Run is the whole program, so
// that tests drive it in-process with their own arguments and streams.
package cli
