// Per-source shortest paths for apsp's gpu-sssp, compiled by NVRTC with:
//   -DBLOCK=B (threads a block), -DLANE_FLOAT (float32 lanes; default
//   int32), -DSHARED_DIST (a source's distances live in shared memory;
//   otherwise in a global scratch row of the block).
// A block runs one source at a time (Harish–Narayanan's frontier
// relaxation, as Kemp compares it): a bit a vertex in shared memory marks
// the vertices whose distance dropped; each round a thread takes whole
// words of marks (atomicExch, so a mark set while it works is kept for the
// next round) and relaxes the out-arcs of their vertices with atomicMin.
// Arc lengths are never negative, so float32 distances order as their bit
// patterns and one integer atomicMin serves both lanes. When no mark is
// left the block reduces the row (reach, largest, sum) and, when asked,
// writes it out; then it takes its next source.

#ifndef BLOCK
#define BLOCK 256
#endif

#ifdef LANE_FLOAT
__device__ __forceinline__ unsigned addLane(unsigned d, unsigned w) {
  return __float_as_uint(__uint_as_float(d) + __uint_as_float(w));
}
typedef double SumT;
__device__ __forceinline__ SumT asSum(unsigned d) { return (double)__uint_as_float(d); }
__device__ __forceinline__ double asDouble(unsigned d) { return (double)__uint_as_float(d); }
#else
// Both below 2^30: the lane plan bounds every real distance under the
// infinity 2^30-1, so a sum of two stays below 2^31.
__device__ __forceinline__ unsigned addLane(unsigned d, unsigned w) { return d + w; }
typedef unsigned long long SumT;
__device__ __forceinline__ SumT asSum(unsigned d) { return (SumT)d; }
__device__ __forceinline__ double asDouble(unsigned d) { return (double)d; }
#endif

// sssp_rows runs sources first .. first+count-1, source first+s on block
// s mod gridDim.x. Weights are lane bits (int32 or float32, never negative,
// float -0 given as +0); inf is the lanes' infinity. reach, maxv, sum and
// harm (Σ 1/d over the distances d > 0, harmonic centrality's term; its
// warps' parts added in a fixed order, so that it is the same from run to
// run) are indexed by source; dist, when not null, receives row s at
// dist + s·n.
extern "C" __global__ void __launch_bounds__(BLOCK) sssp_rows(
    int n, int first, int count, const long long* __restrict__ off, const int* __restrict__ heads,
    const unsigned* __restrict__ weights, unsigned* scratch, unsigned inf, int* reach, unsigned* maxv, SumT* sum,
    double* harm, unsigned* dist) {
  extern __shared__ unsigned smem[];
  const int nw = (n + 31) / 32;
  unsigned* marks = smem;
#ifdef SHARED_DIST
  unsigned* d = smem + ((nw + 3) & ~3);
#else
  unsigned* d = scratch + (size_t)blockIdx.x * n;
#endif
  __shared__ int active[2];
  __shared__ int sReach;
  __shared__ unsigned sMax;
  __shared__ SumT sSum;
  __shared__ double sHarm[BLOCK / 32];
  const int tid = threadIdx.x;
  for (int s = blockIdx.x; s < count; s += gridDim.x) {
    const int src = first + s;
    for (int v = tid; v < n; v += BLOCK) d[v] = inf;
    for (int w = tid; w < nw; w += BLOCK) marks[w] = 0;
    __syncthreads();
    if (tid == 0) {
      d[src] = 0;
      marks[src >> 5] = 1u << (src & 31);
      active[0] = 1;
      active[1] = 0;
      sReach = 0;
      sMax = 0;
      sSum = 0;
    }
    for (int round = 0;; round++) {
      __syncthreads();
      const int cur = round & 1;
      if (active[cur] == 0) break;
      __syncthreads();
      if (tid == 0) active[cur] = 0;  // written again in round+2 at the earliest
      int any = 0;
      for (int w = tid; w < nw; w += BLOCK) {
        if (*(volatile unsigned*)&marks[w] == 0) continue;
        unsigned bits = atomicExch(&marks[w], 0u);
        __threadfence_block();  // the distances read below are at least as new as the marks
        while (bits) {
          const int v = w * 32 + __ffs(bits) - 1;
          bits &= bits - 1;
          const unsigned dv = *(volatile unsigned*)&d[v];
          const long long a1 = off[v + 1];
          for (long long a = off[v]; a < a1; a++) {
            const int u = heads[a];
            const unsigned nd = addLane(dv, weights[a]);
            if (nd < *(volatile unsigned*)&d[u]) {
              const unsigned old = atomicMin(&d[u], nd);
              if (nd < old) {
                __threadfence_block();
                atomicOr(&marks[u >> 5], 1u << (u & 31));
                any = 1;
              }
            }
          }
        }
      }
      if (any) active[cur ^ 1] = 1;
    }
    // The row's summary: reach, largest and sum of the finite distances to
    // v ≠ src.
    int cnt = 0;
    unsigned best = 0;
    SumT total = 0;
    double h = 0;
    for (int v = tid; v < n; v += BLOCK) {
      const unsigned x = d[v];
      if (dist) dist[(size_t)s * n + v] = x;
      if (v == src || x == inf) continue;
      cnt++;
      best = max(best, x);  // lane bits order as the values (never negative)
      total += asSum(x);
      if (x != 0) h += 1.0 / asDouble(x);  // bits 0 are the distance 0 in both lanes
    }
    for (int o = 16; o > 0; o >>= 1) {
      cnt += __shfl_down_sync(0xffffffffu, cnt, o);
      best = max(best, __shfl_down_sync(0xffffffffu, best, o));
      total += __shfl_down_sync(0xffffffffu, total, o);
      h += __shfl_down_sync(0xffffffffu, h, o);
    }
    if ((tid & 31) == 0) {
      atomicAdd(&sReach, cnt);
      atomicMax(&sMax, best);
      atomicAdd(&sSum, total);
      sHarm[tid >> 5] = h;
    }
    __syncthreads();
    if (tid == 0) {
      double hs = 0;
      for (int w = 0; w < BLOCK / 32; w++) hs += sHarm[w];
      reach[src] = sReach;
      maxv[src] = sMax;
      sum[src] = sSum;
      harm[src] = hs;
    }
    __syncthreads();  // sReach and friends are reset for the next source
  }
}
