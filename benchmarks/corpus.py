"""A deterministic synthetic CUDA corpus for benchmarks.

    python benchmarks/corpus.py OUT_DIR [--files 200] [--lines 100000] [--seed 1] [--check]

Each file is assembled from small code templates (kernels, host runtime code, library calls, headers)
whose identifiers, types and sizes are drawn from a seeded random.Random, so the same arguments always
give the same bytes. --check parses every file with tree-sitter-cuda and reports files with ERROR nodes.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from string import Template
from textwrap import dedent

VERBS = ("scale", "accumulate", "reduce", "normalize", "smooth", "update", "project", "blend", "filter",
         "transform", "integrate", "advance", "gather", "scatter", "clamp", "compute", "relax", "pack")
NOUNS = ("field", "particles", "matrix", "vector", "signal", "image", "mesh", "tensor", "spectrum", "volume",
         "samples", "weights", "bias", "state", "flux", "density", "velocity", "pressure", "charge", "lattice")
MODULES = ("core", "solver", "physics", "imaging", "linalg", "fft", "random", "sparse", "comm", "util")
KINDS = ((".cu", 40), (".cuh", 15), (".cpp", 30), (".h", 15))
STD_HEADERS = ("<cstdio>", "<cstdlib>", "<cstddef>", "<vector>")
CUDA_HEADERS = ("<cuda.h>", "<cuda_runtime.h>", "<cuda_fp16.h>", "<cublas_v2.h>", "<curand.h>", "<cufft.h>",
                "<cusparse.h>", "<nccl.h>")


class Names:
    """Fresh identifiers: never the same twice in the corpus."""

    def __init__(self, rng: random.Random, used: set[str]):
        self.rng = rng
        self.used = used  # shared by the whole corpus, so that headers can be included together

    def fresh(self, style: str = "snake") -> str:
        verb, noun = self.rng.choice(VERBS), self.rng.choice(NOUNS)
        base = {"snake": f"{verb}_{noun}",
                "camel": f"{verb}{noun.capitalize()}",
                "kernel": f"{verb}{noun.capitalize()}Kernel",
                "type": f"{noun.capitalize()}{verb.capitalize()}er",
                "macro": f"{verb.upper()}_{noun.upper()}"}[style]
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base}{n}"
        self.used.add(name)
        return name


class FileBuilder:
    """The parts of one file: its includes, the check macros it needs, and its body blocks."""

    def __init__(self, rng: random.Random, used: set[str]):
        self.rng = rng
        self.names = Names(rng, used)
        self.headers: set[str] = set()
        self.checks: set[str] = set()
        self.blocks: list[str] = []

    def add(self, template: str, headers: tuple[str, ...] = (), checks: tuple[str, ...] = (), **values) -> None:
        self.headers.update(headers)
        self.checks.update(checks)
        self.blocks.append(Template(dedent(template).strip("\n")).substitute(values) + "\n")

    def lines(self) -> int:
        return sum(b.count("\n") + 1 for b in self.blocks)

    def pick(self, *options):
        return self.rng.choice(options)


# --------------------------------------------------------------------------- check macros

CHECK_MACROS = {
    "CUDA_CHECK": ("cudaError_t", "cudaSuccess", "cudaGetErrorString(status_)"),
    "CUBLAS_CHECK": ("cublasStatus_t", "CUBLAS_STATUS_SUCCESS", "\"cuBLAS failure\""),
    "CURAND_CHECK": ("curandStatus_t", "CURAND_STATUS_SUCCESS", "\"cuRAND failure\""),
    "CUFFT_CHECK": ("cufftResult", "CUFFT_SUCCESS", "\"cuFFT failure\""),
    "CUSPARSE_CHECK": ("cusparseStatus_t", "CUSPARSE_STATUS_SUCCESS", "cusparseGetErrorString(status_)"),
    "NCCL_CHECK": ("ncclResult_t", "ncclSuccess", "ncclGetErrorString(status_)"),
}


def check_macro(name: str, exit_call: str) -> str:
    status_type, ok, message = CHECK_MACROS[name]
    body = [f"#ifndef {name}",
            f"#define {name}(call)",
            "    do {",
            f"        {status_type} status_ = (call);",
            f"        if (status_ != {ok}) {{",
            f"            std::fprintf(stderr, \"%s:%d: %s failed: %s\\n\", __FILE__, __LINE__, #call, {message});",
            f"            {exit_call};",
            "        }",
            "    } while (0)"]
    width = max(len(line) for line in body[1:]) + 2
    macro = [line.ljust(width) + "\\" for line in body[1:-1]] + [body[-1]]
    return "\n".join([body[0], *macro, "#endif"]) + "\n"


# --------------------------------------------------------------------------- device code

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


# --------------------------------------------------------------------------- host runtime code

def stream_pipeline(f: FileBuilder) -> None:
    kernel, host = f.names.fresh("kernel"), f.names.fresh()
    f.add("""
        __global__ void $kernel(int n, $T a, const $T* x, $T* y)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                y[i] = a * x[i] + y[i];
            }
        }

        float $host(const $T* h_x, $T* h_y, int n, $T a)
        {
            const int chunks = $streams;
            const int chunk = (n + chunks - 1) / chunks;
            const size_t bytes = sizeof($T) * n;
            $T* d_x = nullptr;
            $T* d_y = nullptr;
            CUDA_CHECK(cudaMalloc(&d_x, bytes));
            CUDA_CHECK(cudaMalloc(&d_y, bytes));
            cudaStream_t streams[$streams];
            for (int s = 0; s < chunks; ++s) {
                CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
            }
            cudaEvent_t start, stop;
            CUDA_CHECK(cudaEventCreate(&start));
            CUDA_CHECK(cudaEventCreate(&stop));
            CUDA_CHECK(cudaEventRecord(start, 0));
            for (int s = 0; s < chunks; ++s) {
                const int offset = s * chunk;
                const int count = (offset + chunk <= n) ? chunk : n - offset;
                if (count <= 0) {
                    break;
                }
                CUDA_CHECK(cudaMemcpyAsync(d_x + offset, h_x + offset, sizeof($T) * count,
                                           cudaMemcpyHostToDevice, streams[s]));
                CUDA_CHECK(cudaMemcpyAsync(d_y + offset, h_y + offset, sizeof($T) * count,
                                           cudaMemcpyHostToDevice, streams[s]));
                $kernel<<<(count + $block - 1) / $block, $block, 0, streams[s]>>>(count, a, d_x + offset, d_y + offset);
                CUDA_CHECK(cudaMemcpyAsync(h_y + offset, d_y + offset, sizeof($T) * count,
                                           cudaMemcpyDeviceToHost, streams[s]));
            }
            CUDA_CHECK(cudaEventRecord(stop, 0));
            CUDA_CHECK(cudaEventSynchronize(stop));
            float ms = 0.0f;
            CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            for (int s = 0; s < chunks; ++s) {
                CUDA_CHECK(cudaStreamDestroy(streams[s]));
            }
            CUDA_CHECK(cudaEventDestroy(start));
            CUDA_CHECK(cudaEventDestroy(stop));
            CUDA_CHECK(cudaFree(d_x));
            CUDA_CHECK(cudaFree(d_y));
            return ms;
        }
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), kernel=kernel, host=host, T=f.pick("float", "double"),
          streams=f.rng.randint(2, 8), block=f.pick(128, 256, 512))


