"""`cudaSharedmemCarveoutDefault`, `cudaSharedmemCarveoutMaxL1` and `cudaSharedmemCarveoutMaxShared`, which HIP lacks:
written as the numbers they stand for.

The carveout attribute (`cudaFuncAttributePreferredSharedMemoryCarveout`, HIP's
`hipFuncAttributePreferredSharedMemoryCarveout`) takes the percentage of the unified L1/shared storage to give to
shared memory, an int; CUDA names three values of it: -1 (the default), 0 (the most L1) and 100 (the most shared
memory). HIP takes the same int but names none of them, so each becomes its number, with the CUDA name in a comment.
On AMD GPUs shared memory (LDS) and L1 are separate, and the hint changes nothing.
"""
import re

from migrate.cpp.carveout import VALUES
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

NAME = re.compile(rb"(?<![\w:.>])(cudaSharedmemCarveout(?:Default|MaxL1|MaxShared))\b")
CALL = ("__global__ void k() {}\nvoid carve() {\n    cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,\n"
        "                         cudaSharedmemCarveoutMaxShared);\n}\n")


class CarveoutValue(CppRule):
    code = "CPP069"
    examples = [
        Invalid(CALL, line=4,
                fixed=CALL.replace("cudaFuncSetAttribute", "hipFuncSetAttribute")
                .replace("cudaFuncAttributePreferredSharedMemoryCarveout", "hipFuncAttributePreferredSharedMemoryCarveout")
                .replace("cudaSharedmemCarveoutMaxShared", "100 /* cudaSharedmemCarveoutMaxShared */"),
                message="HIP names no carveout value: cudaSharedmemCarveoutMaxShared is the percentage 100, which "
                        "hipFuncAttributePreferredSharedMemoryCarveout takes as it is"),
        Valid("int carve = 100 /* cudaSharedmemCarveoutMaxShared */;\n"),
        Valid("enum { mySharedmemCarveoutMaxShared = 3 };\nint c = mySharedmemCarveoutMaxShared;\n"),
    ]

    def check(self, ctx):
        if b"cudaSharedmemCarveout" not in ctx.data:
            return
        for m, token in ctx.code_matches(NAME):
            name = token.name
            value = VALUES[name]
            yield self.finding(ctx, m.start(1), m.end(1), f"HIP names no carveout value: {name} is the percentage "
                               f"{value}, which hipFuncAttributePreferredSharedMemoryCarveout takes as it is",
                               edits=[Edit(m.start(1), m.end(1), f"{value} /* {name} */")], title=f"Write {value}")
