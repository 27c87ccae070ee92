// 3x3 box blur over a 2D grid of 2D blocks.
#include <cuda_runtime.h>

__global__ void boxBlur(const unsigned char* in, unsigned char* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int sum = 0, count = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = x + dx, yy = y + dy;
            if (xx >= 0 && xx < w && yy >= 0 && yy < h) {
                sum += in[yy * w + xx];
                ++count;
            }
        }
    out[y * w + x] = (unsigned char)(sum / count);
}

void blur(const unsigned char* in, unsigned char* out, int w, int h)
{
    dim3 block(16, 16);
    dim3 grid((w + 15) / 16, (h + 15) / 16);
    boxBlur<<<grid, block>>>(in, out, w, h);
}
