"""The CUDA -> HIP library tables of the CMake rules: FindCUDAToolkit's imported targets, other namespaced
targets, plain library names and FindCUDA's result variables, each with its HIP imported target and package.

The imported-target names were read from the HIP packages' own CMake configs (Debian 12's
libamdhip64-dev, libhiprand-dev, libhipsparse-dev in /usr/lib/x86_64-linux-gnu/cmake, and the trixie/sid
-dev packages of hipBLAS, hipFFT, hipSOLVER, hipCUB, RCCL and HIP 6 for the rest):
hip::host, hip::device, hip::amdhip64 (find_package(hip)); roc::hipblas (hipblas); hip::hiprand (hiprand);
hip::hipfft (hipfft); roc::hipsparse (hipsparse); roc::hipsolver (hipsolver); hip::hipcub (hipcub);
roc::rccl (rccl); hiprtc::hiprtc (hiprtc, HIP 6 packages only: HIP 5.2 keeps hipRTC in libamdhip64).
roc::hipblaslt (hipblaslt) and roc::rocthrust (rocthrust) are the names the hipBLASLt and rocThrust
documentation gives; neither is packaged in Debian 12. MIOpen (miopen, no namespace) is read from sid's
libmiopen-dev 6.4.3 (miopen-targets.cmake); cuDNN has no CMake package of NVIDIA's, but projects (and
cudnn_frontend) find it as CUDNN and link CUDNN::cudnn or CUDNN::cudnn_all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.buildfiles.cmake import CMakeContext


@dataclass(frozen=True)
class HipLibrary:
    target: str | None  # the imported target to link; None when there is no counterpart
    package: str | None  # the find_package() name that defines it
    note: str = ""  # a caveat (the finding becomes a warning) or, without a target, why there is none


HOST = HipLibrary("hip::host", "hip")
BLAS = HipLibrary("roc::hipblas", "hipblas")
BLASLT = HipLibrary("roc::hipblaslt", "hipblaslt", "hipBLASLt is a separate ROCm package (not in Debian 12) and "
                    "supports only some AMD targets (gfx90a, gfx94x and newer); check it is installed")
RAND = HipLibrary("hip::hiprand", "hiprand")
FFT = HipLibrary("hip::hipfft", "hipfft")
SPARSE = HipLibrary("roc::hipsparse", "hipsparse")
SOLVER = HipLibrary("roc::hipsolver", "hipsolver")
RCCL = HipLibrary("roc::rccl", "rccl")
HIPRTC = HipLibrary("hiprtc::hiprtc", "hiprtc")
HIPCUB = HipLibrary("hip::hipcub", "hipcub")
ROCTHRUST = HipLibrary("roc::rocthrust", "rocthrust")
MIOPEN = HipLibrary("MIOpen", "miopen")

# The part after "CUDA::" of FindCUDAToolkit's imported targets.
CUDA_TARGETS: dict[str, HipLibrary] = {
    "cudart": HOST, "cudart_static": HOST, "cuda_driver": HOST,
    "cublas": BLAS, "cublas_static": BLAS, "cublasLt": BLASLT, "cublasLt_static": BLASLT,
    "curand": RAND, "curand_static": RAND, "cufft": FFT, "cufft_static": FFT,
    "cusparse": SPARSE, "cusparse_static": SPARSE, "cusolver": SOLVER, "cusolver_static": SOLVER,
    "nvrtc": HIPRTC, "nvrtc_static": HIPRTC,
    "nvToolsExt": HipLibrary(None, None, "NVTX has no imported target in HIP: roctx (libroctx64, from roctracer) "
                             "has the same push/pop/mark calls as roctxRangePush"),
    "nvtx3": HipLibrary(None, None, "NVTX has no imported target in HIP: roctx (libroctx64, from roctracer) has the "
                        "same push/pop/mark calls as roctxRangePush"),
    "cupti": HipLibrary(None, None, "CUPTI is NVIDIA's profiling interface: use rocprofiler or roctracer"),
    "nvml": HipLibrary(None, None, "NVML is NVIDIA's management library: use amd_smi"),
    "OpenCL": HipLibrary(None, None, "ROCm's OpenCL is found with find_package(OpenCL) as OpenCL::OpenCL"),
    "cufftw": HipLibrary(None, None, "the FFTW interface of cuFFT has no packaged HIP counterpart: call hipFFT"),
}
# Other namespaced targets of CUDA's C++ libraries.
OTHER_TARGETS: dict[str, HipLibrary] = {
    "CUB::CUB": HIPCUB, "CCCL::CUB": HIPCUB, "Thrust::Thrust": ROCTHRUST, "CCCL::Thrust": ROCTHRUST,
}

# Plain library names (as linked with target_link_libraries(app cublas)) -> HIP library names.
LIBRARY_NAMES: dict[str, str] = {
    "cudart": "amdhip64", "cudart_static": "amdhip64", "cuda": "amdhip64", "cublas": "hipblas",
    "cublasLt": "hipblaslt", "curand": "hiprand", "cufft": "hipfft", "cusparse": "hipsparse",
    "cusolver": "hipsolver", "nccl": "rccl", "nvrtc": "hiprtc", "cudnn": "MIOpen",
}

# FindCUDA / FindCUDAToolkit result variables that hold libraries.
LIBRARY_VARIABLES: dict[str, HipLibrary] = {
    "CUDA_LIBRARIES": HOST, "CUDA_CUDART_LIBRARY": HOST, "CUDA_cudart_static_LIBRARY": HOST,
    "CUDA_CUDA_LIBRARY": HOST, "CUDA_cuda_driver_LIBRARY": HOST, "CUDA_cudart_LIBRARY": HOST,
    "CUDA_CUBLAS_LIBRARIES": BLAS, "CUDA_cublas_LIBRARY": BLAS, "CUDA_cublas_static_LIBRARY": BLAS,
    "CUDA_cublasLt_LIBRARY": BLASLT,
    "CUDA_CUFFT_LIBRARIES": FFT, "CUDA_cufft_LIBRARY": FFT, "CUDA_curand_LIBRARY": RAND,
    "CUDA_cusparse_LIBRARY": SPARSE, "CUDA_cusolver_LIBRARY": SOLVER, "CUDA_nvrtc_LIBRARY": HIPRTC,
    "CUDA_cupti_LIBRARY": CUDA_TARGETS["cupti"], "CUDA_nvToolsExt_LIBRARY": CUDA_TARGETS["nvToolsExt"],
}

# Every HIP imported target above -> its package (to know which find_package a file needs).
HIP_TARGET_PACKAGES: dict[str, str] = {
    lib.target: lib.package for lib in [*CUDA_TARGETS.values(), *OTHER_TARGETS.values()] if lib.target and lib.package
}
HIP_TARGET_PACKAGES["hip::device"] = "hip"

NAMESPACED = re.compile(r"(?<!\w)(?<!::)((?:CUDA|CUB|CCCL|Thrust|CUDNN)::\w+)")
VARIABLE_REF = re.compile(r"\$\{(\w+)\}")
HIP_TARGET = re.compile(r"(?<!\w)(?<!::)((?:hip|roc|hiprtc)::\w+)")


def hip_library(target: str, ctx: CMakeContext) -> HipLibrary | None:
    """The HIP library for a CUDA namespaced target ("CUDA::cublas", "CUB::CUB", "CUDNN::cudnn"), None if
    unknown. Every CUDNN:: target (cudnn, cudnn_all, the cudnn_ops/cnn/adv/graph parts) is MIOpen's one library."""
    if target.startswith("CUDNN::"):
        return MIOPEN
    if target.startswith("CUDA::"):
        lib = CUDA_TARGETS.get(target[6:])
    else:
        lib = OTHER_TARGETS.get(target)
    return _for_version(lib, ctx)


