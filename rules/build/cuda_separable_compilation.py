"""`CUDA_SEPARABLE_COMPILATION` (or `CMAKE_CUDA_SEPARABLE_COMPILATION`) turned on: relocatable device code.

CMake has no HIP counterpart: `HIP_SEPARABLE_COMPILATION` does not exist (CMake 3.25's and the current
documentation list only the CUDA property, "CUDA only"). For AMD GPUs, clang builds relocatable device code
with `-fgpu-rdc`, which is needed both when compiling and when linking the HIP target:

    target_compile_options(<target> PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)
    target_link_options(<target> PRIVATE $<$<LINK_LANGUAGE:HIP>:-fgpu-rdc>)

The link of every executable or shared library that uses such code must be a HIP link (CMake's HIP
language adds `--hip-link`). Whole-program compilation is clang's default and is often faster on AMD GPUs,
so first check whether the project needs `extern __device__` symbols across files at all. Reported as a
warning without a fix: which targets need it is a design choice.
"""
from migrate.buildfiles.cmake_sources import property_settings
from migrate.model import Severity
from migrate.rule import CMakeRule, Invalid, Valid


class CudaSeparableCompilation(CMakeRule):
    code = "BLD012"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("set_target_properties(particles PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n", line=1),
        Invalid("set_property(TARGET a b PROPERTY CUDA_SEPARABLE_COMPILATION TRUE)\n"),
        Invalid("set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n"),
        Valid("set_target_properties(particles PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)\n"),
        Valid("target_compile_options(particles PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"),
    ]

    def check(self, ctx):
        for setting in property_settings(ctx, "CUDA_SEPARABLE_COMPILATION"):
            if not setting.enabled:
                continue
            target = setting.targets[0] if setting.targets else "<target>"
            yield self.finding(ctx, setting.name.start, setting.name.end,
                               "CUDA separable compilation has no HIP property in CMake: relocatable device code "
                               f"needs -fgpu-rdc when compiling and linking, e.g. target_compile_options({target} "
                               f"PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>) and target_link_options({target} "
                               "PRIVATE $<$<LINK_LANGUAGE:HIP>:-fgpu-rdc>)")
