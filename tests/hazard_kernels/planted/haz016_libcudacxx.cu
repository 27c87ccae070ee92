// expect: HAZ016 3
// A device-wide atomic counter from libcu++, which no ROCm release ships.
#include <cuda/atomic>

__global__ void count(int* hits, const float* in) {
    cuda::atomic_ref<int, cuda::thread_scope_device> counter(*hits);
    if (in[threadIdx.x] > 0.0f)
        counter.fetch_add(1, cuda::memory_order_relaxed);
}
