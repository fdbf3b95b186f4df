package apsp

import "github.com/apsp/apsp/internal/result"

// The result types live in internal/result, where every engine's output is
// reduced to them; they are re-exported here by alias, so that callers see
// one type whichever path answered.

// Length is a path length: an exact integer for graphs without float
// weights, a float64 otherwise, or infinite when there is no path.
type Length = result.Length

// Mean is an average length such as the ASPL; it marshals infinity and NaN
// as null.
type Mean = result.Mean

// Stats are the summary measures of a graph. Infinite measures marshal as
// JSON null.
type Stats = result.Stats

// Summary is the diameter and ASPL of a graph, as a search loop asks them
// (SummaryBatch, Evaluator.Summary).
type Summary = result.Summary

// Distances is an all-pairs distance matrix, with a successor matrix when it
// was computed with Options.Paths.
type Distances = result.Distances

// SourceDistances is an origin–destination matrix: the distances from
// chosen sources to every vertex (DistancesFrom).
type SourceDistances = result.SourceDistances

// Estimate is what a sample of sources says of a graph (EstimateStats):
// estimates marked as such, never an exact answer unless it says so.
type Estimate = result.Estimate

// Interval is an estimate with its 95 % confidence interval.
type Interval = result.Interval

// Path is one shortest path.
type Path = result.Path

// Histogram is the distribution of shortest-path lengths (the hop plot).
type Histogram = result.Histogram

// Choice is the plan of a computation, as Explain returns it.
type Choice = result.Choice

// Candidate is one engine as "auto" saw it.
type Candidate = result.Candidate

// DeviceInfo describes a GPU.
type DeviceInfo = result.DeviceInfo

// IntLength returns the exact integer length v.
func IntLength(v int64) Length { return result.IntLength(v) }

// FloatLength returns the float length v (+Inf means no path).
func FloatLength(v float64) Length { return result.FloatLength(v) }

// Infinite returns the length of a missing path.
func Infinite(isFloat bool) Length { return result.Infinite(isFloat) }

// ErrNoSuccessors is returned by Distances.Path on distances computed
// without Options.Paths.
var ErrNoSuccessors = result.ErrNoSuccessors
