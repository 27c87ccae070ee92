"""The text of a file that a HIP build for AMD never compiles: branches of `#if`/`#ifdef` on the HIP platform's
macros that say "not HIP" (`#ifndef USE_ROCM`, the `#else` of `#ifdef __HIP_PLATFORM_AMD__`, ...).

Code already partly ported keeps its CUDA path behind such gates (PyTorch's `#if defined(USE_ROCM) ... #else`);
what a rule would report there does not concern the HIP build. Only the HIP platform's macros are evaluated:
hipcc defines `__HIPCC__`, `__HIP__`, `__HIP_PLATFORM_AMD__` (and the older `__HIP_PLATFORM_HCC__`), and
PyTorch's ROCm builds define `USE_ROCM`. `__has_include(<nvml.h>)` of a CUDA-only header that no ROCm install has
is false: the code it guards is an optional dependency the HIP build leaves out. A condition with any other macro
in a deciding place is unknown, and its branches count as compiled."""
from __future__ import annotations

import re

from migrate.cpp.conditionals import directives

HIP_DEFINED = frozenset({"__HIP_PLATFORM_AMD__", "__HIPCC__", "__HIP__", "__HIP_PLATFORM_HCC__", "USE_ROCM"})
TOKEN = re.compile(r"defined|\|\||&&|[()!]|[A-Za-z_]\w*|\S")
# CUDA-only headers no ROCm install has, so `__has_include(<nvml.h>)` is false in a HIP build for AMD: NVML, CUPTI,
# nvJPEG, cuFile, NVSHMEM (their ROCm counterparts, AMD SMI, rocprofiler, rocJPEG, ..., have other headers)
CUDA_ONLY_HEADERS = frozenset({"nvml.h", "cupti.h", "nvjpeg.h", "cufile.h", "nvshmem.h", "nvshmemx.h"})
HAS_INCLUDE = re.compile(r"__has_include\s*\(\s*[<\"]([^>\"]+)[>\"]\s*\)")


def _has_include(m: re.Match) -> str:
    return "__CUDA_ONLY_HEADER__" if m.group(1).strip() in CUDA_ONLY_HEADERS else "__UNKNOWN_HEADER__"


def evaluate(condition: str) -> bool | None:
    """True or False when the HIP platform's macros decide `condition` (an #if expression), else None."""
    tokens = TOKEN.findall(HAS_INCLUDE.sub(_has_include, condition.replace("\\\n", " ")))
    value, rest = _or(tokens)
    return value if not rest else None


def _chain(tokens, op: str, operand, combine):
    """`operand (op operand)*`, left to right, values combined three-valued."""
    value, tokens = operand(tokens)
    while tokens and tokens[0] == op:
        right, tokens = operand(tokens[1:])
        value = combine(value, right)
    return value, tokens


def _or(tokens):
    return _chain(tokens, "||", _and, lambda a, b: True if True in (a, b) else False if a is b is False else None)


def _and(tokens):
    return _chain(tokens, "&&", _not, lambda a, b: False if False in (a, b) else True if a is b is True else None)


def _not(tokens):
    if tokens and tokens[0] == "!":
        value, tokens = _not(tokens[1:])
        return (None if value is None else not value), tokens
    return _atom(tokens)


def _atom(tokens):
    if not tokens:
        return None, tokens
    if tokens[0] == "(":
        value, tokens = _or(tokens[1:])
        return value, tokens[1:] if tokens and tokens[0] == ")" else ["?"]
    if tokens[0] == "defined":
        rest = tokens[1:]
        name, rest = (rest[1], rest[3:]) if rest[:1] == ["("] and len(rest) >= 3 and rest[2] == ")" else (
            (rest[0], rest[1:]) if rest else ("", []))
        return (True if name in HIP_DEFINED else None), rest
    value = True if tokens[0] in HIP_DEFINED else False if tokens[0] == "__CUDA_ONLY_HEADER__" else None
    tokens = tokens[1:]
    if tokens and tokens[0] not in ("||", "&&", ")"):  # a comparison or arithmetic (`__CUDA_ARCH__ < 800`): unknown
        while tokens and tokens[0] not in ("||", "&&", ")"):
            tokens = tokens[1:]
        value = None
    return value, tokens


def not_compiled(data: bytes) -> list[tuple[int, int]]:
    """[start, end) byte ranges a HIP build for AMD skips, in order (nested ones may overlap)."""
    if b"HIP" not in data and b"USE_ROCM" not in data and b"__has_include" not in data:
        return []
    ranges: list[tuple[int, int]] = []
    stack: list[dict] = []  # per #if: was a branch surely taken, is the current one surely skipped, where it began
    for word, condition, m in directives(data):
        if word.startswith("if"):
            value = _value(word[2:], condition)
            stack.append({"taken": value is True, "skipped": value is False, "start": m.end(), "maybe": value is None})
        elif not stack:
            continue
        elif word != "endif":  # elif, elifdef, elifndef, else
            frame = stack[-1]
            if frame["skipped"]:
                ranges.append((frame["start"], m.start()))
            value = True if word == "else" else _value(word[4:], condition)
            if frame["taken"]:
                frame["skipped"] = True
            else:
                frame["skipped"] = value is False
                frame["taken"] = value is True and not frame["maybe"]
                frame["maybe"] = frame["maybe"] or value is None
            frame["start"] = m.end()
        else:  # endif
            frame = stack.pop()
            if frame["skipped"]:
                ranges.append((frame["start"], m.start()))
    return sorted(ranges)


def _value(kind: str, condition: str) -> bool | None:
    """The value of an `#if`/`#elif` ("") condition, or of the name of an `#ifdef`/`#ifndef` ("def", "ndef")."""
    if kind == "":
        return evaluate(condition)
    value = True if condition.split()[:1] and condition.split()[0] in HIP_DEFINED else None
    return value if kind == "def" or value is None else not value


def inside(ranges: list[tuple[int, int]], offset: int) -> bool:
    return any(start <= offset < end for start, end in ranges)
