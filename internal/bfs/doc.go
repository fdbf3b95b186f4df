// Package bfs computes all-pairs shortest-path summaries of unweighted
// graphs (every arc has length 1; weights, if any, are ignored), directed or
// undirected, by breadth-first search instead of a dense distance matrix.
//
// Rows runs one plain BFS per source. It is the simple engine, and From
// exposes its single traversal to other packages. A row needs only how
// many vertices each level holds, so Rows's searches (levels.go) keep a
// bit a vertex for the vertices seen and two frontiers, not a distance
// array, and fetch the arcs of frontier vertices ahead; a large graph
// searched from many sources is first renumbered in breadth-first order,
// its copy narrowed (uint32 offsets, int16 differences) where it fits.
// That is the engine for graphs of long distances (road-like, geometric),
// where a batch of BitRows pays a pass over the arcs for every level.
//
// BitRows is the fast engine: a bit-parallel multi-source BFS. A batch of
// 64·W sources keeps, for every vertex, W uint64 words with one bit per
// source: visited (the sources that have reached it) and the frontier (the
// bits it gained at the last level). One level advances all the batch's
// searches at once with word-wide ORs over the arcs.
//
// Per-source results come for free by searching the reversed graph: vertex
// v gains the bit of source s at level k exactly when d(v, s) = k, so the
// popcount of v's new bits at level k is the number of vertices at distance
// k from v. Accumulating k·popcount per vertex gives v's own Row (reach,
// eccentricity, sum of distances) without ever splitting the words into
// per-source counts, and the popcounts summed over vertices give Hist.
// With pull levels on the reversed graph, v reads the frontier words of its
// out-neighbours in g, so only pushes need g.Transpose().
//
// Each level is a push (each frontier vertex ORs its words into its
// neighbours) while the frontier's arcs are a small fraction of what a
// pull reads, and a pull otherwise: every vertex that not every source has
// reached yet ORs its out-neighbours' frontier words, stopping early once
// it is covered. A batch ends when the frontier is empty or every vertex
// is covered. The pull is the hot loop; on amd64 it is assembly (W = 8 in
// one ZMM register with AVX-512, else W = 4 in a YMM register with AVX2)
// that prefetches the frontier words of arcs ahead, since those loads are
// random; W = 1 (64 sources, a word a vertex in a general register) and
// W = 2 (an XMM register, AVX) have assembly too, for layouts that give
// each of many cores a small batch of its own (BenchmarkBitBriefLockstep;
// not defaults). Other platforms, older CPUs and the purego build tag use
// Go.
//
// Batches are spread over the workers of a par.Team, each with its own
// O(n·W) scratch; memory is never n×n. When a small graph has at least
// two threads a batch, the run goes in lockstep (lockstep.go): groups of
// workers, a batch a group, every worker pulling its stretch of
// each level (and stealing parts left by slower ones) between barriers of
// the group, the whole search one Run of the team, the arrays cleared and
// the totals merged by each worker on its own stretch. A huge graph whose
// scratch cannot be repeated splits each level of its one batch on a team
// of the batch worker's own. Scratch, padded heads and teams are kept
// between runs in a pool of sync.Pools (scratch.go), so a search loop that
// evaluates one graph after another allocates little and starts no
// goroutine per call; the garbage collector empties the pool once the calls
// stop.
//
// Matrix fills a full distance matrix with the same batched search, writing
// each pair's distance when its bit appears.
//
// BitRowsFrom and BitDistancesFrom run the batched search from a list of
// chosen sources (bitfrom.go): batches of up to 64·W arbitrary sources,
// searched forwards, so that a source's row is a count per bit rather
// than per vertex; bit-sliced counters (carry-save adders over sixteen
// vertices at a time) add the bits each level finds.
package bfs
