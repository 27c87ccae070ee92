// Peer-to-peer copy between two devices when they can reach each other.
#include <cuda_runtime.h>

bool copyToPeer(float* dst, int dstDev, const float* src, int srcDev, size_t n)
{
    int canAccess = 0;
    cudaDeviceCanAccessPeer(&canAccess, dstDev, srcDev);
    if (!canAccess)
        return false;
    cudaSetDevice(dstDev);
    cudaDeviceEnablePeerAccess(srcDev, 0);
    return cudaMemcpyPeer(dst, dstDev, src, srcDev, n * sizeof(float)) == cudaSuccess;
}
