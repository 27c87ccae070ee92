"""A host call of a C library function that nvcc's implicit headers declared and HIP's leave to the standard header.

nvcc includes `cuda_runtime.h` in every file, and it brings `<string.h>` and `<math.h>` with it, so CUDA code
calls `memset` or `isfinite` from host code without including them. HIP's headers declare these only as device
functions: host calls then fail with "no matching function for call to 'memset'" or "use of undeclared
identifier 'strlen'". Checked with hipcc for gfx942: the string functions fail with HIP 7.2 (6.4 still declared
them), `isfinite`, `isnan`, `isinf` and `signbit` fail with both; `<math.h>` declares the global ones, `<cmath>`
does not (libstdc++ puts them in `std::` only), so a file that includes `<cmath>` still needs it (HeCBench's qkv);
`<cstring>` declares the global string functions. Device code is left alone (they are device functions there), and
so are `std::`-qualified calls, member calls and calls in macro bodies. The fix includes the C header once, after
the file's runtime include (else before its first include).
"""
import re

from migrate.cpp.parse import Context
from migrate.cpp.runtime_use import RUNTIME_HEADERS, hip_includes, needs_runtime
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# C header -> (the C++ header that declares the same global names too, or None; the names)
HEADERS = {
    "string.h": ("cstring", "memset memcpy memmove memcmp memchr strlen strcmp strncmp strcpy strncpy strcat strncat "
                            "strchr strrchr strstr strtok strerror strdup"),
    "math.h": (None, "isfinite isnan isinf isnormal signbit fpclassify"),
}
HEADER_OF = {name: header for header, (_, names) in HEADERS.items() for name in names.split()}
NAMES = re.compile(rb"(?<![\w$])(" + "|".join(HEADER_OF).encode() + rb")\s*\(")
DEVICE_QUALIFIER = re.compile(rb"(?<![\w$])(?:__device__|__global__)(?![\w$])")


def device_function(node) -> bool:
    """Is the node inside a function (or lambda) declared __device__ or __global__?"""
    while node is not None:
        if node.type in ("function_definition", "lambda_expression"):
            body = node.child_by_field_name("body")
            head = node.text[:body.start_byte - node.start_byte] if body is not None else node.text
            if DEVICE_QUALIFIER.search(head):
                return True
        node = node.parent
    return False


def host_calls(ctx):
    """(name, start, end, header) of each host call of a name in HEADER_OF."""
    data = ctx.data
    for m in NAMES.finditer(data):
        start, end = m.span(1)
        if data[max(0, start - 64):start].rstrip().endswith((b".", b"->", b"::")):
            continue
        context, node, _ = ctx.locate(start, end)
        if context is Context.CODE and not device_function(node):
            name = m.group(1).decode("ascii")
            yield name, start, end, HEADER_OF[name]


class HostCallWithoutStandardHeader(CppRule):
    code = "CPP042"
    phase = 1
    examples = [
        Invalid("#include <cuda_runtime.h>\nvoid f(char* p) { memset(p, 0, 4); }\n",
                fixed="#include <cuda_runtime.h>\n#include <string.h>\nvoid f(char* p) { memset(p, 0, 4); }\n",
                line=2, message="host call of `memset`, which HIP's headers declare for device code only: "
                                "include <string.h>"),
        Invalid("#include <cuda_runtime.h>\n#include <stdio.h>\nbool ok(float x) { return isfinite(x) && !isnan(x); }\n"
                "int n(const char* s) { return strlen(s); }\n",
                fixed="#include <cuda_runtime.h>\n#include <math.h>\n#include <string.h>\n#include <stdio.h>\n"
                      "bool ok(float x) { return isfinite(x) && !isnan(x); }\nint n(const char* s) { return strlen(s); }\n",
                line=3),
        # no runtime include yet (CPP002 adds one before the first include): the header goes before the first include
        Invalid("#include <stdio.h>\n__global__ void k() {}\nvoid f(char* p) { memcpy(p, p + 1, 1); }\n",
                fixed="#include <string.h>\n#include <stdio.h>\n__global__ void k() {}\n"
                      "void f(char* p) { memcpy(p, p + 1, 1); }\n",
                line=3),
        Valid("#include <cuda_runtime.h>\n#include <cstring>\nvoid f(char* p) { memset(p, 0, 4); }\n"),
        Valid("#include <cuda_runtime.h>\n#include <math.h>\nbool ok(float x) { return isfinite(x); }\n"),
        Invalid("#include <cmath>\n#include <cuda_runtime.h>\ntemplate <class T> bool ok(T x) { return isfinite(x); }\n",
                fixed="#include <cmath>\n#include <cuda_runtime.h>\n#include <math.h>\n"
                      "template <class T> bool ok(T x) { return isfinite(x); }\n", line=3),
        # device code: HIP declares them there
        Valid("#include <cuda_runtime.h>\n__global__ void k(float* x) { if (!isfinite(x[0])) x[0] = 0; }\n"
              "__device__ void z(char* p) { memset(p, 0, 4); }\n"),
        # std:: and member calls, and names in comments or strings
        Valid("#include <cuda_runtime.h>\n#include <cmath>\nbool ok(float x) { return std::isfinite(x); }\n"
              "struct B { void memset(int); };\nvoid g(B& b) { b.memset(0); } // memset(p)\n"
              'const char* s = "strlen(x)";\n'),
    ]

    def check(self, ctx):
        order = hip_includes(ctx)
        named = {name for _, name in order}
        runtime = next((m for m, name in order if name in RUNTIME_HEADERS), None)
        if runtime is None and not needs_runtime(ctx):
            return
        first = {}
        for name, start, end, header in host_calls(ctx):
            if header not in named and (HEADERS[header][0] is None or HEADERS[header][0] not in named):
                first.setdefault(header, (start, end, name))
        if not first:
            return
        if runtime is not None:
            at = runtime.end() if runtime.group(3) else len(ctx.data)
            lead = "" if runtime.group(3) else ctx.newline
        else:
            at = order[0][0].start() if order else 0
            lead = ""
        text = lead + "".join(f"#include <{header}>{ctx.newline}" for header in sorted(first))
        start, end, name = min(first.values())
        yield self.finding(ctx, start, end,
                           f"host call of `{name}`, which HIP's headers declare for device code only: "
                           f"include {', '.join(f'<{h}>' for h in sorted(first))}",
                           edits=[Edit(at, at, text)], title="Include the standard header")
