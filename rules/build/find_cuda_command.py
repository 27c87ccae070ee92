"""FindCUDA's commands: `cuda_add_executable`, `cuda_add_library`, `cuda_add_cublas_to_target`,
`cuda_add_cufft_to_target`, `cuda_compile`, `cuda_wrap_srcs`, ... (the FindCUDA module was deprecated in
CMake 3.10 and removed in 3.27).

`cuda_add_executable`/`cuda_add_library` become `add_executable`/`add_library` (their `WIN32`, `STATIC`, ...
keywords mean the same); BLD006 marks their `.cu` files `LANGUAGE HIP`, and CMake's HIP language links the
HIP runtime as FindCUDA linked cudart. Their `OPTIONS` (nvcc flags for this target, optionally per
configuration after `DEBUG`/`RELEASE`/...) are translated with `migrate.buildfiles.nvcc_options` into a
`target_compile_options(<target> PRIVATE $<$<COMPILE_LANGUAGE:HIP>:...>)` after the command; options with no
AMD counterpart are dropped with a warning. `cuda_add_cublas_to_target(t)` and `cuda_add_cufft_to_target(t)`
become `target_link_libraries(t roc::hipblas)` / `target_link_libraries(t hip::hipfft)` (the plain signature,
as FindCUDA used). The other FindCUDA commands (`cuda_compile`, `cuda_compile_ptx`, `cuda_wrap_srcs`,
`cuda_select_nvcc_arch_flags`, separable-compilation helpers ...) produce nvcc-specific objects or flags and
are reported for a hand port.
"""
from migrate.buildfiles.cmake_edits import delete_args, insert_after, name_span
from migrate.buildfiles.nvcc_options import translate_option
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

RENAMED = {"cuda_add_executable": "add_executable", "cuda_add_library": "add_library"}
LINKED = {"cuda_add_cublas_to_target": "roc::hipblas", "cuda_add_cufft_to_target": "hip::hipfft"}
FLAGGED = {"cuda_compile", "cuda_compile_ptx", "cuda_compile_fatbin", "cuda_compile_cubin", "cuda_wrap_srcs",
           "cuda_build_clean_target", "cuda_select_nvcc_arch_flags", "cuda_link_separable_compilation_objects",
           "cuda_compute_separable_compilation_object_file_name", "cuda_detect_installed_gpus",
           "cuda_build_shared_library"}
CONFIGS = {"DEBUG": "Debug", "RELEASE": "Release", "RELWITHDEBINFO": "RelWithDebInfo", "MINSIZEREL": "MinSizeRel"}


class FindCudaCommand(CMakeRule):
    code = "BLD014"
    examples = [
        Invalid("cuda_add_executable(demo main.cu util.cpp)\n", fixed="add_executable(demo main.cu util.cpp)\n",
                line=1),
        Invalid("cuda_add_library(kern STATIC kern.cu)\ncuda_add_cublas_to_target(kern)\n",
                fixed="add_library(kern STATIC kern.cu)\ntarget_link_libraries(kern roc::hipblas)\n"),
        Invalid("cuda_add_executable(demo main.cu OPTIONS --use_fast_math -Xptxas -v DEBUG -G)\n",
                fixed="add_executable(demo main.cu)\n"
                      "target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math> "
                      "$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:-g>)\n"),
        Invalid("CUDA_ADD_EXECUTABLE(demo main.cu OPTIONS -arch=sm_80)\n", fixed="add_executable(demo main.cu)\n"),
        # a comment before OPTIONS keeps its line end: the closing parenthesis must not join it
        Invalid("cuda_add_executable(demo main.cu # the demo\n  OPTIONS -arch=sm_80)\n",
                fixed="add_executable(demo main.cu # the demo\n)\n"),
        Invalid("cuda_compile_ptx(PTX_FILES kernels.cu)\n"),
        Valid("add_executable(demo main.cu)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            if command.name in RENAMED:
                yield from self._target(ctx, command)
            elif command.name in LINKED and command.args:
                text = f"target_link_libraries({command.args[0].text} {LINKED[command.name]})"
                yield self.finding(ctx, *name_span(command), f"{command.name} links NVIDIA's library through "
                                   f"FindCUDA: link {LINKED[command.name]} instead",
                                   edits=[Edit(command.start, command.end, text)], title="Link the HIP library")
            elif command.name in FLAGGED:
                yield self.finding(ctx, *name_span(command), f"{command.name} is a FindCUDA command that runs nvcc "
                                   "(PTX, cubin, nvcc flags or device-link objects): port it by hand, e.g. to HIP "
                                   "sources in a target", severity=Severity.WARNING)

    def _target(self, ctx, command):
        new = RENAMED[command.name]
        edits = [Edit(*name_span(command), new)]
        names = [a.value for a in command.args]
        options, lost = [], []
        if "OPTIONS" in names:
            at = names.index("OPTIONS")
            edits.append(delete_args(ctx, command.args[at], command.args[-1]))
            options, lost = self._options(command.args[at + 1:])
        if options and command.args:
            target = command.args[0].text
            edits.append(insert_after(ctx, command, [f"target_compile_options({target} PRIVATE {' '.join(options)})"]))
        yield self.finding(ctx, *name_span(command), f"{command.name} is FindCUDA's (removed in CMake 3.27): "
                           f"{new} builds the target, with its .cu files marked LANGUAGE HIP",
                           edits=edits, title=f"Use {new}")
        for arg, option, reason in lost:
            yield self.finding(ctx, arg.start, arg.end, f"{option} has no counterpart for AMD GPUs and is removed: "
                               f"{reason}", severity=Severity.WARNING)

    @staticmethod
    def _options(args):
        """The generator expressions for an OPTIONS section, and the options lost."""
        config = None
        words, owners = [], []  # (word, config) pairs, split at configuration keywords
        for arg in args:
            if arg.value in CONFIGS:
                config = CONFIGS[arg.value]
                continue
            for w in arg.value.split(";"):
                if w:
                    words.append(w)
                    owners.append((config, arg))
        out, lost = [], []
        i = 0
        while i < len(words):
            new, consumed, reason = translate_option(words, i)
            config, arg = owners[i]
            if new is None:
                lost.append((arg, " ".join(words[i:i + consumed]), reason))
            for w in new or []:
                if config:
                    out.append(f"$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:{config}>>:{w}>")
                else:
                    out.append(f"$<$<COMPILE_LANGUAGE:HIP>:{w}>")
            i += consumed
        return out, lost
