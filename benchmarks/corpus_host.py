"""The corpus's host code (benchmarks/corpus.py): the CUDA runtime (streams, events, device queries, memory) and
driver API, and the libraries (cuBLAS, cuRAND, cuFFT, cuSPARSE, NCCL)."""
from __future__ import annotations

from benchmarks.corpus_builder import FileBuilder


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
