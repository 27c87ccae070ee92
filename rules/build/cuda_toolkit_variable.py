"""Result variables of FindCUDA and FindCUDAToolkit: `CUDA_FOUND`, `CUDA_INCLUDE_DIRS`, `CUDA_VERSION`,
`CUDA_TOOLKIT_ROOT_DIR`, `CUDAToolkit_BIN_DIR`, `CUDA_NVCC_EXECUTABLE`, ... and `$ENV{CUDA_HOME}`/`$ENV{CUDA_PATH}`.

After BLD002 the file finds the package `hip` instead, so these variables are never set. `CUDA_FOUND` and
`CUDAToolkit_FOUND` become `hip_FOUND`; `CUDA_INCLUDE_DIRS`, `CUDAToolkit_INCLUDE_DIRS` and
`CUDA_TOOLKIT_INCLUDE` become `hip_INCLUDE_DIRS` (both set by hip-config.cmake; linking `hip::host` also
brings the include path). Versions (`CUDA_VERSION` is 12.x; `hip_VERSION` is 5.x, 6.x...) and toolkit
paths (ROCm's root is `ROCM_PATH`, usually /opt/rocm, or /usr on Debian) do not carry over and are reported
for a hand edit.
"""
import re

from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

RENAMED = {"CUDA_FOUND": "hip_FOUND", "CUDAToolkit_FOUND": "hip_FOUND", "CUDA_INCLUDE_DIRS": "hip_INCLUDE_DIRS",
           "CUDAToolkit_INCLUDE_DIRS": "hip_INCLUDE_DIRS", "CUDA_TOOLKIT_INCLUDE": "hip_INCLUDE_DIRS"}
VERSIONS = ("CUDA_VERSION", "CUDA_VERSION_MAJOR", "CUDA_VERSION_MINOR", "CUDA_VERSION_STRING", "CUDAToolkit_VERSION",
            "CUDAToolkit_VERSION_MAJOR", "CUDAToolkit_VERSION_MINOR", "CUDAToolkit_VERSION_PATCH")
PATHS = ("CUDA_TOOLKIT_ROOT_DIR", "CUDAToolkit_ROOT", "CUDAToolkit_ROOT_DIR", "CUDAToolkit_BIN_DIR",
         "CUDAToolkit_LIBRARY_DIR", "CUDAToolkit_LIBRARY_ROOT", "CUDAToolkit_TARGET_DIR", "CUDA_NVCC_EXECUTABLE",
         "CUDAToolkit_NVCC_EXECUTABLE", "CUDA_SDK_ROOT_DIR", "CUDA_BIN_PATH")
NAMES = re.compile(r"(?<![\w])(" + "|".join(sorted([*RENAMED, *VERSIONS, *PATHS], key=len, reverse=True)) +
                   r"|\$ENV\{CUDA_HOME\}|\$ENV\{CUDA_PATH\}|\$ENV\{CUDA_ROOT\})(?!\w)")


class CudaToolkitVariable(CMakeRule):
    code = "BLD018"
    examples = [
        Invalid("if(CUDA_FOUND)\n  include_directories(${CUDA_INCLUDE_DIRS})\nendif()\n",
                fixed="if(hip_FOUND)\n  include_directories(${hip_INCLUDE_DIRS})\nendif()\n", line=1),
        Invalid("target_include_directories(k PRIVATE ${CUDAToolkit_INCLUDE_DIRS})\n",
                fixed="target_include_directories(k PRIVATE ${hip_INCLUDE_DIRS})\n"),
        Invalid("if(CUDA_VERSION VERSION_LESS 11.0)\nendif()\n"),
        Invalid('set(NVCC "${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc")\n'),
        Invalid('set(CUDA_ROOT "$ENV{CUDA_HOME}")\n'),
        Valid("if(hip_FOUND)\n  include_directories(${hip_INCLUDE_DIRS})\nendif()\nset(MY_CUDA_FOUND ON)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            if command.name == "find_package":
                continue
            for arg in command.args:
                for m in NAMES.finditer(arg.text):
                    name = m.group(1)
                    start, end = arg.start + m.start(1), arg.start + m.end(1)
                    if name in RENAMED:
                        yield self.finding(ctx, start, end, f"{name} is set by find_package(CUDA...), which the "
                                           f"migration replaces with find_package(hip): use {RENAMED[name]}",
                                           edits=[Edit(start, end, RENAMED[name])], title=f"Use {RENAMED[name]}")
                    elif name in VERSIONS:
                        yield self.finding(ctx, start, end, f"{name} is the CUDA toolkit's version: HIP's is "
                                           "hip_VERSION (5.x, 6.x ...), so rewrite the comparison by hand",
                                           severity=Severity.WARNING)
                    else:
                        yield self.finding(ctx, start, end, f"{name} points into the CUDA toolkit: ROCm's root is "
                                           "ROCM_PATH (/opt/rocm, or /usr for Debian's packages) and its tools "
                                           "differ; rewrite this by hand", severity=Severity.WARNING)
