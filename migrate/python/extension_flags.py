"""Where a PyTorch extension's compiler options are: the list literals (and comprehensions) that end up in the `'nvcc'`
entry of `CUDAExtension(extra_compile_args=...)` or in `load(extra_cuda_cflags=...)`, and those that reach the host
compiler's (`'cxx'`, `extra_cflags`), followed through the module's names, `+`, `x if c else y`, `dict(...)`, helper
calls and the lists a helper of the module returns. Read from the shared index (migrate/python/index.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.python.index import Index, index, string_value

EXTENSIONS = {"CUDAExtension", "HIPExtension"}  # HIPExtension: a wrong port that PY002 renames in the same pass
LOADERS = {"load", "load_inline"}


@dataclass
class OptionLists:
    """List literals that reach the nvcc options or the host compiler's, and the names followed to them."""

    nvcc: dict[cst.List | cst.ListComp, None] = field(default_factory=dict)  # ordered set
    host: set[cst.List | cst.ListComp] = field(default_factory=set)
    names: dict[str, None] = field(default_factory=dict)  # followed from the nvcc options
    host_names: dict[str, None] = field(default_factory=dict)  # followed from the host compiler's
    appended: dict[str, list[cst.Call]] = field(default_factory=dict)  # name.append(value), for every name


class _Names:
    """How the module's names are bound, as the option lists are followed through them."""

    def __init__(self, ctx, idx: Index) -> None:
        self.idx = idx
        self.grown: dict[str, list[cst.BaseExpression]] = {}  # name += value, name.extend(value), in document order
        self.appended: dict[str, list[cst.Call]] = {}
        self.imported: set[str] = set()  # bound by an import without `as`
        self.aliases: dict[str, str] = {}  # local name -> its name in torch.utils.cpp_extension
        grown: dict[str, list[tuple[int, cst.BaseExpression]]] = {}
        for name, nodes in idx.bindings.items():
            for node in nodes:
                if _growth(node):
                    grown.setdefault(name, []).append((ctx.byte_span(node)[0], node.value))
        for call in idx.calls:
            func = call.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and len(call.args) == 1:
                if func.attr.value == "extend":
                    grown.setdefault(func.value.value, []).append((ctx.byte_span(call)[0], call.args[0].value))
                elif func.attr.value == "append":
                    self.appended.setdefault(func.value.value, []).append(call)
        self.grown = {name: [value for _, value in sorted(found, key=lambda v: v[0])]
                      for name, found in grown.items()}
        for node in [*idx.imports, *idx.import_froms]:
            if isinstance(node.names, cst.ImportStar):
                continue
            self.imported.update(a.evaluated_name.split(".")[0] for a in node.names if a.asname is None)
            module = get_full_name_for_node(node.module) if isinstance(node, cst.ImportFrom) and node.module else None
            if module and module.split(".")[-1] == "cpp_extension":
                for alias in node.names:
                    self.aliases[alias.evaluated_alias or alias.evaluated_name] = alias.evaluated_name

    def values(self, name: str) -> list[cst.BaseExpression]:
        """The values of a name bound only by assignments (once, or once per branch: `arch_flags = [...]` in an `if`
        and `arch_flags = []` in its `else`) and otherwise only grown; [] when it is bound some other way."""
        bound = name in self.imported or any(not _growth(n) for n in self.idx.bindings.get(name, ()))
        return [] if bound else list(self.idx.assigned.get(name, []))

    def callee(self, call: cst.Call) -> str:
        """The last name of what is called, seen through `from ...cpp_extension import X as Y`."""
        if isinstance(call.func, cst.Name):
            return self.aliases.get(call.func.value, call.func.value)
        if isinstance(call.func, cst.Attribute):
            return call.func.attr.value
        return ""


def _growth(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign)


def option_lists(ctx) -> OptionLists:
    """The option lists of every extension and loader call of the module."""
    names = _Names(ctx, index(ctx))
    lists = OptionLists(appended=names.appended)
    for call in names.idx.calls:
        name = names.callee(call)
        for arg in call.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if name in EXTENSIONS and keyword == "extra_compile_args":
                entries = _dict_entries(arg.value, names, set())
                if entries is None:  # one list for both compilers
                    lists.host.update(_lists(arg.value, names, set(), lists.host_names))
                    continue
                for key, value in entries:
                    if key == "nvcc":
                        lists.nvcc.update(dict.fromkeys(_lists(value, names, set(), lists.names)))
                    else:
                        lists.host.update(_lists(value, names, set(), lists.host_names))
            elif name in LOADERS and keyword == "extra_cuda_cflags":
                lists.nvcc.update(dict.fromkeys(_lists(arg.value, names, set(), lists.names)))
            elif name in LOADERS and keyword in ("extra_cflags", "extra_ldflags"):
                lists.host.update(_lists(arg.value, names, set(), lists.host_names))
    return lists


def _dict_entries(expr, names: _Names, seen: set[str]) -> list[tuple[str, cst.BaseExpression]] | None:
    """(key, value) of each entry with a string key when `expr` is a dict, else None."""
    if isinstance(expr, cst.Dict):
        entries = []
        for element in expr.elements:
            if isinstance(element, cst.DictElement):
                key = string_value(element.key)
                if key is not None:
                    entries.append((key, element.value))
            else:
                entries.extend(_dict_entries(element.value, names, seen) or [])
        return entries
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "dict":
        entries = []
        for arg in expr.args:
            if arg.keyword is not None:
                entries.append((arg.keyword.value, arg.value))
            else:
                entries.extend(_dict_entries(arg.value, names, seen) or [])
        return entries
    if isinstance(expr, cst.Name) and expr.value not in seen:
        found = [_dict_entries(value, names, seen | {expr.value}) for value in names.values(expr.value)]
        if found and all(entries is not None for entries in found):
            return [entry for entries in found for entry in entries]
    return None


def _lists(expr, names: _Names, seen: set[str], followed: dict[str, None]) -> list[cst.List | cst.ListComp]:
    """The list literals (and comprehensions) whose elements end up in the option list `expr` evaluates to."""
    if isinstance(expr, cst.ListComp):  # [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]
        return [expr]
    if isinstance(expr, cst.List):
        out = [expr]
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                out += _lists(element.value, names, seen, followed)
        return out
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _lists(expr.left, names, seen, followed) + _lists(expr.right, names, seen, followed)
    if isinstance(expr, cst.IfExp):
        return _lists(expr.body, names, seen, followed) + _lists(expr.orelse, names, seen, followed)
    if isinstance(expr, cst.Call):  # list(flags), append_nvcc_threads([...])
        out = [node for arg in expr.args if arg.keyword is None and not arg.star
               for node in _lists(arg.value, names, seen, followed)]
        helper = expr.func.value if isinstance(expr.func, cst.Name) else ""
        if helper in names.idx.returns and "()" + helper not in seen:
            # a helper of this module that adds its own options: `return nvcc_extra_args + ["--threads", "4"]`
            # (its parameters are not followed: they are the arguments above)
            for value in names.idx.returns[helper]:
                out += _lists(value, names, seen | {"()" + helper}, {})
        return out
    if isinstance(expr, cst.Name) and expr.value not in seen:
        values = names.values(expr.value)
        if not values:
            return []
        followed[expr.value] = None
        seen = seen | {expr.value}
        out = [node for value in values for node in _lists(value, names, seen, followed)]
        for grown in names.grown.get(expr.value, []):
            out += _lists(grown, names, seen, followed)
        return out
    return []
