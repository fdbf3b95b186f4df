// Bit-parallel multi-source breadth-first search of one large unweighted
// graph (gpu-bitbfs), compiled by NVRTC for the device with -DW=<words>.
//
// A batch is 64·W sources; bit i of word j of vertex v stands for source
// first+64j+i. The search runs on the reversed graph, as the CPU's bitbfs:
// bit s of v means "d(v, s) is known", so a level is a pull over v's
// out-arcs,
//   new[v] = OR over arcs v→u of frontier[u], minus visited[v],
// and the popcount of new[v] at level k is the number of sources at
// distance k from v: v's own row summary (reach, sum, eccentricity) is
// accumulated by v's thread, without atomics.
//
// Several batches run at once, one per slot (blockIdx.y); every array below
// is per slot, slot g at g·(its size). A level kernel does level k of every
// slot; the host launches levels in chunks and reads found[] back between
// them (a batch whose last level found nothing returns at once).
//
// Each slot holds:
//   vis[n][W]            sources that reached v
//   cur/nxt[n][W]        frontier of this level / the next (double-buffered
//                        by the host); a row is valid only where the
//                        matching bit of nz is set, so rows that gain
//                        nothing are never written nor cleared
//   nzCur/nzNxt[nw]      one bit a vertex: its frontier row is non-zero
//                        (built with a warp ballot; read through L1, it lets
//                        a pull skip the rows of vertices that are not in
//                        the frontier, which is most of them in the first
//                        levels)
//   found[4]             new (vertex, source) pairs per level, a ring: level
//                        k reads k-1, adds into k and zeroes k+1
//   sum[n] (u64), harm[n] (f64), reach[n], ecc[n]   per-vertex totals over
//                        the slot's batches (merged over the slots at the
//                        end); harm is Σ 1/d, added a level at a time as
//                        (new pairs)/k, so harmonic centrality needs no
//                        distances
// Global: hist[level] += new pairs (the hop plot); deep = the deepest level
// that found pairs (the host launches that many levels at once for the next
// group).
//
// The arcs are a CSR with 64-bit offsets whose every vertex's heads start
// at a multiple of 4 and are padded to a multiple of 4 with -1 (skipped),
// so they are read 16 bytes at a time.

#ifndef W
#define W 8
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
// EXIT: arcs between checks that v is already covered by every source.
#ifndef EXIT
#define EXIT 8
#endif

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned long long usize;

// LANES threads share a vertex (1, 2 or 4). Lane h of LANES loads the
// 16-byte chunks h, h+LANES, ... of a row, so that the LANES lanes of a
// vertex load 16·LANES consecutive bytes at once: with 2 or more, a warp's
// load asks L2 for whole 32-byte sectors rather than half-used ones. WL is a
// lane's words.
#ifndef LANES
#define LANES 1
#endif
#define WL (W / LANES)
// ROWLOAD 1 reads frontier rows through L1 (the second 16-byte half of a
// sector then hits L1), 0 past it (ld.global.cg).
#ifndef ROWLOAD
#define ROWLOAD 1
#endif
// STREAM 1 marks the arcs and visited rows evict-first, so that they pass
// through L2 without pushing out the frontier.
#ifndef STREAM
#define STREAM 0
#endif

// wordOf is the row index of lane h's t-th word.
__device__ __forceinline__ int wordOf(int t, int h) { return 2 * ((t / 2) * LANES + h) + (t & 1); }

__device__ __forceinline__ ulonglong2 loadRow(const ulonglong2* p) {
#if ROWLOAD
  return __ldg(p);
#else
  return __ldcg(p);
#endif
}

__device__ __forceinline__ ulonglong2 loadStream(const ulonglong2* p) {
#if STREAM
  return __ldcs(p);
#else
  return *p;
#endif
}

__device__ __forceinline__ int4 loadArcs(const int4* p) {
#if STREAM
  return __ldcs(p);
#else
  return __ldg(p);
#endif
}

__device__ __forceinline__ void storeStream(ulonglong2* p, ulonglong2 x) {
#if STREAM
  __stcs(p, x);
#else
  *p = x;
#endif
}

// orRow ORs the lane's words of row u of frontier f into acc.
__device__ __forceinline__ void orRow(u64 (&acc)[WL], const u64* __restrict__ f, int u, int h) {
  const u64* row = f + (usize)u * W;
#pragma unroll
  for (int t = 0; t < WL; t += 2) {
    ulonglong2 x = loadRow((const ulonglong2*)(row + wordOf(t, h)));
    acc[t] |= x.x;
    acc[t + 1] |= x.y;
  }
}

__device__ __forceinline__ bool allOnesL(const u64 (&x)[WL]) {
  u64 a = ~0ull;
#pragma unroll
  for (int j = 0; j < WL; j++) a &= x[j];
  return a == ~0ull;
}

// pairAll is true when every lane sharing the vertex has ok (the lanes of
// a vertex run the same loop, so they meet here).
__device__ __forceinline__ bool pairAll(bool ok) {
  if (LANES == 1) return ok;
  const u32 mask = ((1u << LANES) - 1) << (threadIdx.x & 31 & ~(LANES - 1));
  return __all_sync(mask, ok);
}

