"""TF32 switches: `torch.backends.cuda.matmul.allow_tf32 = ...`, `torch.backends.cudnn.allow_tf32 = ...`, and
`torch.set_float32_matmul_precision("high" | "medium")`, which asks for TF32 (or bf16) matmuls.

Why (a note, kept as it is): on NVIDIA GPUs from Ampere on these make float32 matmuls and convolutions use TF32 tensor
cores, faster and less precise. ROCm builds of PyTorch accept the same switches, but what they do differs: float32
matmuls use a reduced-precision type (xf32) only through hipBLASLt on MI300-class GPUs (gfx942), and in the PyTorch
releases that added it only when `HIPBLASLT_ALLOW_TF32=1` is set in the environment; convolutions (MIOpen) and other
GPUs keep full float32. So the speed-up may not come, and results can differ from the NVIDIA run in either direction
(full precision where TF32 was assumed). Nothing to change for the code to run; check the numbers and the speed, and
set `HIPBLASLT_ALLOW_TF32=1` where the PyTorch in use reads it and TF32 is wanted on MI300.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Severity
from migrate.python.index import arguments, index, string_value
from migrate.rule import PythonRule, Invalid, Valid

SWITCHES = {"torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32"}
PRECISION = "torch.set_float32_matmul_precision"
NOTE = ("{what} is kept: on ROCm, float32 matmuls use a reduced-precision type only through hipBLASLt on MI300 "
        "(gfx942), in some PyTorch releases only with HIPBLASLT_ALLOW_TF32=1 set, and convolutions (MIOpen) and other "
        "GPUs stay full float32: speed and results may differ from the NVIDIA run")


class Tf32Switch(PythonRule):
    code = "PY017"
    severity = Severity.INFO
    fixable = False
    examples = [
        Valid("import torch\n\ntorch.set_float32_matmul_precision('highest')\nprint(torch.backends.cuda.matmul)\n"
              "torch.backends.cuda.matmul.allow_tf32 = False\n"),
        Invalid("import torch\n\n# TF32 on Ampere and newer: ~2x faster matmuls\n"
                "torch.backends.cuda.matmul.allow_tf32 = True\ntorch.backends.cudnn.allow_tf32 = True\n", line=4,
                message=NOTE.format(what="torch.backends.cuda.matmul.allow_tf32 = True")),
        Invalid("import torch\n\n\ndef setup(args):\n    torch.set_float32_matmul_precision(\"high\" if args.tf32 else "
                "\"highest\")\n    torch.set_float32_matmul_precision(\"medium\")\n", line=6),
    ]

    def check(self, ctx):
        if b"tf32" not in ctx.data and b"matmul_precision" not in ctx.data:  # cheap test first
            return
        idx = index(ctx)
        for target in idx.attributes:
            if target.attr.value != "allow_tf32" or not ctx.qualified_names(target) & SWITCHES:
                continue
            owner = idx.parent(target)
            statement = idx.parent(owner) if owner is not None else None
            if not isinstance(owner, cst.AssignTarget) or statement is None:
                continue
            if isinstance(statement.value, cst.Name) and statement.value.value == "False":
                continue  # full float32, as on ROCm
            start, end = ctx.byte_span(statement)
            yield self.finding(ctx, start, end, NOTE.format(what=ctx.text(start, end).strip()))
        for call in idx.calls:
            if PRECISION not in ctx.qualified_names(call.func):
                continue
            arg = arguments(call).get(0, "precision")
            if arg is None or string_value(arg.value) not in ("high", "medium"):
                continue
            start, end = ctx.byte_span(call)
            yield self.finding(ctx, start, end, NOTE.format(what=ctx.text(start, end)))