def variable_library(variable: str, ctx: CMakeContext) -> HipLibrary | None:
    """The HIP library for a FindCUDA library variable ("CUDA_CUBLAS_LIBRARIES"), None if not one."""
    return _for_version(LIBRARY_VARIABLES.get(variable), ctx)


def _for_version(lib: HipLibrary | None, ctx: CMakeContext) -> HipLibrary | None:
    if lib is HIPRTC and ctx.target_tuple < (6, 0):
        return HipLibrary("hip::host", "hip", "before HIP 6.0 hipRTC is part of libamdhip64 (hip::host); from 6.0 "
                          "it is the separate hiprtc package (hiprtc::hiprtc)")
    return lib


def required_packages(ctx: CMakeContext) -> list[str]:
    """The HIP packages this file's links need, "hip" first, then in order of first use: from CUDA::
    targets, FindCUDA library variables, cuda_add_cublas_to_target-style commands and HIP targets."""
    found: list[str] = ["hip"]
    for command in ctx.commands:
        if command.name == "find_package":
            continue
        if command.name == "cuda_add_cublas_to_target":
            found.append("hipblas")
        elif command.name == "cuda_add_cufft_to_target":
            found.append("hipfft")
        for arg in command.args:
            for m in NAMESPACED.finditer(arg.text):
                lib = hip_library(m.group(1), ctx)
                if lib and lib.package:
                    found.append(lib.package)
            for m in VARIABLE_REF.finditer(arg.text):
                lib = variable_library(m.group(1), ctx)
                if lib and lib.package:
                    found.append(lib.package)
            for m in HIP_TARGET.finditer(arg.text):
                if m.group(1) in HIP_TARGET_PACKAGES:
                    found.append(HIP_TARGET_PACKAGES[m.group(1)])
    return list(dict.fromkeys(found))


def found_packages(ctx: CMakeContext) -> set[str]:
    """Lower-cased names of the packages the file already looks for (CUDA's own excluded; cuDNN's counts as
    miopen, which BLD020 makes it)."""
    found = {c.args[0].value.lower() for c in ctx.named("find_package")
             if c.args and c.args[0].value not in ("CUDA", "CUDAToolkit")}
    return {"miopen" if name == "cudnn" else name for name in found}
