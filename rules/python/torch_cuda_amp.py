"""The deprecated `torch.cuda.amp` API: `autocast`, `GradScaler`, `custom_fwd` and `custom_bwd`, however they
are reached: `torch.cuda.amp.autocast(...)`, `from torch.cuda.amp import autocast, GradScaler`, the modules that
define them (`torch.cuda.amp.autocast_mode.autocast`, `from torch.cuda.amp.grad_scaler import GradScaler`),
`from torch.cuda import amp` then `amp.autocast(...)`, `import torch.cuda.amp as amp`, `from torch import cuda`
then `cuda.amp.GradScaler()`, and decorators (`@torch.cuda.amp.autocast()`, `@custom_fwd`,
`@custom_fwd(cast_inputs=torch.float32)`, `@custom_bwd`).

Why: PyTorch deprecates `torch.cuda.amp.*` (FutureWarning on every call) in favour of the device-generic
`torch.amp` API, which ROCm builds run under the same `"cuda"` device. The two signatures differ
(checked on torch 2.13 with `inspect.signature`):
- `torch.cuda.amp.autocast(enabled, dtype, cache_enabled)` vs `torch.amp.autocast(device_type, dtype, enabled,
  cache_enabled)`: positional arguments become keywords (`autocast(True, torch.bfloat16)` →
  `torch.amp.autocast("cuda", enabled=True, dtype=torch.bfloat16)`);
- `torch.cuda.amp.GradScaler(init_scale, ...)` vs `torch.amp.GradScaler(device, init_scale, ...)`: `"cuda"` goes
  first and the other positionals keep their order;
- `custom_fwd(fwd=None, *, cast_inputs)` / `custom_bwd(bwd)` vs the `torch.amp` ones, which require the
  keyword `device_type="cuda"`; a bare decorator `@custom_fwd` becomes `@custom_fwd(device_type="cuda")`.

Fix (safe): every argument is kept. A name reached through `torch` is rewritten in place
(`torch.cuda.amp.X` → `torch.amp.X`; `cuda.amp.X` after `from torch import cuda` → `torch.amp.X` when the file
imports `torch`). A name bound by its own import (`from torch.cuda.amp import ...`, `from torch.cuda import amp`,
`import torch.cuda.amp as amp`) is fixed in one piece: the import becomes `from torch.amp import ...` /
`from torch import amp` / `import torch.amp as amp` and every use gets its arguments adjusted, all in one fix
reported at the import. When one of those uses cannot be adjusted (the class passed around as a value,
`autocast(*args)`, an import that also brings other names), nothing of that import is changed and each
such use is reported for a hand edit. `GradScaler` in an annotation or an `isinstance` check needs no change
(`torch.cuda.amp.GradScaler` is a subclass of `torch.amp.GradScaler`). A `torch.amp.autocast` without `dtype`
takes `torch.get_autocast_dtype("cuda")`, float16 unless the program changed it.

Each use follows the import that binds its name where it is used (a function's own `from torch.cuda.amp import
autocast` binds it there, the module's elsewhere), so one run rewrites every import together with its uses.

Fallbacks are kept: a use of the old API in one part of an `if`/`else`, a conditional expression or a
`try`/`except` whose other part uses `torch.amp` (or `torch.autocast`), or whose test checks the torch version or
`hasattr(torch, ...)`, exists for older torch releases; rewriting it would break them (migrate/python/guards.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Edit, Severity
from migrate.python.guards import compat_branch
from migrate.python.index import arguments, index, insert_first, module_alias
from migrate.rule import PythonRule, Invalid, Valid

AMP = "torch.cuda.amp"
# the modules that define the API (`torch.cuda.amp.autocast_mode.autocast`, `torch.cuda.amp.grad_scaler.GradScaler`);
# torch.amp exports every name of both
SUBMODULES = (AMP, AMP + ".autocast_mode", AMP + ".grad_scaler")
FUNCS = ("autocast", "GradScaler", "custom_fwd", "custom_bwd")
AUTOCAST_POSITIONAL = ("enabled", "dtype", "cache_enabled")
# what the new API is reached by: a branch beside one that uses it keeps the old API on purpose
NEW_API = ("torch.amp", "torch.autocast", "torch.get_autocast_dtype", "torch.is_autocast_enabled")
NEW = {
    "autocast": 'torch.amp.autocast("cuda", ...)',
    "GradScaler": 'torch.amp.GradScaler("cuda", ...)',
    "custom_fwd": 'torch.amp.custom_fwd(..., device_type="cuda")',
    "custom_bwd": 'torch.amp.custom_bwd(..., device_type="cuda")',
}


def message(func: str) -> str:
    return f"torch.cuda.amp.{func} is deprecated: use {NEW[func]}, the device-generic API ROCm runs as 'cuda'"


def group_message(funcs: list[str]) -> str:
    """For an import: what it brings, and what each becomes."""
    if not funcs:
        return "torch.cuda.amp is deprecated: import from torch.amp"
    return (f"torch.cuda.amp is deprecated: use {', '.join(NEW[f] for f in funcs)}, the device-generic API ROCm "
            "runs as 'cuda'")


@dataclass
class _Use:
    node: cst.Name | cst.Attribute  # the expression that names torch.cuda.amp.X
    func: str
    edits: list[Edit] | None  # argument edits; None: cannot be fixed here


@dataclass
class _Group:
    """The import statements that bind some names (by where each starts, with the local name it binds) and every
    use of those names: they are rewritten together or not at all."""

    statements: dict[int, tuple[cst.CSTNode, str]]
    uses: list[_Use] = field(default_factory=list)


class TorchCudaAmp(PythonRule):
    code = "PY005"
    severity = Severity.INFO
    examples = [
        Valid("import torch\n\nwith torch.amp.autocast('cuda', dtype=torch.bfloat16):\n    pass\n"
              "scaler = torch.amp.GradScaler('cuda')\n"),
        Valid("from contextlib import nullcontext as autocast\n\nwith autocast():\n    pass\n"),
        # fallbacks for older torch, beside the new API or behind a version or attribute test: kept on purpose
        Valid("import torch\n\n\ndef make_scaler(enabled):\n    try:\n"
              "        return torch.amp.GradScaler(\"cuda\", enabled=enabled)\n"
              "    except (AttributeError, TypeError):  # torch < 2.3\n"
              "        return torch.cuda.amp.GradScaler(enabled=enabled)\n"),
        Valid("try:\n    from torch.amp import GradScaler\nexcept ImportError:\n"
              "    from torch.cuda.amp import GradScaler\n"),
        Valid("import torch\n\nif hasattr(torch, \"autocast\"):\n    ctx = torch.autocast(\"cuda\", dtype=torch.float16)\n"
              "else:\n    ctx = torch.cuda.amp.autocast(dtype=torch.float16)\n"),
        Valid("import torch\nfrom packaging import version\n\n"
              "if version.parse(torch.__version__) < version.parse(\"1.10\"):\n"
              "    autocast = torch.cuda.amp.autocast\nelse:\n    autocast = torch.autocast\n"),
        Valid("import torch\n\nTORCH_VERSION = tuple(int(x) for x in torch.__version__.split(\".\")[:2])\n"
              "scaler = torch.cuda.amp.GradScaler() if TORCH_VERSION < (2, 3) else torch.amp.GradScaler(\"cuda\")\n"),
        Invalid("import torch\n\nscaler = torch.cuda.amp.GradScaler(init_scale=1024.0)\n"
                "with torch.cuda.amp.autocast(True, torch.bfloat16):\n    pass\n",
                fixed="import torch\n\nscaler = torch.amp.GradScaler(\"cuda\", init_scale=1024.0)\n"
                      "with torch.amp.autocast(\"cuda\", enabled=True, dtype=torch.bfloat16):\n    pass\n",
                line=3, message=message("GradScaler")),
        Invalid("from torch.cuda.amp import GradScaler, autocast\n\nscaler = GradScaler(2.0 ** 16)\n\n"
                "def step(model, x):\n    with autocast(dtype=torch.float16):\n        return model(x)\n",
                fixed="from torch.amp import GradScaler, autocast\n\nscaler = GradScaler(\"cuda\", 2.0 ** 16)\n\n"
                      "def step(model, x):\n    with autocast(\"cuda\", dtype=torch.float16):\n        return model(x)\n",
                line=1, message=group_message(["autocast", "GradScaler"])),
        Invalid("from torch.cuda import amp\n\nscaler = amp.GradScaler()\n\n@amp.autocast()\ndef forward(x):\n"
                "    return x\n",
                fixed="from torch import amp\n\nscaler = amp.GradScaler(\"cuda\")\n\n@amp.autocast(\"cuda\")\n"
                      "def forward(x):\n    return x\n", line=1),
        Invalid("import torch\nfrom torch.cuda.amp import custom_bwd, custom_fwd\n\n\n"
                "class Scale(torch.autograd.Function):\n    @staticmethod\n    @custom_fwd(cast_inputs=torch.float32)\n"
                "    def forward(ctx, x):\n        return x * 2\n\n    @staticmethod\n    @custom_bwd\n"
                "    def backward(ctx, g):\n        return g * 2\n",
                fixed="import torch\nfrom torch.amp import custom_bwd, custom_fwd\n\n\n"
                      "class Scale(torch.autograd.Function):\n    @staticmethod\n"
                      "    @custom_fwd(device_type=\"cuda\", cast_inputs=torch.float32)\n"
                      "    def forward(ctx, x):\n        return x * 2\n\n    @staticmethod\n"
                      "    @custom_bwd(device_type=\"cuda\")\n    def backward(ctx, g):\n        return g * 2\n", line=2),
        Invalid("import torch\nfrom torch.cuda.amp.grad_scaler import GradScaler\n\n"
                "ctx = torch.cuda.amp.autocast_mode.autocast(dtype=torch.float16)\nscaler = GradScaler()\n",
                fixed="import torch\nfrom torch.amp import GradScaler\n\n"
                      "ctx = torch.amp.autocast(\"cuda\", dtype=torch.float16)\nscaler = GradScaler(\"cuda\")\n"),
        Invalid("import torch\n\n@torch.cuda.amp.custom_fwd\ndef f(x):\n    return x\n",
                fixed="import torch\n\n@torch.amp.custom_fwd(device_type=\"cuda\")\ndef f(x):\n    return x\n"),
        Invalid("import torch\n\ntry:\n    import apex\nexcept ImportError:\n    apex = None\n"
                "scaler = torch.cuda.amp.GradScaler()\n",
                fixed="import torch\n\ntry:\n    import apex\nexcept ImportError:\n    apex = None\n"
                      "scaler = torch.amp.GradScaler(\"cuda\")\n", line=7),
        Invalid("import torch\nfrom torch.cuda.amp import autocast\n\n\ndef evaluate(model, x):\n"
                "    with autocast():\n        return model(x)\n\n\ndef train(model, x):\n"
                "    from torch.cuda.amp import autocast\n    with autocast(enabled=True):\n        return model(x)\n",
                fixed="import torch\nfrom torch.amp import autocast\n\n\ndef evaluate(model, x):\n"
                      "    with autocast(\"cuda\"):\n        return model(x)\n\n\ndef train(model, x):\n"
                      "    from torch.amp import autocast\n    with autocast(\"cuda\", enabled=True):\n"
                      "        return model(x)\n", line=2),
        Invalid("from torch.cuda.amp import autocast\n\nmake_ctx = autocast\nwith autocast(enabled=False):\n    pass\n",
                line=3, message="torch.cuda.amp.autocast is deprecated: use torch.amp.autocast(\"cuda\", ...), the "
                                "device-generic API ROCm runs as 'cuda'; this use cannot be rewritten "
                                "automatically (nothing bound by this import was changed): edit it by hand"),
    ]

    def check(self, ctx):
        if not re.search(rb"\bamp\b", ctx.data):  # cheap test first: torch.cuda.amp, or amp imported from torch.cuda
            return
        idx = index(ctx)
        groups: list[_Group] = []
        singles: list[tuple[_Use, list[Edit] | None]] = []
        torch = module_alias(ctx, "torch")
        for node in [*idx.attributes, *idx.names]:
            if idx.inside_import(node):
                continue
            func = _amp_function(ctx, node)
            if func is None or _amp_function(ctx, idx.parent(node)) == func:
                continue  # not a name of the API, or a part of a longer one
            parent = idx.parent(node)
            if isinstance(node, cst.Name) and isinstance(parent, cst.Attribute) and parent.attr is node:
                continue
            if compat_branch(ctx, idx, node, NEW_API):
                continue  # the old API kept on purpose, beside the new one or behind a torch version test
            use = _Use(node, func, self._argument_edits(ctx, idx, node, func))
            root = _root(node)
            root_names = ctx.qualified_names(root)
            if "torch" in root_names or "torch.cuda" in root_names:
                singles.append((use, self._prefix_edit(ctx, node, root, torch)))
                continue
            statements = _binding_imports(ctx, root)
            if not statements:
                singles.append((use, None))
                continue
            # one fix for every import that binds the name where it is used and every use of those imports
            merged = [g for g in groups if g.statements.keys() & statements.keys()]
            group = _Group({k: v for g in merged for k, v in g.statements.items()} | statements,
                           [u for g in merged for u in g.uses] + [use])
            groups = [g for g in groups if g not in merged] + [group]
        for use, prefix in singles:
            start, end = ctx.byte_span(use.node)
            if prefix is None or use.edits is None:
                yield self._by_hand(ctx, use, "")
            else:
                yield self.finding(ctx, start, end, message(use.func), edits=[prefix, *use.edits],
                                   title=f"Use torch.amp.{use.func}")
        for group in sorted(groups, key=lambda g: min(g.statements)):
            imports = [_import_edit(ctx, statement, local) for statement, local in group.statements.values()]
            if None in imports or any(u.edits is None for u in group.uses):
                for use in group.uses:
                    if use.edits is None or None in imports:
                        yield self._by_hand(ctx, use, " (nothing bound by this import was changed)")
                continue
            first = min(group.statements)
            start, end = ctx.byte_span(group.statements[first][0])
            funcs = sorted({u.func for u in group.uses}, key=FUNCS.index)
            edits = [*imports, *(e for u in group.uses for e in u.edits)]
            yield self.finding(ctx, start, end, group_message(funcs), edits=edits,
                               title="Import from torch.amp and name the 'cuda' device")

    def _by_hand(self, ctx, use: _Use, why: str):
        start, end = ctx.byte_span(use.node)
        return self.finding(ctx, start, end, f"{message(use.func)}; this use cannot be rewritten automatically{why}: "
                            "edit it by hand", severity=Severity.WARNING)

    @staticmethod
    def _prefix_edit(ctx, node, root: cst.Name, torch: str | None) -> Edit | None:
        """`torch.cuda.amp.X` → `torch.amp.X`; `cuda.amp.X` (from torch import cuda) → `torch.amp.X`."""
        if not isinstance(node, cst.Attribute) or not isinstance(node.value, cst.Attribute):
            return None
        amp = node.value  # <...>.amp
        if "torch" in ctx.qualified_names(root):
            head = get_full_name_for_node(root)
        elif torch is not None:
            head = torch
        else:
            return None
        start, end = ctx.byte_span(amp)
        return Edit(start, end, f"{head}.amp")

    @staticmethod
    def _argument_edits(ctx, idx, node, func: str) -> list[Edit] | None:
        parent = idx.parent(node)
        if isinstance(parent, cst.Call) and parent.func is node:
            return _call_edits(ctx, parent, func)
        if isinstance(parent, cst.Decorator) and func in ("custom_fwd", "custom_bwd"):
            end = ctx.byte_span(node)[1]
            return [Edit(end, end, '(device_type="cuda")')]
        if func == "GradScaler" and (isinstance(parent, cst.Annotation) or _isinstance_argument(ctx, idx, node)):
            return []
        return None


def _amp_function(ctx, node) -> str | None:
    if not isinstance(node, (cst.Name, cst.Attribute)):
        return None
    for name in ctx.qualified_names(node):
        head, _, func = name.rpartition(".")
        if head in SUBMODULES and func in FUNCS:
            return func
    return None


def _root(node: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node


def _isinstance_argument(ctx, idx, node) -> bool:
    arg = idx.parent(node)
    while isinstance(arg, (cst.Tuple, cst.Element)):
        arg = idx.parent(arg)
    call = idx.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(call, cst.Call) and bool(ctx.qualified_names(call.func) & {"isinstance", "issubclass"})


def _call_edits(ctx, call: cst.Call, func: str) -> list[Edit] | None:
    args = arguments(call)
    first = insert_first(ctx, call)
    rest = ", " if call.args else ""
    if func == "GradScaler":
        return [Edit(first, first, f'"cuda"{rest}')]
    if args.starred and func != "GradScaler" and any(a.star == "*" for a in call.args):
        return None
    if func == "autocast":
        if len(args.positional) > len(AUTOCAST_POSITIONAL) or "device_type" in args.keywords:
            return None
        edits = []
        for i, arg in enumerate(args.positional):
            start = ctx.byte_span(arg)[0]
            lead = '"cuda", ' if i == 0 else ""
            edits.append(Edit(start, start, f"{lead}{AUTOCAST_POSITIONAL[i]}="))
        if not args.positional:
            edits.append(Edit(first, first, f'"cuda"{rest}'))
        return edits
    # custom_fwd / custom_bwd: the keyword after the positionals
    if "device_type" in args.keywords:
        return None
    if args.positional:
        end = ctx.byte_span(args.positional[-1])[1]
        return [Edit(end, end, ', device_type="cuda"')]
    return [Edit(first, first, f'device_type="cuda"{rest}')]


def _binding_imports(ctx, root: cst.CSTNode) -> dict[int, tuple[cst.CSTNode, str]]:
    """The import statements that bind `root`'s name to a part of torch.cuda.amp where it is used (a function's own
    import first: Python's scopes), by where each starts; empty when another binding is seen there."""
    if not isinstance(root, cst.Name):
        return {}
    found = {}
    for node in ctx.binding_imports(root):
        if isinstance(node.names, cst.ImportStar):
            continue
        for alias in node.names:
            if (alias.evaluated_alias or alias.evaluated_name) != root.value:
                continue
            if isinstance(node, cst.ImportFrom):
                module = get_full_name_for_node(node.module) if node.module is not None else ""
                full = f"{module}.{alias.evaluated_name}"
            else:
                full = alias.evaluated_name
            if full == AMP or full.startswith(AMP + "."):
                found[ctx.byte_span(node)[0]] = (node, root.value)
    return found


def _import_edit(ctx, statement: cst.CSTNode, local: str) -> Edit | None:
    if isinstance(statement, cst.ImportFrom):
        module = get_full_name_for_node(statement.module)
        names = [a.evaluated_name for a in statement.names]
        if module in SUBMODULES and all(n in FUNCS for n in names):
            return Edit(*ctx.byte_span(statement.module), "torch.amp")
        if module == "torch.cuda" and names == ["amp"]:
            return Edit(*ctx.byte_span(statement.module), "torch")
        return None
    for alias in statement.names:
        if (alias.evaluated_alias or alias.evaluated_name) == local and alias.evaluated_name == AMP:
            return Edit(*ctx.byte_span(alias.name), "torch.amp")
    return None
