"""`HIPExtension` from `torch.utils.cpp_extension`: a class PyTorch does not have (`from
torch.utils.cpp_extension import HIPExtension`, `cpp_extension.HIPExtension(...)`, a use after
`from torch.utils.cpp_extension import *`).

Why: on ROCm, PyTorch builds a `CUDAExtension` with hipcc (hipifying its sources on the way) and still reads
the `'nvcc'` key of `extra_compile_args`; `HIPExtension` is a wrong port that fails with ImportError or
AttributeError.

Fix (safe): `HIPExtension` becomes `CUDAExtension`, in the import and at every use bound by it (an alias
`import ... HIPExtension as Ext` keeps its uses). The nvcc options inside are BLD201's business.
"""
from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Edit, Severity
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

MODULE = "torch.utils.cpp_extension"
MESSAGE = ("HIPExtension does not exist: PyTorch on ROCm builds a CUDAExtension with hipcc (the 'nvcc' options "
           "included)")
TITLE = "Use CUDAExtension"


class HipExtension(PythonRule):
    code = "PY002"
    severity = Severity.ERROR
    feeds_other_rules = True  # the fixed text may be rewritten further (--portable, torch.cuda.amp)
    example_path = "setup.py"
    examples = [
        Valid("from torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension('k', ['k.cu'])\n"),
        Valid("class HIPExtension:\n    pass\n\next = HIPExtension()\n"),
        Invalid("from torch.utils.cpp_extension import BuildExtension, HIPExtension\n\n"
                "ext = HIPExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3']})\n",
                fixed="from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n"
                      "ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3']})\n",
                line=1, message=MESSAGE),
        Invalid("import torch.utils.cpp_extension as ce\n\next = ce.HIPExtension(name='k', sources=['k.cu'])\n",
                fixed="import torch.utils.cpp_extension as ce\n\next = ce.CUDAExtension(name='k', sources=['k.cu'])\n",
                line=3),
        Invalid("from torch.utils.cpp_extension import *\n\next = HIPExtension('k', ['k.cu'])\n",
                fixed="from torch.utils.cpp_extension import *\n\next = CUDAExtension('k', ['k.cu'])\n"),
        Invalid("from torch.utils.cpp_extension import HIPExtension as Ext\n\next = Ext('k', ['k.cu'])\n",
                fixed="from torch.utils.cpp_extension import CUDAExtension as Ext\n\next = Ext('k', ['k.cu'])\n"),
    ]

    def check(self, ctx):
        if b"HIPExtension" not in ctx.data:  # cheap test first: most files never name it
            return
        idx = index(ctx)
        star = False
        for node in idx.import_froms:
            if node.relative or node.module is None or get_full_name_for_node(node.module) != MODULE:
                continue
            if isinstance(node.names, cst.ImportStar):
                star = True
                continue
            for alias in node.names:
                if not isinstance(alias.name, cst.Name) or alias.name.value != "HIPExtension":
                    continue
                start, end = ctx.byte_span(alias.name)
                edits = [Edit(start, end, "CUDAExtension")]
                if alias.asname is None:
                    edits += [Edit(*ctx.byte_span(n), "CUDAExtension") for n in idx.names
                              if n.value == "HIPExtension" and not idx.inside_import(n)
                              and f"{MODULE}.HIPExtension" in ctx.qualified_names(n)]
                yield self.finding(ctx, start, end, MESSAGE, edits=edits, title=TITLE)
        for node in idx.attributes:
            if node.attr.value == "HIPExtension" and f"{MODULE}.HIPExtension" in ctx.qualified_names(node):
                start, end = ctx.byte_span(node.attr)
                yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, "CUDAExtension")], title=TITLE)
        if star and "HIPExtension" not in idx.assigned and "HIPExtension" not in idx.rebound:
            for n in idx.names:
                if n.value == "HIPExtension" and not ctx.qualified_names(n) - {"HIPExtension"} \
                        and getattr(idx.parent(n), "attr", None) is not n:
                    start, end = ctx.byte_span(n)
                    yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, "CUDAExtension")],
                                       title=TITLE)
