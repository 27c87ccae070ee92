"""An `#include` of a CUDA header that has a HIP counterpart.

The header name is replaced and the delimiters are kept (`<cuda_runtime.h>` becomes
`<hip/hip_runtime.h>`); a header that HIP does not need at all is removed with its line. Includes inside
comments, strings or disabled text in a macro body are left alone.

A header row may say from which HIP release its header exists (`since`) and which one to include before
(`older`): `<cuda_bf16.h>` is `<hip/hip_bf16.h>` from HIP 5.7 and `<hip/hip_bfloat16.h>` for an older
`--hip-version`. A header newer than the target with no older counterpart is still renamed, with a warning,
unless it holds only constants the file does not use (`<math_constants.h>` in a file with no `CUDART_PI_F`
and the like: removed). An include that becomes a header the file already includes in the same conditional branch is removed
(`<nvtx3/nvToolsExt.h>` and `<nvtx3/nvToolsExtCudaRt.h>` are both `<roctracer/roctx.h>`).
"""
import re

from migrate.cpp.conditionals import branches
from migrate.cpp.includes import includes, whole_line
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD, NEW = (("hip_version", "5.2"),), (("hip_version", "6.2"),)
# Headers of constants only: for a target older than their HIP header, a file that uses none of the constants
# loses the include instead of getting one that does not exist there.
CONSTANTS = {"math_constants.h": re.compile(rb"\bCUDART_(?!VERSION\b|CB\b)[A-Z0-9_]+")}


class CudaHeaderInclude(CppRule):
    code = "CPP001"
    examples = [
        Invalid("#include <cuda_runtime.h>\n", fixed="#include <hip/hip_runtime.h>\n", line=1),
        Invalid('#include "cuda_runtime.h"\nint x;\n', fixed='#include "hip/hip_runtime.h"\nint x;\n'),
        Invalid("#include <stdio.h>\n#include <cublas_v2.h>\n", fixed="#include <stdio.h>\n#include <hipblas/hipblas.h>\n",
                line=2),
        # bfloat16: hip/hip_bf16.h (__hip_bfloat16 and the intrinsics) from HIP 5.7, hip/hip_bfloat16.h before
        Invalid("#include <cuda_bf16.h>\n__nv_bfloat16 x;\n", fixed="#include <hip/hip_bf16.h>\n__hip_bfloat16 x;\n",
                message="<cuda_bf16.h> is <hip/hip_bf16.h> in HIP", options=NEW),
        Invalid("#include <cuda_bf16.h>\n__nv_bfloat16 x;\n", fixed="#include <hip/hip_bfloat16.h>\nhip_bfloat16 x;\n",
                message="<cuda_bf16.h> is <hip/hip_bfloat16.h> in HIP before 5.7 (target 5.2); <hip/hip_bf16.h> "
                        "from 5.7", options=OLD),
        Invalid("#include <nvtx3/nvToolsExt.h>\n#include <nvtx3/nvToolsExtCudaRt.h>\n#include <cuda_runtime.h>\n",
                fixed="#include <roctracer/roctx.h>\n#include <hip/hip_runtime.h>\n"),
        Invalid("#ifdef V3\n#include <nvtx3/nvToolsExt.h>\n#else\n#include <nvToolsExt.h>\n#endif\n",
                fixed="#ifdef V3\n#include <roctracer/roctx.h>\n#else\n#include <roctracer/roctx.h>\n#endif\n"),
        # nvcc's built-in variables: hipcc declares them itself
        Invalid('#include <cuda_runtime.h>\n#include "device_launch_parameters.h"\n',
                fixed="#include <hip/hip_runtime.h>\n", message="<device_launch_parameters.h> is not needed with HIP"),
        # a removed include that a line of only a backslash continues into (a fuzz find): that line goes too
        Invalid('#include <cuda_runtime.h>\n\\\n#include "device_launch_parameters.h"\nint x;\n',
                fixed="#include <hip/hip_runtime.h>\nint x;\n"),
        # a header of constants the file does not use, for a HIP that lacks it
        Invalid("#include <math_constants.h>\n#include <cuda_runtime.h>\nfloat half(float x) { return x / 2; }\n",
                fixed="#include <hip/hip_runtime.h>\nfloat half(float x) { return x / 2; }\n", options=OLD),
        Invalid("#include <math_constants.h>\nfloat tau() { return 2 * CUDART_PI_F; }\n",
                fixed="#include <hip/hip_math_constants.h>\nfloat tau() { return 2 * HIP_PI_F; }\n", options=OLD,
                message="<math_constants.h> is <hip/hip_math_constants.h> in HIP, which needs HIP 5.7 (target 5.2): "
                        "build with a newer HIP or pass --hip-version 5.7"),
        Valid("#include <stdio.h>\n"),
        Valid("// #include <cuda_runtime.h>\nint x;\n"),
        Valid("#include <hip/hip_runtime.h>\n"),
        Valid("#include <hip/hip_bfloat16.h>\n", options=OLD),
    ]

    def check(self, ctx):
        headers = ctx.packs.headers
        written: dict[str, set[tuple[int, ...]]] = {}  # HIP header -> the branches of the includes that now name it
        at = branches(ctx).at
        for m, name in includes(ctx):
            header = headers.get(name)
            if header is None:
                written.setdefault(name, set()).add(at(m.start()))
                continue
            if not header.hip:
                yield self.finding(ctx, m.start(), m.end(), f"<{name}> is not needed with HIP",
                                   edits=[Edit(*whole_line(ctx.data, m), "")], title="Remove the include",
                                   family=header.family)
                continue
            new = header.hip_for(ctx.target_tuple)
            earlier, here = written.setdefault(new, set()), at(m.start())
            if here in earlier:
                yield self.finding(ctx, m.start(), m.end(), f"<{name}> is <{new}> in HIP, which the file already "
                                   "includes: removed", edits=[Edit(*whole_line(ctx.data, m), "")],
                                   title="Remove the include", family=header.family)
                continue
            earlier.add(here)
            severity = None
            if new != header.hip:
                message = (f"<{name}> is <{new}> in HIP before {header.since} (target {ctx.target}); "
                           f"<{header.hip}> from {header.since}")
            elif header.newer_than(ctx.target_tuple):
                if name in CONSTANTS and not CONSTANTS[name].search(ctx.data):
                    yield self.finding(ctx, m.start(), m.end(), f"<{name}> is <{new}> from HIP {header.since} (target "
                                       f"{ctx.target}), and the file uses none of its constants: removed",
                                       edits=[Edit(*whole_line(ctx.data, m), "")], title="Remove the include",
                                       family=header.family)
                    continue
                message = (f"<{name}> is <{new}> in HIP, which needs HIP {header.since} (target {ctx.target}): "
                           f"build with a newer HIP or pass --hip-version {header.since}")
                severity = Severity.WARNING
            else:
                message = f"<{name}> is <{new}> in HIP"
            yield self.finding(ctx, m.start(2), m.end(2), message, edits=[Edit(m.start(2), m.end(2), new)],
                               title=f"Include {new}", family=header.family, severity=severity)
