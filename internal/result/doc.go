// Package result holds what a computation returns — Distances, Stats,
// Summary, Histogram, Path, Choice and their Length and Mean values, with
// their JSON — and the measures that fill them from any engine's output:
// per-source rows (reduce.Row), briefs (reduce.Brief) and histograms. Every
// path that answers (one graph on the CPU or a GPU, the bulk engines, the
// distributed runs) ends in FromRows, FromBrief, FromHist or FromTotals
// (a bulk engine's reduction on the device), so the
// definitions of eccentricity, radius, diameter, center, periphery and
// ASPL live here once. The root package re-exports these types by alias.
package result
