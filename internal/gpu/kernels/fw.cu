// Blocked Floyd–Warshall kernels for apsp, compiled by NVRTC with:
//   -DLANE_FLOAT (float32 lanes; default int32), -DTILE=W (tile width),
//   -DTDIM=T (threads per block = T*T), -DBK=K (k-slice of the min-plus
//   product staged through shared memory), -DMINB=B (blocks per SM the
//   product and single kernels are register-limited for).
// Each thread owns R×R cells of a tile, R = TILE/TDIM (a multiple of 4), in
// groups of 4 consecutive columns so that shared-memory reads are 16 bytes
// wide: rows ty*4 + g*TDIM*4 + {0..3}, columns tx*4 + g*TDIM*4 + {0..3}.

#ifndef TILE
#define TILE 128
#endif
#ifndef TDIM
#define TDIM 16
#endif
#ifndef BK
#define BK 32
#endif
#ifndef MINB
#define MINB 1
#endif
#define R (TILE / TDIM)
#define G (R / 4)
#define NT (TDIM * TDIM)

#ifdef LANE_FLOAT
typedef float T;
typedef float4 T4;
__device__ __forceinline__ T relax(T a, T b, T c) { return fminf(a + b, c); }
#else
typedef int T;
typedef int4 T4;
#if __CUDA_ARCH__ >= 900
// One DPX instruction (VIADDMNMX) per relaxation on Hopper.
__device__ __forceinline__ T relax(T a, T b, T c) { return __viaddmin_s32(a, b, c); }
#else
__device__ __forceinline__ T relax(T a, T b, T c) { return min(a + b, c); }
#endif
#endif

static_assert(R % 4 == 0, "TILE/TDIM must be a multiple of 4");
static_assert(TILE % BK == 0, "BK must divide TILE");

// Row (or column) offset of a thread's group g, element e.
__device__ __forceinline__ int cellOf(int t, int g, int e) { return g * TDIM * 4 + t * 4 + e; }

// loadTile and storeTile move a thread's R×R cells of the tile at (row0,
// col0) between the matrix and registers, 16 bytes at a time.
__device__ __forceinline__ void loadTile(const T* __restrict__ d, int n, size_t row0, size_t col0, T (&acc)[R][R]) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
#pragma unroll
  for (int gi = 0; gi < G; gi++)
#pragma unroll
    for (int ei = 0; ei < 4; ei++) {
      const T* src = d + (row0 + cellOf(ty, gi, ei)) * n + col0;
#pragma unroll
      for (int gj = 0; gj < G; gj++) {
        T4 v = __ldcg((const T4*)(src + cellOf(tx, gj, 0)));
        acc[gi * 4 + ei][gj * 4 + 0] = v.x;
        acc[gi * 4 + ei][gj * 4 + 1] = v.y;
        acc[gi * 4 + ei][gj * 4 + 2] = v.z;
        acc[gi * 4 + ei][gj * 4 + 3] = v.w;
      }
    }
}

__device__ __forceinline__ void storeTile(T* __restrict__ d, int n, size_t row0, size_t col0, const T (&acc)[R][R]) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
#pragma unroll
  for (int gi = 0; gi < G; gi++)
#pragma unroll
    for (int ei = 0; ei < 4; ei++) {
      T* dst = d + (row0 + cellOf(ty, gi, ei)) * n + col0;
#pragma unroll
      for (int gj = 0; gj < G; gj++) {
        T4 v;
        v.x = acc[gi * 4 + ei][gj * 4 + 0];
        v.y = acc[gi * 4 + ei][gj * 4 + 1];
        v.z = acc[gi * 4 + ei][gj * 4 + 2];
        v.w = acc[gi * 4 + ei][gj * 4 + 3];
        *(T4*)(dst + cellOf(tx, gj, 0)) = v;
      }
    }
}

