"""nvcc named as the compiler in a Makefile.

`NVCC ?= nvcc`, `CC = nvcc`, `CUDA_HOME/bin/nvcc` and recipe lines that call nvcc directly become
hipcc, which compiles HIP for AMD GPUs (with `HIP_PLATFORM=amd` where nvcc is also installed). The
variable names are kept so the rest of the Makefile still works.

A Makefile that looks nvcc up on the PATH (`NVCC := $(shell which nvcc)`, `$(shell command -v nvcc)`,
`$(shell type -p nvcc 2>/dev/null)`, `$(shell where nvcc)`, or `$$(which nvcc)` inside a shell command) looks
hipcc up instead, anywhere in the file: otherwise the migrated build still runs nvcc, or finds none.
"""
import re

from migrate.model import Edit
from migrate.rule import MakeRule, Invalid, Valid

NVCC = re.compile(r"^(?:(?:\$[({][A-Za-z_]+[)}]|/[\w./-]*)/bin/)?nvcc$")
# a PATH lookup of nvcc by make's $(shell ...) or by the shell's $$(...) or `...`; group 1 is what names nvcc
LOOKUP = re.compile(rb"(?:\$[({]shell\s+|\$\$\(\s*|`\s*)(?:which|command\s+-v|type\s+-[pP]|where)\s+"
                    rb"((?:(?:\$[({][A-Za-z_]+[)}]|/[\w./-]*)/bin/)?nvcc)(?=[\s)}`]|$)")


def call_end(data: bytes, start: int, end: int) -> int:
    """Where the `$(...)`, `${...}`, `$$(...)` or backquoted command at `start` ends (at most `end`)."""
    if data[start:start + 1] == b"`":
        close = data.find(b"`", start + 1, end)
        return end if close < 0 else close + 1
    i = start + (2 if data[start:start + 2] == b"$$" else 1)
    opening, depth = data[i:i + 1], 0
    closing = b")" if opening == b"(" else b"}"
    for k in range(i, end):
        if data[k:k + 1] == opening:
            depth += 1
        elif data[k:k + 1] == closing:
            depth -= 1
            if depth == 0:
                return k + 1
    return end


class NvccCompiler(MakeRule):
    code = "BLD101"
    examples = [
        Invalid("NVCC ?= nvcc\n", fixed="NVCC ?= hipcc\n", line=1),
        Invalid("NVCC := $(CUDA_HOME)/bin/nvcc\n", fixed="NVCC := hipcc\n"),
        Invalid("all:\n\tnvcc -O2 -o app app.cu\n", fixed="all:\n\thipcc -O2 -o app app.cu\n", line=2),
        Invalid("NVCC := $(shell which nvcc)\n", fixed="NVCC := $(shell which hipcc)\n", line=1,
                message="$(shell which nvcc) looks up NVIDIA's compiler: hipcc compiles HIP for AMD GPUs"),
        Invalid("NVCC ?= $(shell command -v nvcc)\nCUDA_BIN = $(dir ${shell type -p nvcc 2>/dev/null})\n",
                fixed="NVCC ?= $(shell command -v hipcc)\nCUDA_BIN = $(dir ${shell type -p hipcc 2>/dev/null})\n"),
        Invalid("ifeq ($(shell which $(CUDA_HOME)/bin/nvcc 2>/dev/null),)\n$(error nvcc not found)\nendif\n",
                fixed="ifeq ($(shell which hipcc 2>/dev/null),)\n$(error nvcc not found)\nendif\n"),
        Invalid("CUDA_HOME = $(shell dirname $$(dirname $$(which nvcc)))\n",
                fixed="CUDA_HOME = $(shell dirname $$(dirname $$(which hipcc)))\n"),
        Valid("NVCC ?= hipcc\n"),
        Valid("NVCC := $(shell which hipcc)\nHAVE := $(shell which nvcc-wrapper)\n# NVCC := $(shell which nvcc)\n"),
        Valid("# NVCC ?= nvcc\nCXX = g++\n"),
        Valid("NVCC_FLAGS = -O2\n"),
    ]

    def check(self, ctx):
        for line in ctx.lines:
            for word in line.words:
                for m in LOOKUP.finditer(ctx.data, word.start, word.end):
                    end = call_end(ctx.data, m.start(), word.end)
                    yield self.finding(ctx, m.start(), end, f"{ctx.text(m.start(), end)} looks up NVIDIA's compiler: "
                                       "hipcc compiles HIP for AMD GPUs", edits=[Edit(m.start(1), m.end(1), "hipcc")],
                                       title="Look up hipcc")
            if line.kind not in ("assign", "recipe"):
                continue
            for word in line.words[:1] if line.kind == "recipe" else line.words:
                if NVCC.match(word.text):
                    yield self.finding(ctx, word.start, word.end, f"'{word.text}' is NVIDIA's compiler: hipcc "
                                       "compiles HIP for AMD GPUs", edits=[Edit(word.start, word.end, "hipcc")],
                                       title="Use hipcc")
