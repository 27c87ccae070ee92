"""Expanding GNU make text without running anything: variable references (`$(X)`, `${X}`, `$X`, `$(X:a=b)`) and
make's functions, for the evaluator of migrate/buildfiles/make_eval.py (whose docstring lists what is followed).
`$(shell ...)` runs nothing: the few commands whose output does not depend on the machine are answered from a table.
"""
from __future__ import annotations

import glob
import os
import re
from pathlib import Path

SHELL_OUTPUT = {"uname": "Linux", "uname -s": "Linux", "uname -o": "GNU/Linux"}
# name -> how many arguments it splits into (the last takes the rest, commas and all)
FUNCTIONS = {"findstring": 2, "filter": 2, "filter-out": 2, "strip": 1, "if": 3, "or": 0, "and": 0, "subst": 3,
             "patsubst": 3, "sort": 1, "word": 2, "words": 1, "firstword": 1, "lastword": 1, "addprefix": 2,
             "addsuffix": 2, "notdir": 1, "dir": 1, "basename": 1, "suffix": 1, "join": 2, "foreach": 3,
             "call": 0, "value": 1, "wildcard": 1, "shell": 1, "info": 1, "warning": 1, "error": 1, "eval": 1,
             "origin": 1, "flavor": 1, "abspath": 1, "realpath": 1, "wordlist": 3, "file": 2, "let": 3,
             "intcmp": 0, "guile": 1}


def matching(text: str, start: int, opening: str, closing: str) -> int:
    """Index of the `closing` that matches text[start] (an `opening`), or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i
    return -1


def split_top(text: str, separator: str, limit: int = 0) -> list[str]:
    """`text` split at each `separator` outside parentheses and braces (at most `limit` parts, 0: no limit)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == separator and depth <= 0 and (not limit or len(parts) < limit - 1):
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def pattern_match(pattern: str, word: str) -> str | None:
    """The stem of `word` under a make pattern with at most one `%` (the word itself for none), or None."""
    if "%" not in pattern:
        return word if pattern == word else None
    head, tail = pattern.split("%", 1)
    if len(word) >= len(head) + len(tail) and word.startswith(head) and word.endswith(tail):
        return word[len(head):len(word) - len(tail)]
    return None


def patsubst(pattern: str, replacement: str, words: list[str]) -> str:
    out = []
    for w in words:
        stem = pattern_match(pattern, w)
        if stem is None:
            out.append(w)
        else:
            out.append(replacement.replace("%", stem, 1) if "%" in pattern else replacement)
    return " ".join(out)


def shell_output(command: str) -> str:
    """The output of the few commands known not to depend on the machine; nothing is run."""
    command = re.sub(r"\s*2>\s*/dev/null\s*$", "", " ".join(command.split()))
    return SHELL_OUTPUT.get(command, "")


