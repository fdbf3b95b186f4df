// Package par holds the thread helpers every engine shares: how many
// goroutines a thread count means (Threads), a balanced parallel loop over
// tasks (For) and over matrix rows (Rows, RowsWith). It sits below the CPU
// engines and the lane package so that neither has to import the other for
// them.
package par
