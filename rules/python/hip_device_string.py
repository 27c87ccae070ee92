"""Device strings `"hip"` and `"rocm"` (also with an index: `"hip:0"`, `f"rocm:{rank}"`) where PyTorch takes a
device: the first argument or `device=` of `torch.device(...)`, `torch.set_default_device(...)` and
`torch.cuda.device(...)`; the arguments of a `.to(...)` call; any `device=` keyword argument
(`torch.randn(..., device="hip")`, `torch.load(..., map_location="hip")` too); and a comparison with a
device's type (`x.device.type == "hip"`).

Why: PyTorch on ROCm puts GPU tensors on the `'cuda'` device. `"rocm"` is not a device type at all
(RuntimeError); `"hip"` parses, but ROCm builds register no kernels under it ("Could not run
'aten::empty.memory_format' with arguments from the 'HIP' backend"), and `device.type == "hip"` is never true.

Fix (safe): `"hip"`/`"rocm"` become `"cuda"`, keeping the index, quotes and prefix. Other strings, even
the same word elsewhere (a log message, a dictionary key, `backend="hip"`), are not touched.
"""
from __future__ import annotations

import re

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.index import index, quoted, string_value
from migrate.rule import PythonRule, Invalid, Valid

WRONG = re.compile(r"(hip|rocm)(?=(:\d+)?$)", re.IGNORECASE)
DEVICE_CALLS = {"torch.device", "torch.set_default_device", "torch.cuda.device", "torch.cuda.set_device"}
DEVICE_KEYWORDS = {"device", "map_location", "device_type"}


class HipDeviceString(PythonRule):
    code = "PY003"
    severity = Severity.ERROR
    feeds_other_rules = True  # the fixed text may be rewritten further (--portable, torch.cuda.amp)
    examples = [
        Valid("import torch\nx = torch.zeros(3, device='cuda')\nprint('running on hip')\nopts = {'hip': 1}\n"),
        Valid("import torch\nbackend = 'hip'\nlabel = torch.device('cuda').type + ':hip'\n"),
        Invalid("import torch\n\ndev = torch.device('hip:0')\nx = torch.randn(4, 4, device=\"rocm\")\ny = x.to('hip')\n",
                fixed="import torch\n\ndev = torch.device('cuda:0')\nx = torch.randn(4, 4, device=\"cuda\")\n"
                      "y = x.to('cuda')\n",
                line=3, message="'hip:0' is not the device PyTorch on ROCm uses: GPU tensors live on the 'cuda' "
                                "device ('hip' has no kernels in ROCm builds)"),
        Invalid("import torch\n\ndef run(model, rank):\n    model.to(f\"hip:{rank}\", non_blocking=True)\n"
                "    if model.weight.device.type == 'hip':\n        return torch.load('m.pt', map_location='rocm')\n",
                fixed="import torch\n\ndef run(model, rank):\n    model.to(f\"cuda:{rank}\", non_blocking=True)\n"
                      "    if model.weight.device.type == 'cuda':\n        return torch.load('m.pt', map_location='cuda')\n",
                line=4),
    ]

    def check(self, ctx):
        # cheap test first: a quoted string that starts with hip or rocm ("hip", 'rocm:0', f"hip:{rank}")
        if not re.search(rb"""['"](?i:hip|rocm)(?:['":])""", ctx.data):
            return
        yield from sorted(self._check(ctx), key=lambda f: f.span.start)

    def _check(self, ctx):
        idx = index(ctx)
        seen: set[int] = set()
        for call in idx.calls:
            candidates: list[cst.BaseExpression] = []
            names = ctx.qualified_names(call.func)
            if names & DEVICE_CALLS and call.args and call.args[0].keyword is None and not call.args[0].star:
                candidates.append(call.args[0].value)
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "to":
                candidates += [a.value for a in call.args if a.keyword is None and not a.star]
            candidates += [a.value for a in call.args if a.keyword is not None and a.keyword.value in DEVICE_KEYWORDS]
            for node in candidates:
                yield from self._check_string(ctx, node, seen)
        for comparison in idx.comparisons:
            sides = [comparison.left, *(t.comparator for t in comparison.comparisons)]
            if any(_device_type(side) for side in sides) and all(
                    isinstance(t.operator, (cst.Equal, cst.NotEqual)) for t in comparison.comparisons):
                for side in sides:
                    yield from self._check_string(ctx, side, seen)

    def _check_string(self, ctx, node, seen: set[int]):
        value = string_value(node)
        if value is not None and isinstance(node, cst.SimpleString):
            match = WRONG.match(value)
            if match:
                new = "cuda" + value[match.end(1):]
                yield from self._report(ctx, node, value, [Edit(*ctx.byte_span(node), quoted(node, new))], seen)
        elif isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[0], cst.FormattedStringText):
            first = node.parts[0]
            match = re.match(r"(hip|rocm):", first.value, re.IGNORECASE)
            if match:
                start, _ = ctx.byte_span(first)
                edit = Edit(start, start + len(match.group(1)), "cuda")
                yield from self._report(ctx, node, first.value, [edit], seen)

    def _report(self, ctx, node, value: str, edits, seen: set[int]):
        start, end = ctx.byte_span(node)
        if start in seen:
            return
        seen.add(start)
        shown = ctx.text(start, end)
        yield self.finding(ctx, start, end, f"{shown} is not the device PyTorch on ROCm uses: GPU tensors live on "
                           "the 'cuda' device ('hip' has no kernels in ROCm builds)", edits=edits,
                           title="Use the 'cuda' device")


def _device_type(node: cst.BaseExpression) -> bool:
    """`x.device.type`, `device.type`, `dev.type` (a name with "device" or "dev" in it)."""
    if not isinstance(node, cst.Attribute) or node.attr.value != "type":
        return False
    owner = node.value
    name = owner.attr.value if isinstance(owner, cst.Attribute) else owner.value if isinstance(owner, cst.Name) else ""
    return "dev" in name.lower()
