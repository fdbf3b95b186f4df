// Blocked Floyd–Warshall kernels for apsp, compiled by NVRTC with:
//   lanes: int32 by default, -DLANE_FLOAT (float32), -DLANE_I16 (two int16
//   lanes a 32-bit word) or -DLANE_I8 (four int8 lanes a word); -DTILE=W
//   (tile width in lanes), -DTDIM=T (threads across a tile's words) and
//   -DTROWS=U (threads across its rows, default T), -DBK=K (k-slice of the
//   min-plus product staged through shared memory), -DMINB=B (blocks per SM
//   the product and single kernels are register-limited for).
// Packed lanes are a plain row-major matrix of int16 (int8) with stride n:
// column j is lane j%L of word j/L, lane 0 in the low bits. A thread owns R
// rows × C words of a tile, R and C multiples of 4, in groups of 4
// consecutive words so that shared-memory reads are 16 bytes wide.
// The narrow lanes hold non-negative lengths up to half their range (the
// lane plan's infinity, 16383 or 63): the sum of two never overflows a lane.

#ifndef TILE
#define TILE 128
#endif
#ifndef TDIM
#define TDIM 16
#endif
#ifndef TROWS
#define TROWS TDIM
#endif
#ifndef BK
#define BK 32
#endif
#ifndef MINB
#define MINB 1
#endif

#if defined(LANE_I16)
#define L 2
#elif defined(LANE_I8)
#define L 4
#else
#define L 1
#endif
#define TW (TILE / L)        // words in a tile row
#define R (TILE / TROWS)     // rows a thread owns
#define C (TW / TDIM)        // words a thread owns in each of its rows
#define GR (R / 4)
#define GC (C / 4)
#define NT (TDIM * TROWS)

#ifdef LANE_FLOAT
typedef float T;
typedef float4 T4;
typedef float V;  // a lane's value
__device__ __forceinline__ T relax(T a, T b, T c) { return fminf(a + b, c); }
#else
typedef int T;
typedef int4 T4;
typedef int V;
#if L == 2
// Two int16 relaxations in one DPX instruction on Hopper.
#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ T relax(T a, T b, T c) { return (T)__viaddmin_s16x2((unsigned)a, (unsigned)b, (unsigned)c); }
#else
__device__ __forceinline__ T relax(T a, T b, T c) { return (T)__vmins2(__vadd2((unsigned)a, (unsigned)b), (unsigned)c); }
#endif
#elif L == 4
// Four int8 lanes of at most 63: the 32-bit add cannot carry between lanes
// (63 + 63 < 128), and a byte-wise minimum of 7-bit values is five logic
// operations: (c|0x80) − s has its top bit set where c ≥ s, with no borrow
// between bytes. On an H100 this SWAR form relaxes 15.0·10¹² lanes/s in
// registers, __vminu4 12.0·10¹², both below the int16 DPX pair's 32.4·10¹².
__device__ __forceinline__ T relax(T a, T b, T c) {
  const unsigned s = (unsigned)a + (unsigned)b, x = (unsigned)c;
  unsigned m = ((x | 0x80808080u) - s) & 0x80808080u;
  m -= m >> 7;
  return (T)((s & m) | (x & ~m));
}
#elif __CUDA_ARCH__ >= 900
// One DPX instruction (VIADDMNMX) per relaxation on Hopper.
__device__ __forceinline__ T relax(T a, T b, T c) { return __viaddmin_s32(a, b, c); }
#else
__device__ __forceinline__ T relax(T a, T b, T c) { return min(a + b, c); }
#endif
#endif

// dup returns lane l of word w in every lane of a word: the D[i][k]
// operand of a row's relaxations, added to a word of D[k][j].
__device__ __forceinline__ T dup(T w, int l) {
#if L == 2
  return (T)__byte_perm((unsigned)w, 0, 0x1010 + 0x2222 * l);
#elif L == 4
  return (T)__byte_perm((unsigned)w, 0, 0x1111 * l);
#else
  return w;
#endif
}

static_assert(R % 4 == 0 && C % 4 == 0, "a thread owns rows and words in groups of 4");
static_assert(TILE % BK == 0 && (BK / L) % 4 == 0, "BK must divide TILE and hold 4 words");

// Row offset of a thread's r-th row, word offset of its c-th word.
__device__ __forceinline__ int rowOf(int ty, int r) { return (r / 4) * TROWS * 4 + ty * 4 + r % 4; }
__device__ __forceinline__ int colOf(int tx, int c) { return (c / 4) * TDIM * 4 + tx * 4 + c % 4; }