// firstLanes packs bits 0, LANES, 2·LANES, ... of a warp's ballot: one bit a
// vertex, 32/LANES of them.
__device__ __forceinline__ u32 firstLanes(u32 x) {
  if (LANES == 2) {
    x &= 0x55555555u;
    x = (x | (x >> 1)) & 0x33333333u;
    x = (x | (x >> 2)) & 0x0f0f0f0fu;
    x = (x | (x >> 4)) & 0x00ff00ffu;
    x = (x | (x >> 8)) & 0x0000ffffu;
  } else if (LANES == 4) {
    x &= 0x11111111u;
    x = (x | (x >> 3)) & 0x03030303u;
    x = (x | (x >> 6)) & 0x000f000fu;
    x = (x | (x >> 12)) & 0x000000ffu;
  }
  return x;
}

// The bits of a batch's absent sources (a short last batch) in word j.
__device__ __forceinline__ u64 absentBits(int count, int j) {
  const int valid = min(max(count - 64 * j, 0), 64);
  return valid == 64 ? 0ull : ~0ull << valid;
}

// bitbfs_init sets up slot blockIdx.y for batch base+blockIdx.y: visited is
// the source itself plus the absent sources, the frontier the sources.
// With dist (slot 0 only) it also fills the batch's distance block with -1
// and 0 on the diagonal.
extern "C" __global__ void __launch_bounds__(BLOCK) bitbfs_init(int n, int nw, int base, u64* vis, u64* cur, u32* nzCur,
                                                                u64* found, int* dist) {
  const int g = blockIdx.y;
  const int v = blockIdx.x * BLOCK + threadIdx.x;
  const int first = (base + g) * 64 * W;
  const int count = min(64 * W, n - first);
  const usize slotRows = (usize)n * W;
  bool src = false;
  if (v < n) {
    const int i = v - first;
    src = i >= 0 && i < count;
    u64 row[W];
#pragma unroll
    for (int j = 0; j < W; j++) {
      const u64 self = (src && i / 64 == j) ? 1ull << (i % 64) : 0ull;
      row[j] = absentBits(count, j) | self;
      if (src) cur[g * slotRows + (usize)v * W + j] = self;
    }
    ulonglong2* p = (ulonglong2*)(vis + g * slotRows + (usize)v * W);
#pragma unroll
    for (int h = 0; h < W / 2; h++) p[h] = make_ulonglong2(row[2 * h], row[2 * h + 1]);
    if (dist != 0) {
      int* d = dist + (usize)v * 64 * W;
      for (int s = 0; s < 64 * W; s++) d[s] = (s == i) ? 0 : -1;
    }
  }
  const u32 word = __ballot_sync(0xffffffffu, src);
  if ((threadIdx.x & 31) == 0 && (v >> 5) < nw) nzCur[(usize)g * nw + (v >> 5)] = word;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    found[4 * g] = (u64)count;
    found[4 * g + 1] = 0;
  }
}

