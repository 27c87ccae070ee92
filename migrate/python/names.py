"""Qualified names of Python names and attributes, seen through imports and scopes, in one walk of the module.

`import torch.cuda.amp as amp; amp.autocast` → {"torch.cuda.amp.autocast"}; `from os import environ` →
`environ` is {"os.environ"}; a parameter or variable that shadows an imported name is local where it is bound
(Python's rule: a name bound anywhere in a function is local to all of it; class bodies do not enclose their
methods); a builtin is {"builtins.NAME"}; any other bound name is {NAME}; an unbound one {}.

The same answers as libcst's QualifiedNameProvider for what the rules ask, at a small part of its cost (the
provider's scope analysis was most of the time of the Python rules).
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

BUILTINS = frozenset(dir(builtins))


@dataclass
class Scope:
    parent: Scope | None
    is_class: bool = False
    prefix: str = ""  # how libcst spells names bound here: "", "f.<locals>.", "C."
    imports: dict[str, set[str]] = field(default_factory=dict)  # local name -> qualified names
    bound: set[str] = field(default_factory=set)  # bound any other way
    declared_global: set[str] = field(default_factory=set)
    statements: dict[str, list[cst.CSTNode]] = field(default_factory=dict)  # local name -> the imports binding it

    def find(self, name: str) -> Scope | None:
        """The scope whose binding of `name` a use in this scope sees (Python's rules), None when unbound."""
        scope, first = self, True
        while scope is not None:
            if name in scope.declared_global and scope.parent is not None:  # `global x` at module level is a no-op
                scope = _module(scope)
                continue
            if (first or not scope.is_class) and (name in scope.imports or name in scope.bound):
                return scope
            scope, first = scope.parent, False
        return None

    def lookup(self, name: str) -> set[str] | None:
        scope = self.find(name)
        if scope is None:
            return None
        found = set(scope.imports.get(name, ()))
        if name in scope.bound:
            found.add(scope.prefix + name)
        return found


def target_names(target: cst.CSTNode) -> list[str]:
    """The names an assignment target binds: `x`, `a, (b, *c)`, `[d, e]` (attributes and subscripts bind none)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def _module(scope: Scope) -> Scope:
    while scope.parent is not None:
        scope = scope.parent
    return scope


class _Walker(cst.CSTVisitor):
    def __init__(self) -> None:
        self.scope = Scope(None)
        self.where: dict[cst.CSTNode, Scope] = {}  # Name/Attribute accesses -> their scope
        self.fixed: dict[cst.CSTNode, set[str]] = {}  # names inside import statements
        self.stack: list[Scope] = []

    # --- scopes
    def _push(self, is_class: bool = False, prefix: str | None = None) -> None:
        self.stack.append(self.scope)
        self.scope = Scope(self.scope, is_class, self.scope.prefix if prefix is None else prefix)

    def _pop(self) -> None:
        self.scope = self.stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.scope.bound.add(node.name.value)
        self.where[node.name] = self.scope
        for decorator in node.decorators:
            decorator.visit(self)
        if node.returns is not None:
            node.returns.visit(self)
        self._visit_defaults(node.params)
        self._push(prefix=f"{self.scope.prefix}{node.name.value}.<locals>.")
        self._bind_params(node.params)
        node.body.visit(self)
        self._pop()
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self._visit_defaults(node.params)
        self._push()
        self._bind_params(node.params)
        node.body.visit(self)
        self._pop()
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.scope.bound.add(node.name.value)
        self.where[node.name] = self.scope
        for part in (*node.decorators, *node.bases, *node.keywords):
            part.visit(self)
        self._push(is_class=True, prefix=f"{self.scope.prefix}{node.name.value}.")
        node.body.visit(self)
        self._pop()
        return False

    def _comprehension(self, node) -> bool:
        # the first iterable is evaluated outside; the rest inside the comprehension's own scope
        node.for_in.iter.visit(self)
        self._push()
        self._bind(node.for_in.target)
        for part in [node.for_in.target, *node.for_in.ifs]:
            part.visit(self)
        inner = node.for_in.inner_for_in
        while inner is not None:
            inner.iter.visit(self)
            self._bind(inner.target)
            for part in [inner.target, *inner.ifs]:
                part.visit(self)
            inner = inner.inner_for_in
        for part in ((node.key, node.value) if isinstance(node, cst.DictComp) else (node.elt,)):
            part.visit(self)
        self._pop()
        return False

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def _visit_defaults(self, params: cst.Parameters) -> None:
        for p in (*params.params, *params.kwonly_params, *params.posonly_params):
            if p.default is not None:
                p.default.visit(self)
            if p.annotation is not None:
                p.annotation.visit(self)

    def _bind_params(self, params: cst.Parameters) -> None:
        for p in (*params.params, *params.kwonly_params, *params.posonly_params):
            self.scope.bound.add(p.name.value)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                self.scope.bound.add(star.name.value)

    # --- bindings
    def _bind(self, target: cst.CSTNode) -> None:
        for name in target_names(target):
            scope = _module(self.scope) if name in self.scope.declared_global else self.scope
            scope.bound.add(name)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        if not isinstance(getattr(self, "_in_import", None), cst.CSTNode):
            self._bind(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        scope = self.scope
        while scope.parent is not None and scope.is_class:
            scope = scope.parent
        if isinstance(node.target, cst.Name):
            scope.bound.add(node.target.value)

    def visit_Global(self, node: cst.Global) -> None:
        self.scope.declared_global.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        pass  # the enclosing function's binding is found by the lookup anyway

    # --- imports
    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            dotted = get_full_name_for_node(alias.name) or ""
            self._mark_import_names(alias.name, dotted)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
                self.scope.imports.setdefault(local, set()).add(dotted)
            else:
                local = dotted.split(".")[0]
                self.scope.imports.setdefault(local, set()).add(local)
            self._statement(local, node)
        return False

    def _statement(self, local: str, node: cst.CSTNode) -> None:
        statements = self.scope.statements.setdefault(local, [])
        if node not in statements:
            statements.append(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = get_full_name_for_node(node.module) if node.module is not None else ""
        prefix = "." * len(node.relative) + (module or "")
        if node.module is not None:
            self._mark_import_names(node.module, module or "")
        if isinstance(node.names, cst.ImportStar):
            return False
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            qualified = f"{prefix}.{name}" if prefix and not prefix.endswith(".") else f"{prefix}{name}"
            self._mark_import_names(alias.name, qualified)
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) \
                else name
            self.scope.imports.setdefault(local, set()).add(qualified)
            self._statement(local, node)
        return False

    def _mark_import_names(self, node: cst.CSTNode, dotted: str) -> None:
        """Names inside an import statement are not accesses: they get no qualified name."""
        while isinstance(node, cst.Attribute):
            self.fixed[node] = set()
            self.fixed[node.attr] = set()
            node = node.value
        self.fixed[node] = set()

    # --- accesses
    def visit_Name(self, node: cst.Name) -> None:
        self.where[node] = self.scope

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.where[node] = self.scope
        self.fixed[node.attr] = set()


class QualifiedNames:
    def __init__(self, module: cst.Module) -> None:
        walker = _Walker()
        module.visit(walker)
        self._where = walker.where
        self._fixed = walker.fixed

    def binding_imports(self, node: cst.Name) -> list[cst.CSTNode]:
        """The import statements that bind the name `node` where it is used (several when the scope imports it
        more than once: `try: from a import x` / `except ImportError: from b import x`); [] when none does."""
        scope = self._where.get(node)
        found = scope.find(node.value) if scope is not None else None
        return list(found.statements.get(node.value, ())) if found is not None else []

    def of(self, node: cst.CSTNode) -> set[str]:
        if node in self._fixed:
            return set(self._fixed[node])
        if isinstance(node, cst.Name):
            scope = self._where.get(node)
            if scope is None:
                return set()
            found = scope.lookup(node.value)
            if found is None:
                return {f"builtins.{node.value}"} if node.value in BUILTINS else set()
            return found
        if isinstance(node, cst.Attribute):
            parts = [node.attr.value]
            base = node.value
            while isinstance(base, (cst.Attribute, cst.Call)):  # a call in the chain is looked through, as libcst does
                if isinstance(base, cst.Call):
                    base = base.func
                    continue
                parts.append(base.attr.value)
                base = base.value
            if not isinstance(base, cst.Name):
                return set()
            rest = ".".join(reversed(parts))
            return {f"{q}.{rest}" for q in self.of(base)}
        return set()
