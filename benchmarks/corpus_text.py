"""The corpus's header-only code and text (benchmarks/corpus.py): declarations, macros over the runtime, inline
helpers, and CUDA names inside strings and comments."""
from __future__ import annotations

from benchmarks.corpus_builder import NOUNS, FileBuilder


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
