"""A kernel passed to a runtime function that HIP declares only for `const void*`.

CUDA's runtime has template overloads that take the kernel itself: `cudaFuncSetAttribute(kernel, ...)`,
`cudaFuncGetAttributes(&attr, kernel)`, `cudaFuncSetCacheConfig(kernel, ...)`. HIP (5.2 to 6.4) declares
`hipFuncSetAttribute`, `hipFuncGetAttributes`, `hipFuncSetCacheConfig`, `hipFuncSetSharedMemConfig` and
`hipLaunchKernel` with a `const void*` only, and C++ does not turn a function into a `void*` by itself, so
the renamed call does not build ("no matching function"). The fix casts the argument:
`reinterpret_cast<const void*>(kernel)`. An argument that already is a pointer to void (a cast, or a variable
declared `void*` / `const void*`) is left as it is.
"""
import re

from migrate.cpp import parse
from migrate.cpp.calls import api_arguments
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# API -> 0-based position of the kernel argument (CUDA and HIP spellings: hipify-perl output too)
KERNEL_ARG = {"FuncSetAttribute": 0, "FuncGetAttributes": 1, "FuncSetCacheConfig": 0, "FuncSetSharedMemConfig": 0,
              "LaunchKernel": 0}
APIS = {prefix + name: index for name, index in KERNEL_ARG.items() for prefix in ("cuda", "hip")}
VOID_POINTER = re.compile(rb"^(?:\(\s*(?:const\s+)?void\s*\*\s*\)|(?:reinterpret|static)_cast\s*<\s*(?:const\s+)?void\s*\*\s*>)")
CAST = "reinterpret_cast<const void*>("


class KernelAsConstVoidPointer(CppRule):
    code = "CPP009"
    phase = 1
    examples = [
        Invalid("__global__ void k(float* a);\nvoid f() { cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536); }",
                fixed="__global__ void k(float* a);\nvoid f() { hipFuncSetAttribute(reinterpret_cast<const void*>(k), "
                      "hipFuncAttributeMaxDynamicSharedMemorySize, 65536); }", line=2),
        Invalid("void g(cudaFuncAttributes* a) { cudaFuncGetAttributes(a, scale<float>); }",
                fixed="void g(hipFuncAttributes* a) { hipFuncGetAttributes(a, reinterpret_cast<const void*>(scale<float>)); }"),
        Invalid("void h(void (*f)(int*)) { cudaFuncSetCacheConfig(*f, cudaFuncCachePreferShared); }",
                fixed="void h(void (*f)(int*)) { hipFuncSetCacheConfig(reinterpret_cast<const void*>(*f), "
                      "hipFuncCachePreferShared); }"),
        Invalid("void l(void** args) { hipLaunchKernel(k, dim3(1), dim3(64), args, 0, 0); }",
                fixed="void l(void** args) { hipLaunchKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(64), "
                      "args, 0, 0); }"),
        Valid("void f() { hipFuncSetCacheConfig(reinterpret_cast<const void*>(k), hipFuncCachePreferL1); }"),
        Valid("void f() { cudaFuncSetCacheConfig((const void*)k, cudaFuncCachePreferL1); }"),
        Valid("void f(const void* fn, cudaFuncAttributes* a) { cudaFuncGetAttributes(a, fn); }"),
        Valid("void f(cudaFuncAttributes* a) { void* fn = get(); cudaFuncGetAttributes(a, fn); }"),
        Valid('const char* s = "cudaFuncSetCacheConfig(k, c)";'),
    ]

    def check(self, ctx):
        for token, arg in api_arguments(ctx, APIS):
            if VOID_POINTER.match(arg.text):
                continue
            if token.base == 0 and arg.type == "identifier" and arg.text in void_pointers(ctx):
                continue
            start, end = token.base + arg.start_byte, token.base + arg.end_byte
            shown = " ".join(arg.text.decode("utf-8", "surrogateescape").split())
            yield self.finding(ctx, start, end, f"{token.name} takes the kernel as const void* in HIP (no template "
                               f"overload): '{shown}' cast with reinterpret_cast<const void*>",
                               edits=[Edit(start, start, CAST), Edit(end, end, ")")],
                               title="Cast the kernel to const void*")


def void_pointers(ctx) -> set[bytes]:
    """Names of the variables and parameters of the file declared as `void*` or `const void*`."""
    return ctx.once("void-pointers", lambda c: parse.declared_names(c.tree.root_node, {b"void"}, ("pointer_declarator",)))
