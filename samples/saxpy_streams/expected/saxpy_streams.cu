// saxpy_streams.cu
// y = a * x + y over N floats. The array is cut into chunks; each chunk is
// copied in, computed and copied back on its own stream so that transfers
// and kernels of different chunks can overlap. Host buffers are pinned
// (cudaMallocHost) so cudaMemcpyAsync really is asynchronous.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, hipGetErrorString(err_));     \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

__global__ void saxpy(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Small LCG so the inputs are the same on every run and every platform.
static float next_value(unsigned int& state)
{
    state = state * 1664525u + 1013904223u;
    return (float)(state >> 8) / 16777216.0f * 2.0f - 1.0f;  // [-1, 1)
}

int main()
{
    const int N = (1 << 22) + 777;   // deliberately not a multiple of the chunk size
    const int NUM_STREAMS = 4;
    const int BLOCK = 256;
    const float A = 2.5f;
    const size_t bytes = (size_t)N * sizeof(float);

    float *h_x, *h_y;
    CUDA_CHECK(hipHostMalloc((void**)&h_x, bytes));
    CUDA_CHECK(hipHostMalloc((void**)&h_y, bytes));
    float* h_ref = (float*)malloc(bytes);

    unsigned int seed = 20240611u;
    for (int i = 0; i < N; ++i) {
        h_x[i] = next_value(seed);
        h_y[i] = next_value(seed);
        h_ref[i] = A * h_x[i] + h_y[i];   // CPU reference
    }

    float *d_x, *d_y;
    CUDA_CHECK(hipMalloc((void**)&d_x, bytes));
    CUDA_CHECK(hipMalloc((void**)&d_y, bytes));

    hipStream_t streams[NUM_STREAMS];
    for (int s = 0; s < NUM_STREAMS; ++s)
        CUDA_CHECK(hipStreamCreate(&streams[s]));

    hipEvent_t start, stop;
    CUDA_CHECK(hipEventCreate(&start));
    CUDA_CHECK(hipEventCreate(&stop));

    const int chunk = (N + NUM_STREAMS - 1) / NUM_STREAMS;
    CUDA_CHECK(hipEventRecord(start, 0));
    for (int s = 0; s < NUM_STREAMS; ++s) {
        int offset = s * chunk;
        int count = (N - offset < chunk) ? N - offset : chunk;
        if (count <= 0)
            break;
        size_t cbytes = (size_t)count * sizeof(float);
        CUDA_CHECK(hipMemcpyAsync(d_x + offset, h_x + offset, cbytes,
                                   hipMemcpyHostToDevice, streams[s]));
        CUDA_CHECK(hipMemcpyAsync(d_y + offset, h_y + offset, cbytes,
                                   hipMemcpyHostToDevice, streams[s]));
        int grid = (count + BLOCK - 1) / BLOCK;
        saxpy<<<grid, BLOCK, 0, streams[s]>>>(count, A, d_x + offset, d_y + offset);
        CUDA_CHECK(hipGetLastError());
        CUDA_CHECK(hipMemcpyAsync(h_y + offset, d_y + offset, cbytes,
                                   hipMemcpyDeviceToHost, streams[s]));
    }
    // The legacy default stream waits for all blocking streams, so this
    // event completes only after every chunk is back on the host.
    CUDA_CHECK(hipEventRecord(stop, 0));
    CUDA_CHECK(hipEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(hipEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(hipDeviceSynchronize());

    // The GPU may fuse a*x+y into one FMA while the CPU rounds twice, so
    // allow a relative error of 1e-6 (a few float ulps for |y| <= 3.5).
    double max_err = 0.0;
    int bad = 0;
    for (int i = 0; i < N; ++i) {
        double err = fabs((double)h_y[i] - (double)h_ref[i]);
        if (err > max_err)
            max_err = err;
        if (err > 1e-6 * (1.0 + fabs((double)h_ref[i])))
            ++bad;
    }

    printf("saxpy_streams: N=%d streams=%d time=%.3f ms max_abs_err=%.3e mismatches=%d\n",
           N, NUM_STREAMS, ms, max_err, bad);

    CUDA_CHECK(hipEventDestroy(start));
    CUDA_CHECK(hipEventDestroy(stop));
    for (int s = 0; s < NUM_STREAMS; ++s)
        CUDA_CHECK(hipStreamDestroy(streams[s]));
    CUDA_CHECK(hipFree(d_x));
    CUDA_CHECK(hipFree(d_y));
    CUDA_CHECK(hipHostFree(h_x));
    CUDA_CHECK(hipHostFree(h_y));
    free(h_ref);

    printf("%s\n", bad == 0 ? "PASSED" : "FAILED");
    return bad == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
