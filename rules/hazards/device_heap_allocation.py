"""Heap allocation in device code: `malloc`/`free`/`new`/`delete` inside kernels and `__device__` functions.

AMD's device heap is limited and slow (every allocation goes through a global lock-free list), and the
heap-size limit (`cudaLimitMallocHeapSize`) has no full counterpart: HIP accepts the call but the heap does
not grow the same way. Allocate on the host, or use a pool passed to the kernel.
"""
import re

from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

ALLOCATIONS = parse.query("[(call_expression function: (identifier) @fn) (new_expression) @new"
                          " (delete_expression) @delete]")
HEAP_FUNCTIONS = {b"malloc", b"free", b"calloc", b"realloc"}
HEAP_WORD = re.compile(rb"\b(?:malloc|free|calloc|realloc|new|delete)\b")  # a cheap pre-check
LIMITS = {"cudaLimitMallocHeapSize", "hipLimitMallocHeapSize", "CU_LIMIT_MALLOC_HEAP_SIZE"}
MESSAGE = ("{what} in device code: AMD's device heap is small and slow, and its size limit does not grow "
           "like CUDA's; allocate on the host or pass a pool to the kernel")


class DeviceHeapAllocation(HazardRule):
    code = "HAZ012"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("__global__ void k(int n) {\n  int* p = (int*)malloc(n * sizeof(int));\n  free(p);\n}\n", line=2,
                message=MESSAGE.format(what="malloc")),
        Invalid("__device__ float* make(int n) { return new float[n]; }\n", message=MESSAGE.format(what="new")),
        Invalid("void grow() { hipDeviceSetLimit(hipLimitMallocHeapSize, 1 << 30); }\n",
                message=MESSAGE.format(what="hipLimitMallocHeapSize")),
        Valid("void host(int n) { int* p = (int*)malloc(n); free(p); float* q = new float[n]; delete[] q; }\n"),
        Valid("__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if (b"__device__" in data or b"__global__" in data) and any(w in data for w in (b"alloc", b"free", b"new",
                                                                                         b"delete")) \
                and HEAP_WORD.search(data):
            yield from self._allocations(ctx)
        for token in ctx.code_tokens():
            if token.name in LIMITS:
                yield self.finding(ctx, token.start, token.end, MESSAGE.format(what=token.name))

    def _allocations(self, ctx):
        caps = parse.captures(ALLOCATIONS, ctx.tree.root_node)
        found = [(n, decoded(n.text)) for n in caps.get("fn", []) if n.text in HEAP_FUNCTIONS]
        found += [(n, "new") for n in caps.get("new", [])] + [(n, "delete") for n in caps.get("delete", [])]
        for node, what in sorted(found, key=lambda item: item[0].start_byte):
            if parse.in_device_function(node):
                yield self.finding(ctx, node.start_byte, node.end_byte, MESSAGE.format(what=what))
