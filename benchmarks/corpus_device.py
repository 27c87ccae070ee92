"""The corpus's device code (benchmarks/corpus.py): kernels (reductions, a histogram, a transpose, half precision,
dynamic shared memory, templates, a stencil over __constant__ memory) and device helpers."""
from __future__ import annotations

from benchmarks.corpus_builder import FileBuilder


def warp_reduce(f: FileBuilder) -> None:
    helper, kernel = f.names.fresh("camel"), f.names.fresh("kernel")
    f.add("""
        // Warp-level sum with __shfl_down_sync; lane 0 holds the result.
        __device__ __forceinline__ float $helper(float value)
        {
            for (int offset = $warp / 2; offset > 0; offset /= 2) {
                value += __shfl_down_sync(0xffffffff, value, offset);
            }
            return value;
        }

        // Butterfly all-reduce: every lane ends with the maximum (__shfl_xor_sync).
        __device__ __forceinline__ float ${helper}Max(float value)
        {
            for (int mask = $warp / 2; mask > 0; mask >>= 1) {
                value = fmaxf(value, __shfl_xor_sync(0xffffffff, value, mask));
            }
            return value;
        }

        __global__ void $kernel(const float* __restrict__ input, float* result, int n)
        {
            float sum = 0.0f;
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                sum += __ldg(input + i);
            }
            sum = $helper(sum);
            if ((threadIdx.x & ($warp - 1)) == 0) {
                atomicAdd(result, sum);
            }
        }
        """, ("<cuda_runtime.h>",), helper=helper, kernel=kernel, warp=32)


def block_reduce(f: FileBuilder) -> None:
    kernel, buf = f.names.fresh("kernel"), f.pick("partial", "cache", "scratch", "sdata")
    T = f.pick("float", "double", "int")
    f.add("""
        template <int BLOCK>
        __global__ void $kernel(const $T* __restrict__ in, $T* out, int n)
        {
            __shared__ $T ${buf}[BLOCK];
            const int tid = threadIdx.x;
            const int i = blockIdx.x * BLOCK * 2 + threadIdx.x;
            $T v = 0;
            if (i < n) v += in[i];
            if (i + BLOCK < n) v += in[i + BLOCK];
            ${buf}[tid] = v;
            __syncthreads();
            for (int s = BLOCK / 2; s > 0; s >>= 1) {
                if (tid < s) {
                    ${buf}[tid] += ${buf}[tid + s];
                }
                __syncthreads();
            }
            if (tid == 0) {
                out[blockIdx.x] = ${buf}[0];
            }
        }
        """, ("<cuda_runtime.h>",), kernel=kernel, buf=buf, T=T)
    if f.rng.random() < 0.7:
        launch_template(f, kernel, T, f.pick(128, 256, 512))


def launch_template(f: FileBuilder, kernel: str, T: str, block: int) -> None:
    f.add("""
        inline void launch_$name(const $T* d_in, $T* d_out, int n, cudaStream_t stream)
        {
            const int blocks = (n + $block * 2 - 1) / ($block * 2);
            $kernel<$block><<<blocks, $block, 0, stream>>>(d_in, d_out, n);
            CUDA_CHECK(cudaGetLastError());
        }
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), name=f.names.fresh(), kernel=kernel, T=T, block=block)


def histogram(f: FileBuilder) -> None:
    kernel = f.names.fresh("kernel")
    f.add("""
        #define ${macro}_BINS $bins

        __global__ void $kernel(const unsigned char* data, size_t n, unsigned int* bins)
        {
            __shared__ unsigned int local[${macro}_BINS];
            for (int b = threadIdx.x; b < ${macro}_BINS; b += blockDim.x) {
                local[b] = 0;
            }
            __syncthreads();
            for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                atomicAdd(&local[data[i] % ${macro}_BINS], 1u);
            }
            __syncthreads();
            for (int b = threadIdx.x; b < ${macro}_BINS; b += blockDim.x) {
                atomicAdd(&bins[b], local[b]);
            }
        }
        """, ("<cuda_runtime.h>",), kernel=kernel, macro=f.names.fresh("macro"), bins=f.pick(64, 128, 256))


def transpose(f: FileBuilder) -> None:
    kernel, tile = f.names.fresh("kernel"), f.pick(16, 32)
    f.add("""
        // Tiled transpose; the +1 column avoids shared-memory bank conflicts.
        __global__ void $kernel(float* out, const float* in, int width, int height)
        {
            __shared__ float tile[$tile][$tile + 1];
            int x = blockIdx.x * $tile + threadIdx.x;
            int y = blockIdx.y * $tile + threadIdx.y;
            if (x < width && y < height) {
                tile[threadIdx.y][threadIdx.x] = in[y * width + x];
            }
            __syncthreads();
            x = blockIdx.y * $tile + threadIdx.x;
            y = blockIdx.x * $tile + threadIdx.y;
            if (x < height && y < width) {
                out[y * height + x] = tile[threadIdx.x][threadIdx.y];
            }
        }

        void ${kernel}Launch(float* d_out, const float* d_in, int width, int height, cudaStream_t stream)
        {
            dim3 block($tile, $tile);
            dim3 grid((width + $tile - 1) / $tile, (height + $tile - 1) / $tile);
            $kernel<<<grid, block, 0, stream>>>(d_out, d_in, width, height);
            CUDA_CHECK(cudaGetLastError());
        }
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), kernel=kernel, tile=tile)


