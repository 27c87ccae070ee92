// curand_pi.cu
// Monte Carlo estimate of pi. cuRAND's host API fills device memory with
// 2 * N uniform floats (the first N are x, the next N are y); a kernel
// counts the points with x^2 + y^2 <= 1 (the quarter circle), and
// pi ~= 4 * count / N. The same random numbers are copied back and the
// count is recomputed on the CPU, which must match exactly.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, hipGetErrorString(err_));     \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define CURAND_CHECK(call)                                                   \
    do {                                                                     \
        hiprandStatus_t st_ = (call);                                        \
        if (st_ != HIPRAND_STATUS_SUCCESS) {                                 \
            fprintf(stderr, "cuRAND error at %s:%d: %s failed: status %d\n", \
                    __FILE__, __LINE__, #call, (int)st_);                    \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define THREADS 256

// x*x and y*y of two floats are exact in double, so the sum is rounded
// once whether or not the compiler fuses it into an FMA: GPU and CPU then
// classify every point the same way.
__host__ __device__ inline bool inside(float x, float y)
{
    double dx = x, dy = y;
    return dx * dx + dy * dy <= 1.0;
}

__global__ void countInside(const float* x, const float* y, int n, unsigned int* count)
{
    __shared__ unsigned int blockCount;
    if (threadIdx.x == 0)
        blockCount = 0;
    __syncthreads();

    unsigned int mine = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        mine += inside(x[i], y[i]) ? 1u : 0u;
    atomicAdd(&blockCount, mine);     // shared-memory atomic per thread
    __syncthreads();

    if (threadIdx.x == 0)
        atomicAdd(count, blockCount);  // one global atomic per block
}

int main()
{
    const int N = 1 << 24;                     // number of points
    const unsigned long long SEED = 1234ULL;
    const double BOUND = 2.0e-3;               // ~5 standard deviations, see README

    float* d_rand = nullptr;
    unsigned int* d_count = nullptr;
    CUDA_CHECK(hipMalloc((void**)&d_rand, 2 * (size_t)N * sizeof(float)));
    CUDA_CHECK(hipMalloc((void**)&d_count, sizeof(unsigned int)));
    CUDA_CHECK(hipMemset(d_count, 0, sizeof(unsigned int)));

    hiprandGenerator_t gen;
    CURAND_CHECK(hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(hiprandSetPseudoRandomGeneratorSeed(gen, SEED));
    CURAND_CHECK(hiprandGenerateUniform(gen, d_rand, 2 * (size_t)N));  // values in (0, 1]

    int blocks = (N + THREADS - 1) / THREADS;
    if (blocks > 1024)
        blocks = 1024;
    countInside<<<blocks, THREADS>>>(d_rand, d_rand + N, N, d_count);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipDeviceSynchronize());

    unsigned int gpu_count = 0;
    CUDA_CHECK(hipMemcpy(&gpu_count, d_count, sizeof(unsigned int), hipMemcpyDeviceToHost));
    std::vector<float> h_rand(2 * (size_t)N);
    CUDA_CHECK(hipMemcpy(h_rand.data(), d_rand, h_rand.size() * sizeof(float),
                          hipMemcpyDeviceToHost));

    unsigned int cpu_count = 0;
    for (int i = 0; i < N; ++i)
        cpu_count += inside(h_rand[i], h_rand[N + i]) ? 1u : 0u;

    double pi_est = 4.0 * (double)gpu_count / (double)N;
    double error = fabs(pi_est - M_PI);
    bool ok = (gpu_count == cpu_count) && (error < BOUND);

    printf("curand_pi: N=%d inside=%u cpu_inside=%u pi_est=%.6f |pi_est-pi|=%.2e (bound %.1e)\n",
           N, gpu_count, cpu_count, pi_est, error, BOUND);

    CURAND_CHECK(hiprandDestroyGenerator(gen));
    CUDA_CHECK(hipFree(d_rand));
    CUDA_CHECK(hipFree(d_count));

    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
