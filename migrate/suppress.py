"""Inline suppressions: `// hipmigrate: ignore[CODE]` in C++/CUDA, `# hipmigrate: ignore[CODE]` in Python,
CMake, Makefiles, shell, YAML, TOML, requirements and Dockerfiles.

    cudaDeviceSynchronize();  // hipmigrate: ignore[MAP001]
    # hipmigrate: ignore[HAZ001, HAZ003]      <- a comment alone on its line covers the next line too
    int lane = threadIdx.x % 32;
    x = os.environ["CUDA_HOME"]  # hipmigrate: ignore

A code may be a prefix (`ignore[HAZ]`); a bare `ignore` covers every code. The marker counts only inside a
comment: in C++ the comment nodes of tree-sitter's tree, in Python the tokenizer's COMMENT tokens, elsewhere a
`#` at the start of a line or after whitespace. A suppression (or one of its codes) that matches no finding is
reported as CHK001, a warning that does not fail the gate.

The engine applies them (migrate/fixing.py, migrate/stages/rewrite.py), so every command honours them: a suppressed
finding is not reported and its fix is not applied (outcome `suppressed`); the file's result keeps the suppressed
findings and the CHK001 ones apart. `--no-suppressions` (Options.suppressions False) reads no marker at all.
"""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from functools import lru_cache

from migrate.model import Finding, RuleKind, Severity, Span

MARKER = b"hipmigrate:"
PATTERN = re.compile(r"\bhipmigrate:[ \t]*ignore\b(?:\[([^\]\n]*)\])?")
HASH_COMMENT = re.compile(rb"(?:^|(?<=[ \t]))#[^\n]*", re.M)


class UnusedSuppression:
    """A `hipmigrate: ignore[...]` comment, or one of its codes, that matches no finding on the lines it covers.

    Why: a suppression left behind after the code it excused was migrated hides the next CUDA-only construct
    written on that line. Remove the comment, or the codes it names that no longer occur there. CHK001 is a
    warning: `hipmigrate check` reports it but does not exit 1 for it.
    """

    code = "CHK001"
    kind = RuleKind.INPUT
    severity = Severity.WARNING

    @classmethod
    def name(cls) -> str:
        return cls.__name__

    @classmethod
    def doc(cls) -> str:
        return " ".join((cls.__doc__ or "").split("\n\n")[0].split()) + "\n\n" + "\n\n".join(
            " ".join(p.split()) for p in (cls.__doc__ or "").split("\n\n")[1:])


@dataclass(frozen=True)
class Suppression:
    path: str
    line: int  # of the comment
    column: int
    start: int  # byte range of the marker
    end: int
    codes: tuple[str, ...]  # empty: every code
    own_line: bool  # the comment is alone on its line: it also covers the next line

    def covers(self, line: int) -> bool:
        return line == self.line or (self.own_line and line == self.line + 1)

    def matching(self, code: str) -> str | None:
        """The entry that covers `code` ("" for a bare ignore), None if none does."""
        if not self.codes:
            return ""
        return next((c for c in self.codes if code.startswith(c)), None)


@lru_cache(maxsize=1)
def _comment_query():
    from migrate.cpp.parse import query

    return query("(comment) @c")


def _comments_cpp(data: bytes) -> list[tuple[int, int]]:
    from migrate.cpp.parse import captures, parse

    tree = parse(data)
    nodes = captures(_comment_query(), tree.root_node).get("c", [])
    return [(n.start_byte, n.end_byte) for n in nodes]


def _comments_python(data: bytes) -> list[tuple[int, int]]:
    starts = [0] + [m.end() for m in re.finditer(b"\n", data)]
    out = []
    try:
        for tok in tokenize.tokenize(io.BytesIO(data).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                line = data[starts[row - 1]:]
                begin = starts[row - 1] + len(line.decode("utf-8", "replace")[:col].encode("utf-8"))
                out.append((begin, begin + len(tok.string.encode("utf-8"))))
    except (tokenize.TokenError, SyntaxError, IndexError):
        return _comments_hash(data)
    return out


def _comments_hash(data: bytes) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in HASH_COMMENT.finditer(data)]


def find(path: str, kind: str, data: bytes) -> list[Suppression]:
    """The suppressions of one file (`kind` as the scan stage sorts files: "cpp", "python", "cmake", ...)."""
    if MARKER not in data:
        return []
    if kind == "cpp":
        comments = _comments_cpp(data)
    elif kind == "python":
        comments = _comments_python(data)
    else:
        comments = _comments_hash(data)
    out = []
    for start, end in comments:
        text = data[start:end].decode("utf-8", "replace")
        for m in PATTERN.finditer(text):
            codes = tuple(c.strip().upper() for c in (m.group(1) or "").split(",") if c.strip())
            at = start + len(text[:m.start()].encode("utf-8"))
            line_start = data.rfind(b"\n", 0, start) + 1
            own_line = not data[line_start:start].strip()
            out.append(Suppression(path, data.count(b"\n", 0, at) + 1, at - line_start + 1, at,
                                   start + len(text[:m.end()].encode("utf-8")), codes, own_line))
    return out


@dataclass(frozen=True)
class Applied:
    kept: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    unused: tuple[Finding, ...]  # CHK001 findings


def of_file(path: str, kind: str, data: bytes, options) -> list[Suppression]:
    """The suppressions the engine honours in one file: none with --no-suppressions."""
    return find(path, kind, data) if options.suppressions else []


def covered(suppressions: list[Suppression], code: str, line: int) -> bool:
    """Whether a suppression covers a finding of `code` that starts on `line`."""
    return any(s.covers(line) and s.matching(code) is not None for s in suppressions)


def apply(findings: list[Finding], suppressions: list[Suppression]) -> Applied:
    """Drop the findings a suppression covers (by the line a finding starts on); report what matched nothing."""
    if not suppressions:
        return Applied(tuple(findings), (), ())
    used: set[tuple[int, str]] = set()
    kept, suppressed = [], []
    for f in findings:
        hit = False
        for i, s in enumerate(suppressions):
            if s.covers(f.span.line):
                entry = s.matching(f.code)
                if entry is not None:
                    used.add((i, entry))
                    hit = True
        (suppressed if hit else kept).append(f)
    unused = []
    for i, s in enumerate(suppressions):
        entries = s.codes or ("",)
        idle = [e for e in entries if (i, e) not in used]
        if not idle:
            continue
        what = "this suppression" if not s.codes or len(idle) == len(entries) else f"{', '.join(idle)} in this suppression"
        shown = f"ignore[{', '.join(s.codes)}]" if s.codes else "ignore"
        message = (f"{what} matches no finding (`hipmigrate: {shown}`): remove "
                   f"{'it' if what == 'this suppression' else 'the codes that no longer occur here'}")
        unused.append(Finding(UnusedSuppression.code, UnusedSuppression.kind, UnusedSuppression.severity, message,
                              Span(s.path, s.start, s.end, s.line, s.column), matched=shown))
    return Applied(tuple(kept), tuple(suppressed), tuple(unused))
