// Repeated min-plus squaring for apsp's gpu-minplus (Tran's method, as Kemp
// compares it), compiled by NVRTC with -DLANE_FLOAT (float32 lanes; default
// int32). The matrix is stride×stride, stride a multiple of MP_TILE; rows
// and columns past n are infinity. Kept apart from fw.cu on purpose: it is
// an independent check of the Floyd–Warshall kernels.

#define MP_TILE 64
#define MP_BK 32
#define MP_T 16  // threads a side: each owns 4×4 cells

#ifdef LANE_FLOAT
typedef float T;
__device__ __forceinline__ T relax(T a, T b, T c) { return fminf(a + b, c); }
__device__ __forceinline__ void minLane(T* p, T x) {
  // Never negative here: float bits order as integers.
  atomicMin((int*)p, __float_as_int(x));
}
#else
typedef int T;
#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ T relax(T a, T b, T c) { return __viaddmin_s32(a, b, c); }
#else
__device__ __forceinline__ T relax(T a, T b, T c) { return min(a + b, c); }
#endif
__device__ __forceinline__ void minLane(T* p, T x) { atomicMin(p, x); }
#endif

// minplus_init writes row blockIdx.x: infinity, 0 on the diagonal, the
// least arc length to each head.
extern "C" __global__ void minplus_init(T* d, int stride, int n, const long long* off, const int* heads,
                                        const T* weights, T inf) {
  const int u = blockIdx.x;
  T* row = d + (size_t)u * stride;
  for (int v = threadIdx.x; v < stride; v += blockDim.x) row[v] = (v == u && u < n) ? (T)0 : inf;
  if (u >= n) return;
  __syncthreads();
  for (long long a = off[u] + threadIdx.x; a < off[u + 1]; a += blockDim.x) minLane(row + heads[a], weights[a]);
}

// minplus_square computes d = d ⊗ d in place for the 64×64 tile
// (blockIdx.y, blockIdx.x) and sets *changed when an entry dropped. In place
// is sound: every entry only ever drops to the length of some path, so a
// product that reads entries already lowered in this pass lands at or below
// the out-of-place product, and a pass that lowers nothing proves d = d ⊗ d,
// the closure.
extern "C" __global__ void __launch_bounds__(MP_T* MP_T) minplus_square(T* d, int stride, int* changed) {
  __shared__ T a[MP_BK][MP_TILE + 4];  // a[k][i] = d[row i][k]
  __shared__ T b[MP_BK][MP_TILE + 4];  // b[k][j] = d[k][col j]
  const int tx = threadIdx.x % MP_T, ty = threadIdx.x / MP_T;
  const int row0 = blockIdx.y * MP_TILE, col0 = blockIdx.x * MP_TILE;
  T acc[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) acc[i][j] = d[(size_t)(row0 + ty * 4 + i) * stride + col0 + tx * 4 + j];
  T before[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) before[i][j] = acc[i][j];
  for (int k0 = 0; k0 < stride; k0 += MP_BK) {
    // 64×32 of each operand: 2048 lanes, 8 a thread.
    for (int e = threadIdx.x; e < MP_TILE * MP_BK; e += MP_T * MP_T) {
      const int r = e / MP_BK, k = e % MP_BK;
      a[k][r] = d[(size_t)(row0 + r) * stride + k0 + k];
      const int kk = e / MP_TILE, c = e % MP_TILE;
      b[kk][c] = d[(size_t)(k0 + kk) * stride + col0 + c];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < MP_BK; k++) {
      T x[4], y[4];
      for (int i = 0; i < 4; i++) x[i] = a[k][ty * 4 + i];
      for (int j = 0; j < 4; j++) y[j] = b[k][tx * 4 + j];
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) acc[i][j] = relax(x[i], y[j], acc[i][j]);
    }
    __syncthreads();
  }
  bool dropped = false;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      if (acc[i][j] < before[i][j]) {
        dropped = true;
        d[(size_t)(row0 + ty * 4 + i) * stride + col0 + tx * 4 + j] = acc[i][j];
      }
    }
  if (__any_sync(0xffffffffu, dropped) && (threadIdx.x & 31) == 0) *changed = 1;
}

// minplus_reduce summarises row blockIdx.x (v < n): finite entries v ≠ u
// (at most maxReal for integers), the largest, the sum.
extern "C" __global__ void minplus_reduce(const T* d, int stride, int n, T maxReal, int* reach, T* maxv,
                                          double* sum) {
  const int u = blockIdx.x;
  const T* row = d + (size_t)u * stride;
  int cnt = 0;
  T best = 0;
  double s = 0;
  for (int v = threadIdx.x; v < n; v += blockDim.x) {
    const T x = row[v];
    if (v == u || !(x <= maxReal)) continue;
    cnt++;
    s += (double)x;
    best = max(best, x);
  }
  for (int o = 16; o > 0; o >>= 1) {
    cnt += __shfl_down_sync(0xffffffffu, cnt, o);
    best = max(best, __shfl_down_sync(0xffffffffu, best, o));
    s += __shfl_down_sync(0xffffffffu, s, o);
  }
  __shared__ int sc[32];
  __shared__ T sb[32];
  __shared__ double ss[32];
  const int w = threadIdx.x / 32;
  if ((threadIdx.x & 31) == 0) {
    sc[w] = cnt;
    sb[w] = best;
    ss[w] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 1; i < (int)(blockDim.x / 32); i++) {
      cnt += sc[i];
      best = max(best, sb[i]);
      s += ss[i];
    }
    reach[u] = cnt;
    maxv[u] = best;
    sum[u] = s;
  }
}
