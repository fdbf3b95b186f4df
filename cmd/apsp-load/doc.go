// Command apsp-load is a load generator for `apsp serve --http`: N
// concurrent clients send random d-regular graphs of n vertices (64 and 4
// by default) to a service for a duration or a count of requests, and it
// reports graphs a second and latency percentiles (p50, p90, p99, max).
// Every answer is checked against the library's (apsp.SummaryBatch of
// the same graphs, computed once before the run), so that a fast wrong
// answer does not count.
//
// It talks to loopback addresses only, unless -allow-remote says
// otherwise: it is a tool for measuring a service one runs, not for
// loading someone else's.
//
//	apsp serve --http 127.0.0.1:8080 &
//	apsp-load -url http://127.0.0.1:8080 -c 64 -n 64 -d 4 -duration 10s
package main