// ---------------------------------------------------------------------------
// Asynchronous 16-byte global→shared copies (cp.async, sm_80+), so that the
// next k-slice streams in while the current one is computed.
__device__ __forceinline__ void copy16(void* smem, const void* gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void copyCommit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void copyWaitAll() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

#define AST (BK + 4)    // row stride of the A slice (row i, k contiguous)
#define BST (TILE + 4)  // row stride of the B slice (row k, j contiguous)
#define SLICE_A (TILE * AST)
#define SLICE_B (BK * BST)

// Min-plus tile product: C = min(C, A ⊗ B) for the tile at (x, y) with
// A = D[x][z], B = D[z][y]. k-slices of A and B are double-buffered in shared
// memory. Shared: 2 × (TILE×(BK+4) + BK×(TILE+4)) lanes.
__device__ __forceinline__ void minplusTile(T* __restrict__ d, int n, int x, int y, int z, T* smem) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
  const size_t rowA = (size_t)x * TILE, colB = (size_t)y * TILE, kz = (size_t)z * TILE;
  auto stage = [&](int buf, int k0) {
    T* As = smem + buf * (SLICE_A + SLICE_B);
    T* Bs = As + SLICE_A;
    for (int c = threadIdx.x; c < TILE * BK / 4; c += NT) {
      int i = c / (BK / 4), kk = (c % (BK / 4)) * 4;
      copy16(As + i * AST + kk, d + (rowA + i) * n + kz + k0 + kk);
      int kb = c / (TILE / 4), j = (c % (TILE / 4)) * 4;
      copy16(Bs + kb * BST + j, d + (kz + k0 + kb) * n + colB + j);
    }
    copyCommit();
  };
  stage(0, 0);
  T acc[R][R];
  loadTile(d, n, rowA, colB, acc);
  for (int s = 0; s < TILE / BK; s++) {
    copyWaitAll();
    __syncthreads();  // slice s is in; everyone is done with slice s-1
    if (s + 1 < TILE / BK) stage((s + 1) & 1, (s + 1) * BK);
    const T* As = smem + (s & 1) * (SLICE_A + SLICE_B);
    const T* Bs = As + SLICE_A;
#pragma unroll 2
    for (int kk = 0; kk < BK; kk += 4) {
      T4 a4[R];
#pragma unroll
      for (int r = 0; r < R; r++) a4[r] = *(const T4*)(As + cellOf(ty, r / 4, r % 4) * AST + kk);
#pragma unroll
      for (int q = 0; q < 4; q++) {
        T b[R];
#pragma unroll
        for (int g = 0; g < G; g++) {
          T4 vb = *(const T4*)(Bs + (kk + q) * BST + cellOf(tx, g, 0));
          b[g * 4 + 0] = vb.x; b[g * 4 + 1] = vb.y; b[g * 4 + 2] = vb.z; b[g * 4 + 3] = vb.w;
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
          T a = q == 0 ? a4[r].x : q == 1 ? a4[r].y : q == 2 ? a4[r].z : a4[r].w;
#pragma unroll
          for (int c = 0; c < R; c++) acc[r][c] = relax(a, b[c], acc[r][c]);
        }
      }
    }
  }
  __syncthreads();  // the caller may reuse shared memory
  storeTile(d, n, rowA, colB, acc);
}

// ---------------------------------------------------------------------------
// In-place tile update for the tiles that depend on themselves: the pivot
// tile (x = y = z), a pivot-column tile (y = z) and a pivot-row tile (x = z).
// The tile lives in registers; at each k its own column k and row k are
// broadcast through shared memory, the pivot tile (read-only for the row and
// column tiles) is staged in shared memory. Shared: TILE×TILE + 4×TILE lanes.
// selfCol / selfRow say where D[i][k] and D[k][j] come from (the tile itself
// or the pivot tile); they are template parameters so that each kind of tile
// gets a loop without run-time choices.
template <bool selfCol, bool selfRow>
__device__ __forceinline__ void inplaceTileOf(T* __restrict__ d, int n, int x, int y, int z, T* smem) {
  T* Ps = smem;                    // pivot tile, stride TILE
  T* colBuf = smem + TILE * TILE;  // two buffers of (own column k, own row k)
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
  const size_t r0 = (size_t)x * TILE, c0 = (size_t)y * TILE, p0 = (size_t)z * TILE;
  if (!(selfCol && selfRow)) {
    for (int idx = threadIdx.x; idx < TILE * TILE; idx += NT) {
      int i = idx / TILE, j = idx % TILE;
      Ps[idx] = __ldcg(d + (p0 + i) * n + p0 + j);
    }
  }
  T acc[R][R];
  loadTile(d, n, r0, c0, acc);
#pragma unroll 2
  for (int k = 0; k < TILE; k++) {
    // Owners publish column k and row k of the tile as they stand, into one
    // of two buffers: a thread can only be writing step k+1's buffer after
    // every thread has passed step k's barrier, hence finished reading step
    // k-1's, so one barrier a step is enough.
    T* colK = colBuf + (k & 1) * 2 * TILE;
    T* rowK = colK + TILE;
#pragma unroll
    for (int g = 0; g < G; g++)
#pragma unroll
      for (int e = 0; e < 4; e++) {
        if (selfCol && cellOf(tx, g, e) == k) {
#pragma unroll
          for (int r = 0; r < R; r++) colK[cellOf(ty, r / 4, r % 4)] = acc[r][g * 4 + e];
        }
        if (selfRow && cellOf(ty, g, e) == k) {
#pragma unroll
          for (int c = 0; c < R; c++) rowK[cellOf(tx, c / 4, c % 4)] = acc[g * 4 + e][c];
        }
      }
    __syncthreads();
    T a[R], b[R];
#pragma unroll
    for (int g = 0; g < G; g++) {
      T4 va, vb;
      if (selfCol) {
        va = *(const T4*)(colK + cellOf(ty, g, 0));
      } else {
        va.x = Ps[cellOf(ty, g, 0) * TILE + k];
        va.y = Ps[cellOf(ty, g, 1) * TILE + k];
        va.z = Ps[cellOf(ty, g, 2) * TILE + k];
        va.w = Ps[cellOf(ty, g, 3) * TILE + k];
      }
      vb = selfRow ? *(const T4*)(rowK + cellOf(tx, g, 0)) : *(const T4*)(Ps + k * TILE + cellOf(tx, g, 0));
      a[g * 4 + 0] = va.x; a[g * 4 + 1] = va.y; a[g * 4 + 2] = va.z; a[g * 4 + 3] = va.w;
      b[g * 4 + 0] = vb.x; b[g * 4 + 1] = vb.y; b[g * 4 + 2] = vb.z; b[g * 4 + 3] = vb.w;
    }
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
      for (int c = 0; c < R; c++) acc[r][c] = relax(a[r], b[c], acc[r][c]);
  }
  __syncthreads();  // the caller may reuse shared memory
  storeTile(d, n, r0, c0, acc);
}

