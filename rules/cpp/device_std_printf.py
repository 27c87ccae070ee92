"""`std::printf` in device code: `printf`.

nvcc lets device code call `std::printf`, the standard library's, as if it were its own device `printf`. HIP's device
`printf` is declared in the global namespace only, so `std::printf` in a `__device__` or `__global__` function names
the host function and the build stops ("reference to __host__ function 'printf' in __device__ function";
nccl-tests' verifiable.cu). There it becomes `printf`, which prints the same from the device.
"""
import re

from migrate.cpp import parse
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

CALL = re.compile(rb"(?<![\w:])(::[ \t]*)?(std[ \t]*::[ \t]*)printf[ \t]*\(")
REPORT = ("__global__ void check(int got, int want) {\n"
          "    if (got != want) std::printf(\"%d != %d\\n\", got, want);\n}\n")


class DeviceStdPrintf(CppRule):
    code = "CPP072"
    examples = [
        Invalid(REPORT, line=2, fixed=REPORT.replace("std::printf", "printf"),
                message="HIP's device printf is not in namespace std: std::printf in device code names the host "
                        "function; printf prints from the device"),
        Valid('void host(int v) { std::printf("%d\\n", v); }\n'),
        Valid('__device__ void dev(int v) { printf("%d\\n", v); }\n'),
    ]

    def check(self, ctx):
        if b"printf" not in ctx.data:
            return
        for m in CALL.finditer(ctx.data):
            start = m.start(1) if m.group(1) else m.start(2)
            context, node, base = ctx.locate(m.start(2), m.start(2) + 3)
            if base or context not in (parse.Context.CODE, parse.Context.USER_SCOPE) or not parse.in_device_function(node):
                continue
            yield self.finding(ctx, start, m.end(2) + len(b"printf"),
                               "HIP's device printf is not in namespace std: std::printf in device code names the "
                               "host function; printf prints from the device",
                               edits=[Edit(start, m.end(2), "")], title="Write printf")
