// Bulk Floyd–Warshall kernels: many graphs at once, compiled by NVRTC after
// fw.cu (whose tile functions the large-graph kernels reuse, with its
// -DTILE/-DTDIM/-DTROWS/-DMINB), in int32 lanes or, with -DLANE_I16, in
// fw.cu's packed int16×2 lanes (L = 2 lanes a 32-bit word, column j in lane
// j%2 of word j/2). Every graph of a launch has the same stride S (its
// padded size, in lanes); its matrix is S×S, row-major, at d + g·S·S/L
// words, padding rows and columns holding infinity and a 0 diagonal.
// Distances are int32 below 2^30 (lanes.Inf32 = 2^30−1 is infinity), or
// non-negative int16 up to lanes.Inf16 = 16383, so the sum of two never
// overflows; the caller has checked that no graph has a negative cycle, so
// row k and column k do not change at step k.

// ---------------------------------------------------------------------------
// The initial matrices, built from the graphs' arcs. A graph's entry in the
// table: {n, arcs, at, row, maxReal, 0, 0, 0}: its vertices, its arcs, where
// its arcs start in arcs (tails, heads, weights: int32 words, arcs of each),
// its first row in the outputs of bfw_reduce and its largest real distance.
// Block (b, y) builds rows [64y, 64y+64) of graph b: infinity, 0 on the
// diagonal, then the arcs from those rows (found by binary search: the
// tails ascend), the smallest of parallel arcs winning.
#define INIT_ROWS 64
// fillCells writes infinity with a 0 diagonal into the lanes [c0, c1) of
// an S×S matrix m (word-aligned, c0 and c1 multiples of 4·L), 4 words a
// thread of nth at a time.
__device__ __forceinline__ void fillCells(int* m, int S, int c0, int c1, int inf, int t, int nth) {
#if L == 1
  for (int c = c0 + t * 4; c < c1; c += nth * 4) {
    const int i = c / S, j = c % S;  // S is a multiple of 4: one row
    int4 v;
    v.x = i == j ? 0 : inf;
    v.y = i == j + 1 ? 0 : inf;
    v.z = i == j + 2 ? 0 : inf;
    v.w = i == j + 3 ? 0 : inf;
    *(int4*)(m + c) = v;
  }
#else
  const unsigned infs = (unsigned)inf * 0x00010001u;
  for (int c = c0 + t * 8; c < c1; c += nth * 8) {
    const int i = c / S, j = c % S;  // S is a multiple of 8: one row
    unsigned w[4];
#pragma unroll
    for (int q = 0; q < 4; q++) {
      w[q] = infs;
      if (i == j + 2 * q) w[q] &= 0xffff0000u;
      if (i == j + 2 * q + 1) w[q] &= 0x0000ffffu;
    }
    *(int4*)(m + c / 2) = int4{(int)w[0], (int)w[1], (int)w[2], (int)w[3]};
  }
#endif
}

// lowerCell lowers cell (i, j) of an S×S matrix m to w.
__device__ __forceinline__ void lowerCell(int* m, int S, int i, int j, int w) {
#if L == 1
  atomicMin(m + (size_t)i * S + j, w);
#else
  const size_t c = (size_t)i * S + j;
  minPacked(m + c / L, (int)(c % L), w);
#endif
}

