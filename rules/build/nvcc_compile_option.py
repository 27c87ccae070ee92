"""nvcc options in `target_compile_options`, `add_compile_options`, `target_link_options` and
`add_link_options`, usually guarded by `$<$<COMPILE_LANGUAGE:CUDA>:...>`.

The options are translated with the table of `migrate.buildfiles.nvcc_options` (the same as for
`CMAKE_CUDA_FLAGS`, BLD007): `--use_fast_math` -> `-ffast-math`, `-lineinfo` -> `-gline-tables-only`,
`-Xcompiler=-Wall` -> `-Wall`, `-rdc=true` -> `-fgpu-rdc`; options clang does not need
(`--expt-relaxed-constexpr`, `--expt-extended-lambda`, `-arch`, `-gencode`) are removed, and options with no
AMD counterpart (`-Xptxas`, `--maxrregcount`) are removed with a warning. Options are read one by one from
plain arguments, from `;`-lists, from generator-expression payloads and from `SHELL:` groups. In the same
commands `$<COMPILE_LANGUAGE:CUDA>` becomes `$<COMPILE_LANGUAGE:HIP>` (as BLD008 does elsewhere). An
expression left with nothing to guard is removed, and a command left with no options at all is removed.
"""
from migrate.buildfiles.cmake_edits import delete_args, delete_command, name_span
from migrate.buildfiles.cmake_options import OPTION_COMMANDS, language_expression_edits, option_groups, rewrite_options
from migrate.model import Severity
from migrate.rule import CMakeRule, Invalid, Valid

KEYWORDS = {"BEFORE", "PRIVATE", "PUBLIC", "INTERFACE"}


class NvccCompileOption(CMakeRule):
    code = "BLD009"
    examples = [
        Invalid("target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)\n",
                fixed="target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math>)\n", line=1),
        Invalid("target_compile_options(k PRIVATE\n  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>\n"
                "  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>\n  -Wall)\n",
                fixed="target_compile_options(k PRIVATE\n  $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>\n  -Wall)\n"),
        Invalid('target_compile_options(k PRIVATE '
                '"$<$<COMPILE_LANGUAGE:CUDA>:--expt-extended-lambda;-Xcompiler=-fopenmp>")\n',
                fixed='target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-fopenmp>")\n'),
        Invalid('add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -Wextra>")\n',
                fixed='add_compile_options("$<$<COMPILE_LANGUAGE:HIP>:SHELL:-Wextra>")\n'),
        Invalid("target_compile_options(k PRIVATE --expt-relaxed-constexpr)\nadd_executable(x x.cpp)\n",
                fixed="add_executable(x x.cpp)\n"),
        Invalid("target_compile_options(k PRIVATE -O3 -Xptxas -v)\n", fixed="target_compile_options(k PRIVATE -O3)\n",
                message="-Xptxas -v has no counterpart for AMD GPUs and is removed: ptxas is NVIDIA's assembler: "
                        "AMD's code generator has no such options"),
        Invalid("target_link_options(k PRIVATE $<$<LINK_LANGUAGE:CUDA>:-rdc=true>)\n",
                fixed="target_link_options(k PRIVATE $<$<LINK_LANGUAGE:HIP>:-fgpu-rdc>)\n"),
        Valid("target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math> -Wall)\n"),
        Valid("target_compile_options(k PRIVATE -O2 -arch x86_64 -DCUDA_OFF)\n"),
    ]

    def check(self, ctx):
        for command in ctx.named(*OPTION_COMMANDS):
            args = command.args[1:] if command.name.startswith("target_") else command.args
            options = [a for a in args if a.value not in KEYWORDS]
            edits, lost, removed = [], [], set()
            remaining = len(options)
            for arg, words in option_groups(options):
                result = rewrite_options(ctx, words)
                lost.extend(result.lost)
                if arg is None:
                    edits.extend(result.edits)
                    if result.emptied:
                        remaining -= len(words.words)
                elif result.emptied and words.words:
                    removed.add(arg)
                    remaining -= 1
                else:
                    edits.extend(result.edits)
            for arg in options:
                if arg not in removed:
                    edits.extend(language_expression_edits(arg))
            if remaining == 0 and options and (edits or removed):
                edits = [delete_command(ctx, command)]
            else:
                edits.extend(delete_args(ctx, arg, arg) for arg in removed)
            if edits:
                yield self.finding(ctx, *name_span(command),
                                   f"{command.name}() passes nvcc options or tests for CUDA: clang compiles the HIP "
                                   "sources and takes its own options", edits=edits, title="Use clang's options")
            for word, option, reason in lost:
                yield self.finding(ctx, word.start, word.end,
                                   f"{option} has no counterpart for AMD GPUs and is removed: {reason}",
                                   severity=Severity.WARNING)
