"""Shared memory beyond what AMD LDS holds, or shared-memory/L1 carveout settings.

LDS (HIP's `__shared__` memory) is 64 KiB per workgroup on CDNA (MI100/MI200/MI300). NVIDIA parts
allow up to 227 KiB after an opt-in `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, N)`:
with N above 65536 the launch fails on AMD (ERROR; N is also read through a constant the file defines, `constexpr int
kSmem = 96 * 1024`), and so does a `__shared__` array whose constant size exceeds 64 KiB (ERROR). An N known only at
run time is a WARNING: the call exists to go past 48 KiB, and AMD's LDS is 64 KiB per workgroup (160 KiB on gfx950). Carveout and cache-configuration calls
(`cudaFuncAttributePreferredSharedMemoryCarveout`, `cudaDeviceSetCacheConfig`, `cudaFuncSetCacheConfig`,
the shared-memory bank config calls) have no effect on AMD, where the L1/LDS split is fixed
(WARNING): code tuned around them needs a new tile size. No fix.
"""
import re

from migrate.cpp.calls import arguments, call_of
from migrate.cpp.constants import SIZES, text_value, value as constant
from migrate.edits import decoded, encoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

LDS = 65536
SHARED = re.compile(rb"\b__shared__\b")
SET_ATTRIBUTE = {"cudaFuncSetAttribute", "hipFuncSetAttribute", "cuFuncSetAttribute"}
MAX_DYNAMIC = {"cudaFuncAttributeMaxDynamicSharedMemorySize", "hipFuncAttributeMaxDynamicSharedMemorySize",
               "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", "HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"}
CARVEOUT = {"cudaFuncAttributePreferredSharedMemoryCarveout", "hipFuncAttributePreferredSharedMemoryCarveout",
            "CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT", "HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT"}
CACHE_CONFIG = {"cudaDeviceSetCacheConfig", "cudaFuncSetCacheConfig", "cudaDeviceSetSharedMemConfig",
                "cudaFuncSetSharedMemConfig", "cuCtxSetCacheConfig", "cuFuncSetCacheConfig", "cuCtxSetSharedMemConfig"}
CACHE_CONFIG |= {"hip" + n[4:] for n in CACHE_CONFIG if n.startswith("cuda")}
CACHE_CONFIG |= {"hip" + n[2:] for n in CACHE_CONFIG if n.startswith("cu") and not n.startswith("cuda")}
MESSAGE_LDS = ("LDS (shared memory) is 64 KiB per workgroup on AMD CDNA: a kernel that needs more fails to launch; "
               "shrink the tile or split the work")


def named_constant(data: bytes, name: str) -> int | None:
    """The value of `name` where the file gives it one that is constant: `constexpr int kSmem = 96 * 1024;`,
    `const size_t S = ...;` or `#define S (...)`."""
    n = re.escape(encoded(name))
    m = (re.search(rb"\b(?:constexpr|const)\b[^;={}()]*\b" + n + rb"\s*=\s*([^;{}]+);", data)
         or re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + n + rb"[ \t]+([^\n]+)$", data, re.M))
    return text_value(decoded(m.group(1))) if m else None


