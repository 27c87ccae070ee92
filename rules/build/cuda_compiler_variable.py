"""`CMAKE_CUDA_COMPILER`, `CMAKE_CUDA_HOST_COMPILER`, `CMAKE_CUDA_COMPILER_ID`/`_VERSION` and the
`CUDACXX`/`CUDAHOSTCXX` environment variables: nvcc and its host compiler.

Where the compiler variable is only read (`if(CMAKE_CUDA_COMPILER)` after `check_language`, or
`${CMAKE_CUDA_COMPILER}` in a message) it becomes `CMAKE_HIP_COMPILER`. Where a file sets it (`set`,
`-DCMAKE_CUDA_COMPILER=`), the path names nvcc and cannot be carried over: leave the choice to CMake or set
`CMAKE_HIP_COMPILER` to ROCm's clang++ (CMake refuses the hipcc wrapper as the HIP compiler:
"CMAKE_HIP_COMPILER is set to the hipcc wrapper ... This is not supported"). The host compiler has no
meaning for AMD targets (clang compiles host and device code; `CMAKE_HIP_HOST_COMPILER` only applies to HIP
on NVIDIA), and the compiler id and version of nvcc (NVIDIA, 12.x) do not match HIP's (Clang and clang's
version): those are reported for a hand edit.
"""
import re

from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

READ = re.compile(r"(?<!\w)CMAKE_(CUDA)_COMPILER(?!\w)")
OTHER = re.compile(r"(?:(?<=-D)|(?<!\w))(CMAKE_CUDA_HOST_COMPILER|CMAKE_CUDA_COMPILER_ID|CMAKE_CUDA_COMPILER_VERSION"
                   r"|\$ENV\{CUDACXX\}|\$ENV\{CUDAHOSTCXX\})(?!\w)")
SET_DEFINE = re.compile(r"-DCMAKE_CUDA_COMPILER(?::\w+)?=")
WHY = {
    "CMAKE_CUDA_HOST_COMPILER": "clang compiles both host and device code for AMD GPUs; CMAKE_HIP_HOST_COMPILER only "
                                "applies to HIP on NVIDIA: remove it",
    "CMAKE_CUDA_COMPILER_ID": "nvcc's id is NVIDIA; the HIP compiler's (CMAKE_HIP_COMPILER_ID) is Clang: rewrite the "
                              "test",
    "CMAKE_CUDA_COMPILER_VERSION": "nvcc's version has no meaning for HIP (CMAKE_HIP_COMPILER_VERSION is clang's): "
                                   "rewrite the test",
    "$ENV{CUDACXX}": "the nvcc to use; CMake's HIP language reads HIPCXX (ROCm's clang++, not hipcc)",
    "$ENV{CUDAHOSTCXX}": "nvcc's host compiler; clang needs none for AMD GPUs",
}


class CudaCompilerVariable(CMakeRule):
    code = "BLD011"
    examples = [
        Invalid("include(CheckLanguage)\ncheck_language(HIP)\nif(CMAKE_CUDA_COMPILER)\n  enable_language(HIP)\n"
                "endif()\n",
                fixed="include(CheckLanguage)\ncheck_language(HIP)\nif(CMAKE_HIP_COMPILER)\n  enable_language(HIP)\n"
                      "endif()\n", line=3),
        Invalid('message(STATUS "compiler: ${CMAKE_CUDA_COMPILER}")\n',
                fixed='message(STATUS "compiler: ${CMAKE_HIP_COMPILER}")\n'),
        Invalid("set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n"),
        Invalid('set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}")\n'),
        Invalid('if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")\nendif()\n'),
        Valid("if(CMAKE_HIP_COMPILER)\nendif()\nset(CMAKE_HIP_COMPILER_LAUNCHER ccache)\n"),
        Valid("set(MY_CMAKE_CUDA_COMPILER_PATH x)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            sets = command.name in ("set", "unset", "option") and command.args and \
                command.args[0].value == "CMAKE_CUDA_COMPILER"
            for i, arg in enumerate(command.args):
                for m in OTHER.finditer(arg.text):
                    name = m.group(1)
                    yield self.finding(ctx, arg.start + m.start(1), arg.start + m.end(1), f"{name}: {WHY[name]}",
                                       severity=Severity.WARNING)
                for m in SET_DEFINE.finditer(arg.text):
                    yield self.finding(ctx, arg.start + m.start(), arg.start + m.end(),
                                       "this sets nvcc as the compiler: leave the HIP compiler to CMake or pass "
                                       "-DCMAKE_HIP_COMPILER=<ROCm's clang++> (not hipcc)", severity=Severity.WARNING)
                if sets and i == 0:
                    yield self.finding(ctx, arg.start, arg.end, "CMAKE_CUDA_COMPILER is set to nvcc here: leave the "
                                       "HIP compiler to CMake or set CMAKE_HIP_COMPILER to ROCm's clang++ (CMake "
                                       "refuses hipcc as the HIP compiler)", severity=Severity.WARNING)
                    continue
                for m in READ.finditer(arg.text):
                    start, end = arg.start + m.start(), arg.start + m.end()
                    yield self.finding(ctx, start, end, "CMAKE_CUDA_COMPILER names nvcc: the HIP sources are "
                                       "compiled by CMAKE_HIP_COMPILER",
                                       edits=[Edit(arg.start + m.start(1), arg.start + m.end(1), "HIP")],
                                       title="Use CMAKE_HIP_COMPILER")
