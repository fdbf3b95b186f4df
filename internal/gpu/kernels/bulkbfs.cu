// Bit-parallel breadth-first search of many small unweighted graphs at once
// (bulk execution, the Graph Golf case), compiled by NVRTC for the device.
//
// One thread block is one task: a graph and a run of its batches of 32
// (bulk_h1_*) or 64·W (bulk_wW_*) sources. Thread v owns vertex v (n ≤
// blockDim ≤ 1024); past 1 024 vertices (the *_vN kernels, up to 16 384
// vertices) each of 1 024 threads owns N of them, x, x+1024, .... The
// search runs on the reversed graph: bit s of vertex v's words means
// "d(v, s) is known", so a level is a pull over v's out-arcs,
//   new[v] = OR over arcs v→w of frontier[w], minus visited[v],
// and the popcount of new[v] at level L is the number of sources of the
// batch at distance L from v. v's thread accumulates Reach, Sum and the
// eccentricity of v's own row in registers; only those three numbers per
// vertex leave the block. visited[v] lives in registers; the frontier is
// double-buffered in shared memory (2·n·W words of 4 or 8 bytes), so a
// level has one barrier. With SH the graph's arcs are copied once into
// shared memory as an ELL table (the i-th arc of v at i·n + v, 16-bit
// heads): a warp reads its i-th arcs from consecutive addresses. Without SH
// (the table would not fit) the arcs are read from the CSR in global memory
// through the cache.
//
// Inputs, per launch:
//   tasks[blockIdx.x] = {graph, first batch, batch count, tasks of the graph}
//   graphs[g]         = {n, ELL width (largest degree), CSR start, row start}
//   csr: per graph, n+1 offsets (int32, relative to the graph's own
//        heads) then the heads: 16-bit (n ≤ 16 384; half the bytes to copy)
//        or, for the *_i32 kernels, 32-bit (a chunk of few arcs, where
//        the host's narrowing costs more than the copy it saves); for the
//        *_vN kernels padded to 16-byte chunks of 8 heads (PAD, below)
// Outputs, per vertex (at row start + v): reach, sum, ecc. A graph whose
// batches are spread over several tasks is merged with atomics (the
// outputs are zeroed first); a graph of one task stores.
//
// The bulk_sum_* kernels (BulkSummaries) write no rows: each block sums
// reach and sum and takes the largest ecc over its threads, and adds them
// with three atomics into its graph's SUM_WORDS words (pairs, diameter, a
// count of the graph's blocks done, zero, the 64-bit sum of distances;
// zeroed first), so that 32 bytes a graph come back. With host set
// (page-locked memory, which unified addressing maps at the same address),
// the last block of a graph writes them there itself: no copy back.
// They take S, the sources of a batch (≤ 8·sizeof(T)·W): the half-word
// ones 8, 16 or 32 (more blocks a graph; on an H100 no faster).

#ifndef MINB
#define MINB 1
#endif

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned short u16;

// A batch is W words of type T per vertex: T = u32 (32 sources, W = 1) or
// u64 (64·W sources). Wide words are moved 16 bytes at a time.
__device__ __forceinline__ int popc(u32 x) { return __popc(x); }
__device__ __forceinline__ int popc(u64 x) { return __popcll(x); }

template <typename T, int W>
__device__ __forceinline__ void orLoad(T (&acc)[W], const T* __restrict__ f, int u) {
  if (W == 1) {
    acc[0] |= f[u];
  } else {
    const ulonglong2* p = (const ulonglong2*)(f + u * W); // T = u64 here
#pragma unroll
    for (int h = 0; h < W / 2; h++) {
      ulonglong2 x = p[h];
      acc[2 * h] |= x.x;
      acc[2 * h + 1] |= x.y;
    }
  }
}