__device__ __forceinline__ void inplaceTile(T* __restrict__ d, int n, int x, int y, int z, T* smem) {
  if (x == z && y == z) inplaceTileOf<true, true>(d, n, x, y, z, smem);
  else if (y == z) inplaceTileOf<true, false>(d, n, x, y, z, smem);
  else inplaceTileOf<false, true>(d, n, x, y, z, smem);
}

// ---------------------------------------------------------------------------
// Multi-kernel implementation: three launches per round z.
extern "C" __global__ void __launch_bounds__(NT) fw_pivot(T* d, int n, int z) {
  extern __shared__ __align__(16) unsigned char sm[];
  inplaceTile(d, n, z, z, z, (T*)sm);
}

// Grid: 2*(m-1) blocks; the first m-1 are pivot-column tiles, the rest
// pivot-row tiles.
extern "C" __global__ void __launch_bounds__(NT) fw_panel(T* d, int n, int z, int m) {
  extern __shared__ __align__(16) unsigned char sm[];
  int o = blockIdx.x % (m - 1);
  if (o >= z) o++;
  if (blockIdx.x < m - 1) inplaceTile(d, n, o, z, z, (T*)sm);
  else inplaceTile(d, n, z, o, z, (T*)sm);
}

// Grid: (m-1) × (m-1) blocks, the tiles off the pivot row and column.
extern "C" __global__ void __launch_bounds__(NT, MINB) fw_rest(T* d, int n, int z) {
  extern __shared__ __align__(16) unsigned char sm[];
  int x = blockIdx.y, y = blockIdx.x;
  if (x >= z) x++;
  if (y >= z) y++;
  minplusTile(d, n, x, y, z, (T*)sm);
}

// ---------------------------------------------------------------------------
// Single-kernel soft synchronisation (SKSS): one launch of a persistent grid.
// Blocks take task IDs from an atomic counter in a topological order: round
// z's pivot, its 2(m-1) panel tiles, then its other tiles, with the tiles of
// row and column z+1 early so that round z+1 can start while round z
// finishes. done[t] holds the number of rounds tile t has completed. A task
// waits only on tasks with smaller IDs, which blocks that are already
// running hold, so no schedule of blocks can deadlock.
__device__ __forceinline__ int loadAcquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void storeRelease(int* p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void waitFor(const int* p, int need) {
  unsigned ns = 32;
  while (loadAcquire(p) < need) {
    __nanosleep(ns);
    if (ns < 256) ns *= 2;
  }
}

extern "C" __global__ void __launch_bounds__(NT, MINB) fw_single(T* d, int n, int m, int* counter, int* done) {
  extern __shared__ __align__(16) unsigned char sm[];
  __shared__ int task;
  const int perRound = m * m;
  const int total = perRound * m;
  for (;;) {
    if (threadIdx.x == 0) task = atomicAdd(counter, 1);
    __syncthreads();
    const int t = task;
    __syncthreads();  // everyone has read task before thread 0 may overwrite it
    if (t >= total) return;
    const int z = t / perRound, q = t % perRound;
    int x, y;
    if (q == 0) {
      x = z; y = z;
    } else if (q <= 2 * (m - 1)) {
      int o = (q - 1) % (m - 1);
      o = (z + 1 + o) % m;  // never z
      if (q - 1 < m - 1) { x = o; y = z; } else { x = z; y = o; }
    } else {
      int r = q - 1 - 2 * (m - 1);
      x = (z + 1 + r / (m - 1)) % m;
      y = (z + 1 + r % (m - 1)) % m;
    }
    if (threadIdx.x == 0) {
      waitFor(&done[x * m + y], z);                         // this tile after round z-1
      if (!(x == z && y == z)) waitFor(&done[z * m + z], z + 1);  // the pivot of round z
      if (x != z && y != z) {
        waitFor(&done[x * m + z], z + 1);  // its pivot-column tile
        waitFor(&done[z * m + y], z + 1);  // its pivot-row tile
      }
    }
    __syncthreads();
    if (x == z || y == z) inplaceTile(d, n, x, y, z, (T*)sm);
    else minplusTile(d, n, x, y, z, (T*)sm);
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) storeRelease(&done[x * m + y], z + 1);
  }
}