def device_query(f: FileBuilder) -> None:
    f.add("""
        int $name(bool verbose)
        {
            int count = 0;
            CUDA_CHECK(cudaGetDeviceCount(&count));
            int best = 0;
            size_t best_memory = 0;
            for (int dev = 0; dev < count; ++dev) {
                cudaDeviceProp prop;
                CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
                if (verbose) {
                    std::printf("device %d: %s, sm_%d%d, %zu MB, %d SMs\\n", dev, prop.name, prop.major,
                                prop.minor, prop.totalGlobalMem >> 20, prop.multiProcessorCount);
                }
                if (prop.totalGlobalMem > best_memory) {
                    best_memory = prop.totalGlobalMem;
                    best = dev;
                }
            }
            CUDA_CHECK(cudaSetDevice(best));
            CUDA_CHECK(cudaDeviceSynchronize());
            return best;
        }
        """, ("<cuda_runtime.h>", "<cstdio>"), ("CUDA_CHECK",), name=f.names.fresh())


def memset_sync(f: FileBuilder) -> None:
    f.add("""
        void $name($T* d_buffer, size_t count, cudaStream_t stream)
        {
            CUDA_CHECK(cudaMemsetAsync(d_buffer, 0, count * sizeof($T), stream));
            CUDA_CHECK(cudaStreamSynchronize(stream));
            cudaError_t status = cudaGetLastError();
            if (status != cudaSuccess) {
                std::fprintf(stderr, "$name: %s (%s)\\n", cudaGetErrorName(status), cudaGetErrorString(status));
            }
        }
        """, ("<cuda_runtime.h>", "<cstdio>"), ("CUDA_CHECK",), name=f.names.fresh(),
          T=f.pick("float", "int", "double"))


