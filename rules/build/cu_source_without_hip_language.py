"""`.cu` sources of a target that CMake would not compile as HIP.

CMake picks a source's language from its extension, and `.cu` means CUDA; with the CUDA language gone, the
`.cu` files must be marked `LANGUAGE HIP` (the files keep their names, so the migrated tree still diffs
cleanly against the original). After each command that lists `.cu` files (`add_executable`,
`add_library`, `target_sources`, FindCUDA's `cuda_add_executable`/`cuda_add_library`, and `set`/`list(APPEND)`
building a source list that a target command uses as `${VAR}`) the rule inserts one
`set_source_files_properties(<the .cu files> PROPERTIES LANGUAGE HIP)`; a `file(GLOB VAR *.cu)` gets
`set_source_files_properties(${VAR} PROPERTIES LANGUAGE HIP)`. Files that a `set_source_files_properties`
or `set_property(SOURCE ...)` of the file already marks HIP are left alone, so a second run adds nothing.
The property is read in the directory where it is set, the same as the target's.

A file with a `project()` that enables neither CUDA nor HIP (FindCUDA projects build `.cu` files without
the CUDA language) also gets `enable_language(HIP)` after its `project()`: a source cannot be HIP unless
the language is enabled. A glob that mixes `.cu` with other patterns is reported for a hand edit.
"""
import re

from migrate.buildfiles.cmake_edits import insert_after
from migrate.buildfiles.cmake_libraries import VARIABLE_REF
from migrate.buildfiles.cmake_sources import (SOURCE_COMMANDS, enabled_languages, hip_language_sources, is_cu_source,
                                              source_args)
from migrate.model import Severity
from migrate.rule import CMakeRule, Invalid, Valid

VARIABLE = re.compile(r"[A-Za-z0-9_./+-]+")  # the characters of a CMake variable's name
GLOB_OPTIONS = {"LIST_DIRECTORIES", "RELATIVE", "CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"}


