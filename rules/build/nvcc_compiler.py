"""nvcc named as the compiler in a Makefile.

`NVCC ?= nvcc`, `CC = nvcc`, `CUDA_HOME/bin/nvcc` and recipe lines that call nvcc directly become
hipcc, which compiles HIP for AMD GPUs (with `HIP_PLATFORM=amd` where nvcc is also installed). The
variable names are kept so the rest of the Makefile still works.
"""
import re

from migrate.model import Edit, RuleKind
from migrate.rule import FileRule, Invalid, Valid

NVCC = re.compile(r"^(?:(?:\$[({][A-Za-z_]+[)}]|/[\w./-]*)/bin/)?nvcc$")


class NvccCompiler(FileRule):
    code = "BLD101"
    kind = RuleKind.BUILD
    file_kind = "make"
    example_path = "Makefile"
    examples = [
        Invalid("NVCC ?= nvcc\n", fixed="NVCC ?= hipcc\n", line=1),
        Invalid("NVCC := $(CUDA_HOME)/bin/nvcc\n", fixed="NVCC := hipcc\n"),
        Invalid("all:\n\tnvcc -O2 -o app app.cu\n", fixed="all:\n\thipcc -O2 -o app app.cu\n", line=2),
        Valid("NVCC ?= hipcc\n"),
        Valid("# NVCC ?= nvcc\nCXX = g++\n"),
        Valid("NVCC_FLAGS = -O2\n"),
    ]

    def check(self, ctx):
        for line in ctx.lines:
            if line.kind not in ("assign", "recipe"):
                continue
            for word in line.words[:1] if line.kind == "recipe" else line.words:
                if NVCC.match(word.text):
                    yield self.finding(ctx, word.start, word.end, f"'{word.text}' is NVIDIA's compiler: hipcc "
                                       "compiles HIP for AMD GPUs", edits=[Edit(word.start, word.end, "hipcc")],
                                       title="Use hipcc")
