// The block CPP068 writes in place of libcu++'s <cuda/barrier> and <cuda/pipeline> (migrate/cpp/cuda_barrier.h),
// on an NVIDIA GPU, used as CUDA code uses libcu++ (after hipmigrate has qualified the names), against results computed
// on the host: (a) a split arrive/wait barrier, (b) arrive_and_drop by threads leaving at different phases, (c) double
// buffering with two barriers and float4 memcpy_async, (d) a block's memcpy_async of odd sizes and offsets, byte for
// byte, (e) a thread's own pipeline in a ring of stages (pipeline_consumer_wait_prior, consumer_wait), as cuda-samples'
// globalToShmemAsyncCopy does, (f) a block's pipeline with producer and consumer warps, and with every thread both.
// Each case runs over many blocks, several block shapes and many rounds, with threads skewed by short sleeps so that
// races would show. Its name is printed before it runs, and one still running after 20 s is reported as a deadlock.
// Prints one line per case and "N passed, M failed".
#include <cooperative_groups.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <utility>
#include <vector>

#include "cuda_barrier.h"

namespace cg = cooperative_groups;
typedef hipmigrate_cuda::barrier<hipmigrate_cuda::thread_scope_block> block_barrier;

static int passed = 0, failed = 0;

static void start(const char* name) {
  printf("%-72s ", name);
  fflush(stdout);
}

// waits for what was launched, up to 20 s: a barrier or pipeline that never opens leaves its kernel spinning
static bool finish() {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) {
    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done);
    auto t0 = std::chrono::steady_clock::now();
    while ((e = cudaEventQuery(done)) == cudaErrorNotReady) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
        printf("FAILED (still running after 20 s: deadlock)\n%d passed, %d failed\n", passed, failed + 1);
        fflush(stdout);
        _exit(1);
      }
      usleep(1000);
    }
    cudaEventDestroy(done);
  }
  if (e != cudaSuccess) printf("(%s) ", cudaGetErrorString(e));
  return e == cudaSuccess;
}

static void report(bool ok) {
  printf("%s\n", ok ? "ok" : "FAILED");
  (ok ? passed : failed)++;
}

__host__ __device__ unsigned mix(unsigned a, unsigned b, unsigned c) {
  unsigned x = a * 0x9E3779B1u ^ b * 0x85EBCA77u ^ c * 0xC2B2AE3Du;
  x ^= x >> 15;
  return x * 0x2C1B3C6Du;
}

// a few threads at each step sleep a little, so that arrivals come in ever different orders
__device__ void skew(int step, int who) {
  if ((mix(step, who, blockIdx.x) & 15) == 0) __nanosleep(200);
}

// (a) each round: write my slot, arrive, do other work, wait, read another thread's slot, arrive and wait
__global__ void split_barrier(unsigned* out, int rounds) {
  __shared__ block_barrier bar;
  __shared__ unsigned slot[1024];
  auto block = cg::this_thread_block();
  const int n = block.size(), r = block.thread_rank();
  if (r == 0) init(&bar, block.size());
  block.sync();
  unsigned acc = 0;
  for (int it = 0; it < rounds; ++it) {
    skew(it, r);
    slot[r] = mix(blockIdx.x, r, it);
    auto token = bar.arrive();
    unsigned mine = mix(r, it, 7);
    bar.wait(std::move(token));
    acc = acc * 31 + (slot[(r + 1 + it) % n] ^ mine);
    bar.arrive_and_wait();
  }
  out[blockIdx.x * n + r] = acc;
}

// (b) threads r % 4 == 1 leave at a phase of their own; the others go on reading each other's slots
__host__ __device__ int drop_phase(int b, int r, int rounds) { return (r * 37 + b * 11) % (2 * rounds - 1); }

__global__ void dropping_barrier(unsigned* out, int rounds) {
  __shared__ block_barrier bar;
  __shared__ unsigned slot[1024];
  auto block = cg::this_thread_block();
  const int n = block.size(), r = block.thread_rank();
  const bool leaves = r % 4 == 1;
  if (r == 0) init(&bar, block.size());
  block.sync();
  unsigned acc = 0;
  for (int p = 0; p < 2 * rounds; ++p) {
    skew(p, r);
    if (p % 2 == 0) slot[r] = mix(blockIdx.x, r, p / 2);
    else if (!leaves) acc = acc * 31 + slot[(r + 4) % n];
    if (leaves && p == drop_phase(blockIdx.x, r, rounds)) {
      bar.arrive_and_drop();
      out[blockIdx.x * n + r] = p;
      return;
    }
    bar.arrive_and_wait();
  }
  out[blockIdx.x * n + r] = acc;
}

