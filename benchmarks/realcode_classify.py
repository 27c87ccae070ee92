"""A compile failure's cause, from its first error line, so that one cause groups the units it stops.

The table is ordered: the first pattern that matches the message names the cause. Names are normalised so that
instances of one class fall together: template arguments, `std::`-style qualifiers of the subject and numbers in
types are dropped, a header is named by its path. A cause whose header belongs to another system (OpenGL, EGL,
MPI, X11, Direct3D, Vulkan) is the environment, not the migration: `environment()` says so.
"""
from __future__ import annotations

import re

# the last line: Debian's librocwmma-dev 7.2.4 ships rocwmma/rocwmma.hpp without the internal/ headers it includes,
# so a unit written for rocWMMA (CPP052) stops there on this machine, not on a ROCm install (docs/build.md)
ENVIRONMENT_HEADERS = re.compile(r"^(GL|GLES\d?|EGL|KHR|X11|vulkan|d3d\w*|dxgi\w*|mpi|openmpi|omp)\b|"
                                 r"^(mpi|omp|glew|glut|freeglut|d3d\w*|windows|dxgi\w*)\.h$|"
                                 r"^internal/(accessors|io_scheduler|io_traits|pack_util|types)\.hpp$", re.IGNORECASE)


def _name(text: str) -> str:
    """A subject's name without template arguments, leading `::`, or a trailing parameter list."""
    out, depth = [], 0
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    name = "".join(out).strip()
    name = re.sub(r"\(.*\)$", "", name).strip()
    return name.lstrip(":") or text


def _type(text: str) -> str:
    """A type as a class: qualifiers and pointer/reference marks dropped, template arguments dropped."""
    t = re.sub(r"\b(const|volatile|struct|class|enum|union)\b", "", text)
    t = re.sub(r"\[\d*\]", "[]", t)
    return re.sub(r"\s+", " ", _name(t).replace("*", "").replace("&", "")).strip()


def _header(text: str) -> str:
    return text.strip().strip("'\"<>")


