// kernel_pressure.cu
// Four kernels tuned for an H200 that an MI300X runs differently:
//   tile_accumulate  a 12x12 register tile per thread and no __launch_bounds__: nvcc gives it up to 255
//                    registers, hipcc (which then assumes 1,024-thread blocks) 128 VGPRs, so it spills;
//   stage_rows       96 KiB of dynamic shared memory, allowed on sm_90 after cudaFuncSetAttribute, over the
//                    64 KiB of LDS a workgroup may have on CDNA3;
//   histogram_bins   a 32 KiB shared histogram per block: 6 blocks per SM fit in 228 KiB, 2 per CU in 64 KiB;
//   row_sums         one warp per row, blocks of 32 threads: half of a 64-lane wavefront idles.
// Each result is checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, cudaGetErrorString(err_));    \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define TILE 12
#define THREADS 256
#define BINS 8192
#define ROW_THREADS 32
constexpr int STAGE_BYTES = 96 * 1024;
constexpr int STAGE_FLOATS = STAGE_BYTES / (int)sizeof(float);

// c[i][j] = sum over k of a[k][i] * b[k][j], each thread one 12x12 block of c.
__global__ void tile_accumulate(const float* a, const float* b, float* c, int k, int tiles)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tiles)
        return;
    float acc[TILE][TILE] = {};
    for (int p = 0; p < k; ++p) {
        float x[TILE], y[TILE];
#pragma unroll
        for (int i = 0; i < TILE; ++i) {
            x[i] = a[(size_t)p * tiles * TILE + t * TILE + i];
            y[i] = b[(size_t)p * TILE + i];
        }
#pragma unroll
        for (int i = 0; i < TILE; ++i) {
#pragma unroll
            for (int j = 0; j < TILE; ++j)
                acc[i][j] += x[i] * y[j];
        }
    }
#pragma unroll
    for (int i = 0; i < TILE; ++i) {
#pragma unroll
        for (int j = 0; j < TILE; ++j)
            c[(size_t)t * TILE * TILE + i * TILE + j] = acc[i][j];
    }
}

// Each block copies a 96 KiB slab into shared memory and writes it back reversed.
__global__ void stage_rows(const float* in, float* out)
{
    extern __shared__ float stage[];
    const float* src = in + (size_t)blockIdx.x * STAGE_FLOATS;
    for (int i = threadIdx.x; i < STAGE_FLOATS; i += blockDim.x)
        stage[i] = src[i];
    __syncthreads();
    float* dst = out + (size_t)blockIdx.x * STAGE_FLOATS;
    for (int i = threadIdx.x; i < STAGE_FLOATS; i += blockDim.x)
        dst[i] = stage[STAGE_FLOATS - 1 - i];
}

// A histogram of 8,192 bins per block in shared memory, added into the global one.
__global__ void histogram_bins(const unsigned int* keys, int n, unsigned int* bins)
{
    __shared__ unsigned int local[BINS];
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[keys[i] % BINS], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        if (local[i])
            atomicAdd(&bins[i], local[i]);
}

// One block of 32 threads per row: a strided sum, then a tree in shared memory.
__global__ void row_sums(const float* m, int cols, float* sums)
{
    __shared__ float part[ROW_THREADS];
    const float* row = m + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int j = threadIdx.x; j < cols; j += ROW_THREADS)
        s += row[j];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int step = ROW_THREADS / 2; step > 0; step /= 2) {
        if (threadIdx.x < step)
            part[threadIdx.x] += part[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = part[0];
}

static int check(const char* what, bool ok)
{
    printf("%-16s %s\n", what, ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}

int main()
{
    int failures = 0;

    // tile_accumulate: 2,048 tiles of 12x12 over k = 64
    const int tiles = 2048, k = 64;
    std::vector<float> a((size_t)k * tiles * TILE), b((size_t)k * TILE);
    for (size_t i = 0; i < a.size(); ++i) a[i] = (float)((i * 7) % 13) / 13.f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = (float)((i * 5) % 11) / 11.f;
    float *d_a, *d_b, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, a.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, b.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_c, (size_t)tiles * TILE * TILE * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    tile_accumulate<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_c, k, tiles);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> c((size_t)tiles * TILE * TILE);
    CUDA_CHECK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    float want = 0.f;
    for (int p = 0; p < k; ++p) want += a[(size_t)p * tiles * TILE + 5 * TILE + 3] * b[(size_t)p * TILE + 7];
    failures += check("tile_accumulate", fabsf(c[5 * TILE * TILE + 3 * TILE + 7] - want) < 1e-3f);

    // stage_rows: 16 slabs of 96 KiB
    const int slabs = 16;
    std::vector<float> in((size_t)slabs * STAGE_FLOATS);
    for (size_t i = 0; i < in.size(); ++i) in[i] = (float)(i % 1000);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, in.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaFuncSetAttribute(stage_rows, cudaFuncAttributeMaxDynamicSharedMemorySize, STAGE_BYTES));
    stage_rows<<<slabs, THREADS, STAGE_BYTES>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> out(in.size());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    failures += check("stage_rows", out[STAGE_FLOATS + 10] == in[2 * STAGE_FLOATS - 11]);

    // histogram_bins: 4 M keys
    const int n = 1 << 22;
    std::vector<unsigned int> keys(n), cpu(BINS, 0), gpu(BINS);
    unsigned int state = 12345u;
    for (int i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        keys[i] = state >> 8;
        cpu[keys[i] % BINS]++;
    }
    unsigned int *d_keys, *d_bins;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));
    histogram_bins<<<256, THREADS>>>(d_keys, n, d_bins);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gpu.data(), d_bins, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    failures += check("histogram_bins", gpu == cpu);

    // row_sums: 4,096 rows of 1,000
    const int rows = 4096, cols = 1000;
    std::vector<float> m((size_t)rows * cols), sums(rows);
    for (size_t i = 0; i < m.size(); ++i) m[i] = (float)(i % 7);
    float *d_m, *d_sums;
    CUDA_CHECK(cudaMalloc(&d_m, m.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_m, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice));
    row_sums<<<rows, ROW_THREADS>>>(d_m, cols, d_sums);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    float row0 = 0.f;
    for (int j = 0; j < cols; ++j) row0 += m[j];
    failures += check("row_sums", fabsf(sums[0] - row0) < 1e-2f);

    CUDA_CHECK(cudaFree(d_a)); CUDA_CHECK(cudaFree(d_b)); CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaFree(d_in)); CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_keys)); CUDA_CHECK(cudaFree(d_bins));
    CUDA_CHECK(cudaFree(d_m)); CUDA_CHECK(cudaFree(d_sums));
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
