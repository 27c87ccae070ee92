// One data-parallel SGD step of a linear model y = W x, the way multi-GPU trainers lay it out, with NVTX ranges
// around each phase for Nsight Systems: forward and loss gradient on each GPU, an NCCL all-reduce that sums the
// weight gradients of every GPU, then the averaged update. Each GPU holds its own shard of the batch; the program
// runs on every GPU it sees (one is enough) and checks the updated weights against a CPU computation.
#include <cuda_runtime.h>
#include <nccl.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));     \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)
#define NCCL_CHECK(call)                                                                    \
    do {                                                                                    \
        ncclResult_t r_ = (call);                                                           \
        if (r_ != ncclSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, ncclGetErrorString(r_));     \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

constexpr int IN = 256;       // features
constexpr int OUT = 64;       // outputs
constexpr int SHARD = 1024;   // samples per GPU
constexpr float LR = 0.05f;

// a coloured range, as NVIDIA's PUSH_RANGE idiom writes it
static void push_range(const char* name, unsigned int argb) {
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    nvtxRangePushEx(&a);
}

// dL/dW for L = 1/(2N) * sum ||W x - t||^2 over this GPU's shard (N = all samples of all GPUs)
__global__ void weight_gradient(const float* w, const float* x, const float* t, float* grad, int shard, float scale) {
    int o = blockIdx.x;
    int i = threadIdx.x;  // one thread per input feature
    float g = 0.0f;
    for (int s = 0; s < shard; ++s) {
        const float* xs = x + static_cast<size_t>(s) * IN;
        float y = 0.0f;
        for (int k = 0; k < IN; ++k) y += w[o * IN + k] * xs[k];
        g += (y - t[s * OUT + o]) * xs[i];
    }
    grad[o * IN + i] = g * scale;
}

__global__ void sgd_update(float* w, const float* grad, float lr, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) w[i] -= lr * grad[i];
}

static float uniform(unsigned int& seed) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
}

int main() {
    int ndev = 0;
    CUDA_CHECK(cudaGetDeviceCount(&ndev));
    const int total = ndev * SHARD;
    std::vector<float> w0(OUT * IN), x(static_cast<size_t>(total) * IN), t(static_cast<size_t>(total) * OUT);
    unsigned int seed = 7u;
    for (auto& v : w0) v = 0.05f * uniform(seed);
    for (auto& v : x) v = uniform(seed);
    for (auto& v : t) v = uniform(seed);

    std::vector<int> devs(ndev);
    for (int d = 0; d < ndev; ++d) devs[d] = d;
    std::vector<ncclComm_t> comms(ndev);
    NCCL_CHECK(ncclCommInitAll(comms.data(), ndev, devs.data()));

    std::vector<float*> d_w(ndev), d_x(ndev), d_t(ndev), d_g(ndev);
    std::vector<cudaStream_t> streams(ndev);
    for (int d = 0; d < ndev; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaStreamCreate(&streams[d]));
        CUDA_CHECK(cudaMalloc(&d_w[d], OUT * IN * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&d_g[d], OUT * IN * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&d_x[d], static_cast<size_t>(SHARD) * IN * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&d_t[d], static_cast<size_t>(SHARD) * OUT * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(d_w[d], w0.data(), OUT * IN * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_x[d], x.data() + static_cast<size_t>(d) * SHARD * IN,
                              static_cast<size_t>(SHARD) * IN * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_t[d], t.data() + static_cast<size_t>(d) * SHARD * OUT,
                              static_cast<size_t>(SHARD) * OUT * sizeof(float), cudaMemcpyHostToDevice));
    }

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, streams[0]));
    nvtxRangePushA("train_step");
    push_range("forward+backward", 0xff2a9d8f);
    for (int d = 0; d < ndev; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        weight_gradient<<<OUT, IN, 0, streams[d]>>>(d_w[d], d_x[d], d_t[d], d_g[d], SHARD, 1.0f / total);
        CUDA_CHECK(cudaGetLastError());
    }
    nvtxRangePop();
    push_range("allreduce", 0xffe76f51);
    NCCL_CHECK(ncclGroupStart());
    for (int d = 0; d < ndev; ++d) {
        NCCL_CHECK(ncclAllReduce(d_g[d], d_g[d], OUT * IN, ncclFloat, ncclSum, comms[d], streams[d]));
    }
    NCCL_CHECK(ncclGroupEnd());
    nvtxRangePop();
    nvtxMarkA("gradients reduced");
    push_range("update", 0xff264653);
    for (int d = 0; d < ndev; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        sgd_update<<<(OUT * IN + 255) / 256, 256, 0, streams[d]>>>(d_w[d], d_g[d], LR, OUT * IN);
        CUDA_CHECK(cudaGetLastError());
    }
    nvtxRangePop();
    nvtxRangePop();
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaEventRecord(stop, streams[0]));
    for (int d = 0; d < ndev; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaStreamSynchronize(streams[d]));
    }
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

    // CPU reference: the same gradient over all samples, then the same update
    std::vector<double> grad(OUT * IN, 0.0);
    for (int s = 0; s < total; ++s) {
        for (int o = 0; o < OUT; ++o) {
            double y = 0.0;
            for (int k = 0; k < IN; ++k) y += static_cast<double>(w0[o * IN + k]) * x[static_cast<size_t>(s) * IN + k];
            double r = y - t[static_cast<size_t>(s) * OUT + o];
            for (int i = 0; i < IN; ++i) grad[o * IN + i] += r * x[static_cast<size_t>(s) * IN + i];
        }
    }
    double max_err = 0.0;
    std::vector<float> got(OUT * IN);
    for (int d = 0; d < ndev; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaMemcpy(got.data(), d_w[d], OUT * IN * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < OUT * IN; ++i) {
            double want = w0[i] - LR * grad[i] / total;
            max_err = std::fmax(max_err, std::fabs(want - got[i]));
        }
    }
    for (int d = 0; d < ndev; ++d) NCCL_CHECK(ncclCommDestroy(comms[d]));
    printf("train_step: gpus=%d samples=%d step_ms=%.3f max_abs_err=%.2e\n", ndev, total, ms, max_err);
    bool ok = max_err < 1e-5;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