def device_buffer(f: FileBuilder) -> None:
    f.add("""
        // Owns a cudaMalloc'd array; the destructor calls cudaFree.
        template <typename T>
        class $name
        {
        public:
            explicit $name(size_t count) : count_(count)
            {
                CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T)));
            }
            ~$name() { cudaFree(ptr_); }
            $name(const $name&) = delete;
            $name& operator=(const $name&) = delete;

            void upload(const T* host, cudaStream_t stream = 0)
            {
                CUDA_CHECK(cudaMemcpyAsync(ptr_, host, count_ * sizeof(T), cudaMemcpyHostToDevice, stream));
            }
            void download(T* host) const
            {
                CUDA_CHECK(cudaMemcpy(host, ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
            }
            T* data() const { return ptr_; }
            size_t size() const { return count_; }

        private:
            T* ptr_ = nullptr;
            size_t count_ = 0;
        };
        """, ("<cuda_runtime.h>", "<cstddef>"), ("CUDA_CHECK",), name=f.names.fresh("type"))


def pinned_host(f: FileBuilder) -> None:
    f.add("""
        std::vector<$T> $name(size_t count)
        {
            $T* pinned = nullptr;
            CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned), count * sizeof($T)));
            for (size_t i = 0; i < count; ++i) {
                pinned[i] = static_cast<$T>(i % $mod);
            }
            std::vector<$T> copy(pinned, pinned + count);
            CUDA_CHECK(cudaFreeHost(pinned));
            return copy;
        }
        """, ("<cuda_runtime.h>", "<vector>", "<cstddef>"), ("CUDA_CHECK",), name=f.names.fresh(),
          T=f.pick("float", "double", "int"), mod=f.rng.randint(3, 97))


def driver_api(f: FileBuilder) -> None:
    f.add("""
        int $name(char* name, int length)
        {
            if (cuInit(0) != CUDA_SUCCESS) {
                return -1;
            }
            CUdevice device;
            if (cuDeviceGet(&device, $ordinal) != CUDA_SUCCESS) {
                return -1;
            }
            cuDeviceGetName(name, length, device);
            int major = 0;
            cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
            return major;
        }
        """, ("<cuda.h>",), name=f.names.fresh(), ordinal=f.pick(0, 0, 1))


# --------------------------------------------------------------------------- libraries

def cublas_gemm(f: FileBuilder) -> None:
    prec, T = f.pick(("S", "float"), ("D", "double"))
    opa = f.pick("CUBLAS_OP_N", "CUBLAS_OP_N", "CUBLAS_OP_T")
    f.add("""
        // C = alpha * op(A) * op(B) + beta * C with cublas${prec}gemm (column-major).
        void $name(cublasHandle_t handle, cudaStream_t stream, int m, int n, int k,
                   const $T* d_a, const $T* d_b, $T* d_c)
        {
            const $T alpha = $alpha;
            const $T beta = $beta;
            CUBLAS_CHECK(cublasSetStream(handle, stream));
            CUBLAS_CHECK(cublas${prec}gemm(handle, $opa, $opb, m, n, k, &alpha, d_a, $lda, d_b, $ldb,
                                        &beta, d_c, m));
        }

        void ${name}Run(int m, int n, int k, const $T* d_a, const $T* d_b, $T* d_c)
        {
            cublasHandle_t handle;
            CUBLAS_CHECK(cublasCreate(&handle));
            cudaStream_t stream;
            CUDA_CHECK(cudaStreamCreate(&stream));
            $name(handle, stream, m, n, k, d_a, d_b, d_c);
            CUDA_CHECK(cudaStreamSynchronize(stream));
            CUDA_CHECK(cudaStreamDestroy(stream));
            CUBLAS_CHECK(cublasDestroy(handle));
        }
        """, ("<cuda_runtime.h>", "<cublas_v2.h>"), ("CUDA_CHECK", "CUBLAS_CHECK"), name=f.names.fresh(),
          prec=prec, T=T, alpha=f.pick("1", "2", "0.5"), beta=f.pick("0", "1"),
          opa=opa, opb="CUBLAS_OP_N", lda="m" if opa == "CUBLAS_OP_N" else "k", ldb="k")


