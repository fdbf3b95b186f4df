// Package par holds the thread helpers every engine shares: how many
// goroutines a thread count means (Threads), a balanced parallel loop over
// tasks (For) and over matrix rows (Rows, RowsWith), a Team of goroutines
// kept between calls for parallel work that repeats every few microseconds
// (a search loop's small graphs, a BFS's levels), where starting
// goroutines or waking parked threads would cost more than the work, and
// a spinning Barrier for the phases of one Team.Run. It sits below the CPU
// engines and the lane package so that neither has to import the other for
// them.
package par
