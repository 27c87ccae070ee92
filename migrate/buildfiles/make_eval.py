"""A Makefile read the way GNU make reads it, without running anything: which branches of the conditionals are
taken, what each variable holds at the end, and which recipe lines are left.

    evaluate(path, variables=None, root=None) -> Evaluation

`variables` are the command line's `NAME=VALUE` (they override every assignment in the file, except those
with `override`); `root` bounds the tree that `include` and `$(wildcard)` may look at (the Makefile's folder
by default). The evaluation follows make with its defaults on Linux:

- assignments `=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`, with `override`/`export`/`private`, `define`/`endef`
  and `undefine`; a later assignment wins; make's default variables (`CC = cc`, `CXX = g++`, ...) are set,
  so `CC ?= clang` keeps `cc` as make does; the environment is not read (`$(OS)` is empty, as on Linux);
- `ifeq`/`ifneq` in the `(a,b)`, `"a" "b"` and `'a' 'b'` forms, `ifdef`/`ifndef`, `else`, `else ifeq ...`,
  nested; a condition is expanded only when its branch is read;
- references `$(X)`, `${X}`, `$X`, `$(X:a=b)` and the functions `findstring filter filter-out strip if or and
  subst patsubst sort word words firstword lastword addprefix addsuffix notdir dir basename suffix join foreach
  call value abspath realpath wildcard shell` (`info`, `warning`, `error`, `eval` and others expand to
  nothing); `CURDIR` is the Makefile's folder and `MAKEFILE_LIST` the files read so far;
- `$(shell ...)` runs nothing: `uname` and `uname -s` give `Linux`, `uname -o` `GNU/Linux`; any other
  command gives the empty string (so does `!=`);
- `$(wildcard ...)` and `include`/`-include`/`sinclude` are resolved against the top Makefile's folder (make's
  working directory), and only inside `root`; an included file that is not there is skipped.

Automatic variables (`$@`, `$<`, `$^`, ...) are empty: no target is being made.
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from migrate.buildfiles.make import Line, MakeContext
from migrate.options import Options
from migrate.packs import default_packs

DEFAULTS = {"CC": "cc", "CXX": "g++", "CPP": "$(CC) -E", "AR": "ar", "AS": "as", "LD": "ld", "RM": "rm -f",
            "MAKE": "make", "SHELL": "/bin/sh", "ARFLAGS": "rv", "LEX": "lex", "YACC": "yacc", "FC": "f77"}
SHELL_OUTPUT = {"uname": "Linux", "uname -s": "Linux", "uname -o": "GNU/Linux"}
ASSIGNMENT = re.compile(r"([^\s:=#]+?)\s*(:::=|::=|:=|\?=|\+=|!=|=)")
CONDITIONALS = ("ifeq", "ifneq", "ifdef", "ifndef")
PREFIXES = ("override", "export", "private")
MAX_INCLUDE_DEPTH = 16
# name -> how many arguments it splits into (the last takes the rest, commas and all)
FUNCTIONS = {"findstring": 2, "filter": 2, "filter-out": 2, "strip": 1, "if": 3, "or": 0, "and": 0, "subst": 3,
             "patsubst": 3, "sort": 1, "word": 2, "words": 1, "firstword": 1, "lastword": 1, "addprefix": 2,
             "addsuffix": 2, "notdir": 1, "dir": 1, "basename": 1, "suffix": 1, "join": 2, "foreach": 3,
             "call": 0, "value": 1, "wildcard": 1, "shell": 1, "info": 1, "warning": 1, "error": 1, "eval": 1,
             "origin": 1, "flavor": 1, "abspath": 1, "realpath": 1, "wordlist": 3, "file": 2, "let": 3,
             "intcmp": 0, "guile": 1}


@dataclass
class Variable:
    value: str  # as written for a recursive variable, already expanded for a simple one
    recursive: bool
    origin: str  # "default", "file", "command line" or "override"


@dataclass(frozen=True)
class Recipe:
    path: Path  # the file it stands in (the Makefile or one it includes)
    line: Line  # its logical line in that file
    command: str  # the command as written: the tab and backslash-newlines removed, not expanded


@dataclass
class Evaluation:
    path: Path
    root: Path
    variables: dict[str, Variable] = field(default_factory=dict)
    recipes: list[Recipe] = field(default_factory=list)  # of the branches taken, in the order make reads them
    files: list[Path] = field(default_factory=list)  # the Makefile and the files it includes that were read

    def value(self, name: str) -> str:
        """The variable's value as a reference `$(name)` gives it."""
        return self.expand(f"$({name})")

    def expand(self, text: str) -> str:
        """`text` with its references and function calls expanded."""
        return _Expander(self).expand(text, {})

    def names(self, *origins: str) -> list[str]:
        """The variables set by the file or the command line (or of the given origins), in the order first set."""
        wanted = origins or ("file", "command line", "override")
        return [name for name, var in self.variables.items() if var.origin in wanted]


