// expect: HAZ007 7
// The compute capability read through a device attribute.
#include <cuda_runtime.h>

int computeMajor(int device) {
    int major = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    return major;
}
