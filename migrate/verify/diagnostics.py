"""Compiler diagnostics (clang's `file:line:col: error: message`) read into findings, grouped by cause."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from migrate.pathnames import shown

DIAGNOSTIC = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<level>fatal error|error|warning): "
                        r"(?P<message>.*)$", re.M)

# cause -> (code, title); the order of CAUSES is the order in which the patterns are tried
CAUSES = [
    ("missing-header", "BLD901", "missing header", re.compile(r"file not found|cannot open source file")),
    ("unsupported-api", "BLD902", "CUDA API without a HIP counterpart",
     re.compile(r"undeclared identifier '(?:cuda|cu[A-Z]|CU_|cublas|CUBLAS|curand|cufft|cusparse|cusolver|nvrtc|__nv)|"
                r"unknown type name '(?:cuda|CU|cublas|curand|cufft|cusparse|cusolver|nvrtc|__nv)")),
    ("inline-asm", "BLD905", "inline assembly the AMD target does not accept",
     re.compile(r"invalid output constraint|invalid input constraint|unknown token in expression|"
                r"invalid instruction|instruction not supported|inline asm|in asm")),
    ("undeclared-identifier", "BLD903", "undeclared identifier",
     re.compile(r"undeclared identifier|unknown type name|no member named|no template named|was not declared")),
    ("type-mismatch", "BLD904", "type mismatch",
     re.compile(r"cannot initialize|no matching (?:function|constructor|member)|incompatible|cannot convert|"
                r"invalid operands|no viable conversion|static assertion failed|static_assert")),
    ("other", "BLD906", "other compile error", re.compile(r"")),
]


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    column: int
    level: str  # "error" or "warning" ("fatal error" is an error)
    message: str
    cause: str
    code: str
    needs: str = ""  # the HIP release that has the missing name or header, when the packs know it


NEWER = ("newer-hip-api", "BLD908", "HIP API newer than this hipcc's HIP")
MISSING_LIBRARY = ("missing-library", "BLD910", "library not found at link time")
# what GNU ld and LLVM's lld say of a -l library they cannot find (no file:line: the link of a whole program)
LINK_LIBRARY = re.compile(r"^(?:\S*ld(?:\.lld|\.bfd|\.gold)?): (?:error: )?(?:unable to find library|cannot find) "
                          r"-l(?P<name>[\w.+-]+)", re.M)
LINK_PATH = "(link)"  # the path of a link diagnostic
UNDECLARED_NAME = re.compile(r"undeclared identifier '(\w+)'|unknown type name '(\w+)'|no member named '(\w+)'")


MISSING_HEADER = re.compile(r"'([^']+)' file not found")


def classify(message: str, newer_hip_names: Mapping[str, str] | frozenset[str] = frozenset(),
             newer_headers: Mapping[str, str] | None = None) -> tuple[str, str, str]:
    """(cause, code, release that has it) of an error message; `newer_hip_names` and `newer_headers` are the HIP
    names and headers the installed HIP does not have yet (with the release that does, where known)."""
    m = UNDECLARED_NAME.search(message)
    name = m and (m.group(1) or m.group(2) or m.group(3))
    if name and name in newer_hip_names:
        return NEWER[0], NEWER[1], newer_hip_names.get(name, "") if isinstance(newer_hip_names, Mapping) else ""
    m = MISSING_HEADER.search(message)
    if m and newer_headers and m.group(1) in newer_headers:
        return NEWER[0], NEWER[1], newer_headers[m.group(1)]
    for cause, code, _, pattern in CAUSES:
        if pattern.search(message):
            return cause, code, ""
    return "other", "BLD906", ""


def parse(output: str, newer_hip_names: Mapping[str, str] | frozenset[str] = frozenset(),
          newer_headers: Mapping[str, str] | None = None) -> list[Diagnostic]:
    found, seen = [], set()
    for m in DIAGNOSTIC.finditer(output):
        level = "error" if "error" in m.group("level") else "warning"
        message = m.group("message").strip()
        key = (m.group("path"), m.group("line"), m.group("col"), message)
        if key in seen:  # one diagnostic per offload target and host pass: report it once
            continue
        seen.add(key)
        cause, code, needs = (classify(message, newer_hip_names, newer_headers) if level == "error"
                              else ("warning", "BLD907", ""))
        found.append(Diagnostic(m.group("path"), int(m.group("line")), int(m.group("col")), level, message, cause,
                                code, needs))
    return found + link_errors(output)


def link_errors(output: str) -> list[Diagnostic]:
    """The -l libraries the linker could not find, one diagnostic each."""
    found = dict.fromkeys(m.group("name") for m in LINK_LIBRARY.finditer(output))
    return [Diagnostic(LINK_PATH, 0, 0, "error", f"cannot find -l{name}", MISSING_LIBRARY[0], MISSING_LIBRARY[1])
            for name in found]


def title(cause: str) -> str:
    if cause == NEWER[0]:
        return NEWER[2]
    if cause == MISSING_LIBRARY[0]:
        return MISSING_LIBRARY[2]
    return next((t for c, _, t, _ in CAUSES if c == cause), "compiler warning")


TARGET = re.compile(r" \((?:gfx[0-9a-z]+[^()]*|project build)\): ")  # the target a finding's message names


def first_error(findings) -> str:
    """hipcc's own first error of a unit, as `CODE path:line: message` (the message without the cause's title)."""
    for f in findings:
        if f.severity.label == "error":
            return f"{f.code} {shown(f.span.path)}:{f.span.line}: {diagnostic_text(f)}"
    return ""


def error_key(f) -> tuple:
    """What makes two compile errors the same error: code, place and the compiler's text (not the target)."""
    return (f.code, f.span.path, f.span.line, diagnostic_text(f))


def diagnostic_text(f) -> str:
    """What the compiler said: the finding's message without the cause title and target put before it."""
    return f.matched or f.message.split(": ", 1)[-1]
