"""One walk over a Python module, shared by the PY rules: its calls, attributes, names, imports, strings and
comparisons in document order, every node's parent, how each name is bound, what each function returns, and small
helpers over call arguments and string literals.

The index is built on the first request and kept on the context, so a dozen rules over one file walk the
tree once. Everything refers to the nodes of `ctx.wrapper.module` (the ones `ctx.byte_span` knows).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.python.names import target_names
from migrate.python.walk import walk

_CACHE_ATTRIBUTE = "_python_rule_index"


@dataclass
class Index:
    module: cst.Module
    parents: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    calls: list[cst.Call] = field(default_factory=list)
    attributes: list[cst.Attribute] = field(default_factory=list)
    names: list[cst.Name] = field(default_factory=list)
    imports: list[cst.Import] = field(default_factory=list)
    import_froms: list[cst.ImportFrom] = field(default_factory=list)
    strings: list[cst.BaseString] = field(default_factory=list)  # outermost string nodes only
    comparisons: list[cst.Comparison] = field(default_factory=list)
    with_items: list[cst.WithItem] = field(default_factory=list)
    decorators: list[cst.Decorator] = field(default_factory=list)
    assigned: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)  # name = value (any scope)
    rebound: set[str] = field(default_factory=set)  # bound some other way too (for, with, def, params, ...)
    bindings: dict[str, list[cst.CSTNode]] = field(default_factory=dict)  # the node of each of those other bindings
    returns: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)  # function name -> what it returns
    import_nodes: set[cst.CSTNode] = field(default_factory=set)  # every node inside an import statement

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(node)

    def inside_import(self, node: cst.CSTNode) -> bool:
        return node in self.import_nodes

    def followed(self, name: str) -> cst.BaseExpression | None:
        """The value of a name assigned exactly once in the file and bound no other way, else None."""
        values = self.assigned.get(name, [])
        return values[0] if len(values) == 1 and name not in self.rebound else None


class _Walker(cst.CSTVisitor):
    def __init__(self, index: Index) -> None:
        self.index = index
        self.stack: list[cst.CSTNode] = []
        self.in_import = 0
        self.in_string = 0
        self.functions: list[str] = []  # the names of the functions the walk is inside, innermost last

    def on_visit(self, node: cst.CSTNode) -> bool:
        index = self.index
        if self.stack:
            index.parents[node] = self.stack[-1]
        self.stack.append(node)
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            self.in_import += 1
        if self.in_import:
            index.import_nodes.add(node)
        if isinstance(node, cst.Call):
            index.calls.append(node)
        elif isinstance(node, cst.Attribute):
            index.attributes.append(node)
        elif isinstance(node, cst.Name):
            index.names.append(node)
        elif isinstance(node, cst.Import):
            index.imports.append(node)
        elif isinstance(node, cst.ImportFrom):
            index.import_froms.append(node)
        elif isinstance(node, cst.BaseString):
            if not self.in_string:
                index.strings.append(node)
            self.in_string += 1
        elif isinstance(node, cst.Comparison):
            index.comparisons.append(node)
        elif isinstance(node, cst.WithItem):
            index.with_items.append(node)
        elif isinstance(node, cst.Decorator):
            index.decorators.append(node)
        elif isinstance(node, cst.FunctionDef):
            index.returns.setdefault(node.name.value, [])
            self.functions.append(node.name.value)
        elif isinstance(node, cst.Return) and self.functions and node.value is not None:
            index.returns[self.functions[-1]].append(node.value)
        self._bindings(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()
        if isinstance(original_node, (cst.Import, cst.ImportFrom)):
            self.in_import -= 1
        elif isinstance(original_node, cst.BaseString):
            self.in_string -= 1
        elif isinstance(original_node, cst.FunctionDef):
            self.functions.pop()

    def _bind(self, target: cst.CSTNode, node: cst.CSTNode) -> None:
        for name in target_names(target):
            self._rebind(name, node)

    def _rebind(self, name: str, node: cst.CSTNode) -> None:
        self.index.rebound.add(name)
        self.index.bindings.setdefault(name, []).append(node)

    def _bindings(self, node: cst.CSTNode) -> None:
        index = self.index
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    index.assigned.setdefault(target.target.value, []).append(node.value)
                else:
                    self._bind(target.target, node)
        elif isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name) and node.value is not None:
            index.assigned.setdefault(node.target.value, []).append(node.value)
        elif isinstance(node, cst.AugAssign):
            self._bind(node.target, node)
        elif isinstance(node, (cst.For, cst.CompFor)):
            self._bind(node.target, node)
        elif isinstance(node, cst.AsName):
            self._bind(node.name, node)
        elif isinstance(node, cst.NamedExpr):
            self._bind(node.target, node)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Param)):
            self._rebind(node.name.value, node)


def index(ctx) -> Index:
    """The index of `ctx`'s module (built once per context)."""
    found = getattr(ctx, _CACHE_ATTRIBUTE, None)
    if found is None and ctx.wrapper is None:
        # libcst refused a file that a quicker check accepted: the rules see an empty module, and the engine reports
        # the file as not parsed (migrate/fixing.py) and leaves it as it is
        found = Index(cst.Module(body=[]))
        setattr(ctx, _CACHE_ATTRIBUTE, found)
    elif found is None:
        found = Index(ctx.wrapper.module)
        walker = _Walker(found)
        walk(ctx.wrapper.module, walker.on_visit, walker.on_leave)  # a read-only walk: libcst's visit rebuilds nodes
        setattr(ctx, _CACHE_ATTRIBUTE, found)
    return found