def curand_fill(f: FileBuilder) -> None:
    f.add("""
        void $name(float* d_out, size_t n, unsigned long long seed)
        {
            curandGenerator_t gen;
            CURAND_CHECK(curandCreateGenerator(&gen, $rng));
            CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
            CURAND_CHECK($call);
            CURAND_CHECK(curandDestroyGenerator(gen));
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        """, ("<cuda_runtime.h>", "<curand.h>"), ("CUDA_CHECK", "CURAND_CHECK"), name=f.names.fresh(),
          rng=f.pick("CURAND_RNG_PSEUDO_DEFAULT", "CURAND_RNG_PSEUDO_XORWOW", "CURAND_RNG_PSEUDO_PHILOX4_32_10"),
          call=f.pick("curandGenerateUniform(gen, d_out, n)", "curandGenerateNormal(gen, d_out, n, 0.0f, 1.0f)"))


def cufft_1d(f: FileBuilder) -> None:
    f.add("""
        void $name(cufftComplex* d_signal, int length, int batch, cudaStream_t stream, bool inverse)
        {
            cufftHandle plan;
            CUFFT_CHECK(cufftPlan1d(&plan, length, CUFFT_C2C, batch));
            CUFFT_CHECK(cufftSetStream(plan, stream));
            CUFFT_CHECK(cufftExecC2C(plan, d_signal, d_signal, inverse ? CUFFT_INVERSE : CUFFT_FORWARD));
            CUDA_CHECK(cudaStreamSynchronize(stream));
            CUFFT_CHECK(cufftDestroy(plan));
        }
        """, ("<cuda_runtime.h>", "<cufft.h>"), ("CUDA_CHECK", "CUFFT_CHECK"), name=f.names.fresh())


def cusparse_setup(f: FileBuilder) -> None:
    f.add("""
        struct $type
        {
            cusparseHandle_t handle = nullptr;
            cusparseMatDescr_t descr = nullptr;
        };

        $type ${name}Create(cudaStream_t stream)
        {
            $type ctx;
            CUSPARSE_CHECK(cusparseCreate(&ctx.handle));
            CUSPARSE_CHECK(cusparseSetStream(ctx.handle, stream));
            CUSPARSE_CHECK(cusparseCreateMatDescr(&ctx.descr));
            CUSPARSE_CHECK(cusparseSetMatType(ctx.descr, CUSPARSE_MATRIX_TYPE_GENERAL));
            CUSPARSE_CHECK(cusparseSetMatIndexBase(ctx.descr, CUSPARSE_INDEX_BASE_ZERO));
            return ctx;
        }

        void ${name}Destroy($type& ctx)
        {
            CUSPARSE_CHECK(cusparseDestroyMatDescr(ctx.descr));
            CUSPARSE_CHECK(cusparseDestroy(ctx.handle));
        }
        """, ("<cuda_runtime.h>", "<cusparse.h>"), ("CUSPARSE_CHECK",), name=f.names.fresh(),
          type=f.names.fresh("type"))


def nccl_allreduce(f: FileBuilder) -> None:
    f.add("""
        ncclComm_t ${name}Init(int nranks, int rank, const ncclUniqueId& id)
        {
            ncclComm_t comm;
            NCCL_CHECK(ncclCommInitRank(&comm, nranks, id, rank));
            return comm;
        }

        void $name(const float* d_send, float* d_recv, size_t count, ncclComm_t comm, cudaStream_t stream)
        {
            NCCL_CHECK(ncclGroupStart());
            NCCL_CHECK(ncclAllReduce(d_send, d_recv, count, ncclFloat, $op, comm, stream));
            NCCL_CHECK(ncclGroupEnd());
            CUDA_CHECK(cudaStreamSynchronize(stream));
        }
        """, ("<cuda_runtime.h>", "<nccl.h>"), ("CUDA_CHECK", "NCCL_CHECK"), name=f.names.fresh(),
          op=f.pick("ncclSum", "ncclMax", "ncclProd"))


