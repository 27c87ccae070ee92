"""`CUDA_RESOLVE_DEVICE_SYMBOLS` (or `CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS`): nvcc's device-link step for a
library.

HIP has no separate device-link step and CMake no HIP counterpart of this property: with `-fgpu-rdc`, clang
resolves device symbols when the final executable or shared library is linked as HIP (`--hip-link`, which
CMake's HIP language adds). A static library therefore cannot resolve its device symbols on its own; the
target that links it does. The property is ignored for HIP targets, so the setting only needs a look (and
can be removed); reported as a warning without a fix.
"""
from migrate.buildfiles.cmake_sources import property_settings
from migrate.model import Severity
from migrate.rule import CMakeRule, Invalid, Valid


class CudaResolveDeviceSymbols(CMakeRule):
    code = "BLD013"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("set_target_properties(kernels PROPERTIES CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n", line=1),
        Invalid("set_property(TARGET kernels PROPERTY CUDA_RESOLVE_DEVICE_SYMBOLS OFF)\n"),
        Valid("set_target_properties(kernels PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"),
    ]

    def check(self, ctx):
        for setting in property_settings(ctx, "CUDA_RESOLVE_DEVICE_SYMBOLS"):
            yield self.finding(ctx, setting.name.start, setting.name.end,
                               "CUDA_RESOLVE_DEVICE_SYMBOLS controls nvcc's device link, which HIP does not have: "
                               "clang resolves device symbols (with -fgpu-rdc) when the executable or shared "
                               "library is linked; remove the setting once the targets are HIP")