// ---------------------------------------------------------------------------
// Row reduction for stats: per source u < nv, over v < nv, v ≠ u: the number
// of finite entries, their largest value and their sum; values above
// maxReal are infinity (integer lanes with negative weights may hold
// infinity minus a little; float lanes pass FLT_MAX). A negative diagonal
// names a negative cycle. The double sums are exact: int32 lanes keep every
// distance below 2^30, so a row sums to less than 2^53 for n < 2^23.
extern "C" __global__ void fw_reduce(const T* d, int n, int nv, T maxReal, int* reach, T* maxv, double* sum,
                                     int* negVertex) {
  const int u = blockIdx.x;
  const T* row = d + (size_t)u * n;
  int cnt = 0;
  T best = 0;
  bool any = false;
  double s = 0;
  for (int v = threadIdx.x; v < nv; v += blockDim.x) {
    T x = row[v];
    if (v == u) {
      if (x < 0) atomicMin(negVertex, u);
      continue;
    }
    if (!(x <= maxReal)) continue;
    cnt++;
    s += (double)x;
    if (!any || x > best) { best = x; any = true; }
  }
  // Block reduction through shared memory.
  __shared__ int scnt[1024];
  __shared__ T sbest[1024];
  __shared__ double ssum[1024];
  __shared__ bool sany[1024];
  scnt[threadIdx.x] = cnt; sbest[threadIdx.x] = best; ssum[threadIdx.x] = s; sany[threadIdx.x] = any;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      int o = threadIdx.x + w;
      scnt[threadIdx.x] += scnt[o];
      ssum[threadIdx.x] += ssum[o];
      if (sany[o] && (!sany[threadIdx.x] || sbest[o] > sbest[threadIdx.x])) {
        sbest[threadIdx.x] = sbest[o];
        sany[threadIdx.x] = true;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    reach[u] = scnt[0];
    maxv[u] = sbest[0];
    sum[u] = ssum[0];
  }
}

// ---------------------------------------------------------------------------
// The initial matrix, built on the device from the graph's arcs in CSR form
// (offsets: 64-bit, nv+1 of them; heads; weights, or null when every arc has
// length 1), so that only the arcs cross the bus. Block u writes row u of
// the n×n matrix (n the stride): infinity, 0 on the diagonal (padding rows
// included), then u's arcs, keeping the smallest of parallel arcs (and the
// diagonal's 0 against a positive self-loop).
__device__ __forceinline__ void minLane(int* p, int w) { atomicMin(p, w); }
__device__ __forceinline__ void minLane(float* p, float w) {
  int* q = (int*)p;
  int old = *q;
  while (w < __int_as_float(old)) {
    const int seen = atomicCAS(q, old, __float_as_int(w));
    if (seen == old) break;
    old = seen;
  }
}

extern "C" __global__ void fw_init(T* d, int n, int nv, const long long* offsets, const int* heads, const T* weights, T inf) {
  const int u = blockIdx.x;
  T* row = d + (size_t)u * n;
  for (int v = threadIdx.x * 4; v < n; v += blockDim.x * 4) {
    T4 x;
    x.x = v == u ? (T)0 : inf;
    x.y = v + 1 == u ? (T)0 : inf;
    x.z = v + 2 == u ? (T)0 : inf;
    x.w = v + 3 == u ? (T)0 : inf;
    *(T4*)(row + v) = x;
  }
  if (u >= nv) return;  // the whole block: no barrier below is skipped by some
  __syncthreads();      // the row's fill is visible to the block's atomics
  const long long a1 = offsets[u + 1];
  for (long long a = offsets[u] + threadIdx.x; a < a1; a += blockDim.x) {
    minLane(row + heads[a], weights ? weights[a] : (T)1);
  }
}