template <typename T, int W>
__device__ __forceinline__ void store(T* __restrict__ f, int v, const T (&x)[W]) {
  if (W == 1) {
    f[v] = x[0];
  } else {
    ulonglong2* p = (ulonglong2*)(f + v * W);
#pragma unroll
    for (int h = 0; h < W / 2; h++) p[h] = make_ulonglong2(x[2 * h], x[2 * h + 1]);
  }
}

template <typename T, int W>
__device__ __forceinline__ bool full(const T (&x)[W]) {
  T a = ~(T)0;
#pragma unroll
  for (int w = 0; w < W; w++) a &= x[w];
  return a == ~(T)0;
}

// Warp sums and maxima (shuffles: any compute capability).
__device__ __forceinline__ u32 warpSum(u32 x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}
__device__ __forceinline__ u64 warpSum(u64 x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}
__device__ __forceinline__ u32 warpMax(u32 x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x = max(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

// The summaries' output, per graph of a chunk (SUM_WORDS 32-bit words):
// pairs, diameter, blocks done, zero, then the distance sum in 64 bits (at
// a multiple of 8 bytes): a graph of 16 384 vertices may sum past 2^32.
#define SUM_WORDS 8

// A thread's totals: a summary's thread keeps one of each (index 0) over
// its vertices, the distance sum in 64 bits; a rows kernel's one a vertex,
// whose distance sum is below (n-1)² < 2^32.
template <bool SUM, typename X, typename Y> struct pick { typedef X type; };
template <typename X, typename Y> struct pick<false, X, Y> { typedef Y type; };
template <bool SUM, int VPT>
struct totals {
  u32 r[SUM ? 1 : VPT], e[SUM ? 1 : VPT];
  typename pick<SUM, u64, u32>::type s[SUM ? 1 : VPT];
};

// orChunk ORs into acc the frontier rows of the 8 16-bit heads of q.
template <typename T, int W>
__device__ __forceinline__ void orChunk(T (&acc)[W], const T* __restrict__ f, int4 q) {
  const u32 h[4] = {(u32)q.x, (u32)q.y, (u32)q.z, (u32)q.w};
#pragma unroll
  for (int k = 0; k < 4; k++) {
    orLoad<T, W>(acc, f, (int)(h[k] & 0xffffu));
    orLoad<T, W>(acc, f, (int)(h[k] >> 16));
  }
}

// SUM: reduce to the graph's SUM_WORDS words (out = reach, SUM_WORDS·graph)
// instead of per-vertex rows; S is the sources of a batch. VPT is the
// vertices a thread owns: thread x owns x, x+blockDim, ..., x+(VPT-1)·blockDim
// (n ≤ VPT·blockDim); past 4 of them their arc ranges are read again at each
// level (cached) rather than held in registers. With VPT > 1 the arcs are
// padded (PAD): the n+1 offsets (rounded up to 4 words) count 16-byte
// chunks of 8 heads, each vertex's heads padded to a multiple of 8 with the
// vertex itself (which adds nothing: v has seen its own frontier's bits),
// so that a load brings 8 heads.
//
// EDITS (the bulk_sum_*_sh_e kernels): every graph of the launch is one base
// graph's arcs (the same CSR) with E arc edits of its own, edits[E·graph
// + k] = {ELL index (slot·n + tail), new head}, or a negative index for
// none: the base's arcs go to the GPU once and a change of it (an edge
// swap) as a few words.
template <typename T, int W, bool SH, typename H, bool SUM, int VPT, bool EDITS = false>
__device__ __forceinline__ void bfs(const int4* __restrict__ tasks, const int4* __restrict__ graphs,
                                    const int* __restrict__ csr, u32* __restrict__ reach, u32* __restrict__ sum,
                                    u32* __restrict__ ecc, const int S, u32* __restrict__ host,
                                    const int2* __restrict__ edits = nullptr, const int E = 0) {
  extern __shared__ __align__(16) u64 sm[];
  constexpr bool KEEP = VPT <= 4;
  constexpr bool PAD = VPT > 1;
  static_assert(!PAD || (W == 1 && sizeof(T) == 4), "the mid-size kernels take one 32-bit word a vertex");
  const int4 t = tasks[blockIdx.x];
  const int4 g = graphs[t.x];
  const int n = g.x;
  const int x = threadIdx.x, stride = blockDim.x;
  const int* off = csr + g.z;
  const H* heads = (const H*)(off + n + 1);
  const int4* chunks = (const int4*)(off + ((n + 4) & ~3)); // PAD: 8 heads each
  T* fr = (T*)sm; // the two frontiers, n·W words each
  u16* ell = (u16*)(fr + 2 * n * W);
  // Past KEEP without SH the offsets are copied into shared memory after
  // the frontiers: read from global memory at each level, they made each
  // vertex wait for two loads from L2 in a row (the offset, then its arcs).
  constexpr bool SHOFF = !KEEP && !SH;
  int* soff = (int*)(fr + 2 * n * W);
  if (SHOFF)
    for (int v = x; v <= n; v += stride) soff[v] = off[v];
  int keepLo[KEEP ? VPT : 1], keepDeg[KEEP ? VPT : 1];
#pragma unroll
  for (int j = 0; j < VPT; j++) {
    const int v = x + j * stride;
    int lo = 0, deg = 0;
    if (v < n) {
      lo = off[v];
      deg = off[v + 1] - lo;
    }
    if constexpr (KEEP) {
      keepLo[j] = lo;
      keepDeg[j] = deg;
    }
    if (SH && PAD) {
      // The same from 16-byte chunks: deg counts chunks here.
#pragma unroll 1
      for (int c = 0; c < deg; c++) {
        const int4 q = __ldg(chunks + lo + c);
        const u32 h[4] = {(u32)q.x, (u32)q.y, (u32)q.z, (u32)q.w};
#pragma unroll
        for (int k = 0; k < 4; k++) {
          ell[(8 * c + 2 * k) * n + v] = (u16)(h[k] & 0xffffu);
          ell[(8 * c + 2 * k + 1) * n + v] = (u16)(h[k] >> 16);
        }
      }
    } else if (SH) {
      // Transpose v's arcs into the shared ELL table; the barrier before
      // the first level orders these writes before the reads.
      // Eight loads in flight at a time: the arcs come from L2 or memory,
      // and a round of loads is a round of latency.
      const H* h = heads + lo;
      int i = 0;
#pragma unroll 1
      for (; i + 8 <= deg; i += 8) {
        H a[8];
#pragma unroll
        for (int k = 0; k < 8; k++) a[k] = __ldg(h + i + k);
#pragma unroll
        for (int k = 0; k < 8; k++) ell[(i + k) * n + v] = (u16)a[k];
      }
#pragma unroll 1
      for (; i < deg; i++) ell[i * n + v] = (u16)__ldg(h + i);
    }
  }
  if constexpr (EDITS) {
    static_assert(SH && !PAD, "edits rewrite the shared ELL table of a thread-a-vertex kernel");
    // After the base's arcs are in the table (another thread wrote the
    // entry an edit rewrites); the batch's first barrier orders the edits
    // before the first level reads them.
    __syncthreads();
    const int2* e = edits + (size_t)t.x * E;
    for (int k = x; k < E; k += stride) {
      const int2 q = e[k];
      if (q.x >= 0) ell[q.x] = (u16)q.y;
    }
  }
  totals<SUM, VPT> tot;
#pragma unroll
  for (int k = 0; k < (SUM ? 1 : VPT); k++) tot.r[k] = tot.e[k] = 0, tot.s[k] = 0;
  for (int b = t.y; b < t.y + t.z; b++) {
    const int B = 8 * sizeof(T); // bits per word
    const int first = b * S;      // S sources a batch
    T vis[VPT][W];
#pragma unroll
    for (int j = 0; j < VPT; j++) {
      const int v = x + j * stride;
      T self[W];
#pragma unroll
      for (int w = 0; w < W; w++) {
        const int s0 = first + B * w;
        // The word's sources: past n, or past the batch's S, they are
        // absent, and their bits count as visited.
        const int cnt = max(0, min(min(B, n - s0), first + S - s0));
        const T absent = cnt >= B ? (T)0 : ~(T)0 << cnt;
        self[w] = (v >= s0 && v < s0 + cnt) ? (T)1 << (v - s0) : (T)0;
        vis[j][w] = absent | self[w];
      }
      if (v < n) store<T, W>(fr, v, self);
    }
    __syncthreads();
    // The frontier of this level is at fr + cur, the next one at fr + nxt
    // (word offsets, so that they stay shared-memory addresses).
    int cur = 0, nxt = n * W;
    for (int level = 1;; level++) {
      int any = 0;
#pragma unroll
      for (int j = 0; j < VPT; j++) {
        const int v = x + j * stride;
        T acc[W];
#pragma unroll
        for (int w = 0; w < W; w++) acc[w] = 0;
        if (v < n && !full<T, W>(vis[j])) {
          int lo, deg;
          if constexpr (KEEP) {
            lo = keepLo[j];
            deg = keepDeg[j];
          } else if constexpr (SHOFF) {
            lo = soff[v];
            deg = soff[v + 1] - lo;
          } else {
            lo = __ldg(off + v);
            deg = __ldg(off + v + 1) - lo;
          }
          if (PAD && level == 1) {
            // Level 1 reads no frontier: v's new sources are its heads
            // among the batch's (first + k for k < present).
            const u32 present = (u32)min(S, n - first);
            if (SH) {
              for (int i = 0; i < 8 * deg; i++) {
                const u32 k = (u32)ell[i * n + v] - (u32)first;
                if (k < present) acc[0] |= (T)1 << k;
              }
            } else {
              for (int c = 0; c < deg; c++) {
                const int4 q = __ldg(chunks + lo + c);
                const u32 h[4] = {(u32)q.x, (u32)q.y, (u32)q.z, (u32)q.w};
#pragma unroll
                for (int k = 0; k < 4; k++) {
                  const u32 a = (h[k] & 0xffffu) - (u32)first, b = (h[k] >> 16) - (u32)first;
                  if (a < present) acc[0] |= (T)1 << a;
                  if (b < present) acc[0] |= (T)1 << b;
                }
              }
            }
          } else if (PAD && !SH) {
#pragma unroll 2
            for (int c = 0; c < deg; c++) {
              orChunk<T, W>(acc, fr + cur, __ldg(chunks + lo + c));
              // On high degrees, stop once every source has reached v.
              if ((c & 3) == 3) {
                T m[W];
#pragma unroll
                for (int w = 0; w < W; w++) m[w] = acc[w] | vis[j][w];
                if (full<T, W>(m)) break;
              }
            }
          } else {
            const int arcs = PAD ? 8 * deg : deg;
#pragma unroll 4
            for (int i = 0; i < arcs; i++) {
              const int u = SH ? (int)ell[i * n + v] : __ldg(heads + lo + i);
              orLoad<T, W>(acc, fr + cur, u);
              // On high degrees, stop once every source has reached v.
              if ((i & 31) == 31) {
                T m[W];
#pragma unroll
                for (int w = 0; w < W; w++) m[w] = acc[w] | vis[j][w];
                if (full<T, W>(m)) break;
              }
            }
          }
          int pc = 0;
#pragma unroll
          for (int w = 0; w < W; w++) {
            acc[w] &= ~vis[j][w];
            vis[j][w] |= acc[w];
            pc += popc(acc[w]);
          }
          if (pc) {
            const int k = SUM ? 0 : j;
            tot.r[k] += pc;
            tot.s[k] += (u64)level * (u64)pc; // as the wider of the two
            tot.e[k] = max(tot.e[k], (u32)level);
            any = 1;
          }
        }
        if (v < n) store<T, W>(fr + nxt, v, acc);
      }
      if (!__syncthreads_or(any)) break;
      const int tmp = cur;
      cur = nxt;
      nxt = tmp;
    }
  }
  if (SUM) {
    // The block's pairs, distance sum and largest distance: warps, then
    // shared memory, then three atomics a block into the graph's output.
    // The frontiers are free: every thread has left the last level's
    // barrier, and no static shared memory joins the dynamic maximum.
    u32* red = (u32*)sm;  // pairs, largest distance
    u64* red64 = sm + 1;  // distance sum
    if (x == 0) red[0] = red[1] = 0, *red64 = 0;
    __syncthreads();
    const u32 r = warpSum(tot.r[0]);
    const u64 s = warpSum(tot.s[0]);
    const u32 e = warpMax(tot.e[0]);
    if ((x & 31) == 0) {
      atomicAdd(red, r);
      atomicMax(red + 1, e);
      atomicAdd(red64, s);
    }
    __syncthreads();
    if (x == 0) {
      u32* o = reach + SUM_WORDS * t.x;
      u64* o64 = (u64*)(o + 4);
      atomicAdd(o, red[0]);
      atomicMax(o + 1, red[1]);
      atomicAdd(o64, *red64);
      // Count the graph's blocks done (t.w of them): the last one's
      // fence-ordered view holds every block's atomics.
      __threadfence();
      const u32 done = atomicAdd(o + 2, 1u) + 1;
      if (host != nullptr && done == (u32)t.w) {
        __threadfence();
        volatile u32* h = host + SUM_WORDS * t.x;
        h[0] = atomicAdd(o, 0u);
        h[1] = atomicMax(o + 1, 0u);
        h[2] = done;
        *(volatile u64*)(h + 4) = atomicAdd(o64, 0ull);
      }
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < VPT; j++) {
    const int v = x + j * stride;
    if (v >= n) break;
    const int o = g.w + v;
    const int k = SUM ? 0 : j;
    if (t.w == 1) {
      reach[o] = tot.r[k];
      sum[o] = tot.s[k];
      ecc[o] = tot.e[k];
    } else {
      atomicAdd(reach + o, tot.r[k]);
      atomicAdd(sum + o, tot.s[k]);
      atomicMax(ecc + o, tot.e[k]);
    }
  }
}

#define BULK_KERNEL(name, T, W, SH, H)                                                                    \
  extern "C" __global__ void __launch_bounds__(1024, MINB)                                                \
      name(const int4* tasks, const int4* graphs, const int* csr, u32* reach, u32* sum, u32* ecc) {      \
    bfs<T, W, SH, H, false, 1>(tasks, graphs, csr, reach, sum, ecc, 8 * (int)sizeof(T) * W, nullptr);     \
  }

// The summaries' kernels: out is SUM_WORDS words a graph of the chunk, host
// the page-locked copy of them that the last block of each graph writes
// (null: none; the host copies out back).
#define SUM_KERNEL(name, T, W, SH, H)                                                                   \
  extern "C" __global__ void __launch_bounds__(1024, MINB)                                              \
      name(const int4* tasks, const int4* graphs, const int* csr, u32* out, u32* host, int S) {         \
    bfs<T, W, SH, H, true, 1>(tasks, graphs, csr, out, nullptr, nullptr, S, host);                      \
  }

// The summaries of one base graph's edited copies (EDITS above): the
// arcs in the shared ELL table, 16-bit heads.
#define EDIT_KERNEL(name, T, W)                                                                          \
  extern "C" __global__ void __launch_bounds__(1024, MINB)                                              \
      name(const int4* tasks, const int4* graphs, const int* csr, u32* out, u32* host, int S,           \
           const int2* edits, int E) {                                                                  \
    bfs<T, W, true, u16, true, 1, true>(tasks, graphs, csr, out, nullptr, nullptr, S, host, edits, E);  \
  }

// Graphs of more than 1 024 vertices (mid-size: up to 16 384): 1 024
// threads of VPT vertices each, batches of 32 sources (or S, summaries),
// 16-bit heads; one block an SM (their frontiers and tables are large),
// so every register a thread may have.
#define MID_KERNELS(VPT)                                                                                  \
  extern "C" __global__ void __launch_bounds__(1024, 1)                                                   \
      bulk_h1_sh_v##VPT(const int4* tasks, const int4* graphs, const int* csr, u32* reach, u32* sum,      \
                        u32* ecc) {                                                                       \
    bfs<u32, 1, true, u16, false, VPT>(tasks, graphs, csr, reach, sum, ecc, 32, nullptr);                 \
  }                                                                                                       \
  extern "C" __global__ void __launch_bounds__(1024, 1)                                                   \
      bulk_h1_gl_v##VPT(const int4* tasks, const int4* graphs, const int* csr, u32* reach, u32* sum,      \
                        u32* ecc) {                                                                       \
    bfs<u32, 1, false, u16, false, VPT>(tasks, graphs, csr, reach, sum, ecc, 32, nullptr);                \
  }                                                                                                       \
  extern "C" __global__ void __launch_bounds__(1024, 1)                                                   \
      bulk_sum_h1_sh_v##VPT(const int4* tasks, const int4* graphs, const int* csr, u32* out, u32* host,   \
                            int S) {                                                                      \
    bfs<u32, 1, true, u16, true, VPT>(tasks, graphs, csr, out, nullptr, nullptr, S, host);                \
  }                                                                                                       \
  extern "C" __global__ void __launch_bounds__(1024, 1)                                                   \
      bulk_sum_h1_gl_v##VPT(const int4* tasks, const int4* graphs, const int* csr, u32* out, u32* host,   \
                            int S) {                                                                      \
    bfs<u32, 1, false, u16, true, VPT>(tasks, graphs, csr, out, nullptr, nullptr, S, host);               \
  }

