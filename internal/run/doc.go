// Package run is the executor below the public facade: it takes options
// already parsed (plan.Options), asks the planner for a plan, runs the
// engine (or batch engine, the bounds method, a single-source path search,
// the distributed run) the plan names and reduces its output to results
// (package result). Batches run here too: the batch engines first, then
// small graphs one per worker goroutine, each keeping its last plan, then
// large graphs one at a time, results handed over in input order.
//
// It decides nothing by an engine's name: what runs follows the plan and
// the engines' capabilities (engine.Caps, the Rows, Brief and Hist
// reducers, engine.Batches).
package run