# --------------------------------------------------------------------------- header-only and text

def declarations(f: FileBuilder) -> None:
    f.add("""
        struct $type
        {
            int device = 0;
            int block_size = $block;
            size_t elements = $elements;
            cudaStream_t stream = nullptr;
        };

        void ${name}Init($type& config);
        float ${name}Run(const $type& config, const float* h_in, float* h_out);
        cudaError_t ${name}Status();
        """, ("<cuda_runtime.h>", "<cstddef>"), type=f.names.fresh("type"), name=f.names.fresh("camel"),
          block=f.pick(128, 256, 512), elements=f.rng.randint(1, 64) * 1024)


def api_macros(f: FileBuilder) -> None:
    macro = f.names.fresh("macro")
    f.add("""
        // Shorthands used across the module; each body calls the CUDA runtime directly.
        #define ${macro}_ALLOC(ptr, count) CUDA_CHECK(cudaMalloc((void**)&(ptr), (count) * sizeof(*(ptr))))
        #define ${macro}_FREE(ptr) CUDA_CHECK(cudaFree(ptr))
        #define ${macro}_SYNC() CUDA_CHECK(cudaDeviceSynchronize())
        #define ${macro}_COPY_IN(dst, src, count) \\
            CUDA_CHECK(cudaMemcpy((dst), (src), (count) * sizeof(*(dst)), cudaMemcpyHostToDevice))
        """, ("<cuda_runtime.h>",), ("CUDA_CHECK",), macro=macro)


def inline_helpers(f: FileBuilder) -> None:
    f.add("""
        inline cudaStream_t ${name}Stream(int priority)
        {
            cudaStream_t stream;
            CUDA_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority));
            return stream;
        }

        inline size_t ${name}FreeMemory()
        {
            size_t free_bytes = 0;
            size_t total_bytes = 0;
            CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
            return free_bytes;
        }
        """, ("<cuda_runtime.h>", "<cstddef>"), ("CUDA_CHECK",), name=f.names.fresh("camel"))


def messages(f: FileBuilder) -> None:
    api = f.pick("cudaMalloc", "cudaMemcpyAsync", "cublasSgemm", "cudaStreamCreate", "curandGenerateUniform",
                 "cufftExecC2C", "ncclAllReduce", "cudaDeviceSynchronize")
    f.add("""
        // Messages shown to users: the CUDA names inside the strings are text, not code.
        static const char* const ${name}_messages[] = {
            "$api failed: out of memory",
            "call cudaDeviceReset() before exiting",
            "CUDA_VISIBLE_DEVICES selects the GPUs; see cudaGetDeviceCount",
            "the __global__ kernel was launched with <<<grid, block>>>",
        };
        static const int ${name}_count = static_cast<int>(sizeof(${name}_messages) / sizeof(${name}_messages[0]));
        """, name=f.names.fresh(), api=api)


def commentary(f: FileBuilder) -> None:
    f.add("""
        /*
         * Notes on $topic:
         *   - every $api call is checked; a failure aborts with the file and line.
         *   - memory from cudaMalloc is released with cudaFree, pinned memory with cudaFreeHost.
         *   - streams (cudaStream_t) are never shared between threads without an event (cudaEvent_t).
         */
        """, topic=f.pick(*NOUNS), api=f.pick("cudaMemcpy", "cublasCreate", "cudaLaunchKernel", "cusparseCreate"))


BLOCKS = {
    ".cu": (warp_reduce, block_reduce, histogram, transpose, half_precision, dynamic_shared, template_kernel,
            stencil, stream_pipeline, device_query, memset_sync, cublas_gemm, curand_fill, messages, commentary),
    ".cuh": (warp_reduce, block_reduce, half_precision, template_kernel, device_helper, device_buffer,
             inline_helpers, api_macros, commentary),
    ".cpp": (device_query, memset_sync, pinned_host, driver_api, cublas_gemm, curand_fill, cufft_1d,
             cusparse_setup, nccl_allreduce, messages, commentary),
    ".h": (declarations, api_macros, inline_helpers, device_buffer, messages, commentary),
}