# -- names -----------------------------------------------------------------------------------------------

def module_alias(ctx, module: str) -> str | None:
    """The local name that reaches module `module` (e.g. "torch") outside functions and classes: `import torch`,
    `import torch.cuda` (which binds torch too), or `import torch as th`; None when the file has none."""
    idx = index(ctx)
    for node in idx.imports:
        if isinstance(node.names, cst.ImportStar) or _in_scope(idx, node):
            continue
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            if alias.asname is not None:
                if full == module and isinstance(alias.asname.name, cst.Name):
                    return alias.asname.name.value
            elif full == module or ("." not in module and full.startswith(module + ".")):
                return module
    return None


def _in_scope(idx: Index, node: cst.CSTNode) -> bool:
    parent = idx.parent(node)
    while parent is not None:
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return True
        parent = idx.parent(parent)
    return False


# -- calls -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Arguments:
    positional: tuple[cst.Arg, ...]
    keywords: dict[str, cst.Arg]
    starred: bool  # *args or **kwargs present

    def get(self, position: int | None, keyword: str) -> cst.Arg | None:
        if keyword in self.keywords:
            return self.keywords[keyword]
        if position is not None and position < len(self.positional):
            return self.positional[position]
        return None


def arguments(call: cst.Call) -> Arguments:
    positional, keywords, starred = [], {}, False
    for arg in call.args:
        if arg.star:
            starred = True
        elif arg.keyword is not None:
            keywords[arg.keyword.value] = arg
        else:
            positional.append(arg)
    return Arguments(tuple(positional), keywords, starred)


def insert_first(ctx, call: cst.Call) -> int:
    """Where a new first argument goes: before the first argument, else before the closing parenthesis."""
    if call.args:
        return ctx.byte_span(call.args[0])[0]
    return ctx.byte_span(call)[1] - 1


# -- strings -----------------------------------------------------------------------------------------------

def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a plain string literal (or implicit concatenation of them), else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def quoted(template: cst.CSTNode, value: str) -> str:
    """`value` as a string literal with the quotes and prefix of `template` (a SimpleString)."""
    while isinstance(template, cst.ConcatenatedString):
        template = template.left
    quote = template.quote if isinstance(template, cst.SimpleString) else '"'
    prefix = template.prefix if isinstance(template, cst.SimpleString) else ""
    if "\\" not in value and quote[0] not in value and "\n" not in value:
        return f"{prefix}{quote}{value}{quote}"
    escaped = value.replace("\\", "\\\\").replace(quote[0], "\\" + quote[0]).replace("\n", "\\n")
    return f"{prefix.replace('r', '').replace('R', '')}{quote}{escaped}{quote}"

