"""The names a project declares itself, read from its headers (and, for one file migrated alone, from the headers it
includes with quotes and those beside it): macros, types, and functions whose names look like CUDA API
(`cudaCheck`, `cublasCheck`, `cudaMallocConditionallyManaged`, `cuWarpSum`). CPP006 never reports them as CUDA API
without a HIP counterpart. Read with regular expressions over the bytes of each header: declarations only, never
calls (a call is preceded by an operator, a bracket or a keyword such as `return`, a declaration by its type)."""
from __future__ import annotations

import re
from pathlib import Path

from migrate.cpp.context import CUDA_LOOKING, DEFINE

HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".hh", ".hxx", ".inl")
# a type: `struct cuHalfComplex {`, `typedef ... cuIndex;`, `using cuX = ...`
TYPE_DECL = re.compile(rb"\b(?:struct|class|union|enum)[ \t]+(?:__align__\(\w+\)[ \t]+)?([A-Za-z_]\w*)[ \t\r\n]*[{:]"
                       rb"|\btypedef\b[^;{}]*?\b([A-Za-z_]\w*)[ \t]*;|\busing[ \t]+([A-Za-z_]\w*)[ \t]*=")
# a function declared or defined: its name right after the word that ends its return type (`void`, `T`, `int*`)
FUNCTION_DECL = re.compile(rb"\b([A-Za-z_]\w*)[ \t]*[*&]*[ \t]+[*&]*[ \t]*((?:cu|cuda|CU|CUDA|nv|NV)\w*)[ \t]*\(")
NOT_A_TYPE = {b"return", b"else", b"case", b"throw", b"new", b"delete", b"sizeof", b"goto", b"co_return",
              b"co_yield", b"typeid", b"alignof", b"decltype", b"not", b"and", b"or", b"do", b"define", b"undef",
              b"ifdef", b"ifndef", b"if", b"elif", b"while", b"for", b"switch", b"defined", b"operator"}
INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
MAX_INCLUDED = 200  # headers read for one file migrated alone


def declared(text: bytes) -> set[str]:
    """The macros and types a header declares, and its functions with CUDA-looking names."""
    names = {m.group(1).decode("ascii", "replace") for m in DEFINE.finditer(text)}
    names.update(next(g for g in m.groups() if g).decode("ascii", "replace") for m in TYPE_DECL.finditer(text))
    for m in FUNCTION_DECL.finditer(text):
        name = m.group(2).decode("ascii", "replace")
        if m.group(1) not in NOT_A_TYPE and CUDA_LOOKING.match(name):
            names.add(name)
    return names


def is_header(rel: str) -> bool:
    return rel.endswith(HEADER_SUFFIXES)


def around(path: Path) -> set[str]:
    """For one file migrated alone: the names declared by the headers it includes with quotes (followed from header
    to header, relative to the including file) and by the headers in its own folder."""
    seen: set[Path] = set()
    queue = [path] + sorted(p for p in path.parent.glob("*") if is_header(p.name))
    names: set[str] = set()
    while queue and len(seen) < MAX_INCLUDED:
        current = queue.pop(0)
        try:
            current = current.resolve()
            if current in seen or not current.is_file():
                continue
            seen.add(current)
            text = current.read_bytes()
        except OSError:
            continue
        if current != path.resolve():
            names |= declared(text)
        queue += [current.parent / m.group(1).decode("utf-8", "replace") for m in INCLUDE.finditer(text)]
    return names


# a header whose API is a library to link on ROCm although CUDA's is header-only: NVTX 3 -> roctx (-lroctx64)
HEADER_LIBRARIES = (("roctx64", re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:nvtx3/[\w./]+|nvToolsExt\w*\.h)[>\"]",
                                           re.M)),)


def needed_libraries(paths) -> frozenset[str]:
    """The HIP libraries that the C++ files at `paths` need linked because of the headers they include."""
    found: set[str] = set()
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        found.update(lib for lib, pattern in HEADER_LIBRARIES if lib not in found and pattern.search(data))
        if len(found) == len(HEADER_LIBRARIES):
            break
    return frozenset(found)
