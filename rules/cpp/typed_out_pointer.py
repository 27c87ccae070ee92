"""A typed pointer's address passed where HIP declares only `void**`: CUDA's template overload that HIP lacks.

CUDA's `cuda_runtime.h` gives its functions that return a device address through a `void**` a C++ template overload
for any `T**`, so `float* d; cudaHostGetDevicePointer(&d, h, 0)` compiles. HIP gives most of them one too
(`hipMalloc`, `hipHostMalloc`, `hipMallocManaged`, `hipMallocAsync`, ...), but not `hipHostGetDevicePointer`
(HIP 5.2 to 7.2), nor `hipMallocPitch` before 6.4 (`scripts/gen_pointer_overloads.py` lists them from installed
headers): "no matching function for call" (cuda-samples' UnifiedMemoryPerf). The argument is cast to `(void**)`, what CUDA's overload does.
"""
import re

from migrate.cpp.calls import api_arguments
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# CUDA name -> the position of the T** argument, for the functions whose HIP counterpart has no T** overload
APIS = {"cudaHostGetDevicePointer": 0, "cudaMallocPitch": 0}
# the HIP release from which the counterpart has one (checked: 5.2.3 and 5.7.1 lack hipMallocPitch's, 6.4.3 has it)
SINCE = {"cudaMallocPitch": (6, 4)}
VOID_CAST = re.compile(rb"^\(\s*void\s*\*\s*\*\s*\)|^reinterpret_cast\s*<\s*void\s*\*\s*\*\s*>|^static_cast\s*<\s*void"
                       rb"\s*\*\s*\*\s*>")
MAPPED = ("void map(float* host, float** out) {\n    float* device = nullptr;\n"
          "    cudaHostGetDevicePointer(&device, host, 0);\n    *out = device;\n}\n")


class TypedOutPointer(CppRule):
    code = "CPP075"
    examples = [
        Invalid(MAPPED, line=3, fixed=MAPPED.replace("cudaHostGetDevicePointer(&device", "hipHostGetDevicePointer((void**)&device"),
                message="hipHostGetDevicePointer takes a void**, with no overload for other pointers as CUDA's: "
                        "cast to void**"),
        Valid("void map(float* host, float** out) {\n    cudaHostGetDevicePointer((void **)out, host, 0);\n}\n"),
        Invalid("void rows(float** d, size_t* pitch) {\n    cudaMallocPitch(d, pitch, 64, 8);\n}\n", line=2,
                fixed="void rows(float** d, size_t* pitch) {\n    hipMallocPitch((void**)d, pitch, 64, 8);\n}\n",
                options=(("hip_version", "5.7"),)),
        Valid("void rows(float** d, size_t* pitch) {\n    cudaMallocPitch(d, pitch, 64, 8);\n}\n",
              options=(("hip_version", "6.4"),)),
        Valid("void map(float* host, void** out) {\n    cudaHostGetDevicePointer(reinterpret_cast<void**>(out), host, 0);\n}\n"),
    ]

    def check(self, ctx):
        if not any(name.encode() in ctx.data for name in APIS):
            return
        for token, arg in api_arguments(ctx, APIS):
            start, end = token.base + arg.start_byte, token.base + arg.end_byte
            text = ctx.data[start:end]
            if VOID_CAST.match(text) or ctx.target_tuple >= SINCE.get(token.name, (99,)):
                continue
            hip = "hip" + token.name.removeprefix("cuda")
            wrapped = text.decode("utf-8", "surrogateescape")
            if arg.type not in ("pointer_expression", "identifier", "field_expression", "subscript_expression"):
                wrapped = f"({wrapped})"
            yield self.finding(ctx, start, end, f"{hip} takes a void**, with no overload for other pointers as "
                               "CUDA's: cast to void**", edits=[Edit(start, end, f"(void**){wrapped}")],
                               title="Cast to void**")
