"""Thrust's CUDA system, named in code: `thrust::cuda::par.on(stream)`, `thrust::system::cuda::vector`,
`thrust::cuda_cub::throw_on_error`.

rocThrust keeps the `thrust` names but calls the system HIP: `thrust::hip` (the policies `par`, `par_nosync`,
`pointer`, `vector`, `malloc`, `free`), `thrust::system::hip` and, for CUB's backend namespace `thrust::cuda_cub`,
`thrust::hip_rocprim`, each with the same members. The `thrust/system/cuda/` headers rocThrust still ships include
CUB headers hipCUB lacks and do not compile; the packs map them to `thrust/system/hip/` of the same path (CPP001).
The fix (safe) renames the namespace where Thrust's qualifies it; hipify-perl leaves both alone.
"""
import re

from migrate.cpp.parse import Context
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

QUALIFIED = re.compile(rb"(?<![\w$])thrust[ \t]*::[ \t]*(?:system[ \t]*::[ \t]*)?(cuda(?:_cub)?)\b(?=[ \t]*(?:::|;))")
# a member named for the system: `thrust::system::cuda::detail::cuda_memory_resource<cudaMalloc, cudaFree, ...>`
# and the error category, `thrust::cuda_category()` (Thrust's examples' timer.h)
MEMBER = re.compile(rb"(?<![\w$])thrust[ \t]*::[ \t]*(?:system[ \t]*::[ \t]*(?:cuda|hip)[ \t]*::[ \t]*detail[ \t]*::[ \t]*"
                    rb"(cuda_memory_resource)|(?:system[ \t]*::[ \t]*)?(cuda_category))\b")
QUALIFIED_NAMES = ("cuda", "cuda_cub")
HIP = {"cuda": "hip", "cuda_cub": "hip_rocprim", "cuda_memory_resource": "hip_memory_resource",
       "cuda_category": "hip_category"}


class ThrustCudaSystem(CppRule):
    code = "CPP051"
    examples = [
        Invalid("void sort(int* p, int n, hipStream_t s) { thrust::sort(thrust::cuda::par.on(s), p, p + n); }\n",
                fixed="void sort(int* p, int n, hipStream_t s) { thrust::sort(thrust::hip::par.on(s), p, p + n); }\n",
                line=1, message="thrust::cuda is rocThrust's thrust::hip: the same members, for the HIP system"),
        Invalid("thrust::system::cuda::vector<int> v(4);\nauto e = thrust::cuda_cub::throw_on_error;\n"
                "using namespace thrust::cuda;\nauto& c = thrust::cuda_category();\ntypedef thrust::system::cuda::detail::cuda_memory_resource<f, g> r;\n",
                fixed="thrust::system::hip::vector<int> v(4);\nauto e = thrust::hip_rocprim::throw_on_error;\n"
                "using namespace thrust::hip;\nauto& c = thrust::hip_category();\ntypedef thrust::system::hip::detail::hip_memory_resource<f, g> r;\n"),
        Valid("thrust::device_vector<int> v(4);\nauto p = thrust::hip::par;\n"),
        Valid("auto x = cuda::std::numeric_limits<int>::max();\n// thrust::cuda::par\n"),
    ]

    def check(self, ctx):
        if b"cuda" not in ctx.data or b"thrust" not in ctx.data:
            return
        for m in sorted([*QUALIFIED.finditer(ctx.data), *MEMBER.finditer(ctx.data)], key=lambda m: m.start()):
            group = m.lastindex
            start, end = m.span(group)
            if ctx.locate(start, end)[0] not in (Context.CODE, Context.MACRO, Context.USER_SCOPE):
                continue  # a comment or a string; `system::cuda` reads as a user's scope, which it is not here
            old = m.group(group).decode()
            new = HIP[old]
            what = (f"thrust::{old} is rocThrust's thrust::{new}: the same members" if old in QUALIFIED_NAMES else
                    f"{old} is rocThrust's {new}: the same template")
            yield self.finding(ctx, start, end, f"{what}, for the HIP system", edits=[Edit(start, end, new)],
                               title=f"Rename to {new}")
