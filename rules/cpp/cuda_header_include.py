"""An `#include` of a CUDA header that has a HIP counterpart.

The header name is replaced and the delimiters are kept (`<cuda_runtime.h>` becomes
`<hip/hip_runtime.h>`); a header that HIP does not need at all is removed with its line. Includes inside
comments, strings or disabled text in a macro body are left alone.
"""
from migrate.cpp.includes import includes
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

class CudaHeaderInclude(CppRule):
    code = "CPP001"
    examples = [
        Invalid("#include <cuda_runtime.h>\n", fixed="#include <hip/hip_runtime.h>\n", line=1),
        Invalid('#include "cuda_runtime.h"\nint x;\n', fixed='#include "hip/hip_runtime.h"\nint x;\n'),
        Invalid("#include <stdio.h>\n#include <cublas_v2.h>\n", fixed="#include <stdio.h>\n#include <hipblas/hipblas.h>\n",
                line=2),
        Valid("#include <stdio.h>\n"),
        Valid("// #include <cuda_runtime.h>\nint x;\n"),
        Valid("#include <hip/hip_runtime.h>\n"),
    ]

    def check(self, ctx):
        headers = ctx.packs.headers
        for m, name in includes(ctx):
            header = headers.get(name)
            if header is None:
                continue
            if header.hip:
                yield self.finding(ctx, m.start(2), m.end(2), f"<{name}> is <{header.hip}> in HIP",
                                   edits=[Edit(m.start(2), m.end(2), header.hip)], title=f"Include {header.hip}",
                                   family=header.family)
            else:
                yield self.finding(ctx, m.start(), m.end(), f"<{name}> is not needed with HIP",
                                   edits=[Edit(m.start(), m.end(), "")], title="Remove the include",
                                   family=header.family)