// (c) double buffering: the next tile is copied under one barrier while the current one is read under the other
constexpr int POOL = 64;  // tiles of blockDim.x float4 in the input; block b's round t reads tile (3b + t) % POOL

__global__ void double_buffer(const float4* in, float* out, int tiles) {
  __shared__ float4 buf[2][1024];
  __shared__ block_barrier bar[2];
  auto block = cg::this_thread_block();
  const int n = block.size(), r = block.thread_rank();
  if (r == 0) {
    init(&bar[0], block.size());
    init(&bar[1], block.size());
  }
  block.sync();
  const auto shape = hipmigrate_cuda::aligned_size_t<sizeof(float4)>(sizeof(float4));
  auto tile = [&](int t) { return in + (size_t)((blockIdx.x * 3 + t) % POOL) * n; };
  hipmigrate_cuda::memcpy_async(&buf[0][r], tile(0) + r, shape, bar[0]);
  float sum = 0;
  for (int t = 0; t < tiles; ++t) {
    const int front = t & 1, back = front ^ 1;
    if (t + 1 < tiles) hipmigrate_cuda::memcpy_async(&buf[back][r], tile(t + 1) + r, shape, bar[back]);
    skew(t, r);
    bar[front].arrive_and_wait();  // the front tile is in
    for (int j = 0; j < 8; ++j) {
      float4 v = buf[front][(r + 37 * j + t) % n];
      sum += v.x + 2 * v.y + 3 * v.z + 4 * v.w;
    }
    bar[front].arrive_and_wait();  // and read by all, before it is refilled
  }
  out[blockIdx.x * n + r] = sum;
}

// (d) a block's copy of `bytes` bytes to smem + doff from src + soff (a chunk of 64 bytes that moves with the round)
constexpr int SMEM = 8192 + 32;

template <size_t Align>
__global__ void group_copy(const unsigned char* src, unsigned char* last, int* errors, int bytes, int soff, int doff,
                           int rounds) {
  __shared__ alignas(16) unsigned char smem[SMEM];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  const int n = block.size(), r = block.thread_rank();
  if (r == 0) init(&bar, block.size());
  block.sync();
  int bad = 0;
  for (int it = 0; it < rounds; ++it) {
    for (int i = r; i < SMEM; i += n) smem[i] = 0xA5;
    block.sync();
    const unsigned char* from = src + (blockIdx.x * 7 + it) % 61 * 64 + soff;
    if (Align == 1) hipmigrate_cuda::memcpy_async(block, smem + doff, from, (size_t)bytes, bar);
    else hipmigrate_cuda::memcpy_async(block, smem + doff, from, hipmigrate_cuda::aligned_size_t<Align>(bytes), bar);
    bar.arrive_and_wait();
    for (int i = r; i < SMEM; i += n) {
      bad += smem[i] != (i >= doff && i < doff + bytes ? from[i - doff] : 0xA5);
      if (blockIdx.x == 0 && it == rounds - 1) last[i] = smem[i];
    }
    bar.arrive_and_wait();
  }
  if (bad) atomicAdd(errors, bad);
}

// (e) a thread's own pipeline in a ring of S stages; threads 4 * x < T each copy a float4 of A's and B's tiles.
// Round k: stage k is in (for this thread), then the block syncs (in for all, and stage k - 1 read by all), then
// stage k + S - 1 goes into stage k - 1's buffer.
template <int T, int S, bool Prior>
__global__ void thread_pipeline_mm(float* C, const float* A, const float* B, int K, int N) {
  __shared__ alignas(16) float As[S][T][T];
  __shared__ alignas(16) float Bs[S][T][T];
  const int tx = threadIdx.x, ty = threadIdx.y, tiles = K / T;
  const float* a = A + (blockIdx.y * T + ty) * K + 4 * tx;
  const float* b = B + ty * N + blockIdx.x * T + 4 * tx;
  auto pipe = hipmigrate_cuda::make_pipeline();
  auto load = [&](int k) {
    pipe.producer_acquire();
    if (k < tiles && 4 * tx < T) {
      hipmigrate_cuda::memcpy_async(&As[k % S][ty][4 * tx], a + k * T, hipmigrate_cuda::aligned_size_t<16>(16), pipe);
      hipmigrate_cuda::memcpy_async(&Bs[k % S][ty][4 * tx], b + k * T * N, hipmigrate_cuda::aligned_size_t<16>(16),
                                    pipe);
    }
    pipe.producer_commit();
  };
  for (int k = 0; k < S - 1; ++k) load(k);
  float sum = 0;
  for (int k = 0; k < tiles; ++k) {
    if (Prior) hipmigrate_cuda::pipeline_consumer_wait_prior<S - 2>(pipe);
    else pipe.consumer_wait();
    __syncthreads();
    load(k + S - 1);
    skew(k, ty * T + tx);
    for (int i = 0; i < T; ++i) sum += As[k % S][ty][i] * Bs[k % S][i][tx];
    if (!Prior) pipe.consumer_release();
  }
  C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = sum;
}

