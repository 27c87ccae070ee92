"""Lexing of C/C++ header text: comments and literals blanked, tokens, token-list helpers and identifiers."""
from __future__ import annotations

import re
from pathlib import Path


_LEX = re.compile(
    r"""(?P<lc>//[^\n]*)
      | (?P<bc>/\*.*?\*/)
      | (?P<raw>R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
      | (?P<str>"(?:\\.|[^"\\\n])*")
      | (?P<chr>'(?:\\.|[^'\\\n])*')
    """,
    re.S | re.X,
)
_TOKEN = re.compile(r"[A-Za-z_]\w*|::|->|\.\.\.|\d[\w.]*(?:'[\w.]+)*|\"\"|''|\S")
_IDENT = re.compile(r"[A-Za-z_]\w*$")
IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")


def strip_comments(text: str) -> str:
    """Comments become blanks (newlines kept), string and char literals become "" and ''."""

    def repl(m: re.Match) -> str:
        if m.group("lc") is not None:
            return " "
        if m.group("bc") is not None:
            return " " + "\n" * m.group("bc").count("\n")
        if m.group("raw") is not None:
            return '""' + "\n" * m.group("raw").count("\n")
        if m.group("str") is not None:
            return '""'
        return "''"

    return _LEX.sub(repl, text)


def _depth0(toks: list[str]) -> list[str]:
    """The tokens outside parentheses, less the symbol of an operator's name (`operator*=`, `operator==`,
    `operator()`): its `=` does not start an initializer."""
    out, depth, k = [], 0, 0
    while k < len(toks):
        t = toks[k]
        if t == "operator" and depth == 0:
            k += 1
            if toks[k:k + 2] == ["(", ")"]:
                k += 2
            while k < len(toks) and toks[k] != "(" and not _IDENT.match(toks[k]):
                k += 1
            continue
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif depth == 0:
            out.append(t)
        k += 1
    return out


def _strip_templates(toks: list[str]) -> list[str]:
    """Tokens without their `template <...>` parameter lists."""
    if "template" not in toks:
        return toks
    out, k = [], 0
    while k < len(toks):
        if toks[k] == "template" and k + 1 < len(toks) and toks[k + 1] == "<":
            k = _skip_angles(toks, k + 1)
            continue
        out.append(toks[k])
        k += 1
    return out


def _skip_parens(toks: list[str], k: int) -> int:
    """toks[k] == '(' : index after the matching ')'."""
    if k >= len(toks) or toks[k] != "(":
        return k
    depth = 0
    while k < len(toks):
        if toks[k] == "(":
            depth += 1
        elif toks[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k


def _skip_angles(toks: list[str], k: int) -> int:
    """toks[k] == '<' : index after the matching '>' (parentheses nest, '>>' not split)."""
    depth = 0
    while k < len(toks):
        t = toks[k]
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return k + 1
        elif t == "(":
            k = _skip_parens(toks, k)
            continue
        elif t in (";", "{"):
            return k
        k += 1
    return k


def _typedef_names(toks: list[str]) -> list[str]:
    """Declarator names of a typedef (tokens after `typedef`)."""
    # declarators start after the last top-level '{}' placeholder, else after the type
    if "{}" in toks:
        toks = toks[len(toks) - 1 - toks[::-1].index("{}") + 1:]
        parts = _split_commas(toks)
    else:
        parts = _split_commas(toks)
    names = []
    for part in parts:
        if not part:
            continue
        if "(" in part:  # function pointer / function type: (ATTR *NAME)(...) or NAME(...)
            k = part.index("(")
            inner = part[k + 1:_skip_parens(part, k) - 1]
            ids = [t for t in inner if _IDENT.match(t)]
            if "*" in inner or "&" in inner or "^" in inner:
                star = max(j for j, t in enumerate(inner) if t in ("*", "&", "^"))
                after = [t for t in inner[star + 1:] if _IDENT.match(t)]
                if after:
                    names.append(after[0])
                    continue
            before = [t for t in part[:k] if _IDENT.match(t)]
            if before and not ids:
                names.append(before[-1])
            elif before:
                names.append(before[-1])
            continue
        cut = part.index("[") if "[" in part else len(part)
        ids = [t for t in part[:cut] if _IDENT.match(t)]
        ids = [t for t in ids if not (t.startswith("__") and t.endswith("__"))]
        if ids:
            names.append(ids[-1])
    return names


def _split_commas(toks: list[str]) -> list[list[str]]:
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in ("(", "[", "<"):
            depth += 1
        elif t in (")", "]", ">"):
            depth -= 1
        if t == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def identifiers_in(text: str) -> set[str]:
    """All identifiers of header text outside comments and string literals."""
    return set(re.findall(r"[A-Za-z_]\w*", strip_comments(text)))


def read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