extern "C" __global__ void __launch_bounds__(256) bfw_init(int* d, int S, const int* table, const int* csr, int inf) {
  const int* e = table + 8 * (size_t)blockIdx.x;
  const int n = e[0], arcs = e[1];
  const int r0 = blockIdx.y * INIT_ROWS, r1 = min(S, r0 + INIT_ROWS);
  int* m = d + (size_t)blockIdx.x * S * S / L;
  fillCells(m, S, r0 * S, r1 * S, inf, threadIdx.x, blockDim.x);
  const int* tails = csr + e[2];
  const int* heads = tails + arcs;
  const int* w = heads + arcs;
  __shared__ int span[2];
  if (threadIdx.x < 2) {  // the first arc with tail ≥ r0, and ≥ r1
    const int key = threadIdx.x == 0 ? r0 : r1;
    int lo = 0, hi = arcs;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (tails[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    span[threadIdx.x] = lo;
  }
  __syncthreads();  // the fill is visible to the block's atomics, span to all
  for (int a = span[0] + threadIdx.x; a < span[1]; a += blockDim.x) lowerCell(m, S, tails[a], heads[a], w[a]);
}

// ---------------------------------------------------------------------------
// Per-source summaries, as fw_reduce: for source u < n over v < n, v ≠ u,
// the finite entries (at most maxReal: integer lanes with negative weights
// may hold infinity minus a little), their largest value and their sum
// (exact in 64 bits). A negative diagonal (a negative cycle the caller's
// check missed: it cannot happen) sets reach to −1. Block (b, y) reduces
// rows [64y, 64y+64) of graph b, a warp a row.
extern "C" __global__ void __launch_bounds__(256) bfw_reduce(const int* d, int S, const int* table, int* reach, int* maxv,
                                                              long long* sum) {
  const int* e = table + 8 * (size_t)blockIdx.x;
  const int n = e[0], row0 = e[3], maxReal = e[4];
  const Lane* m = (const Lane*)d + (size_t)blockIdx.x * S * S;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const int r1 = min(n, (int)(blockIdx.y + 1) * INIT_ROWS);
  for (int u = blockIdx.y * INIT_ROWS + warp; u < r1; u += warps) {
    const Lane* row = m + (size_t)u * S;
    int cnt = 0, best = 0, neg = 0;
    bool any = false;
    long long s = 0;
    for (int v = lane; v < n; v += 32) {
      const int x = row[v];
      if (v == u) {
        neg = x < 0;
        continue;
      }
      if (x > maxReal) continue;
      cnt++;
      s += x;
      if (!any || x > best) best = x, any = true;
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
      cnt += __shfl_xor_sync(0xffffffff, cnt, o);
      s += __shfl_xor_sync(0xffffffff, s, o);
      neg |= __shfl_xor_sync(0xffffffff, neg, o);
      const int ob = __shfl_xor_sync(0xffffffff, best, o);
      const bool oa = __shfl_xor_sync(0xffffffff, (int)any, o);
      if (oa && (!any || ob > best)) best = ob, any = true;
    }
    if (lane == 0) {
      reach[row0 + u] = neg ? -1 : cnt;
      maxv[row0 + u] = best;
      sum[row0 + u] = s;
    }
  }
}

__device__ __forceinline__ int4 int4of(int x, int y, int z, int w) {
  int4 v;
  v.x = x, v.y = y, v.z = z, v.w = w;
  return v;
}

// laneOf is lane l of word w (non-negative lanes: int16 values in [0, 2^15)).
__device__ __forceinline__ int laneOf(int w, int l) {
#if L == 1
  return w;
#else
  return (int)(((unsigned)w >> (16 * l)) & 0xffffu);
#endif
}

// ---------------------------------------------------------------------------
// Whole graphs in registers (S ≤ 128): each thread of a graph's group holds
// an RC×RC sub-tile of words, rows ty·RC.., words tx·RC.. (RC·L lanes;
// DIMX = S/(RC·L) threads across, DIMY = S/RC down, TPG = DIMX·DIMY threads
// a graph, NTH/TPG graphs a block). At step k the owners of column k and of
// row k publish them to shared memory (column k's lane spread to a whole
// word, so that one word relaxes L columns; two buffers, so one barrier a
// step suffices: a thread writes step k+2's buffer only after every thread
// of its group has passed step k+1's barrier, hence finished reading step
// k's); then every thread relaxes its RC² words. The k loop is unrolled by
// RC·L so that the owners' cells are picked by constant register indices.
// The group barrier: a part of a warp, a block, or a named barrier for a
// group of whole warps.
template <int TPG, int NTH>
__device__ __forceinline__ void groupSync(int grp) {
  if (TPG <= 32) {
    __syncwarp();
  } else if (TPG == NTH) {
    __syncthreads();
  } else {
    asm volatile("bar.sync %0, %1;" ::"r"(1 + grp), "r"(TPG) : "memory");
  }
}

// regSteps runs the S steps on a group's registers.
template <int S, int RC, int NTH>
__device__ __forceinline__ void regSteps(int (&acc)[RC][RC], int (*buf)[2][S], int grp, int tx, int ty) {
  constexpr int CL = RC * L, DIMX = S / CL, DIMY = S / RC, TPG = DIMX * DIMY;
  for (int kb = 0; kb < DIMX; kb++) {
#pragma unroll
    for (int kk = 0; kk < CL; kk++) {  // k = kb·CL + kk: word kk/L, lane kk%L of column thread kb; row thread k/RC
      int* colK = buf[kk & 1][0];
      int* rowK = buf[kk & 1][1];
      if (tx == kb) {
        const int kw = kk / L, kl = kk % L;
#pragma unroll
        for (int r = 0; r < RC; r += 4)
          *(int4*)(colK + ty * RC + r) = int4of(dup(acc[r][kw], kl), dup(acc[r + 1][kw], kl), dup(acc[r + 2][kw], kl), dup(acc[r + 3][kw], kl));
      }
      if (ty == kb * L + kk / RC) {
        const int kr = kk % RC;
#pragma unroll
        for (int c = 0; c < RC; c += 4)
          *(int4*)(rowK + tx * RC + c) = int4of(acc[kr][c], acc[kr][c + 1], acc[kr][c + 2], acc[kr][c + 3]);
      }
      groupSync<TPG, NTH>(grp);
      int a[RC], b[RC];
#pragma unroll
      for (int r = 0; r < RC; r += 4) {
        const int4 va = *(const int4*)(colK + ty * RC + r);
        const int4 vb = *(const int4*)(rowK + tx * RC + r);
        a[r] = va.x, a[r + 1] = va.y, a[r + 2] = va.z, a[r + 3] = va.w;
        b[r] = vb.x, b[r + 1] = vb.y, b[r + 2] = vb.z, b[r + 3] = vb.w;
      }
#pragma unroll
      for (int r = 0; r < RC; r++)
#pragma unroll
        for (int c = 0; c < RC; c++) acc[r][c] = relax(a[r], b[c], acc[r][c]);
    }
  }
}

template <int S, int RC, int NTH>
__device__ __forceinline__ void regFW(int* __restrict__ d, int count, long long gstride, int ld, long long off) {
  constexpr int DIMX = S / (RC * L), DIM = S / RC, TPG = DIMX * DIM, GPB = NTH / TPG;
  static_assert(RC % 4 == 0 && S % (RC * L) == 0 && NTH % TPG == 0, "shape");
  static_assert(TPG <= 32 ? 32 % TPG == 0 : TPG % 32 == 0, "a group is a part of a warp or whole warps");
  __shared__ __align__(16) int buf[GPB][2][2][S];  // [group][k&1][column k, row k]
  const int grp = threadIdx.x / TPG, lt = threadIdx.x % TPG;
  // A group past the last graph computes on zeros and stores nothing: it
  // stays for the barriers its warp or block shares with other groups.
  const int g = blockIdx.x * GPB + grp;
  const bool live = g < count;
  const int tx = lt % DIMX, ty = lt / DIMX;
  int* m = d + (size_t)min(g, count - 1) * gstride + off;
  int acc[RC][RC];
#pragma unroll
  for (int r = 0; r < RC; r++)
#pragma unroll
    for (int c = 0; c < RC; c += 4) {
      int4 v = int4of(0, 0, 0, 0);
      if (live) v = *(const int4*)(m + (size_t)(ty * RC + r) * ld + tx * RC + c);
      acc[r][c] = v.x, acc[r][c + 1] = v.y, acc[r][c + 2] = v.z, acc[r][c + 3] = v.w;
    }
  regSteps<S, RC, NTH>(acc, buf[grp], grp, tx, ty);
  if (!live) return;
#pragma unroll
  for (int r = 0; r < RC; r++)
#pragma unroll
    for (int c = 0; c < RC; c += 4)
      *(int4*)(m + (size_t)(ty * RC + r) * ld + tx * RC + c) = int4of(acc[r][c], acc[r][c + 1], acc[r][c + 2], acc[r][c + 3]);
}

// The fused form for whole graphs: each group builds its graph's matrix in
// shared memory from the arcs (as bfw_init), runs the steps in registers
// and then either stores the matrix (mat not null, row-major S×S a graph)
// or reduces its rows as bfw_reduce does, over the DIM threads that share
// its rows (consecutive lanes of one warp), so that the matrix never
// touches device memory. Dynamic shared memory: GPB·S² lanes.
template <int S, int RC, int NTH>
__device__ __forceinline__ void regFused(const int* table, const int* csr, int count, int inf, int* mat, int* reach,
                                         int* maxv, long long* sum) {
  constexpr int DIMX = S / (RC * L), DIM = S / RC, TPG = DIMX * DIM, GPB = NTH / TPG, W = S / L;  // W: words a row
  __shared__ __align__(16) int buf[GPB][2][2][S];
  extern __shared__ __align__(16) int built[];  // [GPB][S][W]
  const int grp = threadIdx.x / TPG, lt = threadIdx.x % TPG;
  const int g = blockIdx.x * GPB + grp;
  const bool live = g < count;
  const int tx = lt % DIMX, ty = lt / DIMX;
  const int* e = table + 8 * (size_t)min(g, count - 1);
  const int n = live ? e[0] : 0;
  int* sm = built + grp * S * W;
  fillCells(sm, S, 0, S * S, inf, lt, TPG);
  groupSync<TPG, NTH>(grp);
  {
    const int arcs = live ? e[1] : 0;
    const int* tails = csr + e[2];
    const int* heads = tails + arcs;
    const int* w = heads + arcs;
    for (int a = lt; a < arcs; a += TPG) lowerCell(sm, S, tails[a], heads[a], w[a]);
  }
  groupSync<TPG, NTH>(grp);
  int acc[RC][RC];
#pragma unroll
  for (int r = 0; r < RC; r++)
#pragma unroll
    for (int c = 0; c < RC; c += 4) {
      const int4 v = *(const int4*)(sm + (ty * RC + r) * W + tx * RC + c);
      acc[r][c] = v.x, acc[r][c + 1] = v.y, acc[r][c + 2] = v.z, acc[r][c + 3] = v.w;
    }
  regSteps<S, RC, NTH>(acc, buf[grp], grp, tx, ty);
  if (mat != nullptr) {
    if (!live) return;
    int* m = mat + (size_t)g * S * W;
#pragma unroll
    for (int r = 0; r < RC; r++)
#pragma unroll
      for (int c = 0; c < RC; c += 4)
        *(int4*)(m + (ty * RC + r) * W + tx * RC + c) = int4of(acc[r][c], acc[r][c + 1], acc[r][c + 2], acc[r][c + 3]);
    return;
  }
  const int maxReal = e[4], row0 = e[3];
#pragma unroll
  for (int r = 0; r < RC; r++) {
    const int i = ty * RC + r;
    int cnt = 0, best = 0, neg = 0, any = 0;
    long long s = 0;
#pragma unroll
    for (int c = 0; c < RC * L; c++) {
      const int j = tx * RC * L + c, x = laneOf(acc[r][c / L], c % L);
      if (i >= n || j >= n) continue;
      if (i == j) {
        neg |= x < 0;
        continue;
      }
      if (x > maxReal) continue;
      cnt++;
      s += x;
      if (!any || x > best) best = x, any = 1;
    }
#pragma unroll
    for (int o = DIMX / 2; o > 0; o /= 2) {  // the DIMX lanes of row i
      cnt += __shfl_xor_sync(0xffffffff, cnt, o);
      s += __shfl_xor_sync(0xffffffff, s, o);
      neg |= __shfl_xor_sync(0xffffffff, neg, o);
      const int ob = __shfl_xor_sync(0xffffffff, best, o);
      const int oa = __shfl_xor_sync(0xffffffff, any, o);
      if (oa && (!any || ob > best)) best = ob, any = 1;
    }
    if (tx == 0 && i < n) {
      reach[row0 + i] = neg ? -1 : cnt;
      maxv[row0 + i] = best;
      sum[row0 + i] = s;
    }
  }
}

// Named bfw_reg<S>_<RC>; NTH threads a block. Graph g's S×S matrix starts
// at d + g·gstride + off, its rows ld apart: a whole graph (gstride = S²,
// ld = S, off = 0), or the pivot tile of a round of larger graphs.
#define REG_KERNEL(S, RC, NTH)                                                                                      \
  extern "C" __global__ void __launch_bounds__(NTH)                                                                 \
      bfw_reg##S##_##RC(int* d, int count, long long gstride, int ld, long long off) {                              \
    regFW<S, RC, NTH>(d, count, gstride, ld, off);                                                                  \
  }
#define FUSED_KERNEL(S, RC, NTH)                                                                               \
  extern "C" __global__ void __launch_bounds__(NTH)                                                            \
      bfw_fused##S##_##RC(const int* table, const int* csr, int count, int inf, int* mat, int* reach, int* maxv, \
                          long long* sum) {                                                                    \
    regFused<S, RC, NTH>(table, csr, count, inf, mat, reach, maxv, sum);                                       \
  }
