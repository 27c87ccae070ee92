"""Dynamic parallelism: a kernel launch, or a launch-side runtime call, inside device code.

CUDA lets a `__global__` or `__device__` function launch kernels (`child<<<g, b>>>(...)`), wait for
them with `cudaDeviceSynchronize()` and make streams with `cudaStreamCreateWithFlags`, linking
cudadevrt with `-rdc=true`. HIP on AMD has no device-side launch at all: this does not build.
Restructure: launch the child work from the host, or fold it into the parent kernel (a loop, or a
persistent-threads queue). `__host__ __device__` functions are not flagged, since their calls are
usually meant for the host pass. No fix.
"""
import re

from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

CHEVRON = re.compile(rb"<<<")
DEVICE_RUNTIME = {"cudaDeviceSynchronize", "cudaStreamCreateWithFlags", "cudaLaunchDevice", "cudaGetParameterBuffer",
                  "cudaGraphLaunch", "cudaStreamDestroy", "cudaEventRecord"}
DEVICE_RUNTIME |= {"hip" + name[4:] for name in DEVICE_RUNTIME}  # already renamed: no better on AMD
ADVICE = "device-side launches (dynamic parallelism) are not supported on AMD: launch from the host instead"


def device_only_function(node):
    """The enclosing function when it is `__global__`, or `__device__` without `__host__`; else None."""
    while node is not None and node.type not in ("function_definition", "lambda_expression"):
        node = node.parent
    if node is None or node.type != "function_definition":
        return None
    marks = {c.type for c in node.children}
    if "__global__" in marks or ("__device__" in marks and "__host__" not in marks):
        return node
    return None


def function_name(fn) -> str:
    declarator = fn.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier", "field_identifier", "qualified_identifier"):
        declarator = declarator.child_by_field_name("declarator")
    return declarator.text.decode("utf-8", "surrogateescape") if declarator is not None else "?"


class DynamicParallelism(HazardRule):
    code = "HAZ011"
    severity = Severity.ERROR
    fixable = False
    examples = [
        Invalid("__global__ void child(int* d);\n__global__ void parent(int* d) {\n  child<<<1, 32>>>(d);\n}\n",
                line=3, message=f"kernel launch of child inside parent: {ADVICE}"),
        Invalid("__global__ void parent(int* d) { hipDeviceSynchronize(); }\n",
                message=f"hipDeviceSynchronize called inside parent: {ADVICE}"),
        Invalid("__device__ void spawn() { hipStream_t s; hipStreamCreateWithFlags(&s, hipStreamNonBlocking); }\n",
                message=f"hipStreamCreateWithFlags called inside spawn: {ADVICE}"),
        Valid("__global__ void child(int* d);\nvoid host(int* d) { child<<<1, 32>>>(d); hipDeviceSynchronize(); }\n"),
        Valid("__host__ __device__ void both() { hipDeviceSynchronize(); }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"__global__" not in data and b"__device__" not in data:
            return
        for m in CHEVRON.finditer(data):
            node = ctx.node_at(m.start(), m.end())
            config = node.parent if node.type == "<<<" else None
            call = config.parent if config is not None and config.type == "kernel_call_syntax" else None
            if call is None or call.type != "call_expression":
                continue
            fn = device_only_function(call)
            if fn is not None:
                callee = call.child_by_field_name("function")
                name = callee.text.decode("utf-8", "surrogateescape") if callee is not None else "a kernel"
                yield self.finding(ctx, call.start_byte, call.end_byte,
                                   f"kernel launch of {name} inside {function_name(fn)}: {ADVICE}")
        for token in ctx.code_tokens():
            if token.name not in DEVICE_RUNTIME or token.base or token.node is None:
                continue
            fn = device_only_function(token.node)
            if fn is not None:
                yield self.finding(ctx, token.start, token.end,
                                   f"{token.name} called inside {function_name(fn)}: {ADVICE}")
