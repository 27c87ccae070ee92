"""CUDA libraries linked by name (`cudart`, `cublas`, `nccl`, ...) or through FindCUDA's variables
(`${CUDA_LIBRARIES}`, `${CUDA_CUBLAS_LIBRARIES}`, `${CUDA_curand_LIBRARY}`, ...).

A plain name in `target_link_libraries`/`link_libraries` stays a plain name: the HIP library of the same
role (`cudart`/`cuda` -> `amdhip64`, `cublas` -> `hipblas`, `curand` -> `hiprand`, `cufft` -> `hipfft`,
`cusparse` -> `hipsparse`, `cusolver` -> `hipsolver`, `cublasLt` -> `hipblaslt`, `nvrtc` -> `hiprtc`,
`nccl` -> `rccl`; RCCL implements NCCL's API under the same function names). A FindCUDA variable becomes
the HIP imported target (`${CUDA_LIBRARIES}` -> `hip::host`, `${CUDA_CUBLAS_LIBRARIES}` ->
`roc::hipblas`, ...), whose package BLD002 adds next to the rewritten `find_package(CUDA)`. Variables of
libraries with no HIP counterpart (CUPTI, NVTX) are reported without a fix.
"""
from migrate.buildfiles.cmake_libraries import LIBRARY_NAMES, VARIABLE_REF, variable_library
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

LINK_COMMANDS = ("target_link_libraries", "link_libraries")
LINK_KEYWORDS = {"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC", "LINK_INTERFACE_LIBRARIES",
                 "debug", "optimized", "general"}


class CudaLibraryName(CMakeRule):
    code = "BLD004"
    examples = [
        Invalid("target_link_libraries(app PRIVATE cudart cublas curand)\n",
                fixed="target_link_libraries(app PRIVATE amdhip64 hipblas hiprand)\n", line=1),
        Invalid("target_link_libraries(trainer nccl)\n", fixed="target_link_libraries(trainer rccl)\n"),
        Invalid("target_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES} ${CUDA_curand_LIBRARY})\n",
                fixed="target_link_libraries(app hip::host roc::hipblas hip::hiprand)\n"),
        Invalid("set(GPU_LIBS \"${CUDA_LIBRARIES};${CUDA_CUFFT_LIBRARIES}\")\n",
                fixed="set(GPU_LIBS \"hip::host;hip::hipfft\")\n"),
        Invalid("target_link_libraries(app ${CUDA_cupti_LIBRARY})\n"),
        Valid("target_link_libraries(cublas_wrapper PRIVATE m pthread)\n"),
        Valid("add_library(cublas STATIC blas.cpp)\nset(cudart ON)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            for i, arg in enumerate(command.args):
                if command.name in LINK_COMMANDS and not (command.name == "target_link_libraries" and i == 0):
                    name = arg.value
                    if name in LIBRARY_NAMES and name not in LINK_KEYWORDS:
                        hip = LIBRARY_NAMES[name]
                        yield self.finding(ctx, arg.start, arg.end, f"lib{name} is a CUDA library: lib{hip} is "
                                           "its HIP counterpart", edits=[Edit(arg.start, arg.end, hip)],
                                           title=f"Link {hip}")
                        continue
                for m in VARIABLE_REF.finditer(arg.text):
                    lib = variable_library(m.group(1), ctx)
                    if lib is None:
                        continue
                    start, end = arg.start + m.start(), arg.start + m.end()
                    if lib.target is None:
                        yield self.finding(ctx, start, end, f"{m.group(1)} is a CUDA library with no HIP "
                                           f"counterpart: {lib.note}", severity=Severity.WARNING)
                        continue
                    note = f" ({lib.note})" if lib.note else ""
                    yield self.finding(ctx, start, end, f"{m.group(1)} is FindCUDA's variable for NVIDIA's "
                                       f"library: link the HIP target {lib.target}{note}",
                                       edits=[Edit(start, end, lib.target)], title=f"Link {lib.target}",
                                       severity=Severity.WARNING if lib.note else Severity.INFO)