FUSED_KERNEL(16, 4, 256)
FUSED_KERNEL(16, 8, 256)
FUSED_KERNEL(32, 4, 256)
FUSED_KERNEL(32, 8, 256)
FUSED_KERNEL(64, 8, 256)
FUSED_KERNEL(128, 8, 256)
REG_KERNEL(16, 4, 256)
REG_KERNEL(16, 8, 256)
REG_KERNEL(32, 4, 256)
REG_KERNEL(32, 8, 256)
REG_KERNEL(64, 8, 256)
REG_KERNEL(128, 8, 256)

// ---------------------------------------------------------------------------
// Larger graphs: the multi-kernel blocked form, each round's phase launched
// once for every graph (graph g in blockIdx.y), so that a round's pivots,
// panels and products of all graphs fill the GPU together. The pivot tile
// is closed by a register kernel above (bfw_reg<TILE>); a panel tile then
// needs only a min-plus product with the closed pivot P* (A ← A ⊗ P* for a
// pivot-column tile, P* ⊗ A for a pivot-row tile: a path between the
// panel and the pivot block through the pivot block's vertices enters it
// once and then stays inside), so bfw_panel_mp runs fw.cu's product kernel
// with C aliasing A or B: minplusTile holds C in registers and stores it
// only after its last k-slice is read. The in-place forms (bfw_pivot,
// bfw_panel) are kept for the benchmark.
extern "C" __global__ void __launch_bounds__(NT) bfw_pivot(T* d, int n, int z) {
  extern __shared__ __align__(16) unsigned char sm[];
  inplaceTile(d + (size_t)blockIdx.y * n * n / L, n, z, z, z, (T*)sm);
}

