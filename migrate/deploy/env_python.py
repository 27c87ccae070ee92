"""Environment-variable sites in Python (libcst, names seen through imports: `import os as _os`,
`from os import environ`) for `migrate.deploy.env`: `os.environ["X"] = v`, `os.environ["X"]`, `del os.environ["X"]`,
`"X" in os.environ`, `os.environ.get("X", d)`, `os.getenv("X", d)`, `os.putenv("X", v)`, `os.unsetenv("X")`,
`os.environ.setdefault("X", v)`, `os.environ.pop("X")`, `os.environ.update({"X": v})` / `update(X=v)`; dictionaries
that become a process's environment: `{**os.environ, "X": v}`, `dict(os.environ, X=v)`, a dict literal or
`dict(...)` passed as `env=` to subprocess.run/call/check_call/check_output/Popen (or asyncio's
create_subprocess_exec/shell), directly or through a name; and `env["X"] = v` / `del env["X"]` / `env.update(...)` /
`env.pop("X")` on a name bound to a copy of the environment (`os.environ.copy()`, `dict(os.environ)`,
`{**os.environ}`) or passed as `env=`.
"""
from __future__ import annotations

import libcst as cst

from migrate.deploy.env_site import Access, EnvSite, NAME


ENVIRON = "os.environ"
READERS = {"os.getenv", "os.environ.get"}
SETTERS = {"os.putenv", "os.environ.setdefault"}
UNSETTERS = {"os.unsetenv", "os.environ.pop"}
SUBPROCESS = {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
              "subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"}


