"""The text of a file that a HIP build for AMD never compiles: branches of `#if`/`#ifdef` on the HIP platform's
macros that say "not HIP" (`#ifndef USE_ROCM`, the `#else` of `#ifdef __HIP_PLATFORM_AMD__`, ...).

Code already partly ported keeps its CUDA path behind such gates (PyTorch's `#if defined(USE_ROCM) ... #else`);
what a rule would report there does not concern the HIP build. Only the HIP platform's macros are evaluated:
hipcc defines `__HIPCC__`, `__HIP__`, `__HIP_PLATFORM_AMD__` (and the older `__HIP_PLATFORM_HCC__`), and
PyTorch's ROCm builds define `USE_ROCM`. `__has_include(<nvml.h>)` of a CUDA-only header that no ROCm install has
is false: the code it guards is an optional dependency the HIP build leaves out. A condition with any other macro
in a deciding place is unknown, and its branches count as compiled.

So are the macros only nvcc and the CUDA headers define (`CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_*__`,
`__NVCC__`, which no pack renames): hipcc leaves them undefined, so `#ifdef __NVCC__` is false and
`CUDART_VERSION >= 12000` compares 0 (HAZ018 reports the gate itself). `__CUDA_ARCH__` is undefined too, but HAZ006
renames its plain device checks to `__HIP_DEVICE_COMPILE__`: only its comparisons with a number (`__CUDA_ARCH__ >=
700`, left as they are) are evaluated, as 0. `__CUDACC__` becomes `__HIPCC__`, which hipcc defines. A file that
#defines one of these names itself keeps it unknown."""
from __future__ import annotations

import operator
import re

from migrate.cpp.conditionals import directives
from migrate.cpp.parse import CUDA_ONLY_MACROS

HIP_DEFINED = frozenset({"__HIP_PLATFORM_AMD__", "__HIPCC__", "__HIP__", "__HIP_PLATFORM_HCC__", "USE_ROCM",
                         "__CUDACC__"})
# undefined in a HIP build, whatever is tested: their value is 0 and `defined` is false
CUDA_UNDEFINED = CUDA_ONLY_MACROS
ZERO_IN_COMPARISONS = CUDA_UNDEFINED | {"__CUDA_ARCH__"}  # 0 where compared with a number
TOKEN = re.compile(r"defined|\|\||&&|[=!<>]=|[<>]|[()!]|[A-Za-z_]\w*|\d\w*|\S")
NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*")
COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}
QUICK = re.compile(rb"HIP|USE_ROCM|__has_include|CUDA_VERSION|CUDART_VERSION|__CUDACC|__NVCC__|__CUDA_ARCH__")
# CUDA-only headers no ROCm install has, so `__has_include(<nvml.h>)` is false in a HIP build for AMD: NVML, CUPTI,
# nvJPEG, cuFile, NVSHMEM (their ROCm counterparts, AMD SMI, rocprofiler, rocJPEG, ..., have other headers)
CUDA_ONLY_HEADERS = frozenset({"nvml.h", "cupti.h", "nvjpeg.h", "cufile.h", "nvshmem.h", "nvshmemx.h"})
OWN_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(CUDA_VERSION|CUDART_VERSION|__CUDACC\w*|__NVCC__|__CUDA_ARCH__)\b",
                        re.MULTILINE)
HAS_INCLUDE = re.compile(r"__has_include\s*\(\s*[<\"]([^>\"]+)[>\"]\s*\)")


def _has_include(m: re.Match) -> str:
    return "__CUDA_ONLY_HEADER__" if m.group(1).strip() in CUDA_ONLY_HEADERS else "__UNKNOWN_HEADER__"


def evaluate(condition: str, own: frozenset = frozenset()) -> bool | None:
    """True or False when the HIP platform's macros decide `condition` (an #if expression), else None. `own`: the
    names the file #defines itself, which stay unknown."""
    tokens = TOKEN.findall(HAS_INCLUDE.sub(_has_include, condition.replace("\\\n", " ")))
    tokens = [f"?{t}" if t in own else t for t in tokens]
    value, rest = _or(tokens)
    return value if not rest else None


def _number(token: str) -> int | None:
    m = NUMBER.fullmatch(token)
    return int(m.group(1), 0) if m else None


def _comparison(tokens) -> tuple[bool | None, list] | None:
    """`NAME op NUMBER` or `NUMBER op NAME` of a name that is 0 in a HIP build, with the tokens after it; else None."""
    if len(tokens) < 3 or tokens[1] not in COMPARE:
        return None
    left, op, right = tokens[0], tokens[1], tokens[2]
    if left in ZERO_IN_COMPARISONS and _number(right) is not None:
        a, b = 0, _number(right)
    elif right in ZERO_IN_COMPARISONS and _number(left) is not None:
        a, b = _number(left), 0
    else:
        return None
    rest = tokens[3:]
    if rest and rest[0] not in ("||", "&&", ")"):  # more arithmetic after it: unknown
        return None
    return COMPARE[op](a, b), rest


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
        return (True if name in HIP_DEFINED else False if name in CUDA_UNDEFINED else None), rest
    compared = _comparison(tokens)
    if compared is not None:
        return compared
    value = (True if tokens[0] in HIP_DEFINED
             else False if tokens[0] == "__CUDA_ONLY_HEADER__" or tokens[0] in CUDA_UNDEFINED else None)
    tokens = tokens[1:]
    if tokens and tokens[0] not in ("||", "&&", ")"):  # a comparison or arithmetic (`__CUDA_ARCH__ < 800`): unknown
        while tokens and tokens[0] not in ("||", "&&", ")"):
            tokens = tokens[1:]
        value = None
    return value, tokens


def not_compiled(data: bytes) -> list[tuple[int, int]]:
    """[start, end) byte ranges a HIP build for AMD skips, in order (nested ones may overlap)."""
    if not QUICK.search(data):
        return []
    own = frozenset(m.decode() for m in OWN_DEFINE.findall(data))
    ranges: list[tuple[int, int]] = []
    stack: list[dict] = []  # per #if: was a branch surely taken, is the current one surely skipped, where it began
    for word, condition, m in directives(data):
        if word.startswith("if"):
            value = _value(word[2:], condition, own)
            stack.append({"taken": value is True, "skipped": value is False, "start": m.end(), "maybe": value is None})
        elif not stack:
            continue
        elif word != "endif":  # elif, elifdef, elifndef, else
            frame = stack[-1]
            if frame["skipped"]:
                ranges.append((frame["start"], m.start()))
            value = True if word == "else" else _value(word[4:], condition, own)
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


def _value(kind: str, condition: str, own: frozenset) -> bool | None:
    """The value of an `#if`/`#elif` ("") condition, or of the name of an `#ifdef`/`#ifndef` ("def", "ndef")."""
    if kind == "":
        return evaluate(condition, own)
    name = condition.split()[0] if condition.split() else ""
    value = None if name in own else True if name in HIP_DEFINED else False if name in CUDA_UNDEFINED else None
    return value if kind == "def" or value is None else not value


def skipped(ctx) -> list[tuple[int, int]]:
    """`not_compiled` of the file of a rule's context, worked out once however many rules ask."""
    return ctx.once("not_compiled", lambda c: not_compiled(c.data))


def inside(ranges: list[tuple[int, int]], offset: int) -> bool:
    return any(start <= offset < end for start, end in ranges)