// bitbfs_level runs level k of every slot. dist, when not null, receives
// the distances of slot 0's batch: dist[v][s] = k for the new bits.
extern "C" __global__ void __launch_bounds__(BLOCK) bitbfs_level(
    int n, int nw, int k, const long long* __restrict__ off, const int4* __restrict__ heads, u64* vis,
    const u64* __restrict__ cur, u64* nxt, const u32* __restrict__ nzCur, u32* nzNxt, u64* found, u32* deep,
    unsigned long long* sum, double* harm, u32* reach, u32* ecc, unsigned long long* hist, int* dist,
    unsigned long long* stats) {
  __shared__ u32 part[BLOCK / 32];
#ifdef STATS
  // Rows gathered and arc words read, for the bytes-moved estimate.
  __shared__ u32 sRows[BLOCK / 32], sArcs[BLOCK / 32];
  u32 nRows = 0, nArcs = 0;
#endif
  const int g = blockIdx.y;
  if (blockIdx.x == 0 && threadIdx.x == 0) found[4 * g + ((k + 1) & 3)] = 0;
  // The batch ended when the last level found nothing (uniform per block).
  if (*(volatile u64*)(found + 4 * g + ((k - 1) & 3)) == 0) return;
  const int h = threadIdx.x & (LANES - 1);
  const int v = (blockIdx.x * BLOCK + threadIdx.x) / LANES;
  const usize slotRows = (usize)n * W;
  u32 c = 0;  // new bits of the lane's words
  if (v < n) {
    u64* vp = vis + g * slotRows + (usize)v * W;
    u64 vs[WL], acc[WL];
#pragma unroll
    for (int t = 0; t < WL; t += 2) {
      ulonglong2 x = loadStream((const ulonglong2*)(vp + wordOf(t, h)));
      vs[t] = x.x;
      vs[t + 1] = x.y;
      acc[t] = acc[t + 1] = 0;
    }
    if (!pairAll(allOnesL(vs))) {
      const u64* cg = cur + g * slotRows;
      const u32* nzg = nzCur + (usize)g * nw;
      const long long lo = off[v] >> 2, hi = off[v + 1] >> 2;
      for (long long q = lo; q < hi; q++) {
        const int4 h4 = loadArcs(heads + q);
        const int us[4] = {h4.x, h4.y, h4.z, h4.w};
#ifdef STATS
        nArcs += 4;
#endif
#pragma unroll
        for (int e = 0; e < 4; e++) {
          const int u = us[e];  // -1 pads a vertex's arcs to a multiple of 4
          if (u >= 0 && ((__ldg(nzg + (u >> 5)) >> (u & 31)) & 1u)) {
            orRow(acc, cg, u, h);
#ifdef STATS
            nRows++;
#endif
          }
        }
        if (((q - lo) & (EXIT / 4 - 1)) == EXIT / 4 - 1 && q + 1 < hi) {
          u64 m[WL];
#pragma unroll
          for (int j = 0; j < WL; j++) m[j] = acc[j] | vs[j];
          if (pairAll(allOnesL(m))) break;
        }
      }
#pragma unroll
      for (int j = 0; j < WL; j++) {
        acc[j] &= ~vs[j];
        c += __popcll(acc[j]);
      }
      if (!pairAll(c == 0)) {
        u64* np = nxt + g * slotRows + (usize)v * W;
#pragma unroll
        for (int t = 0; t < WL; t += 2) {
          *(ulonglong2*)(np + wordOf(t, h)) = make_ulonglong2(acc[t], acc[t + 1]);
          storeStream((ulonglong2*)(vp + wordOf(t, h)), make_ulonglong2(vs[t] | acc[t], vs[t + 1] | acc[t + 1]));
        }
        if (dist != 0) {
          int* d = dist + (usize)v * 64 * W;
#pragma unroll
          for (int t = 0; t < WL; t++)
            for (u64 x = acc[t]; x != 0; x &= x - 1) d[64 * wordOf(t, h) + __ffsll((long long)x) - 1] = k;
        }
      }
    }
  }
  // The vertex's new bits, on its first lane.
  u32 cv = c;
#pragma unroll
  for (int d = 1; d < LANES; d *= 2) cv += __shfl_xor_sync(0xffffffffu, cv, d);
  const bool first = h == 0;
  if (first && cv != 0) {
    const usize o = (usize)g * n + v;
    sum[o] += (u64)k * cv;
    harm[o] += (double)cv / (double)k;
    reach[o] += cv;
    ecc[o] = max(ecc[o], (u32)k);
  }
  // The next frontier's bitmap: a warp holds 32/LANES vertices, a word,
  // half a word or a byte of it.
  const u32 ballot = firstLanes(__ballot_sync(0xffffffffu, cv != 0));
  const int lane = threadIdx.x & 31;
  if (lane == 0) {
    const usize at = (usize)g * nw * LANES + v / (32 / LANES);  // in units of 32/LANES bits
    if (v / (32 / LANES) < nw * LANES) {
      if (LANES == 1) nzNxt[at] = ballot;
      if (LANES == 2) ((unsigned short*)nzNxt)[at] = (unsigned short)ballot;
      if (LANES == 4) ((unsigned char*)nzNxt)[at] = (unsigned char)ballot;
    }
  }
  const u32 ws = __reduce_add_sync(0xffffffffu, first ? cv : 0u);
  if (lane == 0) part[threadIdx.x >> 5] = ws;
#ifdef STATS
  nRows = __reduce_add_sync(0xffffffffu, first ? nRows : 0u);
  nArcs = __reduce_add_sync(0xffffffffu, first ? nArcs : 0u);
  if (lane == 0) {
    sRows[threadIdx.x >> 5] = nRows;
    sArcs[threadIdx.x >> 5] = nArcs;
  }
#endif
  __syncthreads();
  if (threadIdx.x == 0) {
    u64 t = 0;
#pragma unroll
    for (int i = 0; i < BLOCK / 32; i++) t += part[i];
    if (t != 0) {
      atomicAdd(found + 4 * g + (k & 3), t);
      atomicAdd(hist + k, t);
      atomicMax(deep, (u32)k);
    }
#ifdef STATS
    u64 r = 0, a = 0;
    for (int i = 0; i < BLOCK / 32; i++) {
      r += sRows[i];
      a += sArcs[i];
    }
    atomicAdd(stats, r);
    atomicAdd(stats + 1, a);
    atomicAdd(stats + 2, 1ull);  // blocks that ran the level
#endif
  }
}

// bitbfs_merge adds the slots' per-vertex totals into slot 0.
// Slots add in order, so that the float sums are the same from run to run.
extern "C" __global__ void __launch_bounds__(BLOCK) bitbfs_merge(int n, int slots, unsigned long long* sum, double* harm,
                                                                 u32* reach, u32* ecc) {
  const int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v >= n) return;
  u64 s = sum[v];
  double hm = harm[v];
  u32 r = reach[v], e = ecc[v];
  for (int g = 1; g < slots; g++) {
    const usize o = (usize)g * n + v;
    s += sum[o];
    hm += harm[o];
    r += reach[o];
    e = max(e, ecc[o]);
  }
  sum[v] = s;
  harm[v] = hm;
  reach[v] = r;
  ecc[v] = e;
}
