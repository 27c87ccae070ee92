"""API families of the mapping packs, the CUDA headers and wheels scanned, and the HIP packages inspected."""
from __future__ import annotations


FAMILIES = {  # family -> (code, title)
    "runtime": ("MAP001", "CUDA runtime API"),
    "driver": ("MAP002", "CUDA driver API"),
    "device": ("MAP003", "CUDA device functions, intrinsics, warp functions and vector types"),
    "fp16": ("MAP004", "Half and bfloat16 types and functions (cuda_fp16.h, cuda_bf16.h)"),
    "cooperative_groups": ("MAP005", "Cooperative groups"),
    "cublas": ("MAP006", "cuBLAS to hipBLAS"),
    "cublaslt": ("MAP017", "cuBLASLt to hipBLASLt"),
    "curand": ("MAP007", "cuRAND to hipRAND"),
    "cufft": ("MAP008", "cuFFT to hipFFT"),
    "cusparse": ("MAP009", "cuSPARSE to hipSPARSE"),
    "cusolver": ("MAP010", "cuSOLVER to hipSOLVER"),
    "nccl": ("MAP011", "NCCL to RCCL (RCCL keeps the nccl names)"),
    "cub": ("MAP012", "CUB to hipCUB"),
    "thrust": ("MAP013", "Thrust to rocThrust (rocThrust keeps the thrust names)"),
    "complex": ("MAP014", "cuComplex to hip_complex"),
    "rtc": ("MAP015", "NVRTC to hipRTC"),
    "other": ("MAP016", "Other CUDA APIs (profiler, graphics interop, tools)"),
}
# When one name is declared in headers of several families, the first family here wins.
FAMILY_ORDER = ["runtime", "driver", "complex", "device", "fp16", "cooperative_groups", "rtc",
                "cublas", "cublaslt", "curand", "cufft", "cusparse", "cusolver", "nccl", "cub", "thrust", "other"]

RUNTIME_HEADERS = {
    "builtin_types.h", "channel_descriptor.h", "cuda_runtime.h", "cuda_runtime_api.h",
    "driver_types.h", "driver_functions.h", "library_types.h", "surface_types.h", "texture_types.h",
    "cuda_texture_types.h", "cuda_surface_types.h", "cuda_device_runtime_api.h", "cuda_occupancy.h",
    "host_config.h", "host_defines.h", "cudart_platform.h", "cuda_stdint.h",
    "generated_cudart_removed_meta.h",
}
DRIVER_HEADERS = {"cuda.h", "cudaTypedefs.h"}
OTHER_PREFIXES = ("cudaGL", "cudaEGL", "cudaVDPAU", "cuda_gl_interop", "cuda_egl_interop",
                  "cuda_vdpau_interop", "cudaProfiler", "cuda_profiler_api", "cupti", "nvperf",
                  "nvvm", "nv_decode", "fatbinary_section", "nvtx3/", "generated_")
FP16_PREFIXES = ("cuda_fp16", "cuda_bf16", "cuda_fp8", "cuda_fp6", "cuda_fp4")

# CUDA 12.8's runtime headers: the names CUDA 13 dropped (cudaThreadSynchronize, cudaThreadExit, ...) are still in
# code written for older toolkits; they are run through hipify-perl like the names of the installed headers.
LEGACY_WHEELS = {"nvidia-cuda-runtime-cu12": "12.8.90"}

# Header names of the CUDA toolkit that are gone from recent toolkits but still appear in code
# written for older ones; they are run through hipify-perl like the headers that exist.
LEGACY_HEADERS = {
    "cuda_texture_types.h": "runtime", "cuda_surface_types.h": "runtime",
    "texture_fetch_functions.h": "device", "surface_functions.h": "device",
    "sm_11_atomic_functions.h": "device", "sm_12_atomic_functions.h": "device",
    "sm_13_double_functions.h": "device", "cusparse_v2.h": "cusparse",
}

# NVIDIA wheels whose include/ folders are scanned (pinned to the releases of CUDA 13.0 update 2,
# the toolkit whose headers are installed; --unpinned takes the newest).
WHEELS = {
    "nvidia-cublas": "13.1.0.3",
    "nvidia-curand": "10.4.0.35",
    "nvidia-cufft": "12.0.0.61",
    "nvidia-cusparse": "12.6.3.3",
    "nvidia-cusolver": "12.0.4.66",
    "nvidia-cuda-nvrtc": "13.0.88",
    "nvidia-nccl-cu13": "2.27.7",
}

# Debian packages whose headers give the `since` versions.
HIP_PACKAGES = ["libamdhip64-dev", "libhipblas-dev", "libhipfft-dev", "libhipsparse-dev",
                "libhiprand-dev", "libhipcub-dev", "libhipsolver-dev", "librccl-dev",
                "librocrand-dev", "libhipblaslt-dev", "libhipblas-common-dev"]
# experimental: ROCm 7.2.4 (HIP, the libraries, RCCL 7.2 and hipify-perl 7.2.4), which the HIP 7.2 root also installs
DEFAULT_SUITES = ["bookworm", "trixie", "sid", "experimental"]
# The HIP library packages whose headers must declare a HIP name that the second hipify-perl gives a
# name of these families (other families: any inspected package).
FAMILY_PACKAGES = {
    "cublas": ("libhipblas-dev",),
    # hipBLASLt takes hipBLAS's compute type and operation enums from hipblas-common (hipBLASLt >= 0.10)
    "cublaslt": ("libhipblaslt-dev", "libhipblas-common-dev"),
    "curand": ("libhiprand-dev", "librocrand-dev"), "cufft": ("libhipfft-dev",),
    "cusparse": ("libhipsparse-dev",), "cusolver": ("libhipsolver-dev",), "nccl": ("librccl-dev",),
    "cub": ("libhipcub-dev",),
}
# Words that occur in every header without being a HIP declaration (cusolver_int_t -> int).
CXX_KEYWORDS = {
    "auto", "bool", "char", "char16_t", "char32_t", "const", "double", "enum", "float", "int", "long", "short",
    "signed", "size_t", "struct", "union", "unsigned", "void", "volatile", "wchar_t",
}


def header_family(rel: str, origin: str) -> str | None:
    """API family of a CUDA header (rel: path as written in #include); None: not scanned."""
    base = rel.rsplit("/", 1)[-1]
    if origin == "cccl":
        top = rel.split("/", 1)[0]
        return {"cub": "cub", "thrust": "thrust"}.get(top)
    if origin != "cuda":  # a library wheel
        for prefix, fam in (("cublasLt", "cublaslt"), ("cublas", "cublas"), ("nvblas", "cublas"), ("curand", "curand"),
                            ("cufft", "cufft"), ("cudalibxt", "cufft"), ("cusparse", "cusparse"),
                            ("cusolver", "cusolver"), ("nccl", "nccl"), ("nvrtc", "rtc")):
            if rel.startswith(prefix):
                return fam
        return "other"
    if rel.startswith(("nv/", "Openacc/", "Openmp/")):
        return None
    if rel in RUNTIME_HEADERS:
        return "runtime"
    if rel in DRIVER_HEADERS:
        return "driver"
    if rel.startswith(FP16_PREFIXES):
        return "fp16"
    if rel == "cuComplex.h":
        return "complex"
    if rel.startswith("cooperative_groups"):
        return "cooperative_groups"
    if rel.startswith(OTHER_PREFIXES):
        return "other"
    if base.startswith("nvrtc"):
        return "rtc"
    return "device"  # crt/, sm_*_intrinsics, math, atomics, vector types, mma, pipeline, ...
