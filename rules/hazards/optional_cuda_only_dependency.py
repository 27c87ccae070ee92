"""Code built only where a CUDA-only library is installed: `#if __has_include(<nvml.h>)` and the like.

Projects make NVML, CUPTI, nvJPEG, cuFile or NVSHMEM optional by testing for the header. No ROCm install has those
headers, so a HIP build for AMD leaves that code out: its names are not reported one by one (they are in code the
build skips, migrate/cpp/platform.py), and the block is reported once, with the ROCm counterpart a port would use
to keep the feature.
"""

from migrate.cpp.conditionals import directives
from migrate.cpp.platform import CUDA_ONLY_HEADERS, HAS_INCLUDE
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

COUNTERPART = {
    "nvml.h": "AMD SMI (amdsmi.h, -lamd_smi) for GPU monitoring",
    "cupti.h": "rocprofiler-sdk (rocprofiler-sdk/rocprofiler.h) for tracing and counters",
    "nvjpeg.h": "rocJPEG (rocjpeg/rocjpeg.h) for JPEG decoding",
    "cufile.h": "no ROCm counterpart for GPUDirect Storage: plain reads into pinned memory",
    "nvshmem.h": "rocSHMEM (rocshmem/rocshmem.hpp)",
    "nvshmemx.h": "rocSHMEM (rocshmem/rocshmem.hpp)",
}


class OptionalCudaOnlyDependency(HazardRule):
    code = "HAZ026"
    severity = Severity.INFO
    fixable = False
    examples = [
        Invalid("#if __has_include(<nvml.h>)\n#include <nvml.h>\n#define HAVE_NVML 1\n"
                "int temperature() { unsigned t = 0; nvmlDevice_t d; nvmlDeviceGetHandleByIndex(0, &d);\n"
                "  nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t); return (int)t; }\n#endif\n", line=1,
                message="optional dependency nvml.h (CUDA-only): a HIP build for AMD leaves out what this block "
                        "guards; to keep the feature on ROCm use AMD SMI (amdsmi.h, -lamd_smi) for GPU monitoring"),
        Valid("#if __has_include(<cuda_fp8.h>)\n#include <cuda_fp8.h>\n#endif\n"),
        Valid("// #if __has_include(<nvml.h>)\nint x;\n"),
    ]

    def check(self, ctx):
        if b"__has_include" not in ctx.data:
            return
        for word, condition, m in directives(ctx.data):
            if not word.startswith(("if", "elif")):
                continue
            for inc in HAS_INCLUDE.finditer(condition):
                header = inc.group(1).strip()
                if header in CUDA_ONLY_HEADERS:
                    yield self.finding(ctx, m.start(), m.end(), f"optional dependency {header} (CUDA-only): a HIP build "
                                       "for AMD leaves out what this block guards; to keep the feature on ROCm use "
                                       f"{COUNTERPART[header]}")
                    break
