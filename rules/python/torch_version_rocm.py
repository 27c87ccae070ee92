"""`torch.version.rocm`: an attribute PyTorch does not have (`if torch.version.rocm:`, `print(torch.version.rocm)`,
`from torch.version import rocm`), a wrong port of `torch.version.cuda`.

Why: ROCm builds of PyTorch put the HIP version in `torch.version.hip` (e.g. `"6.2.41133-dd7f95766"`) and leave
`torch.version.cuda` None; `torch.version.rocm` raises AttributeError on every build, ROCm included.

Fix (safe): `rocm` becomes `hip`, in the attribute or the import (`from torch.version import rocm as v` keeps its
local name); `getattr(torch.version, "rocm", None)` and `hasattr(torch.version, "rocm")`, always None and False,
become `torch.version.hip` and `torch.version.hip is not None`.
"""
from __future__ import annotations

import re

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Edit, Severity
from migrate.python.index import arguments, index, string_value
from migrate.rule import PythonRule, Invalid, Valid

MESSAGE = ("torch.version.rocm does not exist (AttributeError on every build): ROCm builds of PyTorch give the HIP "
           "version as torch.version.hip")


class TorchVersionRocm(PythonRule):
    code = "PY014"
    severity = Severity.ERROR
    example_path = "env_info.py"
    examples = [
        Valid("import torch\nprint(torch.version.hip, torch.version.cuda)\nrocm = 'rocm'\n"),
        Valid("def f(torch):\n    return torch.version.rocm\n"),
        Invalid("import torch\n\nif torch.version.rocm:\n    print(\"ROCm\", torch.version.rocm)\n",
                fixed="import torch\n\nif torch.version.hip:\n    print(\"ROCm\", torch.version.hip)\n", line=3,
                message=MESSAGE),
        Invalid("from torch.version import rocm as rocm_version\nimport torch as th\n\nIS_ROCM = th.version.rocm is not None\n",
                fixed="from torch.version import hip as rocm_version\nimport torch as th\n\n"
                      "IS_ROCM = th.version.hip is not None\n", line=1),
        # the owner written over two lines (a comment between): the brackets that held it together stay
        Invalid("import torch\n\nif hasattr(torch  # the module\n    .version, 'rocm'):\n    pass\n",
                fixed="import torch\n\nif (torch  # the module\n    .version.hip is not None):\n    pass\n", line=3),
        # a call written against the next word (legal Python) is replaced by a name: a space keeps them apart
        Invalid("import torch\n\nIS_ROCM = getattr(torch.version, 'rocm', None)is not None\n",
                fixed="import torch\n\nIS_ROCM = torch.version.hip is not None\n", line=3),
        Invalid("import torch\n\nif hasattr(torch.version, 'rocm'):\n    pass\nok = not hasattr(torch.version, 'rocm')\n",
                fixed="import torch\n\nif torch.version.hip is not None:\n    pass\n"
                      "ok = not (torch.version.hip is not None)\n"),
        Invalid("import torch\n\nIS_ROCM = getattr(torch.version, 'rocm', None) is not None\n",
                fixed="import torch\n\nIS_ROCM = torch.version.hip is not None\n", line=3,
                message="getattr(torch.version, 'rocm', None) is always None: ROCm builds of PyTorch give the HIP "
                        "version as torch.version.hip"),
    ]

    def check(self, ctx):
        if not re.search(rb"\brocm\b", ctx.data):  # cheap test first
            return
        idx = index(ctx)
        for node in idx.import_froms:
            if node.relative or node.module is None or get_full_name_for_node(node.module) != "torch.version" \
                    or isinstance(node.names, cst.ImportStar):
                continue
            for alias in node.names:
                if isinstance(alias.name, cst.Name) and alias.name.value == "rocm":
                    start, end = ctx.byte_span(alias.name)
                    new = "hip" if alias.asname is not None else "hip as rocm"
                    yield self.finding(ctx, start, end, MESSAGE, edits=[Edit(start, end, new)],
                                       title="Use torch.version.hip")
        for node in idx.attributes:
            if node.attr.value != "rocm" or idx.inside_import(node):
                continue
            if "torch.version.rocm" in ctx.qualified_names(node):
                start, end = ctx.byte_span(node.attr)
                yield self.finding(ctx, *ctx.byte_span(node), MESSAGE, edits=[Edit(start, end, "hip")],
                                   title="Use torch.version.hip")
        for call in idx.calls:
            if not ctx.qualified_names(call.func) & {"builtins.getattr", "builtins.hasattr"}:
                continue
            args = arguments(call)
            owner, attribute = args.get(0, ""), args.get(1, "")
            if owner is None or attribute is None or string_value(attribute.value) != "rocm":
                continue
            if "torch.version" not in ctx.qualified_names(owner.value):
                continue
            start, end = ctx.byte_span(call)
            getter = "builtins.getattr" in ctx.qualified_names(call.func)
            default = arguments(call).get(2, "")
            version = ctx.text(*ctx.byte_span(owner.value))
            if getter and default is not None and not (isinstance(default.value, cst.Name)
                                                       and default.value.value == "None"):
                new = None  # another default: `torch.version.hip or <default>` may not be what is meant
            else:
                new = f"{version}.hip" if getter else f"{version}.hip is not None"
                # a line break in the owner's text holds only inside the call's brackets: keep it inside some
                if "\n" in version or not getter and not isinstance(idx.parent(call),
                                                                   (cst.If, cst.Arg, cst.Assign, cst.Return)):
                    new = f"({new})"
            always = "None" if getter else "False"
            yield self.finding(ctx, start, end, f"{ctx.text(start, end)} is always {always}: ROCm builds of PyTorch "
                               f"give the HIP version as torch.version.hip", title="Use torch.version.hip",
                               edits=[Edit(start, end, new)] if new else [])
