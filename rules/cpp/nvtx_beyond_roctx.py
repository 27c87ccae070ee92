"""NVTX beyond what roctx has: attributed ranges and marks, domains, naming calls, NVTX3's `scoped_range`.

The packs rename NVTX's plain calls to roctx's (`nvtxRangePushA` -> `roctxRangePushA`, `nvtxRangePop` ->
`roctxRangePop`, `nvtxMarkA` -> `roctxMarkA`, ...) and its headers to roctracer/roctx.h. roctx has nothing more: no
event attributes (colour, category, payload), no domains, no thread or category names, no C++ API. Code that uses
them (NVIDIA's PUSH_RANGE macro with an `nvtxEventAttributes_t` of an ARGB colour, `nvtx3::scoped_range` in C++
trainers) gets, after its NVTX include (which CPP001 makes the roctx one), a block that declares those names on roctx
(migrate/cpp/nvtx_shim.py): the message reaches roctx's ranges and marks; colour, category and payload are dropped;
domains and names are accepted and ignored. Once a file: a file that already has the block, or declares those
names itself, is left alone. The link library, -lnvToolsExt -> -lroctx64, is the build rules' (BLD).
"""
import re

from migrate.cpp import nvtx_shim
from migrate.cpp.includes import includes
from migrate.cpp.parse import Context, in_other_directive
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

USED = re.compile(rb"(?<![\w:])(" + "|".join(nvtx_shim.NAMES).encode() + rb")\b")
NVTX_HEADER = re.compile(r"(?:nvtx3/)?(?:nvToolsExt\w*|nvtx3)(?:\.h|\.hpp)?|roctracer/roctx\.h")  # fullmatch

PUSH_RANGE = ("#include <nvtx3/nvToolsExt.h>\n"
              "void push_range(const char* name, unsigned int color) {\n"
              "    nvtxEventAttributes_t a = {0};\n    a.version = NVTX_VERSION;\n"
              "    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;\n    a.colorType = NVTX_COLOR_ARGB;\n    a.color = color;\n"
              "    a.messageType = NVTX_MESSAGE_TYPE_ASCII;\n    a.message.ascii = name;\n    nvtxRangePushEx(&a);\n}\n")


class NvtxBeyondRoctx(CppRule):
    code = "CPP025"
    examples = [
        Invalid(PUSH_RANGE, fixed=PUSH_RANGE.replace("#include <nvtx3/nvToolsExt.h>\n",
                                                     "#include <nvtx3/nvToolsExt.h>\n" + nvtx_shim.block() + "\n"),
                line=3, message="nvtxEventAttributes_t has no roctx counterpart: NVTX's attributed ranges, domains and "
                                "names are declared on roctx after the include (the message is kept; colour, category "
                                "and payload are dropped)"),
        Invalid("#include <nvtx3/nvtx3.hpp>\nvoid step() { nvtx3::scoped_range r{\"step\"}; }\n",
                fixed="#include <nvtx3/nvtx3.hpp>\n" + nvtx_shim.block() + "\nvoid step() { nvtx3::scoped_range "
                      "r{\"step\"}; }\n"),
        Valid("#include <nvtx3/nvToolsExt.h>\nvoid f() { nvtxRangePushA(\"a\"); nvtxRangePop(); }\n"),
        Valid("#include <roctracer/roctx.h>\n" + nvtx_shim.block() + "\nvoid g(nvtxEventAttributes_t* a) "
              "{ nvtxRangePushEx(a); }\n"),
        Valid("// nvtxRangePushEx(&attr) in a comment\nconst char* s = \"nvtxEventAttributes_t\";\n"),
        # NVTX's other headers are NVTX headers too (all become roctx's: a second run must find the same one)
        Invalid(PUSH_RANGE.replace("nvToolsExt.h", "nvToolsExtCudaRt.h"),
                fixed=PUSH_RANGE.replace("#include <nvtx3/nvToolsExt.h>\n", "#include <nvtx3/nvToolsExtCudaRt.h>\n"
                                         + nvtx_shim.block() + "\n"), line=3),
        # the text of a directive that is not a #define (a mistyped #include) uses nothing
        Valid("#includ nvtx3 <nvtx3/nvToolsExt.h>\n#include <nvtx3/nvToolsExtCudaRt.h>\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"nvtx" not in data or nvtx_shim.MARKER.encode() in data:
            return
        used = next((m for m in USED.finditer(data)
                     if ctx.locate(m.start(1), m.end(1))[0] in (Context.CODE, Context.MACRO, Context.USER_SCOPE)
                     and not in_other_directive(ctx.node_at(m.start(1), m.end(1)))), None)
        if used is None or re.search(rb"\b(?:struct|typedef)\b[^;{]*\bnvtxEventAttributes", data):
            return
        header = next((m for m, name in includes(ctx) if NVTX_HEADER.fullmatch(name)), None)
        name = used.group(1).decode()
        message = (f"{name} has no roctx counterpart: NVTX's attributed ranges, domains and names are declared on roctx "
                   "after the include (the message is kept; colour, category and payload are dropped)")
        if header is None:
            yield self.finding(ctx, used.start(1), used.end(1), message + "; this file includes no NVTX header: add "
                               "the block of migrate/cpp/nvtx_shim.py where its NVTX header is included",
                               severity=Severity.WARNING)
            return
        nl = ctx.newline
        at = header.end()
        insert = f"{nvtx_shim.block(nl)}{nl}" if header.group().endswith(b"\n") else f"{nl}{nvtx_shim.block(nl)}"
        yield self.finding(ctx, used.start(1), used.end(1), message, severity=Severity.INFO,
                           edits=[Edit(at, at, insert)], title="Declare NVTX's richer API on roctx")