class _Module(cst.CSTVisitor):
    """One walk: what every name is bound to, and the nodes the sites are read from."""

    def __init__(self) -> None:
        self.assigned: dict[str, list[cst.BaseExpression]] = {}
        self.subscript_targets: list[tuple[cst.Subscript, Access, cst.BaseExpression | None]] = []
        self.subscripts: list[cst.Subscript] = []
        self.calls: list[cst.Call] = []
        self.dicts: list[cst.Dict] = []
        self.comparisons: list[cst.Comparison] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.assigned.setdefault(target.target.value, []).append(node.value)
            elif isinstance(target.target, cst.Subscript):
                self.subscript_targets.append((target.target, Access.SET, node.value))

    def visit_Del(self, node: cst.Del) -> None:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            value = target.value if isinstance(target, cst.Element) else target
            if isinstance(value, cst.Subscript):
                self.subscript_targets.append((value, Access.UNSET, None))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self.subscripts.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self.dicts.append(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.comparisons.append(node)


def _py_string(ctx, node: cst.CSTNode | None):
    """(text, start, end, quote) of a plain string literal's content, or None (f-strings, bytes, escapes)."""
    if not isinstance(node, cst.SimpleString):
        return None
    prefix = node.prefix.lower()
    if "b" in prefix or "f" in prefix:
        return None
    raw = node.raw_value
    if "\\" in raw or "\n" in raw:
        return None
    start, end = ctx.byte_span(node)
    return raw, start + len(node.prefix) + len(node.quote), end - len(node.quote), node.quote


class _PythonFinder:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.module = _Module()
        ctx.wrapper.module.visit(self.module)
        self.sites: list[EnvSite] = []
        self.env_names: set[str] = set()  # names bound to a copy of the environment, or passed as env=

    def qualified(self, node: cst.CSTNode) -> set[str]:
        if isinstance(node, (cst.Name, cst.Attribute)):
            return self.ctx.qualified_names(node)
        return set()

    def is_environ(self, node: cst.CSTNode | None) -> bool:
        return node is not None and ENVIRON in self.qualified(node)

    def is_environ_copy(self, node: cst.BaseExpression) -> bool:
        """`os.environ`, `os.environ.copy()`, `dict(os.environ, ...)`, `{**os.environ, ...}`."""
        if self.is_environ(node):
            return True
        if isinstance(node, cst.Call):
            if "os.environ.copy" in self.qualified(node.func):
                return True
            positional = [a for a in node.args if a.keyword is None and not a.star]
            return self.is_dict_call(node) and bool(positional) and self.is_environ(positional[0].value)
        if isinstance(node, cst.Dict):
            return any(isinstance(e, cst.StarredDictElement) and self.is_environ(e.value) for e in node.elements)
        return False

    def is_dict_call(self, node: cst.Call) -> bool:
        return "builtins.dict" in self.qualified(node.func)

    def add(self, name_node: cst.CSTNode, access: Access, value: cst.CSTNode | None = None,
            keyword: bool = False) -> None:
        if keyword:
            if not isinstance(name_node, cst.Name):
                return
            text = name_node.value
            start, end = self.ctx.byte_span(name_node)
        else:
            found = _py_string(self.ctx, name_node)
            if found is None or not NAME.fullmatch(found[0]):
                return
            text, start, end, _ = found
        literal = _py_string(self.ctx, value) if value is not None else None
        if literal is None:
            self.sites.append(EnvSite(text, start, end, access, syntax="python"))
        else:
            self.sites.append(EnvSite(text, start, end, access, *literal, "python"))

    def add_mapping(self, node: cst.BaseExpression) -> None:
        """The variables a dict literal or a dict(...) call sets."""
        if isinstance(node, cst.Dict):
            for element in node.elements:
                if isinstance(element, cst.DictElement):
                    self.add(element.key, Access.SET, element.value)
        elif isinstance(node, cst.Call) and self.is_dict_call(node):
            for arg in node.args:
                if arg.keyword is not None:
                    self.add(arg.keyword, Access.SET, arg.value, keyword=True)
                elif not arg.star:
                    self.add_mapping(arg.value)
        elif isinstance(node, cst.Name):
            for value in self.module.assigned.get(node.value, []):
                if isinstance(value, (cst.Dict, cst.Call)):
                    self.add_mapping(value)

    def run(self) -> list[EnvSite]:
        m = self.module
        for name, values in m.assigned.items():
            if any(self.is_environ_copy(v) for v in values):
                self.env_names.add(name)
        for node in m.dicts:  # {**os.environ, "X": v} wherever it is built
            if self.is_environ_copy(node):
                self.add_mapping(node)
        for call in m.calls:
            self.call(call)
        handled = set()
        for target, access, value in m.subscript_targets:
            handled.add(id(target))
            if self.is_environ(target.value) or (isinstance(target.value, cst.Name)
                                                 and target.value.value in self.env_names):
                self.add(self.key(target), access, value)
        for node in m.subscripts:
            if id(node) not in handled and self.is_environ(node.value):
                self.add(self.key(node), Access.READ)
        for node in m.comparisons:
            for target in node.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and self.is_environ(target.comparator):
                    self.add(node.left, Access.READ)
        return self.sites

    @staticmethod
    def key(node: cst.Subscript) -> cst.CSTNode | None:
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            return node.slice[0].slice.value
        return None

    def call(self, call: cst.Call) -> None:
        names = self.qualified(call.func)
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) \
                and call.func.value.value in self.env_names:
            method = call.func.attr.value
            names = names | {f"os.environ.{method}"} if method in ("update", "pop", "setdefault") else names
        if names & READERS and positional:
            self.add(positional[0], Access.READ, positional[1] if len(positional) > 1 else None)
        elif names & SETTERS and positional:
            self.add(positional[0], Access.SET, positional[1] if len(positional) > 1 else None)
        elif names & UNSETTERS and positional:
            self.add(positional[0], Access.UNSET)
        elif "os.environ.update" in names:
            for arg in call.args:
                if arg.keyword is not None:
                    self.add(arg.keyword, Access.SET, arg.value, keyword=True)
                elif not arg.star:
                    self.add_mapping(arg.value)
        elif names & SUBPROCESS:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "env":
                    self.add_mapping(arg.value)
                    if isinstance(arg.value, cst.Name):
                        self.env_names.add(arg.value.value)
        elif self.is_dict_call(call) and self.is_environ_copy(call):
            self.add_mapping(call)


def python_sites(ctx) -> list[EnvSite]:
    finder = _PythonFinder(ctx)
    # names passed as env= are found while reading the calls; their subscript assignments are read after that
    for call in finder.module.calls:
        if finder.qualified(call.func) & SUBPROCESS:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "env" and isinstance(arg.value, cst.Name):
                    finder.env_names.add(arg.value.value)
    return finder.run()
