"""`find_package(CUDA)` or `find_package(CUDAToolkit)`: the CUDA toolkit looked for by CMake.

HIP's runtime comes from `find_package(hip)`, which defines `hip::host` (the runtime API for any C++
source) and `hip::device`; each HIP library is a package of its own. The command becomes
`find_package(hip ...)`, followed by one `find_package(<lib> ...)` for every HIP library the file's
links need (derived from the `CUDA::` targets, the FindCUDA library variables and
`cuda_add_cublas_to_target`-style commands of the same file, or HIP targets already there): hipblas,
hiprand, hipfft, hipsparse, hipsolver, hipblaslt, hiprtc, rccl, hipcub, rocthrust. Packages the file
already finds are not repeated. `REQUIRED` and `QUIET` are kept as written; a CUDA version number means
nothing to HIP and is dropped, as are `COMPONENTS` (FindCUDAToolkit ignores them too). A second
`find_package(CUDA...)` in the same file is removed.

hip-config.cmake needs C or C++ enabled (it runs FindThreads, which otherwise stops with "FindThreads
only works if either C or CXX language is enabled", checked with Debian 12's HIP 5.2 and CMake 3.25), so a
file whose project enables CUDA but neither C nor C++ also gets `enable_language(CXX)` before it.

Only the links of this file are seen: a library linked in a subdirectory's CMakeLists.txt needs its
`find_package` there, or added by hand.
"""
from migrate.buildfiles.cmake_edits import delete_command, indentation
from migrate.buildfiles.cmake_libraries import found_packages, required_packages
from migrate.buildfiles.cmake_sources import enabled_languages
from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid

CUDA_PACKAGES = ("CUDA", "CUDAToolkit")
LANGUAGES = {"C", "CXX", "CUDA", "HIP", "Fortran", "ASM", "OBJC", "OBJCXX", "ISPC", "Swift", "NONE"}


class FindCudaPackage(CMakeRule):
    code = "BLD002"
    examples = [
        Invalid("find_package(CUDAToolkit REQUIRED)\n", fixed="find_package(hip REQUIRED)\n", line=1),
        Invalid("find_package(CUDAToolkit 11.4 REQUIRED)\nadd_executable(app main.cpp)\n"
                "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::curand)\n",
                fixed="find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nfind_package(hiprand REQUIRED)\n"
                      "add_executable(app main.cpp)\n"
                      "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::curand)\n"),
        Invalid("if(USE_GPU)\n  find_package(CUDA QUIET)\nendif()\n"
                "target_link_libraries(app ${CUDA_CUFFT_LIBRARIES})\n",
                fixed="if(USE_GPU)\n  find_package(hip QUIET)\n  find_package(hipfft QUIET)\nendif()\n"
                      "target_link_libraries(app ${CUDA_CUFFT_LIBRARIES})\n", line=2),
        Invalid("find_package(CUDAToolkit REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                "target_link_libraries(app roc::hipblas CUDA::cusparse)\n",
                fixed="find_package(hip REQUIRED)\nfind_package(hipsparse REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                      "target_link_libraries(app roc::hipblas CUDA::cusparse)\n"),
        Invalid("find_package(CUDA REQUIRED)\nfind_package(CUDAToolkit REQUIRED)\n",
                fixed="find_package(hip REQUIRED)\n"),
        Invalid("find_package(hip REQUIRED)\nfind_package(CUDAToolkit)\nproject(x)\n",
                fixed="find_package(hip REQUIRED)\nproject(x)\n"),
        Invalid("project(k LANGUAGES CUDA)\nfind_package(CUDAToolkit REQUIRED)\n",
                fixed="project(k LANGUAGES CUDA)\nenable_language(CXX)\nfind_package(hip REQUIRED)\n"),
        Valid("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"),
        Valid("find_package(CUDNN REQUIRED)\n# find_package(CUDA)\n"),
    ]

    def check(self, ctx):
        commands = (c for c in ctx.named("find_package") if c.args and c.args[0].value in CUDA_PACKAGES)
        first = next(commands, None)  # the others are read one at a time: a generated file has thousands
        if first is None:
            return
        missing = [p for p in required_packages(ctx) if p.lower() not in found_packages(ctx)]
        words = [a.value for a in first.args]
        flags = "".join(f" {f}" for f in ("REQUIRED", "QUIET") if f in words)
        pad = indentation(ctx, first)
        lines = [f"find_package({p}{flags})" for p in missing]
        languages = enabled_languages(ctx) & LANGUAGES
        if "hip" in missing and languages and not languages & {"C", "CXX"}:
            lines.insert(0, "enable_language(CXX)")
        text = (ctx.newline + pad).join(lines)
        libraries = ", ".join(missing[1:])
        why = f"; the links of this file also need {libraries}" if libraries else ""
        yield self.finding(ctx, first.start, first.end,
                           f"find_package({first.args[0].value}) looks for NVIDIA's toolkit: HIP's runtime and "
                           f"libraries are the packages hip{why}",
                           edits=[Edit(first.start, first.end, text) if text else delete_command(ctx, first)],
                           title="Find the HIP packages")
        for command in commands:
            yield self.finding(ctx, command.start, command.end,
                               f"find_package({command.args[0].value}) again: the HIP packages are found above",
                               edits=[delete_command(ctx, command)], title="Remove the second CUDA find_package")
