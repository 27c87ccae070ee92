// expect: HAZ016 7
// Thrust sorting on a stream with the CUDA execution policy.
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

void sortOn(int* keys, int n, cudaStream_t s) {
    thrust::sort(thrust::cuda::par.on(s), keys, keys + n);
}
