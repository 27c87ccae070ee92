"""The process-group backend spelt `"rccl"`: `init_process_group(backend="rccl")`, its positional first
argument, `new_group(..., backend="rccl")` and the other `torch.distributed` calls that take `backend=`
(also one entry of a per-device string such as `"cpu:gloo,cuda:rccl"`).

Why: PyTorch on ROCm runs RCCL under the backend name `"nccl"`; no backend is registered as `"rccl"`, so
creating the group fails ("Invalid backend").

Fix (safe): `"rccl"` becomes `"nccl"` (same quotes; case kept as written: `"RCCL"` becomes `"NCCL"`).
Only string literals handed to `torch.distributed` as a backend are touched.
"""
from __future__ import annotations

import re

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.index import arguments, index, quoted, string_value
from migrate.rule import PythonRule, Invalid, Valid

# torch.distributed functions whose first positional argument is the backend
POSITIONAL = {"torch.distributed.init_process_group", "torch.distributed.Backend"}
MESSAGE = ("the 'rccl' backend does not exist: PyTorch on ROCm runs RCCL under the backend name 'nccl'")


class RcclBackend(PythonRule):
    code = "PY004"
    severity = Severity.ERROR
    feeds_other_rules = True  # the fixed text may be rewritten further (--portable, torch.cuda.amp)
    examples = [
        Valid("import torch.distributed as dist\ndist.init_process_group(backend='nccl')\nlib = 'rccl'\n"),
        Valid("def init_process_group(backend):\n    pass\n\ninit_process_group(backend='rccl')\n"),
        Invalid("import torch.distributed as dist\n\ndist.init_process_group(backend=\"rccl\", init_method='env://')\n",
                fixed="import torch.distributed as dist\n\ndist.init_process_group(backend=\"nccl\", "
                      "init_method='env://')\n", line=3, message=MESSAGE),
        Invalid("import torch\nfrom torch.distributed import init_process_group, new_group\n\n"
                "init_process_group('RCCL')\ng = new_group([0, 1], backend='cpu:gloo,cuda:rccl')\n",
                fixed="import torch\nfrom torch.distributed import init_process_group, new_group\n\n"
                      "init_process_group('NCCL')\ng = new_group([0, 1], backend='cpu:gloo,cuda:nccl')\n", line=4),
    ]

    def check(self, ctx):
        if not re.search(rb"(?i)rccl", ctx.data):  # cheap test first: most files never name it
            return
        for call in index(ctx).calls:
            names = {n for n in ctx.qualified_names(call.func) if n.startswith("torch.distributed.")}
            if not names:
                continue
            args = arguments(call)
            node = args.get(0 if names & POSITIONAL else None, "backend")
            if node is None:
                continue
            value = string_value(node.value)
            if value is None or not isinstance(node.value, cst.SimpleString):
                continue
            new = re.sub(r"\b(r)(ccl)\b", lambda m: ("n" if m.group(1) == "r" else "N") + m.group(2),
                         value, flags=re.IGNORECASE)
            if new == value:
                continue
            start, end = ctx.byte_span(node.value)
            yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, quoted(node.value, new))],
                               title="Use the 'nccl' backend")