# (regex over the message, cause template); groups are formatted by the function named in FORMAT
TABLE: list[tuple[re.Pattern, str]] = [(re.compile(p), c) for p, c in [
    # headers
    (r"^'(?P<header>[^']+)' file not found", "file not found: {header}"),
    (r"^cannot open source file \"(?P<header>[^\"]+)\"", "file not found: {header}"),
    (r"^(?P<header>[^\s:]+\.(?:h|hpp|cuh|hxx|inl)): No such file or directory", "file not found: {header}"),
    # preprocessor
    (r"^#error\s*(?P<text>.*)", "#error: {text}"),
    (r"^\"(?P<text>.*)\"$", "#error: {text}"),
    # inline assembly
    (r"^invalid (?:output|input) constraint '(?P<text>[^']+)' in asm", "inline asm: invalid constraint '{text}'"),
    (r"^(?:invalid instruction|unknown directive|invalid operand for instruction|unknown token in expression|"
     r"instruction not supported|invalid register)", "inline asm: not AMD assembly"),
    (r"^(?:couldn't allocate|unsupported) .*(?:asm|register)", "inline asm: register"),
    # names
    (r"^use of undeclared identifier '(?P<name>[^']+)'", "undeclared identifier {name}"),
    (r"^identifier \"(?P<name>[^\"]+)\" is undefined", "undeclared identifier {name}"),
    (r"^unknown type name '(?P<name>[^']+)'", "unknown type {name}"),
    (r"^no (?:template|type|member) named '(?P<name>[^']+)' in (?:namespace )?'(?P<scope>[^']+)'",
     "no {name} in {scope}"),
    (r"^no member named '(?P<name>[^']+)' in '(?P<scope>[^']+)'", "no member {name} in {scope}"),
    (r"^no template named '(?P<name>[^']+)'", "no template {name}"),
    (r"^use of undeclared '(?P<name>[^']+)'", "undeclared identifier {name}"),
    (r"^'[^']+' is unavailable: The image/texture API", "textures: no image API on the target"),
    (r"^'(?P<name>[^']+)' is unavailable", "unavailable: {name}"),
    (r"^(?:call to )?(?:deleted|unavailable) function '(?P<name>[^']+)'", "unavailable: {name}"),
    # overloads and redefinitions
    (r"^no matching (?:function|member function|constructor) for (?:call to |initialization of )?'(?P<name>[^']+)'",
     "no matching function {name}"),
    (r"^no matching function for call to '?(?P<name>[^' ]+)", "no matching function {name}"),
    (r"^call to '(?P<name>[^']+)' is ambiguous", "ambiguous call {name}"),
    (r"^(?:call of overloaded|more than one instance of overloaded function) \"?'?(?P<name>[\w:]+)",
     "ambiguous call {name}"),
    (r"^redefinition of '(?P<name>[^']+)'", "redefinition {name}"),
    (r"^(?:typedef )?redefinition (?:of )?.*'(?P<name>[^']+)'", "redefinition {name}"),
    (r"^(?P<name>[\w:]+) has already been defined", "redefinition {name}"),
    (r"^conflicting types for '(?P<name>[^']+)'", "redefinition {name}"),
    (r"^functions that differ only in their return type", "redefinition (return type only)"),
    # types and conversions
    (r"^array subscript is not an integer", "array subscript is not an integer"),
    (r"^cannot initialize a (?:parameter|variable|return object) of type '(?P<to>[^']+)' with an? \w+ of type "
     r"'(?P<from>[^']+)'", "conversion {from} -> {to}"),
    (r"^no viable conversion from '(?P<from>[^']+)' to '(?P<to>[^']+)'", "conversion {from} -> {to}"),
    (r"^(?:assigning to|cannot convert) '(?P<to>[^']+)' from (?:incompatible type )?'(?P<from>[^']+)'",
     "conversion {from} -> {to}"),
    (r"^invalid operands to binary expression \('(?P<from>[^']+)'(?: \(aka '[^']*'\))? and '(?P<to>[^']+)'",
     "invalid operands {from}, {to}"),
    (r"^no viable overloaded '(?P<name>[^']+)'", "no viable operator {name}"),
    (r"^(?:too (?:few|many)) arguments to function call", "wrong number of arguments"),
    (r"^(?:too (?:few|many)) (?:template )?arguments", "wrong number of arguments"),
    (r"^static assertion failed:?\s*(?P<text>.*)", "static assertion: {text}"),
    (r"^static_assert failed", "static assertion"),
    (r"^(?:variable|array) .*(?:not a constant|non-constant|variable length)", "not a constant expression"),
    (r"^(?:constexpr variable|in-class initializer|expression) .*constant expression", "not a constant expression"),
    (r"^reference to __global__ function '(?P<name>[^']+)' in __(?:device|global)__ function",
     "dynamic parallelism: a kernel launched from device code"),
    (r"^device-side kernel call/launch is not supported", "dynamic parallelism: a kernel launched from device code"),
    (r"^reference to __(?:device|host)__ function '(?P<name>[^']+)' in __(?:host|device|global)__",
     "host/device: {name}"),
    (r"^(?:variable|field) has incomplete type '(?P<name>[^']+)'", "incomplete type {name}"),
    (r"^use of overloaded operator '(?P<text>[^']+)' is ambiguous", "ambiguous operator {text}"),
    (r"^no matching (?:function|member)", "no matching function"),
    # syntax
    (r"^expected (?P<text>.+)", "syntax: expected {text}"),
    (r"^unknown argument: '(?P<text>[^']+)'", "compiler flag: {text}"),
    (r"^timed out", "timeout"),
]]


def _clean(groups: dict) -> dict:
    out = {}
    for key, value in groups.items():
        if value is None:
            continue
        if key == "header":
            out[key] = _header(value)
            if out[key].startswith(("cuda/", "nv/")):  # libcu++: one class, whichever of its headers
                out[key] = "cuda/* (libcu++)"
        elif key in ("from", "to", "scope"):
            out[key] = _type(value)
        elif key == "text":
            out[key] = re.sub(r"\s+", " ", value).strip().strip('"')[:80]
        else:
            out[key] = _name(value)
    return out


def classify(message: str | None, source_line: str | None = None, where: str | None = None) -> str:
    """The cause of a failure whose first error reads `message` (None: the compiler said nothing usable);
    `source_line`, the line the error points at where known, tells an `#error` (whose message is its bare text);
    `where`, the file the error names: clang's `<inline asm>` is the assembler's."""
    if not message:
        return "no error message"
    text = message.strip()
    if where == "<inline asm>":
        return "inline asm: not AMD assembly"
    if source_line is not None and re.match(r"\s*#\s*error\b", source_line):
        return "#error: " + re.sub(r"\s+", " ", text).strip().strip('"')[:80]
    for regex, cause in TABLE:
        m = regex.match(text)
        if m:
            return cause.format(**_clean(m.groupdict()))
    # an unknown shape: quoted names and numbers blanked, so that the same message groups
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'_'", text)
    return "other: " + re.sub(r"\d+", "N", text)[:100]


def environment(cause: str) -> bool:
    """Whether a cause is the environment's (another system's header missing), not the migration's."""
    if not cause.startswith("file not found: "):
        return False
    return bool(ENVIRONMENT_HEADERS.match(cause[len("file not found: "):]))