# --------------------------------------------------------------------------- files

def render(f: FileBuilder, rel: str, ext: str, local_headers: list[str]) -> str:
    exit_call = f.pick("std::exit(EXIT_FAILURE)", "std::abort()")
    needed = f.headers | ({"<cstdio>", "<cstdlib>"} if f.checks else set())
    out = [f"// {rel}: synthetic benchmark source; uses the CUDA runtime (cudaMalloc, cudaMemcpy, streams).\n"]
    if ext in (".h", ".cuh"):
        out.append("#pragma once\n")
    out.append("".join(f"#include {h}\n" for h in STD_HEADERS if h in needed))
    out.append("".join(f"#include {h}\n" for h in CUDA_HEADERS if h in f.headers))
    out.append("".join(f'#include "{h}"\n' for h in local_headers))
    out.extend(check_macro(name, exit_call) for name in CHECK_MACROS if name in f.checks)
    namespace = f.names.fresh() if f.rng.random() < 0.6 else None
    if namespace:
        out.append(f"namespace {namespace} {{\n")
    out.extend(f.blocks)
    if namespace:
        out.append(f"}}  // namespace {namespace}\n")
    return "\n".join(part for part in out if part)


def build_file(rng: random.Random, used: set[str], rel: str, ext: str, target: int, local_headers: list[str]) -> str:
    f = FileBuilder(rng, used)
    while f.lines() < target or not f.blocks:
        rng.choice(BLOCKS[ext])(f)
    return render(f, rel, ext, local_headers)


def plan(rng: random.Random, files: int, lines: int) -> list[tuple[str, str, int]]:
    """(relative path, extension, line target) of every file; the targets add up to at least `lines`."""
    exts = rng.choices([e for e, _ in KINDS], weights=[w for _, w in KINDS], k=files)
    weights = [rng.uniform(0.4, 1.6) for _ in range(files)]
    scale = lines / sum(weights)
    out = []
    for i, (ext, w) in enumerate(zip(exts, weights)):
        rel = f"{MODULES[i % len(MODULES)]}/{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{i:03d}{ext}"
        out.append((rel, ext, int(w * scale) + 1))
    return out


def local_includes(layout: list[tuple[str, str, int]], rel: str, ext: str) -> list[str]:
    """Up to two headers of the same module: .h ones, and .cuh ones too in .cu files."""
    allowed = {".cu": (".h", ".cuh"), ".cuh": (".h",), ".cpp": (".h",)}.get(ext, ())
    folder = Path(rel).parent
    return [Path(h).name for h, e, _ in layout if e in allowed and Path(h).parent == folder][:2]


def generate(out_dir: Path, files: int = 200, lines: int = 100_000, seed: int = 1) -> list[Path]:
    """Write the corpus under `out_dir`; the same arguments always write the same bytes."""
    rng = random.Random(seed)
    layout = plan(rng, files, lines)
    written, used = [], set()
    for rel, ext, target in layout:
        file_rng = random.Random(f"{seed}:{rel}")
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = build_file(file_rng, used, rel, ext, target, local_includes(layout, rel, ext))
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def parse_errors(paths: list[Path]) -> list[Path]:
    """The files in which tree-sitter-cuda finds ERROR or missing nodes."""
    import tree_sitter
    import tree_sitter_cuda
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_cuda.language()))
    return [p for p in paths if parser.parse(p.read_bytes()).root_node.has_error]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="parse every file with tree-sitter-cuda")
    args = ap.parse_args(argv)
    paths = generate(args.out_dir, args.files, args.lines, args.seed)
    total = sum(p.read_bytes().count(b"\n") for p in paths)
    print(f"{len(paths)} files, {total} lines in {args.out_dir}")
    if args.check:
        bad = parse_errors(paths)
        print(f"tree-sitter-cuda: {len(paths) - len(bad)} of {len(paths)} files parse without ERROR nodes")
        for p in bad:
            print(f"  parse error: {p}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