class SharedMemoryLimit(HazardRule):
    code = "HAZ008"
    severity = Severity.ERROR
    fixable = False
    examples = [
        Invalid("void setup() {\n  hipFuncSetAttribute(k, hipFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);\n}\n",
                line=2, message=f"kernel opts into 98304 bytes of dynamic shared memory: {MESSAGE_LDS}"),
        Invalid("__global__ void k(float* d) { __shared__ float tile[128][256]; tile[0][0] = d[0]; }\n",
                message=f"__shared__ array 'tile' takes 131072 bytes: {MESSAGE_LDS}"),
        Invalid("void setup() { hipFuncSetAttribute(k, hipFuncAttributePreferredSharedMemoryCarveout, 100); }\n",
                message="shared-memory carveout has no effect on AMD: the LDS size is fixed (64 KiB per workgroup)"),
        Invalid("void setup() { hipDeviceSetCacheConfig(hipFuncCachePreferShared); }\n",
                message="hipDeviceSetCacheConfig has no effect on AMD: the L1/LDS split is fixed (64 KiB LDS per "
                        "workgroup)"),
        Valid("void setup() { hipFuncSetAttribute(k, hipFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024); }\n"),
        Valid("__global__ void k(float* d) { __shared__ float tile[64][64]; extern __shared__ char dyn[]; }\n"),
        Invalid("constexpr int kSmem = 96 * 1024;\nvoid setup() {\n  hipFuncSetAttribute(k, "
                "hipFuncAttributeMaxDynamicSharedMemorySize, kSmem);\n}\n", line=3,
                message=f"kernel opts into 98304 bytes of dynamic shared memory (kSmem): {MESSAGE_LDS}"),
        Invalid("void setup(int n) {\n  size_t bytes = n * sizeof(float);\n  hipFuncSetAttribute(k, "
                "hipFuncAttributeMaxDynamicSharedMemorySize, bytes);\n}\n", line=3,
                message="kernel opts into dynamic shared memory of a size known only at run time ('bytes'): the call "
                        "exists to go past 48 KiB, and AMD allows 64 KiB per workgroup (160 KiB on gfx950); check that "
                        "the size stays within it"),
    ]

    def check(self, ctx):
        data = ctx.data
        for token in ctx.code_tokens():
            if token.base:
                continue
            if token.name in CACHE_CONFIG:
                yield self.finding(ctx, token.start, token.end, f"{token.name} has no effect on AMD: the L1/LDS split "
                                   "is fixed (64 KiB LDS per workgroup)", severity=Severity.WARNING)
            elif token.name in SET_ATTRIBUTE:
                call = call_of(token)
                args = arguments(call) if call is not None else []
                if len(args) < 3:
                    continue
                attribute = args[1].text.decode("utf-8", "surrogateescape").split("::")[-1]
                if attribute in CARVEOUT:
                    yield self.finding(ctx, call.start_byte, call.end_byte, "shared-memory carveout has no effect on "
                                       "AMD: the LDS size is fixed (64 KiB per workgroup)", severity=Severity.WARNING)
                elif attribute in MAX_DYNAMIC:
                    size, name = constant(args[2]), None
                    if size is None and args[2].type == "identifier":
                        name = decoded(args[2].text)
                        size = named_constant(ctx.data, name)
                    if size is not None and size > LDS:
                        what = f" ({name})" if name else ""
                        yield self.finding(ctx, call.start_byte, call.end_byte,
                                           f"kernel opts into {size} bytes of dynamic shared memory{what}: {MESSAGE_LDS}")
                    elif size is None:
                        text = " ".join(decoded(args[2].text).split())
                        yield self.finding(ctx, call.start_byte, call.end_byte,
                                           f"kernel opts into dynamic shared memory of a size known only at run time "
                                           f"('{text}'): the call exists to go past 48 KiB, and AMD allows 64 KiB per "
                                           "workgroup (160 KiB on gfx950); check that the size stays within it",
                                           severity=Severity.WARNING)
        if b"__shared__" in data:
            yield from self._arrays(ctx)

    def _arrays(self, ctx):
        for m in SHARED.finditer(ctx.data):
            node = ctx.node_at(m.start(), m.end())
            qualifier = node.parent if node.type == "__shared__" else None
            declaration = qualifier.parent if qualifier is not None else None
            if declaration is None or declaration.type != "declaration":
                continue
            kind = declaration.child_by_field_name("type")
            element = SIZES.get(" ".join(decoded(kind.text).split())) if kind is not None else None
            if element is None:
                continue
            for declarator in declaration.children_by_field_name("declarator"):
                size, inner = element, declarator
                while inner is not None and inner.type == "array_declarator":
                    count = inner.child_by_field_name("size")
                    value = constant(count) if count is not None else None
                    if value is None:
                        size = None
                        break
                    size *= value
                    inner = inner.child_by_field_name("declarator")
                if size is not None and size > LDS and inner is not None and declarator.type == "array_declarator":
                    yield self.finding(ctx, declaration.start_byte, declaration.end_byte,
                                       f"__shared__ array '{decoded(inner.text)}' takes {size} bytes: {MESSAGE_LDS}")
