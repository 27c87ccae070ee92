"""A small C/C++ header scanner: the declarations (name, kind, header, family) of header text."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .families import CXX_KEYWORDS
from .lexer import _IDENT, _TOKEN, _depth0, _skip_angles, _skip_parens, _strip_templates, _typedef_names, strip_comments


NOT_FUNCTIONS = {
    "sizeof", "alignof", "decltype", "static_assert", "if", "while", "for", "switch", "return",
    "alignas", "noexcept", "throw", "typeid", "defined", "asm", "__asm__", "__asm", "_Pragma",
    "__pragma", "template", "typename", "operator", "new", "delete", "static_cast", "const_cast",
    "reinterpret_cast", "dynamic_cast", "catch", "__declspec", "__attribute__", "__align__",
    "__launch_bounds__", "__builtin_align__", "__nv_alignas", "requires", "explicit",
}
CLASS_KEYS = {"struct", "class", "union"}
IF, ELSE, ENDIF = "__GENPACKS_IF__", "__GENPACKS_ELSE__", "__GENPACKS_ENDIF__"  # conditional markers
INTERNAL_NAMESPACES = re.compile(r"^(details?|__\w*|_\w*|impl|internal|experimental)$")


@dataclass
class Decl:
    name: str
    kind: str      # function, type, enum, macro, namespace
    header: str    # header path as included
    family: str
    internal: bool  # declared inside a details/impl namespace or a class body


KIND_RANK = {"type": 0, "enum": 1, "function": 2, "namespace": 3, "macro": 4}


class Scanner:
    """Collects declarations from header text: #define names, namespaces, struct/class/union/enum
    tags, typedef and using names, enumerators and function declarations/definitions."""

    def __init__(self) -> None:
        self.decls: list[Decl] = []
        self.attr_macros: set[str] = set()          # object-like macros that expand to attributes
        self.aliases: list[tuple[str, str, str, str]] = []  # (#define A B: A, B, header, family)
        self.compiler_macros: set[str] = set()      # __CUDACC__ & co. tested in #if lines
        self.enum_twins: list[list[str]] = []       # enumerators of one enum with the same value, 2 or more

    ATTR_START = {"__attribute__", "__declspec", "[", "__align__", "__host__", "__device__", "__forceinline__",
                  "__inline__", "inline", "static", "extern", "__noinline__", "__stdcall", "__cdecl",
                  "__global__", "__cudart_builtin__", "__location__", "__thread__", "__CUDA_DEPRECATED",
                  "__nv_pure__", "constexpr", "__export__", "__declspec__", "alignas", "__shared__"}

    def collect_macros(self, text: str) -> None:
        """First pass: object-like macros that are attributes (empty or attribute-like bodies)."""
        text = strip_comments(text).replace("\\\r\n", " ").replace("\\\n", " ")
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\b(?!\()([^\n]*)$", text, re.M):
            body = _TOKEN.findall(m.group(2))
            if not body or body[0] in self.ATTR_START or (len(body) == 1 and body[0] in self.attr_macros):
                self.attr_macros.add(m.group(1))

    def add(self, name: str, kind: str, header: str, family: str, internal: bool) -> None:
        if _IDENT.match(name):
            self.decls.append(Decl(name, kind, header, family, internal))

    def scan(self, text: str, header: str, family: str, macros_only: bool = False) -> None:
        text = strip_comments(text).replace("\\\r\n", " ").replace("\\\n", " ")
        code_lines = []
        for line in text.split("\n"):
            s = line.lstrip()
            if s.startswith("#"):
                d = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$", s)
                if d and not re.search(r"_(H|HPP|CUH|INCLUDED)_*$", d.group(1)):
                    self.add(d.group(1), "macro", header, family, False)
                    if not d.group(2) and _IDENT.match(d.group(3).strip()):
                        self.aliases.append((d.group(1), d.group(3).strip(), header, family))
                if re.match(r"#\s*(if|ifdef|ifndef|elif)\b", s):
                    self.compiler_macros.update(re.findall(r"\b(__(?:CUDACC|NVCC|CUDA_ARCH)\w*__)", s))
                for ns in re.findall(r"\bnamespace\s+([A-Za-z_]\w*)\s*\{", s):
                    self.add(ns, "namespace", header, family, bool(INTERNAL_NAMESPACES.match(ns)))
                c = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b", s)
                marker = {"if": IF, "ifdef": IF, "ifndef": IF, "elif": ELSE, "else": ELSE, "endif": ENDIF}
                code_lines.append(marker[c.group(1)] if c else "")
            else:
                code_lines.append(line)
        if macros_only:
            for ns in re.findall(r"\bnamespace\s+([A-Za-z_]\w*)\s*\{", text):
                self.add(ns, "namespace", header, family, bool(INTERNAL_NAMESPACES.match(ns)))
            return
        self._parse(_TOKEN.findall("\n".join(code_lines)), header, family)

    def _twins(self, enumerators: list[list[str]]) -> None:
        """Groups of one enum's enumerators that have the same value: `NAME = 102` written twice, or `NAME = OTHER`
        naming an enumerator of the same enum (a deprecated spelling kept beside the new one). Values that are
        not a single integer literal or name are left out."""
        groups: dict[str, list[str]] = {}
        names: set[str] = set()
        for tokens in enumerators:
            if len(tokens) != 3 or tokens[1] != "=" or not _IDENT.match(tokens[0]):
                continue
            name, value = tokens[0], tokens[2]
            if _IDENT.match(value) and value not in names:
                continue
            if not _IDENT.match(value):
                try:
                    value = str(int(value.rstrip("uUlL"), 0))
                except ValueError:
                    continue
            key = next((k for k, group in groups.items() if value in group), value)
            groups.setdefault(key, []).append(name)
            names.add(name)
        self.enum_twins.extend(group for group in groups.values() if len(group) > 1)

    # ---- declarations in code ----
    def _parse(self, toks: list[str], header: str, family: str) -> None:
        # context stack entries: ("ns", internal) | ("class", ..) | ("enum", ..) | ("body", ..)
        stack: list[tuple[str, bool]] = [("ns", False)]
        stmt: list[str] = []      # current statement (namespace/class scope)
        saved: list[list[str]] = []  # statements interrupted by a class/enum body
        item: list[str] = []      # current enumerator (enum scope)
        values: list[list[str]] = []  # the enumerators of the current enum, as tokens
        depth_body = 0
        i = 0
        n = len(toks)
        # conditional groups: every branch is parsed, but after #endif the state is the one at the
        # end of the first branch (branches are alternatives: `#if A void f() { #else void g() { #endif`)
        cond: list[list] = []
        while i < n:
            t = toks[i]
            if t in (IF, ELSE, ENDIF):
                state = (list(stack), depth_body, list(stmt), [list(x) for x in saved], list(item))
                if t == IF:
                    cond.append([state, None])
                elif cond and t == ELSE:
                    if cond[-1][1] is None:
                        cond[-1][1] = state
                    s0 = cond[-1][0]
                    stack, depth_body, stmt, saved, item = (list(s0[0]), s0[1], list(s0[2]),
                                                            [list(x) for x in s0[3]], list(s0[4]))
                elif cond and t == ENDIF:
                    _, first = cond.pop()
                    if first is not None:
                        stack, depth_body, stmt, saved, item = first
                i += 1
                continue
            ctx, internal = stack[-1]
            if ctx == "body":
                if t == "{":
                    depth_body += 1
                elif t == "}":
                    depth_body -= 1
                    if depth_body == 0:
                        stack.pop()
                        stmt = saved.pop() if saved else []
                        # a function definition or an initializer ends here;
                        # `= {...};` keeps its statement going until the `;`
                        if stmt and stmt[-1] == "{}=":
                            stmt = stmt[:-1] + ["{}"]
                        else:
                            stmt = []
                i += 1
                continue
            if ctx == "enum":
                if t in (",", "}"):
                    for tok in item:
                        if _IDENT.match(tok):
                            if not (tok.startswith("__") and tok.endswith("__")):
                                self.add(tok, "enum", header, family, internal)
                            break
                    values.append(item)
                    item = []
                    if t == "}":
                        stack.pop()
                        stmt = (saved.pop() if saved else []) + ["{}"]
                        self._twins(values)
                        values = []
                elif t == "{":  # should not happen; be safe
                    stack.append(("body", internal))
                    saved.append(stmt)
                    depth_body = 1
                else:
                    item.append(t)
                i += 1
                continue
            # namespace or class scope
            if t == ";":
                self._statement(stmt, header, family, internal or ctx == "class")
                stmt = []
            elif t == "{":
                kind, name = self._opening(stmt)
                in_class = ctx == "class"
                if kind == "namespace":
                    ns_internal = internal or bool(name and INTERNAL_NAMESPACES.match(name))
                    if name:
                        self.add(name, "namespace", header, family, ns_internal)
                    stack.append(("ns", ns_internal))
                    stmt = []
                elif kind == "extern":
                    stack.append(("ns", internal))
                    stmt = []
                elif kind in ("class", "enum"):
                    if name:
                        self.add(name, "type", header, family, internal or in_class)
                    saved.append(stmt)
                    stack.append((kind, internal or in_class))
                    item = []
                    values = []
                    stmt = []
                else:  # function body or initializer
                    if kind == "function":
                        self._statement(stmt, header, family, internal or in_class)
                        saved.append([])
                    else:
                        saved.append(stmt + ["{}="])
                    stack.append(("body", internal))
                    depth_body = 1
                    stmt = []
            elif t == "}":
                if len(stack) > 1:
                    stack.pop()
                    if ctx == "class":
                        stmt = (saved.pop() if saved else []) + ["{}"]
                    else:
                        stmt = []
                else:
                    stmt = []
            elif t == ":" and ctx == "class" and stmt and stmt[-1] in ("public", "private", "protected"):
                stmt = []
            else:
                stmt.append(t)
            i += 1

    def _opening(self, stmt: list[str]) -> tuple[str, str | None]:
        """What does a `{` after these tokens open?"""
        stmt = _strip_templates(stmt)
        if not stmt:
            return "block", None
        if "namespace" in stmt:
            k = len(stmt) - 1 - stmt[::-1].index("namespace")
            rest = [t for t in stmt[k + 1:] if t != "inline"]
            names = [t for t in rest if _IDENT.match(t)]
            return "namespace", (names[-1] if names else None)
        if stmt[-1] == '""' and len(stmt) >= 2 and stmt[-2] == "extern":
            return "extern", None  # extern "C" {  (whatever stray tokens precede it)
        if "=" in _depth0(stmt):
            return "init", None
        depth = 0
        for k, t in enumerate(stmt):
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif depth == 0 and (t == "enum" or (t in CLASS_KEYS and "(" not in stmt[:k])):
                name, j = self._head_name(stmt, k + 1)
                if j < len(stmt) and stmt[j] != ":":
                    break  # `struct X f(...) {` / `enum X f(...) {` / `struct X x = {`: no definition
                return ("enum" if t == "enum" else "class"), name
        if ")" in stmt or stmt[-1] in ("const", "noexcept", "override", "final"):
            return "function", None
        return "block", None

    def _is_attr(self, toks: list[str], j: int) -> bool:
        t = toks[j]
        return (t in self.attr_macros or (t.startswith("__") and t.endswith("__") and len(t) > 4)
                or t in ("alignas", "__declspec", "final", "[") or (t.isupper() and j + 1 < len(toks) and toks[j + 1] == "("))

    def _head_name(self, toks: list[str], j: int) -> tuple[str | None, int]:
        """Name of `struct/class/union/enum [class] [attributes] NAME [<...>] [final]` from toks[j];
        returns (name, index after the head)."""
        name = None
        while j < len(toks):
            t = toks[j]
            if t in ("class", "struct") and name is None:
                j += 1
            elif t == "[" and j + 1 < len(toks) and toks[j + 1] == "[":
                while j < len(toks) and toks[j] != "]":
                    j += 1
                j += 2
            elif self._is_attr(toks, j):
                j = _skip_parens(toks, j + 1) if j + 1 < len(toks) and toks[j + 1] == "(" else j + 1
            elif _IDENT.match(t) and name is None:
                name = t
                j += 1
                while j + 1 < len(toks) and toks[j] == "::" and _IDENT.match(toks[j + 1]):
                    name = toks[j + 1]
                    j += 2
                if j < len(toks) and toks[j] == "<":
                    j = _skip_angles(toks, j)
            else:
                break
        return name, j

    def _statement(self, stmt: list[str], header: str, family: str, internal: bool) -> None:
        templated = bool(stmt) and stmt[0] == "template"
        stmt = _strip_templates(stmt)
        if not stmt:
            return
        # type names anywhere: struct X / class X / union X / enum X (forward or elaborated)
        for k, t in enumerate(stmt[:-1]):
            if (t in CLASS_KEYS or t == "enum") and (k == 0 or stmt[k - 1] != "enum"):
                name, _ = self._head_name(stmt, k + 1)
                if name:
                    self.add(name, "type", header, family, internal)
        first = 0
        while first < len(stmt) and stmt[first] in ("extern", "template", "__extension__"):
            if stmt[first] == "template" and first + 1 < len(stmt) and stmt[first + 1] == "<":
                first = _skip_angles(stmt, first + 1)
            else:
                first += 1
        body = stmt[first:]
        if not body:
            return
        if body[0] == "typedef":
            for name in _typedef_names([t for t in body[1:] if t not in self.attr_macros]):
                self.add(name, "type", header, family, internal)
            return
        if body[0] == "using" and len(body) > 2 and _IDENT.match(body[1]) and body[2] == "=":
            self.add(body[1], "type", header, family, internal)
            return
        if body[0] in ("using", "friend", "namespace", "static_assert", "return"):
            return
        # function declaration: the first NAME( at paren depth 0 that is not an attribute/macro
        depth = 0
        k = 0
        while k < len(body) - 1:
            t = body[k]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif t == "<" and depth == 0 and k > 0 and _IDENT.match(body[k - 1]):
                k = _skip_angles(body, k)
                continue
            elif t == "=" and depth == 0:
                return  # a variable with an initializer
            elif depth == 0 and _IDENT.match(t) and body[k + 1] == "(":
                prev = body[k - 1] if k else ""
                if (t in NOT_FUNCTIONS or t in CXX_KEYWORDS or prev in ("operator", "::", ".", "->") or t.isupper()
                        or (t.startswith("__") and t.endswith("__") and len(t) > 4)):
                    k = _skip_parens(body, k + 1)
                    continue
                if k == 0 and not templated:
                    return  # a macro invocation at file scope, not a declaration
                self.add(t, "function", header, family, internal)
                return
            k += 1
