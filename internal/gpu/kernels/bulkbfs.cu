// Bit-parallel breadth-first search of many small unweighted graphs at once
// (bulk execution, the Graph Golf case), compiled by NVRTC for the device.
//
// One thread block is one task: a graph and a run of its batches of 32
// (bulk_h1_*) or 64·W (bulk_wW_*) sources. Thread v owns vertex v (n ≤ blockDim ≤ 1024). The search runs on
// the reversed graph: bit s of vertex v's words means "d(v, s) is known",
// so a level is a pull over v's out-arcs,
//   new[v] = OR over arcs v→w of frontier[w], minus visited[v],
// and the popcount of new[v] at level L is the number of sources of the
// batch at distance L from v. Thread v accumulates Reach, Sum and the
// eccentricity of v's own row in registers; only those three numbers per
// vertex leave the block. visited[v] lives in registers; the frontier is
// double-buffered in shared memory (2·n·W words of 4 or 8 bytes), so a
// level has one barrier. With SH the graph's arcs are copied once into shared memory as
// an ELL table (the i-th arc of v at i·n + v, 16-bit heads): a warp reads
// its i-th arcs from consecutive addresses. Without SH (the table would not
// fit) the arcs are read from the CSR in global memory through the cache.
//
// Inputs, per launch:
//   tasks[blockIdx.x] = {graph, first batch, batch count, tasks of the graph}
//   graphs[g]         = {n, ELL width (largest degree), CSR start, row start}
//   csr: per graph, n+1 offsets (int32, relative to the graph's own
//        heads) then the heads: 16-bit (n ≤ 1024; half the bytes to copy)
//        or, for the *_i32 kernels, 32-bit (a chunk of few arcs, where
//        the host's narrowing costs more than the copy it saves)
// Outputs, per vertex (at row start + v): reach, sum, ecc. A graph whose
// batches are spread over several tasks is merged with atomics (the
// outputs are zeroed first); a graph of one task stores.
//
// The bulk_sum_* kernels (BulkSummaries) write no rows: each block sums
// reach and sum and takes the largest ecc over its threads, and adds them
// with three atomics into its graph's 16 bytes (at 4·graph: pairs, sum of
// distances, diameter, then a count of the graph's blocks done; zeroed
// first), so that 16 bytes a graph come back. With host set (page-locked
// memory, which unified addressing maps at the same address), the last
// block of a graph writes those 16 bytes there itself: no copy back.
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
__device__ __forceinline__ u32 warpMax(u32 x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x = max(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

// SUM: reduce to the graph's 16 bytes (out = reach, 4·graph) instead of
// per-vertex rows; S is the sources of a batch.
template <typename T, int W, bool SH, typename H, bool SUM>
__device__ __forceinline__ void bfs(const int4* __restrict__ tasks, const int4* __restrict__ graphs,
                                    const int* __restrict__ csr, u32* __restrict__ reach, u32* __restrict__ sum,
                                    u32* __restrict__ ecc, const int S, u32* __restrict__ host) {
  extern __shared__ __align__(16) u64 sm[];
  const int4 t = tasks[blockIdx.x];
  const int4 g = graphs[t.x];
  const int n = g.x;
  const int v = threadIdx.x;
  const bool mine = v < n;
  const int* off = csr + g.z;
  const H* heads = (const H*)(off + n + 1);
  T* fr = (T*)sm; // the two frontiers, n·W words each
  u16* ell = (u16*)(fr + 2 * n * W);
  int lo = 0, deg = 0;
  if (mine) {
    lo = off[v];
    deg = off[v + 1] - lo;
  }
  if (SH) {
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
  u32 r = 0, s = 0, e = 0;
  for (int b = t.y; b < t.y + t.z; b++) {
    const int B = 8 * sizeof(T); // bits per word
    const int first = b * S;      // S sources a batch
    T vis[W], self[W];
#pragma unroll
    for (int w = 0; w < W; w++) {
      const int s0 = first + B * w;
      // The word's sources: past n, or past the batch's S, they are
      // absent, and their bits count as visited.
      const int cnt = max(0, min(min(B, n - s0), first + S - s0));
      const T absent = cnt >= B ? (T)0 : ~(T)0 << cnt;
      self[w] = (v >= s0 && v < s0 + cnt) ? (T)1 << (v - s0) : (T)0;
      vis[w] = absent | self[w];
    }
    if (mine) store<T, W>(fr, v, self);
    __syncthreads();
    // The frontier of this level is at fr + cur, the next one at fr + nxt
    // (word offsets, so that they stay shared-memory addresses).
    int cur = 0, nxt = n * W;
    for (int level = 1;; level++) {
      T acc[W];
#pragma unroll
      for (int w = 0; w < W; w++) acc[w] = 0;
      int any = 0;
      if (mine && !full<T, W>(vis)) {
#pragma unroll 4
        for (int i = 0; i < deg; i++) {
          const int u = SH ? (int)ell[i * n + v] : __ldg(heads + lo + i);
          orLoad<T, W>(acc, fr + cur, u);
          // On high degrees, stop once every source has reached v.
          if ((i & 31) == 31) {
            T m[W];
#pragma unroll
            for (int w = 0; w < W; w++) m[w] = acc[w] | vis[w];
            if (full<T, W>(m)) break;
          }
        }
        int pc = 0;
#pragma unroll
        for (int w = 0; w < W; w++) {
          acc[w] &= ~vis[w];
          vis[w] |= acc[w];
          pc += popc(acc[w]);
        }
        if (pc) {
          r += pc;
          s += (u32)level * (u32)pc;
          e = max(e, (u32)level);
          any = 1;
        }
      }
      if (mine) store<T, W>(fr + nxt, v, acc);
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
    u32* red = (u32*)sm;
    if (v == 0) red[0] = red[1] = red[2] = 0;
    __syncthreads();
    r = warpSum(r);
    s = warpSum(s);
    e = warpMax(e);
    if ((v & 31) == 0) {
      atomicAdd(red, r);
      atomicAdd(red + 1, s);
      atomicMax(red + 2, e);
    }
    __syncthreads();
    if (v == 0) {
      u32* o = reach + 4 * t.x;
      atomicAdd(o, red[0]);
      atomicAdd(o + 1, red[1]);
      atomicMax(o + 2, red[2]);
      // Count the graph's blocks done (t.w of them): the last one's
      // fence-ordered view holds every block's atomics.
      __threadfence();
      const u32 done = atomicAdd(o + 3, 1u) + 1;
      if (host != nullptr && done == (u32)t.w) {
        __threadfence();
        volatile u32* h = host + 4 * t.x;
        h[0] = atomicAdd(o, 0u);
        h[1] = atomicAdd(o + 1, 0u);
        h[2] = atomicMax(o + 2, 0u);
        h[3] = done;
      }
    }
    return;
  }
  if (mine) {
    const int o = g.w + v;
    if (t.w == 1) {
      reach[o] = r;
      sum[o] = s;
      ecc[o] = e;
    } else {
      atomicAdd(reach + o, r);
      atomicAdd(sum + o, s);
      atomicMax(ecc + o, e);
    }
  }
}

#define BULK_KERNEL(name, T, W, SH, H)                                                               \
  extern "C" __global__ void __launch_bounds__(1024, MINB)                                           \
      name(const int4* tasks, const int4* graphs, const int* csr, u32* reach, u32* sum, u32* ecc) { \
    bfs<T, W, SH, H, false>(tasks, graphs, csr, reach, sum, ecc, 8 * (int)sizeof(T) * W, nullptr); \
  }

// The summaries' kernels: out is 4 words a graph of the chunk, host the
// page-locked copy of them that the last block of each graph writes (null:
// none; the host copies out back).
#define SUM_KERNEL(name, T, W, SH, H)                                                                   \
  extern "C" __global__ void __launch_bounds__(1024, MINB)                                              \
      name(const int4* tasks, const int4* graphs, const int* csr, u32* out, u32* host, int S) {         \
    bfs<T, W, SH, H, true>(tasks, graphs, csr, out, nullptr, nullptr, S, host);                         \
  }

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
