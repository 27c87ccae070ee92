"""Itanium C++ names made readable, all of a run's in one call of c++filt (or llvm-cxxfilt):
`_Z5scaleIfLi64EEvPT_` is `void scale<float, 64>(float*)`."""
from __future__ import annotations

import shutil
import subprocess


def demangle(names: list[str]) -> dict[str, str]:
    """mangled -> demangled; a name no tool can read (or with no tool installed) stays as it is."""
    unique = sorted(set(names))
    tool = shutil.which("c++filt") or shutil.which("llvm-cxxfilt")
    if not unique or tool is None:
        return {n: n for n in unique}
    proc = subprocess.run([tool], input="\n".join(unique) + "\n", capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or len(lines) != len(unique):
        return {n: n for n in unique}
    return dict(zip(unique, lines))


def base_name(demangled: str) -> str:
    """The kernel's own name, without return type, scope, template arguments or parameters:
    `void ns::scale<float, 64>(float*)` -> `scale`, `(anonymous namespace)::k(int*)` -> `k`."""
    text = demangled.replace("(anonymous namespace)", "anonymous")
    head = without_parameters(text)
    depth, out = 0, []
    for ch in head:  # drop template arguments
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    words = "".join(out).split()
    return words[-1].split("::")[-1] if words else demangled


def signature(demangled: str) -> str:
    """The qualified name with its template arguments and parameters, without a template instance's return type:
    `void ns::scale<float, 64>(float*)` -> `ns::scale<float, 64>(float*)`."""
    name = base_name(demangled)
    at = demangled.find(name + "<")
    at = demangled.find(name + "(") if at < 0 else at
    if at < 0:
        return demangled
    anonymous = "(anonymous namespace)"
    while at > 0 and (demangled[at - 1].isalnum() or demangled[at - 1] in "_:" or demangled[:at].endswith(anonymous)):
        at -= len(anonymous) if demangled[:at].endswith(anonymous) else 1
    return demangled[at:]


def without_parameters(sig: str) -> str:
    """`ns::scale<float, 64>(float*)` -> `ns::scale<float, 64>`."""
    depth = 0
    for i, ch in enumerate(sig):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return sig[:i]
    return sig
