"""`CUDA::` imported targets (FindCUDAToolkit) and the CUB/Thrust targets, wherever they are named.

Each becomes the target the HIP package exports, as read from the packages' `-targets.cmake` files
(Debian 12 and the trixie/sid `-dev` packages; hipBLASLt and rocThrust from their documentation):

| CUDA | HIP | package |
|---|---|---|
| `CUDA::cudart`, `CUDA::cudart_static`, `CUDA::cuda_driver` | `hip::host` | hip |
| `CUDA::cublas(_static)` | `roc::hipblas` | hipblas |
| `CUDA::cublasLt(_static)` | `roc::hipblaslt` (a warning: not in Debian 12, not every AMD target) | hipblaslt |
| `CUDA::curand(_static)` | `hip::hiprand` | hiprand |
| `CUDA::cufft(_static)` | `hip::hipfft` | hipfft |
| `CUDA::cusparse(_static)` | `roc::hipsparse` | hipsparse |
| `CUDA::cusolver(_static)` | `roc::hipsolver` | hipsolver |
| `CUDA::nvrtc` | `hiprtc::hiprtc` from HIP 6.0; `hip::host` before (hipRTC lived in libamdhip64) | hiprtc |
| `CUB::CUB`, `CCCL::CUB` | `hip::hipcub` | hipcub |
| `Thrust::Thrust`, `CCCL::Thrust` | `roc::rocthrust` | rocthrust |
| `CUDNN::cudnn`, `CUDNN::cudnn_all` and any other `CUDNN::` part (a FindCUDNN module's) | `MIOpen` | miopen |

NVTX, CUPTI, NVML, OpenCL and cuFFTW targets are reported without a fix, as is any other `CUDA::` name.
BLD002 adds the `find_package` each target needs.

`hip::device` is not added. The migration compiles `.cu` files with CMake's HIP language
(`LANGUAGE HIP`), and CMake links HIP-language targets with the runtime and device libraries itself
(`CMakeHIPInformation.cmake` appends hip-lang's `hip-lang::device` to every HIP target's runtime
libraries). `hip::device` is meant for the other way of building, where hipcc or clang is the C++
compiler: it adds `-x hip` and `--offload-arch` to every C++ source of the target, which would break the
target's plain C++ files under g++. `hip::host` (include paths, `__HIP_PLATFORM_AMD__`, libamdhip64) is what
C++ sources calling the HIP runtime need, as `CUDA::cudart` was.
"""
from migrate.buildfiles.cmake_libraries import NAMESPACED, hip_library
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid


class CudaImportedTarget(CMakeRule):
    code = "BLD003"
    examples = [
        Invalid("target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas)\n",
                fixed="target_link_libraries(app PRIVATE hip::host roc::hipblas)\n", line=1),
        Invalid("link_libraries(CUDA::cudart_static CUDA::curand CUDA::cufft_static CUDA::cusparse CUDA::cusolver)\n",
                fixed="link_libraries(hip::host hip::hiprand hip::hipfft roc::hipsparse roc::hipsolver)\n"),
        Invalid("target_link_libraries(app PUBLIC CUDA::nvrtc CUDA::cuda_driver)\n",
                fixed="target_link_libraries(app PUBLIC hiprtc::hiprtc hip::host)\n",
                options=(("hip_version", "6.0"),)),
        Invalid("target_link_libraries(app PUBLIC CUDA::nvrtc)\n",
                fixed="target_link_libraries(app PUBLIC hip::host)\n",
                options=(("hip_version", "5.2"),)),
        Invalid("target_link_libraries(gemm CUDA::cublasLt)\n", fixed="target_link_libraries(gemm roc::hipblaslt)\n",
                message="CUDA::cublasLt is NVIDIA's library: its HIP counterpart is roc::hipblaslt (hipBLASLt is a "
                        "separate ROCm package (not in Debian 12) and supports only some AMD targets (gfx90a, gfx94x "
                        "and newer); check it is installed)"),
        Invalid("target_link_libraries(scan PRIVATE CUB::CUB \"$<$<BOOL:${WITH_THRUST}>:Thrust::Thrust>\")\n",
                fixed="target_link_libraries(scan PRIVATE hip::hipcub \"$<$<BOOL:${WITH_THRUST}>:roc::rocthrust>\")\n"),
        Invalid("if(TARGET CUDA::cublas)\n  set(HAVE_BLAS ON)\nendif()\n",
                fixed="if(TARGET roc::hipblas)\n  set(HAVE_BLAS ON)\nendif()\n"),
        Invalid("target_link_libraries(app CUDA::nvToolsExt)\n"),
        Invalid("target_link_libraries(net PRIVATE CUDNN::cudnn_all CUDA::cudart)\n",
                fixed="target_link_libraries(net PRIVATE MIOpen hip::host)\n",
                message="CUDNN::cudnn_all is NVIDIA's library: its HIP counterpart is MIOpen"),
        Valid("target_link_libraries(app PRIVATE hip::host roc::hipblas)\n"),
        Valid("target_link_libraries(app PRIVATE MYCUDA::cudart)\n# CUDA::cudart\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            if command.name == "find_package":
                continue
            for arg in command.args:
                for m in NAMESPACED.finditer(arg.text):
                    name = m.group(1)
                    start, end = arg.start + m.start(1), arg.start + m.end(1)
                    lib = hip_library(name, ctx)
                    if lib is None:
                        if name.startswith("CUDA::"):
                            yield self.finding(ctx, start, end, f"{name} is an NVIDIA toolkit target with no known "
                                               "HIP counterpart: replace it by hand", severity=Severity.WARNING)
                        continue
                    if lib.target is None:
                        yield self.finding(ctx, start, end, f"{name} has no HIP imported target: {lib.note}",
                                           severity=Severity.WARNING)
                        continue
                    note = f" ({lib.note})" if lib.note else ""
                    yield self.finding(ctx, start, end, f"{name} is NVIDIA's library: its HIP counterpart is "
                                       f"{lib.target}{note}", edits=[Edit(start, end, lib.target)],
                                       title=f"Link {lib.target}",
                                       severity=Severity.WARNING if lib.note else Severity.INFO)