def evaluate(path: Path, variables: dict[str, str] | None = None, root: Path | None = None) -> Evaluation:
    """Read the Makefile at `path` as GNU make would with `make NAME=VALUE ...` for `variables`."""
    result = Evaluation(path, (root or path.parent).resolve())
    result.variables.update({k: Variable(v, True, "default") for k, v in DEFAULTS.items()})
    result.variables["CURDIR"] = Variable(str(path.parent.resolve()), False, "default")
    result.variables["MAKEFILE_LIST"] = Variable("", False, "default")
    result.variables.update({k: Variable(v, True, "command line") for k, v in (variables or {}).items()})
    _Reader(result).read(path, 0)
    return result


def _matching(text: str, start: int, opening: str, closing: str) -> int:
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


def _split_top(text: str, separator: str, limit: int = 0) -> list[str]:
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


def _pattern_match(pattern: str, word: str) -> str | None:
    """The stem of `word` under a make pattern with at most one `%` (the word itself for none), or None."""
    if "%" not in pattern:
        return word if pattern == word else None
    head, tail = pattern.split("%", 1)
    if len(word) >= len(head) + len(tail) and word.startswith(head) and word.endswith(tail):
        return word[len(head):len(word) - len(tail)]
    return None


def _patsubst(pattern: str, replacement: str, words: list[str]) -> str:
    out = []
    for w in words:
        stem = _pattern_match(pattern, w)
        if stem is None:
            out.append(w)
        else:
            out.append(replacement.replace("%", stem, 1) if "%" in pattern else replacement)
    return " ".join(out)


def _shell(command: str) -> str:
    """The output of the few commands known not to depend on the machine; nothing is run."""
    command = re.sub(r"\s*2>\s*/dev/null\s*$", "", " ".join(command.split()))
    return SHELL_OUTPUT.get(command, "")


class _Expander:
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
                end = _matching(text, j + 1, ch, ")" if ch == "(" else "}")
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
        colon = _split_top(body, ":", 2)
        if len(colon) == 2 and "=" in colon[1]:
            pattern, replacement = (self.expand(p, local) for p in colon[1].split("=", 1))
            words = self.variable(self.expand(colon[0], local), local).split()
            if "%" not in pattern:
                pattern, replacement = "%" + pattern, "%" + replacement
            return _patsubst(pattern, replacement, words)
        return self.variable(self.expand(body, local), local)

    def function(self, name: str, raw: str, local: dict[str, str]) -> str:
        args = _split_top(raw, ",", FUNCTIONS[name])
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
                            if any(_pattern_match(p, w) is not None for p in patterns) == keep)
        if name == "strip":
            return " ".join(a[0].split())
        if name == "subst":
            return a[2].replace(a[0], a[1]) if a[0] else a[2]
        if name == "patsubst":
            return _patsubst(a[0].strip(), a[1].strip(), a[2].split())
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
            return _shell(a[0])
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