// loadTile and storeTile move a thread's R×C words of the tile at (row0,
// word col0) between the matrix (P words a row) and registers.
__device__ __forceinline__ void loadTile(const T* __restrict__ d, size_t P, size_t row0, size_t col0, T (&acc)[R][C]) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
#pragma unroll
  for (int r = 0; r < R; r++) {
    const T* src = d + (row0 + rowOf(ty, r)) * P + col0;
#pragma unroll
    for (int g = 0; g < GC; g++) {
      T4 v = __ldcg((const T4*)(src + colOf(tx, g * 4)));
      acc[r][g * 4 + 0] = v.x;
      acc[r][g * 4 + 1] = v.y;
      acc[r][g * 4 + 2] = v.z;
      acc[r][g * 4 + 3] = v.w;
    }
  }
}

__device__ __forceinline__ void storeTile(T* __restrict__ d, size_t P, size_t row0, size_t col0, const T (&acc)[R][C]) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
#pragma unroll
  for (int r = 0; r < R; r++) {
    T* dst = d + (row0 + rowOf(ty, r)) * P + col0;
#pragma unroll
    for (int g = 0; g < GC; g++) {
      T4 v;
      v.x = acc[r][g * 4 + 0];
      v.y = acc[r][g * 4 + 1];
      v.z = acc[r][g * 4 + 2];
      v.w = acc[r][g * 4 + 3];
      *(T4*)(dst + colOf(tx, g * 4)) = v;
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

#define AST (BK + 4)      // row stride of the A slice as used (row i, k contiguous, one lane a word)
#define ARST (BK / L + 4)  // row stride of the A slice as copied (packed)
#define BST (TW + 4)       // row stride of the B slice (row k, words j contiguous)
#define SLICE (TILE * ARST + BK * BST)
#if L > 1
#define DUP_A (TILE * AST)  // the A slice with every lane a word of its own, once
#else
#define DUP_A 0
#endif

// Min-plus tile product: C = min(C, A ⊗ B) for the tile at (x, y) of cm,
// with A the tile row x of am (K columns) and B the tile column y of bm (K
// rows); am, bm and cm share the stride P words. The blocked rounds take
// A = D[x][z], B = D[z][y] (minplusTile); the out-of-core rounds take panels
// that stay on the device (fw_strip). k-slices of A and B are double-buffered in shared
// memory; packed A slices are spread to one lane a word (dup) once per slice,
// so that the inner loop is the same for every lane. Shared words:
// 2 × (TILE×(BK/L+4) + BK×(TW+4)) + (L > 1 ? TILE×(BK+4) : 0).
// am may be cm itself (an out-of-core panel times the closed pivot), and so
// may bm (the pivot rows through the closed pivot block): a block reads its
// slices before it stores its tile, and any mix of old and new values in
// another block's tiles gives the same result, because the pivot block is
// closed (see outofcore.go).
__device__ __forceinline__ void minplusGen(T* cm, const T* am, const T* bm, size_t P, int x, int y, int K, T* smem) {
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
  const size_t rowA = (size_t)x * TILE, colB = (size_t)y * TW;
  auto stage = [&](int buf, int k0) {
    T* As = smem + DUP_A + buf * SLICE;
    T* Bs = As + TILE * ARST;
    for (int q = threadIdx.x; q < TILE * BK / L / 4; q += NT) {
      int i = q / (BK / L / 4), kw = (q % (BK / L / 4)) * 4;
      copy16(As + i * ARST + kw, am + (rowA + i) * P + k0 / L + kw);
      int kb = q / (TW / 4), j = (q % (TW / 4)) * 4;
      copy16(Bs + kb * BST + j, bm + (size_t)(k0 + kb) * P + colB + j);
    }
    copyCommit();
  };
  stage(0, 0);
  T acc[R][C];
  loadTile(cm, P, rowA, colB, acc);
  for (int s = 0; s < K / BK; s++) {
    copyWaitAll();
    __syncthreads();  // slice s is in; everyone is done with slice s-1
#if L > 1
    {
      const T* raw = smem + DUP_A + (s & 1) * SLICE;
      for (int c = threadIdx.x; c < TILE * BK / L; c += NT) {
        int i = c / (BK / L), kw = c % (BK / L);
        T w = raw[i * ARST + kw];
#pragma unroll
        for (int l = 0; l < L; l++) smem[i * AST + kw * L + l] = dup(w, l);
      }
    }
#endif
    if (s + 1 < K / BK) stage((s + 1) & 1, (s + 1) * BK);
#if L > 1
    __syncthreads();  // the spread A slice is complete
    const T* As = smem;
#else
    const T* As = smem + (s & 1) * SLICE;
#endif
    const T* Bs = smem + DUP_A + (s & 1) * SLICE + TILE * ARST;
#pragma unroll 2
    for (int kk = 0; kk < BK; kk += 4) {
      T4 a4[R];
#pragma unroll
      for (int r = 0; r < R; r++) a4[r] = *(const T4*)(As + rowOf(ty, r) * AST + kk);
#pragma unroll
      for (int q = 0; q < 4; q++) {
        T b[C];
#pragma unroll
        for (int g = 0; g < GC; g++) {
          T4 vb = *(const T4*)(Bs + (kk + q) * BST + colOf(tx, g * 4));
          b[g * 4 + 0] = vb.x; b[g * 4 + 1] = vb.y; b[g * 4 + 2] = vb.z; b[g * 4 + 3] = vb.w;
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
          T a = q == 0 ? a4[r].x : q == 1 ? a4[r].y : q == 2 ? a4[r].z : a4[r].w;
#pragma unroll
          for (int c = 0; c < C; c++) acc[r][c] = relax(a, b[c], acc[r][c]);
        }
      }
    }
  }
  __syncthreads();  // the caller may reuse shared memory
  storeTile(cm, P, rowA, colB, acc);
}

__device__ __forceinline__ void minplusTile(T* __restrict__ d, int n, int x, int y, int z, T* smem) {
  const size_t P = n / L, kz = (size_t)z * TILE;
  minplusGen(d, d + kz / L, d + kz * P, P, x, y, TILE, smem);
}

// ---------------------------------------------------------------------------
// In-place tile update for the tiles that depend on themselves: the pivot
// tile (x = y = z), a pivot-column tile (y = z) and a pivot-row tile (x = z).
// The tile lives in registers; at each k its own column k (spread to one
// lane a word) and row k are broadcast through shared memory, the pivot tile
// (read-only for the row and column tiles) is staged in shared memory.
// Shared: TILE×TW + 4×TILE words.
// selfCol / selfRow say where D[i][k] and D[k][j] come from (the tile itself
// or the pivot tile); they are template parameters so that each kind of tile
// gets a loop without run-time choices.
template <bool selfCol, bool selfRow>
__device__ __forceinline__ void inplaceTileOf(T* __restrict__ d, int n, int x, int y, int z, T* smem) {
  T* Ps = smem;                  // pivot tile, stride TW
  T* colBuf = smem + TILE * TW;  // two buffers of (own column k, own row k)
  const int tx = threadIdx.x % TDIM, ty = threadIdx.x / TDIM;
  const size_t P = n / L;
  const size_t r0 = (size_t)x * TILE, c0 = (size_t)y * TW, p0 = (size_t)z * TILE;
  if (!(selfCol && selfRow)) {
    for (int idx = threadIdx.x; idx < TILE * TW; idx += NT) {
      int i = idx / TW, j = idx % TW;
      Ps[idx] = __ldcg(d + (p0 + i) * P + p0 / L + j);
    }
  }
  T acc[R][C];
  loadTile(d, P, r0, c0, acc);
#pragma unroll 2
  for (int k = 0; k < TILE; k++) {
    // Owners publish column k and row k of the tile as they stand, into one
    // of two buffers: a thread can only be writing step k+1's buffer after
    // every thread has passed step k's barrier, hence finished reading step
    // k-1's, so one barrier a step is enough.
    const int kw = k / L, kl = k % L;
    T* colK = colBuf + (k & 1) * 2 * TILE;
    T* rowK = colK + TILE;
#pragma unroll
    for (int c = 0; c < C; c++) {
      if (selfCol && colOf(tx, c) == kw) {
#pragma unroll
        for (int r = 0; r < R; r++) colK[rowOf(ty, r)] = dup(acc[r][c], kl);
      }
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
      if (selfRow && rowOf(ty, r) == k) {
#pragma unroll
        for (int c = 0; c < C; c++) rowK[colOf(tx, c)] = acc[r][c];
      }
    }
    __syncthreads();
    T a[R], b[C];
#pragma unroll
    for (int g = 0; g < GR; g++) {
      T4 va;
      if (selfCol) {
        va = *(const T4*)(colK + rowOf(ty, g * 4));
      } else {
        va.x = dup(Ps[rowOf(ty, g * 4 + 0) * TW + kw], kl);
        va.y = dup(Ps[rowOf(ty, g * 4 + 1) * TW + kw], kl);
        va.z = dup(Ps[rowOf(ty, g * 4 + 2) * TW + kw], kl);
        va.w = dup(Ps[rowOf(ty, g * 4 + 3) * TW + kw], kl);
      }
      a[g * 4 + 0] = va.x; a[g * 4 + 1] = va.y; a[g * 4 + 2] = va.z; a[g * 4 + 3] = va.w;
    }
#pragma unroll
    for (int g = 0; g < GC; g++) {
      T4 vb = selfRow ? *(const T4*)(rowK + colOf(tx, g * 4)) : *(const T4*)(Ps + k * TW + colOf(tx, g * 4));
      b[g * 4 + 0] = vb.x; b[g * 4 + 1] = vb.y; b[g * 4 + 2] = vb.z; b[g * 4 + 3] = vb.w;
    }
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
      for (int c = 0; c < C; c++) acc[r][c] = relax(a[r], b[c], acc[r][c]);
  }
  __syncthreads();  // the caller may reuse shared memory
  storeTile(d, P, r0, c0, acc);
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

// Strip product (outofcore.go, coarse.go, multifw.go): c = min(c, a ⊗ b)
// over K = k columns of a and rows of b, for the tiles of c in every tile
// row but [rskip, rskip + rskips) and every tile column but [skip, skip +
// skips). Grid: (tile columns − skips) × (tile rows − rskips). n is the
// stride of a, b and c in lanes.
extern "C" __global__ void __launch_bounds__(NT, MINB) fw_strip(T* c, const T* a, const T* b, int n, int k, int skip,
                                                                int skips, int rskip, int rskips) {
  extern __shared__ __align__(16) unsigned char sm[];
  int x = blockIdx.y, y = blockIdx.x;
  if (y >= skip) y += skips;
  if (x >= rskip) x += rskips;
  minplusGen(c, a, b, n / L, x, y, k, (T*)sm);
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
#if L == 2
typedef short Lane;
#elif L == 4
typedef signed char Lane;
#else
typedef T Lane;
#endif
// d's row 0 is vertex r0 (out-of-core rounds reduce a strip at a time).
extern "C" __global__ void fw_reduce(const T* d, int n, int nv, int r0, V maxReal, int* reach, V* maxv, double* sum,
                                     int* negVertex) {
  const Lane* row = (const Lane*)d + (size_t)blockIdx.x * n;
  const int u = blockIdx.x + r0;
  int cnt = 0;
  V best = 0;
  bool any = false;
  double s = 0;
  for (int v = threadIdx.x; v < nv; v += blockDim.x) {
    V x = row[v];
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
  __shared__ V sbest[1024];
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
// the n×n matrix (n the stride, in lanes): infinity, 0 on the diagonal
// (padding rows included), then u's arcs, keeping the smallest of parallel
// arcs (and the diagonal's 0 against a positive self-loop).
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

// minPacked lowers lane l of the word at p to w (non-negative, as every
// packed lane is) with compare-and-swap on the whole word.
__device__ __forceinline__ void minPacked(T* p, int l, int w) {
  const int bits = 32 / L;
  const unsigned shift = l * bits, mask = ((1u << bits) - 1) << shift;
  unsigned* q = (unsigned*)p;
  unsigned old = *q;
  while ((unsigned)w < ((old & mask) >> shift)) {
    const unsigned seen = atomicCAS(q, old, (old & ~mask) | ((unsigned)w << shift));
    if (seen == old) break;
    old = seen;
  }
}

extern "C" __global__ void fw_init(T* d, int n, int nv, int r0, const long long* offsets, const int* heads, const T* weights,
                                   T inf) {
  const int u = blockIdx.x + r0;  // d holds rows r0.. (a strip of several GPUs' matrix, multifw.go)
  const size_t P = n / L;
  T* row = d + (size_t)blockIdx.x * P;
#if L == 1
  for (int v = threadIdx.x * 4; v < n; v += blockDim.x * 4) {
    T4 x;
    x.x = v == u ? (T)0 : inf;
    x.y = v + 1 == u ? (T)0 : inf;
    x.z = v + 2 == u ? (T)0 : inf;
    x.w = v + 3 == u ? (T)0 : inf;
    *(T4*)(row + v) = x;
  }
#else
  // inf in every lane; the diagonal's lane cleared in the word that holds it.
  const unsigned infs = (unsigned)inf * (L == 2 ? 0x00010001u : 0x01010101u);
  const unsigned diag = ((1u << (32 / L)) - 1) << ((u % L) * (32 / L));
  for (size_t w = threadIdx.x; w < P; w += blockDim.x) {
    row[w] = (T)(w == (size_t)(u / L) ? infs & ~diag : infs);
  }
#endif
  if (u >= nv) return;  // the whole block: no barrier below is skipped by some
  __syncthreads();      // the row's fill is visible to the block's atomics
  const long long a1 = offsets[u + 1];
  for (long long a = offsets[u] + threadIdx.x; a < a1; a += blockDim.x) {
#if L == 1
    minLane(row + heads[a], weights ? weights[a] : (T)1);
#else
    const int h = heads[a];
    minPacked(row + h / L, h % L, weights ? weights[a] : 1);
#endif
  }
}