extern "C" __global__ void __launch_bounds__(NT) bfw_panel(T* d, int n, int z, int m) {
  extern __shared__ __align__(16) unsigned char sm[];
  T* dg = d + (size_t)blockIdx.y * n * n / L;
  int o = blockIdx.x % (m - 1);
  if (o >= z) o++;
  if ((int)blockIdx.x < m - 1) inplaceTile(dg, n, o, z, z, (T*)sm);
  else inplaceTile(dg, n, z, o, z, (T*)sm);
}

extern "C" __global__ void __launch_bounds__(NT, MINB) bfw_panel_mp(T* d, int n, int z, int m) {
  extern __shared__ __align__(16) unsigned char sm[];
  T* dg = d + (size_t)blockIdx.y * n * n / L;
  int o = blockIdx.x % (m - 1);
  if (o >= z) o++;
  if ((int)blockIdx.x < m - 1) minplusTile(dg, n, o, z, z, (T*)sm);
  else minplusTile(dg, n, z, o, z, (T*)sm);
}

extern "C" __global__ void __launch_bounds__(NT, MINB) bfw_rest(T* d, int n, int z, int m) {
  extern __shared__ __align__(16) unsigned char sm[];
  T* dg = d + (size_t)blockIdx.y * n * n / L;
  int x = blockIdx.x / (m - 1), y = blockIdx.x % (m - 1);
  if (x >= z) x++;
  if (y >= z) y++;
  minplusTile(dg, n, x, y, z, (T*)sm);
}

