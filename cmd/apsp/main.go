// Command apsp computes all-pairs shortest paths and the measures derived
// from them. Run "apsp help" for the commands.
//
// APSP_CPUPROFILE=FILE writes a CPU profile of the whole run to FILE (for
// go tool pprof): how the service under load, or any command, spends its
// time on a machine without Go.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/apsp/apsp/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	end := profile(os.Getenv("APSP_CPUPROFILE"))
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	end()
	stop()
	os.Exit(code)
}

// profile starts a CPU profile into path, when one is named, and returns
// what ends it.
func profile(path string) (end func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "apsp: APSP_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "apsp: APSP_CPUPROFILE: %v\n", err)
		}
	}
}
