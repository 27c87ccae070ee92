"""A project's own definition of a device function that HIP's headers define too: compiled for NVIDIA only.

CUDA has no `atomicMax`/`atomicMin` on `float` or `double`, so projects write them (a compare-and-swap loop), and
code for GPUs before sm_60 writes `atomicAdd` on `double`, often under `#if __CUDA_ARCH__ < 600`, which hipcc
takes (the macro reads as 0). HIP's `amd_hip_atomic.h` defines all five with the same signatures and meaning, so
the HIP build stops with "redefinition of 'atomicMax'" (HeCBench's lebesgue). The definition is wrapped in
`#if !defined(__HIPCC__)`: the NVIDIA build keeps it, the HIP build calls HIP's. The signatures are those HIP 6.4
and 7.2 define (checked in their headers).
"""
from migrate.cpp import parse
from migrate.cpp.definitions import DEFINITIONS, at_namespace_scope, function_declarator, parameter_types
from migrate.edits import line_start, next_line
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# name -> the parameter types (names left out, spaces normalised) of each definition HIP's headers make
HIP_DEFINES = {
    "atomicMax": (["float *", "float"], ["double *", "double"]),
    "atomicMin": (["float *", "float"], ["double *", "double"]),
    "atomicAdd": (["double *", "double"],),
}
GUARD = "#if !defined(__HIPCC__)  // hipmigrate: HIP's headers define {name}({types})"
MAX = ("__device__ __forceinline__\ndouble atomicMax(double *address, double val)\n{\n"
       "  unsigned long long *p = (unsigned long long *)address, old = *p, seen;\n"
       "  while (val > __longlong_as_double(old)) {\n    seen = old;\n"
       "    if ((old = atomicCAS(p, seen, __double_as_longlong(val))) == seen) break;\n  }\n"
       "  return __longlong_as_double(old);\n}\n")


def _normalised(types: list[str]) -> list[str]:
    return [" ".join(t.replace("*", " * ").split()).replace(" *", " *") for t in types]


class DefinitionHipProvides(CppRule):
    code = "CPP056"
    examples = [
        Invalid("#include <cuda_runtime.h>\n" + MAX + "__global__ void k(double* m, double v) { atomicMax(m, v); }\n",
                line=3, fixed="#include <cuda_runtime.h>\n" + GUARD.format(name="atomicMax", types="double *, double")
                + "\n" + MAX + "#endif\n"
                      "__global__ void k(double* m, double v) { atomicMax(m, v); }\n",
                message="atomicMax(double *, double) is defined by HIP's headers too (amd_hip_atomic.h): this "
                        "definition is compiled for NVIDIA only, and the HIP build calls HIP's"),
        Invalid("#if __CUDA_ARCH__ < 600\n__device__ double atomicAdd(double* a, double v) { return *a += v; }\n"
                "#endif\n",
                fixed="#if __CUDA_ARCH__ < 600\n" + GUARD.format(name="atomicAdd", types="double *, double")
                      + "\n__device__ double atomicAdd(double* a, double v) { return *a += v; }\n#endif\n#endif\n"),
        # other signatures, members, other namespaces
        Valid("__device__ int atomicMax(int* a, int v, int w) { return 0; }\n"
              "namespace mine { __device__ float atomicMax(float* a, float v) { return v; } }\n"),
    ]

    def check(self, ctx):
        if b"atomic" not in ctx.data:
            return
        for m in parse.matches(DEFINITIONS, ctx.tree.root_node):
            function = m["function"][0]
            declarator = function_declarator(m["declarator"][0])
            name = declarator.child_by_field_name("declarator") if declarator is not None else None
            params = declarator.child_by_field_name("parameters") if declarator is not None else None
            if name is None or params is None or name.type != "identifier" or not at_namespace_scope(function) \
                    or function.parent.type == "namespace_definition" or _in_namespace(function):
                continue
            text = name.text.decode("utf-8", "surrogateescape")
            types = _normalised(parameter_types(params))
            if types not in [_normalised(t) for t in HIP_DEFINES.get(text, ())]:
                continue
            shown = ", ".join(types)
            nl = ctx.newline
            before, after = line_start(ctx.data, function.start_byte), next_line(ctx.data, function.end_byte)
            if ctx.data[line_start(ctx.data, max(before - 1, 0)):before].startswith(b"#if !defined(__HIPCC__)"):
                continue  # guarded already (a second run)
            yield self.finding(ctx, name.start_byte, name.end_byte,
                               f"{text}({shown}) is defined by HIP's headers too (amd_hip_atomic.h): this definition "
                               "is compiled for NVIDIA only, and the HIP build calls HIP's",
                               edits=[Edit(before, before, GUARD.format(name=text, types=shown) + nl),
                                      Edit(after, after, f"#endif{nl}")],
                               title="Compile it for NVIDIA only")


def _in_namespace(function) -> bool:
    node = function.parent
    while node is not None:
        if node.type == "namespace_definition":
            return True
        node = node.parent
    return False
