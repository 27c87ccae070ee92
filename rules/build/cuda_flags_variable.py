"""`CMAKE_CUDA_FLAGS` and `CMAKE_CUDA_FLAGS_<CONFIG>`: flags for nvcc.

CMake's HIP language reads `CMAKE_HIP_FLAGS` and `CMAKE_HIP_FLAGS_<CONFIG>` (clang options, used when
compiling and when linking HIP targets). The name is replaced wherever it appears, and in a `set`,
`string(APPEND|PREPEND)` or `list(APPEND)` of the variable the nvcc options inside the value are translated
with the table of `migrate.buildfiles.nvcc_options`: `--use_fast_math` -> `-ffast-math`, `-lineinfo` ->
`-gline-tables-only`, `-Xcompiler X` -> `X`, `-rdc=true` -> `-fgpu-rdc`, `--default-stream per-thread` ->
`-fgpu-default-stream=per-thread`; `--expt-relaxed-constexpr`, `--expt-extended-lambda` (clang allows both by
default), `-arch=sm_XX`/`-gencode ...` (the AMD targets come from `CMAKE_HIP_ARCHITECTURES`) and `-ccbin` are
removed. `-Xptxas ...`, `--maxrregcount` and other options with no AMD counterpart are removed too, each with
a warning that says what is lost.
"""
import re

from migrate.buildfiles.cmake_options import Words, rewrite_options, split_words
from migrate.buildfiles.make import Word
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

NAME = re.compile(r"(?:(?<=-D)|(?<!\w))CMAKE_(CUDA)_FLAGS(?:_[A-Za-z0-9]+)?(?!\w)")
STOP = {"CACHE", "PARENT_SCOPE"}


class CudaFlagsVariable(CMakeRule):
    code = "BLD007"
    examples = [
        Invalid('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr --use_fast_math -lineinfo")\n',
                fixed='set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -ffast-math -gline-tables-only")\n', line=1),
        Invalid('string(APPEND CMAKE_CUDA_FLAGS " -Xcompiler -fopenmp -rdc=true")\n',
                fixed='string(APPEND CMAKE_HIP_FLAGS " -fopenmp -fgpu-rdc")\n'),
        Invalid('set(CMAKE_CUDA_FLAGS_RELEASE "-O3 -gencode arch=compute_90,code=sm_90 -DNDEBUG")\n',
                fixed='set(CMAKE_HIP_FLAGS_RELEASE "-O3 -DNDEBUG")\n'),
        Invalid('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -Xptxas -v --maxrregcount=64 -O2")\n',
                fixed='set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O2")\n',
                message="-Xptxas -v has no counterpart for AMD GPUs and is removed: ptxas is NVIDIA's assembler: "
                        "AMD's code generator has no such options"),
        Invalid("list(APPEND CMAKE_CUDA_FLAGS --expt-extended-lambda -G)\n",
                fixed="list(APPEND CMAKE_HIP_FLAGS -g)\n"),
        Invalid('if(CMAKE_CUDA_FLAGS MATCHES "fast")\n  message(STATUS "${CMAKE_CUDA_FLAGS_DEBUG}")\nendif()\n',
                fixed='if(CMAKE_HIP_FLAGS MATCHES "fast")\n  message(STATUS "${CMAKE_HIP_FLAGS_DEBUG}")\nendif()\n'),
        Invalid('set(CMAKE_CUDA_FLAGS "--expt-relaxed-constexpr" CACHE STRING "nvcc flags")\n',
                fixed='set(CMAKE_HIP_FLAGS "" CACHE STRING "nvcc flags")\n'),
        Valid('set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -ffast-math")\nset(CMAKE_CXX_FLAGS "-O2")\n'),
        Valid('set(MY_CMAKE_CUDA_FLAGS_COPY "--use_fast_math")\n'),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            edits = [Edit(arg.start + m.start(1), arg.start + m.end(1), "HIP")
                     for arg in command.args for m in NAME.finditer(arg.text)]
            if not edits:
                continue
            lost = []
            for group in self._values(command):
                result = rewrite_options(ctx, group)
                edits.extend(result.edits)
                lost.extend(result.lost)
            yield self.finding(ctx, edits[0].start, edits[0].end,
                               "CMAKE_CUDA_FLAGS holds nvcc options: CMake's HIP language reads CMAKE_HIP_FLAGS, "
                               "with clang options", edits=edits, title="Use CMAKE_HIP_FLAGS")
            for word, option, reason in lost:
                yield self.finding(ctx, word.start, word.end,
                                   f"{option} has no counterpart for AMD GPUs and is removed: {reason}",
                                   severity=Severity.WARNING)

    @staticmethod
    def _values(command) -> list[Words]:
        """The option words of the value of a set/string(APPEND)/list(APPEND) of the flags variable."""
        args = command.args
        if command.name == "set" and args and NAME.fullmatch(args[0].value):
            values = args[1:]
        elif (command.name in ("string", "list") and len(args) > 1 and args[0].value in ("APPEND", "PREPEND")
              and NAME.fullmatch(args[1].value)):
            values = args[2:]
        else:
            return []
        groups, plain = [], []
        for arg in values:
            if arg.value in STOP:
                break
            if arg.quoted:
                groups.append(split_words(arg.text[1:-1], arg.start + 1, " "))
            elif not arg.text.startswith("["):
                plain.append(Word(arg.text, arg.start, arg.end))
        if plain:
            groups.append(Words(tuple(plain), "args"))
        return groups
