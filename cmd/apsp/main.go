// Command apsp computes all-pairs shortest paths and the measures derived
// from them. Run "apsp help" for the commands.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/apsp/apsp/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