@dataclass
class _Branch:
    outer: bool  # whether the text around the conditional is read
    taking: bool  # whether the current branch is read
    taken: bool  # whether some branch so far was


@dataclass
class _Define:
    name: str
    op: str
    overriding: bool
    read: bool  # in a branch that is read (a define in another is skipped whole, as make does)
    body: list[str] = field(default_factory=list)
    nesting: int = 1


def _comment_free(text: str) -> str:
    """`text` up to its comment: a `#` outside references and function calls, not escaped (`\\#` is a `#`)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1:i + 2] == "#":
            out.append("#")
            i += 2
            continue
        if ch == "#" and depth == 0:
            break
        if ch == "$" and text[i + 1:i + 2] in ("(", "{"):
            depth += 1
            out.append(text[i:i + 2])
            i += 2
            continue
        if ch in "({" and depth:
            depth += 1
        elif ch in ")}" and depth:
            depth -= 1
        out.append(ch)
        i += 1
    return "".join(out)


def _comparison(text: str) -> tuple[str, str] | None:
    """The two unexpanded operands of `ifeq`/`ifneq`: `(a,b)` (blanks before the comma and after it dropped,
    as make does), or `"a" "b"` / `'a' 'b'`."""
    text = text.strip()
    if text.startswith("("):
        end = _matching(text, 0, "(", ")")
        if end < 0:
            return None
        parts = _split_top(text[1:end], ",", 2)
        return (parts[0].rstrip(), parts[1].lstrip()) if len(parts) == 2 else None
    m = re.fullmatch(r"""(["'])(.*?)\1\s+(["'])(.*?)\3""", text)
    return (m.group(2), m.group(4)) if m else None


class _Reader:
    def __init__(self, evaluation: Evaluation):
        self.evaluation = evaluation
        self.expander = _Expander(evaluation)
        self.reading: set[Path] = set()

    def expand(self, text: str) -> str:
        return self.expander.expand(text, {})

    def read(self, path: Path, depth: int) -> None:
        resolved = path.resolve()
        if depth > MAX_INCLUDE_DEPTH or resolved in self.reading:
            return
        self.reading.add(resolved)
        self.evaluation.files.append(path)
        listed = self.evaluation.variables.get("MAKEFILE_LIST")
        if listed is not None and not listed.recursive:
            listed.value = " ".join([*listed.value.split(), os.path.relpath(path, self.evaluation.path.parent)])
        ctx = MakeContext(path.name, path.read_bytes(), Options(), default_packs(), "7.0")
        stack: list[_Branch] = []
        in_rule = targets = False
        define: _Define | None = None
        for line in ctx.lines:
            raw = ctx.data[line.start:line.end].decode("utf-8", "surrogateescape")
            active = not stack or (stack[-1].outer and stack[-1].taking)
            if define is not None:
                if re.match(r"\s*endef(?:\s|#|$)", raw):
                    define.nesting -= 1
                elif re.match(r"\s*(?:(?:override|export|private)\s+)*define\s", raw):
                    define.nesting += 1
                if define.nesting:
                    define.body.append(raw)
                    continue
                if define.read:
                    self.assign(define.name, define.op, "\n".join(define.body), define.overriding)
                define = None
                continue
            if raw.startswith("\t") and in_rule:
                if active and targets:  # make ignores the recipe of a rule whose targets expand to nothing
                    self.evaluation.recipes.append(Recipe(path, line, line.text[1:]))
                continue
            # make keeps the blanks at the end of a value (`X = a # note` is "a ")
            text = _comment_free(re.sub(r"[ \t]*(?:\\\r?\n[ \t]*)+", " ", raw)).lstrip()
            if not text.strip():
                continue
            words = text.split()
            keyword, rest = words[0], text[len(words[0]):].strip()
            if keyword in CONDITIONALS:
                stack.append(_Branch(active, False, False))
                if active:
                    stack[-1].taking = stack[-1].taken = self.condition(keyword, rest)
                continue
            if keyword == "else" and stack:
                branch = stack[-1]
                nested = rest.split(maxsplit=1)[0] if rest else ""
                if branch.taken:
                    branch.taking = False
                elif nested in CONDITIONALS:
                    branch.taking = branch.outer and self.condition(nested, rest[len(nested):].strip())
                    branch.taken = branch.taking
                else:
                    branch.taking = branch.taken = True
                continue
            if keyword == "endif":
                if stack:
                    stack.pop()
                continue
            prefixes = 0
            while prefixes < len(words) - 1 and words[prefixes] in PREFIXES:
                prefixes += 1
            if words[prefixes] == "define":
                m = re.match(r"(\S+?)\s*(:::=|::=|:=|\?=|\+=|!=|=)?$", " ".join(words[prefixes + 1:]))
                define = _Define(m.group(1) if m else "", (m.group(2) if m else None) or "=",
                                 "override" in words[:prefixes], active and m is not None)
                in_rule = False
                continue
            if not active:
                continue
            in_rule = False
            overriding = "override" in words[:prefixes]
            body = text.split(maxsplit=prefixes)[prefixes] if prefixes else text
            if words[0] in ("include", "-include", "sinclude"):
                self.include(rest)
                continue
            if words[prefixes] == "undefine" and len(words) > prefixes + 1:
                name = self.expand(" ".join(words[prefixes + 1:])).strip()
                var = self.evaluation.variables.get(name)
                if var is not None and (overriding or var.origin not in ("command line", "override")):
                    del self.evaluation.variables[name]
                continue
            m = ASSIGNMENT.match(body)
            if m:
                self.assign(self.expand(m.group(1)).strip(), m.group(2), body[m.end():].lstrip(), overriding)
                continue
            if words[0] in ("export", "unexport", "vpath", "override", "private"):
                continue
            rule = _split_top(text, ":", 2)
            if len(rule) == 2:
                target_variable = ASSIGNMENT.match(re.sub(r"^:?\s*(?:(?:override|export|private)\s+)*", "", rule[1]))
                in_rule = target_variable is None
                targets = bool(self.expand(rule[0]).strip())
                if in_rule and targets:
                    inline = _split_top(rule[1], ";", 2)
                    if len(inline) == 2 and inline[1].strip():
                        self.evaluation.recipes.append(Recipe(path, line, inline[1].strip()))
        self.reading.discard(resolved)

    def condition(self, keyword: str, text: str) -> bool:
        if keyword in ("ifdef", "ifndef"):
            var = self.evaluation.variables.get(self.expand(text).strip())
            return (var is not None and var.value != "") == (keyword == "ifdef")
        operands = _comparison(text)
        if operands is None:
            return False
        return (self.expand(operands[0]) == self.expand(operands[1])) == (keyword == "ifeq")

    def assign(self, name: str, op: str, value: str, overriding: bool) -> None:
        variables = self.evaluation.variables
        current = variables.get(name)
        if current is not None and current.origin in ("command line", "override") and not overriding:
            return
        origin = "override" if overriding else "file"
        if op == "?=":
            if current is None:
                variables[name] = Variable(value, True, origin)
        elif op == "+=" and current is not None:
            added = value if current.recursive else self.expand(value)
            joined = f"{current.value} {added}" if current.value and added else current.value + added
            variables[name] = Variable(joined, current.recursive, origin)
        elif op in (":=", "::=", ":::="):
            variables[name] = Variable(self.expand(value), False, origin)
        elif op == "!=":
            variables[name] = Variable(_shell(self.expand(value)), False, origin)
        else:
            variables[name] = Variable(value, True, origin)

    def include(self, names: str) -> None:
        base, root = self.evaluation.path.parent, self.evaluation.root
        for name in self.expand(names).split():
            for found in sorted(glob.glob(name, root_dir=base)) if not Path(name).is_absolute() else ():
                path = base / found
                if path.is_file() and path.resolve().is_relative_to(root):
                    self.read(path, len(self.reading))