// The seeds' single-kernel bulk form (thesis §3.3): one launch of a
// persistent grid; task d of graph g (d in fw_single's topological order)
// gets ID m·d + g from an atomic counter (here count·d + g), so that the
// graphs' tasks of one place in the order run side by side and a task's
// predecessors, smaller IDs of its own graph, are long done. done holds
// each graph's per-tile round counts.
extern "C" __global__ void __launch_bounds__(NT, MINB) bfw_single(T* d, int n, int m, int count, int* counter, int* done) {
  extern __shared__ __align__(16) unsigned char sm[];
  __shared__ int task;
  const int perRound = m * m;
  const long long total = (long long)perRound * m * count;
  for (;;) {
    if (threadIdx.x == 0) task = atomicAdd(counter, 1);
    __syncthreads();
    const int t = task;
    __syncthreads();  // everyone has read task before thread 0 may overwrite it
    if (t >= total) return;
    const int g = t % count, id = t / count;
    T* dg = d + (size_t)g * n * n / L;
    int* dn = done + (size_t)g * perRound;
    const int z = id / perRound, q = id % perRound;
    int x, y;
    if (q == 0) {
      x = z; y = z;
    } else if (q <= 2 * (m - 1)) {
      int o = (q - 1) % (m - 1);
      o = (z + 1 + o) % m;
      if (q - 1 < m - 1) { x = o; y = z; } else { x = z; y = o; }
    } else {
      int r = q - 1 - 2 * (m - 1);
      x = (z + 1 + r / (m - 1)) % m;
      y = (z + 1 + r % (m - 1)) % m;
    }
    if (threadIdx.x == 0) {
      waitFor(&dn[x * m + y], z);
      if (!(x == z && y == z)) waitFor(&dn[z * m + z], z + 1);
      if (x != z && y != z) {
        waitFor(&dn[x * m + z], z + 1);
        waitFor(&dn[z * m + y], z + 1);
      }
    }
    __syncthreads();
    // Panels as products with the closed pivot (see bfw_panel_mp).
    if (x == z && y == z) inplaceTile(dg, n, x, y, z, (T*)sm);
    else minplusTile(dg, n, x, y, z, (T*)sm);
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) storeRelease(&dn[x * m + y], z + 1);
  }
}