class CuSourceWithoutHipLanguage(CMakeRule):
    code = "BLD006"
    examples = [
        Invalid("add_executable(block_reduce block_reduce.cu)\n",
                fixed="add_executable(block_reduce block_reduce.cu)\n"
                      "set_source_files_properties(block_reduce.cu PROPERTIES LANGUAGE HIP)\n", line=1),
        Invalid("add_library(kernels STATIC\n  scan.cu\n  host.cpp\n  src/sort.cu)\n",
                fixed="add_library(kernels STATIC\n  scan.cu\n  host.cpp\n  src/sort.cu)\n"
                      "set_source_files_properties(scan.cu src/sort.cu PROPERTIES LANGUAGE HIP)\n"),
        Invalid("if(GPU)\n  target_sources(app PRIVATE gpu.cu)\nendif()\n",
                fixed="if(GPU)\n  target_sources(app PRIVATE gpu.cu)\n"
                      "  set_source_files_properties(gpu.cu PROPERTIES LANGUAGE HIP)\nendif()\n"),
        Invalid("set(SOURCES main.cpp kernel.cu)\nadd_executable(app ${SOURCES} kernel.cu)\n",
                fixed="set(SOURCES main.cpp kernel.cu)\n"
                      "set_source_files_properties(kernel.cu PROPERTIES LANGUAGE HIP)\n"
                      "add_executable(app ${SOURCES} kernel.cu)\n"),
        Invalid("file(GLOB KERNELS CONFIGURE_DEPENDS src/*.cu)\nadd_library(k ${KERNELS})\n",
                fixed="file(GLOB KERNELS CONFIGURE_DEPENDS src/*.cu)\n"
                      "set_source_files_properties(${KERNELS} PROPERTIES LANGUAGE HIP)\nadd_library(k ${KERNELS})\n"),
        Invalid("project(demo CXX)\nfind_package(CUDA REQUIRED)\ncuda_add_executable(demo main.cu OPTIONS -O3)\n",
                fixed="project(demo CXX)\nenable_language(HIP)\nfind_package(CUDA REQUIRED)\n"
                      "cuda_add_executable(demo main.cu OPTIONS -O3)\n"
                      "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"),
        Invalid("set(GPU_SRCS \"a.cu\")\nlist(APPEND GPU_SRCS b.cu)\nadd_library(gpu ${GPU_SRCS})\n",
                fixed="set(GPU_SRCS \"a.cu\")\nset_source_files_properties(\"a.cu\" PROPERTIES LANGUAGE HIP)\n"
                      "list(APPEND GPU_SRCS b.cu)\nset_source_files_properties(b.cu PROPERTIES LANGUAGE HIP)\n"
                      "add_library(gpu ${GPU_SRCS})\n"),
        Invalid("file(GLOB SRCS *.cpp *.cu)\n"),
        Valid("file(GLOB SRC*.cpp *.cu)\n"),
        Valid("add_executable(app main.cu)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"),
        Valid("add_executable(app main.cu)\nset_property(SOURCE main.cu PROPERTY LANGUAGE HIP)\n"),
        Valid("add_executable(app main.cpp kernel.hip)\nset(NOTE \"kernel.cu\")\n"),
    ]

    def check(self, ctx):
        covered = hip_language_sources(ctx)
        lists = {m.group(1) for c in ctx.named(*SOURCE_COMMANDS) for a in source_args(c)
                 for m in VARIABLE_REF.finditer(a.text)}
        planned = False
        for command in ctx.commands:
            files = [a for a in self._sources(command, lists) if is_cu_source(a)]
            if command.name == "file":
                yield from self._glob(ctx, command, covered)
                continue
            todo = [a.text for a in files if a.value not in covered]
            todo = list(dict.fromkeys(todo))
            if not todo:
                continue
            covered.update(a.value for a in files)
            listed = " ".join(todo)
            edits = [insert_after(ctx, command, [f"set_source_files_properties({listed} PROPERTIES LANGUAGE HIP)"])]
            if not planned:
                edits.extend(self._enable_language(ctx))
                planned = True
            yield self.finding(ctx, files[0].start, files[0].end,
                               f"{listed}: CMake compiles .cu files as CUDA; mark them LANGUAGE HIP so that clang "
                               "compiles them for AMD GPUs", edits=edits, title="Mark the .cu files LANGUAGE HIP")

    @staticmethod
    def _sources(command, lists):
        """The source arguments of a target command, or the values of a set()/list(APPEND) of a variable
        that a target command uses as ${VAR}."""
        if command.name in SOURCE_COMMANDS:
            return source_args(command)
        args = command.args
        if command.name == "set" and args and args[0].value in lists:
            return [a for a in args[1:] if a.value not in ("CACHE", "PARENT_SCOPE")]
        if (command.name == "list" and len(args) > 1 and args[0].value in ("APPEND", "PREPEND")
                and args[1].value in lists):
            return list(args[2:])
        return []

    def _glob(self, ctx, command, covered):
        args = command.args
        if len(args) < 3 or args[0].value not in ("GLOB", "GLOB_RECURSE"):
            return
        patterns = [a for a in args[2:] if a.value not in GLOB_OPTIONS and a.value not in ("true", "false")]
        cu = [a for a in patterns if a.value.endswith(".cu")]
        if not cu:
            return
        if not VARIABLE.fullmatch(args[1].value):
            return  # no variable named (`file(GLOB SRC*.cpp *.cu)`, a fuzz find): nothing to mark
        variable = "${" + args[1].value + "}"
        if variable in covered:
            return
        if len(cu) != len(patterns):
            yield self.finding(ctx, cu[0].start, cu[0].end, f"{args[1].value} globs .cu files with other sources: "
                               "mark the .cu files LANGUAGE HIP with set_source_files_properties by hand (CMake "
                               "compiles .cu as CUDA)", severity=Severity.WARNING)
            return
        covered.add(variable)
        edits = [insert_after(ctx, command, [f"set_source_files_properties({variable} PROPERTIES LANGUAGE HIP)"])]
        yield self.finding(ctx, cu[0].start, cu[0].end, f"{args[1].value} globs .cu files, which CMake compiles as "
                           "CUDA: mark them LANGUAGE HIP", edits=edits, title="Mark the .cu files LANGUAGE HIP")

    @staticmethod
    def _enable_language(ctx):
        if enabled_languages(ctx) & {"CUDA", "HIP"}:
            return []
        project = next(ctx.named("project"), None)
        if project is None:
            return []
        return [insert_after(ctx, project, ["enable_language(HIP)"])]
