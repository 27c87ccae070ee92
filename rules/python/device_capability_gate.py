"""Compute-capability gates: `torch.cuda.get_device_capability()` compared (`>= (8, 0)`), indexed
(`get_device_capability()[0] >= 8`) or unpacked and compared (`major, minor = get_device_capability()` ...
`if major >= 8`, also once stored: `sm = major * 10 + minor` ... `if sm >= 80`, `self.sm = ...` in `__init__` and
`if self.sm >= 80:` in another method), and `torch.cuda.get_device_properties(i).major` / `.minor` read (directly or through a name
only ever bound to such a call: `props = torch.cuda.get_device_properties(0)` ... `props.major`). Also through
`from torch.cuda import get_device_capability` and other aliases.

Why: on ROCm these numbers are derived from the gfx architecture name: gfx90a (MI200) reports (9, 0), gfx942
(MI300) (9, 4), gfx1100 (RDNA3) (11, 0). An NVIDIA gate such as "Ampere or newer" (`>= (8, 0)`) therefore passes
or fails by accident, and `sm_{major}{minor}` strings name no AMD target. What to check instead, by intent:
`torch.cuda.is_bf16_supported()` for bf16, `torch.cuda.get_device_properties(i).gcnArchName` (e.g.
`"gfx90a:sramecc+:xnack-"`) for an architecture, `torch.version.hip` to know it is ROCm.

No fix (WARNING): the right check depends on what the gate is for. One finding per comparison; a capability
that is only printed or logged is not reported.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Severity
from migrate.python.index import index
from migrate.python.names import target_names
from migrate.rule import PythonRule, Invalid, Valid

CAPABILITY = "torch.cuda.get_device_capability"
PROPERTIES = "torch.cuda.get_device_properties"
ADVICE = ("on ROCm it is derived from the gfx architecture (gfx90a → (9, 0), gfx942 → (9, 4)), so an NVIDIA "
          "compute-capability gate passes or fails by accident; check torch.cuda.is_bf16_supported() for bf16, "
          "torch.cuda.get_device_properties(i).gcnArchName for an architecture, torch.version.hip for ROCm")
# parents a capability value flows through on its way to a comparison
THROUGH = (cst.BinaryOperation, cst.Tuple, cst.List, cst.Element, cst.ComparisonTarget, cst.Subscript,
           cst.UnaryOperation)


class DeviceCapabilityGate(PythonRule):
    code = "PY010"
    severity = Severity.WARNING
    fixable = False
    example_path = "model.py"
    examples = [
        Valid("import torch\n\nprint(torch.cuda.get_device_capability())\nname = torch.cuda.get_device_name(0)\n"
              "use_bf16 = torch.cuda.is_bf16_supported()\n"),
        Valid("import torch\n\nmajor = 8\nif major >= 8:\n    pass\n"),
        # a name set from the capability and reused as a loop variable: its later reads are not the capability
        Valid("import torch\n\narch_list = []\nfor i in range(torch.cuda.device_count()):\n"
              "    capability = torch.cuda.get_device_capability(i)\n    arch = f\"{capability[0]}.{capability[1]}\"\n"
              "    if arch not in arch_list:\n        arch_list.append(arch)\nfor arch in arch_list:\n"
              "    if arch not in (\"8.0\", \"9.0\"):\n        raise ValueError(arch)\n"),
        Valid("import torch\n\nIS_ROCM = torch.version.hip is not None\n\n\ndef supports_bf16():\n"
              "    if IS_ROCM:\n        return torch.cuda.is_bf16_supported()\n"
              "    return torch.cuda.get_device_capability() >= (8, 0)\n"),
        Valid("import torch\nfrom vllm.platforms import current_platform\n\n"
              "use_fp8 = current_platform.is_rocm() or torch.cuda.get_device_capability()[0] >= 9\n"
              "sm = 0 if current_platform.is_rocm() else torch.cuda.get_device_properties(0).major\n"),
        Invalid("import torch\n\n\ndef describe(i):\n    props = torch.cuda.get_device_properties(i)\n"
                "    return props.name\n\n\ndef has_fp8(i):\n    props = torch.cuda.get_device_properties(i)\n"
                "    return props.major >= 9\n", line=11),
        Invalid("import torch\n\nif torch.cuda.get_device_capability() >= (8, 0):\n    dtype = torch.bfloat16\n",
                line=3, message=f"torch.cuda.get_device_capability() >= (8, 0): {ADVICE}"),
        Invalid("from torch.cuda import get_device_capability\n\nmajor, minor = get_device_capability(0)\n"
                "use_flash = major * 10 + minor >= 80\nsm90 = get_device_capability()[0] == 9\n", line=4),
        Invalid("import torch\n\n\nclass Kernels:\n    def __init__(self, device):\n"
                "        self.sm = 0\n        major, minor = torch.cuda.get_device_capability(device)\n"
                "        self.sm = major * 10 + minor\n\n"
                "    def pick(self):\n        if self.sm >= 90:\n            return 'hopper'\n"
                "        return 'ampere' if self.sm >= 80 else 'generic'\n", line=11,
                message=f"self.sm >= 90: {ADVICE}"),
        Invalid("import torch\n\nprops = torch.cuda.get_device_properties(0)\narch = f'sm_{props.major}{props.minor}'\n",
                line=4, message=f"props.major: {ADVICE}"),
    ]

    def check(self, ctx):
        if b"get_device_capability" not in ctx.data and b"get_device_properties" not in ctx.data:
            return
        idx = index(ctx)
        values: list[cst.CSTNode] = []  # expressions holding a capability (or a part of it)
        holders: set[str] = set()
        properties: set[str] = set()
        for call in idx.calls:
            names = ctx.qualified_names(call.func)
            if CAPABILITY in names:
                values.append(call)
                parent = idx.parent(call)
                if isinstance(parent, cst.Assign):
                    for target in parent.targets:
                        holders.update(target_names(target.target))
            elif PROPERTIES in names:
                parent = idx.parent(call)
                if isinstance(parent, cst.Assign) and len(parent.targets) == 1 \
                        and isinstance(parent.targets[0].target, cst.Name):
                    properties.add(parent.targets[0].target.value)
        for name in list(properties):
            # followed when every binding of the name in the file is a get_device_properties(...) call (one per
            # function is common: `props = torch.cuda.get_device_properties(i)` in several helpers)
            values = idx.assigned.get(name, [])
            if name in idx.rebound or not all(isinstance(v, cst.Call) and PROPERTIES in ctx.qualified_names(v.func)
                                              for v in values):
                properties.discard(name)
        # follow the capability through the names and `self.` attributes it is stored in (`sm = major * 10 + minor`,
        # `self.sm = ...` in __init__, compared in another method)
        attributes: set[str] = set()
        seen: set[cst.CSTNode] = set()
        todo = list(values)
        stores = _self_stores(idx)
        for _ in range(4):
            for value in todo:
                seen.add(value)
                for target in _stored_in(idx, value):
                    # only a name or attribute bound once in the file: `arch` set from the capability and reused as
                    # a loop variable says nothing about the capability where it is read
                    if isinstance(target, cst.Name) and idx.followed(target.value) is not None:
                        holders.add(target.value)
                    elif _self_attribute(target) and stores.get(target.attr.value) == 1:
                        attributes.add(target.attr.value)
            todo = [n for n in idx.names if n.value in holders and n not in seen and _loaded(idx, n)]
            todo += [a for a in idx.attributes if a not in seen and _self_attribute(a) and a.attr.value in attributes
                     and not isinstance(idx.parent(a), cst.AssignTarget)]
            values += todo
            if not todo:
                break
        reported: set[int] = set()
        found = []
        for value in values:
            found += self._gate(ctx, idx, value, reported, always=False)
        for attribute in idx.attributes:
            if attribute.attr.value not in ("major", "minor"):
                continue
            owner = attribute.value
            if isinstance(owner, cst.Call) and PROPERTIES in ctx.qualified_names(owner.func) or \
                    isinstance(owner, cst.Name) and owner.value in properties:
                found += self._gate(ctx, idx, attribute, reported, always=True)
        yield from sorted(found, key=lambda f: f.span.start)

    def _gate(self, ctx, idx, value, reported: set[int], always: bool):
        node, parent = value, idx.parent(value)
        while isinstance(parent, THROUGH) and not (isinstance(parent, cst.Subscript) and parent.value is not node):
            node, parent = parent, idx.parent(parent)
        if isinstance(parent, cst.Comparison):
            where = parent
        elif always:
            where = value
        else:
            return
        start, end = ctx.byte_span(where)
        if start in reported:
            return
        reported.add(start)
        yield self.finding(ctx, start, end, f"{ctx.text(start, end)}: {ADVICE}")


def _loaded(idx, node: cst.Name) -> bool:
    parent = idx.parent(node)
    if isinstance(parent, (cst.AssignTarget, cst.Param)) or (isinstance(parent, cst.Attribute) and parent.attr is node):
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return False
    return not isinstance(parent, (cst.Element,)) or not isinstance(idx.parent(parent), (cst.Tuple, cst.List)) \
        or not isinstance(idx.parent(idx.parent(parent)), cst.AssignTarget)


def _stored_in(idx, value: cst.CSTNode) -> list[cst.CSTNode]:
    """The targets an assignment stores `value` (or an expression made from it) in."""
    node, parent = value, idx.parent(value)
    while isinstance(parent, THROUGH + (cst.FormattedStringExpression, cst.FormattedString)) and \
            not isinstance(parent, cst.ComparisonTarget):
        node, parent = parent, idx.parent(parent)
    if isinstance(parent, cst.Assign) and parent.value is node:
        out = []
        for target in parent.targets:
            out += [t for t in _targets(target.target)]
        return out
    return []


def _targets(target: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [t for element in target.elements for t in _targets(element.value)]
    return [target]


def _self_attribute(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls")


def _self_stores(idx) -> dict[str, int]:
    """How many assignments in the file set each `self.X` (or `cls.X`) to something other than a constant."""
    counts: dict[str, int] = {}
    for attribute in idx.attributes:
        parent = idx.parent(attribute)
        if not _self_attribute(attribute) or not isinstance(parent, (cst.AssignTarget, cst.AugAssign)):
            continue
        statement = idx.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        if isinstance(getattr(statement, "value", None), (cst.Integer, cst.Float, cst.SimpleString)) or \
                isinstance(getattr(statement, "value", None), cst.Name) and statement.value.value == "None":
            continue  # a default (`self.sm = 0` before the device is known) is no other meaning
        counts[attribute.attr.value] = counts.get(attribute.attr.value, 0) + 1
    return counts