// ---------------------------------------------------------------------------
// Baselines, for the benchmark only.
//
// The seeds' multi-kernel bulk form (thesis §3.1, §3.3): 32×32 tiles, a
// thread per cell and one relaxation per thread and step, graph g in
// blockIdx.y; kernel A the pivot tile, B the 2(m−1) panel tiles, C the
// other (m−1)² tiles from the panels staged in shared memory.
#define SW 32
extern "C" __global__ void __launch_bounds__(1024) seeds_a(int* d, int n, int z) {
  __shared__ int s[SW][SW + 1];
  int* dg = d + (size_t)blockIdx.y * n * n;
  const int tx = threadIdx.x % SW, ty = threadIdx.x / SW, b = z * SW;
  s[ty][tx] = dg[(size_t)(b + ty) * n + b + tx];
  __syncthreads();
  for (int k = 0; k < SW; k++) {
    s[ty][tx] = min(s[ty][tx], s[ty][k] + s[k][tx]);  // row and column k are fixed at step k
    __syncthreads();
  }
  dg[(size_t)(b + ty) * n + b + tx] = s[ty][tx];
}

extern "C" __global__ void __launch_bounds__(1024) seeds_b(int* d, int n, int z, int m) {
  __shared__ int p[SW][SW + 1], t[SW][SW + 1];
  int* dg = d + (size_t)blockIdx.y * n * n;
  const int tx = threadIdx.x % SW, ty = threadIdx.x / SW, b = z * SW;
  int o = blockIdx.x % (m - 1);
  if (o >= z) o++;
  const bool col = (int)blockIdx.x < m - 1;  // tile (o, z), else (z, o)
  const size_t at = col ? (size_t)(o * SW + ty) * n + b + tx : (size_t)(b + ty) * n + o * SW + tx;
  p[ty][tx] = dg[(size_t)(b + ty) * n + b + tx];
  t[ty][tx] = dg[at];
  __syncthreads();
  for (int k = 0; k < SW; k++) {
    t[ty][tx] = col ? min(t[ty][tx], t[ty][k] + p[k][tx]) : min(t[ty][tx], p[ty][k] + t[k][tx]);
    __syncthreads();
  }
  dg[at] = t[ty][tx];
}