MID_KERNELS(2)
MID_KERNELS(4)
MID_KERNELS(8)
MID_KERNELS(16)

BULK_KERNEL(bulk_h1_sh, u32, 1, true, u16)
BULK_KERNEL(bulk_w1_sh, u64, 1, true, u16)
BULK_KERNEL(bulk_w2_sh, u64, 2, true, u16)
BULK_KERNEL(bulk_w4_sh, u64, 4, true, u16)
BULK_KERNEL(bulk_h1_gl, u32, 1, false, u16)
BULK_KERNEL(bulk_w1_gl, u64, 1, false, u16)
BULK_KERNEL(bulk_w2_gl, u64, 2, false, u16)
BULK_KERNEL(bulk_w4_gl, u64, 4, false, u16)
BULK_KERNEL(bulk_h1_sh_i32, u32, 1, true, int)
BULK_KERNEL(bulk_h1_gl_i32, u32, 1, false, int)

SUM_KERNEL(bulk_sum_h1_sh, u32, 1, true, u16)
SUM_KERNEL(bulk_sum_w1_sh, u64, 1, true, u16)
SUM_KERNEL(bulk_sum_w2_sh, u64, 2, true, u16)
SUM_KERNEL(bulk_sum_w4_sh, u64, 4, true, u16)
SUM_KERNEL(bulk_sum_h1_gl, u32, 1, false, u16)
SUM_KERNEL(bulk_sum_w1_gl, u64, 1, false, u16)
SUM_KERNEL(bulk_sum_w2_gl, u64, 2, false, u16)
SUM_KERNEL(bulk_sum_w4_gl, u64, 4, false, u16)
SUM_KERNEL(bulk_sum_h1_sh_i32, u32, 1, true, int)
SUM_KERNEL(bulk_sum_h1_gl_i32, u32, 1, false, int)

EDIT_KERNEL(bulk_sum_h1_sh_e, u32, 1)
EDIT_KERNEL(bulk_sum_w1_sh_e, u64, 1)
EDIT_KERNEL(bulk_sum_w2_sh_e, u64, 2)
EDIT_KERNEL(bulk_sum_w4_sh_e, u64, 4)