def half_precision(f: FileBuilder) -> None:
    kernel = f.names.fresh("kernel")
    f.add("""
        // Mixed precision: inputs are __half, the scale is applied in float.
        __global__ void $kernel(const __half* in, __half* out, float scale, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                float v = __half2float(in[i]) * scale;
                out[i] = __float2half(v + $bias);
            }
        }

        __global__ void ${kernel}ToHalf(const float* in, __half* out, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                out[i] = __float2half(in[i]);
            }
        }
        """, ("<cuda_runtime.h>", "<cuda_fp16.h>"), kernel=kernel, bias=f.pick("0.0f", "0.5f", "1.0f"))


def dynamic_shared(f: FileBuilder) -> None:
    kernel, launcher = f.names.fresh("kernel"), f.names.fresh()
    f.add("""
        __global__ void $kernel(const float* x, float* y, int n, float alpha)
        {
            extern __shared__ float smem[];
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            smem[threadIdx.x] = (i < n) ? x[i] : 0.0f;
            __syncthreads();
            if (i < n) {
                float left = threadIdx.x > 0 ? smem[threadIdx.x - 1] : smem[threadIdx.x];
                y[i] = alpha * (smem[threadIdx.x] + left) * 0.5f;
            }
        }

        void $launcher(const float* d_x, float* d_y, int n, float alpha, cudaStream_t stream)
        {
            dim3 block($block);
            dim3 grid((n + block.x - 1) / block.x);
            size_t shmem = block.x * sizeof(float);
            $kernel<<<grid, block, shmem, stream>>>(d_x, d_y, n, alpha);
            CUDA_CHECK(cudaGetLastError());
        }
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), kernel=kernel, launcher=launcher, block=f.pick(128, 256, 512))


def template_kernel(f: FileBuilder) -> None:
    kernel = f.names.fresh("kernel")
    f.add("""
        template <typename T>
        __global__ void $kernel(T* data, T value, size_t n)
        {
            size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
            size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
            for (; i < n; i += stride) {
                data[i] = value;
            }
        }

        template <typename T>
        void ${kernel}Async(T* d_data, T value, size_t n, cudaStream_t stream = 0)
        {
            const unsigned int blocks = static_cast<unsigned int>((n + $block - 1) / $block);
            $kernel<T><<<blocks, $block, 0, stream>>>(d_data, value, n);
        }
        """, ("<cuda_runtime.h>", "<cstddef>"), kernel=kernel, block=f.pick(128, 256, 1024))


def device_helper(f: FileBuilder) -> None:
    name = f.names.fresh("camel")
    f.add("""
        __host__ __device__ inline float $name(float a, float b, float t)
        {
            return a + (b - a) * t;
        }

        __device__ inline int ${name}Index(int x, int y, int pitch)
        {
            return y * pitch + x;
        }
        """, name=name)


def stencil(f: FileBuilder) -> None:
    kernel, coeffs, radius = f.names.fresh("kernel"), f.names.fresh() + "_coeffs", f.rng.randint(1, 4)
    f.add("""
        __constant__ float ${coeffs}[2 * $radius + 1];

        __global__ void $kernel(const float* __restrict__ in, float* __restrict__ out, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < $radius || i >= n - $radius) {
                return;
            }
            float acc = 0.0f;
            for (int k = -$radius; k <= $radius; ++k) {
                acc += ${coeffs}[k + $radius] * __ldg(&in[i + k]);
            }
            out[i] = acc;
        }

        void ${kernel}Upload(const float* host_coeffs)
        {
            // cudaMemcpyToSymbol copies into __constant__ memory by symbol, not by address.
            CUDA_CHECK(cudaMemcpyToSymbol(${coeffs}, host_coeffs, sizeof(float) * (2 * $radius + 1)));
        }
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), kernel=kernel, coeffs=coeffs, radius=radius)
