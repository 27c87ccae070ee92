"""The `"nccl"` process-group backend: `init_process_group("nccl")`, `init_process_group(backend="nccl")`,
`new_group(..., backend="nccl")`, `new_subgroups(..., backend=...)`, `new_subgroups_by_enumeration(...,
backend=...)` (positional or keyword, however `torch.distributed` is imported), and `Backend.NCCL` passed there.

Why: nothing to change for ROCm. PyTorch on ROCm runs RCCL, AMD's NCCL, under the backend name `"nccl"`, and RCCL
reads the `NCCL_*` environment variables; the finding (INFO) says so in the report, so that nobody "ports" it to
`"rccl"` (a name PyTorch does not know).

With `--portable`: a hard-coded `"nccl"` only fits CUDA and ROCm GPUs. The literal becomes
`<dist>.get_default_backend_for_device(<torch>.accelerator.current_accelerator())`, which gives `"nccl"` on CUDA and
ROCm builds and the registered backend of any other accelerator (`"xccl"` on XPU); it needs torch 2.6 or newer.
`<dist>` is the name the call already uses for `torch.distributed` (`dist.init_process_group` → `dist.`), else
`<torch>.distributed`; `<torch>` is the file's own name for `torch`. Fix safety: safe under `--portable` (the same
backend on the GPUs the code ran on). A file with no top-level `import torch` (only `import torch.distributed as
dist`, say) is reported without a fix; strings naming several backends (`"cpu:gloo,cuda:nccl"`) too.
"""
from __future__ import annotations

import re

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.index import arguments, index, module_alias, string_value
from migrate.rule import PythonRule, Invalid, Valid

# function → position of its `backend` parameter
BACKEND_POSITION = {
    "torch.distributed.init_process_group": 0,
    "torch.distributed.new_group": 2,
    "torch.distributed.new_subgroups": 3,
    "torch.distributed.new_subgroups_by_enumeration": 2,
}
KEEP = "backend 'nccl' stays: PyTorch on ROCm runs RCCL under the name 'nccl' (and RCCL reads the NCCL_* variables)"
PORTABLE = ("backend 'nccl' is hard-coded; --portable: get_default_backend_for_device(current_accelerator()) "
            "gives 'nccl' on CUDA and ROCm and the right backend on other accelerators")


class NcclBackend(PythonRule):
    code = "PY008"
    severity = Severity.INFO
    examples = [
        Valid("import torch.distributed as dist\ndist.init_process_group(backend='gloo')\nname = 'nccl'\n"),
        Valid("import torch.distributed as dist\ndist.new_group([0], backend='cpu:gloo')\n"),
        Valid("import torch\nimport torch.distributed as dist\n\ndist.init_process_group()\n",
              options=(("portable", True),)),
        Invalid("import torch.distributed as dist\n\ndist.init_process_group(backend='nccl', init_method='env://')\n",
                line=3, message=KEEP),
        Invalid("import torch\nimport torch.distributed as dist\n\ndist.init_process_group('nccl')\n"
                "group = dist.new_group([0, 1], backend=dist.Backend.NCCL)\n",
                fixed="import torch\nimport torch.distributed as dist\n\n"
                      "dist.init_process_group(dist.get_default_backend_for_device("
                      "torch.accelerator.current_accelerator()))\n"
                      "group = dist.new_group([0, 1], backend=dist.get_default_backend_for_device("
                      "torch.accelerator.current_accelerator()))\n",
                line=4, message=PORTABLE, options=(("portable", True),)),
        Invalid("import torch\nfrom torch.distributed import init_process_group\n\n"
                "init_process_group(backend=\"nccl\")\n",
                fixed="import torch\nfrom torch.distributed import init_process_group\n\n"
                      "init_process_group(backend=torch.distributed.get_default_backend_for_device("
                      "torch.accelerator.current_accelerator()))\n",
                options=(("portable", True),)),
        Invalid("import torch.distributed as dist\n\ndist.init_process_group(backend='nccl')\n", line=3,
                options=(("portable", True),),
                message="backend 'nccl' is hard-coded; --portable: get_default_backend_for_device(current_accelerator())"
                        " gives 'nccl' on CUDA and ROCm and the right backend on other accelerators (not rewritten: "
                        "the file does not import torch itself)"),
        Invalid("import torch\nimport torch.distributed as dist\n\ndist.init_process_group('cpu:gloo,cuda:nccl')\n",
                line=4, options=(("portable", True),)),
    ]

    def check(self, ctx):
        if not re.search(rb"(?i)nccl", ctx.data):  # cheap test first: most files never name it
            return
        torch = module_alias(ctx, "torch")
        for call in index(ctx).calls:
            name = next((n for n in ctx.qualified_names(call.func) if n in BACKEND_POSITION), None)
            if name is None:
                continue
            arg = arguments(call).get(BACKEND_POSITION[name], "backend")
            kind = self._nccl(ctx, arg.value) if arg is not None else None
            if kind is None:
                continue
            start, end = ctx.byte_span(arg.value)
            if not ctx.options.portable:
                yield self.finding(ctx, start, end, KEEP)
                continue
            if kind == "mixed":
                yield self.finding(ctx, start, end, f"{PORTABLE} (not rewritten: the string names several backends)")
                continue
            if torch is None:
                yield self.finding(ctx, start, end, f"{PORTABLE} (not rewritten: the file does not import torch itself)")
                continue
            if isinstance(call.func, cst.Attribute):
                dist = ctx.text(*ctx.byte_span(call.func.value))
            else:
                dist = f"{torch}.distributed"
            new = f"{dist}.get_default_backend_for_device({torch}.accelerator.current_accelerator())"
            yield self.finding(ctx, start, end, PORTABLE, edits=[Edit(start, end, new)],
                               title="Use the current accelerator's default backend")

    @staticmethod
    def _nccl(ctx, node: cst.BaseExpression) -> str | None:
        """"only" for the nccl backend alone, "mixed" for "cpu:gloo,cuda:nccl", None otherwise."""
        value = string_value(node)
        if value is not None:
            if value.lower() == "nccl":
                return "only"
            parts = [p.partition(":")[2].strip().lower() for p in value.split(",")]
            return "mixed" if ":" in value and "nccl" in parts else None
        if isinstance(node, cst.Attribute) and "torch.distributed.Backend.NCCL" in ctx.qualified_names(node):
            return "only"
        return None
