"""`torch.hip`: a namespace PyTorch does not have, however it is reached (`torch.hip.synchronize()`,
`import torch.hip`, `from torch import hip`, `from torch.hip import Stream`, `from torch.hip.amp import autocast`).

Why: ROCm builds of PyTorch keep the `torch.cuda` namespace (HIP runs behind it); `torch.hip` is a common
wrong port and fails with AttributeError or ModuleNotFoundError on every build.

Fix (safe): `hip` becomes `cuda` in the attribute or import. `from torch import hip` becomes
`from torch import cuda`, and every use of the local name `hip` bound by that import becomes `cuda` in the same
fix (unless the file binds `cuda` some other way: then the import becomes `from torch import cuda as hip`).
Strings and comments are never touched. Code reached through the rewritten import (`torch.cuda.amp`, for
instance) is looked at by the other PY rules on the next run.
"""
from __future__ import annotations

import re

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Edit, Severity
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

MESSAGE = "torch.hip does not exist: PyTorch on ROCm keeps the torch.cuda namespace"
TITLE = "Use torch.cuda"


class TorchHipNamespace(PythonRule):
    code = "PY001"
    severity = Severity.ERROR
    feeds_other_rules = True  # the fixed text may be rewritten further (--portable, torch.cuda.amp)
    examples = [
        Valid("import torch\ntorch.cuda.synchronize()\nname = 'torch.hip'  # torch.hip\n"),
        Valid("def f(torch):\n    return torch.hip.synchronize()\n"),
        Invalid("import torch\n\ntorch.hip.synchronize()\ns = torch.hip.Stream()\n",
                fixed="import torch\n\ntorch.cuda.synchronize()\ns = torch.cuda.Stream()\n", line=3,
                message=MESSAGE),
        Invalid("from torch import hip\n\nhip.synchronize()\nn = hip.device_count()\n",
                fixed="from torch import cuda\n\ncuda.synchronize()\nn = cuda.device_count()\n", line=1),
        Invalid("from torch import hip as gpu\nimport torch.hip\nfrom torch.hip import Stream\n\ngpu.synchronize()\n",
                fixed="from torch import cuda as gpu\nimport torch.cuda\nfrom torch.cuda import Stream\n\n"
                      "gpu.synchronize()\n", line=1),
        Invalid("from torch import hip\n\ncuda = 'gpu'\nhip.synchronize()\n",
                fixed="from torch import cuda as hip\n\ncuda = 'gpu'\nhip.synchronize()\n"),
    ]

    def check(self, ctx):
        if not re.search(rb"\bhip\b", ctx.data):  # cheap test first: torch.hip, from torch import hip
            return
        idx = index(ctx)
        done: set[int] = set()
        for node in idx.import_froms:
            yield from self._import_from(ctx, idx, node, done)
        for node in idx.imports:
            if isinstance(node.names, cst.ImportStar):
                continue
            for alias in node.names:
                yield from self._module_path(ctx, alias.name, done)
        for node in idx.attributes:
            if idx.inside_import(node) or node.attr.value != "hip":
                continue
            if "torch.hip" in ctx.qualified_names(node) and isinstance(node.value, cst.Name):
                yield from self._replace(ctx, node.attr, done)

    def _replace(self, ctx, name: cst.Name, done: set[int], extra: list[Edit] | None = None):
        start, end = ctx.byte_span(name)
        if start in done:
            return
        done.add(start)
        yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, "cuda"), *(extra or [])], title=TITLE)

    def _module_path(self, ctx, node: cst.BaseExpression, done: set[int]):
        """`torch.hip` or `torch.hip.x` in an import: the `hip` part."""
        full = get_full_name_for_node(node) or ""
        if full != "torch.hip" and not full.startswith("torch.hip."):
            return
        while isinstance(node, cst.Attribute) and get_full_name_for_node(node) != "torch.hip":
            node = node.value
        if isinstance(node, cst.Attribute):
            yield from self._replace(ctx, node.attr, done)

    def _import_from(self, ctx, idx, node: cst.ImportFrom, done: set[int]):
        if node.relative or node.module is None:
            return
        module = get_full_name_for_node(node.module)
        if module != "torch":
            yield from self._module_path(ctx, node.module, done)
            return
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            if not isinstance(alias.name, cst.Name) or alias.name.value != "hip":
                continue
            if alias.asname is not None:
                yield from self._replace(ctx, alias.name, done)
                continue
            uses = [n for n in idx.names if n.value == "hip" and not idx.inside_import(n)
                    and "torch.hip" in ctx.qualified_names(n)]
            if self._cuda_taken(ctx, idx):
                start, end = ctx.byte_span(alias.name)
                done.add(start)
                yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, "cuda as hip")], title=TITLE)
                continue
            edits = [Edit(*ctx.byte_span(n), "cuda") for n in uses]
            yield from self._replace(ctx, alias.name, done, edits)

    @staticmethod
    def _cuda_taken(ctx, idx) -> bool:
        """Does the file bind the name `cuda` to anything but torch.cuda?"""
        for n in idx.names:
            if n.value == "cuda" and getattr(idx.parent(n), "attr", None) is not n:
                if not ctx.qualified_names(n) <= {"torch.cuda"}:
                    return True
        return "cuda" in idx.assigned or "cuda" in idx.rebound