// (f) a block's pipeline of S stages: rows y < T consume, rows y >= T (whole warps) produce, running ahead
template <int T, int S>
__global__ void role_pipeline_mm(float* C, const float* A, const float* B, int K, int N) {
  __shared__ float As[S][T][T];
  __shared__ float Bs[S][T][T];
  __shared__ hipmigrate_cuda::pipeline_shared_state<hipmigrate_cuda::thread_scope_block, S> state;
  auto cta = cg::this_thread_block();
  const int tx = threadIdx.x, ty = threadIdx.y, tiles = K / T, producer_rows = blockDim.y - T;
  const auto role = ty < T ? hipmigrate_cuda::pipeline_role::consumer : hipmigrate_cuda::pipeline_role::producer;
  auto pipe = hipmigrate_cuda::make_pipeline(cta, &state, role);
  const auto shape = hipmigrate_cuda::aligned_size_t<alignof(float)>(sizeof(float));
  if (ty >= T) {
    for (int k = 0; k < tiles; ++k) {
      skew(k, ty * T + tx);
      pipe.producer_acquire();
      for (int row = ty - T; row < T; row += producer_rows) {
        hipmigrate_cuda::memcpy_async(&As[k % S][row][tx], &A[(blockIdx.y * T + row) * K + k * T + tx], shape, pipe);
        hipmigrate_cuda::memcpy_async(&Bs[k % S][row][tx], &B[(k * T + row) * N + blockIdx.x * T + tx], shape, pipe);
      }
      pipe.producer_commit();
    }
  } else {
    float sum = 0;
    for (int k = 0; k < tiles; ++k) {
      pipe.consumer_wait();
      skew(k, ty * T + tx);
      for (int i = 0; i < T; ++i) sum += As[k % S][ty][i] * Bs[k % S][i][tx];
      pipe.consumer_release();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = sum;
  }
}

// (f) the same with every thread both producer and consumer, stage k + S - 1 loaded before stage k is consumed
template <int T, int S>
__global__ void unified_pipeline_mm(float* C, const float* A, const float* B, int K, int N) {
  __shared__ float As[S][T][T];
  __shared__ float Bs[S][T][T];
  __shared__ hipmigrate_cuda::pipeline_shared_state<hipmigrate_cuda::thread_scope_block, S> state;
  auto cta = cg::this_thread_block();
  const int tx = threadIdx.x, ty = threadIdx.y, tiles = K / T;
  auto pipe = hipmigrate_cuda::make_pipeline(cta, &state);
  const auto shape = hipmigrate_cuda::aligned_size_t<alignof(float)>(sizeof(float));
  auto load = [&](int k) {
    pipe.producer_acquire();
    hipmigrate_cuda::memcpy_async(&As[k % S][ty][tx], &A[(blockIdx.y * T + ty) * K + k * T + tx], shape, pipe);
    hipmigrate_cuda::memcpy_async(&Bs[k % S][ty][tx], &B[(k * T + ty) * N + blockIdx.x * T + tx], shape, pipe);
    pipe.producer_commit();
  };
  for (int k = 0; k < S - 1 && k < tiles; ++k) load(k);
  float sum = 0;
  for (int k = 0; k < tiles; ++k) {
    if (k + S - 1 < tiles) load(k + S - 1);
    skew(k, ty * T + tx);
    pipe.consumer_wait();
    for (int i = 0; i < T; ++i) sum += As[k % S][ty][i] * Bs[k % S][i][tx];
    pipe.consumer_release();
  }
  C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = sum;
}

static void barrier_case(int kind, int n, int blocks, int rounds) {
  static const char* what[] = {"split arrive/wait", "arrive_and_drop", "double buffer, memcpy_async float4"};
  char name[128];
  snprintf(name, sizeof name, "%s, %d threads x %d blocks x %d rounds", what[kind], n, blocks, rounds);
  start(name);
  std::vector<float4> pool((size_t)POOL * n);
  for (size_t i = 0; i < pool.size(); ++i)
    pool[i] = make_float4(mix(i, 1, 0) % 16, mix(i, 2, 0) % 16, mix(i, 3, 0) % 16, mix(i, 4, 0) % 16);
  unsigned* out;
  float4* in;
  cudaMalloc(&out, sizeof(unsigned) * blocks * n);
  cudaMalloc(&in, sizeof(float4) * pool.size());
  cudaMemcpy(in, pool.data(), sizeof(float4) * pool.size(), cudaMemcpyHostToDevice);
  if (kind == 0) split_barrier<<<blocks, n>>>(out, rounds);
  if (kind == 1) dropping_barrier<<<blocks, n>>>(out, rounds);
  if (kind == 2) double_buffer<<<blocks, n>>>(in, (float*)out, rounds);
  bool ok = finish();
  std::vector<unsigned> got(blocks * n);
  cudaMemcpy(got.data(), out, sizeof(unsigned) * got.size(), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b)
    for (int r = 0; r < n; ++r) {
      unsigned acc = 0;
      float sum = 0;
      for (int it = 0; it < rounds; ++it) {
        if (kind == 0) acc = acc * 31 + (mix(b, (r + 1 + it) % n, it) ^ mix(r, it, 7));
        if (kind == 1) acc = acc * 31 + mix(b, (r + 4) % n, it);
        for (int j = 0; kind == 2 && j < 8; ++j) {
          float4 v = pool[(size_t)((b * 3 + it) % POOL) * n + (r + 37 * j + it) % n];
          sum += v.x + 2 * v.y + 3 * v.z + 4 * v.w;
        }
      }
      if (kind == 1 && r % 4 == 1) acc = drop_phase(b, r, rounds);
      if (kind == 2) ok = ok && ((float*)got.data())[b * n + r] == sum;
      else ok = ok && got[b * n + r] == acc;
    }
  report(ok);
  cudaFree(out);
  cudaFree(in);
}

template <size_t Align>
static void copy_case(const char* size, int n, int blocks, int rounds, std::vector<int> sizes) {  // bytes, soff, doff
  char name[128];
  snprintf(name, sizeof name, "group memcpy_async, %s, %d threads x %d blocks x %d rounds", size, n, blocks, rounds);
  start(name);
  std::vector<unsigned char> src(61 * 64 + SMEM), last(SMEM);
  for (size_t i = 0; i < src.size(); ++i) src[i] = mix(i, 5, 0) >> 24;
  unsigned char *dsrc, *dlast;
  int* errors;
  cudaMalloc(&dsrc, src.size());
  cudaMalloc(&dlast, SMEM);
  cudaMalloc(&errors, sizeof(int));
  cudaMemcpy(dsrc, src.data(), src.size(), cudaMemcpyHostToDevice);
  bool ok = true;
  for (size_t v = 0; v + 2 < sizes.size(); v += 3) {
    const int bytes = sizes[v], soff = sizes[v + 1], doff = sizes[v + 2];
    int bad = 0;
    cudaMemset(errors, 0, sizeof(int));
    group_copy<Align><<<blocks, n>>>(dsrc, dlast, errors, bytes, soff, doff, rounds);
    ok = finish() && ok;
    cudaMemcpy(&bad, errors, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(last.data(), dlast, SMEM, cudaMemcpyDeviceToHost);
    const unsigned char* from = src.data() + (rounds - 1) % 61 * 64 + soff;
    for (int i = 0; i < SMEM; ++i) bad += last[i] != (i >= doff && i < doff + bytes ? from[i - doff] : 0xA5);
    if (bad) printf("(%d bytes from +%d to +%d: %d bad) ", bytes, soff, doff, bad);
    ok = ok && bad == 0;
  }
  report(ok);
  cudaFree(dsrc);
  cudaFree(dlast);
  cudaFree(errors);
}

// C = A B with A M x K and B K x N, of multiples of 1/16 in [-1, 1]: every sum is exact in float
constexpr int M = 256, N = 256, K = 1024;
static std::vector<float> ha, hb, hc, habs;
static float *da, *db, *dc;

// the launches, on T x T tiles (with P rows of producers)
template <int T, int S, bool Prior>
static void thread_mm() { thread_pipeline_mm<T, S, Prior><<<dim3(N / T, M / T), dim3(T, T)>>>(dc, da, db, K, N); }
template <int T, int S, int P>
static void role_mm() { role_pipeline_mm<T, S><<<dim3(N / T, M / T), dim3(T, T + P)>>>(dc, da, db, K, N); }
template <int T, int S>
static void unified_mm() { unified_pipeline_mm<T, S><<<dim3(N / T, M / T), dim3(T, T)>>>(dc, da, db, K, N); }

static void mm_case(const char* name, void (*launch)()) {
  start(name);
  cudaMemset(dc, 0xFF, sizeof(float) * M * N);
  launch();
  bool ok = finish();
  std::vector<float> c(M * N);
  cudaMemcpy(c.data(), dc, sizeof(float) * M * N, cudaMemcpyDeviceToHost);
  for (int i = 0; i < M * N; ++i) ok = ok && fabs((double)c[i] - hc[i]) <= 1e-4 * habs[i] + 1e-30;
  report(ok);
}

int main() {
  const int shapes[] = {64, 128, 256, 1024};
  for (int kind = 0; kind < 3; ++kind)
    for (int n : shapes) barrier_case(kind, n, 160, kind == 2 ? 128 : 200);
  for (int n : shapes) {
    copy_case<1>("size_t", n, 96, 20, {1, 0, 0, 15, 3, 5, 17, 1, 0, 1000, 0, 7, 4093, 5, 3, 8191, 0, 1});
    copy_case<4>("aligned_size_t<4>", n, 96, 20, {4, 4, 0, 1004, 0, 8, 8188, 12, 4});
    copy_case<8>("aligned_size_t<8>", n, 96, 20, {8, 8, 0, 4088, 0, 8, 8184, 16, 8});
    copy_case<16>("aligned_size_t<16>", n, 96, 20, {16, 0, 0, 4112, 16, 16, 8192, 0, 16});
  }
  ha.resize(M * K);
  hb.resize(K * N);
  hc.assign(M * N, 0);
  habs.assign(M * N, 0);
  for (int i = 0; i < M * K; ++i) ha[i] = ((int)(mix(i, 6, 0) % 33) - 16) / 16.0f;
  for (int i = 0; i < K * N; ++i) hb[i] = ((int)(mix(i, 7, 0) % 33) - 16) / 16.0f;
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) {
        hc[i * N + j] += ha[i * K + k] * hb[k * N + j];
        habs[i * N + j] += fabsf(ha[i * K + k] * hb[k * N + j]);
      }
  cudaMalloc(&da, sizeof(float) * M * K);
  cudaMalloc(&db, sizeof(float) * K * N);
  cudaMalloc(&dc, sizeof(float) * M * N);
  cudaMemcpy(da, ha.data(), sizeof(float) * M * K, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), sizeof(float) * K * N, cudaMemcpyHostToDevice);
  mm_case("thread pipeline, 2 stages, wait_prior<0>, 16 x 16 tiles", thread_mm<16, 2, true>);
  mm_case("thread pipeline, 4 stages, wait_prior<2>, 16 x 16 tiles", thread_mm<16, 4, true>);
  mm_case("thread pipeline, 4 stages, consumer_wait, 16 x 16 tiles", thread_mm<16, 4, false>);
  mm_case("thread pipeline, 4 stages, wait_prior<2>, 32 x 32 tiles", thread_mm<32, 4, true>);
  mm_case("block pipeline, 2 stages, 1 producer warp, 16 x 16 tiles", role_mm<16, 2, 2>);
  mm_case("block pipeline, 4 stages, 2 producer warps, 16 x 16 tiles", role_mm<16, 4, 4>);
  mm_case("block pipeline, 2 stages, 2 producer warps, 8 x 8 tiles", role_mm<8, 2, 8>);
  mm_case("block pipeline, 4 stages, 1 producer warp, 8 x 8 tiles", role_mm<8, 4, 4>);
  mm_case("block pipeline, every thread both, 3 stages, 16 x 16 tiles", unified_mm<16, 3>);
  mm_case("block pipeline, every thread both, 3 stages, 32 x 32 tiles", unified_mm<32, 3>);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
