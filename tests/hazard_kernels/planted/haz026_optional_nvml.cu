// expect: HAZ026 8
// GPU temperature logged when NVML is there: an optional dependency, tested for by its header. A HIP build for
// AMD has no nvml.h, leaves the block out, and the NVML names inside are not reported one by one.
#include <cuda_runtime.h>
#include <cstdio>

int gpu_temperature(int device) {
#if __has_include(<nvml.h>)
#include <nvml.h>
    static bool ready = nvmlInit_v2() == NVML_SUCCESS;
    nvmlDevice_t handle;
    unsigned int celsius = 0;
    if (ready && nvmlDeviceGetHandleByIndex_v2(device, &handle) == NVML_SUCCESS &&
        nvmlDeviceGetTemperature(handle, NVML_TEMPERATURE_GPU, &celsius) == NVML_SUCCESS) {
        return static_cast<int>(celsius);
    }
#endif
    return -1;
}

__global__ void touch(int* p) { p[threadIdx.x] = threadIdx.x; }

int main() {
    int* p;
    cudaMalloc(&p, 64 * sizeof(int));
    touch<<<1, 64>>>(p);
    cudaDeviceSynchronize();
    printf("temperature %d\n", gpu_temperature(0));
    return 0;
}
