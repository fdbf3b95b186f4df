// Package encode writes apsp's results: distance matrices as TSV or NumPy
// .npy arrays, streamed a row at a time (Distances.Row); Stats and Summary
// records; and any result as indented JSON. The apsp command line uses it;
// so can services and bulk runs, which then write the same bytes.
//
// # Stats and Summary
//
// StatsText writes a Stats as apsp stats prints it, a "name  value" line
// per measure; JSON writes it as stats --json does. Many graphs' records go
// through a StatsWriter (or SummaryWriter), one record a graph with the
// graph's id, in the order written, as apsp bulk writes them:
//
//   - JSON Lines (NewStatsJSONL, NewSummaryJSONL): an object a line,
//     "id" first, then the fields of the record's JSON; a failed graph is
//     {"id": ..., "error": "why"}.
//   - CSV (NewStatsCSV, NewSummaryCSV): a header line (StatsCSVHeader,
//     SummaryCSVHeader: "id", the JSON field names, "error"), then a row
//     per graph, with inf and nan as words and vertex lists
//     space-separated; a failed graph's row holds only its id and the
//     error.
//
// Ids are JSON values (a string or a number), written as given in JSON
// Lines and as text in CSV (a string without its quotes).
//
// # Unreachable pairs
//
// Each format has one representation of "no path", the same for every
// graph:
//
//   - TSV: the word inf.
//   - .npy with an integer dtype (uint8, int16, uint16, int32, int64): the
//     dtype's maximum (255, 32767, 65535, 2³¹−1, 2⁶³−1), as
//     graph-tool writes it; it also sorts after every real distance. An
//     integer dtype is refused when a real distance equals that maximum.
//   - .npy with a float dtype (float32, float64): +Inf.
//
// In NumPy, d = np.load("d.npy"); d = np.where(d == np.iinfo(d.dtype).max,
// np.inf, d) turns an integer matrix into floats with inf for unreachable.
//
// # Dtypes
//
// The default dtype is the narrowest integer type that holds every real
// distance exactly beside its unreachable sentinel, tried in the order
// uint8, uint16, int16, int32, int64 (non-negative distances up to 254 are
// uint8, up to 65534 uint16; negative ones int16 from −32768 to 32766),
// and float64 for float weights. The dtype therefore depends on the graph:
// read the sentinel as np.iinfo(d.dtype).max rather than a constant.
// A dtype asked for is checked against every real distance first, and
// refused, with nothing written, when it cannot hold one exactly; the
// error names the dtype, the distance and, when one exists, the
// narrowest dtype that would do:
//
//   - uint8 needs every distance in [0, 254], uint16 in [0, 65534], int16
//     in [−2¹⁵, 2¹⁵−2], int32 in [−2³¹, 2³¹−2], int64 in [−2⁶³, 2⁶³−2] (the
//     maximum is the unreachable sentinel; unsigned dtypes refuse negative
//     distances). Float distances take no integer dtype.
//   - float64 holds integer distances up to 2⁵³ in magnitude, and float
//     distances as computed.
//   - float32 holds integer distances up to 2²⁴ in magnitude. For float
//     distances float32 is an explicit lossy choice, never the default:
//     each distance is rounded to the nearest float32 (relative error at
//     most 2⁻²⁴), and the dtype is refused when a distance would round to
//     infinity or a non-zero one falls below float32's normal range
//     (2⁻¹²⁶), where the relative error has no bound.
//
// A distance of 2⁶³−1 (a single arc of that weight) fits no dtype; such a
// matrix can still be written as TSV.
package encode