extern "C" __global__ void __launch_bounds__(1024) seeds_c(int* d, int n, int z, int m) {
  __shared__ int a[SW][SW + 1], bt[SW][SW + 1];
  int* dg = d + (size_t)blockIdx.y * n * n;
  const int tx = threadIdx.x % SW, ty = threadIdx.x / SW, b = z * SW;
  int x = blockIdx.x / (m - 1), y = blockIdx.x % (m - 1);
  if (x >= z) x++;
  if (y >= z) y++;
  a[ty][tx] = dg[(size_t)(x * SW + ty) * n + b + tx];
  bt[ty][tx] = dg[(size_t)(b + ty) * n + y * SW + tx];
  const size_t at = (size_t)(x * SW + ty) * n + y * SW + tx;
  int c = dg[at];
  __syncthreads();
#pragma unroll 8
  for (int k = 0; k < SW; k++) c = min(c, a[ty][k] + bt[k][tx]);
  dg[at] = c;
}

// The C2CU column-wise bulk form (thesis ch. 4, Fig. 4.7): a thread per
// graph runs the sequential triple loop on its matrix in global memory,
// laid out column-wise (cell (i, j) of graph g at (i·n + j)·count + g), so
// that a warp's accesses coalesce.
extern "C" __global__ void colwise_fw(int* d, int n, int count) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= count) return;
  int* D = d + g;
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        const size_t ij = (size_t)(i * n + j) * count, ik = (size_t)(i * n + k) * count, kj = (size_t)(k * n + j) * count;
        D[ij] = min(D[ij], D[ik] + D[kj]);
      }
}

// Between the row-major matrices and the column-wise layout.
extern "C" __global__ void colwise_to(const int* rm, int* cm, int S, int count) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t cells = (size_t)S * S;
  if (t >= cells * count) return;
  const size_t g = t / cells, c = t % cells;
  cm[c * count + g] = rm[t];
}

extern "C" __global__ void colwise_from(const int* cm, int* rm, int S, int count) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t cells = (size_t)S * S;
  if (t >= cells * count) return;
  const size_t g = t / cells, c = t % cells;
  rm[t] = cm[c * count + g];
}
