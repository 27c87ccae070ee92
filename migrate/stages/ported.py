"""Third-party code in the tree that already supports HIP: copied as it is, never migrated.

A project vendors libraries (GLM, CUB, a JSON or image library) under `third_party/`, `external/`, `extern/`,
`vendor/`, `deps/`, `3rdparty/`, `contrib/`, or as git submodules (the paths `.gitmodules` names; the file is read,
git is not run). Such a library that already supports HIP tells its compilers apart itself: GLM tests `__CUDACC__`
for nvcc and then `__HIP__` for hipcc, so renaming `__CUDACC__` to `__HIPCC__` sends hipcc down the CUDA branch, to
`#error "GLM requires CUDA 7.0 or higher"`. A library counts as supporting HIP when one of its C++ files names a
HIP macro or header in a preprocessor line (`#if defined(__HIP__)`, `#ifdef __HIP_PLATFORM_AMD__`, `#include
<hip/hip_runtime.h>`, ...). Its files are copied byte for byte, and one INP014 finding names the library and the
line that shows it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

VENDOR_FOLDERS = {"third_party", "thirdparty", "third-party", "3rdparty", "external", "externals", "extern", "vendor",
                  "vendored", "deps", "contrib", "submodules"}
HIP_LINE = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|include)\b[^\n]*?"
                      rb"(__HIP__|__HIPCC__|__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIP_DEVICE_COMPILE__|"
                      rb"hip/hip_runtime(?:_api)?\.h)", re.MULTILINE)
SUBMODULE_PATH = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Ported:
    root: str  # the library's folder, relative to the tree
    evidence: str  # the file that shows it
    line: int
    name: str  # the macro or header it names


def library_roots(source: Path, rels: list[str]) -> set[str]:
    """The folders of vendored libraries among the files: `third_party/glm`, and the submodules' paths."""
    roots = set()
    for rel in rels:
        parts = rel.split("/")
        for i, part in enumerate(parts[:-2]):
            if part.lower() in VENDOR_FOLDERS:
                roots.add("/".join(parts[:i + 2]))
                break
    try:
        text = (source / ".gitmodules").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    roots.update(p.strip("/") for p in SUBMODULE_PATH.findall(text) if p.strip("/") and ".." not in p.split("/"))
    return roots


def already_ported(source: Path, cpp: list[str], rels: list[str]) -> list[Ported]:
    """The vendored libraries that already support HIP, each with the first line that shows it (`cpp`: the C++
    files, in order; `rels`: every file)."""
    found = []
    for root in sorted(library_roots(source, rels)):
        inside = [rel for rel in cpp if rel.startswith(root + "/")]
        for rel in inside:
            try:
                data = (source / rel).read_bytes()
            except OSError:
                continue
            m = HIP_LINE.search(data)
            if m:
                found.append(Ported(root, rel, data.count(b"\n", 0, m.start()) + 1, m.group(1).decode()))
                break
    return found
