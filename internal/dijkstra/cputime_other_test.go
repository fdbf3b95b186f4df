//go:build !unix

package dijkstra

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
