"""Does a C++/CUDA file use the CUDA or HIP runtime (device code, launches, runtime calls)? Asked by the rules that
add the includes nvcc gave every file implicitly."""
import re

from migrate.cpp.includes import includes
from migrate.cpp.parse import Context

DEVICE = re.compile(rb"(?<![\w$])(?:__global__|__device__|__shared__|__constant__|threadIdx|blockIdx|blockDim|gridDim)"
                    rb"(?![\w$])|<<<")
RUNTIME_HEADERS = {"hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip_runtime.h", "hip/hip_runtime.hpp"}
NEEDS_RUNTIME = {"runtime", "driver", "device", "cooperative_groups"}


def needs_runtime(ctx) -> bool:
    for m in DEVICE.finditer(ctx.data):
        if ctx.locate(m.start(), m.end())[0] in (Context.CODE, Context.MACRO):
            return True
    names = ctx.packs.names
    code = (Context.CODE, Context.MACRO)  # not the comments --translate-comments also renames in
    return any(names[t.name].family in NEEDS_RUNTIME for t in ctx.code_tokens() if t.name in names and t.context in code)


def hip_includes(ctx) -> list:
    """The file's includes in order, each as (match, the name it has after migration to the target release)."""
    headers = ctx.packs.headers
    return [(m, headers[name].hip_for(ctx.target_tuple) if name in headers else name) for m, name in includes(ctx)]