class Expander:
    def __init__(self, evaluation: Evaluation):
        self.evaluation = evaluation
        self.busy: set[str] = set()  # recursive variables being expanded (a loop expands to nothing)

    def expand(self, text: str, local: dict[str, str]) -> str:
        out, i, n = [], 0, len(text)
        while i < n:
            j = text.find("$", i)
            if j < 0 or j + 1 >= n:
                out.append(text[i:] if j < 0 else text[i:j])
                break
            out.append(text[i:j])
            ch = text[j + 1]
            if ch == "$":
                out.append("$")
                i = j + 2
            elif ch in "({":
                end = matching(text, j + 1, ch, ")" if ch == "(" else "}")
                if end < 0:
                    break  # make stops at an unterminated reference
                out.append(self.reference(text[j + 2:end], local))
                i = end + 1
            else:
                out.append(self.variable(ch, local))
                i = j + 2
        return "".join(out)

    def variable(self, name: str, local: dict[str, str]) -> str:
        if name in local:
            return local[name]
        var = self.evaluation.variables.get(name)
        if var is None:
            return ""
        if not var.recursive:
            return var.value
        if name in self.busy:
            return ""
        self.busy.add(name)
        try:
            return self.expand(var.value, local)
        finally:
            self.busy.discard(name)

    def reference(self, body: str, local: dict[str, str]) -> str:
        m = re.match(r"([a-z-]+)[ \t]", body)
        if m and m.group(1) in FUNCTIONS:
            return self.function(m.group(1), body[m.end():].lstrip(" \t"), local)
        colon = split_top(body, ":", 2)
        if len(colon) == 2 and "=" in colon[1]:
            pattern, replacement = (self.expand(p, local) for p in colon[1].split("=", 1))
            words = self.variable(self.expand(colon[0], local), local).split()
            if "%" not in pattern:
                pattern, replacement = "%" + pattern, "%" + replacement
            return patsubst(pattern, replacement, words)
        return self.variable(self.expand(body, local), local)

    def function(self, name: str, raw: str, local: dict[str, str]) -> str:
        args = split_top(raw, ",", FUNCTIONS[name])
        if name == "if":
            chosen = 1 if self.expand(args[0], local).strip() else 2
            return self.expand(args[chosen], local) if chosen < len(args) else ""
        if name in ("or", "and"):
            value = ""
            for arg in args:
                value = self.expand(arg, local).strip()
                if bool(value) == (name == "or"):
                    return value
            return value if name == "and" else ""
        if name == "foreach" and len(args) == 3:
            var = self.expand(args[0], local).strip()
            return " ".join(self.expand(args[2], {**local, var: w}) for w in self.expand(args[1], local).split())
        if name == "call":
            values = [self.expand(a, local) for a in args]
            macro = values[0].strip()
            bound = {str(k): v for k, v in enumerate(values)}
            bound["0"] = macro
            var = self.evaluation.variables.get(macro)
            return self.expand(var.value, bound) if var is not None and var.recursive else (var.value if var else "")
        if name == "value":
            var = self.evaluation.variables.get(self.expand(args[0], local).strip())
            return var.value if var else ""
        a = [self.expand(x, local) for x in args]
        a += [""] * (FUNCTIONS[name] - len(a))
        if name == "findstring":
            return a[0] if a[0] in a[1] else ""
        if name in ("filter", "filter-out"):
            patterns = a[0].split()
            keep = name == "filter"
            return " ".join(w for w in a[1].split()
                            if any(pattern_match(p, w) is not None for p in patterns) == keep)
        if name == "strip":
            return " ".join(a[0].split())
        if name == "subst":
            return a[2].replace(a[0], a[1]) if a[0] else a[2]
        if name == "patsubst":
            return patsubst(a[0].strip(), a[1].strip(), a[2].split())
        if name == "sort":
            return " ".join(sorted(set(a[0].split())))
        if name == "word":
            words, index = a[1].split(), a[0].strip()
            return words[int(index) - 1] if index.isdigit() and 0 < int(index) <= len(words) else ""
        if name == "words":
            return str(len(a[0].split()))
        if name in ("firstword", "lastword"):
            words = a[0].split()
            return (words[0] if name == "firstword" else words[-1]) if words else ""
        if name == "addprefix":
            return " ".join(a[0] + w for w in a[1].split())
        if name == "addsuffix":
            return " ".join(w + a[0] for w in a[1].split())
        if name == "join":
            left, right = a[0].split(), a[1].split()
            return " ".join((left[k] if k < len(left) else "") + (right[k] if k < len(right) else "")
                            for k in range(max(len(left), len(right))))
        if name == "notdir":
            return " ".join(w.rsplit("/", 1)[-1] for w in a[0].split())
        if name == "dir":
            return " ".join(w.rsplit("/", 1)[0] + "/" if "/" in w else "./" for w in a[0].split())
        if name == "suffix":
            return " ".join(m.group() for w in a[0].split() if (m := re.search(r"\.[^./]*$", w)))
        if name == "basename":
            return " ".join(re.sub(r"\.[^./]*$", "", w) for w in a[0].split())
        if name in ("abspath", "realpath"):
            base = self.evaluation.path.parent.resolve()
            paths = [os.path.normpath(base / w) for w in a[0].split()]
            if name == "realpath":
                paths = [str(Path(p).resolve()) for p in paths if Path(p).exists()]
            return " ".join(paths)
        if name == "wildcard":
            return " ".join(self.wildcard(p) for p in a[0].split()).strip()
        if name == "shell":
            return shell_output(a[0])
        return ""

    def wildcard(self, pattern: str) -> str:
        """Paths of the tree matching `pattern`, relative to the top Makefile's folder as written."""
        base, root = self.evaluation.path.parent.resolve(), self.evaluation.root
        if Path(pattern).is_absolute():
            return ""
        found = []
        for name in sorted(glob.glob(pattern, root_dir=base)):
            if (base / name).resolve().is_relative_to(root):
                found.append(name)
        return " ".join(found)
