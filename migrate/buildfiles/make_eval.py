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
from migrate.buildfiles.make_expand import Expander, matching, shell_output, split_top
from migrate.options import Options
from migrate.packs import default_packs

DEFAULTS = {"CC": "cc", "CXX": "g++", "CPP": "$(CC) -E", "AR": "ar", "AS": "as", "LD": "ld", "RM": "rm -f",
            "MAKE": "make", "SHELL": "/bin/sh", "ARFLAGS": "rv", "LEX": "lex", "YACC": "yacc", "FC": "f77"}
ASSIGNMENT = re.compile(r"([^\s:=#]+?)\s*(:::=|::=|:=|\?=|\+=|!=|=)")
CONDITIONALS = ("ifeq", "ifneq", "ifdef", "ifndef")
PREFIXES = ("override", "export", "private")
MAX_INCLUDE_DEPTH = 16



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
        return Expander(self).expand(text, {})

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
        end = matching(text, 0, "(", ")")
        if end < 0:
            return None
        parts = split_top(text[1:end], ",", 2)
        return (parts[0].rstrip(), parts[1].lstrip()) if len(parts) == 2 else None
    m = re.fullmatch(r"""(["'])(.*?)\1\s+(["'])(.*?)\3""", text)
    return (m.group(2), m.group(4)) if m else None


class _Reader:
    def __init__(self, evaluation: Evaluation):
        self.evaluation = evaluation
        self.expander = Expander(evaluation)
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
            rule = split_top(text, ":", 2)
            if len(rule) == 2:
                target_variable = ASSIGNMENT.match(re.sub(r"^:?\s*(?:(?:override|export|private)\s+)*", "", rule[1]))
                in_rule = target_variable is None
                targets = bool(self.expand(rule[0]).strip())
                if in_rule and targets:
                    inline = split_top(rule[1], ";", 2)
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
            variables[name] = Variable(shell_output(self.expand(value)), False, origin)
        else:
            variables[name] = Variable(value, True, origin)

    def include(self, names: str) -> None:
        base, root = self.evaluation.path.parent, self.evaluation.root
        for name in self.expand(names).split():
            for found in sorted(glob.glob(name, root_dir=base)) if not Path(name).is_absolute() else ():
                path = base / found
                if path.is_file() and path.resolve().is_relative_to(root):
                    self.read(path, len(self.reading))
