"""`CUDA_NVCC_FLAGS` (and `CUDA_NVCC_FLAGS_<CONFIG>`): FindCUDA's list of nvcc flags.

Only FindCUDA's `cuda_add_*` commands read it, and they become plain `add_executable`/`add_library` with the
migration (BLD014), so flags left there would be silently lost. Their place is `CMAKE_HIP_FLAGS` (or
`CMAKE_HIP_FLAGS_<CONFIG>`): a space-separated string read for every HIP source of the directory and below,
the same scope as the variable it replaces. The usual ways of adding flags, `list(APPEND CUDA_NVCC_FLAGS a b)`,
`set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} a b)` and `set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS};a;b")`, become
`string(APPEND CMAKE_HIP_FLAGS " a b")` with the options translated by the table of
`migrate.buildfiles.nvcc_options` (`--use_fast_math` -> `-ffast-math`, `-arch`/`-gencode` dropped, ...). A plain
`set(CUDA_NVCC_FLAGS a b)` also appends: `CMAKE_HIP_FLAGS` may hold the user's own flags. Options with no AMD
counterpart are dropped with a warning; a command left with no flag is removed. Other forms (a cache entry,
flags built from other variables) are reported with the translation for a hand edit.
"""
import re

from migrate.buildfiles.cmake_edits import delete_command
from migrate.buildfiles.cmake_libraries import MIOPEN
from migrate.buildfiles.nvcc_options import translate_options
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

TARGET_WORD = re.compile(rf"(?<![\w-]){MIOPEN.target}\b")

NAME = re.compile(r"CUDA_NVCC_FLAGS(_[A-Za-z0-9]+)?")


class CudaNvccFlagsVariable(CMakeRule):
    code = "BLD016"
    examples = [
        Invalid("list(APPEND CUDA_NVCC_FLAGS -O3 --use_fast_math)\n",
                fixed='string(APPEND CMAKE_HIP_FLAGS " -O3 -ffast-math")\n', line=1),
        Invalid('set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS};-gencode;arch=compute_80,code=sm_80;-lineinfo")\n',
                fixed='string(APPEND CMAKE_HIP_FLAGS " -gline-tables-only")\n'),
        Invalid("set(CUDA_NVCC_FLAGS_RELEASE ${CUDA_NVCC_FLAGS_RELEASE} -O3 -Xptxas -v)\n",
                fixed='string(APPEND CMAKE_HIP_FLAGS_RELEASE " -O3")\n',
                message="-Xptxas -v has no counterpart for AMD GPUs and is removed: ptxas is NVIDIA's assembler: "
                        "AMD's code generator has no such options"),
        Invalid("set(CUDA_NVCC_FLAGS --expt-relaxed-constexpr)\nproject(x)\n", fixed="project(x)\n"),
        Invalid('set(CUDA_NVCC_FLAGS "${NVCC_ARCH_FLAGS}" CACHE STRING "nvcc flags")\n'),
        # a target among the words (a link list pasted in; BLD004 turns ${CUDA_LIBRARIES} into one): reported only
        Invalid("list(APPEND CUDA_NVCC_FLAGS -O3 hip::host)\n"),
        # MIOpen, BLD003's name for CUDNN::cudnn, is a target too: a second run keeps the first's verdict (a fuzz find)
        Invalid("list(APPEND CUDA_NVCC_FLAGS -O3 MIOpen)\n"),
        Valid('set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O3")\nmessage("${CUDA_NVCC_FLAGS}")\n'),
    ]

    def check(self, ctx):
        for command in ctx.named("set", "list", "string"):
            args = command.args
            at = 0 if command.name == "set" else 1
            if len(args) <= at or not NAME.fullmatch(args[at].value):
                continue
            if command.name != "set" and args[0].value not in ("APPEND", "PREPEND"):
                continue
            name = args[at].value
            target = "CMAKE_HIP_FLAGS" + (NAME.fullmatch(name).group(1) or "")
            words, fixable = [], command.name != "string"
            for arg in args[at + 1:]:
                if arg.value in ("CACHE", "PARENT_SCOPE"):
                    fixable = False
                    break
                for w in re.split(r"[;\s]+", arg.value):
                    if w == "${" + name + "}":
                        continue
                    if "${" in w or "$<" in w or "::" in w or TARGET_WORD.search(w):
                        fixable = False  # a variable, a genex, a target (hip::host, or MIOpen as BLD003 writes it)
                    if w:
                        words.append(w)
            new, lost = translate_options(words)
            flags = " ".join(new)
            if not fixable:
                lost_text = "; with no AMD counterpart: " + ", ".join(o for o, _ in lost) if lost else ""
                yield self.finding(ctx, args[at].start, args[at].end,
                                   f"{name} is read only by FindCUDA's commands, which the migration replaces: move "
                                   f"the flags to {target} (a space-separated string); as clang options they are: "
                                   f"{flags or '(none)'}{lost_text}", severity=Severity.WARNING)
                continue
            if not new:
                edit = delete_command(ctx, command)
            elif command.name == "list" and args[0].value == "PREPEND":
                edit = Edit(command.start, command.end, f'string(PREPEND {target} "{flags} ")')
            else:
                edit = Edit(command.start, command.end, f'string(APPEND {target} " {flags}")')
            yield self.finding(ctx, args[at].start, args[at].end,
                               f"{name} is read only by FindCUDA's commands, which the migration replaces: the "
                               f"flags go to {target}, as clang options", edits=[edit], title=f"Append to {target}")
            for option, reason in lost:
                yield self.finding(ctx, args[at].start, args[at].end,
                                   f"{option} has no counterpart for AMD GPUs and is removed: {reason}",
                                   severity=Severity.WARNING)
